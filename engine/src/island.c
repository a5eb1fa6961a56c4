// Islands and sleeping: union-find over touching contacts each step; a resting island sleeps as
// a ring of bodies that any member's waking wakes whole.
#include <string.h>

#include "world_internal.h"

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

void tbUpdateSleep(tbWorld* w, float dt)
{
	// The bodies and contacts of this step's solve (the awake set): sleeping islands are never
	// visited. Sleep timers (Box2D v3: the speed of the farthest point against the threshold).
	int n = w->solverBodyCount;
	const int* slots = w->solverBodySlots;
	for (int k = 0; k < n; ++k) {
		tbBodySlot* b = w->bodies + slots[k];
		float speed = glms_vec3_norm(b->rb.v);
		float spin = glms_vec3_norm(b->rb.w) * b->maxExtent;
		speed = spin > speed ? spin : speed;
		if (!b->enableSleep || speed > w->def.sleepThreshold) {
			b->sleepTime = 0.0f;
		} else {
			b->sleepTime += dt;
		}
	}
	if (n == 0) {
		return;
	}
	// Islands among the solved bodies: dynamic bodies joined by touching contacts. Static bodies
	// do not join islands (the ground would merge everything); a moving kinematic body keeps what
	// it touches awake.
	int* parent = w->islandParent;
	float* minSleep = w->islandSleep;
	for (int k = 0; k < n; ++k) {
		parent[k] = k;
	}
	for (int k = 0; k < w->solverContactCount; ++k) {
		const tbContactSlot* c = w->contacts + w->solverContactSlots[k];
		tbBodySlot* a = w->bodies + w->shapes[c->shapeA].body;
		tbBodySlot* b = w->bodies + w->shapes[c->shapeB].body;
		if (a->solverIndex < 0 || b->solverIndex < 0) {
			continue;
		}
		if (a->rb.type == tb_dynamicBody && b->rb.type == tb_dynamicBody) {
			int ra = tbFind(parent, a->solverIndex), rb = tbFind(parent, b->solverIndex);
			if (ra != rb) {
				// The lower root wins: the islands come out the same every run.
				if (ra < rb) {
					parent[rb] = ra;
				} else {
					parent[ra] = rb;
				}
			}
		} else if (a->rb.type == tb_kinematicBody && a->sleepTime == 0.0f) {
			b->sleepTime = 0.0f;
		} else if (b->rb.type == tb_kinematicBody && b->sleepTime == 0.0f) {
			a->sleepTime = 0.0f;
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
