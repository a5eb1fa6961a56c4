// Contacts: the pair table's entries, the narrow phase per pair, touch events, contact data.
#include <math.h>
#include <string.h>

#include "world_internal.h"

void tbCreateContact(tbWorld* w, int shapeA, int shapeB)
{
	// Lower shape index is A: a pair always has the same order, hence the same normal sign and
	// feature ids from step to step.
	if (shapeA > shapeB) {
		int t = shapeA;
		shapeA = shapeB;
		shapeB = t;
	}
	int index;
	if (w->freeContact >= 0) {
		index = w->freeContact;
		w->freeContact = w->contacts[index].nextFree;
	} else {
		tbGrowArray((void**)&w->contacts, &w->contactCapacity, w->contactCount + 1,
		            sizeof(tbContactSlot));
		index = w->contactCount++;
	}
	tbContactSlot* c = w->contacts + index;
	memset(c, 0, sizeof *c);
	c->alive = true;
	c->shapeA = shapeA;
	c->shapeB = shapeB;
	const tbShapeSlot* a = w->shapes + shapeA;
	const tbShapeSlot* b = w->shapes + shapeB;
	// The documented mixing rules of dynamics/: sqrt(muA muB), max(eA, eB).
	c->friction = tbMixFriction(a->friction, b->friction);
	c->restitution = tbMixRestitution(a->restitution, b->restitution);
	tbPairInsert(w, shapeA, shapeB, index);
	w->liveContacts += 1;
}

static void tbPushEndEvent(tbWorld* w, const tbContactSlot* c)
{
	tbGrowArray((void**)&w->endEvents, &w->endCapacity, w->endCount + 1,
	            sizeof(tbContactEndTouchEvent));
	tbContactEndTouchEvent* e = w->endEvents + w->endCount++;
	e->shapeIdA = tbMakeShapeId(w, c->shapeA);
	e->shapeIdB = tbMakeShapeId(w, c->shapeB);
}

void tbDestroyContact(tbWorld* w, int index, bool wakeBodies)
{
	tbContactSlot* c = w->contacts + index;
	if (c->touching) {
		tbPushEndEvent(w, c);
		if (wakeBodies) {
			// Losing a support wakes both sides (a removed neighbour).
			int ba = w->shapes[c->shapeA].body, bb = w->shapes[c->shapeB].body;
			if (!w->bodies[ba].awake) {
				tbWakeBody(w, ba);
			}
			if (!w->bodies[bb].awake) {
				tbWakeBody(w, bb);
			}
		}
	}
	tbPairRemove(w, c->shapeA, c->shapeB);
	c->alive = false;
	c->touching = false;
	c->nextFree = w->freeContact;
	w->freeContact = index;
	w->liveContacts -= 1;
}

void tbDestroyShapeContacts(tbWorld* w, int shapeIndex)
{
	// A scan of the contact table: shapes are destroyed rarely, steps never do this.
	for (int i = 0; i < w->contactCount; ++i) {
		tbContactSlot* c = w->contacts + i;
		if (c->alive && (c->shapeA == shapeIndex || c->shapeB == shapeIndex)) {
			tbDestroyContact(w, i, true);
		}
	}
}

static bool tbIsAwakeMover(const tbBodySlot* b)
{
	return b->awake && b->rb.type != tb_staticBody;
}

// Speed of a body's farthest point, m/s: how far it can close a gap in one step.
static float tbBodySpeedBound(const tbBodySlot* b)
{
	if (b->rb.type == tb_staticBody || !b->awake) {
		return 0.0f;
	}
	return glms_vec3_norm(b->rb.v) + glms_vec3_norm(b->rb.w) * b->maxExtent;
}

void tbCollide(tbWorld* w, float dt)
{
	for (int i = 0; i < w->contactCount; ++i) {
		tbContactSlot* c = w->contacts + i;
		if (!c->alive) {
			continue;
		}
		const tbShapeSlot* sa = w->shapes + c->shapeA;
		const tbShapeSlot* sb = w->shapes + c->shapeB;
		tbBodySlot* ba = w->bodies + sa->body;
		tbBodySlot* bb = w->bodies + sb->body;
		if (!tbIsAwakeMover(ba) && !tbIsAwakeMover(bb)) {
			continue; // asleep (or against static): the manifold of when it fell asleep holds
		}
		if (!tbAABB_Overlaps(sa->fatAABB, sb->fatAABB)) {
			tbDestroyContact(w, i, false);
			continue;
		}
		// Speculative margin: the base distance plus what the two can close in this step, so a
		// fast body gets its points before it arrives (speculative contacts, Catto 2013).
		float margin =
		    w->def.speculativeDistance + dt * (tbBodySpeedBound(ba) + tbBodySpeedBound(bb));
		bool wasTouching = c->touching;
		c->manifold = tbCollideShapes(&sa->geometry, sa->xf, &sb->geometry, sb->xf, margin);
		c->touching = c->manifold.pointCount > 0;
		if (c->touching && !wasTouching) {
			tbGrowArray((void**)&w->beginEvents, &w->beginCapacity, w->beginCount + 1,
			            sizeof(tbContactBeginTouchEvent));
			tbContactBeginTouchEvent* e = w->beginEvents + w->beginCount++;
			e->shapeIdA = tbMakeShapeId(w, c->shapeA);
			e->shapeIdB = tbMakeShapeId(w, c->shapeB);
			e->manifold = c->manifold;
		} else if (!c->touching && wasTouching) {
			tbPushEndEvent(w, c);
			c->impulses.pointCount = 0;
		}
		if (c->touching) {
			// Waking on contact: a moving neighbour wakes a sleeping island. A still kinematic
			// body does not (it would keep its riders awake forever).
			bool aPushes = ba->awake && (ba->rb.type == tb_dynamicBody ||
			                             tbBodySpeedBound(ba) > w->def.sleepThreshold);
			bool bPushes = bb->awake && (bb->rb.type == tb_dynamicBody ||
			                             tbBodySpeedBound(bb) > w->def.sleepThreshold);
			if (!bb->awake && bb->rb.type != tb_staticBody && aPushes) {
				tbWakeBody(w, sb->body);
			}
			if (!ba->awake && ba->rb.type != tb_staticBody && bPushes) {
				tbWakeBody(w, sa->body);
			}
		}
	}
}

tbContactData tbMakeContactData(const tbWorld* w, const tbContactSlot* c)
{
	tbContactData d;
	memset(&d, 0, sizeof d);
	d.shapeIdA = tbMakeShapeId(w, c->shapeA);
	d.shapeIdB = tbMakeShapeId(w, c->shapeB);
	d.manifold = c->manifold;
	for (int i = 0; i < c->manifold.pointCount; ++i) {
		for (int j = 0; j < c->impulses.pointCount; ++j) {
			if (c->impulses.points[j].id == c->manifold.points[i].id) {
				d.normalImpulses[i] = c->impulses.points[j].normalImpulse;
				d.frictionImpulses[i] = c->impulses.points[j].frictionImpulse;
				break;
			}
		}
	}
	return d;
}
