// Joints in the soft step: ball, hinge, slider, fixed and distance constraints with limits,
// motors and springs, solved before the contact colours in every pass, in colours of their own
// (solver.c: a colour's joints share no dynamic body, so they may be solved side by side).
//
// The pattern is the contacts' (Catto, "Solver2D", 2024; Box2D v3's joints): per step the anchors
// and the inverse inertias of the step's start are set up; per substep each joint reads its
// bodies' deltas (dp, dtheta) to know its current error C, and each row applies
//   lambda = -massScale * m_eff * (Cdot + bias) - impulseScale * accumulated
// with the soft constraint's bias = biasRate * C in the biased pass and nothing in the relax pass
// (Catto, "Soft constraints", GDC 2011). Unlike the contacts, the anchors are turned by the
// bodies' rotation deltas every substep: a joint holds through large rotations (a swinging chain
// link turns tens of degrees in a step), where a contact's manifold is remade every step anyway.
//
// Two exceptions (docs/joints.md): the point rows of joints linked through moving bodies are
// solved together by a direct solve, rigid, their positions kept by a SHAKE step and a projection
// (tbSolveJointGroup; a ragdoll's are soft, one joint at a time, with the projection only where a
// gap has grown); and each substep a jointed body acts through its inertia plus what it
// needs of its joints' geometric stiffness (tbJointBodyStiffen), without which light links under a
// heavy load whirl apart.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dynamics_math.h"
#include "joint_internal.h"

#define TB_PI_F 3.14159265f

// The rotation by the rotation vector t (Rodrigues): v cos + (k x v) sin + k (k . v)(1 - cos)
// for every v, k = t / |t|; to first order where the angle is tiny. One sine and cosine for all
// the vectors a body turns.
static inline __attribute__((always_inline)) mat3s tbTurnMatrix(vec3s t)
{
	float angle2 = glms_vec3_dot(t, t);
	mat3s W = tbSkew(t);
	if (angle2 < 1e-12f) {
		return tbMat3Add(glms_mat3_identity(), W);
	}
	float angle = sqrtf(angle2);
	tbCosSin cs = tbComputeCosSin(angle);
	float a = cs.sine / angle, b = (1.0f - cs.cosine) / angle2;
	return tbMat3MulAdd(tbMat3MulAdd(glms_mat3_identity(), a, W), b, tbMat3Mul(W, W));
}

// The same, out of line, for the few bodies whose turns are torque-free flows (tbTurnByFlow,
// tbTorqueFreeTurn): the one hot call, in tbTurnAt, stays inline.
static __attribute__((noinline)) mat3s tbTurnMatrixOut(vec3s t)
{
	return tbTurnMatrix(t);
}

// I^-1 of a body turned by the rotation rot since the step began: rot I0^-1 rot^T, the sums of
// tbMat3Mul(tbMat3Mul(rot, invI), rot^T) written out on plain floats (kept in registers).
static mat3s tbTurnInertia(mat3s rot, mat3s invI)
{
	if (tbMat3IsIsotropic(&invI)) {
		return invI; // rot c 1 rot^T = c 1 (a ball's, a cube's)
	}
	float A[3][3]; // rot invI, A[c][k]: column c, row k
	for (int c = 0; c < 3; ++c) {
		for (int k = 0; k < 3; ++k) {
			A[c][k] = (rot.col[0].raw[k] * invI.col[c].x + rot.col[1].raw[k] * invI.col[c].y) +
			          rot.col[2].raw[k] * invI.col[c].z;
		}
	}
	mat3s out;
	for (int c = 0; c < 3; ++c) {
		// Column c of rot^T is row c of rot.
		float x = rot.col[0].raw[c], y = rot.col[1].raw[c], z = rot.col[2].raw[c];
		for (int k = 0; k < 3; ++k) {
			out.col[c].raw[k] = (A[0][k] * x + A[1][k] * y) + A[2][k] * z;
		}
	}
	return out;
}

static vec3s tbDelta(const float* t)
{
	return tbV3(t[0], t[1], t[2]);
}

// m v for a matrix held by address, written out (the inner loops' products).
static inline vec3s tbMulMV(const mat3s* m, vec3s v)
{
	return tbV3(m->col[0].x * v.x + m->col[1].x * v.y + m->col[2].x * v.z,
	            m->col[0].y * v.x + m->col[1].y * v.y + m->col[2].y * v.z,
	            m->col[0].z * v.x + m->col[1].z * v.y + m->col[2].z * v.z);
}

static void tbSoft(float hertz, float zeta, float h, float* biasRate, float* massScale,
                   float* impulseScale)
{
	if (hertz <= 0.0f) {
		*biasRate = 0.0f;
		*massScale = 1.0f;
		*impulseScale = 0.0f;
		return;
	}
	float omega = 2.0f * TB_PI_F * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	*biasRate = omega / a1;
	*massScale = a2 * a3;
	*impulseScale = a3;
}

// Two unit vectors perpendicular to a and to each other (Duff et al. 2017).
static void tbPerpendiculars(vec3s a, vec3s* u1, vec3s* u2)
{
	float sign = copysignf(1.0f, a.z);
	float p = -1.0f / (sign + a.z);
	float q = a.x * a.y * p;
	*u1 = tbV3(1.0f + sign * a.x * a.x * p, sign * q, -sign * a.x);
	*u2 = tbV3(q, sign + a.y * a.y * p, -a.y);
}

static mat3s tbSym2Inverse(float a, float b, float d)
{
	// [[a b] [b d]]^-1 in the first two entries of a mat3 (col[0].x, col[0].y, col[1].y).
	mat3s m = glms_mat3_zero();
	float det = a * d - b * b;
	if (det != 0.0f && isfinite(det)) {
		float inv = 1.0f / det;
		m.col[0].x = d * inv;
		m.col[0].y = -b * inv;
		m.col[1].x = -b * inv;
		m.col[1].y = a * inv;
	}
	return m;
}

static float tbLinearRowMass(const tbJointRecord* r, vec3s armA, vec3s armB, vec3s u);
static bool tbBallHasAngular(const tbJoint* j);

// tr(I^-1) - a^T I^-1 a for the unit a along the arm r (tbJointAddLoad); tr(I^-1), the larger,
// where the arm is too short for a direction.
static float tbArmSway(mat3s invI, vec3s r)
{
	float trace = invI.col[0].x + invI.col[1].y + invI.col[2].z;
	float r2 = glms_vec3_dot(r, r);
	return r2 > 1e-12f ? trace - glms_vec3_dot(r, tbMat3MulV(invI, r)) / r2 : trace;
}

void tbPrepareJoint(tbJointRecord* r, const tbJointBinding* binding, tbRigidBody* const* bodies,
                    int staticBody, const tbJointSoftness* softness, float h)
{
	memset(r, 0, sizeof *r);
	tbJoint* joint = binding->joint;
	r->joint = joint;
	const tbRigidBody* a = binding->bodyA != TB_NULL_BODY ? bodies[binding->bodyA] : NULL;
	const tbRigidBody* b = binding->bodyB != TB_NULL_BODY ? bodies[binding->bodyB] : NULL;
	r->indexA = a != NULL ? binding->bodyA : staticBody;
	r->indexB = b != NULL ? binding->bodyB : staticBody;
	bool movesA = a != NULL && a->type == tb_dynamicBody;
	bool movesB = b != NULL && b->type == tb_dynamicBody;
	r->movesA = movesA;
	r->movesB = movesB;
	r->mA = movesA ? a->invMass : 0.0f;
	r->mB = movesB ? b->invMass : 0.0f;
	r->iA = r->iA0 = movesA ? a->Iinv : glms_mat3_zero();
	r->iB = r->iB0 = movesB ? b->Iinv : glms_mat3_zero();
	mat3s RA = a != NULL ? a->state.R : glms_mat3_identity();
	mat3s RB = b != NULL ? b->state.R : glms_mat3_identity();
	vec3s xA = a != NULL ? a->state.x : tbV3(0.0f, 0.0f, 0.0f);
	vec3s xB = b != NULL ? b->state.x : tbV3(0.0f, 0.0f, 0.0f);
	r->rA = tbMat3MulV(RA, binding->anchorA);
	r->rB = tbMat3MulV(RB, binding->anchorB);
	r->d0 = glms_vec3_sub(glms_vec3_add(xB, r->rB), glms_vec3_add(xA, r->rA));
	r->axisA = tbMat3MulV(RA, binding->axisA);
	r->refA = tbMat3MulV(RA, binding->refA);
	r->axisB = tbMat3MulV(RB, binding->axisB);
	r->refB = tbMat3MulV(RB, binding->refB);
	r->staticBody = staticBody;
	r->h = h;
	r->component = -1;
	r->hasPoint =
	    joint->type == tb_ballJoint || joint->type == tb_hingeJoint || joint->type == tb_fixedJoint;
	r->plainBall = joint->type == tb_ballJoint && !tbBallHasAngular(joint);
	r->isBall = joint->type == tb_ballJoint;
	float hertz = softness->hertz < 0.25f / h ? softness->hertz : 0.25f / h;
	tbSoft(hertz, softness->dampingRatio, h, &r->biasRate, &r->massScale, &r->impulseScale);
	if (joint->type == tb_wheelJoint) {
		// The axle steered: turned about the suspension axis by the steering angle.
		tbCosSin cs = tbComputeCosSin(joint->steering);
		float c = cs.cosine, s = cs.sine;
		r->refA = tbMulAdd(glms_vec3_scale(r->refA, c), s, glms_vec3_cross(r->axisA, r->refA));
	}
}

void tbPrepareJointMore(tbJointRecord* r, tbRigidBody* const* bodies)
{
	memset(r->more, 0, sizeof *r->more);
	r->swayA = r->mA > 0.0f ? tbArmSway(r->iA0, r->rA) : 0.0f;
	r->swayB = r->mB > 0.0f ? tbArmSway(r->iB0, r->rB) : 0.0f;
	const tbJoint* joint = r->joint;
	float h = r->h;
	if (joint->type == tb_ballJoint) {
		// B's target frame and the motor's speed on A, world, at the start (the static body's
		// are world already).
		mat3s RA = r->indexA != r->staticBody ? bodies[r->indexA]->state.R : glms_mat3_identity();
		r->more->targetAxisA = tbMat3MulV(RA, joint->localTargetAxisA);
		r->more->targetRefA = tbMat3MulV(RA, joint->localTargetRefA);
		r->more->motorVelocity = tbMat3MulV(RA, joint->motorVelocity);
	}
	if (joint->enableSpring && joint->type == tb_wheelJoint) {
		// The suspension's stiffness k = m_s omega^2 and damping c = 2 zeta m_s omega are set by
		// the chassis's mass felt at the anchor along the axis, m_s (B's when A cannot move;
		// docs/joints.md); the row, whose mass m_row also holds the light wheel's, gets the
		// soft coefficients of that spring: omega_row = omega sqrt(m_s / m_row), zeta_row =
		// zeta sqrt(m_s / m_row).
		vec3s u = r->axisA, arm = r->rA;
		float mRow = tbLinearRowMass(r, glms_vec3_add(r->rA, r->d0), r->rB, u);
		float inv = 0.0f;
		if (r->mA > 0.0f) {
			arm = glms_vec3_add(r->rA, r->d0);
			vec3s c = glms_vec3_cross(arm, u);
			inv = r->mA + glms_vec3_dot(c, tbMat3MulV(r->iA, c));
		} else {
			vec3s c = glms_vec3_cross(r->rB, u);
			inv = r->mB + glms_vec3_dot(c, tbMat3MulV(r->iB, c));
		}
		float ratio = inv > 0.0f && mRow > 0.0f ? sqrtf(1.0f / (inv * mRow)) : 1.0f;
		r->more->wheelSpringMass = mRow;
		tbSoft(joint->hertz * ratio, joint->dampingRatio * ratio, h, &r->more->springBiasRate,
		       &r->more->springMassScale, &r->more->springImpulseScale);
	} else if (joint->enableSpring) {
		tbSoft(joint->hertz, joint->dampingRatio, h, &r->more->springBiasRate,
		       &r->more->springMassScale, &r->more->springImpulseScale);
	}
}

// The same with the bodies' turns since the step began already made (tbTurnMatrix). Inline in
// its every caller: the point rows take the anchors alone (full false), which folds away the rest.
static inline __attribute__((always_inline)) tbJointNow
tbJointGeometryTurned(const tbJointRecord* r, const tbSolverBody* sa, const tbSolverBody* sb,
                      const mat3s* tA, const mat3s* tB, bool full)
{
	// The products written out on the matrices where they lie (tbMulMV: tbMat3MulV's sums in
	// its order), not on copies of them.
	tbJointNow g;
	g.rA = tbMulMV(tA, r->rA);
	g.rB = tbMulMV(tB, r->rB);
	// d = d0 + (dpB + rB - rB0) - (dpA + rA - rA0)
	for (int k = 0; k < 3; ++k) {
		g.d.raw[k] = r->d0.raw[k] + ((sb->dp[k] + (g.rB.raw[k] - r->rB.raw[k])) -
		                             (sa->dp[k] + (g.rA.raw[k] - r->rA.raw[k])));
	}
	g.angle = 0.0f;
	if (!full) {
		// The point rows need the anchors only.
		g.axisA = g.refA = g.axisB = g.refB = tbV3(0.0f, 0.0f, 0.0f);
		return g;
	}
	g.axisA = tbMulMV(tA, r->axisA);
	g.refA = tbMulMV(tA, r->refA);
	g.axisB = tbMulMV(tB, r->axisB);
	g.refB = tbMulMV(tB, r->refB);
	if (r->joint->type == tb_hingeJoint) {
		// The turn of B's reference about A's axis (both references projected on A's plane).
		g.angle = tbAtan2(glms_vec3_dot(g.axisA, glms_vec3_cross(g.refA, g.refB)),
		                  glms_vec3_dot(g.refA, g.refB));
	}
	return g;
}

// The turn of a body whose substep is a torque-free flow (tbJointBodyGyroFlow): the flow, then
// what the deltas moved beyond it. Out of line: only bodies on one ball joint take it.
static __attribute__((noinline)) mat3s tbTurnByFlow(const tbJointRecord* r, int b, vec3s more)
{
	const tbSpinFlow* f = r->flows + b;
	mat3s turn = tbMat3Mul(f->flow, r->turns[b]);
	return tbMat3Mul(tbTurnMatrixOut(glms_vec3_sub(more, f->drift)), turn);
}

// Rot(t) T for a tiny t (tbTurnMatrix's first-order branch, (1 + [t]x) T) into out, which may
// be T: the sums of tbMat3Mul(tbMat3Add(1, tbSkew(t)), T) written out on plain floats, so that the
// hot path keeps them in registers.
static inline void tbTurnSmallInto(vec3s t, const mat3s* T, mat3s* out)
{
	// R = 1 + [t]x by columns, R[c][r] (0 + x, not x: the same zeros as the matrix sum).
	float R[3][3] = {{1.0f, 0.0f + t.z, 0.0f + -t.y},
	                 {0.0f + -t.z, 1.0f, 0.0f + t.x},
	                 {0.0f + t.y, 0.0f + -t.x, 1.0f}};
	float M[3][3];
	for (int c = 0; c < 3; ++c) {
		for (int k = 0; k < 3; ++k) {
			M[c][k] = T->col[c].raw[k];
		}
	}
	for (int c = 0; c < 3; ++c) {
		for (int k = 0; k < 3; ++k) {
			out->col[c].raw[k] = (R[0][k] * M[c][0] + R[1][k] * M[c][1]) + R[2][k] * M[c][2];
		}
	}
}

// Body b's turn since the step began with its deltas at s, into out: the composed turn of the
// record's array (tbComposeTurn) followed by what dtheta has gained since it was composed (after
// the substep's flow where one is pending).
static void tbTurnAtInto(const tbJointRecord* r, int b, const tbSolverBody* s, mat3s* out)
{
	vec3s more = glms_vec3_sub(tbDelta(s->dtheta), r->turnedBy[b]);
	if (r->spinFlow && r->flows[b].pending != 0.0f) {
		*out = tbTurnByFlow(r, b, more);
		return;
	}
	if (glms_vec3_dot(more, more) < 1e-12f) {
		tbTurnSmallInto(more, r->turns + b, out);
		return;
	}
	*out = tbMat3Mul(tbTurnMatrix(more), r->turns[b]);
}

static mat3s tbTurnAt(const tbJointRecord* r, int b, const tbSolverBody* s)
{
	mat3s turn;
	tbTurnAtInto(r, b, s, &turn);
	return turn;
}

// Body b's turn brought up to its dtheta of now. dtheta, the integral of w, is a rotation vector
// only while w keeps its direction: turning by Rot(dtheta) moves a point at the realized angular
// velocity J(dtheta) w (J the left Jacobian of the rotation group), not w, and a fast spin about
// an axle makes J turn the axle's slow motion by up to half the step's spin angle. So each change
// of dtheta is composed as a turn of its own, turn <- Rot(dtheta - composed) turn, which moves
// every point at w exactly over a substep (w is constant within it).
// With `made` (tbJointBodyEndTurn's), the turn tbTurnAtInto gives at these deltas is taken as it
// was made; without, the body's turn ahead (tbAheadTurn) where it was made at these deltas: the
// same inputs, so the same bits. The turn ahead is let go either way.
static inline void tbComposeTurnMade(const tbJointRecord* r, int b, const tbSolverBody* s,
                                     const mat3s* made)
{
	tbAheadTurn* ahead = r->aheads + b;
	bool held = ahead->valid;
	ahead->valid = false;
	const vec3s* by = r->turnedBy + b;
	if (s->dtheta[0] == by->x && s->dtheta[1] == by->y && s->dtheta[2] == by->z &&
	    !(r->spinFlow && r->flows[b].pending != 0.0f)) {
		return; // composed up to these deltas already (a group's projection did it)
	}
	ahead->turnedFresh = false;
	if (made != NULL) {
		r->turns[b] = *made;
	} else if (held && memcmp(ahead->by.raw, s->dtheta, sizeof ahead->by.raw) == 0) {
		r->turns[b] = ahead->turn; // the same inputs to tbTurnAtInto: the same bits
	} else {
		tbTurnAtInto(r, b, s, r->turns + b);
	}
	r->turnedBy[b] = tbDelta(s->dtheta);
	if (r->spinFlow) {
		r->flows[b].pending = 0.0f;
	}
}

static inline void tbComposeTurn(const tbJointRecord* r, int b, const tbSolverBody* s)
{
	tbComposeTurnMade(r, b, s, NULL);
}

// The record's inverse inertias of now and its geometry, from its bodies' turns of this pass
// (tbJointBodyTurn). The inertias are turned with the bodies, as the anchors are, and stiffened
// against the turning of the arms under load (tbJointBodyStiffen). Torques of turned lever arms
// sent through the start's inverse inertia pumped spin into thin links about their old long axes
// (an 8-link chain of thin capsules reached 390 rad/s and tore). The bodies of joints keep w as
// their primary velocity for the step (tbFinishBody).
// Made into *out, where the caller keeps it (no copy of the whole geometry on its way there).
static void tbJointNowAt(tbJointRecord* r, const tbSolverBody* sa, const tbSolverBody* sb,
                         bool full, tbJointNow* out)
{
	if (r->mA > 0.0f) {
		r->iA = r->turnedInertias[r->indexA];
	}
	if (r->mB > 0.0f) {
		r->iB = r->turnedInertias[r->indexB];
	}
	*out = tbJointGeometryTurned(r, sa, sb, r->turns + r->indexA, r->turns + r->indexB, full);
}

// Keeps a grouped joint's anchors and gap of now for its group's solve in the same pass
// (tbSolveJointGroup reads them instead of making them again).
static inline void tbKeepNow(tbJointRecord* r, const tbJointNow* g)
{
	if (r->component >= 0) {
		r->more->nowRA = g->rA;
		r->more->nowRB = g->rB;
		r->more->nowD = g->d;
		r->more->nowFresh = true;
		r->more->nowMassFresh = false; // its limit rows may make it (tbKeepPointMass)
	}
}

static vec3s tbGetV(const tbSolverBody* s)
{
	return tbV3(s->v[0], s->v[1], s->v[2]);
}

static vec3s tbGetW(const tbSolverBody* s)
{
	return tbV3(s->w[0], s->w[1], s->w[2]);
}

static inline vec3s tbCross(vec3s a, vec3s b)
{
	return tbV3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

// A linear impulse P at the arms armA (on A) and armB (on B) through the record's masses and the
// inverse inertias given: -P to A, +P to B (Baraff II eq. 8-12, 8-13 in velocity form). A side
// that cannot move is not written: the static body and a kinematic one are shared by joints
// solved side by side (solver.c), which only read them.
static inline void tbApplyLinearTo(const tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                                   const mat3s* iA, const mat3s* iB, vec3s armA, vec3s armB,
                                   vec3s P)
{
	if (r->movesA) {
		vec3s dwA = tbMulMV(iA, tbCross(armA, P));
		for (int k = 0; k < 3; ++k) {
			sa->v[k] -= r->mA * P.raw[k];
			sa->w[k] -= dwA.raw[k];
		}
	}
	if (r->movesB) {
		vec3s dwB = tbMulMV(iB, tbCross(armB, P));
		for (int k = 0; k < 3; ++k) {
			sb->v[k] += r->mB * P.raw[k];
			sb->w[k] += dwB.raw[k];
		}
	}
}

// The same through the record's inertias of now.
static void tbApplyLinear(const tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb, vec3s armA,
                          vec3s armB, vec3s P)
{
	tbApplyLinearTo(r, sa, sb, &r->iA, &r->iB, armA, armB, P);
}

// An angular impulse L: -L to A, +L to B (only to a side that moves). Inline in its every
// caller: the rows call it several times a joint and pass, and out of line each call also cost
// the spills of the caller's vectors around it.
static inline __attribute__((always_inline)) void
tbApplyAngular(const tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb, vec3s L)
{
	if (r->movesA) {
		vec3s dw = tbMulMV(&r->iA, L);
		for (int k = 0; k < 3; ++k) {
			sa->w[k] -= dw.raw[k];
		}
	}
	if (r->movesB) {
		vec3s dw = tbMulMV(&r->iB, L);
		for (int k = 0; k < 3; ++k) {
			sb->w[k] += dw.raw[k];
		}
	}
}

// 1 / (J M^-1 J^T) of a linear row along u with arms armA, armB.
static float tbLinearRowMass(const tbJointRecord* r, vec3s armA, vec3s armB, vec3s u)
{
	vec3s ca = glms_vec3_cross(armA, u), cb = glms_vec3_cross(armB, u);
	float k = r->mA + r->mB + glms_vec3_dot(ca, tbMat3MulV(r->iA, ca)) +
	          glms_vec3_dot(cb, tbMat3MulV(r->iB, cb));
	return k > 0.0f ? 1.0f / k : 0.0f;
}

static float tbAngularRowMass(const tbJointRecord* r, vec3s u)
{
	float k = glms_vec3_dot(u, tbMat3MulV(r->iA, u)) + glms_vec3_dot(u, tbMat3MulV(r->iB, u));
	return k > 0.0f ? 1.0f / k : 0.0f;
}

// The relative velocity of B's anchor and A's coincident point along u.
static float tbLinearSpeed(const tbSolverBody* sa, const tbSolverBody* sb, vec3s armA, vec3s armB,
                           vec3s u)
{
	vec3s vA = glms_vec3_add(tbGetV(sa), glms_vec3_cross(tbGetW(sa), armA));
	vec3s vB = glms_vec3_add(tbGetV(sb), glms_vec3_cross(tbGetW(sb), armB));
	return glms_vec3_dot(u, glms_vec3_sub(vB, vA));
}

// A symmetric 3 x 3 matrix by its six entries.
typedef struct tbSym3
{
	float xx, xy, xz, yy, yz, zz;
} tbSym3;

// k += [r]x^T I [r]x (= -[r]x I [r]x, I symmetric): entry (i, j) is c_i . I c_j with c_j = r x e_j,
// the columns of [r]x, written out.
static inline void tbAddArmTerm(tbSym3* k, vec3s r, const mat3s* I)
{
	float x = r.x, y = r.y, z = r.z;
	float i00 = I->col[0].x, i01 = I->col[1].x, i02 = I->col[2].x;
	float i11 = I->col[1].y, i12 = I->col[2].y, i22 = I->col[2].z;
	// I c0, I c1, I c2 with c0 = (0, z, -y), c1 = (-z, 0, x), c2 = (y, -x, 0).
	float a1 = i11 * z - i12 * y, a2 = i12 * z - i22 * y; // (I c0).x is not needed
	float b0 = i02 * x - i00 * z, b1 = i12 * x - i01 * z, b2 = i22 * x - i02 * z;
	float c0 = i00 * y - i01 * x, c1 = i01 * y - i11 * x, c2 = i02 * y - i12 * x;
	k->xx += z * a1 - y * a2;
	k->xy += z * b1 - y * b2;
	k->xz += z * c1 - y * c2;
	k->yy += x * b2 - z * b0;
	k->yz += x * c2 - z * c0;
	k->zz += y * c0 - x * c1;
}

// K = (mA + mB) 1 - [armA]x IA [armA]x - [armB]x IB [armB]x: the point constraint's mass matrix.
static inline tbSym3 tbPointMassOf(float mA, float mB, const mat3s* iA, const mat3s* iB, vec3s armA,
                                   vec3s armB)
{
	float m = mA + mB;
	tbSym3 k = {m, 0.0f, 0.0f, m, 0.0f, m};
	if (mA > 0.0f) {
		tbAddArmTerm(&k, armA, iA);
	}
	if (mB > 0.0f) {
		tbAddArmTerm(&k, armB, iB);
	}
	return k;
}

// Keeps a grouped joint's point mass matrix of now, made by its limit rows at the anchors
// tbKeepNow kept, for its group's soft point rows in the same pass (the same inputs: the same
// bits). Nothing where no row made it.
static inline void tbKeepPointMass(tbJointRecord* r, const tbSym3* K, bool made)
{
	if (made && r->component >= 0) {
		float* m = r->more->nowMass;
		m[0] = K->xx;
		m[1] = K->xy;
		m[2] = K->xz;
		m[3] = K->yy;
		m[4] = K->yz;
		m[5] = K->zz;
		r->more->nowMassFresh = true;
	}
}

// K^-1 b by the adjugate of the symmetric K; zero where K is singular.
static inline vec3s tbSym3Solve(tbSym3 k, vec3s b)
{
	float a00 = k.yy * k.zz - k.yz * k.yz;
	float a01 = k.xz * k.yz - k.xy * k.zz;
	float a02 = k.xy * k.yz - k.xz * k.yy;
	float det = k.xx * a00 + k.xy * a01 + k.xz * a02;
	if (det == 0.0f || !isfinite(det)) {
		return tbV3(0.0f, 0.0f, 0.0f);
	}
	float a11 = k.xx * k.zz - k.xz * k.xz;
	float a12 = k.xy * k.xz - k.xx * k.yz;
	float a22 = k.xx * k.yy - k.xy * k.xy;
	float inv = 1.0f / det;
	return tbV3(inv * (a00 * b.x + a01 * b.y + a02 * b.z),
	            inv * (a01 * b.x + a11 * b.y + a12 * b.z),
	            inv * (a02 * b.x + a12 * b.y + a22 * b.z));
}

// A one-sided limit row's bias and soft coefficients, like a contact's: while the coordinate is
// inside (C > 0) the row is speculative, closing the gap in this substep and no more (bias C / h,
// rigid); past it, soft in the biased pass (biasRate C) and rigid without bias in the relax pass.
static inline void tbLimitSoftness(float C, float invH, bool useBias, float biasRate,
                                   float massScale, float impulseScale, float* bias, float* ms,
                                   float* is)
{
	*bias = 0.0f;
	*ms = 1.0f;
	*is = 0.0f;
	if (C > 0.0f) {
		*bias = C * invH;
	} else if (useBias) {
		*bias = biasRate * C;
		*ms = massScale;
		*is = impulseScale;
	}
}

// The soft coefficients of the rigid rows for this pass.
static void tbRigidSoftness(const tbJointRecord* r, bool useBias, float* biasRate, float* massScale,
                            float* impulseScale)
{
	if (useBias) {
		*biasRate = r->biasRate;
		*massScale = r->massScale;
		*impulseScale = r->impulseScale;
	} else {
		*biasRate = 0.0f;
		*massScale = 1.0f;
		*impulseScale = 0.0f;
	}
}

// What the anchors' circular paths add to their gap over the coming substep beyond the straight
// line the velocities give: h/2 (wB x (wB x rB) - wA x (wA x rA)) per unit h. The biased pass
// aims the velocities so that the gap after the substep, arc included, is what the soft bias
// wants: a chain whipping at the bottom of its swing turns its links 0.2 rad in a substep.
static vec3s tbArcCorrection(const tbJointRecord* r, const tbSolverBody* sa, const tbSolverBody* sb,
                             vec3s rA, vec3s rB)
{
	vec3s wA = tbGetW(sa), wB = tbGetW(sb);
	vec3s aA = glms_vec3_cross(wA, glms_vec3_cross(wA, rA));
	vec3s aB = glms_vec3_cross(wB, glms_vec3_cross(wB, rB));
	// The expansion holds while a body turns little in a substep (under TB_ARC_TURN rad); a link
	// whipped around faster by a heavy load gets no correction (the term, quadratic in w, would
	// feed on itself).
	float turn2 = r->h * r->h * fmaxf(glms_vec3_dot(wA, wA), glms_vec3_dot(wB, wB));
	if (turn2 > TB_ARC_TURN * TB_ARC_TURN) {
		return tbV3(0.0f, 0.0f, 0.0f);
	}
	return glms_vec3_scale(glms_vec3_sub(aB, aA), 0.5f * r->h);
}

// The point constraint (ball, hinge, fixed): B's anchor on A's, three rows as one block, with
// the anchors rA, rB and their gap d of now, the inverse inertias of now and K their mass matrix
// (tbPointMassOf).
static inline void tbSolvePointK(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                                 const mat3s* iA, const mat3s* iB, vec3s rA, vec3s rB, vec3s d,
                                 bool useBias, bool arc, tbSym3 K)
{
	tbJoint* j = r->joint;
	float biasRate, massScale, impulseScale;
	tbRigidSoftness(r, useBias, &biasRate, &massScale, &impulseScale);
	vec3s wA = tbGetW(sa), wB = tbGetW(sb);
	vec3s cA = tbCross(wA, rA), cB = tbCross(wB, rB);
	vec3s target;
	for (int k = 0; k < 3; ++k) {
		target.raw[k] = (sb->v[k] + cB.raw[k]) - (sa->v[k] + cA.raw[k]) + biasRate * d.raw[k];
	}
	if (useBias && arc) {
		target = glms_vec3_add(target, tbArcCorrection(r, sa, sb, rA, rB));
	}
	vec3s x = tbSym3Solve(K, target);
	vec3s P;
	for (int k = 0; k < 3; ++k) {
		P.raw[k] = -massScale * x.raw[k] - impulseScale * j->linearImpulse.raw[k];
		j->linearImpulse.raw[k] += P.raw[k];
	}
	tbApplyLinearTo(r, sa, sb, iA, iB, rA, rB, P);
}

static inline void tbSolvePointWith(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                                    const mat3s* iA, const mat3s* iB, vec3s rA, vec3s rB, vec3s d,
                                    bool useBias)
{
	tbSolvePointK(r, sa, sb, iA, iB, rA, rB, d, useBias, true,
	              tbPointMassOf(r->mA, r->mB, iA, iB, rA, rB));
}

static void tbSolvePoint(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb, const tbJointNow* g,
                         bool useBias)
{
	tbSolvePointWith(r, sa, sb, &r->iA, &r->iB, g->rA, g->rB, g->d, useBias);
}

// A ball joint outside a group, its only rows the point's: the anchors from the bodies' turns of
// this pass (tbJointBodyTurn) and the inertias read where they lie, nothing else of tbJointNowAt.
static void tbSolveBall(tbJointRecord* r, tbSolverBody* states, bool useBias)
{
	tbSolverBody* sa = states + r->indexA;
	tbSolverBody* sb = states + r->indexB;
	vec3s rA = tbMulMV(r->turns + r->indexA, r->rA);
	vec3s rB = tbMulMV(r->turns + r->indexB, r->rB);
	// d = d0 + (dpB + rB - rB0) - (dpA + rA - rA0), as tbJointGeometryTurned
	vec3s d;
	for (int k = 0; k < 3; ++k) {
		d.raw[k] = r->d0.raw[k] + ((sb->dp[k] + (rB.raw[k] - r->rB.raw[k])) -
		                           (sa->dp[k] + (rA.raw[k] - r->rA.raw[k])));
	}
	tbSolvePointWith(r, sa, sb, r->turnedInertias + r->indexA, r->turnedInertias + r->indexB, rA,
	                 rB, d, useBias);
}

bool tbBallBatchable(const tbJointRecord* r)
{
	return r->plainBall && r->component < 0;
}

// The angular rows that keep B's frame on A's: all three (fixed, slider), or the two that keep
// the hinge axes together. The small-angle error of B's frame against A's is
// e = 1/2 sum_k (fA_k x fB_k).
static void tbSolveAngular(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                           const tbJointNow* g, bool useBias, bool hingeOnly)
{
	tbJoint* j = r->joint;
	float biasRate, massScale, impulseScale;
	tbRigidSoftness(r, useBias, &biasRate, &massScale, &impulseScale);
	vec3s dw = glms_vec3_sub(tbGetW(sb), tbGetW(sa));
	if (hingeOnly) {
		// The hinge's axes, or the wheel's axles (refA steered).
		bool wheel = j->type == tb_wheelJoint;
		vec3s axisA = wheel ? g->refA : g->axisA, axisB = wheel ? g->refB : g->axisB;
		vec3s u1, u2;
		tbPerpendiculars(axisA, &u1, &u2);
		vec3s e = glms_vec3_cross(axisA, axisB);
		mat3s K = tbMat3Add(r->iA, r->iB);
		vec3s Ku1 = tbMat3MulV(K, u1), Ku2 = tbMat3MulV(K, u2);
		mat3s inv =
		    tbSym2Inverse(glms_vec3_dot(u1, Ku1), glms_vec3_dot(u1, Ku2), glms_vec3_dot(u2, Ku2));
		float c1 = glms_vec3_dot(u1, dw) + biasRate * glms_vec3_dot(u1, e);
		float c2 = glms_vec3_dot(u2, dw) + biasRate * glms_vec3_dot(u2, e);
		float l1 = -massScale * (inv.col[0].x * c1 + inv.col[1].x * c2);
		float l2 = -massScale * (inv.col[0].y * c1 + inv.col[1].y * c2);
		// The accumulated angular impulse is kept in world axes; its part in this plane decays
		// with the soft impulse scale.
		vec3s acc = j->angularImpulse;
		l1 -= impulseScale * glms_vec3_dot(u1, acc);
		l2 -= impulseScale * glms_vec3_dot(u2, acc);
		vec3s L = glms_vec3_add(glms_vec3_scale(u1, l1), glms_vec3_scale(u2, l2));
		j->angularImpulse = glms_vec3_add(j->angularImpulse, L);
		tbApplyAngular(r, sa, sb, L);
		return;
	}
	vec3s thirdA = glms_vec3_cross(g->axisA, g->refA), thirdB = glms_vec3_cross(g->axisB, g->refB);
	vec3s e = glms_vec3_add(
	    glms_vec3_add(glms_vec3_cross(g->axisA, g->axisB), glms_vec3_cross(g->refA, g->refB)),
	    glms_vec3_cross(thirdA, thirdB));
	e = glms_vec3_scale(e, 0.5f);
	mat3s Kinv = tbMat3Inverse(tbMat3Add(r->iA, r->iB));
	vec3s L = glms_vec3_scale(tbMat3MulV(Kinv, tbMulAdd(dw, biasRate, e)), -massScale);
	L = tbMulAdd(L, -impulseScale, j->angularImpulse);
	j->angularImpulse = glms_vec3_add(j->angularImpulse, L);
	tbApplyAngular(r, sa, sb, L);
}

// The slider's two rows across its axis: B's anchor stays on A's line.
static void tbSolveSliderLine(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                              const tbJointNow* g, bool useBias)
{
	tbJoint* j = r->joint;
	float biasRate, massScale, impulseScale;
	tbRigidSoftness(r, useBias, &biasRate, &massScale, &impulseScale);
	vec3s u[2];
	tbPerpendiculars(g->axisA, u + 0, u + 1);
	// A's arm reaches to B's anchor: the point of A that B's anchor slides over.
	vec3s armA = glms_vec3_add(g->rA, g->d);
	float k[2][2];
	vec3s ca[2], cb[2];
	for (int i = 0; i < 2; ++i) {
		ca[i] = glms_vec3_cross(armA, u[i]);
		cb[i] = glms_vec3_cross(g->rB, u[i]);
	}
	for (int i = 0; i < 2; ++i) {
		for (int m = 0; m < 2; ++m) {
			k[i][m] = (i == m ? r->mA + r->mB : (r->mA + r->mB) * glms_vec3_dot(u[i], u[m])) +
			          glms_vec3_dot(ca[i], tbMat3MulV(r->iA, ca[m])) +
			          glms_vec3_dot(cb[i], tbMat3MulV(r->iB, cb[m]));
		}
	}
	mat3s inv = tbSym2Inverse(k[0][0], k[0][1], k[1][1]);
	float c[2];
	for (int i = 0; i < 2; ++i) {
		c[i] = tbLinearSpeed(sa, sb, armA, g->rB, u[i]) + biasRate * glms_vec3_dot(u[i], g->d);
	}
	float l0 = -massScale * (inv.col[0].x * c[0] + inv.col[1].x * c[1]);
	float l1 = -massScale * (inv.col[0].y * c[0] + inv.col[1].y * c[1]);
	l0 -= impulseScale * glms_vec3_dot(u[0], j->linearImpulse);
	l1 -= impulseScale * glms_vec3_dot(u[1], j->linearImpulse);
	vec3s P = glms_vec3_add(glms_vec3_scale(u[0], l0), glms_vec3_scale(u[1], l1));
	j->linearImpulse = glms_vec3_add(j->linearImpulse, P);
	tbApplyLinear(r, sa, sb, armA, g->rB, P);
}

// One scalar row along a joint coordinate q with speed qdot: the hinge angle (about the axis) or
// the slider translation / distance (along u). Applies lambda and returns it.
typedef struct tbAxialRow
{
	bool angular;
	vec3s u;          // the axis (angular) or the direction (linear)
	vec3s armA, armB; // linear rows only
	float mass;
	float springMass; // the mass the spring's coefficients were made for (0: mass)
} tbAxialRow;

static float tbAxialSpeed(const tbAxialRow* row, const tbSolverBody* sa, const tbSolverBody* sb)
{
	if (row->angular) {
		return glms_vec3_dot(row->u, glms_vec3_sub(tbGetW(sb), tbGetW(sa)));
	}
	return tbLinearSpeed(sa, sb, row->armA, row->armB, row->u);
}

static void tbAxialApply(const tbAxialRow* row, const tbJointRecord* r, tbSolverBody* sa,
                         tbSolverBody* sb, float lambda)
{
	if (row->angular) {
		tbApplyAngular(r, sa, sb, glms_vec3_scale(row->u, lambda));
	} else {
		tbApplyLinear(r, sa, sb, row->armA, row->armB, glms_vec3_scale(row->u, lambda));
	}
}

static void tbAngularLimitRow(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                              const tbJointNow* g, tbSym3* Kpp, bool* made, vec3s u, float C,
                              float* acc, bool useBias, float invH);

// Spring, motor and limits along the joint's own coordinate q (hinge angle, slider translation,
// distance), in Box2D's order: spring, motor, then the limits, which must win. `point`: a hinge's
// geometry of now, whose anchors its point rows hold (null for the linear rows).
static void tbSolveAxial(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                         const tbAxialRow* row, float q, float rest, bool useBias, float invH,
                         bool rigid, const tbJointNow* point)
{
	tbJoint* j = r->joint;
	if (j->enableSpring && j->hertz > 0.0f) {
		// A physical spring towards `rest`, with its own softness in both passes.
		float cdot = tbAxialSpeed(row, sa, sb);
		float C = q - rest;
		float springMass = row->springMass > 0.0f ? row->springMass : row->mass;
		float lambda =
		    -r->more->springMassScale * springMass * (cdot + r->more->springBiasRate * C) -
		    r->more->springImpulseScale * j->springImpulse;
		j->springImpulse += lambda;
		tbAxialApply(row, r, sa, sb, lambda);
	}
	if (j->enableMotor && j->type != tb_wheelJoint) {
		// Drive the speed to motorSpeed with at most maxMotorForce (times the substep).
		float cdot = tbAxialSpeed(row, sa, sb) - j->motorSpeed;
		float lambda = -row->mass * cdot;
		float maxImpulse = j->maxMotorForce / invH;
		float old = j->motorImpulse;
		float next = old + lambda;
		next = next < -maxImpulse ? -maxImpulse : (next > maxImpulse ? maxImpulse : next);
		j->motorImpulse = next;
		tbAxialApply(row, r, sa, sb, next - old);
	}
	float biasRate, massScale, impulseScale;
	tbRigidSoftness(r, useBias, &biasRate, &massScale, &impulseScale);
	if (rigid) {
		// A rigid distance: q stays at rest.
		float cdot = tbAxialSpeed(row, sa, sb);
		float lambda = -massScale * row->mass * (cdot + biasRate * (q - rest)) -
		               impulseScale * j->axialImpulse;
		j->axialImpulse += lambda;
		tbAxialApply(row, r, sa, sb, lambda);
	}
	if (j->enableLimit && point != NULL) {
		// A hinge's stops turn B about the joint's anchor, which its point rows hold: each is
		// the one-sided angular row of a ball joint's limits (tbAngularLimitRow), its mass the
		// Schur complement about the anchor, with the point impulse that keeps the anchor. With
		// the mass about B's centre, the stop took a quarter of the turn of a rod hinged at its
		// end, and a soft stop under a load sagged by the inverse of that mass.
		tbSym3 Kpp;
		bool made = false;
		tbAngularLimitRow(r, sa, sb, point, &Kpp, &made, row->u, q - j->lower, &j->lowerImpulse,
		                  useBias, invH);
		tbAngularLimitRow(r, sa, sb, point, &Kpp, &made, glms_vec3_negate(row->u), j->upper - q,
		                  &j->upperImpulse, useBias, invH);
		tbKeepPointMass(r, &Kpp, made);
		return;
	}
	if (j->enableLimit) {
		// Each side is a one-sided row like a contact: speculative while q is inside (close the
		// gap in this substep, no more), soft once past it.
		for (int side = 0; side < 2; ++side) {
			float sign = side == 0 ? 1.0f : -1.0f;
			float C = side == 0 ? q - j->lower : j->upper - q;
			float* acc = side == 0 ? &j->lowerImpulse : &j->upperImpulse;
			float bias, ms, is;
			tbLimitSoftness(C, invH, useBias, biasRate, massScale, impulseScale, &bias, &ms, &is);
			float cdot = sign * tbAxialSpeed(row, sa, sb);
			float lambda = -ms * row->mass * (cdot + bias) - is * *acc;
			float next = *acc + lambda;
			next = next > 0.0f ? next : 0.0f;
			lambda = next - *acc;
			*acc = next;
			tbAxialApply(row, r, sa, sb, sign * lambda);
		}
	}
}

static bool tbHasAxial(const tbJoint* j)
{
	return j->enableLimit || j->enableMotor || (j->enableSpring && j->hertz > 0.0f);
}

// ---------------------------------------------------------------------------------------------
// The ball joint's angular rows (docs/joints.md, "Ball joint limits"): a spring and a motor on
// B's frame against a target frame on A, friction, a twist range and an elliptical swing cone.

static bool tbBallHasAngular(const tbJoint* j)
{
	return j->enableCone || j->enableLimit || (j->enableSpring && j->hertz > 0.0f) ||
	       j->enableMotor || j->maxFrictionTorque > 0.0f;
}

static tbBallAngles tbBallAnglesOf(const tbJoint* j, const tbJointNow* g)
{
	tbBallAngles a;
	vec3s bA = g->axisA, bB = g->axisB, sA = g->refA, sB = g->refB;
	vec3s uA = tbCross(bA, sA);
	float c = glms_vec3_dot(bA, bB);
	vec3s nx = tbCross(bA, bB);
	float s = glms_vec3_norm(nx);
	a.swing = tbAtan2(s, c);
	a.n = tbV3(0.0f, 0.0f, 0.0f);
	vec3s back = sB;
	if (s > 1e-6f) {
		// Rodrigues by -theta about n: v cos - (n x v) sin + n (n . v)(1 - cos).
		a.n = glms_vec3_scale(nx, 1.0f / s);
		back = tbMulAdd(tbMulAdd(glms_vec3_scale(sB, c), -s, tbCross(a.n, sB)),
		                glms_vec3_dot(a.n, sB) * (1.0f - c), a.n);
	}
	a.twist = tbAtan2(glms_vec3_dot(bA, tbCross(sA, back)), glms_vec3_dot(sA, back));
	float den = 1.0f + c;
	a.twistJ = den > 1e-3f ? glms_vec3_scale(glms_vec3_add(bA, bB), 1.0f / den) : bA;
	a.coneJ = tbV3(0.0f, 0.0f, 0.0f);
	a.coneC = 0.0f;
	if (j->enableCone && s > 1e-4f) {
		// The tilt of bB is theta along dir = cos(phi) sA + sin(phi) uA (dir = n x bA); the cone
		// is the ellipse theta_max(phi) = Q^-1/2, Q = cos^2/a1^2 + sin^2/a2^2, and
		// C = theta_max(phi) - theta >= 0. B turning by rho (relative to A) moves bB by rho x bB:
		// dtheta = rho . n and dphi = rho . (bA - cot(theta) dir), so
		// dC/dt = J . (wB - wA), J = theta_max'(phi) (bA - cot(theta) dir) - n,
		// theta_max' = -theta_max^3 sin cos (1/a2^2 - 1/a1^2). J is across bB: spinning B about
		// its own axis moves nothing (a row along bA x G, the ellipse's normal, was not, and
		// spun a light limb about its long axis).
		vec3s dir = tbCross(a.n, bA);
		float a1 = j->coneAngle1, a2 = j->coneAngle2;
		float cp = glms_vec3_dot(dir, sA), sp = glms_vec3_dot(dir, uA);
		float limit = 1.0f / sqrtf(cp * cp / (a1 * a1) + sp * sp / (a2 * a2));
		float slope = -limit * limit * limit * sp * cp * (1.0f / (a2 * a2) - 1.0f / (a1 * a1));
		vec3s along = tbMulAdd(bA, -c / s, dir);
		a.coneJ = glms_vec3_sub(glms_vec3_scale(along, slope), a.n);
		a.coneC = limit - a.swing;
	}
	return a;
}

void tbJointBallAngles(const tbJoint* j, vec3s axisA, vec3s refA, vec3s axisB, vec3s refB,
                       float* swing, float* twist)
{
	tbJointNow g;
	memset(&g, 0, sizeof g);
	g.axisA = axisA;
	g.refA = refA;
	g.axisB = axisB;
	g.refB = refB;
	tbBallAngles a = tbBallAnglesOf(j, &g);
	*swing = a.swing;
	*twist = a.twist;
}

// What the geometry of now is made from besides the record's own (tbJointNowAt): each body's
// deltas and the dtheta its turn was composed up to (which fixes the turn: tbComposeTurnMade
// moves it only when dtheta has moved past that), A's then B's, into `in`; compared as bits.
static void tbJointNowInputs(const tbJointRecord* r, const tbSolverBody* sa, const tbSolverBody* sb,
                             float* in)
{
	memcpy(in, sa->dp, 3 * sizeof(float));
	memcpy(in + 3, sa->dtheta, 3 * sizeof(float));
	memcpy(in + 6, r->turnedBy[r->indexA].raw, 3 * sizeof(float));
	memcpy(in + 9, sb->dp, 3 * sizeof(float));
	memcpy(in + 12, sb->dtheta, 3 * sizeof(float));
	memcpy(in + 15, r->turnedBy[r->indexB].raw, 3 * sizeof(float));
}

// Whether the relax pass's geometry (and angles) in the record was made from the inputs of now.
static bool tbRelaxNowHolds(const tbJointRecord* r, const tbSolverBody* sa, const tbSolverBody* sb)
{
	if (!r->more->relaxHeld) {
		return false;
	}
	float in[TB_JOINT_NOW_INPUTS];
	tbJointNowInputs(r, sa, sb, in);
	return memcmp(in, r->more->relaxInputs, sizeof in) == 0;
}

// The joint's full geometry of now for a pass, and a ball joint's angles where `angles` asks for
// them: made and held at the warm start (`warm`), read back in the biased passes while held
// (nothing moves the bodies' deltas or turns until the deltas are integrated: the same bits),
// made in the relax pass, which comes after the bodies moved. The relax pass's are kept with
// what they were made from (tbJointNowInputs): the next substep's warm start sees the bodies
// where the relax left them unless a group's projection moved them since, and where those
// inputs are the same bits it takes them as made (the same function of the same inputs).
// Returns where they are, in the joint's record, without copying them.
static const tbJointNow* tbJointNowFor(tbJointRecord* r, const tbSolverBody* sa,
                                       const tbSolverBody* sb, bool warm, bool useBias,
                                       const tbBallAngles** angles)
{
	tbJointMore* m = r->more;
	if (!warm && useBias && m->held) {
		if (angles != NULL) {
			*angles = &m->heldAngles;
		}
		return &m->heldNow;
	}
	bool relax = !warm && !useBias;
	if (warm && (angles == NULL || m->relaxAngles) && tbRelaxNowHolds(r, sa, sb)) {
		// The inertias of now are this substep's (tbJointBodyStiffen), as tbJointNowAt reads
		// them.
		if (r->mA > 0.0f) {
			r->iA = r->turnedInertias[r->indexA];
		}
		if (r->mB > 0.0f) {
			r->iB = r->turnedInertias[r->indexB];
		}
		m->held = true;
		m->relaxHeld = false;
		if (angles != NULL) {
			*angles = &m->heldAngles;
		}
		return &m->heldNow;
	}
	m->held = !relax;
	m->relaxHeld = relax;
	m->relaxAngles = relax && angles != NULL;
	if (relax) {
		tbJointNowInputs(r, sa, sb, m->relaxInputs);
	}
	tbJointNow* g = &m->heldNow;
	tbJointNowAt(r, sa, sb, true, g);
	if (angles != NULL) {
		m->heldAngles = tbBallAnglesOf(r->joint, g);
		*angles = &m->heldAngles;
	}
	return g;
}

// B's rotation away from the target frame on A (small-angle, e = 1/2 sum_k tA_k x fB_k, as the
// fixed joint's; e is B's turn from the target when small).
static vec3s tbBallTargetError(const tbJointRecord* r, const tbJointNow* g)
{
	vec3s tA = tbMulMV(r->turns + r->indexA, r->more->targetAxisA);
	vec3s rA = tbMulMV(r->turns + r->indexA, r->more->targetRefA);
	vec3s e = tbCross(tA, g->axisB);
	e = glms_vec3_add(e, tbCross(rA, g->refB));
	e = glms_vec3_add(e, tbCross(tbCross(tA, rA), tbCross(g->axisB, g->refB)));
	return glms_vec3_scale(e, 0.5f);
}

// Clamp the accumulated three-row impulse *acc + L to the ball of radius maxImpulse; returns
// the change applied.
static vec3s tbClampAngular(vec3s* acc, vec3s L, float maxImpulse)
{
	vec3s old = *acc;
	vec3s next = glms_vec3_add(old, L);
	float len = glms_vec3_norm(next);
	if (len > maxImpulse) {
		next = glms_vec3_scale(next, maxImpulse / len);
	}
	*acc = next;
	return glms_vec3_sub(next, old);
}

// One one-sided angular row of a ball joint's limits or a hinge's stops: keep C >= 0 where dC/dt
// = u . (wB - wA), speculative while inside, soft once past (tbLimitSoftness); *acc >= 0. It acts
// with the joint's point held: its angular impulse lambda u comes with the point impulse P =
// -Kpp^-1 Kpl lambda that leaves the anchors' relative velocity as it was, and its mass is the
// Schur complement 1 / (Kll - Kpl . Kpp^-1 Kpl) (Kpp the point block, tbPointMassOf; Kpl = J_point
// M^-1 J_row^T = -(rA x IA^-1 u) - (rB x IB^-1 u); Kll = u . (IA^-1 + IB^-1) u). A limb turns about
// its anchor, not its centre: solved apart, the point row gave back most of the turn the limit had
// taken and a thrown limb sank into its cone and bounced off it.
static void tbAngularLimitRow(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb,
                              const tbJointNow* g, tbSym3* Kpp, bool* made, vec3s u, float C,
                              float* acc, bool useBias, float invH)
{
	float biasRate, massScale, impulseScale;
	tbRigidSoftness(r, useBias, &biasRate, &massScale, &impulseScale);
	float bias, ms, is;
	tbLimitSoftness(C, invH, useBias, biasRate, massScale, impulseScale, &bias, &ms, &is);
	float cdot = glms_vec3_dot(u, glms_vec3_sub(tbGetW(sb), tbGetW(sa)));
	if (*acc == 0.0f && cdot + bias >= 0.0f) {
		// A limit not reached this substep and holding nothing: the row's impulse, -ms m (cdot +
		// bias) with ms and m at least zero, clamps to zero, whatever its mass.
		return;
	}
	vec3s iAu = tbMulMV(&r->iA, u), iBu = tbMulMV(&r->iB, u);
	vec3s kpl = glms_vec3_scale(glms_vec3_add(tbCross(g->rA, iAu), tbCross(g->rB, iBu)), -1.0f);
	if (!*made) {
		// The point block, the same for every limit row of this pass: made by the first row
		// that acts.
		*Kpp = tbPointMassOf(r->mA, r->mB, &r->iA, &r->iB, g->rA, g->rB);
		*made = true;
	}
	vec3s x = tbSym3Solve(*Kpp, kpl);
	float k = glms_vec3_dot(u, glms_vec3_add(iAu, iBu)) - glms_vec3_dot(kpl, x);
	float mass = k > 1e-9f * glms_vec3_dot(u, glms_vec3_add(iAu, iBu)) ? 1.0f / k : 0.0f;
	float lambda = -ms * mass * (cdot + bias) - is * *acc;
	float next = *acc + lambda > 0.0f ? *acc + lambda : 0.0f;
	lambda = next - *acc;
	*acc = next;
	tbApplyAngular(r, sa, sb, glms_vec3_scale(u, lambda));
	vec3s P = glms_vec3_scale(x, -lambda);
	r->joint->linearImpulse = glms_vec3_add(r->joint->linearImpulse, P);
	tbApplyLinear(r, sa, sb, g->rA, g->rB, P);
}

// The ball joint's whole angular impulse of the last substep (warm start, reaction torque).
static vec3s tbBallAngularImpulse(const tbJoint* j, const tbBallAngles* a)
{
	vec3s L =
	    glms_vec3_add(j->springImpulse3, glms_vec3_add(j->motorImpulse3, j->frictionImpulse3));
	L = tbMulAdd(L, j->lowerImpulse - j->upperImpulse, a->twistJ);
	return tbMulAdd(L, j->coneImpulse, a->coneJ);
}

static void tbSolveBallAngular(tbJointRecord* r, tbSolverBody* sa, tbSolverBody* sb, bool useBias,
                               float invH)
{
	tbJoint* j = r->joint;
	bool limits = j->enableLimit || j->enableCone;
	const tbBallAngles* a = NULL;
	const tbJointNow* g = tbJointNowFor(r, sa, sb, false, useBias, limits ? &a : NULL);
	tbKeepNow(r, g);
	mat3s Kinv = tbMat3Inverse(tbMat3Add(r->iA, r->iB));
	if (!tbIsFiniteMat(Kinv)) {
		return; // a body that cannot turn (both fixed rotation): nothing to drive
	}
	bool target = (j->enableSpring && j->hertz > 0.0f) || (j->enableMotor && j->motorToTarget);
	vec3s e = target ? tbBallTargetError(r, g) : tbV3(0.0f, 0.0f, 0.0f);
	if (j->enableSpring && j->hertz > 0.0f) {
		// A spring of stiffness k = (IA^-1 + IB^-1)^-1 (2 pi f)^2 on e, in both passes.
		vec3s dw = glms_vec3_sub(tbGetW(sb), tbGetW(sa));
		vec3s L = glms_vec3_scale(tbMat3MulV(Kinv, tbMulAdd(dw, r->more->springBiasRate, e)),
		                          -r->more->springMassScale);
		L = tbMulAdd(L, -r->more->springImpulseScale, j->springImpulse3);
		j->springImpulse3 = glms_vec3_add(j->springImpulse3, L);
		tbApplyAngular(r, sa, sb, L);
	}
	if (j->enableMotor) {
		vec3s dw = glms_vec3_sub(tbGetW(sb), tbGetW(sa));
		vec3s L;
		if (j->motorToTarget) {
			// A servo: the target frame held as a rigid (soft) angular constraint would be,
			// its torque bounded.
			float biasRate, massScale, impulseScale;
			tbRigidSoftness(r, useBias, &biasRate, &massScale, &impulseScale);
			L = glms_vec3_scale(tbMat3MulV(Kinv, tbMulAdd(dw, biasRate, e)), -massScale);
			L = tbMulAdd(L, -impulseScale, j->motorImpulse3);
		} else {
			vec3s goal = tbMulMV(r->turns + r->indexA, r->more->motorVelocity);
			L = glms_vec3_scale(tbMat3MulV(Kinv, glms_vec3_sub(dw, goal)), -1.0f);
		}
		tbApplyAngular(r, sa, sb, tbClampAngular(&j->motorImpulse3, L, j->maxMotorForce / invH));
	}
	if (j->maxFrictionTorque > 0.0f) {
		// Dry friction: stop the relative turn with at most maxFrictionTorque.
		vec3s dw = glms_vec3_sub(tbGetW(sb), tbGetW(sa));
		vec3s L = glms_vec3_scale(tbMat3MulV(Kinv, dw), -1.0f);
		tbApplyAngular(r, sa, sb,
		               tbClampAngular(&j->frictionImpulse3, L, j->maxFrictionTorque / invH));
	}
	if (limits) {
		tbSym3 Kpp; // the point block, made by the first row that acts
		bool made = false;
		if (j->enableLimit) {
			tbAngularLimitRow(r, sa, sb, g, &Kpp, &made, a->twistJ, a->twist - j->lower,
			                  &j->lowerImpulse, useBias, invH);
			tbAngularLimitRow(r, sa, sb, g, &Kpp, &made, glms_vec3_scale(a->twistJ, -1.0f),
			                  j->upper - a->twist, &j->upperImpulse, useBias, invH);
		}
		if (j->enableCone) {
			if (glms_vec3_dot(a->coneJ, a->coneJ) > 0.0f) {
				tbAngularLimitRow(r, sa, sb, g, &Kpp, &made, a->coneJ, a->coneC, &j->coneImpulse,
				                  useBias, invH);
			} else {
				j->coneImpulse = 0.0f;
			}
		}
		tbKeepPointMass(r, &Kpp, made);
	}
}

// The joint's whole linear impulse of the last substep and the arms it acts at: the point or
// line rows', and the slider's or distance joint's axial rows'.
static vec3s tbJointLinearImpulse(const tbJointRecord* r, const tbJointNow* g, vec3s* armA)
{
	const tbJoint* j = r->joint;
	vec3s P = j->linearImpulse;
	*armA = g->rA;
	float axial = j->springImpulse + j->motorImpulse + j->lowerImpulse - j->upperImpulse;
	if (j->type == tb_sliderJoint) {
		*armA = glms_vec3_add(g->rA, g->d);
		P = tbMulAdd(P, axial, g->axisA);
	} else if (j->type == tb_wheelJoint) {
		*armA = glms_vec3_add(g->rA, g->d);
		P = tbMulAdd(P, axial - j->motorImpulse, g->axisA);
	} else if (j->type == tb_distanceJoint) {
		float length = glms_vec3_norm(g->d);
		vec3s u = length > 1e-6f ? glms_vec3_scale(g->d, 1.0f / length) : g->axisA;
		P = tbMulAdd(P, axial + j->axialImpulse, u);
	}
	return P;
}

// The geometric stiffness of a force F pulling at the arm r from a body's centre: turning the
// body by dtheta turns the arm, and the torque r x F changes by -((F . r) 1 - r F^T) dtheta. For a
// tension along the arm (a link pulled at its ends, the case that matters) that is
// (F . r)(1 - r^ r^T): a pendulum's restoring stiffness about the two axes across the arm, none
// about the arm itself. That part is kept, as a positive semi-definite matrix, and a compression
// (F . r < 0, which would push the arm over) is dropped, as Andrews, Teichmann and Kry keep only
// what is safe to take implicitly ("Geometric stiffness for real-time constrained multibody
// dynamics", Eurographics 2017). Nothing about the arm: a thin link's tiny inertia about its
// long axis stays exactly its own, so no tension can couple into its spin.
static mat3s tbArmStiffness(vec3s r, vec3s F)
{
	float rf = glms_vec3_dot(r, F);
	float r2 = glms_vec3_dot(r, r);
	if (!(rf > 0.0f) || !(r2 > 1e-12f)) {
		return glms_mat3_zero();
	}
	return tbMat3Add(glms_mat3_scale(glms_mat3_identity(), rf),
	                 tbMat3ScaleM(tbOuter(r, r), -rf / r2));
}

// The mass and the inverse inertia of the step's start of a jointed body, from the record that
// listed it.
static float tbJointBodyMass(const tbJointRecord* records, const tbJointBody* b, mat3s* invI0)
{
	const tbJointRecord* r = records + b->record;
	*invI0 = b->side == 0 ? r->iA0 : r->iB0;
	return b->side == 0 ? r->mA : r->mB;
}

void tbJointBodyTurn(const tbJointRecord* records, const tbJointBody* b, const tbSolverBody* states,
                     mat3s* stiffness)
{
	const tbJointRecord* r = records + b->record;
	int i = b->index;
	mat3s invI0;
	float m = tbJointBodyMass(records, b, &invI0);
	tbComposeTurn(r, i, states + i);
	if (stiffness != NULL) {
		// The substep's start: the load and the stiffness are summed next (tbJointAddLoad,
		// tbJointAddStiffness), the turned inertia made from them (tbJointBodyStiffen). A body
		// that takes its whole stiffness (whole) has an infinite load from the start; a body on
		// one point joint takes none: its load starts at -inf, which its joint cannot raise.
		stiffness[i] = glms_mat3_zero();
		r->stiffened[i] = b->whole ? INFINITY : (b->onePoint ? -INFINITY : 0.0f);
		return;
	}
	r->turnedInertias[i] = m > 0.0f ? tbTurnInertia(r->turns[i], r->inertias[i]) : glms_mat3_zero();
	r->aheads[i].turnedFresh = m > 0.0f;
}

void tbJointAddLoad(const tbJointRecord* r, float* load)
{
	if (!r->hasPoint) {
		return; // its bodies' loads are infinite (tbJointBody.whole)
	}
	// The point rows' impulse of the last substep at the turned anchors, -P on A and P on B, as
	// tbJointLinearImpulse gives it for a ball, hinge or fixed joint; a compression adds nothing
	// (tbArmStiffness).
	vec3s P = r->joint->linearImpulse;
	if (r->mA > 0.0f) {
		float rf = glms_vec3_dot(tbMat3MulV(r->turns[r->indexA], r->rA), glms_vec3_scale(P, -1.0f));
		if (rf > 0.0f) {
			load[r->indexA] += rf * r->swayA;
		}
	}
	if (r->mB > 0.0f) {
		float rf = glms_vec3_dot(tbMat3MulV(r->turns[r->indexB], r->rB), P);
		if (rf > 0.0f) {
			load[r->indexB] += rf * r->swayB;
		}
	}
}

void tbJointAddStiffness(const tbJointRecord* r, const tbSolverBody* states, mat3s* stiffness,
                         const float* load)
{
	if (!(r->mA > 0.0f && tbJointLoadStiffens(r, load[r->indexA])) &&
	    !(r->mB > 0.0f && tbJointLoadStiffens(r, load[r->indexB]))) {
		return; // neither body takes any (tbJointBodyStiffen does not read their stiffness)
	}
	// The body's geometric stiffness, summed over its joints, from the impulses of the last
	// substep (warm starting's).
	const tbSolverBody* sa = states + r->indexA;
	const tbSolverBody* sb = states + r->indexB;
	bool axial = r->joint->type == tb_sliderJoint || r->joint->type == tb_distanceJoint ||
	             r->joint->type == tb_wheelJoint;
	tbJointNow g =
	    tbJointGeometryTurned(r, sa, sb, r->turns + r->indexA, r->turns + r->indexB, axial);
	vec3s armA;
	vec3s P = tbJointLinearImpulse(r, &g, &armA);
	if (r->mA > 0.0f) {
		stiffness[r->indexA] =
		    tbMat3Add(stiffness[r->indexA], tbArmStiffness(armA, glms_vec3_scale(P, -1.0f)));
	}
	if (r->mB > 0.0f) {
		stiffness[r->indexB] = tbMat3Add(stiffness[r->indexB], tbArmStiffness(g.rB, P));
	}
}

void tbJointBodyStiffen(const tbJointRecord* records, const tbJointBody* b, const mat3s* stiffness)
{
	const tbJointRecord* r = records + b->record;
	int i = b->index;
	mat3s invI;
	float m = tbJointBodyMass(records, b, &invI);
	if (m <= 0.0f) {
		// A side that cannot move has no inertia to turn.
		r->turnedInertias[i] = glms_mat3_zero();
		r->stiffened[i] = 0.0f;
		return;
	}
	// A light body pulled hard at its arms swings about them like a pendulum of frequency
	// omega, omega^2 = k / I (k the stiffness above with F = P / h). A link of a chain carrying a
	// load is pulled at both ends, omega^2 = T l / I across it (T the tension, l its length): a
	// heavy load on light links gives omega h beyond the symplectic step's limit of 2, and the
	// links whirled the chain apart in a few steps (the velocity rows are solved exactly; the
	// instability is in the step). Taking the stiffness implicitly over the substep (backward
	// Euler on it: I + h^2 K) bounds omega h. Only what is needed is taken: with
	// rho = h^2 tr(I^-1 K) (the sum of (omega h)^2 over the directions), s = max(0, 1 - 1/rho) of
	// h^2 K is added, so that omega h stays at most 1 (rho / (1 + s rho)) and a body that is
	// stable as it is (rho <= 1: the links of an unloaded chain) keeps its inertia exactly. With F
	// = P / h, h^2 K = h K(P). Kept in the step's starting axes, as the inertia it stiffens, and
	// turned with the body for every pass (tbJointBodyTurn): K pulled back by the body's turn so
	// far. rho is the same in either axes: tr(I^-1 R^T K R) = tr(R I^-1 R^T K). A body held by one
	// point only (ball, hinge, fixed) turns about that point, where the joint's force has no arm:
	// its geometric stiffness about the point is zero, and there is no swing to bound. Measured
	// about the centre instead, a pendulum's bob of small spin inertia read as a stiff link at the
	// bottom of a large swing, and the stiffening took its arc's correction away
	// (tbSolveJointGroup).
	// Where its turn has not been composed since its turned inertia was made from the same
	// inertia (the group's projection moved nothing), that is the product to the bit.
	tbAheadTurn* made = r->aheads + i;
	mat3s turned = made->turnedFresh && memcmp(r->inertias + i, &invI, sizeof invI) == 0
	                   ? r->turnedInertias[i]
	                   : tbTurnInertia(r->turns[i], invI);
	made->turnedFresh = true; // turnedInertias and inertias are written together below
	if (b->onePoint || !tbJointLoadStiffens(r, r->stiffened[i])) {
		// rho is at most half of 1 (its load, tbJointAddLoad), or zero: none taken.
		r->inertias[i] = invI;
		r->turnedInertias[i] = turned;
		r->stiffened[i] = 0.0f;
		return;
	}
	float rho = 0.0f;
	for (int c = 0; c < 3; ++c) {
		rho += glms_vec3_dot(turned.col[c], stiffness[i].col[c]); // both symmetric
	}
	rho *= r->h;
	float s = rho > 1.0f ? 1.0f - 1.0f / rho : 0.0f;
	if (s > 0.0f) {
		mat3s hK =
		    tbMat3ScaleM(tbTurnInertia(glms_mat3_transpose(r->turns[i]), stiffness[i]), r->h);
		mat3s stiff = tbMat3Inverse(tbMat3MulAdd(tbMat3Inverse(invI), s, hK));
		if (tbIsFiniteMat(stiff) && tbMat3Det(stiff) > 0.0f) {
			invI = stiff;
			turned = tbTurnInertia(r->turns[i], invI);
		} else {
			s = 0.0f;
		}
	}
	r->inertias[i] = invI;
	r->turnedInertias[i] = turned;
	r->stiffened[i] = s;
}

tbJointKey tbJointKeyOf(const tbJointRecord* r)
{
	return (tbJointKey){.indexA = r->indexA,
	                    .indexB = r->indexB,
	                    .component = r->component,
	                    .movesA = r->movesA,
	                    .movesB = r->movesB,
	                    .hasPoint = r->hasPoint,
	                    .plainBall = r->plainBall,
	                    .isBall = r->isBall,
	                    .groupOpen = r->groupOpen};
}

int tbListJointBodies(tbJointRecord* records, const tbJointKey* keys, int jointCount,
                      unsigned char* seen, tbJointBody* list)
{
	// seen[b]: bit 0 listed, bit 1 more than one joint, bit 2 a joint that is not a ball joint,
	// bit 3 a joint with no point rows (slider, wheel, distance).
	int count = 0;
	for (int k = 0; k < jointCount; ++k) {
		// spinFlow is false from tbPrepareJoint; only the loop below sets it.
		int bodies[2] = {keys[k].indexA, keys[k].indexB};
		unsigned char other =
		    (unsigned char)((keys[k].isBall ? 0 : 4) | (keys[k].hasPoint ? 0 : 8));
		for (int side = 0; side < 2; ++side) {
			if (seen[bodies[side]] == 0) {
				seen[bodies[side]] = (unsigned char)(1 | other);
				list[count].index = bodies[side];
				list[count].record = k;
				list[count].side = side;
				++count;
			} else {
				seen[bodies[side]] |= (unsigned char)(2 | other);
			}
		}
	}
	for (int k = 0; k < count; ++k) {
		tbJointBody* b = list + k;
		const tbJointRecord* r = records + b->record;
		unsigned char marks = seen[b->index];
		bool moves = (b->side == 0 ? r->mA : r->mB) > 0.0f;
		b->onePoint = (marks & 2) == 0 && r->hasPoint;
		b->whole = (marks & 8) != 0; // and a batch's ball joint (the solver marks those)
		// The gyroscopic term for a body on one ball joint only (see tbJointBodyGyroFlow).
		b->gyro = moves && (marks & 4) == 0 && (marks & 2) == 0 ? 1 : 0;
		records[b->record].spinFlow = records[b->record].spinFlow || b->gyro != 0;
		seen[b->index] = 0;
	}
	return count;
}

void tbSolveJoint(tbJointRecord* record, tbSolverBody* states, float invH, bool useBias)
{
	if (record->joint->type == tb_ballJoint) {
		if (tbBallHasAngular(record->joint)) {
			tbSolveBallAngular(record, states + record->indexA, states + record->indexB, useBias,
			                   invH);
		}
		if (record->component < 0) {
			tbSolveBall(record, states, useBias);
		}
		return; // in a group its point rows are solved with the group
	}
	tbSolverBody* sa = states + record->indexA;
	tbSolverBody* sb = states + record->indexB;
	tbJointRecord* r = record;
	tbJoint* j = r->joint;
	const tbJointNow* g = tbJointNowFor(r, sa, sb, false, useBias, NULL);
	tbKeepNow(r, g);
	switch (j->type) {
	case tb_ballJoint:
		if (r->component < 0) {
			tbSolvePoint(r, sa, sb, g, useBias);
		}
		break;
	case tb_hingeJoint:
		if (tbHasAxial(j)) {
			tbAxialRow row = {true, g->axisA, g->rA, g->rB, tbAngularRowMass(r, g->axisA), 0.0f};
			tbSolveAxial(r, sa, sb, &row, g->angle, 0.0f, useBias, invH, false, g);
		}
		tbSolveAngular(r, sa, sb, g, useBias, true);
		if (r->component < 0) {
			tbSolvePoint(r, sa, sb, g, useBias);
		}
		break;
	case tb_sliderJoint: {
		if (tbHasAxial(j)) {
			vec3s armA = glms_vec3_add(g->rA, g->d);
			tbAxialRow row = {
			    false, g->axisA, armA, g->rB, tbLinearRowMass(r, armA, g->rB, g->axisA), 0.0f};
			tbSolveAxial(r, sa, sb, &row, glms_vec3_dot(g->axisA, g->d), 0.0f, useBias, invH, false,
			             NULL);
		}
		tbSolveAngular(r, sa, sb, g, useBias, false);
		tbSolveSliderLine(r, sa, sb, g, useBias);
		break;
	}
	case tb_wheelJoint: {
		// Suspension spring and limits along A's axis (the slider's row), the motor about the
		// steered axle, the axles kept together, the wheel's centre on A's line.
		vec3s armA = glms_vec3_add(g->rA, g->d);
		if (j->enableLimit || (j->enableSpring && j->hertz > 0.0f)) {
			tbAxialRow row = {false,
			                  g->axisA,
			                  armA,
			                  g->rB,
			                  tbLinearRowMass(r, armA, g->rB, g->axisA),
			                  r->more->wheelSpringMass};
			tbSolveAxial(r, sa, sb, &row, glms_vec3_dot(g->axisA, g->d), 0.0f, useBias, invH, false,
			             NULL);
		}
		if (j->enableMotor) {
			float cdot =
			    glms_vec3_dot(g->refA, glms_vec3_sub(tbGetW(sb), tbGetW(sa))) - j->motorSpeed;
			float lambda = -tbAngularRowMass(r, g->refA) * cdot;
			float maxImpulse = j->maxMotorForce / invH;
			float old = j->motorImpulse;
			float next = old + lambda;
			next = next < -maxImpulse ? -maxImpulse : (next > maxImpulse ? maxImpulse : next);
			j->motorImpulse = next;
			tbApplyAngular(r, sa, sb, glms_vec3_scale(g->refA, next - old));
		}
		tbSolveAngular(r, sa, sb, g, useBias, true);
		tbSolveSliderLine(r, sa, sb, g, useBias);
		break;
	}
	case tb_fixedJoint:
		tbSolveAngular(r, sa, sb, g, useBias, false);
		if (r->component < 0) {
			tbSolvePoint(r, sa, sb, g, useBias);
		}
		break;
	case tb_distanceJoint: {
		float length = glms_vec3_norm(g->d);
		vec3s u = length > 1e-6f ? glms_vec3_scale(g->d, 1.0f / length) : g->axisA;
		tbAxialRow row = {false, u, g->rA, g->rB, tbLinearRowMass(r, g->rA, g->rB, u), 0.0f};
		// Rigid unless it is a spring or a range.
		bool rigid = !(j->enableSpring && j->hertz > 0.0f) && !j->enableLimit;
		tbSolveAxial(r, sa, sb, &row, length, j->length, useBias, invH, rigid, NULL);
		break;
	}
	default:
		break;
	}
}

void tbWarmStartJoint(tbJointRecord* record, tbSolverBody* states)
{
	tbSolverBody* sa = states + record->indexA;
	tbSolverBody* sb = states + record->indexB;
	tbJointRecord* r = record;
	tbJoint* j = r->joint;
	if (j->type == tb_ballJoint) {
		// Its point rows' impulse, at the anchors turned by this pass's turns (those of its
		// geometry where it has angular rows, which makes them the same way), then theirs.
		const tbBallAngles* a = NULL;
		const tbJointNow* g = NULL;
		if (tbBallHasAngular(j)) {
			g = tbJointNowFor(r, sa, sb, true, false, &a); // held: in the record
		}
		vec3s rA = g != NULL ? g->rA : tbMulMV(r->turns + r->indexA, r->rA);
		vec3s rB = g != NULL ? g->rB : tbMulMV(r->turns + r->indexB, r->rB);
		tbApplyLinearTo(r, sa, sb, r->turnedInertias + r->indexA, r->turnedInertias + r->indexB, rA,
		                rB, j->linearImpulse);
		if (g != NULL) {
			tbApplyAngular(r, sa, sb, tbBallAngularImpulse(j, a));
		}
		return;
	}
	const tbJointNow* g = tbJointNowFor(r, sa, sb, true, false, NULL); // held
	if (j->type == tb_wheelJoint) {
		// As the hinge's below, about the steered axle; then the suspension's rows along A's
		// axis (the slider's arm) and the motor about the axle.
		vec3s armA = glms_vec3_add(g->rA, g->d);
		j->angularImpulse =
		    tbMulAdd(j->angularImpulse, -glms_vec3_dot(g->refA, j->angularImpulse), g->refA);
		float suspension = j->springImpulse + j->lowerImpulse - j->upperImpulse;
		tbApplyLinear(r, sa, sb, armA, g->rB, tbMulAdd(j->linearImpulse, suspension, g->axisA));
		tbApplyAngular(r, sa, sb, tbMulAdd(j->angularImpulse, j->motorImpulse, g->refA));
		return;
	}
	vec3s armA = j->type == tb_sliderJoint ? glms_vec3_add(g->rA, g->d) : g->rA;
	if (j->type == tb_hingeJoint) {
		// The hinge's angular rows act across its axis only; the accumulated impulse is kept in
		// world axes, and as the axis turns part of it would point along the axis and spin the
		// wheel on every substep (a yawing car's wheels gained 20 kJ in 10 s). Drop that part.
		j->angularImpulse =
		    tbMulAdd(j->angularImpulse, -glms_vec3_dot(g->axisA, j->angularImpulse), g->axisA);
	}
	tbApplyLinear(r, sa, sb, armA, g->rB, j->linearImpulse);
	tbApplyAngular(r, sa, sb, j->angularImpulse);
	float axial = j->springImpulse + j->motorImpulse + j->lowerImpulse - j->upperImpulse;
	if (j->type == tb_hingeJoint) {
		tbApplyAngular(r, sa, sb, glms_vec3_scale(g->axisA, axial));
	} else if (j->type == tb_sliderJoint) {
		tbApplyLinear(r, sa, sb, armA, g->rB, glms_vec3_scale(g->axisA, axial));
	} else if (j->type == tb_distanceJoint) {
		float length = glms_vec3_norm(g->d);
		vec3s u = length > 1e-6f ? glms_vec3_scale(g->d, 1.0f / length) : g->axisA;
		tbApplyLinear(r, sa, sb, g->rA, g->rB, glms_vec3_scale(u, axial + j->axialImpulse));
	}
}

void tbFinishJoint(tbJointRecord* r, const tbSolverBody* states, const mat3s* ends, float h)
{
	tbJoint* j = r->joint;
	float invH = 1.0f / h;
	if (r->plainBall) {
		// Its point rows' reaction only: its swing and twist are read from its bodies' frames
		// when asked for (tbJointBallAngles), nothing in the step needs them.
		j->speed = 0.0f;
		j->force = glms_vec3_scale(j->linearImpulse, invH);
		j->torque = glms_vec3_scale(j->angularImpulse, invH);
		return;
	}
	const tbSolverBody* sa = states + r->indexA;
	const tbSolverBody* sb = states + r->indexB;
	// The geometry at the step's end: the last relax pass's where the bodies have not moved
	// since and their turns at the end are the turns it was made with (tbJointNowFor: the same
	// inputs, the same bits), else made here.
	const tbJointMore* m = r->more;
	bool kept = m->relaxHeld &&
	            memcmp(ends + r->indexA, r->turns + r->indexA, sizeof(mat3s)) == 0 &&
	            memcmp(ends + r->indexB, r->turns + r->indexB, sizeof(mat3s)) == 0 &&
	            tbRelaxNowHolds(r, sa, sb);
	tbJointNow g = kept
	                   ? m->heldNow
	                   : tbJointGeometryTurned(r, sa, sb, ends + r->indexA, ends + r->indexB, true);
	vec3s dw = glms_vec3_sub(tbGetW(sb), tbGetW(sa));
	vec3s armA =
	    j->type == tb_sliderJoint || j->type == tb_wheelJoint ? glms_vec3_add(g.rA, g.d) : g.rA;
	float axial = j->springImpulse + j->motorImpulse + j->lowerImpulse - j->upperImpulse;
	vec3s force = glms_vec3_scale(j->linearImpulse, invH);
	vec3s torque = glms_vec3_scale(j->angularImpulse, invH);
	switch (j->type) {
	case tb_hingeJoint:
		j->angle = g.angle;
		j->speed = glms_vec3_dot(g.axisA, dw);
		torque = tbMulAdd(torque, axial * invH, g.axisA);
		break;
	case tb_sliderJoint:
		j->angle = glms_vec3_dot(g.axisA, g.d);
		j->speed = tbLinearSpeed(sa, sb, armA, g.rB, g.axisA);
		force = tbMulAdd(force, axial * invH, g.axisA);
		break;
	case tb_distanceJoint: {
		float length = glms_vec3_norm(g.d);
		vec3s u = length > 1e-6f ? glms_vec3_scale(g.d, 1.0f / length) : g.axisA;
		j->angle = length;
		j->speed = tbLinearSpeed(sa, sb, g.rA, g.rB, u);
		force = tbMulAdd(force, (axial + j->axialImpulse) * invH, u);
		break;
	}
	case tb_wheelJoint:
		j->angle = glms_vec3_dot(g.axisA, g.d);
		j->speed = tbLinearSpeed(sa, sb, armA, g.rB, g.axisA);
		force = tbMulAdd(force, (axial - j->motorImpulse) * invH, g.axisA);
		torque = tbMulAdd(torque, j->motorImpulse * invH, g.refA);
		break;
	case tb_ballJoint: {
		// With angular rows (the plain ball joint returned above).
		tbBallAngles a = kept && m->relaxAngles ? m->heldAngles : tbBallAnglesOf(j, &g);
		j->speed = 0.0f;
		torque = glms_vec3_scale(tbBallAngularImpulse(j, &a), invH);
		break;
	}
	default:
		j->angle = 0.0f;
		j->speed = 0.0f;
		break;
	}
	j->force = force;
	j->torque = torque;
}

// ---------------------------------------------------------------------------------------------
// The point rows of a group of joints solved together. Gauss-Seidel on a chain carrying a heavy
// load converges at a rate set by the mass ratio: a 200 kg box on eight 0.2 kg links tore the
// chain apart within two seconds. The point rows of every joint of the group are one linear
// system A lambda = -(Cdot + bias C), A = J M^-1 J^T, with a 3 x 3 block for each pair of joints
// that share a moving body (Baraff, "Linear-time dynamics using Lagrange multipliers", 1996,
// solves the same system in linear time for trees; here a Cholesky factorization by 3 x 3 blocks
// that keeps to A's blocks and the fill its elimination order leaves, none for a tree).

size_t tbJointGroupWorkBytes(int count)
{
	size_t n = 3u * (size_t)count;
	return (n * n + 2u * n) * sizeof(float);
}

static int tbRoot(int* parent, int i)
{
	int guard = 0;
	while (parent[i] != i && guard++ < (1 << 30)) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

int tbGroupJoints(tbJointKey* keys, int jointCount, int bodyCount, int staticBody, int* parent,
                  int* rootGroup, int* order, int* groupStart)
{
	for (int i = 0; i <= bodyCount; ++i) {
		parent[i] = i;
		rootGroup[i] = -1;
	}
	// Bodies joined by point joints, through moving bodies only (the static body joins nothing).
	for (int k = 0; k < jointCount; ++k) {
		const tbJointKey* r = keys + k;
		if (!r->hasPoint || r->indexA == staticBody || r->indexB == staticBody) {
			continue;
		}
		int a = tbRoot(parent, r->indexA), b = tbRoot(parent, r->indexB);
		if (a != b) {
			parent[a < b ? b : a] = a < b ? a : b;
		}
	}
	// Each group is named by the root of its moving body, numbered as its first joint comes;
	// counted, then placed in joint order (a counting sort: linear in the joints).
	int groups = 0;
	for (int k = 0; k < jointCount; ++k) {
		tbJointKey* r = keys + k;
		r->component = -1;
		if (!r->hasPoint) {
			continue;
		}
		int root = tbRoot(parent, r->indexA != staticBody ? r->indexA : r->indexB);
		if (rootGroup[root] < 0) {
			rootGroup[root] = groups;
			groupStart[groups++] = 0;
		}
		r->component = rootGroup[root];
		groupStart[r->component] += 1;
	}
	int at = 0;
	for (int g = 0; g < groups; ++g) {
		int count = groupStart[g];
		groupStart[g] = at;
		at += count;
	}
	groupStart[groups] = at;
	// Placing moves each group's start to its end, the next one's start: shifted back after.
	for (int k = 0; k < jointCount; ++k) {
		if (keys[k].component >= 0) {
			order[groupStart[keys[k].component]++] = k;
		}
	}
	for (int g = groups; g > 0; --g) {
		groupStart[g] = groupStart[g - 1];
	}
	groupStart[0] = 0;
	// A group whose bodies a joint outside it (no point rows) also holds is marked open.
	for (int k = 0; k < jointCount; ++k) {
		keys[k].groupOpen = false;
	}
	for (int k = 0; k < jointCount; ++k) {
		const tbJointKey* r = keys + k;
		int sides[2] = {r->indexA, r->indexB};
		for (int side = 0; side < 2 && !r->hasPoint; ++side) {
			int g = sides[side] != staticBody ? rootGroup[tbRoot(parent, sides[side])] : -1;
			for (int i = g >= 0 ? groupStart[g] : 0; g >= 0 && i < groupStart[g + 1]; ++i) {
				keys[order[i]].groupOpen = true;
			}
		}
	}
	// A group too large for the direct solve goes back to one joint at a time.
	for (int g = 0; g < groups; ++g) {
		if (groupStart[g + 1] - groupStart[g] > TB_MAX_DIRECT_JOINTS) {
			for (int i = groupStart[g]; i < groupStart[g + 1]; ++i) {
				keys[order[i]].component = -1;
			}
		}
	}
	return groups;
}

// Whether joints a and b share a body other than the static one (a block of A between them).
static bool tbJointsShare(const tbJointRecord* a, const tbJointRecord* b)
{
	bool sharesA = a->indexA != a->staticBody && (a->indexA == b->indexA || a->indexA == b->indexB);
	bool sharesB = a->indexB != a->staticBody && (a->indexB == b->indexA || a->indexB == b->indexB);
	return sharesA || sharesB;
}

// Joint indices of a group as bits of a 64-bit mask: the bits below k.
_Static_assert(TB_MAX_DIRECT_JOINTS <= 64, "a group's joints are bits of a uint64_t");
static inline uint64_t tbBitsBelow(int k)
{
	return k >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1u);
}

// The set bits of m (a SWAR count: the builtin is a library call without a popcount
// instruction in the target).
static inline int tbBitCount(uint64_t m)
{
	m = m - ((m >> 1) & 0x5555555555555555u);
	m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (int)((m * 0x0101010101010101u) >> 56);
}

void tbOrderJointGroup(tbJointRecord* records, int* joints, int count)
{
	TB_ASSERT(count <= TB_MAX_DIRECT_JOINTS);
	// The joints' graph (an edge where two share a moving body, a symmetric relation), a bit per
	// joint; kept as it is (shares) for A's blocks below, the elimination filling in adj.
	uint64_t adj[TB_MAX_DIRECT_JOINTS], shares[TB_MAX_DIRECT_JOINTS];
	for (int i = 0; i < count; ++i) {
		adj[i] = 0u;
		for (int j = 0; j < i; ++j) {
			if (tbJointsShare(records + joints[i], records + joints[j])) {
				adj[i] |= (uint64_t)1 << j;
				adj[j] |= (uint64_t)1 << i;
			}
		}
	}
	memcpy(shares, adj, (size_t)count * sizeof *adj);
	// The order is a function of this graph alone (and of the joints' input order, its ties'
	// rule): a group whose joints come in the same order with the same graph as in the last step
	// (a ragdoll, a chain, step after step) takes the order it had, kept in its joints. A hash
	// names the graph; should two graphs share it, the order taken is still a permutation of
	// the group, and any order factors A exactly (the fill below is made for it), only maybe
	// with more fill.
	int picked[TB_MAX_DIRECT_JOINTS];
	int placeOf[TB_MAX_DIRECT_JOINTS];     // each input position's place in the order
	uint64_t graph = 1469598103934665603u; // FNV-1a over the count and the rows
	graph = (graph ^ (uint64_t)count) * 1099511628211u;
	for (int i = 0; i < count; ++i) {
		graph = (graph ^ adj[i]) * 1099511628211u;
	}
	bool same = true;
	uint64_t placed = 0u;
	for (int i = 0; i < count && same; ++i) {
		const tbJoint* j = records[joints[i]].joint;
		int out = j->orderOut;
		same = j->orderCount == count && j->orderIn == i && j->orderGraph == graph && out >= 0 &&
		       out < count && (placed >> out & 1u) == 0u;
		if (same) {
			placed |= (uint64_t)1 << out;
			picked[out] = joints[i];
			placeOf[i] = out;
		}
	}
	// Otherwise greedy minimum fill (Markowitz; Rose, Tarjan and Lueker 1976 for the graphs that
	// admit no fill): each time the joint whose elimination couples the fewest pairs of its
	// remaining neighbours not coupled yet (ties: fewest neighbours, then joint order), its
	// neighbours then made a clique as the factorization fills them. A tree of bodies gives a
	// graph of cliques (the joints at each body), eliminated leaves first with no fill at all.
	uint64_t left = tbBitsBelow(count);
	for (int n = 0; n < count && !same; ++n) {
		int best = -1, bestFill = 0, bestDegree = 0;
		for (uint64_t m = left; m != 0u; m &= m - 1u) {
			int i = __builtin_ctzll(m);
			uint64_t near = adj[i] & left;
			int degree = tbBitCount(near);
			// The fill is counted only while i can still win: beyond bestFill, or at it
			// without fewer neighbours, it cannot (the same pick, fewer counts).
			int fill = 0;
			bool beaten = false;
			for (uint64_t q = near; q != 0u && !beaten; q &= q - 1u) {
				int j = __builtin_ctzll(q);
				fill += tbBitCount(near & ~adj[j] & ~((uint64_t)1 << j));
				beaten =
				    best >= 0 && (fill > bestFill || (fill == bestFill && degree >= bestDegree));
			}
			beaten = beaten || (best >= 0 && fill == bestFill && degree >= bestDegree);
			if (!beaten &&
			    (best < 0 || fill < bestFill || (fill == bestFill && degree < bestDegree))) {
				best = i;
				bestFill = fill;
				bestDegree = degree;
			}
		}
		picked[n] = joints[best];
		placeOf[best] = n;
		left &= ~((uint64_t)1 << best);
		uint64_t near = adj[best] & left;
		for (uint64_t q = near; q != 0u; q &= q - 1u) {
			int j = __builtin_ctzll(q);
			adj[j] |= near & ~((uint64_t)1 << j);
		}
	}
	int inputOf[TB_MAX_DIRECT_JOINTS]; // each place's input position
	for (int i = 0; i < count; ++i) {
		tbJoint* j = records[joints[i]].joint;
		j->orderGraph = graph;
		j->orderCount = count;
		j->orderIn = i;
		j->orderOut = placeOf[i];
		inputOf[placeOf[i]] = i;
	}
	memcpy(joints, picked, (size_t)count * sizeof *joints);
	// A's blocks in this order, then the factor's: eliminating joint k couples every later joint
	// coupled to it (symbolic Cholesky on the joints' graph). The rows' blocks (lower) and the
	// columns' (column, the later rows that hold it) are kept together, each block added to both
	// as it comes: a bit k of a row is final once the joints before k are eliminated, so column k
	// is whole at its turn. The work goes with the blocks, not with count^2.
	uint64_t lower[TB_MAX_DIRECT_JOINTS], column[TB_MAX_DIRECT_JOINTS];
	for (int i = 0; i < count; ++i) {
		column[i] = 0u;
	}
	for (int i = 0; i < count; ++i) {
		uint64_t mine = 0u;
		for (uint64_t m = shares[inputOf[i]]; m != 0u; m &= m - 1u) {
			int j = placeOf[__builtin_ctzll(m)];
			mine |= j < i ? (uint64_t)1 << j : 0u;
		}
		records[joints[i]].more->groupShares = mine;
		lower[i] = mine;
		for (uint64_t m = mine; m != 0u; m &= m - 1u) {
			column[__builtin_ctzll(m)] |= (uint64_t)1 << i;
		}
	}
	for (int k = 0; k < count; ++k) {
		uint64_t later = column[k];
		records[joints[k]].more->groupColumn = later;
		for (uint64_t m = later; m != 0u; m &= m - 1u) {
			int i = __builtin_ctzll(m);
			uint64_t fill = later & tbBitsBelow(i) & ~lower[i];
			lower[i] |= fill;
			for (uint64_t q = fill; q != 0u; q &= q - 1u) {
				column[__builtin_ctzll(q)] |= (uint64_t)1 << i;
			}
		}
	}
	for (int i = 0; i < count; ++i) {
		records[joints[i]].more->groupLower = lower[i];
	}
	// Each body of the group gets a slot, first taken by the first joint in this order that
	// names it (the direct solve makes a body's turn there once, for all its joints).
	int bodies[2 * TB_MAX_DIRECT_JOINTS];
	int bodyCount = 0;
	bool keep = count > 1;
	for (int i = 0; i < count; ++i) {
		tbJointRecord* r = records + joints[i];
		keep = keep && tbBitCount(r->more->groupLower) <= TB_HELD_FACTOR_BLOCKS;
		if (r->mA > 0.0f && r->mB > 0.0f) {
			float ratio = r->mA > r->mB ? r->mA / r->mB : r->mB / r->mA;
			keep = keep && ratio <= TB_HELD_FACTOR_MASS_RATIO;
		}
		int sides[2] = {r->indexA, r->indexB};
		for (int side = 0; side < 2; ++side) {
			int slot = 0;
			while (slot < bodyCount && bodies[slot] != sides[side]) {
				++slot;
			}
			bool first = slot == bodyCount;
			if (first) {
				bodies[bodyCount++] = sides[side];
			}
			r->more->groupSlot[side] = (short)slot;
			r->more->groupFirst[side] = first;
		}
	}
	records[joints[0]].more->factorKeep = keep;
	records[joints[0]].more->factorHeld = false;
	// Soft (TB_SOFT_GROUP_MASS_RATIO): its bodies alike in mass, and one of them holds more than
	// two of its joints (a branching tree, a ragdoll); a chain and a heavy load stay direct.
	int held[2 * TB_MAX_DIRECT_JOINTS];
	for (int i = 0; i < bodyCount; ++i) {
		held[i] = 0;
	}
	float least = 0.0f, most = 0.0f;
	bool branches = false;
	for (int i = 0; i < count; ++i) {
		const tbJointRecord* r = records + joints[i];
		float m[2] = {r->mA, r->mB};
		for (int side = 0; side < 2; ++side) {
			if (m[side] > 0.0f) {
				least = least > 0.0f && least < m[side] ? least : m[side];
				most = most > m[side] ? most : m[side];
				branches = branches || ++held[r->more->groupSlot[side]] > 2;
			}
		}
	}
	records[joints[0]].more->groupSoft =
	    count > 1 && branches && most <= TB_SOFT_GROUP_MASS_RATIO * least;
}

// The arm's part of A's blocks for one side of a joint: G = [r]x I^-1 (column c: r x I^-1's
// column c), made once per joint and side and used by every block that side enters.
static inline void tbArmInertia(vec3s r, const mat3s* invI, mat3s* G)
{
	G->col[0] = tbCross(r, invI->col[0]);
	G->col[1] = tbCross(r, invI->col[1]);
	G->col[2] = tbCross(r, invI->col[2]);
}

// K += m 1 - G [r]x for a joint's own side: the diagonal block's term, m 1 - [r]x I^-1 [r]x,
// symmetric (([r]x)^T = -[r]x), so its six entries are made and mirrored.
static inline void tbAddDiagonal(mat3s* K, const mat3s* G, float m, vec3s r)
{
	float xx = r.z * G->col[1].x - r.y * G->col[2].x;
	float xy = r.x * G->col[2].x - r.z * G->col[0].x;
	float yy = r.x * G->col[2].y - r.z * G->col[0].y;
	float xz = r.y * G->col[0].x - r.x * G->col[1].x;
	float yz = r.y * G->col[0].y - r.x * G->col[1].y;
	float zz = r.y * G->col[0].z - r.x * G->col[1].z;
	K->col[0].x += m - xx;
	K->col[1].y += m - yy;
	K->col[2].z += m - zz;
	K->col[1].x -= xy;
	K->col[0].y -= xy;
	K->col[2].x -= xz;
	K->col[0].z -= xz;
	K->col[2].y -= yz;
	K->col[1].z -= yz;
}

// K += sign (m 1 - G [rj]x): the 3 x 3 block of A for joints i and j sharing a body on sides
// with signs si sj = `sign` (-1: A, +1: B), si sj (m 1 - [ri]x I^-1 [rj]x), G that body's
// tbArmInertia for joint i, written out column by column (G (rj x e_b)).
static inline void tbAddCoupling(mat3s* K, const mat3s* G, float m, vec3s rj, float sign)
{
	for (int a = 0; a < 3; ++a) {
		K->col[0].raw[a] -= sign * (rj.z * G->col[1].raw[a] - rj.y * G->col[2].raw[a]);
		K->col[1].raw[a] -= sign * (rj.x * G->col[2].raw[a] - rj.z * G->col[0].raw[a]);
		K->col[2].raw[a] -= sign * (rj.y * G->col[0].raw[a] - rj.x * G->col[1].raw[a]);
	}
	K->col[0].x += sign * m;
	K->col[1].y += sign * m;
	K->col[2].z += sign * m;
}

// T -= a b^T for 3 x 3 blocks.
static inline __attribute__((always_inline)) void tbSubMulT(mat3s* T, const mat3s* a,
                                                            const mat3s* b)
{
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) {
			T->col[c].raw[r] -= a->col[0].raw[r] * b->col[0].raw[c] +
			                    a->col[1].raw[r] * b->col[1].raw[c] +
			                    a->col[2].raw[r] * b->col[2].raw[c];
		}
	}
}

// m^T v for a block.
static inline vec3s tbMulTV(const mat3s* m, vec3s v)
{
	return tbV3(glms_vec3_dot(m->col[0], v), glms_vec3_dot(m->col[1], v),
	            glms_vec3_dot(m->col[2], v));
}

// L y = b, then L^T x = y, in place, for the block factor L of tbSolveJointGroup (block (I, J)
// at L[I * count + J], the diagonal blocks lower triangular with their pivots' inverses in
// invDiag). Both keep to L's blocks: row block I holds the column blocks `lower[I]` (bits of the
// blocks before I) and its own, so a tree of joints costs a few 3 x 3 products per joint. A
// second right-hand side `x2` (null: none; the relax pass's gaps with its velocities) is solved
// in the same walk, L's blocks read once for both, each side's arithmetic in the same order.
static inline __attribute__((always_inline)) void
tbCholeskySubstitute(const mat3s* L, const float* invDiag, const uint64_t* lower, int count,
                     float* x1, float* x2)
{
	float* sides[2] = {x1, x2};
	int n = x2 != NULL ? 2 : 1;
	for (int I = 0; I < count; ++I) {
		vec3s v[2];
		for (int k = 0; k < n; ++k) {
			v[k] = tbV3(sides[k][3 * I], sides[k][3 * I + 1], sides[k][3 * I + 2]);
		}
		for (uint64_t m = lower[I]; m != 0u; m &= m - 1u) {
			int P = __builtin_ctzll(m);
			const mat3s* B = L + (size_t)I * (size_t)count + P;
			for (int k = 0; k < n; ++k) {
				const float* x = sides[k];
				v[k] = glms_vec3_sub(v[k], tbMulMV(B, tbV3(x[3 * P], x[3 * P + 1], x[3 * P + 2])));
			}
		}
		const mat3s* D = L + (size_t)I * (size_t)count + I;
		const float* inv = invDiag + 3 * I;
		for (int k = 0; k < n; ++k) {
			float* x = sides[k];
			float y0 = v[k].x * inv[0];
			float y1 = (v[k].y - D->col[0].y * y0) * inv[1];
			float y2 = (v[k].z - D->col[0].z * y0 - D->col[1].z * y1) * inv[2];
			x[3 * I] = y0;
			x[3 * I + 1] = y1;
			x[3 * I + 2] = y2;
		}
	}
	for (int I = count - 1; I >= 0; --I) {
		const mat3s* D = L + (size_t)I * (size_t)count + I;
		const float* inv = invDiag + 3 * I;
		vec3s xi[2];
		for (int k = 0; k < n; ++k) {
			float* x = sides[k];
			float y2 = x[3 * I + 2] * inv[2];
			float y1 = (x[3 * I + 1] - D->col[1].z * y2) * inv[1];
			float y0 = (x[3 * I] - D->col[0].y * y1 - D->col[0].z * y2) * inv[0];
			x[3 * I] = y0;
			x[3 * I + 1] = y1;
			x[3 * I + 2] = y2;
			xi[k] = tbV3(y0, y1, y2);
		}
		for (uint64_t m = lower[I]; m != 0u; m &= m - 1u) {
			int P = __builtin_ctzll(m);
			const mat3s* B = L + (size_t)I * (size_t)count + P;
			for (int k = 0; k < n; ++k) {
				float* x = sides[k];
				vec3s d = tbMulTV(B, xi[k]);
				x[3 * P] -= d.x;
				x[3 * P + 1] -= d.y;
				x[3 * P + 2] -= d.z;
			}
		}
	}
}

// A group whose joints are all quiet skips its direct solve in the pass: the anchors' relative
// velocity would move them apart by at most this fraction of the joint's arms in the substep,
// their gaps (the relax pass) and the arcs the turns add (the biased pass's SHAKE step) are no
// larger, so the solve would move nothing by more than that. A ragdoll falling, or swinging
// slowly, keeps its joints closed from substep to substep without it; a gap that grows past the
// fraction brings the solve back, which closes it.
#define TB_GROUP_QUIET 1e-5f

#ifndef TB_PROJECT_TURN
#define TB_PROJECT_TURN 0.1f
#endif

// A's blocks for the group's joints cur[0..count) at their anchors geo (row by row in A, the
// lower ones), factored in place, A = L L^T, with the pivots' inverses in invDiag.
static void tbFactorJointGroup(tbJointRecord* const* cur, const tbJointNow* geo, int count,
                               const uint64_t* shares, const uint64_t* lower,
                               const uint64_t* column, mat3s* A, float* invDiag)
{
	// Each joint's sides: the moving body there (-1: the static body, which adds nothing), its
	// inverse mass and arm, and its G.
	mat3s G[TB_MAX_DIRECT_JOINTS][2];
	int body[TB_MAX_DIRECT_JOINTS][2];
	for (int i = 0; i < count; ++i) {
		const tbJointRecord* r = cur[i];
		body[i][0] = r->indexA != r->staticBody ? r->indexA : -1;
		body[i][1] = r->indexB != r->staticBody ? r->indexB : -1;
		if (body[i][0] >= 0) {
			tbArmInertia(geo[i].rA, &r->iA, &G[i][0]);
		}
		if (body[i][1] >= 0) {
			tbArmInertia(geo[i].rB, &r->iB, &G[i][1]);
		}
	}
	for (int i = 0; i < count; ++i) {
		// The blocks of row i: coupling blocks where the joints share a body, zero where only
		// the factor fills in; then the diagonal block.
		const tbJointRecord* r = cur[i];
		for (uint64_t bits = lower[i] | ((uint64_t)1 << i); bits != 0u; bits &= bits - 1u) {
			int j = __builtin_ctzll(bits);
			mat3s K = glms_mat3_zero();
			if (j == i) {
				if (body[i][0] >= 0) {
					tbAddDiagonal(&K, &G[i][0], r->mA, geo[i].rA);
				}
				if (body[i][1] >= 0) {
					tbAddDiagonal(&K, &G[i][1], r->mB, geo[i].rB);
				}
			} else if ((shares[i] >> j & 1u) != 0u) {
				for (int si = 0; si < 2; ++si) {
					for (int sj = 0; sj < 2; ++sj) {
						if (body[i][si] < 0 || body[i][si] != body[j][sj]) {
							continue;
						}
						tbAddCoupling(&K, &G[i][si], si == 0 ? r->mA : r->mB,
						              sj == 0 ? geo[j].rA : geo[j].rB, si == sj ? 1.0f : -1.0f);
					}
				}
			}
			A[(size_t)i * (size_t)count + j] = K;
		}
	}
	// Cholesky, A = L L^T in place, block column by block column within L's blocks: the diagonal
	// block D = A_KK - sum L_KP L_KP^T factored as a 3 x 3, then every row block I below that
	// holds block K, L_IK = (A_IK - sum L_IP L_KP^T) L_KK^-T over the blocks P both hold. A
	// vanishing pivot (a joint that repeats another) is lifted a little: the solve then splits
	// the load between them.
	for (int K = 0; K < count; ++K) {
		mat3s* rowK = A + (size_t)K * (size_t)count;
		mat3s D = rowK[K];
		float floors[3] = {1e-6f * D.col[0].x, 1e-6f * D.col[1].y, 1e-6f * D.col[2].z};
		for (uint64_t m = lower[K]; m != 0u; m &= m - 1u) {
			int P = __builtin_ctzll(m);
			tbSubMulT(&D, rowK + P, rowK + P);
		}
		float* inv = invDiag + 3 * K;
		for (int a = 0; a < 3; ++a) {
			// Column a of the 3 x 3 factor (the entries of D above it are done).
			float d = D.col[a].raw[a];
			for (int c = 0; c < a; ++c) {
				d -= D.col[c].raw[a] * D.col[c].raw[a];
			}
			float f = floors[a];
			d = d > f ? d : (f > 0.0f ? f : 1e-12f);
			float l = sqrtf(d);
			D.col[a].raw[a] = l;
			inv[a] = 1.0f / l;
			for (int r = a + 1; r < 3; ++r) {
				float v = D.col[a].raw[r];
				for (int c = 0; c < a; ++c) {
					v -= D.col[c].raw[r] * D.col[c].raw[a];
				}
				D.col[a].raw[r] = v * inv[a];
			}
			for (int r = 0; r < a; ++r) {
				D.col[a].raw[r] = 0.0f;
			}
		}
		rowK[K] = D;
		for (uint64_t below = column[K]; below != 0u; below &= below - 1u) {
			int I = __builtin_ctzll(below);
			mat3s* rowI = A + (size_t)I * (size_t)count;
			mat3s T = rowI[K];
			for (uint64_t m = lower[I] & lower[K]; m != 0u; m &= m - 1u) {
				int P = __builtin_ctzll(m);
				tbSubMulT(&T, rowI + P, rowK + P);
			}
			// T L_KK^-T: each row t of T solves L_KK x = t.
			for (int r = 0; r < 3; ++r) {
				float x0 = T.col[0].raw[r] * inv[0];
				float x1 = (T.col[1].raw[r] - D.col[0].y * x0) * inv[1];
				float x2 = (T.col[2].raw[r] - D.col[0].z * x0 - D.col[1].z * x1) * inv[2];
				T.col[0].raw[r] = x0;
				T.col[1].raw[r] = x1;
				T.col[2].raw[r] = x2;
			}
			rowI[K] = T;
		}
	}
}

// Keeps body b's turn ahead, made at the deltas of s (tbAheadTurn).
static inline void tbKeepAhead(const tbJointRecord* r, int b, const tbSolverBody* s,
                               const mat3s* turn)
{
	tbAheadTurn* ahead = r->aheads + b;
	ahead->turn = *turn;
	ahead->by = tbDelta(s->dtheta);
	ahead->valid = true;
}

// Whether every joint of the group is quiet (TB_GROUP_QUIET): its anchors' relative velocity
// `rel` times the substep, its gap (relax pass) or the arcs its bodies' turns add to it over the
// substep, h^2 / 2 (|wA|^2 |rA| + |wB|^2 |rB|) (biased pass, the SHAKE step's), all within the
// fraction of its arms.
static bool tbJointGroupQuiet(tbJointRecord* const* cur, const tbJointNow* geo,
                              const tbSolverBody* states, int count, const float* rel,
                              const float* gap, bool useBias)
{
	for (int i = 0; i < count; ++i) {
		const tbJointRecord* r = cur[i];
		float armA = glms_vec3_norm(geo[i].rA), armB = glms_vec3_norm(geo[i].rB);
		float tol = TB_GROUP_QUIET * (armA + armB);
		float h = r->h;
		vec3s v = tbV3(rel[3 * i], rel[3 * i + 1], rel[3 * i + 2]);
		if (!(h * h * glms_vec3_dot(v, v) <= tol * tol)) {
			return false;
		}
		float reach;
		if (useBias) {
			vec3s wA = tbGetW(states + r->indexA), wB = tbGetW(states + r->indexB);
			float a = r->mA > 0.0f ? glms_vec3_dot(wA, wA) * armA : 0.0f;
			float b = r->mB > 0.0f ? glms_vec3_dot(wB, wB) * armB : 0.0f;
			reach = 0.5f * h * h * (a + b);
		} else {
			reach = glms_vec3_norm(tbV3(gap[3 * i], gap[3 * i + 1], gap[3 * i + 2]));
		}
		if (!(reach <= tol)) {
			return false;
		}
	}
	return true;
}

// A soft group's point rows (tbOrderJointGroup's groupSoft), one joint at a time in the group's
// order, as a lone joint's (tbSolvePointK, without the arcs' term): soft in the biased pass,
// rigid in the relax pass. Returns, in the relax pass, whether a joint's gap of now has passed
// TB_GROUP_PROJECT_GAP of its arms, for the group's direct projection.
static bool tbSolveJointGroupSoft(tbJointRecord* const* cur, const tbJointNow* geo,
                                  const bool* massKept, int count, tbSolverBody* states,
                                  bool useBias)
{
	for (int i = 0; i < count; ++i) {
		tbJointRecord* r = cur[i];
		tbSym3 K;
		if (massKept[i]) {
			const float* m = r->more->nowMass; // its limit rows' (tbKeepPointMass)
			K = (tbSym3){m[0], m[1], m[2], m[3], m[4], m[5]};
		} else {
			K = tbPointMassOf(r->mA, r->mB, &r->iA, &r->iB, geo[i].rA, geo[i].rB);
		}
		tbSolvePointK(r, states + r->indexA, states + r->indexB, &r->iA, &r->iB, geo[i].rA,
		              geo[i].rB, geo[i].d, useBias, false, K);
	}
	for (int i = 0; i < count && !useBias; ++i) {
		float arms = glms_vec3_norm(geo[i].rA) + glms_vec3_norm(geo[i].rB);
		float reach = TB_GROUP_PROJECT_GAP * arms;
		if (!(glms_vec3_dot(geo[i].d, geo[i].d) <= reach * reach)) {
			return true;
		}
	}
	return false;
}

void tbSolveJointGroup(tbJointRecord* records, const int* order, int count, tbSolverBody* states,
                       bool useBias, bool turnsRead, float* work)
{
	TB_ASSERT(count >= 1 && count <= TB_MAX_DIRECT_JOINTS);
	int n = 3 * count;
	mat3s* A = (mat3s*)work; // count x count blocks, row by row, the lower ones used
	float* x = work + n * n; // right-hand side, then the solution
	float* gap = x + n;      // the anchors' gaps, then the position correction's multipliers
	tbJointRecord* cur[TB_MAX_DIRECT_JOINTS];
	tbJointNow geo[TB_MAX_DIRECT_JOINTS];
	bool massKept[TB_MAX_DIRECT_JOINTS];
	tbJointMore* first = records[order[0]].more; // holds the group's flags (tbOrderJointGroup)
	for (int i = 0; i < count; ++i) {
		tbJointRecord* r = records + order[i];
		tbSolverBody* sa = states + r->indexA;
		tbSolverBody* sb = states + r->indexB;
		cur[i] = r;
		if (r->more->nowFresh) {
			// Made by the joint's own rows just before, at the same turns (the rows change
			// velocities only); their inertias of now are in the record as well.
			geo[i].rA = r->more->nowRA;
			geo[i].rB = r->more->nowRB;
			geo[i].d = r->more->nowD;
			massKept[i] = r->more->nowMassFresh;
			r->more->nowFresh = false;
			r->more->nowMassFresh = false;
		} else {
			tbJointNowAt(r, sa, sb, false, geo + i);
			massKept[i] = false;
		}
		gap[3 * i + 0] = geo[i].d.x;
		gap[3 * i + 1] = geo[i].d.y;
		gap[3 * i + 2] = geo[i].d.z;
		if (first->groupSoft) {
			continue; // its velocity rows are solved one joint at a time
		}
		// Rigid rows, Cdot = 0, in both passes: the positions are kept by the SHAKE step and
		// the projection below, not by a soft bias (a direct solve has no iterations to
		// soften; the soft rows' spring of 60 Hz let 200 kg stretch its links).
		vec3s vA = glms_vec3_add(tbGetV(sa), glms_vec3_cross(tbGetW(sa), geo[i].rA));
		vec3s vB = glms_vec3_add(tbGetV(sb), glms_vec3_cross(tbGetW(sb), geo[i].rB));
		vec3s rhs = glms_vec3_sub(vB, vA);
		x[3 * i + 0] = rhs.x;
		x[3 * i + 1] = rhs.y;
		x[3 * i + 2] = rhs.z;
	}
	// A soft group's rows go one joint at a time; in the relax pass, the direct solve's
	// projection follows where a gap has grown (its velocities are the rows', left as they are).
	bool projectOnly = first->groupSoft;
	if (projectOnly && !tbSolveJointGroupSoft(cur, geo, massKept, count, states, useBias)) {
		return;
	}
	if (!projectOnly && count > 1 && tbJointGroupQuiet(cur, geo, states, count, x, gap, useBias)) {
		first->factorHeld = false; // a later pass factors again
		return;
	}
	// A: a 3 x 3 block for every pair of joints (i >= j) that share a moving body. Its factor L
	// has those blocks and the ones the elimination fills in (tbOrderJointGroup put the joints in
	// an order of least fill and marked both in the records). lower[i]: the blocks of row block i
	// before its diagonal in L; a tree of joints fills in none, so the factorization and the solves
	// cost O(count), not O(n^3). Zeroed: GCC cannot see that the loop fills the first count.
	uint64_t shares[TB_MAX_DIRECT_JOINTS] = {0}, lower[TB_MAX_DIRECT_JOINTS] = {0};
	uint64_t column[TB_MAX_DIRECT_JOINTS] = {0};
	for (int i = 0; i < count; ++i) {
		shares[i] = cur[i]->more->groupShares;
		lower[i] = cur[i]->more->groupLower;
		column[i] = cur[i]->more->groupColumn;
	}
	float invDiag[3 * TB_MAX_DIRECT_JOINTS] = {0};
	// The relax pass takes the biased pass's factor where the group holds it and none of its
	// bodies turned by more than TB_HELD_FACTOR_TURN in the substep: A's blocks are its arms and
	// inertias, which turn with the bodies, so the held factor is off by about that angle, and
	// one step of the projection's Newton iteration with it (a quasi-Newton step) still closes
	// the gaps. The substep's turn is h |w| at the velocities the positions moved with.
	bool reuse = !useBias && first->factorHeld;
	for (int i = 0; i < count && reuse; ++i) {
		const tbJointRecord* r = cur[i];
		vec3s wA = tbGetW(states + r->indexA), wB = tbGetW(states + r->indexB);
		float wa = r->mA > 0.0f ? glms_vec3_dot(wA, wA) : 0.0f;
		float wb = r->mB > 0.0f ? glms_vec3_dot(wB, wB) : 0.0f;
		float limit = TB_HELD_FACTOR_TURN / r->h;
		reuse = (wa > wb ? wa : wb) <= limit * limit;
	}
	if (reuse) {
		for (int i = 0; i < count; ++i) {
			const tbJointMore* m = cur[i]->more;
			mat3s* row = A + (size_t)i * (size_t)count;
			row[i] = m->factorDiag;
			invDiag[3 * i] = m->factorInv[0];
			invDiag[3 * i + 1] = m->factorInv[1];
			invDiag[3 * i + 2] = m->factorInv[2];
			int k = 0;
			for (uint64_t b = lower[i]; b != 0u; b &= b - 1u) {
				row[__builtin_ctzll(b)] = m->factorLower[k++];
			}
		}
		first->factorHeld = false;
	} else {
		tbFactorJointGroup(cur, geo, count, shares, lower, column, A, invDiag);
		first->factorHeld = useBias && first->factorKeep;
		for (int i = 0; i < count && first->factorHeld; ++i) {
			tbJointMore* m = cur[i]->more;
			const mat3s* row = A + (size_t)i * (size_t)count;
			m->factorDiag = row[i];
			m->factorInv[0] = invDiag[3 * i];
			m->factorInv[1] = invDiag[3 * i + 1];
			m->factorInv[2] = invDiag[3 * i + 2];
			int k = 0;
			for (uint64_t b = lower[i]; b != 0u; b &= b - 1u) {
				m->factorLower[k++] = row[__builtin_ctzll(b)];
			}
		}
	}
	if (projectOnly) {
		tbCholeskySubstitute(A, invDiag, lower, count, gap, NULL);
	} else if (useBias) {
		tbCholeskySubstitute(A, invDiag, lower, count, x, NULL);
	} else {
		tbCholeskySubstitute(A, invDiag, lower, count, x, gap);
	}
	// lambda = -x for every joint, all from the same velocities, then applied.
	for (int i = 0; i < count && !projectOnly; ++i) {
		tbJointRecord* r = cur[i];
		tbJoint* j = r->joint;
		vec3s P = tbV3(-x[3 * i], -x[3 * i + 1], -x[3 * i + 2]);
		j->linearImpulse = glms_vec3_add(j->linearImpulse, P);
		tbApplyLinear(r, states + r->indexA, states + r->indexB, geo[i].rA, geo[i].rB, P);
	}
	if (useBias) {
		// The rows above hold the anchors' relative velocity, a straight line; the anchors move
		// on arcs and part by h^2/2 |w|^2 r in a substep (a link turning 0.2 rad per substep
		// opens its joints by 1 % of its length). SHAKE (Ryckaert, Ciccotti and Berendsen 1977;
		// RATTLE, Andersen 1983) takes the gaps the new velocities would add in the substep,
		// the bodies turned exactly (tbTurnMatrix), and closes them with one more solve of
		// the same A: an impulse along the same J, so the relax pass keeps it and the energy
		// stays (without it a pendulum loses amplitude to the relax pass's projection of its
		// velocity; tests/test_joints.c holds its period and amplitude). The correction, quadratic
		// in w, feeds on itself where the geometric stiffness had to be taken (tbJointBodyStiffen):
		// the light links of a loaded chain whirled apart with it. Those joints' gaps are left at
		// zero weight, the projection below closing them instead.
		bool any = false;
		// Each body's turn ahead, made once for all its joints (by the first that names it).
		mat3s aheadTurns[2 * TB_MAX_DIRECT_JOINTS];
		for (int i = 0; i < count; ++i) {
			tbJointRecord* r = cur[i];
			float sA = r->mA > 0.0f ? r->stiffened[r->indexA] : 0.0f;
			float sB = r->mB > 0.0f ? r->stiffened[r->indexB] : 0.0f;
			float weight = 1.0f - (sA > sB ? sA : sB);
			any = any || weight > 0.0f;
			tbSolverBody pa = states[r->indexA], pb = states[r->indexB];
			for (int k = 0; k < 3; ++k) {
				pa.dp[k] += r->h * pa.v[k];
				pa.dtheta[k] += r->h * pa.w[k];
				pb.dp[k] += r->h * pb.v[k];
				pb.dtheta[k] += r->h * pb.w[k];
			}
			// Only what the substep's motion adds to the gap: a gap already there is the
			// projection's (closed at a bounded rate; closed by an impulse here, in one
			// substep, a body moved 10 m by hand flung the chain about).
			// A moving body's is kept for its turn of the substep (tbAheadTurn), which it is
			// where no later row of the pass changes the body's velocities.
			if (r->more->groupFirst[0]) {
				aheadTurns[r->more->groupSlot[0]] = tbTurnAt(r, r->indexA, &pa);
				if (r->mA > 0.0f) {
					tbKeepAhead(r, r->indexA, &pa, aheadTurns + r->more->groupSlot[0]);
				}
			}
			if (r->more->groupFirst[1]) {
				aheadTurns[r->more->groupSlot[1]] = tbTurnAt(r, r->indexB, &pb);
				if (r->mB > 0.0f) {
					tbKeepAhead(r, r->indexB, &pb, aheadTurns + r->more->groupSlot[1]);
				}
			}
			tbJointNow gap1 = tbJointGeometryTurned(r, &pa, &pb, aheadTurns + r->more->groupSlot[0],
			                                        aheadTurns + r->more->groupSlot[1], false);
			vec3s ahead = glms_vec3_scale(glms_vec3_sub(gap1.d, geo[i].d), weight);
			gap[3 * i + 0] = ahead.x;
			gap[3 * i + 1] = ahead.y;
			gap[3 * i + 2] = ahead.z;
		}
		if (!any) {
			return;
		}
		tbCholeskySubstitute(A, invDiag, lower, count, gap, NULL);
		for (int i = 0; i < count; ++i) {
			tbJointRecord* r = cur[i];
			tbJoint* j = r->joint;
			vec3s P =
			    glms_vec3_scale(tbV3(gap[3 * i], gap[3 * i + 1], gap[3 * i + 2]), -1.0f / r->h);
			j->linearImpulse = glms_vec3_add(j->linearImpulse, P);
			tbApplyLinear(r, states + r->indexA, states + r->indexB, geo[i].rA, geo[i].rB, P);
		}
		return;
	}
	// The relax pass, after the positions moved: the projection. The same A (built at the
	// bodies' new poses) moves them by M^-1 J^T mu with A mu = -C, so that the anchors meet to
	// first order, the velocities untouched (a position pass after the velocity pass, as Jolt's
	// position iterations, Baumgarte-free; here one exact step of Newton's method).
	// A large gap (a body moved by hand, a hard hit) is closed over several substeps: the step
	// is cut so that no joint turns a body by more than TB_PROJECT_TURN rad, where the linear
	// model of the turn still holds.
	// The turns of the unscaled step are kept: with no cut (scale 1) the step's turns are their
	// negatives exactly (a negated factor negates every product and sum).
	float scale = 1.0f;
	vec3s turnsA[TB_MAX_DIRECT_JOINTS], turnsB[TB_MAX_DIRECT_JOINTS];
	for (int i = 0; i < count; ++i) {
		tbJointRecord* r = cur[i];
		vec3s mu = tbV3(gap[3 * i], gap[3 * i + 1], gap[3 * i + 2]);
		turnsA[i] = tbMat3MulV(r->iA, glms_vec3_cross(geo[i].rA, mu));
		turnsB[i] = tbMat3MulV(r->iB, glms_vec3_cross(geo[i].rB, mu));
		float turnA = glms_vec3_norm(turnsA[i]);
		float turnB = glms_vec3_norm(turnsB[i]);
		float turn = turnA > turnB ? turnA : turnB;
		if (turn * scale > TB_PROJECT_TURN) {
			scale = TB_PROJECT_TURN / turn;
		}
	}
	for (int i = 0; i < count; ++i) {
		tbJointRecord* r = cur[i];
		vec3s mu = tbV3(-scale * gap[3 * i], -scale * gap[3 * i + 1], -scale * gap[3 * i + 2]);
		tbSolverBody* sa = states + r->indexA;
		tbSolverBody* sb = states + r->indexB;
		vec3s tA = scale == 1.0f ? glms_vec3_negate(turnsA[i])
		                         : tbMat3MulV(r->iA, glms_vec3_cross(geo[i].rA, mu));
		vec3s tB = scale == 1.0f ? glms_vec3_negate(turnsB[i])
		                         : tbMat3MulV(r->iB, glms_vec3_cross(geo[i].rB, mu));
		for (int k = 0; k < 3 && r->movesA; ++k) {
			sa->dp[k] -= r->mA * mu.raw[k];
			sa->dtheta[k] -= tA.raw[k];
		}
		for (int k = 0; k < 3 && r->movesB; ++k) {
			sb->dp[k] += r->mB * mu.raw[k];
			sb->dtheta[k] += tB.raw[k];
		}
	}
	// The bodies turned: their turns and inertias of now follow, for a later relax iteration
	// (each body's once, at the first joint that names it). Where nothing reads them before the
	// next substep's start composes the same turn (tbJointBodyTurn) and the stiffening turns the
	// inertias (tbJointBodyStiffen), that is left to it: the same bits, made once.
	for (int i = 0; i < count && turnsRead; ++i) {
		tbJointRecord* r = cur[i];
		int bodies[2] = {r->indexA, r->indexB};
		float masses[2] = {r->mA, r->mB};
		for (int side = 0; side < 2; ++side) {
			int b = bodies[side];
			if (masses[side] > 0.0f && r->more->groupFirst[side]) {
				tbComposeTurn(r, b, states + b);
				r->turnedInertias[b] = tbTurnInertia(r->turns[b], r->inertias[b]);
				r->aheads[b].turnedFresh = true;
			}
		}
	}
}

// The rotation vector of the rotation M (the inverse of tbTurnMatrix, angle in [0, pi]): M's
// quaternion by Shepperd's method (the largest of its four squares first), then 2 atan2(|v|, s)
// about v / |v|.
static vec3s tbTurnVector(mat3s M)
{
	float m00 = M.col[0].x, m11 = M.col[1].y, m22 = M.col[2].z;
	float trace = m00 + m11 + m22;
	float q[4]; // x, y, z, s
	if (trace >= m00 && trace >= m11 && trace >= m22) {
		float t = sqrtf(1.0f + trace) * 2.0f; // 4 s
		q[3] = 0.25f * t;
		q[0] = (M.col[1].z - M.col[2].y) / t;
		q[1] = (M.col[2].x - M.col[0].z) / t;
		q[2] = (M.col[0].y - M.col[1].x) / t;
	} else if (m00 >= m11 && m00 >= m22) {
		float t = sqrtf(1.0f + m00 - m11 - m22) * 2.0f; // 4 x
		q[3] = (M.col[1].z - M.col[2].y) / t;
		q[0] = 0.25f * t;
		q[1] = (M.col[1].x + M.col[0].y) / t;
		q[2] = (M.col[2].x + M.col[0].z) / t;
	} else if (m11 >= m22) {
		float t = sqrtf(1.0f + m11 - m00 - m22) * 2.0f; // 4 y
		q[3] = (M.col[2].x - M.col[0].z) / t;
		q[0] = (M.col[1].x + M.col[0].y) / t;
		q[1] = 0.25f * t;
		q[2] = (M.col[2].y + M.col[1].z) / t;
	} else {
		float t = sqrtf(1.0f + m22 - m00 - m11) * 2.0f; // 4 z
		q[3] = (M.col[0].y - M.col[1].x) / t;
		q[0] = (M.col[2].x + M.col[0].z) / t;
		q[1] = (M.col[2].y + M.col[1].z) / t;
		q[2] = 0.25f * t;
	}
	float sign = q[3] < 0.0f ? -1.0f : 1.0f;
	vec3s v = tbV3(sign * q[0], sign * q[1], sign * q[2]);
	float n = glms_vec3_norm(v), s = sign * q[3];
	if (!(n > 1e-7f)) {
		return glms_vec3_scale(v, s > 0.0f ? 2.0f / s : 2.0f);
	}
	return glms_vec3_scale(v, 2.0f * tbAtan2(n, s) / n);
}

void tbJointBodyStartTurn(const tbJointRecord* records, const tbJointBody* b)
{
	const tbJointRecord* r = records + b->record;
	r->turns[b->index] = glms_mat3_identity();
	r->turnedBy[b->index] = tbV3(0.0f, 0.0f, 0.0f);
	r->flows[b->index].pending = 0.0f;
	r->aheads[b->index].valid = false;
	r->aheads[b->index].turnedFresh = false;
}

void tbJointBodyEndTurn(const tbJointRecord* records, const tbJointBody* b,
                        const tbSolverBody* states, mat3s* ends)
{
	const tbJointRecord* r = records + b->record;
	tbTurnAtInto(r, b->index, states + b->index, ends + b->index);
}

void tbJointBodyTurnToDelta(const tbJointRecord* records, const tbJointBody* b,
                            tbSolverBody* states, const mat3s* ends)
{
	const tbJointRecord* r = records + b->record;
	int i = b->index;
	if ((b->side == 0 ? r->mA : r->mB) <= 0.0f) {
		return;
	}
	tbComposeTurnMade(r, i, states + i, ends + i);
	vec3s t = tbTurnVector(r->turns[i]);
	if (tbIsFiniteVec3(t)) {
		states[i].dtheta[0] = t.x;
		states[i].dtheta[1] = t.y;
		states[i].dtheta[2] = t.z;
	}
}

// Half of a body's torque-free change of the substep (tbJointBodyGyroFlow): its own and the other
// body's of its joint (a side that cannot move has none).
static void tbSpinKick(const tbSpinFlow* f, tbSolverBody* states, int b)
{
	for (int k = 0; k < 3; ++k) {
		states[b].w[k] += f->dw.raw[k];
		states[b].v[k] += f->dv.raw[k];
	}
	for (int k = 0; k < 3 && f->other >= 0; ++k) {
		states[f->other].w[k] += f->dwOther.raw[k];
		states[f->other].v[k] += f->dvOther.raw[k];
	}
}

// The eigenvalues g[] and unit eigenvectors (the columns of V) of the symmetric S by Jacobi's
// method: cyclic sweeps of plane rotations, each zeroing one off-diagonal entry (Golub and Van
// Loan, "Matrix Computations", 8.5), at most six sweeps (a 3 x 3 converges quadratically in two
// or three). Only + - * / and sqrt: the same bits wherever IEEE arithmetic is (the C libraries'
// trigonometric functions differ in the last bit between builds), and accurate to a rounding of
// |S| for every eigenvalue, close pairs included.
static void tbSymEigen(mat3s S, float g[3], mat3s* V)
{
	float a[3][3];
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			a[r][c] = 0.5f * (S.col[c].raw[r] + S.col[r].raw[c]);
		}
	}
	float v[3][3] = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
	static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
	for (int sweep = 0; sweep < 6; ++sweep) {
		float off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
		float diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
		if (!(off > 1e-15f * diag)) {
			break;
		}
		for (int k = 0; k < 3; ++k) {
			int p = pairs[k][0], q = pairs[k][1], o = 3 - p - q;
			float apq = a[p][q];
			if (apq == 0.0f) {
				continue;
			}
			// t = tan of the rotation's angle, the smaller root of t^2 + 2 theta t - 1 = 0.
			float theta = (a[q][q] - a[p][p]) / (2.0f * apq);
			float t = fabsf(theta) > 1e6f
			              ? 0.5f / theta
			              : copysignf(1.0f, theta) / (fabsf(theta) + sqrtf(theta * theta + 1.0f));
			float c = 1.0f / sqrtf(t * t + 1.0f), sn = t * c;
			a[p][p] -= t * apq;
			a[q][q] += t * apq;
			a[p][q] = a[q][p] = 0.0f;
			float aop = a[o][p], aoq = a[o][q];
			a[o][p] = a[p][o] = c * aop - sn * aoq;
			a[o][q] = a[q][o] = sn * aop + c * aoq;
			for (int r = 0; r < 3; ++r) {
				float vp = v[r][p], vq = v[r][q];
				v[r][p] = c * vp - sn * vq;
				v[r][q] = sn * vp + c * vq;
			}
		}
	}
	for (int c = 0; c < 3; ++c) {
		g[c] = a[c][c];
		V->col[c] = tbV3(v[0][c], v[1][c], v[2][c]);
	}
}

// The torque-free turn over h of a body whose inverse inertia is G (symmetric, world, turning
// with the body) and whose velocity is w now, and its velocity w1 at the end. L = G^-1 w is held
// in world axes. With G's eigenvalues gh >= gm >= gl along the axes ah, am, al, the energy
//   (1/2) L . G L = (1/2) gm |L|^2 + (1/2) (gh - gm) (L . ah)^2 + (1/2) (gl - gm) (L . al)^2
// is a sum of flows each solved exactly: |L|^2 is a Casimir of the rigid body (its flow, the
// turn Rot(t gm L) about L, commutes with every other), and (1/2) c (L . a)^2 turns the body
// about its own axis a at the rate c (L . a). The two turns about the body's axes are composed
// symmetrically (al for h/2, ah for h, al for h/2: Strang's splitting; the free rigid body's
// splitting of McLachlan, "Explicit Lie-Poisson integration and the Euler equations", Phys.
// Rev. Lett. 71, 1993, and Dullweber, Leimkuhler and McLachlan, J. Chem. Phys. 107, 1997):
// |L| is kept exactly, the energy to the splitting's order without drift, and exactly where
// G has an axis of symmetry (gh = gm or gm = gl), where the turn is
//   R(t) = Rot(t gm L) Rot(t (g - gm) (L . a) a) R0,
// a spin about the body's axis, which moves nothing the axis carries, and a slow turn about L
// (a heavy top's nutation about its pivot, G the inverse of its inertia there; Goldstein,
// ch. 5). Turned by Rot(t w) instead, a spinning axis cones about w: the nutation's motion is
// turned by half the substep's spin angle and the spin leaks into it. G's axes by tbSymEigen.
static mat3s tbTorqueFreeTurn(mat3s G, vec3s w, float h, vec3s* w1, float* rate)
{
	*w1 = w;
	*rate = glms_vec3_norm(w);
	float e[3];
	mat3s V;
	tbSymEigen(G, e, &V);
	// Sorted: hi >= mi >= lo.
	int hi = 0, lo = 0;
	for (int k = 1; k < 3; ++k) {
		hi = e[k] > e[hi] ? k : hi;
		lo = e[k] < e[lo] ? k : lo;
	}
	int mi = 3 - hi - lo;
	if (hi == lo || !(e[lo] > 0.0f) || !(e[hi] - e[lo] > 1e-5f * e[hi])) {
		// A sphere's inertia (or none to read): w is held, the turn is Rot(h w).
		return tbTurnMatrixOut(glms_vec3_scale(w, h));
	}
	// The eigenvalue that stands furthest from the middle one turns its axis in the middle of
	// the composition (the faster turn), the other in halves around it; gm the middle one.
	bool high = e[hi] - e[mi] >= e[mi] - e[lo];
	int d = high ? hi : lo, sd = high ? lo : hi;
	vec3s mid = V.col[d], side = V.col[sd], other = V.col[mi];
	float gd = e[d], gSide = e[sd], gm = e[mi];
	float cSide = gSide - gm, cMid = gd - gm;
	// L = G^-1 w in G's axes (G^-1 itself is ill conditioned for a thin body on an arm).
	vec3s axes[3] = {mid, side, other};
	float g[3] = {gd, gSide, gm};
	vec3s L = tbV3(0.0f, 0.0f, 0.0f);
	for (int i = 0; i < 3; ++i) {
		L = tbMulAdd(L, glms_vec3_dot(w, axes[i]) / g[i], axes[i]);
	}
	if (!tbIsFiniteVec3(L)) {
		return tbTurnMatrixOut(glms_vec3_scale(w, h));
	}
	mat3s F = glms_mat3_identity();
	vec3s axis = side;
	F = tbTurnMatrixOut(glms_vec3_scale(axis, 0.5f * h * cSide * glms_vec3_dot(L, axis)));
	axis = tbMat3MulV(F, mid);
	F = tbMat3Mul(tbTurnMatrixOut(glms_vec3_scale(axis, h * cMid * glms_vec3_dot(L, axis))), F);
	axis = tbMat3MulV(F, side);
	F = tbMat3Mul(tbTurnMatrixOut(glms_vec3_scale(axis, 0.5f * h * cSide * glms_vec3_dot(L, axis))),
	              F);
	F = tbMat3Mul(tbTurnMatrixOut(glms_vec3_scale(L, h * gm)), F);
	// w1 = G1 L with G1 = F G F^T, the inverse inertia turned with the body.
	vec3s end = tbV3(0.0f, 0.0f, 0.0f);
	for (int i = 0; i < 3; ++i) {
		vec3s turned = tbMat3MulV(F, axes[i]);
		end = tbMulAdd(end, g[i] * glms_vec3_dot(turned, L), turned);
	}
	if (!tbIsFiniteMat(F) || !tbIsFiniteVec3(end)) {
		return tbTurnMatrixOut(glms_vec3_scale(w, h));
	}
	*w1 = end;
	// How fast the distinct axis itself turns (the rest is spin about it).
	*rate = gm * glms_vec3_norm(glms_vec3_cross(L, mid)) + fabsf(cSide * glms_vec3_dot(L, side));
	return F;
}

// Euler's equations for a jointed body, whose w is its primary velocity (tbFinishBody): with
// L = I(R) w and dI/dt = [w]x I - I [w]x, dL/dt = tau becomes I dw/dt = tau - w x (I w). The
// passes give the torque's part; this is the gyroscopic part over one substep, taken as the
// torque-free motion of the body held at its joint. The joint's point rows, the other body's
// velocity held, answer a torque impulse h tau with an impulse p at the arm r (p on this body,
// -p on the other, K the point's mass matrix, u the anchors' relative velocity now):
//   w1 = w + I^-1 (h tau + r x p),  p = -K^-1 (u + (I^-1 h tau) x r),
// which is w1 = e + h G tau with e = w - I^-1 [r]x K^-1 u (the rows' projection of w) and
// G = I^-1 + I^-1 [r]x K^-1 [r]x I^-1, the body's inverse inertia at the joint (the inverse of
// its inertia about the pivot for a body on a fixed point). Torque-free with that inertia,
// L = G^-1 e is held and the body turns by F = tbTorqueFreeTurn(G, e, h), exactly for a G with
// an axis of symmetry (a spin about the body's own axis and a slow turn of everything about L:
// a heavy top's nutation about its pivot), its velocity going from e to w1 = F G F^T L. The
// turn is the substep's (tbSpinFlow, composed by tbTurnAt when the deltas move) and v follows
// w so that the anchors' relative velocity is kept as the arm r turns to r1 = F r (the other
// body answering: its mass mo, its inverse inertia Io, its arm ro):
//   ((m + mo) 1 - [ro]x Io [ro]x) p = e x r - w1 x r1.
// The change is given half before the substep's passes and half after its turn (kick, drift,
// kick: Strang's splitting, which keeps the vertical angular momentum of a top that either half
// alone lets drift); the deltas turn the body by the flow and its mean velocity (e + w1) / 2,
// and what the passes add beyond that as a plain rotation. A body on several joints gets no
// term: taken at its own G = I^-1 before its joints act, the term is partly undone by them
// each substep and drains energy; its w is held, as before. Without the term a disc spinning
// on a ball joint precesses at m g r / (It ws) instead of m g r / (Is ws) (It, Is its inertias
// across and about the axle).
void tbJointBodyGyroFlow(const tbJointRecord* records, const tbJointBody* jb,
                         tbRigidBody* const* bodies, const tbSolverBody* states, float h,
                         float maxRotation)
{
	// Only bodies on ball joints alone (tbListJointBodies): a body held by any other joint has
	// its joint's angular rows take the gyroscopic torque and pass it to the other body, which
	// the point rows' foresight below does not see (left to w held, as before).
	TB_ASSERT(jb->gyro != 0);
	const tbJointRecord* r = records + jb->record;
	int side = jb->side;
	int b = jb->index, o = side == 0 ? r->indexB : r->indexA;
	float mb = side == 0 ? r->mA : r->mB, mo = side == 0 ? r->mB : r->mA;
	const tbRigidBody* body = bodies[b];
	const tbSolverBody* s = states + b;
	tbSpinFlow* f = r->flows + b;
	f->kick = 0.0f;
	f->wScale = 1.0f;
	mat3s Iinv = tbMat3Rotate(tbMat3Mul(tbTurnAt(r, b, s), body->state.R), body->IbodyInv);
	vec3s w = tbGetW(s);
	vec3s rb = tbMulMV(r->turns + b, side == 0 ? r->rA : r->rB);
	vec3s ro = tbMulMV(r->turns + o, side == 0 ? r->rB : r->rA);
	const mat3s* Io = r->turnedInertias + o;
	mat3s Sb = tbSkew(rb), So = tbSkew(ro);
	mat3s SoIoSo = tbMat3Mul(tbMat3Mul(So, *Io), So);
	mat3s K = tbMat3Add(tbMat3ScaleM(glms_mat3_identity(), mb + mo),
	                    tbMat3ScaleM(tbMat3Add(tbMat3Mul(tbMat3Mul(Sb, Iinv), Sb), SoIoSo), -1.0f));
	mat3s Kinv = tbMat3Inverse(K);
	vec3s e = w, w1 = w;
	mat3s G = Iinv, IKS = glms_mat3_zero(), flow = glms_mat3_identity();
	bool held = tbIsFiniteMat(Kinv);
	if (held) {
		IKS = tbMat3Mul(tbMat3Mul(Iinv, Sb), Kinv);
		G = tbMat3Add(Iinv, tbMat3Mul(tbMat3Mul(IKS, Sb), Iinv));
	}
	// The rotation cap (tbIntegrateVelocities) on the flow's turn of everything off the body's
	// axis; its spin about the axis moves nothing and is not capped. The cap scales w, given to
	// the body with the kick (tbJointGyroscopicKick).
	for (int pass = 0; pass < 2; ++pass) {
		vec3s u = glms_vec3_sub(
		    glms_vec3_add(tbGetV(s), glms_vec3_cross(w, rb)),
		    glms_vec3_add(tbGetV(states + o), glms_vec3_cross(tbGetW(states + o), ro)));
		e = held ? glms_vec3_sub(w, tbMat3MulV(IKS, u)) : w;
		float rate;
		flow = tbTorqueFreeTurn(G, e, h, &w1, &rate);
		if (pass > 0 || !(h * rate > maxRotation)) {
			break;
		}
		float scale = maxRotation / (h * rate);
		f->wScale = scale;
		w = glms_vec3_scale(w, scale);
	}
	vec3s r1 = tbMat3MulV(flow, rb);
	mat3s Kp = tbMat3Add(tbMat3ScaleM(glms_mat3_identity(), mb + mo), tbMat3ScaleM(SoIoSo, -1.0f));
	vec3s p = tbMat3MulV(tbMat3Inverse(Kp),
	                     glms_vec3_sub(glms_vec3_cross(e, rb), glms_vec3_cross(w1, r1)));
	// Halves: this body's dw, dv and the other's.
	f->dw = glms_vec3_scale(glms_vec3_sub(w1, e), 0.5f);
	f->dv = glms_vec3_scale(p, 0.5f * mb);
	f->dvOther = glms_vec3_scale(p, -0.5f * mo);
	f->dwOther = glms_vec3_scale(tbMat3MulV(*Io, glms_vec3_cross(ro, p)), -0.5f);
	f->other = (side == 0 ? r->movesB : r->movesA) ? o : -1;
	if (!tbIsFiniteMat(flow) || !tbIsFiniteVec3(f->dw) || !tbIsFiniteVec3(f->dv) ||
	    !tbIsFiniteVec3(f->dwOther)) {
		return;
	}
	f->flow = flow;
	f->drift = glms_vec3_scale(glms_vec3_add(e, w1), 0.5f * h);
	f->pending = 1.0f;
	f->kick = 1.0f;
}

// One half of the gyro bodies' changes, in list order: the first (with the rotation cap's scale
// of w, taken whether or not the flow was kept, as w held) or the second (the kick then spent).
static void tbGiveGyroHalves(const tbJointRecord* records, const tbJointBody* list, const int* gyro,
                             int count, tbSolverBody* states, bool first)
{
	for (int k = 0; k < count; ++k) {
		const tbJointBody* jb = list + gyro[k];
		tbSpinFlow* f = records[jb->record].flows + jb->index;
		for (int c = 0; c < 3 && first && f->wScale != 1.0f; ++c) {
			states[jb->index].w[c] *= f->wScale;
		}
		if (f->kick != 0.0f) {
			tbSpinKick(f, states, jb->index);
			if (!first) {
				f->kick = 0.0f;
			}
		}
	}
}

void tbJointGyroscopicKick(const tbJointRecord* records, const tbJointBody* list, const int* gyro,
                           int count, tbSolverBody* states)
{
	tbGiveGyroHalves(records, list, gyro, count, states, true);
}

void tbJointGyroscopicEnd(const tbJointRecord* records, const tbJointBody* list, const int* gyro,
                          int count, tbSolverBody* states)
{
	tbGiveGyroHalves(records, list, gyro, count, states, false);
}
