// The narrow phase inside the step, for pairs that turn too fast for one manifold a step.
//
// The soft step holds each contact point's anchors over the whole step and follows its separation
// to first order, s = s0 + J . (dp, dtheta) (solver_internal.h). That is exact for a point moving
// with its body in a straight line and good while a body turns little in a step. A body tumbling
// after an impact is another matter: a cone at 20 rad/s turns 0.33 rad in a 60 Hz step; its one
// rim point recedes along the rim while the rim beside it sweeps into the other body, and the
// solver, seeing the point separate, pushes nothing for two or three steps (a sphere and a cone
// overlap deeply with zero impulse; a spinning box whose one corner touches a ramp swings into
// it). Such pairs are marked here, and the solver has them made
// again at the start of a substep (tbRefreshSolverContact) whenever the bodies have turned far
// enough since the last narrow phase and are close enough to meet in that substep: each substep
// then solves the features that are actually closest. docs/continuous.md, "Fast-turning pairs".
#include <float.h>
#include <math.h>
#include <string.h>

#include "world_internal.h"

// A pair is a candidate when its surfaces move against each other by more than this fraction of
// the smaller shape's bounding radius in a step, at the step's start: by the turns of the two
// bodies, or by their relative velocity, which an impact in the step turns into spin. Slower
// pairs (resting, rolling, sliding, falling side by side) keep the step's manifold and cost
// nothing more.
#define TB_REFRESH_SWEEP 0.1f

// How far the relative turn may carry a candidate's surfaces from its anchored points before the
// pair is made again, as a fraction of the smaller shape's bounding radius (2.6 cm for unit cubes).
// A larger fraction lets the mixed rain sink deeper into itself, a smaller one adds narrow phases
// (docs/continuous.md and docs/figures.md have the trade-off).
#define TB_REFRESH_TURN 0.03f

// How far the shapes' extreme points along the solver's normal may differ from what its anchored
// points say before the pair is made again, as a fraction of the smaller shape's bounding radius
// (1.7 cm for unit cubes). A larger fraction saves narrow phases in a rain but lets a body on the
// wavy heightfield of tests/test_mesh.c sink (docs/continuous.md, "A cheap look first").
#define TB_REFRESH_KEEP 0.02f

// A level pair's slot made again inside the step takes the group of triangles whose normal is
// within this cosine of the one the solver holds for it (tbRefreshSolverContact).
#define TB_LEVEL_REFRESH_COS 0.9f

// How far two bodies may have turned relative to each other (rad) and slid (as a fraction of the
// smaller shape's bounding radius) since their manifold was made for it to be carried to the
// poses of now instead of made again (tbCarryHeld). Within these limits a carried manifold keeps
// the mixed rain's overlaps as making it again does; without them they grow (docs/continuous.md).
#define TB_CARRY_TURN 0.05f
#define TB_CARRY_SLIDE 0.05f

// How far a shape's surface moves per radian its body turns, at most, m: the distance of its
// farthest point from the centre of mass (tbGeometry_ReachFrom), or for a sphere the distance of
// its centre (a turn about its centre leaves its surface where it was).
static float tbSpinReach(const tbWorld* w, const tbShapeSlot* s)
{
	const tbBodySlot* b = w->bodies + s->body;
	if (b->rb.type == tb_staticBody) {
		return 0.0f;
	}
	if (s->geometry.type == tb_sphereShape) {
		return glms_vec3_norm(glms_vec3_sub(s->localPose.p, b->localCenter));
	}
	return s->spinReach;
}

// A body's velocity and spin as the step sees them (zero for one that does not move).
static vec3s tbMovingVelocity(const tbBodySlot* b)
{
	return b->awake && b->rb.type != tb_staticBody ? b->rb.v : glms_vec3_zero();
}

static vec3s tbMovingSpin(const tbBodySlot* b)
{
	return b->awake && b->rb.type != tb_staticBody ? b->rb.w : glms_vec3_zero();
}

// How fast a body may strike something within the step: its largest speed against any body it has
// a pair with (the only ones its shapes can reach in the step), m/s, up to `cap` (the search ends
// at the first partner that reaches it).
static float tbStrikeSpeed(const tbWorld* w, const tbBodySlot* b, float cap)
{
	float fastest = 0.0f;
	float ownSpin = glms_vec3_norm(b->rb.w);
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= w->contactCount;) {
		const tbContactLink* l = w->contactLinks + (edge >> 1);
		const tbBodySlot* o = w->bodies + ((edge & 1) == 0 ? l->bodyB : l->bodyA);
		edge = l->edgeNext[edge & 1];
		// The partner's velocity where the body's centre of mass is (a turning drum's wall moves
		// under the body at its own speed there, not at its far rim's).
		vec3s arm = glms_vec3_sub(b->rb.state.x, o->rb.state.x);
		vec3s at = glms_vec3_add(tbMovingVelocity(o), glms_vec3_cross(tbMovingSpin(o), arm));
		// The surfaces' speed against each other near the body: their velocities there, and
		// both spins over the body's reach.
		float spins = (ownSpin + glms_vec3_norm(tbMovingSpin(o))) * b->maxExtent;
		float speed = glms_vec3_norm(glms_vec3_sub(b->rb.v, at)) + spins;
		fastest = speed > fastest ? speed : fastest;
		if (fastest >= cap) {
			return cap;
		}
	}
	return fastest;
}

float tbSwingReach(const tbWorld* w, const tbBodySlot* b, float dt)
{
	if (b->rb.type != tb_dynamicBody) {
		return 0.0f;
	}
	// An impact within the step can turn a body's speed against what it strikes into spin that
	// swings its surface by up to that speed times the step (a cylinder falling beside a ball
	// that had just landed hits the ground, spins up and swings into the ball within the step,
	// their pair still without points). Only for bodies fast for their size, as the
	// candidates below: a body slowing down in a pile keeps the margin it had (a larger one joins
	// settling neighbours into islands that never sleep: a rain would stay awake).
	float limit = TB_REFRESH_SWEEP * b->maxExtent / dt;
	float v2 = glms_vec3_dot(b->rb.v, b->rb.v);
	if (!(v2 > limit * limit)) {
		return 0.0f;
	}
	// A body whose shapes a turn leaves in place (spheres about its centre of mass) swings none.
	bool swings = false;
	for (int s = b->firstShape; s >= 0 && !swings; s = w->shapes[s].nextInBody) {
		swings = tbSpinReach(w, w->shapes + s) > 0.0f;
	}
	if (!swings) {
		return 0.0f;
	}
	// Its speed against what it may strike, where that is less: a body falling among others
	// that fall with it strikes nothing of theirs (a body at rest that is struck was never
	// counted: the striker's margin holds their pair).
	float speed = tbStrikeSpeed(w, b, sqrtf(v2));
	return speed > limit ? dt * speed : 0.0f;
}

// What the solver needs of a candidate: the margin its points were made with, how far each
// shape's surface moves per radian, and the turn allowed before it is made again.
static void tbFillRefresh(const tbWorld* w, const tbContactSlot* c, float reachA, float reachB,
                          tbContactConstraint* contact)
{
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	float size = sa->radius < sb->radius ? sa->radius : sb->radius;
	contact->refresh = true;
	contact->margin = c->cache.margin;
	contact->spinReachA = reachA;
	contact->spinReachB = reachB;
	contact->refreshTurn = TB_REFRESH_TURN * size;
}

bool tbMarkContactRefresh(const tbWorld* w, const tbContactSlot* c, float dt,
                          tbContactConstraint* contact)
{
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	const tbBodySlot* ba = w->bodies + c->bodyA;
	const tbBodySlot* bb = w->bodies + c->bodyB;
	float size = sa->radius < sb->radius ? sa->radius : sb->radius;
	contact->refresh = false;
	// The surfaces' speed relative to each other: the spins' sweep, and the pair's relative
	// velocity, which an impact in this step turns into spin (a cone falling fast onto a
	// cylinder's rim leaves spinning, and inside it within the step).
	// First the bodies' own bounds of the step, which settle every resting pair with an addition
	// (|vB - vA| <= |vA| + |vB|, a shape's reach <= its body's maxExtent).
	if (dt * (tbGetBodyBounds(w, ba).surface + tbGetBodyBounds(w, bb).surface) <=
	    TB_REFRESH_SWEEP * size) {
		return false;
	}
	vec3s va = tbMovingVelocity(ba), vb = tbMovingVelocity(bb);
	vec3s wa = tbMovingSpin(ba), wb = tbMovingSpin(bb);
	float reachA = tbSpinReach(w, sa), reachB = tbSpinReach(w, sb);
	float speed = glms_vec3_norm(glms_vec3_sub(vb, va)) + glms_vec3_norm(wa) * reachA +
	              glms_vec3_norm(wb) * reachB;
	// Bodies that move together (a cube riding a turning drum) sweep nothing against each other
	// whatever their own speeds: the surfaces' speed in one shape's frame bounds it too.
	if (dt * speed > TB_REFRESH_SWEEP * size) {
		// Made by the narrow phase's margin this step where it needed it (tbPairMargin).
		float against = c->surfaceStep == w->stepCount + 1
		                    ? c->surfaceSpeed
		                    : tbRelativeSurfaceSpeed(ba, sa, bb, sb, dt);
		speed = against < speed ? against : speed;
	}
	if (dt * speed > TB_REFRESH_SWEEP * size) {
		// Its bodies' other contacts follow (the caller marks the bodies for
		// tbSpreadContactRefresh).
		tbFillRefresh(w, c, reachA, reachB, contact);
		return true;
	}
	return false;
}

// One body's side of a contact point: its velocity there, and its inverse inertia's turn per
// unit normal impulse, I^-1 (r x n) (zero for a body that does not move in the solve).
static void tbImpactSide(const tbBodySlot* b, vec3s p, vec3s n, vec3s* velocity, vec3s* turn,
                         float* invMass)
{
	*velocity = glms_vec3_zero();
	*turn = glms_vec3_zero();
	*invMass = 0.0f;
	if (!b->awake || b->rb.type == tb_staticBody) {
		return;
	}
	vec3s r = glms_vec3_sub(p, b->rb.state.x);
	*velocity = glms_vec3_add(b->rb.v, glms_vec3_cross(b->rb.w, r));
	if (b->rb.type == tb_dynamicBody) {
		*turn = glms_mat3_mulv(b->rb.Iinv, glms_vec3_cross(r, n));
		*invMass = b->rb.invMass;
	}
}

float tbContactTurn(const tbWorld* w, const tbContactSlot* c, const tbContactConstraint* contact)
{
	const tbBodySlot* ba = w->bodies + c->bodyA;
	const tbBodySlot* bb = w->bodies + c->bodyB;
	if (!ba->isBullet && !bb->isBullet) {
		// Only a bullet's pairs: tumbling bodies (ragdolls' limbs, cubes in a turning drum) turn
		// a quarter radian a substep often, and their contacts hold without the cut.
		return 0.0f;
	}
	// A ball's spin counts too: it leaves the ball's surface where it was, but a ball rolling
	// over an edge turns the pair's normal as fast as it spins (|v| / r).
	float spinA = glms_vec3_norm(tbMovingSpin(ba)), spinB = glms_vec3_norm(tbMovingSpin(bb));
	const tbManifold* m = &contact->manifold;
	vec3s n = m->normal;
	float kick = 0.0f;
	for (int i = 0; i < m->pointCount && i < TB_MAX_MANIFOLD_POINTS; ++i) {
		vec3s vA, vB, tA, tB;
		float mA, mB;
		tbImpactSide(ba, m->points[i].pointA, n, &vA, &tA, &mA);
		tbImpactSide(bb, m->points[i].pointB, n, &vB, &tB, &mB);
		// The perfectly inelastic impulse at this point alone, J = u / k with u the approach
		// speed along n and k = 1/mA + 1/mB + (rA x n) . IA^-1 (rA x n) + (rB x n) . IB^-1
		// (rB x n), turns each body by J IX^-1 (rX x n): the most one point's impact can add
		// to their spins.
		float u = -glms_vec3_dot(glms_vec3_sub(vB, vA), n);
		if (!(u > 0.0f)) {
			continue;
		}
		vec3s nA = glms_vec3_cross(glms_vec3_sub(m->points[i].pointA, ba->rb.state.x), n);
		vec3s nB = glms_vec3_cross(glms_vec3_sub(m->points[i].pointB, bb->rb.state.x), n);
		float k = mA + mB + glms_vec3_dot(nA, tA) + glms_vec3_dot(nB, tB);
		if (!(k > 0.0f)) {
			continue;
		}
		float J = u / k;
		kick = fmaxf(kick, J * fmaxf(glms_vec3_norm(tA), glms_vec3_norm(tB)));
	}
	return fmaxf(spinA, spinB) + kick;
}

// Solver contacts [start, end): those of a marked body marked too (each writes only its own).
static void tbSpreadRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	int mark = w->stepCount + 1;
	for (int i = start; i < end; ++i) {
		tbContactConstraint* contact = w->solverContacts + i;
		if (contact->refresh) {
			continue;
		}
		const tbContactSlot* c = w->contacts + w->solverContactSlots[i];
		const tbBodySlot* ba = w->bodies + c->bodyA;
		const tbBodySlot* bb = w->bodies + c->bodyB;
		// The mark first: an unmarked body's type (another cache line of its slot) is not read.
		if ((ba->refreshStep == mark && ba->rb.type == tb_dynamicBody) ||
		    (bb->refreshStep == mark && bb->rb.type == tb_dynamicBody)) {
			tbFillRefresh(w, c, tbSpinReach(w, w->shapes + c->shapeA),
			              tbSpinReach(w, w->shapes + c->shapeB), contact);
		}
	}
}

// Solver contacts per range of the spread: a test of two bodies' marks each, most of them.
#define TB_MIN_SPREAD_CONTACTS 256

void tbSpreadContactRefresh(tbWorld* w)
{
	// A body hit or tumbling in this step turns against everything it touches: a box resting on
	// the ground, struck on one side by a falling ball, pivots on its near edge and swings the far
	// one into the ground, a pair that was still at rest when the step began. The solver
	// looks at such pairs only once they do turn (its gates cost a few operations a substep).
	// Only a dynamic body passes the mark on: no impact changes a kinematic body's motion (a
	// turning drum's pairs with cubes riding it are candidates of their own or need nothing).
	// The marks are all made (tbPrepareContacts): the contacts may be looked at side by side.
	if (w->parallel) {
		tbParallelFor(w, tbSpreadRange, w->solverContactCount, TB_MIN_SPREAD_CONTACTS, w);
	} else {
		tbSpreadRange(0, w->solverContactCount, 0, w);
	}
}

// The turn by the rotation vector t as a unit quaternion (sin(a / 2) t / a, cos(a / 2)), a = |t|;
// by the series of the two factors below half a radian (their error, a^6 / 46080, is 3e-7 there),
// which saves the sine and cosine.
static versors tbTurnQuat(vec3s t)
{
	float a2 = glms_vec3_dot(t, t), c, k;
	if (a2 < 0.25f) {
		c = 1.0f - a2 * (1.0f / 8.0f - a2 / 384.0f);
		k = 0.5f - a2 * (1.0f / 48.0f - a2 / 3840.0f);
	} else {
		float a = sqrtf(a2);
		tbCosSin cs = tbComputeCosSin(0.5f * a);
		c = cs.cosine;
		k = cs.sine / a;
	}
	return (versors){{k * t.x, k * t.y, k * t.z, c}};
}

// A shape's world pose once its body has moved by `moved` from the pose the step began with
// (the shape's xf): turned by dtheta about the body's centre of mass, which moved by dp.
static tbTransform tbShapePoseAt(const tbWorld* w, const tbShapeSlot* s, const tbSolverDelta* moved)
{
	if (moved == NULL) {
		return s->xf; // a body that does not move in this solve
	}
	const tbBodySlot* b = w->bodies + s->body;
	versors turn = tbTurnQuat(moved->dtheta);
	// The shape's origin about the centre of mass (Baraff's x, still the step's start while the
	// solver runs).
	vec3s centre = b->rb.state.x;
	tbTransform out;
	out.q = glms_quat_normalize(glms_quat_mul(turn, s->xf.q));
	out.p = glms_vec3_add(glms_vec3_add(centre, moved->dp),
	                      tbRotateInline(turn, glms_vec3_sub(s->xf.p, centre)));
	return out;
}

// v turned by the rotation vector -t (Rodrigues): v cos a - (t x v) sin(a) / a + t (t . v) (1 -
// cos a) / a^2, a = |t|; by the series of the three factors where the turn is small (their
// error, a^6 / 720, is 2e-5 at half a radian), which saves the sine and cosine.
static vec3s tbTurnBack(vec3s t, vec3s v)
{
	float a2 = glms_vec3_dot(t, t), cosA, sinc, versc;
	if (a2 < 0.25f) {
		cosA = 1.0f - a2 * (0.5f - a2 / 24.0f);
		sinc = 1.0f - a2 * (1.0f / 6.0f - a2 / 120.0f);
		versc = 0.5f - a2 * (1.0f / 24.0f - a2 / 720.0f);
	} else {
		float a = sqrtf(a2);
		tbCosSin cs = tbComputeCosSin(a);
		cosA = cs.cosine;
		sinc = cs.sine / a;
		versc = (1.0f - cosA) / a2;
	}
	vec3s out = glms_vec3_scale(v, cosA);
	out = glms_vec3_sub(out, glms_vec3_scale(glms_vec3_cross(t, v), sinc));
	return glms_vec3_add(out, glms_vec3_scale(t, versc * glms_vec3_dot(t, v)));
}

// How far a shape reaches along the world direction n once its body has moved by `moved` (null:
// not at all) from the step's start: the largest n . p over its points. With the turn T and the
// shape's pose (q, x) at the step's start and the centre of mass c, a point is c + dp + T (x - c
// + q p), so n . p_world = n . (c + dp) + m . (x - c) + (q^-1 m) . p with m = T^-1 n: one turned
// direction and one support, no pose.
static float tbReachAlong(const tbWorld* w, const tbShapeSlot* s, const tbSolverDelta* moved,
                          vec3s n)
{
	if (moved == NULL) {
		vec3s d = tbInvRotateInline(s->xf.q, n);
		return glms_vec3_dot(n, s->xf.p) + tbGeometry_SupportValue(&s->geometry, d);
	}
	vec3s centre = w->bodies[s->body].rb.state.x;
	vec3s m = tbTurnBack(moved->dtheta, n);
	vec3s d = tbInvRotateInline(s->xf.q, m);
	return glms_vec3_dot(n, glms_vec3_add(centre, moved->dp)) +
	       glms_vec3_dot(m, glms_vec3_sub(s->xf.p, centre)) +
	       tbGeometry_SupportValue(&s->geometry, d);
}

// The separation of two shapes along a world direction n (from A to B) at the deltas given: B's
// extreme point towards A less A's extreme point towards B, measured along n. Negative where they
// overlap along n; never more than their distance, and never less than minus their overlap (the
// penetration depth is the smallest overlap over all directions).
static float tbSeparationAlong(const tbWorld* w, const tbShapeSlot* sa, const tbSolverDelta* movedA,
                               const tbShapeSlot* sb, const tbSolverDelta* movedB, vec3s n)
{
	return -tbReachAlong(w, sb, movedB, glms_vec3_negate(n)) - tbReachAlong(w, sa, movedA, n);
}

// Points of one reference face: every id with the same flip bit (tbClipFeatures), two or more.
static bool tbOneReferenceFace(const tbManifold* m)
{
	if (m->pointCount < 2 || m->pointCount > TB_MAX_MANIFOLD_POINTS) {
		return false;
	}
	uint32_t flip = m->points[0].id & 0x80000000u;
	for (int i = 1; i < m->pointCount; ++i) {
		if ((m->points[i].id & 0x80000000u) != flip) {
			return false;
		}
	}
	return true;
}

bool tbPlacedManifoldHolds(const tbWorld* w, const tbShapeSlot* sa, const tbShapeSlot* sb,
                           const tbManifold* m)
{
	// One clipped point (a corner over a face) as well: it is fixed in its body too.
	bool corner = m->pointCount == 1 && m->points[0].id != TB_QUERY_POINT_ID;
	if (!corner && !tbOneReferenceFace(m)) {
		return false;
	}
	float gap = FLT_MAX;
	for (int i = 0; i < m->pointCount; ++i) {
		gap = fminf(gap, m->points[i].separation);
	}
	float keep = TB_REFRESH_KEEP * (sa->radius < sb->radius ? sa->radius : sb->radius);
	return fabsf(tbSeparationAlong(w, sa, NULL, sb, NULL, m->normal) - gap) <= keep;
}

// How a body has moved since the lane's manifold was made: its centre of mass then and now and
// the turn between (identity for a body that does not move in this solve).
typedef struct tbHeldMove
{
	vec3s then, now;
	versors turn;
} tbHeldMove;

static tbHeldMove tbHeldMoveOf(const tbWorld* w, const tbShapeSlot* s, const tbSolverDelta* moved,
                               const tbSolverDelta* held)
{
	tbHeldMove m;
	vec3s x = w->bodies[s->body].rb.state.x;
	if (moved == NULL) {
		m.then = m.now = x;
		m.turn = glms_quat_identity();
		return m;
	}
	m.then = glms_vec3_add(x, held->dp);
	m.now = glms_vec3_add(x, moved->dp);
	versors q = tbTurnQuat(held->dtheta);
	versors back = {{-q.x, -q.y, -q.z, q.w}};
	m.turn = glms_quat_normalize(glms_quat_mul(tbTurnQuat(moved->dtheta), back));
	return m;
}

static vec3s tbMoveHeld(const tbHeldMove* m, vec3s p)
{
	return glms_vec3_add(m->now, tbRotateInline(m->turn, glms_vec3_sub(p, m->then)));
}

// The manifold the lane holds, carried to the poses of now without the narrow phase: each point
// with its own body (exact for a vertex over a face: it is fixed in its body, and its partner on
// the face stays in the face's plane), the normal with the reference face's body (the manifold's
// feature ids say which: tbClipFeatures). The step's anchors follow each point to first order
// only, which leaves the exact turn by r theta^2 / 2 (4.7 cm for a unit cube's corner turning 0.33
// rad in a step), and a look fails on that alone. Kept when the shapes' extreme points along the
// turned normal are as far apart as the carried points say (the look's test): the same features
// are still the deepest (docs/continuous.md has how often this holds in a rain). Face contacts
// only (two points or more, one reference face); an edge pair's normal turns with both bodies.
static bool tbCarryHeld(const tbWorld* w, const tbShapeSlot* sa, const tbSolverDelta* movedA,
                        const tbShapeSlot* sb, const tbSolverDelta* movedB,
                        const tbSolverAnchors* anchors, float margin, float keep, tbManifold* out)
{
	const tbManifold* held = anchors->held;
	if (held == NULL || !tbOneReferenceFace(held)) {
		return false;
	}
	uint32_t flip = held->points[0].id & 0x80000000u;
	tbHeldMove ma = tbHeldMoveOf(w, sa, movedA, &anchors->heldA);
	tbHeldMove mb = tbHeldMoveOf(w, sb, movedB, &anchors->heldB);
	// Only while the two have moved little relative to each other since the manifold was made:
	// the faces in contact, and the points clipped from them, are then still those the narrow
	// phase found (a face tilted over another by more turns other corners in).
	versors backA = {{-ma.turn.x, -ma.turn.y, -ma.turn.z, ma.turn.w}};
	versors relative = glms_quat_mul(backA, mb.turn);
	float sinHalf =
	    sqrtf(relative.x * relative.x + relative.y * relative.y + relative.z * relative.z);
	vec3s slide = glms_vec3_sub(glms_vec3_sub(mb.now, mb.then), glms_vec3_sub(ma.now, ma.then));
	float size = sa->radius < sb->radius ? sa->radius : sb->radius;
	if (2.0f * sinHalf > TB_CARRY_TURN || glms_vec3_norm(slide) > TB_CARRY_SLIDE * size) {
		return false;
	}
	vec3s n = tbRotateInline(flip != 0 ? mb.turn : ma.turn, held->normal);
	memset(out, 0, sizeof *out);
	out->normal = n;
	float gap = FLT_MAX;
	for (int i = 0; i < held->pointCount; ++i) {
		const tbManifoldPoint* p = held->points + i;
		vec3s pa = tbMoveHeld(&ma, p->pointA), pb = tbMoveHeld(&mb, p->pointB);
		// The point's own offset from its two anchors' separation carries over (zero for a
		// clipped point, whose anchors are a normal's length apart).
		float separation = p->separation -
		                   glms_vec3_dot(glms_vec3_sub(p->pointB, p->pointA), held->normal) +
		                   glms_vec3_dot(glms_vec3_sub(pb, pa), n);
		gap = fminf(gap, separation);
		if (!(separation <= margin)) {
			continue;
		}
		tbManifoldPoint* q = out->points + out->pointCount++;
		q->pointA = pa;
		q->pointB = pb;
		q->separation = separation;
		q->id = p->id;
	}
	if (out->pointCount == 0) {
		return false;
	}
	return fabsf(tbSeparationAlong(w, sa, movedA, sb, movedB, n) - gap) <= keep;
}

// Whether a level pair's slot may keep its anchored points (tbRefreshManifold): the cheap look of
// convex pairs, with the level's side taken from the points themselves (a mesh's support is the
// whole mesh's). The level does not move; the convex shape is a polytope (its contact features are
// vertices fixed in it). Each held point's convex side is carried rigidly to the deltas given and
// measured against the plane through its level side along the normal: the exact separations,
// whose smallest must agree with the rows' first-order forecast (`forecast`) within `keep` (else
// the rows' second-order error has grown), and the convex shape's lowest point along the normal
// must be within `keep` of the lowest held point (else a vertex the manifold lacks has swung in).
// A point that slid more than `slide` over the level since the manifold was made may have left the
// triangles its plane stands for: the level under it is looked up (a ray along the normal through
// the plane's height there, `keep` either side) and must lie within `keep` of that plane, which
// bounds the gap's error there as the checks above do. The pair's other slots
// (manifolds of further normals, `siblings`, as the step made them) hold vertices too: a shape on
// a curved level touches it under several normals, and its lowest point along this slot's normal
// may be one of theirs. Writes the exact gap.
// Whether the level's surface crosses the line along `up` through `onPlane` (a point of a held
// plane, world frame) within `keep` of it: a ray from `keep` above to `keep` below, in the level's
// frame. The level is static (its pose is the step's).
static bool tbLevelUnderHolds(const tbShapeSlot* level, vec3s up, vec3s onPlane, float keep)
{
	vec3s from =
	    tbInvTransformPointInline(level->xf, glms_vec3_add(onPlane, glms_vec3_scale(up, keep)));
	vec3s along = tbInvRotateInline(level->xf.q, glms_vec3_scale(up, -2.0f * keep));
	return tbRayCastLevelLocal(&level->geometry, from, along, 1.0f).hit;
}

static bool tbLevelHeldLooks(const tbWorld* w, const tbShapeSlot* convex, const tbShapeSlot* level,
                             const tbSolverDelta* moved, const tbSolverAnchors* anchors,
                             bool levelIsA, float forecast, float keep, float slide,
                             const int* siblings, int siblingCount, float* exact)
{
	const tbManifold* held = anchors->held;
	tbHeldMove m = tbHeldMoveOf(w, convex, moved, levelIsA ? &anchors->heldB : &anchors->heldA);
	// Along `up`, from the level towards the convex shape.
	vec3s up = levelIsA ? held->normal : glms_vec3_negate(held->normal);
	float gap = FLT_MAX, lowHeld = FLT_MAX;
	for (int i = 0; i < held->pointCount; ++i) {
		const tbManifoldPoint* p = held->points + i;
		vec3s onLevel = levelIsA ? p->pointA : p->pointB;
		vec3s then = levelIsA ? p->pointB : p->pointA;
		vec3s now = tbMoveHeld(&m, then);
		float h = glms_vec3_dot(up, now);
		// The point's own offset from its plane (zero for a clipped point) carries over.
		float offset = p->separation - glms_vec3_dot(glms_vec3_sub(then, onLevel), up);
		if (glms_vec3_norm2(glms_vec3_sub(now, then)) > slide * slide &&
		    !tbLevelUnderHolds(
		        level, up, glms_vec3_sub(now, glms_vec3_scale(up, h - glms_vec3_dot(up, onLevel))),
		        keep)) {
			return false;
		}
		gap = fminf(gap, h - glms_vec3_dot(up, onLevel) + offset);
		lowHeld = fminf(lowHeld, h);
	}
	if (!(fabsf(gap - forecast) <= keep)) {
		return false;
	}
	// The other slots' convex points, carried from the step's start.
	tbSolverDelta start;
	memset(&start, 0, sizeof start);
	tbHeldMove fromStart = tbHeldMoveOf(w, convex, moved, &start);
	for (int k = 0; k < siblingCount; ++k) {
		const tbManifold* other = &w->contacts[siblings[k]].manifold;
		for (int i = 0; i < other->pointCount; ++i) {
			vec3s p = levelIsA ? other->points[i].pointB : other->points[i].pointA;
			lowHeld = fminf(lowHeld, glms_vec3_dot(up, tbMoveHeld(&fromStart, p)));
		}
	}
	float lowest = -tbReachAlong(w, convex, moved, glms_vec3_negate(up));
	*exact = gap;
	return lowHeld - lowest <= keep;
}

// The level pair's tbCollideLevel at these poses: the one a slot of the same pair made in this
// substep when there is one (the same shapes, step, margin and pose bit for bit give the same
// answer), else made now and kept for the pair's other slots.
static const tbLevelMemo* tbCollideLevelMemo(tbWorld* w, const tbContactSlot* c, tbTransform bInA,
                                             float margin, int workerIndex)
{
	tbLevelMemoKey key;
	memset(&key, 0, sizeof key);
	key.shapeA = c->shapeA;
	key.shapeB = c->shapeB;
	key.step = w->stepCount;
	key.margin = margin;
	const float pose[7] = {bInA.p.x, bInA.p.y, bInA.p.z, bInA.q.x, bInA.q.y, bInA.q.z, bInA.q.w};
	memcpy(key.pose, pose, sizeof pose);
	uint32_t h = (uint32_t)c->shapeA * 0x9e3779b1u ^ (uint32_t)c->shapeB * 0x85ebca77u;
	tbLevelMemo* memo = w->levelMemo + workerIndex * TB_LEVEL_MEMO + (h >> 16) % TB_LEVEL_MEMO;
	if (memo->valid && memcmp(&memo->key, &key, sizeof key) == 0) {
		return memo;
	}
	memo->key = key;
	memo->valid = true;
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	// A copy of the pair's separating-axis cache: the step's cache stays the step's.
	bool levelIsA = tbGeometry_IsLevel(&sa->geometry);
	const tbLevelSatCache* sat =
	    tbLevelSatOf(w, levelIsA ? c->shapeB : c->shapeA, levelIsA ? c->shapeA : c->shapeB);
	tbLevelSatCache copy;
	if (sat != NULL) {
		copy = *sat;
	}
	memo->count =
	    tbCollideLevelCached(&sa->geometry, &sb->geometry, bInA, margin, memo->groups,
	                         TB_MAX_LEVEL_MANIFOLDS, &memo->distance, sat != NULL ? &copy : NULL);
	return memo;
}

// The pair's separation at the substep's end if the bodies keep their velocities (anchors'
// nextA, nextB), along n turned with A's turn over the substep and along n turned with B's: the
// larger. The anchored rows see a point's separation change to first order only; a point sliding
// over a face that turns closes on it by a second-order term (2 (vB - vA) . (wA x n) h^2 / 2) that
// they miss.
static float tbSeparationAhead(const tbWorld* w, const tbShapeSlot* sa, const tbSolverDelta* movedA,
                               const tbShapeSlot* sb, const tbSolverDelta* movedB,
                               const tbSolverAnchors* anchors, vec3s n)
{
	const tbSolverDelta* nextA = movedA != NULL ? &anchors->nextA : NULL;
	const tbSolverDelta* nextB = movedB != NULL ? &anchors->nextB : NULL;
	float best = -FLT_MAX;
	for (int k = 0; k < 2; ++k) {
		const tbSolverDelta* now = k == 0 ? movedA : movedB;
		const tbSolverDelta* next = k == 0 ? nextA : nextB;
		vec3s turned = n;
		if (now != NULL) {
			turned = tbRotateInline(tbTurnQuat(glms_vec3_sub(next->dtheta, now->dtheta)), n);
		} else if (k == 1) {
			break;
		}
		best = fmaxf(best, tbSeparationAlong(w, sa, nextA, sb, nextB, turned));
	}
	return best;
}

// The pair's manifold at the poses of now, or the anchored points kept (tbRefreshSolverContact).
static tbRefreshResult tbRefreshManifold(tbWorld* w, const tbContactSlot* c,
                                         const tbSolverDelta* movedA, const tbSolverDelta* movedB,
                                         tbSolverAnchors* anchors, tbManifold* manifold,
                                         int workerIndex)
{
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	// First the cheap look, for shapes whose contact features are fixed in their bodies
	// (polytopes' vertices, a sphere's point under its centre): if the shapes' extreme points
	// along the solver's normal are as far apart as its anchored points say, now and at the
	// substep's end, those points still hold the deepest features and the passes push where they
	// should (a box turning on the same face or edge). Otherwise a vertex the manifold lacks
	// swings in or an anchored one recedes, and the narrow phase is run. A curved side (capsule,
	// cylinder, cone) rolls its contact over its surface, away from the anchors, at the same
	// depth: it always takes the narrow phase, as do level triangles.
	if (anchors != NULL && anchors->pointCount > 0 && c->child < 0 &&
	    tbKeepsFeatures(&sa->geometry) && tbKeepsFeatures(&sb->geometry)) {
		float keep = TB_REFRESH_KEEP * (sa->radius < sb->radius ? sa->radius : sb->radius);
		vec3s n = anchors->normal;
		float along = tbSeparationAlong(w, sa, movedA, sb, movedB, n);
		if (fabsf(along - anchors->gap) <= keep &&
		    fabsf(tbSeparationAlong(w, sa, movedA != NULL ? &anchors->nextA : NULL, sb,
		                            movedB != NULL ? &anchors->nextB : NULL, n) -
		          anchors->gapNext) <= keep) {
			anchors->along = along;
			w->workerCounts[workerIndex].keptContacts += 1;
			return tb_refreshKept;
		}
		if (tbCarryHeld(w, sa, movedA, sb, movedB, anchors, c->cache.margin, keep, manifold)) {
			w->workerCounts[workerIndex].carriedContacts += 1;
			return tb_refreshMade;
		}
	}
	if (anchors != NULL && anchors->pointCount > 0 && c->child >= 0 && anchors->held != NULL &&
	    anchors->held->pointCount > 0) {
		// A level pair's slot: the same look, the level's side from the held points.
		bool levelIsA = tbGeometry_IsLevel(&sa->geometry);
		const tbShapeSlot* convex = levelIsA ? sb : sa;
		const tbSolverDelta* moved = levelIsA ? movedB : movedA;
		const tbSolverDelta* next = levelIsA ? &anchors->nextB : &anchors->nextA;
		bool still = levelIsA ? movedA == NULL : movedB == NULL;
		tbShapeType type = convex->geometry.type;
		if (still && moved != NULL && (type == tb_boxShape || type == tb_hullShape)) {
			float keep = TB_REFRESH_KEEP * convex->middleReach;
			float slide = TB_CARRY_SLIDE * convex->middleReach;
			int siblings[TB_MAX_LEVEL_MANIFOLDS], siblingCount = 0;
			for (int k = 0; k < TB_MAX_LEVEL_MANIFOLDS; ++k) {
				int other = k != c->child ? tbPairFind(w, c->shapeA, c->shapeB, k) : -1;
				if (other >= 0) {
					siblings[siblingCount++] = other;
				}
			}
			float now, ahead;
			const tbShapeSlot* level = levelIsA ? sa : sb;
			if (tbLevelHeldLooks(w, convex, level, moved, anchors, levelIsA, anchors->gap, keep,
			                     slide, siblings, siblingCount, &now) &&
			    tbLevelHeldLooks(w, convex, level, next, anchors, levelIsA, anchors->gapNext, keep,
			                     slide, siblings, siblingCount, &ahead)) {
				anchors->along = fminf(now, anchors->gap);
				w->workerCounts[workerIndex].keptContacts += 1;
				return tb_refreshKept;
			}
		}
	}
	tbTransform xfA = tbShapePoseAt(w, sa, movedA), xfB = tbShapePoseAt(w, sb, movedB);
	w->workerCounts[workerIndex].refreshedContacts += 1;
	tbTransform bInA = tbInvMulTransforms(xfA, xfB);
	// The step's speculative distance (the cache's margin is the step's plus the cache slack).
	float margin = c->cache.margin;
	float distance;
	tbManifold local;
	if (c->child >= 0) {
		// A level pair: its manifold is the group of triangles whose normal is closest to the one
		// the solver holds for this slot (none when the group is gone).
		const tbLevelMemo* memo = tbCollideLevelMemo(w, c, bInA, margin, workerIndex);
		const tbManifold* groups = memo->groups;
		int count = memo->count;
		distance = memo->distance;
		bool holds = anchors != NULL ? anchors->pointCount > 0 : c->manifold.pointCount > 0;
		vec3s held = anchors != NULL ? anchors->normal : c->manifold.normal;
		held = tbInvRotateInline(xfA.q, held);
		memset(&local, 0, sizeof local);
		local.normal = held;
		// A first slot that held no points takes the first group (the pair has just come close).
		if (!holds && c->child == 0 && count > 0) {
			local = groups[0];
		}
		float best = holds ? TB_LEVEL_REFRESH_COS : 2.0f;
		for (int g = 0; g < count; ++g) {
			float dot = glms_vec3_dot(groups[g].normal, held);
			if (dot > best) {
				best = dot;
				local = groups[g];
			}
		}
	} else {
		// A copy of the pair's separating-axis cache: the step's cache stays the step's.
		tbSatCache sat = c->cache.sat;
		local = tbCollideWorldShapes(&sa->geometry, &sb->geometry, bInA, margin, &distance, &sat);
	}
	if (!(distance > -FLT_MAX)) {
		return tb_refreshFailed; // the query failed: keep what the step began with
	}
	// In A's frame (normal and both points), to the world.
	memset(manifold, 0, sizeof *manifold);
	manifold->normal = tbRotateInline(xfA.q, local.normal);
	for (int i = 0; i < local.pointCount; ++i) {
		const tbManifoldPoint* mp = local.points + i;
		if (!(mp->separation <= margin)) {
			continue;
		}
		tbManifoldPoint* out = manifold->points + manifold->pointCount++;
		out->pointA = tbTransformPointInline(xfA, mp->pointA);
		out->pointB = tbTransformPointInline(xfA, mp->pointB);
		out->separation = mp->separation;
		out->id = mp->id;
	}
	return tb_refreshMade;
}

tbRefreshResult tbRefreshSolverContact(int contactIndex, const tbSolverDelta* movedA,
                                       const tbSolverDelta* movedB, tbSolverAnchors* anchors,
                                       tbManifold* manifold, int workerIndex, void* context)
{
	tbWorld* w = context;
	// With workers, several contacts are looked at side by side: each worker counts in its own
	// line, summed into the profile after the solve (step.c).
	if (contactIndex < 0 || contactIndex >= w->solverContactCount) {
		return tb_refreshFailed;
	}
	const tbContactSlot* c = w->contacts + w->solverContactSlots[contactIndex];
	tbRefreshResult result =
	    tbRefreshManifold(w, c, movedA, movedB, anchors, manifold, workerIndex);
	if (result == tb_refreshMade && anchors != NULL && anchors->lookAhead && c->child < 0) {
		// Where the new points will be at the substep's end (tbAnticipateTurn in the solver);
		// convex pairs only (a level shape's support is the whole mesh's).
		anchors->ahead = tbSeparationAhead(w, w->shapes + c->shapeA, movedA, w->shapes + c->shapeB,
		                                   movedB, anchors, manifold->normal);
	}
	return result;
}
