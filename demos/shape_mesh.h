// Triangle meshes of Tumble's shapes for drawing: positions and normals in the shape's local frame.
#pragma once

#include <tumble/tumble.h>

/// An indexed triangle mesh; each vertex is 6 floats (position xyz, normal xyz).
typedef struct dmMeshData
{
	float* vertices;
	int vertexCount;
	unsigned* indices;
	int indexCount;
	int vertexCapacity, indexCapacity;
} dmMeshData;

/// Append a vertex; returns its index (or -1 when out of memory).
int dmMeshData_AddVertex(dmMeshData* mesh, vec3s position, vec3s normal);

/// Append a triangle of existing vertices.
void dmMeshData_AddTriangle(dmMeshData* mesh, int a, int b, int c);

/// Append a flat-shaded triangle (three new vertices sharing the face normal).
void dmMeshData_AddFlatTriangle(dmMeshData* mesh, vec3s a, vec3s b, vec3s c);

void dmMeshData_Clear(dmMeshData* mesh);
void dmMeshData_Free(dmMeshData* mesh);

/// The mesh of a shape in its local frame, scale included. `detail` is the number of segments
/// around curved shapes (16 to 64 is sensible). Returns false when out of memory or when the
/// shape has no surface to draw (a point or segment hull).
bool dmBuildShapeMesh(const tbGeometry* shape, int detail, dmMeshData* mesh);

/// The mesh of a convex hull (faces fan-triangulated, flat normals); flat polygons get both sides.
bool dmBuildHullMesh(const tbHull* hull, dmMeshData* mesh);
