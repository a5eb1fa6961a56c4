// Sequential impulses on contact manifolds with soft constraints, substeps and relaxation (soft
// step).
#include "tumble/contact_solver.h"

#include <stddef.h>

#include "dynamics_math.h"

#define TB_PI_F 3.14159265f
// Below this slip speed (m/s, the engine's sleep threshold) the slip direction is contact jitter
// and sliding friction keeps its accumulated direction. Measured: at 1e-3 m/s a rain of 300 cubes
// kept creeping and never fell asleep; at 0.05 m/s it sleeps and the slope test is unchanged.
#define TB_SLIP_SPEED 0.05f

tbSolverDef tbDefaultSolverDef(void)
{
	tbSolverDef def;
	def.gravity = tbV3(0.0f, -9.81f, 0.0f);
	// Catto, "Solver2D" (2024) and Box2D v3: 4 substeps with 1 biased and 1 relax iteration each
	// beat more iterations on one step: each substep re-linearizes the contacts.
	def.substeps = 4;
	def.iterations = 1;
	def.relaxIterations = 1;
	// Catto, GDC 2011 "Soft constraints": a stiff but over-damped contact spring; the push-out
	// speed cap keeps deep overlaps from launching bodies.
	def.contactHertz = 30.0f;
	def.contactDampingRatio = 10.0f;
	def.contactPushMaxSpeed = 3.0f;
	def.restitutionThreshold = 1.0f;
	def.enableWarmStarting = true;
	def.integrator = TB_DEFAULT_INTEGRATOR;
	def.orthonormalizer = tb_orthoGramSchmidt;
	return def;
}

float tbMixFriction(float a, float b)
{
	return sqrtf(a * b);
}

float tbMixRestitution(float a, float b)
{
	return a > b ? a : b;
}

tbContact tbMakeContact(int bodyA, int bodyB, const tbManifold* manifold, float friction,
                        float restitution)
{
	tbContact c = {0};
	c.bodyA = bodyA;
	c.bodyB = bodyB;
	c.friction = friction;
	c.restitution = restitution;
	c.manifold = *manifold;
	c.normal = manifold->normal;
	c.pointCount = manifold->pointCount;
	TB_ASSERT(c.pointCount >= 0 && c.pointCount <= TB_MAX_MANIFOLD_POINTS);
	for (int i = 0; i < c.pointCount; ++i) {
		c.points[i].id = manifold->points[i].id;
	}
	return c;
}

void tbContact_WarmStart(tbContact* contact, const tbContactImpulses* previous)
{
	for (int i = 0; i < contact->pointCount; ++i) {
		tbContactPoint* cp = contact->points + i;
		cp->normalImpulse = 0.0f;
		cp->frictionImpulse = tbV3(0.0f, 0.0f, 0.0f);
		if (previous == NULL) {
			continue;
		}
		// Feature ids say which features of A and B made the point: the same id is the same
		// physical contact, so its impulse from the last step is a good first guess (Catto 2005).
		for (int j = 0; j < previous->pointCount; ++j) {
			if (previous->points[j].id == cp->id) {
				cp->normalImpulse = previous->points[j].normalImpulse;
				cp->frictionImpulse = previous->points[j].frictionImpulse;
				break;
			}
		}
	}
}

tbContactImpulses tbContact_GetImpulses(const tbContact* contact)
{
	tbContactImpulses out = {0};
	out.pointCount = contact->pointCount;
	for (int i = 0; i < contact->pointCount; ++i) {
		const tbContactPoint* cp = contact->points + i;
		out.points[i].id = cp->id;
		out.points[i].normalImpulse = cp->normalImpulse;
		out.points[i].frictionImpulse =
		    glms_vec3_add(glms_vec3_scale(contact->tangent1, cp->tangentImpulse[0]),
		                  glms_vec3_scale(contact->tangent2, cp->tangentImpulse[1]));
	}
	return out;
}

// A body of the solver: a null index is the static world.
static tbRigidBody* tbGetBody(tbRigidBody* bodies, int bodyCount, int index)
{
	if (index == TB_NULL_BODY) {
		return NULL;
	}
	TB_ASSERT(index >= 0 && index < bodyCount);
	(void)bodyCount;
	return bodies + index;
}

static bool tbCanMove(const tbRigidBody* body)
{
	return body != NULL && body->type == tb_dynamicBody;
}

// A unit tangent basis (t1, t2) with t1 x t2 = n, chosen from n alone so that it is stable from
// step to step (Duff et al. 2017, "Building an orthonormal basis, revisited").
static void tbTangentBasis(vec3s n, vec3s* t1, vec3s* t2)
{
	float sign = copysignf(1.0f, n.z);
	float a = -1.0f / (sign + n.z);
	float b = n.x * n.y * a;
	*t1 = tbV3(1.0f + sign * n.x * n.x * a, sign * b, -sign * n.x);
	*t2 = tbV3(b, sign + n.y * n.y * a, -n.y);
}

// Catto, GDC 2011 "Soft constraints": a spring of angular frequency omega and damping ratio zeta
// solved implicitly over h gives the bias rate and the mass and impulse scales used below.
static void tbMakeSoft(float hertz, float zeta, float h, float* biasRate, float* massScale,
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

static vec3s tbVelocity(const tbRigidBody* body, vec3s r)
{
	if (body == NULL) {
		return tbV3(0.0f, 0.0f, 0.0f);
	}
	return glms_vec3_add(body->v, glms_vec3_cross(body->w, r));
}

// Apply the impulse J at anchors rA, rB: -J to A, +J to B (the normal points from A to B).
static void tbApplyPair(tbRigidBody* a, tbRigidBody* b, vec3s rA, vec3s rB, vec3s impulse)
{
	// Baraff II eq. 8-12, 8-13 on both bodies, in place on P, L and on the derived v, w.
	if (tbCanMove(a)) {
		vec3s dL = glms_vec3_cross(rA, impulse);
		a->state.P = glms_vec3_sub(a->state.P, impulse);
		a->state.L = glms_vec3_sub(a->state.L, dL);
		a->v = tbMulAdd(a->v, -a->invMass, impulse);
		a->w = glms_vec3_sub(a->w, tbMat3MulV(a->Iinv, dL));
	}
	if (tbCanMove(b)) {
		vec3s dL = glms_vec3_cross(rB, impulse);
		b->state.P = glms_vec3_add(b->state.P, impulse);
		b->state.L = glms_vec3_add(b->state.L, dL);
		b->v = tbMulAdd(b->v, b->invMass, impulse);
		b->w = glms_vec3_add(b->w, tbMat3MulV(b->Iinv, dL));
	}
}

static float tbInvMassAlong(const tbRigidBody* body, vec3s r, vec3s n)
{
	if (!tbCanMove(body)) {
		return 0.0f;
	}
	vec3s rn = glms_vec3_cross(r, n);
	return body->invMass + glms_vec3_dot(n, glms_vec3_cross(tbMat3MulV(body->Iinv, rn), r));
}

static void tbPrepareContact(tbContact* c, tbRigidBody* bodies, int bodyCount,
                             const tbSolverDef* def, float h)
{
	tbRigidBody* a = tbGetBody(bodies, bodyCount, c->bodyA);
	tbRigidBody* b = tbGetBody(bodies, bodyCount, c->bodyB);
	c->normal = c->manifold.normal;
	tbTangentBasis(c->normal, &c->tangent1, &c->tangent2);
	c->xA0 = a != NULL ? a->state.x : tbV3(0.0f, 0.0f, 0.0f);
	c->xB0 = b != NULL ? b->state.x : tbV3(0.0f, 0.0f, 0.0f);

	// Stiffer against static ground (as Box2D v3): only one body gives way. The frequency is capped
	// at a quarter of the substep rate, beyond which the implicit spring no longer resolves it.
	float hertz = def->contactHertz * (tbCanMove(a) && tbCanMove(b) ? 1.0f : 2.0f);
	float maxHertz = 0.25f / h;
	hertz = hertz < maxHertz ? hertz : maxHertz;
	tbMakeSoft(hertz, def->contactDampingRatio, h, &c->softBiasRate, &c->softMassScale,
	           &c->softImpulseScale);

	for (int i = 0; i < c->pointCount; ++i) {
		const tbManifoldPoint* mp = c->manifold.points + i;
		tbContactPoint* cp = c->points + i;
		cp->id = mp->id;
		// Both anchors at the midpoint: equal and opposite impulses at one point exert no net
		// torque, so the solver conserves angular momentum exactly as the single impulse does.
		vec3s p = glms_vec3_scale(glms_vec3_add(mp->pointA, mp->pointB), 0.5f);
		cp->anchorA = glms_vec3_sub(p, c->xA0);
		cp->anchorB = glms_vec3_sub(p, c->xB0);
		cp->localAnchorA =
		    a != NULL ? tbMat3MulV(glms_mat3_transpose(a->state.R), cp->anchorA) : cp->anchorA;
		cp->localAnchorB =
		    b != NULL ? tbMat3MulV(glms_mat3_transpose(b->state.R), cp->anchorB) : cp->anchorB;
		// The separation later is this plus how far the anchors have moved apart along n.
		cp->baseSeparation =
		    mp->separation - glms_vec3_dot(glms_vec3_sub(cp->anchorB, cp->anchorA), c->normal);

		float kn =
		    tbInvMassAlong(a, cp->anchorA, c->normal) + tbInvMassAlong(b, cp->anchorB, c->normal);
		float k1 = tbInvMassAlong(a, cp->anchorA, c->tangent1) +
		           tbInvMassAlong(b, cp->anchorB, c->tangent1);
		float k2 = tbInvMassAlong(a, cp->anchorA, c->tangent2) +
		           tbInvMassAlong(b, cp->anchorB, c->tangent2);
		cp->normalMass = kn > 0.0f ? 1.0f / kn : 0.0f;
		cp->tangentMass[0] = k1 > 0.0f ? 1.0f / k1 : 0.0f;
		cp->tangentMass[1] = k2 > 0.0f ? 1.0f / k2 : 0.0f;

		if (def->enableWarmStarting) {
			// Project last step's friction impulse on this step's tangents (the normal may have
			// turned a little; the basis follows it).
			cp->tangentImpulse[0] = glms_vec3_dot(cp->frictionImpulse, c->tangent1);
			cp->tangentImpulse[1] = glms_vec3_dot(cp->frictionImpulse, c->tangent2);
		} else {
			cp->normalImpulse = 0.0f;
			cp->tangentImpulse[0] = 0.0f;
			cp->tangentImpulse[1] = 0.0f;
		}
		cp->maxNormalImpulse = 0.0f;
		// The approach speed for restitution is recorded by the substep that stops the point.
		cp->relativeVelocity = 0.0f;
	}
}

// Current world anchors: the start-of-step anchors carried by each body's rotation since. R only
// changes in tbIntegratePositions, so they are computed once after it (and once at the start), not
// in every pass that reads them (warm start, solve, relax, restitution: five reads per substep).
static void tbUpdateAnchors(tbContact* c, tbRigidBody* bodies, int bodyCount)
{
	const tbRigidBody* a = tbGetBody(bodies, bodyCount, c->bodyA);
	const tbRigidBody* b = tbGetBody(bodies, bodyCount, c->bodyB);
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPoint* cp = c->points + i;
		cp->rA = a != NULL ? tbMat3MulV(a->state.R, cp->localAnchorA) : cp->anchorA;
		cp->rB = b != NULL ? tbMat3MulV(b->state.R, cp->localAnchorB) : cp->anchorB;
	}
}

static void tbWarmStartContact(tbContact* c, tbRigidBody* bodies, int bodyCount)
{
	tbRigidBody* a = tbGetBody(bodies, bodyCount, c->bodyA);
	tbRigidBody* b = tbGetBody(bodies, bodyCount, c->bodyB);
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPoint* cp = c->points + i;
		vec3s rA = cp->rA, rB = cp->rB;
		vec3s impulse = glms_vec3_scale(c->normal, cp->normalImpulse);
		impulse = tbMulAdd(impulse, cp->tangentImpulse[0], c->tangent1);
		impulse = tbMulAdd(impulse, cp->tangentImpulse[1], c->tangent2);
		tbApplyPair(a, b, rA, rB, impulse);
	}
}

static void tbSolveContact(tbContact* c, tbRigidBody* bodies, int bodyCount, const tbSolverDef* def,
                           float invH, bool useBias)
{
	tbRigidBody* a = tbGetBody(bodies, bodyCount, c->bodyA);
	tbRigidBody* b = tbGetBody(bodies, bodyCount, c->bodyB);
	vec3s n = c->normal;
	vec3s dxA = a != NULL ? glms_vec3_sub(a->state.x, c->xA0) : tbV3(0.0f, 0.0f, 0.0f);
	vec3s dxB = b != NULL ? glms_vec3_sub(b->state.x, c->xB0) : tbV3(0.0f, 0.0f, 0.0f);

	// Normal constraints first, so that friction sees this iteration's normal impulses.
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPoint* cp = c->points + i;
		vec3s rA = cp->rA, rB = cp->rB;
		// Separation now, from how far the bodies moved since the manifold was made (no new
		// narrow phase per substep).
		vec3s d = glms_vec3_sub(glms_vec3_add(dxB, rB), glms_vec3_add(dxA, rA));
		float s = glms_vec3_dot(d, n) + cp->baseSeparation;

		float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
		if (s > 0.0f) {
			// Speculative: allow closing exactly the gap in this substep, no more.
			bias = s * invH;
		} else if (useBias) {
			// Soft push-out (Catto 2011): spring-damper, capped speed. The relax pass then removes
			// this velocity, so the correction moves the body without leaving it energy.
			bias = c->softBiasRate * s;
			bias = bias > -def->contactPushMaxSpeed ? bias : -def->contactPushMaxSpeed;
			massScale = c->softMassScale;
			impulseScale = c->softImpulseScale;
		}
		float vn = glms_vec3_dot(n, glms_vec3_sub(tbVelocity(b, rB), tbVelocity(a, rA)));
		// Accumulated impulse clamped at >= 0 (Catto 2005): only the total must push.
		float impulse =
		    -cp->normalMass * massScale * (vn + bias) - impulseScale * cp->normalImpulse;
		float newImpulse = cp->normalImpulse + impulse;
		newImpulse = newImpulse > 0.0f ? newImpulse : 0.0f;
		impulse = newImpulse - cp->normalImpulse;
		cp->normalImpulse = newImpulse;
		cp->maxNormalImpulse = cp->maxNormalImpulse > impulse ? cp->maxNormalImpulse : impulse;
		if (newImpulse > 0.0f && vn < cp->relativeVelocity) {
			// The approach speed met by the first pass (solve or relax: a speculative point may
			// first push in a relax pass) that actually pushes, gravity of the step included. The
			// start-of-step velocity (Box2D's choice) misses up to a step of falling: it measured
			// a 0.226 m rebound for the 0.25 m of e^2 h.
			cp->relativeVelocity = vn;
		}
		tbApplyPair(a, b, rA, rB, glms_vec3_scale(n, impulse));
	}

	// Coulomb friction on two tangents; the accumulated friction vector is clamped to the disc of
	// radius mu * normal impulse (isotropic, unlike clamping each tangent to a box).
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPoint* cp = c->points + i;
		vec3s rA = cp->rA, rB = cp->rB;
		vec3s dv = glms_vec3_sub(tbVelocity(b, rB), tbVelocity(a, rA));
		float old0 = cp->tangentImpulse[0], old1 = cp->tangentImpulse[1];
		float new0 = old0 - cp->tangentMass[0] * glms_vec3_dot(dv, c->tangent1);
		float new1 = old1 - cp->tangentMass[1] * glms_vec3_dot(dv, c->tangent2);
		float maxFriction = c->friction * cp->normalImpulse;
		float len2 = new0 * new0 + new1 * new1;
		if (len2 > maxFriction * maxFriction) {
			// Sliding: Coulomb's kinetic friction opposes the slip velocity. Scaling the
			// accumulated vector instead keeps the direction it built up over past iterations,
			// and with four points those sideways parts lock into a self-cancelling squeeze that
			// wastes the friction budget (measured: a box on a 30 degree slope slid with 3.5 %
			// less friction than mu N, 23 % too fast).
			float s0 = glms_vec3_dot(dv, c->tangent1), s1 = glms_vec3_dot(dv, c->tangent2);
			float slip = sqrtf(s0 * s0 + s1 * s1);
			if (slip > TB_SLIP_SPEED) {
				new0 = -maxFriction * s0 / slip;
				new1 = -maxFriction * s1 / slip;
			} else {
				float scale = len2 > 0.0f ? maxFriction / sqrtf(len2) : 0.0f;
				new0 *= scale;
				new1 *= scale;
			}
		}
		cp->tangentImpulse[0] = new0;
		cp->tangentImpulse[1] = new1;
		vec3s impulse = glms_vec3_add(glms_vec3_scale(c->tangent1, new0 - old0),
		                              glms_vec3_scale(c->tangent2, new1 - old1));
		tbApplyPair(a, b, rA, rB, impulse);
	}
}

static void tbApplyRestitution(tbContact* c, tbRigidBody* bodies, int bodyCount,
                               const tbSolverDef* def)
{
	if (c->restitution == 0.0f) {
		return;
	}
	tbRigidBody* a = tbGetBody(bodies, bodyCount, c->bodyA);
	tbRigidBody* b = tbGetBody(bodies, bodyCount, c->bodyB);
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPoint* cp = c->points + i;
		// Only a real impact bounces: fast enough, and the point actually pushed this step. This
		// keeps resting contacts from jittering and speculative points from bouncing early.
		if (cp->relativeVelocity > -def->restitutionThreshold || cp->maxNormalImpulse == 0.0f) {
			continue;
		}
		vec3s rA = cp->rA, rB = cp->rB;
		float vn = glms_vec3_dot(c->normal, glms_vec3_sub(tbVelocity(b, rB), tbVelocity(a, rA)));
		// Aim for vn = -e vn(before), the Newton impact law of Baraff II eq. 8-5.
		float impulse = -cp->normalMass * (vn + c->restitution * cp->relativeVelocity);
		float newImpulse = cp->normalImpulse + impulse;
		newImpulse = newImpulse > 0.0f ? newImpulse : 0.0f;
		impulse = newImpulse - cp->normalImpulse;
		cp->normalImpulse = newImpulse;
		cp->maxNormalImpulse = cp->maxNormalImpulse > impulse ? cp->maxNormalImpulse : impulse;
		tbApplyPair(a, b, rA, rB, glms_vec3_scale(c->normal, impulse));
	}
}

void tbSolverStep(const tbSolverDef* def, tbRigidBody* bodies, int bodyCount, tbContact* contacts,
                  int contactCount, float dt)
{
	TB_ASSERT(def != NULL && def->substeps > 0 && dt > 0.0f);
	int substeps = def->substeps > 0 ? def->substeps : 1;
	float h = dt / (float)substeps;
	float invH = 1.0f / h;

	for (int i = 0; i < contactCount; ++i) {
		tbPrepareContact(contacts + i, bodies, bodyCount, def, h);
		tbUpdateAnchors(contacts + i, bodies, bodyCount);
	}
	// Catto's soft step: per substep integrate velocities, warm start, solve with bias, integrate
	// positions, relax without bias (architecture note, "one step"; dynamics note, Solver2D).
	for (int sub = 0; sub < substeps; ++sub) {
		tbIntegrateVelocities(bodies, bodyCount, def->gravity, h);
		if (def->enableWarmStarting) {
			for (int i = 0; i < contactCount; ++i) {
				tbWarmStartContact(contacts + i, bodies, bodyCount);
			}
		} else {
			for (int i = 0; i < contactCount; ++i) {
				for (int j = 0; j < contacts[i].pointCount; ++j) {
					contacts[i].points[j].normalImpulse = 0.0f;
					contacts[i].points[j].tangentImpulse[0] = 0.0f;
					contacts[i].points[j].tangentImpulse[1] = 0.0f;
				}
			}
		}
		for (int it = 0; it < def->iterations; ++it) {
			for (int i = 0; i < contactCount; ++i) {
				tbSolveContact(contacts + i, bodies, bodyCount, def, invH, true);
			}
		}
		tbIntegratePositions(bodies, bodyCount, h, def->integrator, def->orthonormalizer);
		for (int i = 0; i < contactCount; ++i) {
			tbUpdateAnchors(contacts + i, bodies, bodyCount);
		}
		for (int it = 0; it < def->relaxIterations; ++it) {
			for (int i = 0; i < contactCount; ++i) {
				tbSolveContact(contacts + i, bodies, bodyCount, def, invH, false);
			}
		}
	}
	for (int i = 0; i < contactCount; ++i) {
		tbApplyRestitution(contacts + i, bodies, bodyCount, def);
	}
	for (int i = 0; i < bodyCount; ++i) {
		tbRigidBody_ClearForces(bodies + i);
	}
}
