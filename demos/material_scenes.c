// The materials scene (docs/materials.md): boxes ride a conveyor belt (a static shape with a
// tangent velocity) and fall off its end; three balls rolled at the same speed stop at distances
// set by their rolling resistance; balls shot up through a one-way platform (a pre-solve callback)
// land on it; a kinematic lift sent along its path with tbBody_SetTargetTransform carries a box.
// Public API only.
#include <math.h>

#include "material_scenes.h"

// The lift's path: up and down about its middle height, m and s.
#define DM_LIFT_X (-6.0f)
#define DM_LIFT_Y 1.5f
#define DM_LIFT_RISE 1.2f
#define DM_LIFT_PERIOD 6.0f

static tbBodyId dmAddBody(dmSim* sim, tbBodyType type, vec3s position, vec3s velocity,
                          const tbGeometry* shape, const tbShapeDef* shapeDef, tbShapeId* shapeId)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	def.linearVelocity = velocity;
	// The balls roll until their resistance stops them: no sleeping while slow.
	def.sleepThreshold = 0.01f;
	tbShapeDef sd = shapeDef != NULL ? *shapeDef : tbDefaultShapeDef();
	return dmSim_CreateBody(sim, &def, &sd, shape, shapeId);
}

// The one-way platform holds what comes down on it: its contact counts only when the normal from
// the platform to the other shape points up and that body is not rising.
static bool dmOneWay(tbShapeId a, tbShapeId b, const tbManifold* m, tbContactMaterial* material,
                     void* context)
{
	(void)material;
	const dmSceneControl* c = context;
	bool platformIsA = TB_ID_EQUALS(a, c->oneWay);
	if (!platformIsA && !TB_ID_EQUALS(b, c->oneWay)) {
		return true;
	}
	float up = platformIsA ? m->normal.y : -m->normal.y;
	tbBodyId other = tbShape_GetBody(platformIsA ? b : a);
	return up > 0.7f && tbBody_GetLinearVelocity(other).y < 0.5f;
}

bool dmBuildMaterialScene(dmSim* sim)
{
	dmSceneControl* c = &sim->control;
	tbGeometry ground = tbMakeBox(25.0f, 0.5f, 25.0f);
	if (TB_IS_NULL(dmAddBody(sim, tb_staticBody, (vec3s){{0, -0.5f, 0}}, glms_vec3_zero(), &ground,
	                         NULL, NULL))) {
		return false;
	}
	// The conveyor: a belt 8 m long at 1 m/s along +x; boxes dropped on its start.
	tbShapeDef belt = tbDefaultShapeDef();
	belt.tangentVelocity = (vec3s){{1.0f, 0, 0}};
	tbGeometry beltBox = tbMakeBox(4.0f, 0.25f, 0.75f);
	if (TB_IS_NULL(dmAddBody(sim, tb_staticBody, (vec3s){{0, 0.75f, -4.0f}}, glms_vec3_zero(),
	                         &beltBox, &belt, NULL))) {
		return false;
	}
	tbGeometry crate = tbMakeBox(0.25f, 0.25f, 0.25f);
	for (int i = 0; i < 5; ++i) {
		vec3s p = {{-3.5f + 1.0f * (float)i, 1.6f + 0.6f * (float)i, -4.0f}};
		if (TB_IS_NULL(dmAddBody(sim, tb_dynamicBody, p, glms_vec3_zero(), &crate, NULL, NULL))) {
			return false;
		}
	}
	// Rolling lanes: three balls at 4 m/s along +z, rolling resistance 0.05, 0.1 and 0.2: they
	// stop after v^2 / (2 (5/7) c g), about 23, 11 and 6 m.
	static const float resistance[3] = {0.05f, 0.1f, 0.2f};
	tbGeometry ball = tbMakeSphere(0.3f);
	for (int i = 0; i < 3; ++i) {
		tbShapeDef sd = tbDefaultShapeDef();
		sd.rollingResistance = resistance[i];
		vec3s p = {{3.0f + 1.0f * (float)i, 0.3f, -20.0f}};
		tbBodyId b = dmAddBody(sim, tb_dynamicBody, p, (vec3s){{0, 0, 4.0f}}, &ball, &sd, NULL);
		if (TB_IS_NULL(b)) {
			return false;
		}
		tbBody_SetAngularVelocity(b, (vec3s){{4.0f / 0.3f, 0, 0}}); // rolling: w = v / r about x
	}
	// The one-way platform at 3 m, and balls shot up through it from the ground.
	tbGeometry slab = tbMakeBox(2.0f, 0.1f, 2.0f);
	if (TB_IS_NULL(dmAddBody(sim, tb_staticBody, (vec3s){{6.0f, 3.0f, 4.0f}}, glms_vec3_zero(),
	                         &slab, NULL, &c->oneWay))) {
		return false;
	}
	tbWorld_SetPreSolveCallback(sim->worldId, dmOneWay, c);
	tbGeometry shot = tbMakeSphere(0.25f);
	for (int i = 0; i < 4; ++i) {
		vec3s p = {{5.0f + 0.66f * (float)i, 0.25f, 4.0f - 1.0f + 0.66f * (float)i}};
		if (TB_IS_NULL(dmAddBody(sim, tb_dynamicBody, p, (vec3s){{0, 9.0f + 0.5f * (float)i, 0}},
		                         &shot, NULL, NULL))) {
			return false;
		}
	}
	// The lift: a kinematic slab moved to its path's next pose every step, a box riding on it.
	c->lift = dmAddBody(sim, tb_kinematicBody, (vec3s){{DM_LIFT_X, DM_LIFT_Y, 4.0f}},
	                    glms_vec3_zero(), &slab, NULL, NULL);
	if (TB_IS_NULL(c->lift) ||
	    TB_IS_NULL(dmAddBody(sim, tb_dynamicBody, (vec3s){{DM_LIFT_X, DM_LIFT_Y + 0.4f, 4.0f}},
	                         glms_vec3_zero(), &crate, NULL, NULL))) {
		return false;
	}
	c->liftTime = 0.0f;
	return true;
}

void dmMaterialScene_Control(dmSim* sim)
{
	dmSceneControl* c = &sim->control;
	if (TB_IS_NULL(c->lift) || !tbBody_IsValid(c->lift)) {
		return;
	}
	c->liftTime += sim->dt;
	float phase = 2.0f * 3.14159265f * c->liftTime / DM_LIFT_PERIOD;
	vec3s p = {{DM_LIFT_X, DM_LIFT_Y + DM_LIFT_RISE * sinf(phase), 4.0f}};
	tbBody_SetTargetTransform(c->lift, p, glms_quat_identity(), sim->dt);
}
