// The sequential-impulse contact solver: a box resting on a hand-made 4-point manifold does not
// drift or gain energy; plus Coulomb friction, restitution above the threshold and warm starting.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver_step.h"
#include "tumble/contact_solver.h"
#include "tumble/dynamics.h"

static const float kDt = 1.0f / 60.0f;
static const float kMargin = 0.02f; // speculative distance, m

static tbGeometry makeShape(tbShapeType type)
{
	tbGeometry s;
	memset(&s, 0, sizeof s);
	s.type = type;
	s.scale = (vec3s){{1.0f, 1.0f, 1.0f}};
	return s;
}

static tbRigidBody makeCube(float half, vec3s x, mat3s R)
{
	tbGeometry s = makeShape(tb_boxShape);
	s.halfExtents = (vec3s){{half, half, half}};
	tbMassData m = tbComputeMass(&s, 1.0f, NULL);
	return tbMakeBody(tb_dynamicBody, m, x, R);
}

// The manifold of a box (B) against the static plane y = 0 (A): the (up to) four lowest corners
// within the speculative margin, each with its corner index as feature id.
static tbManifold boxPlaneManifold(const tbRigidBody* box, float half, float margin)
{
	tbManifold m;
	memset(&m, 0, sizeof m);
	m.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
	vec3s corners[8];
	int order[8];
	for (int i = 0; i < 8; ++i) {
		vec3s local = {{(i & 1) ? half : -half, (i & 2) ? half : -half, (i & 4) ? half : -half}};
		corners[i] = glms_vec3_add(box->state.x, glms_mat3_mulv(box->state.R, local));
		order[i] = i;
	}
	for (int i = 1; i < 8; ++i) { // insertion sort by height
		for (int j = i; j > 0 && corners[order[j]].y < corners[order[j - 1]].y; --j) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	}
	for (int k = 0; k < 4; ++k) {
		vec3s c = corners[order[k]];
		if (c.y > margin) {
			break;
		}
		tbManifoldPoint* p = m.points + m.pointCount++;
		p->pointB = c;
		p->pointA = (vec3s){{c.x, 0.0f, c.z}};
		p->separation = c.y;
		p->id = (uint32_t)order[k];
	}
	return m;
}

static double potentialPlusKinetic(const tbRigidBody* b, float g)
{
	return (double)tbRigidBody_GetKineticEnergy(b) +
	       (double)b->mass * (double)g * (double)b->state.x.y;
}

static void restingBox(float yaw, const char* label)
{
	const float half = 0.5f;
	mat3s R = glms_quat_mat3(glms_quatv(yaw, (vec3s){{0.0f, 1.0f, 0.0f}}));
	tbRigidBody box = makeCube(half, (vec3s){{0.3f, half, -0.2f}}, R);
	tbSolverDef def = tbDefaultSolverDef();
	float g = -def.gravity.y;
	vec3s x0 = box.state.x;
	double e0 = potentialPlusKinetic(&box, g);
	tbContactImpulses cache = {0};
	double maxDrift = 0.0, maxGain = -1e30, maxTilt = 0.0;
	float lastTotal = 0.0f;
	const int steps = 600; // 10 s
	for (int i = 0; i < steps; ++i) {
		tbManifold m = boxPlaneManifold(&box, half, kMargin);
		cr_assert_eq(m.pointCount, 4, "step %d: %d points", i, m.pointCount);
		tbContactConstraint c = tbMakeContactConstraint(TB_NULL_BODY, 0, &m, &cache, 0.6f, 0.0f);
		tbContactConstraint_WarmStart(&c, &cache);
		stepSolver(&def, &box, 1, &c, 1, kDt);
		maxDrift = fmax(maxDrift, (double)glms_vec3_norm(glms_vec3_sub(box.state.x, x0)));
		maxGain = fmax(maxGain, potentialPlusKinetic(&box, g) - e0);
		maxTilt = fmax(maxTilt, 1.0 - (double)box.state.R.col[1].y);
		lastTotal = 0.0f;
		for (int k = 0; k < c.impulses->pointCount; ++k) {
			lastTotal += c.impulses->points[k].normalImpulse;
		}
	}
	// At rest the four points carry the weight: per substep, sum of impulses = m g h.
	float weight = box.mass * g * kDt / (float)def.substeps;
	printf("resting box (%s), 10 s: max |x - x0| = %.3e m (sink %.3e m), max energy gain %.3e J, "
	       "tilt %.1e, final KE %.2e J, normal impulse / (m g h) = %.6f\n",
	       label, maxDrift, (double)(x0.y - box.state.x.y), maxGain, maxTilt,
	       (double)tbRigidBody_GetKineticEnergy(&box), (double)(lastTotal / weight));
	cr_expect(maxDrift < 1e-3, "drift %g m", maxDrift);
	cr_expect(maxGain <= 1e-5, "energy gain %g J", maxGain);
	cr_expect(fabsf(lastTotal / weight - 1.0f) < 1e-3f);
}

Test(contact_solver, resting_box_does_not_drift_or_gain_energy)
{
	restingBox(0.0f, "axis aligned");
	restingBox(0.5f, "yawed 0.5 rad");
}

Test(contact_solver, warm_start_matches_feature_ids)
{
	tbManifold m;
	memset(&m, 0, sizeof m);
	m.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
	m.pointCount = 3;
	m.points[0].id = 7;
	m.points[1].id = 3;
	m.points[2].id = 11;
	tbContactImpulses prev = {0};
	prev.pointCount = 2;
	prev.points[0] = (tbContactPointImpulse){.id = 11, .normalImpulse = 2.0f};
	prev.points[1] = (tbContactPointImpulse){.id = 7, .normalImpulse = 1.0f};
	prev.frictionImpulse = (vec3s){{0.5f, 0.0f, 0.25f}};
	prev.twistImpulse = 0.125f;
	tbContactImpulses now;
	tbContactConstraint c = tbMakeContactConstraint(TB_NULL_BODY, 0, &m, &now, 0.5f, 0.0f);
	tbContactConstraint_WarmStart(&c, &prev);
	cr_expect_eq(c.impulses->points[0].normalImpulse, 1.0f);
	cr_expect_eq(c.impulses->points[1].normalImpulse, 0.0f); // id 3 is new
	cr_expect_eq(c.impulses->points[2].normalImpulse, 2.0f);
	// Friction is one row at the manifold's centre: it carries over whole.
	cr_expect_eq(c.impulses->frictionImpulse.x, 0.5f);
	cr_expect_eq(c.impulses->frictionImpulse.z, 0.25f);
	cr_expect_eq(c.impulses->twistImpulse, 0.125f);
	// In place, as the world's pairs warm start their own impulses: the same points keep theirs.
	tbContactConstraint_WarmStart(&c, c.impulses);
	cr_expect_eq(c.impulses->points[0].normalImpulse, 1.0f);
	cr_expect_eq(c.impulses->points[1].normalImpulse, 0.0f);
	cr_expect_eq(c.impulses->points[2].normalImpulse, 2.0f);
	cr_expect_eq(c.impulses->frictionImpulse.x, 0.5f);
	cr_expect_eq(c.impulses->twistImpulse, 0.125f);
	tbContactConstraint_WarmStart(&c, NULL);
	cr_expect_eq(c.impulses->points[2].normalImpulse, 0.0f);
	cr_expect_eq(c.impulses->twistImpulse, 0.0f);
}

Test(contact_solver, sliding_box_stops_at_coulomb_distance)
{
	// Coulomb friction decelerates at mu g: a box sliding at v0 stops after v0^2 / (2 mu g).
	const float half = 0.5f, mu = 0.5f, v0 = 3.0f;
	tbRigidBody box = makeCube(half, (vec3s){{0.0f, half, 0.0f}}, glms_mat3_identity());
	tbRigidBody_SetVelocity(&box, (vec3s){{v0, 0.0f, 0.0f}}, (vec3s){{0.0f, 0.0f, 0.0f}});
	tbSolverDef def = tbDefaultSolverDef();
	float g = -def.gravity.y;
	tbContactImpulses cache = {0};
	for (int i = 0; i < 180; ++i) {
		tbManifold m = boxPlaneManifold(&box, half, kMargin);
		tbContactConstraint c = tbMakeContactConstraint(TB_NULL_BODY, 0, &m, &cache, mu, 0.0f);
		tbContactConstraint_WarmStart(&c, &cache);
		stepSolver(&def, &box, 1, &c, 1, kDt);
	}
	double want = (double)(v0 * v0 / (2.0f * mu * g));
	double got = (double)box.state.x.x;
	printf("sliding box mu = 0.5 from 3 m/s: stopped after %.4f m (Coulomb %.4f m, %+.2f %%), "
	       "speed %.1e m/s\n",
	       got, want, 100.0 * (got - want) / want, (double)glms_vec3_norm(box.v));
	cr_expect(fabs(got - want) < 0.05 * want);
	cr_expect(glms_vec3_norm(box.v) < 1e-3f);
}

Test(contact_solver, ball_bounces_to_e_squared_height)
{
	// A ball dropped from 1 m with e = 0.5 rebounds to e^2 h = 0.25 m; a slow second contact
	// (below the 1 m/s threshold) does not bounce at all.
	const float r = 0.5f, e = 0.5f;
	tbGeometry s = makeShape(tb_sphereShape);
	s.radius = r;
	tbRigidBody ball = tbMakeBody(tb_dynamicBody, tbComputeMass(&s, 1.0f, NULL),
	                              (vec3s){{0.0f, 1.0f + r, 0.0f}}, glms_mat3_identity());
	tbSolverDef def = tbDefaultSolverDef();
	tbContactImpulses cache = {0};
	float apex = 0.0f;
	bool bounced = false;
	for (int i = 0; i < 150; ++i) {
		float sep = ball.state.x.y - r;
		tbManifold m;
		memset(&m, 0, sizeof m);
		m.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
		// Speculative: the points the ball may reach within this step.
		if (sep < kMargin + fabsf(ball.v.y) * kDt) {
			m.pointCount = 1;
			m.points[0].pointB = (vec3s){{ball.state.x.x, sep, ball.state.x.z}};
			m.points[0].pointA = (vec3s){{ball.state.x.x, 0.0f, ball.state.x.z}};
			m.points[0].separation = sep;
		}
		tbContactConstraint c = tbMakeContactConstraint(TB_NULL_BODY, 0, &m, &cache, 0.5f, e);
		tbContactConstraint_WarmStart(&c, &cache);
		stepSolver(&def, &ball, 1, &c, 1, kDt);
		if (ball.v.y > 0.0f) {
			bounced = true;
		}
		if (bounced) {
			apex = fmaxf(apex, ball.state.x.y - r);
		}
	}
	printf("ball e = 0.5 dropped from 1 m: rebound %.4f m (e^2 h = 0.25 m, %+.2f %%)\n",
	       (double)apex, 100.0 * ((double)apex - 0.25) / 0.25);
	cr_expect(fabsf(apex - 0.25f) < 0.05f * 0.25f, "rebound %g", (double)apex);
}

Test(contact_solver, default_def)
{
	tbSolverDef def = tbDefaultSolverDef();
	cr_expect_eq(def.substeps, 4);
	cr_expect(def.iterations >= 1 && def.relaxIterations >= 1);
	cr_expect(def.contactHertz > 0.0f && def.contactPushMaxSpeed > 0.0f);
	cr_expect_eq(def.integrator, TB_DEFAULT_INTEGRATOR);
	cr_expect_eq(def.orthonormalizer, tb_orthoGramSchmidt);
	cr_expect_float_eq(tbMixFriction(0.25f, 1.0f), 0.5f, 1e-7f);
	cr_expect_eq(tbMixRestitution(0.2f, 0.7f), 0.7f);
}

static tbRefreshResult keepRefresh(int contactIndex, const tbSolverDelta* movedA,
                                   const tbSolverDelta* movedB, tbSolverAnchors* anchors,
                                   tbManifold* manifold, int workerIndex, void* context)
{
	(void)contactIndex, (void)movedA, (void)movedB, (void)anchors, (void)manifold;
	(void)workerIndex, (void)context;
	return tb_refreshFailed; // keep the step's manifold
}

// One step of a box whose bottom face is `gap` above the plane y = 0 and falls at `speed`, its
// four bottom corners a speculative manifold; `candidate`: the contact is a refresh candidate
// (which the solver may leave dormant). Returns the box; `dormant` gets the contact's flag.
static tbRigidBody fallingBoxStep(float gap, float speed, bool candidate, bool withContact,
                                  bool* dormant)
{
	const float half = 0.5f;
	tbRigidBody box = makeCube(half, (vec3s){{0.0f, half + gap, 0.0f}}, glms_mat3_identity());
	tbRigidBody_SetVelocity(&box, (vec3s){{0.0f, -speed, 0.0f}}, (vec3s){{0.0f, 0.0f, 0.0f}});
	tbSolverDef def = tbDefaultSolverDef();
	def.refreshContact = keepRefresh;
	tbContactImpulses cache = {0};
	tbManifold m = boxPlaneManifold(&box, half, 1.0f);
	tbContactConstraint c = tbMakeContactConstraint(TB_NULL_BODY, 0, &m, &cache, 0.6f, 0.0f);
	tbContactConstraint_WarmStart(&c, &cache);
	c.refresh = candidate;
	c.margin = 1.0f;
	c.spinReachB = half * sqrtf(3.0f);
	c.refreshTurn = 0.03f * half;
	stepSolver(&def, &box, 1, &c, withContact ? 1 : 0, kDt);
	*dormant = c.dormant;
	return box;
}

static bool sameState(const tbRigidBody* a, const tbRigidBody* b)
{
	return memcmp(&a->state, &b->state, sizeof a->state) == 0 &&
	       memcmp(&a->v, &b->v, sizeof a->v) == 0 && memcmp(&a->w, &b->w, sizeof a->w) == 0;
}

// A contact that no row can act on in the first substep (its gap over twice what the surfaces
// close in a substep, h (v + h g) each pass) is left out of the passes until it can: the step
// then gives the same bits as one that solves it all along. Far apart the whole step it is never
// solved (the same bits as no contact at all); arriving within the step it is solved from the
// substep in which it can close, and the box stops on the plane as the contact solved all along
// stops it.
Test(contact_solver, a_dormant_contact_gives_the_bits_of_one_solved_all_along)
{
	tbSolverDef def = tbDefaultSolverDef();
	float h = kDt / (float)def.substeps, g = -def.gravity.y;
	const float cases[3][2] = {{0.5f, 3.0f}, {0.06f, 6.0f}, {0.03f, 6.0f}}; // gap, speed
	for (int k = 0; k < 3; ++k) {
		float gap = cases[k][0], speed = cases[k][1];
		bool expectDormant = gap > 2.0f * h * (speed + h * g);
		bool dormant = false, solvedDormant = false, none = false;
		tbRigidBody asleep = fallingBoxStep(gap, speed, true, true, &dormant);
		tbRigidBody solved = fallingBoxStep(gap, speed, false, true, &solvedDormant);
		tbRigidBody free = fallingBoxStep(gap, speed, true, false, &none);
		float bottom = asleep.state.x.y - 0.5f;
		printf("box %.2f m above the plane at %.1f m/s: dormant %d (2 h (v + h g) = %.4f m), "
		       "bottom after the step %.5f m, vy %.4f m/s\n",
		       (double)gap, (double)speed, dormant, (double)(2.0f * h * (speed + h * g)),
		       (double)bottom, (double)asleep.v.y);
		cr_expect_eq(dormant, expectDormant, "gap %g m at %g m/s", (double)gap, (double)speed);
		cr_expect(!solvedDormant, "a contact that is not a refresh candidate is never dormant");
		cr_expect(sameState(&asleep, &solved), "gap %g m at %g m/s: not the bits of the solved one",
		          (double)gap, (double)speed);
		// Far apart over the whole step (0.5 m against 5 cm of travel): no impulse at all.
		cr_expect_eq(k == 0, sameState(&asleep, &free), "gap %g m: %s", (double)gap,
		             k == 0 ? "an impulse" : "no impulse");
		cr_expect(bottom > -1e-3f, "gap %g m at %g m/s: the box went %g m into the plane",
		          (double)gap, (double)speed, (double)-bottom);
	}
}
