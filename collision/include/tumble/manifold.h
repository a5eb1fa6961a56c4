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

#include "tumble/shape.h"
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
TB_API tbManifold tbCollideShapes(const tbShape* a, tbTransform xfA, const tbShape* b,
                                  tbTransform xfB, float speculativeDistance);

/// tbCollideShapes in A's frame: B is placed at bInA (B's frame in A's, tbInvMulTransforms(xfA,
/// xfB)), and the manifold's normal and points are in A's frame. `distance` (may be null) gets the
/// query's signed distance (negative: depth), m, even when the pair is beyond the speculative
/// distance; -FLT_MAX when the query failed. The world's contact cache uses both to skip pairs
/// whose relative pose has barely moved since.
TB_API tbManifold tbCollideShapesLocal(const tbShape* a, const tbShape* b, tbTransform bInA,
                                       float speculativeDistance, float* distance);
