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

/// Corners of mesh triangle `t` (a valid index) as the mesh stores them: tbGeometry_GetTriangle's,
/// and the hot paths' that already know the index is valid (the tree walk's triangles).
static inline void tbMeshTriangleCorners(const tbMesh* m, int t, vec3s corners[3])
{
	const int* idx = m->indices + 3 * t;
	corners[0] = m->vertices[idx[0]];
	corners[1] = m->vertices[idx[1]];
	corners[2] = m->vertices[idx[2]];
}

/// The most planes a tbPlaneLanes holds.
#define TB_PLANE_LANES 64

/// Planes n . x = offset kept by coordinate, for tests four planes at a time: all x of the
/// normals, then all y, all z and all offsets, each run TB_PLANE_LANES long and filled to the
/// count rounded up to four with copies of plane 0 (a repeated plane changes no verdict).
typedef struct tbPlaneLanes
{
	int count;
	float lanes[4 * TB_PLANE_LANES];
} tbPlaneLanes;

/// Plane i of `planes` (i < TB_PLANE_LANES).
static inline void tbPlaneLanes_Set(tbPlaneLanes* planes, int i, vec3s normal, float offset)
{
	planes->lanes[i] = normal.x;
	planes->lanes[TB_PLANE_LANES + i] = normal.y;
	planes->lanes[2 * TB_PLANE_LANES + i] = normal.z;
	planes->lanes[3 * TB_PLANE_LANES + i] = offset;
}

/// The planes past the count up to the next multiple of four made copies of plane 0.
static inline void tbPlaneLanes_Pad(tbPlaneLanes* planes)
{
	for (int i = planes->count; i < ((planes->count + 3) & ~3); ++i) {
		for (int r = 0; r < 4; ++r) {
			planes->lanes[r * TB_PLANE_LANES + i] = planes->lanes[r * TB_PLANE_LANES];
		}
	}
}

/// tbGeometry_QueryTriangles that also skips a mesh's leaves lying wholly beyond one of the planes
/// n . x = offset + push of `planes` (the level's frame; may be null: none): every triangle it then
/// leaves out has its three corners beyond that plane. The caller tests the triangles it is given;
/// the planes only spare it the ones a whole leaf proves beyond (a convex shape's face planes
/// pushed out by the speculative distance). A heightfield takes the plain query.
int tbQueryTrianglesWithin(const tbGeometry* shape, tbAABB box, const tbPlaneLanes* planes,
                           float push, tbTriangleQueryFcn* fcn, void* context);

/// The local box, bounding radius and world box of a mesh or heightfield shape.
tbAABB tbLevelLocalBounds(const tbGeometry* shape);
float tbLevelRadius(const tbGeometry* shape);
tbAABB tbLevelComputeAABB(const tbGeometry* shape, tbTransform xf);

/// The check tbGeometry_Validate makes of a mesh or heightfield shape (built, unit scale).
bool tbLevelCheck(const tbGeometry* shape, char* message, int size);

/// tbRayCastShape for a mesh or heightfield placed at xf.
tbCastOutput tbRayCastLevel(const tbGeometry* shape, tbTransform xf, vec3s origin,
                            vec3s translation, float maxFraction);
