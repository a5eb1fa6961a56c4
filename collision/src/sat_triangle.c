// The separating-axis test between a triangle and a convex polytope (a box or a solid hull): the
// query a mesh or heightfield triangle takes against a polytope, in place of GJK and EPA.
//
// A triangle is a flat polytope: two faces (its normal n and -n), three edges and three vertices.
// On the Gauss map its faces are the two poles n and -n, and each edge is the half great circle
// from n to -n through the edge's outward side direction o = e x n (e the edge, counter-clockwise
// about n). The axes worth testing are the face normals of the Minkowski difference T - P: the
// triangle's two faces, the polytope's faces, and e x f for a triangle edge e and a polytope edge
// f whose arcs cross (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013).
// The polytope edge's arc runs between its two faces' normals, negated (the difference's Gauss
// map holds -P's); it crosses the triangle edge's half circle when the two normals lie on either
// side of the circle's plane (the plane through the poles orthogonal to e) and the crossing lies
// on the side of o. Box3D's triangle-hull test (erincatto/box3d, triangle_manifold.c) uses the same
// arcs for its one-sided triangles.
//
// The largest separation over these axes is minus the penetration depth when the shapes overlap
// and a lower bound on their distance when apart. Work grows with the polytope's faces and edges,
// not with the iterations of a search: a triangle against a hull of E edges is 3 E edge pairs.

#include <float.h>
#include <math.h>

#include "geometry_internal.h"
#include "sat.h"
#include "segments.h"
#include "tumble/transform.h"
#include "tumble/transform_internal.h"

// An edge pair replaces a face, and a face of the polytope the triangle's, only when its
// separation is larger by this fraction of the face's magnitude plus TB_SAT_TRI_ABS times the
// smaller shape's size: faces give up to four points, an edge axis one, and the triangle's face
// is the normal a mesh keeps (as tbSat_Find prefers faces).
#define TB_SAT_TRI_EDGE_REL 0.10f
#define TB_SAT_TRI_FACE_REL 0.02f
#define TB_SAT_TRI_ABS 1e-3f
// Edges within this sine of parallel give no axis: the faces around them cover it.
#define TB_SAT_TRI_PARALLEL 1e-3f
// A cached axis stands for the whole test while its separation has moved by less than this
// fraction of the smaller shape's size since it was chosen (Box3D's triangle cache takes its
// linear slop, 5 mm, for the same purpose).
#define TB_SAT_TRI_CACHE_REL 0.01f

// One candidate axis in the polytope's frame: u points from the triangle towards the polytope,
// pT and pP are witness points on each (pP - pT = separation u).
typedef struct tbTriAxis
{
	float separation;
	vec3s u, pT, pP;
} tbTriAxis;

// The query result in A's frame from the chosen axis (polytope frame) and the largest separation
// over the tested axes: triIsA says which is A.
static void tbTriResult(const tbTriAxis* ax, float largest, bool triIsA, tbTransform bInA,
                        tbQueryResult* out)
{
	out->distance = largest;
	out->hit = largest <= 0.0f;
	out->status = tb_queryConverged;
	out->gjkIterations = 0;
	out->epaIterations = 0;
	if (triIsA) {
		// The polytope is B: its frame maps into A's by bInA; u points from A to B.
		out->normal = tbRotateInline(bInA.q, ax->u);
		out->pointA = tbTransformPointInline(bInA, ax->pT);
		out->pointB = tbTransformPointInline(bInA, ax->pP);
	} else {
		// The polytope is A: its frame is A's; the normal from A to B is -u.
		out->normal = glms_vec3_negate(ax->u);
		out->pointA = ax->pP;
		out->pointB = ax->pT;
	}
}

// The polytope's face f as a unit normal and offset in its scaled frame (stored ones at unit
// scale).
static vec3s tbTriPolyNormal(const tbHull* h, int f, bool unit, vec3s inv, float* offset)
{
	vec3s m = h->faces[f].normal;
	*offset = h->faces[f].offset;
	if (!unit) {
		m = glms_vec3_mul(m, inv);
		float len = glms_vec3_norm(m);
		m = glms_vec3_scale(m, 1.0f / len);
		*offset /= len;
	}
	return m;
}

// The triangle's lowest corner along m: its dot, and which corner (*lowest).
static inline float tbTriLowest(vec3s m, const vec3s t[3], int* lowest)
{
	float d0 = glms_vec3_dot(m, t[0]), d1 = glms_vec3_dot(m, t[1]), d2 = glms_vec3_dot(m, t[2]);
	*lowest = d1 < d0 ? 1 : 0;
	float least = d1 < d0 ? d1 : d0;
	if (d2 < least) {
		least = d2;
		*lowest = 2;
	}
	return least;
}

#if defined(__SSE2__)
// Each of the hull's face normals n (its faceLanes: unit scale, where they are the normals
// tbTriPolyNormal gives) dotted with v, four faces at a time: out[f] = v . n, the sums of
// glms_vec3_dot in its order. `out` holds the face count rounded up to four.
static void tbTriFaceDots(const tbHull* h, vec3s v, float* out)
{
	int padded = (h->faceCount + 3) & ~3;
	const float* xs = h->faceLanes;
	const float* ys = xs + padded;
	const float* zs = ys + padded;
	__m128 vx = _mm_set1_ps(v.x), vy = _mm_set1_ps(v.y), vz = _mm_set1_ps(v.z);
	for (int i = 0; i < padded; i += 4) {
		__m128 d = _mm_add_ps(
		    _mm_add_ps(_mm_mul_ps(vx, _mm_loadu_ps(xs + i)), _mm_mul_ps(vy, _mm_loadu_ps(ys + i))),
		    _mm_mul_ps(vz, _mm_loadu_ps(zs + i)));
		_mm_storeu_ps(out + i, d);
	}
}

// tbTriLowest's least dot for each of the hull's faces (as tbTriFaceDots), four faces at a time:
// the same dots and the same choices (d1 < d0 ? d1 : d0, then d2 if less).
static void tbTriFaceLeast(const tbHull* h, const vec3s t[3], float* least)
{
	int padded = (h->faceCount + 3) & ~3;
	const float* xs = h->faceLanes;
	const float* ys = xs + padded;
	const float* zs = ys + padded;
	for (int i = 0; i < padded; i += 4) {
		__m128 x = _mm_loadu_ps(xs + i), y = _mm_loadu_ps(ys + i), z = _mm_loadu_ps(zs + i);
		__m128 d[3];
		for (int k = 0; k < 3; ++k) {
			d[k] = _mm_add_ps(
			    _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(t[k].x)), _mm_mul_ps(y, _mm_set1_ps(t[k].y))),
			    _mm_mul_ps(z, _mm_set1_ps(t[k].z)));
		}
		_mm_storeu_ps(least + i, _mm_min_ps(d[2], _mm_min_ps(d[1], d[0])));
	}
}
#endif

// The axis of the polytope's face (unit normal m, offset): the triangle's lowest corner over its
// plane.
static tbTriAxis tbTriPolyFace(vec3s m, float offset, const vec3s t[3])
{
	int lowest;
	tbTriAxis ax;
	ax.separation = tbTriLowest(m, t, &lowest) - offset;
	ax.u = glms_vec3_negate(m);
	ax.pT = t[lowest];
	ax.pP = glms_vec3_add(ax.pT, glms_vec3_scale(ax.u, ax.separation));
	return ax;
}

// An edge pair's witness points: on the triangle's edge (from t along e) the point closest to the
// polytope's edge (v0 to v1), and the polytope's point the axis's separation along u from it.
static void tbTriEdgeWitness(tbTriAxis* ax, vec3s t, vec3s e, vec3s v0, vec3s v1)
{
	vec3s onP;
	tbClosestSegments(t, e, v0, glms_vec3_sub(v1, v0), &ax->pT, &onP);
	ax->pP = glms_vec3_add(ax->pT, glms_vec3_scale(ax->u, ax->separation));
}

// The axis of triangle edge k and polytope edge j when their arcs still cross (the Gauss-map
// test of the full search below), with its witness points; false when they no longer make a face
// of the Minkowski difference.
static bool tbTriEdgePair(const tbHull* h, int j, int k, bool unit, vec3s inv, const vec3s t[3],
                          const vec3s e[3], vec3s n, vec3s scale, tbTriAxis* out)
{
	const tbHullEdge* he = h->edges + j;
	float o0, o1;
	vec3s m0 = tbTriPolyNormal(h, he->face0, unit, inv, &o0);
	vec3s m1 = tbTriPolyNormal(h, he->face1, unit, inv, &o1);
	float ec = glms_vec3_dot(e[k], m0), ed = glms_vec3_dot(e[k], m1);
	float gap = ec - ed;
	if (!(ec * ed < 0.0f) || !(fabsf(gap) >= TB_SAT_TRI_PARALLEL * glms_vec3_norm(e[k]))) {
		return false;
	}
	vec3s o = glms_vec3_cross(e[k], n);
	float w = ec / gap;
	float oc = glms_vec3_dot(o, m0), od = glms_vec3_dot(o, m1);
	if (!(oc + w * (od - oc) < 0.0f)) {
		return false;
	}
	vec3s p = glms_vec3_negate(glms_vec3_add(m0, glms_vec3_scale(glms_vec3_sub(m1, m0), w)));
	float plen = glms_vec3_norm(p);
	if (!(plen > 0.0f)) {
		return false;
	}
	vec3s v0 = glms_vec3_mul(h->vertices[he->v0], scale);
	vec3s v1 = glms_vec3_mul(h->vertices[he->v1], scale);
	out->separation = glms_vec3_dot(p, glms_vec3_sub(v0, t[k])) / plen;
	out->u = glms_vec3_scale(p, 1.0f / plen);
	tbTriEdgeWitness(out, t[k], e[k], v0, v1);
	return true;
}

// The cache's ids for an axis: the triangle's faces are ids 0 (its normal) and 1 (the normal
// reversed), a polytope face its face id, an edge pair the triangle's edge k (from corner k) and
// the polytope's edge id; A's in indexA.
static void tbTriStore(tbSatCache* cache, bool triIsA, tbSatFeatureType kind, int tri, int poly,
                       float separation)
{
	if (cache == NULL) {
		return;
	}
	if (kind == tb_satEdges) {
		cache->type = tb_satEdges;
		cache->indexA = triIsA ? tri : poly;
		cache->indexB = triIsA ? poly : tri;
	} else {
		// kind: tb_satFaceA for the triangle's face, tb_satFaceB for the polytope's.
		bool onA = (kind == tb_satFaceA) == triIsA;
		cache->type = onA ? tb_satFaceA : tb_satFaceB;
		cache->indexA = onA ? (kind == tb_satFaceA ? tri : poly) : -1;
		cache->indexB = onA ? -1 : (kind == tb_satFaceA ? tri : poly);
	}
	cache->separation = separation;
}

// The cached axis at this pose (Box3D's triangle cache, erincatto/box3d triangle_manifold.c): when
// it still separates by more than the margin, the pair is apart; when its separation has moved by
// no more than `keep` since it was chosen, it stands for the whole test (the triangle's face
// still preferred by the full test's rule). The triangle's face axis (`face`, side `faceId`) is
// always at hand. False when the cache names nothing of these shapes or no longer holds: the full
// test runs.
static bool tbTriCached(tbSatCache* cache, const tbHull* h, bool triIsA, int faceId,
                        const tbTriAxis* face, bool unit, vec3s inv, const vec3s t[3],
                        const vec3s e[3], vec3s n, vec3s scale, float margin, float absTol,
                        float keep, tbTransform bInA, tbQueryResult* out)
{
	tbTriAxis cached;
	tbSatFeatureType kind;
	int tri = -1, poly = -1;
	if (cache->type == tb_satEdges) {
		tri = triIsA ? cache->indexA : cache->indexB;
		poly = triIsA ? cache->indexB : cache->indexA;
		if (tri < 0 || tri > 2 || poly < 0 || poly >= h->edgeCount ||
		    !tbTriEdgePair(h, poly, tri, unit, inv, t, e, n, scale, &cached)) {
			return false;
		}
		kind = tb_satEdges;
	} else if (cache->type == tb_satFaceA || cache->type == tb_satFaceB) {
		bool onA = cache->type == tb_satFaceA;
		int id = onA ? cache->indexA : cache->indexB;
		if (onA == triIsA) {
			if (id != faceId) {
				return false; // the other side of the triangle now faces the polytope
			}
			cached = *face;
			kind = tb_satFaceA;
			tri = id;
		} else {
			if (id < 0 || id >= h->faceCount) {
				return false;
			}
			float offset;
			vec3s m = tbTriPolyNormal(h, id, unit, inv, &offset);
			cached = tbTriPolyFace(m, offset, t);
			kind = tb_satFaceB;
			poly = id;
		}
	} else {
		return false;
	}
	// The cache keeps the separation the full test chose it at, so that small moves cannot add
	// up to a large one unseen.
	float largest = tbFMax(face->separation, cached.separation);
	if (cached.separation > margin) {
		tbTriResult(&cached, largest, triIsA, bInA, out);
		return true;
	}
	if (!(fabsf(cached.separation - cache->separation) <= keep)) {
		return false;
	}
	const tbTriAxis* chosen = &cached;
	if (kind != tb_satFaceA) {
		float rel = kind == tb_satEdges ? TB_SAT_TRI_EDGE_REL : TB_SAT_TRI_FACE_REL;
		if (!(cached.separation > face->separation + rel * fabsf(face->separation) + absTol)) {
			chosen = face;
			tbTriStore(cache, triIsA, tb_satFaceA, faceId, -1, face->separation);
		}
	}
	tbTriResult(chosen, largest, triIsA, bInA, out);
	return true;
}

bool tbSat_TriangleQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, float margin,
                         tbSatCache* cache, tbQueryResult* out)
{
	bool triIsA = a->type == tb_triangleShape;
	const tbGeometry* tri = triIsA ? a : b;
	const tbGeometry* poly = triIsA ? b : a;
	if (tri->type != tb_triangleShape || !tbSat_IsPolytope(poly) || !tbSat_PoseOk(bInA) ||
	    !(margin >= 0.0f) || !tbIsFiniteVec3(tri->scale)) {
		return false;
	}
	bool box = poly->type == tb_boxShape;
	const tbHull* h = box ? tbSat_UnitCube() : poly->hull;
	vec3s scale = box ? glms_vec3_mul(poly->halfExtents, poly->scale) : poly->scale;
	vec3s inv = {{1.0f / scale.x, 1.0f / scale.y, 1.0f / scale.z}};

	// The triangle in the polytope's frame (its corners scaled by its own scale).
	vec3s t[3];
	for (int k = 0; k < 3; ++k) {
		vec3s v = glms_vec3_mul(tri->vertices[k], tri->scale);
		t[k] = triIsA ? tbInvRotateInline(bInA.q, glms_vec3_sub(v, bInA.p))
		              : tbTransformPointInline(bInA, v);
		if (!tbIsFiniteVec3(t[k])) {
			return false;
		}
	}
	vec3s e[3] = {glms_vec3_sub(t[1], t[0]), glms_vec3_sub(t[2], t[1]), glms_vec3_sub(t[0], t[2])};
	vec3s n = glms_vec3_cross(e[0], glms_vec3_negate(e[2]));
	float area2 = glms_vec3_norm(n);
	float longest =
	    sqrtf(tbFMax(glms_vec3_norm2(e[0]), tbFMax(glms_vec3_norm2(e[1]), glms_vec3_norm2(e[2]))));
	if (!(area2 > 1e-6f * longest * longest) || !isfinite(area2)) {
		return false; // no area: the query path reports the sliver
	}
	n = glms_vec3_scale(n, 1.0f / area2);
	float polySize = h->radius * tbFMax(scale.x, tbFMax(scale.y, scale.z));
	float absTol = TB_SAT_TRI_ABS * tbFMin(polySize, longest);

	// The polytope's vertices, scaled (`pv`); its lowest and highest along n.
	bool unit = scale.x == 1.0f && scale.y == 1.0f && scale.z == 1.0f;
	vec3s scaled[TB_SAT_MAX_HULL_VERTICES];
	const vec3s* pv = scaled;
	int low = 0, high = 0;
	float lowDot = FLT_MAX, highDot = -FLT_MAX;
#if defined(__SSE2__)
	if (unit && h->lanes != NULL) {
		// At unit scale the scaled vertices are the hull's own. The lowest along n is the first of
		// the largest along -n (each dot there is exactly this one negated), both found four at a
		// time from the hull's lanes with the same sums as glms_vec3_dot.
		pv = h->vertices;
		low = tbLanesArgMax(h->lanes, h->vertexCount, glms_vec3_negate(n), -FLT_MAX);
		high = tbLanesArgMax(h->lanes, h->vertexCount, n, -FLT_MAX);
		lowDot = glms_vec3_dot(n, pv[low]);
		highDot = glms_vec3_dot(n, pv[high]);
	}
#endif
	for (int i = 0; pv == scaled && i < h->vertexCount; ++i) {
		scaled[i] = glms_vec3_mul(h->vertices[i], scale);
		float d = glms_vec3_dot(n, scaled[i]);
		if (d < lowDot) {
			lowDot = d;
			low = i;
		}
		if (d > highDot) {
			highDot = d;
			high = i;
		}
	}
	// The triangle's faces: the polytope above n's face, or below -n's.
	float plane = glms_vec3_dot(n, t[0]);
	tbTriAxis face;
	float up = lowDot - plane, down = plane - highDot;
	if (up >= down) {
		face.separation = up;
		face.u = n;
		face.pP = pv[low];
	} else {
		face.separation = down;
		face.u = glms_vec3_negate(n);
		face.pP = pv[high];
	}
	face.pT = glms_vec3_sub(face.pP, glms_vec3_scale(face.u, face.separation));
	int faceId = up >= down ? 0 : 1;
	if (face.separation > margin) {
		tbTriStore(cache, triIsA, tb_satFaceA, faceId, -1, face.separation);
		tbTriResult(&face, face.separation, triIsA, bInA, out);
		return true;
	}
	if (cache != NULL &&
	    tbTriCached(cache, h, triIsA, faceId, &face, unit, inv, t, e, n, scale, margin, absTol,
	                TB_SAT_TRI_CACHE_REL * tbFMin(polySize, longest), bInA, out)) {
		return true;
	}

	// The polytope's faces: the triangle's lowest corner over each plane. Unit normals kept for
	// the edge test.
	// At unit scale the least dots come from the hull's face lanes, four faces at a time, and the
	// lowest corner is found again for a face that is kept.
	vec3s fn[TB_SAT_MAX_HULL_FACES];
	float least[TB_SAT_MAX_HULL_FACES];
	bool faceLanes = false;
#if defined(__SSE2__)
	faceLanes = unit && h->faceLanes != NULL;
	if (faceLanes) {
		tbTriFaceLeast(h, t, least);
	}
#endif
	tbTriAxis polyFace = {.separation = -FLT_MAX};
	int polyId = -1;
	for (int f = 0; f < h->faceCount; ++f) {
		float offset;
		fn[f] = tbTriPolyNormal(h, f, unit, inv, &offset);
		int lowest = 0;
		float sep = (faceLanes ? least[f] : tbTriLowest(fn[f], t, &lowest)) - offset;
		if (sep > polyFace.separation) {
			if (faceLanes) {
				tbTriLowest(fn[f], t, &lowest);
			}
			polyFace.separation = sep;
			polyFace.u = glms_vec3_negate(fn[f]);
			polyFace.pT = t[lowest];
			polyId = f;
		}
	}
	polyFace.pP = glms_vec3_add(polyFace.pT, glms_vec3_scale(polyFace.u, polyFace.separation));
	if (polyFace.separation > margin) {
		tbTriStore(cache, triIsA, tb_satFaceB, -1, polyId, polyFace.separation);
		tbTriResult(&polyFace, polyFace.separation, triIsA, bInA, out);
		return true;
	}
	float largest = tbFMax(face.separation, polyFace.separation);
	tbSatFeatureType kind = tb_satFaceA;
	if (polyFace.separation >
	    face.separation + TB_SAT_TRI_FACE_REL * fabsf(face.separation) + absTol) {
		face = polyFace;
		kind = tb_satFaceB;
	}

	// Edge pairs whose arcs cross. The polytope edge's arc runs from c = -m0 to d = -m1 (its
	// faces' normals negated); the triangle edge's half circle lies in the plane orthogonal to e,
	// on the side of o = e x n. Each face's dots with e and o are taken once per triangle edge, so
	// an edge pair costs two loads and a product until its arcs cross.
	tbTriAxis edge = {.separation = -FLT_MAX};
	int edgeT = -1, edgeP = -1;
	float de[TB_SAT_MAX_HULL_FACES], dO[TB_SAT_MAX_HULL_FACES];
	for (int k = 0; k < 3; ++k) {
		vec3s o = glms_vec3_cross(e[k], n);
		float tol = TB_SAT_TRI_PARALLEL * glms_vec3_norm(e[k]);
		if (faceLanes) {
#if defined(__SSE2__)
			tbTriFaceDots(h, e[k], de);
			tbTriFaceDots(h, o, dO);
#endif
		} else {
			for (int f = 0; f < h->faceCount; ++f) {
				de[f] = glms_vec3_dot(e[k], fn[f]);
				dO[f] = glms_vec3_dot(o, fn[f]);
			}
		}
		for (int j = 0; j < h->edgeCount; ++j) {
			const tbHullEdge* he = h->edges + j;
			float ec = de[he->face0], ed = de[he->face1];
			// Opposite signs, and not both near zero (e nearly along the edge): |ec - ed| is
			// then |ec| + |ed|.
			float gap = ec - ed;
			if (!(ec * ed < 0.0f) || !(fabsf(gap) >= tol)) {
				continue;
			}
			// The crossing with the circle's plane, on the arc from c to d: p = c + w (d - c),
			// its side of the plane through the poles and e: p . o > 0 (c = -m0, d = -m1).
			float w = ec / gap;
			if (!(dO[he->face0] + w * (dO[he->face1] - dO[he->face0]) < 0.0f)) {
				continue;
			}
			vec3s p = glms_vec3_negate(glms_vec3_add(
			    fn[he->face0], glms_vec3_scale(glms_vec3_sub(fn[he->face1], fn[he->face0]), w)));
			float plen = glms_vec3_norm(p);
			if (!(plen > 0.0f)) {
				continue;
			}
			float sep = glms_vec3_dot(p, glms_vec3_sub(pv[he->v0], t[k])) / plen;
			if (sep > edge.separation) {
				edge.separation = sep;
				edge.u = glms_vec3_scale(p, 1.0f / plen);
				edgeT = k;
				edgeP = j;
			}
		}
	}
	if (edgeT >= 0) {
		const tbHullEdge* he = h->edges + edgeP;
		tbTriEdgeWitness(&edge, t[edgeT], e[edgeT], pv[he->v0], pv[he->v1]);
		largest = tbFMax(largest, edge.separation);
		if (edge.separation > margin ||
		    edge.separation >
		        face.separation + TB_SAT_TRI_EDGE_REL * fabsf(face.separation) + absTol) {
			face = edge;
			kind = tb_satEdges;
		}
	}
	if (kind == tb_satEdges) {
		tbTriStore(cache, triIsA, tb_satEdges, edgeT, edgeP, face.separation);
	} else {
		tbTriStore(cache, triIsA, kind, faceId, polyId, face.separation);
	}
	tbTriResult(&face, largest, triIsA, bInA, out);
	return true;
}
