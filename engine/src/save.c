// World saves: every table the step reads written as tagged sections behind a checked header, and
// read back into a world so that it steps on with the same bits (docs/save.md).
#include <string.h>
#include <unistd.h>

#include "save_internal.h"

// The header: "TBSV", the version, a byte-order word and a float that a build of another byte
// order or float format reads differently, the sizes of the saved records (a build whose tables
// differ refuses the save), the payload's size and checksum, and the process that made it.
#define TB_SAVE_MAGIC 0x56534254u // "TBSV" read as a little-endian word
#define TB_SAVE_ORDER 0x01020304u
#define TB_SAVE_FLOAT 1.5f

// Section tags (four letters each, docs/save.md).
#define TB_TAG(a, b, c, d)                                                                         \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define TB_SAVE_SCALARS TB_TAG('W', 'R', 'L', 'D')
#define TB_SAVE_BODIES TB_TAG('B', 'O', 'D', 'Y')
#define TB_SAVE_SHAPES TB_TAG('S', 'H', 'P', 'E')
#define TB_SAVE_CONTACTS TB_TAG('C', 'N', 'T', 'C')
#define TB_SAVE_CONTACT_LINKS TB_TAG('C', 'L', 'N', 'K')
#define TB_SAVE_JOINTS TB_TAG('J', 'O', 'N', 'T')
#define TB_SAVE_PAIR_KEYS TB_TAG('P', 'K', 'E', 'Y')
#define TB_SAVE_PAIR_VALUES TB_TAG('P', 'V', 'A', 'L')
#define TB_SAVE_PAIR_CHILDREN TB_TAG('P', 'C', 'H', 'D')
#define TB_SAVE_AWAKE TB_TAG('A', 'W', 'A', 'K')
#define TB_SAVE_ACTIVE TB_TAG('A', 'C', 'T', 'V')
#define TB_SAVE_BOUNDS TB_TAG('B', 'N', 'D', 'S')
#define TB_SAVE_TREE TB_TAG('T', 'R', 'E', 'E')
#define TB_SAVE_MOVES TB_TAG('M', 'O', 'V', 'E')
#define TB_SAVE_LEVEL_SATS TB_TAG('L', 'S', 'A', 'T')
#define TB_SAVE_BEGIN_EVENTS TB_TAG('E', 'B', 'E', 'G')
#define TB_SAVE_END_EVENTS TB_TAG('E', 'E', 'N', 'D')
#define TB_SAVE_PENDING_EVENTS TB_TAG('E', 'P', 'N', 'D')
#define TB_SAVE_MOVE_EVENTS TB_TAG('E', 'M', 'O', 'V')
#define TB_SAVE_HIT_EVENTS TB_TAG('E', 'H', 'I', 'T')
#define TB_SAVE_END TB_TAG('D', 'O', 'N', 'E')

typedef struct tbSaveHeader
{
	uint32_t magic, version, order;
	float floatCheck;
	uint32_t pointerSize;
	uint32_t recordSizes[8]; // world scalars, body, shape, contact, joint, tree node, manifold, id
	uint32_t referencedGeometry; // hull, mesh and heightfield shapes (saved by reference)
	uint64_t processTag;         // tbProcessTag() of the process that saved
	uint64_t payloadSize;        // bytes after the header
	uint64_t checksum;           // FNV-1a of the header (this field zero) and the payload
} tbSaveHeader;

// What the world holds outside its arrays.
typedef struct tbSaveScalars
{
	tbWorldDef def; // runtime fields (threads, callbacks, userData) zeroed
	int stepCount, stoppedBodyCount;
	float lastSubstep, lastTimeStep;
	int freeBody, liveBodies, freeShape, liveShapes, freeContact, liveContacts, freeJoint,
	    liveJoints, freeLevelSat;
	int pairCount, hitShapeCount;
	int treeRoot[2], treeNodeCount[2], treeFreeList[2], treeProxyCount[2];
	tbSolverStats lastSolverStats;
	tbProfile profile;
} tbSaveScalars;

static void tbRecordSizes(uint32_t sizes[8])
{
	sizes[0] = (uint32_t)sizeof(tbSaveScalars);
	sizes[1] = (uint32_t)sizeof(tbBodySlot);
	sizes[2] = (uint32_t)sizeof(tbShapeSlot);
	sizes[3] = (uint32_t)sizeof(tbContactSlot);
	sizes[4] = (uint32_t)sizeof(tbJointSlot);
	sizes[5] = (uint32_t)sizeof(tbTreeNode);
	sizes[6] = (uint32_t)sizeof(tbManifold);
	sizes[7] = (uint32_t)sizeof(tbShapeId);
}

// Same process, same tag: the process id and where this library is loaded. Pointers saved by
// reference (geometry, userData) mean something only where the tag matches.
static uint64_t tbProcessTag(void)
{
	static const char anchor = 0;
	return ((uint64_t)(uint32_t)getpid() << 40) ^ (uint64_t)(uintptr_t)&anchor;
}

// FNV-1a, 64 bits (Fowler, Noll and Vo), continued from h over the bytes.
static uint64_t tbFnvBytes(uint64_t h, const unsigned char* p, size_t size)
{
	for (size_t i = 0; i < size; ++i) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

// The checksum of a save: the header with its checksum field zero, then the payload.
static uint64_t tbSaveChecksum(const tbSaveHeader* header, const unsigned char* payload,
                               size_t size)
{
	tbSaveHeader h = *header;
	h.checksum = 0;
	uint64_t sum = tbFnvBytes(14695981039346656037ull, (const unsigned char*)&h, sizeof h);
	return tbFnvBytes(sum, payload, size);
}

static bool tbReferencesGeometry(const tbGeometry* g)
{
	return g->type == tb_hullShape || g->type == tb_meshShape || g->type == tb_heightfieldShape;
}

void tbSaveWrite(tbSaveWriter* out, const void* bytes, size_t size)
{
	if (out->data != NULL && out->size + size <= out->capacity && size > 0) {
		memcpy(out->data + out->size, bytes, size);
	}
	out->size += size;
}

void tbSaveWriteSection(tbSaveWriter* out, uint32_t tag, const void* items, int count,
                        size_t elemSize)
{
	uint32_t head[3] = {tag, (uint32_t)elemSize, (uint32_t)(count > 0 ? count : 0)};
	tbSaveWrite(out, head, sizeof head);
	if (items != NULL && count > 0 && elemSize > 0) {
		tbSaveWrite(out, items, (size_t)count * elemSize);
	}
}

bool tbSaveRead(tbSaveReader* in, void* bytes, size_t size)
{
	if (in->failed) {
		return false;
	}
	if (size > in->size - in->offset) {
		tbSetError("%s: the save ends %zu bytes early (truncated)", in->caller,
		           size - (in->size - in->offset));
		in->failed = true;
		return false;
	}
	memcpy(bytes, in->data + in->offset, size);
	in->offset += size;
	return true;
}

static void tbTagName(uint32_t tag, char name[5])
{
	for (int i = 0; i < 4; ++i) {
		char c = (char)((tag >> (8 * i)) & 0xffu);
		name[i] = c >= 32 && c < 127 ? c : '?';
	}
	name[4] = '\0';
}

bool tbSaveReadSection(tbSaveReader* in, uint32_t tag, size_t elemSize, int minCapacity,
                       void** items, int* count, int* capacity)
{
	*items = NULL;
	*count = 0;
	*capacity = 0;
	uint32_t head[3];
	if (!tbSaveRead(in, head, sizeof head)) {
		return false;
	}
	char want[5], got[5];
	tbTagName(tag, want);
	tbTagName(head[0], got);
	if (head[0] != tag) {
		tbSetError("%s: expected section '%s' at byte %zu, found '%s' (corrupt)", in->caller, want,
		           in->offset - sizeof head, got);
		in->failed = true;
		return false;
	}
	if (head[1] != (uint32_t)elemSize) {
		tbSetError("%s: section '%s' has %u-byte records, this build's are %zu", in->caller, want,
		           (unsigned)head[1], elemSize);
		in->failed = true;
		return false;
	}
	size_t left = in->size - in->offset;
	if (head[2] > (uint32_t)INT32_MAX / 2u || (elemSize > 0 && (size_t)head[2] > left / elemSize)) {
		tbSetError("%s: section '%s' says %u records, more than the %zu bytes left hold "
		           "(truncated or corrupt)",
		           in->caller, want, (unsigned)head[2], left);
		in->failed = true;
		return false;
	}
	int n = (int)head[2];
	*count = n;
	if (elemSize == 0) {
		return true;
	}
	int cap = n > minCapacity ? n : minCapacity;
	if (cap > 0) {
		*items = tbTryAlloc((size_t)cap * elemSize);
		if (*items == NULL) {
			tbSetError("%s: out of memory for %d records of section '%s'", in->caller, cap, want);
			in->failed = true;
			*count = 0;
			return false;
		}
		memset(*items, 0, (size_t)cap * elemSize);
		memcpy(*items, in->data + in->offset, (size_t)n * elemSize);
		in->offset += (size_t)n * elemSize;
	}
	*capacity = cap;
	return true;
}

// The payload: the scalars, then every table as a section, in a fixed order.
static void tbWritePayload(const tbWorld* w, tbSaveWriter* out)
{
	tbSaveScalars sc;
	memset(&sc, 0, sizeof sc);
	sc.def = w->def;
	sc.def.workerCount = 1;
	sc.def.enqueueTask = NULL;
	sc.def.finishTask = NULL;
	sc.def.userTaskContext = NULL;
	sc.def.userData = NULL;
	sc.stepCount = w->stepCount;
	sc.stoppedBodyCount = w->stoppedBodyCount;
	sc.lastSubstep = w->lastSubstep;
	sc.lastTimeStep = w->lastTimeStep;
	sc.freeBody = w->freeBody;
	sc.liveBodies = w->liveBodies;
	sc.freeShape = w->freeShape;
	sc.liveShapes = w->liveShapes;
	sc.freeContact = w->freeContact;
	sc.liveContacts = w->liveContacts;
	sc.freeJoint = w->freeJoint;
	sc.liveJoints = w->liveJoints;
	sc.freeLevelSat = w->freeLevelSat;
	sc.pairCount = w->pairCount;
	sc.hitShapeCount = w->hitShapeCount;
	for (int t = 0; t < 2; ++t) {
		sc.treeRoot[t] = w->trees[t].root;
		sc.treeNodeCount[t] = w->trees[t].nodeCount;
		sc.treeFreeList[t] = w->trees[t].freeList;
		sc.treeProxyCount[t] = w->trees[t].proxyCount;
	}
	sc.lastSolverStats = w->lastSolverStats;
	sc.profile = w->profile;
	tbSaveWriteSection(out, TB_SAVE_SCALARS, &sc, 1, sizeof sc);
	tbSaveWriteSection(out, TB_SAVE_BODIES, w->bodies, w->bodyCount, sizeof(tbBodySlot));
	tbSaveWriteSection(out, TB_SAVE_SHAPES, w->shapes, w->shapeCount, sizeof(tbShapeSlot));
	tbSaveWriteSection(out, TB_SAVE_CONTACTS, w->contacts, w->contactCount, sizeof(tbContactSlot));
	tbSaveWriteSection(out, TB_SAVE_CONTACT_LINKS, w->contactLinks, w->contactCount,
	                   sizeof(tbContactLink));
	tbSaveWriteSection(out, TB_SAVE_JOINTS, w->joints, w->jointCount, sizeof(tbJointSlot));
	// The pair set whole: its slots' places follow the capacity (open addressing).
	tbSaveWriteSection(out, TB_SAVE_PAIR_KEYS, w->pairKeys, w->pairCapacity, sizeof(uint64_t));
	tbSaveWriteSection(out, TB_SAVE_PAIR_VALUES, w->pairValues, w->pairCapacity, sizeof(int));
	tbSaveWriteSection(out, TB_SAVE_PAIR_CHILDREN, w->pairChildren, w->pairCapacity, sizeof(int));
	tbSaveWriteSection(out, TB_SAVE_AWAKE, w->awakeBodies, w->awakeCount, sizeof(int));
	tbSaveWriteSection(out, TB_SAVE_ACTIVE, w->activeContacts, w->activeCount, sizeof(int));
	tbSaveWriteSection(out, TB_SAVE_BOUNDS, w->bodyBounds, w->bodyBoundCount, sizeof(tbBodyBounds));
	// The trees whole, free nodes included: which node the next proxy takes follows the free
	// list, and the tree's shape follows which nodes are taken.
	for (int t = 0; t < 2; ++t) {
		tbSaveWriteSection(out, TB_SAVE_TREE, w->trees[t].nodes, w->trees[t].nodeCapacity,
		                   sizeof(tbTreeNode));
	}
	tbSaveWriteSection(out, TB_SAVE_MOVES, w->moveBuffer, w->moveCount, sizeof(int));
	tbSaveWriteSection(out, TB_SAVE_LEVEL_SATS, w->levelSats, w->levelSatCount,
	                   sizeof(tbLevelSatSlot));
	tbSaveWriteSection(out, TB_SAVE_BEGIN_EVENTS, w->beginEvents, w->beginCount,
	                   sizeof(tbContactBeginTouchEvent));
	tbSaveWriteSection(out, TB_SAVE_END_EVENTS, w->endEvents, w->endCount,
	                   sizeof(tbContactEndTouchEvent));
	tbSaveWriteSection(out, TB_SAVE_PENDING_EVENTS, w->pendingEndEvents, w->pendingEndCount,
	                   sizeof(tbContactEndTouchEvent));
	tbSaveWriteSection(out, TB_SAVE_MOVE_EVENTS, w->moveEvents, w->moveEventCount,
	                   sizeof(tbBodyMoveEvent));
	tbSaveWriteSection(out, TB_SAVE_HIT_EVENTS, w->hitEvents, w->hitCount,
	                   sizeof(tbContactHitEvent));
	tbSensor_Save(w, out);
	tbSaveWriteSection(out, TB_SAVE_END, NULL, 0, 0);
}

size_t tbWorld_Save(tbWorldId worldId, void* buffer, size_t capacity)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_Save");
	if (w == NULL) {
		return 0;
	}
	tbSaveWriter counter = {NULL, 0, 0};
	tbWritePayload(w, &counter);
	size_t total = sizeof(tbSaveHeader) + counter.size;
	if (buffer == NULL) {
		return total;
	}
	if (capacity < total) {
		tbSetError("tbWorld_Save: the buffer holds %zu bytes, the save needs %zu (ask with a null "
		           "buffer first)",
		           capacity, total);
		return 0;
	}
	unsigned char* bytes = buffer;
	tbSaveWriter out = {bytes + sizeof(tbSaveHeader), 0, counter.size};
	tbWritePayload(w, &out);
	tbSaveHeader h;
	memset(&h, 0, sizeof h);
	h.magic = TB_SAVE_MAGIC;
	h.version = TB_SAVE_VERSION;
	h.order = TB_SAVE_ORDER;
	h.floatCheck = TB_SAVE_FLOAT;
	h.pointerSize = (uint32_t)sizeof(void*);
	tbRecordSizes(h.recordSizes);
	for (int i = 0; i < w->shapeCount; ++i) {
		const tbShapeSlot* s = w->shapes + i;
		h.referencedGeometry += s->alive && tbReferencesGeometry(&s->geometry) ? 1u : 0u;
	}
	h.processTag = tbProcessTag();
	h.payloadSize = out.size;
	h.checksum = tbSaveChecksum(&h, out.data, out.size);
	memcpy(bytes, &h, sizeof h);
	return total;
}

// The arrays a restore replaces, freed (a half-read world on failure, or the old state).
static void tbFreeState(tbWorld* w)
{
	tbFree(w->bodies, (size_t)w->bodyCapacity * sizeof(tbBodySlot));
	tbFree(w->shapes, (size_t)w->shapeCapacity * sizeof(tbShapeSlot));
	tbFree(w->contacts, (size_t)w->contactCapacity * sizeof(tbContactSlot));
	tbFree(w->contactLinks, (size_t)w->contactLinkCapacity * sizeof(tbContactLink));
	tbFree(w->joints, (size_t)w->jointCapacity * sizeof(tbJointSlot));
	tbFree(w->pairKeys, (size_t)w->pairCapacity * sizeof(uint64_t));
	tbFree(w->pairValues, (size_t)w->pairCapacity * sizeof(int));
	tbFree(w->pairChildren, (size_t)w->pairCapacity * sizeof(int));
	tbFree(w->awakeBodies, (size_t)w->awakeCapacity * sizeof(int));
	tbFree(w->activeContacts, (size_t)w->activeCapacity * sizeof(int));
	tbFree(w->bodyBounds, (size_t)w->bodyBoundCapacity * sizeof(tbBodyBounds));
	tbDynamicTree_Destroy(&w->trees[0]);
	tbDynamicTree_Destroy(&w->trees[1]);
	tbFree(w->moveBuffer, (size_t)w->moveCapacity * sizeof(int));
	tbFree(w->levelSats, (size_t)w->levelSatCapacity * sizeof(tbLevelSatSlot));
	tbFree(w->beginEvents, (size_t)w->beginCapacity * sizeof(tbContactBeginTouchEvent));
	tbFree(w->endEvents, (size_t)w->endCapacity * sizeof(tbContactEndTouchEvent));
	tbFree(w->pendingEndEvents, (size_t)w->pendingEndCapacity * sizeof(tbContactEndTouchEvent));
	tbFree(w->moveEvents, (size_t)w->moveEventCapacity * sizeof(tbBodyMoveEvent));
	tbFree(w->hitEvents, (size_t)w->hitCapacity * sizeof(tbContactHitEvent));
	tbSensor_DestroyAll(w);
}

static bool tbInRange(int value, int lo, int hi)
{
	return value >= lo && value < hi;
}

// The indices the step follows without checks, each within its table: a save that passed its
// checksum yet names a slot out of range (a bug, or a hand-edited file) is refused here.
static const char* tbCheckIndices(const tbWorld* w)
{
	if (w->bodyCount < 1 && w->liveBodies > 0) {
		return "live bodies without slots";
	}
	if (!tbInRange(w->liveBodies, 0, w->bodyCount + 1) ||
	    !tbInRange(w->liveShapes, 0, w->shapeCount + 1) ||
	    !tbInRange(w->liveContacts, 0, w->contactCount + 1) ||
	    !tbInRange(w->liveJoints, 0, w->jointCount + 1)) {
		return "a live count beyond its table";
	}
	if (!tbInRange(w->freeBody, -1, w->bodyCount) || !tbInRange(w->freeShape, -1, w->shapeCount) ||
	    !tbInRange(w->freeContact, -1, w->contactCount) ||
	    !tbInRange(w->freeJoint, -1, w->jointCount) ||
	    !tbInRange(w->freeLevelSat, -1, w->levelSatCount)) {
		return "a free list head beyond its table";
	}
	for (int i = 0; i < w->levelSatCount; ++i) {
		const tbLevelSatSlot* ls = w->levelSats + i;
		if (!tbInRange(ls->nextFree, -1, w->levelSatCount) ||
		    !tbInRange(ls->level, -1, w->shapeCount) ||
		    !tbInRange(ls->cache.count, 0, TB_LEVEL_SAT_CACHE + 1)) {
			return "a separating-axis cache's link, level or count beyond its table";
		}
	}
	for (int t = 0; t < 2; ++t) {
		const tbDynamicTree* tree = w->trees + t;
		int n = tree->nodeCapacity;
		if (!tbInRange(tree->root, -1, n) || !tbInRange(tree->freeList, -1, n) ||
		    !tbInRange(tree->nodeCount, 0, n + 1)) {
			return "a tree's root or free list beyond its nodes";
		}
		for (int i = 0; i < n; ++i) {
			const tbTreeNode* node = tree->nodes + i;
			if (!tbInRange(node->parent, -1, n) || !tbInRange(node->child1, -1, n) ||
			    !tbInRange(node->child2, -1, n) ||
			    (node->height == 0 && !tbInRange(node->userData, 0, w->shapeCount))) {
				return "a tree node's link beyond the tree";
			}
		}
	}
	for (int i = 0; i < w->bodyCount; ++i) {
		const tbBodySlot* b = w->bodies + i;
		if (!tbInRange(b->nextFree, -1, w->bodyCount)) {
			return "a body's free link beyond the bodies";
		}
		if (!b->alive) {
			continue;
		}
		if ((int)b->rb.type < 0 || (int)b->rb.type > (int)tb_dynamicBody ||
		    !tbInRange(b->firstShape, -1, w->shapeCount) ||
		    !tbInRange(b->sleepNext, -1, w->bodyCount) ||
		    !tbInRange(b->awakeIndex, -1, w->awakeCount) ||
		    !tbInRange(b->contactList, -1, 2 * w->contactCount) ||
		    !tbInRange(b->jointList, -1, 2 * w->jointCount)) {
			return "a body's type or link beyond its table";
		}
	}
	for (int i = 0; i < w->shapeCount; ++i) {
		const tbShapeSlot* s = w->shapes + i;
		if (!tbInRange(s->nextFree, -1, w->shapeCount)) {
			return "a shape's free link beyond the shapes";
		}
		if (!s->alive) {
			continue;
		}
		if (!tbInRange(s->body, 0, w->bodyCount) || !w->bodies[s->body].alive ||
		    !tbInRange(s->levelSat, -1, w->levelSatCount) ||
		    !tbInRange(s->nextInBody, -1, w->shapeCount) || !tbInRange(s->tree, 0, 2) ||
		    !tbInRange(s->proxyId, 0, w->trees[s->tree].nodeCapacity) ||
		    (int)s->geometry.type < 0 || (int)s->geometry.type >= (int)tb_shapeTypeCount ||
		    (tbReferencesGeometry(&s->geometry) && s->geometry.hull == NULL)) {
			return "a shape's body, tree, proxy or geometry beyond its table";
		}
	}
	for (int i = 0; i < w->contactCount; ++i) {
		const tbContactSlot* c = w->contacts + i;
		if (!tbInRange(c->nextFree, -1, w->contactCount)) {
			return "a contact's free link beyond the contacts";
		}
		if (!c->alive) {
			continue;
		}
		bool ok = tbInRange(c->shapeA, 0, w->shapeCount) &&
		          tbInRange(c->shapeB, 0, w->shapeCount) && w->shapes[c->shapeA].alive &&
		          w->shapes[c->shapeB].alive && tbInRange(c->activeIndex, -1, w->activeCount) &&
		          tbInRange(c->manifold.pointCount, 0, TB_MAX_MANIFOLD_POINTS + 1) &&
		          tbInRange(c->cache.pointCount, 0, TB_MAX_MANIFOLD_POINTS + 1) &&
		          tbInRange(c->child, -1, 1 << 30) && c->bodyA == w->shapes[c->shapeA].body &&
		          c->bodyB == w->shapes[c->shapeB].body;
		const tbContactLink* l = w->contactLinks + i;
		ok = ok && l->bodyA == c->bodyA && l->bodyB == c->bodyB;
		for (int side = 0; side < 2; ++side) {
			ok = ok && tbInRange(l->edgePrev[side], -1, 2 * w->contactCount) &&
			     tbInRange(l->edgeNext[side], -1, 2 * w->contactCount);
		}
		if (!ok) {
			return "a contact's shape, body, link or point count beyond its table";
		}
	}
	for (int i = 0; i < w->jointCount; ++i) {
		const tbJointSlot* j = w->joints + i;
		if (!tbInRange(j->nextFree, -1, w->jointCount)) {
			return "a joint's free link beyond the joints";
		}
		if (!j->alive) {
			continue;
		}
		bool ok = tbInRange(j->bodyA, 0, w->bodyCount) && tbInRange(j->bodyB, 0, w->bodyCount) &&
		          (int)j->joint.type >= 0 && (int)j->joint.type < (int)tb_jointTypeCount;
		for (int side = 0; side < 2; ++side) {
			ok = ok && tbInRange(j->edgePrev[side], -1, 2 * w->jointCount) &&
			     tbInRange(j->edgeNext[side], -1, 2 * w->jointCount);
		}
		if (!ok) {
			return "a joint's body or link beyond its table";
		}
	}
	if (w->pairCapacity & (w->pairCapacity - 1)) {
		return "a pair set whose capacity is not a power of two";
	}
	if (!tbInRange(w->pairCount, 0, w->pairCapacity + 1)) {
		return "a pair count beyond the pair set";
	}
	for (int i = 0; i < w->pairCapacity; ++i) {
		if (w->pairKeys[i] != 0 && !tbInRange(w->pairValues[i], 0, w->contactCount)) {
			return "a pair naming a contact beyond the contacts";
		}
	}
	for (int k = 0; k < w->awakeCount; ++k) {
		if (!tbInRange(w->awakeBodies[k], 0, w->bodyCount)) {
			return "an awake body beyond the bodies";
		}
	}
	for (int k = 0; k < w->activeCount; ++k) {
		if (!tbInRange(w->activeContacts[k], 0, w->contactCount)) {
			return "an active contact beyond the contacts";
		}
	}
	for (int k = 0; k < w->moveCount; ++k) {
		if (!tbInRange(w->moveBuffer[k], -1, w->shapeCount)) {
			return "a moved proxy beyond the shapes";
		}
	}
	return NULL;
}

static void tbRebindShapeId(const tbWorld* w, tbShapeId* id)
{
	id->world0 = (uint16_t)w->index;
	id->worldGeneration = w->generation;
}

// The saved ids of events name the saved world: they name this one now.
static void tbRebindEvents(tbWorld* w)
{
	for (int i = 0; i < w->beginCount; ++i) {
		tbRebindShapeId(w, &w->beginEvents[i].shapeIdA);
		tbRebindShapeId(w, &w->beginEvents[i].shapeIdB);
	}
	for (int i = 0; i < w->endCount; ++i) {
		tbRebindShapeId(w, &w->endEvents[i].shapeIdA);
		tbRebindShapeId(w, &w->endEvents[i].shapeIdB);
	}
	for (int i = 0; i < w->pendingEndCount; ++i) {
		tbRebindShapeId(w, &w->pendingEndEvents[i].shapeIdA);
		tbRebindShapeId(w, &w->pendingEndEvents[i].shapeIdB);
	}
	for (int i = 0; i < w->hitCount; ++i) {
		tbRebindShapeId(w, &w->hitEvents[i].shapeIdA);
		tbRebindShapeId(w, &w->hitEvents[i].shapeIdB);
	}
	for (int i = 0; i < w->moveEventCount; ++i) {
		w->moveEvents[i].bodyId.world0 = (uint16_t)w->index;
		w->moveEvents[i].bodyId.worldGeneration = w->generation;
	}
}

// userData saved in another process means nothing here: null.
static void tbClearUserData(tbWorld* w)
{
	for (int i = 0; i < w->bodyCount; ++i) {
		w->bodies[i].userData = NULL;
	}
	for (int i = 0; i < w->shapeCount; ++i) {
		w->shapes[i].userData = NULL;
	}
	for (int i = 0; i < w->jointCount; ++i) {
		w->joints[i].userData = NULL;
	}
	for (int i = 0; i < w->moveEventCount; ++i) {
		w->moveEvents[i].userData = NULL;
	}
}

// Check the header and checksum; false with an error.
static bool tbCheckHeader(const void* data, size_t size, const char* caller, tbSaveHeader* h)
{
	if (data == NULL) {
		tbSetError("%s: data is null", caller);
		return false;
	}
	if (size < sizeof(tbSaveHeader)) {
		tbSetError("%s: %zu bytes are too few for a save (its header alone is %zu)", caller, size,
		           sizeof(tbSaveHeader));
		return false;
	}
	memcpy(h, data, sizeof *h);
	if (h->magic != TB_SAVE_MAGIC) {
		tbSetError("%s: not a world save (bad magic 0x%08x)", caller, (unsigned)h->magic);
		return false;
	}
	if (h->version != TB_SAVE_VERSION) {
		tbSetError("%s: save format version %u, this build reads version %d", caller,
		           (unsigned)h->version, TB_SAVE_VERSION);
		return false;
	}
	if (h->order != TB_SAVE_ORDER || h->floatCheck != TB_SAVE_FLOAT ||
	    h->pointerSize != (uint32_t)sizeof(void*)) {
		tbSetError("%s: the save was made on a machine of another byte order, float format or "
		           "pointer size",
		           caller);
		return false;
	}
	uint32_t sizes[8];
	tbRecordSizes(sizes);
	if (memcmp(sizes, h->recordSizes, sizeof sizes) != 0) {
		tbSetError("%s: the save's records differ in size from this build's (another build of "
		           "the engine)",
		           caller);
		return false;
	}
	if (h->payloadSize != (uint64_t)(size - sizeof(tbSaveHeader))) {
		tbSetError("%s: the save says %llu bytes follow its header, %zu do (truncated or "
		           "corrupt)",
		           caller, (unsigned long long)h->payloadSize, size - sizeof(tbSaveHeader));
		return false;
	}
	const unsigned char* payload = (const unsigned char*)data + sizeof(tbSaveHeader);
	if (tbSaveChecksum(h, payload, (size_t)h->payloadSize) != h->checksum) {
		tbSetError("%s: the save's checksum does not match its bytes (corrupt)", caller);
		return false;
	}
	if (h->referencedGeometry > 0 && h->processTag != tbProcessTag()) {
		tbSetError("%s: the save has %u hull, mesh or heightfield shapes, saved by reference, "
		           "and was made in another process",
		           caller, (unsigned)h->referencedGeometry);
		return false;
	}
	return true;
}

// Read the payload into `t` (zeroed before); false with an error, `t`'s arrays left to free.
static bool tbReadPayload(tbWorld* t, tbSaveReader* in)
{
	void* scalars = NULL;
	int n = 0, cap = 0;
	if (!tbSaveReadSection(in, TB_SAVE_SCALARS, sizeof(tbSaveScalars), 0, &scalars, &n, &cap)) {
		return false;
	}
	if (n != 1) {
		tbFree(scalars, (size_t)cap * sizeof(tbSaveScalars));
		tbSetError("%s: the save has %d world records, not 1 (corrupt)", in->caller, n);
		in->failed = true;
		return false;
	}
	tbSaveScalars sc;
	memcpy(&sc, scalars, sizeof sc);
	tbFree(scalars, sizeof(tbSaveScalars));
	t->def = sc.def;
	t->stepCount = sc.stepCount;
	t->stoppedBodyCount = sc.stoppedBodyCount;
	t->lastSubstep = sc.lastSubstep;
	t->lastTimeStep = sc.lastTimeStep;
	t->freeBody = sc.freeBody;
	t->liveBodies = sc.liveBodies;
	t->freeShape = sc.freeShape;
	t->liveShapes = sc.liveShapes;
	t->freeContact = sc.freeContact;
	t->liveContacts = sc.liveContacts;
	t->freeJoint = sc.freeJoint;
	t->liveJoints = sc.liveJoints;
	t->freeLevelSat = sc.freeLevelSat;
	t->jointWakeCheck = true;  // the restored joints are looked at on the first step
	t->breakableJoints = true; // and their reactions checked against their thresholds
	t->pairCount = sc.pairCount;
	t->hitShapeCount = sc.hitShapeCount;
	t->lastSolverStats = sc.lastSolverStats;
	t->profile = sc.profile;
	int pairValueCount = 0, pairChildCount = 0, linkCount = 0, unused = 0;
	bool ok = tbSaveReadSection(in, TB_SAVE_BODIES, sizeof(tbBodySlot), 16, (void**)&t->bodies,
	                            &t->bodyCount, &t->bodyCapacity) &&
	          tbSaveReadSection(in, TB_SAVE_SHAPES, sizeof(tbShapeSlot), 16, (void**)&t->shapes,
	                            &t->shapeCount, &t->shapeCapacity) &&
	          tbSaveReadSection(in, TB_SAVE_CONTACTS, sizeof(tbContactSlot), 0,
	                            (void**)&t->contacts, &t->contactCount, &t->contactCapacity) &&
	          tbSaveReadSection(in, TB_SAVE_CONTACT_LINKS, sizeof(tbContactLink), 0,
	                            (void**)&t->contactLinks, &linkCount, &t->contactLinkCapacity) &&
	          tbSaveReadSection(in, TB_SAVE_JOINTS, sizeof(tbJointSlot), 0, (void**)&t->joints,
	                            &t->jointCount, &t->jointCapacity) &&
	          tbSaveReadSection(in, TB_SAVE_PAIR_KEYS, sizeof(uint64_t), 0, (void**)&t->pairKeys,
	                            &t->pairCapacity, &unused) &&
	          tbSaveReadSection(in, TB_SAVE_PAIR_VALUES, sizeof(int), 0, (void**)&t->pairValues,
	                            &pairValueCount, &unused) &&
	          tbSaveReadSection(in, TB_SAVE_PAIR_CHILDREN, sizeof(int), 0, (void**)&t->pairChildren,
	                            &pairChildCount, &unused);
	if (ok && linkCount != t->contactCount) {
		tbSetError("%s: %d contact links for %d contacts (corrupt)", in->caller, linkCount,
		           t->contactCount);
		in->failed = true;
		ok = false;
	}
	if (ok && (pairValueCount != t->pairCapacity || pairChildCount != t->pairCapacity)) {
		tbSetError("%s: the pair set's three arrays differ in length (corrupt)", in->caller);
		in->failed = true;
		ok = false;
	}
	ok = ok &&
	     tbSaveReadSection(in, TB_SAVE_AWAKE, sizeof(int), 0, (void**)&t->awakeBodies,
	                       &t->awakeCount, &t->awakeCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_ACTIVE, sizeof(int), 0, (void**)&t->activeContacts,
	                       &t->activeCount, &t->activeCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_BOUNDS, sizeof(tbBodyBounds), 0, (void**)&t->bodyBounds,
	                       &t->bodyBoundCount, &t->bodyBoundCapacity);
	for (int k = 0; ok && k < 2; ++k) {
		tbDynamicTree* tree = t->trees + k;
		ok = tbSaveReadSection(in, TB_SAVE_TREE, sizeof(tbTreeNode), 0, (void**)&tree->nodes,
		                       &tree->nodeCapacity, &unused);
		tree->root = sc.treeRoot[k];
		tree->nodeCount = sc.treeNodeCount[k];
		tree->freeList = sc.treeFreeList[k];
		tree->proxyCount = sc.treeProxyCount[k];
	}
	ok = ok &&
	     tbSaveReadSection(in, TB_SAVE_MOVES, sizeof(int), 0, (void**)&t->moveBuffer, &t->moveCount,
	                       &t->moveCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_LEVEL_SATS, sizeof(tbLevelSatSlot), 0, (void**)&t->levelSats,
	                       &t->levelSatCount, &t->levelSatCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_BEGIN_EVENTS, sizeof(tbContactBeginTouchEvent), 0,
	                       (void**)&t->beginEvents, &t->beginCount, &t->beginCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_END_EVENTS, sizeof(tbContactEndTouchEvent), 0,
	                       (void**)&t->endEvents, &t->endCount, &t->endCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_PENDING_EVENTS, sizeof(tbContactEndTouchEvent), 0,
	                       (void**)&t->pendingEndEvents, &t->pendingEndCount,
	                       &t->pendingEndCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_MOVE_EVENTS, sizeof(tbBodyMoveEvent), 0,
	                       (void**)&t->moveEvents, &t->moveEventCount, &t->moveEventCapacity) &&
	     tbSaveReadSection(in, TB_SAVE_HIT_EVENTS, sizeof(tbContactHitEvent), 0,
	                       (void**)&t->hitEvents, &t->hitCount, &t->hitCapacity) &&
	     tbSensor_Load(t, in);
	void* none = NULL;
	int endCount = 0;
	ok = ok && tbSaveReadSection(in, TB_SAVE_END, 0, 0, &none, &endCount, &unused);
	if (ok && (endCount != 0 || in->offset != in->size)) {
		tbSetError("%s: %zu bytes follow the save's last section (corrupt)", in->caller,
		           in->size - in->offset);
		ok = false;
	}
	return ok;
}

static bool tbRestore(tbWorld* w, const void* data, size_t size, const char* caller)
{
	tbSaveHeader h;
	if (!tbCheckHeader(data, size, caller, &h)) {
		return false;
	}
	tbSaveReader in = {(const unsigned char*)data + sizeof h, size - sizeof h, 0, caller, false};
	// Read into a world of its own first: the target is touched only once all of it checks.
	tbWorld* t = tbTryAlloc(sizeof(tbWorld));
	if (t == NULL) {
		tbSetError("%s: out of memory (%zu bytes)", caller, sizeof(tbWorld));
		return false;
	}
	memset(t, 0, sizeof *t);
	t->index = w->index;
	t->generation = w->generation;
	bool ok = tbReadPayload(t, &in);
	const char* bad = ok ? tbCheckIndices(t) : NULL;
	if (ok && (bad != NULL || !tbSensor_Rebind(t))) {
		tbSetError("%s: the save holds %s (corrupt)", caller,
		           bad != NULL ? bad : "a sensor naming a shape beyond the shapes");
		ok = false;
	}
	if (!ok) {
		tbFreeState(t);
		tbFree(t, sizeof(tbWorld));
		return false;
	}
	tbRebindEvents(t);
	if (h.processTag != tbProcessTag()) {
		tbClearUserData(t);
	}
	// The target's state goes; the read state takes its place. Threads, task callbacks, userData
	// and the step's scratch stay the target's.
	tbFreeState(w);
	tbWorldDef keep = w->def;
	w->def = t->def;
	w->def.workerCount = keep.workerCount;
	w->def.enqueueTask = keep.enqueueTask;
	w->def.finishTask = keep.finishTask;
	w->def.userTaskContext = keep.userTaskContext;
	w->def.userData = keep.userData;
#define TB_TAKE(field) w->field = t->field
	TB_TAKE(bodies);
	TB_TAKE(bodyCount);
	TB_TAKE(bodyCapacity);
	TB_TAKE(freeBody);
	TB_TAKE(liveBodies);
	TB_TAKE(shapes);
	TB_TAKE(shapeCount);
	TB_TAKE(shapeCapacity);
	TB_TAKE(freeShape);
	TB_TAKE(liveShapes);
	TB_TAKE(contacts);
	TB_TAKE(contactCount);
	TB_TAKE(contactCapacity);
	TB_TAKE(contactLinks);
	TB_TAKE(contactLinkCapacity);
	TB_TAKE(freeContact);
	TB_TAKE(liveContacts);
	TB_TAKE(joints);
	TB_TAKE(jointCount);
	TB_TAKE(jointCapacity);
	TB_TAKE(freeJoint);
	TB_TAKE(liveJoints);
	TB_TAKE(pairKeys);
	TB_TAKE(pairValues);
	TB_TAKE(pairChildren);
	TB_TAKE(pairCapacity);
	TB_TAKE(pairCount);
	TB_TAKE(awakeBodies);
	TB_TAKE(awakeCount);
	TB_TAKE(awakeCapacity);
	TB_TAKE(activeContacts);
	TB_TAKE(activeCount);
	TB_TAKE(activeCapacity);
	TB_TAKE(bodyBounds);
	TB_TAKE(bodyBoundCount);
	TB_TAKE(bodyBoundCapacity);
	TB_TAKE(trees[0]);
	TB_TAKE(trees[1]);
	TB_TAKE(moveBuffer);
	TB_TAKE(moveCount);
	TB_TAKE(moveCapacity);
	TB_TAKE(levelSats);
	TB_TAKE(levelSatCount);
	TB_TAKE(levelSatCapacity);
	TB_TAKE(freeLevelSat);
	TB_TAKE(beginEvents);
	TB_TAKE(beginCount);
	TB_TAKE(beginCapacity);
	TB_TAKE(endEvents);
	TB_TAKE(endCount);
	TB_TAKE(endCapacity);
	TB_TAKE(pendingEndEvents);
	TB_TAKE(pendingEndCount);
	TB_TAKE(pendingEndCapacity);
	TB_TAKE(moveEvents);
	TB_TAKE(moveEventCount);
	TB_TAKE(moveEventCapacity);
	TB_TAKE(hitEvents);
	TB_TAKE(hitCount);
	TB_TAKE(hitCapacity);
	TB_TAKE(hitShapeCount);
	TB_TAKE(sensors);
	TB_TAKE(stepCount);
	TB_TAKE(stoppedBodyCount);
	TB_TAKE(lastSubstep);
	TB_TAKE(lastTimeStep);
	TB_TAKE(lastSolverStats);
	TB_TAKE(profile);
#undef TB_TAKE
	// Counted from the shapes rather than saved. The game's callbacks (world.h) are the
	// restoring world's own: a save holds no function pointers.
	w->rollingShapeCount = w->bouncyShapeCount = 0;
	for (int i = 0; i < w->shapeCount; ++i) {
		w->rollingShapeCount += w->shapes[i].alive && w->shapes[i].rollingResistance > 0.0f ? 1 : 0;
		w->bouncyShapeCount += w->shapes[i].alive && w->shapes[i].restitution > 0.0f ? 1 : 0;
	}
	// Per-step memos and scratch counts start empty, as after any step.
	memset(w->levelMemo, 0, (size_t)w->def.workerCount * TB_LEVEL_MEMO * sizeof(tbLevelMemo));
	w->hitCandidateCount = 0;
	w->fastCount = 0;
	w->solverBodyCount = 0;
	w->solverContactCount = 0;
	w->solverJointCount = 0;
	tbFree(t, sizeof(tbWorld));
	return true;
}

bool tbWorld_Restore(tbWorldId worldId, const void* data, size_t size)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_Restore");
	return w != NULL && tbRestore(w, data, size, "tbWorld_Restore");
}

tbWorldId tbCreateWorldFromSave(const void* data, size_t size, const tbWorldDef* runtime)
{
	const char* caller = "tbCreateWorldFromSave";
	tbSaveHeader h;
	if (!tbCheckHeader(data, size, caller, &h)) {
		return tb_nullWorldId;
	}
	tbWorldDef def = tbDefaultWorldDef();
	if (runtime != NULL) {
		def.workerCount = runtime->workerCount;
		def.enqueueTask = runtime->enqueueTask;
		def.finishTask = runtime->finishTask;
		def.userTaskContext = runtime->userTaskContext;
		def.userData = runtime->userData;
	}
	tbWorldId id = tbCreateWorld(&def);
	if (id.index1 == 0) {
		return id;
	}
	if (!tbRestore(tbGetWorld(id, caller), data, size, caller)) {
		tbDestroyWorld(id);
		return tb_nullWorldId;
	}
	return id;
}
