// The narrow phase inside the step, for pairs that turn too fast for one manifold a step.
//
// The soft step holds each contact point's anchors over the whole step and follows its separation
// to first order, s = s0 + J . (dp, dtheta) (solver_internal.h). That is exact for a point moving
// with its body in a straight line and good while a body turns little in a step. A body tumbling
// after an impact is another matter: a cone at 20 rad/s turns 0.33 rad in a 60 Hz step; its one
// rim point recedes along the rim while the rim beside it sweeps into the other body, and the
// solver, seeing the point separate, pushes nothing for two or three steps (measured: a sphere and
// a cone reached 12 cm of overlap with zero impulse; a box at 9 rad/s whose one corner touched a
// ramp swung another 10 cm into it). Such pairs are marked here, and the solver has them made
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
// Measured on the rain of mixed shapes from 8 m (9 seeds): deepest overlap 3.8 cm at 0.03, 4.7 cm
// at 0.06, 8.1 cm at 0.1; the narrow phases it adds grow as it shrinks (docs/continuous.md).
#define TB_REFRESH_TURN 0.03f

// How far a shape's surface moves per radian its body turns, at most, m: the distance of the
// shape's origin from the centre of mass plus the shape's own reach about that origin (none for
// a sphere, whose surface a turn about its centre leaves where it was).
static float tbSpinReach(const tbWorld* w, const tbShapeSlot* s)
{
	const tbBodySlot* b = w->bodies + s->body;
	if (b->rb.type == tb_staticBody) {
		return 0.0f;
	}
	float offset = glms_vec3_norm(glms_vec3_sub(s->localPose.p, b->localCenter));
	return offset + (s->geometry.type == tb_sphereShape ? 0.0f : s->radius);
}

// A body's velocity and spin as the step sees them (zero for one that does not move).
static vec3s tbMovingVelocity(const tbBodySlot* b)
{
	return b->awake && b->rb.type != tb_staticBody ? b->rb.v : glms_vec3_zero();
}

static float tbMovingSpin(const tbBodySlot* b)
{
	return b->awake && b->rb.type != tb_staticBody ? glms_vec3_norm(b->rb.w) : 0.0f;
}

float tbSwingReach(const tbWorld* w, const tbShapeSlot* s, float dt)
{
	const tbBodySlot* b = w->bodies + s->body;
	if (b->awakeIndex < 0 || b->rb.type != tb_dynamicBody || tbSpinReach(w, s) == 0.0f) {
		return 0.0f;
	}
	// An impact within the step can turn a body's speed into spin that swings its surface by up
	// to about that speed times the step (a cylinder falling at 7.9 m/s beside a ball that had
	// just landed hit the ground, spun up to 12 rad/s and swung 5 cm into the ball within the
	// step, their pair still without points). Only for bodies fast for their size, as the
	// candidates below: a body slowing down in a pile keeps the margin it had (a larger one joins
	// settling neighbours into islands that never sleep: the rain of 1000 stayed awake).
	float travel = dt * glms_vec3_norm(b->rb.v);
	return travel > TB_REFRESH_SWEEP * s->radius ? travel : 0.0f;
}

void tbMarkContactRefresh(const tbWorld* w, const tbContactSlot* c, float dt, tbContact* contact)
{
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	const tbBodySlot* ba = w->bodies + sa->body;
	const tbBodySlot* bb = w->bodies + sb->body;
	float reachA = tbSpinReach(w, sa), reachB = tbSpinReach(w, sb);
	// The surfaces' speed relative to each other: the spins' sweep, and the pair's relative
	// velocity, which an impact in this step turns into spin (a cone falling at 10 m/s onto a
	// cylinder's rim left it at 13 rad/s and 5 cm inside within the step).
	float speed = glms_vec3_norm(glms_vec3_sub(tbMovingVelocity(bb), tbMovingVelocity(ba))) +
	              tbMovingSpin(ba) * reachA + tbMovingSpin(bb) * reachB;
	float size = sa->radius < sb->radius ? sa->radius : sb->radius;
	contact->refresh = dt * speed > TB_REFRESH_SWEEP * size;
	contact->margin = c->cache.margin;
	contact->spinReachA = reachA;
	contact->spinReachB = reachB;
	contact->refreshTurn = TB_REFRESH_TURN * size;
}

// A shape's world pose with its body's centre of mass at x and rotation R.
static tbTransform tbShapePoseAt(const tbWorld* w, const tbShapeSlot* s, const tbSolverPose* pose)
{
	if (pose == NULL) {
		return s->xf; // a body that does not move in this solve
	}
	const tbBodySlot* b = w->bodies + s->body;
	tbTransform body;
	body.q = tbQuatFromR(pose->R);
	// The origin sits localCenter behind the centre of mass (tbSyncBodyTransform).
	body.p = glms_vec3_sub(pose->x, glms_mat3_mulv(pose->R, b->localCenter));
	return tbMulTransforms(body, s->localPose);
}

bool tbRefreshSolverContact(int contactIndex, const tbSolverPose* poseA, const tbSolverPose* poseB,
                            tbManifold* manifold, void* context)
{
	tbWorld* w = context;
	if (contactIndex < 0 || contactIndex >= w->solverContactCount) {
		return false;
	}
	const tbContactSlot* c = w->contacts + w->solverContactSlots[contactIndex];
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	w->profile.refreshedContacts += 1;
	tbTransform xfA = tbShapePoseAt(w, sa, poseA), xfB = tbShapePoseAt(w, sb, poseB);
	tbTransform bInA = tbInvMulTransforms(xfA, xfB);
	// The step's speculative distance (the cache's margin is the step's plus the cache slack).
	float margin = c->cache.margin;
	float distance;
	// A copy of the pair's separating-axis cache: the step's cache stays the step's.
	tbSatCache sat = c->cache.sat;
	tbManifold local = c->child >= 0 ? tbCollideLevelTriangle(&sa->geometry, &sb->geometry, bInA,
	                                                          c->child, margin, &distance)
	                                 : tbCollideShapesCached(&sa->geometry, &sb->geometry, bInA,
	                                                         margin, &distance, &sat);
	if (!(distance > -FLT_MAX)) {
		return false; // the query failed: keep what the step began with
	}
	// In A's frame (normal and both points), to the world.
	memset(manifold, 0, sizeof *manifold);
	manifold->normal = tbRotateVector(xfA.q, local.normal);
	for (int i = 0; i < local.pointCount; ++i) {
		const tbManifoldPoint* mp = local.points + i;
		if (!(mp->separation <= margin)) {
			continue;
		}
		tbManifoldPoint* out = manifold->points + manifold->pointCount++;
		out->pointA = tbTransformPoint(xfA, mp->pointA);
		out->pointB = tbTransformPoint(xfA, mp->pointB);
		out->separation = mp->separation;
		out->id = mp->id;
	}
	return true;
}
