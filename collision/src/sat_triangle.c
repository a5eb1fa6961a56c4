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

bool tbSat_TriangleQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, float margin,
                         tbQueryResult* out)
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
	    sqrtf(fmaxf(glms_vec3_norm2(e[0]), fmaxf(glms_vec3_norm2(e[1]), glms_vec3_norm2(e[2]))));
	if (!(area2 > 1e-6f * longest * longest) || !isfinite(area2)) {
		return false; // no area: the query path reports the sliver
	}
	n = glms_vec3_scale(n, 1.0f / area2);
	float polySize = h->radius * fmaxf(scale.x, fmaxf(scale.y, scale.z));
	float absTol = TB_SAT_TRI_ABS * fminf(polySize, longest);

	// The polytope's vertices, scaled; its lowest and highest along n.
	vec3s pv[TB_SAT_MAX_HULL_VERTICES];
	int low = 0, high = 0;
	float lowDot = FLT_MAX, highDot = -FLT_MAX;
	for (int i = 0; i < h->vertexCount; ++i) {
		pv[i] = glms_vec3_mul(h->vertices[i], scale);
		float d = glms_vec3_dot(n, pv[i]);
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
	if (face.separation > margin) {
		tbTriResult(&face, face.separation, triIsA, bInA, out);
		return true;
	}

	// The polytope's faces: the triangle's lowest corner over each plane. Unit normals kept for
	// the edge test (stored ones at unit scale).
	bool unit = scale.x == 1.0f && scale.y == 1.0f && scale.z == 1.0f;
	vec3s fn[TB_SAT_MAX_HULL_FACES];
	tbTriAxis polyFace = {.separation = -FLT_MAX};
	for (int f = 0; f < h->faceCount; ++f) {
		vec3s m = h->faces[f].normal;
		float offset = h->faces[f].offset;
		if (!unit) {
			m = glms_vec3_mul(m, inv);
			float len = glms_vec3_norm(m);
			m = glms_vec3_scale(m, 1.0f / len);
			offset /= len;
		}
		fn[f] = m;
		float d0 = glms_vec3_dot(m, t[0]), d1 = glms_vec3_dot(m, t[1]), d2 = glms_vec3_dot(m, t[2]);
		int lowest = d1 < d0 ? 1 : 0;
		float least = d1 < d0 ? d1 : d0;
		if (d2 < least) {
			least = d2;
			lowest = 2;
		}
		float sep = least - offset;
		if (sep > polyFace.separation) {
			polyFace.separation = sep;
			polyFace.u = glms_vec3_negate(m);
			polyFace.pT = t[lowest];
		}
	}
	polyFace.pP = glms_vec3_add(polyFace.pT, glms_vec3_scale(polyFace.u, polyFace.separation));
	if (polyFace.separation > margin) {
		tbTriResult(&polyFace, polyFace.separation, triIsA, bInA, out);
		return true;
	}
	float largest = fmaxf(face.separation, polyFace.separation);
	if (polyFace.separation >
	    face.separation + TB_SAT_TRI_FACE_REL * fabsf(face.separation) + absTol) {
		face = polyFace;
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
		for (int f = 0; f < h->faceCount; ++f) {
			de[f] = glms_vec3_dot(e[k], fn[f]);
			dO[f] = glms_vec3_dot(o, fn[f]);
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
		vec3s onP;
		tbClosestSegments(t[edgeT], e[edgeT], pv[he->v0], glms_vec3_sub(pv[he->v1], pv[he->v0]),
		                  &edge.pT, &onP);
		edge.pP = glms_vec3_add(edge.pT, glms_vec3_scale(edge.u, edge.separation));
		largest = fmaxf(largest, edge.separation);
		if (edge.separation > margin ||
		    edge.separation >
		        face.separation + TB_SAT_TRI_EDGE_REL * fabsf(face.separation) + absTol) {
			face = edge;
		}
	}
	tbTriResult(&face, largest, triIsA, bInA, out);
	return true;
}
