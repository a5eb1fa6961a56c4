// Internal shape helpers shared by the narrow phase: core (ball-less) supports of rounded shapes.
#pragma once

#include "tumble/shape.h"

/// Support with or without the ball of spheres and capsules (false: the core), scale applied.
vec3s tbShape_SupportEx(const tbShape* shape, vec3s d, int* index, bool withBall);

/// Support of the shape as if its scale were one.
vec3s tbShape_UnscaledSupport(const tbShape* shape, vec3s d, int* index, bool withRadius);
