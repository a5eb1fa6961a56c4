// Baraff's collision impulse between two free bodies: momentum conserved, e = 1 keeps kinetic
// energy, e = 0 leaves no normal relative velocity.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tumble/dynamics.h"

static tbRigidBody makeBox(vec3s half, float density, vec3s x, mat3s R)
{
	tbGeometry s;
	memset(&s, 0, sizeof s);
	s.type = tb_boxShape;
	s.halfExtents = half;
	s.scale = (vec3s){{1.0f, 1.0f, 1.0f}};
	tbMassData m = tbComputeMass(&s, density, NULL);
	return tbMakeBody(tb_dynamicBody, m, x, R);
}

typedef struct Pair
{
	tbRigidBody a, b;
	vec3s p, n;
} Pair;

// Two tilted, spinning boxes of different mass meeting at p with normal n (A to B).
static Pair makePair(void)
{
	Pair s;
	mat3s ra = glms_quat_mat3(glms_quatv(0.4f, glms_vec3_normalize((vec3s){{1.0f, -2.0f, 0.5f}})));
	mat3s rb = glms_quat_mat3(glms_quatv(-1.1f, glms_vec3_normalize((vec3s){{0.3f, 1.0f, 2.0f}})));
	s.a = makeBox((vec3s){{0.5f, 1.0f, 1.5f}}, 1.0f, (vec3s){{0.0f, 0.0f, 0.0f}}, ra);
	s.b = makeBox((vec3s){{0.4f, 0.3f, 0.5f}}, 2.5f, (vec3s){{1.5f, 0.2f, -0.1f}}, rb);
	tbRigidBody_SetVelocity(&s.a, (vec3s){{2.0f, 0.5f, -0.3f}}, (vec3s){{0.3f, -1.0f, 0.7f}});
	tbRigidBody_SetVelocity(&s.b, (vec3s){{-1.0f, 0.2f, 0.4f}}, (vec3s){{1.5f, 0.2f, -0.5f}});
	s.p = (vec3s){{0.8f, 0.1f, 0.05f}};
	s.n = glms_vec3_normalize((vec3s){{1.0f, 0.2f, -0.1f}});
	return s;
}

static float normalRelativeVelocity(const Pair* s)
{
	return glms_vec3_dot(s->n, glms_vec3_sub(tbRigidBody_GetPointVelocity(&s->b, s->p),
	                                         tbRigidBody_GetPointVelocity(&s->a, s->p)));
}

// Total linear momentum and angular momentum about the world origin (x x P + L), in double.
static void momenta(const Pair* s, double P[3], double L[3])
{
	const tbRigidBody* bodies[2] = {&s->a, &s->b};
	for (int k = 0; k < 3; ++k) {
		P[k] = 0.0;
		L[k] = 0.0;
	}
	for (int i = 0; i < 2; ++i) {
		vec3s x = bodies[i]->state.x, p = bodies[i]->state.P, l = bodies[i]->state.L;
		double xp[3] = {(double)x.y * (double)p.z - (double)x.z * (double)p.y,
		                (double)x.z * (double)p.x - (double)x.x * (double)p.z,
		                (double)x.x * (double)p.y - (double)x.y * (double)p.x};
		for (int k = 0; k < 3; ++k) {
			P[k] += (double)p.raw[k];
			L[k] += xp[k] + (double)l.raw[k];
		}
	}
}

static double kinetic(const Pair* s)
{
	return (double)tbRigidBody_GetKineticEnergy(&s->a) +
	       (double)tbRigidBody_GetKineticEnergy(&s->b);
}

static double norm3(const double v[3])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static double diff3(const double a[3], const double b[3])
{
	double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
	return norm3(d);
}

Test(impulse, conserves_momentum_and_obeys_restitution)
{
	const float restitutions[3] = {0.0f, 0.5f, 1.0f};
	for (int i = 0; i < 3; ++i) {
		float e = restitutions[i];
		Pair s = makePair();
		float vrel0 = normalRelativeVelocity(&s);
		cr_assert(vrel0 < -0.5f, "the bodies must approach (vrel %g)", (double)vrel0);
		double P0[3], L0[3], P1[3], L1[3];
		momenta(&s, P0, L0);
		double ke0 = kinetic(&s);
		// Momentum scale: the momenta that the impulse exchanges.
		double pScale = (double)glms_vec3_norm(s.a.state.P) + (double)glms_vec3_norm(s.b.state.P);
		double lScale = norm3(L0) + pScale;

		float j = tbResolveCollision(&s.a, &s.b, s.p, s.n, e);
		cr_expect(j > 0.0f);
		momenta(&s, P1, L1);
		double ke1 = kinetic(&s);
		float vrel1 = normalRelativeVelocity(&s);
		double dP = diff3(P1, P0) / pScale, dL = diff3(L1, L0) / lScale;
		double dKE = (ke1 - ke0) / ke0;
		double dV = fabs((double)vrel1 + (double)e * (double)vrel0) / fabs((double)vrel0);
		printf("impulse e = %.1f: j = %.4f N s, |dP|/P = %.2e, |dL|/L = %.2e, KE change %+.3e, "
		       "|vrel' + e vrel|/|vrel| = %.2e\n",
		       (double)e, (double)j, dP, dL, dKE, dV);
		cr_expect(dP <= 1e-5, "linear momentum error %g", dP);
		cr_expect(dL <= 1e-5, "angular momentum error %g", dL);
		// Newton's law of restitution (Baraff II eq. 8-5): vrel+ = -e vrel-.
		cr_expect(dV <= 1e-5, "vrel after %g, before %g", (double)vrel1, (double)vrel0);
		if (e == 1.0f) {
			cr_expect(fabs(dKE) <= 1e-5, "e = 1 must keep kinetic energy: %g", dKE);
		} else {
			cr_expect(dKE < 0.0, "e < 1 loses energy");
		}
	}
}

Test(impulse, separating_bodies_get_no_impulse)
{
	Pair s = makePair();
	s.n = glms_vec3_negate(s.n); // now they separate along n
	cr_expect_eq(tbCollisionImpulse(&s.a, &s.b, s.p, s.n, 0.5f), 0.0f);
}

Test(impulse, against_static_world)
{
	// A body hitting the static world (null body): only the moving body's terms in the denominator.
	Pair s = makePair();
	s.n = (vec3s){{0.0f, 1.0f, 0.0f}};
	s.p = glms_vec3_add(s.b.state.x, (vec3s){{0.2f, -0.3f, 0.1f}});
	tbRigidBody_SetVelocity(&s.b, (vec3s){{0.5f, -3.0f, 0.0f}}, (vec3s){{1.0f, 0.0f, 2.0f}});
	double ke0 = (double)tbRigidBody_GetKineticEnergy(&s.b);
	float vrel0 = glms_vec3_dot(s.n, tbRigidBody_GetPointVelocity(&s.b, s.p));
	float j = tbResolveCollision(NULL, &s.b, s.p, s.n, 1.0f);
	float vrel1 = glms_vec3_dot(s.n, tbRigidBody_GetPointVelocity(&s.b, s.p));
	double ke1 = (double)tbRigidBody_GetKineticEnergy(&s.b);
	cr_expect(j > 0.0f);
	cr_expect(fabsf(vrel1 + vrel0) <= 1e-5f * fabsf(vrel0));
	cr_expect(fabs(ke1 - ke0) <= 1e-5 * ke0, "KE %g -> %g", ke0, ke1);
	// The denominator is Baraff's: 1/M + n.(I^-1 (r x n)) x r.
	vec3s r = glms_vec3_sub(s.p, s.b.state.x);
	vec3s t = glms_vec3_cross(glms_mat3_mulv(s.b.Iinv, glms_vec3_cross(r, s.n)), r);
	float k = s.b.invMass + glms_vec3_dot(s.n, t);
	cr_expect(fabsf(tbInvEffectiveMass(NULL, &s.b, (vec3s){{0, 0, 0}}, r, s.n) - k) <= 1e-6f * k);
}
