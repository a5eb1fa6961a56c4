// The expanding polytope shared by EPA and unified EPA: faces with adjacency, the horizon walk
// that adds a support point (the EPA article), the closest face, and the loop that grows it
// (Linneweber 2021).
#include "narrowphase.h"

#include <float.h>
#include <math.h>
#include <string.h>

// The edge after e in a triangle, without a division on the hot path.
static const int tb_next[3] = {1, 2, 0};

int tbPolytope_ClosestFace(const tbPolytope* poly, float* distance)
{
	// A plain scan: polytopes stay small (tens of faces), where a heap's upkeep costs more than it
	// saves.
	int best = -1;
	float bestDist = FLT_MAX;
	const float* key = poly->closestKey;
	for (int k = 0; k < poly->faceCount; ++k) {
		if (key[k] < bestDist) {
			bestDist = key[k];
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
	poly->closestKey[f] = face->dist;
}

static void tbPolytope_SetAlive(tbPolytope* poly, int f, bool alive)
{
	poly->faces[f].alive = alive;
	poly->closestKey[f] = alive ? poly->faces[f].dist : FLT_MAX;
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
	if (face->valid) {
		// The plane offset is stored: no vertex to fetch.
		return glms_vec3_dot(face->n, w) - face->dist > tol;
	}
	vec3s p = poly->vertices[face->v[0]].w;
	return glms_vec3_dot(face->n, glms_vec3_sub(w, p)) > 0.0f;
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
// first faces that do not are the horizon, collected in loop order (the EPA article's horizon
// rebuild). The depth of the walk is bounded by the number of faces.
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
	tbPolytope_SetAlive(poly, f, false);
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
	tbPolytope_SetAlive(poly, start, false);
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
			tbPolytope_SetAlive(poly, h.removed[k], true);
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

// The face through which the ray from the origin along n leaves the polytope, and the point where
// it does: of the faces the ray meets in front (n . normal > 0), the one it meets first, at
// t = dist / (n . normal). The origin is inside, so that face holds the point (a convex polytope
// is the intersection of its faces' half-spaces); the face most aligned with n need not.
static int tbPolytope_FaceAlong(const tbPolytope* poly, vec3s n, vec3s* point)
{
	int best = -1;
	float bestT = FLT_MAX;
	for (int k = 0; k < poly->faceCount; ++k) {
		const tbPolyFace* face = &poly->faces[k];
		if (!face->alive || !face->valid || face->dist <= 0.0f) {
			continue;
		}
		float c = glms_vec3_dot(face->n, n);
		if (c > 1e-6f && face->dist < bestT * c) {
			bestT = face->dist / c;
			best = k;
		}
	}
	if (best < 0) {
		*point = glms_vec3_zero();
		return 0;
	}
	*point = glms_vec3_scale(n, bestT);
	return best;
}

// How far p is inside triangle f: its smallest barycentric weight (negative outside).
static float tbPolytope_Inside(const tbPolytope* poly, int f, vec3s p)
{
	float l[3];
	tbPolytope_Barycentric(poly, f, p, l);
	return fminf(l[0], fminf(l[1], l[2]));
}

int tbPolytope_FaceHolding(const tbPolytope* poly, int f, vec3s* p, float planeTol)
{
	// A flat patch of A - B is triangulated into coplanar faces that tie for the smallest
	// distance; rounding picks any of them. The witnesses need the one that holds p (Jolt's
	// barycentric slack 1e-3). On a curved difference rounding also leaves the closest face
	// skinny and slightly bent against its neighbours, so that the foot of the origin falls
	// beside it (weights like (-0.9, 1, 0.9)), and its clamped pair would mix far-apart supports:
	// then the face in nearly the same plane that holds p best is taken.
	const float slack = -1e-3f;
	float inside = tbPolytope_Inside(poly, f, *p);
	if (inside >= slack) {
		return f;
	}
	const tbPolyFace* face = &poly->faces[f];
	int best = f;
	for (int g = 0; g < poly->faceCount; ++g) {
		const tbPolyFace* other = &poly->faces[g];
		if (g == f || !other->alive || !other->valid ||
		    fabsf(other->dist - face->dist) > planeTol ||
		    glms_vec3_dot(other->n, face->n) < 1.0f - 1e-5f) {
			continue;
		}
		float in = tbPolytope_Inside(poly, g, *p);
		if (in >= slack) {
			return g;
		}
		if (in > inside) {
			inside = in;
			best = g;
		}
	}
	// Failing that, the face through which the ray along p leaves the polytope, at the point
	// where it does, if it holds that point better.
	float len = glms_vec3_norm(*p);
	if (len > 0.0f) {
		vec3s q;
		int g = tbPolytope_FaceAlong(poly, glms_vec3_scale(*p, 1.0f / len), &q);
		if (tbPolytope_Inside(poly, g, q) > inside) {
			*p = q;
			return g;
		}
	}
	return best;
}

void tbPolytope_Witness(const tbPolytope* poly, int f, vec3s p, vec3s* pointA, vec3s* pointB)
{
	const tbPolyFace* face = &poly->faces[f];
	const tbSupportVertex* v0 = &poly->vertices[face->v[0]];
	const tbSupportVertex* v1 = &poly->vertices[face->v[1]];
	const tbSupportVertex* v2 = &poly->vertices[face->v[2]];
	// The EPA article: barycentric coordinates of the contact point on the closest face, applied to
	// the shapes' own support points.
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

// The point of the polytope nearest the origin when the origin is outside it: the nearest point of
// the faces that have the origin in front (Linneweber 2021 step b). Only asked when some face does.
static int tbPolytope_NearestOutside(const tbPolytope* poly, float* distance2, vec3s* point)
{
	int nearest = -1;
	*distance2 = FLT_MAX;
	*point = glms_vec3_zero();
	for (int k = 0; k < poly->faceCount; ++k) {
		const tbPolyFace* face = &poly->faces[k];
		if (!face->alive || !face->valid || face->dist >= 0.0f) {
			continue;
		}
		float l[3];
		vec3s q = tbClosestOnTriangle(poly->vertices[face->v[0]].w, poly->vertices[face->v[1]].w,
		                              poly->vertices[face->v[2]].w, l);
		float d2 = glms_vec3_norm2(q);
		if (d2 < *distance2) {
			*distance2 = d2;
			nearest = k;
			*point = q;
		}
	}
	return nearest;
}

// The face to expand from: one that sees w, trying first the face of the current answer. A
// paper-thin polytope (A - B flat, thickened only by the margin) tilts its faces by margin / size,
// so outside, a point beyond its rim may be seen only faintly: then the face that sees it most
// starts the expansion. -1 when no face sees w.
static int tbPolytope_StartFace(const tbPolytope* poly, int best, vec3s w, bool inside, float tol)
{
	int faintFace = -1;
	float faintSide = 0.0f;
	for (int k = -1; k < poly->faceCount; ++k) {
		int g = k < 0 ? best : k;
		const tbPolyFace* face = &poly->faces[g];
		if (!face->alive || !face->valid) {
			continue;
		}
		float side = glms_vec3_dot(face->n, glms_vec3_sub(w, poly->vertices[face->v[0]].w));
		if (side > tol) {
			return g;
		}
		if (!inside && side > faintSide) {
			faintSide = side;
			faintFace = g;
		}
	}
	return faintFace;
}

// Directions whose supports reach the best depth found so far, to within the tolerance. Three of
// them far apart mean the optimum is a ring or a cap of equally good normals (identical round
// shapes, a vertex touching what only the inflated difference encloses); two could be two
// separate optima of nearly the same depth.
typedef struct tbPlateau
{
	vec3s directions[3];
	int count;
} tbPlateau;

static void tbPlateau_Add(tbPlateau* p, vec3s dir, float depth, float bestDepth, float tol)
{
	if (depth < bestDepth - tol) {
		p->directions[0] = dir; // a real gain: start again
		p->count = 1;
		return;
	}
	if (depth > bestDepth + tol || p->count == 3) {
		return;
	}
	for (int k = 0; k < p->count; ++k) {
		if (glms_vec3_dot(dir, p->directions[k]) >= 0.7f) {
			return;
		}
	}
	p->directions[p->count++] = dir;
}

// The expanding loop shared by EPA and unified EPA. Inside mode is EPA (Casalino 2021 sec. 3; the
// EPA article); outside mode is GJK on the polytope (Linneweber 2021 step b), which EPA also needs
// when a touching pair leaves the origin just outside its seed tetrahedron.
void tbPolytope_Solve(const tbMinkowski* mk, tbPolytope* poly, int maxIterations,
                      const tbQueryDef* def, tbTraceStage stage, tbPolytopeResult* out)
{
	const float L = mk->scale;
	const float gapTol = mk->tolerance * L;
	const float gapMax = fmaxf(TB_EPA_GAP_MAX, mk->tolerance) * L;

	out->status = tb_queryConverged;
	out->iterations = 0;
	int best = 0;
	bool inside = false;
	// Inside, each support bounds the depth from above (as in EPA): the answer at a cap.
	float upperDepth = FLT_MAX;
	vec3s upperNormal = glms_vec3_zero(), upperA = glms_vec3_zero(), upperB = glms_vec3_zero();
	tbSupportVertex last; // the support of the last iteration, along the answer's normal
	bool haveLast = false;
	bool converged = false;
	tbPlateau plateau = {.count = 0};
	bool byPlateau = false;
	int insideIterations = 0; // unified EPA starts outside: count only the EPA part
	bool byUpper = false;     // stopped on the best upper bound: answer with its direction
	vec3s bestPoint = glms_vec3_zero();
	for (int iter = 0;; ++iter) {
		// Inside when no trusted face has the origin in front of it. Then the closest boundary
		// point is on the nearest face plane (EPA); otherwise it is the nearest point of the
		// faces that see the origin (GJK-like; Linneweber 2021 step b).
		float fd = FLT_MAX;
		int f = tbPolytope_ClosestFace(poly, &fd);
		float outsideBest = FLT_MAX;
		int outsideFace = -1;
		vec3s outsidePoint = glms_vec3_zero();
		if (fd < 0.0f) {
			outsideFace = tbPolytope_NearestOutside(poly, &outsideBest, &outsidePoint);
		}
		if (f < 0) {
			out->status = tb_queryDegenerate;
			break;
		}
		// The origin on the surface (within float noise) has no direction to search in: treat
		// it as inside, where the face normal gives one.
		// And a polytope only grows: once it held the origin it holds it for good, whatever the
		// sign a rounded sliver face reports later.
		inside = inside || outsideFace < 0 || outsideBest <= (1e-7f * L) * (1e-7f * L);
		vec3s dir, point;
		float lower, upper;
		tbSupportVertex w;
		if (inside) {
			best = f;
			point = glms_vec3_scale(poly->faces[f].n, fd);
			dir = poly->faces[f].n;
			w = tbMinkowskiSupport(mk, dir);
			lower = fd;
			upper = glms_vec3_dot(w.w, dir);
			tbPlateau_Add(&plateau, dir, upper, upperDepth, gapTol);
			if (upper < upperDepth) {
				upperDepth = upper;
				upperNormal = dir;
				upperA = w.a;
				upperB = w.b;
			}
		} else {
			best = outsideFace;
			point = outsidePoint;
			float len = sqrtf(outsideBest);
			// Linneweber 2021 step b: search from the closest point towards the origin.
			dir = len > 0.0f ? glms_vec3_scale(point, -1.0f / len) : poly->faces[f].n;
			w = tbMinkowskiSupport(mk, dir);
			upper = len;
			lower = -glms_vec3_dot(w.w, dir);
		}
		bestPoint = point;
		last = w;
		haveLast = true;
		if (iter >= maxIterations) {
			out->status = tb_queryIterationCap;
			break;
		}
		tbPolytope_Trace(poly, def, stage, iter, dir, w.w, inside ? fd : -upper);
		out->iterations = iter + 1;
		// Both modes stop when the support plane is within tolerance of the polytope (Linneweber
		// 2021 step h: the support point brings nothing new).
		if (upper - lower <= gapTol) {
			converged = true;
			break;
		}
		// A ring or cap of equally deep directions takes a polytope that follows all of it to
		// close the gap, far beyond any iteration cap, while the supports already give the
		// depth. Once the polytope has had TB_EPA_RELAX_AFTER iterations, such a plateau stops
		// at TB_EPA_GAP_MAX, well inside the 1e-4 L depth target; a single optimum, even next
		// to a second one, keeps the strict gap.
		insideIterations += inside ? 1 : 0;
		bool onPlateau = plateau.count == 3 && insideIterations > TB_EPA_RELAX_AFTER;
		float accepted = onPlateau ? gapMax : gapTol;
		if (inside && upperDepth - lower <= accepted) {
			// An earlier support already bounds the depth to within tolerance of this lower
			// bound: on curved differences that bound converges long before the faces do.
			byUpper = true;
			byPlateau = upperDepth - lower > gapTol;
			break;
		}
		// Expand from a face that sees w; in the outside mode that is the face holding the
		// closest point, or failing that (numerical ties) any face that sees w.
		int startFace = tbPolytope_StartFace(poly, best, w.w, inside, 0.1f * gapTol);
		bool isNew = startFace >= 0 && tbPolytope_IsNewVertex(poly, &w);
		if (!inside && !isNew && upper <= 10.0f * gapTol) {
			// Outside within ten tolerances of the surface, GJK on the polytope crawls: a support
			// far to the side of the closest point gains almost nothing, then repeats. The origin
			// is on the surface to within the tolerance: the inside mode finishes from the face
			// planes (the polytope only grows, so it stays there).
			inside = true;
			continue;
		}
		if (startFace >= 0 && !isNew) {
			// A known vertex beyond the polytope: rounding has bent it. Keep the best so far.
			out->status = tb_queryDegenerate;
			break;
		}
		if (startFace < 0) {
			out->status = tb_queryDegenerate; // nothing sees the new point: keep the best so far
			break;
		}
		// Outside, the loop is GJK on the polytope: every face that sees w at all must go, or a
		// face next to the closest point survives and keeps it from moving towards w.
		if (!tbPolytope_Expand(poly, startFace, &w, inside ? 0.1f * gapTol : 0.0f)) {
			out->status = poly->vertexCount >= TB_POLY_MAX_VERTICES ? tb_queryIterationCap
			                                                        : tb_queryDegenerate;
			break;
		}
	}
	out->inside = inside;
	if (inside && (byUpper || !converged) && upperDepth < FLT_MAX) {
		out->distance = upperDepth;
		out->normal = upperNormal;
		vec3s fa, fb;
		if (byPlateau || glms_vec3_dot(poly->faces[best].n, upperNormal) < 1.0f - 1e-6f) {
			// The closest face may sit anywhere on the ring, or on the far side of a difference
			// that is symmetric (identical shapes: h_C(n) = h_C(-n), and the loop may stop on
			// the face opposite the answer's normal): take the face that the answer's normal
			// passes through instead, whose pairs lie on the support planes along it.
			best = tbPolytope_FaceAlong(poly, upperNormal, &bestPoint);
		}
		int holder = tbPolytope_FaceHolding(poly, best, &bestPoint, gapTol);
		tbPolytope_Witness(poly, holder, bestPoint, &fa, &fb);
		tbChooseWitness(mk, upperNormal, fa, fb, upperA, upperB, 10.0f * gapTol, &out->pointA,
		                &out->pointB);
		return;
	}
	if (inside) {
		out->distance = poly->faces[best].dist;
		out->normal = poly->faces[best].n;
	} else {
		float len = glms_vec3_norm(bestPoint);
		out->distance = len;
		// Apart: the normal from A to B is minus the direction of the closest point of A - B.
		out->normal = len > 0.0f ? glms_vec3_scale(bestPoint, -1.0f / len) : poly->faces[best].n;
	}
	int holder = inside ? tbPolytope_FaceHolding(poly, best, &bestPoint, gapTol) : best;
	vec3s fa, fb;
	tbPolytope_Witness(poly, holder, bestPoint, &fa, &fb);
	// The start tetrahedron's interior points can survive in the final face; the supports along
	// the normal are on the surfaces. The last iteration searched along this very normal.
	tbSupportVertex s = haveLast ? last : tbMinkowskiSupport(mk, out->normal);
	tbChooseWitness(mk, out->normal, fa, fb, s.a, s.b, 10.0f * gapTol, &out->pointA, &out->pointB);
}
