// Internal: the closest points of two segments (segments.c).
#pragma once

#include <cglm/struct.h>

/// Closest points of the segments p + s dp and q + u dq, s and u in [0, 1]; either may be a point
/// (dp or dq zero).
void tbClosestSegments(vec3s p, vec3s dp, vec3s q, vec3s dq, vec3s* onP, vec3s* onQ);
