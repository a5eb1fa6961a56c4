// A convex shape against one triangle of level geometry, with internal-edge correction, and ray
// casts of placed level geometry (docs/meshes.md).
//
// Internal edges: a shape sliding over a flat floor made of triangles meets the seams between
// them. Against one triangle alone, a shape just past its edge is closest to that edge, and the
// query's normal then leans out of the floor: the solver pushes the shape up and back (the "ghost
// collisions" of Box2D v3's chain shapes, which it answers with ghost vertices; Bullet's
// btAdjustInternalEdgeContacts; Jolt's active edges after Pierre Terdiman, "Contact generation for
// meshes", 2008). Each mesh edge is flagged active only when convex and sharper than
// TB_ACTIVE_EDGE_COS with its neighbour (mesh.c). A contact whose normal is not the triangle's face
// normal and whose triangle-side point lies inside the face, on an inactive edge, or on a vertex
// whose two edges in this triangle are inactive, is made again with the face normal: the convex
// shape's feature facing the triangle is clipped against it, so every point's separation is its
// height over the triangle along the face normal, and points not over the triangle are left to
// the neighbour they are over (except over a shallow convex fold: see the end of
// tbCollideLevelTriangle; and beyond a concave seam: tbLevelConcaveSeamPoint).
#include <float.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "manifold_internal.h"
#include "mesh_internal.h"
#include "narrowphase.h"
#include "sat.h"
#include "tumble/query.h"
#include "tumble/transform.h"

// A normal within about 0.5 degrees of the face normal is the face normal (float noise of the
// clipped face contacts is far below; anything farther came from an edge or a vertex).
#define TB_LEVEL_FACE_COS 0.99996f
// A triangle-side contact point within this fraction of the triangle's longest edge of an edge
// lies on it (GJK's points on an edge are on it to rounding; EPA's to its tolerance).
#define TB_LEVEL_EDGE_TOL 1e-3f
// The query's manifold of a convex shape and a triangle takes a face's normal within this cosine
// of the query's normal (TB_FACE_COS less TB_REFERENCE_BIAS of manifold.c: the reference face is
// the better aligned of two within that bias).
#define TB_LEVEL_QUERY_FACE_COS 0.9912f

// The corners of the triangle across edge e of `triangle` in A's frame; false where the edge has
// no neighbour.
static bool tbLevelNeighbourInA(const tbGeometry* level, int triangle, int e, bool levelIsA,
                                tbTransform bInA, vec3s w[3])
{
	int other = tbLevelNeighbour(level, triangle, e);
	if (other < 0 || !tbGeometry_GetTriangle(level, other, w, NULL)) {
		return false;
	}
	for (int k = 0; k < 3 && !levelIsA; ++k) {
		w[k] = tbTransformPointInline(bInA, w[k]);
	}
	return true;
}

// Whether a neighbour of the triangle (A's frame: corners t, normal `front`) folds away below its
// plane across an edge: only there can the end of tbCollideLevelTriangle keep a point that lies
// over neither face (the test there, without the query's normal).
static bool tbLevelHasConvexFold(const tbGeometry* level, int triangle, const vec3s t[3],
                                 vec3s front, bool levelIsA, tbTransform bInA)
{
	for (int e = 0; e < 3; ++e) {
		vec3s w[3];
		if (!tbLevelNeighbourInA(level, triangle, e, levelIsA, bInA, w)) {
			continue;
		}
		for (int k = 0; k < 3; ++k) {
			if (glms_vec3_dot(glms_vec3_sub(w[k], t[0]), front) < 0.0f) {
				return true;
			}
		}
	}
	return false;
}

// The smallest cosine between the triangle's normal towards the shape (`front`, A's frame) and a
// neighbour's normal oriented the same way (`back`: front is the face normal reversed), over the
// neighbours that fold away below its plane: the widest convex fold, 1 when there is none.
static float tbLevelWidestFoldCos(const tbGeometry* level, int triangle, const vec3s t[3],
                                  vec3s front, bool back, bool levelIsA, tbTransform bInA)
{
	float widest = 1.0f;
	for (int e = 0; e < 3; ++e) {
		int other = tbLevelNeighbour(level, triangle, e);
		vec3s w[3];
		if (other < 0 || !tbGeometry_GetTriangle(level, other, w, NULL)) {
			continue;
		}
		bool below = false;
		for (int k = 0; k < 3; ++k) {
			w[k] = levelIsA ? w[k] : tbTransformPointInline(bInA, w[k]);
			below = below || glms_vec3_dot(glms_vec3_sub(w[k], t[0]), front) < 0.0f;
		}
		if (below) {
			vec3s n = tbTriangleNormal(w[0], w[1], w[2]);
			widest = fminf(widest, glms_vec3_dot(front, back ? glms_vec3_negate(n) : n));
		}
	}
	return widest;
}

// Feature id of a concave seam's speculative point (tbLevelConcaveSeamPoint).
#define TB_LEVEL_SEAM_ID 0x7ffffffeu

// A speculative point across a concave seam. A shape rolling over a concave crease is held to the
// plane of the triangle it rests on for the whole step; the next triangle's plane, which rises
// above that plane beyond their shared edge, gives it no point while the shape's lowest point
// along the next triangle's normal is still over the first (that point is not over the next
// triangle), so the shape ends the step inside the next triangle by about (v dt)^2 kappa / 2 and
// the push-out lifts it, gaining m g times that height each step. Beyond an edge whose neighbour
// rises above the triangle's plane, the triangle's plane extended lies below that neighbour, so
// the shape's lowest point along the face normal, when within the speculative distance above
// the plane, is kept as a speculative point on the plane: the solver then stops the shape at the
// plane within the step instead of after it (Catto, "Contacts and speculative contacts", GDC
// 2012). Its normal is the triangle's: tbCollideLevel keeps it in a manifold of that normal.
// `convex` is the convex shape, `t` and `face` the triangle in A's frame, `front` its normal
// towards the shape.
static bool tbLevelConcaveSeamPoint(const tbGeometry* level, int triangle, const tbGeometry* convex,
                                    const vec3s t[3], vec3s face, vec3s front, bool levelIsA,
                                    tbTransform bInA, float speculativeDistance, tbManifold* out)
{
	vec3s low;
	if (levelIsA) {
		vec3s d = tbInvRotateInline(bInA.q, glms_vec3_negate(front));
		low = tbTransformPointInline(bInA, tbGeometry_Support(convex, d, NULL));
	} else {
		low = tbGeometry_Support(convex, glms_vec3_negate(front), NULL);
	}
	float height = glms_vec3_dot(glms_vec3_sub(low, t[0]), front);
	if (!(height >= 0.0f && height <= speculativeDistance)) {
		return false;
	}
	float longest = 0.0f;
	for (int e = 0; e < 3; ++e) {
		longest = tbFMax(longest, glms_vec3_norm(glms_vec3_sub(t[(e + 1) % 3], t[e])));
	}
	float tol = TB_LEVEL_EDGE_TOL * longest;
	bool concave = false;
	for (int e = 0; e < 3 && !concave; ++e) {
		// Beyond edge e: outside its side plane (counter-clockwise about `face`).
		vec3s side = glms_vec3_cross(glms_vec3_sub(t[(e + 1) % 3], t[e]), face);
		float len = glms_vec3_norm(side);
		if (!(len > 0.0f) || glms_vec3_dot(glms_vec3_sub(low, t[e]), side) / len <= tol) {
			continue;
		}
		vec3s w[3];
		if (!tbLevelNeighbourInA(level, triangle, e, levelIsA, bInA, w)) {
			continue;
		}
		for (int k = 0; k < 3; ++k) {
			concave = concave || glms_vec3_dot(glms_vec3_sub(w[k], t[0]), front) > tol;
		}
	}
	if (!concave) {
		return false;
	}
	// Only from a triangle within the speculative distance, as every other point (and so none
	// from one tbCollideLevel's filter skips): the plane is a lower bound of the triangle's
	// distance, not the distance.
	tbGeometry tri = tbMakeTriangle(t[0], t[1], t[2]);
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult q = levelIsA ? tbShapeDistance(&tri, tbTransformIdentity(), convex, bInA, &def)
	                           : tbShapeDistance(convex, tbTransformIdentity(), &tri,
	                                             tbTransformIdentity(), &def);
	if (!(q.distance <= speculativeDistance)) {
		return false;
	}
	vec3s onPlane = glms_vec3_sub(low, glms_vec3_scale(front, height));
	memset(out, 0, sizeof *out);
	out->normal = levelIsA ? front : glms_vec3_negate(front);
	out->pointCount = 1;
	out->points[0].pointA = levelIsA ? onPlane : low;
	out->points[0].pointB = levelIsA ? low : onPlane;
	out->points[0].separation = height;
	out->points[0].id = TB_LEVEL_SEAM_ID;
	return true;
}

// The convex shape's incident features of one tbCollideLevel, by face: a box's or a hull's
// incident feature along a direction is the whole face chosen for it (tbGetFeature), so the
// triangles under one face of the shape share it; each is placed in A's frame once.
#define TB_LEVEL_FEATURES 4

typedef struct tbLevelFeatures
{
	int face[TB_LEVEL_FEATURES]; // -1: free
	tbFeature feature[TB_LEVEL_FEATURES];
	int next;         // the entry replaced next
	float convexSize; // the convex shape's size (tbGeometry_Size, as tbClipFaceManifold takes it)
	int lastFace;     // the face the last look found (tbLevelFeatureAlong), -1: none
} tbLevelFeatures;

static void tbLevelFeatures_Init(tbLevelFeatures* lf, const tbGeometry* convex)
{
	for (int i = 0; i < TB_LEVEL_FEATURES; ++i) {
		lf->face[i] = -1;
	}
	lf->next = 0;
	lf->lastFace = -1;
	lf->convexSize = tbGeometry_Size(convex);
}

// The face tbGetFeature takes for a box or a solid or flat hull along d (the shape's frame), the
// same comparisons; -1 for other shapes.
static int tbLevelFeatureFace(const tbGeometry* convex, vec3s d)
{
	if (convex->type == tb_boxShape) {
		vec3s ad = {{fabsf(d.x), fabsf(d.y), fabsf(d.z)}};
		int a = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2);
		return 2 * a + (d.raw[a] < 0.0f ? 1 : 0);
	}
	const tbHull* hull = convex->hull;
	if (convex->type != tb_hullShape || hull == NULL ||
	    (hull->kind != tb_hullSolid && hull->kind != tb_hullPolygon)) {
		return -1;
	}
	vec3s sd = glms_vec3_mul(d, convex->scale);
	return tbHullBestFace(hull, sd);
}

// The convex shape's feature along d (A's frame), in A's frame, from `lf` (made there the first
// time its face is met), as tbGetFeature (the convex shape is A) or tbFeatureInA would make it;
// null for a shape whose features are not its faces (tbLevelFeatureFace).
static inline __attribute__((always_inline)) const tbFeature*
tbLevelFeatureAlong(tbLevelFeatures* lf, const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                    bool convexIsA, vec3s d)
{
	const tbGeometry* convex = convexIsA ? a : b;
	int face = tbLevelFeatureFace(convex, convexIsA ? d : tbInvRotateInline(bInA.q, d));
	lf->lastFace = face;
	if (face < 0) {
		return NULL;
	}
	int slot = -1;
	for (int i = 0; i < TB_LEVEL_FEATURES && slot < 0; ++i) {
		slot = lf->face[i] == face ? i : -1;
	}
	if (slot < 0) {
		slot = lf->next;
		lf->next = (lf->next + 1) % TB_LEVEL_FEATURES;
		lf->face[slot] = face;
		if (convexIsA) {
			tbGetFeature(a, d, lf->feature + slot);
		} else {
			tbFeatureInA(b, bInA, d, lf->feature + slot);
		}
	}
	return lf->feature + slot;
}

// What the query path of a triangle's pair takes its features from (tbFeatureSource): the
// convex shape's from `lf`; a mesh triangle's (the level is A) from its corners `t` and the
// normal the mesh keeps, `face`; other triangles' made by tbGetFeature or tbFeatureInA.
typedef struct tbLevelSource
{
	tbLevelFeatures* lf;
	const tbGeometry *a, *b;
	bool convexIsA;
	bool meshTriangle; // a mesh's triangle in its own frame (the level is A)
	const vec3s* t;
	vec3s face;
	tbFeature triangle;
} tbLevelSource;

// The side of a mesh triangle facing d, as tbGetFeature makes it (tbTriangleFeature): its normal
// is the mesh's (tbBuildMesh makes it with the same operations on the same corners), the corners
// counter-clockwise about the side's normal, id 1 for the back.
static const tbFeature* tbLevelTriangleSide(tbLevelSource* src, vec3s d)
{
	bool back = glms_vec3_dot(src->face, d) < 0.0f;
	tbFeature* f = &src->triangle;
	for (int k = 0; k < 3; ++k) {
		f->v[k] = back ? src->t[2 - k] : src->t[k];
	}
	f->count = 3;
	f->normal = back ? glms_vec3_negate(src->face) : src->face;
	f->radius = 0.0f;
	f->id = back ? 1u : 0u;
	f->isFace = true;
	return f;
}

static const tbFeature* tbLevelFetch(void* context, bool onA, tbTransform bInA, vec3s d)
{
	tbLevelSource* src = context;
	if (onA != src->convexIsA) {
		return src->meshTriangle ? tbLevelTriangleSide(src, d) : NULL;
	}
	return tbLevelFeatureAlong(src->lf, src->a, src->b, bInA, src->convexIsA, d);
}

// tbClipFaceManifold of the triangle `tri` as the reference face `ref` and the convex shape, with
// the convex shape's incident feature taken from `lf` where it has it (null: none kept).
// `triangleSize` is tbGeometry_Size of the triangle (its farthest corner from the corners'
// centroid, not its distance from the level's origin), as tbClipFaceManifold takes it; negative:
// not known yet (a heightfield's), made here when the clip needs it.
static int tbLevelClip(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                       const tbFeature* ref, bool flip, float speculativeDistance,
                       float triangleSize, tbLevelFeatures* lf, tbManifold* m)
{
	vec3s d = glms_vec3_negate(ref->normal);
	const tbFeature* inc = lf != NULL ? tbLevelFeatureAlong(lf, a, b, bInA, flip, d) : NULL;
	if (inc == NULL) {
		return tbClipFaceManifold(a, b, bInA, ref, flip, speculativeDistance, m);
	}
	if (triangleSize < 0.0f) {
		triangleSize = tbGeometry_Size(flip ? b : a);
	}
	memset(m, 0, sizeof *m);
	return tbClipFeatures(ref, inc, flip,
	                      lf->convexSize < triangleSize ? lf->convexSize : triangleSize,
	                      speculativeDistance, m);
}

// A manifold with no point and the given normal (the unused points zero, as a narrow phase's).
static inline tbManifold tbNoPoints(vec3s normal)
{
	tbManifold m;
	memset(&m, 0, sizeof m);
	m.normal = normal;
	return m;
}

// A point inside the convex shape, in A's frame: the side of a mesh triangle it lies on is the
// side the triangle faces it with.
static vec3s tbLevelConvexCentre(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 bool levelIsA)
{
	return levelIsA ? tbTransformPointInline(bInA, tbGeometry_InteriorPoint(b))
	                : tbGeometry_InteriorPoint(a);
}

// The convex shape is checked (tbGeometry_IsUsable) by the caller, once for all its triangles; a
// level's triangles were checked when it was built (tbBuildMesh, tbBuildHeightField): the queries
// below check neither again. The caller checked that exactly one shape is a level and fetched
// the triangle's corners `v` (the level's frame) and its edge flags. `centreInA`: the convex
// shape's tbLevelConvexCentre where the caller made it once for all its triangles, else null.
static tbManifold tbCollideLevelTriangleWith(const tbGeometry* a, const tbGeometry* b,
                                             tbTransform bInA, int triangle, const vec3s v[3],
                                             uint32_t flags, float speculativeDistance,
                                             float* distance, tbLevelFeatures* lf, tbSatCache* sat,
                                             const vec3s* centreInA)
{
	bool levelIsA = tbGeometry_IsLevel(a);
	const tbGeometry* level = levelIsA ? a : b;
	const vec3s up = {{0.0f, 1.0f, 0.0f}}; // the normal of a manifold with no point
	tbGeometry tri = tbMakeTriangle(v[0], v[1], v[2]);
	// A mesh keeps each triangle's size (tbBuildMesh: the same function of the same corners); a
	// heightfield's is made by the clip, only when it clips.
	float triangleSize = level->type == tb_meshShape ? level->mesh->sizes[triangle] : -1.0f;
	const tbGeometry* sa = levelIsA ? &tri : a;
	const tbGeometry* sb = levelIsA ? b : &tri;
	// The triangle in A's frame and the normal from it towards the convex shape.
	vec3s t[3];
	for (int k = 0; k < 3; ++k) {
		t[k] = levelIsA ? v[k] : tbTransformPointInline(bInA, v[k]);
	}
	// A mesh keeps its triangles' normals (tbBuildMesh, the same function of the same corners).
	vec3s face = levelIsA && level->type == tb_meshShape ? level->mesh->normals[triangle]
	                                                     : tbTriangleNormal(t[0], t[1], t[2]);
	// A heightfield is solid below its surface: its triangles face up. A mesh triangle faces the
	// side the convex shape's centre is on (the query's normal is no guide: at an edge it may lie
	// in the plane, or lean either way).
	vec3s centre = centreInA != NULL ? *centreInA : tbLevelConvexCentre(a, b, bInA, levelIsA);
	bool back =
	    level->type == tb_meshShape && glms_vec3_dot(glms_vec3_sub(centre, t[0]), face) < 0.0f;
	vec3s front = back ? glms_vec3_negate(face) : face;
	// The triangle as the reference face: only its three points are set (tbClip reads `count`).
	tbFeature ref;
	for (int k = 0; k < 3; ++k) {
		ref.v[k] = back ? t[2 - k] : t[k]; // counter-clockwise about `front`
	}
	ref.count = 3;
	ref.normal = front;
	ref.radius = 0.0f;
	ref.id = back ? 1u : 0u;
	ref.isFace = true;
	if (flags == 0u) {
		// No active edge: whatever normal the query finds is replaced by the face's below (or
		// is the face's already), and the manifold is the convex shape's facing feature clipped
		// against the triangle. Clipped first, the query is needed only when nothing of that
		// feature lies over the triangle (the fold strip at the end). A clipped point over the
		// triangle within the speculative distance of its plane is that close to the triangle,
		// so the query would have found the pair close too.
		tbManifold out;
		if (tbLevelClip(sa, sb, bInA, &ref, !levelIsA, speculativeDistance, triangleSize, lf,
		                &out) > 0) {
			if (distance != NULL) {
				float d = out.points[0].separation;
				for (int i = 1; i < out.pointCount; ++i) {
					d = tbFMin(d, out.points[i].separation);
				}
				*distance = d;
			}
			return out;
		}
		// A mesh in A's frame keeps it per triangle, the same test of the same numbers.
		bool convexFold =
		    levelIsA && level->type == tb_meshShape
		        ? (level->mesh->folds[triangle] & (back ? TB_FOLD_BACK : TB_FOLD_FRONT)) != 0u
		        : tbLevelHasConvexFold(level, triangle, t, front, levelIsA, bInA);
		// A box or solid hull was clipped by its face best along the triangle's normal
		// (tbLevelFeatureFace), which holds its lowest feature along it: that feature lies over
		// a neighbour, clipped there. The fold strip below is for round features, whose lowest
		// points along two faces' normals each lie over the other face (a ball along a ridge).
		// The clip above looked that face up along the same direction (-front): lf->lastFace.
		const tbGeometry* convex = levelIsA ? b : a;
		vec3s down = glms_vec3_negate(front);
		if (convexFold && lf != NULL && lf->lastFace >= 0) {
			if (distance != NULL) {
				*distance = speculativeDistance;
			}
			return tbNoPoints(levelIsA ? front : down);
		}
		if (!convexFold) {
			// Nothing over the triangle and no fold: the end below would drop whatever the query
			// found (a flat or concave seam's neighbour holds it), except a concave seam's
			// speculative point on this plane. Otherwise nothing closer than the speculative
			// distance is claimed for the pair's cache: any point that close to this triangle lies
			// over a neighbour, which reports it.
			tbManifold seam;
			if (tbLevelConcaveSeamPoint(level, triangle, convex, t, face, front, levelIsA, bInA,
			                            speculativeDistance, &seam)) {
				if (distance != NULL) {
					*distance = seam.points[0].separation;
				}
				return seam;
			}
			if (distance != NULL) {
				*distance = speculativeDistance;
			}
			tbManifold none;
			memset(&none, 0, sizeof none);
			none.normal = levelIsA ? front : glms_vec3_negate(front);
			return none;
		}
	}
	if (flags == 0u && lf != NULL && !tbSat_Applies(sa, sb, bInA)) {
		// Nothing of the facing feature over the triangle and no active edge: the query's
		// manifold is kept below only with a normal within the face's tolerance of the face
		// normal or between it and a convexly folded neighbour's. Its normal is the query's, or a
		// face's within TB_FACE_COS of it (tbCollideShapesByQuery): a query normal farther from
		// the face normal than those angles together gives nothing, and the manifold is not made.
		tbQueryResult r = tbContactQuery(sa, sb, bInA, speculativeDistance, true, sat);
		if (r.status != tb_queryInvalidInput && !isnan(r.distance)) {
			vec3s toConvex = levelIsA ? r.normal : glms_vec3_negate(r.normal);
			float foldCos = tbLevelWidestFoldCos(level, triangle, t, front, back, levelIsA, bInA);
			float keptAngle = acosf(fminf(fmaxf(foldCos - 1e-5f, -1.0f), TB_LEVEL_FACE_COS));
			float limit = keptAngle + acosf(TB_LEVEL_QUERY_FACE_COS) + 1e-3f;
			float angle = acosf(fminf(fmaxf(glms_vec3_dot(toConvex, front), -1.0f), 1.0f));
			if (!(r.distance <= speculativeDistance) || angle > limit) {
				if (distance != NULL) {
					*distance = r.distance;
				}
				if (!(r.distance <= speculativeDistance)) {
					return tbNoPoints(up); // as the query's manifold: no point, the default normal
				}
				return tbNoPoints(levelIsA ? front : glms_vec3_negate(front));
			}
		}
	}
	// The query's path (tbCollideCheckedShapes) with the convex shape's faces from `lf`.
	tbLevelSource source = {.lf = lf,
	                        .a = sa,
	                        .b = sb,
	                        .convexIsA = !levelIsA,
	                        .meshTriangle = levelIsA && level->type == tb_meshShape,
	                        .t = t,
	                        .face = face};
	// The triangle's size as tbGeometry_Size makes it (the mesh's; a heightfield's not known),
	// the convex shape's from `lf`.
	float convexSize = lf != NULL ? lf->convexSize : -1.0f;
	tbFeatureSource features = {.fetch = tbLevelFetch,
	                            .context = &source,
	                            .sizeA = levelIsA ? triangleSize : convexSize,
	                            .sizeB = levelIsA ? convexSize : triangleSize};
	tbManifold m = tbCollideCheckedShapesFrom(sa, sb, bInA, speculativeDistance, distance, sat,
	                                          lf != NULL ? &features : NULL);
	if (m.pointCount == 0) {
		return m;
	}
	vec3s toConvex = levelIsA ? m.normal : glms_vec3_negate(m.normal);
	if (glms_vec3_dot(toConvex, front) >= TB_LEVEL_FACE_COS) {
		return m; // already the face normal
	}
	// Which feature of the triangle the deepest point is on.
	int deepest = 0;
	for (int i = 1; i < m.pointCount; ++i) {
		if (m.points[i].separation < m.points[deepest].separation) {
			deepest = i;
		}
	}
	vec3s p = levelIsA ? m.points[deepest].pointA : m.points[deepest].pointB;
	float longest = 0.0f;
	for (int e = 0; e < 3; ++e) {
		longest = tbFMax(longest, glms_vec3_norm(glms_vec3_sub(t[(e + 1) % 3], t[e])));
	}
	float tol = TB_LEVEL_EDGE_TOL * longest;
	uint32_t near = 0u;
	for (int e = 0; e < 3; ++e) {
		// Outward side plane of edge e (counter-clockwise about `face`).
		vec3s side = glms_vec3_cross(glms_vec3_sub(t[(e + 1) % 3], t[e]), face);
		float len = glms_vec3_norm(side);
		if (len > 0.0f && glms_vec3_dot(glms_vec3_sub(p, t[e]), side) / len > -tol) {
			near |= TB_EDGE_ACTIVE(e);
		}
	}
	// On an edge: that edge's flag; on a vertex: active when either of its edges is (Jolt's rule);
	// inside the face: never.
	if ((near & flags) != 0u) {
		return m;
	}
	// Clipped again unless it was above already (the same feature against the same triangle).
	tbManifold out;
	if (flags != 0u && tbLevelClip(sa, sb, bInA, &ref, !levelIsA, speculativeDistance, triangleSize,
	                               lf, &out) > 0) {
		return out;
	}
	// Nothing of the shape's facing feature lies over this triangle. Over a flat seam the
	// neighbour holds it (and the edge's normal is the ghost to drop). Across a shallow convex
	// fold (an inactive edge of a rolling terrain) there is a strip of width 2 r sin(fold / 2)
	// over the edge where the shape's lowest point along each face's normal lies over the other
	// face, and both triangles would let a ball rolling along the ridge fall. There the query's
	// normal lies between the two faces' normals: it is the edge's true normal, kept.
	for (int e = 0; e < 3; ++e) {
		if ((near & TB_EDGE_ACTIVE(e)) == 0u) {
			continue;
		}
		int other = tbLevelNeighbour(level, triangle, e);
		vec3s w[3];
		if (other < 0 || !tbGeometry_GetTriangle(level, other, w, NULL)) {
			continue;
		}
		for (int k = 0; k < 3 && !levelIsA; ++k) {
			w[k] = tbTransformPointInline(bInA, w[k]);
		}
		vec3s otherNormal = tbTriangleNormal(w[0], w[1], w[2]);
		otherNormal = back ? glms_vec3_negate(otherNormal) : otherNormal;
		// Convex: the neighbour's far corner below this face. The normals between the two faces'
		// are those closer to each than the faces are to each other.
		vec3s far = w[0];
		for (int k = 1; k < 3; ++k) {
			float dk = glms_vec3_dot(glms_vec3_sub(w[k], t[0]), front);
			far = dk < glms_vec3_dot(glms_vec3_sub(far, t[0]), front) ? w[k] : far;
		}
		float between = glms_vec3_dot(front, otherNormal) - 1e-5f;
		if (glms_vec3_dot(glms_vec3_sub(far, t[0]), front) < 0.0f &&
		    glms_vec3_dot(toConvex, front) >= between &&
		    glms_vec3_dot(toConvex, otherNormal) >= between) {
			return m;
		}
	}
	return tbNoPoints(levelIsA ? front : glms_vec3_negate(front));
}

tbManifold tbCollideLevelTriangle(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                  int triangle, float speculativeDistance, float* distance)
{
	if (!tbGeometry_IsUsable(tbGeometry_IsLevel(a) ? b : a)) {
		if (distance != NULL) {
			*distance = -FLT_MAX; // as a failed query
		}
		tbManifold empty;
		memset(&empty, 0, sizeof empty);
		empty.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
		return empty;
	}
	bool levelIsA = tbGeometry_IsLevel(a);
	vec3s v[3];
	uint32_t flags = 0u;
	if (!tbGeometry_IsLevel(levelIsA ? a : b) || tbGeometry_IsLevel(levelIsA ? b : a) ||
	    !tbGeometry_GetTriangle(levelIsA ? a : b, triangle, v, &flags)) {
		if (distance != NULL) {
			*distance = -FLT_MAX;
		}
		return tbNoPoints((vec3s){{0.0f, 1.0f, 0.0f}});
	}
	return tbCollideLevelTriangleWith(a, b, bInA, triangle, v, flags, speculativeDistance, distance,
	                                  NULL, NULL, NULL);
}

// Contact normals of two triangles within this cosine (about 5 degrees) share one manifold: a
// flat floor's triangles make one, a crease or a fold sharper than that makes one per face.
#define TB_LEVEL_GROUP_COS 0.996f

// Points a group gathers before it is reduced to TB_MAX_MANIFOLD_POINTS and gathers again.
#define TB_LEVEL_GATHER 16

int tbReduceManifoldPoints(tbManifoldPoint* points, int count, vec3s normal)
{
	if (count <= TB_MAX_MANIFOLD_POINTS) {
		return count < 0 ? 0 : count;
	}
	// The deepest point first: it is the one the solver must not lose.
	int i0 = 0;
	for (int i = 1; i < count; ++i) {
		if (points[i].separation < points[i0].separation) {
			i0 = i;
		}
	}
	vec3s p0 = points[i0].pointA;
	// The farthest from it across the normal: |d|^2 - (d.n)^2 for d = p - p0.
	int i1 = -1;
	float far2 = 0.0f;
	for (int i = 0; i < count; ++i) {
		vec3s d = glms_vec3_sub(points[i].pointA, p0);
		float along = glms_vec3_dot(d, normal);
		float d2 = glms_vec3_dot(d, d) - along * along;
		if (d2 > far2) {
			far2 = d2;
			i1 = i;
		}
	}
	tbManifoldPoint kept[TB_MAX_MANIFOLD_POINTS];
	kept[0] = points[i0];
	// Points closer than this (relative to the spread) count as one; areas below it as none.
	float tol = 1e-6f * far2;
	if (i1 < 0 || far2 <= 0.0f) {
		points[0] = kept[0];
		return 1;
	}
	kept[1] = points[i1];
	vec3s p1 = points[i1].pointA;
	// The largest triangle with those two. Twice the area of (a, b, p) seen along n, signed
	// (positive counter-clockwise), is (b - a) x (p - a) . n = (n x (b - a)) . (p - a): one dot
	// a point with the edge's inward direction n x (b - a) worked out once.
	vec3s in01 = glms_vec3_cross(normal, glms_vec3_sub(p1, p0));
	int i2 = -1;
	float best = tol, signedArea = 0.0f;
	for (int i = 0; i < count; ++i) {
		float area = glms_vec3_dot(in01, glms_vec3_sub(points[i].pointA, p0));
		if (fabsf(area) > best) {
			best = fabsf(area);
			signedArea = area;
			i2 = i;
		}
	}
	if (i2 < 0) {
		points[0] = kept[0];
		points[1] = kept[1];
		return 2;
	}
	kept[2] = points[i2];
	// Counter-clockwise about the normal, so that "outside an edge" is its right-hand side.
	vec3s t[3] = {p0, p1, points[i2].pointA};
	if (signedArea < 0.0f) {
		t[1] = points[i2].pointA;
		t[2] = p1;
	}
	// The point adding the most area outside the triangle (beyond one of its edges): minus the
	// signed area with each edge, each edge's inward direction and offset worked out once.
	vec3s in[3];
	float offset[3];
	for (int e = 0; e < 3; ++e) {
		in[e] = glms_vec3_cross(normal, glms_vec3_sub(t[(e + 1) % 3], t[e]));
		offset[e] = glms_vec3_dot(in[e], t[e]);
	}
	int i3 = -1;
	best = tol;
	for (int i = 0; i < count; ++i) {
		vec3s p = points[i].pointA;
		for (int e = 0; e < 3; ++e) {
			float outside = offset[e] - glms_vec3_dot(in[e], p);
			if (outside > best) {
				best = outside;
				i3 = i;
			}
		}
	}
	int n = 3;
	if (i3 >= 0) {
		kept[n++] = points[i3];
	}
	memcpy(points, kept, (size_t)n * sizeof(tbManifoldPoint));
	return n;
}

// Concave seams' speculative points a pair keeps while its triangles are collided.
#define TB_LEVEL_SEAMS 8

typedef struct tbLevelGroup
{
	vec3s normal;  // the normal of the deepest point's triangle manifold, A's frame
	float deepest; // that point's separation
	tbManifoldPoint points[TB_LEVEL_GATHER];
	int count;
} tbLevelGroup;

// The most hull vertices and faces the separating-axis filter below places once per pair; larger
// hulls take every triangle to the narrow phase.
#define TB_LEVEL_FILTER_MAX 64
_Static_assert(TB_LEVEL_FILTER_MAX <= TB_PLANE_LANES && TB_LEVEL_FILTER_MAX % 4 == 0,
               "the filter's planes fit a tbPlaneLanes, its lanes whole vectors");

typedef struct tbLevelCollide
{
	const tbGeometry *a, *b;
	const tbGeometry* level;
	tbTransform bInA;
	float speculativeDistance;
	float distance;
	tbLevelGroup groups[TB_MAX_LEVEL_MANIFOLDS];
	int groupCount, capacity;
	// Concave seams' speculative points (tbLevelConcaveSeamPoint), the closest kept, each with its
	// triangle's normal: they fill the manifolds the contacts leave free.
	tbManifoldPoint seams[TB_LEVEL_SEAMS];
	vec3s seamNormals[TB_LEVEL_SEAMS];
	int seamCount;
	// The separating-axis filter: the convex shape's vertices and face planes in the level's frame
	// (a box as its 8 corners and 6 planes), when it is a polytope of at most TB_LEVEL_FILTER_MAX
	// of each under a uniform scale; a sphere or a capsule as its core (its centre, its segment's
	// ends) and its radius, with no face planes.
	bool filter;
	bool twoSided; // mesh triangles may face either way; heightfield triangles face up
	vec3s centre;  // tbLevelConvexCentre, made once for all the triangles
	int vertexCount, faceCount;
	float coreRadius; // a round shape's radius about its core, else 0
	vec3s vertices[TB_LEVEL_FILTER_MAX];
	// The vertices again by coordinate for tests four at a time: all x, all y, all z, each run
	// TB_LEVEL_FILTER_MAX long, filled to the count rounded up to four with copies of vertex 0 (a
	// repeated vertex changes no extent). The face planes are kept that way only (their count in
	// faces.count).
	float vertexLanes[3 * TB_LEVEL_FILTER_MAX];
	tbPlaneLanes faces;
	tbLevelFeatures features; // the convex shape's incident features met so far
	// The triangles' separating axes: the last call's (null: none kept) and this call's.
	const tbLevelSatCache* lastSat;
	int satCursor; // where in lastSat the next triangle is looked for first
	tbLevelSatCache nextSat;
} tbLevelCollide;

// The last call's axis for this triangle (zero when none). The triangles come in the same order
// each call (the tree's), so the look starts where the last one ended.
static tbSatCache tbLevelLastSat(tbLevelCollide* lc, int triangle)
{
	tbSatCache none;
	memset(&none, 0, sizeof none);
	const tbLevelSatCache* last = lc->lastSat;
	int count = last != NULL && last->count <= TB_LEVEL_SAT_CACHE ? last->count : 0;
	for (int n = 0; n < count; ++n) {
		int i = lc->satCursor + n < count ? lc->satCursor + n : lc->satCursor + n - count;
		if (last->triangles[i] == triangle) {
			lc->satCursor = i + 1 < count ? i + 1 : 0;
			return last->sat[i];
		}
	}
	return none;
}

// Vertex i of the filter (the level's frame), in both forms.
static void tbLevelSetVertex(tbLevelCollide* lc, int i, vec3s p)
{
	lc->vertices[i] = p;
	lc->vertexLanes[i] = p.x;
	lc->vertexLanes[TB_LEVEL_FILTER_MAX + i] = p.y;
	lc->vertexLanes[2 * TB_LEVEL_FILTER_MAX + i] = p.z;
}

// The counts of the filter's vertices and face planes; the lanes past them up to the next
// multiple of four made copies of entry 0.
static void tbLevelSetCounts(tbLevelCollide* lc, int vertexCount, int faceCount)
{
	lc->vertexCount = vertexCount;
	for (int i = vertexCount; i < ((vertexCount + 3) & ~3); ++i) {
		for (int r = 0; r < 3; ++r) {
			lc->vertexLanes[r * TB_LEVEL_FILTER_MAX + i] = lc->vertexLanes[r * TB_LEVEL_FILTER_MAX];
		}
	}
	lc->faceCount = faceCount;
	lc->faces.count = faceCount;
	tbPlaneLanes_Pad(&lc->faces);
}

// The convex shape's vertices and face planes (a sphere's or capsule's core and radius) placed in
// the level's frame for the filter; false (no filter) for cylinders, cones, large or
// non-uniformly scaled shapes.
static bool tbLevelFilterSetup(tbLevelCollide* lc, const tbGeometry* convex, tbTransform inLevel)
{
	vec3s sc = convex->scale;
	if (!(sc.x > 0.0f) || sc.x != sc.y || sc.y != sc.z) {
		return false;
	}
	float s = sc.x;
	mat3s R = glms_quat_mat3(inLevel.q);
	if (convex->type == tb_sphereShape || convex->type == tb_capsuleShape) {
		bool capsule = convex->type == tb_capsuleShape;
		float h = capsule ? s * convex->round.halfHeight : 0.0f;
		tbLevelSetVertex(lc, 0, glms_vec3_add(inLevel.p, glms_vec3_scale(R.col[1], h)));
		tbLevelSetVertex(lc, 1, glms_vec3_sub(inLevel.p, glms_vec3_scale(R.col[1], h)));
		tbLevelSetCounts(lc, capsule ? 2 : 1, 0);
		lc->coreRadius = s * (capsule ? convex->round.radius : convex->radius);
		return lc->coreRadius >= 0.0f;
	}
	if (convex->type == tb_boxShape) {
		vec3s h = glms_vec3_scale(convex->halfExtents, s);
		for (int i = 0; i < 8; ++i) {
			vec3s local = {{(i & 1) ? -h.x : h.x, (i & 2) ? -h.y : h.y, (i & 4) ? -h.z : h.z}};
			tbLevelSetVertex(lc, i, glms_vec3_add(glms_mat3_mulv(R, local), inLevel.p));
		}
		for (int axis = 0; axis < 3; ++axis) {
			vec3s n = R.col[axis];
			float c = glms_vec3_dot(n, inLevel.p);
			tbPlaneLanes_Set(&lc->faces, 2 * axis, n, c + h.raw[axis]);
			tbPlaneLanes_Set(&lc->faces, 2 * axis + 1, glms_vec3_negate(n), h.raw[axis] - c);
		}
		tbLevelSetCounts(lc, 8, 6);
		return true;
	}
	if (convex->type != tb_hullShape || convex->hull == NULL) {
		return false;
	}
	const tbHull* h = convex->hull;
	if (h->kind != tb_hullSolid || h->vertexCount < 4 || h->vertexCount > TB_LEVEL_FILTER_MAX ||
	    h->faceCount < 4 || h->faceCount > TB_LEVEL_FILTER_MAX) {
		return false;
	}
	for (int i = 0; i < h->vertexCount; ++i) {
		tbLevelSetVertex(
		    lc, i, glms_vec3_add(glms_mat3_mulv(R, glms_vec3_scale(h->vertices[i], s)), inLevel.p));
	}
	for (int i = 0; i < h->faceCount; ++i) {
		vec3s n = glms_mat3_mulv(R, h->faces[i].normal);
		tbPlaneLanes_Set(&lc->faces, i, n, s * h->faces[i].offset + glms_vec3_dot(n, inLevel.p));
	}
	tbLevelSetCounts(lc, h->vertexCount, h->faceCount);
	return true;
}

// Whether one of the convex shape's face planes, pushed out by `gap`, has the whole triangle
// beyond it: n . v > offset + gap at each corner v. Four planes at a time from the lanes where
// there are any, the same products and sums in the same order as glms_vec3_dot.
static bool tbLevelFacesApart(const tbLevelCollide* lc, const vec3s v[3], float gap)
{
	const int run = TB_PLANE_LANES;
	const float* lanes = lc->faces.lanes;
#if defined(__SSE2__)
	__m128 g = _mm_set1_ps(gap);
	__m128 x0 = _mm_set1_ps(v[0].x), y0 = _mm_set1_ps(v[0].y), z0 = _mm_set1_ps(v[0].z);
	__m128 x1 = _mm_set1_ps(v[1].x), y1 = _mm_set1_ps(v[1].y), z1 = _mm_set1_ps(v[1].z);
	__m128 x2 = _mm_set1_ps(v[2].x), y2 = _mm_set1_ps(v[2].y), z2 = _mm_set1_ps(v[2].z);
	for (int i = 0; i < lc->faceCount; i += 4) {
		__m128 nx = _mm_loadu_ps(lanes + i), ny = _mm_loadu_ps(lanes + run + i);
		__m128 nz = _mm_loadu_ps(lanes + 2 * run + i);
		__m128 limit = _mm_add_ps(_mm_loadu_ps(lanes + 3 * run + i), g);
		__m128 d0 =
		    _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, x0), _mm_mul_ps(ny, y0)), _mm_mul_ps(nz, z0));
		__m128 d1 =
		    _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, x1), _mm_mul_ps(ny, y1)), _mm_mul_ps(nz, z1));
		__m128 d2 =
		    _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, x2), _mm_mul_ps(ny, y2)), _mm_mul_ps(nz, z2));
		__m128 beyond = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(d0, limit), _mm_cmpgt_ps(d1, limit)),
		                           _mm_cmpgt_ps(d2, limit));
		if (_mm_movemask_ps(beyond) != 0) {
			return true;
		}
	}
	return false;
#else
	for (int i = 0; i < lc->faceCount; ++i) {
		vec3s n = {{lanes[i], lanes[run + i], lanes[2 * run + i]}};
		float limit = lanes[3 * run + i] + gap;
		if (glms_vec3_dot(n, v[0]) > limit && glms_vec3_dot(n, v[1]) > limit &&
		    glms_vec3_dot(n, v[2]) > limit) {
			return true;
		}
	}
	return false;
#endif
}

// The least and the largest of n . x over the filter's vertices x (*lo, *hi), four at a time
// from the lanes where there are any: the same sums as glms_vec3_dot, and the same extremes
// whatever order they are met in.
static void tbLevelVertexExtent(const tbLevelCollide* lc, vec3s n, float* lo, float* hi)
{
#if defined(__SSE2__)
	const int run = TB_LEVEL_FILTER_MAX;
	const float* lanes = lc->vertexLanes;
	__m128 nx = _mm_set1_ps(n.x), ny = _mm_set1_ps(n.y), nz = _mm_set1_ps(n.z);
	__m128 low = _mm_set1_ps(FLT_MAX), high = _mm_set1_ps(-FLT_MAX);
	for (int i = 0; i < lc->vertexCount; i += 4) {
		__m128 x = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, _mm_loadu_ps(lanes + i)),
		                                 _mm_mul_ps(ny, _mm_loadu_ps(lanes + run + i))),
		                      _mm_mul_ps(nz, _mm_loadu_ps(lanes + 2 * run + i)));
		low = _mm_min_ps(x, low); // x < low ? x : low, lane by lane
		high = _mm_max_ps(x, high);
	}
	float l[4], h[4];
	_mm_storeu_ps(l, low);
	_mm_storeu_ps(h, high);
	float least = l[0], largest = h[0];
	for (int k = 1; k < 4; ++k) {
		least = l[k] < least ? l[k] : least;
		largest = h[k] > largest ? h[k] : largest;
	}
	*lo = least;
	*hi = largest;
#else
	float least = FLT_MAX, largest = -FLT_MAX;
	for (int i = 0; i < lc->vertexCount; ++i) {
		float x = glms_vec3_dot(n, lc->vertices[i]);
		least = x < least ? x : least; // (not fminf: a library call here)
		largest = x > largest ? x : largest;
	}
	*lo = least;
	*hi = largest;
#endif
}

// Whether a separating axis proves the triangle (the level's frame) farther than `gap` from the
// convex shape: one of the shape's face planes with the whole triangle beyond it, or the
// triangle's plane with the whole shape beyond it (on the side it faces, or either side for a
// mesh). Such a triangle can give no point within the speculative distance, so the narrow phase
// is skipped for it. Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013:
// any axis with a positive gap between the projections proves the gap a lower bound of the
// distance; only face axes are tried here, the rest is the narrow phase's. A round shape is its
// core grown by its radius: its core apart by more than the gap plus the radius.
static bool tbLevelTriangleApart(const tbLevelCollide* lc, int triangle, const vec3s v[3],
                                 float gap)
{
	gap += lc->coreRadius;
	if (tbLevelFacesApart(lc, v, gap)) {
		return true;
	}
	// The triangle's unit normal: a mesh keeps it (tbBuildMesh makes it by tbTriangleNormal, these
	// operations on these corners, and refuses a triangle without area).
	vec3s n;
	if (lc->level->type == tb_meshShape) {
		n = lc->level->mesh->normals[triangle];
	} else {
		n = glms_vec3_cross(glms_vec3_sub(v[1], v[0]), glms_vec3_sub(v[2], v[0]));
		float len = glms_vec3_norm(n);
		if (!(len > 0.0f)) {
			return false;
		}
		n = glms_vec3_scale(n, 1.0f / len);
	}
	float d = glms_vec3_dot(n, v[0]);
	float lo, hi;
	tbLevelVertexExtent(lc, n, &lo, &hi);
	if (lo - d > gap || (lc->twoSided && d - hi > gap)) {
		return true;
	}
	if (lc->faceCount > 0) {
		return false;
	}
	// A round shape's core beyond the side plane of an edge (through it, square to the triangle,
	// facing out: s = e x n, counter-clockwise about n, as long as the edge).
	for (int k = 0; k < 3; ++k) {
		vec3s side = glms_vec3_cross(glms_vec3_sub(v[k == 2 ? 0 : k + 1], v[k]), n);
		float limit = glms_vec3_dot(side, v[k]) + gap * glms_vec3_norm(side);
		bool beyond = true;
		for (int i = 0; i < lc->vertexCount && beyond; ++i) {
			beyond = glms_vec3_dot(side, lc->vertices[i]) > limit;
		}
		if (beyond) {
			return true;
		}
	}
	return false;
}

static bool tbLevelTriangleFound(int triangle, void* context)
{
	tbLevelCollide* lc = context;
	vec3s v[3];
	uint32_t flags = 0u;
	if (lc->level->type == tb_meshShape) {
		// A triangle the mesh's tree walk found (a valid index): tbGeometry_GetTriangle's read
		// without its checks.
		tbMeshTriangleCorners(lc->level->mesh, triangle, v);
		flags = lc->level->mesh->edgeFlags[triangle];
	} else if (!tbGeometry_GetTriangle(lc->level, triangle, v, &flags)) {
		lc->distance = -FLT_MAX; // as a failed query
		return true;
	}
	if (lc->filter && tbLevelTriangleApart(lc, triangle, v, lc->speculativeDistance)) {
		return true;
	}
	float d;
	tbSatCache sat = tbLevelLastSat(lc, triangle);
	tbManifold m =
	    tbCollideLevelTriangleWith(lc->a, lc->b, lc->bInA, triangle, v, flags,
	                               lc->speculativeDistance, &d, &lc->features, &sat, &lc->centre);
	if (sat.type != tb_satNone && lc->nextSat.count < TB_LEVEL_SAT_CACHE) {
		lc->nextSat.triangles[lc->nextSat.count] = triangle;
		lc->nextSat.sat[lc->nextSat.count] = sat;
		lc->nextSat.count += 1;
	}
	lc->distance = tbFMin(lc->distance, d);
	if (m.pointCount == 0) {
		return true;
	}
	uint32_t mix = (uint32_t)(triangle + 1) * 0x9e3779b1u;
	if (m.pointCount == 1 && m.points[0].id == TB_LEVEL_SEAM_ID) {
		// Kept apart: solved along another triangle's normal, it would hold the shape to the
		// wrong plane. The closest replace the farthest when there are more.
		int slot = lc->seamCount;
		if (slot == TB_LEVEL_SEAMS) {
			slot = 0;
			for (int k = 1; k < TB_LEVEL_SEAMS; ++k) {
				slot = lc->seams[k].separation > lc->seams[slot].separation ? k : slot;
			}
			if (lc->seams[slot].separation <= m.points[0].separation) {
				return true;
			}
		} else {
			lc->seamCount += 1;
		}
		lc->seams[slot] = m.points[0];
		lc->seams[slot].id ^= mix;
		lc->seamNormals[slot] = m.normal;
		return true;
	}
	// The group whose normal is closest; a new one when none is within TB_LEVEL_GROUP_COS and
	// there is room, else the closest takes it (its points are then measured along their own
	// triangle's normal, the best the one manifold can hold).
	int g = -1;
	float bestDot = -2.0f;
	for (int k = 0; k < lc->groupCount; ++k) {
		float dot = glms_vec3_dot(lc->groups[k].normal, m.normal);
		if (dot > bestDot) {
			bestDot = dot;
			g = k;
		}
	}
	if ((g < 0 || bestDot < TB_LEVEL_GROUP_COS) && lc->groupCount < lc->capacity) {
		g = lc->groupCount++;
		lc->groups[g].normal = m.normal;
		lc->groups[g].deepest = FLT_MAX;
		lc->groups[g].count = 0;
	}
	tbLevelGroup* group = lc->groups + g;
	for (int i = 0; i < m.pointCount; ++i) {
		if (group->count == TB_LEVEL_GATHER) {
			group->count = tbReduceManifoldPoints(group->points, group->count, group->normal);
		}
		tbManifoldPoint p = m.points[i];
		p.id ^= mix;
		group->points[group->count++] = p;
		if (p.separation < group->deepest) {
			group->deepest = p.separation;
			group->normal = m.normal;
		}
	}
	return true;
}

// The concave seams' points join a group of the same normal (within TB_LEVEL_FACE_COS), or make
// groups of their own, the closest first, while there is room; the rest are dropped.
static void tbLevelAddSeams(tbLevelCollide* lc)
{
	bool used[TB_LEVEL_SEAMS] = {false};
	for (int pass = 0; pass < TB_LEVEL_SEAMS; ++pass) {
		int s = -1;
		for (int k = 0; k < lc->seamCount; ++k) {
			if (!used[k] && (s < 0 || lc->seams[k].separation < lc->seams[s].separation)) {
				s = k;
			}
		}
		if (s < 0) {
			return;
		}
		used[s] = true;
		vec3s n = lc->seamNormals[s];
		int g = -1;
		for (int k = 0; k < lc->groupCount && g < 0; ++k) {
			g = glms_vec3_dot(lc->groups[k].normal, n) >= TB_LEVEL_FACE_COS ? k : -1;
		}
		if (g < 0) {
			if (lc->groupCount == lc->capacity) {
				continue;
			}
			g = lc->groupCount++;
			lc->groups[g].normal = n;
			lc->groups[g].deepest = FLT_MAX;
			lc->groups[g].count = 0;
		}
		tbLevelGroup* group = lc->groups + g;
		if (group->count == TB_LEVEL_GATHER) {
			group->count = tbReduceManifoldPoints(group->points, group->count, group->normal);
		}
		group->points[group->count++] = lc->seams[s];
		if (lc->seams[s].separation < group->deepest) {
			group->deepest = lc->seams[s].separation;
		}
	}
}

int tbCollideLevel(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                   float speculativeDistance, tbManifold* manifolds, int capacity, float* distance)
{
	return tbCollideLevelCached(a, b, bInA, speculativeDistance, manifolds, capacity, distance,
	                            NULL);
}

int tbCollideLevelCached(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                         float speculativeDistance, tbManifold* manifolds, int capacity,
                         float* distance, tbLevelSatCache* cache)
{
	bool levelIsA = tbGeometry_IsLevel(a);
	const tbGeometry* level = levelIsA ? a : b;
	const tbGeometry* convex = levelIsA ? b : a;
	if (distance != NULL) {
		*distance = -FLT_MAX;
	}
	if (manifolds == NULL || capacity < 1 || !tbGeometry_IsLevel(level) ||
	    tbGeometry_IsLevel(convex) || !(speculativeDistance >= 0.0f) ||
	    !tbGeometry_IsUsable(convex)) {
		return 0;
	}
	// Only the counts and what the walk reads before writing are set: the arrays behind them
	// (groups, seams, the filter's planes, this call's axes) are several kilobytes, filled as
	// they are used.
	tbLevelCollide lc;
	lc.groupCount = 0;
	lc.seamCount = 0;
	lc.satCursor = 0;
	lc.nextSat.count = 0;
	lc.vertexCount = 0;
	lc.faceCount = 0;
	lc.faces.count = 0;
	lc.coreRadius = 0.0f;
	lc.a = a;
	lc.b = b;
	lc.bInA = bInA;
	lc.speculativeDistance = speculativeDistance;
	lc.distance = speculativeDistance;
	lc.capacity = capacity < TB_MAX_LEVEL_MANIFOLDS ? capacity : TB_MAX_LEVEL_MANIFOLDS;
	lc.lastSat = cache;
	// The convex shape's box in the level's frame, grown by the speculative distance: a triangle
	// whose box misses it is farther than that.
	tbTransform convexInLevel = levelIsA ? bInA : tbInvMulTransforms(bInA, tbTransformIdentity());
	lc.level = level;
	lc.twoSided = level->type == tb_meshShape;
	lc.centre = tbLevelConvexCentre(a, b, bInA, levelIsA);
	lc.filter = tbLevelFilterSetup(&lc, convex, convexInLevel);
	tbLevelFeatures_Init(&lc.features, convex);
	tbAABB box = tbGeometry_ComputeAABB(convex, convexInLevel);
	vec3s grow = {{speculativeDistance, speculativeDistance, speculativeDistance}};
	box.lower = glms_vec3_sub(box.lower, grow);
	box.upper = glms_vec3_add(box.upper, grow);
	// The filter's face planes pushed out by the speculative distance prune the tree's walk: a
	// leaf beyond one of them holds only triangles the filter would skip (none without a filter,
	// or for a round shape: faceCount 0).
	tbQueryTrianglesWithin(level, box, &lc.faces, speculativeDistance, tbLevelTriangleFound, &lc);
	tbLevelAddSeams(&lc);
	for (int g = 0; g < lc.groupCount; ++g) {
		tbLevelGroup* group = lc.groups + g;
		tbManifold* m = manifolds + g;
		memset(m, 0, sizeof *m);
		m->normal = group->normal;
		m->pointCount = tbReduceManifoldPoints(group->points, group->count, group->normal);
		memcpy(m->points, group->points, (size_t)m->pointCount * sizeof(tbManifoldPoint));
	}
	if (distance != NULL) {
		*distance = lc.distance;
	}
	if (cache != NULL) {
		// The entries past the count cleared: a saved world's bytes depend on nothing left over.
		int n = lc.nextSat.count;
		memset(cache, 0, sizeof *cache);
		cache->count = n;
		memcpy(cache->triangles, lc.nextSat.triangles, (size_t)n * sizeof cache->triangles[0]);
		memcpy(cache->sat, lc.nextSat.sat, (size_t)n * sizeof cache->sat[0]);
	}
	return lc.groupCount;
}

tbCastOutput tbRayCastLevel(const tbGeometry* shape, tbTransform xf, vec3s origin,
                            vec3s translation, float maxFraction)
{
	tbCastOutput out;
	memset(&out, 0, sizeof out);
	float q2 = glms_quat_dot(xf.q, xf.q);
	if (!tbLevelCheck(shape, NULL, 0) || !isfinite(xf.p.x + xf.p.y + xf.p.z) ||
	    !(fabsf(q2 - 1.0f) < 1e-3f)) {
		return out;
	}
	if (fabsf(q2 - 1.0f) > 1e-6f) {
		xf.q = glms_quat_normalize(xf.q);
	}
	vec3s o = tbInvTransformPointInline(xf, origin);
	vec3s d = tbInvRotateInline(xf.q, translation);
	out = tbRayCastLevelLocal(shape, o, d, maxFraction);
	if (out.hit) {
		out.point = glms_vec3_add(origin, glms_vec3_scale(translation, out.fraction));
		out.normal = tbRotateInline(xf.q, out.normal);
	}
	return out;
}
