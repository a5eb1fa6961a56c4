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
		m->awake = true;
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
		b->awake = false;
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
	// Sleep timers (Box2D v3: the speed of the farthest point against the threshold).
	int n = 0;
	for (int i = 0; i < w->bodyCount; ++i) {
		tbBodySlot* b = w->bodies + i;
		if (!b->alive || b->solverIndex < 0) {
			continue;
		}
		++n;
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
	for (int i = 0; i < w->bodyCount; ++i) {
		const tbBodySlot* b = w->bodies + i;
		if (b->alive && b->solverIndex >= 0) {
			parent[b->solverIndex] = b->solverIndex;
		}
	}
	for (int i = 0; i < w->contactCount; ++i) {
		const tbContactSlot* c = w->contacts + i;
		if (!c->alive || !c->touching) {
			continue;
		}
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
	for (int i = 0; i < n; ++i) {
		minSleep[i] = 1e30f;
	}
	for (int i = 0; i < w->bodyCount; ++i) {
		const tbBodySlot* b = w->bodies + i;
		if (b->alive && b->solverIndex >= 0) {
			int r = tbFind(parent, b->solverIndex);
			minSleep[r] = b->sleepTime < minSleep[r] ? b->sleepTime : minSleep[r];
		}
	}
	// Chain each sleeping island's bodies (in body order) through sleepNext, its first body in
	// head[r] for the island's root r, and put it to sleep (which closes the chain into a ring).
	int* head = w->solverBodySlots; // free after tbSolve: reused as scratch
	for (int i = 0; i < n; ++i) {
		head[i] = -1;
	}
	for (int i = w->bodyCount - 1; i >= 0; --i) {
		tbBodySlot* b = w->bodies + i;
		if (!b->alive || b->solverIndex < 0) {
			continue;
		}
		int r = tbFind(parent, b->solverIndex);
		if (minSleep[r] < w->def.timeToSleep) {
			continue;
		}
		b->sleepNext = head[r];
		head[r] = i;
	}
	for (int r = 0; r < n; ++r) {
		if (head[r] >= 0) {
			tbPutIslandToSleep(w, head[r]);
		}
	}
}
