// Broad phase: the move buffer, new pairs from the two dynamic trees, and the pair set.
#include <string.h>

#include "world_internal.h"

static uint64_t tbPairKey(int a, int b)
{
	uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
	return ((uint64_t)lo << 32) | hi;
}

// A pair's key mixes in its child index (a triangle of a mesh or heightfield, or -1): a convex
// shape has one contact per triangle it may touch (mesh_contact.c).
static uint64_t tbChildKey(uint64_t key, int child)
{
	return key ^ ((uint64_t)(uint32_t)(child + 1) * 0x9e3779b97f4a7c15ull);
}

static uint32_t tbHashKey(uint64_t key)
{
	// A 64-bit mix (splitmix64's finaliser): neighbouring shape indices spread over the table.
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (uint32_t)key;
}

// Keys are never 0 for a real pair (shapeA < shapeB), so 0 marks an empty slot.
int tbPairFind(const tbWorld* w, int shapeA, int shapeB, int child)
{
	if (w->pairCapacity == 0) {
		return -1;
	}
	uint64_t key = tbPairKey(shapeA, shapeB);
	uint32_t mask = (uint32_t)w->pairCapacity - 1u;
	for (uint32_t i = tbHashKey(tbChildKey(key, child)) & mask, n = 0;
	     n < (uint32_t)w->pairCapacity; i = (i + 1u) & mask, ++n) {
		if (w->pairKeys[i] == 0) {
			return -1;
		}
		if (w->pairKeys[i] == key && w->pairChildren[i] == child) {
			return w->pairValues[i];
		}
	}
	return -1;
}

static void tbPairPut(uint64_t* keys, int* values, int* children, int capacity, uint64_t key,
                      int child, int value)
{
	uint32_t mask = (uint32_t)capacity - 1u;
	uint32_t i = tbHashKey(tbChildKey(key, child)) & mask;
	while (keys[i] != 0 && (keys[i] != key || children[i] != child)) {
		i = (i + 1u) & mask;
	}
	keys[i] = key;
	values[i] = value;
	children[i] = child;
}

void tbPairInsert(tbWorld* w, int shapeA, int shapeB, int child, int contactIndex)
{
	// Keep the load under one half: linear probing stays short.
	if (2 * (w->pairCount + 1) > w->pairCapacity) {
		int newCapacity = w->pairCapacity > 0 ? 2 * w->pairCapacity : 64;
		uint64_t* keys = tbAlloc((size_t)newCapacity * sizeof(uint64_t));
		int* values = tbAlloc((size_t)newCapacity * sizeof(int));
		int* children = tbAlloc((size_t)newCapacity * sizeof(int));
		memset(keys, 0, (size_t)newCapacity * sizeof(uint64_t));
		for (int i = 0; i < w->pairCapacity; ++i) {
			if (w->pairKeys[i] != 0) {
				tbPairPut(keys, values, children, newCapacity, w->pairKeys[i], w->pairChildren[i],
				          w->pairValues[i]);
			}
		}
		tbFree(w->pairKeys, (size_t)w->pairCapacity * sizeof(uint64_t));
		tbFree(w->pairValues, (size_t)w->pairCapacity * sizeof(int));
		tbFree(w->pairChildren, (size_t)w->pairCapacity * sizeof(int));
		w->pairKeys = keys;
		w->pairValues = values;
		w->pairChildren = children;
		w->pairCapacity = newCapacity;
	}
	tbPairPut(w->pairKeys, w->pairValues, w->pairChildren, w->pairCapacity,
	          tbPairKey(shapeA, shapeB), child, contactIndex);
	w->pairCount += 1;
}

void tbPairRemove(tbWorld* w, int shapeA, int shapeB, int child)
{
	if (w->pairCapacity == 0) {
		return;
	}
	uint64_t key = tbPairKey(shapeA, shapeB);
	uint32_t mask = (uint32_t)w->pairCapacity - 1u;
	uint32_t i = tbHashKey(tbChildKey(key, child)) & mask;
	for (uint32_t n = 0; w->pairKeys[i] != key || w->pairChildren[i] != child; ++n) {
		if (n >= (uint32_t)w->pairCapacity) {
			return;
		}
		if (w->pairKeys[i] == 0) {
			return;
		}
		i = (i + 1u) & mask;
	}
	// Backward-shift deletion (Knuth 6.4 algorithm R): no tombstones, probes stay short.
	uint32_t hole = i;
	for (uint32_t j = (hole + 1u) & mask; w->pairKeys[j] != 0; j = (j + 1u) & mask) {
		uint32_t home = tbHashKey(tbChildKey(w->pairKeys[j], w->pairChildren[j])) & mask;
		// Move j into the hole when its home is not cyclically within (hole, j].
		bool between = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
		if (!between) {
			w->pairKeys[hole] = w->pairKeys[j];
			w->pairValues[hole] = w->pairValues[j];
			w->pairChildren[hole] = w->pairChildren[j];
			hole = j;
		}
	}
	w->pairKeys[hole] = 0;
	w->pairCount -= 1;
}

void tbBroadPhase_BufferMove(tbWorld* w, int shapeIndex)
{
	tbShapeSlot* s = w->shapes + shapeIndex;
	if (s->enlarged) {
		return;
	}
	s->enlarged = true;
	tbGrowArray((void**)&w->moveBuffer, &w->moveCapacity, w->moveCount + 1, sizeof(int));
	w->moveBuffer[w->moveCount++] = shapeIndex;
}

void tbBroadPhase_RemoveFromMoveBuffer(tbWorld* w, int shapeIndex)
{
	if (!w->shapes[shapeIndex].enlarged) {
		return;
	}
	for (int i = 0; i < w->moveCount; ++i) {
		if (w->moveBuffer[i] == shapeIndex) {
			w->moveBuffer[i] = -1;
		}
	}
	w->shapes[shapeIndex].enlarged = false;
}

typedef struct tbPairQuery
{
	tbWorld* world;
	int shape;
} tbPairQuery;

static bool tbPairCallback(int proxyId, int other, void* context)
{
	(void)proxyId;
	tbPairQuery* q = context;
	tbWorld* w = q->world;
	int self = q->shape;
	if (other == self) {
		return true;
	}
	const tbShapeSlot* a = w->shapes + self;
	const tbShapeSlot* b = w->shapes + other;
	// Both moved: the one with the lower index makes the pair, the other skips it.
	if (b->enlarged && b->tree == 1 && other < self) {
		return true;
	}
	// A sensor never collides (sensor.c finds its overlaps).
	if (a->body == b->body || a->isSensor || b->isSensor ||
	    !tbShouldShapesCollide(a->filter, b->filter)) {
		return true;
	}
	tbBodyType ta = w->bodies[a->body].rb.type, tb = w->bodies[b->body].rb.type;
	if (ta != tb_dynamicBody && tb != tb_dynamicBody) {
		return true; // nothing can push a static or kinematic body
	}
	if (tbGeometry_IsLevel(&a->geometry) || tbGeometry_IsLevel(&b->geometry)) {
		// A mesh or heightfield: one contact per triangle near the convex shape.
		if (!tbBodiesMayCollide(w, a->body, b->body)) {
			return true;
		}
		if (w->customFilter != NULL && tbPairFind(w, self, other, 0) < 0 &&
		    !tbShouldShapesContact(w, self, other)) {
			return true;
		}
		tbCreateLevelContacts(w, self, other);
		return true;
	}
	if (tbPairFind(w, self, other, -1) >= 0) {
		return true;
	}
	// Jointed bodies collide only when their joint asks for it (collideConnected).
	if ((w->bodies[a->body].jointCount > 0 || w->bodies[b->body].jointCount > 0) &&
	    !tbBodiesMayCollide(w, a->body, b->body)) {
		return true;
	}
	// The game's say last, once the pair is new (tbWorld_SetCustomFilterCallback).
	if (w->customFilter != NULL && !tbShouldShapesContact(w, self, other)) {
		return true;
	}
	tbCreateContact(w, self, other, -1);
	w->profile.newPairs += 1;
	return true;
}

void tbBroadPhase_UpdatePairs(tbWorld* w)
{
	// Moved proxies against both trees: new pairs without an O(n^2) pass (Box2D's move buffer).
	for (int i = 0; i < w->moveCount; ++i) {
		int s = w->moveBuffer[i];
		if (s < 0 || !w->shapes[s].alive) {
			continue;
		}
		tbPairQuery q = {w, s};
		tbAABB box = w->shapes[s].fatAABB;
		tbDynamicTree_Query(&w->trees[1], box, tbPairCallback, &q);
		if (w->shapes[s].tree == 1) {
			tbDynamicTree_Query(&w->trees[0], box, tbPairCallback, &q);
		}
	}
	for (int i = 0; i < w->moveCount; ++i) {
		int s = w->moveBuffer[i];
		if (s >= 0) {
			w->shapes[s].enlarged = false;
		}
	}
	w->moveCount = 0;
}
