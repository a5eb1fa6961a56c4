// Convex hulls of point sets (quickhull): vertices, faces and edges, degenerate sets included.
#pragma once

#include "tumble/base.h"

/// The dimension of a hull: a solid polytope, or a degenerate set that must still collide.
typedef enum tbHullKind
{
	tb_hullPoint = 0,   ///< all input points coincide (within tolerance)
	tb_hullSegment = 1, ///< all points on one line
	tb_hullPolygon = 2, ///< all points in one plane: a flat convex polygon of zero thickness
	tb_hullSolid = 3,   ///< a proper 3D polytope
} tbHullKind;

/// A face: a convex polygon whose vertex ids run counter-clockwise seen from outside.
typedef struct tbHullFace
{
	vec3s normal;   ///< outward unit normal
	float offset;   ///< plane offset: dot(normal, x) = offset on the face, metres
	int firstIndex; ///< first entry of this face in tbHull.faceIndices
	int indexCount; ///< number of vertices of this face
} tbHullFace;

/// An undirected edge between two hull vertices and the two faces it separates.
typedef struct tbHullEdge
{
	int v0, v1;       ///< vertex ids
	int face0, face1; ///< adjacent face ids (a polygon's edges border its front and back faces)
} tbHullEdge;

/// A convex hull owned by the caller; release it with tbDestroyHull.
/// A flat polygon has two faces (front and back) so that V - E + F = 2 holds for it too;
/// a segment has one edge and no face; a point has one vertex.
typedef struct tbHull
{
	tbHullKind kind;
	vec3s* vertices; ///< hull vertices only (interior and duplicate input points are dropped)
	int vertexCount;
	tbHullFace* faces;
	int faceCount;
	int* faceIndices; ///< vertex ids of all faces, face after face
	int faceIndexCount;
	tbHullEdge* edges;
	int edgeCount;
	vec3s centroid; ///< centroid of the vertices (an interior point for solid hulls)
	float radius;   ///< max |vertex|: bounding radius about the local origin, metres
	/// max |vertex - centroid|: the hull's size wherever its origin lies, metres (0 in a hull made
	/// by hand: its radius stands in, tbGeometry_Size)
	float extent;
	/// The vertices again by coordinate, four at a time for the support function: all x, then
	/// all y, then all z, each run padded to a multiple of 4 with vertex 0 (tbBuildHull makes it;
	/// null in a hull made by hand, which is then searched one vertex at a time).
	float* lanes;
	/// The face normals by coordinate in the same way (null for a hull without faces or made by
	/// hand): the search for the face best along a direction.
	float* faceLanes;
} tbHull;

/// What went wrong when building a hull.
typedef enum tbHullError
{
	tb_hullOk = 0,
	tb_hullEmpty,         ///< no points
	tb_hullNonFinite,     ///< a NaN or Inf coordinate
	tb_hullOutOfMemory,   ///< allocation failed
	tb_hullTooManyPoints, ///< more than TB_MAX_HULL_POINTS input points
} tbHullError;

/// The most input points tbBuildHull takes.
#define TB_MAX_HULL_POINTS 65536

/// Build the convex hull of `count` points. On error *hull is zeroed and, when `badIndex` is
/// not null, it receives the index of the offending point (or -1).
TB_API tbHullError tbBuildHull(const vec3s* points, int count, tbHull* hull, int* badIndex);

/// A short English description of an error, e.g. "a point coordinate is NaN or Inf".
TB_API const char* tbHullErrorString(tbHullError error);

/// Free the arrays of a hull built by tbBuildHull and zero it. Safe on a zeroed hull.
TB_API void tbDestroyHull(tbHull* hull);
