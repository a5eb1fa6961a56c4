// The mover scene (docs/mover.md): a character capsule moved by tbCharacter_Move, not by the
// solver, over a floor with boxes to push, stairs, a walkable and a too-steep slope, a wall and a
// turning platform. The car's keys drive it (W/S walk, A/D turn); headless it drives itself.
// Public API only.
#include <math.h>

#include "mover_scenes.h"

#define DM_PI 3.14159265f
#define DM_WALK_SPEED 4.0f // m/s at full throttle
#define DM_TURN_RATE 2.0f  // rad/s at full steer

// One character at a time: the demo shows one scene. `world` says which world it belongs to.
static struct
{
	tbWorldId world;
	tbCharacter character;
	float heading; // rad about +y from +x
	tbBodyId body; // a kinematic sensor capsule that shows the character (nothing collides with it)
} s_mover;

static tbBodyId dmAddMoverBody(dmSim* sim, tbBodyType type, vec3s position, versors rotation,
                               const tbGeometry* shape, float density, bool sensor)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	def.rotation = rotation;
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = density;
	sd.isSensor = sensor;
	return dmSim_CreateBody(sim, &def, &sd, shape, NULL);
}

static bool dmAddStatic(dmSim* sim, vec3s position, versors rotation, vec3s half)
{
	tbGeometry box = tbMakeBox(half.x, half.y, half.z);
	return !TB_IS_NULL(
	    dmAddMoverBody(sim, tb_staticBody, position, rotation, &box, 1000.0f, false));
}

// A ramp rising towards +x at `angle`, its surface from `foot` for `length` m, `width` wide.
static bool dmAddRamp(dmSim* sim, vec3s foot, float angle, float length, float width)
{
	versors q = glms_quatv(angle, (vec3s){{0, 0, 1}});
	vec3s n = glms_quat_rotatev(q, (vec3s){{0, 1, 0}});
	vec3s along = glms_quat_rotatev(q, (vec3s){{1, 0, 0}});
	vec3s c = glms_vec3_add(foot, glms_vec3_scale(along, 0.5f * length));
	c = glms_vec3_sub(c, glms_vec3_scale(n, 0.25f));
	return dmAddStatic(sim, c, q, (vec3s){{0.5f * length, 0.25f, 0.5f * width}});
}

bool dmBuildMoverScene(dmSim* sim)
{
	versors identity = glms_quat_identity();
	if (!dmAddStatic(sim, (vec3s){{0, -0.5f, 0}}, identity, (vec3s){{25, 0.5f, 25}})) {
		return false;
	}
	// Boxes to push on the way (0.5 m, 25 kg each).
	tbGeometry crate = tbMakeBox(0.25f, 0.25f, 0.25f);
	for (int i = 0; i < 3; ++i) {
		vec3s p = {{-7.0f + 0.8f * (float)i, 0.25f, -3.0f}};
		if (TB_IS_NULL(dmAddMoverBody(sim, tb_dynamicBody, p, identity, &crate, 200.0f, false))) {
			return false;
		}
	}
	// Stairs: five steps of 0.3 m, 0.6 m deep, from x = -3 to a landing 1.5 m up, then a drop.
	for (int i = 0; i < 5; ++i) {
		float x0 = -3.0f + 0.6f * (float)i, x1 = 2.0f, top = 0.3f * (float)(i + 1);
		if (!dmAddStatic(sim, (vec3s){{0.5f * (x0 + x1), 0.5f * top, 0}}, identity,
		                 (vec3s){{0.5f * (x1 - x0), 0.5f * top, 1.5f}})) {
			return false;
		}
	}
	// A walkable 25 degree ramp and a 55 degree one it cannot climb, side by side; a wall.
	if (!dmAddRamp(sim, (vec3s){{-4.0f, 0, 6.0f}}, 25.0f * DM_PI / 180.0f, 6.0f, 2.5f) ||
	    !dmAddRamp(sim, (vec3s){{-4.0f, 0, 9.0f}}, 55.0f * DM_PI / 180.0f, 3.0f, 2.5f) ||
	    !dmAddStatic(sim, (vec3s){{4.0f, 1.0f, -6.0f}}, glms_quatv(0.5f, (vec3s){{0, 1, 0}}),
	                 (vec3s){{4.0f, 1.0f, 0.1f}})) {
		return false;
	}
	// A platform turning at 0.5 rad/s about its centre.
	tbGeometry disc = tbMakeCylinder(3.0f, 0.1f);
	tbBodyId platform =
	    dmAddMoverBody(sim, tb_kinematicBody, (vec3s){{9.0f, 0.1f, 0}}, identity, &disc, 0, false);
	if (TB_IS_NULL(platform)) {
		return false;
	}
	tbBody_SetAngularVelocity(platform, (vec3s){{0, 0.5f, 0}});

	// The character, and the capsule that shows it.
	tbCharacterDef def = tbDefaultCharacterDef();
	def.position = (vec3s){{-11.0f, def.radius + def.halfHeight + def.skinWidth, 0}};
	def.pushStrength = 400.0f;
	s_mover.world = sim->worldId;
	s_mover.character = tbMakeCharacter(&def);
	s_mover.heading = 0.0f;
	tbGeometry capsule = tbCharacter_GetCapsule(&s_mover.character);
	s_mover.body = dmAddMoverBody(sim, tb_kinematicBody, def.position, identity, &capsule, 0, true);
	if (TB_IS_NULL(s_mover.body) || !s_mover.character.valid) {
		return false;
	}
	// The car's keys and camera follow the "chassis": here the character's capsule.
	sim->control.chassis = s_mover.body;
	sim->control.carStart = def.position;
	return true;
}

void dmMoverScene_Control(dmSim* sim)
{
	if (sim->entry.builtin != dm_builtinMover || sim->fromFile ||
	    s_mover.world.index1 != sim->worldId.index1 ||
	    s_mover.world.generation != sim->worldId.generation || !tbBody_IsValid(s_mover.body)) {
		return;
	}
	// Tank controls: the steer turns the heading, the throttle walks along it.
	dmSceneControl* c = &sim->control;
	s_mover.heading += DM_TURN_RATE * c->steer * sim->dt;
	float speed = DM_WALK_SPEED * c->throttle;
	vec3s walk = {{speed * cosf(s_mover.heading), 0, -speed * sinf(s_mover.heading)}};
	tbCharacter_Move(sim->worldId, &s_mover.character, walk, sim->dt);
	// The shown capsule goes there in the coming step.
	versors facing = glms_quatv(s_mover.heading, (vec3s){{0, 1, 0}});
	tbBody_SetTargetTransform(s_mover.body, s_mover.character.position, facing, sim->dt);
}
