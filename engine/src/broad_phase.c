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

void tbBroadPhase_MoveProxy(tbWorld* w, const tbShapeSlot* shape)
{
	tbDynamicTree* tree = &w->trees[shape->tree];
	if (shape->tree == 0) {
		// Static shapes move rarely (by hand): moved in the tree at once.
		tbDynamicTree_MoveProxy(tree, shape->proxyId, shape->fatAABB);
	} else {
		// The moving tree takes the new box where the leaf stands; the pairs stage rebuilds
		// what grew before its queries (tbBroadPhase_UpdatePairs).
		tbDynamicTree_EnlargeProxy(tree, shape->proxyId, shape->fatAABB);
	}
}

bool tbBroadPhase_EnlargeProxyShared(tbWorld* w, const tbShapeSlot* shape)
{
	if (shape->tree == 0) {
		return false; // the static tree's moves remove and insert: one thread only
	}
	tbDynamicTree_EnlargeProxyShared(&w->trees[shape->tree], shape->proxyId, shape->fatAABB);
	return true;
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

// With workers, the serial pair pass looks at the moved proxies in blocks of this many, and passes
// over a block none of whose queries left it work (tbUpdatePairsParallel).
#define TB_MOVE_BLOCK 32

// The proxies one moved proxy's queries found, taken in batches (tbPairCallback): a found proxy's
// shape and its pair's slot in the set are each a cache miss, and asked for together (prefetched)
// before any is read they come in at once.
#define TB_PAIR_BATCH 32

typedef struct tbPairQuery
{
	tbWorld* world;
	// The worker's candidates (the workers' pass, tbQueryMovesTask), or null: the pairs are made
	// at once (the one-worker pass).
	tbWorkerCounts* counts;
	int shape;
	int count;
	int found[TB_PAIR_BATCH];
} tbPairQuery;

// The tests of a found proxy that read only what the pair pass does not change (the shapes, their
// bodies and joints, the move flags): false when `other` can never pair with `self` this step.
static inline __attribute__((always_inline)) bool tbMayPair(const tbWorld* w, int self, int other)
{
	if (other == self) {
		return false;
	}
	const tbShapeSlot* a = w->shapes + self;
	const tbShapeSlot* b = w->shapes + other;
	// Both moved: the one with the lower index makes the pair, the other skips it.
	if (b->enlarged && b->tree == 1 && other < self) {
		return false;
	}
	// A sensor never collides (sensor.c finds its overlaps).
	if (a->body == b->body || a->isSensor || b->isSensor ||
	    !tbShouldShapesCollide(a->filter, b->filter)) {
		return false;
	}
	tbBodyType ta = w->bodies[a->body].rb.type, tb = w->bodies[b->body].rb.type;
	if (ta != tb_dynamicBody && tb != tb_dynamicBody) {
		return false; // nothing can push a static or kinematic body
	}
	return true;
}

// What the pair pass does with a proxy that passed tbMayPair, in the move buffer's order: the
// pair set and the game's filter decide, and the contact is made.
static inline __attribute__((always_inline)) void tbMakePair(tbWorld* w, int self, int other)
{
	const tbShapeSlot* a = w->shapes + self;
	const tbShapeSlot* b = w->shapes + other;
	if (tbGeometry_IsLevel(&a->geometry) || tbGeometry_IsLevel(&b->geometry)) {
		// A mesh or heightfield: one contact per triangle near the convex shape.
		if (!tbBodiesMayCollide(w, a->body, b->body)) {
			return;
		}
		if (w->customFilter != NULL && tbPairFind(w, self, other, 0) < 0 &&
		    !tbShouldShapesContact(w, self, other)) {
			return;
		}
		tbCreateLevelContacts(w, self, other);
		return;
	}
	if (tbPairFind(w, self, other, -1) >= 0) {
		return;
	}
	// Jointed bodies collide only when their joint asks for it (collideConnected).
	if ((w->bodies[a->body].jointCount > 0 || w->bodies[b->body].jointCount > 0) &&
	    !tbBodiesMayCollide(w, a->body, b->body)) {
		return;
	}
	// The game's say last, once the pair is new (tbWorld_SetCustomFilterCallback).
	if (w->customFilter != NULL && !tbShouldShapesContact(w, self, other)) {
		return;
	}
	tbCreateContact(w, self, other, -1);
	w->profile.newPairs += 1;
}

// Asks for what pairing `self` with each found proxy reads first: the proxy's shape (its move
// flag and filter) and the convex pair's slot in the pair set.
static void tbPrefetchPairs(const tbWorld* w, int self, const int* found, int count)
{
	uint32_t mask = (uint32_t)w->pairCapacity - 1u;
	for (int k = 0; k < count; ++k) {
		const tbShapeSlot* b = w->shapes + found[k];
		__builtin_prefetch(&b->enlarged);
		__builtin_prefetch(&b->filter);
		if (w->pairCapacity > 0) {
			uint32_t slot = tbHashKey(tbChildKey(tbPairKey(self, found[k]), -1)) & mask;
			__builtin_prefetch(w->pairKeys + slot);
		}
	}
}

// The batch's pairs, in the order their proxies were found (the same pairs in the same order as
// one at a time).
static void tbFlushPairs(tbPairQuery* q)
{
	tbWorld* w = q->world;
	int self = q->shape;
	tbPrefetchPairs(w, self, q->found, q->count);
	for (int k = 0; k < q->count; ++k) {
		if (tbMayPair(w, self, q->found[k])) {
			tbMakePair(w, self, q->found[k]);
		}
	}
	q->count = 0;
}

// One moved proxy against both trees, each found proxy to `fcn`.
static void tbQueryMove(tbWorld* w, int s, tbTreeQueryFcn* fcn, void* context)
{
	tbAABB box = w->shapes[s].fatAABB;
	tbDynamicTree_Query(&w->trees[1], box, fcn, context);
	if (w->shapes[s].tree == 1) {
		tbDynamicTree_Query(&w->trees[0], box, fcn, context);
	}
}

// With workers, the trees are queried for each moved proxy side by side (Box2D v3's broad phase):
// a query keeps, in its worker's candidate array, the proxies that pass tbMayPair and whose pair
// is not in the set yet. The set only grows in this stage, so a pair found in it stays there;
// the serial pass checks the set again for the pairs made before it in the same pass. Here a
// batch's candidates, kept in the order their proxies were found (prefetched as tbFlushPairs').
static void tbFlushCandidates(tbPairQuery* q)
{
	const tbWorld* w = q->world;
	int self = q->shape;
	tbPrefetchPairs(w, self, q->found, q->count);
	const tbShapeSlot* a = w->shapes + self;
	tbWorkerCounts* counts = q->counts;
	for (int k = 0; k < q->count; ++k) {
		int other = q->found[k];
		if (!tbMayPair(w, self, other)) {
			continue;
		}
		const tbShapeSlot* b = w->shapes + other;
		bool level = tbGeometry_IsLevel(&a->geometry) || tbGeometry_IsLevel(&b->geometry);
		if (level ? !tbBodiesMayCollide(w, a->body, b->body) || tbPairFind(w, self, other, 0) >= 0
		          : tbPairFind(w, self, other, -1) >= 0) {
			continue;
		}
		if (counts->pairCount < counts->pairCapacity) {
			counts->pairs[counts->pairCount] = other;
		}
		counts->pairCount += 1; // past the capacity: counted only (the move is queried again)
	}
	q->count = 0;
}

// The batch so far: made into pairs (one worker) or candidates (the workers' pass).
static void tbFlushFound(tbPairQuery* q)
{
	if (q->counts != NULL) {
		tbFlushCandidates(q);
	} else {
		tbFlushPairs(q);
	}
}

static bool tbPairCallback(int proxyId, int other, void* context)
{
	(void)proxyId;
	tbPairQuery* q = context;
	if (q->count == TB_PAIR_BATCH) {
		tbFlushFound(q);
	}
	q->found[q->count++] = other;
	return true;
}

// Moved proxy s against both trees: its pairs made (counts null: the one-worker pass, and the
// workers' pass's overflow) or its candidates kept in the worker's counts.
static void tbQueryPairs(tbWorld* w, int s, tbWorkerCounts* counts)
{
	tbPairQuery q;
	q.world = w;
	q.counts = counts;
	q.shape = s;
	q.count = 0;
	tbQueryMove(w, s, tbPairCallback, &q);
	tbFlushFound(&q);
}

static void tbQueryMovesTask(int start, int end, int worker, void* context)
{
	tbWorld* w = context;
	tbWorkerCounts* counts = w->workerCounts + worker;
	for (int i = start; i < end; ++i) {
		tbMoveQuery* m = w->moveQueries + i;
		int s = w->moveBuffer[i];
		m->worker = worker;
		m->first = counts->pairCount;
		m->count = 0;
		if (s < 0 || !w->shapes[s].alive) {
			continue;
		}
		tbQueryPairs(w, s, counts);
		m->count = counts->pairCount - m->first;
		if (counts->pairCount > counts->pairCapacity) {
			// Did not fit: the serial pass queries this proxy again; later ones start anew at
			// the same place, and the worker's array grows after the pass.
			counts->pairWant += counts->pairCount - m->first;
			counts->pairCount = m->first;
			m->count = -1;
		}
		if (m->count != 0) {
			// The same byte from any worker whose range shares the block: a relaxed atomic
			// store, read only after the loop.
			__atomic_store_n(w->moveBlockFlags + i / TB_MOVE_BLOCK, 1, __ATOMIC_RELAXED);
		}
	}
}

// Out of line: the one-worker pass keeps the code it had.
static __attribute__((noinline)) void tbUpdatePairsParallel(tbWorld* w)
{
	tbGrowArray((void**)&w->moveQueries, &w->moveQueryCapacity, w->moveCount, sizeof(tbMoveQuery));
	int blocks = (w->moveCount + TB_MOVE_BLOCK - 1) / TB_MOVE_BLOCK;
	if (blocks > 0) {
		tbGrowArray((void**)&w->moveBlockFlags, &w->moveBlockCapacity, blocks, 1);
		memset(w->moveBlockFlags, 0, (size_t)blocks);
	}
	// A first guess of the candidates' room: a few for each move of an even share (a scene's
	// first step, when every pair is new, finds more); what did not fit is counted and grown for
	// after the pass.
	int workers = w->def.workerCount;
	int guess = 4 * (w->moveCount / workers) + 64;
	for (int k = 0; k < workers; ++k) {
		tbWorkerCounts* counts = w->workerCounts + k;
		if (counts->pairCapacity < guess) {
			tbGrowArray((void**)&counts->pairs, &counts->pairCapacity, guess, sizeof(int));
		}
		counts->pairCount = 0;
		counts->pairWant = 0;
	}
	tbParallelForUneven(w, tbQueryMovesTask, w->moveCount, 8, w);
	// The pairs made in the move buffer's order, each move's in its queries' order: the same
	// calls, in the same order, as the one-worker pass. A block of moves that left nothing is
	// passed over whole (most moves find only pairs already made).
	for (int i = 0; i < w->moveCount; ++i) {
		if (i % TB_MOVE_BLOCK == 0 && w->moveBlockFlags[i / TB_MOVE_BLOCK] == 0) {
			i += TB_MOVE_BLOCK - 1;
			continue;
		}
		const tbMoveQuery* m = w->moveQueries + i;
		int s = w->moveBuffer[i];
		if (m->count < 0) {
			tbQueryPairs(w, s, NULL);
			continue;
		}
		const int* pairs = w->workerCounts[m->worker].pairs + m->first;
		for (int n = 0; n < m->count; ++n) {
			tbMakePair(w, s, pairs[n]);
		}
	}
	// Room for next step's candidates: each worker what it met, plus an even share of all of
	// them (the split of the moves between workers changes from step to step).
	int total = 0;
	for (int k = 0; k < workers; ++k) {
		total += w->workerCounts[k].pairCount + w->workerCounts[k].pairWant;
	}
	for (int k = 0; k < workers; ++k) {
		tbWorkerCounts* counts = w->workerCounts + k;
		int want = counts->pairCount + counts->pairWant + total / workers;
		if (want > counts->pairCapacity) {
			tbGrowArray((void**)&counts->pairs, &counts->pairCapacity, want, sizeof(int));
		}
	}
}

// Move buffer entries [start, end): their shapes' marks cleared once every query is done (a
// shape is in the buffer once).
static void tbClearMovedRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	for (int i = start; i < end; ++i) {
		int s = w->moveBuffer[i];
		if (s >= 0) {
			w->shapes[s].enlarged = false;
		}
	}
}

// Move buffer entries per range of the clearing: one store each.
#define TB_MIN_CLEAR_MOVES 1024

// Ranges per worker of the tree rebuild's parallel part: enough for the pool to even out.
#define TB_REBUILD_WAYS_PER_WORKER 8

void tbBroadPhase_UpdatePairs(tbWorld* w)
{
	// The moving tree, grown in place by last step's moves, built again above what grew
	// (Box2D v3): the queries below then see a tree as tight as a fresh one.
	// Its top splits on this thread make a few ranges per worker for the rest.
	tbDynamicTree_Rebuild(&w->trees[1], w->parallel ? tbSolverParallelFor : NULL,
	                      TB_REBUILD_WAYS_PER_WORKER * w->def.workerCount, w);
	// Moved proxies against both trees: new pairs without an O(n^2) pass (Box2D's move buffer).
	if (w->parallel) {
		tbUpdatePairsParallel(w);
	} else {
		for (int i = 0; i < w->moveCount; ++i) {
			int s = w->moveBuffer[i];
			if (s < 0 || !w->shapes[s].alive) {
				continue;
			}
			tbQueryPairs(w, s, NULL);
		}
	}
	if (w->parallel) {
		tbParallelFor(w, tbClearMovedRange, w->moveCount, TB_MIN_CLEAR_MOVES, w);
	} else {
		tbClearMovedRange(0, w->moveCount, 0, w);
	}
	w->moveCount = 0;
}

void tbBroadPhase_FreeScratch(tbWorld* w)
{
	for (int k = 0; k < TB_MAX_WORKERS; ++k) {
		tbWorkerCounts* counts = w->workerCounts + k;
		tbFree(counts->pairs, (size_t)counts->pairCapacity * sizeof(int));
		counts->pairs = NULL;
		counts->pairCapacity = 0;
		tbFree(counts->moved, (size_t)counts->movedCapacity * sizeof(int));
		counts->moved = NULL;
		counts->movedCapacity = 0;
	}
	tbFree(w->moveQueries, (size_t)w->moveQueryCapacity * sizeof(tbMoveQuery));
	w->moveQueries = NULL;
	w->moveQueryCapacity = 0;
	tbFree(w->moveBlockFlags, (size_t)w->moveBlockCapacity);
	w->moveBlockFlags = NULL;
	w->moveBlockCapacity = 0;
	tbFree(w->activeFlags, (size_t)w->activeFlagCapacity);
	w->activeFlags = NULL;
	w->activeFlagCapacity = 0;
}
