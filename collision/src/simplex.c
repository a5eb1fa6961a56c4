// The Minkowski support (Casalino 2021 eq. 11) and the GJK sub-simplex solver (closest point of a
// point, segment, triangle or tetrahedron to the origin; Casalino 2021 sec. 2.1 "plex" cases).
#include "narrowphase.h"

#include <float.h>
#include <math.h>

void tbMinkowski_Init(tbMinkowski* mk, const tbGeometry* a, const tbGeometry* b, tbTransform bInA)
{
	// L of docs/query-format.md: every tolerance of the narrow phase is relative to it.
	float scale =
	    tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + glms_vec3_norm(bInA.p);
	tbMinkowski_InitScaled(mk, a, b, bInA, scale);
}

void tbMinkowski_InitScaled(tbMinkowski* mk, const tbGeometry* a, const tbGeometry* b,
                            tbTransform bInA, float scale)
{
	mk->shapeA = a;
	mk->shapeB = b;
	mk->bInA = bInA;
	mk->rotB = glms_quat_mat3(bInA.q);
	mk->roundA = tbGeometry_CoreRadius(a) > 0.0f;
	mk->roundB = tbGeometry_CoreRadius(b) > 0.0f;
	mk->cores = false;
	mk->margin = 0.0f;
	mk->tolerance = TB_DEFAULT_TOLERANCE;
	// L of docs/query-format.md: every tolerance of the narrow phase is relative to it.
	mk->scale = scale;
	mk->warm = NULL;
}

// Vertex `id` of a shape as tbGeometry_SupportEx reports it (scaled), false when the id names no
// vertex: a box's corner (bit k set: negative along axis k), a hull's vertex, a triangle's corner,
// a core's end (a capsule's segment: 0 the top, 1 the bottom; a sphere's centre) and a cone's
// apex.
static bool tbVertexOf(const tbGeometry* s, int id, bool withBall, vec3s* out)
{
	vec3s p;
	switch (s->type) {
	case tb_boxShape:
		if (id < 0 || id > 7) {
			return false;
		}
		p = (vec3s){{(id & 1) ? -s->halfExtents.x : s->halfExtents.x,
		             (id & 2) ? -s->halfExtents.y : s->halfExtents.y,
		             (id & 4) ? -s->halfExtents.z : s->halfExtents.z}};
		break;
	case tb_hullShape:
		if (s->hull == NULL || id < 0 || id >= s->hull->vertexCount) {
			return false;
		}
		p = s->hull->vertices[id];
		break;
	case tb_triangleShape:
		if (id < 0 || id > 2) {
			return false;
		}
		p = s->vertices[id];
		break;
	case tb_capsuleShape:
		if (withBall || id < 0 || id > 1) {
			return false;
		}
		p = (vec3s){{0.0f, id == 0 ? s->round.halfHeight : -s->round.halfHeight, 0.0f}};
		break;
	case tb_sphereShape:
		if (withBall || id != 0) {
			return false;
		}
		p = glms_vec3_zero();
		break;
	case tb_coneShape:
		if (id != 0) {
			return false;
		}
		p = (vec3s){{0.0f, s->round.halfHeight, 0.0f}};
		break;
	default:
		return false;
	}
	*out = (vec3s){{p.x * s->scale.x, p.y * s->scale.y, p.z * s->scale.z}};
	return true;
}

bool tbMinkowskiVertex(const tbMinkowski* mk, int ia, int ib, tbSupportVertex* out)
{
	vec3s b;
	if (!tbVertexOf(mk->shapeA, ia, !(mk->cores && mk->roundA), &out->a) ||
	    !tbVertexOf(mk->shapeB, ib, !(mk->cores && mk->roundB), &b)) {
		return false;
	}
	const mat3s* r = &mk->rotB;
	out->b.x = r->col[0].x * b.x + r->col[1].x * b.y + r->col[2].x * b.z + mk->bInA.p.x;
	out->b.y = r->col[0].y * b.x + r->col[1].y * b.y + r->col[2].y * b.z + mk->bInA.p.y;
	out->b.z = r->col[0].z * b.x + r->col[1].z * b.y + r->col[2].z * b.z + mk->bInA.p.z;
	out->w = glms_vec3_sub(out->a, out->b);
	out->ia = ia;
	out->ib = ib;
	return true;
}

tbSupportVertex tbMinkowskiSupport(const tbMinkowski* mk, vec3s d)
{
	tbSupportVertex sv;
	// Casalino 2021 eq. 11: Support(A - B, d) = Support(A, d) - Support(B, -d), B's support taken
	// in B's own frame (Casalino 2021 eq. 8-9: the direction goes in by R^T, the point comes out by
	// R).
	sv.a = tbGeometry_SupportEx(mk->shapeA, d, &sv.ia, !(mk->cores && mk->roundA));
	const mat3s* r = &mk->rotB;
	vec3s dB = {
	    {-glms_vec3_dot(r->col[0], d), -glms_vec3_dot(r->col[1], d), -glms_vec3_dot(r->col[2], d)}};
	vec3s b = tbGeometry_SupportEx(mk->shapeB, dB, &sv.ib, !(mk->cores && mk->roundB));
	sv.b.x = r->col[0].x * b.x + r->col[1].x * b.y + r->col[2].x * b.z + mk->bInA.p.x;
	sv.b.y = r->col[0].y * b.x + r->col[1].y * b.y + r->col[2].y * b.z + mk->bInA.p.y;
	sv.b.z = r->col[0].z * b.x + r->col[1].z * b.y + r->col[2].z * b.z + mk->bInA.p.z;
	sv.w = glms_vec3_sub(sv.a, sv.b);
	if (mk->margin > 0.0f) {
		// Inflate A - B by a ball: its signed distance drops by exactly the margin and every
		// degenerate (flat, segment, point) difference becomes a solid with the origin inside.
		float len = glms_vec3_norm(d);
		if (len > 0.0f) {
			sv.w = glms_vec3_add(sv.w, glms_vec3_scale(d, mk->margin / len));
		}
	}
	return sv;
}

vec3s tbClosestOnTriangle(vec3s a, vec3s b, vec3s c, float lambda[3])
{
	// Ericson, Real-Time Collision Detection 5.1.5, with the query point at the origin.
	vec3s ab = glms_vec3_sub(b, a), ac = glms_vec3_sub(c, a);
	float d1 = -glms_vec3_dot(ab, a), d2 = -glms_vec3_dot(ac, a);
	if (d1 <= 0.0f && d2 <= 0.0f) {
		lambda[0] = 1.0f, lambda[1] = 0.0f, lambda[2] = 0.0f;
		return a;
	}
	float d3 = -glms_vec3_dot(ab, b), d4 = -glms_vec3_dot(ac, b);
	if (d3 >= 0.0f && d4 <= d3) {
		lambda[0] = 0.0f, lambda[1] = 1.0f, lambda[2] = 0.0f;
		return b;
	}
	float vc = d1 * d4 - d3 * d2;
	if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
		float t = d1 / (d1 - d3);
		lambda[0] = 1.0f - t, lambda[1] = t, lambda[2] = 0.0f;
		return glms_vec3_add(a, glms_vec3_scale(ab, t));
	}
	float d5 = -glms_vec3_dot(ab, c), d6 = -glms_vec3_dot(ac, c);
	if (d6 >= 0.0f && d5 <= d6) {
		lambda[0] = 0.0f, lambda[1] = 0.0f, lambda[2] = 1.0f;
		return c;
	}
	float vb = d5 * d2 - d1 * d6;
	if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
		float t = d2 / (d2 - d6);
		lambda[0] = 1.0f - t, lambda[1] = 0.0f, lambda[2] = t;
		return glms_vec3_add(a, glms_vec3_scale(ac, t));
	}
	float va = d3 * d6 - d5 * d4;
	if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
		float t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
		lambda[0] = 0.0f, lambda[1] = 1.0f - t, lambda[2] = t;
		return glms_vec3_add(b, glms_vec3_scale(glms_vec3_sub(c, b), t));
	}
	float sum = va + vb + vc;
	if (!(sum > 0.0f)) {
		// A sliver with no area: the best vertex will do.
		float la = glms_vec3_norm2(a), lb = glms_vec3_norm2(b), lc = glms_vec3_norm2(c);
		int k = la <= lb ? (la <= lc ? 0 : 2) : (lb <= lc ? 1 : 2);
		lambda[0] = k == 0 ? 1.0f : 0.0f, lambda[1] = k == 1 ? 1.0f : 0.0f;
		lambda[2] = k == 2 ? 1.0f : 0.0f;
		return k == 0 ? a : (k == 1 ? b : c);
	}
	float inv = 1.0f / sum;
	lambda[1] = vb * inv;
	lambda[2] = vc * inv;
	lambda[0] = 1.0f - lambda[1] - lambda[2];
	// Project along the face normal rather than summing weighted corners: the direction of a tiny
	// |v| then comes from a cross product of edges, not from cancelling large coordinates (Jolt).
	vec3s n = glms_vec3_cross(ab, ac);
	float nn = glms_vec3_norm2(n);
	return glms_vec3_scale(n, glms_vec3_dot(n, a) / nn);
}

static vec3s tbClosestOnSegment(vec3s a, vec3s b, float lambda[2])
{
	vec3s ab = glms_vec3_sub(b, a);
	float t = -glms_vec3_dot(a, ab);
	float len2 = glms_vec3_norm2(ab);
	if (t <= 0.0f || len2 <= 0.0f) {
		lambda[0] = 1.0f, lambda[1] = 0.0f;
		return a;
	}
	if (t >= len2) {
		lambda[0] = 0.0f, lambda[1] = 1.0f;
		return b;
	}
	lambda[0] = 1.0f - t / len2, lambda[1] = t / len2;
	// The rejection of a from the line as ab x (a x ab) / |ab|^2 rather than a + t ab: when the
	// segment is long and passes close to the origin, a + t ab cancels large coordinates and
	// leaves an error along ab, which tilts the normal towards the segment's ends; the cross
	// products keep the result perpendicular to ab (the segment version of the triangle's
	// projection above).
	return glms_vec3_scale(glms_vec3_cross(ab, glms_vec3_cross(a, ab)), 1.0f / len2);
}

// Keep only the vertices with a positive weight, in order.
static void tbSimplex_Compact(tbSimplex* s)
{
	int k = 0;
	for (int i = 0; i < s->count; ++i) {
		if (s->lambda[i] > 0.0f) {
			s->v[k] = s->v[i];
			s->lambda[k] = s->lambda[i];
			++k;
		}
	}
	if (k == 0) {
		// Cannot happen with weights that sum to one; keep the first vertex to stay defined.
		s->lambda[0] = 1.0f;
		k = 1;
	}
	s->count = k;
}

vec3s tbSimplex_Solve(tbSimplex* s, float volumeTolerance)
{
	vec3s p;
	if (s->count == 1) {
		s->lambda[0] = 1.0f;
		return s->v[0].w;
	}
	if (s->count == 2) {
		p = tbClosestOnSegment(s->v[0].w, s->v[1].w, s->lambda);
		tbSimplex_Compact(s);
		return p;
	}
	if (s->count == 3) {
		p = tbClosestOnTriangle(s->v[0].w, s->v[1].w, s->v[2].w, s->lambda);
		tbSimplex_Compact(s);
		return p;
	}

	// Tetrahedron: the origin is inside unless it lies beyond a face, away from the opposite
	// vertex. Test every face the origin may be beyond and keep the closest of their points.
	static const int faces[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
	vec3s w[4] = {s->v[0].w, s->v[1].w, s->v[2].w, s->v[3].w};
	vec3s e1 = glms_vec3_sub(w[1], w[0]), e2 = glms_vec3_sub(w[2], w[0]),
	      e3 = glms_vec3_sub(w[3], w[0]);
	float volume = glms_vec3_dot(glms_vec3_cross(e1, e2), e3);
	bool flat = fabsf(volume) <= volumeTolerance;
	float best = FLT_MAX;
	float bestLambda[4] = {1.0f, 0.0f, 0.0f, 0.0f};
	vec3s bestP = w[0];
	bool outside = false;
	for (int f = 0; f < 4; ++f) {
		int i0 = faces[f][0], i1 = faces[f][1], i2 = faces[f][2], i3 = faces[f][3];
		vec3s n = glms_vec3_cross(glms_vec3_sub(w[i1], w[i0]), glms_vec3_sub(w[i2], w[i0]));
		float sideOrigin = -glms_vec3_dot(n, w[i0]);
		float sideOpposite = glms_vec3_dot(n, glms_vec3_sub(w[i3], w[i0]));
		if (!flat && sideOrigin * sideOpposite >= 0.0f) {
			continue; // origin on the inner side of this face
		}
		outside = true;
		float l[3];
		vec3s q = tbClosestOnTriangle(w[i0], w[i1], w[i2], l);
		float d2 = glms_vec3_norm2(q);
		if (d2 < best) {
			best = d2;
			bestP = q;
			bestLambda[0] = bestLambda[1] = bestLambda[2] = bestLambda[3] = 0.0f;
			bestLambda[i0] = l[0];
			bestLambda[i1] = l[1];
			bestLambda[i2] = l[2];
		}
	}
	if (!outside) {
		// Origin inside: barycentric weights from sub-volumes, for the witness points.
		float inv = 1.0f / volume;
		for (int i = 0; i < 4; ++i) {
			vec3s q[4] = {w[0], w[1], w[2], w[3]};
			q[i] = glms_vec3_zero();
			vec3s f1 = glms_vec3_sub(q[1], q[0]), f2 = glms_vec3_sub(q[2], q[0]);
			s->lambda[i] = glms_vec3_dot(glms_vec3_cross(f1, f2), glms_vec3_sub(q[3], q[0])) * inv;
		}
		return glms_vec3_zero();
	}
	for (int i = 0; i < 4; ++i) {
		s->lambda[i] = bestLambda[i];
	}
	tbSimplex_Compact(s);
	return bestP;
}

void tbSimplex_Witness(const tbSimplex* s, vec3s* pointA, vec3s* pointB)
{
	vec3s a = glms_vec3_zero(), b = glms_vec3_zero();
	for (int i = 0; i < s->count; ++i) {
		a = glms_vec3_add(a, glms_vec3_scale(s->v[i].a, s->lambda[i]));
		b = glms_vec3_add(b, glms_vec3_scale(s->v[i].b, s->lambda[i]));
	}
	*pointA = a;
	*pointB = b;
}
