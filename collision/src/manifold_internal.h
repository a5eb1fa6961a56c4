// Internal manifold helpers shared by the GJK/EPA path (manifold.c) and the separating-axis test
// (sat.c): supporting features and the reference/incident face clipping with its feature ids.
#pragma once

#include "geometry_internal.h"
#include "tumble/manifold.h"
#include "tumble/query.h"

// Caps of the clipping buffers: a hull face with more vertices is used by its first ones.
#define TB_MAX_FEATURE_POINTS 32

/// The supporting feature of a shape along a direction, in some frame.
typedef struct tbFeature
{
	vec3s v[TB_MAX_FEATURE_POINTS]; ///< core points: polygon (counter-clockwise about normal),
	                                ///< segment, or one point
	int count;
	vec3s normal; ///< outward unit normal of a polygon (meaningful when count >= 3)
	float radius; ///< ball swept over the core (spheres, capsules), m
	uint32_t id;  ///< face id within the shape (7 bits are used)
	bool isFace;  ///< a flat face that may serve as the reference
} tbFeature;

/// The supporting feature of shape s along local direction d (unit).
void tbGetFeature(const tbGeometry* s, vec3s d, tbFeature* f);
/// The index of the hull's face whose normal lies farthest along d (the hull's unscaled frame);
/// the first of equals.
int tbHullBestFace(const tbHull* hull, vec3s d);

/// The feature of B, found along a direction in A's frame, mapped into A's frame.
void tbFeatureInA(const tbGeometry* b, tbTransform bInA, vec3s dInA, tbFeature* f);

/// The manifold of a face contact in A's frame: the other shape's feature most anti-parallel to
/// the reference face `ref` (of B when `flip`, then given in A's frame) is clipped against the
/// reference face's side planes, points beyond `speculativeDistance` are dropped and the rest
/// reduced to four with stable feature ids. Returns the number of points written into *m (0: no
/// incident point lies over the reference face).
int tbClipFaceManifold(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                       const tbFeature* ref, bool flip, float speculativeDistance, tbManifold* m);

/// Where the manifold builder may take a shape's facing feature from instead of making it
/// (tbGetFeature for A, tbFeatureInA for B): `fetch` returns the feature of A (`onA`) or of B
/// along d (A's frame), in A's frame, or null to have it made. It must be what the maker would
/// make, and stay valid while the builder holds it: until the next fetch of the other shape's
/// (the level code keeps a convex shape's faces there, made once for all the triangles it meets,
/// and a mesh triangle's two sides from the corners it already has, mesh_collide.c). `sizeA` and
/// `sizeB` are tbGeometry_Size of A and B where the source knows them, zero (as an initializer
/// that leaves them out sets them) or negative where not.
typedef struct tbFeatureSource
{
	const tbFeature* (*fetch)(void* context, bool onA, tbTransform bInA, vec3s d);
	void* context;
	float sizeA, sizeB;
} tbFeatureSource;

/// tbClipFaceManifold with the incident feature from `source` where it has it (may be null).
int tbClipFaceManifoldFrom(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                           const tbFeature* ref, bool flip, float speculativeDistance,
                           const tbFeatureSource* source, tbManifold* m);

/// The clipping of tbClipFaceManifold with both features given in A's frame (`inc` of A when
/// `flip`, else of B); `size` is the smaller shape's bounding radius (it scales the side planes'
/// tolerance). Sets the normal and points of *m, which the caller hands zeroed (points beyond the
/// count stay as they are); returns the number of points written (0: *m's normal is untouched).
int tbClipFeatures(const tbFeature* ref, const tbFeature* inc, bool flip, float size,
                   float speculativeDistance, tbManifold* m);

/// The GJK/EPA path of tbCollideShapesLocal for any pair: the query's normal, the features facing
/// it, clipping against a face within 5 degrees of it or else the query's one point. Polytope
/// pairs normally take the separating-axis test instead (sat.c); benchmarks compare the two.
tbManifold tbCollideShapesByQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                  float speculativeDistance, float* distance);

/// The query the manifold builder runs on a pair: a triangle against a polytope by separating
/// axes (tbSat_TriangleQuery), against a sphere or capsule in closed form (tbRoundTriangleQuery),
/// two spheres or capsules in closed form (tbRoundPairQuery), any other pair by GJK/EPA
/// (tbQueryShapesWarm: `checked` and `cache` as there). The first uses `speculativeDistance` to
/// stop early on a pair apart by more.
tbQueryResult tbContactQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                             float speculativeDistance, bool checked, tbSatCache* cache);

/// tbCollideShapesCached for shapes the caller has checked already (tbQueryShapesChecked): the
/// same answer without the shapes' checks. `cache` may be null.
tbManifold tbCollideCheckedShapes(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                  float speculativeDistance, float* distance, tbSatCache* cache);

/// tbCollideCheckedShapes with the facing features from `source` where it has them (may be null).
tbManifold tbCollideCheckedShapesFrom(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                      float speculativeDistance, float* distance, tbSatCache* cache,
                                      const tbFeatureSource* source);
