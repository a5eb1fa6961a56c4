// Default definitions: every def struct starts from its default function, so 0 stays a real value.
#include <float.h>
#include <math.h>
#include <string.h>

#include "tumble/mover.h"
#include "world_internal.h"

tbWorldDef tbDefaultWorldDef(void)
{
	tbWorldDef def;
	memset(&def, 0, sizeof def);
	tbSolverDef solver = tbDefaultSolverDef();
	def.gravity = solver.gravity;
	// The stack of 20 (tests/test_world_stacking.c): with the solver's 30 Hz and one iteration it
	// sinks into its soft contacts and topples; 60 Hz (the solver caps it at a quarter of the
	// substep rate) and two iterations keep it standing, for twice the solve time.
	def.iterations = 2;
	def.relaxIterations = solver.relaxIterations;
	def.contactHertz = 60.0f;
	def.contactDampingRatio = solver.contactDampingRatio;
	def.contactPushMaxSpeed = solver.contactPushMaxSpeed;
	def.restitutionThreshold = solver.restitutionThreshold;
	// Speculative points within about 2 cm (docs/dynamics.md, section 6; Box2D's 4 linear slops).
	def.speculativeDistance = 0.02f;
	def.aabbMargin = 0.1f;
	def.enableSleep = true;
	// Islands sleep after 0.5 s below 0.05 m/s (docs/dynamics.md, section 6; Box2D v3).
	def.sleepThreshold = 0.05f;
	def.timeToSleep = 0.5f;
	def.enableWarmStarting = true;
	def.enableContinuous = true;
	def.enableContactRefresh = true;
	def.integrator = solver.integrator;
	def.initialBodyCapacity = 16;
	def.initialShapeCapacity = 16;
	// Box2D v3's default: slower touches (resting, sliding, rolling) are not hits.
	def.hitEventThreshold = 1.0f;
	def.workerCount = 1;
	return def;
}

tbBodyDef tbDefaultBodyDef(void)
{
	tbBodyDef def;
	memset(&def, 0, sizeof def);
	def.type = tb_staticBody;
	def.rotation = (versors){{0.0f, 0.0f, 0.0f, 1.0f}};
	def.gravityScale = 1.0f;
	def.enableSleep = true;
	def.sleepThreshold = 0.05f;
	def.isAwake = true;
	return def;
}

tbShapeDef tbDefaultShapeDef(void)
{
	tbShapeDef def;
	memset(&def, 0, sizeof def);
	def.localPose = tbTransformIdentity();
	def.density = 1000.0f;
	def.friction = 0.6f;
	def.restitution = 0.0f;
	def.filter.categoryBits = 1;
	def.filter.maskBits = UINT64_MAX;
	return def;
}

tbQueryFilter tbDefaultQueryFilter(void)
{
	tbQueryFilter f = {1, UINT64_MAX};
	return f;
}

tbDebugDraw tbDefaultDebugDraw(void)
{
	tbDebugDraw d;
	memset(&d, 0, sizeof d);
	d.drawShapes = true;
	d.drawJoints = true;
	return d;
}

tbBallJointDef tbDefaultBallJointDef(void)
{
	tbBallJointDef def;
	memset(&def, 0, sizeof def);
	def.twistAxis = (vec3s){{0.0f, 0.0f, 1.0f}};
	def.swingAxis = (vec3s){{1.0f, 0.0f, 0.0f}};
	def.coneAngle1 = def.coneAngle2 = 0.25f * 3.14159265f;
	def.dampingRatio = 1.0f;
	def.targetRotation = (versors){{0.0f, 0.0f, 0.0f, 1.0f}};
	def.forceThreshold = FLT_MAX;
	def.torqueThreshold = FLT_MAX;
	return def;
}

tbHingeJointDef tbDefaultHingeJointDef(void)
{
	tbHingeJointDef def;
	memset(&def, 0, sizeof def);
	def.forceThreshold = FLT_MAX;
	def.torqueThreshold = FLT_MAX;
	def.axis = (vec3s){{0.0f, 0.0f, 1.0f}};
	def.dampingRatio = 1.0f;
	return def;
}

tbSliderJointDef tbDefaultSliderJointDef(void)
{
	tbSliderJointDef def;
	memset(&def, 0, sizeof def);
	def.forceThreshold = FLT_MAX;
	def.torqueThreshold = FLT_MAX;
	def.axis = (vec3s){{1.0f, 0.0f, 0.0f}};
	def.dampingRatio = 1.0f;
	return def;
}

tbFixedJointDef tbDefaultFixedJointDef(void)
{
	tbFixedJointDef def;
	memset(&def, 0, sizeof def);
	def.forceThreshold = FLT_MAX;
	def.torqueThreshold = FLT_MAX;
	return def;
}

tbDistanceJointDef tbDefaultDistanceJointDef(void)
{
	tbDistanceJointDef def;
	memset(&def, 0, sizeof def);
	def.forceThreshold = FLT_MAX;
	def.torqueThreshold = FLT_MAX;
	def.dampingRatio = 1.0f;
	return def;
}

tbWheelJointDef tbDefaultWheelJointDef(void)
{
	tbWheelJointDef def;
	memset(&def, 0, sizeof def);
	def.suspensionAxis = (vec3s){{0.0f, 1.0f, 0.0f}};
	def.spinAxis = (vec3s){{0.0f, 0.0f, 1.0f}};
	def.enableSpring = true;
	def.hertz = 4.0f;
	def.dampingRatio = 0.7f;
	def.forceThreshold = FLT_MAX;
	def.torqueThreshold = FLT_MAX;
	return def;
}

tbCharacterDef tbDefaultCharacterDef(void)
{
	tbCharacterDef def;
	memset(&def, 0, sizeof def);
	def.radius = 0.3f;
	def.halfHeight = 0.6f;
	def.maxSlopeAngle = 0.25f * 3.14159265f;
	def.stepHeight = 0.35f;
	def.skinWidth = 0.01f;
	def.pushStrength = 500.0f;
	def.gravityScale = 1.0f;
	def.filter = tbDefaultQueryFilter();
	return def;
}
