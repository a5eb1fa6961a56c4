// Private helpers of the level geometry (mesh.c, mesh_tree.c, mesh_collide.c) and the hooks the
// shape functions call for meshes and heightfields.
#pragma once

#include "tumble/mesh.h"

/// The unit normal of a counter-clockwise triangle (+y for a degenerate one).
vec3s tbTriangleNormal(vec3s a, vec3s b, vec3s c);

/// 1 when the edge a-b of a triangle with `normal` is active against the neighbour whose far
/// corner is `opposite` and whose normal is `otherNormal` (convex and sharper than
/// TB_ACTIVE_EDGE_COS), else 0.
uint32_t tbEdgeIsActive(vec3s a, vec3s b, vec3s normal, vec3s opposite, vec3s otherNormal);

/// The triangle across edge e (corner e to corner e + 1) of `triangle` of a mesh or heightfield
/// shape, or -1 on the boundary (or for a bad index).
int tbLevelNeighbour(const tbGeometry* shape, int triangle, int e);
/// Build the bounding-volume tree of a mesh whose vertices and indices are set. False when out of
/// memory.
bool tbBuildMeshTree(tbMesh* mesh);

/// Sample (r, c) of a heightfield, local frame.
vec3s tbHeightfieldPoint(const tbHeightfield* field, int r, int c);

/// Corners of heightfield triangle `index`, counter-clockwise seen from above.
void tbHeightfieldTriangle(const tbHeightfield* field, int index, vec3s v[3]);

/// tbGeometry_QueryTriangles that also skips a mesh's leaves lying wholly beyond one of the planes
/// normals[i] . x = limits[i] (the level's frame): every triangle it then leaves out has its three
/// corners beyond that plane. The caller tests the triangles it is given; the planes only spare
/// it the ones a whole leaf proves beyond (a convex shape's face planes pushed out by the
/// speculative distance). A heightfield takes the plain query.
int tbQueryTrianglesWithin(const tbGeometry* shape, tbAABB box, const vec3s* normals,
                           const float* limits, int planeCount, tbTriangleQueryFcn* fcn,
                           void* context);

/// The local box, bounding radius and world box of a mesh or heightfield shape.
tbAABB tbLevelLocalBounds(const tbGeometry* shape);
float tbLevelRadius(const tbGeometry* shape);
tbAABB tbLevelComputeAABB(const tbGeometry* shape, tbTransform xf);

/// The check tbGeometry_Validate makes of a mesh or heightfield shape (built, unit scale).
bool tbLevelCheck(const tbGeometry* shape, char* message, int size);

/// tbRayCastShape for a mesh or heightfield placed at xf.
tbCastOutput tbRayCastLevel(const tbGeometry* shape, tbTransform xf, vec3s origin,
                            vec3s translation, float maxFraction);
