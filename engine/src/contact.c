// Contacts: the pair table's entries, the narrow phase per pair, touch events, contact data.
#include <float.h>
#include <math.h>
#include <string.h>

#include "world_internal.h"

void tbMixMaterial(const tbWorld* w, const tbShapeSlot* a, const tbShapeSlot* b, float* friction,
                   float* restitution)
{
	// The documented mixing rules of dynamics/ (sqrt(muA muB), max(eA, eB)) unless the game gave
	// its own; what it returns is held to the ranges the solver takes.
	if (w->frictionCallback != NULL) {
		float mu = w->frictionCallback(a->friction, a->material, b->friction, b->material);
		*friction = mu > 0.0f && isfinite(mu) ? mu : 0.0f;
	} else {
		*friction = tbMixFriction(a->friction, b->friction);
	}
	if (w->restitutionCallback != NULL) {
		float e = w->restitutionCallback(a->restitution, a->material, b->restitution, b->material);
		*restitution = e > 0.0f ? fminf(e, 1.0f) : 0.0f; // NaN fails e > 0
	} else {
		*restitution = tbMixRestitution(a->restitution, b->restitution);
	}
}

void tbCreateContact(tbWorld* w, int shapeA, int shapeB, int child)
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
		// Each slot is cleared when it is taken (below).
		tbGrowArrayUncleared((void**)&w->contacts, &w->contactCapacity, w->contactCount + 1,
		                     sizeof(tbContactSlot));
		tbGrowArrayUncleared((void**)&w->contactLinks, &w->contactLinkCapacity, w->contactCount + 1,
		                     sizeof(tbContactLink));
		index = w->contactCount++;
	}
	tbContactSlot* c = w->contacts + index;
	memset(c, 0, sizeof *c);
	c->alive = true;
	c->shapeA = shapeA;
	c->shapeB = shapeB;
	c->bodyA = w->shapes[shapeA].body;
	c->bodyB = w->shapes[shapeB].body;
	w->contactLinks[index].bodyA = c->bodyA;
	w->contactLinks[index].bodyB = c->bodyB;
	c->child = child;
	tbMixMaterial(w, w->shapes + shapeA, w->shapes + shapeB, &c->friction, &c->restitution);
	tbPairInsert(w, shapeA, shapeB, child, index);
	tbLinkContact(w, index);
	w->liveContacts += 1;
}

// A contact began (+1) or ended (-1) touching: counted in both bodies' touchingMovers when both are
// dynamic (a body's type never changes, so the end undoes the begin).
static void tbCountTouch(tbWorld* w, const tbContactSlot* c, int change)
{
	tbBodySlot* ba = w->bodies + c->bodyA;
	tbBodySlot* bb = w->bodies + c->bodyB;
	if (ba->rb.type == tb_dynamicBody && bb->rb.type == tb_dynamicBody) {
		ba->touchingMovers += change;
		bb->touchingMovers += change;
	}
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
		tbCountTouch(w, c, -1);
		if (wakeBodies) {
			// Losing a support wakes both sides (a removed neighbour).
			int ba = c->bodyA, bb = c->bodyB;
			if (!w->bodies[ba].awake) {
				tbWakeBody(w, ba);
			}
			if (!w->bodies[bb].awake) {
				tbWakeBody(w, bb);
			}
		}
	}
	tbUnlinkContact(w, index);
	tbPairRemove(w, c->shapeA, c->shapeB, c->child);
	c->alive = false;
	c->touching = false;
	c->nextFree = w->freeContact;
	w->freeContact = index;
	w->liveContacts -= 1;
}

void tbDestroyShapeContacts(tbWorld* w, int shapeIndex)
{
	// The body's own contact list: destroying a body costs what its contacts cost (a scan of
	// the whole table made destroying 20,000 bodies take 7.5 s).
	tbBodySlot* b = w->bodies + w->shapes[shapeIndex].body;
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= w->contactCount;) {
		int i = edge >> 1;
		int next = w->contactLinks[i].edgeNext[edge & 1];
		tbContactSlot* c = w->contacts + i;
		if (c->shapeA == shapeIndex || c->shapeB == shapeIndex) {
			tbDestroyContact(w, i, true);
		}
		edge = next;
	}
}

// Speed of a body's farthest point, m/s: how far it can close a gap in one step.
static float tbBodySpeedBound(const tbBodySlot* b)
{
	if (b->rb.type == tb_staticBody || !b->awake) {
		return 0.0f;
	}
	return glms_vec3_norm(b->rb.v) + glms_vec3_norm(b->rb.w) * b->maxExtent;
}

// How far a pair may move relative to itself before its cached narrow-phase result is redone, as a
// fraction of the smaller shape's bounding radius; the result is also made with this much more
// speculative distance so that points just beyond the margin are known. A drift this small moves a
// face contact's separation by nothing (its points move with the bodies) and a clipped point's by
// the slope of its edge times the drift (under 2 mm for unit cubes). A resting pyramid then skips
// nearly every narrow phase, a rain resting pairs and cubes falling side by side. A rain's time to
// sleep is chaotic in any change of rounding, this slack's included.
#define TB_CACHE_SLACK 2e-3f

// A face contact (or one corner of a polyhedron over the other's face) may move further, up to this
// fraction of the smaller shape's bounding radius and a relative turn of TB_CACHE_TURN rad, when
// its placed points are checked: the shapes' separation along the placed normal must agree with the
// deepest placed point (tbPlacedManifoldHolds), so that the same features are still the deepest.
// Its manifold is made with this much more speculative distance for it.
#define TB_CACHE_CHECKED 0.1f
#define TB_CACHE_TURN 0.05f

// A level pair's slot keeps its place for a group of triangles whose normal is within this cosine
// of the one it had (tbCollideLevelPair), so its warm start follows the same face.
#define TB_LEVEL_KEEP_COS 0.95f

// An upper bound of the rotation angle between two orientations: the vector part of
// conj(a) b has length sin(angle / 2), whichever sign either quaternion carries, and
// 2 s (1 + s^2) bounds the angle from above while s is small.
static float tbTurnBound(versors a, versors b)
{
	vec3s va = {{a.x, a.y, a.z}}, vb = {{b.x, b.y, b.z}};
	vec3s v = glms_vec3_sub(glms_vec3_sub(glms_vec3_scale(vb, a.w), glms_vec3_scale(va, b.w)),
	                        glms_vec3_cross(va, vb));
	float sinHalf = glms_vec3_norm(v);
	if (!(sinHalf < 0.5f)) {
		return FLT_MAX;
	}
	return 2.0f * sinHalf * (1.0f + sinHalf * sinHalf);
}

// B's pose in A's frame, in float (the cache check only needs it to a small fraction of the
// slack; the narrow phase itself gets the double-precision tbInvMulTransforms).
static tbTransform tbRelativePose(tbTransform xfA, tbTransform xfB)
{
	versors qa = xfA.q, qb = xfB.q;
	versors conjA = {{-qa.x, -qa.y, -qa.z, qa.w}};
	tbTransform out;
	out.q = glms_quat_mul(conjA, qb);
	out.p = tbRotateInline(conjA, glms_vec3_sub(xfB.p, xfA.p));
	return out;
}

// A bound on how far any point of B (within radiusB of B's origin) has moved in A's frame since
// the cache was made: the relative translation plus the relative rotation angle times radiusB.
static float tbPairDrift(const tbContactCache* cc, tbTransform bInA, float radiusB)
{
	tbTransform then = tbCachePose(cc);
	return glms_vec3_norm(glms_vec3_sub(bInA.p, then.p)) + tbTurnBound(then.q, bInA.q) * radiusB;
}

// The same bound with the roles swapped: how far any point of A (within radiusA of A's origin)
// has moved in B's frame, where A sits at the inverse of bInA (origin -R^T p).
static float tbPairDriftOfA(const tbContactCache* cc, tbTransform bInA, float radiusA)
{
	vec3s now = tbInvRotateInline(bInA.q, bInA.p);
	tbTransform made = tbCachePose(cc);
	vec3s then = tbInvRotateInline(made.q, made.p);
	return glms_vec3_norm(glms_vec3_sub(now, then)) + tbTurnBound(made.q, bInA.q) * radiusA;
}

// R p + t with R a rotation matrix, inlined (the placement below runs for every cached point of
// every resting pair, where a quaternion rotation per point costs twice the multiplications).
static inline vec3s tbPlace(const mat3s* R, vec3s t, vec3s p)
{
	return (vec3s){{R->col[0].x * p.x + R->col[1].x * p.y + R->col[2].x * p.z + t.x,
	                R->col[0].y * p.x + R->col[1].y * p.y + R->col[2].y * p.z + t.y,
	                R->col[0].z * p.x + R->col[1].z * p.y + R->col[2].z * p.z + t.z}};
}

// The world manifold of the pair's cached points: each point moves with its own body, and a
// point's separation with their motion along the normal (exact for an incident vertex over a
// reference face). Points beyond `margin` are left out.
static void tbPlaceCachedManifold(const tbContactCache* cc, tbTransform xfA, tbTransform xfB,
                                  float margin, tbManifold* m)
{
	m->pointCount = 0;
	mat3s RA = glms_quat_mat3(xfA.q), RB = glms_quat_mat3(xfB.q);
	m->normal = glms_mat3_mulv(RA, cc->normal);
	for (int i = 0; i < cc->pointCount; ++i) {
		vec3s pa = tbPlace(&RA, xfA.p, cc->pointA[i]);
		vec3s pb = tbPlace(&RB, xfB.p, cc->pointB[i]);
		float separation =
		    cc->separationOffset[i] + glms_vec3_dot(glms_vec3_sub(pb, pa), m->normal);
		if (separation > margin) {
			continue;
		}
		tbManifoldPoint* mp = m->points + m->pointCount++;
		mp->pointA = pa;
		mp->pointB = pb;
		mp->separation = separation;
		mp->id = cc->id[i];
	}
}

// Keep the narrow phase's manifold `local` (A's frame, made with speculative distance `made`) in
// the pair's cache and write this step's world manifold from it, less the points beyond `margin`.
static void tbStoreManifold(tbContactSlot* c, const tbShapeSlot* sa, const tbShapeSlot* sb,
                            tbTransform bInA, tbTransform rel, const tbManifold* local,
                            float margin, float made, float distance)
{
	tbManifold* m = &c->manifold;
	tbContactCache* cc = &c->cache;
	tbSetCachePose(cc, rel);
	cc->normal = local->normal;
	cc->pointCount = local->pointCount;
	cc->margin = made;
	cc->distance = distance;
	cc->valid = distance > -FLT_MAX;
	// This step's manifold as the narrow phase made it, less the points beyond this step's margin;
	// the cache keeps each point in its own body's frame. Only the points it holds are written
	// (as tbPlaceCachedManifold): nothing reads a manifold past its count, and clearing the rest
	// would write cache lines of the slot that are otherwise left alone.
	m->pointCount = 0;
	// Placed as tbPlaceCachedManifold places them, so that a point placed again at this very pose
	// gets back its own separation.
	mat3s RA = glms_quat_mat3(sa->xf.q), RB = glms_quat_mat3(sb->xf.q);
	m->normal = glms_mat3_mulv(RA, local->normal);
	for (int i = 0; i < local->pointCount; ++i) {
		const tbManifoldPoint* mp = local->points + i;
		cc->pointA[i] = mp->pointA;
		cc->pointB[i] = tbInvTransformPointInline(bInA, mp->pointB);
		cc->id[i] = mp->id;
		vec3s pa = tbPlace(&RA, sa->xf.p, mp->pointA);
		vec3s pb = tbPlace(&RA, sa->xf.p, mp->pointB);
		// Placed again at this very pose, a point gets back its own separation.
		vec3s pbAgain = tbPlace(&RB, sb->xf.p, cc->pointB[i]);
		cc->separationOffset[i] =
		    mp->separation - glms_vec3_dot(glms_vec3_sub(pbAgain, pa), m->normal);
		if (mp->separation > margin) {
			continue;
		}
		tbManifoldPoint* out = m->points + m->pointCount++;
		out->pointA = pa;
		out->pointB = pb;
		out->separation = mp->separation;
		out->id = mp->id;
	}
}

// Whether the shapes' tight boxes are apart by more than `margin` on some axis: then no point can
// be within the margin (bodies falling side by side, whose fat boxes overlap, end here).
static bool tbBoxesApart(const tbShapeSlot* sa, const tbShapeSlot* sb, float margin)
{
	tbAABB a = sa->aabb, b = sb->aabb;
	return a.lower.x - b.upper.x > margin || b.lower.x - a.upper.x > margin ||
	       a.lower.y - b.upper.y > margin || b.lower.y - a.upper.y > margin ||
	       a.lower.z - b.upper.z > margin || b.lower.z - a.upper.z > margin;
}

// The narrow phase of one pair, or its cached result when the pair has barely moved relative to
// itself since: resting stacks and bodies falling side by side skip GJK, EPA and clipping. Written
// into the pair's manifold in place (no copy of a returned manifold).
static void tbCollidePair(const tbWorld* w, tbContactSlot* c, const tbShapeSlot* sa,
                          const tbShapeSlot* sb, float margin, tbProfile* profile)
{
	tbManifold* m = &c->manifold;
	tbContactCache* cc = &c->cache;
	if (tbBoxesApart(sa, sb, margin)) {
		profile->cachedManifolds += 1;
		m->normal = tbRotateInline(sa->xf.q, cc->normal);
		m->pointCount = 0;
		return;
	}
	float radiusA = sa->radius, radiusB = sb->radius;
	float size = radiusA < radiusB ? radiusA : radiusB;
	float slack = TB_CACHE_SLACK * size;
	// Two shapes whose features stay on their bodies, with two points or more last time (a face
	// contact, which a pair stays from step to step) or one clipped corner of two polyhedra: made
	// with the wider slack, for the checked reuse below.
	bool faces =
	    cc->valid && tbKeepsFeatures(&sa->geometry) && tbKeepsFeatures(&sb->geometry) &&
	    (cc->pointCount >= 2 || (cc->pointCount == 1 && cc->id[0] != TB_QUERY_POINT_ID &&
	                             tbIsPolyhedron(&sa->geometry) && tbIsPolyhedron(&sb->geometry)));
	float made = faces ? TB_CACHE_CHECKED * size : slack;
	tbTransform rel = tbRelativePose(sa->xf, sb->xf);
	if (cc->valid) {
		float drift = tbPairDrift(cc, rel, radiusB);
		if (cc->pointCount == 0) {
			// Apart by `distance` then, so by at least distance - drift now.
			if (cc->distance - drift > margin) {
				profile->cachedManifolds += 1;
				m->normal = tbRotateInline(sa->xf.q, cc->normal);
				m->pointCount = 0;
				return;
			}
		} else if (drift <= slack && margin + drift <= cc->margin) {
			// Any point it left out was beyond cc->margin then, so beyond margin now.
			profile->cachedManifolds += 1;
			tbPlaceCachedManifold(cc, sa->xf, sb->xf, margin, m);
			return;
		} else if (faces && drift <= made && margin + drift <= cc->margin &&
		           tbTurnBound(tbCachePose(cc).q, rel.q) <= TB_CACHE_TURN) {
			tbPlaceCachedManifold(cc, sa->xf, sb->xf, margin, m);
			if (tbPlacedManifoldHolds(w, sa, sb, m)) {
				profile->cachedManifolds += 1;
				return;
			}
		}
	}
	float distance;
	profile->narrowPhaseRuns += 1;
	tbTransform bInA = tbInvMulTransforms(sa->xf, sb->xf);
	tbManifold local = tbCollideWorldShapes(&sa->geometry, &sb->geometry, bInA, margin + made,
	                                        &distance, &cc->sat);
	tbStoreManifold(c, sa, sb, bInA, rel, &local, margin, margin + made, distance);
}

// A convex shape against a mesh or heightfield: one narrow phase for the pair (tbCollideLevel),
// whose manifolds, one per group of triangles sharing a normal, go to the pair's slots (child 0,
// the contact the broad phase made, and the ones made here for further normals), each slot
// keeping the normal it had so that its warm start follows its points. In three parts, so that
// the narrow phase, the costly one, may run side by side with other pairs' (tbLevelNarrow):
// tbLevelPlan finds the slots and whether the cache holds; tbLevelStore hands out the manifolds.

typedef struct tbLevelPlanned
{
	int slots[TB_MAX_LEVEL_MANIFOLDS]; // each slot's contact index, -1 where none
	tbTransform rel;                   // B's pose in A's frame (float)
	float slack;                       // the cache's slack for the convex shape's size
	bool apart, cached;                // the cache proves the pair apart, or holds its points
} tbLevelPlanned;

// The pair's slots and what its cache says (reads the world only).
static void tbLevelPlan(const tbWorld* w, int index, float margin, tbLevelPlanned* p)
{
	int shapeA = w->contacts[index].shapeA, shapeB = w->contacts[index].shapeB;
	const tbShapeSlot* sa = w->shapes + shapeA;
	const tbShapeSlot* sb = w->shapes + shapeB;
	p->slots[0] = index;
	int total = w->contacts[index].cache.pointCount;
	for (int k = 1; k < TB_MAX_LEVEL_MANIFOLDS; ++k) {
		p->slots[k] = tbPairFind(w, shapeA, shapeB, k);
		total += p->slots[k] >= 0 ? w->contacts[p->slots[k]].cache.pointCount : 0;
	}
	bool levelIsA = tbGeometry_IsLevel(&sa->geometry);
	// The convex shape's size: the mesh's radius is the whole mesh's.
	float size = levelIsA ? sb->radius : sa->radius;
	p->slack = TB_CACHE_SLACK * size;
	p->rel = tbRelativePose(sa->xf, sb->xf);
	const tbContactCache* cc = &w->contacts[index].cache;
	p->cached = false;
	p->apart = tbBoxesApart(sa, sb, margin);
	if (!p->apart && cc->valid) {
		// How far the convex shape's points moved in the level's frame (a point of it and the
		// level's fixed surface close by at most that much).
		float drift = levelIsA ? tbPairDrift(cc, p->rel, size) : tbPairDriftOfA(cc, p->rel, size);
		// Or its middle's move plus the turn times its points' reach about the middle: the
		// smaller for a piece of a compound far from its body's origin.
		const tbShapeSlot* convex = levelIsA ? sb : sa;
		tbTransform now = levelIsA ? p->rel : tbInvMulTransforms(p->rel, tbTransformIdentity());
		tbTransform then =
		    levelIsA ? tbCachePose(cc) : tbInvMulTransforms(tbCachePose(cc), tbTransformIdentity());
		vec3s moved = glms_vec3_sub(tbTransformPointInline(now, convex->localMiddle),
		                            tbTransformPointInline(then, convex->localMiddle));
		drift =
		    fminf(drift, glms_vec3_norm(moved) + tbTurnBound(then.q, now.q) * convex->middleReach);
		// Apart by `distance` then, so by at least distance - drift now; or every slot's points
		// placed again, any point left out having been beyond cc->margin then.
		p->apart = total == 0 && cc->distance - drift > margin;
		p->cached = total > 0 && drift <= p->slack && margin + drift <= cc->margin;
	}
}

// The narrow phase of a planned pair that the cache did not settle (reads the shapes only).
static void tbLevelNarrow(const tbWorld* w, int index, float margin, const tbLevelPlanned* p,
                          tbLevelAhead* out)
{
	int shapeA = w->contacts[index].shapeA, shapeB = w->contacts[index].shapeB;
	const tbShapeSlot* sa = w->shapes + shapeA;
	const tbShapeSlot* sb = w->shapes + shapeB;
	tbTransform bInA = tbInvMulTransforms(sa->xf, sb->xf);
	// The pair's own cache: only this pair's narrow phase writes it, once a step.
	bool levelIsA = tbGeometry_IsLevel(&sa->geometry);
	tbLevelSatCache* sat = tbLevelSatOf(w, levelIsA ? shapeB : shapeA, levelIsA ? shapeA : shapeB);
	out->count = tbCollideLevelCached(&sa->geometry, &sb->geometry, bInA, margin + p->slack,
	                                  out->groups, TB_MAX_LEVEL_MANIFOLDS, &out->distance, sat);
}

// The planned pair's manifolds into its slots: placed again from the caches where they hold, or
// the narrow phase's groups (`made`), each to the slot that had the closest normal (within
// TB_LEVEL_KEEP_COS), the others to free slots, lowest first. `slots` gets each slot's contact
// index, -1 where none; the contacts array may have grown (pointers into it are stale).
static void tbLevelStore(tbWorld* w, int index, float margin, const tbLevelPlanned* p,
                         const tbLevelAhead* made, int slots[TB_MAX_LEVEL_MANIFOLDS])
{
	int shapeA = w->contacts[index].shapeA, shapeB = w->contacts[index].shapeB;
	const tbShapeSlot* sa = w->shapes + shapeA;
	const tbShapeSlot* sb = w->shapes + shapeB;
	memcpy(slots, p->slots, sizeof p->slots);
	if (p->apart || p->cached) {
		w->profile.cachedManifolds += 1;
		for (int k = 0; k < TB_MAX_LEVEL_MANIFOLDS; ++k) {
			if (slots[k] < 0) {
				continue;
			}
			tbContactSlot* c = w->contacts + slots[k];
			if (p->cached) {
				tbPlaceCachedManifold(&c->cache, sa->xf, sb->xf, margin, &c->manifold);
			} else {
				c->manifold.pointCount = 0;
				c->manifold.normal = tbRotateInline(sa->xf.q, c->cache.normal);
			}
		}
		return;
	}
	w->profile.narrowPhaseRuns += 1;
	tbTransform bInA = tbInvMulTransforms(sa->xf, sb->xf);
	const tbManifold* groups = made->groups;
	int count = made->count;
	int owner[TB_MAX_LEVEL_MANIFOLDS];
	bool taken[TB_MAX_LEVEL_MANIFOLDS] = {false};
	for (int g = 0; g < count; ++g) {
		owner[g] = -1;
		float best = TB_LEVEL_KEEP_COS;
		for (int k = 0; k < TB_MAX_LEVEL_MANIFOLDS; ++k) {
			const tbContactSlot* c = slots[k] >= 0 ? w->contacts + slots[k] : NULL;
			if (c == NULL || taken[k] || c->cache.pointCount == 0) {
				continue;
			}
			float dot = glms_vec3_dot(c->cache.normal, groups[g].normal);
			if (dot > best) {
				best = dot;
				owner[g] = k;
			}
		}
		if (owner[g] >= 0) {
			taken[owner[g]] = true;
		}
	}
	for (int g = 0; g < count; ++g) {
		for (int k = 0; k < TB_MAX_LEVEL_MANIFOLDS && owner[g] < 0; ++k) {
			if (!taken[k]) {
				owner[g] = k;
				taken[k] = true;
			}
		}
		if (slots[owner[g]] < 0) {
			tbCreateContact(w, shapeA, shapeB, owner[g]);
			slots[owner[g]] = tbPairFind(w, shapeA, shapeB, owner[g]);
			w->profile.newPairs += 1;
		}
	}
	for (int k = 0; k < TB_MAX_LEVEL_MANIFOLDS; ++k) {
		if (slots[k] < 0) {
			continue;
		}
		tbContactSlot* c = w->contacts + slots[k];
		tbManifold none;
		memset(&none, 0, sizeof none);
		none.normal = c->cache.normal;
		const tbManifold* local = &none;
		for (int g = 0; g < count; ++g) {
			local = owner[g] == k ? groups + g : local;
		}
		tbStoreManifold(c, sa, sb, bInA, p->rel, local, margin, margin + p->slack, made->distance);
	}
}

// The whole of it for the pair at contact `index`, its narrow phase made here or, where the
// parallel pass made it (`ahead`, not null), taken from there.
static void tbCollideLevelPair(tbWorld* w, int index, float margin, const tbLevelAhead* ahead,
                               int slots[TB_MAX_LEVEL_MANIFOLDS])
{
	tbLevelPlanned p;
	tbLevelPlan(w, index, margin, &p);
	tbLevelAhead made;
	if (!p.apart && !p.cached) {
		if (ahead == NULL) {
			tbLevelNarrow(w, index, margin, &p, &made);
			ahead = &made;
		}
	} else {
		ahead = NULL;
	}
	tbLevelStore(w, index, margin, &p, ahead, slots);
}

// The touch events and the waking of one contact whose manifold this step's narrow phase wrote.
static void tbFinishContact(tbWorld* w, int index)
{
	tbContactSlot* c = w->contacts + index;
	tbBodySlot* ba = w->bodies + c->bodyA;
	tbBodySlot* bb = w->bodies + c->bodyB;
	bool wasTouching = c->touching;
	c->touching = c->manifold.pointCount > 0;
	if (c->touching != wasTouching) {
		tbCountTouch(w, c, c->touching ? 1 : -1);
	}
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
			tbWakeBody(w, c->bodyB);
		}
		if (!ba->awake && ba->rb.type != tb_staticBody && bPushes) {
			tbWakeBody(w, c->bodyA);
		}
	}
}

// How fast a shape's points may move at its body's velocity, in two parts: the velocity of the
// middle of its box (`velocity`, zero for a body not awake) and a speed bound for the points about
// it, returned. A point p = m + e of a body turning by w about its centre of mass x moves at
// v + w x (m - x) + w x e, so |w| |e| bounds the second part; over a step the turn by theta = |w|
// dt adds the chord's departure from the tangent, (1 - cos theta) |m - x| + (theta - sin theta) |m
// - x| <= theta^2 |m - x| (theta <= 3), counted here per second as |w| theta |m - x|.
static inline float tbShapeMiddleSpeed(const tbBodySlot* b, const tbShapeSlot* s, float turn,
                                       float dt, vec3s* velocity)
{
	if (b->awakeIndex < 0 || b->rb.type == tb_staticBody) {
		*velocity = glms_vec3_zero();
		return 0.0f;
	}
	vec3s arm = glms_vec3_sub(tbTransformPointInline(s->xf, s->localMiddle), b->rb.state.x);
	*velocity = glms_vec3_add(b->rb.v, glms_vec3_cross(b->rb.w, arm));
	return turn * (s->middleReach + dt * turn * glms_vec3_norm(arm));
}

// A body's velocity and spin as the narrow phase sees them: zero for one not awake or static.
static inline void tbPairMotion(const tbBodySlot* b, vec3s* v, vec3s* omega)
{
	bool moves = b->awakeIndex >= 0 && b->rb.type != tb_staticBody;
	*v = moves ? b->rb.v : glms_vec3_zero();
	*omega = moves ? b->rb.w : glms_vec3_zero();
}

float tbRelativeSurfaceSpeed(const tbBodySlot* ba, const tbShapeSlot* sa, const tbBodySlot* bb,
                             const tbShapeSlot* sb, float dt)
{
	// In the frame of the other shape O, the shape S moves rigidly: its point p at
	// u(p) = vS + wS x (p - xS) - vO - wO x (p - xO), affine in p with gradient (wS - wO) x, so
	// every point of S within its reach r of its middle m moves at most |u(m)| + |wS - wO| r
	// against O; S is the shape with the smaller reach (a cube riding a turning drum moves at the
	// drum's speed but not against it). Over the step u(m) changes at most by
	// du/dt = wS x (wS x (m - xS)) - wO x (vS(m) - vO) (both bodies' velocities held), counted
	// at the step's end: dt (|wS|^2 |m - xS| + |wO| |vS(m) - vO|).
	bool aMoves = sa->middleReach <= sb->middleReach;
	const tbBodySlot* bs = aMoves ? ba : bb;
	const tbBodySlot* bo = aMoves ? bb : ba;
	const tbShapeSlot* s = aMoves ? sa : sb;
	vec3s vs, ws, vo, wo;
	tbPairMotion(bs, &vs, &ws);
	tbPairMotion(bo, &vo, &wo);
	vec3s m = tbTransformPointInline(s->xf, s->localMiddle);
	vec3s armS = glms_vec3_sub(m, bs->rb.state.x), armO = glms_vec3_sub(m, bo->rb.state.x);
	vec3s us = glms_vec3_add(vs, glms_vec3_cross(ws, armS));
	vec3s uo = glms_vec3_add(vo, glms_vec3_cross(wo, armO));
	float turnS = glms_vec3_norm(ws);
	float change = turnS * turnS * glms_vec3_norm(armS) +
	               glms_vec3_norm(wo) * glms_vec3_norm(glms_vec3_sub(us, vo));
	return glms_vec3_norm(glms_vec3_sub(us, uo)) +
	       glms_vec3_norm(glms_vec3_sub(ws, wo)) * s->middleReach + dt * change;
}

// Speculative margin of a pair: the base distance plus what the two can close in this step, so a
// fast body gets its points before it arrives (speculative contacts, Catto 2013): their relative
// speed plus each one's spin times its shape's reach about its centre of mass, plus what an impact
// elsewhere in this step may swing over (tbSwingReach). The speed is also bounded by the relative
// velocity of the middles of the two shapes' boxes plus each one's spin times its points' reach
// about that middle (tbShapeMiddleSpeed), the smaller taken, where the spins count: a piece near
// the foot of a toppling tall compound moves far slower than its body's centre of mass plus its
// spin times its distance.
// Bodies falling side by side close nothing by their relative speed, and their pair ends at the
// boxes' test of tbCollidePair instead of a manifold.
//
// `boxesDecide`: the pair's tight boxes decide first (tbCollidePair's test): where they are apart
// by the plain bound's margin they are apart by any smaller one, and the margin is not refined.
static inline float tbPairMargin(const tbWorld* w, tbContactSlot* c, const tbShapeSlot* sa,
                                 const tbShapeSlot* sb, const tbBodySlot* ba, const tbBodySlot* bb,
                                 float dt, bool boxesDecide)
{
	vec3s va = ba->awakeIndex >= 0 ? ba->rb.v : glms_vec3_zero();
	vec3s vb = bb->awakeIndex >= 0 ? bb->rb.v : glms_vec3_zero();
	tbBodyBounds boundsA = tbGetBodyBounds(w, ba), boundsB = tbGetBodyBounds(w, bb);
	float spinA = boundsA.turn * sa->spinReach;
	float spinB = boundsB.turn * sb->spinReach;
	float speed = glms_vec3_norm(glms_vec3_sub(vb, va)) + spinA + spinB;
	float swings = boundsA.swing + boundsB.swing;
	// Only where the spins may add more than half the base distance: below, the bound could
	// save little and costs two placed points a pair (a resting pile's every pair).
	if (dt * (spinA + spinB) > 0.5f * w->def.speculativeDistance &&
	    !(boxesDecide && tbBoxesApart(sa, sb, w->def.speculativeDistance + dt * speed + swings))) {
		vec3s ua, ub;
		float aboutA = tbShapeMiddleSpeed(ba, sa, boundsA.turn, dt, &ua);
		float aboutB = tbShapeMiddleSpeed(bb, sb, boundsB.turn, dt, &ub);
		float middles = glms_vec3_norm(glms_vec3_sub(ub, ua)) + aboutA + aboutB;
		speed = middles < speed ? middles : speed;
		float against = tbRelativeSurfaceSpeed(ba, sa, bb, sb, dt);
		c->surfaceSpeed = against;
		c->surfaceStep = w->stepCount + 1;
		speed = against < speed ? against : speed;
	}
	return w->def.speculativeDistance + dt * speed + swings;
}

// The points of a convex pair's manifold that this step can close: a point whose separation is
// more than the base distance (and the swing of an impact, tbSwingReach) beyond what the two
// bodies close at that very point in one step is left out. The pair's margin (tbPairMargin)
// bounds the closing speed of any two points by the bodies' whole relative speed and spins; at a
// point p of the manifold the gap d = (pB - pA).n changes at d' = (uB(pB) - uA(pA)).n, each body's
// velocity at its own point (the normal turns with A: (pB - pA).(wA x n) = d n.(wA x n) = 0).
// Over the step the velocities at the points change by the turns' curvature, bounded by
// dt^2 (|wA|^2 |rA| + |wB|^2 |rB| + 2 |wA| |u| + |wA|^2 |d|) (the second derivative of d with
// both bodies' velocities held). Bodies sliding past one another, or tumbling side by side,
// then keep only the points they can reach, as a fixed speculative distance would (Box2D v3)
// where they are slow, and their pair leaves the solver.
static void tbKeepClosingPoints(const tbWorld* w, tbContactSlot* c, const tbBodySlot* ba,
                                const tbBodySlot* bb, float dt, float margin)
{
	tbManifold* m = &c->manifold;
	// A pair whose margin (the farthest its points reach) is within an eighth of the base
	// distance of it keeps its points: a resting pile's every pair, where weighing them would
	// cost more than the few it could drop.
	if (!(margin > 1.125f * w->def.speculativeDistance)) {
		return;
	}
	// Points within the base distance are kept whatever the motion.
	int first = 0;
	while (first < m->pointCount && !(m->points[first].separation > w->def.speculativeDistance)) {
		++first;
	}
	if (first == m->pointCount) {
		return;
	}
	vec3s va, wa, vb, wb;
	tbPairMotion(ba, &va, &wa);
	tbPairMotion(bb, &vb, &wb);
	float swings = tbGetBodyBounds(w, ba).swing + tbGetBodyBounds(w, bb).swing;
	float base = w->def.speculativeDistance + swings;
	float wa2 = glms_vec3_dot(wa, wa), wb2 = glms_vec3_dot(wb, wb), turnA = sqrtf(wa2);
	vec3s n = m->normal;
	int kept = first;
	for (int i = first; i < m->pointCount; ++i) {
		tbManifoldPoint* mp = m->points + i;
		if (mp->separation > base) {
			vec3s rA = glms_vec3_sub(mp->pointA, ba->rb.state.x);
			vec3s rB = glms_vec3_sub(mp->pointB, bb->rb.state.x);
			vec3s u = glms_vec3_sub(glms_vec3_add(vb, glms_vec3_cross(wb, rB)),
			                        glms_vec3_add(va, glms_vec3_cross(wa, rA)));
			float closing = -glms_vec3_dot(u, n);
			closing = closing > 0.0f ? closing : 0.0f;
			float curve = wa2 * glms_vec3_norm(rA) + wb2 * glms_vec3_norm(rB) +
			              2.0f * turnA * glms_vec3_norm(u) + wa2 * fabsf(mp->separation);
			if (mp->separation > base + dt * (closing + dt * curve)) {
				continue;
			}
		}
		m->points[kept++] = *mp;
	}
	m->pointCount = kept;
}

// A body the serial pass of tbCollide cannot change: static, or awake (waking only wakes sleepers).
static inline bool tbSettledForPass(const tbBodySlot* b)
{
	return b->rb.type == tb_staticBody || b->awake;
}

// The parallel pass of the narrow phase over the active contacts as they are when tbCollide
// begins: each pair's manifold into its own slot. Reads the shapes, the bodies and the bounds;
// writes only its own contact (manifold, cache, `ahead`), its position's visit flag and its
// worker's counts. A pair with a sleeping body is left to the serial pass (a wake in that pass may
// change its margin). A pair with level geometry gets its narrow phase here, into the world's
// levelAhead, and the serial pass hands its manifolds to its slots (which may make or free
// further slots). A pair whose manifold is made here and whose touching does not change leaves
// the serial pass nothing to do (its bodies are static or awake, so it wakes none): its position
// is not flagged and the serial pass never visits it (Box2D v3's contact sim flags).
typedef struct tbCollideTask
{
	tbWorld* world;
	float dt;
} tbCollideTask;

static void tbCollideAheadTask(int start, int end, int worker, void* context)
{
	tbCollideTask* t = context;
	tbWorld* w = t->world;
	uint8_t* visits = w->activeFlags;
	tbWorkerCounts* counts = w->workerCounts + worker;
	tbProfile profile;
	profile.cachedManifolds = 0;
	profile.narrowPhaseRuns = 0;
	for (int at = start; at < end; ++at) {
		tbPrefetchActive(w, at);
		tbContactSlot* c = w->contacts + w->activeContacts[at];
		const tbShapeSlot* sa = w->shapes + c->shapeA;
		const tbShapeSlot* sb = w->shapes + c->shapeB;
		const tbBodySlot* ba = w->bodies + c->bodyA;
		const tbBodySlot* bb = w->bodies + c->bodyB;
		visits[at] = 1;
		if ((!tbIsAwakeMover(ba) && !tbIsAwakeMover(bb)) || !tbSettledForPass(ba) ||
		    !tbSettledForPass(bb)) {
			continue;
		}
		if (c->child == 0 && tbAABB_Overlaps(sa->fatAABB, sb->fatAABB)) {
			// A level pair: its narrow phase here, its slots handed out in the serial pass
			// (which may make contacts). The pair's margin and plan read nothing that pass
			// changes before it comes to the pair.
			float margin = tbPairMargin(w, c, sa, sb, ba, bb, t->dt, false);
			tbLevelPlanned p;
			tbLevelPlan(w, w->activeContacts[at], margin, &p);
			int slot = p.apart || p.cached ? -1 : atomic_fetch_add(&w->levelAheadUsed, 1);
			if (slot >= 0 && slot < w->levelAheadCapacity) {
				tbLevelNarrow(w, w->activeContacts[at], margin, &p, w->levelAhead + slot);
				c->ahead = 3;
				c->levelAhead = slot;
			}
			continue;
		}
		if (c->child >= 0) {
			continue;
		}
		if (!tbAABB_Overlaps(sa->fatAABB, sb->fatAABB)) {
			c->ahead = 2;
			continue;
		}
		float margin = tbPairMargin(w, c, sa, sb, ba, bb, t->dt, true);
		tbCollidePair(w, c, sa, sb, margin, &profile);
		tbKeepClosingPoints(w, c, ba, bb, t->dt, margin);
		if ((c->manifold.pointCount > 0) != c->touching) {
			c->ahead = 1; // a begin or end event
		} else {
			visits[at] = 0;
		}
	}
	counts->cachedManifolds += profile.cachedManifolds;
	counts->narrowPhaseRuns += profile.narrowPhaseRuns;
}

// The awake bodies [start, end)'s bounds of this step (each writes its own).
static inline void tbBodyBoundsRange(tbWorld* w, int start, int end, float dt)
{
	for (int k = start; k < end; ++k) {
		const tbBodySlot* b = w->bodies + w->awakeBodies[k];
		tbBodyBounds* bounds = w->bodyBounds + k;
		bounds->turn = glms_vec3_norm(b->rb.w);
		bounds->spin = bounds->turn * b->maxExtent;
		bounds->surface = glms_vec3_norm(b->rb.v) + bounds->spin;
		bounds->swing = w->def.enableContactRefresh ? tbSwingReach(w, b, dt) : 0.0f;
	}
}

static void tbBodyBoundsTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbCollideTask* t = context;
	tbBodyBoundsRange(t->world, start, end, t->dt);
}

// One visit of the serial pass at position `at` of the active set: destroys the pair if its boxes
// parted, makes the manifold the parallel pass left (`ahead` inlines to false with one worker:
// the pass does all), and does what touches shared state: touch events, and waking a sleeping
// body a moving one touches (its contacts join the set's end). Returns false when the contact
// left the set (the last one took its place), true when the pass goes on to the next position.
static inline __attribute__((always_inline)) bool tbCollideAt(tbWorld* w, int at, float dt,
                                                              bool ahead)
{
	int i = w->activeContacts[at];
	tbContactSlot* c = w->contacts + i;
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	tbBodySlot* ba = w->bodies + c->bodyA;
	tbBodySlot* bb = w->bodies + c->bodyB;
	int made = ahead ? c->ahead : 0;
	const tbLevelAhead* level = NULL;
	if (made == 3) {
		// A level pair whose narrow phase the parallel pass made.
		c->ahead = 0;
		level = w->levelAhead + c->levelAhead;
	} else if (made != 0) {
		c->ahead = 0;
		if (made == 2) {
			tbDestroyContact(w, i, false);
			return false;
		}
		tbFinishContact(w, i);
		return true;
	}
	if (!tbIsAwakeMover(ba) && !tbIsAwakeMover(bb)) {
		return true; // cannot happen: the set holds contacts of awake movers only
	}
	if (!tbAABB_Overlaps(sa->fatAABB, sb->fatAABB) ||
	    (c->child > 0 && tbPairFind(w, c->shapeA, c->shapeB, 0) < 0)) {
		tbDestroyContact(w, i, false);
		return false;
	}
	if (c->child > 0) {
		return true; // a further manifold of a level pair: made with the pair's first
	}
	float margin = tbPairMargin(w, c, sa, sb, ba, bb, dt, c->child < 0);
	if (c->child == 0) {
		int slots[TB_MAX_LEVEL_MANIFOLDS];
		tbCollideLevelPair(w, i, margin, level, slots);
		for (int k = 0; k < TB_MAX_LEVEL_MANIFOLDS; ++k) {
			if (slots[k] >= 0) {
				tbFinishContact(w, slots[k]);
			}
		}
		return true;
	}
	tbCollidePair(w, c, sa, sb, margin, &w->profile);
	tbKeepClosingPoints(w, c, ba, bb, dt, margin);
	tbFinishContact(w, i);
	return true;
}

// The serial pass with one worker, in the active set's order. A destroyed contact leaves the set
// (the last one takes its place, so the same position is visited again); contacts of bodies woken
// here join at the end and are visited too. Each visit either advances or removes one, so the
// loop ends.
static void tbCollideInOrder(tbWorld* w, float dt)
{
	for (int at = 0; at < w->activeCount;) {
		tbPrefetchActive(w, at);
		at += tbCollideAt(w, at, dt, false) ? 1 : 0;
	}
}

// The first flagged position in [from, count), or count: eight flags at a time where none is set.
static int tbNextVisit(const uint8_t* visits, int from, int count)
{
	for (; from < count && (from & 7) != 0; ++from) {
		if (visits[from] != 0) {
			return from;
		}
	}
	for (; from + 8 <= count; from += 8) {
		uint64_t eight;
		memcpy(&eight, visits + from, sizeof eight);
		if (eight != 0) {
			break;
		}
	}
	for (; from < count && visits[from] == 0; ++from) {
	}
	return from;
}

// The serial pass with workers: the same visits in the same order as tbCollideInOrder, less those
// that would do nothing. The first `count` positions were flagged by the parallel pass; the
// positions past them (contacts that joined in this pass) are all visited. A flag follows its
// contact when a removal moves the last one into the removed one's place, and a position the set
// gives up is flagged, since a contact that joins later takes it.
static void tbCollideFlagged(tbWorld* w, float dt, int count)
{
	uint8_t* visits = w->activeFlags;
	for (int at = tbNextVisit(visits, 0, count); at < w->activeCount;) {
		tbPrefetchActive(w, at);
		if (tbCollideAt(w, at, dt, true)) {
			at = at + 1 < count ? tbNextVisit(visits, at + 1, count) : at + 1;
			continue;
		}
		int vacated = w->activeCount; // the last position, whose contact moved to `at`
		if (at < count) {
			visits[at] = vacated < count ? visits[vacated] : 1;
			if (vacated < count) {
				visits[vacated] = 1;
			}
			if (visits[at] == 0) {
				at = tbNextVisit(visits, at + 1, count);
			}
		}
	}
}

// Each pair's manifold side by side, then the shared bookkeeping in the set's order: the same bits
// as the one pass, since a pair's manifold reads nothing the serial pass changes. Out of line:
// the one-worker pass keeps the code it had.
static __attribute__((noinline)) void tbCollideParallel(tbWorld* w, float dt)
{
	tbCollideTask task = {w, dt};
	tbParallelFor(w, tbBodyBoundsTask, w->awakeCount, 512, &task);
	w->bodyBoundCount = w->awakeCount;
	int count = w->activeCount;
	if (count > w->activeFlagCapacity) {
		tbGrowArray((void**)&w->activeFlags, &w->activeFlagCapacity, count, sizeof(uint8_t));
	}
	for (int k = 0; k < TB_MAX_WORKERS; ++k) {
		w->workerCounts[k].cachedManifolds = 0;
		w->workerCounts[k].narrowPhaseRuns = 0;
	}
	atomic_store(&w->levelAheadUsed, 0);
	tbParallelForUneven(w, tbCollideAheadTask, count, 16, &task);
	// Room for every level pair the pass met next time (those beyond it were left to the serial
	// pass, which makes the same manifolds).
	int used = atomic_load(&w->levelAheadUsed);
	if (used > w->levelAheadCapacity) {
		tbGrowArrayUncleared((void**)&w->levelAhead, &w->levelAheadCapacity, used,
		                     sizeof(tbLevelAhead));
	}
	for (int k = 0; k < TB_MAX_WORKERS; ++k) {
		w->profile.cachedManifolds += w->workerCounts[k].cachedManifolds;
		w->profile.narrowPhaseRuns += w->workerCounts[k].narrowPhaseRuns;
	}
	tbCollideFlagged(w, dt, count);
}

void tbCollide(tbWorld* w, float dt)
{
	// The active set only: contacts between sleeping or static bodies keep the manifold they had
	// when they fell asleep.
	tbGrowArray((void**)&w->bodyBounds, &w->bodyBoundCapacity, w->awakeCount, sizeof(tbBodyBounds));
	if (!w->parallel) {
		tbBodyBoundsRange(w, 0, w->awakeCount, dt);
		w->bodyBoundCount = w->awakeCount;
		tbCollideInOrder(w, dt);
		return;
	}
	tbCollideParallel(w, dt);
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
				// The whole step's impulses; the mean force over the step is impulse / dt.
				float invDt = w->lastTimeStep > 0.0f ? 1.0f / w->lastTimeStep : 0.0f;
				d.normalImpulses[i] = c->impulses.points[j].stepNormalImpulse;
				d.frictionImpulses[i] = tbContactImpulses_PointFriction(&c->impulses, j);
				d.normalForces[i] = invDt * d.normalImpulses[i];
				d.frictionForces[i] = glms_vec3_scale(d.frictionImpulses[i], invDt);
				break;
			}
		}
	}
	return d;
}

// A ball's centre and the velocity of that point of its body, world.
static void tbBallMotion(const tbBodySlot* b, const tbShapeSlot* s, vec3s* centre, vec3s* velocity)
{
	*centre = s->xf.p;
	*velocity = glms_vec3_zero();
	if (b->awakeIndex >= 0 && b->rb.type != tb_staticBody) {
		*velocity =
		    glms_vec3_add(b->rb.v, glms_vec3_cross(b->rb.w, glms_vec3_sub(*centre, b->rb.state.x)));
	}
}

static bool tbIsBall(const tbGeometry* g)
{
	return g->type == tb_sphereShape && g->scale.x == 1.0f && g->scale.y == 1.0f &&
	       g->scale.z == 1.0f;
}

bool tbAimAtImpact(const tbWorld* w, const tbContactSlot* c, tbContactConstraint* contact, float dt,
                   float h)
{
	tbManifold* m = &contact->manifold;
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	if (c->child >= 0 || m->pointCount != 1 || !(m->points[0].separation > 0.0f) ||
	    !tbIsBall(&sa->geometry) || !tbIsBall(&sb->geometry)) {
		return false;
	}
	vec3s cA, cB, vA, vB;
	tbBallMotion(w->bodies + c->bodyA, sa, &cA, &vA);
	tbBallMotion(w->bodies + c->bodyB, sb, &cB, &vB);
	// The centres' distance d(t) = d0 + u t in straight-line relative motion reaches R = rA + rB
	// at the smaller root of |d0 + u t|^2 = R^2 (docs/solver.md, "The normal at the moment of
	// impact"): t = (-d0.u - sqrt((d0.u)^2 - u.u (d0.d0 - R^2))) / u.u.
	vec3s d0 = glms_vec3_sub(cB, cA), u = glms_vec3_sub(vB, vA);
	float R = sa->geometry.radius + sb->geometry.radius;
	float du = glms_vec3_dot(d0, u), uu = glms_vec3_dot(u, u);
	float apart = glms_vec3_dot(d0, d0) - R * R;
	float disc = du * du - uu * apart;
	if (!(du < 0.0f) || !(apart > 0.0f) || !(uu > 0.0f)) {
		return false; // separating or already touching
	}
	// Aimed at the impact, or for a pair that passes by at its closest approach (-d0.u / u.u),
	// and at most one substep h past the step's end (the last relax pass stops a pair that would
	// meet within the next substep's travel): along the normal n of those poses the linearized
	// gap d(t).n - R is never below the true one, and reaches it at the aimed time
	// (docs/solver.md), so the speculative row cannot stop the pair early.
	float t = disc >= 0.0f ? (-du - sqrtf(disc)) / uu : -du / uu;
	t = t < dt + h ? t : dt + h;
	if (!(t > 0.0f)) {
		return false;
	}
	// The manifold at the poses of impact, each ball moved on by its velocity for t: the normal
	// along the line of centres there, the point on A's surface, the separation there (zero up to
	// rounding). The solver takes the anchors at those poses and measures the separation from
	// them (tbContactConstraint.madeA, madeB), so the speculative row closes the gap exactly at
	// impact.
	vec3s dA = glms_vec3_scale(vA, t), dB = glms_vec3_scale(vB, t);
	vec3s d = glms_vec3_add(d0, glms_vec3_scale(u, t));
	float length = glms_vec3_norm(d);
	if (!(length > 0.5f * R)) {
		return false;
	}
	vec3s n = glms_vec3_scale(d, 1.0f / length);
	m->normal = n;
	m->points[0].pointA =
	    glms_vec3_add(glms_vec3_add(cA, dA), glms_vec3_scale(n, sa->geometry.radius));
	m->points[0].pointB =
	    glms_vec3_sub(glms_vec3_add(cB, dB), glms_vec3_scale(n, sb->geometry.radius));
	m->points[0].separation = length - R;
	contact->madeA.dp = dA;
	contact->madeA.dtheta = glms_vec3_zero();
	contact->madeB.dp = dB;
	contact->madeB.dtheta = glms_vec3_zero();
	return true;
}
