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
	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity && tree->nodes[proxyId].height == 0);
	tbRemoveLeaf(tree, proxyId);
	tbFreeNode(tree, proxyId);
	tree->proxyCount -= 1;
}

void tbDynamicTree_MoveProxy(tbDynamicTree* tree, int proxyId, tbAABB aabb)
{
	TB_ASSERT(proxyId >= 0 && proxyId < tree->nodeCapacity && tree->nodes[proxyId].height == 0);
	tbRemoveLeaf(tree, proxyId);
	tree->nodes[proxyId].aabb = aabb;
	tbInsertLeaf(tree, proxyId);
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

void tbDynamicTree_Query(const tbDynamicTree* tree, tbAABB aabb, tbTreeQueryFcn* fcn, void* context)
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
		if (!tbAABB_Overlaps(node->aabb, aabb)) {
			continue;
		}
		if (node->child1 == TB_NULL_NODE) {
			if (!fcn(id, node->userData, context)) {
				return;
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
