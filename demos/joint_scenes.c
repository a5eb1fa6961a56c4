// The demo's joint scenes: what each is built of, the per-step control of the door's and the
// car's motors, and the figures the HUD and the headless summary show. Public API only.
//
// The scenes keep their bodies' masses alike because that is what a game's props look like, not
// because the solver needs it: joint groups are solved directly, and a 1:1000 load on light links
// holds within float's precision (tests/test_joints.c, docs/joints.md).
#include "joint_scenes.h"
#include "mover_scenes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DM_PI 3.14159265f

static vec3s dmV(float x, float y, float z)
{
	return (vec3s){{x, y, z}};
}

// A body with one shape, added to the scene's list; null when the world refuses it.
static tbBodyId dmMakeBody(dmSim* sim, tbBodyType type, vec3s position, versors rotation,
                           const tbGeometry* shape, float density, float friction)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	def.rotation = rotation;
	tbShapeDef shapeDef = tbDefaultShapeDef();
	shapeDef.density = density;
	shapeDef.friction = friction;
	return dmSim_CreateBody(sim, &def, &shapeDef, shape, NULL);
}

static tbBodyId dmMakeStatic(dmSim* sim, vec3s position, versors rotation, const tbGeometry* shape)
{
	return dmMakeBody(sim, tb_staticBody, position, rotation, shape, 1000.0f, 0.6f);
}

// The ground: a static box whose top is y = 0 (the world view draws it as the grid plane).
static bool dmMakeGround(dmSim* sim, float halfSize)
{
	tbGeometry ground = tbMakeBox(halfSize, 0.5f, halfSize);
	return !TB_IS_NULL(dmMakeStatic(sim, dmV(0.0f, -0.5f, 0.0f), glms_quat_identity(), &ground));
}

static bool dmBall(dmSim* sim, tbBodyId a, tbBodyId b, vec3s anchor)
{
	tbBallJointDef def = tbDefaultBallJointDef();
	def.bodyIdA = a;
	def.bodyIdB = b;
	def.anchor = anchor;
	return dmSim_AddJoint(sim, tbCreateBallJoint(sim->worldId, &def), anchor);
}

// A ragdoll's ball joint with its cone (half angles a1 towards the swing axis, a2 across) and
// twist range (+-twist) about the bone's axis, twistAxis (from the joint into the child).
static bool dmLimb(dmSim* sim, tbBodyId a, tbBodyId b, vec3s anchor, vec3s twistAxis,
                   vec3s swingAxis, float a1, float a2, float twist)
{
	tbBallJointDef def = tbDefaultBallJointDef();
	def.bodyIdA = a;
	def.bodyIdB = b;
	def.anchor = anchor;
	def.twistAxis = twistAxis;
	def.swingAxis = swingAxis;
	def.enableCone = true;
	def.coneAngle1 = a1;
	def.coneAngle2 = a2;
	def.enableTwistLimit = true;
	def.lowerTwist = -twist;
	def.upperTwist = twist;
	return dmSim_AddJoint(sim, tbCreateBallJoint(sim->worldId, &def), anchor);
}

static tbJointId dmHinge(dmSim* sim, const tbHingeJointDef* def)
{
	tbJointId id = tbCreateHingeJoint(sim->worldId, def);
	return dmSim_AddJoint(sim, id, def->anchor) ? id : tb_nullJointId;
}

// Capsules and cylinders are built along their local y; these turn that axis onto x or z.
static versors dmAlongX(void)
{
	return glms_quatv(-0.5f * DM_PI, dmV(0.0f, 0.0f, 1.0f));
}

static versors dmAlongZ(void)
{
	return glms_quatv(0.5f * DM_PI, dmV(1.0f, 0.0f, 0.0f));
}

// ---------------------------------------------------------------------------------------------
// Bridge

// 16 planks on 17 hinges (axis across the bridge) between two posts, hung as a circular arc of
// equal chords so that the bridge is slack at the start: N chords of length s spanning the half
// angle theta lie on a circle of radius R = s / (2 sin(theta / N)), span 2 R sin(theta) and sag
// R (1 - cos(theta)). Four boxes drop onto it.
static bool dmBuildBridge(dmSim* sim)
{
	if (!dmMakeGround(sim, 25.0f)) {
		return false;
	}
	enum
	{
		planks = 16
	};
	const float chord = 0.6f, theta = 0.5f, postTop = 3.0f, halfDepth = 0.7f, halfThick = 0.06f;
	float phi = 2.0f * theta / (float)planks;
	float radius = chord / (2.0f * sinf(0.5f * phi));
	float halfSpan = radius * sinf(theta);
	float anchorY = postTop - halfThick; // the planks' tops flush with the posts' tops
	float centreY = anchorY + radius * cosf(theta);
	vec3s p[planks + 1];
	for (int k = 0; k <= planks; ++k) {
		float a = -theta + (float)k * phi;
		p[k] = dmV(radius * sinf(a), centreY - radius * cosf(a), 0.0f);
	}
	versors identity = glms_quat_identity();
	tbGeometry post = tbMakeBox(0.3f, 0.5f * postTop, halfDepth + 0.1f);
	tbBodyId left = dmMakeStatic(sim, dmV(-halfSpan - 0.3f, 0.5f * postTop, 0.0f), identity, &post);
	tbBodyId right = dmMakeStatic(sim, dmV(halfSpan + 0.3f, 0.5f * postTop, 0.0f), identity, &post);
	if (TB_IS_NULL(left) || TB_IS_NULL(right)) {
		return false;
	}
	sim->control.firstPlank = sim->bodyCount;
	sim->control.plankCount = planks;
	sim->control.postY = anchorY;
	// 4 cm between neighbours lying flat: joined planks do not collide, the others never touch.
	tbGeometry plank = tbMakeBox(0.5f * chord - 0.02f, halfThick, halfDepth);
	tbHingeJointDef def = tbDefaultHingeJointDef();
	def.axis = dmV(0.0f, 0.0f, 1.0f);
	def.bodyIdA = left;
	for (int k = 0; k < planks; ++k) {
		vec3s mid = glms_vec3_scale(glms_vec3_add(p[k], p[k + 1]), 0.5f);
		float angle = atan2f(p[k + 1].y - p[k].y, p[k + 1].x - p[k].x);
		tbBodyId body =
		    dmMakeBody(sim, tb_dynamicBody, mid, glms_quatv(angle, def.axis), &plank, 600.0f, 0.8f);
		def.bodyIdB = body;
		def.anchor = p[k];
		if (TB_IS_NULL(body) || TB_IS_NULL(dmHinge(sim, &def))) {
			return false;
		}
		def.bodyIdA = body;
	}
	def.bodyIdB = right;
	def.anchor = p[planks];
	if (TB_IS_NULL(dmHinge(sim, &def))) {
		return false;
	}
	// 65 kg boxes on 60 kg planks.
	tbGeometry box = tbMakeBox(0.3f, 0.3f, 0.3f);
	for (int i = 0; i < 4; ++i) {
		vec3s at = dmV(-2.4f + 1.6f * (float)i, 4.6f + 0.9f * (float)i, 0.15f * (float)(i % 2));
		versors tilt = tbQuatFromEulerXYZ(0.3f * (float)i, 0.5f * (float)i, 0.2f);
		if (TB_IS_NULL(dmMakeBody(sim, tb_dynamicBody, at, tilt, &box, 300.0f, 0.6f))) {
			return false;
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Chain

// 24 capsule links on ball joints hanging from a pivot, released horizontally: the chain swings
// down, wraps round a peg and swings on. A static frame behind the chain's plane shows its reach.
static bool dmBuildChain(dmSim* sim)
{
	if (!dmMakeGround(sim, 25.0f)) {
		return false;
	}
	enum
	{
		links = 24
	};
	const float radius = 0.1f, halfHeight = 0.12f;
	const float link = 2.0f * (halfHeight + radius);
	const float reach = (float)links * link;
	vec3s top = dmV(0.0f, reach + 1.5f, 0.0f);
	versors identity = glms_quat_identity();
	tbGeometry beam = tbMakeBox(reach + 0.4f, 0.08f, 0.08f);
	float beamY = top.y + 0.3f;
	tbGeometry post = tbMakeBox(0.1f, 0.5f * beamY, 0.1f);
	tbGeometry bracket = tbMakeBox(0.05f, 0.05f, 0.3f); // from the beam to the pivot
	tbGeometry peg = tbMakeSphere(0.25f);
	if (TB_IS_NULL(dmMakeStatic(sim, dmV(0.0f, beamY, -0.5f), identity, &beam)) ||
	    TB_IS_NULL(dmMakeStatic(sim, dmV(-reach - 0.5f, 0.5f * beamY, -0.5f), identity, &post)) ||
	    TB_IS_NULL(dmMakeStatic(sim, dmV(reach + 0.5f, 0.5f * beamY, -0.5f), identity, &post)) ||
	    TB_IS_NULL(dmMakeStatic(sim, dmV(-3.0f, top.y - 5.5f, 0.0f), identity, &peg))) {
		return false;
	}
	tbBodyId pivot = dmMakeStatic(sim, dmV(top.x, top.y, top.z - 0.25f), identity, &bracket);
	if (TB_IS_NULL(pivot)) {
		return false;
	}
	tbGeometry capsule = tbMakeCapsule(radius, halfHeight);
	tbBodyId prev = pivot;
	for (int i = 0; i < links; ++i) {
		vec3s centre = dmV(top.x + link * ((float)i + 0.5f), top.y, top.z);
		tbBodyId body =
		    dmMakeBody(sim, tb_dynamicBody, centre, dmAlongX(), &capsule, 1000.0f, 0.6f);
		if (TB_IS_NULL(body) ||
		    !dmBall(sim, prev, body, dmV(top.x + link * (float)i, top.y, top.z))) {
			return false;
		}
		prev = body;
	}
	sim->control.chainEnd = sim->bodyCount - 1;
	sim->control.chainTop = top;
	return true;
}

// ---------------------------------------------------------------------------------------------
// Ragdolls

typedef struct dmPlacement
{
	vec3s origin;
	versors rotation;
	vec3s velocity;
} dmPlacement;

static vec3s dmPlace(const dmPlacement* at, vec3s local)
{
	return glms_vec3_add(at->origin, glms_quat_rotatev(at->rotation, local));
}

static tbBodyId dmRagdollPart(dmSim* sim, const dmPlacement* at, vec3s local, versors turn,
                              const tbGeometry* shape, float density)
{
	tbBodyId body = dmMakeBody(sim, tb_dynamicBody, dmPlace(at, local),
	                           glms_quat_mul(at->rotation, turn), shape, density, 0.7f);
	if (!TB_IS_NULL(body)) {
		tbBody_SetLinearVelocity(body, at->velocity);
	}
	return body;
}

// A ragdoll of 10 bodies, 1.7 m tall, arms spread (along local x), facing local +z: a box torso
// (17 kg), a ball head, capsule limbs (1.8 to 6 kg). Ball joints with cones and twist limits at
// the neck, shoulders and hips; hinges with limits at the elbows (forward, 0 to 2.3 rad) and knees
// (backward, 0 to 2.2 rad).
// Neighbours that are not joined start at least 2 cm apart.
static bool dmAddRagdoll(dmSim* sim, const dmPlacement* at)
{
	versors upright = glms_quat_identity();
	tbGeometry torsoShape = tbMakeBox(0.17f, 0.25f, 0.1f);
	tbGeometry headShape = tbMakeSphere(0.11f);
	tbGeometry upperArm = tbMakeCapsule(0.05f, 0.12f);
	tbGeometry lowerArm = tbMakeCapsule(0.045f, 0.11f);
	tbGeometry upperLeg = tbMakeCapsule(0.07f, 0.15f);
	tbGeometry lowerLeg = tbMakeCapsule(0.06f, 0.16f);
	tbBodyId torso = dmRagdollPart(sim, at, dmV(0.0f, 0.0f, 0.0f), upright, &torsoShape, 500.0f);
	tbBodyId head = dmRagdollPart(sim, at, dmV(0.0f, 0.40f, 0.0f), upright, &headShape, 1000.0f);
	vec3s up = glms_quat_rotatev(at->rotation, dmV(0.0f, 1.0f, 0.0f));
	vec3s forward = glms_quat_rotatev(at->rotation, dmV(0.0f, 0.0f, 1.0f));
	vec3s down = glms_vec3_negate(up);
	if (TB_IS_NULL(torso) || TB_IS_NULL(head) ||
	    !dmLimb(sim, torso, head, dmPlace(at, dmV(0.0f, 0.27f, 0.0f)), up, forward, 0.6f, 0.4f,
	            0.8f)) {
		return false;
	}
	for (int side = -1; side <= 1; side += 2) {
		float sx = (float)side;
		tbBodyId upper =
		    dmRagdollPart(sim, at, dmV(0.36f * sx, 0.18f, 0.0f), dmAlongX(), &upperArm, 1000.0f);
		tbBodyId lower =
		    dmRagdollPart(sim, at, dmV(0.695f * sx, 0.18f, 0.0f), dmAlongX(), &lowerArm, 1000.0f);
		tbBodyId thigh =
		    dmRagdollPart(sim, at, dmV(0.09f * sx, -0.49f, 0.0f), upright, &upperLeg, 1000.0f);
		tbBodyId shin =
		    dmRagdollPart(sim, at, dmV(0.09f * sx, -0.95f, 0.0f), upright, &lowerLeg, 1000.0f);
		if (TB_IS_NULL(upper) || TB_IS_NULL(lower) || TB_IS_NULL(thigh) || TB_IS_NULL(shin) ||
		    !dmLimb(sim, torso, upper, dmPlace(at, dmV(0.18f * sx, 0.18f, 0.0f)),
		            glms_quat_rotatev(at->rotation, dmV(sx, 0.0f, 0.0f)), forward, 1.4f, 1.2f,
		            1.0f) ||
		    !dmLimb(sim, torso, thigh, dmPlace(at, dmV(0.09f * sx, -0.26f, 0.0f)), down, forward,
		            1.3f, 0.5f, 0.5f)) {
			return false;
		}
		// The forearm along -x (left) turns towards +z about +y; along +x (right), about -y.
		tbHingeJointDef elbow = tbDefaultHingeJointDef();
		elbow.bodyIdA = upper;
		elbow.bodyIdB = lower;
		elbow.anchor = dmPlace(at, dmV(0.535f * sx, 0.18f, 0.0f));
		elbow.axis = glms_quat_rotatev(at->rotation, dmV(0.0f, -sx, 0.0f));
		elbow.enableLimit = true;
		elbow.lowerAngle = 0.0f;
		elbow.upperAngle = 2.3f;
		// The shin (along -y) turns backwards, towards -z, about +x.
		tbHingeJointDef knee = tbDefaultHingeJointDef();
		knee.bodyIdA = thigh;
		knee.bodyIdB = shin;
		knee.anchor = dmPlace(at, dmV(0.09f * sx, -0.72f, 0.0f));
		knee.axis = glms_quat_rotatev(at->rotation, dmV(1.0f, 0.0f, 0.0f));
		knee.enableLimit = true;
		knee.lowerAngle = 0.0f;
		knee.upperAngle = 2.2f;
		if (TB_IS_NULL(dmHinge(sim, &elbow)) || TB_IS_NULL(dmHinge(sim, &knee))) {
			return false;
		}
	}
	return true;
}

// Three ragdolls thrown down a staircase of six static steps (0.35 m rise, 0.7 m run), down along
// +x.
static bool dmBuildRagdolls(dmSim* sim)
{
	if (!dmMakeGround(sim, 25.0f)) {
		return false;
	}
	enum
	{
		steps = 6
	};
	const float rise = 0.35f, run = 0.7f;
	for (int k = 0; k < steps; ++k) {
		float height = (float)(steps - k) * rise;
		tbGeometry step = tbMakeBox(0.5f * run, 0.5f * height, 2.0f);
		if (TB_IS_NULL(dmMakeStatic(sim, dmV((float)k * run, 0.5f * height, 0.0f),
		                            glms_quat_identity(), &step))) {
			return false;
		}
	}
	float topY = (float)steps * rise;
	dmPlacement at[3] = {
	    // Standing on the top step, pushed down the stairs.
	    {dmV(0.0f, topY + 1.2f, -0.9f), glms_quat_identity(), dmV(1.5f, 0.0f, 0.0f)},
	    // Lying face down, head first, arms along z.
	    {dmV(1.2f, topY + 2.4f, 0.8f),
	     glms_quat_mul(glms_quatv(-0.5f * DM_PI, dmV(0.0f, 0.0f, 1.0f)),
	                   glms_quatv(0.5f * DM_PI, dmV(0.0f, 1.0f, 0.0f))),
	     dmV(0.5f, 0.0f, 0.0f)},
	    // Tumbling in, turned and tilted.
	    {dmV(2.6f, topY + 4.0f, -0.3f), tbQuatFromEulerXYZ(0.5f, 0.8f, 0.9f),
	     dmV(0.8f, 0.0f, 0.3f)},
	};
	for (int i = 0; i < 3; ++i) {
		if (!dmAddRagdoll(sim, at + i)) {
			return false;
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Door and pendulum

// A 58 kg door on a vertical hinge with limits of +-1.2 rad and a motor of 1 rad/s (300 N m)
// whose direction flips every 3 s, a light box in its sweep, and a 14 kg pendulum ball on a
// ball joint 1.5 m below its pivot, released at 45 degrees to swing into the door's way.
static bool dmBuildDoor(dmSim* sim)
{
	if (!dmMakeGround(sim, 25.0f)) {
		return false;
	}
	versors identity = glms_quat_identity();
	tbGeometry post = tbMakeBox(0.06f, 1.15f, 0.06f);
	tbGeometry wall = tbMakeBox(1.0f, 1.15f, 0.06f);
	tbBodyId frame = dmMakeStatic(sim, dmV(-0.08f, 1.15f, 0.0f), identity, &post);
	if (TB_IS_NULL(frame) ||
	    TB_IS_NULL(dmMakeStatic(sim, dmV(-1.16f, 1.15f, 0.0f), identity, &wall))) {
		return false;
	}
	tbGeometry panel = tbMakeBox(0.45f, 1.0f, 0.04f);
	tbBodyId door =
	    dmMakeBody(sim, tb_dynamicBody, dmV(0.47f, 1.07f, 0.0f), identity, &panel, 400.0f, 0.6f);
	if (TB_IS_NULL(door)) {
		return false;
	}
	tbHingeJointDef def = tbDefaultHingeJointDef();
	def.bodyIdA = frame;
	def.bodyIdB = door;
	def.anchor = dmV(0.0f, 1.07f, 0.0f);
	def.axis = dmV(0.0f, 1.0f, 0.0f);
	def.enableLimit = true;
	def.lowerAngle = -1.2f;
	def.upperAngle = 1.2f;
	def.enableMotor = true;
	def.motorSpeed = 1.0f;
	def.maxMotorTorque = 300.0f;
	dmSceneControl* c = &sim->control;
	c->door = dmHinge(sim, &def);
	c->doorSpeed = def.motorSpeed;
	c->doorPeriod = 3.0f;
	if (TB_IS_NULL(c->door)) {
		return false;
	}
	// A 6 kg box where the door swings to at +0.7 rad (its far edge turns towards -z).
	tbGeometry box = tbMakeBox(0.2f, 0.2f, 0.2f);
	if (TB_IS_NULL(dmMakeBody(sim, tb_dynamicBody, dmV(0.6f * cosf(0.7f), 0.2f, -0.6f * sinf(0.7f)),
	                          identity, &box, 100.0f, 0.6f))) {
		return false;
	}
	vec3s pivotAt = dmV(0.6f, 2.7f, 0.9f);
	tbGeometry pivotShape = tbMakeBox(0.05f, 0.05f, 0.05f);
	tbBodyId pivot = dmMakeStatic(sim, pivotAt, identity, &pivotShape);
	tbGeometry ball = tbMakeSphere(0.15f);
	const float length = 1.5f, release = 0.25f * DM_PI;
	vec3s bobAt =
	    glms_vec3_add(pivotAt, dmV(0.0f, -length * cosf(release), length * sinf(release)));
	tbBodyId bob = dmMakeBody(sim, tb_dynamicBody, bobAt, identity, &ball, 1000.0f, 0.6f);
	return !TB_IS_NULL(pivot) && !TB_IS_NULL(bob) && dmBall(sim, pivot, bob, pivotAt);
}

// ---------------------------------------------------------------------------------------------
// Car

// A 100 kg box chassis on four 18.5 kg cylinder wheels, each on a wheel joint: a suspension
// spring (4 Hz, damping ratio 0.7, travel +-0.15 m) along the chassis's up and a motor (120 N m)
// about the axle; the front wheels steer. Forward is +x; the axles are -z so that a positive
// motor speed rolls the car forwards (a wheel turning about -z rolls towards +x). Ramps up to a
// plateau and down again, two low bumps and a few light boxes to push lie ahead.
static bool dmBuildCar(dmSim* sim)
{
	// Larger than the other scenes' ground: the car drives about.
	if (!dmMakeGround(sim, 40.0f)) {
		return false;
	}
	versors identity = glms_quat_identity();
	// A ramp of 0.2 rad (11.5 degrees) up to a plateau 0.78 m high and down again.
	const float slope = 0.2f, halfRamp = 2.0f;
	tbGeometry ramp = tbMakeBox(halfRamp, 0.1f, 1.6f);
	tbGeometry plateau = tbMakeBox(1.5f, 0.3875f, 1.6f);
	float rampRun = halfRamp * cosf(slope) - 0.1f * sinf(slope); // centre to the top's end, along x
	versors up = glms_quatv(slope, dmV(0.0f, 0.0f, 1.0f));
	versors down = glms_quatv(-slope, dmV(0.0f, 0.0f, 1.0f));
	float plateauX = rampRun + 1.5f;
	if (TB_IS_NULL(dmMakeStatic(sim, dmV(0.0f, 0.28f, 0.0f), up, &ramp)) ||
	    TB_IS_NULL(dmMakeStatic(sim, dmV(plateauX, 0.3875f, 0.0f), identity, &plateau)) ||
	    TB_IS_NULL(dmMakeStatic(sim, dmV(plateauX + 1.5f + rampRun, 0.28f, 0.0f), down, &ramp))) {
		return false;
	}
	// Bumps: half-buried bars across the way, 8 cm high.
	tbGeometry bar = tbMakeCylinder(0.08f, 1.6f);
	for (int i = 0; i < 2; ++i) {
		if (TB_IS_NULL(
		        dmMakeStatic(sim, dmV(11.0f + 1.5f * (float)i, 0.0f, 0.0f), dmAlongZ(), &bar))) {
			return false;
		}
	}
	// Three 9 kg boxes stacked in the way.
	tbGeometry box = tbMakeBox(0.25f, 0.25f, 0.25f);
	const vec3s boxes[3] = {
	    {{16.0f, 0.25f, -0.3f}}, {{16.0f, 0.25f, 0.3f}}, {{16.0f, 0.76f, 0.0f}}};
	for (int i = 0; i < 3; ++i) {
		if (TB_IS_NULL(dmMakeBody(sim, tb_dynamicBody, boxes[i], identity, &box, 75.0f, 0.6f))) {
			return false;
		}
	}

	const float wheelRadius = 0.35f, halfWidth = 0.12f, halfBase = 0.7f, halfTrack = 0.65f;
	vec3s start = dmV(-8.0f, wheelRadius + 0.12f, 0.0f);
	tbGeometry body = tbMakeBox(1.0f, 0.2f, 0.5f);
	dmSceneControl* c = &sim->control;
	c->chassis = dmMakeBody(sim, tb_dynamicBody, start, identity, &body, 125.0f, 0.6f);
	c->carStart = start;
	if (TB_IS_NULL(c->chassis)) {
		return false;
	}
	tbGeometry wheel = tbMakeCylinder(wheelRadius, halfWidth);
	// Left is -z when facing +x with y up.
	const float where[4][2] = {{halfBase, -halfTrack},
	                           {-halfBase, -halfTrack},
	                           {halfBase, halfTrack},
	                           {-halfBase, halfTrack}};
	for (int i = 0; i < 4; ++i) {
		vec3s at = dmV(start.x + where[i][0], wheelRadius + 0.01f, start.z + where[i][1]);
		tbBodyId w = dmMakeBody(sim, tb_dynamicBody, at, dmAlongZ(), &wheel, 200.0f, 1.0f);
		tbWheelJointDef def = tbDefaultWheelJointDef();
		def.bodyIdA = c->chassis;
		def.bodyIdB = w;
		def.anchor = at;
		def.suspensionAxis = dmV(0.0f, 1.0f, 0.0f);
		def.spinAxis = dmV(0.0f, 0.0f, -1.0f);
		def.enableLimit = true;
		def.lowerTranslation = -0.15f;
		def.upperTranslation = 0.15f;
		def.enableMotor = true;
		def.motorSpeed = 0.0f;
		def.maxMotorTorque = 120.0f;
		c->wheels[i] = tb_nullJointId;
		if (!TB_IS_NULL(w)) {
			tbJointId id = tbCreateWheelJoint(sim->worldId, &def);
			c->wheels[i] = dmSim_AddJoint(sim, id, at) ? id : tb_nullJointId;
		}
		if (TB_IS_NULL(c->wheels[i])) {
			return false;
		}
	}
	c->wheelSpeed = 14.0f; // 4.9 m/s on wheels of 0.35 m
	return true;
}

bool dmBuildJointScene(dmSim* sim, int which)
{
	sim->control.chainEnd = -1;
	switch (which) {
	case dm_builtinBridge:
		return dmBuildBridge(sim);
	case dm_builtinChain:
		return dmBuildChain(sim);
	case dm_builtinRagdoll:
		return dmBuildRagdolls(sim);
	case dm_builtinDoor:
		return dmBuildDoor(sim);
	case dm_builtinCar:
		return dmBuildCar(sim);
	default:
		return false;
	}
}

// ---------------------------------------------------------------------------------------------
// Control and figures

void dmSim_SetDrive(dmSim* sim, float throttle, float steer)
{
	sim->control.throttle = fmaxf(-1.0f, fminf(1.0f, throttle));
	sim->control.steer = fmaxf(-1.0f, fminf(1.0f, steer));
}

void dmJointScenes_Control(dmSim* sim)
{
	dmSceneControl* c = &sim->control;
	if (!TB_IS_NULL(c->door) && tbJoint_IsValid(c->door)) {
		c->doorTimer += sim->dt;
		if (c->doorTimer >= c->doorPeriod) {
			c->doorTimer -= c->doorPeriod;
			c->doorSpeed = -c->doorSpeed;
			tbJoint_SetMotorSpeed(c->door, c->doorSpeed);
		}
	}
	if (TB_IS_NULL(c->chassis)) {
		return;
	}
	if (c->autopilot) {
		// Over the ramp, the bumps and into the boxes, then round to the left.
		float t = (float)sim->stepCount * sim->dt;
		c->throttle = 1.0f;
		c->steer = t > 6.0f ? 0.5f : 0.0f;
	}
	// The front wheels (0 and 2) steer up to 0.5 rad: a positive angle turns their axles about
	// up, the car to the left (-z). Released keys give a motor speed of 0: the motors brake.
	float base = c->throttle * c->wheelSpeed;
	for (int i = 0; i < 4; ++i) {
		if (tbJoint_IsValid(c->wheels[i])) {
			tbJoint_SetMotorSpeed(c->wheels[i], base);
			if (i == 0 || i == 2) {
				tbWheelJoint_SetSteering(c->wheels[i], 0.5f * c->steer);
			}
		}
	}
	dmMoverScene_Control(sim); // the mover scene's character takes the same keys
}

void dmJointScenes_Observe(dmSim* sim)
{
	float gap = 0.0f;
	for (int i = 0; i < sim->jointCount; ++i) {
		const dmJointRecord* r = sim->joints + i;
		if (!tbJoint_IsValid(r->id)) {
			continue;
		}
		tbTransform xfA = tbBody_GetTransform(tbJoint_GetBodyA(r->id));
		vec3s a = tbTransformPoint(xfA, r->localA);
		vec3s b = tbTransformPoint(tbBody_GetTransform(tbJoint_GetBodyB(r->id)), r->localB);
		vec3s d = glms_vec3_sub(b, a);
		if (tbJoint_GetType(r->id) == tb_wheelJoint) {
			// A wheel travels along its suspension (the chassis's up here): only the rest is a gap.
			vec3s axis = glms_quat_rotatev(xfA.q, dmV(0.0f, 1.0f, 0.0f));
			d = glms_vec3_sub(d, glms_vec3_scale(axis, glms_vec3_dot(d, axis)));
		}
		gap = fmaxf(gap, glms_vec3_norm(d));
	}
	sim->jointGap = gap;
	sim->maxJointGap = fmaxf(sim->maxJointGap, gap);
	dmSceneControl* c = &sim->control;
	if (!TB_IS_NULL(c->door) && tbJoint_IsValid(c->door)) {
		float angle = tbJoint_GetAngle(c->door);
		c->doorLowest = fminf(c->doorLowest, angle);
		c->doorHighest = fmaxf(c->doorHighest, angle);
	}
	if (!TB_IS_NULL(c->chassis) && tbBody_IsValid(c->chassis)) {
		vec3s v = tbBody_GetLinearVelocity(c->chassis);
		c->carSpeed = sqrtf(v.x * v.x + v.z * v.z);
		c->carTopSpeed = fmaxf(c->carTopSpeed, c->carSpeed);
	}
}

void dmSim_DescribeScene(const dmSim* sim, char* out, int size)
{
	out[0] = '\0';
	if (sim->fromFile || sim->jointCount == 0) {
		return;
	}
	const dmSceneControl* c = &sim->control;
	char what[192] = "";
	switch (sim->entry.builtin) {
	case dm_builtinBridge: {
		float lowest = INFINITY;
		for (int i = 0; i < c->plankCount; ++i) {
			lowest = fminf(lowest, tbBody_GetPosition(sim->bodies[c->firstPlank + i]).y);
		}
		snprintf(what, sizeof what, "%d planks: the lowest %.2f m below the posts", c->plankCount,
		         (double)(c->postY - lowest));
		break;
	}
	case dm_builtinChain: {
		vec3s end = tbBody_GetPosition(sim->bodies[c->chainEnd]);
		snprintf(what, sizeof what, "%d links: the last %.2f m from the pivot, %.2f m below it",
		         sim->jointCount, (double)glms_vec3_distance(end, c->chainTop),
		         (double)(c->chainTop.y - end.y));
		break;
	}
	case dm_builtinRagdoll: {
		float lowest = INFINITY;
		for (int i = 0; i < sim->bodyCount; ++i) {
			if (tbBody_GetType(sim->bodies[i]) == tb_dynamicBody) {
				lowest = fminf(lowest, tbBody_GetPosition(sim->bodies[i]).y);
			}
		}
		snprintf(what, sizeof what, "3 ragdolls: the lowest part's centre at %.2f m",
		         (double)lowest);
		break;
	}
	case dm_builtinDoor:
		snprintf(what, sizeof what,
		         "door at %+.2f rad (reached %+.2f to %+.2f, limits +-1.2), motor %+.0f rad/s "
		         "reversing every %.0f s",
		         (double)tbJoint_GetAngle(c->door), (double)c->doorLowest, (double)c->doorHighest,
		         (double)c->doorSpeed, (double)c->doorPeriod);
		break;
	case dm_builtinCar: {
		vec3s p = tbBody_GetPosition(c->chassis);
		snprintf(what, sizeof what,
		         "W/S or Up/Down: drive   A/D or Left/Right: steer   %.2f m/s (top %.2f), "
		         "%.1f m from the start",
		         (double)c->carSpeed, (double)c->carTopSpeed,
		         (double)glms_vec3_distance(p, c->carStart));
		break;
	}
	default:
		break;
	}
	snprintf(out, (size_t)size, "%s; %d joints, anchors apart %.1f mm (at most %.1f mm)", what,
	         sim->jointCount, 1000.0 * (double)sim->jointGap, 1000.0 * (double)sim->maxJointGap);
}
