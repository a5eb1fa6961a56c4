// The bounding-volume tree of a static mesh (top-down, median split of the centroids along the
// longest axis; Ericson, Real-Time Collision Detection, 6.2.1), box queries and ray casts over it
// and over a heightfield's grid.
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "tumble/allocate_internal.h"
#include "tumble/dynamic_tree.h"

// Triangles per leaf: four keeps the tree small and a leaf's tests cheap.
#define TB_MESH_LEAF 4
// A query's node stack. A median split halves the triangles at each level, so the depth is at
// most log2(TB_MAX_MESH_TRIANGLES / TB_MESH_LEAF) + 2 = 24 levels; a depth-first walk holds at
// most one sibling per level.
#define TB_MESH_STACK 64

typedef struct tbSortKey
{
	float key;
	int triangle;
} tbSortKey;

static int tbCompareSortKeys(const void* pa, const void* pb)
{
	const tbSortKey* a = pa;
	const tbSortKey* b = pb;
	return a->key < b->key ? -1 : a->key > b->key ? 1 : (a->triangle - b->triangle);
}

static tbAABB tbTriangleBox(const tbMesh* m, int t)
{
	vec3s v[3];
	tbMeshTriangleCorners(m, t, v);
	tbAABB box = {glms_vec3_minv(v[0], glms_vec3_minv(v[1], v[2])),
	              glms_vec3_maxv(v[0], glms_vec3_maxv(v[1], v[2]))};
	return box;
}

static tbAABB tbUnion(tbAABB a, tbAABB b)
{
	tbAABB u = {glms_vec3_minv(a.lower, b.lower), glms_vec3_maxv(a.upper, b.upper)};
	return u;
}

// (key, triangle) lexicographically: a strict total order, so a split and a sort are unique.
static inline bool tbKeyLess(tbSortKey a, tbSortKey b)
{
	return a.key < b.key || (a.key == b.key && a.triangle < b.triangle);
}

// Rearranges keys[0..n) so that keys[0..k) hold the k least (tbKeyLess) in no particular order and
// keys[k..n) the rest: Hoare's selection (quickselect, Hoare 1961) with the median of three as the
// pivot, linear on average where a sort is n log n. Each pass leaves a shorter range; past n passes
// (never met) the range is sorted instead.
static void tbSelectLeast(tbSortKey* keys, int n, int k)
{
	int lo = 0, hi = n - 1;
	for (int pass = 0; lo < hi; ++pass) {
		if (pass >= n) {
			qsort(keys + lo, (size_t)(hi - lo + 1), sizeof(tbSortKey), tbCompareSortKeys);
			return;
		}
		int mid = lo + (hi - lo) / 2;
		// keys[lo] <= keys[mid] <= keys[hi]: the pivot is their median, and the two ends stop the
		// scans below.
		if (tbKeyLess(keys[mid], keys[lo])) {
			tbSortKey t = keys[mid];
			keys[mid] = keys[lo];
			keys[lo] = t;
		}
		if (tbKeyLess(keys[hi], keys[lo])) {
			tbSortKey t = keys[hi];
			keys[hi] = keys[lo];
			keys[lo] = t;
		}
		if (tbKeyLess(keys[hi], keys[mid])) {
			tbSortKey t = keys[hi];
			keys[hi] = keys[mid];
			keys[mid] = t;
		}
		tbSortKey pivot = keys[mid];
		int i = lo, j = hi;
		while (i <= j) {
			while (tbKeyLess(keys[i], pivot)) {
				++i;
			}
			while (tbKeyLess(pivot, keys[j])) {
				--j;
			}
			if (i <= j) {
				tbSortKey t = keys[i];
				keys[i] = keys[j];
				keys[j] = t;
				++i;
				--j;
			}
		}
		// [lo, j] holds no key above the pivot, [i, hi] none below; between them, the pivot.
		if (k <= j) {
			hi = j;
		} else if (k >= i) {
			lo = i;
		} else {
			return;
		}
	}
}

typedef struct tbBuildTask
{
	int node, start, count, depth;
	int axis; // the parent's split axis (-1 for the root): a leaf's triangles are put in its order
} tbBuildTask;

// The triangles order[start..start + count) sorted along `axis` by their boxes' middles (the key
// of the split that made them), as a full sort of the parent's range would have left them.
static void tbSortAlong(tbMesh* m, const tbAABB* boxes, tbSortKey* keys, int start, int count,
                        int axis)
{
	for (int i = 0; i < count; ++i) {
		int t = m->order[start + i];
		tbAABB b = boxes[t];
		keys[i].key = b.lower.raw[axis] + b.upper.raw[axis];
		keys[i].triangle = t;
	}
	qsort(keys, (size_t)count, sizeof(tbSortKey), tbCompareSortKeys);
	for (int i = 0; i < count; ++i) {
		m->order[start + i] = keys[i].triangle;
	}
}

bool tbBuildMeshTree(tbMesh* m)
{
	int n = m->triangleCount;
	// A tree of n triangles in leaves of at least one has fewer than 2n nodes.
	int capacity = 2 * n;
	m->nodes = tbTryAlloc((size_t)capacity * sizeof(tbMeshNode));
	m->order = tbTryAlloc((size_t)n * sizeof(int));
	tbSortKey* keys = tbTryAlloc((size_t)n * sizeof(tbSortKey));
	tbBuildTask* tasks = tbTryAlloc((size_t)n * sizeof(tbBuildTask));
	// Each triangle's box, made once: every level of the build reads each triangle's.
	tbAABB* boxes = tbTryAlloc((size_t)n * sizeof(tbAABB));
	if (m->nodes == NULL || m->order == NULL || keys == NULL || tasks == NULL || boxes == NULL) {
		tbFree(keys, (size_t)n * sizeof(tbSortKey));
		tbFree(tasks, (size_t)n * sizeof(tbBuildTask));
		tbFree(boxes, (size_t)n * sizeof(tbAABB));
		m->nodeCount = capacity; // what tbDestroyMesh frees
		return false;
	}
	m->nodeCount = capacity;
	for (int i = 0; i < n; ++i) {
		m->order[i] = i;
		boxes[i] = tbTriangleBox(m, i);
	}
	int used = 1, taskCount = 1;
	tasks[0] = (tbBuildTask){0, 0, n, 1, -1};
	m->depth = 1;
	// Each task makes one node; there are fewer than 2n of them, so the loop is bounded.
	for (int guard = 0; taskCount > 0 && guard < capacity; ++guard) {
		tbBuildTask task = tasks[--taskCount];
		tbMeshNode* node = m->nodes + task.node;
		tbAABB box = boxes[m->order[task.start]];
		vec3s lo = glms_vec3_scale(glms_vec3_add(box.lower, box.upper), 0.5f), hi = lo;
		for (int i = task.start + 1; i < task.start + task.count; ++i) {
			tbAABB b = boxes[m->order[i]];
			box = tbUnion(box, b);
			vec3s c = glms_vec3_scale(glms_vec3_add(b.lower, b.upper), 0.5f);
			lo = glms_vec3_minv(lo, c);
			hi = glms_vec3_maxv(hi, c);
		}
		node->box = box;
		m->depth = task.depth > m->depth ? task.depth : m->depth;
		if (task.count <= TB_MESH_LEAF || used + 2 > capacity) {
			node->child = task.start;
			node->count = task.count;
			if (task.axis >= 0 && task.count > 1) {
				tbSortAlong(m, boxes, keys, task.start, task.count, task.axis);
			}
			continue;
		}
		// Median split along the longest axis of the centroids' box: both halves get half the
		// triangles, so the depth stays logarithmic whatever the layout. The halves are found by
		// selection, not a sort: the order inside a half is made again by its own split, and a
		// leaf's by tbSortAlong, so the tree is the one a sort at every node makes.
		vec3s extent = glms_vec3_sub(hi, lo);
		int axis =
		    extent.x >= extent.y ? (extent.x >= extent.z ? 0 : 2) : (extent.y >= extent.z ? 1 : 2);
		for (int i = 0; i < task.count; ++i) {
			int t = m->order[task.start + i];
			tbAABB b = boxes[t];
			keys[i].key = b.lower.raw[axis] + b.upper.raw[axis];
			keys[i].triangle = t;
		}
		int half = task.count / 2;
		tbSelectLeast(keys, task.count, half);
		for (int i = 0; i < task.count; ++i) {
			m->order[task.start + i] = keys[i].triangle;
		}
		node->child = used;
		node->count = 0;
		tasks[taskCount++] = (tbBuildTask){used, task.start, half, task.depth + 1, axis};
		tasks[taskCount++] =
		    (tbBuildTask){used + 1, task.start + half, task.count - half, task.depth + 1, axis};
		used += 2;
	}
	tbFree(keys, (size_t)n * sizeof(tbSortKey));
	tbFree(tasks, (size_t)n * sizeof(tbBuildTask));
	tbFree(boxes, (size_t)n * sizeof(tbAABB));
	return true;
}

static bool tbBoxesOverlap(tbAABB a, tbAABB b)
{
	return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
	       b.lower.y <= a.upper.y && a.lower.z <= b.upper.z && b.lower.z <= a.upper.z;
}

#if !defined(__SSE2__)
// Whether the box lies wholly beyond one of the planes n . x = limit (limit = offset + push): its
// corner least along n is beyond it, with a relative slack of float rounding so that a corner of a
// triangle inside the box is beyond it too, however its dot rounds.
static bool tbBoxBeyondPlanes(tbAABB box, const tbPlaneLanes* planes, float push)
{
	const float* lanes = planes->lanes;
	for (int i = 0; i < planes->count; ++i) {
		vec3s n = {{lanes[i], lanes[TB_PLANE_LANES + i], lanes[2 * TB_PLANE_LANES + i]}};
		float limit = lanes[3 * TB_PLANE_LANES + i] + push;
		vec3s corner = {{n.x >= 0.0f ? box.lower.x : box.upper.x,
		                 n.y >= 0.0f ? box.lower.y : box.upper.y,
		                 n.z >= 0.0f ? box.lower.z : box.upper.z}};
		float d = glms_vec3_dot(n, corner);
		if (d - limit > 1e-5f * (fabsf(d) + fabsf(limit))) {
			return true;
		}
	}
	return false;
}
#endif

#if defined(__SSE2__)
// A vertex in a register (x, y, z, 0), reading its twelve bytes only: the last vertex of the array
// has nothing after it to read.
static inline __m128 tbVertexW(const vec3s* v)
{
	__m128 xy = _mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(const void*)v);
	return _mm_movelh_ps(xy, _mm_load_ss(&v->z));
}

// tbBoxesOverlap(tbTriangleBox(m, t), query) in a few vector operations: the same corner minima and
// maxima, and the same comparisons (a NaN compares false, as there).
static inline bool tbTriangleOverlapsW(const tbMesh* m, int t, tbQueryBoxW query)
{
	const int* idx = m->indices + 3 * t;
	__m128 a = tbVertexW(m->vertices + idx[0]), b = tbVertexW(m->vertices + idx[1]);
	__m128 c = tbVertexW(m->vertices + idx[2]);
	__m128 lower = _mm_min_ps(a, _mm_min_ps(b, c)), upper = _mm_max_ps(a, _mm_max_ps(b, c));
	__m128 meet = _mm_and_ps(_mm_cmple_ps(lower, query.upper), _mm_cmple_ps(query.lower, upper));
	return (_mm_movemask_ps(meet) & 7) == 7;
}

// Whether the box lies wholly beyond one of the planes n . x = limit (limit = offset + push), four
// planes at a time: its corner least along n is beyond it, with a relative slack of float rounding
// so that a corner of a triangle inside the box is beyond it too, however its dot rounds. The same
// limits, corner choice, products, sums and slack in the same order as one plane at a time.
static bool tbBoxBeyondPlanesW(tbAABB box, const tbPlaneLanes* planes, float push)
{
	const float* lanes = planes->lanes;
	const __m128 zero = _mm_setzero_ps();
	const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 slack = _mm_set1_ps(1e-5f);
	const __m128 pushW = _mm_set1_ps(push);
	__m128 lx = _mm_set1_ps(box.lower.x), ly = _mm_set1_ps(box.lower.y);
	__m128 lz = _mm_set1_ps(box.lower.z);
	__m128 ux = _mm_set1_ps(box.upper.x), uy = _mm_set1_ps(box.upper.y);
	__m128 uz = _mm_set1_ps(box.upper.z);
	for (int i = 0; i < planes->count; i += 4) {
		__m128 nx = _mm_loadu_ps(lanes + i), ny = _mm_loadu_ps(lanes + TB_PLANE_LANES + i);
		__m128 nz = _mm_loadu_ps(lanes + 2 * TB_PLANE_LANES + i);
		__m128 limit = _mm_add_ps(_mm_loadu_ps(lanes + 3 * TB_PLANE_LANES + i), pushW);
		__m128 px = _mm_cmpge_ps(nx, zero), py = _mm_cmpge_ps(ny, zero);
		__m128 pz = _mm_cmpge_ps(nz, zero);
		__m128 cx = _mm_or_ps(_mm_and_ps(px, lx), _mm_andnot_ps(px, ux));
		__m128 cy = _mm_or_ps(_mm_and_ps(py, ly), _mm_andnot_ps(py, uy));
		__m128 cz = _mm_or_ps(_mm_and_ps(pz, lz), _mm_andnot_ps(pz, uz));
		__m128 d =
		    _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, cx), _mm_mul_ps(ny, cy)), _mm_mul_ps(nz, cz));
		__m128 bound =
		    _mm_mul_ps(slack, _mm_add_ps(_mm_and_ps(d, magnitude), _mm_and_ps(limit, magnitude)));
		if (_mm_movemask_ps(_mm_cmpgt_ps(_mm_sub_ps(d, limit), bound)) != 0) {
			return true;
		}
	}
	return false;
}
#endif

static int tbQueryMesh(const tbMesh* m, tbAABB box, const tbPlaneLanes* planes, float push,
                       tbTriangleQueryFcn* fcn, void* context)
{
	int stack[TB_MESH_STACK];
	int top = 0, reported = 0;
	stack[top++] = 0;
	bool beyond = planes != NULL && planes->count > 0;
#if defined(__SSE2__)
	const tbQueryBoxW queryW = tbQueryBoxW_Make(box);
#endif
	// Every node is visited at most once.
	for (int visits = 0; top > 0 && visits < m->nodeCount; ++visits) {
		const tbMeshNode* node = m->nodes + stack[--top];
#if defined(__SSE2__)
		// A NaN query box meets every node here (it fails tbBoxesOverlap); the triangles' own
		// test below then reports none.
		if (!tbAABB_OverlapsW(&node->box, queryW)) {
			continue;
		}
#else
		if (!tbBoxesOverlap(node->box, box)) {
			continue;
		}
#endif
		if (node->count > 0) {
			// A leaf beyond a plane: its triangles, whose corners lie in its box, are too.
#if defined(__SSE2__)
			if (beyond && tbBoxBeyondPlanesW(node->box, planes, push)) {
				continue;
			}
#else
			if (beyond && tbBoxBeyondPlanes(node->box, planes, push)) {
				continue;
			}
#endif
			// A leaf inside the box: its triangles' boxes, inside its own, all overlap it.
			bool inside = box.lower.x <= node->box.lower.x && box.lower.y <= node->box.lower.y &&
			              box.lower.z <= node->box.lower.z && node->box.upper.x <= box.upper.x &&
			              node->box.upper.y <= box.upper.y && node->box.upper.z <= box.upper.z;
			for (int i = node->child; i < node->child + node->count; ++i) {
				int t = m->order[i];
#if defined(__SSE2__)
				bool meets = inside || tbTriangleOverlapsW(m, t, queryW);
#else
				bool meets = inside || tbBoxesOverlap(tbTriangleBox(m, t), box);
#endif
				if (meets) {
					++reported;
					if (!fcn(t, context)) {
						return reported;
					}
				}
			}
		} else if (top + 2 <= TB_MESH_STACK) {
			stack[top++] = node->child + 1;
			stack[top++] = node->child;
		}
	}
	return reported;
}

// The cells of a heightfield whose footprint meets [lo, hi] along one axis: first and last index,
// clamped to the grid; false when none.
static bool tbCellRange(float lo, float hi, float origin, float spacing, int cells, int* first,
                        int* last)
{
	float a = floorf((lo - origin) / spacing), b = floorf((hi - origin) / spacing);
	if (!(b >= 0.0f) || !(a <= (float)(cells - 1))) {
		return false;
	}
	*first = a < 0.0f ? 0 : (int)a;
	*last = b > (float)(cells - 1) ? cells - 1 : (int)b;
	return *first <= *last;
}

static int tbQueryHeightfield(const tbHeightfield* f, tbAABB box, tbTriangleQueryFcn* fcn,
                              void* context)
{
	if (!tbBoxesOverlap(f->bounds, box)) {
		return 0;
	}
	int c0, c1, r0, r1;
	if (!tbCellRange(box.lower.x, box.upper.x, f->bounds.lower.x, f->dx, f->columns - 1, &c0,
	                 &c1) ||
	    !tbCellRange(box.lower.z, box.upper.z, f->bounds.lower.z, f->dz, f->rows - 1, &r0, &r1)) {
		return 0;
	}
	int reported = 0;
	for (int r = r0; r <= r1; ++r) {
		for (int c = c0; c <= c1; ++c) {
			int cell = r * (f->columns - 1) + c;
			for (int k = 0; k < 2; ++k) {
				vec3s v[3];
				tbHeightfieldTriangle(f, 2 * cell + k, v);
				tbAABB tb = {glms_vec3_minv(v[0], glms_vec3_minv(v[1], v[2])),
				             glms_vec3_maxv(v[0], glms_vec3_maxv(v[1], v[2]))};
				if (tbBoxesOverlap(tb, box)) {
					++reported;
					if (!fcn(2 * cell + k, context)) {
						return reported;
					}
				}
			}
		}
	}
	return reported;
}

int tbGeometry_QueryTriangles(const tbGeometry* shape, tbAABB box, tbTriangleQueryFcn* fcn,
                              void* context)
{
	if (fcn == NULL || tbGeometry_GetTriangleCount(shape) == 0) {
		return 0;
	}
	if (shape->type == tb_meshShape) {
		return tbQueryMesh(shape->mesh, box, NULL, 0.0f, fcn, context);
	}
	return tbQueryHeightfield(shape->heightfield, box, fcn, context);
}

int tbQueryTrianglesWithin(const tbGeometry* shape, tbAABB box, const tbPlaneLanes* planes,
                           float push, tbTriangleQueryFcn* fcn, void* context)
{
	if (fcn == NULL || tbGeometry_GetTriangleCount(shape) == 0) {
		return 0;
	}
	if (shape->type == tb_meshShape) {
		return tbQueryMesh(shape->mesh, box, planes, push, fcn, context);
	}
	return tbQueryHeightfield(shape->heightfield, box, fcn, context);
}

// ---------------------------------------------------------------------------------------------
// Ray casts

// Moller-Trumbore ray-triangle intersection (Moller and Trumbore, "Fast, minimum storage
// ray-triangle intersection", 1997), both sides: the hit's t along p + t d, or a negative value.
static float tbRayTriangle(vec3s p, vec3s d, vec3s a, vec3s b, vec3s c)
{
	vec3s e1 = glms_vec3_sub(b, a), e2 = glms_vec3_sub(c, a);
	vec3s q = glms_vec3_cross(d, e2);
	float det = glms_vec3_dot(e1, q);
	float scale = glms_vec3_norm(e1) * glms_vec3_norm(e2) * glms_vec3_norm(d);
	if (!(fabsf(det) > 1e-9f * scale)) {
		return -1.0f; // parallel to the plane
	}
	float inv = 1.0f / det;
	vec3s s = glms_vec3_sub(p, a);
	float u = glms_vec3_dot(s, q) * inv;
	if (u < 0.0f || u > 1.0f) {
		return -1.0f;
	}
	vec3s r = glms_vec3_cross(s, e1);
	float v = glms_vec3_dot(d, r) * inv;
	if (v < 0.0f || u + v > 1.0f) {
		return -1.0f;
	}
	return glms_vec3_dot(e2, r) * inv;
}

typedef struct tbRayHit
{
	float t;
	vec3s normal; // of the triangle hit, front side
	bool hit;
} tbRayHit;

static void tbRayTest(vec3s p, vec3s d, const vec3s v[3], tbRayHit* best)
{
	float t = tbRayTriangle(p, d, v[0], v[1], v[2]);
	if (t >= 0.0f && t <= best->t) {
		best->t = t;
		best->normal = tbTriangleNormal(v[0], v[1], v[2]);
		best->hit = true;
	}
}

static void tbRayMesh(const tbMesh* m, vec3s p, vec3s d, tbRayHit* best)
{
	int stack[TB_MESH_STACK];
	int top = 0;
	stack[top++] = 0;
	for (int visits = 0; top > 0 && visits < m->nodeCount; ++visits) {
		const tbMeshNode* node = m->nodes + stack[--top];
		float enter, exit;
		if (!tbAABB_SegmentHits(node->box, p, d, best->t, &enter, &exit)) {
			continue;
		}
		if (node->count > 0) {
			for (int i = node->child; i < node->child + node->count; ++i) {
				const int* idx = m->indices + 3 * m->order[i];
				vec3s v[3] = {m->vertices[idx[0]], m->vertices[idx[1]], m->vertices[idx[2]]};
				tbRayTest(p, d, v, best);
			}
		} else if (top + 2 <= TB_MESH_STACK) {
			stack[top++] = node->child + 1;
			stack[top++] = node->child;
		}
	}
}

// A heightfield by walking the cells under the ray in order (Amanatides and Woo, "A fast voxel
// traversal algorithm", 1987, in 2D): a hit lies over its own cell, and the ray crosses cells in
// the order of t, so the first cell with a hit holds the closest one.
static void tbRayHeightfield(const tbHeightfield* f, vec3s p, vec3s d, tbRayHit* best)
{
	float enter, exit;
	if (!tbAABB_SegmentHits(f->bounds, p, d, best->t, &enter, &exit)) {
		return;
	}
	int cols = f->columns - 1, rows = f->rows - 1;
	float x0 = f->bounds.lower.x, z0 = f->bounds.lower.z;
	vec3s start = glms_vec3_add(p, glms_vec3_scale(d, enter));
	int c = (int)floorf((start.x - x0) / f->dx), r = (int)floorf((start.z - z0) / f->dz);
	c = c < 0 ? 0 : c > cols - 1 ? cols - 1 : c;
	r = r < 0 ? 0 : r > rows - 1 ? rows - 1 : r;
	int stepC = d.x > 0.0f ? 1 : -1, stepR = d.z > 0.0f ? 1 : -1;
	// t at which the ray crosses the next column and row line, and the t between two lines.
	float nextX = d.x != 0.0f ? (x0 + (float)(c + (stepC > 0)) * f->dx - p.x) / d.x : FLT_MAX;
	float nextZ = d.z != 0.0f ? (z0 + (float)(r + (stepR > 0)) * f->dz - p.z) / d.z : FLT_MAX;
	float deltaX = d.x != 0.0f ? f->dx / fabsf(d.x) : FLT_MAX;
	float deltaZ = d.z != 0.0f ? f->dz / fabsf(d.z) : FLT_MAX;
	// A straight line crosses at most cols + rows cells.
	for (int steps = 0; steps <= cols + rows + 1; ++steps) {
		int cell = r * cols + c;
		for (int k = 0; k < 2; ++k) {
			vec3s v[3];
			tbHeightfieldTriangle(f, 2 * cell + k, v);
			tbRayTest(p, d, v, best);
		}
		float cellExit = nextX < nextZ ? nextX : nextZ;
		if (best->hit || cellExit > exit) {
			return;
		}
		if (nextX < nextZ) {
			c += stepC;
			nextX += deltaX;
		} else {
			r += stepR;
			nextZ += deltaZ;
		}
		if (c < 0 || c >= cols || r < 0 || r >= rows) {
			return;
		}
	}
}

tbCastOutput tbRayCastLevelLocal(const tbGeometry* shape, vec3s origin, vec3s translation,
                                 float maxFraction)
{
	tbCastOutput out;
	memset(&out, 0, sizeof out);
	if (tbGeometry_GetTriangleCount(shape) == 0 || !(maxFraction > 0.0f) ||
	    !isfinite(maxFraction) || !isfinite(origin.x + origin.y + origin.z) ||
	    !isfinite(translation.x + translation.y + translation.z)) {
		return out;
	}
	tbRayHit best = {maxFraction, {{0.0f, 1.0f, 0.0f}}, false};
	if (shape->type == tb_meshShape) {
		tbRayMesh(shape->mesh, origin, translation, &best);
	} else {
		tbRayHeightfield(shape->heightfield, origin, translation, &best);
	}
	if (!best.hit) {
		return out;
	}
	out.hit = true;
	out.fraction = best.t;
	out.point = glms_vec3_add(origin, glms_vec3_scale(translation, best.t));
	// The side the ray comes from.
	out.normal = glms_vec3_dot(best.normal, translation) > 0.0f ? glms_vec3_negate(best.normal)
	                                                            : best.normal;
	out.iterations = 1;
	return out;
}
