// Ray casts against one convex shape: conservative advancement along the ray with GJK distances
// (van den Bergen, "Ray casting against general convex objects", 2004; Box2D's b2ShapeCast).
#pragma once

#include "tumble/base.h"
#include "tumble/geometry.h"
#include "tumble/transform.h"

/// Where a ray first meets a shape.
typedef struct tbCastOutput
{
	vec3s point;    ///< hit point on the surface, world, metres
	vec3s normal;   ///< outward unit surface normal at the hit, world
	float fraction; ///< hit at origin + fraction * translation
	int iterations; ///< advancement steps taken
	bool hit;
} tbCastOutput;

/// Cast the segment origin + t * translation, t in [0, maxFraction], at a shape placed at xf. A ray
/// that starts inside the shape reports no hit (Box2D's rule: it would have no normal). The hit
/// point is within 1e-4 of the shape's size of the surface. No hit either for maxFraction <= 0 or
/// NaN, a NaN or Inf origin or translation, or a pose that is not finite with a unit quaternion.
TB_API tbCastOutput tbRayCastShape(const tbGeometry* shape, tbTransform xf, vec3s origin,
                                   vec3s translation, float maxFraction);
