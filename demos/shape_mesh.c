// Triangle meshes of Tumble's shapes: boxes, spheres, capsules, cylinders, cones, hulls, triangles.
#include "shape_mesh.h"

#include <math.h>
#include <stdlib.h>

static bool dmReserve(dmMeshData* mesh, int vertices, int indices)
{
	if (mesh->vertexCount + vertices > mesh->vertexCapacity) {
		int cap = mesh->vertexCapacity < 64 ? 64 : mesh->vertexCapacity;
		while (cap < mesh->vertexCount + vertices) {
			cap *= 2;
		}
		float* grown = realloc(mesh->vertices, sizeof(float) * 6 * (size_t)cap);
		if (grown == NULL) {
			return false;
		}
		mesh->vertices = grown;
		mesh->vertexCapacity = cap;
	}
	if (mesh->indexCount + indices > mesh->indexCapacity) {
		int cap = mesh->indexCapacity < 192 ? 192 : mesh->indexCapacity;
		while (cap < mesh->indexCount + indices) {
			cap *= 2;
		}
		unsigned* grown = realloc(mesh->indices, sizeof(unsigned) * (size_t)cap);
		if (grown == NULL) {
			return false;
		}
		mesh->indices = grown;
		mesh->indexCapacity = cap;
	}
	return true;
}

int dmMeshData_AddVertex(dmMeshData* mesh, vec3s position, vec3s normal)
{
	if (!dmReserve(mesh, 1, 0)) {
		return -1;
	}
	float* v = mesh->vertices + 6 * mesh->vertexCount;
	v[0] = position.x, v[1] = position.y, v[2] = position.z;
	v[3] = normal.x, v[4] = normal.y, v[5] = normal.z;
	return mesh->vertexCount++;
}

void dmMeshData_AddTriangle(dmMeshData* mesh, int a, int b, int c)
{
	if (a < 0 || b < 0 || c < 0 || !dmReserve(mesh, 0, 3)) {
		return;
	}
	mesh->indices[mesh->indexCount++] = (unsigned)a;
	mesh->indices[mesh->indexCount++] = (unsigned)b;
	mesh->indices[mesh->indexCount++] = (unsigned)c;
}

void dmMeshData_AddFlatTriangle(dmMeshData* mesh, vec3s a, vec3s b, vec3s c)
{
	vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
	float len = glms_vec3_norm(n);
	n = len > 0.0f ? glms_vec3_scale(n, 1.0f / len) : (vec3s){{0.0f, 1.0f, 0.0f}};
	int i = dmMeshData_AddVertex(mesh, a, n);
	int j = dmMeshData_AddVertex(mesh, b, n);
	int k = dmMeshData_AddVertex(mesh, c, n);
	dmMeshData_AddTriangle(mesh, i, j, k);
}

void dmMeshData_Clear(dmMeshData* mesh)
{
	mesh->vertexCount = 0;
	mesh->indexCount = 0;
}

void dmMeshData_Free(dmMeshData* mesh)
{
	free(mesh->vertices);
	free(mesh->indices);
	*mesh = (dmMeshData){0};
}

static vec3s dmV(float x, float y, float z)
{
	return (vec3s){{x, y, z}};
}

// Quad a b c d counter-clockwise seen from outside, flat normal.
static void dmQuad(dmMeshData* mesh, vec3s a, vec3s b, vec3s c, vec3s d)
{
	dmMeshData_AddFlatTriangle(mesh, a, b, c);
	dmMeshData_AddFlatTriangle(mesh, a, c, d);
}

static void dmBox(dmMeshData* mesh, vec3s h)
{
	// Corner i has x = +h.x when bit 0 is set, y with bit 1, z with bit 2.
	vec3s c[8];
	for (int i = 0; i < 8; ++i) {
		c[i] = dmV(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
	}
	dmQuad(mesh, c[1], c[3], c[7], c[5]); // +x
	dmQuad(mesh, c[0], c[4], c[6], c[2]); // -x
	dmQuad(mesh, c[2], c[6], c[7], c[3]); // +y
	dmQuad(mesh, c[0], c[1], c[5], c[4]); // -y
	dmQuad(mesh, c[4], c[5], c[7], c[6]); // +z
	dmQuad(mesh, c[0], c[2], c[3], c[1]); // -z
}

// A surface of revolution about y from a profile of (radius, height, normal radial, normal y)
// rings; smooth normals. Rings run from bottom to top.
static void dmRevolve(dmMeshData* mesh, const float (*ring)[4], int ringCount, int segments)
{
	int base = mesh->vertexCount;
	for (int r = 0; r < ringCount; ++r) {
		for (int s = 0; s <= segments; ++s) {
			float phi = 2.0f * GLM_PIf * (float)s / (float)segments;
			float cx = cosf(phi), sz = sinf(phi);
			dmMeshData_AddVertex(mesh, dmV(ring[r][0] * cx, ring[r][1], ring[r][0] * sz),
			                     dmV(ring[r][2] * cx, ring[r][3], ring[r][2] * sz));
		}
	}
	for (int r = 0; r + 1 < ringCount; ++r) {
		for (int s = 0; s < segments; ++s) {
			int i0 = base + r * (segments + 1) + s;
			int i1 = i0 + segments + 1;
			// Counter-clockwise from outside: x = cos, z = sin turns clockwise seen from +y.
			dmMeshData_AddTriangle(mesh, i0, i1, i0 + 1);
			dmMeshData_AddTriangle(mesh, i0 + 1, i1, i1 + 1);
		}
	}
}

// Flat disc cap at height y facing up (+1) or down (-1).
static void dmDisc(dmMeshData* mesh, float radius, float y, float facing, int segments)
{
	int centre = dmMeshData_AddVertex(mesh, dmV(0.0f, y, 0.0f), dmV(0.0f, facing, 0.0f));
	int first = mesh->vertexCount;
	for (int s = 0; s <= segments; ++s) {
		float phi = 2.0f * GLM_PIf * (float)s / (float)segments;
		dmMeshData_AddVertex(mesh, dmV(radius * cosf(phi), y, radius * sinf(phi)),
		                     dmV(0.0f, facing, 0.0f));
	}
	for (int s = 0; s < segments; ++s) {
		if (facing > 0.0f) {
			dmMeshData_AddTriangle(mesh, centre, first + s + 1, first + s);
		} else {
			dmMeshData_AddTriangle(mesh, centre, first + s, first + s + 1);
		}
	}
}

// Rings of a sphere of radius r whose lower half is shifted by -shift and upper by +shift (a
// capsule; shift 0 is a sphere).
static void dmRoundedProfile(dmMeshData* mesh, float r, float shift, int segments)
{
	int half = segments / 4 < 4 ? 4 : segments / 4;
	float ring[2 * 64 + 2][4];
	int count = 0;
	for (int k = 0; k <= half && count < 2 * 64 + 2; ++k) {
		float theta = -0.5f * GLM_PIf + 0.5f * GLM_PIf * (float)k / (float)half;
		ring[count][0] = r * cosf(theta), ring[count][1] = r * sinf(theta) - shift;
		ring[count][2] = cosf(theta), ring[count][3] = sinf(theta);
		++count;
	}
	for (int k = 0; k <= half && count < 2 * 64 + 2; ++k) {
		float theta = 0.5f * GLM_PIf * (float)k / (float)half;
		ring[count][0] = r * cosf(theta), ring[count][1] = r * sinf(theta) + shift;
		ring[count][2] = cosf(theta), ring[count][3] = sinf(theta);
		++count;
	}
	dmRevolve(mesh, (const float(*)[4])ring, count, segments);
}

bool dmBuildHullMesh(const tbHull* hull, dmMeshData* mesh)
{
	if (hull == NULL || hull->kind < tb_hullPolygon) {
		return false;
	}
	for (int f = 0; f < hull->faceCount; ++f) {
		const tbHullFace* face = hull->faces + f;
		const int* ids = hull->faceIndices + face->firstIndex;
		int first = -1;
		for (int k = 0; k < face->indexCount; ++k) {
			int v = dmMeshData_AddVertex(mesh, hull->vertices[ids[k]], face->normal);
			first = k == 0 ? v : first;
		}
		for (int k = 1; k + 1 < face->indexCount; ++k) {
			dmMeshData_AddTriangle(mesh, first, first + k, first + k + 1);
		}
	}
	return mesh->indexCount > 0;
}

bool dmBuildShapeMesh(const tbGeometry* shape, int detail, dmMeshData* mesh)
{
	int segments = detail < 8 ? 8 : detail > 64 ? 64 : detail;
	dmMeshData_Clear(mesh);
	switch (shape->type) {
	case tb_boxShape:
		dmBox(mesh, shape->halfExtents);
		break;
	case tb_sphereShape:
		dmRoundedProfile(mesh, shape->radius, 0.0f, segments);
		break;
	case tb_capsuleShape:
		dmRoundedProfile(mesh, shape->round.radius, shape->round.halfHeight, segments);
		break;
	case tb_cylinderShape: {
		float r = shape->round.radius, hh = shape->round.halfHeight;
		const float ring[2][4] = {{r, -hh, 1.0f, 0.0f}, {r, hh, 1.0f, 0.0f}};
		dmRevolve(mesh, ring, 2, segments);
		dmDisc(mesh, r, hh, 1.0f, segments);
		dmDisc(mesh, r, -hh, -1.0f, segments);
		break;
	}
	case tb_coneShape: {
		float r = shape->round.radius, hh = shape->round.halfHeight;
		// The side's normal leans up by the slope: (2 hh, r) normalised in (radial, y).
		float len = sqrtf(4.0f * hh * hh + r * r);
		float nr = 2.0f * hh / len, ny = r / len;
		// The apex ring has radius 0; repeating it per segment keeps the normals smooth.
		const float ring[2][4] = {{r, -hh, nr, ny}, {0.0f, hh, nr, ny}};
		dmRevolve(mesh, ring, 2, segments);
		dmDisc(mesh, r, -hh, -1.0f, segments);
		break;
	}
	case tb_hullShape:
		if (!dmBuildHullMesh(shape->hull, mesh)) {
			return false;
		}
		break;
	case tb_triangleShape: {
		vec3s a = shape->vertices[0], b = shape->vertices[1], c = shape->vertices[2];
		// Zero thickness: both sides, so it is seen from anywhere.
		dmMeshData_AddFlatTriangle(mesh, a, b, c);
		dmMeshData_AddFlatTriangle(mesh, a, c, b);
		break;
	}
	case tb_meshShape:
	case tb_heightfieldShape: {
		// Level geometry: every triangle, flat shaded, front side (a heightfield is seen from
		// above; a mesh's back faces are culled like a solid's).
		int count = tbGeometry_GetTriangleCount(shape);
		for (int t = 0; t < count; ++t) {
			vec3s v[3];
			tbGeometry_GetTriangle(shape, t, v, NULL);
			dmMeshData_AddFlatTriangle(mesh, v[0], v[1], v[2]);
		}
		break;
	}
	default:
		return false;
	}
	// The AtlasPhys notes: the drawn shape is S * shape; normals transform with S^-1 (then
	// renormalised).
	vec3s s = shape->scale;
	if (s.x != 1.0f || s.y != 1.0f || s.z != 1.0f) {
		for (int i = 0; i < mesh->vertexCount; ++i) {
			float* v = mesh->vertices + 6 * i;
			v[0] *= s.x, v[1] *= s.y, v[2] *= s.z;
			vec3s n = glms_vec3_normalize(dmV(v[3] / s.x, v[4] / s.y, v[5] / s.z));
			v[3] = n.x, v[4] = n.y, v[5] = n.z;
		}
	}
	return mesh->vertexCount > 0 && mesh->indexCount > 0;
}
