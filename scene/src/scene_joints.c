// The scene's joints list (docs/scene-format.md, Joints): read and checked with file, line and key
// path, then created in the world by scene_build.c.
#include "scene_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// A body of the scene by name (generator bodies have names too: "pyramid0_3"); -1 after an
// error naming the key.
static int tbJointBody(tbParseContext* ctx, const cJSON* object, const char* path, const char* key)
{
	char keyPath[TB_SCENE_PATH_SIZE];
	tbJoinKey(keyPath, path, key);
	const cJSON* item = tbRequire(ctx, object, path, key);
	if (item == NULL) {
		return -1;
	}
	if (!cJSON_IsString(item)) {
		tbSceneFail(ctx, item, keyPath, "expected a body name, got %s", tbJsonKind(item));
		return -1;
	}
	const tbSceneDef* def = ctx->def;
	for (int i = 0; i < def->bodyCount; ++i) {
		if (strcmp(def->bodies[i].name, item->valuestring) == 0) {
			return i;
		}
	}
	tbSceneFail(ctx, item, keyPath, "no body named \"%s\"", item->valuestring);
	return -1;
}

static bool tbReadJointVec(tbParseContext* ctx, const cJSON* object, const char* path,
                           const char* key, vec3s* out)
{
	char keyPath[TB_SCENE_PATH_SIZE];
	tbJoinKey(keyPath, path, key);
	const cJSON* item = tbRequire(ctx, object, path, key);
	return item != NULL && tbReadVec3(ctx, item, keyPath, &tb_coordinate, out);
}

// "motor": {"speed": ..., "max_torque" or "max_force": ...}.
static bool tbReadMotor(tbParseContext* ctx, const cJSON* item, const char* path,
                        const char* forceKey, tbSceneJoint* joint)
{
	const char* keys[] = {"speed", forceKey};
	if (!cJSON_IsObject(item)) {
		return tbSceneFail(ctx, item, path, "expected an object {\"speed\", \"%s\"}, got %s",
		                   forceKey, tbJsonKind(item));
	}
	if (!tbCheckKeys(ctx, item, path, "a motor", keys, 2)) {
		return false;
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* speed = tbRequire(ctx, item, path, "speed");
	tbJoinKey(keyPath, path, "speed");
	if (speed == NULL || !tbReadFloat(ctx, speed, keyPath, &tb_anyNumber, &joint->motorSpeed)) {
		return false;
	}
	const cJSON* force = tbRequire(ctx, item, path, forceKey);
	tbJoinKey(keyPath, path, forceKey);
	if (force == NULL ||
	    !tbReadFloat(ctx, force, keyPath, &tb_nonNegative, &joint->maxMotorForce)) {
		return false;
	}
	joint->enableMotor = true;
	return true;
}

// "spring": {"hertz": ..., "damping_ratio": ...}.
static bool tbReadSpring(tbParseContext* ctx, const cJSON* item, const char* path,
                         tbSceneJoint* joint)
{
	static const char* const keys[] = {"hertz", "damping_ratio"};
	if (!cJSON_IsObject(item)) {
		return tbSceneFail(ctx, item, path,
		                   "expected an object {\"hertz\", \"damping_ratio\"}, got %s",
		                   tbJsonKind(item));
	}
	if (!tbCheckKeys(ctx, item, path, "a spring", keys, 2)) {
		return false;
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* hertz = tbRequire(ctx, item, path, "hertz");
	tbJoinKey(keyPath, path, "hertz");
	if (hertz == NULL || !tbReadFloat(ctx, hertz, keyPath, &tb_positive, &joint->hertz)) {
		return false;
	}
	joint->dampingRatio = 1.0f;
	const cJSON* ratio = cJSON_GetObjectItemCaseSensitive(item, "damping_ratio");
	tbJoinKey(keyPath, path, "damping_ratio");
	if (ratio != NULL && !tbReadFloat(ctx, ratio, keyPath, &tb_nonNegative, &joint->dampingRatio)) {
		return false;
	}
	joint->enableSpring = true;
	return true;
}

// An optional direction (normalised); a zero one is an error naming the key.
static bool tbReadJointAxis(tbParseContext* ctx, const cJSON* object, const char* path,
                            const char* key, vec3s* out)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
	if (item == NULL) {
		return true;
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	tbJoinKey(keyPath, path, key);
	vec3s v;
	if (!tbReadVec3(ctx, item, keyPath, &tb_coordinate, &v)) {
		return false;
	}
	double x = v.x, y = v.y, z = v.z;
	double len = sqrt(x * x + y * y + z * z);
	if (!(len > 0.0) || !isfinite(len)) {
		return tbSceneFail(ctx, item, keyPath, "a zero axis (give a direction)");
	}
	*out = (vec3s){{(float)(x / len), (float)(y / len), (float)(z / len)}};
	return true;
}

// A ball joint's "cone", "twist_limits", "friction" and "motor" {"velocity", "max_torque"}.
static bool tbReadBallLimits(tbParseContext* ctx, const cJSON* object, const char* path,
                             tbSceneJoint* joint)
{
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* item;
	const float pi = 3.14159265f;
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "cone")) != NULL) {
		tbJoinKey(keyPath, path, "cone");
		float a[2];
		if (!tbReadFloats(ctx, item, keyPath, 2, &tb_positive, a)) {
			return false;
		}
		if (a[0] > pi || a[1] > pi) {
			return tbSceneFail(ctx, item, keyPath, "half angles must be in (0, pi] rad");
		}
		joint->enableCone = true;
		joint->coneAngle1 = a[0];
		joint->coneAngle2 = a[1];
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "twist_limits")) != NULL) {
		tbJoinKey(keyPath, path, "twist_limits");
		float range[2];
		if (!tbReadFloats(ctx, item, keyPath, 2, &tb_anyNumber, range)) {
			return false;
		}
		if (range[0] > range[1] || range[0] < -pi || range[1] > pi) {
			return tbSceneFail(ctx, item, keyPath, "need -pi <= lower <= upper <= pi, got %g, %g",
			                   (double)range[0], (double)range[1]);
		}
		joint->enableLimit = true;
		joint->lower = range[0];
		joint->upper = range[1];
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "friction")) != NULL) {
		tbJoinKey(keyPath, path, "friction");
		if (!tbReadFloat(ctx, item, keyPath, &tb_nonNegative, &joint->maxFrictionTorque)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "motor")) != NULL) {
		tbJoinKey(keyPath, path, "motor");
		static const char* const keys[] = {"velocity", "max_torque"};
		if (!cJSON_IsObject(item)) {
			return tbSceneFail(ctx, item, keyPath,
			                   "expected an object {\"velocity\", \"max_torque\"}, got %s",
			                   tbJsonKind(item));
		}
		if (!tbCheckKeys(ctx, item, keyPath, "a ball motor", keys, 2)) {
			return false;
		}
		char sub[TB_SCENE_PATH_SIZE];
		const cJSON* v = tbRequire(ctx, item, keyPath, "velocity");
		tbJoinKey(sub, keyPath, "velocity");
		if (v == NULL || !tbReadVec3(ctx, v, sub, &tb_anyNumber, &joint->motorVelocity)) {
			return false;
		}
		const cJSON* t = tbRequire(ctx, item, keyPath, "max_torque");
		tbJoinKey(sub, keyPath, "max_torque");
		if (t == NULL || !tbReadFloat(ctx, t, sub, &tb_nonNegative, &joint->maxMotorForce)) {
			return false;
		}
		joint->enableMotor = true;
	}
	return true;
}

static bool tbReadJoint(tbParseContext* ctx, const cJSON* object, const char* path, int index)
{
	if (!cJSON_IsObject(object)) {
		return tbSceneFail(ctx, object, path, "expected a joint object, got %s",
		                   tbJsonKind(object));
	}
	static const char* const keys[] = {
	    "name",
	    "type",
	    "body_a",
	    "body_b",
	    "collide_connected",
	    "anchor",
	    "axis",
	    "limits",
	    "motor",
	    "spring",
	    "anchor_a",
	    "anchor_b",
	    "length",
	    "min_length",
	    "max_length",
	    "twist_axis",
	    "swing_axis",
	    "cone",
	    "twist_limits",
	    "friction",
	    "spin_axis",
	    "steering",
	    "force_threshold",
	    "torque_threshold",
	};
	if (!tbCheckKeys(ctx, object, path, "a joint", keys, (int)(sizeof keys / sizeof keys[0]))) {
		return false;
	}
	tbSceneDef* def = ctx->def;
	tbSceneJoint* grown = realloc(def->joints, (size_t)(def->jointCount + 1) * sizeof *grown);
	if (grown == NULL) {
		return tbSceneFail(ctx, object, path, "out of memory");
	}
	def->joints = grown;
	tbSceneJoint* joint = def->joints + def->jointCount++;
	memset(joint, 0, sizeof *joint);
	tbSceneFormat(joint->name, sizeof joint->name, "joint%d", index);
	joint->line = tbLineOf(&ctx->lines, object);
	tbSceneFormat(joint->keyPath, sizeof joint->keyPath, "%s", path);
	joint->forceThreshold = FLT_MAX;
	joint->torqueThreshold = FLT_MAX;
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* item;
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "name")) != NULL) {
		tbJoinKey(keyPath, path, "name");
		if (!tbReadString(ctx, item, keyPath, joint->name, sizeof joint->name)) {
			return false;
		}
	}
	const cJSON* type = tbRequire(ctx, object, path, "type");
	tbJoinKey(keyPath, path, "type");
	if (type == NULL) {
		return false;
	}
	static const char* const names[tb_jointTypeCount] = {"ball",  "hinge",    "slider",
	                                                     "fixed", "distance", "wheel"};
	int kind = -1;
	for (int k = 0; k < tb_jointTypeCount && cJSON_IsString(type); ++k) {
		kind = strcmp(type->valuestring, names[k]) == 0 ? k : kind;
	}
	if (kind < 0) {
		return tbSceneFail(ctx, type, keyPath,
		                   "expected a joint type (ball, hinge, slider, fixed, distance or wheel)");
	}
	joint->type = (tbJointType)kind;
	joint->bodyA = tbJointBody(ctx, object, path, "body_a");
	if (joint->bodyA < 0) {
		return false;
	}
	joint->bodyB = tbJointBody(ctx, object, path, "body_b");
	if (joint->bodyB < 0) {
		return false;
	}
	if (joint->bodyA == joint->bodyB) {
		tbJoinKey(keyPath, path, "body_b");
		return tbSceneFail(ctx, cJSON_GetObjectItemCaseSensitive(object, "body_b"), keyPath,
		                   "the same body as body_a (\"%s\")", def->bodies[joint->bodyA].name);
	}
	if (def->bodies[joint->bodyA].type == tb_staticBody &&
	    def->bodies[joint->bodyB].type == tb_staticBody) {
		return tbSceneFail(ctx, object, path,
		                   "both bodies are static (a joint needs one that moves)");
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "collide_connected")) != NULL) {
		tbJoinKey(keyPath, path, "collide_connected");
		if (!tbReadBool(ctx, item, keyPath, &joint->collideConnected)) {
			return false;
		}
	}
	static const char* const thresholdKeys[] = {"force_threshold", "torque_threshold"};
	float* thresholds[] = {&joint->forceThreshold, &joint->torqueThreshold};
	for (int k = 0; k < 2; ++k) {
		if ((item = cJSON_GetObjectItemCaseSensitive(object, thresholdKeys[k])) != NULL) {
			tbJoinKey(keyPath, path, thresholdKeys[k]);
			if (!tbReadFloat(ctx, item, keyPath, &tb_nonNegative, thresholds[k])) {
				return false;
			}
		}
	}
	// Which keys each type takes (anything else is an error, as everywhere in the format).
	bool ball = joint->type == tb_ballJoint, wheel = joint->type == tb_wheelJoint;
	bool anchored = joint->type != tb_distanceJoint;
	bool axial = joint->type == tb_hingeJoint || joint->type == tb_sliderJoint || wheel;
	bool limited = axial;
	bool driven = axial || ball;
	bool sprung = axial || joint->type == tb_distanceJoint || ball;
	const char* only[] = {"anchor",     "axis",       "limits", "motor",        "spring",
	                      "anchor_a",   "anchor_b",   "length", "min_length",   "max_length",
	                      "twist_axis", "swing_axis", "cone",   "twist_limits", "friction",
	                      "spin_axis",  "steering"};
	bool allowed[] = {anchored,  axial,     limited,   driven,    sprung, !anchored,
	                  !anchored, !anchored, !anchored, !anchored, ball,   ball,
	                  ball,      ball,      ball,      wheel,     wheel};
	for (int k = 0; k < (int)(sizeof only / sizeof only[0]); ++k) {
		if (!allowed[k] && (item = cJSON_GetObjectItemCaseSensitive(object, only[k])) != NULL) {
			tbJoinKey(keyPath, path, only[k]);
			return tbSceneFail(ctx, item, keyPath, "a %s joint has no %s", names[kind], only[k]);
		}
	}
	if (anchored && !tbReadJointVec(ctx, object, path, "anchor", &joint->anchor)) {
		return false;
	}
	if (ball) {
		joint->twistAxis = (vec3s){{0.0f, 0.0f, 1.0f}};
		joint->swingAxis = (vec3s){{1.0f, 0.0f, 0.0f}};
		if (!tbReadJointAxis(ctx, object, path, "twist_axis", &joint->twistAxis) ||
		    !tbReadJointAxis(ctx, object, path, "swing_axis", &joint->swingAxis) ||
		    !tbReadBallLimits(ctx, object, path, joint)) {
			return false;
		}
	}
	if (wheel) {
		// The suspension axis is `axis` ((0, 1, 0) when not given), the axle `spin_axis`.
		joint->axis = (vec3s){{0.0f, 1.0f, 0.0f}};
		joint->swingAxis = (vec3s){{0.0f, 0.0f, 1.0f}};
		if (!tbReadJointAxis(ctx, object, path, "axis", &joint->axis) ||
		    !tbReadJointAxis(ctx, object, path, "spin_axis", &joint->swingAxis)) {
			return false;
		}
		if ((item = cJSON_GetObjectItemCaseSensitive(object, "steering")) != NULL) {
			tbJoinKey(keyPath, path, "steering");
			if (!tbReadFloat(ctx, item, keyPath, &tb_anyNumber, &joint->steering)) {
				return false;
			}
		}
		// The wheel's default spring (tbDefaultWheelJointDef) unless "spring" says otherwise.
		tbWheelJointDef defaults = tbDefaultWheelJointDef();
		joint->enableSpring = defaults.enableSpring;
		joint->hertz = defaults.hertz;
		joint->dampingRatio = defaults.dampingRatio;
	}
	if (axial && !wheel) {
		const cJSON* axisItem = cJSON_GetObjectItemCaseSensitive(object, "axis");
		if (!tbReadJointVec(ctx, object, path, "axis", &joint->axis)) {
			return false;
		}
		double x = joint->axis.x, y = joint->axis.y, z = joint->axis.z;
		double len = sqrt(x * x + y * y + z * z);
		if (!(len > 0.0) || !isfinite(len)) {
			tbJoinKey(keyPath, path, "axis");
			return tbSceneFail(ctx, axisItem, keyPath, "a zero axis (give a direction)");
		}
		joint->axis = (vec3s){{(float)(x / len), (float)(y / len), (float)(z / len)}};
	}
	if (limited && (item = cJSON_GetObjectItemCaseSensitive(object, "limits")) != NULL) {
		tbJoinKey(keyPath, path, "limits");
		float range[2];
		if (!tbReadFloats(ctx, item, keyPath, 2, &tb_anyNumber, range)) {
			return false;
		}
		if (range[0] > range[1]) {
			return tbSceneFail(ctx, item, keyPath, "lower %g > upper %g", (double)range[0],
			                   (double)range[1]);
		}
		joint->enableLimit = true;
		joint->lower = range[0];
		joint->upper = range[1];
	}
	if (driven && !ball && (item = cJSON_GetObjectItemCaseSensitive(object, "motor")) != NULL) {
		tbJoinKey(keyPath, path, "motor");
		if (!tbReadMotor(ctx, item, keyPath,
		                 joint->type == tb_sliderJoint ? "max_force" : "max_torque", joint)) {
			return false;
		}
	}
	if (sprung && (item = cJSON_GetObjectItemCaseSensitive(object, "spring")) != NULL) {
		tbJoinKey(keyPath, path, "spring");
		if (!tbReadSpring(ctx, item, keyPath, joint)) {
			return false;
		}
	}
	if (!anchored) {
		if (!tbReadJointVec(ctx, object, path, "anchor_a", &joint->anchorA) ||
		    !tbReadJointVec(ctx, object, path, "anchor_b", &joint->anchorB)) {
			return false;
		}
		static const char* const lengthKeys[] = {"length", "min_length", "max_length"};
		float* targets[] = {&joint->length, &joint->lower, &joint->upper};
		bool given[3] = {false, false, false};
		for (int k = 0; k < 3; ++k) {
			if ((item = cJSON_GetObjectItemCaseSensitive(object, lengthKeys[k])) != NULL) {
				tbJoinKey(keyPath, path, lengthKeys[k]);
				if (!tbReadFloat(ctx, item, keyPath, k == 0 ? &tb_positive : &tb_nonNegative,
				                 targets[k])) {
					return false;
				}
				given[k] = true;
			}
		}
		vec3s d = glms_vec3_sub(joint->anchorB, joint->anchorA);
		float start = glms_vec3_norm(d);
		if (!given[0]) {
			joint->length = start;
		}
		if (given[1] || given[2]) {
			// A range: a missing end is the rest length (a rope: max_length alone).
			joint->enableLimit = true;
			joint->lower = given[1] ? joint->lower : 0.0f;
			joint->upper = given[2] ? joint->upper : joint->length;
			if (joint->lower > joint->upper) {
				item = cJSON_GetObjectItemCaseSensitive(object, "min_length");
				tbJoinKey(keyPath, path, "min_length");
				return tbSceneFail(ctx, item, keyPath, "min_length %g > max_length %g",
				                   (double)joint->lower, (double)joint->upper);
			}
		}
	}
	return true;
}

bool tbReadJoints(tbParseContext* ctx, const cJSON* list)
{
	if (!cJSON_IsArray(list)) {
		return tbSceneFail(ctx, list, "joints", "expected an array, got %s", tbJsonKind(list));
	}
	int i = 0;
	for (const cJSON* e = list->child; e != NULL; e = e->next, ++i) {
		char path[TB_SCENE_PATH_SIZE];
		tbJoinIndex(path, "joints", i);
		if (!tbReadJoint(ctx, e, path, i)) {
			return false;
		}
	}
	return true;
}

bool tbBuildSceneJoints(const tbSceneDef* d, tbScene* scene, tbSceneError* error)
{
	if (d->jointCount == 0) {
		return true;
	}
	scene->jointIds = calloc((size_t)d->jointCount, sizeof(tbJointId));
	if (scene->jointIds == NULL) {
		tbSceneSetError(error, d->fileName, 0, "", "out of memory");
		return false;
	}
	for (int i = 0; i < d->jointCount; ++i) {
		const tbSceneJoint* j = d->joints + i;
		tbBodyId a = scene->bodyIds[j->bodyA], b = scene->bodyIds[j->bodyB];
		tbJointId id = tb_nullJointId;
		tbClearLastError();
		switch (j->type) {
		case tb_ballJoint: {
			tbBallJointDef def = tbDefaultBallJointDef();
			def.bodyIdA = a;
			def.bodyIdB = b;
			def.anchor = j->anchor;
			def.twistAxis = j->twistAxis;
			def.swingAxis = j->swingAxis;
			def.enableCone = j->enableCone;
			def.coneAngle1 = j->coneAngle1;
			def.coneAngle2 = j->coneAngle2;
			def.enableTwistLimit = j->enableLimit;
			def.lowerTwist = j->lower;
			def.upperTwist = j->upper;
			def.enableSpring = j->enableSpring;
			def.hertz = j->hertz;
			def.dampingRatio = j->dampingRatio;
			def.enableMotor = j->enableMotor;
			def.motorVelocity = j->motorVelocity;
			def.maxMotorTorque = j->maxMotorForce;
			def.maxFrictionTorque = j->maxFrictionTorque;
			def.collideConnected = j->collideConnected;
			def.forceThreshold = j->forceThreshold;
			def.torqueThreshold = j->torqueThreshold;
			id = tbCreateBallJoint(scene->worldId, &def);
			break;
		}
		case tb_wheelJoint: {
			tbWheelJointDef def = tbDefaultWheelJointDef();
			def.bodyIdA = a;
			def.bodyIdB = b;
			def.anchor = j->anchor;
			def.suspensionAxis = j->axis;
			def.spinAxis = j->swingAxis;
			def.enableSpring = j->enableSpring;
			def.hertz = j->hertz;
			def.dampingRatio = j->dampingRatio;
			def.enableLimit = j->enableLimit;
			def.lowerTranslation = j->lower;
			def.upperTranslation = j->upper;
			def.enableMotor = j->enableMotor;
			def.motorSpeed = j->motorSpeed;
			def.maxMotorTorque = j->maxMotorForce;
			def.steeringAngle = j->steering;
			def.collideConnected = j->collideConnected;
			def.forceThreshold = j->forceThreshold;
			def.torqueThreshold = j->torqueThreshold;
			id = tbCreateWheelJoint(scene->worldId, &def);
			break;
		}
		case tb_hingeJoint: {
			tbHingeJointDef def = tbDefaultHingeJointDef();
			def.bodyIdA = a;
			def.bodyIdB = b;
			def.anchor = j->anchor;
			def.axis = j->axis;
			def.enableLimit = j->enableLimit;
			def.lowerAngle = j->lower;
			def.upperAngle = j->upper;
			def.enableMotor = j->enableMotor;
			def.motorSpeed = j->motorSpeed;
			def.maxMotorTorque = j->maxMotorForce;
			def.enableSpring = j->enableSpring;
			def.hertz = j->hertz;
			def.dampingRatio = j->dampingRatio;
			def.collideConnected = j->collideConnected;
			def.forceThreshold = j->forceThreshold;
			def.torqueThreshold = j->torqueThreshold;
			id = tbCreateHingeJoint(scene->worldId, &def);
			break;
		}
		case tb_sliderJoint: {
			tbSliderJointDef def = tbDefaultSliderJointDef();
			def.bodyIdA = a;
			def.bodyIdB = b;
			def.anchor = j->anchor;
			def.axis = j->axis;
			def.enableLimit = j->enableLimit;
			def.lowerTranslation = j->lower;
			def.upperTranslation = j->upper;
			def.enableMotor = j->enableMotor;
			def.motorSpeed = j->motorSpeed;
			def.maxMotorForce = j->maxMotorForce;
			def.enableSpring = j->enableSpring;
			def.hertz = j->hertz;
			def.dampingRatio = j->dampingRatio;
			def.collideConnected = j->collideConnected;
			def.forceThreshold = j->forceThreshold;
			def.torqueThreshold = j->torqueThreshold;
			id = tbCreateSliderJoint(scene->worldId, &def);
			break;
		}
		case tb_fixedJoint: {
			tbFixedJointDef def = tbDefaultFixedJointDef();
			def.bodyIdA = a;
			def.bodyIdB = b;
			def.anchor = j->anchor;
			def.collideConnected = j->collideConnected;
			def.forceThreshold = j->forceThreshold;
			def.torqueThreshold = j->torqueThreshold;
			id = tbCreateFixedJoint(scene->worldId, &def);
			break;
		}
		case tb_distanceJoint:
		default: {
			tbDistanceJointDef def = tbDefaultDistanceJointDef();
			def.bodyIdA = a;
			def.bodyIdB = b;
			def.anchorA = j->anchorA;
			def.anchorB = j->anchorB;
			def.length = j->length;
			def.enableLimit = j->enableLimit;
			def.minLength = j->lower;
			def.maxLength = j->upper;
			def.enableSpring = j->enableSpring;
			def.hertz = j->hertz;
			def.dampingRatio = j->dampingRatio;
			def.collideConnected = j->collideConnected;
			def.forceThreshold = j->forceThreshold;
			def.torqueThreshold = j->torqueThreshold;
			id = tbCreateDistanceJoint(scene->worldId, &def);
			break;
		}
		}
		if (TB_IS_NULL(id)) {
			tbSceneSetError(error, d->fileName, j->line, j->keyPath, "joint '%s': %s", j->name,
			                tbGetLastError());
			return false;
		}
		scene->jointIds[i] = id;
	}
	return true;
}
