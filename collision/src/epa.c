// EPA: the expanding polytope algorithm (seed 000 section 3, seed 003): grow a polytope inside
// A - B from a simplex that holds the origin until its closest face lies on the boundary.
#include "narrowphase.h"

#include <float.h>
#include <math.h>
#include <string.h>

// The edge after e in a triangle, without a division on the hot path.
static const int tb_next[3] = {1, 2, 0};

int tbPolytope_ClosestFace(const tbPolytope* poly, float* distance)
{
	// A plain scan: polytopes stay small (tens of faces), where a heap measured slower.
	int best = -1;
	float bestDist = FLT_MAX;
	const tbPolyFace* faces = poly->faces;
	for (int k = 0; k < poly->faceCount; ++k) {
		if (faces[k].alive && faces[k].valid && faces[k].dist < bestDist) {
			bestDist = faces[k].dist;
			best = k;
		}
	}
	*distance = bestDist;
	return best;
}

static void tbPolytope_SetFace(tbPolytope* poly, int f, int a, int b, int c)
{
	tbPolyFace* face = &poly->faces[f];
	face->v[0] = a;
	face->v[1] = b;
	face->v[2] = c;
	face->alive = true;
	// Plain arithmetic on the hot path (every expansion makes a handful of faces).
	const float* pa = poly->vertices[a].w.raw;
	const float* pb = poly->vertices[b].w.raw;
	const float* pc = poly->vertices[c].w.raw;
	float e0[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
	float e1[3] = {pc[0] - pb[0], pc[1] - pb[1], pc[2] - pb[2]};
	float e2[3] = {pa[0] - pc[0], pa[1] - pc[1], pa[2] - pc[2]};
	float l0 = e0[0] * e0[0] + e0[1] * e0[1] + e0[2] * e0[2];
	float l1 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
	float l2 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
	// The cross product of the two shortest edges is the most accurate normal (Jolt).
	const float* u = e0;
	const float* v = e1;
	if (l0 >= l1 && l0 >= l2) {
		u = e1, v = e2;
	} else if (l1 >= l2) {
		u = e2, v = e0;
	}
	vec3s n = {{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]}};
	float len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
	face->valid = len > poly->areaTolerance;
	if (face->valid) {
		float inv = 1.0f / len;
		face->n = (vec3s){{n.x * inv, n.y * inv, n.z * inv}};
		face->dist = (face->n.x * (pa[0] + pb[0] + pc[0]) + face->n.y * (pa[1] + pb[1] + pc[1]) +
		              face->n.z * (pa[2] + pb[2] + pc[2])) *
		             (1.0f / 3.0f);
	} else {
		face->n = n;
		face->dist = FLT_MAX;
	}
}

static int tbPolytope_NewFace(tbPolytope* poly)
{
	if (poly->freeCount > 0) {
		return poly->freeFaces[--poly->freeCount];
	}
	if (poly->faceCount >= TB_POLY_MAX_FACES) {
		return -1;
	}
	return poly->faceCount++;
}

static void tbPolytope_Link(tbPolytope* poly, int f, int e, int g, int ge)
{
	poly->faces[f].adj[e] = g;
	poly->faces[f].adjEdge[e] = ge;
	poly->faces[g].adj[ge] = f;
	poly->faces[g].adjEdge[ge] = e;
}

bool tbPolytope_InitTetrahedron(tbPolytope* poly, const tbSupportVertex v[4])
{
	poly->vertexCount = 4;
	poly->faceCount = 0;
	poly->freeCount = 0;
	for (int i = 0; i < 4; ++i) {
		poly->vertices[i] = v[i];
	}
	vec3s e1 = glms_vec3_sub(v[1].w, v[0].w), e2 = glms_vec3_sub(v[2].w, v[0].w);
	vec3s e3 = glms_vec3_sub(v[3].w, v[0].w);
	float volume = glms_vec3_dot(glms_vec3_cross(e1, e2), e3);
	if (volume == 0.0f || !isfinite(volume)) {
		return false;
	}
	if (volume > 0.0f) {
		// Vertex 3 is on the normal side of (0, 1, 2): swap two vertices to turn faces outward.
		poly->vertices[1] = v[2];
		poly->vertices[2] = v[1];
	}
	// With (v1 - v0) x (v2 - v0) pointing away from v3, these four faces all point outward.
	static const int tri[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
	for (int f = 0; f < 4; ++f) {
		tbPolytope_SetFace(poly, f, tri[f][0], tri[f][1], tri[f][2]);
	}
	poly->faceCount = 4;
	// Each edge (i, j) with its twin (j, i), worked out once for the faces above.
	static const int adj[4][3][2] = {{{1, 2}, {3, 2}, {2, 0}},
	                                 {{2, 2}, {3, 0}, {0, 0}},
	                                 {{0, 2}, {3, 1}, {1, 0}},
	                                 {{1, 1}, {2, 1}, {0, 1}}};
	for (int f = 0; f < 4; ++f) {
		for (int e = 0; e < 3; ++e) {
			poly->faces[f].adj[e] = adj[f][e][0];
			poly->faces[f].adjEdge[e] = adj[f][e][1];
		}
	}
	return true;
}

static bool tbPolytope_Sees(const tbPolytope* poly, int f, vec3s w, float tol)
{
	const tbPolyFace* face = &poly->faces[f];
	vec3s p = poly->vertices[face->v[0]].w;
	float side = glms_vec3_dot(face->n, glms_vec3_sub(w, p));
	return face->valid ? side > tol : side > 0.0f;
}

typedef struct tbHorizon
{
	int face[TB_POLY_MAX_FACES];
	int edge[TB_POLY_MAX_FACES];
	int count;
	int removed[TB_POLY_MAX_FACES];
	int removedCount;
} tbHorizon;

// Walk from a face that sees w across its edges: faces that see w are removed, the edges of the
// first faces that do not are the horizon, collected in loop order (seed 003's horizon rebuild).
// The depth of the walk is bounded by the number of faces.
static void tbPolytope_Silhouette(tbPolytope* poly, int f, int e, vec3s w, float tol, tbHorizon* h)
{
	tbPolyFace* face = &poly->faces[f];
	if (!face->alive) {
		return;
	}
	if (!tbPolytope_Sees(poly, f, w, tol)) {
		h->face[h->count] = f;
		h->edge[h->count] = e;
		h->count += 1;
		return;
	}
	face->alive = false;
	h->removed[h->removedCount++] = f;
	// The other two edges, in order, so the horizon comes out as one loop.
	int e1 = tb_next[e], e2 = tb_next[e1];
	tbPolytope_Silhouette(poly, face->adj[e1], face->adjEdge[e1], w, tol, h);
	tbPolytope_Silhouette(poly, face->adj[e2], face->adjEdge[e2], w, tol, h);
}

bool tbPolytope_Expand(tbPolytope* poly, int start, const tbSupportVertex* w, float visibleTol)
{
	if (poly->vertexCount >= TB_POLY_MAX_VERTICES) {
		return false;
	}
	tbHorizon h;
	h.count = 0;
	h.removedCount = 0;
	tbPolyFace* first = &poly->faces[start];
	first->alive = false;
	h.removed[h.removedCount++] = start;
	for (int e = 0; e < 3; ++e) {
		tbPolytope_Silhouette(poly, first->adj[e], first->adjEdge[e], w->w, visibleTol, &h);
	}
	int wi = poly->vertexCount;
	bool ok = h.count >= 3 && poly->faceCount - h.removedCount + h.count <= TB_POLY_MAX_FACES;
	// The horizon must be one closed loop: each edge starts where the previous one ended.
	for (int k = 0; ok && k < h.count; ++k) {
		const tbPolyFace* g = &poly->faces[h.face[k]];
		int kn = k + 1 < h.count ? k + 1 : 0;
		const tbPolyFace* gn = &poly->faces[h.face[kn]];
		int end = g->v[h.edge[k]];
		int nextStart = gn->v[tb_next[h.edge[kn]]];
		ok = end == nextStart;
	}
	if (!ok) {
		for (int k = 0; k < h.removedCount; ++k) {
			poly->faces[h.removed[k]].alive = true;
		}
		return false;
	}
	poly->vertices[wi] = *w;
	poly->vertexCount += 1;
	for (int k = 0; k < h.removedCount; ++k) {
		poly->freeFaces[poly->freeCount++] = h.removed[k];
	}
	int firstNew = -1, prevNew = -1;
	for (int k = 0; k < h.count; ++k) {
		int g = h.face[k], ge = h.edge[k];
		int a = poly->faces[g].v[ge], b = poly->faces[g].v[tb_next[ge]];
		int f = tbPolytope_NewFace(poly);
		// Edge 0 (b, a) is the twin of the horizon edge (a, b); edge 1 (a, w); edge 2 (w, b).
		tbPolytope_SetFace(poly, f, b, a, wi);
		tbPolytope_Link(poly, f, 0, g, ge);
		if (prevNew >= 0) {
			// The previous new face ends at this edge's start b: its edge 1 (a', w) has a' = b.
			tbPolytope_Link(poly, prevNew, 1, f, 2);
		} else {
			firstNew = f;
		}
		prevNew = f;
	}
	tbPolytope_Link(poly, prevNew, 1, firstNew, 2);
	return true;
}

// Barycentric coordinates of p (assumed in the plane) in face f.
static void tbPolytope_Barycentric(const tbPolytope* poly, int f, vec3s p, float l[3])
{
	const tbPolyFace* face = &poly->faces[f];
	vec3s w0 = poly->vertices[face->v[0]].w;
	vec3s e0 = glms_vec3_sub(poly->vertices[face->v[1]].w, w0);
	vec3s e1 = glms_vec3_sub(poly->vertices[face->v[2]].w, w0);
	vec3s ep = glms_vec3_sub(p, w0);
	float d00 = glms_vec3_dot(e0, e0), d01 = glms_vec3_dot(e0, e1), d11 = glms_vec3_dot(e1, e1);
	float d20 = glms_vec3_dot(ep, e0), d21 = glms_vec3_dot(ep, e1);
	float den = d00 * d11 - d01 * d01;
	l[1] = l[2] = 1.0f / 3.0f;
	if (den > 0.0f) {
		l[1] = (d11 * d20 - d01 * d21) / den;
		l[2] = (d00 * d21 - d01 * d20) / den;
	}
	l[0] = 1.0f - l[1] - l[2];
}

int tbPolytope_FaceHolding(const tbPolytope* poly, int f, vec3s p, float planeTol)
{
	// A flat patch of A - B is triangulated into coplanar faces that tie for the smallest
	// distance; rounding picks any of them. The witnesses need the one that holds p (Jolt's
	// barycentric slack 1e-3).
	const float slack = -1e-3f;
	float l[3];
	tbPolytope_Barycentric(poly, f, p, l);
	if (l[0] >= slack && l[1] >= slack && l[2] >= slack) {
		return f;
	}
	const tbPolyFace* face = &poly->faces[f];
	for (int g = 0; g < poly->faceCount; ++g) {
		const tbPolyFace* other = &poly->faces[g];
		if (!other->alive || !other->valid || fabsf(other->dist - face->dist) > planeTol ||
		    glms_vec3_dot(other->n, face->n) < 1.0f - 1e-5f) {
			continue;
		}
		tbPolytope_Barycentric(poly, g, p, l);
		if (l[0] >= slack && l[1] >= slack && l[2] >= slack) {
			return g;
		}
	}
	return f;
}

void tbPolytope_Witness(const tbPolytope* poly, int f, vec3s p, vec3s* pointA, vec3s* pointB)
{
	const tbPolyFace* face = &poly->faces[f];
	const tbSupportVertex* v0 = &poly->vertices[face->v[0]];
	const tbSupportVertex* v1 = &poly->vertices[face->v[1]];
	const tbSupportVertex* v2 = &poly->vertices[face->v[2]];
	// Seed 003: barycentric coordinates of the contact point on the closest face, applied to the
	// shapes' own support points.
	float l[3];
	tbPolytope_Barycentric(poly, f, p, l);
	float l0 = l[0], l1 = l[1], l2 = l[2];
	// Clamp rounding excursions so the witness stays on the face.
	l0 = fmaxf(l0, 0.0f), l1 = fmaxf(l1, 0.0f), l2 = fmaxf(l2, 0.0f);
	float sum = l0 + l1 + l2;
	l0 /= sum, l1 /= sum, l2 /= sum;
	*pointA = glms_vec3_add(glms_vec3_add(glms_vec3_scale(v0->a, l0), glms_vec3_scale(v1->a, l1)),
	                        glms_vec3_scale(v2->a, l2));
	*pointB = glms_vec3_add(glms_vec3_add(glms_vec3_scale(v0->b, l0), glms_vec3_scale(v1->b, l1)),
	                        glms_vec3_scale(v2->b, l2));
}

// Length of the part of d across n.
static float tbAcross(vec3s n, vec3s d)
{
	return glms_vec3_norm(glms_vec3_sub(d, glms_vec3_scale(n, glms_vec3_dot(d, n))));
}

// Distance from q to shape A (which = true) or to B placed in A's frame, cores as mk uses them:
// GJK between the shape and a point (a triangle with three equal corners).
static float tbPointOutside(const tbMinkowski* mk, bool which, vec3s q)
{
	const tbShape* shape = which ? mk->shapeA : mk->shapeB;
	if (!which) {
		// Into B's frame: R^T (q - p).
		vec3s d = glms_vec3_sub(q, mk->bInA.p);
		const mat3s* r = &mk->rotB;
		q = (vec3s){{glms_vec3_dot(r->col[0], d), glms_vec3_dot(r->col[1], d),
		             glms_vec3_dot(r->col[2], d)}};
	}
	tbShape point = tbMakeTriangle(q, q, q);
	tbMinkowski pm;
	tbMinkowski_Init(&pm, shape, &point, tbTransformIdentity());
	pm.cores = mk->cores;
	pm.scale = mk->scale;
	tbGjkOutput g;
	tbGjk(&pm, -1.0f, 32, NULL, &g);
	return g.outcome == tb_gjkSeparated ? g.distance : 0.0f;
}

void tbChooseWitness(const tbMinkowski* mk, vec3s n, vec3s fa, vec3s fb, vec3s sa, vec3s sb,
                     float tol, vec3s* pointA, vec3s* pointB)
{
	// The face pair (fa, fb) sits where the contact is, but a barycentric mix of support points
	// of a curved shape is a chord point, inside the surface; and on a tied face the supports
	// (sa, sb) can be any corner. So: keep the face pair when both of its points lie on their
	// support planes and face each other across n. Otherwise anchor on a point of one shape,
	// put its partner at the signed distance along n (on the other's support plane), and keep
	// the pair whose partner is least outside the other shape.
	float hA = glms_vec3_dot(sa, n), hB = glms_vec3_dot(sb, n);
	float offPlanes = fabsf(hA - glms_vec3_dot(fa, n)) + fabsf(glms_vec3_dot(fb, n) - hB);
	// Symmetrising a pair that is off by e moves each point by e / 2: keep the face pair up to
	// 1e-4 L of mismatch, well inside what a witness may be off, so that contact points of a
	// resting pair do not jump between candidates from step to step.
	if (offPlanes + tbAcross(n, glms_vec3_sub(fb, fa)) <= fmaxf(tol, 1e-4f * mk->scale)) {
		*pointA = fa;
		*pointB = fb;
		return;
	}
	float d = hB - hA;
	vec3s anchors[4] = {sa, sb, fa, fb};
	bool onA[4] = {true, false, true, false};
	bool usable[4] = {true, true, fabsf(hA - glms_vec3_dot(fa, n)) <= tol,
	                  fabsf(glms_vec3_dot(fb, n) - hB) <= tol};
	// Candidates in order of their distance across n from the face pair; the first whose
	// partner is not outside the other shape wins (each check costs eight support calls).
	vec3s mid = glms_vec3_scale(glms_vec3_add(fa, fb), 0.5f);
	vec3s pas[4], pbs[4];
	float across[4];
	int order[4], count = 0;
	for (int k = 0; k < 4; ++k) {
		if (!usable[k]) {
			continue;
		}
		pas[k] = onA[k] ? anchors[k] : glms_vec3_sub(anchors[k], glms_vec3_scale(n, d));
		pbs[k] = onA[k] ? glms_vec3_add(anchors[k], glms_vec3_scale(n, d)) : anchors[k];
		across[k] =
		    tbAcross(n, glms_vec3_sub(glms_vec3_scale(glms_vec3_add(pas[k], pbs[k]), 0.5f), mid));
		int j = count++;
		while (j > 0 && across[order[j - 1]] > across[k]) {
			order[j] = order[j - 1];
			--j;
		}
		order[j] = k;
	}
	float best = INFINITY;
	*pointA = fa;
	*pointB = fb;
	for (int j = 0; j < count; ++j) {
		int k = order[j];
		// The partner must lie on the other shape (it is on its support plane already).
		float outside =
		    onA[k] ? tbPointOutside(mk, false, pbs[k]) : tbPointOutside(mk, true, pas[k]);
		if (outside < best) {
			best = outside;
			*pointA = pas[k];
			*pointB = pbs[k];
		}
		if (outside <= tol) {
			break;
		}
	}
}

// Kept out of line: its arrays would otherwise make every call pay for a large stack frame.
__attribute__((noinline)) static void
tbPolytope_SendTrace(const tbPolytope* poly, const tbQueryDef* def, tbTraceStage stage,
                     int iteration, vec3s direction, vec3s support, float distance);

void tbPolytope_Trace(const tbPolytope* poly, const tbQueryDef* def, tbTraceStage stage,
                      int iteration, vec3s direction, vec3s support, float distance)
{
	if (def != NULL && def->traceFcn != NULL) {
		tbPolytope_SendTrace(poly, def, stage, iteration, direction, support, distance);
	}
}

static void tbPolytope_SendTrace(const tbPolytope* poly, const tbQueryDef* def, tbTraceStage stage,
                                 int iteration, vec3s direction, vec3s support, float distance)
{
	int triangles[3 * TB_POLY_MAX_FACES];
	vec3s vertices[TB_POLY_MAX_VERTICES];
	int count = 0;
	for (int f = 0; f < poly->faceCount; ++f) {
		if (poly->faces[f].alive) {
			memcpy(&triangles[3 * count], poly->faces[f].v, sizeof(int[3]));
			++count;
		}
	}
	for (int i = 0; i < poly->vertexCount; ++i) {
		vertices[i] = poly->vertices[i].w;
	}
	tbTraceStep step = {0};
	step.stage = stage;
	step.iteration = iteration;
	step.direction = direction;
	step.support = support;
	step.triangleCount = count;
	step.triangles = triangles;
	step.vertices = vertices;
	step.vertexCount = poly->vertexCount;
	step.distance = distance;
	def->traceFcn(&step, def->traceContext);
}

bool tbPolytope_IsNewVertex(const tbPolytope* poly, const tbSupportVertex* w)
{
	for (int i = 0; i < poly->vertexCount; ++i) {
		// Positions, not feature pairs: on an inflated difference a repeated pair is a new point.
		const tbSupportVertex* p = &poly->vertices[i];
		if (p->w.x == w->w.x && p->w.y == w->w.y && p->w.z == w->w.z) {
			return false;
		}
	}
	return true;
}

// Any unit vector perpendicular to d.
static vec3s tbPerpendicular(vec3s d)
{
	vec3s axis = fabsf(d.x) < fabsf(d.y)
	                 ? (fabsf(d.x) < fabsf(d.z) ? (vec3s){{1, 0, 0}} : (vec3s){{0, 0, 1}})
	                 : (fabsf(d.y) < fabsf(d.z) ? (vec3s){{0, 1, 0}} : (vec3s){{0, 0, 1}});
	return glms_vec3_normalize(glms_vec3_cross(d, axis));
}

// Blow a 1- to 3-point simplex that holds the origin up to a tetrahedron (seed 003; the origin
// may end up on its boundary, which EPA handles). Returns false if A - B is flat everywhere.
static bool tbBlowUp(const tbMinkowski* mk, const tbSimplex* s, tbSupportVertex out[4])
{
	int count = s->count;
	for (int i = 0; i < count; ++i) {
		out[i] = s->v[i];
	}
	const float L = mk->scale;
	if (count == 1) {
		vec3s d =
		    glms_vec3_norm2(out[0].w) > 0.0f ? glms_vec3_negate(out[0].w) : (vec3s){{1, 0, 0}};
		out[1] = tbMinkowskiSupport(mk, d);
		if (glms_vec3_norm2(glms_vec3_sub(out[1].w, out[0].w)) <= 1e-12f * L * L) {
			out[1] = tbMinkowskiSupport(mk, glms_vec3_negate(d));
		}
		count = 2;
	}
	if (count == 2) {
		// Of six directions around the segment, take the support farthest from its line.
		vec3s axis = glms_vec3_sub(out[1].w, out[0].w);
		float axisLen2 = glms_vec3_norm2(axis);
		if (axisLen2 <= 1e-12f * L * L) {
			return false;
		}
		vec3s u = tbPerpendicular(axis);
		vec3s t = glms_vec3_normalize(glms_vec3_cross(axis, u));
		float best = -1.0f;
		for (int k = 0; k < 6; ++k) {
			float angle = (float)k * (GLM_PIf / 3.0f);
			vec3s d =
			    glms_vec3_add(glms_vec3_scale(u, cosf(angle)), glms_vec3_scale(t, sinf(angle)));
			tbSupportVertex c = tbMinkowskiSupport(mk, d);
			vec3s r = glms_vec3_sub(c.w, out[0].w);
			float off = glms_vec3_norm2(glms_vec3_cross(r, axis)) / axisLen2;
			if (off > best) {
				best = off;
				out[2] = c;
			}
		}
		count = 3;
	}
	// Triangle: the support farther from its plane, on either side.
	vec3s n = glms_vec3_cross(glms_vec3_sub(out[1].w, out[0].w), glms_vec3_sub(out[2].w, out[0].w));
	if (glms_vec3_norm2(n) <= 1e-20f * L * L * L * L) {
		return false;
	}
	tbSupportVertex up = tbMinkowskiSupport(mk, n);
	tbSupportVertex down = tbMinkowskiSupport(mk, glms_vec3_negate(n));
	float hu = glms_vec3_dot(n, glms_vec3_sub(up.w, out[0].w));
	float hd = -glms_vec3_dot(n, glms_vec3_sub(down.w, out[0].w));
	out[3] = hu >= hd ? up : down;
	return true;
}

void tbEpa(const tbMinkowski* mk, const tbSimplex* simplex, int maxIterations,
           const tbQueryDef* def, tbPolytopeResult* out)
{
	const float L = mk->scale;
	tbPolytope poly;
	poly.areaTolerance = 1e-12f * L * L;

	tbSupportVertex start[4];
	bool ok = simplex->count == 4;
	if (ok) {
		for (int i = 0; i < 4; ++i) {
			start[i] = simplex->v[i];
		}
	} else {
		ok = tbBlowUp(mk, simplex, start);
	}
	ok = ok && tbPolytope_InitTetrahedron(&poly, start);
	out->status = tb_queryConverged;
	out->iterations = 0;
	if (!ok) {
		// A - B has no volume even after inflation: cannot happen with a positive margin; keep
		// the answer defined anyway.
		out->inside = true;
		out->distance = 0.0f;
		out->normal = (vec3s){{0.0f, 1.0f, 0.0f}};
		tbSimplex_Witness(simplex, &out->pointA, &out->pointB);
		out->status = tb_queryDegenerate;
		return;
	}

	tbPolytope_Solve(mk, &poly, maxIterations, def, tb_traceEpa, out);
}
