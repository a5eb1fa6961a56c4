// Ray casts by conservative advancement: step along the ray by the GJK distance over the approach
// speed; the shape lies behind the plane through its closest point, so no step passes the surface.
#include "tumble/raycast.h"

#include <math.h>
#include <string.h>

#include "geometry_internal.h"
#include "mesh_internal.h"
#include "tumble/query.h"

// Advancement steps: each one at least halves the gap except at grazing incidence.
#define TB_RAY_MAX_ITERATIONS 40

tbCastOutput tbRayCastShape(const tbGeometry* shape, tbTransform xf, vec3s origin,
                            vec3s translation, float maxFraction)
{
	tbCastOutput out;
	memset(&out, 0, sizeof out);
	if (tbGeometry_IsLevel(shape)) {
		return tbRayCastLevel(shape, xf, origin, translation, maxFraction); // mesh_collide.c
	}
	// The cheap check of every query: hull vertices were checked when the hull was built.
	if (!tbGeometry_IsUsable(shape)) {
		return out;
	}
	// An empty or NaN segment hits nothing (a hit at fraction 0 would be beyond maxFraction), and
	// a NaN ray or pose would give a NaN hit.
	float q2 = glms_quat_dot(xf.q, xf.q);
	if (!(maxFraction > 0.0f) || !isfinite(maxFraction) || !tbIsFiniteVec3(origin) ||
	    !tbIsFiniteVec3(translation) || !tbIsFiniteVec3(xf.p) || !(fabsf(q2 - 1.0f) < 1e-3f)) {
		return out;
	}
	if (fabsf(q2 - 1.0f) > 1e-6f) {
		xf.q = glms_quat_normalize(xf.q); // accepted to 1e-3; a non-unit one scales the normal
	}
	float size = tbGeometry_BoundingRadius(shape);
	// The ray's point is a tiny sphere so that the query sees a valid shape; its core is the point
	// itself, whose distance GJK gives exactly (its radius is added back).
	float probeRadius = 1e-3f * size;
	float tolerance = 1e-4f * size;
	tbGeometry probe = tbMakeSphere(probeRadius);
	vec3s o = tbInvTransformPoint(xf, origin);
	vec3s d = tbInvRotateVector(xf.q, translation);
	tbQueryDef def = tbDefaultQueryDef();
	versors identity = {{0.0f, 0.0f, 0.0f, 1.0f}};
	float t = 0.0f;
	for (int it = 0; it < TB_RAY_MAX_ITERATIONS; ++it) {
		out.iterations = it + 1;
		tbTransform at = {glms_vec3_add(o, glms_vec3_scale(d, t)), identity};
		tbQueryResult q = tbQueryShapesLocal(shape, &probe, at, &def);
		if (q.status == tb_queryInvalidInput) {
			return out;
		}
		float dist = q.distance + probeRadius;
		if (it == 0 && dist <= 0.0f) {
			return out; // starts inside
		}
		if (dist <= tolerance) {
			out.hit = true;
			out.fraction = t;
			out.normal = tbRotateVector(xf.q, q.normal);
			out.point = tbTransformPoint(xf, q.pointA);
			return out;
		}
		// q.normal points from the shape to the ray's point: the ray closes the gap at -d.n.
		float approach = -glms_vec3_dot(d, q.normal);
		if (approach <= 0.0f) {
			return out; // moving away from (or along) the supporting plane: a convex miss
		}
		t += dist / approach;
		if (t > maxFraction) {
			return out;
		}
	}
	return out;
}
