// Contact hit events (docs/events.md). Before the solve, every manifold point of a pair with hit
// events on is measured for its approach speed: the relative velocity of the two bodies at the
// point along the normal, vn = -(vB + wB x rB - vA - wA x rA) . n, carried over the point's gap s
// under the bodies' gravity (relative acceleration a along -n): the speed at which the gap closes,
// sqrt(vn^2 + 2 a s) (uniform acceleration, v^2 = v0^2 + 2 a d). Without the carry a ball caught by
// a speculative point reports its speed up to two steps of falling early (too low by g times two
// steps). A pair with a point faster than the world's hitEventThreshold is a candidate. After
// the solve, a candidate point that got a normal impulse, and had none in the step before, struck
// in this step: one event per pair, its fastest such point. A speculative point that the bodies do
// not reach in this step gets no impulse, so the event comes in the step of the impact. (Box2D v3
// reports hits from the solver's relative velocity and largest impulse per point; this is the same
// idea on the engine's side of the solver.)
#include <math.h>
#include <string.h>

#include "world_internal.h"

typedef struct tbHitCandidate
{
	int contact;
	int pointCount;
	uint32_t id[TB_MAX_MANIFOLD_POINTS];
	float speed[TB_MAX_MANIFOLD_POINTS]; // approach speed, m/s (0: below the threshold)
} tbHitCandidate;

// Velocity of the body's material point at world point p (zero for a body that does not move in
// this step: static, or asleep).
// Gravity's acceleration of a body that moves in this step, m/s^2.
static vec3s tbBodyGravity(const tbWorld* w, const tbBodySlot* b)
{
	if (b->rb.type != tb_dynamicBody || b->awakeIndex < 0) {
		return glms_vec3_zero();
	}
	return glms_vec3_scale(w->def.gravity, b->rb.gravityScale);
}

static vec3s tbPointVelocity(const tbBodySlot* b, vec3s p)
{
	if (b->rb.type == tb_staticBody || b->awakeIndex < 0) {
		return glms_vec3_zero();
	}
	vec3s r = glms_vec3_sub(p, b->rb.state.x);
	return glms_vec3_add(b->rb.v, glms_vec3_cross(b->rb.w, r));
}

void tbHitEvents_Prepare(tbWorld* w)
{
	// Last step's events are dropped only now: between steps the array handed out stays put.
	w->hitCount = 0;
	w->hitCandidateCount = 0;
	if (w->hitShapeCount == 0) {
		return; // the common case costs no pass over the contacts
	}
	float threshold = w->def.hitEventThreshold;
	for (int k = 0; k < w->activeCount; ++k) {
		int i = w->activeContacts[k];
		const tbContactSlot* c = w->contacts + i;
		const tbShapeSlot* sa = w->shapes + c->shapeA;
		const tbShapeSlot* sb = w->shapes + c->shapeB;
		if (!c->touching || !(sa->enableHitEvents || sb->enableHitEvents)) {
			continue;
		}
		const tbBodySlot* ba = w->bodies + c->bodyA;
		const tbBodySlot* bb = w->bodies + c->bodyB;
		vec3s ga = tbBodyGravity(w, ba), gb = tbBodyGravity(w, bb);
		tbHitCandidate candidate;
		memset(&candidate, 0, sizeof candidate);
		candidate.contact = i;
		bool any = false;
		const tbManifold* m = &c->manifold;
		for (int j = 0; j < m->pointCount; ++j) {
			const tbManifoldPoint* mp = m->points + j;
			vec3s p = glms_vec3_scale(glms_vec3_add(mp->pointA, mp->pointB), 0.5f);
			vec3s dv = glms_vec3_sub(tbPointVelocity(bb, p), tbPointVelocity(ba, p));
			float speed = -glms_vec3_dot(dv, m->normal);
			float closing = -glms_vec3_dot(glms_vec3_sub(gb, ga), m->normal);
			if (speed > 0.0f && mp->separation > 0.0f && closing > 0.0f) {
				speed = sqrtf(speed * speed + 2.0f * closing * mp->separation);
			}
			// A point that already pushed in the last step is not a new strike: a speculative
			// point may brake a fast body over two steps, which is one hit.
			for (int q = 0; q < c->impulses.pointCount; ++q) {
				if (c->impulses.points[q].id == mp->id &&
				    c->impulses.points[q].normalImpulse > 0.0f) {
					speed = 0.0f;
				}
			}
			candidate.id[j] = mp->id;
			candidate.speed[j] = speed > threshold ? speed : 0.0f;
			any = any || speed > threshold;
		}
		candidate.pointCount = m->pointCount;
		if (!any) {
			continue;
		}
		if (w->hitCandidateCount + 1 > w->hitCandidateCapacity) {
			tbGrowArray((void**)&w->hitCandidates, &w->hitCandidateCapacity,
			            w->hitCandidateCount + 1, sizeof(tbHitCandidate));
		}
		w->hitCandidates[w->hitCandidateCount++] = candidate;
	}
}

void tbHitEvents_Finish(tbWorld* w)
{
	for (int k = 0; k < w->hitCandidateCount; ++k) {
		const tbHitCandidate* h = w->hitCandidates + k;
		const tbContactSlot* c = w->contacts + h->contact;
		// The solve neither makes nor destroys contacts; the check costs nothing.
		if (!c->alive || !c->touching) {
			continue;
		}
		int best = -1;
		for (int j = 0; j < h->pointCount; ++j) {
			if (h->speed[j] <= 0.0f || (best >= 0 && h->speed[j] <= h->speed[best])) {
				continue;
			}
			// The point pushed in this solve (its impulse is kept by feature id), or was struck
			// by the solver's collision phase (an impulse in the step's sum only).
			for (int q = 0; q < c->impulses.pointCount; ++q) {
				if (c->impulses.points[q].id == h->id[j] &&
				    (c->impulses.points[q].normalImpulse > 0.0f ||
				     c->impulses.points[q].stepNormalImpulse > 0.0f)) {
					best = j;
					break;
				}
			}
		}
		if (best < 0) {
			continue;
		}
		// The manifold is still the one the speeds were measured on (the solve keeps it).
		const tbManifoldPoint* mp = c->manifold.points + best;
		tbGrowArray((void**)&w->hitEvents, &w->hitCapacity, w->hitCount + 1,
		            sizeof(tbContactHitEvent));
		tbContactHitEvent* e = w->hitEvents + w->hitCount++;
		e->shapeIdA = tbMakeShapeId(w, c->shapeA);
		e->shapeIdB = tbMakeShapeId(w, c->shapeB);
		e->point = glms_vec3_scale(glms_vec3_add(mp->pointA, mp->pointB), 0.5f);
		e->normal = c->manifold.normal;
		e->approachSpeed = h->speed[best];
	}
	w->hitCandidateCount = 0;
}

void tbHitEvents_DestroyAll(tbWorld* w)
{
	tbFree(w->hitEvents, (size_t)w->hitCapacity * sizeof(tbContactHitEvent));
	tbFree(w->hitCandidates, (size_t)w->hitCandidateCapacity * sizeof(tbHitCandidate));
	w->hitEvents = NULL;
	w->hitCandidates = NULL;
	w->hitCapacity = 0;
	w->hitCandidateCapacity = 0;
}
