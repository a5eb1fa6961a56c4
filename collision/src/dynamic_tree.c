// The dynamic AABB tree: Box2D v2.4's b2DynamicTree (surface-area insertion, AVL rotations) in 3D.
#include "tumble/dynamic_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tumble/allocate_internal.h"

// A tree balanced by rotations has height about 1.44 log2(n): 256 levels is far beyond any world.
#define TB_TREE_STACK 256

tbDynamicTree tbDynamicTree_Create(void)
{
	tbDynamicTree tree;
	memset(&tree, 0, sizeof tree);
	tree.root = TB_NULL_NODE;
	tree.nodeCapacity = 16;
	tree.nodes = tbAlloc((size_t)tree.nodeCapacity * sizeof(tbTreeNode));
	memset(tree.nodes, 0, (size_t)tree.nodeCapacity * sizeof(tbTreeNode));
	for (int i = 0; i < tree.nodeCapacity; ++i) {
		tree.nodes[i].parent = i + 1 < tree.nodeCapacity ? i + 1 : TB_NULL_NODE;
		tree.nodes[i].height = -1;
	}
	tree.freeList = 0;
	return tree;
}

void tbDynamicTree_Destroy(tbDynamicTree* tree)
{
	size_t n = (size_t)tree->rebuildCapacity;
	tbFree(tree->rebuildItems, n * sizeof(int));
	tbFree(tree->rebuildNodes, n * sizeof(int));
	tbFree(tree->rebuildStack, 4u * n * sizeof(int));
	tbFree(tree->rebuildCenters, n * sizeof(vec3s));
	tbFree(tree->rebuildOrder, n * sizeof(int));
	tbFree(tree->nodes, (size_t)tree->nodeCapacity * sizeof(tbTreeNode));
	memset(tree, 0, sizeof *tree);
	tree->root = TB_NULL_NODE;
}

static int tbAllocateNode(tbDynamicTree* tree)
{
	if (tree->freeList == TB_NULL_NODE || tree->nodes == NULL) {
		// Double the pool: amortised, and only while the world grows (warm-up).
		int oldCapacity = tree->nodeCapacity;
		int newCapacity = oldCapacity > 0 ? 2 * oldCapacity : 16;
		tree->nodes = tbGrowAlloc(tree->nodes, (size_t)oldCapacity * sizeof(tbTreeNode),
		                          (size_t)newCapacity * sizeof(tbTreeNode));
		memset(tree->nodes + oldCapacity, 0,
		       (size_t)(newCapacity - oldCapacity) * sizeof(tbTreeNode));
		for (int i = oldCapacity; i < newCapacity; ++i) {
			tree->nodes[i].parent = i + 1 < newCapacity ? i + 1 : TB_NULL_NODE;
			tree->nodes[i].height = -1;
		}
		tree->nodeCapacity = newCapacity;
		tree->freeList = oldCapacity;
	}
	int id = tree->freeList;
	tbTreeNode* node = tree->nodes + id;
	tree->freeList = node->parent;
	node->parent = TB_NULL_NODE;
	node->child1 = TB_NULL_NODE;
	node->child2 = TB_NULL_NODE;
	node->height = 0;
	node->userData = -1;
	node->enlarged = false;
	tree->nodeCount += 1;
	return id;
}

static void tbFreeNode(tbDynamicTree* tree, int id)
{
	tree->nodes[id].parent = tree->freeList;
	tree->nodes[id].height = -1;
	tree->freeList = id;
	tree->nodeCount -= 1;
}

static int tbMaxInt(int a, int b)
{
	return a > b ? a : b;
}

// AVL rotation of Box2D v2.4: if the subtree at iA leans by more than one level, promote the
// taller child. Returns the new subtree root.
static int tbBalance(tbDynamicTree* tree, int iA)
{
	tbTreeNode* nodes = tree->nodes;
	tbTreeNode* A = nodes + iA;
	if (A->child1 == TB_NULL_NODE || A->height < 2) {
		return iA;
	}
	int iB = A->child1, iC = A->child2;
	tbTreeNode* B = nodes + iB;
	tbTreeNode* C = nodes + iC;
	int balance = C->height - B->height;

	if (balance > 1) {
		// Rotate C up.
		int iF = C->child1, iG = C->child2;
		tbTreeNode* F = nodes + iF;
		tbTreeNode* G = nodes + iG;
		C->child1 = iA;
		C->parent = A->parent;
		A->parent = iC;
		if (C->parent != TB_NULL_NODE) {
			if (nodes[C->parent].child1 == iA) {
				nodes[C->parent].child1 = iC;
			} else {
				nodes[C->parent].child2 = iC;
			}
		} else {
			tree->root = iC;
		}
		if (F->height > G->height) {
			C->child2 = iF;
			A->child2 = iG;
			G->parent = iA;
			A->aabb = tbAABB_Union(B->aabb, G->aabb);
			C->aabb = tbAABB_Union(A->aabb, F->aabb);
			A->height = 1 + tbMaxInt(B->height, G->height);
			C->height = 1 + tbMaxInt(A->height, F->height);
		} else {
			C->child2 = iG;
			A->child2 = iF;
			F->parent = iA;
			A->aabb = tbAABB_Union(B->aabb, F->aabb);
			C->aabb = tbAABB_Union(A->aabb, G->aabb);
			A->height = 1 + tbMaxInt(B->height, F->height);
			C->height = 1 + tbMaxInt(A->height, G->height);
		}
		return iC;
	}
	if (balance < -1) {
		// Rotate B up.
		int iD = B->child1, iE = B->child2;
		tbTreeNode* D = nodes + iD;
		tbTreeNode* E = nodes + iE;
		B->child1 = iA;
		B->parent = A->parent;
		A->parent = iB;
		if (B->parent != TB_NULL_NODE) {
			if (nodes[B->parent].child1 == iA) {
				nodes[B->parent].child1 = iB;
			} else {
				nodes[B->parent].child2 = iB;
			}
		} else {
			tree->root = iB;
		}
		if (D->height > E->height) {
			B->child2 = iD;
			A->child1 = iE;
			E->parent = iA;
			A->aabb = tbAABB_Union(C->aabb, E->aabb);
			B->aabb = tbAABB_Union(A->aabb, D->aabb);
			A->height = 1 + tbMaxInt(C->height, E->height);
			B->height = 1 + tbMaxInt(A->height, D->height);
		} else {
			B->child2 = iE;
			A->child1 = iD;
			D->parent = iA;
			A->aabb = tbAABB_Union(C->aabb, D->aabb);
			B->aabb = tbAABB_Union(A->aabb, E->aabb);
			A->height = 1 + tbMaxInt(C->height, D->height);
			B->height = 1 + tbMaxInt(A->height, E->height);
		}
		return iB;
	}
	return iA;
}

static bool tbSameBox(tbAABB a, tbAABB b)
{
	return a.lower.x == b.lower.x && a.lower.y == b.lower.y && a.lower.z == b.lower.z &&
	       a.upper.x == b.upper.x && a.upper.y == b.upper.y && a.upper.z == b.upper.z;
}

// Walk up from `index` refitting boxes and heights, rebalancing on the way. Above the first node,
// the walk stops at a node that kept its box and height without a rotation: every node above it
// is made from it and nodes that did not change, so it stays as it was (a leaf moved within its
// neighbourhood refits a few levels, not the whole path to the root).
static void tbRefit(tbDynamicTree* tree, int index)
{
	int guard = 0;
	bool first = true;
	while (index != TB_NULL_NODE && guard++ < 4 * TB_TREE_STACK) {
		int top = tbBalance(tree, index);
		tbTreeNode* node = tree->nodes + top;
		const tbTreeNode* c1 = tree->nodes + node->child1;
		const tbTreeNode* c2 = tree->nodes + node->child2;
		int height = 1 + tbMaxInt(c1->height, c2->height);
		tbAABB box = tbAABB_Union(c1->aabb, c2->aabb);
		bool kept = !first && top == index && height == node->height && tbSameBox(box, node->aabb);
		if (kept) {
			return;
		}
		node->height = height;
		node->aabb = box;
		first = false;
		index = node->parent;
	}
}

static void tbInsertLeaf(tbDynamicTree* tree, int leaf)
{
	tbTreeNode* nodes = tree->nodes;
	if (tree->root == TB_NULL_NODE) {
		tree->root = leaf;
		nodes[leaf].parent = TB_NULL_NODE;
		return;
	}
	// Descend by the surface-area heuristic (Box2D v2.4, Goldsmith-Salmon): the cost of making a
	// new parent here against the least cost of descending into either child.
	tbAABB leafBox = nodes[leaf].aabb;
	int index = tree->root;
	while (nodes[index].child1 != TB_NULL_NODE) {
		int child1 = nodes[index].child1, child2 = nodes[index].child2;
		float area = tbAABB_HalfArea(nodes[index].aabb);
		float combinedArea = tbAABB_HalfArea(tbAABB_Union(nodes[index].aabb, leafBox));
		float cost = 2.0f * combinedArea;
		float inheritance = 2.0f * (combinedArea - area);
		float cost1 = tbAABB_HalfArea(tbAABB_Union(leafBox, nodes[child1].aabb)) + inheritance;
		if (nodes[child1].child1 != TB_NULL_NODE) {
			cost1 -= tbAABB_HalfArea(nodes[child1].aabb);
		}
		float cost2 = tbAABB_HalfArea(tbAABB_Union(leafBox, nodes[child2].aabb)) + inheritance;
		if (nodes[child2].child1 != TB_NULL_NODE) {
			cost2 -= tbAABB_HalfArea(nodes[child2].aabb);
		}
		if (cost < cost1 && cost < cost2) {
			break;
		}
		index = cost1 < cost2 ? child1 : child2;
	}
	int sibling = index;

	int oldParent = nodes[sibling].parent;
	int newParent = tbAllocateNode(tree);
	nodes = tree->nodes; // the pool may have moved
	nodes[newParent].parent = oldParent;
	nodes[newParent].aabb = tbAABB_Union(leafBox, nodes[sibling].aabb);
	nodes[newParent].height = nodes[sibling].height + 1;
	nodes[newParent].child1 = sibling;
	nodes[newParent].child2 = leaf;
	nodes[sibling].parent = newParent;
	nodes[leaf].parent = newParent;
	if (oldParent != TB_NULL_NODE) {
		if (nodes[oldParent].child1 == sibling) {
			nodes[oldParent].child1 = newParent;
		} else {
			nodes[oldParent].child2 = newParent;
		}
	} else {
		tree->root = newParent;
	}
	tbRefit(tree, nodes[leaf].parent);
}

static void tbRemoveLeaf(tbDynamicTree* tree, int leaf)
{
	tbTreeNode* nodes = tree->nodes;
	if (leaf == tree->root) {
		tree->root = TB_NULL_NODE;
		return;
	}
	int parent = nodes[leaf].parent;
	int grandParent = nodes[parent].parent;
	int sibling = nodes[parent].child1 == leaf ? nodes[parent].child2 : nodes[parent].child1;
	if (grandParent != TB_NULL_NODE) {
		if (nodes[grandParent].child1 == parent) {
			nodes[grandParent].child1 = sibling;
		} else {
			nodes[grandParent].child2 = sibling;
		}
		nodes[sibling].parent = grandParent;
		tbFreeNode(tree, parent);
		tbRefit(tree, grandParent);
	} else {
		tree->root = sibling;
		nodes[sibling].parent = TB_NULL_NODE;
		tbFreeNode(tree, parent);
	}
}

int tbDynamicTree_CreateProxy(tbDynamicTree* tree, tbAABB aabb, int userData)
{
	tbDynamicTree_Rebuild(tree, NULL, 1, NULL); // no marked node meets a rotation

	int id = tbAllocateNode(tree);
	tree->nodes[id].aabb = aabb;
	tree->nodes[id].userData = userData;
	tree->nodes[id].height = 0;
	tbInsertLeaf(tree, id);
	tree->proxyCount += 1;
	return id;
}

void tbDynamicTree_DestroyProxy(tbDynamicTree* tree, int proxyId)
{
	tbDynamicTree_Rebuild(tree, NULL, 1, NULL); // no marked node meets a rotation

	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity && tree->nodes[proxyId].height == 0);
	tbRemoveLeaf(tree, proxyId);
	tbFreeNode(tree, proxyId);
	tree->proxyCount -= 1;
}

void tbDynamicTree_MoveProxy(tbDynamicTree* tree, int proxyId, tbAABB aabb)
{
	tbDynamicTree_Rebuild(tree, NULL, 1, NULL); // no marked node meets a rotation

	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity && tree->nodes[proxyId].height == 0);
	tbRemoveLeaf(tree, proxyId);
	tree->nodes[proxyId].aabb = aabb;
	tbInsertLeaf(tree, proxyId);
}

void tbDynamicTree_EnlargeProxy(tbDynamicTree* tree, int proxyId, tbAABB aabb)
{
	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity && tree->nodes[proxyId].height == 0);
	tbTreeNode* nodes = tree->nodes;
	nodes[proxyId].aabb = aabb;
	// Up the ancestors: each holds the new box and is marked, so that the rebuild, which goes
	// down through marked nodes, reaches this leaf. A marked ancestor that already holds the box
	// ends the walk: every node above it holds its box and is marked (a marked node's parent is
	// marked: the tree's inserts and removals, whose rotations could break that, rebuild first).
	int index = nodes[proxyId].parent;
	for (int guard = 0; index != TB_NULL_NODE && guard < 4 * TB_TREE_STACK; ++guard) {
		tbTreeNode* node = nodes + index;
		if (!tbAABB_Contains(node->aabb, aabb)) {
			node->aabb = tbAABB_Union(node->aabb, aabb);
		} else if (node->enlarged) {
			return;
		}
		node->enlarged = true;
		index = node->parent;
	}
}

// *at = min(*at, v) (max when `up`), atomically; true when it changed.
static bool tbAtomicBound(float* at, float v, bool up)
{
	float cur;
	__atomic_load(at, &cur, __ATOMIC_RELAXED);
	// Each failed exchange reloads cur, which only moves towards v: a few tries at most.
	for (int guard = 0; guard < 1024 && (up ? v > cur : v < cur); ++guard) {
		if (__atomic_compare_exchange(at, &cur, &v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
			return true;
		}
	}
	return false;
}

void tbDynamicTree_EnlargeProxyShared(tbDynamicTree* tree, int proxyId, tbAABB aabb)
{
	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity && tree->nodes[proxyId].height == 0);
	tbTreeNode* nodes = tree->nodes;
	nodes[proxyId].aabb = aabb; // the caller's own leaf
	// As tbDynamicTree_EnlargeProxy. A walk stops at a marked node that held its box: every box
	// that grew that node goes on up (its walk does not stop there), so the nodes above end up
	// holding it too, whichever walk comes first. A node is marked after it grew: a walk that
	// finds it held and unmarked marks it and goes on, adding nothing the first will not.
	int index = nodes[proxyId].parent;
	for (int guard = 0; index != TB_NULL_NODE && guard < 4 * TB_TREE_STACK; ++guard) {
		tbTreeNode* node = nodes + index;
		bool grew = false;
		for (int k = 0; k < 3; ++k) {
			grew = tbAtomicBound(node->aabb.lower.raw + k, aabb.lower.raw[k], false) || grew;
			grew = tbAtomicBound(node->aabb.upper.raw + k, aabb.upper.raw[k], true) || grew;
		}
		if (!grew && __atomic_load_n(&node->enlarged, __ATOMIC_ACQUIRE)) {
			return;
		}
		__atomic_store_n(&node->enlarged, true, __ATOMIC_RELEASE);
		index = node->parent;
	}
}

static void tbGrowRebuild(tbDynamicTree* tree, int need)
{
	if (need <= tree->rebuildCapacity) {
		return;
	}
	size_t old = (size_t)tree->rebuildCapacity;
	size_t grown = (size_t)(need + need / 2);
	tree->rebuildItems = tbGrowAlloc(tree->rebuildItems, old * sizeof(int), grown * sizeof(int));
	tree->rebuildNodes = tbGrowAlloc(tree->rebuildNodes, old * sizeof(int), grown * sizeof(int));
	tree->rebuildStack =
	    tbGrowAlloc(tree->rebuildStack, 4u * old * sizeof(int), 4u * grown * sizeof(int));
	tree->rebuildCenters =
	    tbGrowAlloc(tree->rebuildCenters, old * sizeof(vec3s), grown * sizeof(vec3s));
	tree->rebuildOrder = tbGrowAlloc(tree->rebuildOrder, old * sizeof(int), grown * sizeof(int));
	tree->rebuildCapacity = (int)grown;
}

static float tbAxis(vec3s v, int axis)
{
	return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}

#if defined(__SSE2__)
// A vec3s in the low three lanes of a vector (the fourth zero), read as three floats.
static inline __m128 tbLoadVec3(vec3s v)
{
	return _mm_movelh_ps(_mm_castpd_ps(_mm_load_sd((const double*)v.raw)), _mm_load_ss(v.raw + 2));
}

static inline vec3s tbStoreVec3(__m128 v)
{
	float out[4];
	_mm_storeu_ps(out, v);
	return (vec3s){{out[0], out[1], out[2]}};
}
#endif

// Splits items [begin, end) (count >= 2) in place into two non-empty runs at the middle of their
// centres along the axis where the centres spread most, the lower centres first; at the middle of
// the range when the centres cannot be told apart or all lie on one side. Box2D v3's rebuild
// splits so: a tree rebuilt every step over a crowd of similar shapes gains less from the binned
// surface-area heuristic [Wald 2007] in its queries than the heuristic costs to evaluate.
static int tbSplitItems(int* items, vec3s* centers, int begin, int end)
{
	vec3s lo = centers[begin], hi = centers[begin];
#if defined(__SSE2__)
	// The same extremes in vector registers: glms_vec3_minv(lo, c) is lo < c ? lo : c by
	// coordinate, as _mm_min_ps(lo, c) (and max likewise). Each centre is read as its three
	// floats (the last may end its array).
	__m128 vlo = tbLoadVec3(lo), vhi = vlo;
	for (int i = begin + 1; i < end; ++i) {
		__m128 c = tbLoadVec3(centers[i]);
		vlo = _mm_min_ps(vlo, c);
		vhi = _mm_max_ps(vhi, c);
	}
	lo = tbStoreVec3(vlo);
	hi = tbStoreVec3(vhi);
#else
	for (int i = begin + 1; i < end; ++i) {
		lo = glms_vec3_minv(lo, centers[i]);
		hi = glms_vec3_maxv(hi, centers[i]);
	}
#endif
	vec3s extent = glms_vec3_sub(hi, lo);
	int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : extent.y >= extent.z ? 1 : 2;
	float width = tbAxis(extent, axis);
	int mid = begin + (end - begin) / 2;
	if (!(width > 0.0f)) {
		return mid;
	}
	float cut = tbAxis(lo, axis) + 0.5f * width;
	int i = begin, j = end - 1;
	for (int guard = 0; i <= j && guard <= end - begin; ++guard) {
		if (centers[i].raw[axis] < cut) {
			++i;
			continue;
		}
		int item = items[i];
		items[i] = items[j];
		items[j] = item;
		vec3s c = centers[i];
		centers[i] = centers[j];
		centers[j] = c;
		--j;
	}
	return i > begin && i < end ? i : mid;
}

// The inner node a range of items gets when it is split at `mid`: the freed node at mid - 1.
// Each split position of a range partition of [0, n) is used once, so the n - 1 freed nodes go
// to the n - 1 splits whatever order the ranges are split in (and on whichever worker).
static inline int tbSplitNode(const tbDynamicTree* tree, int mid)
{
	return tree->rebuildNodes[mid - 1];
}

static void tbLinkChild(tbDynamicTree* tree, int parent, int side, int child)
{
	tree->nodes[child].parent = parent;
	if (parent == TB_NULL_NODE) {
		tree->root = child;
	} else if (side == 1) {
		tree->nodes[parent].child1 = child;
	} else {
		tree->nodes[parent].child2 = child;
	}
}

static void tbFitNode(tbDynamicTree* tree, int index)
{
	tbTreeNode* node = tree->nodes + index;
	const tbTreeNode* c1 = tree->nodes + node->child1;
	const tbTreeNode* c2 = tree->nodes + node->child2;
	node->aabb = tbAABB_Union(c1->aabb, c2->aabb);
	node->height = 1 + tbMaxInt(c1->height, c2->height);
	node->enlarged = false;
}

// The subtree of items [begin, end) under `parent` (its child `side`), depth first, with the
// ranges still to split in the stack's slice [4 begin, 4 end) and the nodes made, in order, in
// rebuildOrder's slice from `begin`; then their boxes and heights, children first.
static void tbBuildRange(tbDynamicTree* tree, int begin, int end, int parent, int side)
{
	int* stack = tree->rebuildStack + 4 * begin;
	int* order = tree->rebuildOrder + begin;
	int top = 0, made = 0;
	stack[top++] = begin;
	stack[top++] = end;
	stack[top++] = parent;
	stack[top++] = side;
	for (int guard = 0; top > 0 && guard <= 2 * (end - begin); ++guard) {
		top -= 4;
		int b = stack[top], e = stack[top + 1], p = stack[top + 2], sd = stack[top + 3];
		int index = tree->rebuildItems[b];
		if (e - b > 1) {
			int mid = tbSplitItems(tree->rebuildItems, tree->rebuildCenters, b, e);
			index = tbSplitNode(tree, mid);
			order[made++] = index;
			stack[top++] = mid;
			stack[top++] = e;
			stack[top++] = index;
			stack[top++] = 2;
			stack[top++] = b;
			stack[top++] = mid;
			stack[top++] = index;
			stack[top++] = 1;
		}
		tbLinkChild(tree, p, sd, index);
	}
	for (int k = made - 1; k >= 0; --k) {
		tbFitNode(tree, order[k]);
	}
}

typedef struct tbRebuildTask
{
	tbDynamicTree* tree;
	const int* ranges; // begin, end, parent, side per range
} tbRebuildTask;

static void tbBuildRangesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	const tbRebuildTask* t = context;
	for (int r = start; r < end; ++r) {
		const int* range = t->ranges + 4 * r;
		tbBuildRange(t->tree, range[0], range[1], range[2], range[3]);
	}
}

// The top of the rebuild is split breadth first until it has the ranges asked for (at most
// TB_REBUILD_RANGES, or they are small); the ranges are then built side by side. The tree is the
// same for any such cut.
#define TB_REBUILD_SMALL 64

int tbDynamicTree_Rebuild(tbDynamicTree* tree, tbTreeParallelFcn* parallelFor, int ways,
                          void* context)
{
	int want = ways < 2 ? 2 : ways > TB_REBUILD_RANGES ? TB_REBUILD_RANGES : ways;
	int root = tree->root;
	if (root == TB_NULL_NODE || !tree->nodes[root].enlarged) {
		return 0;
	}
	tbGrowRebuild(tree, tree->nodeCount + 1);
	tbTreeNode* nodes = tree->nodes;
	int* items = tree->rebuildItems;
	int* freed = tree->rebuildNodes;
	int* stack = tree->rebuildStack;
	vec3s* centers = tree->rebuildCenters;
	// Down through the marked nodes: they are freed for reuse, the first unmarked node (or leaf)
	// on each path is kept whole as an item.
	int itemCount = 0, freedCount = 0, top = 0;
	stack[top++] = root;
	for (int guard = 0; top > 0 && guard <= 2 * tree->nodeCount; ++guard) {
		int index = stack[--top];
		tbTreeNode* node = nodes + index;
		if (node->height == 0 || !node->enlarged) {
			centers[itemCount] =
			    glms_vec3_scale(glms_vec3_add(node->aabb.lower, node->aabb.upper), 0.5f);
			items[itemCount++] = index;
			continue;
		}
		freed[freedCount++] = index;
		stack[top++] = node->child2;
		stack[top++] = node->child1;
	}
	TB_ASSERT(freedCount == itemCount - 1);
	tree->root = TB_NULL_NODE;
	if (parallelFor == NULL || itemCount <= TB_REBUILD_SMALL) {
		tbBuildRange(tree, 0, itemCount, TB_NULL_NODE, 0);
		return itemCount;
	}
	// The top, breadth first: a queue of ranges (begin, end, parent, side); a range that is small
	// or comes when the queue is full waits in it for the parallel part.
	int queue[4 * 2 * TB_REBUILD_RANGES];
	int topNodes[2 * TB_REBUILD_RANGES];
	int head = 0, tail = 0, topCount = 0;
	int ranges[4 * 2 * TB_REBUILD_RANGES];
	int rangeCount = 0;
	queue[tail++] = 0;
	queue[tail++] = itemCount;
	queue[tail++] = TB_NULL_NODE;
	queue[tail++] = 0;
	for (int guard = 0; head < tail && guard < 4 * TB_REBUILD_RANGES; ++guard) {
		int b = queue[head], e = queue[head + 1], p = queue[head + 2], sd = queue[head + 3];
		head += 4;
		int pending = (tail - head) / 4 + rangeCount;
		if (e - b <= TB_REBUILD_SMALL || pending + 2 > want ||
		    tail + 8 > 4 * 2 * TB_REBUILD_RANGES) {
			memcpy(ranges + 4 * rangeCount++, (int[4]){b, e, p, sd}, 4 * sizeof(int));
			continue;
		}
		int mid = tbSplitItems(items, centers, b, e);
		int index = tbSplitNode(tree, mid);
		tbLinkChild(tree, p, sd, index);
		topNodes[topCount++] = index;
		queue[tail++] = b;
		queue[tail++] = mid;
		queue[tail++] = index;
		queue[tail++] = 1;
		queue[tail++] = mid;
		queue[tail++] = e;
		queue[tail++] = index;
		queue[tail++] = 2;
	}
	// Whatever the guard left in the queue joins the ranges.
	for (; head < tail && rangeCount < 2 * TB_REBUILD_RANGES; head += 4) {
		memcpy(ranges + 4 * rangeCount++, queue + head, 4 * sizeof(int));
	}
	tbRebuildTask task = {tree, ranges};
	parallelFor(tbBuildRangesTask, rangeCount, 1, &task, context);
	for (int k = topCount - 1; k >= 0; --k) {
		tbFitNode(tree, topNodes[k]);
	}
	return itemCount;
}

tbAABB tbDynamicTree_GetAABB(const tbDynamicTree* tree, int proxyId)
{
	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity);
	return tree->nodes[proxyId].aabb;
}

int tbDynamicTree_GetUserData(const tbDynamicTree* tree, int proxyId)
{
	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity);
	return tree->nodes[proxyId].userData;
}

#if defined(__SSE2__)
// Each child's box against the query's with tbAABB_OverlapsW (the query in registers).
#define TB_QUERY_BOX_DECLARE(box) const tbQueryBoxW queryW = tbQueryBoxW_Make(box)
#define TB_QUERY_OVERLAPS(nodeBox, box) tbAABB_OverlapsW(&(nodeBox), queryW)
#else
#define TB_QUERY_OVERLAPS(nodeBox, box) tbAABB_Overlaps(nodeBox, box)
#endif

void tbDynamicTree_Query(const tbDynamicTree* tree, tbAABB aabb, tbTreeQueryFcn* fcn, void* context)
{
	if (tree->root == TB_NULL_NODE) {
		return;
	}
	// Depth first, each node's two children tested together before either is visited: their two
	// loads go out at once (a walk over a large tree waits on memory for each node it reads), and
	// only the children that overlap are stacked. The leaves come in the same order as when each
	// node is tested as it is taken from the stack.
	const tbTreeNode* nodes = tree->nodes;
#if defined(__SSE2__)
	TB_QUERY_BOX_DECLARE(aabb);
#endif
	if (!TB_QUERY_OVERLAPS(nodes[tree->root].aabb, aabb)) {
		return;
	}
	int stack[TB_TREE_STACK];
	int count = 0;
	stack[count++] = tree->root;
	while (count > 0) {
		int id = stack[--count];
		const tbTreeNode* node = nodes + id;
		if (node->child1 == TB_NULL_NODE) {
			if (!fcn(id, node->userData, context)) {
				return;
			}
			continue;
		}
		TB_ASSERT(count + 2 <= TB_TREE_STACK);
		if (count + 2 > TB_TREE_STACK) {
			return;
		}
		int c1 = node->child1, c2 = node->child2;
		bool in1 = TB_QUERY_OVERLAPS(nodes[c1].aabb, aabb);
		bool in2 = TB_QUERY_OVERLAPS(nodes[c2].aabb, aabb);
		if (in2) {
			stack[count++] = c2;
		}
		if (in1) {
			stack[count++] = c1;
		}
	}
}

// Slab test of the segment origin + t d, t in [0, tMax], against a box.
static bool tbSegmentHitsBox(tbAABB box, vec3s origin, vec3s d, float tMax)
{
	float enter, exit;
	return tbAABB_SegmentHits(box, origin, d, tMax, &enter, &exit);
}

void tbDynamicTree_RayCast(const tbDynamicTree* tree, vec3s origin, vec3s translation,
                           float maxFraction, tbTreeRayCastFcn* fcn, void* context)
{
	if (tree->root == TB_NULL_NODE) {
		return;
	}
	int stack[TB_TREE_STACK];
	int count = 0;
	stack[count++] = tree->root;
	while (count > 0) {
		int id = stack[--count];
		const tbTreeNode* node = tree->nodes + id;
		if (!tbSegmentHitsBox(node->aabb, origin, translation, maxFraction)) {
			continue;
		}
		if (node->child1 == TB_NULL_NODE) {
			float value = fcn(id, node->userData, origin, translation, maxFraction, context);
			if (value == 0.0f) {
				return;
			}
			if (value > 0.0f && value < maxFraction) {
				// The hit clips the ray: farther boxes are skipped from now on.
				maxFraction = value;
			}
		} else {
			TB_ASSERT(count + 2 <= TB_TREE_STACK);
			if (count + 2 > TB_TREE_STACK) {
				return;
			}
			stack[count++] = node->child2;
			stack[count++] = node->child1;
		}
	}
}

int tbDynamicTree_GetHeight(const tbDynamicTree* tree)
{
	return tree->root == TB_NULL_NODE ? -1 : tree->nodes[tree->root].height;
}

static bool tbValidateNode(const tbDynamicTree* tree, int id, int parent, int* leaves)
{
	const tbTreeNode* node = tree->nodes + id;
	if (node->parent != parent) {
		return false;
	}
	if (node->child1 == TB_NULL_NODE) {
		*leaves += 1;
		return node->child2 == TB_NULL_NODE && node->height == 0;
	}
	const tbTreeNode* c1 = tree->nodes + node->child1;
	const tbTreeNode* c2 = tree->nodes + node->child2;
	if (node->height != 1 + tbMaxInt(c1->height, c2->height)) {
		return false;
	}
	if (!tbAABB_Contains(node->aabb, c1->aabb) || !tbAABB_Contains(node->aabb, c2->aabb)) {
		return false;
	}
	return tbValidateNode(tree, node->child1, id, leaves) &&
	       tbValidateNode(tree, node->child2, id, leaves);
}

bool tbDynamicTree_Validate(const tbDynamicTree* tree)
{
	if (tree->root == TB_NULL_NODE) {
		return tree->proxyCount == 0;
	}
	int leaves = 0;
	return tbValidateNode(tree, tree->root, TB_NULL_NODE, &leaves) && leaves == tree->proxyCount;
}
