// The separating-axis test (SAT) between two convex polytopes: boxes and solid hulls.
//
// Two convex polytopes are apart exactly when some axis separates them, and the axes worth testing
// are the face normals of the Minkowski difference A - B: the face normals of A, of B, and the
// cross products of an edge of A with an edge of B whose arcs on the Gauss map cross (only those
// edge pairs make a face of A - B). D. Gregorius, "The Separating Axis Test between Convex
// Polyhedra", GDC 2013. The largest separation over these axes is minus the penetration depth when
// the shapes overlap (the depth of a polytope is attained on a face of A - B) and a lower bound on
// the distance when they are apart. Along the way the chosen axis is cached per contact
// (Gregorius, "Robust Contact Creation for Physics Simulations", GDC 2015): the next step tests it
// first and keeps it while no other axis is clearly better, so feature ids stay put.
//
// A box is the unit cube [-1, 1]^3 scaled by its half extents: one hull layout serves both
// shapes, and a box pair takes a closed-form shortcut over its 15 axes (Gottschalk, Lin and
// Manocha, "OBBTree", SIGGRAPH 1996) that reports the same feature ids.
#include <float.h>
#include <math.h>
#include <string.h>

#include "geometry_internal.h"
#include "manifold_internal.h"
#include "sat.h"
#include "segments.h"

// Edges whose directions are within this sine of parallel give no axis (0.06 degrees): the face
// normals around them already cover the directions such a cross product would point in.
#define TB_SAT_PARALLEL 1e-3f
// Feature choice with hysteresis (Box2D-Lite's relative and absolute tolerances; Gregorius 2015):
// a face of B replaces a face of A, and an edge pair replaces a face, only when its separation is
// larger by this fraction of the incumbent's magnitude plus TB_SAT_ABS times the smaller shape's
// bounding radius. Faces are preferred: they give up to four points, an edge axis one. The same
// rule keeps a cached feature against a freshly found one.
#define TB_SAT_FACE_REL 0.02f
#define TB_SAT_EDGE_REL 0.10f
#define TB_SAT_ABS 1e-3f
// A cached face that is still the pair's stands for the whole test when its separation, and the
// deepest point clipped with it, have moved by no more than this fraction of the smaller shape's
// bounding radius since the full test chose it (Box3D's hull cache, with its linear slop).
#define TB_SAT_CACHE_REL 0.01f
// Hulls with more edges than this take the GJK/EPA path: the edge-pair loop grows with the product
// of the edge counts (and the face loops with faces times vertices), while GJK/EPA grows slowly.
// A convex polyhedron has at most 2E/3 vertices and 2E/3 faces (Euler, 3F <= 2E, 3V <= 2E).
#define TB_SAT_MAX_HULL_EDGES 96
// A pair with a hull is tested only while its work (edge pairs plus faces times vertices) is at
// most this: beyond it GJK/EPA and clipping cost fewer instructions per manifold (bench/sat_bench
// prints both for hulls of 4 to 20 points).
#define TB_SAT_MAX_WORK 240

// The unit cube [-1, 1]^3 as a hull. Vertex i has x < 0 when bit 0 is set, y < 0 for bit 1, z < 0
// for bit 2 (the index tbGeometry_Support reports for a box corner). Face 2a (2a + 1) is the +a
// (-a) face, as tbGetFeature numbers box faces. Edge 4a + k runs along axis a at the signs k of the
// two other axes a + 1 and a + 2 (bit 0 and bit 1 set: negative); its faces are those two sides.
static vec3s tb_cubeVertices[8] = {
    {{1.0f, 1.0f, 1.0f}},  {{-1.0f, 1.0f, 1.0f}},  {{1.0f, -1.0f, 1.0f}},  {{-1.0f, -1.0f, 1.0f}},
    {{1.0f, 1.0f, -1.0f}}, {{-1.0f, 1.0f, -1.0f}}, {{1.0f, -1.0f, -1.0f}}, {{-1.0f, -1.0f, -1.0f}}};
static int tb_cubeIndices[24] = {0, 2, 6, 4, 1, 5, 7, 3, 0, 4, 5, 1,
                                 2, 3, 7, 6, 0, 1, 3, 2, 4, 6, 7, 5};
static tbHullFace tb_cubeFaces[6] = {
    {{{1.0f, 0.0f, 0.0f}}, 1.0f, 0, 4},  {{{-1.0f, 0.0f, 0.0f}}, 1.0f, 4, 4},
    {{{0.0f, 1.0f, 0.0f}}, 1.0f, 8, 4},  {{{0.0f, -1.0f, 0.0f}}, 1.0f, 12, 4},
    {{{0.0f, 0.0f, 1.0f}}, 1.0f, 16, 4}, {{{0.0f, 0.0f, -1.0f}}, 1.0f, 20, 4}};
static tbHullEdge tb_cubeEdges[12] = {{0, 1, 2, 4}, {2, 3, 3, 4}, {4, 5, 2, 5}, {6, 7, 3, 5},
                                      {0, 2, 4, 0}, {4, 6, 5, 0}, {1, 3, 4, 1}, {5, 7, 5, 1},
                                      {0, 4, 0, 2}, {1, 5, 1, 2}, {2, 6, 0, 3}, {3, 7, 1, 3}};
static const tbHull tb_unitCube = {.kind = tb_hullSolid,
                                   .vertices = tb_cubeVertices,
                                   .vertexCount = 8,
                                   .faces = tb_cubeFaces,
                                   .faceCount = 6,
                                   .faceIndices = tb_cubeIndices,
                                   .faceIndexCount = 24,
                                   .edges = tb_cubeEdges,
                                   .edgeCount = 12,
                                   .centroid = {{0.0f, 0.0f, 0.0f}},
                                   .radius = 1.7320508f,
                                   .extent = 1.7320508f};

const tbHull* tbSat_UnitCube(void)
{
	return &tb_unitCube;
}

// A polytope as the test sees it: a hull (the unit cube for a box) under a diagonal scale.
typedef struct tbSatShape
{
	const tbHull* hull;
	vec3s scale;    // vertex scale: the shape's scale, times the half extents for a box
	vec3s invScale; // normals map by the inverse scale (not set for a pair of two boxes)
	vec3s centroid; // an interior point, scaled
	bool box;
	bool unit; // scale (1, 1, 1): stored face normals and offsets hold (set with invScale)
} tbSatShape;

// B's placement in A's frame.
typedef struct tbSatFrame
{
	mat3s r; // columns: B's axes in A's frame
	vec3s t;
} tbSatFrame;

static vec3s tbMul3(vec3s a, vec3s b)
{
	return (vec3s){{a.x * b.x, a.y * b.y, a.z * b.z}};
}

static vec3s tbRot(const tbSatFrame* xf, vec3s v)
{
	const mat3s* r = &xf->r;
	return (vec3s){{r->col[0].x * v.x + r->col[1].x * v.y + r->col[2].x * v.z,
	                r->col[0].y * v.x + r->col[1].y * v.y + r->col[2].y * v.z,
	                r->col[0].z * v.x + r->col[1].z * v.y + r->col[2].z * v.z}};
}

static vec3s tbRotT(const tbSatFrame* xf, vec3s v)
{
	const mat3s* r = &xf->r;
	return (vec3s){
	    {glms_vec3_dot(r->col[0], v), glms_vec3_dot(r->col[1], v), glms_vec3_dot(r->col[2], v)}};
}

// 1 / scale, by which face normals map (tbSat_RawNormal).
static vec3s tbSat_Inverse(vec3s scale)
{
	return (vec3s){{1.0f / scale.x, 1.0f / scale.y, 1.0f / scale.z}};
}

// `inverse`: also the inverse scale and the unit flag, which the hull formulas read. Two boxes take
// the closed forms, which need the scale alone, so their pair skips the three divisions.
static void tbSat_MakeShape(const tbGeometry* s, bool inverse, tbSatShape* out)
{
	out->box = s->type == tb_boxShape;
	if (out->box) {
		out->hull = &tb_unitCube;
		out->scale = tbMul3(s->halfExtents, s->scale);
	} else {
		out->hull = s->hull;
		out->scale = s->scale;
	}
	out->centroid = tbMul3(out->hull->centroid, out->scale);
	if (inverse) {
		out->invScale = tbSat_Inverse(out->scale);
		out->unit = out->scale.x == 1.0f && out->scale.y == 1.0f && out->scale.z == 1.0f;
	}
}

static vec3s tbSat_Vertex(const tbSatShape* s, int i)
{
	return tbMul3(s->hull->vertices[i], s->scale);
}

// A face normal's direction under the scale, not normalised (the Gauss-map test uses signs only):
// a plane n.x = d of the unscaled hull is (S^-1 n).y = d for y = S x.
static vec3s tbSat_RawNormal(const tbSatShape* s, int face)
{
	return tbMul3(s->hull->faces[face].normal, s->invScale);
}

static void tbSat_Plane(const tbSatShape* s, int face, vec3s* n, float* d)
{
	vec3s m = tbSat_RawNormal(s, face);
	float k = glms_vec3_norm(m);
	*n = glms_vec3_scale(m, 1.0f / k);
	*d = s->hull->faces[face].offset / k;
}

// max over the shape of dot(x, dir), in the shape's frame.
static float tbSat_SupportDot(const tbSatShape* s, vec3s dir)
{
	if (s->box) {
		return fabsf(dir.x) * s->scale.x + fabsf(dir.y) * s->scale.y + fabsf(dir.z) * s->scale.z;
	}
	vec3s sd = tbMul3(dir, s->scale);
	const vec3s* v = s->hull->vertices;
	float best = -FLT_MAX;
	for (int i = 0; i < s->hull->vertexCount; ++i) {
		float dot = v[i].x * sd.x + v[i].y * sd.y + v[i].z * sd.z;
		best = dot > best ? dot : best;
	}
	return best;
}

// Separation along face `face` of A: B's lowest point over the face's plane.
static tbSatAxis tbSat_FaceA(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf,
                             int face)
{
	tbSatAxis ax = {.type = tb_satFaceA, .indexA = face, .indexB = -1};
	float d;
	tbSat_Plane(a, face, &ax.normal, &d);
	vec3s nB = tbRotT(xf, glms_vec3_negate(ax.normal));
	ax.separation = glms_vec3_dot(ax.normal, xf->t) - d - tbSat_SupportDot(b, nB);
	return ax;
}

// Separation along face `face` of B: A's lowest point over it, in B's frame.
static tbSatAxis tbSat_FaceB(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf,
                             int face)
{
	tbSatAxis ax = {.type = tb_satFaceB, .indexA = -1, .indexB = face};
	vec3s m;
	float e;
	tbSat_Plane(b, face, &m, &e);
	vec3s mA = tbRot(xf, m);
	ax.normal = glms_vec3_negate(mA);
	ax.separation = -tbSat_SupportDot(a, ax.normal) - glms_vec3_dot(mA, xf->t) - e;
	return ax;
}

// Edge ea of A and edge eb of B in A's frame: a point and the direction of each, and the unit
// axis eA x eB turned to point out of A at its edge (so from A towards B). False when parallel.
typedef struct tbSatEdgePair
{
	vec3s pA, dA, pB, dB, axis;
} tbSatEdgePair;

static bool tbSat_EdgeAxis(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf, int ea,
                           int eb, tbSatEdgePair* e)
{
	const tbHullEdge* edgeA = a->hull->edges + ea;
	const tbHullEdge* edgeB = b->hull->edges + eb;
	e->pA = tbSat_Vertex(a, edgeA->v0);
	e->dA = glms_vec3_sub(tbSat_Vertex(a, edgeA->v1), e->pA);
	vec3s q0 = tbSat_Vertex(b, edgeB->v0);
	e->pB = glms_vec3_add(tbRot(xf, q0), xf->t);
	e->dB = tbRot(xf, glms_vec3_sub(tbSat_Vertex(b, edgeB->v1), q0));
	vec3s l = glms_vec3_cross(e->dA, e->dB);
	float len = glms_vec3_norm(l);
	if (!(len > TB_SAT_PARALLEL * glms_vec3_norm(e->dA) * glms_vec3_norm(e->dB))) {
		return false;
	}
	l = glms_vec3_scale(l, 1.0f / len);
	// A's edge supports A along the axis: the axis points away from A's interior there.
	if (glms_vec3_dot(l, glms_vec3_sub(e->pA, a->centroid)) < 0.0f) {
		l = glms_vec3_negate(l);
	}
	e->axis = l;
	return true;
}

// Gregorius 2013: the arc a-b (normals of A's edge) and the arc c-d (B's edge normals, negated,
// in A's frame) cross on the unit sphere. The arcs' great circles have normals b x a and d x c;
// c and d must lie on opposite sides of the first, a and b on opposite sides of the second, and
// the last sign picks the crossing in the same hemisphere rather than its antipode.
static bool tbSat_IsMinkowskiFace(vec3s a, vec3s b, vec3s c, vec3s d)
{
	vec3s bxa = glms_vec3_cross(b, a), dxc = glms_vec3_cross(d, c);
	float cba = glms_vec3_dot(c, bxa), dba = glms_vec3_dot(d, bxa);
	float adc = glms_vec3_dot(a, dxc), bdc = glms_vec3_dot(b, dxc);
	return cba * dba < 0.0f && adc * bdc < 0.0f && cba * bdc > 0.0f;
}

static bool tbSat_EdgesMakeFace(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf,
                                int ea, int eb)
{
	const tbHullEdge* edgeA = a->hull->edges + ea;
	const tbHullEdge* edgeB = b->hull->edges + eb;
	vec3s c = glms_vec3_negate(tbRot(xf, tbSat_RawNormal(b, edgeB->face0)));
	vec3s d = glms_vec3_negate(tbRot(xf, tbSat_RawNormal(b, edgeB->face1)));
	return tbSat_IsMinkowskiFace(tbSat_RawNormal(a, edgeA->face0), tbSat_RawNormal(a, edgeA->face1),
	                             c, d);
}

// Separation along an axis (A's frame, from A towards B) by the support functions: always a lower
// bound on the distance, whatever features support the shapes along it.
static float tbSat_AxisSeparation(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf,
                                  vec3s axis)
{
	return glms_vec3_dot(axis, xf->t) - tbSat_SupportDot(a, axis) -
	       tbSat_SupportDot(b, tbRotT(xf, glms_vec3_negate(axis)));
}

static tbSatAxis tbSat_NoAxis(void)
{
	tbSatAxis ax = {.type = tb_satNone, .indexA = -1, .indexB = -1, .separation = -FLT_MAX};
	ax.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
	return ax;
}

// The best axis of each kind. Stops (exitedEarly) as soon as one separates by more than margin.
typedef struct tbSatCandidates
{
	tbSatAxis faceA, faceB, edge;
	bool exitedEarly;
} tbSatCandidates;

// A unit face normal and plane offset; a hull at unit scale has them stored.
static void tbSat_UnitPlane(const tbSatShape* s, int face, vec3s* n, float* d)
{
	if (s->unit) {
		*n = s->hull->faces[face].normal;
		*d = s->hull->faces[face].offset;
		return;
	}
	tbSat_Plane(s, face, n, d);
}

static void tbSat_General(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf,
                          float margin, tbSatCandidates* out)
{
	out->faceA = out->faceB = out->edge = tbSat_NoAxis();
	out->exitedEarly = false;
	// Everything in A's frame once (tbSat_IsPolytope bounds the counts): B's vertices and face
	// normals placed, A's vertices scaled, A's face planes.
	const tbHull* ha = a->hull;
	const tbHull* hb = b->hull;
	vec3s va[TB_SAT_MAX_HULL_VERTICES], vb[TB_SAT_MAX_HULL_VERTICES];
	vec3s na[TB_SAT_MAX_HULL_FACES], nb[TB_SAT_MAX_HULL_FACES];
	for (int i = 0; i < hb->vertexCount; ++i) {
		vb[i] = glms_vec3_add(tbRot(xf, tbSat_Vertex(b, i)), xf->t);
	}
	for (int i = 0; i < ha->faceCount; ++i) {
		float d;
		tbSat_UnitPlane(a, i, &na[i], &d);
		// Separation along A's face: B's lowest vertex over its plane.
		float low = FLT_MAX;
		for (int k = 0; k < hb->vertexCount; ++k) {
			float h = na[i].x * vb[k].x + na[i].y * vb[k].y + na[i].z * vb[k].z;
			low = h < low ? h : low;
		}
		float sep = low - d;
		if (sep > out->faceA.separation) {
			out->faceA = (tbSatAxis){
			    .type = tb_satFaceA, .indexA = i, .indexB = -1, .separation = sep, .normal = na[i]};
		}
	}
	if (out->faceA.separation > margin) {
		out->exitedEarly = true;
		return;
	}
	for (int i = 0; i < ha->vertexCount; ++i) {
		va[i] = tbSat_Vertex(a, i);
	}
	for (int j = 0; j < hb->faceCount; ++j) {
		float e;
		vec3s m;
		tbSat_UnitPlane(b, j, &m, &e);
		nb[j] = tbRot(xf, m);
		// Separation along B's face: A's lowest vertex over it, the plane placed in A's frame.
		float low = FLT_MAX;
		for (int k = 0; k < ha->vertexCount; ++k) {
			float h = nb[j].x * va[k].x + nb[j].y * va[k].y + nb[j].z * va[k].z;
			low = h < low ? h : low;
		}
		float sep = low - glms_vec3_dot(nb[j], xf->t) - e;
		if (sep > out->faceB.separation) {
			out->faceB = (tbSatAxis){.type = tb_satFaceB,
			                         .indexA = -1,
			                         .indexB = j,
			                         .separation = sep,
			                         .normal = glms_vec3_negate(nb[j])};
		}
	}
	if (out->faceB.separation > margin) {
		out->exitedEarly = true;
		return;
	}
	// Gauss-map arcs: A's edge normals and their arc planes once, B's (negated) once per B edge;
	// the inner loop rejects most pairs after two dot products.
	vec3s arcA[TB_SAT_MAX_HULL_EDGES];
	for (int i = 0; i < ha->edgeCount; ++i) {
		arcA[i] = glms_vec3_cross(na[ha->edges[i].face1], na[ha->edges[i].face0]);
	}
	for (int j = 0; j < hb->edgeCount; ++j) {
		const tbHullEdge* edgeB = hb->edges + j;
		vec3s c = glms_vec3_negate(nb[edgeB->face0]);
		vec3s d = glms_vec3_negate(nb[edgeB->face1]);
		vec3s dxc = glms_vec3_cross(d, c);
		for (int i = 0; i < ha->edgeCount; ++i) {
			float cba = glms_vec3_dot(c, arcA[i]), dba = glms_vec3_dot(d, arcA[i]);
			if (!(cba * dba < 0.0f)) {
				continue;
			}
			const tbHullEdge* edgeA = ha->edges + i;
			float adc = glms_vec3_dot(na[edgeA->face0], dxc);
			float bdc = glms_vec3_dot(na[edgeA->face1], dxc);
			if (!(adc * bdc < 0.0f && cba * bdc > 0.0f)) {
				continue;
			}
			vec3s pA = va[edgeA->v0], pB = vb[edgeB->v0];
			vec3s l =
			    glms_vec3_cross(glms_vec3_sub(va[edgeA->v1], pA), glms_vec3_sub(vb[edgeB->v1], pB));
			float len2 = glms_vec3_norm2(l);
			float lenA2 = glms_vec3_norm2(glms_vec3_sub(va[edgeA->v1], pA));
			float lenB2 = glms_vec3_norm2(glms_vec3_sub(vb[edgeB->v1], pB));
			if (!(len2 > TB_SAT_PARALLEL * TB_SAT_PARALLEL * lenA2 * lenB2)) {
				continue;
			}
			l = glms_vec3_scale(l, 1.0f / sqrtf(len2));
			// Out of A at its edge (tbSat_EdgeAxis).
			if (glms_vec3_dot(l, glms_vec3_sub(pA, a->centroid)) < 0.0f) {
				l = glms_vec3_negate(l);
			}
			float sep = glms_vec3_dot(l, glms_vec3_sub(pB, pA));
			if (sep > out->edge.separation) {
				out->edge = (tbSatAxis){
				    .type = tb_satEdges, .indexA = i, .indexB = j, .separation = sep, .normal = l};
				if (sep > margin) {
					out->exitedEarly = true;
					return;
				}
			}
		}
	}
}

// The next axis, without an integer modulo in the loops below.
static const int tb_next[3] = {1, 2, 0};

// The index of the first of the largest of `count` separations, as a scan that takes only a
// strictly larger one finds it, and that largest in *largest; -1 when none beats -FLT_MAX (NaN,
// parallel edges). The scan stops at the first one beyond `stopAbove` (FLT_MAX: never).
static int tbSat_FirstLargest(const float* sep, int count, float stopAbove, float* largest)
{
	int best = -1;
	*largest = -FLT_MAX;
	for (int k = 0; k < count; ++k) {
		if (sep[k] > *largest) {
			best = k;
			*largest = sep[k];
			if (*largest > stopAbove) {
				break;
			}
		}
	}
	return best;
}

// Two boxes in closed form: |t . L| - rA(L) - rB(L) over the 3 + 3 face axes and the 9 edge
// axes e_i x f_j, with the face and edge ids of the cube layout above. Each group's separations are
// worked out first and its best axis is built once afterwards (not each time one beats the last).
static void tbSat_BoxBox(vec3s hA, vec3s hB, const tbSatFrame* xf, float margin,
                         tbSatCandidates* out)
{
	out->faceA = out->faceB = out->edge = tbSat_NoAxis();
	out->exitedEarly = false;
	const mat3s* r = &xf->r;
	vec3s t = xf->t;
	float m[3][3], absR[3][3]; // m[i][j] = R_ij = component i of B's axis j; absR[i][j] = |R_ij|
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			m[i][j] = r->col[j].raw[i];
			absR[i][j] = fabsf(m[i][j]);
		}
	}

	// A's face axes e_i: |t_i| - hA_i - sum_j hB_j |R_ij|. The first largest wins, as in a scan.
	float sep[9], bestSep;
	for (int i = 0; i < 3; ++i) {
		float rB = hB.x * absR[i][0] + hB.y * absR[i][1] + hB.z * absR[i][2];
		sep[i] = fabsf(t.raw[i]) - hA.raw[i] - rB;
	}
	int best = tbSat_FirstLargest(sep, 3, FLT_MAX, &bestSep);
	if (best >= 0) {
		bool neg = t.raw[best] < 0.0f;
		out->faceA.type = tb_satFaceA;
		out->faceA.indexA = 2 * best + (neg ? 1 : 0);
		out->faceA.separation = bestSep;
		out->faceA.normal = glms_vec3_zero();
		out->faceA.normal.raw[best] = neg ? -1.0f : 1.0f;
	}
	if (out->faceA.separation > margin) {
		out->exitedEarly = true;
		return;
	}

	// B's face axes f_j: |t . f_j| - hB_j - sum_i hA_i |R_ij|.
	float pB[3];
	for (int j = 0; j < 3; ++j) {
		pB[j] = glms_vec3_dot(r->col[j], t);
		float rA = hA.x * absR[0][j] + hA.y * absR[1][j] + hA.z * absR[2][j];
		sep[j] = fabsf(pB[j]) - hB.raw[j] - rA;
	}
	best = tbSat_FirstLargest(sep, 3, FLT_MAX, &bestSep);
	if (best >= 0) {
		// B's face towards A has outward normal -sign(p) f_j: the -j face when p > 0.
		bool pos = pB[best] > 0.0f;
		out->faceB.type = tb_satFaceB;
		out->faceB.indexB = 2 * best + (pos ? 1 : 0);
		out->faceB.separation = bestSep;
		out->faceB.normal = glms_vec3_scale(r->col[best], pos ? 1.0f : -1.0f);
	}
	if (out->faceB.separation > margin) {
		out->exitedEarly = true;
		return;
	}

	// Edge axes L = e_i x f_j from the entries of R alone (Gottschalk et al. 1996, table 1): with
	// i1, i2 and j1, j2 the next axes, L = (0 at i, -R[i2][j] at i1, R[i1][j] at i2) in A's frame
	// and R^T L = (0 at j, R[i][j2] at j1, -R[i][j1] at j2) in B's, |L|^2 = R[i1][j]^2 +
	// R[i2][j]^2. Axis 3i + j; a parallel pair (|L| below TB_SAT_PARALLEL) gives no axis and gets
	// -FLT_MAX, which never wins. The loops have fixed bounds and a short body: the compiler
	// unrolls them and folds tb_next into constant indices.
	float p[9], len2[9];
	for (int i = 0; i < 3; ++i) {
		int i1 = tb_next[i], i2 = tb_next[i1];
		for (int j = 0; j < 3; ++j) {
			int j1 = tb_next[j], j2 = tb_next[j1];
			int k = 3 * i + j;
			len2[k] = m[i1][j] * m[i1][j] + m[i2][j] * m[i2][j];
			p[k] = t.raw[i2] * m[i1][j] - t.raw[i1] * m[i2][j];
			float rA = hA.raw[i1] * absR[i2][j] + hA.raw[i2] * absR[i1][j];
			float rB = hB.raw[j1] * absR[i][j2] + hB.raw[j2] * absR[i][j1];
			sep[k] = len2[k] > TB_SAT_PARALLEL * TB_SAT_PARALLEL
			             ? (fabsf(p[k]) - rA - rB) / sqrtf(len2[k])
			             : -FLT_MAX;
		}
	}
	// In order, as one scan with an early exit would go: the first axis beyond the margin is
	// also the best so far (an earlier better one would have exited already).
	best = tbSat_FirstLargest(sep, 9, margin, &bestSep);
	out->exitedEarly = bestSep > margin;
	if (best < 0) {
		return;
	}
	int i = best / 3, j = best % 3;
	int i1 = tb_next[i], i2 = tb_next[i1], j1 = tb_next[j], j2 = tb_next[j1];
	// Turned from A towards B; A's edge supports along L, B's along -L.
	float sign = p[best] < 0.0f ? -1.0f : 1.0f;
	vec3s l = glms_vec3_zero();
	l.raw[i1] = -sign * m[i2][j];
	l.raw[i2] = sign * m[i1][j];
	float lB1 = sign * m[i][j2], lB2 = -sign * m[i][j1];
	int kA = (l.raw[i1] < 0.0f ? 1 : 0) | (l.raw[i2] < 0.0f ? 2 : 0);
	int kB = (lB1 > 0.0f ? 1 : 0) | (lB2 > 0.0f ? 2 : 0);
	out->edge = (tbSatAxis){.type = tb_satEdges,
	                        .indexA = 4 * i + kA,
	                        .indexB = 4 * j + kB,
	                        .separation = bestSep,
	                        .normal = glms_vec3_scale(l, 1.0f / sqrtf(len2[best]))};
}

// The cached feature at the current pose. False when the cache does not name a feature of these
// shapes (or its edges have turned parallel). *eligible: the feature may be kept as the contact's
// (for edges: they still make a face of A - B, so they are the supporting features).
static bool tbSat_CachedAxis(const tbSatShape* a, const tbSatShape* b, const tbSatFrame* xf,
                             const tbSatCache* cache, tbSatAxis* out, bool* eligible)
{
	*eligible = false;
	switch (cache->type) {
	case tb_satFaceA:
		if (cache->indexA < 0 || cache->indexA >= a->hull->faceCount) {
			return false;
		}
		*out = tbSat_FaceA(a, b, xf, cache->indexA);
		*eligible = true;
		return true;
	case tb_satFaceB:
		if (cache->indexB < 0 || cache->indexB >= b->hull->faceCount) {
			return false;
		}
		*out = tbSat_FaceB(a, b, xf, cache->indexB);
		*eligible = true;
		return true;
	case tb_satEdges: {
		if (cache->indexA < 0 || cache->indexA >= a->hull->edgeCount || cache->indexB < 0 ||
		    cache->indexB >= b->hull->edgeCount) {
			return false;
		}
		tbSatEdgePair e;
		if (!tbSat_EdgeAxis(a, b, xf, cache->indexA, cache->indexB, &e)) {
			return false;
		}
		*out = (tbSatAxis){.type = tb_satEdges,
		                   .indexA = cache->indexA,
		                   .indexB = cache->indexB,
		                   .separation = tbSat_AxisSeparation(a, b, xf, e.axis),
		                   .normal = e.axis};
		*eligible = tbSat_EdgesMakeFace(a, b, xf, cache->indexA, cache->indexB);
		return true;
	}
	default:
		return false;
	}
}

// tbSat_CachedAxis for two boxes in closed form (the same formulas as tbSat_BoxBox). An edge pair
// is eligible while it is still the pair of supporting edges along its axis (for boxes, the same
// as the Gauss-map test).
static bool tbSat_BoxCachedAxis(vec3s hA, vec3s hB, const tbSatFrame* xf, const tbSatCache* cache,
                                tbSatAxis* out, bool* eligible)
{
	const mat3s* r = &xf->r;
	vec3s t = xf->t;
	*eligible = false;
	switch (cache->type) {
	case tb_satFaceA: {
		if (cache->indexA < 0 || cache->indexA >= 6) {
			return false;
		}
		int i = cache->indexA / 2;
		float sign = (cache->indexA & 1) != 0 ? -1.0f : 1.0f;
		float rB = hB.x * fabsf(r->col[0].raw[i]) + hB.y * fabsf(r->col[1].raw[i]) +
		           hB.z * fabsf(r->col[2].raw[i]);
		*out = (tbSatAxis){.type = tb_satFaceA, .indexA = cache->indexA, .indexB = -1};
		out->separation = sign * t.raw[i] - hA.raw[i] - rB;
		out->normal = glms_vec3_zero();
		out->normal.raw[i] = sign;
		*eligible = true;
		return true;
	}
	case tb_satFaceB: {
		if (cache->indexB < 0 || cache->indexB >= 6) {
			return false;
		}
		int j = cache->indexB / 2;
		// B's face has outward normal sign * f_j; the axis from A to B is its opposite.
		float sign = (cache->indexB & 1) != 0 ? -1.0f : 1.0f;
		vec3s f = r->col[j];
		float rA = hA.x * fabsf(f.x) + hA.y * fabsf(f.y) + hA.z * fabsf(f.z);
		*out = (tbSatAxis){.type = tb_satFaceB, .indexA = -1, .indexB = cache->indexB};
		out->separation = -sign * glms_vec3_dot(f, t) - hB.raw[j] - rA;
		out->normal = glms_vec3_scale(f, -sign);
		*eligible = true;
		return true;
	}
	case tb_satEdges: {
		if (cache->indexA < 0 || cache->indexA >= 12 || cache->indexB < 0 || cache->indexB >= 12) {
			return false;
		}
		int i = cache->indexA / 4, j = cache->indexB / 4;
		int i1 = tb_next[i], i2 = tb_next[i1], j1 = tb_next[j], j2 = tb_next[j1];
		float rij1 = r->col[j1].raw[i], rij2 = r->col[j2].raw[i];
		float ri1j = r->col[j].raw[i1], ri2j = r->col[j].raw[i2];
		float len2 = ri1j * ri1j + ri2j * ri2j;
		if (!(len2 > TB_SAT_PARALLEL * TB_SAT_PARALLEL)) {
			return false;
		}
		float p = t.raw[i2] * ri1j - t.raw[i1] * ri2j;
		float rA = hA.raw[i1] * fabsf(ri2j) + hA.raw[i2] * fabsf(ri1j);
		float rB = hB.raw[j1] * fabsf(rij2) + hB.raw[j2] * fabsf(rij1);
		float len = sqrtf(len2);
		// Turned out of A at the cached edge (as tbSat_EdgeAxis does): the edge's corner has the
		// signs kA of axes i1 and i2.
		int cachedA = cache->indexA & 3;
		float cornerI1 = (cachedA & 1) != 0 ? -hA.raw[i1] : hA.raw[i1];
		float cornerI2 = (cachedA & 2) != 0 ? -hA.raw[i2] : hA.raw[i2];
		float sign = -ri2j * cornerI1 + ri1j * cornerI2 < 0.0f ? -1.0f : 1.0f;
		vec3s l = glms_vec3_zero();
		l.raw[i1] = -sign * ri2j;
		l.raw[i2] = sign * ri1j;
		int kA = (l.raw[i1] < 0.0f ? 1 : 0) | (l.raw[i2] < 0.0f ? 2 : 0);
		int kB = (sign * rij2 > 0.0f ? 1 : 0) | (-sign * rij1 > 0.0f ? 2 : 0);
		*out = (tbSatAxis){.type = tb_satEdges,
		                   .indexA = cache->indexA,
		                   .indexB = cache->indexB,
		                   .separation = (sign * p - rA - rB) / len,
		                   .normal = glms_vec3_scale(l, 1.0f / len)};
		*eligible = 4 * i + kA == cache->indexA && 4 * j + kB == cache->indexB;
		return true;
	}
	default:
		return false;
	}
}

static bool tbSat_Better(float candidate, float incumbent, float rel, float absTol)
{
	return candidate > incumbent + rel * fabsf(incumbent) + absTol;
}

// x > 0 and finite for each component (false for NaN and Inf). The comparisons are joined with &
// rather than && so that the six of them run without a branch each: they cost less than the jumps.
static bool tbPositiveFinite3(vec3s v)
{
	return (v.x > 0.0f) & (v.x <= FLT_MAX) & (v.y > 0.0f) & (v.y <= FLT_MAX) & (v.z > 0.0f) &
	       (v.z <= FLT_MAX);
}

// tbGeometry_IsUsable for the two shape types the test takes, without its general switch: positive
// finite sizes and scale, a solid hull with its arrays (tbBuildHull checked the vertices). The
// numbers are checked on every call: a tbGeometry is a plain struct the caller may change at any
// time, so no flag set when the shape was made could vouch for them. A box's check is six
// comparisons on each of two vectors.
bool tbSat_IsPolytope(const tbGeometry* s)
{
	if (s->type == tb_boxShape) {
		return tbPositiveFinite3(s->scale) & tbPositiveFinite3(s->halfExtents);
	}
	if (s->type != tb_hullShape) {
		return false; // round shapes and triangles leave at once
	}
	if (!tbPositiveFinite3(s->scale) || s->hull == NULL) {
		return false;
	}
	const tbHull* h = s->hull;
	return h->kind == tb_hullSolid && h->vertexCount > 0 && h->vertices != NULL &&
	       h->faceCount > 0 && h->faces != NULL && h->faceIndices != NULL && h->edgeCount > 0 &&
	       h->edgeCount <= TB_SAT_MAX_HULL_EDGES && h->vertexCount <= TB_SAT_MAX_HULL_VERTICES &&
	       h->faceCount <= TB_SAT_MAX_HULL_FACES && h->edges != NULL && isfinite(h->radius) &&
	       isfinite(h->centroid.x) && isfinite(h->centroid.y) && isfinite(h->centroid.z);
}

// The test's work with a hull, in dot products: edge pairs, and faces times the other's vertices.
static int tbSat_Work(const tbGeometry* a, const tbGeometry* b)
{
	const tbHull* ha = a->type == tb_boxShape ? &tb_unitCube : a->hull;
	const tbHull* hb = b->type == tb_boxShape ? &tb_unitCube : b->hull;
	return ha->edgeCount * hb->edgeCount + ha->faceCount * hb->vertexCount +
	       hb->faceCount * ha->vertexCount;
}

bool tbSat_IsPolytopePair(const tbGeometry* a, const tbGeometry* b)
{
	return tbSat_IsPolytope(a) && tbSat_IsPolytope(b);
}

bool tbSat_Applies(const tbGeometry* a, const tbGeometry* b, tbTransform bInA)
{
	if (!tbSat_IsPolytope(a) || !tbSat_IsPolytope(b)) {
		return false;
	}
	if ((a->type != tb_boxShape || b->type != tb_boxShape) && tbSat_Work(a, b) > TB_SAT_MAX_WORK) {
		return false;
	}
	return tbSat_PoseOk(bInA);
}

// The shape's size (tbGeometry_Size for these two types): the bounding radius about the local
// origin, for a hull capped at twice its reach from its centroid.
static float tbSat_Size(const tbSatShape* s)
{
	if (s->box) {
		return glms_vec3_norm(s->scale);
	}
	return tbHullSize(s->hull) * fmaxf(s->scale.x, fmaxf(s->scale.y, s->scale.z));
}

// `general`: the hull formulas will run even for two boxes (tests), so both shapes get their
// inverse scale.
static void tbSat_Setup(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, bool general,
                        tbSatShape* sa, tbSatShape* sb, tbSatFrame* xf)
{
	bool inverse = general || a->type != tb_boxShape || b->type != tb_boxShape;
	tbSat_MakeShape(a, inverse, sa);
	tbSat_MakeShape(b, inverse, sb);
	xf->r = glms_quat_mat3(bInA.q);
	xf->t = bInA.p;
}

static tbSatResult tbSat_FindIn(const tbSatShape* sa, const tbSatShape* sb, const tbSatFrame* xf,
                                float margin, tbSatCache* cache)
{
	// Every field is set on each way out, so the result needs no clearing first.
	tbSatResult res;
	res.usedCache = false;
	res.size = 0.0f;
	tbSatAxis cached = tbSat_NoAxis();
	bool haveCached = false, eligible = false;
	bool boxes = sa->box && sb->box;
	if (cache != NULL) {
		haveCached = boxes
		                 ? tbSat_BoxCachedAxis(sa->scale, sb->scale, xf, cache, &cached, &eligible)
		                 : tbSat_CachedAxis(sa, sb, xf, cache, &cached, &eligible);
		if (haveCached && cached.separation > margin) {
			// Still apart along last step's axis: nothing else to test.
			res.chosen = cached;
			res.maxSeparation = cached.separation;
			res.maxNormal = cached.normal;
			res.exitedEarly = true;
			res.usedCache = true;
			return res;
		}
	}

	tbSatCandidates c;
	if (boxes) {
		tbSat_BoxBox(sa->scale, sb->scale, xf, margin, &c);
	} else {
		tbSat_General(sa, sb, xf, margin, &c);
	}
	// The best axis by pointer: the candidates are not copied to compare them.
	const tbSatAxis* best = &c.faceA;
	best = c.faceB.separation > best->separation ? &c.faceB : best;
	best = c.edge.separation > best->separation ? &c.edge : best;
	res.maxSeparation = best->separation;
	res.maxNormal = best->normal;
	res.exitedEarly = c.exitedEarly;

	const tbSatAxis* chosen = best;
	if (!c.exitedEarly) {
		// Otherwise the axis that proved the pair apart is the one to test first next time. The
		// hysteresis tolerance scales with the smaller shape, worked out once here for the caller's
		// clipping too.
		float sizeA = tbSat_Size(sa), sizeB = tbSat_Size(sb);
		res.size = sizeA < sizeB ? sizeA : sizeB;
		float absTol = TB_SAT_ABS * res.size;
		chosen = &c.faceA;
		if (tbSat_Better(c.faceB.separation, c.faceA.separation, TB_SAT_FACE_REL, absTol)) {
			chosen = &c.faceB;
		}
		float faceBest =
		    c.faceA.separation > c.faceB.separation ? c.faceA.separation : c.faceB.separation;
		if (c.edge.type == tb_satEdges &&
		    tbSat_Better(c.edge.separation, faceBest, TB_SAT_EDGE_REL, absTol)) {
			chosen = &c.edge;
		}
		if (haveCached && eligible &&
		    !tbSat_Better(chosen->separation, cached.separation, TB_SAT_FACE_REL, absTol)) {
			chosen = &cached;
			res.usedCache = true;
		}
	}
	res.chosen = *chosen;
	if (cache != NULL) {
		cache->type = chosen->type;
		cache->indexA = chosen->indexA;
		cache->indexB = chosen->indexB;
		cache->separation = chosen->separation;
	}
	return res;
}

tbSatResult tbSat_Find(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, float margin,
                       tbSatCache* cache)
{
	tbSatShape sa, sb;
	tbSatFrame xf;
	tbSat_Setup(a, b, bInA, false, &sa, &sb, &xf);
	return tbSat_FindIn(&sa, &sb, &xf, margin, cache);
}

bool tbSat_EvaluateCache(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                         const tbSatCache* cache, bool general, tbSatAxis* axis, bool* eligible)
{
	tbSatShape sa, sb;
	tbSatFrame xf;
	tbSat_Setup(a, b, bInA, general, &sa, &sb, &xf);
	if (!general && sa.box && sb.box) {
		return tbSat_BoxCachedAxis(sa.scale, sb.scale, &xf, cache, axis, eligible);
	}
	return tbSat_CachedAxis(&sa, &sb, &xf, cache, axis, eligible);
}

float tbSat_BruteForceSeparation(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 vec3s exclude, float excludeCos)
{
	tbSatShape sa, sb;
	tbSatFrame xf;
	tbSat_Setup(a, b, bInA, true, &sa, &sb, &xf);
	float best = -FLT_MAX;
	for (int i = 0; i < sa.hull->faceCount; ++i) {
		tbSatAxis ax = tbSat_FaceA(&sa, &sb, &xf, i);
		if (glms_vec3_dot(ax.normal, exclude) < excludeCos && ax.separation > best) {
			best = ax.separation;
		}
	}
	for (int j = 0; j < sb.hull->faceCount; ++j) {
		tbSatAxis ax = tbSat_FaceB(&sa, &sb, &xf, j);
		if (glms_vec3_dot(ax.normal, exclude) < excludeCos && ax.separation > best) {
			best = ax.separation;
		}
	}
	for (int i = 0; i < sa.hull->edgeCount; ++i) {
		for (int j = 0; j < sb.hull->edgeCount; ++j) {
			tbSatEdgePair e;
			if (!tbSat_EdgeAxis(&sa, &sb, &xf, i, j, &e)) {
				continue;
			}
			for (int k = 0; k < 2; ++k) {
				vec3s axis = k == 0 ? e.axis : glms_vec3_negate(e.axis);
				float sep = tbSat_AxisSeparation(&sa, &sb, &xf, axis);
				if (glms_vec3_dot(axis, exclude) < excludeCos && sep > best) {
					best = sep;
				}
			}
		}
	}
	return best;
}

// Feature id of an edge-edge point: the face bits of a face contact set to 0x7f (no face), then
// the two edge ids; distinct from every clipped id and from TB_QUERY_POINT_ID.
static uint32_t tbEdgeId(int ea, int eb)
{
	return (0x7fu << 23) | (((uint32_t)ea & 0xffu) << 8) | ((uint32_t)eb & 0xffu);
}

// The face of s most aligned with direction d (s's frame): the incident face. *cosine (when not
// null) is the cosine between its normal and d, for a unit d.
static int tbSat_AlignedFace(const tbSatShape* s, vec3s d, float* cosine)
{
	if (s->box) {
		// A box's face normals are its axes, whatever its scale.
		vec3s ad = {{fabsf(d.x), fabsf(d.y), fabsf(d.z)}};
		int k = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2);
		if (cosine != NULL) {
			*cosine = ad.raw[k];
		}
		return 2 * k + (d.raw[k] < 0.0f ? 1 : 0);
	}
	int best = 0;
	float bestDot = -FLT_MAX;
	for (int i = 0; i < s->hull->faceCount; ++i) {
		vec3s n = tbSat_RawNormal(s, i);
		float dot = glms_vec3_dot(n, d) / glms_vec3_norm(n);
		if (dot > bestDot) {
			bestDot = dot;
			best = i;
		}
	}
	if (cosine != NULL) {
		*cosine = bestDot;
	}
	return best;
}

// Face `face` of s as a clipping feature, placed by xf (null: s is A, already in A's frame). Hull
// faces run counter-clockwise seen from outside, and a positive scale keeps that order. Only the
// reference face needs its unit normal (tbClipFeatures reads the incident feature's points).
static void tbSat_FaceFeature(const tbSatShape* s, const tbSatFrame* xf, int face, bool reference,
                              tbFeature* f)
{
	const tbHullFace* hf = s->hull->faces + face;
	int count = hf->indexCount < TB_MAX_FEATURE_POINTS ? hf->indexCount : TB_MAX_FEATURE_POINTS;
	const int* index = s->hull->faceIndices + hf->firstIndex;
	for (int i = 0; i < count; ++i) {
		vec3s v = tbSat_Vertex(s, index[i]);
		f->v[i] = xf != NULL ? glms_vec3_add(tbRot(xf, v), xf->t) : v;
	}
	f->normal = glms_vec3_zero();
	if (reference) {
		// tbSat_Plane's normal; a box pair has no inverse scale yet, so it is made here.
		vec3s m = tbMul3(hf->normal, s->box ? tbSat_Inverse(s->scale) : s->invScale);
		f->normal = glms_vec3_scale(m, 1.0f / glms_vec3_norm(m));
		if (xf != NULL) {
			f->normal = tbRot(xf, f->normal);
		}
	}
	f->count = count;
	f->radius = 0.0f;
	f->id = (uint32_t)face;
	f->isFace = count >= 3;
}

// A face contact's manifold: reference, the face `face` of B (`flip`) or of A; incident, the other
// shape's face most anti-parallel to it (Box2D-Lite, qu3e), clipped against the reference's side
// planes. Both in A's frame. Returns the number of points.
static int tbSat_ClipFaces(const tbSatShape* sa, const tbSatShape* sb, const tbSatFrame* xf,
                           bool flip, int face, float size, float margin, tbManifold* m)
{
	tbFeature ref, inc;
	if (flip) {
		tbSat_FaceFeature(sb, xf, face, true, &ref);
		tbSat_FaceFeature(sa, NULL, tbSat_AlignedFace(sa, glms_vec3_negate(ref.normal), NULL),
		                  false, &inc);
	} else {
		tbSat_FaceFeature(sa, NULL, face, true, &ref);
		vec3s d = tbRotT(xf, glms_vec3_negate(ref.normal));
		tbSat_FaceFeature(sb, xf, tbSat_AlignedFace(sb, d, NULL), false, &inc);
	}
	return tbClipFeatures(&ref, &inc, flip, size, margin, m);
}

// An edge pair whose axis is within this cosine of a face normal (5 degrees, the tolerance cone
// tbGetFeature gives a face): the other shape lies along that face (tbSat_EdgeOnFace).
#define TB_SAT_EDGE_ON_FACE 0.996f

// An edge pair whose axis is nearly a face normal of one shape: a box lying across a ramp's ridge
// or across the top edge of a long wall. The face's own axis loses to the edge pair there, because
// the face's plane runs on past the ridge's far end (or past the box's overhang), which dips below
// it by the slightest tilt times its length. The edge pair's one point (the edges' closest pair)
// leaves the body free to rock about it, the point flipping from one of the face's ends to the
// other as it does (a box across a ramp's ridge sinks step by step).
// Such a pair is clipped as a face contact instead, the face nearest the axis as the reference:
// the points span the stretch where the shapes meet, each at its own depth. The contact keeps the
// edge pair's axis n as its normal, and each point is paired with the reference face's plane
// straight along n, h / cos away for a height h over the face; no point is reported deeper than
// the axis's separation s, the penetration depth (n . (pB - pA) >= s for any point of A and any
// point of B, and a point clipped near a small face's rim could be paired with the plane beyond
// the face). Crossing edges (no face normal near the axis) keep their one point, as does a clip
// that keeps fewer than two.
static bool tbSat_EdgeOnFace(const tbSatShape* sa, const tbSatShape* sb, const tbSatFrame* xf,
                             vec3s n, float axisSeparation, float size, float margin, tbManifold* m)
{
	float cosA, cosB;
	int faceA = tbSat_AlignedFace(sa, n, &cosA);
	int faceB = tbSat_AlignedFace(sb, tbRotT(xf, glms_vec3_negate(n)), &cosB);
	bool onB = cosB >= cosA; // the reference face is B's
	float cosine = onB ? cosB : cosA;
	if (!(cosine >= TB_SAT_EDGE_ON_FACE)) {
		return false;
	}
	tbManifold clipped;
	memset(&clipped, 0, sizeof clipped);
	if (tbSat_ClipFaces(sa, sb, xf, onB, onB ? faceB : faceA, size, margin, &clipped) < 2) {
		return false;
	}
	clipped.normal = n;
	for (int i = 0; i < clipped.pointCount; ++i) {
		tbManifoldPoint* p = clipped.points + i;
		float separation = fmaxf(p->separation / cosine, axisSeparation);
		p->separation = separation;
		// The incident point stays; its partner moves onto the reference plane along n.
		if (onB) {
			p->pointB = glms_vec3_add(p->pointA, glms_vec3_scale(n, separation));
		} else {
			p->pointA = glms_vec3_sub(p->pointB, glms_vec3_scale(n, separation));
		}
	}
	*m = clipped;
	return true;
}

bool tbSat_Collide(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                   float speculativeDistance, float* distance, tbSatCache* cache, tbManifold* m)
{
	tbSatShape sa, sb;
	tbSatFrame xf;
	tbSat_Setup(a, b, bInA, false, &sa, &sb, &xf);
	if (cache != NULL && (cache->type == tb_satFaceA || cache->type == tb_satFaceB)) {
		// The face the full test chose last time, clipped again: kept when neither its
		// separation nor the deepest clipped point has moved from the full test's separation by
		// more than the tolerance (the cache keeps that separation, so that small moves cannot
		// add up unseen); else the full test below.
		tbSatAxis cached;
		bool eligible = false;
		bool have = sa.box && sb.box
		                ? tbSat_BoxCachedAxis(sa.scale, sb.scale, &xf, cache, &cached, &eligible)
		                : tbSat_CachedAxis(&sa, &sb, &xf, cache, &cached, &eligible);
		float sizeA = tbSat_Size(&sa), sizeB = tbSat_Size(&sb);
		float size = sizeA < sizeB ? sizeA : sizeB;
		float keep = TB_SAT_CACHE_REL * size;
		if (have && eligible && cached.separation <= speculativeDistance &&
		    fabsf(cached.separation - cache->separation) <= keep) {
			memset(m, 0, sizeof *m);
			m->normal = cached.normal;
			bool flip = cached.type == tb_satFaceB;
			if (tbSat_ClipFaces(&sa, &sb, &xf, flip, flip ? cached.indexB : cached.indexA, size,
			                    speculativeDistance, m) > 0) {
				float deepest = m->points[0].separation;
				for (int i = 1; i < m->pointCount; ++i) {
					deepest = fminf(deepest, m->points[i].separation);
				}
				if (fabsf(deepest - cache->separation) <= keep) {
					if (distance != NULL) {
						*distance = cached.separation;
					}
					return true;
				}
			}
		}
	}
	tbSatResult r = tbSat_FindIn(&sa, &sb, &xf, speculativeDistance, cache);
	if (distance != NULL) {
		*distance = r.maxSeparation;
	}
	memset(m, 0, sizeof *m);
	m->normal = r.chosen.normal;
	if (r.chosen.separation > speculativeDistance) {
		return true;
	}
	switch (r.chosen.type) {
	case tb_satFaceA:
	case tb_satFaceB: {
		// The test ran to its end (an early exit separates by more than the margin), so r.size
		// is set.
		bool flip = r.chosen.type == tb_satFaceB;
		return tbSat_ClipFaces(&sa, &sb, &xf, flip, flip ? r.chosen.indexB : r.chosen.indexA,
		                       r.size, speculativeDistance, m) > 0;
	}
	case tb_satEdges: {
		tbSatEdgePair e;
		if (!tbSat_EdgeAxis(&sa, &sb, &xf, r.chosen.indexA, r.chosen.indexB, &e)) {
			return false;
		}
		vec3s pa, pb;
		tbClosestSegments(e.pA, e.dA, e.pB, e.dB, &pa, &pb);
		float s = glms_vec3_dot(glms_vec3_sub(pb, pa), e.axis);
		m->normal = e.axis;
		if (s > speculativeDistance) {
			return true;
		}
		if (tbSat_EdgeOnFace(&sa, &sb, &xf, e.axis, r.chosen.separation, r.size,
		                     speculativeDistance, m)) {
			return true;
		}
		m->pointCount = 1;
		m->points[0].pointA = pa;
		m->points[0].pointB = pb;
		m->points[0].separation = s;
		m->points[0].id = tbEdgeId(r.chosen.indexA, r.chosen.indexB);
		return true;
	}
	default:
		return false;
	}
}
