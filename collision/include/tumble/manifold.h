// Contact manifolds: what collision/ hands to dynamics/ for one touching shape pair.
#pragma once

#include "tumble/base.h"

/// The most points of one manifold: four hold a face in contact.
#define TB_MAX_MANIFOLD_POINTS 4

/// One contact point. Positions are in world space.
typedef struct tbManifoldPoint
{
	vec3s pointA;     ///< on the surface of shape A, metres
	vec3s pointB;     ///< on the surface of shape B, metres
	float separation; ///< dot(pointB - pointA, normal): negative when penetrating, metres
	uint32_t id;      ///< feature id (which features of A and B made the point), for warm starting
} tbManifoldPoint;

/// Up to four contact points sharing one normal.
typedef struct tbManifold
{
	vec3s normal; ///< unit, world, from A towards B
	tbManifoldPoint points[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
} tbManifold;

#include "tumble/geometry.h"
#include "tumble/transform.h"

/// Feature id of the single point made from the narrow-phase query (curved shapes, edge-edge).
#define TB_QUERY_POINT_ID 0x7fffffffu

/// The contact manifold of two convex shapes placed in the world (docs/narrowphase.md, Manifolds):
/// the normal from GJK (apart) or EPA (overlapping); where a face of one shape is within 5 degrees
/// of it, the other shape's supporting feature (face, cylinder cap, capsule or cylinder-side
/// segment, point) is clipped against that reference face (Sutherland-Hodgman) and reduced to at
/// most 4 points, each with a feature id that stays the same while the same features touch.
/// Otherwise one point from the query. Points farther apart than `speculativeDistance` (m) are
/// dropped; a pair farther apart than that gets no points. The normal points from A to B.
/// Box pairs (and boxes or small hulls against small hulls) take the separating-axis test
/// instead: see tbCollideShapesCached.
TB_API tbManifold tbCollideShapes(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                  tbTransform xfB, float speculativeDistance);

/// tbCollideShapes in A's frame: B is placed at bInA (B's frame in A's, tbInvMulTransforms(xfA,
/// xfB)), and the manifold's normal and points are in A's frame. `distance` (may be null) gets the
/// query's signed distance (negative: depth), m, even when the pair is beyond the speculative
/// distance; -FLT_MAX when the query failed (for a pair the separating-axis test answers, its
/// largest separation: see tbCollideShapesCached). The world's contact cache uses both to skip
/// pairs whose relative pose has barely moved since. Same as tbCollideShapesCached without a cache.
TB_API tbManifold tbCollideShapesLocal(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                       float speculativeDistance, float* distance);

/// Which feature pair gave the separating axis of two polytopes (boxes, solid hulls) in the
/// separating-axis test (SAT) of tbCollideShapesCached.
typedef enum tbSatFeatureType
{
	tb_satNone = 0, ///< nothing cached (a zeroed tbSatCache)
	tb_satFaceA,    ///< a face of A: indexA is its face id
	tb_satFaceB,    ///< a face of B: indexB is its face id
	tb_satEdges,    ///< an edge of A and an edge of B: indexA and indexB are their edge ids
	/// Not an axis: the pair takes GJK (round shapes, larger hulls), and the cache holds the
	/// vertex ids of the simplex it ended with, so that the next query starts from them (Box2D's
	/// simplex cache). indexA and indexB hold A's and B's ids, three of 10 bits each, and bits 30
	/// and 31 of indexA the simplex's size (1 to 3).
	tb_satSimplex,
} tbSatFeatureType;

/// What the narrow phase keeps of a pair from one step to the next, kept by the caller (one per
/// contact, zero-initialised; reset it to zero if either shape of the pair changes). For a
/// polytope pair the separating-axis test answers, its separating feature: tested first, a pair
/// still apart along it by more than the speculative distance exits without the full test, and it
/// stays the contact's feature while no other axis is clearly better, so the reference face and
/// the feature ids do not flip-flop between nearly equal axes. For a pair GJK answers, the vertex
/// ids of its last simplex (tb_satSimplex), where the next query starts.
typedef struct tbSatCache
{
	tbSatFeatureType type;
	int indexA;       ///< face or edge id of A (face ids of a box: 2 * axis + (negative side))
	int indexB;       ///< face or edge id of B
	float separation; ///< separation along the feature's axis when last computed, m
} tbSatCache;

/// tbCollideShapesLocal with a per-contact SAT cache (may be null). Two boxes (any scale), and a
/// box or solid hull against a solid hull small enough that the test is cheaper than GJK/EPA
/// (about 5 vertices against a box), are answered by the separating-axis test over the face
/// normals of both and the edge-edge axes that are faces of the Minkowski difference (Gauss-map
/// pruning), with the manifold clipped from the chosen faces or, for an edge axis, one point at
/// the edges' closest points. All other pairs (round shapes, triangles, flat or degenerate hulls,
/// larger hulls, mixed pairs) take the GJK/EPA path, where the cache keeps GJK's last simplex
/// (tb_satSimplex) and the next query starts from it. For a pair the
/// test answers, `distance` receives the largest separation over the tested axes: minus the exact
/// penetration depth when overlapping, a lower bound on the distance when apart (the engine's
/// skip of pairs apart by more than their drift stays valid).
TB_API tbManifold tbCollideShapesCached(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                        float speculativeDistance, float* distance,
                                        tbSatCache* cache);
