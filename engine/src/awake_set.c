// The awake set and the active contact set, and each body's list of contacts.
//
// The step never scans the whole world: it walks the bodies that move and are awake and the
// contacts that touch one of them (Box2D v3 keeps bodies in solver sets for the same reason).
// A world of 10,000 sleeping cubes then steps its 100 awake ones at the cost of 100. Each body
// also lists its contacts (a doubly linked list through the contacts' two edges), so waking,
// sleeping and destroying a body cost what its own contacts cost.
#include "world_internal.h"

static bool tbIsAwakeMover(const tbBodySlot* b)
{
	return b->alive && b->awake && b->rb.type != tb_staticBody;
}

static void tbAddActive(tbWorld* w, int contactIndex)
{
	tbContactSlot* c = w->contacts + contactIndex;
	tbGrowArray((void**)&w->activeContacts, &w->activeCapacity, w->activeCount + 1, sizeof(int));
	c->activeIndex = w->activeCount;
	w->activeContacts[w->activeCount++] = contactIndex;
}

static void tbRemoveActive(tbWorld* w, int contactIndex)
{
	tbContactSlot* c = w->contacts + contactIndex;
	int at = c->activeIndex;
	TB_ASSERT(at >= 0 && at < w->activeCount && w->activeContacts[at] == contactIndex);
	int last = w->activeContacts[--w->activeCount];
	w->activeContacts[at] = last;
	w->contacts[last].activeIndex = at;
	c->activeIndex = -1;
}

void tbUpdateContactActivity(tbWorld* w, int contactIndex)
{
	tbContactSlot* c = w->contacts + contactIndex;
	bool active = c->alive && (tbIsAwakeMover(w->bodies + w->shapes[c->shapeA].body) ||
	                           tbIsAwakeMover(w->bodies + w->shapes[c->shapeB].body));
	if (active && c->activeIndex < 0) {
		tbAddActive(w, contactIndex);
	} else if (!active && c->activeIndex >= 0) {
		tbRemoveActive(w, contactIndex);
	}
}

void tbSetBodyAwake(tbWorld* w, int bodyIndex, bool awake)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	b->awake = awake;
	bool member = tbIsAwakeMover(b);
	if (member && b->awakeIndex < 0) {
		tbGrowArray((void**)&w->awakeBodies, &w->awakeCapacity, w->awakeCount + 1, sizeof(int));
		b->awakeIndex = w->awakeCount;
		w->awakeBodies[w->awakeCount++] = bodyIndex;
	} else if (!member && b->awakeIndex >= 0) {
		int last = w->awakeBodies[--w->awakeCount];
		w->awakeBodies[b->awakeIndex] = last;
		w->bodies[last].awakeIndex = b->awakeIndex;
		b->awakeIndex = -1;
	}
	// Its contacts follow (capped by the world's contact count).
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= w->contactCount;) {
		int contactIndex = edge >> 1;
		tbUpdateContactActivity(w, contactIndex);
		edge = w->contacts[contactIndex].edgeNext[edge & 1];
	}
}

void tbRemoveBodyFromSets(tbWorld* w, int bodyIndex)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	bool alive = b->alive;
	b->alive = false;
	tbSetBodyAwake(w, bodyIndex, b->awake);
	b->alive = alive;
}

void tbLinkContact(tbWorld* w, int contactIndex)
{
	tbContactSlot* c = w->contacts + contactIndex;
	int bodies[2] = {w->shapes[c->shapeA].body, w->shapes[c->shapeB].body};
	for (int side = 0; side < 2; ++side) {
		tbBodySlot* b = w->bodies + bodies[side];
		int edge = contactIndex * 2 + side;
		c->edgePrev[side] = -1;
		c->edgeNext[side] = b->contactList;
		if (b->contactList >= 0) {
			int head = b->contactList;
			w->contacts[head >> 1].edgePrev[head & 1] = edge;
		}
		b->contactList = edge;
		b->contactCount += 1;
	}
	c->activeIndex = -1;
	tbUpdateContactActivity(w, contactIndex);
}

void tbUnlinkContact(tbWorld* w, int contactIndex)
{
	tbContactSlot* c = w->contacts + contactIndex;
	if (c->activeIndex >= 0) {
		tbRemoveActive(w, contactIndex);
	}
	int bodies[2] = {w->shapes[c->shapeA].body, w->shapes[c->shapeB].body};
	for (int side = 0; side < 2; ++side) {
		tbBodySlot* b = w->bodies + bodies[side];
		int prev = c->edgePrev[side], next = c->edgeNext[side];
		if (prev >= 0) {
			w->contacts[prev >> 1].edgeNext[prev & 1] = next;
		} else {
			b->contactList = next;
		}
		if (next >= 0) {
			w->contacts[next >> 1].edgePrev[next & 1] = prev;
		}
		b->contactCount -= 1;
	}
}
