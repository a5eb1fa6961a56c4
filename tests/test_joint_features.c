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

// A ball hangs on a ball joint and a downward force grows by dF every step. The joint holds the
// ball at rest, so its reaction is m g + F (statics); the first event must come on the first
// step whose m g + F passes the threshold, none before, and repeat after.
Test(joint_features, a_growing_load_breaks_the_joint_on_time)
{
	tbWorldId world = makeWorld(false);
	vec3s pivot = v3(0.0f, 3.0f, 0.0f);
	tbBodyId anchor = makeStatic(world, pivot);
	tbGeometry ball = tbMakeSphere(0.2f);
	tbBodyId bob = makeDynamic(world, v3(0.0f, 2.0f, 0.0f), quatIdentity(), &ball, 1000.0f);
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
	bad.bodyIdB = makeDynamic(world, v3(5.0f, 2.0f, 0.0f), quatIdentity(), &ball, 1000.0f);
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
	tbBodyId anchor = makeStatic(world, v3(0.0f, 0.0f, 0.0f));
	tbGeometry box = tbMakeBox(0.5f, 0.1f, 0.1f);
	tbBodyId arm = makeDynamic(world, v3(0.5f, 0.0f, 0.0f), quatIdentity(), &box, 500.0f);
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

// ---------------------------------------------------------------------------------------------
// Ball joint limits. A limb: a box 0.2 x 1 x 0.2 m hanging from a static anchor at its top end,
// twist axis along it (down), swing reference +x. Angles are measured from the body's pose
// alone: the swing is the angle between the limb's axis R (0, -1, 0) and (0, -1, 0); the twist
// the turn of R (1, 0, 0), swung back by the swing, about (0, -1, 0).

static const float kPi = 3.14159265f;

static float deg(float rad)
{
	return rad * 180.0f / kPi;
}

typedef struct Limb
{
	tbWorldId world;
	tbBodyId anchor, limb;
	tbJointId joint;
} Limb;

static Limb makeLimb(bool gravity, tbBallJointDef* jd)
{
	Limb L;
	L.world = makeWorld(false);
	if (!gravity) {
		tbWorld_SetGravity(L.world, v3(0.0f, 0.0f, 0.0f));
	}
	L.anchor = makeStatic(L.world, v3(0.0f, 0.0f, 0.0f));
	tbGeometry box = tbMakeBox(0.1f, 0.5f, 0.1f);
	L.limb = makeDynamic(L.world, v3(0.0f, -0.5f, 0.0f), quatIdentity(), &box, 500.0f);
	jd->bodyIdA = L.anchor;
	jd->bodyIdB = L.limb;
	jd->anchor = v3(0.0f, 0.0f, 0.0f);
	jd->twistAxis = v3(0.0f, -1.0f, 0.0f);
	jd->swingAxis = v3(1.0f, 0.0f, 0.0f);
	L.joint = tbCreateBallJoint(L.world, jd);
	cr_assert(tbJoint_IsValid(L.joint), "%s", tbGetLastError());
	return L;
}

// Swing angle, tilt direction components (along +x and along twist x swing = (0,-1,0) x
// (1,0,0) = (0,0,1)) and twist of the limb, from its rotation.
static void limbAngles(tbBodyId limb, float* swing, float* t1, float* t2, float* twist)
{
	versors q = tbBody_GetRotation(limb);
	mat3s R = glms_quat_mat3(q);
	vec3s t = v3(0.0f, -1.0f, 0.0f), s = v3(1.0f, 0.0f, 0.0f), u = glms_vec3_cross(t, s);
	vec3s b = glms_mat3_mulv(R, t);
	vec3s sb = glms_mat3_mulv(R, s);
	float c = glms_vec3_dot(t, b);
	vec3s nx = glms_vec3_cross(t, b);
	float sn = glms_vec3_norm(nx);
	*swing = atan2f(sn, c);
	vec3s tilt = glms_vec3_sub(b, glms_vec3_scale(t, c));
	float tl = glms_vec3_norm(tilt);
	*t1 = tl > 1e-6f ? glms_vec3_dot(tilt, s) / tl : 1.0f;
	*t2 = tl > 1e-6f ? glms_vec3_dot(tilt, u) / tl : 0.0f;
	// Undo the swing (the shortest turn taking t to b) with the quaternion of angle -swing.
	vec3s back = sb;
	if (sn > 1e-6f) {
		vec3s n = glms_vec3_scale(nx, 1.0f / sn);
		versors undo = glms_quatv(-*swing, n);
		back = glms_quat_rotatev(undo, sb);
	}
	*twist = atan2f(glms_vec3_dot(t, glms_vec3_cross(s, back)), glms_vec3_dot(s, back));
}

// The cone's limit in the tilt direction (c1, c2): the ellipse in the tilt's angle.
static float coneLimit(float a1, float a2, float c1, float c2)
{
	return 1.0f / sqrtf((c1 / a1) * (c1 / a1) + (c2 / a2) * (c2 / a2));
}

// A limb thrown hard at its cone (zero gravity) in several directions stops on the ellipse:
// never more than 1 degree past it, and at rest within 1 degree of it.
Test(joint_features, ball_cone_stops_a_thrown_limb)
{
	const float a1 = 30.0f * kPi / 180.0f, a2 = 60.0f * kPi / 180.0f;
	float dirs[][3] = {{0.0f, 0.0f, 1.0f},
	                   {1.0f, 0.0f, 0.0f},
	                   {-1.0f, 0.0f, 1.0f},
	                   {0.3f, 0.0f, -1.0f},
	                   {-1.0f, 0.0f, -0.2f}};
	for (int k = 0; k < 5; ++k) {
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.enableCone = true;
		jd.coneAngle1 = a1;
		jd.coneAngle2 = a2;
		Limb L = makeLimb(false, &jd);
		vec3s w =
		    glms_vec3_scale(glms_vec3_normalize(v3(dirs[k][0], dirs[k][1], dirs[k][2])), 12.0f);
		tbBody_SetAngularVelocity(L.limb, w);
		tbBody_SetLinearVelocity(L.limb, glms_vec3_cross(w, v3(0.0f, -0.5f, 0.0f)));
		float worst = -1.0f, swing = 0.0f, c1 = 0.0f, c2 = 0.0f, twist = 0.0f;
		for (int s = 0; s < 120; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
			limbAngles(L.limb, &swing, &c1, &c2, &twist);
			worst = fmaxf(worst, deg(swing - coneLimit(a1, a2, c1, c2)));
		}
		float limit = coneLimit(a1, a2, c1, c2);
		printf("cone %d: at rest %.3f deg for a limit of %.3f deg there, worst past %.3f deg\n", k,
		       (double)deg(swing), (double)deg(limit), (double)worst);
		cr_assert(worst < 1.0f, "throw %d went %g deg past the cone", k, (double)worst);
		cr_assert(fabsf(deg(swing - limit)) < 1.0f, "throw %d rests at %g deg, the cone says %g", k,
		          (double)deg(swing), (double)deg(limit));
		tbDestroyWorld(L.world);
	}
}

// A plain ball joint's swing and twist read back the turn the limb was given: twisted by psi about
// its own axis, then swung by theta about an axis across it (R = R(theta, n) R(psi, t)), its
// swing is theta and its twist psi, read from the bodies as they are (no step needed after a
// tbBody_SetTransform), and after a step they agree with limbAngles' reading of the rotation.
Test(joint_features, ball_swing_and_twist_read_the_limb_turn)
{
	const float swings[3] = {0.3f, 1.2f, 2.5f}, twists[3] = {-2.0f, 0.7f, 3.0f};
	const float across[3] = {0.0f, 1.1f, 2.6f}; // the swing axis's direction about t
	for (int k = 0; k < 3; ++k) {
		tbBallJointDef jd = tbDefaultBallJointDef();
		Limb L = makeLimb(false, &jd);
		vec3s t = v3(0.0f, -1.0f, 0.0f);
		vec3s n = v3(cosf(across[k]), 0.0f, sinf(across[k])); // across t
		versors q = glms_quat_mul(glms_quatv(swings[k], n), glms_quatv(twists[k], t));
		// The anchor stays at the origin: the limb's centre is turned with it.
		tbBody_SetTransform(L.limb, glms_quat_rotatev(q, v3(0.0f, -0.5f, 0.0f)), q);
		float swing = tbBallJoint_GetSwingAngle(L.joint);
		float twist = tbBallJoint_GetTwistAngle(L.joint);
		printf("ball angles %d: swing %.5f (given %.5f), twist %.5f (given %.5f)\n", k,
		       (double)swing, (double)swings[k], (double)twist, (double)twists[k]);
		cr_assert(fabsf(swing - swings[k]) < 1e-4f, "swing %g, given %g", (double)swing,
		          (double)swings[k]);
		cr_assert(fabsf(twist - twists[k]) < 1e-4f, "twist %g, given %g", (double)twist,
		          (double)twists[k]);
		tbBody_SetAngularVelocity(L.limb, v3(0.3f, 0.5f, -0.2f));
		for (int s = 0; s < 10; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
		}
		float s2, c1, c2, t2;
		limbAngles(L.limb, &s2, &c1, &c2, &t2);
		cr_assert(fabsf(tbBallJoint_GetSwingAngle(L.joint) - s2) < 1e-4f);
		cr_assert(fabsf(tbBallJoint_GetTwistAngle(L.joint) - t2) < 1e-4f);
		cr_assert(fabsf(s2 - swings[k]) > 1e-3f, "the limb turned in the steps");
		tbDestroyWorld(L.world);
	}
}

// A body put to sleep by hand while a joint ties it to a swinging one is woken on the next step
// and follows it: its joint's anchors stay together (within 1 cm) as the pendulum swings, where a
// sleeper left in place would be pulled apart by the swing (about a metre here).
Test(joint_features, a_body_put_to_sleep_on_a_swinging_joint_wakes)
{
	tbWorldId world = makeWorld(false);
	tbBodyId anchor = makeStatic(world, v3(0.0f, 3.0f, 0.0f));
	tbGeometry ball = tbMakeSphere(0.1f);
	tbBodyId a = makeDynamic(world, v3(0.0f, 2.0f, 0.0f), quatIdentity(), &ball, 1000.0f);
	tbBodyId b = makeDynamic(world, v3(0.0f, 1.0f, 0.0f), quatIdentity(), &ball, 1000.0f);
	tbBallJointDef jd = tbDefaultBallJointDef();
	jd.bodyIdA = anchor;
	jd.bodyIdB = a;
	jd.anchor = v3(0.0f, 3.0f, 0.0f);
	cr_assert(tbJoint_IsValid(tbCreateBallJoint(world, &jd)), "%s", tbGetLastError());
	jd.bodyIdA = a;
	jd.bodyIdB = b;
	jd.anchor = v3(0.0f, 2.0f, 0.0f);
	cr_assert(tbJoint_IsValid(tbCreateBallJoint(world, &jd)), "%s", tbGetLastError());
	tbBody_SetLinearVelocity(a, v3(3.0f, 0.0f, 0.0f));
	tbBody_SetLinearVelocity(b, v3(3.0f, 0.0f, 0.0f));
	for (int s = 0; s < 10; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	tbBody_SetAwake(b, false);
	cr_assert(!tbBody_IsAwake(b));
	tbWorld_Step(world, kDt, kSubsteps);
	cr_assert(tbBody_IsAwake(b), "the swinging joint did not wake the body put to sleep");
	float worst = 0.0f;
	for (int s = 0; s < 90; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		// The joint's anchor is A's centre less 1 m along A's turned y axis (B's centre plus 1 m
		// along B's).
		tbTransform xa = tbBody_GetTransform(a), xb = tbBody_GetTransform(b);
		vec3s pa = glms_vec3_add(xa.p, glms_quat_rotatev(xa.q, v3(0.0f, 0.0f, 0.0f)));
		vec3s pb = glms_vec3_add(xb.p, glms_quat_rotatev(xb.q, v3(0.0f, 1.0f, 0.0f)));
		worst = fmaxf(worst, glms_vec3_norm(glms_vec3_sub(pa, pb)));
	}
	printf("SCENE sleeper on a swinging joint: awake after one step, anchors apart at most %.5f m "
	       "over 1.5 s\n",
	       (double)worst);
	cr_assert(worst < 0.01f, "anchors apart by %g m", (double)worst);
	tbDestroyWorld(world);
}

// A limb spun hard about its own axis stops at the twist limits.
Test(joint_features, ball_twist_limits_stop_a_spun_limb)
{
	const float lower = -20.0f * kPi / 180.0f, upper = 45.0f * kPi / 180.0f;
	for (int side = 0; side < 2; ++side) {
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.enableTwistLimit = true;
		jd.lowerTwist = lower;
		jd.upperTwist = upper;
		jd.enableCone = true;
		jd.coneAngle1 = jd.coneAngle2 = 0.5f;
		Limb L = makeLimb(false, &jd);
		// +w about the twist axis (0, -1, 0) raises the twist.
		float spin = side == 0 ? 25.0f : -25.0f;
		tbBody_SetAngularVelocity(L.limb, v3(0.0f, -spin, 0.0f));
		float swing, c1, c2, twist = 0.0f, most = 0.0f;
		for (int s = 0; s < 120; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
			limbAngles(L.limb, &swing, &c1, &c2, &twist);
			most = side == 0 ? fmaxf(most, twist) : fminf(most, twist);
		}
		float limit = side == 0 ? upper : lower;
		printf("twist %s: at rest %.3f deg, extreme %.3f deg, limit %.1f deg; joint says %.3f\n",
		       side == 0 ? "upper" : "lower", (double)deg(twist), (double)deg(most),
		       (double)deg(limit), (double)deg(tbBallJoint_GetTwistAngle(L.joint)));
		cr_assert(fabsf(deg(twist - limit)) < 1.0f);
		cr_assert(fabsf(deg(most - limit)) < 1.0f);
		cr_assert(fabsf(deg(tbBallJoint_GetTwistAngle(L.joint) - twist)) < 0.1f);
		tbDestroyWorld(L.world);
	}
}

// The period of the limb's swing on the joint spring (zero gravity, no damping). The spring's
// stiffness about the centre of mass is k = I_cm (2 pi f)^2 (A static); the limb turns about
// the anchor, d = 0.5 m from its centre, so I_anchor theta'' = -k theta and the frequency is
// f sqrt(I_cm / (I_cm + m d^2)). About the limb's own axis the anchor is on the axis: f.
Test(joint_features, ball_spring_oscillates_at_its_frequency)
{
	const float hertz = 2.0f;
	for (int axis = 0; axis < 2; ++axis) {
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.enableSpring = true;
		jd.hertz = hertz;
		jd.dampingRatio = 0.0f;
		Limb L = makeLimb(false, &jd);
		float m = tbBody_GetMass(L.limb);
		float expected = hertz;
		vec3s w0;
		if (axis == 0) {
			float Icm = m * (0.2f * 0.2f + 1.0f * 1.0f) / 12.0f; // about z
			expected = hertz * sqrtf(Icm / (Icm + m * 0.25f));
			w0 = v3(0.0f, 0.0f, 0.3f);
			tbBody_SetLinearVelocity(L.limb, glms_vec3_cross(w0, v3(0.0f, -0.5f, 0.0f)));
		} else {
			w0 = v3(0.0f, 0.3f, 0.0f);
		}
		tbBody_SetAngularVelocity(L.limb, w0);
		// Zero crossings of the angle (its sine: the tilt along x, or the twist).
		double crossings[64];
		int n = 0;
		float prev = 0.0f;
		for (int s = 0; s < (int)(6.0f / kDt) && n < 64; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
			float swing, c1, c2, twist;
			limbAngles(L.limb, &swing, &c1, &c2, &twist);
			float x = axis == 0 ? swing * c1 : twist;
			if (s > 0 && (prev < 0.0f) != (x < 0.0f)) {
				crossings[n++] = ((double)s + (double)(prev / (prev - x))) * (double)kDt;
			}
			prev = x;
		}
		cr_assert(n >= 5, "only %d crossings", n);
		double period = 2.0 * (crossings[n - 1] - crossings[0]) / (double)(n - 1);
		double f = 1.0 / period;
		printf("spring %s: %.4f Hz, expected %.4f Hz (%+.2f%%)\n", axis == 0 ? "swing" : "twist", f,
		       (double)expected, 100.0 * (f / (double)expected - 1.0));
		cr_assert(fabs(f / (double)expected - 1.0) < 0.02);
		tbDestroyWorld(L.world);
	}
}

// A servo (motor to the target frame) holds the limb, under gravity, at 40 degrees swung
// towards +x; a velocity motor spins it at its speed; friction holds a released limb that is
// within its torque and lets one beyond it fall.
Test(joint_features, ball_motor_and_friction)
{
	{
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.enableMotor = true;
		jd.motorToTarget = true;
		jd.maxMotorTorque = 2000.0f;
		float target = 40.0f * kPi / 180.0f;
		// +z turns the limb (0, -1, 0) towards +x.
		jd.targetRotation = glms_quatv(target, v3(0.0f, 0.0f, 1.0f));
		Limb L = makeLimb(true, &jd);
		float swing = 0.0f, c1 = 0.0f, c2 = 0.0f, twist = 0.0f;
		for (int s = 0; s < 180; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
		}
		limbAngles(L.limb, &swing, &c1, &c2, &twist);
		float m = tbBody_GetMass(L.limb), g = 9.81f;
		float need = m * g * 0.5f * sinf(target);
		float motor = glms_vec3_norm(tbJoint_GetReactionTorque(L.joint));
		printf("servo: %.3f deg (target 40), towards x %.4f; torque %.2f N m, statics %.2f\n",
		       (double)deg(swing), (double)c1, (double)motor, (double)need);
		cr_assert(fabsf(deg(swing) - 40.0f) < 1.0f);
		cr_assert(c1 > 0.999f);
		cr_assert(fabsf(motor - need) < 0.02f * need);
		tbDestroyWorld(L.world);
	}
	{
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.enableMotor = true;
		jd.motorVelocity = v3(0.0f, -3.0f, 0.0f); // about the limb's axis
		jd.maxMotorTorque = 50.0f;
		Limb L = makeLimb(false, &jd);
		for (int s = 0; s < 60; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
		}
		vec3s w = tbBody_GetAngularVelocity(L.limb);
		printf("velocity motor: w = (%.4f, %.4f, %.4f), target (0, -3, 0)\n", (double)w.x,
		       (double)w.y, (double)w.z);
		cr_assert(fabsf(w.y + 3.0f) < 0.03f && fabsf(w.x) < 0.01f && fabsf(w.z) < 0.01f);
		tbDestroyWorld(L.world);
	}
	for (int strong = 0; strong < 2; ++strong) {
		// Released at 30 degrees: gravity's torque about the anchor m g d sin 30.
		tbBallJointDef jd = tbDefaultBallJointDef();
		Limb L;
		L.world = makeWorld(false);
		L.anchor = makeStatic(L.world, v3(0.0f, 0.0f, 0.0f));
		tbGeometry box = tbMakeBox(0.1f, 0.5f, 0.1f);
		float a = 30.0f * kPi / 180.0f;
		versors q = glms_quatv(a, v3(0.0f, 0.0f, 1.0f));
		L.limb = makeDynamic(L.world, v3(0.5f * sinf(a), -0.5f * cosf(a), 0.0f), q, &box, 500.0f);
		float m = tbBody_GetMass(L.limb);
		float load = m * 9.81f * 0.5f * sinf(a);
		jd.bodyIdA = L.anchor;
		jd.bodyIdB = L.limb;
		jd.maxFrictionTorque = strong ? 1.2f * load : 0.8f * load;
		L.joint = tbCreateBallJoint(L.world, &jd);
		for (int s = 0; s < 60; ++s) {
			tbWorld_Step(L.world, kDt, kSubsteps);
		}
		vec3s p = tbBody_GetPosition(L.limb);
		float now = atan2f(p.x, -p.y);
		printf("friction %.1f x load: %.3f deg from 30\n", strong ? 1.2 : 0.8, (double)deg(now));
		if (strong) {
			cr_assert(fabsf(deg(now) - 30.0f) < 0.5f);
		} else {
			cr_assert(deg(now) < 25.0f);
		}
		tbDestroyWorld(L.world);
	}
}

// ---------------------------------------------------------------------------------------------
// The wheel joint. A car: a 3 x 0.5 x 1.6 m box chassis of mass M on four sphere wheels of
// radius 0.35 m at x = +-1.2, z = +-0.9, their centres 0.3 m below the chassis's centre. The
// suspension's stiffness law (tbWheelJointDef): k = m_s (2 pi f)^2, m_s = 1 / (1/M + (a x u) .
// I^-1 (a x u)) with a the anchor from the chassis's centre and u = (0, 1, 0): a x u = (-z, 0,
// x), so 1/m_s = 1/M + z^2 / Ixx + x^2 / Izz with the box's Ixx = M (0.5^2 + 1.6^2) / 12 and Izz
// = M (3^2 + 0.5^2) / 12. Resting level, the four springs carry the chassis's weight (the
// wheels carry their own to the ground): sag = M g / (4 k); held level and bouncing, M x'' =
// -4 k x: f = sqrt(4 k / M) / (2 pi).

typedef struct Car
{
	tbWorldId world;
	tbBodyId chassis, wheels[4];
	tbJointId joints[4];
	float M, k;
} Car;

static Car makeCar(float hertz, float damping, bool slider)
{
	Car car;
	car.world = makeWorld(false);
	tbBodyId ground = makeGround(car.world, 50.0f, 0.9f);
	tbGeometry body = tbMakeBox(1.5f, 0.25f, 0.8f);
	car.chassis = makeDynamic(car.world, v3(0.0f, 0.65f, 0.0f), quatIdentity(), &body, 200.0f);
	car.M = tbBody_GetMass(car.chassis);
	float Ixx = car.M * (0.25f + 2.56f) / 12.0f, Izz = car.M * (9.0f + 0.25f) / 12.0f;
	float ms = 1.0f / (1.0f / car.M + 0.81f / Ixx + 1.44f / Izz);
	float omega = 2.0f * kPi * hertz;
	car.k = ms * omega * omega;
	tbGeometry wheel = tbMakeSphere(0.35f);
	for (int i = 0; i < 4; ++i) {
		vec3s at = v3(i < 2 ? 1.2f : -1.2f, 0.35f, (i & 1) ? 0.9f : -0.9f);
		car.wheels[i] = makeDynamic(car.world, at, quatIdentity(), &wheel, 100.0f);
		tbWheelJointDef wd = tbDefaultWheelJointDef();
		wd.bodyIdA = car.chassis;
		wd.bodyIdB = car.wheels[i];
		wd.anchor = at;
		wd.hertz = hertz;
		wd.dampingRatio = damping;
		car.joints[i] = tbCreateWheelJoint(car.world, &wd);
		cr_assert(tbJoint_IsValid(car.joints[i]), "%s", tbGetLastError());
	}
	if (slider) {
		tbSliderJointDef sd = tbDefaultSliderJointDef();
		sd.bodyIdA = ground;
		sd.bodyIdB = car.chassis;
		sd.anchor = v3(0.0f, 0.65f, 0.0f);
		sd.axis = v3(0.0f, 1.0f, 0.0f);
		tbJointId s = tbCreateSliderJoint(car.world, &sd);
		cr_assert(tbJoint_IsValid(s), "%s", tbGetLastError());
	}
	return car;
}

// The chassis's height over its wheels' mean, m.
static float carHeight(const Car* car)
{
	float wy = 0.0f;
	for (int i = 0; i < 4; ++i) {
		wy += 0.25f * tbBody_GetPosition(car->wheels[i]).y;
	}
	return tbBody_GetPosition(car->chassis).y - wy;
}

Test(joint_features, a_car_settles_to_its_static_sag)
{
	for (int held = 0; held < 2; ++held) {
		Car car = makeCar(2.0f, 1.0f, held != 0);
		float h0 = carHeight(&car);
		for (int s = 0; s < 240; ++s) {
			tbWorld_Step(car.world, kDt, kSubsteps);
		}
		float sag = h0 - carHeight(&car);
		float g = -tbWorld_GetGravity(car.world).y;
		float expected = car.M * g / (4.0f * car.k);
		versors q = tbBody_GetRotation(car.chassis);
		printf("car sag (%s): %.5f m, M g / (4 k) = %.5f m (%+.2f%%), joint says %.5f, tilt q "
		       "(%.1e %.1e %.1e)\n",
		       held ? "held level" : "free", (double)sag, (double)expected,
		       100.0 * (double)(sag / expected - 1.0f),
		       (double)tbJoint_GetTranslation(car.joints[0]), (double)q.x, (double)q.y,
		       (double)q.z);
		cr_assert(fabsf(sag / expected - 1.0f) < 0.02f);
		// The translation is B's anchor along the axis from A's: the wheel rises into the
		// chassis as it sags.
		cr_assert(fabsf(tbJoint_GetTranslation(car.joints[0]) - sag) < 0.01f * expected);
		tbDestroyWorld(car.world);
	}
}

Test(joint_features, a_car_held_level_bounces_at_its_frequency)
{
	const float hertz = 2.0f;
	Car car = makeCar(hertz, 0.0f, true);
	float expected = sqrtf(4.0f * car.k / car.M) / (2.0f * kPi);
	float g = -tbWorld_GetGravity(car.world).y;
	float rest = car.M * g / (4.0f * car.k); // the translation it swings about
	double crossings[64];
	int n = 0;
	float prev = 0.0f;
	for (int s = 0; s < 360 && n < 64; ++s) {
		tbWorld_Step(car.world, kDt, kSubsteps);
		float x = tbJoint_GetTranslation(car.joints[0]) - rest;
		if (s > 0 && (prev < 0.0f) != (x < 0.0f)) {
			crossings[n++] = ((double)s + (double)(prev / (prev - x))) * (double)kDt;
		}
		prev = x;
	}
	cr_assert(n >= 6, "%d crossings", n);
	double f = (double)(n - 1) / (2.0 * (crossings[n - 1] - crossings[0]));
	printf("car bounce: %.4f Hz, sqrt(4 k / M) / 2 pi = %.4f Hz (%+.2f%%), %d crossings\n", f,
	       (double)expected, 100.0 * (f / (double)expected - 1.0), n);
	cr_assert(fabs(f / (double)expected - 1.0) < 0.02);
	tbDestroyWorld(car.world);
}

// A wheel on a static frame (no ground): the motor brings its spin to the motor speed, about
// the spin axis turned by the steering angle about the suspension axis.
Test(joint_features, a_wheel_motor_reaches_its_speed_and_steers)
{
	tbWorldId world = makeWorld(false);
	tbBodyId frame = makeStatic(world, v3(0.0f, 2.0f, 0.0f));
	tbGeometry wheel = tbMakeSphere(0.35f);
	tbBodyId w = makeDynamic(world, v3(0.0f, 1.0f, 0.0f), quatIdentity(), &wheel, 100.0f);
	tbWheelJointDef wd = tbDefaultWheelJointDef();
	wd.bodyIdA = frame;
	wd.bodyIdB = w;
	wd.anchor = v3(0.0f, 1.0f, 0.0f);
	wd.enableMotor = true;
	wd.motorSpeed = 10.0f;
	wd.maxMotorTorque = 40.0f;
	wd.enableLimit = true;
	wd.lowerTranslation = -0.1f;
	wd.upperTranslation = 0.1f;
	tbJointId joint = tbCreateWheelJoint(world, &wd);
	cr_assert(tbJoint_IsValid(joint), "%s", tbGetLastError());
	for (int s = 0; s < 60; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	vec3s spin = tbBody_GetAngularVelocity(w);
	printf("wheel motor: w = (%.4f %.4f %.4f), target (0 0 10); hangs %.5f m, g / omega^2 = "
	       "%.5f m\n",
	       (double)spin.x, (double)spin.y, (double)spin.z, (double)tbJoint_GetTranslation(joint),
	       (double)(9.81f / (64.0f * kPi * kPi)));
	cr_assert(fabsf(spin.z - 10.0f) < 0.05f && fabsf(spin.x) < 0.01f && fabsf(spin.y) < 0.01f);
	// It hangs on its spring: A is static, so m_s is the wheel's mass (its anchor at its centre)
	// and the drop is m g / k = g / (2 pi f)^2.
	float omega = 2.0f * kPi * wd.hertz;
	float drop = 9.81f / (omega * omega);
	cr_assert(fabsf(tbJoint_GetTranslation(joint) + drop) < 0.02f * drop, "%g vs %g",
	          (double)tbJoint_GetTranslation(joint), (double)-drop);
	// Steer 30 degrees: +angle turns the axle (0, 0, 1) about +y towards +x.
	float steer = 30.0f * kPi / 180.0f;
	tbWheelJoint_SetSteering(joint, steer);
	cr_assert_float_eq(tbWheelJoint_GetSteering(joint), steer, 1e-7f);
	for (int s = 0; s < 60; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	spin = tbBody_GetAngularVelocity(w);
	printf("steered wheel: w = (%.4f %.4f %.4f), target (%.4f 0 %.4f)\n", (double)spin.x,
	       (double)spin.y, (double)spin.z, (double)(10.0f * sinf(steer)),
	       (double)(10.0f * cosf(steer)));
	cr_assert(fabsf(spin.x - 10.0f * sinf(steer)) < 0.05f && fabsf(spin.y) < 0.01f &&
	          fabsf(spin.z - 10.0f * cosf(steer)) < 0.05f);
	// Bad definitions: an axle along the suspension, a NaN steering angle.
	tbWheelJointDef bad = wd;
	bad.bodyIdB = makeDynamic(world, v3(3.0f, 1.0f, 0.0f), quatIdentity(), &wheel, 100.0f);
	bad.spinAxis = v3(0.0f, 2.0f, 0.0f);
	cr_assert(!tbJoint_IsValid(tbCreateWheelJoint(world, &bad)));
	cr_assert(strstr(tbGetLastError(), "spinAxis") != NULL, "%s", tbGetLastError());
	bad.spinAxis = v3(0.0f, 0.0f, 1.0f);
	bad.steeringAngle = NAN;
	cr_assert(!tbJoint_IsValid(tbCreateWheelJoint(world, &bad)));
	cr_assert(strstr(tbGetLastError(), "steeringAngle") != NULL, "%s", tbGetLastError());
	tbDestroyWorld(world);
}
