// Integrating Baraff's state vector Y = (x, R, P, L): explicit Euler, semi-implicit Euler, RK4.
#include "tumble/integrator.h"

#include "dynamics_math.h"
#include "integrator_internal.h"

// Choice of the default (TB_DEFAULT_INTEGRATOR = RK4), by tests/test_integrator.c on a 1 x 2 x 3
// box spun near its intermediate axis at 60 Hz with Gram-Schmidt after every step: both Euler
// steps let the kinetic energy grow until the box spins about its minor axis (the energy maximum
// at fixed L), while RK4 keeps it to rounding (the test asserts the bound).
// Why the Euler steps fail: with Baraff's L-form, L is exact in free flight for all three, so the
// energy E = 1/2 L . R Ibody^-1 R^T L depends on R alone. Turning R by an angle t about the
// start-of-step w changes E by 0 at first order (w . (w^ x L) = 0) but by
// +1/2 t^2 (w^ x L) . I^-1 (w^ x L) > 0 at second order: a gain on every step, O(h) overall. RK4
// follows w as it turns within the step; its error is O(h^4) and costs four derivative evaluations
// (a few 3x3 products): nothing next to a contact solve.

const char* tbIntegratorName(tbIntegrator integrator)
{
	switch (integrator) {
	case tb_explicitEuler:
		return "explicit Euler";
	case tb_semiImplicitEuler:
		return "semi-implicit Euler";
	case tb_rk4:
		return "RK4";
	default:
		return "unknown";
	}
}

// Y' of the course slides ("State Vector Derivative"; Baraff I, eq. 2-43) as four parts.
typedef struct tbStateDerivative
{
	vec3s dx;
	mat3s dR;
	vec3s dP;
	vec3s dL;
} tbStateDerivative;

// Y' = (v, w* R, F - c P, tau - c L) with v = P / M, w = R Ibody^-1 R^T L.
static tbStateDerivative tbDerivative(const tbRigidBody* body, const tbBodyState* y, vec3s force,
                                      vec3s torque)
{
	tbStateDerivative d;
	vec3s w = tbMat3MulV(tbMat3Rotate(y->R, body->IbodyInv), y->L);
	d.dx = glms_vec3_scale(y->P, body->invMass);
	d.dR = tbMat3Mul(tbSkew(w), y->R);
	d.dP = tbMulAdd(force, -body->linearDamping, y->P);
	d.dL = tbMulAdd(torque, -body->angularDamping, y->L);
	return d;
}

static tbBodyState tbStateAdd(const tbBodyState* y, float h, const tbStateDerivative* d)
{
	tbBodyState out;
	out.x = tbMulAdd(y->x, h, d->dx);
	out.R = tbMat3MulAdd(y->R, h, d->dR);
	out.P = tbMulAdd(y->P, h, d->dP);
	out.L = tbMulAdd(y->L, h, d->dL);
	return out;
}

// exp(h w*): the rotation by angle h |w| about w (Rodrigues), as a series when the angle is tiny.
static mat3s tbRotationStep(vec3s w, float h)
{
	float speed = glms_vec3_norm(w);
	float angle = h * speed;
	mat3s W = tbSkew(w);
	float a, b;
	if (angle < 1e-3f) {
		// sin(t)/|w| and (1 - cos(t))/|w|^2 to the first neglected term below float precision.
		a = h * (1.0f - angle * angle / 6.0f);
		b = 0.5f * h * h * (1.0f - angle * angle / 12.0f);
	} else {
		tbCosSin cs = tbComputeCosSin(angle);
		a = cs.sine / speed;
		b = (1.0f - cs.cosine) / (speed * speed);
	}
	return tbMat3MulAdd(tbMat3MulAdd(glms_mat3_identity(), a, W), b, tbMat3Mul(W, W));
}

static void tbFinishStep(tbRigidBody* body, tbOrthonormalizer ortho)
{
	body->state.R = tbOrthonormalize(body->state.R, ortho);
	tbRigidBody_UpdateDerived(body);
}

static void tbMoveKinematic(tbRigidBody* body, float h, tbOrthonormalizer ortho)
{
	body->state.x = tbMulAdd(body->state.x, h, body->v);
	body->state.R = tbMat3Mul(tbRotationStep(body->w, h), body->state.R);
	tbFinishStep(body, ortho);
}

void tbRigidBody_Integrate(tbRigidBody* body, vec3s gravity, float h, tbIntegrator integrator,
                           tbOrthonormalizer ortho)
{
	if (body->type == tb_staticBody) {
		return;
	}
	if (body->type == tb_kinematicBody) {
		tbMoveKinematic(body, h, ortho);
		return;
	}
	vec3s force = tbMulAdd(body->force, body->mass * body->gravityScale, gravity);
	vec3s torque = body->torque;
	tbBodyState* y = &body->state;
	switch (integrator) {
	case tb_explicitEuler: {
		// Seed 002 "Euler's Method": next_state = old_state + derivative * dt, every part of Y'
		// taken at the start of the step.
		tbStateDerivative d = tbDerivative(body, y, force, torque);
		*y = tbStateAdd(y, h, &d);
		break;
	}
	case tb_semiImplicitEuler: {
		// Momenta first (damping implicit: unconditionally stable), then positions with the new
		// velocities; R turns exactly about the new w, so it stays a rotation up to rounding.
		y->P = glms_vec3_scale(tbMulAdd(y->P, h, force), 1.0f / (1.0f + h * body->linearDamping));
		y->L = glms_vec3_scale(tbMulAdd(y->L, h, torque), 1.0f / (1.0f + h * body->angularDamping));
		vec3s w = tbMat3MulV(tbMat3Rotate(y->R, body->IbodyInv), y->L);
		y->x = tbMulAdd(y->x, h * body->invMass, y->P);
		y->R = tbMat3Mul(tbRotationStep(w, h), y->R);
		break;
	}
	case tb_rk4:
	default: {
		tbStateDerivative k1 = tbDerivative(body, y, force, torque);
		tbBodyState y2 = tbStateAdd(y, 0.5f * h, &k1);
		tbStateDerivative k2 = tbDerivative(body, &y2, force, torque);
		tbBodyState y3 = tbStateAdd(y, 0.5f * h, &k2);
		tbStateDerivative k3 = tbDerivative(body, &y3, force, torque);
		tbBodyState y4 = tbStateAdd(y, h, &k3);
		tbStateDerivative k4 = tbDerivative(body, &y4, force, torque);
		// Y += h/6 (k1 + 2 k2 + 2 k3 + k4): the weights are summed first so that each part of Y
		// takes one rounding per step, as in the Euler steps (four small additions to a large x
		// would round four times, measurably).
		tbStateDerivative sum;
		sum.dx = glms_vec3_scale(glms_vec3_add(glms_vec3_add(k1.dx, k4.dx),
		                                       glms_vec3_scale(glms_vec3_add(k2.dx, k3.dx), 2.0f)),
		                         1.0f / 6.0f);
		sum.dR = tbMat3ScaleM(
		    tbMat3Add(tbMat3Add(k1.dR, k4.dR), tbMat3ScaleM(tbMat3Add(k2.dR, k3.dR), 2.0f)),
		    1.0f / 6.0f);
		sum.dP = glms_vec3_scale(glms_vec3_add(glms_vec3_add(k1.dP, k4.dP),
		                                       glms_vec3_scale(glms_vec3_add(k2.dP, k3.dP), 2.0f)),
		                         1.0f / 6.0f);
		sum.dL = glms_vec3_scale(glms_vec3_add(glms_vec3_add(k1.dL, k4.dL),
		                                       glms_vec3_scale(glms_vec3_add(k2.dL, k3.dL), 2.0f)),
		                         1.0f / 6.0f);
		*y = tbStateAdd(y, h, &sum);
		break;
	}
	}
	tbFinishStep(body, ortho);
}

// w = R (Ibody^-1 (R^T L)): three matrix-vector products instead of forming R Ibody^-1 R^T
// (two matrix products) for one vector.
static inline vec3s tbSpinOf(const mat3s* IbodyInv, vec3s L, mat3s R)
{
	vec3s Lb =
	    tbV3(glms_vec3_dot(R.col[0], L), glms_vec3_dot(R.col[1], L), glms_vec3_dot(R.col[2], L));
	return tbMat3MulV(R, tbMat3MulV(*IbodyInv, Lb));
}

// dR/dt = (R Ibody^-1 R^T L)* R with L held: the torque-free motion of R; called four times per
// body per step by RK4.
static mat3s tbRotationRate(const mat3s* IbodyInv, vec3s L, mat3s R)
{
	vec3s w = tbSpinOf(IbodyInv, L, R);
	// w* R column by column is w x (column): the same products and sums as the skew matrix
	// product without its multiplications by zero (bit for bit, up to the sign of a zero).
	mat3s dR;
	for (int c = 0; c < 3; ++c) {
		dR.col[c] = glms_vec3_cross(w, R.col[c]);
	}
	return dR;
}

mat3s tbIntegrateRotation(const tbRigidBody* body, mat3s R, vec3s L, float h,
                          tbIntegrator integrator)
{
	const mat3s* inv = &body->IbodyInv;
	// Pieces of at most half a radian: RK4 on the rotation is accurate (and stable) only while
	// h |w| is small; the solver's rotation cap keeps the count of pieces small.
	vec3s w = tbSpinOf(inv, L, R);
	float angle = h * glms_vec3_norm(w);
	int pieces = 1;
	if (angle > 0.5f) {
		pieces = angle < 32.0f ? (int)ceilf(angle / 0.5f) : 64;
	}
	float step = h / (float)pieces;
	for (int p = 0; p < pieces; ++p) {
		switch (integrator) {
		case tb_explicitEuler:
			// Seed 002 "Euler's Method" on R alone: R += h w* R.
			R = tbMat3MulAdd(R, step, tbRotationRate(inv, L, R));
			break;
		case tb_semiImplicitEuler:
			R = tbMat3Mul(tbRotationStep(tbMat3MulV(tbMat3Rotate(R, body->IbodyInv), L), step), R);
			break;
		case tb_rk4:
		default: {
			mat3s k1 = tbRotationRate(inv, L, R);
			mat3s k2 = tbRotationRate(inv, L, tbMat3MulAdd(R, 0.5f * step, k1));
			mat3s k3 = tbRotationRate(inv, L, tbMat3MulAdd(R, 0.5f * step, k2));
			mat3s k4 = tbRotationRate(inv, L, tbMat3MulAdd(R, step, k3));
			mat3s sum = tbMat3Add(tbMat3Add(k1, k4), tbMat3ScaleM(tbMat3Add(k2, k3), 2.0f));
			R = tbMat3MulAdd(R, step / 6.0f, sum);
			break;
		}
		}
	}
	return R;
}
