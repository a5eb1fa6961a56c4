// The energy ledger and the solver trace: the step's passes observed row by row (docs/energy.md).
#include <string.h>

#include "dynamics_math.h"
#include "ledger_internal.h"

// The ledger's part of a body: its mass and world inertia of the step's start (the mass matrix
// the contact rows use), its gravity, and its velocities before the pass being measured.
typedef struct tbLedgerBody
{
	mat3s inertia; // I0 = R0 Ibody R0^T, kg m^2 (zero: not dynamic)
	vec3s gravity; // gravityScale g, m/s^2 (zero: not dynamic)
	float mass;    // kg (zero: not dynamic)
	float v[3], w[3], dp[3];
} tbLedgerBody;

// a . b in double.
static double tbDotD(const float* a, const float* b)
{
	return (double)a[0] * (double)b[0] + (double)a[1] * (double)b[1] + (double)a[2] * (double)b[2];
}

static size_t tbAlignLedger(size_t n)
{
	return (n + 63u) & ~(size_t)63u;
}

size_t tbSolverLedgerBytes(int bodyCount, int contactCount)
{
	return tbAlignLedger((size_t)(bodyCount + 1) * sizeof(tbLedgerBody)) +
	       tbAlignLedger((size_t)contactCount * sizeof(float)) +
	       tbAlignLedger((size_t)(bodyCount + 1) * sizeof(float)) +
	       tbAlignLedger((size_t)contactCount * TB_MAX_MANIFOLD_POINTS * sizeof(float));
}

// Kinetic energy 1/2 m v.v + 1/2 w . I w of a ledger body at velocities v, w (double: a sum of
// many bodies' small changes).
static double tbKinetic(const tbLedgerBody* b, const float* v, const float* w)
{
	vec3s ws = {{w[0], w[1], w[2]}};
	vec3s Iw = tbMat3MulV(b->inertia, ws);
	return 0.5 * ((double)b->mass * tbDotD(v, v) + tbDotD(w, Iw.raw));
}

// The energy of the dynamic bodies from Baraff's state: 1/2 P . v + 1/2 L . w and -M g' . x.
static void tbBodiesEnergy(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                           double* kinetic, double* potential)
{
	double k = 0.0, p = 0.0;
	for (int i = 0; i < bodyCount; ++i) {
		const tbRigidBody* b = bodies[i];
		if (b->type != tb_dynamicBody) {
			continue;
		}
		const tbBodyState* s = &b->state;
		k += 0.5 * (tbDotD(s->P.raw, b->v.raw) + tbDotD(s->L.raw, b->w.raw));
		p -= (double)b->gravityScale * (double)b->mass * tbDotD(def->gravity.raw, s->x.raw);
	}
	*kinetic = k;
	*potential = p;
}

void tbObserveBegin(tbObserver* o, const tbSolverDef* def, tbRigidBody* const* bodies,
                    int bodyCount, int contactCount, float h)
{
	memset(o, 0, sizeof *o);
	o->def = def;
	o->ledger = def->ledger;
	o->bodyCount = bodyCount;
	o->h = h;
	tbSolverLedger* l = def->ledger;
	if (l == NULL) {
		return;
	}
	char* at = l->scratch;
	TB_ASSERT(at != NULL);
	o->bodies = (tbLedgerBody*)at;
	at += tbAlignLedger((size_t)(bodyCount + 1) * sizeof(tbLedgerBody));
	l->contactWork = (float*)at;
	at += tbAlignLedger((size_t)contactCount * sizeof(float));
	l->jointWork = (float*)at;
	at += tbAlignLedger((size_t)(bodyCount + 1) * sizeof(float));
	o->biasImpulse = (float*)at;
	o->contactCount = contactCount;
	memset(o->biasImpulse, 0, (size_t)contactCount * TB_MAX_MANIFOLD_POINTS * sizeof(float));
	memset(l->contactWork, 0, (size_t)contactCount * sizeof(float));
	memset(l->jointWork, 0, (size_t)(bodyCount + 1) * sizeof(float));
	memset(o->bodies, 0, (size_t)(bodyCount + 1) * sizeof(tbLedgerBody));
	for (int i = 0; i < bodyCount; ++i) {
		const tbRigidBody* b = bodies[i];
		if (b->type != tb_dynamicBody) {
			continue;
		}
		tbLedgerBody* lb = o->bodies + i;
		// I0 = R0 Ibody R0^T: the inverse the records hold is its inverse.
		lb->inertia = tbMat3Mul(tbMat3Mul(b->state.R, b->Ibody), glms_mat3_transpose(b->state.R));
		lb->gravity = glms_vec3_scale(def->gravity, b->gravityScale);
		lb->mass = b->mass;
	}
	l->applied = l->damping = l->positionCorrection = 0.0;
	l->friction = l->restitution = l->joints = l->rotation = 0.0;
	tbBodiesEnergy(def, bodies, bodyCount, &l->kineticBefore, &l->potentialBefore);
}

void tbObserveSnapshot(tbObserver* o, const tbSolverBody* states)
{
	if (o->ledger == NULL) {
		return;
	}
	for (int i = 0; i < o->bodyCount; ++i) {
		memcpy(o->bodies[i].v, states[i].v, sizeof o->bodies[i].v);
		memcpy(o->bodies[i].w, states[i].w, sizeof o->bodies[i].w);
		memcpy(o->bodies[i].dp, states[i].dp, sizeof o->bodies[i].dp);
	}
}

void tbObserveIntegration(tbObserver* o, const tbSolverBody* states,
                          const tbSolverBodyMotion* motions)
{
	tbSolverLedger* l = o->ledger;
	if (l == NULL) {
		return;
	}
	double applied = 0.0, damping = 0.0, h = (double)o->h;
	for (int i = 0; i < o->bodyCount; ++i) {
		const tbLedgerBody* b = o->bodies + i;
		if (b->mass == 0.0f) {
			continue;
		}
		const tbSolverBodyMotion* m = motions + i;
		// The undamped velocities v + h a, then the damped and capped ones the solver holds.
		float v1[3], w1[3];
		for (int k = 0; k < 3; ++k) {
			v1[k] = b->v[k] + o->h * m->linearAcceleration.raw[k];
			w1[k] = b->w[k] + o->h * m->angularAcceleration.raw[k];
		}
		const float* v2 = states[i].v;
		double before = tbKinetic(b, b->v, b->w), undamped = tbKinetic(b, v1, w1);
		double after = tbKinetic(b, v2, states[i].w);
		// The deltas will move the body by h v2 in this substep: -m g' . h v2 of potential.
		double lift = -(double)b->mass * h * tbDotD(b->gravity.raw, v2);
		applied += undamped - before + lift;
		damping += after - undamped;
	}
	l->applied += applied;
	l->damping += damping;
}

void tbObserveBodies(tbObserver* o, const tbSolverBody* states, bool beforeDeltas, bool joints)
{
	tbSolverLedger* l = o->ledger;
	if (l == NULL) {
		return;
	}
	double sum = 0.0, gravity = 0.0, h = (double)o->h;
	for (int i = 0; i < o->bodyCount; ++i) {
		const tbLedgerBody* b = o->bodies + i;
		if (b->mass == 0.0f) {
			continue;
		}
		const float* v = states[i].v;
		// Kinetic change, and the velocity change's part of the sampled energy (docs/energy.md,
		// "Gravity's half substep"): -m g' . h dv / 2 before the deltas are integrated (they move
		// the body by h dv in this substep), +m g' . h dv / 2 after; the other -m g' . h dv / 2 is
		// gravity's.
		double work = tbKinetic(b, v, states[i].w) - tbKinetic(b, b->v, b->w);
		double lift =
		    (double)b->mass * h * 0.5 * (tbDotD(b->gravity.raw, v) - tbDotD(b->gravity.raw, b->v));
		work += beforeDeltas ? -lift : lift;
		gravity -= lift;
		// A pass that moves the body itself (a joint's position projection) changes its
		// potential energy by -m g' . ddp.
		work -= (double)b->mass *
		        (tbDotD(b->gravity.raw, states[i].dp) - tbDotD(b->gravity.raw, b->dp));
		sum += work;
		if (joints) {
			l->jointWork[i] += (float)work;
		}
	}
	l->applied += gravity;
	if (joints) {
		l->joints += sum;
	} else {
		l->friction += sum; // rolling resistance
	}
}

static void tbGravityW(const tbObserver* o, const int* index, float h, tbVec3W* out)
{
	_Alignas(32) float x[TB_SIMD_WIDTH], y[TB_SIMD_WIDTH], z[TB_SIMD_WIDTH];
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		vec3s g = o->bodies != NULL && index[lane] <= o->bodyCount ? o->bodies[index[lane]].gravity
		                                                           : tbV3(0.0f, 0.0f, 0.0f);
		x[lane] = h * g.x;
		y[lane] = h * g.y;
		z[lane] = h * g.z;
	}
	out->x = tbLoadW(x);
	out->y = tbLoadW(y);
	out->z = tbLoadW(z);
}

static float tbLaneOf(tbFloatW w, int lane)
{
	_Alignas(32) float at[TB_SIMD_WIDTH];
	tbStoreW(at, w);
	return at[lane];
}

void tbObserveContacts(tbObserver* o, tbSolverPass pass, tbContactConstraintW* groups,
                       int groupCount, tbSolverBody* states, float invH)
{
	const tbSolverDef* def = o->def;
	tbSolverLedger* l = o->ledger;
	bool solve = pass == tb_passPush || pass == tb_passRelax;
	if (l != NULL && pass == tb_passPush && o->iteration == 0) {
		// A new substep: no push-out impulse yet to take back.
		memset(o->biasImpulse, 0, (size_t)o->contactCount * TB_MAX_MANIFOLD_POINTS * sizeof(float));
	}
	double normal = 0.0, bias = 0.0, friction = 0.0, gravity = 0.0;
	for (int g = 0; g < groupCount; ++g) {
		tbContactConstraintW* c = groups + g;
		tbRowsSeen seen;
		memset(&seen, 0, sizeof seen);
		tbGravityW(o, c->bodyA, 0.5f * o->h, &seen.gravityHA);
		tbGravityW(o, c->bodyB, 0.5f * o->h, &seen.gravityHB);
		seen.afterDeltas = pass == tb_passRelax || pass == tb_passRestitution;
		_Alignas(32) float held[TB_MAX_MANIFOLD_POINTS][TB_SIMD_WIDTH];
		if (solve && l != NULL) {
			for (int i = 0; i < TB_MAX_MANIFOLD_POINTS; ++i) {
				for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
					int index = c->contact[lane];
					held[i][lane] =
					    index >= 0 ? o->biasImpulse[index * TB_MAX_MANIFOLD_POINTS + i] : 0.0f;
				}
				seen.biasImpulse[i] = tbLoadW(held[i]);
			}
		}
		if (pass == tb_passWarmStart) {
			tbWarmStartContactsSeenW(c, states, &seen);
		} else if (pass == tb_passRestitution) {
			tbApplyRestitutionSeenW(c, states, def->restitutionThreshold, o->h, &seen);
		} else {
			tbSolveContactsSeenW(c, states, invH, pass == tb_passPush, &seen);
		}
		if (solve && l != NULL) {
			for (int i = 0; i < TB_MAX_MANIFOLD_POINTS; ++i) {
				tbStoreW(held[i], seen.biasImpulse[i]);
				for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
					int index = c->contact[lane];
					if (index >= 0) {
						o->biasImpulse[index * TB_MAX_MANIFOLD_POINTS + i] = held[i][lane];
					}
				}
			}
		}
		for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
			int index = c->contact[lane];
			if (index < 0) {
				continue;
			}
			float nw = tbLaneOf(seen.normalWork, lane), bw = tbLaneOf(seen.biasWork, lane);
			float fw = tbLaneOf(seen.frictionWork, lane);
			normal += (double)nw;
			bias += (double)bw;
			friction += (double)fw;
			gravity += (double)tbLaneOf(seen.gravityWork, lane);
			if (l != NULL) {
				l->contactWork[index] += nw + bw + fw;
			}
			if (def->trace == NULL) {
				continue;
			}
			tbSolverTraceContact t;
			memset(&t, 0, sizeof t);
			t.contact = index;
			t.substep = o->substep;
			t.iteration = o->iteration;
			t.pass = pass;
			for (int i = 0; i < c->pointCount; ++i) {
				const tbContactPointW* cp = c->points + i;
				if (tbLaneOf(cp->normalMass, lane) == 0.0f) {
					continue; // no point in this lane
				}
				int k = t.pointCount++;
				t.normalImpulse[k] = tbLaneOf(cp->normalImpulse, lane);
				t.speedError[k] = tbLaneOf(seen.speedError[i], lane);
				t.bias[k] = tbLaneOf(seen.bias[i], lane);
			}
			t.tangentImpulse[0] = tbLaneOf(c->tangentImpulse1, lane);
			t.tangentImpulse[1] = tbLaneOf(c->tangentImpulse2, lane);
			t.twistImpulse = tbLaneOf(c->twistImpulse, lane);
			t.tangentError[0] = tbLaneOf(seen.tangentError1, lane);
			t.tangentError[1] = tbLaneOf(seen.tangentError2, lane);
			t.twistError = tbLaneOf(seen.twistError, lane);
			float mask = tbLaneOf(seen.clamped, lane);
			uint32_t bits;
			memcpy(&bits, &mask, sizeof bits);
			t.clamped = pass == tb_passRelax && bits != 0u;
			t.normalWork = nw + bw;
			t.frictionWork = fw;
			def->trace(&t, def->traceContext);
		}
	}
	if (l == NULL) {
		return;
	}
	// Every pass's impact part with the restitution pass's: what stops an approach and what a
	// bounce returns are one term (docs/energy.md, "The terms").
	l->friction += friction;
	l->restitution += normal;
	l->positionCorrection += bias;
	l->applied += gravity;
}

bool tbObserveCollisions(tbObserver* o, tbContactConstraintW* groups, int groupCount,
                         tbSolverBody* states, float window, float threshold)
{
	tbSolverLedger* l = o->ledger;
	bool any = false;
	double work = 0.0, gravity = 0.0;
	for (int g = 0; g < groupCount; ++g) {
		tbContactConstraintW* c = groups + g;
		// The phase comes before the first substep's kick, whose lift term
		// (tbObserveIntegration) counts the new velocities; its potential part is the shift of
		// the bodies to the moment of impact (gravity per unit time here, scaled there).
		tbRowsSeen seen;
		memset(&seen, 0, sizeof seen);
		tbGravityW(o, c->bodyA, 1.0f, &seen.gravityHA);
		tbGravityW(o, c->bodyB, 1.0f, &seen.gravityHB);
		any |= tbCollideContactsSeenW(c, states, window, o->h, threshold, &seen);
		for (int lane = 0; lane < TB_SIMD_WIDTH && l != NULL; ++lane) {
			if (c->contact[lane] >= 0) {
				float nw = tbLaneOf(seen.normalWork, lane);
				work += (double)nw;
				gravity += (double)tbLaneOf(seen.gravityWork, lane);
				l->contactWork[c->contact[lane]] += nw;
			}
		}
	}
	if (l != NULL) {
		l->restitution += work;
		l->applied += gravity;
	}
	return any;
}

void tbObserveFinish(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                     const tbSolverBody* states)
{
	tbSolverLedger* l = def->ledger;
	if (l == NULL) {
		return;
	}
	tbBodiesEnergy(def, bodies, bodyCount, &l->kinetic, &l->potential);
	// The passes measured the kinetic energy with the start's inertia I0; the finish turns the
	// body and holds L = L0 + I0 (w - w0) (or L = I(R) w for a jointed body), so the energy it
	// leaves is 1/2 L . I(R)^-1 L: the difference is the rotation's (tbFinishBody).
	const tbLedgerBody* lb = (const tbLedgerBody*)l->scratch;
	double solver = 0.0, world = 0.0;
	for (int i = 0; i < bodyCount; ++i) {
		const tbRigidBody* b = bodies[i];
		if (b->type != tb_dynamicBody || lb[i].mass == 0.0f) {
			continue;
		}
		solver += tbKinetic(lb + i, states[i].v, states[i].w);
		world += 0.5 * (tbDotD(b->state.P.raw, b->v.raw) + tbDotD(b->state.L.raw, b->w.raw));
	}
	l->rotation = world - solver;
}
