// Penetration of two bodies of revolution about one axis (a sphere centred on a cylinder's or a
// cone's axis, coaxial cylinders and cones, a capsule inside a cylinder): the plateau of equally
// deep normals is a whole ring, which no polytope of EPA's size can certify. The problem is 2D.
//
// The Minkowski sum of convex bodies of revolution about one axis is one too (support functions
// add, and each is invariant under rotations about the axis), so A - B is a body of revolution
// about the axis through the origin when B's centre lies on A's axis. For such a body the
// projection onto a plane through the axis equals its meridian section, and for a direction u in
// that plane h_C(u) is the support function of the section (Schneider, "Convex Bodies: the
// Brunn-Minkowski Theory", 2014, sections 1.7 and 3.1). The depth min over unit u of h_C(u) is
// reached in every meridian plane, so it is the depth of the origin in one 2D section: EPA in
// 2D (a convex polygon grown along its closest edge) finishes it in a few steps, exactly on
// polygonal sections and to the tolerance on curved ones.
#include "narrowphase.h"

#include <float.h>
#include <math.h>

#define TB_REVOLVE_MAX_VERTICES 64

typedef struct tbRevolveVertex
{
	float x, y; ///< across the axis and along it
	tbSupportVertex sv;
} tbRevolveVertex;

// How a shape (as the query uses it: a sphere or capsule may be its core) is a body of
// revolution: about the line through `centre` along `axis` (local), or about every line through
// `centre` when *anyAxis (a ball, a point). False when it is not one.
static bool tbRevolves(const tbGeometry* shape, bool core, vec3s* axis, vec3s* centre,
                       bool* anyAxis)
{
	vec3s s = shape->scale;
	*anyAxis = false;
	*axis = (vec3s){{0.0f, 1.0f, 0.0f}};
	*centre = glms_vec3_zero();
	switch (shape->type) {
	case tb_sphereShape:
		*anyAxis = s.x == s.y && s.y == s.z;
		return s.x == s.z;
	case tb_capsuleShape:
		// A capsule core of zero length is a point.
		*anyAxis = core && shape->round.halfHeight == 0.0f;
		return s.x == s.z;
	case tb_cylinderShape:
	case tb_coneShape:
		return s.x == s.z;
	case tb_hullShape: {
		// A point, or a segment (about its own line).
		const tbHull* hull = shape->hull;
		if (hull->vertexCount == 1) {
			*anyAxis = true;
			*centre = glms_vec3_mul(hull->vertices[0], s);
			return true;
		}
		if (hull->vertexCount == 2) {
			vec3s p0 = glms_vec3_mul(hull->vertices[0], s);
			vec3s p1 = glms_vec3_mul(hull->vertices[1], s);
			*axis = glms_vec3_normalize(glms_vec3_sub(p1, p0));
			*centre = glms_vec3_scale(glms_vec3_add(p0, p1), 0.5f);
			return glms_vec3_norm2(*axis) > 0.5f;
		}
		return false;
	}
	case tb_triangleShape: {
		// Corners that coincide: a point, or a segment.
		vec3s v0 = glms_vec3_mul(shape->vertices[0], s), v1 = glms_vec3_mul(shape->vertices[1], s);
		vec3s v2 = glms_vec3_mul(shape->vertices[2], s);
		bool e01 = glms_vec3_eqv(v0, v1), e12 = glms_vec3_eqv(v1, v2), e02 = glms_vec3_eqv(v0, v2);
		if (e01 && e12) {
			*anyAxis = true;
			*centre = v0;
			return true;
		}
		if (!e01 && !e12 && !e02) {
			return false;
		}
		vec3s p0 = v0, p1 = e01 ? v2 : v1;
		*axis = glms_vec3_normalize(glms_vec3_sub(p1, p0));
		*centre = glms_vec3_scale(glms_vec3_add(p0, p1), 0.5f);
		return true;
	}
	default:
		return false;
	}
}

// Signed distance of the origin from edge (p, q) of a counter-clockwise polygon, and the edge's
// outward unit normal.
static float tbEdgeDistance(const tbRevolveVertex* p, const tbRevolveVertex* q, float n[2])
{
	float dx = q->x - p->x, dy = q->y - p->y;
	float len = sqrtf(dx * dx + dy * dy);
	if (!(len > 0.0f)) {
		n[0] = n[1] = 0.0f;
		return -FLT_MAX;
	}
	n[0] = dy / len;
	n[1] = -dx / len;
	return n[0] * p->x + n[1] * p->y;
}

bool tbRevolvedPenetration(const tbMinkowski* mk, const tbQueryDef* def, tbPolytopeResult* out)
{
	const float L = mk->scale;
	const float tol = mk->tolerance;
	bool freeA, freeB;
	vec3s axisA, axisB, centreA, centreB;
	if (mk->margin != 0.0f || !tbRevolves(mk->shapeA, mk->cores, &axisA, &centreA, &freeA) ||
	    !tbRevolves(mk->shapeB, mk->cores, &axisB, &centreB, &freeB) || (freeA && freeB)) {
		return false; // two points or balls: the rounded contact is exact already
	}
	axisB = glms_mat3_mulv(mk->rotB, axisB);
	centreB = glms_vec3_add(glms_mat3_mulv(mk->rotB, centreB), mk->bInA.p);
	vec3s axis = freeA ? axisB : axisA;
	// Coaxial to the tolerance: tilting one axis by an angle t, or moving a centre off it by
	// e, changes every support value by at most t L or e, so the 2D answer stays within the
	// query's tolerance of the 3D one. A - B is then a body of revolution about the line through
	// centreA - centreB along the axis, which holds the origin.
	if (!freeA && !freeB && glms_vec3_norm2(glms_vec3_cross(axisA, axisB)) > tol * tol) {
		return false;
	}
	vec3s c = glms_vec3_sub(centreB, centreA);
	if (glms_vec3_norm2(glms_vec3_cross(c, axis)) > (tol * L) * (tol * L)) {
		return false;
	}
	// The plane of the section: across = any unit vector perpendicular to the axis.
	vec3s other = fabsf(axis.x) < 0.6f ? (vec3s){{1.0f, 0.0f, 0.0f}} : (vec3s){{0.0f, 0.0f, 1.0f}};
	vec3s across = glms_vec3_normalize(glms_vec3_cross(axis, other));

	tbRevolveVertex poly[TB_REVOLVE_MAX_VERTICES];
	int count = 0;
	static const float start[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
	for (int k = 0; k < 4; ++k) {
		vec3s d =
		    glms_vec3_add(glms_vec3_scale(across, start[k][0]), glms_vec3_scale(axis, start[k][1]));
		tbSupportVertex sv = tbMinkowskiSupport(mk, d);
		tbRevolveVertex v = {glms_vec3_dot(sv.w, across), glms_vec3_dot(sv.w, axis), sv};
		if (count > 0 && v.x == poly[count - 1].x && v.y == poly[count - 1].y) {
			continue;
		}
		poly[count++] = v;
	}
	if (count < 3) {
		return false;
	}
	// The origin must be inside, clear of every edge: touching and separated pairs go the
	// general way.
	const float gapTol = tol * L;
	for (int k = 0; k < count; ++k) {
		float n[2];
		if (tbEdgeDistance(&poly[k], &poly[(k + 1) % count], n) <= gapTol) {
			return false;
		}
	}

	float bestUpper = FLT_MAX;
	vec3s bestNormal = axis;
	tbSupportVertex bestSupport = poly[0].sv;
	int edge = 0;
	float edgeNormal[2] = {0.0f, 1.0f};
	float lower = 0.0f;
	out->status = tb_queryIterationCap;
	out->failed = false;
	int maxIterations = def != NULL ? def->maxEpaIterations : 64;
	int iter = 0;
	for (; iter < maxIterations; ++iter) {
		// Closest edge: the lower bound (the polygon lies inside the section).
		lower = FLT_MAX;
		for (int k = 0; k < count; ++k) {
			float n[2];
			float d = tbEdgeDistance(&poly[k], &poly[(k + 1) % count], n);
			if (d > -FLT_MAX && d < lower) {
				lower = d;
				edge = k;
				edgeNormal[0] = n[0];
				edgeNormal[1] = n[1];
			}
		}
		vec3s d = glms_vec3_add(glms_vec3_scale(across, edgeNormal[0]),
		                        glms_vec3_scale(axis, edgeNormal[1]));
		tbSupportVertex sv = tbMinkowskiSupport(mk, d);
		tbRevolveVertex v = {glms_vec3_dot(sv.w, across), glms_vec3_dot(sv.w, axis), sv};
		float upper = edgeNormal[0] * v.x + edgeNormal[1] * v.y;
		if (upper < bestUpper) {
			bestUpper = upper;
			bestNormal = d;
			bestSupport = sv;
		}
		if (bestUpper - lower <= gapTol) {
			out->status = tb_queryConverged;
			break;
		}
		if (count >= TB_REVOLVE_MAX_VERTICES || upper - lower <= 0.0f) {
			break; // full, or rounding: keep the best bound
		}
		for (int k = count; k > edge + 1; --k) {
			poly[k] = poly[k - 1];
		}
		poly[edge + 1] = v;
		count += 1;
	}
	out->iterations = iter + 1;
	out->inside = true;
	out->distance = bestUpper;
	out->normal = glms_vec3_normalize(bestNormal);
	// Witnesses: the closest edge's pair at the foot of the origin, checked by tbChooseWitness
	// against the supports along the answer's normal.
	const tbRevolveVertex* p0 = &poly[edge];
	const tbRevolveVertex* p1 = &poly[(edge + 1) % count];
	float ex = p1->x - p0->x, ey = p1->y - p0->y;
	float len2 = ex * ex + ey * ey;
	float t = len2 > 0.0f ? -(p0->x * ex + p0->y * ey) / len2 : 0.5f;
	t = fminf(fmaxf(t, 0.0f), 1.0f);
	vec3s fa = glms_vec3_lerp(p0->sv.a, p1->sv.a, t);
	vec3s fb = glms_vec3_lerp(p0->sv.b, p1->sv.b, t);
	tbChooseWitness(mk, out->normal, fa, fb, bestSupport.a, bestSupport.b, 10.0f * gapTol,
	                &out->pointA, &out->pointB);
	return true;
}
