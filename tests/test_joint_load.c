// A jointed body's load (tbJointAddLoad), the scalar the solver sums to decide whether a body
// takes any of its geometric stiffness, against rho made from the matrices themselves: the arm
// stiffnesses K of tbJointAddStiffness and the body's inverse inertia turned by its turn,
// h tr(R I0^-1 R^T K) (docs/joints.md, "rho needs no matrix").
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "joint_internal.h"
#include "tumble/body.h"

static const float kH = 1.0f / 240.0f;

// A body of mass m with principal moments `moments` about axes turned by R from the world's.
static tbRigidBody makeLink(float m, vec3s moments, vec3s x, mat3s R)
{
	tbMassData mass;
	memset(&mass, 0, sizeof mass);
	mass.mass = m;
	mass.inertia = glms_mat3_zero();
	mass.inertia.col[0].x = moments.x;
	mass.inertia.col[1].y = moments.y;
	mass.inertia.col[2].z = moments.z;
	return tbMakeBody(tb_dynamicBody, mass, x, R);
}

static mat3s turnAbout(float angle, float x, float y, float z)
{
	vec3s axis = glms_vec3_normalize((vec3s){{x, y, z}});
	return glms_quat_mat3(glms_quatv(angle, axis));
}

// tr(T K) for symmetric T and K: the sum of their entries' products.
static float traceOfProduct(mat3s T, mat3s K)
{
	float s = 0.0f;
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) {
			s += T.col[c].raw[r] * K.col[r].raw[c];
		}
	}
	return s;
}

typedef struct LoadCase
{
	// The ball joint's point impulse of the last substep on B, N s, along B's arm less A's (the
	// arms turned): positive pulls both arms (a tension on each), negative pushes both.
	float impulse;
	float turnA, turnB; // each body's turn since the step began, rad
} LoadCase;

// A ball joint between a heavy link and a light thin one, both turned off their principal axes,
// each turned again since the step began; the load on each body from its arm and the joint's
// impulse, and rho from the summed matrices.
static void checkLoad(LoadCase lc, float* loadA, float* rhoA, float* loadB, float* rhoB)
{
	tbRigidBody a = makeLink(2.0f, (vec3s){{0.30f, 0.05f, 0.20f}}, (vec3s){{0.0f, 1.0f, 0.0f}},
	                         turnAbout(0.7f, 1.0f, 2.0f, 0.5f));
	tbRigidBody b = makeLink(0.5f, (vec3s){{0.010f, 0.0004f, 0.010f}}, (vec3s){{0.1f, 0.6f, 0.2f}},
	                         turnAbout(-1.1f, 0.3f, 1.0f, -0.8f));
	tbRigidBody* bodies[2] = {&a, &b};
	tbJoint joint;
	memset(&joint, 0, sizeof joint);
	joint.type = tb_ballJoint;
	tbJointBinding binding;
	memset(&binding, 0, sizeof binding);
	binding.joint = &joint;
	binding.bodyA = 0;
	binding.bodyB = 1;
	binding.anchorA = (vec3s){{0.05f, -0.35f, 0.02f}}; // from each centre, body axes
	binding.anchorB = (vec3s){{0.0f, 0.22f, -0.01f}};
	binding.axisA = binding.axisB = (vec3s){{0.0f, 0.0f, 1.0f}};
	binding.refA = binding.refB = (vec3s){{1.0f, 0.0f, 0.0f}};

	// The solver's per-body arrays: two bodies and the static one (index 2).
	mat3s inertias[3], turns[3], turnedInertias[3], stiffness[3];
	vec3s turnedBy[3];
	tbSpinFlow flows[3];
	float stiffened[3];
	memset(flows, 0, sizeof flows);
	tbJointMore more;
	tbJointRecord r;
	tbJointSoftness softness = {60.0f, 2.0f};
	tbPrepareJoint(&r, &binding, bodies, 2, &softness, kH);
	r.more = &more;
	r.inertias = inertias;
	r.stiffened = stiffened;
	r.turns = turns;
	r.turnedInertias = turnedInertias;
	r.turnedBy = turnedBy;
	r.flows = flows;
	tbPrepareJointMore(&r, bodies);
	turns[0] = turnAbout(lc.turnA, 0.2f, 0.9f, 0.4f);
	turns[1] = turnAbout(lc.turnB, -0.6f, 0.1f, 0.8f);
	turns[2] = glms_mat3_identity();
	vec3s armA = glms_mat3_mulv(turns[0], r.rA), armB = glms_mat3_mulv(turns[1], r.rB);
	joint.linearImpulse =
	    glms_vec3_scale(glms_vec3_normalize(glms_vec3_sub(armB, armA)), lc.impulse);
	tbSolverBody states[3];
	memset(states, 0, sizeof states);

	float load[3] = {0.0f, 0.0f, 0.0f};
	tbJointAddLoad(&r, load);
	// Every body taken as stiffening, so that the matrices are summed.
	float all[3] = {INFINITY, INFINITY, 0.0f};
	for (int k = 0; k < 3; ++k) {
		stiffness[k] = glms_mat3_zero();
	}
	tbJointAddStiffness(&r, states, stiffness, all);
	mat3s TA = glms_mat3_mul(glms_mat3_mul(turns[0], a.Iinv), glms_mat3_transpose(turns[0]));
	mat3s TB = glms_mat3_mul(glms_mat3_mul(turns[1], b.Iinv), glms_mat3_transpose(turns[1]));
	*loadA = kH * load[0];
	*loadB = kH * load[1];
	*rhoA = kH * traceOfProduct(TA, stiffness[0]);
	*rhoB = kH * traceOfProduct(TB, stiffness[1]);
}

Test(joint_load, a_tension_loads_each_body_by_its_rho)
{
	// Sizes from a light load (the thin link's rho far below 1) to one that stiffens it (its
	// rho past 1, where tbJointBodyStiffen takes some stiffness).
	float sizes[3] = {0.002f, 0.05f, 20.0f};
	for (int s = 0; s < 3; ++s) {
		LoadCase lc = {sizes[s], 0.3f * (float)s, -0.45f};
		float loadA, rhoA, loadB, rhoB;
		checkLoad(lc, &loadA, &rhoA, &loadB, &rhoB);
		float tol = 1e-4f;
		cr_expect(rhoA > 0.0f && rhoB > 0.0f, "impulse %g: rho %g and %g, not two tensions",
		          (double)sizes[s], (double)rhoA, (double)rhoB);
		cr_expect_leq(fabsf(loadA - rhoA), tol * fmaxf(rhoA, 1e-6f),
		              "impulse %g: A's load %g, rho from the matrices %g", (double)sizes[s],
		              (double)loadA, (double)rhoA);
		cr_expect_leq(fabsf(loadB - rhoB), tol * fmaxf(rhoB, 1e-6f),
		              "impulse %g: B's load %g, rho from the matrices %g", (double)sizes[s],
		              (double)loadB, (double)rhoB);
	}
}

Test(joint_load, a_compression_adds_nothing)
{
	// The opposite impulse pushes the ends together along the arms: both are compressions,
	// which the stiffness drops (tbArmStiffness), and so does the load.
	LoadCase lc = {-0.5f, 0.2f, 0.1f};
	float loadA, rhoA, loadB, rhoB;
	checkLoad(lc, &loadA, &rhoA, &loadB, &rhoB);
	cr_expect_eq(rhoA, 0.0f, "A's rho from the matrices %g", (double)rhoA);
	cr_expect_eq(rhoB, 0.0f, "B's rho from the matrices %g", (double)rhoB);
	cr_expect_eq(loadA, 0.0f, "A's load %g", (double)loadA);
	cr_expect_eq(loadB, 0.0f, "B's load %g", (double)loadB);
}
