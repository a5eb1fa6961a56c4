// Level geometry: building and checking meshes and heightfields, triangle adjacency and the
// per-edge active flags of internal-edge handling (docs/meshes.md).
#include "tumble/mesh.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "tumble/allocate_internal.h"

static bool tbMeshFail(char* message, int size, const char* format, ...)
    __attribute__((format(printf, 3, 4)));

static bool tbMeshFail(char* message, int size, const char* format, ...)
{
	if (message != NULL && size > 0) {
		va_list args;
		va_start(args, format);
		vsnprintf(message, (size_t)size, format, args);
		va_end(args);
	}
	return false;
}

// |v| in double: coordinates up to float's range must not overflow the squares.
static double tbNormD(vec3s v)
{
	double x = (double)v.x, y = (double)v.y, z = (double)v.z;
	return sqrt(x * x + y * y + z * z);
}

vec3s tbTriangleNormal(vec3s a, vec3s b, vec3s c)
{
	vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
	float len = glms_vec3_norm(n);
	return len > 0.0f ? glms_vec3_scale(n, 1.0f / len) : (vec3s){{0.0f, 1.0f, 0.0f}};
}

uint32_t tbEdgeIsActive(vec3s a, vec3s b, vec3s normal, vec3s opposite, vec3s otherNormal)
{
	// Terdiman's "active edges" (2008), as Jolt's ActiveEdges uses them: an edge between two
	// triangles is active only when it is convex and sharp enough that a contact there may carry
	// an edge normal. A concave edge is never active (a shape there is held by both faces), and
	// neither is a nearly flat one (the seam of a floor). The neighbour's far corner below this
	// triangle's plane makes the edge convex; within a hair of it, the edge is flat.
	vec3s edge = glms_vec3_sub(b, a);
	float scale = glms_vec3_norm(edge) + glms_vec3_norm(glms_vec3_sub(opposite, a));
	float height = glms_vec3_dot(normal, glms_vec3_sub(opposite, a));
	if (height > 1e-5f * scale) {
		return 0u; // concave
	}
	if (glms_vec3_dot(normal, otherNormal) >= TB_ACTIVE_EDGE_COS) {
		return 0u; // flat
	}
	return 1u;
}

// Sorts the n pairs (key, edge) of `pairs` by key, pairs of equal keys kept in their order (the
// edges' increasing order, as made): a least-significant-digit radix sort over the key's eight
// bytes (Knuth, TAOCP vol. 3, 5.2.5), linear in n where a comparison sort is n log n; a byte that
// every key shares (most of them: vertex indices use few bits) is skipped. `spare` holds n pairs;
// the result is in `pairs`.
static void tbRadixSortPairs(uint64_t* pairs, uint64_t* spare, int n)
{
	uint64_t* from = pairs;
	uint64_t* to = spare;
	for (int shift = 0; shift < 64 && n > 0; shift += 8) {
		uint32_t counts[256] = {0};
		for (int i = 0; i < n; ++i) {
			counts[(from[2 * i] >> shift) & 0xffu] += 1u;
		}
		if (counts[(from[0] >> shift) & 0xffu] == (uint32_t)n) {
			continue; // every key has this byte: the order stands
		}
		uint32_t at = 0u;
		for (int d = 0; d < 256; ++d) {
			uint32_t c = counts[d];
			counts[d] = at;
			at += c;
		}
		for (int i = 0; i < n; ++i) {
			uint32_t slot = counts[(from[2 * i] >> shift) & 0xffu]++;
			to[2 * slot] = from[2 * i];
			to[2 * slot + 1] = from[2 * i + 1];
		}
		uint64_t* t = from;
		from = to;
		to = t;
	}
	if (from != pairs) {
		memcpy(pairs, from, (size_t)n * 2u * sizeof(uint64_t));
	}
}

// Neighbours through a sort of the 3T directed edges by their unordered vertex pair: an edge met
// exactly twice, once in each direction, joins two triangles; once is the boundary; three or
// more (a non-manifold fin) or twice in the same direction (a flipped neighbour) keep the edge
// active and without a neighbour, which is always safe.
static bool tbBuildAdjacency(tbMesh* m)
{
	int n = 3 * m->triangleCount;
	uint64_t* keys = tbTryAlloc((size_t)n * 2u * sizeof(uint64_t));
	uint64_t* spare = tbTryAlloc((size_t)n * 2u * sizeof(uint64_t));
	if (keys == NULL || spare == NULL) {
		tbFree(keys, (size_t)n * 2u * sizeof(uint64_t));
		tbFree(spare, (size_t)n * 2u * sizeof(uint64_t));
		return false;
	}
	for (int t = 0; t < m->triangleCount; ++t) {
		for (int e = 0; e < 3; ++e) {
			uint32_t i = (uint32_t)m->indices[3 * t + e],
			         j = (uint32_t)m->indices[3 * t + (e + 1) % 3];
			uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
			keys[2 * (3 * t + e)] = ((uint64_t)lo << 32) | hi;
			keys[2 * (3 * t + e) + 1] = (uint64_t)(3 * t + e);
		}
	}
	tbRadixSortPairs(keys, spare, n);
	tbFree(spare, (size_t)n * 2u * sizeof(uint64_t));
	for (int i = 0; i < n; ++i) {
		m->neighbours[i] = -1;
	}
	for (int i = 0; i < n;) {
		int j = i + 1;
		while (j < n && keys[2 * j] == keys[2 * i]) {
			++j;
		}
		if (j - i == 2) {
			int ea = (int)keys[2 * i + 1], eb = (int)keys[2 * i + 3];
			int ta = ea / 3, tb = eb / 3;
			// Opposite directions: a consistently wound pair.
			int a0 = m->indices[ea], b0 = m->indices[eb];
			if (a0 != b0 && ta != tb) {
				m->neighbours[ea] = tb;
				m->neighbours[eb] = ta;
			}
		}
		i = j;
	}
	tbFree(keys, (size_t)n * 2u * sizeof(uint64_t));
	return true;
}

static void tbMeshEdgeFlags(tbMesh* m)
{
	for (int t = 0; t < m->triangleCount; ++t) {
		const int* idx = m->indices + 3 * t;
		uint32_t flags = 0u;
		for (int e = 0; e < 3; ++e) {
			int other = m->neighbours[3 * t + e];
			if (other < 0) {
				flags |= TB_EDGE_ACTIVE(e); // boundary (or non-manifold): active
				continue;
			}
			vec3s a = m->vertices[idx[e]], b = m->vertices[idx[(e + 1) % 3]];
			// The neighbour's corner that is not on the shared edge.
			const int* o = m->indices + 3 * other;
			int far = o[0];
			for (int k = 0; k < 3; ++k) {
				if (o[k] != idx[e] && o[k] != idx[(e + 1) % 3]) {
					far = o[k];
				}
			}
			if (tbEdgeIsActive(a, b, m->normals[t], m->vertices[far], m->normals[other])) {
				flags |= TB_EDGE_ACTIVE(e);
			}
		}
		m->edgeFlags[t] = (uint8_t)flags;
	}
}

// Each triangle's convex folds (tbMesh.folds): the heights of its neighbours' corners over its
// plane, d = (w - t0) . n, as the narrow phase takes them (mesh_collide.c, tbLevelHasConvexFold:
// below the front when d < 0, below the back, its normal reversed, when -d < 0, that is d > 0).
static void tbMeshFolds(tbMesh* m)
{
	for (int t = 0; t < m->triangleCount; ++t) {
		vec3s t0 = m->vertices[m->indices[3 * t]];
		vec3s n = m->normals[t];
		uint32_t folds = 0u;
		for (int e = 0; e < 3; ++e) {
			int other = m->neighbours[3 * t + e];
			for (int k = 0; k < 3 && other >= 0; ++k) {
				float d =
				    glms_vec3_dot(glms_vec3_sub(m->vertices[m->indices[3 * other + k]], t0), n);
				folds |= d < 0.0f ? TB_FOLD_FRONT : 0u;
				folds |= d > 0.0f ? TB_FOLD_BACK : 0u;
			}
		}
		m->folds[t] = (uint8_t)folds;
	}
}

static bool tbCheckMeshInput(const vec3s* vertices, int vertexCount, const int* indices,
                             int triangleCount, char* message, int size)
{
	if (vertices == NULL || indices == NULL) {
		return tbMeshFail(message, size, "vertices or triangles are null");
	}
	if (triangleCount < 1) {
		return tbMeshFail(message, size, "no triangles (%d)", triangleCount);
	}
	if (vertexCount < 3) {
		return tbMeshFail(message, size, "%d vertices: a triangle needs 3", vertexCount);
	}
	if (triangleCount > TB_MAX_MESH_TRIANGLES || vertexCount > TB_MAX_MESH_TRIANGLES) {
		return tbMeshFail(message, size, "%d triangles and %d vertices: at most %d of each",
		                  triangleCount, vertexCount, TB_MAX_MESH_TRIANGLES);
	}
	for (int i = 0; i < vertexCount; ++i) {
		vec3s v = vertices[i];
		if (!tbIsFiniteVec3(v)) {
			return tbMeshFail(message, size, "vertex %d: NaN or Inf coordinate", i);
		}
		double reach = tbNormD(v);
		if (reach > (double)TB_MAX_LENGTH) {
			return tbMeshFail(message, size,
			                  "vertex %d is %g m from the origin, beyond TB_MAX_LENGTH (%g m; "
			                  "docs/ranges.md)",
			                  i, reach, (double)TB_MAX_LENGTH);
		}
	}
	for (int t = 0; t < triangleCount; ++t) {
		const int* idx = indices + 3 * t;
		for (int k = 0; k < 3; ++k) {
			if (idx[k] < 0 || idx[k] >= vertexCount) {
				return tbMeshFail(message, size,
				                  "triangle %d: vertex index %d is out of range (0 to %d)", t,
				                  idx[k], vertexCount - 1);
			}
		}
		if (idx[0] == idx[1] || idx[1] == idx[2] || idx[0] == idx[2]) {
			return tbMeshFail(message, size,
			                  "triangle %d: degenerate, it repeats a vertex (%d, %d, %d)", t,
			                  idx[0], idx[1], idx[2]);
		}
		vec3s a = vertices[idx[0]], b = vertices[idx[1]], c = vertices[idx[2]];
		double longest = fmax(tbNormD(glms_vec3_sub(b, a)),
		                      fmax(tbNormD(glms_vec3_sub(c, b)), tbNormD(glms_vec3_sub(a, c))));
		if (longest > (double)TB_MAX_LENGTH) {
			return tbMeshFail(message, size,
			                  "triangle %d: an edge of %g m, longer than TB_MAX_LENGTH (%g m)", t,
			                  longest, (double)TB_MAX_LENGTH);
		}
		// Twice the area over the longest edge: the smallest height of the triangle. In double,
		// so that a sliver is measured, not its rounding.
		double ux = (double)b.x - (double)a.x, uy = (double)b.y - (double)a.y,
		       uz = (double)b.z - (double)a.z;
		double vx = (double)c.x - (double)a.x, vy = (double)c.y - (double)a.y,
		       vz = (double)c.z - (double)a.z;
		double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
		double height = sqrt(cx * cx + cy * cy + cz * cz) / (longest > 0.0 ? longest : 1.0);
		if (!(height >= 1e-5 * longest) || !(height >= (double)TB_MIN_LENGTH)) {
			return tbMeshFail(message, size,
			                  "triangle %d (vertices %d, %d, %d): degenerate, zero area (its "
			                  "height %g m over its longest edge of %g m is under 1e-5 of it or "
			                  "under TB_MIN_LENGTH)",
			                  t, idx[0], idx[1], idx[2], height, longest);
		}
	}
	return true;
}

bool tbBuildMesh(const vec3s* vertices, int vertexCount, const int* indices, int triangleCount,
                 tbMesh* mesh, char* message, int size)
{
	if (mesh == NULL) {
		return tbMeshFail(message, size, "mesh is null");
	}
	memset(mesh, 0, sizeof *mesh);
	if (!tbCheckMeshInput(vertices, vertexCount, indices, triangleCount, message, size)) {
		return false;
	}
	size_t tc = (size_t)triangleCount;
	mesh->vertexCount = vertexCount;
	mesh->triangleCount = triangleCount;
	mesh->vertices = tbTryAlloc((size_t)vertexCount * sizeof(vec3s));
	mesh->indices = tbTryAlloc(3u * tc * sizeof(int));
	mesh->normals = tbTryAlloc(tc * sizeof(vec3s));
	mesh->edgeFlags = tbTryAlloc(tc);
	mesh->folds = tbTryAlloc(tc);
	mesh->sizes = tbTryAlloc(tc * sizeof(float));
	mesh->neighbours = tbTryAlloc(3u * tc * sizeof(int));
	if (mesh->vertices == NULL || mesh->indices == NULL || mesh->normals == NULL ||
	    mesh->edgeFlags == NULL || mesh->folds == NULL || mesh->sizes == NULL ||
	    mesh->neighbours == NULL) {
		tbDestroyMesh(mesh);
		return tbMeshFail(message, size, "out of memory for %d triangles", triangleCount);
	}
	memcpy(mesh->vertices, vertices, (size_t)vertexCount * sizeof(vec3s));
	memcpy(mesh->indices, indices, 3u * tc * sizeof(int));
	mesh->bounds.lower = mesh->bounds.upper = vertices[0];
	for (int i = 0; i < vertexCount; ++i) {
		mesh->bounds.lower = glms_vec3_minv(mesh->bounds.lower, vertices[i]);
		mesh->bounds.upper = glms_vec3_maxv(mesh->bounds.upper, vertices[i]);
		mesh->radius = fmaxf(mesh->radius, (float)tbNormD(vertices[i]));
	}
	for (int t = 0; t < triangleCount; ++t) {
		const int* idx = indices + 3 * t;
		mesh->normals[t] = tbTriangleNormal(vertices[idx[0]], vertices[idx[1]], vertices[idx[2]]);
		tbGeometry tri = tbMakeTriangle(vertices[idx[0]], vertices[idx[1]], vertices[idx[2]]);
		mesh->sizes[t] = tbGeometry_Size(&tri);
	}
	if (!tbBuildAdjacency(mesh) || !tbBuildMeshTree(mesh)) {
		tbDestroyMesh(mesh);
		return tbMeshFail(message, size, "out of memory for %d triangles", triangleCount);
	}
	tbMeshEdgeFlags(mesh);
	tbMeshFolds(mesh);
	return true;
}

void tbDestroyMesh(tbMesh* mesh)
{
	if (mesh == NULL) {
		return;
	}
	size_t tc = (size_t)mesh->triangleCount;
	tbFree(mesh->vertices, (size_t)mesh->vertexCount * sizeof(vec3s));
	tbFree(mesh->indices, 3u * tc * sizeof(int));
	tbFree(mesh->normals, tc * sizeof(vec3s));
	tbFree(mesh->edgeFlags, tc);
	tbFree(mesh->folds, tc);
	tbFree(mesh->sizes, tc * sizeof(float));
	tbFree(mesh->neighbours, 3u * tc * sizeof(int));
	tbFree(mesh->nodes, (size_t)mesh->nodeCount * sizeof(tbMeshNode));
	tbFree(mesh->order, tc * sizeof(int));
	memset(mesh, 0, sizeof *mesh);
}

// ---------------------------------------------------------------------------------------------
// Heightfields

vec3s tbHeightfieldPoint(const tbHeightfield* f, int r, int c)
{
	return (vec3s){{((float)c - 0.5f * (float)(f->columns - 1)) * f->dx,
	                f->heights[(size_t)r * (size_t)f->columns + (size_t)c],
	                ((float)r - 0.5f * (float)(f->rows - 1)) * f->dz}};
}

void tbHeightfieldTriangle(const tbHeightfield* f, int index, vec3s v[3])
{
	// Cell (r, c) holds triangles 2 cell and 2 cell + 1: (p00, p10, p11) and (p00, p11, p01),
	// counter-clockwise seen from above (+y), split along the diagonal p00-p11.
	int cell = index >> 1;
	int r = cell / (f->columns - 1), c = cell % (f->columns - 1);
	vec3s p00 = tbHeightfieldPoint(f, r, c), p11 = tbHeightfieldPoint(f, r + 1, c + 1);
	v[0] = p00;
	if ((index & 1) == 0) {
		v[1] = tbHeightfieldPoint(f, r + 1, c);
		v[2] = p11;
	} else {
		v[1] = p11;
		v[2] = tbHeightfieldPoint(f, r, c + 1);
	}
}

// The triangle across edge e of heightfield triangle `index` (edges as in
// tbHeightfieldTriangle: corner e to corner e + 1), or -1 on the boundary.
static int tbHeightfieldNeighbour(const tbHeightfield* f, int index, int e)
{
	int cells = f->columns - 1;
	int cell = index >> 1;
	int r = cell / cells, c = cell % cells;
	if ((index & 1) == 0) {
		// (p00, p10, p11): the left edge (column c), the top edge (row r + 1), the diagonal.
		if (e == 0) {
			return c > 0 ? 2 * (cell - 1) + 1 : -1;
		}
		if (e == 1) {
			return r + 1 < f->rows - 1 ? 2 * (cell + cells) + 1 : -1;
		}
		return 2 * cell + 1;
	}
	// (p00, p11, p01): the diagonal, the right edge (column c + 1), the bottom edge (row r).
	if (e == 0) {
		return 2 * cell;
	}
	if (e == 1) {
		return c + 1 < cells ? 2 * (cell + 1) : -1;
	}
	return r > 0 ? 2 * (cell - cells) : -1;
}

int tbLevelNeighbour(const tbGeometry* shape, int triangle, int e)
{
	if (e < 0 || e > 2 || triangle < 0 || triangle >= tbGeometry_GetTriangleCount(shape)) {
		return -1;
	}
	if (shape->type == tb_meshShape) {
		return shape->mesh->neighbours[3 * triangle + e];
	}
	return tbHeightfieldNeighbour(shape->heightfield, triangle, e);
}

bool tbBuildHeightfield(const float* heights, int rows, int columns, float dx, float dz,
                        tbHeightfield* field, char* message, int size)
{
	if (field == NULL) {
		return tbMeshFail(message, size, "heightfield is null");
	}
	memset(field, 0, sizeof *field);
	if (heights == NULL) {
		return tbMeshFail(message, size, "heights are null");
	}
	if (rows < 2 || columns < 2) {
		return tbMeshFail(message, size, "rows and columns must be >= 2, got %d x %d", rows,
		                  columns);
	}
	if ((double)rows * (double)columns > (double)TB_MAX_MESH_TRIANGLES) {
		return tbMeshFail(message, size, "%d x %d samples: at most %d", rows, columns,
		                  TB_MAX_MESH_TRIANGLES);
	}
	if (!(dx >= TB_MIN_LENGTH && dx <= TB_MAX_LENGTH && dz >= TB_MIN_LENGTH &&
	      dz <= TB_MAX_LENGTH)) {
		return tbMeshFail(message, size, "spacing (%g, %g) m: each must be in [%g, %g]", (double)dx,
		                  (double)dz, (double)TB_MIN_LENGTH, (double)TB_MAX_LENGTH);
	}
	double halfX = 0.5 * (double)(columns - 1) * (double)dx;
	double halfZ = 0.5 * (double)(rows - 1) * (double)dz;
	if (halfX > (double)TB_MAX_LENGTH || halfZ > (double)TB_MAX_LENGTH) {
		return tbMeshFail(message, size,
		                  "the grid is %g x %g m: each half width must be within TB_MAX_LENGTH "
		                  "(%g m)",
		                  2.0 * halfX, 2.0 * halfZ, (double)TB_MAX_LENGTH);
	}
	size_t n = (size_t)rows * (size_t)columns;
	for (size_t i = 0; i < n; ++i) {
		float h = heights[i];
		if (!isfinite(h) || fabsf(h) > TB_MAX_LENGTH) {
			return tbMeshFail(
			    message, size,
			    "heights[%zu] (row %zu, column %zu) is %g: heights must be finite and "
			    "within +-%g m",
			    i, i / (size_t)columns, i % (size_t)columns, (double)h, (double)TB_MAX_LENGTH);
		}
	}
	size_t triangles = 2u * (size_t)(rows - 1) * (size_t)(columns - 1);
	field->heights = tbTryAlloc(n * sizeof(float));
	field->edgeFlags = tbTryAlloc(triangles);
	field->rows = rows;
	field->columns = columns;
	if (field->heights == NULL || field->edgeFlags == NULL) {
		tbDestroyHeightfield(field);
		return tbMeshFail(message, size, "out of memory for %d x %d samples", rows, columns);
	}
	memcpy(field->heights, heights, n * sizeof(float));
	field->dx = dx;
	field->dz = dz;
	float lo = heights[0], hi = heights[0];
	for (size_t i = 0; i < n; ++i) {
		lo = fminf(lo, heights[i]);
		hi = fmaxf(hi, heights[i]);
	}
	field->bounds.lower = (vec3s){{(float)-halfX, lo, (float)-halfZ}};
	field->bounds.upper = (vec3s){{(float)halfX, hi, (float)halfZ}};
	double ay = fmax(fabs((double)lo), fabs((double)hi));
	field->radius = (float)sqrt(halfX * halfX + halfZ * halfZ + ay * ay);
	for (size_t t = 0; t < triangles; ++t) {
		vec3s v[3], w[3];
		tbHeightfieldTriangle(field, (int)t, v);
		vec3s normal = tbTriangleNormal(v[0], v[1], v[2]);
		uint32_t flags = 0u;
		for (int e = 0; e < 3; ++e) {
			int other = tbHeightfieldNeighbour(field, (int)t, e);
			if (other < 0) {
				flags |= TB_EDGE_ACTIVE(e);
				continue;
			}
			tbHeightfieldTriangle(field, other, w);
			vec3s a = v[e], b = v[(e + 1) % 3];
			vec3s far = w[0];
			for (int k = 0; k < 3; ++k) {
				if (!glms_vec3_eqv(w[k], a) && !glms_vec3_eqv(w[k], b)) {
					far = w[k];
				}
			}
			if (tbEdgeIsActive(a, b, normal, far, tbTriangleNormal(w[0], w[1], w[2]))) {
				flags |= TB_EDGE_ACTIVE(e);
			}
		}
		field->edgeFlags[t] = (uint8_t)flags;
	}
	return true;
}

void tbDestroyHeightfield(tbHeightfield* field)
{
	if (field == NULL) {
		return;
	}
	size_t n = (size_t)field->rows * (size_t)field->columns;
	size_t triangles = field->rows > 1 && field->columns > 1
	                       ? 2u * (size_t)(field->rows - 1) * (size_t)(field->columns - 1)
	                       : 0u;
	tbFree(field->heights, n * sizeof(float));
	tbFree(field->edgeFlags, triangles);
	memset(field, 0, sizeof *field);
}

// ---------------------------------------------------------------------------------------------
// Shapes

tbGeometry tbMakeMeshShape(const tbMesh* mesh)
{
	tbGeometry s;
	memset(&s, 0, sizeof s);
	s.type = tb_meshShape;
	s.mesh = mesh;
	s.scale = (vec3s){{1.0f, 1.0f, 1.0f}};
	return s;
}

tbGeometry tbMakeHeightfieldShape(const tbHeightfield* field)
{
	tbGeometry s;
	memset(&s, 0, sizeof s);
	s.type = tb_heightfieldShape;
	s.heightfield = field;
	s.scale = (vec3s){{1.0f, 1.0f, 1.0f}};
	return s;
}

bool tbGeometry_IsLevel(const tbGeometry* shape)
{
	return shape != NULL && (shape->type == tb_meshShape || shape->type == tb_heightfieldShape);
}

int tbGeometry_GetTriangleCount(const tbGeometry* shape)
{
	if (shape == NULL) {
		return 0;
	}
	if (shape->type == tb_meshShape && shape->mesh != NULL) {
		return shape->mesh->triangleCount;
	}
	if (shape->type == tb_heightfieldShape && shape->heightfield != NULL) {
		const tbHeightfield* f = shape->heightfield;
		return f->rows > 1 && f->columns > 1 ? 2 * (f->rows - 1) * (f->columns - 1) : 0;
	}
	return 0;
}

bool tbGeometry_GetTriangle(const tbGeometry* shape, int index, vec3s corners[3],
                            uint32_t* edgeFlags)
{
	if (index < 0 || index >= tbGeometry_GetTriangleCount(shape)) {
		return false;
	}
	if (shape->type == tb_meshShape) {
		tbMeshTriangleCorners(shape->mesh, index, corners);
		if (edgeFlags != NULL) {
			*edgeFlags = shape->mesh->edgeFlags[index];
		}
		return true;
	}
	tbHeightfieldTriangle(shape->heightfield, index, corners);
	if (edgeFlags != NULL) {
		*edgeFlags = shape->heightfield->edgeFlags[index];
	}
	return true;
}

tbAABB tbLevelLocalBounds(const tbGeometry* shape)
{
	if (shape->type == tb_meshShape && shape->mesh != NULL) {
		return shape->mesh->bounds;
	}
	if (shape->type == tb_heightfieldShape && shape->heightfield != NULL) {
		return shape->heightfield->bounds;
	}
	tbAABB none = {{{0.0f, 0.0f, 0.0f}}, {{0.0f, 0.0f, 0.0f}}};
	return none;
}

float tbLevelRadius(const tbGeometry* shape)
{
	if (shape->type == tb_meshShape && shape->mesh != NULL) {
		return shape->mesh->radius;
	}
	if (shape->type == tb_heightfieldShape && shape->heightfield != NULL) {
		return shape->heightfield->radius;
	}
	return 0.0f;
}

tbAABB tbLevelComputeAABB(const tbGeometry* shape, tbTransform xf)
{
	// The local box's eight corners placed: the world box of a box (a mesh is never re-scanned).
	tbAABB local = tbLevelLocalBounds(shape);
	tbAABB out;
	out.lower = (vec3s){{FLT_MAX, FLT_MAX, FLT_MAX}};
	out.upper = (vec3s){{-FLT_MAX, -FLT_MAX, -FLT_MAX}};
	for (int i = 0; i < 8; ++i) {
		vec3s c = {{(i & 1) ? local.upper.x : local.lower.x,
		            (i & 2) ? local.upper.y : local.lower.y,
		            (i & 4) ? local.upper.z : local.lower.z}};
		vec3s w = tbTransformPoint(xf, c);
		out.lower = glms_vec3_minv(out.lower, w);
		out.upper = glms_vec3_maxv(out.upper, w);
	}
	return out;
}

bool tbLevelCheck(const tbGeometry* shape, char* message, int size)
{
	vec3s s = shape->scale;
	if (!(s.x == 1.0f && s.y == 1.0f && s.z == 1.0f)) {
		return tbMeshFail(message, size,
		                  "scale (%g, %g, %g): a %s takes no scale (scale its vertices instead)",
		                  (double)s.x, (double)s.y, (double)s.z,
		                  shape->type == tb_meshShape ? "mesh" : "heightfield");
	}
	if (shape->type == tb_meshShape) {
		const tbMesh* m = shape->mesh;
		if (m == NULL || m->triangleCount < 1 || m->nodes == NULL) {
			return tbMeshFail(message, size, "mesh: null or not built (use tbBuildMesh)");
		}
		return true;
	}
	const tbHeightfield* f = shape->heightfield;
	if (f == NULL || f->rows < 2 || f->columns < 2 || f->heights == NULL) {
		return tbMeshFail(message, size, "heightfield: null or not built (use tbBuildHeightfield)");
	}
	return true;
}
