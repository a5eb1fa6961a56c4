// Internal: the separating-axis test between two convex polytopes (sat.c).
#pragma once

#include <float.h>
#include <math.h>

#include "tumble/manifold.h"
#include "tumble/query.h"

/// The axis the test chose, in A's frame.
typedef struct tbSatAxis
{
	tbSatFeatureType type;
	int indexA, indexB; ///< face ids (faces) or edge ids (edges); -1 where unused
	float separation;   ///< along the axis, m: negative when penetrating
	vec3s normal;       ///< unit, from A towards B
} tbSatAxis;

/// The result of a full or cached test.
typedef struct tbSatResult
{
	tbSatAxis chosen;    ///< the feature the manifold is built from
	float maxSeparation; ///< the largest separation over every tested axis (see
	                     ///< tbCollideShapesCached)
	vec3s maxNormal;     ///< the axis of maxSeparation (from A towards B)
	bool exitedEarly;    ///< an axis separated by more than the margin: not every axis was tested
	bool usedCache;      ///< the cached feature was kept (early exit or preference)
	float size;          ///< the smaller shape's bounding radius when every axis was tested, else 0
} tbSatResult;

/// Hull bounds of the test (tbSat_IsPolytope): its work arrays are sized by them.
#define TB_SAT_MAX_HULL_VERTICES 64
#define TB_SAT_MAX_HULL_FACES 64

/// The unit cube [-1, 1]^3 as a hull: a box is this hull scaled by its half extents.
const tbHull* tbSat_UnitCube(void);
/// A box, or a solid hull within the test's bounds, with a positive finite scale and finite
/// numbers: a polytope the test can answer.
bool tbSat_IsPolytope(const tbGeometry* s);
/// The separating-axis test of a triangle against a polytope (sat_triangle.c), either one A: the
/// largest separation over the triangle's two faces, the polytope's faces and the edge pairs that
/// make faces of the Minkowski difference, as a query result: distance is that separation (a lower
/// bound on the distance when apart, minus the depth when overlapping); normal (from A towards B)
/// and witness points are those of the axis chosen with the faces preferred (tbSat_Find's rule),
/// so pointB - pointA along the normal is within that rule's tolerance of distance. Stops at an
/// axis separating by more than `margin`. False
/// when the pair is not a triangle and a polytope, or its numbers are not finite or the triangle
/// has no area: the caller then takes the GJK/EPA query, which reports bad input. `cache` (may be
/// null) is the triangle's own from the last step (a level pair keeps one per triangle:
/// tbCollideLevelCached): its axis is tested first and, while its separation has barely moved,
/// answers for the whole test; the chosen axis is written back.
bool tbSat_TriangleQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, float margin,
                         tbSatCache* cache, tbQueryResult* out);

/// True when the pair takes the test: both shapes usable polytopes (boxes and solid hulls, any
/// scale), two boxes or a pair whose hull is small enough that the test costs less than GJK/EPA
/// (sat.c, TB_SAT_MAX_WORK), and a finite pose with a unit quaternion. Anything else goes to the
/// GJK/EPA path, which also reports bad input.
bool tbSat_Applies(const tbGeometry* a, const tbGeometry* b, tbTransform bInA);

/// The pose part of tbSat_Applies: a finite position and a unit quaternion (|q|^2 within 1e-3 of
/// 1 is false for NaN and Inf).
static inline bool tbSat_PoseOk(tbTransform bInA)
{
	versors q = bInA.q;
	float q2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
	return (fabsf(bInA.p.x) <= FLT_MAX) & (fabsf(bInA.p.y) <= FLT_MAX) &
	       (fabsf(bInA.p.z) <= FLT_MAX) & (fabsf(q2 - 1.0f) < 1e-3f);
}

/// Both shapes are polytopes the test can answer, whatever their size (tests call tbSat_Find and
/// tbSat_Collide directly on pairs the dispatch sends to GJK/EPA).
bool tbSat_IsPolytopePair(const tbGeometry* a, const tbGeometry* b);

/// Find the separating axis of A and B (B at bInA). Pairs apart by more than `margin` along some
/// axis may stop early. `cache` may be null; when given it is read first and updated.
tbSatResult tbSat_Find(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, float margin,
                       tbSatCache* cache);

/// The cached feature's axis at this pose, by the box-box formulas or (`general`, or not two
/// boxes) by the hull layout: for tests. False when the cache names no feature of these shapes;
/// *eligible: the feature may stay the contact's (faces always; edges while they support).
bool tbSat_EvaluateCache(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                         const tbSatCache* cache, bool general, tbSatAxis* axis, bool* eligible);

/// The same test without the box-box shortcut and without Gauss-map pruning: every face normal and
/// every non-parallel edge pair's cross product (both signs), separations by support functions,
/// for tests. Axes whose dot with `exclude` is `excludeCos` or more are skipped (pass a cosine
/// above 1 to keep all): the best axis outside a cone tells whether the best one is unique.
float tbSat_BruteForceSeparation(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 vec3s exclude, float excludeCos);

/// SAT manifold of a polytope pair in A's frame. Returns false when the test cannot answer (a face
/// contact whose clipped face keeps no point although the axis is within the margin: the caller
/// then takes the GJK/EPA path); *distance (may be null) gets maxSeparation.
bool tbSat_Collide(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                   float speculativeDistance, float* distance, tbSatCache* cache, tbManifold* m);
