// A sphere or capsule against a triangle in closed form: the closest points of the round shape's
// core (its centre, or its segment) and the triangle, in place of GJK's iterations.
//
// A sphere is a point swept by a ball and a capsule a segment swept by one (the cores of
// docs/narrowphase.md, "Cores and radii"): their distance to a triangle is the core's distance
// less the radius, along the line between the closest points. The closest points of a segment PQ
// and a triangle that it does not cross lie on a pair of features: an end of the segment against
// the triangle (Ericson, Real-Time Collision Detection 5.1.5, the closest point on a triangle),
// or the segment against one of the triangle's edges (5.1.9, two segments); the least of those
// five is the answer (5.1.10). A segment through the triangle is at distance zero from it, where
// the depth needs the whole capsule: that case, and cores within a hair of the triangle, are left
// to GJK and EPA.

#include <float.h>
#include <math.h>

#include "narrowphase.h"
#include "sat.h"
#include "segments.h"
#include "tumble/transform.h"
#include "tumble/transform_internal.h"

// Cores closer to the triangle than this fraction of the pair's size are left to GJK/EPA: their
// normal, the direction between two nearly equal points, says nothing.
#define TB_ROUND_TRIANGLE_FLOOR 1e-5f

// The point of triangle t closest to p; *inside: it lies within the face, off every edge.
static vec3s tbClosestOnTriangleTo(const vec3s t[3], vec3s p, bool* inside)
{
	float lambda[3];
	vec3s q = tbClosestOnTriangle(glms_vec3_sub(t[0], p), glms_vec3_sub(t[1], p),
	                              glms_vec3_sub(t[2], p), lambda);
	*inside = lambda[0] > 0.0f && lambda[1] > 0.0f && lambda[2] > 0.0f;
	return glms_vec3_add(q, p);
}

bool tbRoundTriangleQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                          tbQueryResult* out)
{
	bool triIsA = a->type == tb_triangleShape;
	const tbGeometry* tri = triIsA ? a : b;
	const tbGeometry* round = triIsA ? b : a;
	if (tri->type != tb_triangleShape ||
	    (round->type != tb_sphereShape && round->type != tb_capsuleShape) || !tbSat_PoseOk(bInA) ||
	    !tbIsFiniteVec3(tri->scale)) {
		return false;
	}
	float radius = tbGeometry_CoreRadius(round); // zero unless the scale is uniform
	if (!(radius > 0.0f) || !isfinite(radius)) {
		return false;
	}
	float half = round->type == tb_capsuleShape ? round->round.halfHeight * round->scale.x : 0.0f;
	// Everything in A's frame: the triangle's corners (scaled) and the core's ends.
	vec3s t[3], ends[2] = {{{0.0f, half, 0.0f}}, {{0.0f, -half, 0.0f}}};
	for (int k = 0; k < 3; ++k) {
		vec3s v = glms_vec3_mul(tri->vertices[k], tri->scale);
		t[k] = triIsA ? v : tbTransformPointInline(bInA, v);
	}
	if (triIsA) {
		ends[0] = tbTransformPointInline(bInA, ends[0]);
		ends[1] = tbTransformPointInline(bInA, ends[1]);
	}
	vec3s n = glms_vec3_cross(glms_vec3_sub(t[1], t[0]), glms_vec3_sub(t[2], t[0]));
	float area2 = glms_vec3_norm(n);
	float size = glms_vec3_norm(glms_vec3_sub(t[1], t[0])) +
	             glms_vec3_norm(glms_vec3_sub(t[2], t[0])) + half + radius;
	if (!tbIsFiniteVec3(ends[0]) || !tbIsFiniteVec3(ends[1]) || !tbIsFiniteVec3(t[0]) ||
	    !tbIsFiniteVec3(t[1]) || !tbIsFiniteVec3(t[2]) || !(area2 > 1e-6f * size * size) ||
	    !isfinite(area2)) {
		return false;
	}
	n = glms_vec3_scale(n, 1.0f / area2);
	vec3s seg = glms_vec3_sub(ends[1], ends[0]);
	// A segment through the triangle: the cores meet.
	float h0 = glms_vec3_dot(n, glms_vec3_sub(ends[0], t[0]));
	float h1 = glms_vec3_dot(n, glms_vec3_sub(ends[1], t[0]));
	if ((h0 <= 0.0f && h1 >= 0.0f) || (h0 >= 0.0f && h1 <= 0.0f)) {
		float s = h0 != h1 ? h0 / (h0 - h1) : 0.0f;
		vec3s x = glms_vec3_add(ends[0], glms_vec3_scale(seg, s));
		bool inside;
		vec3s onTri = tbClosestOnTriangleTo(t, x, &inside);
		if (glms_vec3_norm(glms_vec3_sub(onTri, x)) <= TB_ROUND_TRIANGLE_FLOOR * size) {
			return false;
		}
	}
	// The least of the candidate pairs: each end against the triangle, the segment against each
	// edge (a sphere's one point against the triangle). Where both ends lie over the face, on one
	// side of it, the segment's closest point to the plane is an end, over the face: the edges
	// cannot be closer.
	bool inside0, inside1 = true;
	vec3s bestTri = tbClosestOnTriangleTo(t, ends[0], &inside0), bestCore = ends[0];
	float best = glms_vec3_norm2(glms_vec3_sub(bestCore, bestTri));
	if (half > 0.0f) {
		vec3s q = tbClosestOnTriangleTo(t, ends[1], &inside1);
		float d = glms_vec3_norm2(glms_vec3_sub(ends[1], q));
		if (d < best) {
			best = d;
			bestTri = q;
			bestCore = ends[1];
		}
	}
	if (half > 0.0f && !(inside0 && inside1)) {
		for (int k = 0; k < 3; ++k) {
			vec3s onEdge, onCore;
			tbClosestSegments(t[k], glms_vec3_sub(t[(k + 1) % 3], t[k]), ends[0], seg, &onEdge,
			                  &onCore);
			float d = glms_vec3_norm2(glms_vec3_sub(onCore, onEdge));
			if (d < best) {
				best = d;
				bestTri = onEdge;
				bestCore = onCore;
			}
		}
	}
	float distance = sqrtf(best);
	if (!(distance > TB_ROUND_TRIANGLE_FLOOR * size)) {
		return false;
	}
	// From the triangle towards the core; A's normal points to B.
	vec3s away = glms_vec3_scale(glms_vec3_sub(bestCore, bestTri), 1.0f / distance);
	vec3s onRound = glms_vec3_sub(bestCore, glms_vec3_scale(away, radius));
	out->distance = distance - radius;
	out->hit = out->distance <= 0.0f;
	out->status = tb_queryConverged;
	out->gjkIterations = 0;
	out->epaIterations = 0;
	out->normal = triIsA ? away : glms_vec3_negate(away);
	out->pointA = triIsA ? bestTri : onRound;
	out->pointB = triIsA ? onRound : bestTri;
	return true;
}
