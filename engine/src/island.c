// Sleeping, in one place: the awake set and the active contact set (with each body's list of
// contacts), and the islands that fall asleep and wake whole.
//
// The awake set: the step never scans the whole world: it walks the bodies that move and are awake
// and the contacts that touch one of them (Box2D v3 keeps bodies in solver sets for the same
// reason). Each body also lists its contacts (a doubly linked list through the contacts' two
// edges), so waking, sleeping and destroying a body cost what its own contacts cost.
//
// Islands: union-find over touching contacts each step; a resting island sleeps as a ring of bodies
// that any member's waking wakes whole.
#include <string.h>

#include "world_internal.h"

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
	bool active =
	    c->alive && (tbIsAwakeMover(w->bodies + c->bodyA) || tbIsAwakeMover(w->bodies + c->bodyB));
	if (active && c->activeIndex < 0) {
		tbAddActive(w, contactIndex);
	} else if (!active && c->activeIndex >= 0) {
		tbRemoveActive(w, contactIndex);
	}
}

void tbSetBodyAwake(tbWorld* w, int bodyIndex, bool awake)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	w->jointWakeCheck = w->jointWakeCheck || (b->awake != awake && b->jointList >= 0);
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
		edge = w->contactLinks[contactIndex].edgeNext[edge & 1];
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
	tbContactLink* l = w->contactLinks + contactIndex;
	int bodies[2] = {l->bodyA, l->bodyB};
	for (int side = 0; side < 2; ++side) {
		tbBodySlot* b = w->bodies + bodies[side];
		int edge = contactIndex * 2 + side;
		l->edgePrev[side] = -1;
		l->edgeNext[side] = b->contactList;
		if (b->contactList >= 0) {
			int head = b->contactList;
			w->contactLinks[head >> 1].edgePrev[head & 1] = edge;
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
	tbContactLink* l = w->contactLinks + contactIndex;
	int bodies[2] = {l->bodyA, l->bodyB};
	for (int side = 0; side < 2; ++side) {
		tbBodySlot* b = w->bodies + bodies[side];
		int prev = l->edgePrev[side], next = l->edgeNext[side];
		if (prev >= 0) {
			w->contactLinks[prev >> 1].edgeNext[prev & 1] = next;
		} else {
			b->contactList = next;
		}
		if (next >= 0) {
			w->contactLinks[next >> 1].edgePrev[next & 1] = prev;
		}
		b->contactCount -= 1;
	}
}

void tbWakeBody(tbWorld* w, int bodyIndex)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	if (b->rb.type == tb_staticBody) {
		return;
	}
	if (b->awake) {
		b->sleepTime = 0.0f;
		return;
	}
	// Walk the ring of the sleeping island (capped by the body count).
	int i = bodyIndex;
	int guard = 0;
	do {
		tbBodySlot* m = w->bodies + i;
		int next = m->sleepNext;
		tbSetBodyAwake(w, i, true);
		m->sleepTime = 0.0f;
		m->sleepNext = -1;
		i = next;
	} while (i >= 0 && i != bodyIndex && ++guard <= w->bodyCount);
}

void tbPutIslandToSleep(tbWorld* w, int head)
{
	// head starts a chain through sleepNext ending in -1; close it into a ring.
	int i = head, last = head;
	int guard = 0;
	while (i >= 0 && guard++ <= w->bodyCount) {
		tbBodySlot* b = w->bodies + i;
		tbSetBodyAwake(w, i, false);
		b->sleepTime = 0.0f;
		tbRigidBody_SetVelocity(&b->rb, glms_vec3_zero(), glms_vec3_zero());
		tbRigidBody_ClearForces(&b->rb);
		last = i;
		i = b->sleepNext;
	}
	w->bodies[last].sleepNext = head;
}

static int tbFind(int* parent, int i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]]; // path halving
		i = parent[i];
	}
	return i;
}

typedef struct tbSleepTimerTask
{
	tbWorld* world;
	float dt;
	// Per worker: whether a body of its ranges may fall asleep this step (its timer reached
	// timeToSleep), whether one has rested at all (a timer above zero, which a moving kinematic
	// body it touches sets back), and whether a kinematic one moves (its timer at zero).
	tbWorkerFlags maySleep, resting, kinematicMoves;
} tbSleepTimerTask;

// The sleep timers of the solved bodies [start, end) (each writes its own).
static inline void tbSleepTimersRange(int start, int end, int worker, void* context)
{
	tbSleepTimerTask* t = context;
	tbWorld* w = t->world;
	float timeToSleep = w->def.timeToSleep;
	bool any = false, resting = false, moves = false;
	for (int k = start; k < end; ++k) {
		tbBodySlot* b = w->bodies + w->solverBodySlots[k];
		float speed = glms_vec3_norm(b->rb.v);
		float spin = glms_vec3_norm(b->rb.w) * b->maxExtent;
		speed = spin > speed ? spin : speed;
		if (!b->enableSleep || speed > b->sleepThreshold) {
			b->sleepTime = 0.0f;
		} else {
			b->sleepTime += t->dt;
		}
		any = any || b->sleepTime >= timeToSleep;
		resting = resting || b->sleepTime > 0.0f;
		moves = moves || (b->rb.type == tb_kinematicBody && b->sleepTime == 0.0f);
	}
	t->maySleep.worker[worker].any = t->maySleep.worker[worker].any || any;
	t->resting.worker[worker].any = t->resting.worker[worker].any || resting;
	t->kinematicMoves.worker[worker].any = t->kinematicMoves.worker[worker].any || moves;
}

void tbUpdateSleep(tbWorld* w, float dt)
{
	// The bodies and contacts of this step's solve (the awake set): sleeping islands are never
	// visited. Sleep timers (Box2D v3: the speed of the farthest point against the threshold).
	int n = w->solverBodyCount;
	const int* slots = w->solverBodySlots;
	tbSleepTimerTask task;
	task.world = w;
	task.dt = dt;
	tbClearWorkerFlags(&task.maySleep, w->def.workerCount);
	tbClearWorkerFlags(&task.resting, w->def.workerCount);
	tbClearWorkerFlags(&task.kinematicMoves, w->def.workerCount);
	if (w->parallel) {
		tbParallelFor(w, tbSleepTimersRange, n, 512, &task);
	} else {
		tbSleepTimersRange(0, n, 0, &task);
	}
	int workers = w->def.workerCount;
	bool maySleep = tbAnyWorkerFlag(&task.maySleep, workers);
	bool resets =
	    tbAnyWorkerFlag(&task.kinematicMoves, workers) && tbAnyWorkerFlag(&task.resting, workers);
	// An island falls asleep only when every body in it has rested timeToSleep, and only a
	// moving kinematic body sets back the timers of others, which changes one only where it is
	// above zero: with neither, no island can sleep this step, no timer is set back, and the
	// islands are not made (a settling pile passes here every step until it rests; so does a
	// turning drum full of tumbling bodies).
	if (n == 0 || !(maySleep || resets)) {
		return;
	}
	// Islands among the solved bodies: dynamic bodies joined by touching contacts. Static bodies
	// do not join islands (the ground would merge everything); a moving kinematic body keeps what
	// it touches awake. The contacts are read from the solver's list (each one's solver bodies,
	// in sequence) and the bodies' parts from a compact list made first (`kind`, in the heads'
	// room until the islands are chained below), not from the contacts' and bodies' slots.
	enum
	{
		tb_islandNone = 0,  // static or still kinematic: joins nothing, wakes nothing
		tb_islandJoins = 1, // dynamic
		tb_islandWakes = 2, // kinematic and moving (its sleep timer at zero)
	};
	int* parent = w->islandParent;
	float* minSleep = w->islandSleep;
	int* kind = w->islandHead;
	for (int k = 0; k < n; ++k) {
		const tbBodySlot* b = w->bodies + slots[k];
		parent[k] = k;
		kind[k] = b->rb.type == tb_dynamicBody                             ? tb_islandJoins
		          : b->rb.type == tb_kinematicBody && b->sleepTime == 0.0f ? tb_islandWakes
		                                                                   : tb_islandNone;
	}
	for (int k = 0; k < w->solverContactCount; ++k) {
		const tbContactConstraint* c = w->solverContacts + k;
		int ia = c->bodyA, ib = c->bodyB;
		if (ia < 0 || ib < 0) {
			continue; // a static body
		}
		if (kind[ia] == tb_islandJoins && kind[ib] == tb_islandJoins) {
			int ra = tbFind(parent, ia), rb = tbFind(parent, ib);
			if (ra != rb) {
				// The lower root wins: the islands come out the same every run.
				if (ra < rb) {
					parent[rb] = ra;
				} else {
					parent[ra] = rb;
				}
			}
		} else if (kind[ia] == tb_islandWakes) {
			w->bodies[slots[ib]].sleepTime = 0.0f;
		} else if (kind[ib] == tb_islandWakes) {
			w->bodies[slots[ia]].sleepTime = 0.0f;
		}
	}
	// Joints join islands too: a chain sleeps and wakes as one.
	for (int k = 0; k < w->solverJointCount; ++k) {
		const tbJointSlot* j = w->joints + w->solverJointSlots[k];
		const tbBodySlot* a = w->bodies + j->bodyA;
		const tbBodySlot* b = w->bodies + j->bodyB;
		if (a->rb.type == tb_dynamicBody && b->rb.type == tb_dynamicBody && a->awakeIndex >= 0 &&
		    b->awakeIndex >= 0) {
			int ra = tbFind(parent, a->solverIndex), rb = tbFind(parent, b->solverIndex);
			if (ra != rb) {
				if (ra < rb) {
					parent[rb] = ra;
				} else {
					parent[ra] = rb;
				}
			}
		}
	}
	for (int k = 0; k < n; ++k) {
		minSleep[k] = 1e30f;
	}
	for (int k = 0; k < n; ++k) {
		const tbBodySlot* b = w->bodies + slots[k];
		int r = tbFind(parent, k);
		minSleep[r] = b->sleepTime < minSleep[r] ? b->sleepTime : minSleep[r];
	}
	// Chain each sleeping island's bodies (in solver order) and put it to sleep.
	int* head = w->islandHead;
	for (int k = 0; k < n; ++k) {
		head[k] = -1;
	}
	for (int k = n - 1; k >= 0; --k) {
		tbBodySlot* b = w->bodies + slots[k];
		int r = tbFind(parent, k);
		if (minSleep[r] < w->def.timeToSleep) {
			continue;
		}
		b->sleepNext = head[r];
		head[r] = slots[k];
	}
	// Copies of the heads: putting an island to sleep changes the awake set, not these arrays.
	for (int r = 0; r < n; ++r) {
		if (head[r] >= 0) {
			tbPutIslandToSleep(w, head[r]);
		}
	}
}
