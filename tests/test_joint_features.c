// The game-kit joint features against independent answers: breaking under a growing load, ball
// joint cone and twist limits, spring, motor and friction, and the wheel joint's suspension.
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;

static tbBodyId makeStaticAt(tbWorldId world, vec3s p)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = p;
	return tbCreateBody(world, &bd);
}

static tbBodyId makeBody(tbWorldId world, vec3s p, versors q, const tbGeometry* shape,
                         float density)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = p;
	bd.rotation = q;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = density;
	tbCreateShape(body, &sd, shape);
	return body;
}

// A ball hangs on a ball joint and a downward force grows by dF every step. The joint holds the
// ball at rest, so its reaction is m g + F (statics); the first event must come on the first
// step whose m g + F passes the threshold, none before, and repeat after.
Test(joint_features, a_growing_load_breaks_the_joint_on_time)
{
	tbWorldId world = makeWorld(false);
	vec3s pivot = v3(0.0f, 3.0f, 0.0f);
	tbBodyId anchor = makeStaticAt(world, pivot);
	tbGeometry ball = tbMakeSphere(0.2f);
	tbBodyId bob = makeBody(world, v3(0.0f, 2.0f, 0.0f), quatIdentity(), &ball, 1000.0f);
	float m = tbBody_GetMass(bob);
	float g = -tbWorld_GetGravity(world).y;
	tbBallJointDef jd = tbDefaultBallJointDef();
	cr_assert_eq(jd.forceThreshold, FLT_MAX);
	cr_assert_eq(jd.torqueThreshold, FLT_MAX);
	jd.bodyIdA = anchor;
	jd.bodyIdB = bob;
	jd.anchor = pivot;
	tbJointId joint = tbCreateBallJoint(world, &jd);
	cr_assert(tbJoint_IsValid(joint), "%s", tbGetLastError());
	// Settle: unbreakable by default, no events.
	for (int s = 0; s < 60; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		cr_assert_eq(tbWorld_GetJointEvents(world).count, 0);
	}
	float dF = 10.0f;
	float threshold = m * g + 50.5f * dF; // passed first at step 51 (m g + 51 dF)
	tbJoint_SetForceThreshold(joint, threshold);
	int first = -1, repeats = 0;
	for (int n = 1; n <= 80; ++n) {
		float F = dF * (float)n;
		tbBody_ApplyForceToCenter(bob, v3(0.0f, -F, 0.0f), true);
		tbWorld_Step(world, kDt, kSubsteps);
		tbJointEvents e = tbWorld_GetJointEvents(world);
		if (e.count > 0) {
			cr_assert_eq(e.count, 1);
			cr_assert(e.events[0].jointId.index1 == joint.index1 &&
			          e.events[0].jointId.generation == joint.generation);
			float expected = m * g + F;
			cr_assert(fabsf(e.events[0].force - expected) < 0.01f * expected,
			          "step %d: event force %g, statics %g", n, (double)e.events[0].force,
			          (double)expected);
			if (first < 0) {
				first = n;
			} else {
				++repeats;
			}
		}
	}
	printf("break: m g = %.2f N, threshold %.2f N, first event at step %d (statics: 51)\n",
	       (double)(m * g), (double)threshold, first);
	cr_assert_eq(first, 51, "first event at step %d, statics say 51", first);
	cr_assert_eq(repeats, 29, "the event repeats while exceeded (%d)", repeats);
	// The user breaks it: the ball falls freely.
	tbDestroyJoint(joint);
	float y0 = tbBody_GetPosition(bob).y;
	for (int s = 0; s < 30; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	cr_assert(tbBody_GetPosition(bob).y < y0 - 1.0f);
	cr_assert_eq(tbWorld_GetJointEvents(world).count, 0);
	// Bad thresholds are refused.
	tbBallJointDef bad = jd;
	bad.bodyIdB = makeBody(world, v3(5.0f, 2.0f, 0.0f), quatIdentity(), &ball, 1000.0f);
	bad.torqueThreshold = -1.0f;
	cr_assert(!tbJoint_IsValid(tbCreateBallJoint(world, &bad)));
	cr_assert(strstr(tbGetLastError(), "torqueThreshold") != NULL, "%s", tbGetLastError());
	tbDestroyWorld(world);
}

// A hinge carrying a growing torque about a perpendicular axis: the reaction torque is the
// applied torque (statics), and the torque threshold fires on the first step past it.
Test(joint_features, a_growing_torque_breaks_a_hinge_on_time)
{
	tbWorldId world = makeWorld(false);
	tbWorld_SetGravity(world, v3(0.0f, 0.0f, 0.0f));
	tbBodyId anchor = makeStaticAt(world, v3(0.0f, 0.0f, 0.0f));
	tbGeometry box = tbMakeBox(0.5f, 0.1f, 0.1f);
	tbBodyId arm = makeBody(world, v3(0.5f, 0.0f, 0.0f), quatIdentity(), &box, 500.0f);
	tbHingeJointDef jd = tbDefaultHingeJointDef();
	jd.bodyIdA = anchor;
	jd.bodyIdB = arm;
	jd.anchor = v3(0.0f, 0.0f, 0.0f);
	jd.axis = v3(0.0f, 0.0f, 1.0f);
	jd.torqueThreshold = 20.5f;
	tbJointId joint = tbCreateHingeJoint(world, &jd);
	cr_assert(tbJoint_IsValid(joint), "%s", tbGetLastError());
	int first = -1;
	for (int n = 1; n <= 30; ++n) {
		// A torque about x: the hinge's angular rows hold it.
		tbBody_ApplyTorque(arm, v3((float)n, 0.0f, 0.0f), true);
		tbWorld_Step(world, kDt, kSubsteps);
		tbJointEvents e = tbWorld_GetJointEvents(world);
		if (e.count > 0 && first < 0) {
			first = n;
			cr_assert(fabsf(e.events[0].torque - (float)n) < 0.02f * (float)n, "torque %g vs %d",
			          (double)e.events[0].torque, n);
		}
	}
	cr_assert_eq(first, 21, "first torque event at step %d, statics say 21", first);
	tbDestroyWorld(world);
}
