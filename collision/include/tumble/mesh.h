// Level geometry: static triangle meshes (a bounding-volume tree over the triangles) and
// heightfields, with per-edge "active" flags for internal-edge handling (docs/meshes.md).
#pragma once

#include "tumble/base.h"
#include "tumble/geometry.h"
#include "tumble/manifold.h"
#include "tumble/raycast.h"

/// The most triangles (and vertices) of one mesh, and the most samples of one heightfield.
#define TB_MAX_MESH_TRIANGLES (1 << 24)

/// Two triangles sharing an edge whose normals are closer than this cosine (about 5 degrees) meet
/// at an inactive edge: a convex shape crossing it sees only face normals (Jolt's active-edge
/// cosine threshold, docs/meshes.md).
#define TB_ACTIVE_EDGE_COS 0.9962f

/// Bit i of a triangle's edge flags: the edge from its corner i to corner (i + 1) % 3 is active
/// (convex enough with its neighbour, or on the boundary). Contacts on inactive edges and on
/// vertices whose edges are all inactive take the triangle's face normal.
#define TB_EDGE_ACTIVE(i) (1u << (i))

/// A node of a mesh's bounding-volume tree: an inner node has two children at `child` and
/// `child + 1`; a leaf (`count` > 0) holds the triangles order[child .. child + count).
typedef struct tbMeshNode
{
	tbAABB box;
	int child;
	int count;
} tbMeshNode;

/// tbMesh.folds: a neighbour of the triangle folds away below its plane seen from its front side.
#define TB_FOLD_FRONT 1u
/// tbMesh.folds: the same seen from its back side (a neighbour's corner above its plane).
#define TB_FOLD_BACK 2u

/// A static triangle mesh, built by tbBuildMesh and owned by the caller (release it with
/// tbDestroyMesh). Triangles keep the caller's order and indices.
typedef struct tbMesh
{
	vec3s* vertices; ///< local frame, m
	int vertexCount;
	int* indices; ///< three per triangle, counter-clockwise seen from the front
	int triangleCount;
	vec3s* normals;     ///< unit front normal per triangle
	uint8_t* edgeFlags; ///< per triangle, TB_EDGE_ACTIVE bits
	/// per triangle: TB_FOLD_FRONT when a corner of a neighbour lies below its plane (a convex
	/// fold seen from the front), TB_FOLD_BACK when one lies above it
	uint8_t* folds;
	float* sizes;      ///< per triangle: its farthest corner from its centroid, or from the origin
	                   ///< when that is less than half of it (tbGeometry_Size of the triangle), m
	int* neighbours;   ///< three per triangle: the triangle across each edge, or -1
	tbMeshNode* nodes; ///< the tree; nodes[0] is the root
	int nodeCount;
	int* order;    ///< triangle indices in leaf order
	int depth;     ///< levels of the tree (a query's stack bound)
	tbAABB bounds; ///< of all vertices, local frame
	float radius;  ///< largest vertex distance from the origin, m
} tbMesh;

/// Build a mesh from `vertexCount` vertices and `triangleCount` triangles (three vertex indices
/// each). Refused, with a message naming the vertex or triangle (when `message` is not null):
/// no triangles, NaN or Inf coordinates, a vertex beyond TB_MAX_LENGTH of the origin, an index out
/// of range, a triangle that repeats a vertex or has zero area (its height over its longest edge
/// under 1e-5 of that edge or under TB_MIN_LENGTH), an edge longer than TB_MAX_LENGTH, more than
/// TB_MAX_MESH_TRIANGLES. On failure *mesh is zeroed.
TB_API bool tbBuildMesh(const vec3s* vertices, int vertexCount, const int* indices,
                        int triangleCount, tbMesh* mesh, char* message, int messageSize);

/// Free what tbBuildMesh allocated and zero the mesh. Safe on a zeroed mesh.
TB_API void tbDestroyMesh(tbMesh* mesh);

/// A heightfield: the surface y = height over a grid of `rows` x `columns` samples centred on the
/// local origin, sample (r, c) at x = (c - (columns - 1) / 2) dx, z = (r - (rows - 1) / 2) dz. Each
/// cell is two triangles split along its diagonal from (r, c) to (r + 1, c + 1). It is solid below
/// the surface: its triangles are one-sided, facing up. Built by tbBuildHeightfield, owned by the
/// caller (release with tbDestroyHeightfield).
typedef struct tbHeightfield
{
	float* heights; ///< rows x columns, row by row, m
	int rows, columns;
	float dx, dz; ///< sample spacing along x and z, m
	uint8_t*
	    edgeFlags; ///< per triangle (2 per cell, cell r * (columns - 1) + c), TB_EDGE_ACTIVE bits
	tbAABB bounds; ///< local frame
	float radius;  ///< largest sample distance from the origin, m
} tbHeightfield;

/// Build a heightfield from rows x columns heights given row by row. Refused, with a message:
/// rows or columns under 2, rows x columns over TB_MAX_MESH_TRIANGLES, spacing not in
/// [TB_MIN_LENGTH, TB_MAX_LENGTH], a grid wider than 2 TB_MAX_LENGTH, a NaN or Inf height or one
/// beyond TB_MAX_LENGTH (the message names its index, row and column). On failure *field is
/// zeroed.
TB_API bool tbBuildHeightfield(const float* heights, int rows, int columns, float dx, float dz,
                               tbHeightfield* field, char* message, int messageSize);

/// Free what tbBuildHeightfield allocated and zero it. Safe on a zeroed heightfield.
TB_API void tbDestroyHeightfield(tbHeightfield* field);

/// A shape of a built mesh (which must outlive it). Meshes go on static bodies only.
TB_API tbGeometry tbMakeMeshShape(const tbMesh* mesh);

/// A shape of a built heightfield (which must outlive it). Static bodies only.
TB_API tbGeometry tbMakeHeightfieldShape(const tbHeightfield* field);

/// True for a mesh or heightfield shape: level geometry, made of triangles, not convex.
TB_API bool tbGeometry_IsLevel(const tbGeometry* shape);

/// Number of triangles of a mesh or heightfield (0 for other shapes).
TB_API int tbGeometry_GetTriangleCount(const tbGeometry* shape);

/// Triangle `index` of a mesh or heightfield: its corners (local frame, counter-clockwise seen
/// from the front) and its TB_EDGE_ACTIVE flags (may be null). False for a bad index or shape.
TB_API bool tbGeometry_GetTriangle(const tbGeometry* shape, int index, vec3s corners[3],
                                   uint32_t* edgeFlags);

/// Called for each triangle a box query finds; return false to stop.
typedef bool tbTriangleQueryFcn(int triangle, void* context);

/// Every triangle of a mesh or heightfield whose bounding box overlaps `box` (local frame), found
/// through the mesh's tree or the heightfield's grid. Returns how many were reported.
TB_API int tbGeometry_QueryTriangles(const tbGeometry* shape, tbAABB box, tbTriangleQueryFcn* fcn,
                                     void* context);

/// The closest hit of the segment origin + t translation, t in [0, maxFraction], on a mesh or
/// heightfield in its local frame (both sides of a mesh triangle; a heightfield from either side).
/// The normal faces the ray.
TB_API tbCastOutput tbRayCastLevelLocal(const tbGeometry* shape, vec3s origin, vec3s translation,
                                        float maxFraction);

/// The manifold of a convex shape against triangle `triangle` of a mesh or heightfield, one of the
/// two shapes (A or B: B placed at bInA, everything in A's frame as tbCollideShapesCached), with
/// internal-edge correction: when the normal is not the triangle's face normal and the contact is
/// on an inactive edge, an inactive vertex or inside the face, the manifold is made again with the
/// face normal (the convex shape's feature clipped against the triangle), so a shape sliding over
/// the seams of a flat floor sees only the floor's normal (docs/meshes.md). When nothing of the
/// shape lies over the triangle but its lowest point along the face normal lies beyond an edge to a
/// neighbour rising above the triangle's plane (a concave seam), within the speculative distance
/// above that plane, that point is kept as one speculative point on the plane. `distance` as
/// tbCollideShapesLocal.
TB_API tbManifold tbCollideLevelTriangle(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                         int triangle, float speculativeDistance, float* distance);

/// The most manifolds tbCollideLevel makes for one convex shape against level geometry.
#define TB_MAX_LEVEL_MANIFOLDS 4

/// The manifolds of a convex shape against a whole mesh or heightfield, one of the two shapes (A
/// or B as in tbCollideLevelTriangle, everything in A's frame): every triangle whose box comes
/// within speculativeDistance of the convex shape's box is collided with internal-edge correction,
/// and their points are grouped by normal (those within TB_LEVEL_GROUP_COS of a group's share it)
/// into at most `capacity` manifolds (no more than TB_MAX_LEVEL_MANIFOLDS), each reduced to at
/// most TB_MAX_MANIFOLD_POINTS points: the deepest, then those spanning the largest area. A group
/// takes the normal of its deepest point's triangle; a point's id mixes its triangle into its
/// feature id. A concave seam's speculative point joins only a group of its own triangle's normal
/// (within about 0.5 degrees) or makes one while there is room, the closest first. Returns the
/// number of manifolds; `distance` (may be null) gets a lower bound of the shapes' distance
/// (speculativeDistance when no triangle is near; -FLT_MAX when a query failed). The cost grows
/// with the triangles near the convex shape, never with the mesh; nothing is allocated.
TB_API int tbCollideLevel(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                          float speculativeDistance, tbManifold* manifolds, int capacity,
                          float* distance);

/// The most triangles a level pair's separating-axis cache remembers (tbLevelSatCache).
#define TB_LEVEL_SAT_CACHE 16

/// What a convex polytope (box, solid hull) against a mesh or heightfield keeps from one step to
/// the next (tbCollideLevelCached): the separating axis of each triangle the last call tested, in
/// the order it met them. Kept by the caller, one per pair, zero-initialised; reset it to zero if
/// either shape changes.
typedef struct tbLevelSatCache
{
	int count;                          ///< entries in use
	int triangles[TB_LEVEL_SAT_CACHE];  ///< each entry's triangle
	tbSatCache sat[TB_LEVEL_SAT_CACHE]; ///< its axis (tbSatCache; the triangle's faces are 0, 1)
} tbLevelSatCache;

/// tbCollideLevel with a per-pair cache of the triangles' separating axes (may be null). A
/// triangle whose cached axis still separates it by more than the speculative distance, or whose
/// cached axis has moved by less than 1 % of the smaller shape's size since the full test chose it,
/// takes that axis without the full separating-axis test (Box3D's triangle cache); the others take
/// the full test, and the cache is rewritten with the triangles of this call.
TB_API int tbCollideLevelCached(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                float speculativeDistance, tbManifold* manifolds, int capacity,
                                float* distance, tbLevelSatCache* cache);

/// The points of `points` (count of them, sharing `normal`) reduced in place to at most
/// TB_MAX_MANIFOLD_POINTS: the deepest point, the one farthest from it across the normal, the one
/// making the largest triangle with those two, and the one adding the most area outside that
/// triangle. Returns how many are kept.
TB_API int tbReduceManifoldPoints(tbManifoldPoint* points, int count, vec3s normal);
