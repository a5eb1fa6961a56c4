// The soft step: solver bodies, graph colouring, the substep loop, and Baraff's state brought up
// to date once per step.
#define _POSIX_C_SOURCE 200809L // clock_gettime for the stage times in tbSolverStats

#include <math.h>
#include <string.h>
#include <time.h>

#include "dynamics_math.h"
#include "integrator_internal.h"
#include "joint_internal.h"
#include "ledger_internal.h"
#include "solver_internal.h"

// Graph colours: the contact constraints of one colour share no dynamic body, so they can be
// solved side by side in SIMD lanes in any order with the same result. 24 colours as Box2D v3;
// a constraint that finds none (a body with more than 24 contacts) goes to the overflow,
// solved one at a time after the colours.
#define TB_GRAPH_COLORS 24

// The joints' own colours, solved colour by colour before the contacts' in every pass: the units
// of one colour (a joint, or a group of joints solved together) share no dynamic body. A unit
// that finds none, or a group too large for a worker's work memory, is solved after them, one at
// a time.
#define TB_JOINT_COLORS 24

tbSolverDef tbDefaultSolverDef(void)
{
	tbSolverDef def;
	memset(&def, 0, sizeof def);
	def.gravity = tbV3(0.0f, -9.81f, 0.0f);
	// Catto, "Solver2D" (2024) and Box2D v3: 4 substeps with 1 biased and 1 relax iteration each
	// beat more iterations on one step: each substep re-linearizes the contacts.
	def.substeps = 4;
	def.iterations = 1;
	def.relaxIterations = 1;
	// Catto, GDC 2011 "Soft constraints": a stiff but over-damped contact spring; the push-out
	// speed cap keeps deep overlaps from launching bodies. 60 Hz is capped at a quarter of the
	// substep rate (60 Hz at 4 substeps of 1/240 s).
	def.contactHertz = 60.0f;
	def.contactDampingRatio = 10.0f;
	def.contactPushMaxSpeed = 3.0f;
	def.restitutionThreshold = 1.0f;
	// Box2D v3's b2_maxRotation: a quarter turn per substep is far beyond any simulated spin at
	// 240 Hz (94 rad/s... 377 rad/s at 1/4 pi per 1/240 s) and keeps the rotation deltas small
	// enough for the first-order separation update and for RK4 in free flight.
	def.maxRotation = 0.25f * 3.14159265f;
	// Joints as stiff as contacts, more damped (Box2D v3's joint softness).
	def.jointSoftness.hertz = 60.0f;
	def.jointSoftness.dampingRatio = 2.0f;
	def.enableWarmStarting = true;
	def.enableRollingResistance = true;
	def.enableRestitution = true;
	def.integrator = TB_DEFAULT_INTEGRATOR;
	def.orthonormalizer = tb_orthoGramSchmidt;
	return def;
}

// The scratch block, carved in this order, each part 64-byte aligned.
typedef struct tbScratchLayout
{
	size_t states, motions, colorMasks, contactColors, order, refreshes, refreshGaps, rolling,
	    groups, joints, jointMore, jointKeys, jointGroups, jointInertias, jointBatches, statics,
	    total;
	int groupCapacity;
} tbScratchLayout;

static size_t tbAlign64(size_t n)
{
	return (n + 63u) & ~(size_t)63u;
}

// The next part of the block: its offset, `at` moved past it to the next 64-byte boundary.
static size_t tbCarve(size_t* at, size_t bytes)
{
	size_t offset = *at;
	*at += tbAlign64(bytes);
	return offset;
}

static tbScratchLayout tbLayout(int bodyCount, int contactCount, int jointCount)
{
	tbScratchLayout l;
	size_t at = 0;
	// The parts sized by the bodies and joints first, those sized by the contacts after them and
	// the records last: the block is kept from step to step, and a part that moved with the
	// contact count would leave the pages it had used behind it resident, step after step.
	// tbSolverFinish finds the states and colour masks with no contacts and no joints.
	// The bodies' states, then the static body and the sink (tbContactConstraintW.writeA) of the
	// serial step.
	l.states = tbCarve(&at, (size_t)(bodyCount + 2) * sizeof(tbSolverBody));
	l.motions = tbCarve(&at, (size_t)bodyCount * sizeof(tbSolverBodyMotion));
	l.colorMasks = tbCarve(&at, (size_t)bodyCount * sizeof(uint32_t));
	l.joints = tbCarve(&at, (size_t)jointCount * sizeof(tbJointRecord));
	// The records' rest (tbJointMore), touched only for the joints outside the batches.
	l.jointMore = tbCarve(&at, (size_t)jointCount * sizeof(tbJointMore));
	// The records' keys for the passes over every joint on one thread (tbJointKey).
	l.jointKeys = tbCarve(&at, (size_t)jointCount * sizeof(tbJointKey));
	// Joint groups and colours: union-find parents and each root's group, the order and starts
	// of the groups, the units in joint order and their colours, the joints unit by unit in
	// colour order and where each unit begins, each body's joint colours, the jointed bodies; the
	// direct solve's matrix (one per worker, or one of the largest size for the units solved one
	// at a time).
	l.jointGroups = at;
	if (jointCount > 0) {
		at += tbAlign64((size_t)(3 * (bodyCount + 1) + 6 * jointCount + 2) * sizeof(int));
		at += tbAlign64((size_t)(bodyCount + 1) * sizeof(tbJointBody));
		size_t one = tbJointGroupWorkBytes(TB_MAX_DIRECT_JOINTS);
		size_t each = tbJointGroupWorkBytes(TB_PARALLEL_DIRECT_JOINTS);
		size_t all = (size_t)TB_SOLVER_MAX_WORKERS * each;
		at += tbAlign64(one > all ? one : all);
	}
	// Jointed bodies' inverse inertias of the substep, their geometric stiffness, their turns
	// and their turned inverse inertias (four mat3s per body), the fraction of the stiffness taken
	// (a float) and a mark per body.
	l.jointInertias = at;
	if (jointCount > 0) {
		at += tbAlign64((size_t)(bodyCount + 1) * 4u * sizeof(mat3s));
		at += tbAlign64((size_t)(bodyCount + 1) * sizeof(float));
		at += tbAlign64((size_t)(bodyCount + 1));
		// What the turns composed; the torque-free turns of the substep.
		at += tbAlign64((size_t)(bodyCount + 1) * sizeof(vec3s));
		at += tbAlign64((size_t)(bodyCount + 1) * sizeof(tbSpinFlow));
		// The jointed bodies with the gyroscopic term (their places in the jointed bodies' list).
		at += tbAlign64((size_t)(bodyCount + 1) * sizeof(int));
		// The turns a substep ahead (tbAheadTurn).
		at += tbAlign64((size_t)(bodyCount + 1) * sizeof(tbAheadTurn));
	}
	// The ball joints solved TB_SIMD_WIDTH at a time: each colour leaves at most one batch partly
	// filled.
	l.jointBatches = at;
	if (jointCount > 0) {
		at += tbAlign64((size_t)(jointCount / TB_SIMD_WIDTH + TB_JOINT_COLORS + 1) *
		                sizeof(tbBallBatch));
	}
	l.contactColors = tbCarve(&at, (size_t)contactCount * sizeof(int));
	// With parallelFor: the contacts by colour, each colour's in input order (the records' lanes).
	l.order = tbCarve(&at, (size_t)contactCount * sizeof(int));
	// The lanes of the contacts remade each substep (record * width + lane).
	l.refreshes = tbCarve(&at, (size_t)contactCount * sizeof(int));
	// Their gaps, the turns after them, and their contacts' spin reaches (A's, B's) and turn
	// limits copied side by side (the look of every substep reads these, not the contacts).
	l.refreshGaps = tbCarve(&at, (size_t)contactCount * 5u * sizeof(float));
	// The rolling contacts' rows (tbRollingRow), beside their list.
	l.rolling = tbCarve(&at, (size_t)contactCount * sizeof(tbRollingRow));
	// Each colour leaves at most one partly filled record; each overflow constraint has its own.
	l.groupCapacity = contactCount + TB_GRAPH_COLORS;
	// With parallelFor, each record has a static body and a sink of its own, side by side: the
	// records of one colour are solved side by side and every one of them writes its static lanes
	// back, and its kinematic lanes to the sink. After the states by a multiple of a body's size
	// (tbSolverBody is 64 bytes): they are indexed from them.
	_Static_assert(64 % sizeof(tbSolverBody) == 0, "the statics sit a whole number of bodies on");
	l.statics = tbCarve(&at, (size_t)l.groupCapacity * 2u * sizeof(tbSolverBody));
	// The records last: only the first few of their room (a quarter or so: TB_SIMD_WIDTH
	// contacts to a record) are used unless many constraints overflow the colours.
	l.groups = tbCarve(&at, (size_t)l.groupCapacity * sizeof(tbContactConstraintW));
	l.total = at;
	return l;
}

size_t tbSolverScratchBytes(int bodyCount, int contactCount, int jointCount)
{
	return tbLayout(bodyCount, contactCount, jointCount).total;
}

// A body's colour mask before the colouring: no colour taken; its type in bits the colours do
// not use, so that the colouring reads one word per body (tbColorContacts).
#define TB_MASK_STILL (1u << 28) // does not move with contacts (static or kinematic)

// Velocities, accelerations and damping of every body for the step; zero deltas; each body's
// colour mask cleared to its type.
static void tbPrepareBodies(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                            tbSolverBody* states, tbSolverBodyMotion* motions, uint32_t* masks,
                            float h)
{
	for (int i = 0; i < bodyCount; ++i) {
		const tbRigidBody* body = bodies[i];
		masks[i] = body->type == tb_dynamicBody ? 0u : TB_MASK_STILL;
		tbSolverBody* s = states + i;
		memset(s, 0, sizeof *s);
		// Baraff's auxiliary variables are current: v = P / M, w = I^-1 L (kinematic: set).
		memcpy(s->v, body->v.raw, sizeof body->v.raw);
		memcpy(s->w, body->w.raw, sizeof body->w.raw);
		tbSolverBodyMotion* m = motions + i;
		m->flowTurned = false;
		if (body->type == tb_dynamicBody) {
			// dP/dt = F + M g - c P and dL/dt = tau - c L (Baraff I: Y'), in velocity form with
			// the step's inertia: dv/dt = F / M + g, dw/dt = I^-1 tau; damping implicit.
			m->linearAcceleration = tbMulAdd(glms_vec3_scale(body->force, body->invMass),
			                                 body->gravityScale, def->gravity);
			m->angularAcceleration = tbMat3MulV(body->Iinv, body->torque);
			m->linearDamping = 1.0f / (1.0f + h * body->linearDamping);
			m->angularDamping = 1.0f / (1.0f + h * body->angularDamping);
		} else {
			m->linearAcceleration = tbV3(0.0f, 0.0f, 0.0f);
			m->angularAcceleration = tbV3(0.0f, 0.0f, 0.0f);
			m->linearDamping = 1.0f;
			m->angularDamping = 1.0f;
		}
	}
}

static void tbIntegrateVelocities(tbSolverBody* states, const tbSolverBodyMotion* motions,
                                  int bodyCount, float h, float maxRotation)
{
	float maxW2 = (maxRotation / h) * (maxRotation / h);
	for (int i = 0; i < bodyCount; ++i) {
		tbSolverBody* s = states + i;
		const tbSolverBodyMotion* m = motions + i;
		float w2 = 0.0f;
		for (int k = 0; k < 3; ++k) {
			s->v[k] = (s->v[k] + h * m->linearAcceleration.raw[k]) * m->linearDamping;
			s->w[k] = (s->w[k] + h * m->angularAcceleration.raw[k]) * m->angularDamping;
			w2 += s->w[k] * s->w[k];
		}
		if (w2 > maxW2 && !m->flowTurned) {
			// Box2D's rotation cap: a body never turns more than maxRotation in a substep, so a
			// huge finite spin stays a rotation (and the deltas stay small).
			float scale = sqrtf(maxW2 / w2);
			for (int k = 0; k < 3; ++k) {
				s->w[k] *= scale;
			}
		}
	}
}

static void tbIntegrateDeltas(tbSolverBody* states, int bodyCount, float h)
{
	for (int i = 0; i < bodyCount; ++i) {
		tbSolverBody* s = states + i;
		for (int k = 0; k < 3; ++k) {
			s->dp[k] += h * s->v[k];
			s->dtheta[k] += h * s->w[k];
		}
	}
}

// The rotation by the rotation vector t (angle |t| about t / |t|): Rodrigues' formula, as a
// series where the angle is tiny.
static mat3s tbRotationFromVector(vec3s t)
{
	float angle2 = glms_vec3_dot(t, t);
	float a, b;
	if (angle2 < 1e-6f) {
		a = 1.0f - angle2 / 6.0f;
		b = 0.5f - angle2 / 24.0f;
	} else {
		float angle = sqrtf(angle2);
		tbCosSin cs = tbComputeCosSin(angle);
		a = cs.sine / angle;
		b = (1.0f - cs.cosine) / angle2;
	}
	mat3s W = tbSkew(t);
	return tbMat3MulAdd(tbMat3MulAdd(glms_mat3_identity(), a, W), b, tbMat3Mul(W, W));
}

// An upper bound of how fast two bodies' surfaces near a contact approach, m/s: their relative
// velocity plus each one's spin times the reach of its shape from its centre of mass. `turn`
// gets how fast the relative turn moves the surfaces against the held anchors: the relative spin
// times the larger reach (two bodies turning alike, a pile tumbling together, keep their contact
// features).
static inline __attribute__((always_inline)) float tbSurfaceSpeed(const tbSolverBody* a,
                                                                  const tbSolverBody* b,
                                                                  float reachA, float reachB,
                                                                  float* turn, float* spins)
{
	float dv[3] = {b->v[0] - a->v[0], b->v[1] - a->v[1], b->v[2] - a->v[2]};
	float dw[3] = {b->w[0] - a->w[0], b->w[1] - a->w[1], b->w[2] - a->w[2]};
	float wa = sqrtf(a->w[0] * a->w[0] + a->w[1] * a->w[1] + a->w[2] * a->w[2]);
	float wb = sqrtf(b->w[0] * b->w[0] + b->w[1] * b->w[1] + b->w[2] * b->w[2]);
	*turn =
	    sqrtf(dw[0] * dw[0] + dw[1] * dw[1] + dw[2] * dw[2]) * (reachA > reachB ? reachA : reachB);
	*spins = wa + wb;
	return sqrtf(dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]) + wa * reachA + wb * reachB;
}

// The gap of a manifold: its smallest separation, or `margin` when it has no point (the pair is
// farther apart than that).
static float tbManifoldGap(const tbManifold* m, float margin)
{
	float gap = margin;
	for (int i = 0; i < m->pointCount; ++i) {
		gap = m->points[i].separation < gap ? m->points[i].separation : gap;
	}
	return gap;
}

// Pairs turning too fast for one manifold per step (the caller marks them) are made again at
// the poses of now: a spinning cone's rim point recedes while the rim beside it sweeps in, which
// the step's anchored points cannot see. `at` is the lane (record * width + lane); `gap` and
// `turn` its running bounds. Writes only the lane and its contact.
static inline void tbRefreshOne(const tbSolverDef* def, tbContactConstraintW* groups,
                                tbContactConstraint* contacts, tbRigidBody* const* bodies,
                                const tbSolverBody* states, float h, int at, float reachA,
                                float reachB, float refreshTurn, float* gap, float* turn,
                                int worker)
{
	tbContactConstraintW* g = groups + at / TB_SIMD_WIDTH;
	int lane = at % TB_SIMD_WIDTH;
	float spin, spins,
	    speed = tbSurfaceSpeed(states + g->bodyA[lane], states + g->bodyB[lane], reachA, reachB,
	                           &spin, &spins);
	// How far the turns may have carried the surfaces from the anchored points since the last
	// narrow phase (translation leaves anchored points exact). `gap` is a lower bound of the gap
	// now: the gap then less what the surfaces could close in each substep since, at the speed
	// the substep began with (the positions move with the biased pass's velocities, which the
	// relax pass then lowers: the speed now may be far below the one that moved them).
	float turned = *turn + h * spin, closed = *gap;
	*turn = turned;
	*gap = closed - h * speed;
	// A dormant record is solved again from the substep in which this pair can close: its biased
	// pass and its relax pass may each carry the surfaces h speed nearer (tbStartsDormant).
	if (g->dormant != 0 && closed <= 2.0f * h * speed) {
		g->dormant = 0;
	}
	// Made again only when the anchors would be off by the end of this substep and the pair can
	// close its gap in it: one still far apart, moving apart or barely turning is left as it is.
	// The contact itself is read only past this test (the reaches and the limit are copies).
	if (closed > h * speed || turned + h * spin < refreshTurn) {
		return;
	}
	tbContactConstraint* contact = contacts + g->contact[lane];
	tbManifold before = contact->manifold;
	float along;
	// A face turning under a sliding point closes on it by up to (h speed) (h spins) beyond what
	// the rows see (tbAnticipateTurn); where that is within the turn allowed between looks the
	// engine need not look ahead.
	bool ahead = h * speed * h * spins > refreshTurn;
	tbRefreshResult result =
	    tbRefreshContactLane(g, lane, contact, bodies, states, def, h, ahead, worker, &along);
	if (result == tb_refreshKept) {
		// The anchored points still hold the deepest features: they go on, and the shapes'
		// separation along the normal bounds the gap from below.
		*gap = along - h * speed;
		*turn = -refreshTurn;
	} else if (result == tb_refreshMade) {
		*gap = tbManifoldGap(&contact->manifold, contact->margin) - h * speed;
		bool same = before.pointCount == contact->manifold.pointCount;
		for (int k = 0; same && k < before.pointCount; ++k) {
			same = before.points[k].id == contact->manifold.points[k].id;
		}
		// The same features again: the anchored points were following the surfaces, so the pair
		// may turn twice as far before the next look.
		*turn = same ? -refreshTurn : 0.0f;
	}
}

// The running bound of tbRefreshOne for a refreshed lane before the first substep: the step's
// manifold's gap less what the surfaces may close in that substep at the step's velocities.
static float tbRefreshStartGap(const tbContactConstraintW* groups,
                               const tbContactConstraint* contacts, const tbSolverBody* states,
                               float h, int at)
{
	const tbContactConstraintW* g = groups + at / TB_SIMD_WIDTH;
	int lane = at % TB_SIMD_WIDTH;
	const tbContactConstraint* contact = contacts + g->contact[lane];
	float spin, spins,
	    speed = tbSurfaceSpeed(states + g->bodyA[lane], states + g->bodyB[lane],
	                           contact->spinReachA, contact->spinReachB, &spin, &spins);
	return tbManifoldGap(&contact->manifold, contact->margin) - h * speed;
}

// Whether a contact starts the step dormant: a refresh candidate (tbRefreshOne looks at it every
// substep), with no impulse to warm start and no bounce, whose gap exceeds what its surfaces can
// close in the first substep's biased pass and its relax pass together, 2 h times their speed
// (tbSurfaceSpeed, with the substep's kick h a added to the velocities). Each of its rows then
// finds the pair apart by more than its closing over the substep and takes no impulse (the
// accumulated impulse stays zero), so its record may be skipped, with the same bits, until
// tbRefreshOne finds that the pair can close. A pair struck into within a substep (an impact
// there swinging one of its bodies over) is solved from the next substep on: the swing margin's
// pairs (contact_refresh.c, tbSwingReach), most of which never take an impulse, then cost the
// passes nothing.
static bool tbStartsDormant(const tbContactConstraint* c, const tbSolverBody* states,
                            const tbSolverBodyMotion* motions, int staticBody, float h)
{
	if (!c->refresh || c->restitution > 0.0f || c->impulses == NULL) {
		return false;
	}
	const tbContactImpulses* im = c->impulses;
	if (glms_vec3_norm2(im->frictionImpulse) != 0.0f || im->twistImpulse != 0.0f) {
		return false;
	}
	for (int i = 0; i < im->pointCount && i < TB_MAX_MANIFOLD_POINTS; ++i) {
		if (im->points[i].normalImpulse != 0.0f) {
			return false;
		}
	}
	int a = c->bodyA != TB_NULL_BODY ? c->bodyA : staticBody;
	int b = c->bodyB != TB_NULL_BODY ? c->bodyB : staticBody;
	float spin, spins,
	    speed = tbSurfaceSpeed(states + a, states + b, c->spinReachA, c->spinReachB, &spin, &spins);
	for (int k = 0; k < 2; ++k) {
		int body = k == 0 ? a : b;
		if (body != staticBody) {
			const tbSolverBodyMotion* m = motions + body;
			speed += h * (glms_vec3_norm(m->linearAcceleration) +
			              glms_vec3_norm(m->angularAcceleration) *
			                  (k == 0 ? c->spinReachA : c->spinReachB));
		}
	}
	return tbManifoldGap(&c->manifold, c->margin) > 2.0f * h * speed;
}

// The refreshed lanes' bounds before the first substep, for lanes [start, end) of the list: the
// gap (tbRefreshStartGap), no turn yet, and the contact's reaches and turn limit. Each writes only
// its own entries.
typedef struct tbRefreshStartTask
{
	const tbContactConstraintW* groups;
	const tbContactConstraint* contacts;
	const tbSolverBody* states;
	float h;
	const int* refreshes;
	float *gaps, *turns, *reachA, *reachB, *limits;
} tbRefreshStartTask;

static void tbRefreshStartRange(int start, int end, int worker, void* context)
{
	(void)worker;
	const tbRefreshStartTask* t = context;
	for (int r = start; r < end; ++r) {
		int lane = t->refreshes[r];
		const tbContactConstraintW* g = t->groups + lane / TB_SIMD_WIDTH;
		const tbContactConstraint* contact = t->contacts + g->contact[lane % TB_SIMD_WIDTH];
		t->gaps[r] = tbRefreshStartGap(t->groups, t->contacts, t->states, t->h, lane);
		t->turns[r] = 0.0f;
		t->reachA[r] = contact->spinReachA;
		t->reachB[r] = contact->spinReachB;
		t->limits[r] = contact->refreshTurn;
	}
}

// Below this turn in a step (rad), by dtheta and by the spin h w alike, the torque-free motion
// has nothing to add to Rot(dtheta): the turn itself changes R by less than the rounding of its
// unit columns, and the spin's change within the step (Euler's equations) by far less. RK4's four
// stages are then left out: bodies dropped without spin, in free fall or not yet turned.
#define TB_TURN_RK_FLOOR 0x1p-24f

// Baraff's state from the step's deltas, once per step: x = x0 + dp; P = M v; L = L0 + I0 dw
// (the solver held I0 = R0 Ibody R0^T, so this is exactly the angular momentum its impulses and
// torques gave); R turned by dtheta for a body held by contacts, or by the integrator with L held
// for a body in free flight (Baraff's torque-free motion: |L| exact, the energy to RK4's order).
// Then Gram-Schmidt and the auxiliary variables.
static bool tbFinishBody(const tbSolverDef* def, tbRigidBody* body, const tbSolverBody* s,
                         bool jointed, float dt)
{
	tbBodyState start = body->state;
	vec3s v = tbV3(s->v[0], s->v[1], s->v[2]);
	vec3s w = tbV3(s->w[0], s->w[1], s->w[2]);
	vec3s dtheta = tbV3(s->dtheta[0], s->dtheta[1], s->dtheta[2]);
	body->state.x = glms_vec3_add(start.x, tbV3(s->dp[0], s->dp[1], s->dp[2]));
	if (body->type == tb_kinematicBody) {
		body->state.R = tbMat3Mul(tbRotationFromVector(dtheta), start.R);
		body->state.R = tbOrthonormalize(body->state.R, def->orthonormalizer);
		tbRigidBody_UpdateDerived(body);
		return true;
	}
	body->state.P = glms_vec3_scale(v, body->mass);
	// L = L0 + I0 (w - w0) with I0 w = R0 (Ibody (R0^T w)): only the change goes through the
	// inertia, so a body in free flight keeps its L to the bit (w = w0 exactly without torque).
	vec3s dw = glms_vec3_sub(w, body->w);
	vec3s dwb = tbV3(glms_vec3_dot(start.R.col[0], dw), glms_vec3_dot(start.R.col[1], dw),
	                 glms_vec3_dot(start.R.col[2], dw));
	body->state.L = glms_vec3_add(start.L, tbMat3MulV(start.R, tbMat3MulV(body->Ibody, dwb)));
	// R: the soft step moves positions by the deltas (the biased pass's push-out is in dtheta,
	// and the relax pass then removes that speed from w), so a body turns by dtheta. But turning
	// by the solver's w, held with the start's inertia, gains energy on every step for a body
	// whose inertia is not a sphere's (integrator.c), as a rocking ellipsoid does. So
	// the part of dtheta that is the final spin, h w, is replaced by Baraff's torque-free motion
	// dR/dt = (R Ibody^-1 R^T L)* R with the final L held (the chosen integrator), and only the
	// rest, the position correction, is a plain rotation: R = Rot(dtheta - h w) Integrate(R0, L).
	// In free flight dtheta = h w exactly, so R is the integrator's alone (|L| exact, energy to
	// RK4's order). For a spherical inertia (cubes, balls) w = L / I does not turn with R, and
	// Rot(dtheta) is already exact.
	if (jointed) {
		// A jointed body's joints turned its inertia with it through the step (joint_solver.c),
		// so w is its primary velocity: R turns by dtheta, and L = I(R) w at the new R.
		body->state.R = tbOrthonormalize(tbMat3Mul(tbRotationFromVector(dtheta), start.R),
		                                 def->orthonormalizer);
		vec3s wb =
		    tbV3(glms_vec3_dot(body->state.R.col[0], w), glms_vec3_dot(body->state.R.col[1], w),
		         glms_vec3_dot(body->state.R.col[2], w));
		body->state.L = tbMat3MulV(body->state.R, tbMat3MulV(body->Ibody, wb));
	} else if ((tbMat3IsIsotropic(&body->Ibody) ||
	            (glms_vec3_dot(dtheta, dtheta) < TB_TURN_RK_FLOOR * TB_TURN_RK_FLOOR &&
	             dt * dt * glms_vec3_dot(w, w) < TB_TURN_RK_FLOOR * TB_TURN_RK_FLOOR)) &&
	           def->integrator != tb_explicitEuler) {
		body->state.R = tbMat3Mul(tbRotationFromVector(dtheta), start.R);
	} else {
		mat3s free = tbIntegrateRotation(body, start.R, body->state.L, dt, def->integrator);
		vec3s correction = tbMulAdd(dtheta, -dt, w);
		// In free flight the correction is only the substeps' rounding of dt w: a turn under
		// 2^-24 rad changes R by less than the rounding of its unit columns, and is left out.
		const float tiny = 0x1p-24f;
		body->state.R = glms_vec3_dot(correction, correction) > tiny * tiny
		                    ? tbMat3Mul(tbRotationFromVector(correction), free)
		                    : free;
	}
	body->state.R = tbOrthonormalize(body->state.R, def->orthonormalizer);
	tbRigidBody_UpdateDerived(body);
	if (!tbIsFiniteVec3(body->state.x) || !tbIsFiniteMat(body->state.R) ||
	    !tbIsFiniteVec3(body->state.P) || !tbIsFiniteVec3(body->state.L)) {
		// Never let a NaN out: the body stays where the step found it, at rest.
		body->state = start;
		body->state.P = tbV3(0.0f, 0.0f, 0.0f);
		body->state.L = tbV3(0.0f, 0.0f, 0.0f);
		tbRigidBody_UpdateDerived(body);
		return false;
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// The parallel loops (tbSolverDef.parallelFor): per body, per record, and per colour. A colour's
// records share no dynamic body, and each has its static body of its own (tbLayout), so they may
// be solved side by side with the same result as one after the other. A kinematic body may sit in
// many records of a colour: they read its velocities and deltas and never write them back
// (tbContactConstraintW.stillA). The overflow records run one at a time.

// Records per range, bodies per range: below these a loop runs inline.
#define TB_MIN_RECORDS 8
#define TB_MIN_BODIES 64
#define TB_MIN_FINISH_BODIES 16
#define TB_MIN_REFRESHES 16
// Rolling rows per range (a row is a few dozen operations).
#define TB_MIN_ROLLING 64

// Everything one of the loops below reads, in one place.
typedef struct tbSolverTask
{
	const tbSolverDef* def;
	tbRigidBody* const* bodies;
	tbSolverBody* states;
	tbSolverBodyMotion* motions;
	tbContactConstraintW* groups;
	tbContactConstraint* contacts;
	uint32_t* colorMasks; // each body's type, then its colours (tbPrepareBodies, the colouring)
	int *pairA, *pairB;   // each contact's bodies, listed for the colouring (tbListPairsTask)
	// tbFillRecordsTask: the contacts by colour (order), where each colour's contacts and
	// records begin, the records' first static body (-1: one worker, one static body shared) and
	// the two softnesses.
	const int* order;
	const int* groupStart;
	int colorBase[TB_GRAPH_COLORS + 2];
	int staticBase;
	const tbSoftness* soft;
	int first;     // the first record of the colour being run
	int bodyCount; // the solver's bodies (indices past it are static stand-ins)
	// The refreshed lanes (record * width + lane, in record order) and their running bounds.
	const int* refreshes;
	float *refreshGaps, *refreshTurns;
	const float *refreshReachA, *refreshReachB, *refreshLimits; // per refreshed lane
	int refreshCount;
	float h, invH, dt;
	bool useBias;
	bool addStepImpulses; // tbSolveTask: the substep's last pass, sum its impulses after it
	bool bounces; // some contact has restitution: the impact speeds are needed (tbSetImpactSpeedW)
	int stopped[TB_SOLVER_MAX_WORKERS]; // tbSolverFinish's count, per worker
} tbSolverTask;

static void tbPrepareBodies(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                            tbSolverBody* states, tbSolverBodyMotion* motions, uint32_t* masks,
                            float h);
static void tbIntegrateVelocities(tbSolverBody* states, const tbSolverBodyMotion* motions,
                                  int bodyCount, float h, float maxRotation);
static void tbIntegrateDeltas(tbSolverBody* states, int bodyCount, float h);
static bool tbFinishBody(const tbSolverDef* def, tbRigidBody* body, const tbSolverBody* s,
                         bool jointed, float dt);

static void tbPrepareBodiesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	tbPrepareBodies(t->def, t->bodies + start, end - start, t->states + start, t->motions + start,
	                t->colorMasks + start, t->h);
}

static void tbListPairsTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	bool refresh = t->def->refreshContact != NULL;
	for (int i = start; i < end; ++i) {
		t->pairA[i] = t->contacts[i].bodyA;
		t->pairB[i] = t->contacts[i].bodyB;
		// Each contact's own flag, for the ordering after the colouring.
		t->contacts[i].dormant =
		    refresh && tbStartsDormant(t->contacts + i, t->states, t->motions, t->bodyCount, t->h);
	}
}

static void tbIntegrateVelocitiesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	tbIntegrateVelocities(t->states + start, t->motions + start, end - start, t->h,
	                      t->def->maxRotation);
}

static void tbIntegrateDeltasTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	tbIntegrateDeltas(t->states + start, end - start, t->h);
}

// Records [start, end) made whole, each on its own: cleared, its lanes' contacts (the colour's
// contacts in input order, TB_SIMD_WIDTH to a record, one to an overflow record) and static body
// set, then its rows and impact speeds. The same records as the serial step's fill.
static void tbFillRecordsTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	int k = 0; // the colour of record g (the overflow is colour TB_GRAPH_COLORS)
	for (int g = start; g < end; ++g) {
		// At most TB_GRAPH_COLORS + 1 colours to pass.
		while (k < TB_GRAPH_COLORS && g >= t->groupStart[k + 1]) {
			++k;
		}
		int width = k < TB_GRAPH_COLORS ? TB_SIMD_WIDTH : 1;
		int from = t->colorBase[k] + (g - t->groupStart[k]) * width;
		int to = from + width < t->colorBase[k + 1] ? from + width : t->colorBase[k + 1];
		// One worker: every record shares the one static body (zeroed by the caller) and sink.
		int recordStatic = t->staticBase >= 0 ? t->staticBase + 2 * g : t->bodyCount;
		int recordSink = recordStatic + 1;
		tbContactConstraintW* c = t->groups + g;
		memset(c, 0, sizeof *c);
		if (t->staticBase >= 0) {
			memset(t->states + recordStatic, 0, sizeof(tbSolverBody));
		}
		for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
			c->bodyA[lane] = c->bodyB[lane] = recordStatic;
			c->writeA[lane] = c->writeB[lane] = recordStatic;
			c->contact[lane] = -1;
		}
		c->dormant = from < to;
		for (int at = from; at < to; ++at) {
			int i = t->order[at];
			c->dormant = c->dormant && t->contacts[i].dormant;
			tbPrepareContactLane(c, at - from, t->contacts + i, i, t->bodies, recordStatic,
			                     recordSink, t->soft);
			if (t->def->enableRollingResistance) {
				t->contacts[i].record = g * TB_SIMD_WIDTH + (at - from);
			}
		}
		tbPrepareContactRowsW(c, t->contacts, t->bodies, t->def);
		if (t->bounces) {
			tbSetImpactSpeedW(c, t->states, t->motions, t->bodyCount, t->h);
		}
	}
}

static void tbWarmStartTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	for (int g = t->first + start; g < t->first + end; ++g) {
		if (t->groups[g].dormant == 0) {
			tbWarmStartContactsW(t->groups + g, t->states);
		}
	}
}

static void tbSolveTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	for (int g = t->first + start; g < t->first + end; ++g) {
		if (t->groups[g].dormant != 0) {
			continue; // its impulses stay zero (tbStartsDormant)
		}
		tbSolveContactsW(t->groups + g, t->states, t->invH, t->useBias);
		if (t->addStepImpulses) {
			// The record's own sums, as the serial step's pass over all records after the
			// relax pass (no other record reads them).
			tbAddStepImpulsesW(t->groups + g);
		}
	}
}

static void tbAddStepImpulsesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	for (int g = start; g < end; ++g) {
		tbAddStepImpulsesW(t->groups + g);
	}
}

// The refreshed lanes [start, end) of the list in record order, widened so that each record's
// lanes are all done by the range holding its first (lanes of a record share its wide rows).
static void tbRefreshTask(int start, int end, int worker, void* context)
{
	tbSolverTask* t = context;
	const int* at = t->refreshes;
	int n = t->refreshCount;
	while (start > 0 && start < end && at[start] / TB_SIMD_WIDTH == at[start - 1] / TB_SIMD_WIDTH) {
		++start;
	}
	if (start == end) {
		return; // every lane here belongs to a record of the range before
	}
	while (end < n && at[end] / TB_SIMD_WIDTH == at[end - 1] / TB_SIMD_WIDTH) {
		++end;
	}
	for (int r = start; r < end; ++r) {
		tbRefreshOne(t->def, t->groups, t->contacts, t->bodies, t->states, t->h, at[r],
		             t->refreshReachA[r], t->refreshReachB[r], t->refreshLimits[r],
		             t->refreshGaps + r, t->refreshTurns + r, worker);
	}
}

static void tbRestitutionTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	for (int g = t->first + start; g < t->first + end; ++g) {
		if (t->groups[g].dormant == 0) {
			tbApplyRestitutionW(t->groups + g, t->states, t->def->restitutionThreshold, t->h);
		}
	}
}

static void tbStoreImpulsesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbSolverTask* t = context;
	for (int g = start; g < end; ++g) {
		tbStoreContactImpulsesW(t->groups + g, t->contacts);
	}
}

static void tbFinishBodiesTask(int start, int end, int worker, void* context)
{
	tbSolverTask* t = context;
	TB_ASSERT(worker >= 0 && worker < TB_SOLVER_MAX_WORKERS);
	tbSolverFinishPass pass = {t->def, t->bodies, 0, t->states, t->colorMasks, t->dt};
	t->stopped[worker] += tbSolverFinishRange(&pass, start, end);
}

static void tbParallel(const tbSolverDef* def, tbSolverTaskFcn* task, int itemCount, int minRange,
                       tbSolverTask* t)
{
	def->parallelFor(task, itemCount, minRange, t, def->parallelContext);
}

// The rolling resistance's rows of one relax pass (rolling_resistance.c).
typedef struct tbRollingTask
{
	tbContactConstraint* contacts;
	const int* list;    // the rolling contacts, colour by colour
	tbRollingRow* rows; // their rows, beside the list
	const tbContactConstraintW* groups;
	tbRigidBody* const* bodies;
	tbSolverBody* states;
} tbRollingTask;

static void tbSolveRollingTask(int start, int end, int worker, void* context)
{
	(void)worker;
	const tbRollingTask* t = context;
	tbSolveRolling(t->contacts, t->list + start, t->rows + start, end - start, t->groups, t->bodies,
	               t->states);
}

// The rolling rows colour by colour, each colour's side by side; the overflow's one at a time.
static void tbSolveRollingColors(const tbSolverDef* def, const tbRollingTask* t, const int* starts,
                                 int count)
{
	if (count == 0) {
		return;
	}
	for (int k = 0; k < TB_GRAPH_COLORS; ++k) {
		int n = starts[k + 1] - starts[k];
		if (n > 0) {
			tbRollingTask colour = *t;
			colour.list = t->list + starts[k];
			colour.rows = t->rows + starts[k];
			def->parallelFor(tbSolveRollingTask, n, TB_MIN_ROLLING, &colour, def->parallelContext);
		}
	}
	int n = starts[TB_GRAPH_COLORS + 1] - starts[TB_GRAPH_COLORS];
	tbSolveRolling(t->contacts, t->list + starts[TB_GRAPH_COLORS],
	               t->rows + starts[TB_GRAPH_COLORS], n, t->groups, t->bodies, t->states);
}

// A pass over the records colour by colour (each colour's records side by side where it may),
// then the overflow records one at a time.
static void tbForColors(const tbSolverDef* def, tbSolverTaskFcn* task, tbSolverTask* t,
                        const int* groupStart)
{
	for (int k = 0; k <= TB_GRAPH_COLORS; ++k) {
		int n = groupStart[k + 1] - groupStart[k];
		if (n == 0) {
			continue;
		}
		t->first = groupStart[k];
		if (k < TB_GRAPH_COLORS) {
			tbParallel(def, task, n, TB_MIN_RECORDS, t);
		} else {
			task(0, n, 0, t);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// The joint passes. A unit is a joint, or a group of joints whose point rows are solved together
// (tbSolveJointGroup) with the joints' own rows before; the units are coloured as the contacts
// are (greedy, over their dynamic bodies), and each pass runs colour by colour, a colour's units
// side by side where parallelFor is given, then the uncoloured units one at a time. The serial
// step runs the same units in the same order, so every worker count gives the same bits. A joint
// writes only its dynamic bodies (the static and kinematic ones it reads are shared). A colour's
// plain ball joints (tbBallBatchable) run first, TB_SIMD_WIDTH at a time (tbBallBatch).

#define TB_MIN_JOINT_UNITS 4
#define TB_MIN_JOINTS 32
#define TB_MIN_JOINT_BATCHES 2
// A body's torque-free flow (tbJointBodyGyroFlow: an eigen decomposition, three 3 x 3 inverses)
// is many times a plain body pass's work: a few of them make a range worth a worker.
#define TB_MIN_GYRO_BODIES 4

typedef enum tbJointMode
{
	tb_jointPrepare,    // per joint: its record for the step
	tb_jointMore,       // per joint outside the batches: the rest of its record (tbJointMore)
	tb_jointFinish,     // per joint: its reaction and coordinates
	tb_jointTurnsNone,  // per body: its turn to none (the step's start)
	tb_jointTurnStart,  // per body: its turn, its stiffness and load cleared
	tb_jointStiffen,    // per body: its stiffened, turned inertia
	tb_jointTurn,       // per body: its turn and turned inertia after the deltas moved
	tb_jointTurnEnd,    // per body: its turn at the step's end (tbJointBodyEndTurn)
	tb_jointTurnDelta,  // per body: its composed turn written back into its dtheta
	tb_jointGyroFlow,   // per body: its torque-free flow of the substep (tbJointBodyGyroFlow)
	tb_jointLoad,       // per unit: the joints' loads summed on their bodies (tbJointAddLoad)
	tb_jointStiffness,  // per unit: the joints' geometric stiffness summed on their bodies
	tb_jointWarmStart,  // per unit
	tb_jointSolve,      // per unit: rows, then the group's direct solve
	tb_jointOrder,      // per unit: a group's elimination order and factor pattern
	tb_jointBatchInit,  // per batch: its lanes' joints read from their records
	tb_jointBatchStore, // per batch: its lanes' impulses into their joints
} tbJointMode;

typedef struct tbJointTask
{
	const tbSolverDef* def;
	bool parallel;
	tbJointMode mode;
	bool useBias;
	// Without useBias: the substep's last relax pass, after which the next substep's start
	// makes the jointed bodies' turns anew (tbSolveJointGroup's turnsRead).
	bool lastRelax;
	float h, invH;
	tbJointRecord* records;
	tbJointKey* keys;  // the records' keys (tbJointKey), made with them
	tbJointMore* more; // the records' rest, one per joint
	tbJointBinding* joints;
	tbRigidBody* const* bodies;
	tbSolverBody* states;
	int staticBody;
	// The step's arrays per solver body the records point to (tb_jointPrepare).
	mat3s *inertias, *turns, *turnedInertias;
	vec3s* turnedBy;
	tbSpinFlow* flows;
	tbAheadTurn* aheads;
	int gyroBodies;  // bodies with the gyroscopic term (tbJointBodyGyroFlow)
	const int* gyro; // their places in jointBodies, in its order
	float* stiffened;
	mat3s* stiffness;
	const tbJointBody* jointBodies;
	int jointBodyCount;
	int* seq;                            // the joints unit by unit, colour by colour
	const int* begin;                    // each unit's first entry of seq (units + 1)
	int colorStart[TB_JOINT_COLORS + 2]; // each colour's first unit; the last: the uncoloured
	int first;                           // the first unit of the colour being run
	float* work;                         // the direct solves' work, one slice per worker
	size_t workStride;                   // floats per slice
	// The ball joints taken TB_SIMD_WIDTH at a time (tbBallBatch): each colour's batches, and
	// each colour's first unit that is not in one (its batched units come first).
	tbBallBatch* batches;
	int batchStart[TB_JOINT_COLORS + 1];
	int restStart[TB_JOINT_COLORS + 1];
	int firstBatch;    // the first batch of the colour being run
	bool batchesFresh; // the batches' rows are of the turns of now
} tbJointTask;

static void tbJointsTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbJointTask* t = context;
	for (int i = start; i < end; ++i) {
		tbJointRecord* r = t->records + i;
		if (t->mode == tb_jointFinish) {
			tbFinishJoint(r, t->states, t->stiffness, t->h);
			continue;
		}
		if (t->mode == tb_jointMore) {
			// The grouping's answer, from the key; then every joint a batch may not take: the
			// batches never read it.
			r->component = t->keys[i].component;
			r->groupOpen = t->keys[i].groupOpen;
			if (!tbBallBatchable(r)) {
				tbPrepareJointMore(r, t->bodies);
			}
			continue;
		}
		tbPrepareJoint(r, t->joints + i, t->bodies, t->staticBody, &t->def->jointSoftness, t->h);
		r->more = t->more + i;
		r->inertias = t->inertias;
		r->stiffened = t->stiffened;
		r->turns = t->turns;
		r->turnedInertias = t->turnedInertias;
		r->turnedBy = t->turnedBy;
		r->flows = t->flows;
		r->aheads = t->aheads;
		t->keys[i] = tbJointKeyOf(r);
		if (!t->def->enableWarmStarting) {
			tbJoint* j = t->joints[i].joint;
			j->linearImpulse = j->angularImpulse = tbV3(0.0f, 0.0f, 0.0f);
			j->axialImpulse = j->lowerImpulse = j->upperImpulse = 0.0f;
			j->motorImpulse = j->springImpulse = 0.0f;
		}
	}
}

static void tbJointBodiesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbJointTask* t = context;
	if (t->mode == tb_jointGyroFlow) {
		// Over the bodies on one ball joint only (t->gyro).
		for (int i = start; i < end; ++i) {
			tbJointBodyGyroFlow(t->records, t->jointBodies + t->gyro[i], t->bodies, t->states, t->h,
			                    t->def->maxRotation);
		}
		return;
	}
	for (int i = start; i < end; ++i) {
		const tbJointBody* b = t->jointBodies + i;
		if (t->mode == tb_jointStiffen) {
			tbJointBodyStiffen(t->records, b, t->stiffness);
		} else if (t->mode == tb_jointTurnsNone) {
			tbJointBodyStartTurn(t->records, b);
		} else if (t->mode == tb_jointTurnEnd) {
			tbJointBodyEndTurn(t->records, b, t->states, t->stiffness);
		} else if (t->mode == tb_jointTurnDelta) {
			tbJointBodyTurnToDelta(t->records, b, t->states, t->stiffness);
		} else {
			tbJointBodyTurn(t->records, b, t->states,
			                t->mode == tb_jointTurnStart ? t->stiffness : NULL);
		}
	}
}

static void tbJointUnitsTask(int start, int end, int worker, void* context)
{
	TB_ASSERT(worker >= 0 && worker < TB_SOLVER_MAX_WORKERS);
	tbJointTask* t = context;
	for (int u = t->first + start; u < t->first + end; ++u) {
		int from = t->begin[u], to = t->begin[u + 1];
		if (t->mode == tb_jointOrder) {
			if (t->records[t->seq[from]].component >= 0) {
				tbOrderJointGroup(t->records, t->seq + from, to - from);
			}
			continue;
		}
		for (int at = from; at < to; ++at) {
			tbJointRecord* r = t->records + t->seq[at];
			if (t->mode == tb_jointSolve) {
				tbSolveJoint(r, t->states, t->invH, t->useBias);
			} else if (t->mode == tb_jointWarmStart) {
				tbWarmStartJoint(r, t->states);
			} else if (t->mode == tb_jointLoad) {
				tbJointAddLoad(r, t->stiffened);
			} else {
				tbJointAddStiffness(r, t->states, t->stiffness, t->stiffened);
			}
		}
		// The group's point rows, solved together after its joints' own rows (the joints take
		// one biased pass a substep: tbRunJointUnits).
		if (t->mode == tb_jointSolve && t->records[t->seq[from]].component >= 0) {
			bool turnsRead = t->useBias || !t->lastRelax || t->records[t->seq[from]].groupOpen;
			tbSolveJointGroup(t->records, t->seq + from, to - from, t->states, t->useBias,
			                  turnsRead, t->work + (size_t)worker * t->workStride);
		}
	}
}

static void tbJointBatchesTask(int start, int end, int worker, void* context)
{
	(void)worker;
	tbJointTask* t = context;
	for (int i = t->firstBatch + start; i < t->firstBatch + end; ++i) {
		tbBallBatch* b = t->batches + i;
		if (t->mode == tb_jointBatchInit) {
			// The colour k it is of, then its lanes: that colour's batched units from its
			// first, TB_SIMD_WIDTH to a batch.
			int k = 0;
			while (k + 1 < TB_JOINT_COLORS && t->batchStart[k + 1] <= i) {
				++k;
			}
			int first = t->colorStart[k] + (i - t->batchStart[k]) * TB_SIMD_WIDTH;
			int lanes[TB_SIMD_WIDTH];
			int count = 0;
			for (int v = first; v < t->restStart[k] && count < TB_SIMD_WIDTH; ++v) {
				lanes[count++] = t->seq[t->begin[v]];
			}
			tbBallBatchInit(b, t->records, lanes, count, t->staticBody);
			continue;
		}
		if (t->mode == tb_jointBatchStore) {
			tbBallBatchStore(b, t->records); // each joint is in one lane of one batch
			continue;
		}
		if (t->mode == tb_jointSolve) {
			if (!t->batchesFresh) {
				// The first pass after the turns moved (tb_jointTurn).
				tbBallBatchAnchors(b);
				tbBallBatchPrepare(b, t->states);
			}
			tbBallBatchSolve(b, t->states, t->useBias);
		} else if (t->mode == tb_jointWarmStart) {
			// The anchors are the stiffness pass's (the turns have not moved since).
			tbBallBatchPrepare(b, t->states);
			tbBallBatchWarmStart(b, t->states);
		} else {
			// The substep's start: the turns moved (tb_jointTurnStart).
			tbBallBatchAnchors(b);
			tbBallBatchAddStiffness(b, t->stiffness);
		}
	}
}

// A per-joint or per-body pass over `count` items.
static void tbRunJoints(tbJointTask* t, tbJointMode mode, int count)
{
	t->mode = mode;
	bool perJoint = mode == tb_jointPrepare || mode == tb_jointMore || mode == tb_jointFinish;
	tbSolverTaskFcn* task = perJoint ? tbJointsTask : tbJointBodiesTask;
	int minRange = perJoint                   ? TB_MIN_JOINTS
	               : mode == tb_jointGyroFlow ? TB_MIN_GYRO_BODIES
	                                          : TB_MIN_BODIES;
	if (t->parallel) {
		t->def->parallelFor(task, count, minRange, t, t->def->parallelContext);
	} else {
		task(0, count, 0, t);
	}
	if (mode == tb_jointTurn) {
		t->batchesFresh = false;
	}
	if (mode == tb_jointTurn && t->gyroBodies > 0) {
		// The second half of the gyroscopic term, once the bodies turned; one after another.
		tbJointGyroscopicEnd(t->records, t->jointBodies, t->gyro, t->gyroBodies, t->states);
	}
}

// A pass over the units, colour by colour, then the uncoloured ones one at a time. `last`: the
// substep's last pass of this kind. The joints take one biased pass a substep, the last, as in
// Box2D v3's soft step; the contacts' earlier biased passes (tbWorldDef.iterations) are for
// stacks, whose load takes passes to reach the ground. A group's direct solve makes its point
// rows exact in that one pass, and a lone joint's rows solved once more against velocities the
// contacts have not yet answered did not hold the joints of any test or suite scene closer.
static void tbRunJointUnits(tbJointTask* t, tbJointMode mode, bool useBias, bool last)
{
	if (mode == tb_jointSolve && useBias && !last) {
		return;
	}
	t->mode = mode;
	t->useBias = useBias;
	for (int k = 0; k <= TB_JOINT_COLORS; ++k) {
		int batches = k < TB_JOINT_COLORS ? t->batchStart[k + 1] - t->batchStart[k] : 0;
		// The batches' bodies have infinite loads from the start (tbJointBody.whole).
		if (batches > 0 && mode != tb_jointLoad) {
			t->firstBatch = t->batchStart[k];
			if (t->parallel) {
				t->def->parallelFor(tbJointBatchesTask, batches, TB_MIN_JOINT_BATCHES, t,
				                    t->def->parallelContext);
			} else {
				tbJointBatchesTask(0, batches, 0, t);
			}
		}
		int from = k < TB_JOINT_COLORS ? t->restStart[k] : t->colorStart[k];
		int n = t->colorStart[k + 1] - from;
		if (n == 0) {
			continue;
		}
		t->first = from;
		if (t->parallel && k < TB_JOINT_COLORS) {
			tbParallelForFcn* parallelFor =
			    t->def->parallelForUneven != NULL ? t->def->parallelForUneven : t->def->parallelFor;
			parallelFor(tbJointUnitsTask, n, TB_MIN_JOINT_UNITS, t, t->def->parallelContext);
		} else {
			tbJointUnitsTask(0, n, 0, t);
		}
	}
	if (mode == tb_jointSolve || mode == tb_jointWarmStart) {
		t->batchesFresh = true;
	}
}

// One of the joint loops over `count` items: side by side where workers are given, else here.
static void tbJointLoop(tbJointTask* t, tbSolverTaskFcn* task, int count, int minRange)
{
	if (t->parallel) {
		t->def->parallelFor(task, count, minRange, t, t->def->parallelContext);
	} else {
		task(0, count, 0, t);
	}
}

// The units and their colours. Each point-joint group of at most TB_MAX_DIRECT_JOINTS is one
// unit, every other joint a unit of its own, listed in joint order; each takes the first colour
// none of its dynamic bodies has yet (a group larger than a worker's work memory, or a unit that
// finds no colour, is left uncoloured). Then the joints unit by unit, colour by colour, each
// colour's units in that order (a counting sort). `ints` holds the scratch of tbLayout's joint
// part. Returns the unit count.
static int tbColorJoints(tbJointTask* t, int jointCount, int bodyCount, int* ints)
{
	tbJointRecord* records = t->records;
	int* parent = ints;
	int* rootGroup = parent + bodyCount + 1;
	uint32_t* masks = (uint32_t*)(rootGroup + bodyCount + 1);
	int* order = (int*)(masks + bodyCount + 1);
	int* groupStart = order + jointCount;
	int* unitKey = groupStart + jointCount + 1;
	int* unitColor = unitKey + jointCount;
	int* begin = unitColor + jointCount;
	int* seq = begin + jointCount + 1;
	const tbJointKey* keys = t->keys;
	tbGroupJoints(t->keys, jointCount, bodyCount, t->staticBody, parent, rootGroup, order,
	              groupStart);
	tbRunJoints(t, tb_jointMore, jointCount);
	memset(masks, 0, (size_t)(bodyCount + 1) * sizeof *masks);
	// A unit's place key: 2 colour, its colour's batched ball joints first, + 1 the others.
	int keyCounts[2 * TB_JOINT_COLORS + 2];
	memset(keyCounts, 0, sizeof keyCounts);
	int units = 0;
	for (int k = 0; k < jointCount; ++k) {
		int g = keys[k].component;
		int from = k, to = k + 1; // the unit's joints: k alone, or its group's in order[]
		if (g >= 0) {
			if (order[groupStart[g]] != k) {
				continue; // a later joint of a group listed at its first
			}
			from = groupStart[g];
			to = groupStart[g + 1];
		}
		uint32_t used = 0u;
		for (int at = from; at < to; ++at) {
			const tbJointKey* r = keys + (g >= 0 ? order[at] : at);
			used |= (r->movesA ? masks[r->indexA] : 0u) | (r->movesB ? masks[r->indexB] : 0u);
		}
		uint32_t freeColors = ~used & ((1u << TB_JOINT_COLORS) - 1u);
		int color = TB_JOINT_COLORS;
		if (freeColors != 0u && (g < 0 || to - from <= TB_PARALLEL_DIRECT_JOINTS)) {
			color = __builtin_ctz(freeColors);
			for (int at = from; at < to; ++at) {
				const tbJointKey* r = keys + (g >= 0 ? order[at] : at);
				if (r->movesA) {
					masks[r->indexA] |= 1u << color;
				}
				if (r->movesB) {
					masks[r->indexB] |= 1u << color;
				}
			}
		}
		// tbBallBatchable, from the key: a plain ball joint outside any group.
		bool batchable = keys[k].plainBall && keys[k].component < 0;
		bool batched = g < 0 && color < TB_JOINT_COLORS && batchable;
		if (g < 0 && !batched && batchable) {
			// A plain ball joint that found no colour: solved on its own, it reads the rest.
			tbPrepareJointMore(records + k, t->bodies);
		}
		unitKey[units] = g >= 0 ? -(g + 1) : k;
		unitColor[units] = 2 * color + (batched ? 0 : 1);
		keyCounts[unitColor[units]] += 1;
		++units;
	}
	// Each key's first unit, then each unit's joints placed (seq) and its start (begin).
	int filled[2 * TB_JOINT_COLORS + 2], keyFirst[2 * TB_JOINT_COLORS + 2];
	int keyStart = 0;
	for (int key = 0; key < 2 * TB_JOINT_COLORS + 2; ++key) {
		filled[key] = keyFirst[key] = keyStart;
		if (key % 2 == 0) {
			t->colorStart[key / 2] = keyStart;
		} else if (key / 2 < TB_JOINT_COLORS) {
			t->restStart[key / 2] = keyStart;
		}
		keyStart += keyCounts[key];
	}
	t->colorStart[TB_JOINT_COLORS + 1] = keyStart;
	// Units' sizes by their place, then their starts.
	for (int u = 0; u < units; ++u) {
		int g = unitKey[u] < 0 ? -unitKey[u] - 1 : -1;
		begin[filled[unitColor[u]]++] = g >= 0 ? groupStart[g + 1] - groupStart[g] : 1;
	}
	int at = 0;
	for (int u = 0; u < units; ++u) {
		int n = begin[u];
		begin[u] = at;
		at += n;
	}
	begin[units] = at;
	memcpy(filled, keyFirst, sizeof filled);
	for (int u = 0; u < units; ++u) {
		int place = filled[unitColor[u]]++;
		int g = unitKey[u] < 0 ? -unitKey[u] - 1 : -1;
		if (g < 0) {
			seq[begin[place]] = unitKey[u];
			continue;
		}
		for (int i = groupStart[g]; i < groupStart[g + 1]; ++i) {
			seq[begin[place] + (i - groupStart[g])] = order[i];
		}
	}
	t->seq = seq;
	t->begin = begin;
	// Each group's order of elimination, the groups side by side (each writes its own records).
	t->mode = tb_jointOrder;
	t->first = 0;
	tbJointLoop(t, tbJointUnitsTask, units, TB_MIN_JOINT_UNITS);
	// Each colour's batched ball joints, TB_SIMD_WIDTH to a batch: the batches counted per
	// colour, then made side by side (each reads its joints' records and writes itself).
	int batches = 0;
	for (int k = 0; k < TB_JOINT_COLORS; ++k) {
		t->batchStart[k] = batches;
		batches += (t->restStart[k] - t->colorStart[k] + TB_SIMD_WIDTH - 1) / TB_SIMD_WIDTH;
	}
	t->batchStart[TB_JOINT_COLORS] = batches;
	t->mode = tb_jointBatchInit;
	t->firstBatch = 0;
	tbJointLoop(t, tbJointBatchesTask, batches, TB_MIN_JOINT_BATCHES);
	t->batchesFresh = false;
	return units;
}

// The passes of one substep after the velocity integration, as the serial step runs them, each
// observed (the energy ledger and the trace, ledger.c): the joints' and the rolling resistance's
// work per body from their velocities before and after, the contacts' row by row.
static void tbObservedSubstep(const tbSolverDef* def, tbObserver* o, tbContactConstraintW* groups,
                              int groupCount, tbSolverBody* states, float invH,
                              tbJointTask* jointTask, int jointCount, int jointBodyCount,
                              tbContactConstraint* contacts, const int* rolling,
                              tbRollingRow* rollingRows, int rollingCount,
                              tbRigidBody* const* bodies)
{
	int bodyCount = o->bodyCount;
	if (def->enableWarmStarting) {
		tbObserveContacts(o, tb_passWarmStart, groups, groupCount, states, invH);
	}
	for (int it = 0; it < def->iterations; ++it) {
		o->iteration = it;
		if (jointCount > 0) {
			tbObserveSnapshot(o, states);
			tbRunJointUnits(jointTask, tb_jointSolve, true, it + 1 == def->iterations);
			tbObserveBodies(o, states, true, true);
		}
		tbObserveContacts(o, tb_passPush, groups, groupCount, states, invH);
	}
	tbIntegrateDeltas(states, bodyCount, o->h);
	if (jointCount > 0) {
		// The gyroscopic term's second half (tbJointGyroscopicEnd) is joint work.
		tbObserveSnapshot(o, states);
		tbRunJoints(jointTask, tb_jointTurn, jointBodyCount);
		tbObserveBodies(o, states, false, true);
	}
	tbClearRolling(rollingRows, rollingCount);
	for (int it = 0; it < def->relaxIterations; ++it) {
		o->iteration = it;
		if (jointCount > 0) {
			tbObserveSnapshot(o, states);
			tbRunJointUnits(jointTask, tb_jointSolve, false, true);
			tbObserveBodies(o, states, false, true);
		}
		if (rollingCount > 0) {
			tbObserveSnapshot(o, states);
			tbSolveRolling(contacts, rolling, rollingRows, rollingCount, groups, bodies, states);
			tbObserveBodies(o, states, false, false);
		}
		tbObserveContacts(o, tb_passRelax, groups, groupCount, states, invH);
	}
	for (int g = 0; g < groupCount; ++g) {
		tbAddStepImpulsesW(groups + g);
	}
}

// Whether some contact has e > 0 (the collision phase runs).
static bool tbAnyBounces(const tbContactConstraint* contacts, int contactCount)
{
	for (int i = 0; i < contactCount; ++i) {
		if (contacts[i].restitution > 0.0f) {
			return true;
		}
	}
	return false;
}

// The most sweeps of the collision phase in one step: a row of touching balls passes the impulse
// on by at least one pair a sweep (two colours: two pairs), so a cradle of up to this many balls
// hands it to the last one; after the cap the soft passes finish what is left.
#define TB_COLLISION_SWEEPS 32

// The collision phase (docs/solver.md, "Collisions before the solve"): Guendelman, Bridson and
// Fedkiw's collision step (2003) before the soft step's substeps, on the velocities of the step's
// start. Every point with e > 0 that will meet within the step faster than the restitution
// threshold gets the collision impulse of Newton's law, record after record in their fixed
// order (Gauss-Seidel), and the records are swept again until no point is struck: in a row of
// touching balls the first pair's impulse stops the first ball and sets the second moving, whose
// own contact is then struck in turn, so the impulse passes from pair to pair instead of being
// shared by one simultaneous solve. A struck pair leaves separating, so the soft passes, whose
// rows only push, leave it alone, and its restitution is marked done (tbEndCollisionsW).
//
// Before the first substep's kick, v1 = v0 + a h: the phase reads and writes v0, the velocity
// the substeps start from, and converts it to the parabola's speed at the step's start,
// u0 = v0 + a h / 2, and back (tbCollideContactsW). Each impulse acts at its moment of impact
// t within the step: the struck bodies are moved back by t dv (their deltas), so the substeps
// sample the outgoing parabola at its own times and a bounce keeps its apex and its period,
// whatever the step rate. The sweeps run serially in record
// order in every build and at any worker count: the same bits (tests/test_threads.c).
static void tbCollisionPhase(const tbSolverDef* def, tbContactConstraintW* groups, int groupCount,
                             tbSolverBody* states, const tbSolverBodyMotion* motions, int bodyCount,
                             float dt, float h, tbObserver* observer)
{
	float window = dt + h, threshold = def->restitutionThreshold;
	bool struck = false;
	for (int sweep = 0; sweep < TB_COLLISION_SWEEPS; ++sweep) {
		bool any = false;
		if (observer != NULL) {
			any = tbObserveCollisions(observer, groups, groupCount, states, window, threshold);
		} else {
			for (int g = 0; g < groupCount; ++g) {
				any |= tbCollideContactsW(groups + g, states, window, h, threshold);
			}
		}
		struck |= any;
		if (!any) {
			break;
		}
	}
	if (!struck) {
		return;
	}
	// The impact speeds of the end-of-step restitution from the velocities the phase left
	// (tbApplyRestitutionW), the struck points' set to zero.
	for (int g = 0; g < groupCount; ++g) {
		tbSetImpactSpeedW(groups + g, states, motions, bodyCount, h);
		tbEndCollisionsW(groups + g);
	}
}

// The colour of a contact between solver bodies a and b (TB_NULL_BODY: none), greedy (Box2D v3):
// the first colour neither dynamic body uses yet, colour 0 skipped by a contact with something
// that cannot move; TB_GRAPH_COLORS (the overflow) when none is left. Marks the bodies' masks
// (bit 31 for the overflow). A kinematic body takes no colour, as the static ones: the records
// read it and never write it back (tbContactConstraintW.stillA), so many records of a colour may.
static inline int tbColorContact(int a, int b, uint32_t* masks)
{
	uint32_t maskA = a != TB_NULL_BODY ? masks[a] : TB_MASK_STILL;
	uint32_t maskB = b != TB_NULL_BODY ? masks[b] : TB_MASK_STILL;
	bool dynA = (maskA & TB_MASK_STILL) == 0u;
	bool dynB = (maskB & TB_MASK_STILL) == 0u;
	uint32_t used = (dynA ? maskA : 0u) | (dynB ? maskB : 0u);
	if (!(dynA && dynB)) {
		used |= 1u; // a contact with something that cannot move skips colour 0
	}
	uint32_t freeColors = ~used & ((1u << TB_GRAPH_COLORS) - 1u);
	int color = TB_GRAPH_COLORS; // overflow
	uint32_t mark = 0u;
	if (freeColors != 0u && (dynA || dynB)) {
		color = __builtin_ctz(freeColors);
		mark = 1u << color;
	} else if (dynA || dynB) {
		mark = 1u << 31; // no colour left: held by the overflow (bit 31, not a colour)
	}
	if (dynA) {
		masks[a] |= mark;
	}
	if (dynB) {
		masks[b] |= mark;
	}
	return color;
}

// Greedy graph colouring (Box2D v3) of the contacts, in order (tbColorContact): each one's colour
// to `colors`, the count of each colour (the overflow last) to `counts`. The bodies come from
// `contacts`, or where it is NULL from the lists pairA and pairB. The masks hold each body's type
// (tbPrepareBodies), read here instead of the bodies. A contact with the ground never takes
// colour 0, so that the ground's contacts come after some of the contacts above them (Box2D's
// heuristic; it helps stacks converge). Kept out of line: the colouring is one tight loop.
static __attribute__((noinline)) void tbColorContacts(const tbContactConstraint* contacts,
                                                      const int* pairA, const int* pairB,
                                                      int contactCount, uint32_t* masks,
                                                      int* colors, int* counts)
{
	memset(counts, 0, (TB_GRAPH_COLORS + 1) * sizeof(int));
	if (contacts != NULL) {
		for (int i = 0; i < contactCount; ++i) {
			int color = tbColorContact(contacts[i].bodyA, contacts[i].bodyB, masks);
			colors[i] = color;
			counts[color] += 1;
		}
		return;
	}
	for (int i = 0; i < contactCount; ++i) {
		int color = tbColorContact(pairA[i], pairB[i], masks);
		colors[i] = color;
		counts[color] += 1;
	}
}

// A monotonic clock in milliseconds for the stage times of tbSolverStats (never for the
// simulation itself).
static double tbSolverClock(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

void tbSolverSolve(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                   tbContactConstraint* contacts, int contactCount, tbJointBinding* joints,
                   int jointCount, float dt, void* scratch, tbSolverStats* stats)
{
	double clockStart = tbSolverClock();
	TB_ASSERT(def != NULL && dt > 0.0f && bodyCount >= 0 && contactCount >= 0);
	int substeps = def->substeps > 0 ? def->substeps : 1;
	float h = dt / (float)substeps;
	float invH = 1.0f / h;
	jointCount = joints != NULL ? jointCount : 0;
	tbScratchLayout layout = tbLayout(bodyCount, contactCount, jointCount);
	char* base = scratch;
	tbJointRecord* jointRecords = (tbJointRecord*)(base + layout.joints);
	int* jointInts = (int*)(base + layout.jointGroups);
	size_t jointIntBytes =
	    tbAlign64((size_t)(3 * (bodyCount + 1) + 6 * jointCount + 2) * sizeof(int));
	tbJointBody* jointBodies = (tbJointBody*)(base + layout.jointGroups + jointIntBytes);
	float* jointWork = (float*)(base + layout.jointGroups + jointIntBytes +
	                            tbAlign64((size_t)(bodyCount + 1) * sizeof(tbJointBody)));
	mat3s* jointInertias = (mat3s*)(base + layout.jointInertias);
	mat3s* jointStiffness = jointInertias + bodyCount + 1;
	mat3s* jointTurns = jointStiffness + bodyCount + 1;
	mat3s* jointTurnedInertias = jointTurns + bodyCount + 1;
	size_t inertiaBytes = tbAlign64((size_t)(bodyCount + 1) * 4u * sizeof(mat3s));
	float* jointStiffened = (float*)(base + layout.jointInertias + inertiaBytes);
	unsigned char* jointSeen = (unsigned char*)(base + layout.jointInertias + inertiaBytes +
	                                            tbAlign64((size_t)(bodyCount + 1) * sizeof(float)));
	vec3s* jointTurnedBy = (vec3s*)(jointSeen + tbAlign64((size_t)(bodyCount + 1)));
	tbSpinFlow* jointFlows =
	    (tbSpinFlow*)((char*)jointTurnedBy + tbAlign64((size_t)(bodyCount + 1) * sizeof(vec3s)));
	int* jointGyro =
	    (int*)((char*)jointFlows + tbAlign64((size_t)(bodyCount + 1) * sizeof(tbSpinFlow)));
	tbAheadTurn* jointAheads =
	    (tbAheadTurn*)((char*)jointGyro + tbAlign64((size_t)(bodyCount + 1) * sizeof(int)));
	tbSolverBody* states = (tbSolverBody*)(base + layout.states);
	tbSolverBodyMotion* motions = (tbSolverBodyMotion*)(base + layout.motions);
	uint32_t* colorMasks = (uint32_t*)(base + layout.colorMasks);
	int* contactColors = (int*)(base + layout.contactColors);
	int* refreshes = (int*)(base + layout.refreshes);
	float* refreshGaps = (float*)(base + layout.refreshGaps);
	tbRollingRow* rollingRows = (tbRollingRow*)(base + layout.rolling);
	float* refreshTurns = refreshGaps + contactCount;
	float* refreshReachA = refreshTurns + contactCount;
	float* refreshReachB = refreshReachA + contactCount;
	float* refreshLimits = refreshReachB + contactCount;
	int refreshCount = 0;
	tbContactConstraintW* groups = (tbContactConstraintW*)(base + layout.groups);
	int staticBody = bodyCount;

	// The ledger and the trace observe the serial path's passes (docs/energy.md); the plain
	// passes are never observed.
	bool observe = def->ledger != NULL || def->trace != NULL;
	bool parallel = def->parallelFor != NULL && !observe;
	tbObserver observer;
	tbSolverTask task; // the passes' shared inputs (the serial record fill reads them too)
	task.def = def;
	task.bodies = bodies;
	task.states = states;
	task.motions = motions;
	task.groups = groups;
	task.contacts = contacts;
	task.colorMasks = colorMasks;
	task.first = 0;
	task.bodyCount = bodyCount;
	task.h = h;
	task.invH = invH;
	task.dt = dt;
	task.refreshes = NULL;
	task.refreshGaps = task.refreshTurns = NULL;
	task.refreshReachA = task.refreshReachB = task.refreshLimits = NULL;
	task.refreshCount = 0;
	task.useBias = task.addStepImpulses = false;
	if (parallel) {
		tbParallel(def, tbPrepareBodiesTask, bodyCount, TB_MIN_BODIES, &task);
	} else {
		tbPrepareBodies(def, bodies, bodyCount, states, motions, colorMasks, h);
		if (observe) {
			tbObserveBegin(&observer, def, bodies, bodyCount, contactCount, h);
		}
	}
	memset(states + bodyCount, 0, sizeof *states); // the static body

	int colorCounts[TB_GRAPH_COLORS + 1];
	if (parallel) {
		// The bodies of each contact first, side by side, into two int lists (the colours' and
		// the order's, not used yet): the colouring then reads them in sequence, not one
		// constraint after another. Each contact's dormancy too (tbStartsDormant).
		task.pairA = contactColors;
		task.pairB = (int*)(base + layout.order);
		tbParallel(def, tbListPairsTask, contactCount, TB_MIN_BODIES, &task);
	}
	if (parallel) {
		tbColorContacts(NULL, task.pairA, task.pairB, contactCount, colorMasks, contactColors,
		                colorCounts);
	} else {
		tbColorContacts(contacts, NULL, NULL, contactCount, colorMasks, contactColors, colorCounts);
	}
	// Records: each colour's constraints in input order, TB_SIMD_WIDTH to a record; the
	// overflow one to a record.
	// The impact speeds (restitution's, the collision phase's) only where something bounces.
	bool bounces = def->enableRestitution && tbAnyBounces(contacts, contactCount);
	int groupStart[TB_GRAPH_COLORS + 2];
	int groupCount = 0;
	for (int k = 0; k <= TB_GRAPH_COLORS; ++k) {
		groupStart[k] = groupCount;
		int n = colorCounts[k];
		groupCount += k < TB_GRAPH_COLORS ? (n + TB_SIMD_WIDTH - 1) / TB_SIMD_WIDTH : n;
	}
	groupStart[TB_GRAPH_COLORS + 1] = groupCount;
	TB_ASSERT(groupCount <= layout.groupCapacity);
	// With parallelFor each record has a static body of its own, after the joints' part.
	int staticBase = (int)((layout.statics - layout.states) / sizeof(tbSolverBody));
	_Static_assert(sizeof(tbSolverBody) == 64, "the static bodies are placed by index");
	tbSoftness soft[2];
	tbContactSoftness(def, h, soft);
	// The contacts by colour, each colour's in input order (a counting sort), then each record
	// made whole on its own (tbFillRecordsTask: cleared, its lanes, its rows, its impact speeds,
	// one record after another while it is in the cache), side by side where parallelFor is given.
	int* order = (int*)(base + layout.order);
	int filled[TB_GRAPH_COLORS + 1];
	task.colorBase[0] = 0;
	for (int k = 0; k <= TB_GRAPH_COLORS; ++k) {
		filled[k] = task.colorBase[k];
		task.colorBase[k + 1] = task.colorBase[k] + colorCounts[k];
	}
	// Within a colour, the dormant contacts after the others (each part in input order), so that
	// they fill records of their own, which the passes skip while they sleep.
	int dormantCount = 0;
	for (int i = 0; i < contactCount; ++i) {
		if (!parallel) {
			// With workers, tbListPairsTask has set it side by side.
			contacts[i].dormant = def->refreshContact != NULL && !observe &&
			                      tbStartsDormant(contacts + i, states, motions, staticBody, h);
		}
		dormantCount += contacts[i].dormant ? 1 : 0;
		if (!contacts[i].dormant) {
			order[filled[contactColors[i]]++] = i;
		}
	}
	for (int i = 0; dormantCount > 0 && i < contactCount; ++i) {
		if (contacts[i].dormant) {
			order[filled[contactColors[i]]++] = i;
		}
	}
	task.order = order;
	task.groupStart = groupStart;
	task.staticBase = parallel ? staticBase : -1;
	task.soft = soft;
	task.bounces = bounces;
	if (parallel) {
		tbParallel(def, tbFillRecordsTask, groupCount, TB_MIN_RECORDS, &task);
	} else {
		tbFillRecordsTask(0, groupCount, 0, &task);
	}
	if (def->refreshContact != NULL) {
		// The refreshed lanes in record order, so that the parallel pass gives each record's
		// lanes to one range (tbRefreshTask). Each lane's bounds are its own: any order gives
		// the same bits.
		for (int k = 0; k <= TB_GRAPH_COLORS; ++k) {
			int width = k < TB_GRAPH_COLORS ? TB_SIMD_WIDTH : 1;
			for (int at = task.colorBase[k]; at < task.colorBase[k + 1]; ++at) {
				int i = order[at], slot = at - task.colorBase[k];
				if (contacts[i].refresh) {
					int lane = (groupStart[k] + slot / width) * TB_SIMD_WIDTH + slot % width;
					refreshes[refreshCount++] = lane;
				}
			}
		}
		// Each listed lane's bounds, side by side where parallelFor is given.
		tbRefreshStartTask start = {groups,        contacts,     states,       h,
		                            refreshes,     refreshGaps,  refreshTurns, refreshReachA,
		                            refreshReachB, refreshLimits};
		if (parallel) {
			def->parallelFor(tbRefreshStartRange, refreshCount, TB_MIN_REFRESHES, &start,
			                 def->parallelContext);
		} else {
			tbRefreshStartRange(0, refreshCount, 0, &start);
		}
		task.refreshes = refreshes;
		task.refreshGaps = refreshGaps;
		task.refreshTurns = refreshTurns;
		task.refreshReachA = refreshReachA;
		task.refreshReachB = refreshReachB;
		task.refreshLimits = refreshLimits;
		task.refreshCount = refreshCount;
	}

	if (bounces) {
		tbCollisionPhase(def, groups, groupCount, states, motions, bodyCount, dt, h,
		                 observe ? &observer : NULL);
	}

	// The joints' records (side by side), their bodies, units and colours.
	tbJointTask jointTask;
	memset(&jointTask, 0, sizeof jointTask);
	jointTask.def = def;
	jointTask.parallel = parallel;
	jointTask.h = h;
	jointTask.invH = invH;
	jointTask.records = jointRecords;
	jointTask.more = (tbJointMore*)(base + layout.jointMore);
	jointTask.keys = (tbJointKey*)(base + layout.jointKeys);
	jointTask.joints = joints;
	jointTask.bodies = bodies;
	jointTask.states = states;
	jointTask.staticBody = staticBody;
	jointTask.inertias = jointInertias;
	jointTask.turns = jointTurns;
	jointTask.turnedInertias = jointTurnedInertias;
	jointTask.turnedBy = jointTurnedBy;
	jointTask.flows = jointFlows;
	jointTask.aheads = jointAheads;
	jointTask.stiffened = jointStiffened;
	jointTask.stiffness = jointStiffness;
	jointTask.jointBodies = jointBodies;
	jointTask.work = jointWork;
	jointTask.workStride = tbJointGroupWorkBytes(TB_PARALLEL_DIRECT_JOINTS) / sizeof(float);
	jointTask.batches = (tbBallBatch*)(base + layout.jointBatches);
	int jointBodyCount = 0, gyroBodies = 0;
	if (jointCount > 0) {
		tbRunJoints(&jointTask, tb_jointPrepare, jointCount);
		memset(jointSeen, 0, (size_t)(bodyCount + 1));
		jointBodyCount =
		    tbListJointBodies(jointRecords, jointTask.keys, jointCount, jointSeen, jointBodies);
		jointTask.jointBodyCount = jointBodyCount;
		for (int k = 0; k < jointBodyCount; ++k) {
			// Jointed bodies are held by constraints, and their joints turn their inertia with
			// them (bit 30: tbFinishBody keeps w primary for them). Each body once, from the list.
			if (jointBodies[k].index != staticBody) {
				colorMasks[jointBodies[k].index] |= (1u << 31) | (1u << 30);
			}
		}
		tbColorJoints(&jointTask, jointCount, bodyCount, jointInts);
		// The bodies of the batches' ball joints take their whole stiffness (tbJointBody.whole):
		// marked by solver index in jointSeen (zero since tbListJointBodies), read into the list,
		// and the marks cleared again.
		for (int k = 0; k < TB_JOINT_COLORS; ++k) {
			for (int v = jointTask.colorStart[k]; v < jointTask.restStart[k]; ++v) {
				const tbJointRecord* r = jointRecords + jointTask.seq[jointTask.begin[v]];
				if (r->mA > 0.0f) {
					jointSeen[r->indexA] = 1;
				}
				if (r->mB > 0.0f) {
					jointSeen[r->indexB] = 1;
				}
			}
		}
		for (int k = 0; k < jointBodyCount; ++k) {
			jointBodies[k].whole = jointBodies[k].whole || jointSeen[jointBodies[k].index] != 0;
			jointSeen[jointBodies[k].index] = 0;
		}
		tbRunJoints(&jointTask, tb_jointTurnsNone, jointBodyCount);
		for (int k = 0; k < jointBodyCount; ++k) {
			if (jointBodies[k].gyro != 0) {
				jointGyro[gyroBodies++] = k;
			}
			motions[jointBodies[k].index].flowTurned = jointBodies[k].gyro != 0;
		}
		jointTask.gyroBodies = gyroBodies;
		jointTask.gyro = jointGyro;
	}

	// The contacts with rolling resistance by colour, listed where the colours were (no longer
	// read).
	int* rolling = contactColors;
	int rollingStart[TB_GRAPH_COLORS + 2];
	int rollingCount =
	    def->enableRollingResistance
	        ? tbListRollingContacts(contacts, order, task.colorBase, TB_GRAPH_COLORS + 1, rolling,
	                                rollingRows, rollingStart)
	        : 0;
	tbRollingTask rollingTask = {contacts, rolling, rollingRows, groups, bodies, states};

	// Catto's soft step: per substep integrate velocities, warm start, solve with bias,
	// integrate the deltas, relax without bias (Solver2D, 2024). Joints go first in each pass
	// (one at a time, as Box2D v3's overflow joints), then the contact colours.
	double clockSubsteps = tbSolverClock();
	for (int sub = 0; sub < substeps; ++sub) {
		if (parallel) {
			tbParallel(def, tbIntegrateVelocitiesTask, bodyCount, TB_MIN_BODIES, &task);
		} else if (observe) {
			observer.substep = sub;
			observer.iteration = 0;
			tbObserveSnapshot(&observer, states);
			tbIntegrateVelocities(states, motions, bodyCount, h, def->maxRotation);
			tbObserveIntegration(&observer, states, motions);
		} else {
			tbIntegrateVelocities(states, motions, bodyCount, h, def->maxRotation);
		}
		// Pairs turning too fast for one manifold per step (the caller marks them) are made
		// again at the poses of now: a spinning cone's rim point recedes while the rim beside
		// it sweeps in, which the step's anchored points cannot see.
		if (sub > 0 && parallel) {
			// Side by side, a record's lanes in one range (tbRefreshTask).
			tbParallel(def, tbRefreshTask, refreshCount, TB_MIN_REFRESHES, &task);
		}
		for (int r = 0; sub > 0 && !parallel && r < refreshCount; ++r) {
			tbRefreshOne(def, groups, contacts, bodies, states, h, refreshes[r], refreshReachA[r],
			             refreshReachB[r], refreshLimits[r], refreshGaps + r, refreshTurns + r, 0);
		}
		if (jointCount > 0) {
			// Each jointed body's inertia of the substep: turned, stiffened by its joints' loads.
			tbRunJoints(&jointTask, tb_jointTurnStart, jointBodyCount);
			tbRunJointUnits(&jointTask, tb_jointLoad, false, true);
			tbRunJointUnits(&jointTask, tb_jointStiffness, false, true);
			tbRunJoints(&jointTask, tb_jointStiffen, jointBodyCount);
			if (observe) {
				// The gyroscopic term's first half is the joints' work with the warm start's.
				tbObserveSnapshot(&observer, states);
			}
			if (gyroBodies > 0) {
				// Jointed bodies' w is primary: Euler's gyroscopic term, each body's flow side by
				// side from the velocities of now, then its first half given one body after
				// another (a body on one ball joint writes the other's velocity too).
				tbRunJoints(&jointTask, tb_jointGyroFlow, gyroBodies);
				tbJointGyroscopicKick(jointRecords, jointBodies, jointGyro, gyroBodies, states);
			}
			tbRunJointUnits(&jointTask, tb_jointWarmStart, false, true);
			if (observe) {
				tbObserveBodies(&observer, states, true, true);
			}
		}
		if (parallel) {
			// The same passes, each colour's records side by side (tbForColors).
			if (def->enableWarmStarting) {
				tbForColors(def, tbWarmStartTask, &task, groupStart);
			}
			task.useBias = true;
			for (int it = 0; it < def->iterations; ++it) {
				tbRunJointUnits(&jointTask, tb_jointSolve, true, it + 1 == def->iterations);
				tbForColors(def, tbSolveTask, &task, groupStart);
			}
			tbParallel(def, tbIntegrateDeltasTask, bodyCount, TB_MIN_BODIES, &task);
			if (jointCount > 0) {
				tbRunJoints(&jointTask, tb_jointTurn, jointBodyCount);
			}
			task.useBias = false;
			tbClearRolling(rollingRows, rollingCount);
			for (int it = 0; it < def->relaxIterations; ++it) {
				jointTask.lastRelax = it + 1 == def->relaxIterations;
				tbRunJointUnits(&jointTask, tb_jointSolve, false, true);
				jointTask.lastRelax = false;
				// The last relax pass sums each record's impulses right after solving it.
				// Rolling first: the contacts' friction then keeps the rolling bodies from
				// slipping under its torque within the same pass.
				tbSolveRollingColors(def, &rollingTask, rollingStart, rollingCount);
				task.addStepImpulses = it + 1 == def->relaxIterations;
				tbForColors(def, tbSolveTask, &task, groupStart);
				task.addStepImpulses = false;
			}
			if (def->relaxIterations <= 0) {
				tbParallel(def, tbAddStepImpulsesTask, groupCount, TB_MIN_RECORDS, &task);
			}
			continue;
		}
		if (observe) {
			tbObservedSubstep(def, &observer, groups, groupCount, states, invH, &jointTask,
			                  jointCount, jointBodyCount, contacts, rolling, rollingRows,
			                  rollingCount, bodies);
			continue;
		}
		if (def->enableWarmStarting) {
			for (int g = 0; g < groupCount; ++g) {
				if (groups[g].dormant == 0) {
					tbWarmStartContactsW(groups + g, states);
				}
			}
		}
		for (int it = 0; it < def->iterations; ++it) {
			tbRunJointUnits(&jointTask, tb_jointSolve, true, it + 1 == def->iterations);
			for (int g = 0; g < groupCount; ++g) {
				if (groups[g].dormant == 0) {
					tbSolveContactsW(groups + g, states, invH, true);
				}
			}
		}
		tbIntegrateDeltas(states, bodyCount, h);
		if (jointCount > 0) {
			tbRunJoints(&jointTask, tb_jointTurn, jointBodyCount);
		}
		tbClearRolling(rollingRows, rollingCount);
		for (int it = 0; it < def->relaxIterations; ++it) {
			jointTask.lastRelax = it + 1 == def->relaxIterations;
			tbRunJointUnits(&jointTask, tb_jointSolve, false, true);
			jointTask.lastRelax = false;
			tbSolveRolling(contacts, rolling, rollingRows, rollingCount, groups, bodies, states);
			// The last relax pass sums each record's impulses right after solving it, while
			// the record is at hand (the workers' tbSolveTask does the same): no pass of its
			// own over every record. A dormant record's impulses are zero: nothing to sum.
			bool last = it + 1 == def->relaxIterations;
			for (int g = 0; g < groupCount; ++g) {
				if (groups[g].dormant == 0) {
					tbSolveContactsW(groups + g, states, invH, false);
					if (last) {
						tbAddStepImpulsesW(groups + g);
					}
				}
			}
		}
		if (def->relaxIterations <= 0) {
			for (int g = 0; g < groupCount; ++g) {
				tbAddStepImpulsesW(groups + g);
			}
		}
	}
	double clockStore = tbSolverClock();
	if (parallel) {
		tbForColors(def, tbRestitutionTask, &task, groupStart);
		tbParallel(def, tbStoreImpulsesTask, groupCount, TB_MIN_RECORDS, &task);
	} else if (observe) {
		observer.iteration = 0;
		tbObserveContacts(&observer, tb_passRestitution, groups, groupCount, states, invH);
		for (int g = 0; g < groupCount; ++g) {
			tbStoreContactImpulsesW(groups + g, contacts);
		}
	} else {
		// Each record's impulses stored right after its restitution, while it is at hand: no
		// later record's restitution changes them (the workers' two passes give the same).
		for (int g = 0; g < groupCount; ++g) {
			if (groups[g].dormant == 0) {
				tbApplyRestitutionW(groups + g, states, def->restitutionThreshold, h);
			}
			tbStoreContactImpulsesW(groups + g, contacts);
		}
	}
	if (jointCount > 0) {
		// The joints' finish reads the composed turns before they become the deltas.
		jointTask.mode = tb_jointBatchStore;
		jointTask.firstBatch = 0;
		tbJointLoop(&jointTask, tbJointBatchesTask, jointTask.batchStart[TB_JOINT_COLORS],
		            TB_MIN_JOINT_BATCHES);
		// Each body's turn of the step's end made once, where its every joint's finish and its
		// delta read it: into the stiffness array, which no later substep reads.
		tbRunJoints(&jointTask, tb_jointTurnEnd, jointBodyCount);
		tbRunJoints(&jointTask, tb_jointFinish, jointCount);
		tbRunJoints(&jointTask, tb_jointTurnDelta, jointBodyCount);
	}

	if (stats != NULL) {
		int colors = 0;
		for (int k = 0; k < TB_GRAPH_COLORS; ++k) {
			colors += colorCounts[k] > 0 ? 1 : 0;
		}
		stats->colorCount = colors;
		stats->overflowCount = colorCounts[TB_GRAPH_COLORS];
		stats->constraintGroups = groupCount;
		stats->simdWidth = TB_SIMD_WIDTH;
		stats->stoppedBodies = 0;
		stats->prepareMs = (float)(clockSubsteps - clockStart);
		stats->substepMs = (float)(clockStore - clockSubsteps);
		stats->storeMs = (float)(tbSolverClock() - clockStore);
	}
}

int tbSolverFinish(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount, float dt,
                   void* scratch)
{
	tbSolverFinishPass pass = tbSolverFinishBegin(def, bodies, bodyCount, dt, scratch);
	int stopped = 0;
	if (def->parallelFor != NULL) {
		tbSolverTask task;
		memset(&task, 0, sizeof task);
		task.def = def;
		task.bodies = bodies;
		task.states = (tbSolverBody*)pass.states;
		task.colorMasks = (uint32_t*)pass.colorMasks;
		task.dt = dt;
		tbParallel(def, tbFinishBodiesTask, bodyCount, TB_MIN_FINISH_BODIES, &task);
		for (int k = 0; k < TB_SOLVER_MAX_WORKERS; ++k) {
			stopped += task.stopped[k];
		}
	} else {
		stopped = tbSolverFinishRange(&pass, 0, bodyCount);
	}
	tbSolverFinishEnd(&pass);
	return stopped;
}

tbSolverFinishPass tbSolverFinishBegin(const tbSolverDef* def, tbRigidBody* const* bodies,
                                       int bodyCount, float dt, void* scratch)
{
	tbScratchLayout layout = tbLayout(bodyCount, 0, 0);
	char* base = scratch;
	tbSolverFinishPass pass;
	pass.def = def;
	pass.bodies = bodies;
	pass.bodyCount = bodyCount;
	pass.states = base + layout.states;
	pass.colorMasks = (const uint32_t*)(base + layout.colorMasks);
	pass.dt = dt;
	return pass;
}

// Out of line: a loop of calls that keeps its own registers (inlined into the world's step it
// saved and restored the step's around every call).
__attribute__((noinline)) int tbSolverFinishRange(const tbSolverFinishPass* pass, int start,
                                                  int end)
{
	if (start >= end) {
		return 0; // an empty world's arrays may be null: no offset is taken from them
	}
	const tbSolverDef* def = pass->def;
	const tbSolverBody* state = (const tbSolverBody*)pass->states + start;
	const uint32_t* mask = pass->colorMasks + start;
	tbRigidBody* const* body = pass->bodies + start;
	tbRigidBody* const* last = pass->bodies + end;
	float dt = pass->dt;
	int stopped = 0;
	for (; body < last; ++body, ++state, ++mask) {
		if ((*body)->type != tb_staticBody) {
			stopped += tbFinishBody(def, *body, state, (*mask & (1u << 30)) != 0u, dt) ? 0 : 1;
		}
		tbRigidBody_ClearForces(*body);
	}
	return stopped;
}

void tbSolverFinishEnd(const tbSolverFinishPass* pass)
{
	tbObserveFinish(pass->def, pass->bodies, pass->bodyCount, pass->states);
}

void tbSolverStep(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                  tbContactConstraint* contacts, int contactCount, tbJointBinding* joints,
                  int jointCount, float dt, void* scratch, tbSolverStats* stats)
{
	tbSolverSolve(def, bodies, bodyCount, contacts, contactCount, joints, jointCount, dt, scratch,
	              stats);
	int stopped = tbSolverFinish(def, bodies, bodyCount, dt, scratch);
	if (stats != NULL) {
		stats->stoppedBodies = stopped;
	}
}
