// A dynamic AABB tree (Box2D's b2DynamicTree in 3D): the broad phase's proxies with fattened boxes,
// incremental insert/remove/move and balancing by rotations, AABB and ray queries. Internal to
// the engine's broad phase: not installed, not exported from libtumble.
#pragma once

#include "tumble/base.h"
#include "tumble/geometry.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define TB_NULL_NODE (-1)

/// One node: a leaf holds a proxy, an inner node the union of its two children.
typedef struct tbTreeNode
{
	tbAABB aabb;   ///< fattened box of a leaf, union of the children otherwise, metres
	int parent;    ///< parent node, or the next free node while on the free list
	int child1;    ///< TB_NULL_NODE for a leaf
	int child2;    ///< TB_NULL_NODE for a leaf
	int height;    ///< 0 for a leaf, -1 for a free node
	int userData;  ///< the leaf's owner (the engine's shape index)
	bool enlarged; ///< an inner node grown by tbDynamicTree_EnlargeProxy since the last rebuild
} tbTreeNode;

/// The tree. Zero it or use tbDynamicTree_Create; release with tbDynamicTree_Destroy.
typedef struct tbDynamicTree
{
	tbTreeNode* nodes;
	int root;
	int nodeCount;
	int nodeCapacity;
	int freeList;
	int proxyCount;
	// tbDynamicTree_Rebuild's work arrays, grown to the tree and kept.
	int* rebuildItems;     // the subtrees the rebuild places (kept whole)
	int* rebuildNodes;     // the inner nodes it frees and reuses
	int* rebuildStack;     // ranges still to split: begin, end, parent, side
	vec3s* rebuildCenters; // each item's box centre, as the items
	int* rebuildOrder;     // the inner nodes each range made, in order
	int rebuildCapacity;
} tbDynamicTree;

/// Called for each leaf whose box overlaps the query box; return false to stop the query.
typedef bool tbTreeQueryFcn(int proxyId, int userData, void* context);

/// Called for each leaf whose box the ray crosses before maxFraction. Return the new max fraction
/// (the hit's fraction clips the ray), 0 to stop, or a negative value to ignore this leaf.
typedef float tbTreeRayCastFcn(int proxyId, int userData, vec3s origin, vec3s translation,
                               float maxFraction, void* context);

/// An empty tree with room for a few nodes (allocated through tbAlloc).
tbDynamicTree tbDynamicTree_Create(void);

/// Free the tree's nodes and zero it.
void tbDynamicTree_Destroy(tbDynamicTree* tree);

/// Insert a leaf with the given (already fattened) box. Returns the proxy id.
int tbDynamicTree_CreateProxy(tbDynamicTree* tree, tbAABB aabb, int userData);

/// Remove a leaf.
void tbDynamicTree_DestroyProxy(tbDynamicTree* tree, int proxyId);

/// Give a leaf a new (fattened) box: remove and re-insert it.
void tbDynamicTree_MoveProxy(tbDynamicTree* tree, int proxyId, tbAABB aabb);

/// Give a leaf a new (fattened) box where it stands (Box2D v3's enlarge): every ancestor grows
/// to hold it and is marked. The tree stays correct (each box holds its children's) but its
/// inner boxes only grow until tbDynamicTree_Rebuild; far cheaper than tbDynamicTree_MoveProxy
/// for the many leaves a step moves.
void tbDynamicTree_EnlargeProxy(tbDynamicTree* tree, int proxyId, tbAABB aabb);

/// tbDynamicTree_EnlargeProxy for callers on several threads at once, each with leaves of its
/// own, nothing else reading or changing the tree meanwhile: the ancestors' boxes grow by atomic
/// minima and maxima and their marks are atomic. The tree ends the same for any order of the
/// calls, on one thread or many (each inner box: its box before, and every given box below it).
void tbDynamicTree_EnlargeProxyShared(tbDynamicTree* tree, int proxyId, tbAABB aabb);

/// A range [start, end) of a loop's items, on worker `worker`.
typedef void tbTreeTaskFcn(int start, int end, int worker, void* taskContext);

/// Runs task over [0, itemCount) in ranges of at least minRange items, on any threads, and
/// returns when all are done (the engine's parallel loop; NULL: one thread).
typedef void tbTreeParallelFcn(tbTreeTaskFcn* task, int itemCount, int minRange, void* taskContext,
                               void* context);

/// Build again the part of the tree above the enlarged nodes, top down by the binned surface
/// area heuristic, keeping every subtree below them whole (Box2D v3's partial rebuild); the
/// ranges below the first splits side by side through `parallelFor` (NULL: one thread), the same
/// tree either way. `ways`: how many ranges the top splits make for it, at most
/// TB_REBUILD_RANGES (a few per worker: the top's splits run on one thread). Returns how many
/// subtrees and leaves it placed (0: nothing was enlarged).
int tbDynamicTree_Rebuild(tbDynamicTree* tree, tbTreeParallelFcn* parallelFor, int ways,
                          void* context);

/// The most ranges tbDynamicTree_Rebuild's top splits make.
#define TB_REBUILD_RANGES 128

/// The fattened box of a leaf.
tbAABB tbDynamicTree_GetAABB(const tbDynamicTree* tree, int proxyId);

/// The user data of a leaf.
int tbDynamicTree_GetUserData(const tbDynamicTree* tree, int proxyId);

/// Every leaf whose box overlaps `aabb`, in tree order. Allocates nothing.
void tbDynamicTree_Query(const tbDynamicTree* tree, tbAABB aabb, tbTreeQueryFcn* fcn,
                         void* context);

/// Leaves whose boxes the segment origin + t * translation, t in [0, maxFraction], crosses.
void tbDynamicTree_RayCast(const tbDynamicTree* tree, vec3s origin, vec3s translation,
                           float maxFraction, tbTreeRayCastFcn* fcn, void* context);

/// Height of the tree (0 for one leaf, -1 when empty).
int tbDynamicTree_GetHeight(const tbDynamicTree* tree);

/// Check parent links, heights and boxes of the whole tree (for tests). True when consistent.
bool tbDynamicTree_Validate(const tbDynamicTree* tree);

/// True when the boxes overlap (touching counts).
static inline bool tbAABB_Overlaps(tbAABB a, tbAABB b)
{
	return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || b.lower.z > a.upper.z ||
	         a.lower.x > b.upper.x || a.lower.y > b.upper.y || a.lower.z > b.upper.z);
}

#if defined(__SSE2__)
/// A query's box in two registers, its corners (fourth lanes zero), for tbAABB_OverlapsW.
typedef struct tbQueryBoxW
{
	__m128 lower, upper;
} tbQueryBoxW;

static inline tbQueryBoxW tbQueryBoxW_Make(tbAABB box)
{
	tbQueryBoxW q;
	q.lower = _mm_setr_ps(box.lower.x, box.lower.y, box.lower.z, 0.0f);
	q.upper = _mm_setr_ps(box.upper.x, box.upper.y, box.upper.z, 0.0f);
	return q;
}

/// tbAABB_Overlaps(*box, query) in four vector operations: apart where the query's lower corner
/// is above the box's upper one, or the box's lower corner above the query's upper one, on some
/// axis. A box is six floats, lower then upper; each four-float load takes the float after its
/// corner too (the lane the mask leaves out), so `box` must be followed by four bytes more of
/// the same object (a tree node's box is). A NaN compares false in both forms.
static inline bool tbAABB_OverlapsW(const tbAABB* box, tbQueryBoxW query)
{
	__m128 lower = _mm_loadu_ps(&box->lower.x);
	__m128 upper = _mm_loadu_ps(&box->upper.x);
	__m128 apart = _mm_or_ps(_mm_cmpgt_ps(query.lower, upper), _mm_cmpgt_ps(lower, query.upper));
	return (_mm_movemask_ps(apart) & 7) == 0;
}
#endif

/// Slab test (Kay and Kajiya 1986) of the segment p + t d, t in [0, tMax], against a box: true
/// when they meet, with the parameters where the segment enters and leaves the box.
static inline bool tbAABB_SegmentHits(tbAABB box, vec3s p, vec3s d, float tMax, float* enter,
                                      float* exit)
{
	float t0 = 0.0f, t1 = tMax;
	for (int axis = 0; axis < 3; ++axis) {
		float o = p.raw[axis], v = d.raw[axis];
		float lo = box.lower.raw[axis], hi = box.upper.raw[axis];
		if (v == 0.0f) {
			if (o < lo || o > hi) {
				return false;
			}
			continue;
		}
		float inv = 1.0f / v;
		float ta = (lo - o) * inv, tb = (hi - o) * inv;
		if (ta > tb) {
			float t = ta;
			ta = tb;
			tb = t;
		}
		t0 = ta > t0 ? ta : t0;
		t1 = tb < t1 ? tb : t1;
		if (t0 > t1) {
			return false;
		}
	}
	*enter = t0;
	*exit = t1;
	return true;
}

/// True when `inner` lies inside `outer`.
static inline bool tbAABB_Contains(tbAABB outer, tbAABB inner)
{
	return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y &&
	       outer.lower.z <= inner.lower.z && inner.upper.x <= outer.upper.x &&
	       inner.upper.y <= outer.upper.y && inner.upper.z <= outer.upper.z;
}

/// The smallest box holding both.
static inline tbAABB tbAABB_Union(tbAABB a, tbAABB b)
{
	tbAABB c;
	c.lower = glms_vec3_minv(a.lower, b.lower);
	c.upper = glms_vec3_maxv(a.upper, b.upper);
	return c;
}

/// Half the surface area: the insertion cost of the surface-area heuristic, m^2.
static inline float tbAABB_HalfArea(tbAABB a)
{
	vec3s d = glms_vec3_sub(a.upper, a.lower);
	return d.x * d.y + d.y * d.z + d.z * d.x;
}
