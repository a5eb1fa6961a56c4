// Scene files (shared/formats/scene.md): JSON through cJSON, checked key by key, into a scene
// definition: values, shapes, rotations, bodies, defaults and the top level.
#include "scene_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Values

const tbRange tb_anyNumber = {-(double)FLT_MAX, (double)FLT_MAX, false, ""};
// docs/ranges.md: positions within +-TB_MAX_COORDINATE.
const tbRange tb_coordinate = {-(double)TB_MAX_COORDINATE, (double)TB_MAX_COORDINATE, false,
                               " within +-1e6 m (docs/ranges.md)"};
const tbRange tb_positive = {0.0, (double)FLT_MAX, true, " > 0"};
const tbRange tb_nonNegative = {0.0, (double)FLT_MAX, false, " >= 0"};
const tbRange tb_unitInterval = {0.0, 1.0, false, " in [0, 1]"};

static bool tbInRange(double v, const tbRange* range)
{
	return isfinite(v) && (range->minOpen ? v > range->min : v >= range->min) && v <= range->max;
}

bool tbReadFloat(tbParseContext* ctx, const cJSON* item, const char* path, const tbRange* range,
                 float* out)
{
	if (!cJSON_IsNumber(item)) {
		return tbSceneFail(ctx, item, path, "expected a number%s, got %s", range->text,
		                   tbJsonKind(item));
	}
	if (!tbInRange(item->valuedouble, range)) {
		return tbSceneFail(ctx, item, path, "expected a number%s, got %g", range->text,
		                   item->valuedouble);
	}
	*out = (float)item->valuedouble;
	return true;
}

// `count` numbers in an array, each in range: positions, half extents, quaternions.
bool tbReadFloats(tbParseContext* ctx, const cJSON* item, const char* path, int count,
                  const tbRange* range, float* out)
{
	bool ok = cJSON_IsArray(item) && cJSON_GetArraySize(item) == count;
	int i = 0;
	for (const cJSON* e = ok ? item->child : NULL; e != NULL && ok; e = e->next, ++i) {
		ok = cJSON_IsNumber(e) && tbInRange(e->valuedouble, range);
		out[i] = ok ? (float)e->valuedouble : 0.0f;
	}
	if (!ok) {
		// One message for every way of getting it wrong: the user sees what is expected.
		return tbSceneFail(ctx, item, path, "expected %d numbers%s", count, range->text);
	}
	return true;
}

bool tbReadVec3(tbParseContext* ctx, const cJSON* item, const char* path, const tbRange* range,
                vec3s* out)
{
	float v[3];
	if (!tbReadFloats(ctx, item, path, 3, range, v)) {
		return false;
	}
	*out = (vec3s){{v[0], v[1], v[2]}};
	return true;
}

bool tbReadInt(tbParseContext* ctx, const cJSON* item, const char* path, int min, int max, int* out)
{
	if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) ||
	    item->valuedouble < (double)min || item->valuedouble > (double)max) {
		if (cJSON_IsNumber(item)) {
			return tbSceneFail(ctx, item, path, "expected an integer in [%d, %d], got %g", min, max,
			                   item->valuedouble);
		}
		return tbSceneFail(ctx, item, path, "expected an integer in [%d, %d], got %s", min, max,
		                   tbJsonKind(item));
	}
	*out = (int)item->valuedouble;
	return true;
}

bool tbReadBool(tbParseContext* ctx, const cJSON* item, const char* path, bool* out)
{
	if (!cJSON_IsBool(item)) {
		return tbSceneFail(ctx, item, path, "expected true or false, got %s", tbJsonKind(item));
	}
	*out = cJSON_IsTrue(item);
	return true;
}

bool tbReadString(tbParseContext* ctx, const cJSON* item, const char* path, char* out,
                  size_t outSize)
{
	if (!cJSON_IsString(item)) {
		return tbSceneFail(ctx, item, path, "expected a string, got %s", tbJsonKind(item));
	}
	if (strlen(item->valuestring) >= outSize) {
		return tbSceneFail(ctx, item, path, "longer than %d characters", (int)outSize - 1);
	}
	tbSceneFormat(out, outSize, "%s", item->valuestring);
	return true;
}

// The object's keys must all be in `allowed` and appear once.
bool tbCheckKeys(tbParseContext* ctx, const cJSON* object, const char* path, const char* what,
                 const char* const* allowed, int allowedCount)
{
	if (!cJSON_IsObject(object)) {
		return tbSceneFail(ctx, object, path, "expected an object, got %s", tbJsonKind(object));
	}
	for (const cJSON* child = object->child; child != NULL; child = child->next) {
		char childPath[TB_SCENE_PATH_SIZE];
		tbJoinKey(childPath, path, child->string);
		bool known = false;
		for (int i = 0; i < allowedCount && !known; ++i) {
			known = strcmp(child->string, allowed[i]) == 0;
		}
		if (!known) {
			char list[256];
			size_t used = 0;
			list[0] = '\0';
			for (int i = 0; i < allowedCount && used < sizeof list; ++i) {
				int n = tbSceneFormat(list + used, sizeof list - used, "%s%s", i > 0 ? ", " : "",
				                      allowed[i]);
				used += n > 0 ? (size_t)n : 0;
			}
			return tbSceneFail(ctx, child, childPath, "unknown key '%s'%s%s (expected %s)",
			                   child->string, what[0] != '\0' ? " for " : "", what, list);
		}
		for (const cJSON* earlier = object->child; earlier != child; earlier = earlier->next) {
			if (strcmp(earlier->string, child->string) == 0) {
				return tbSceneFail(ctx, child, childPath, "duplicate key (first at line %d)",
				                   tbLineOf(&ctx->lines, earlier));
			}
		}
	}
	return true;
}

const cJSON* tbRequire(tbParseContext* ctx, const cJSON* object, const char* path, const char* key)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
	if (item == NULL) {
		tbSceneFail(ctx, object, path, "missing key '%s'", key);
	}
	return item;
}

// ---------------------------------------------------------------------------------------------
// Shapes and rotations

static bool tbAddHull(tbParseContext* ctx, const cJSON* points, const char* path, int* hullIndex)
{
	int count = cJSON_IsArray(points) ? cJSON_GetArraySize(points) : 0;
	if (count < 4 || count > TB_MAX_HULL_POINTS) {
		return tbSceneFail(ctx, points, path, "expected an array of 4 to %d points [x, y, z]",
		                   TB_MAX_HULL_POINTS);
	}
	vec3s* buffer = malloc(sizeof *buffer * (size_t)count);
	if (buffer == NULL) {
		return tbSceneFail(ctx, points, path, "out of memory");
	}
	int i = 0;
	for (const cJSON* p = points->child; p != NULL; p = p->next, ++i) {
		char pointPath[TB_SCENE_PATH_SIZE];
		tbJoinIndex(pointPath, path, i);
		if (!tbReadVec3(ctx, p, pointPath, &tb_anyNumber, buffer + i)) {
			free(buffer);
			return false;
		}
	}
	tbSceneDef* def = ctx->def;
	tbHull* larger = realloc(def->hulls, sizeof *larger * (size_t)(def->hullCount + 1));
	if (larger == NULL) {
		free(buffer);
		return tbSceneFail(ctx, points, path, "out of memory");
	}
	def->hulls = larger;
	tbHull* hull = def->hulls + def->hullCount;
	int badIndex = -1;
	tbHullError hullError = tbBuildHull(buffer, count, hull, &badIndex);
	free(buffer);
	if (hullError != tb_hullOk) {
		return tbSceneFail(ctx, points, path, "%s%s", tbHullErrorString(hullError),
		                   badIndex >= 0 ? " (see the point named)" : "");
	}
	if (hull->kind != tb_hullSolid) {
		static const char* const kinds[] = {"all at one point", "all on one line",
		                                    "all in one plane"};
		int kind = (int)hull->kind;
		tbDestroyHull(hull);
		return tbSceneFail(ctx, points, path, "the points span no volume (they are %s)",
		                   kinds[kind]);
	}
	*hullIndex = def->hullCount++;
	return true;
}

bool tbReadShape(tbParseContext* ctx, const cJSON* object, const char* path, tbGeometry* shape,
                 int* hullIndex)
{
	*hullIndex = -1;
	if (!cJSON_IsObject(object)) {
		return tbSceneFail(ctx, object, path, "expected a shape object, got %s",
		                   tbJsonKind(object));
	}
	char typePath[TB_SCENE_PATH_SIZE];
	tbJoinKey(typePath, path, "type");
	const cJSON* typeItem = tbRequire(ctx, object, path, "type");
	if (typeItem == NULL) {
		return false;
	}
	if (!cJSON_IsString(typeItem)) {
		return tbSceneFail(ctx, typeItem, typePath, "expected a string, got %s",
		                   tbJsonKind(typeItem));
	}
	const char* type = typeItem->valuestring;
	// Keys per shape type (scene.md "Shapes"); the first is always "type".
	static const char* const sphereKeys[] = {"type", "radius"};
	static const char* const boxKeys[] = {"type", "half_extents"};
	static const char* const roundKeys[] = {"type", "radius", "half_height"};
	static const char* const hullKeys[] = {"type", "points"};
	char keyPath[TB_SCENE_PATH_SIZE];
	if (strcmp(type, "sphere") == 0) {
		float r;
		if (!tbCheckKeys(ctx, object, path, "a sphere", sphereKeys, 2)) {
			return false;
		}
		tbJoinKey(keyPath, path, "radius");
		const cJSON* radius = tbRequire(ctx, object, path, "radius");
		if (radius == NULL || !tbReadFloat(ctx, radius, keyPath, &tb_positive, &r)) {
			return false;
		}
		*shape = tbMakeSphere(r);
	} else if (strcmp(type, "box") == 0) {
		vec3s h;
		if (!tbCheckKeys(ctx, object, path, "a box", boxKeys, 2)) {
			return false;
		}
		tbJoinKey(keyPath, path, "half_extents");
		const cJSON* half = tbRequire(ctx, object, path, "half_extents");
		if (half == NULL || !tbReadVec3(ctx, half, keyPath, &tb_positive, &h)) {
			return false;
		}
		*shape = tbMakeBox(h.x, h.y, h.z);
	} else if (strcmp(type, "capsule") == 0 || strcmp(type, "cylinder") == 0 ||
	           strcmp(type, "cone") == 0) {
		float r, hh;
		char what[16];
		tbSceneFormat(what, sizeof what, "a %s", type);
		if (!tbCheckKeys(ctx, object, path, what, roundKeys, 3)) {
			return false;
		}
		tbJoinKey(keyPath, path, "radius");
		const cJSON* radius = tbRequire(ctx, object, path, "radius");
		if (radius == NULL || !tbReadFloat(ctx, radius, keyPath, &tb_positive, &r)) {
			return false;
		}
		tbJoinKey(keyPath, path, "half_height");
		const cJSON* halfHeight = tbRequire(ctx, object, path, "half_height");
		if (halfHeight == NULL || !tbReadFloat(ctx, halfHeight, keyPath, &tb_positive, &hh)) {
			return false;
		}
		*shape = type[1] == 'a'   ? tbMakeCapsule(r, hh)
		         : type[1] == 'y' ? tbMakeCylinder(r, hh)
		                          : tbMakeCone(r, hh);
	} else if (strcmp(type, "hull") == 0) {
		if (!tbCheckKeys(ctx, object, path, "a hull", hullKeys, 2)) {
			return false;
		}
		tbJoinKey(keyPath, path, "points");
		const cJSON* points = tbRequire(ctx, object, path, "points");
		if (points == NULL || !tbAddHull(ctx, points, keyPath, hullIndex)) {
			return false;
		}
		// The pointer is set once parsing is done: the hull array may still move.
		*shape = tbMakeHullShape(NULL);
	} else if (strcmp(type, "mesh") == 0 || strcmp(type, "heightfield") == 0) {
		if (!tbReadLevelShape(ctx, object, path, type, shape)) { // scene_level.c
			return false;
		}
	} else {
		return tbSceneFail(
		    ctx, typeItem, typePath,
		    "unknown shape '%s' (expected sphere, box, capsule, cylinder, cone, hull, "
		    "mesh or heightfield)",
		    type);
	}
	char message[160];
	if (*hullIndex < 0 && !tbGeometry_Validate(shape, message, (int)sizeof message)) {
		return tbSceneFail(ctx, object, path, "%s", message);
	}
	return true;
}

bool tbReadRotation(tbParseContext* ctx, const cJSON* object, const char* path, versors* out)
{
	static const char* const keys[] = {"quat_wxyz", "euler_xyz_deg", "axis", "angle_deg"};
	if (!tbCheckKeys(ctx, object, path, "a rotation", keys, 4)) {
		return false;
	}
	const cJSON* quat = cJSON_GetObjectItemCaseSensitive(object, "quat_wxyz");
	const cJSON* euler = cJSON_GetObjectItemCaseSensitive(object, "euler_xyz_deg");
	const cJSON* axis = cJSON_GetObjectItemCaseSensitive(object, "axis");
	const cJSON* angle = cJSON_GetObjectItemCaseSensitive(object, "angle_deg");
	int forms = (quat != NULL) + (euler != NULL) + (axis != NULL || angle != NULL);
	if (forms != 1 || (axis != NULL) != (angle != NULL)) {
		return tbSceneFail(
		    ctx, object, path,
		    "expected exactly one of quat_wxyz, euler_xyz_deg, or axis with angle_deg");
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	const double degree = TB_PI_D / 180.0;
	if (quat != NULL) {
		float q[4];
		tbJoinKey(keyPath, path, "quat_wxyz");
		if (!tbReadFloats(ctx, quat, keyPath, 4, &tb_anyNumber, q)) {
			return false;
		}
		double w = (double)q[0], x = (double)q[1], y = (double)q[2], z = (double)q[3];
		double norm = sqrt(w * w + x * x + y * y + z * z);
		// A file's quaternion is written to a few digits; more than that off unit is a mistake
		// (a missing component, degrees in place of a quaternion), not rounding.
		if (fabs(norm - 1.0) > 1e-3) {
			return tbSceneFail(ctx, quat, keyPath,
			                   "expected a unit quaternion [w, x, y, z], norm is %g", norm);
		}
		*out =
		    (versors){{(float)(x / norm), (float)(y / norm), (float)(z / norm), (float)(w / norm)}};
	} else if (euler != NULL) {
		vec3s e;
		tbJoinKey(keyPath, path, "euler_xyz_deg");
		if (!tbReadVec3(ctx, euler, keyPath, &tb_anyNumber, &e)) {
			return false;
		}
		*out = tbQuatFromEulerXYZ((float)((double)e.x * degree), (float)((double)e.y * degree),
		                          (float)((double)e.z * degree));
	} else {
		vec3s a;
		float deg;
		tbJoinKey(keyPath, path, "axis");
		if (!tbReadVec3(ctx, axis, keyPath, &tb_anyNumber, &a)) {
			return false;
		}
		// In double: the norm of [1e20, 0, 0] overflows float and would give a zero axis.
		double ax = (double)a.x, ay = (double)a.y, az = (double)a.z;
		double length = sqrt(ax * ax + ay * ay + az * az);
		// Any nonzero float vector has a direction in double, even [1e-40, 0, 0].
		if (!(length > 0.0)) {
			return tbSceneFail(ctx, axis, keyPath, "expected 3 numbers, not all 0");
		}
		a = (vec3s){{(float)(ax / length), (float)(ay / length), (float)(az / length)}};
		tbJoinKey(keyPath, path, "angle_deg");
		if (!tbReadFloat(ctx, angle, keyPath, &tb_anyNumber, &deg)) {
			return false;
		}
		// The half angle's cosine and sine the same bits on every platform (glms_quatv takes
		// the C library's).
		tbCosSin half = tbComputeCosSin(0.5f * (float)((double)deg * degree));
		*out = (versors){{half.sine * a.x, half.sine * a.y, half.sine * a.z, half.cosine}};
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Bodies

tbSceneBody* tbAddBody(tbParseContext* ctx, const cJSON* where, const char* path)
{
	tbSceneDef* def = ctx->def;
	if (def->bodyCount >= TB_SCENE_MAX_BODIES) {
		tbSceneFail(ctx, where, path, "more than %d bodies", TB_SCENE_MAX_BODIES);
		return NULL;
	}
	if (def->bodyCount == ctx->bodyCapacity) {
		int capacity = ctx->bodyCapacity < 64 ? 64 : 2 * ctx->bodyCapacity;
		tbSceneBody* larger = realloc(def->bodies, sizeof *larger * (size_t)capacity);
		if (larger == NULL) {
			tbSceneFail(ctx, where, path, "out of memory");
			return NULL;
		}
		def->bodies = larger;
		ctx->bodyCapacity = capacity;
	}
	tbSceneBody* body = def->bodies + def->bodyCount++;
	memset(body, 0, sizeof *body);
	body->type = tb_dynamicBody;
	body->rotation = (versors){{0.0f, 0.0f, 0.0f, 1.0f}};
	body->hullIndex = -1;
	body->density = ctx->density;
	body->friction = ctx->friction;
	body->restitution = ctx->restitution;
	body->line = tbLineOf(&ctx->lines, where);
	tbSceneFormat(body->keyPath, sizeof body->keyPath, "%s", path);
	return body;
}

// A dynamic body needs a volume (its mass comes from density or the given mass) and mass
// properties inside the supported range (docs/ranges.md); say so with the shape's path.
bool tbCheckMass(tbParseContext* ctx, const cJSON* where, const char* path, const tbSceneBody* body)
{
	if (!tbCheckLevelBody(ctx, where, path, body)) {
		return false;
	}
	if (body->type != tb_dynamicBody) {
		return true;
	}
	tbGeometry shape = body->shape;
	if (body->hullIndex >= 0) {
		shape.hull = ctx->def->hulls + body->hullIndex;
	}
	// The world is given density = mass / (mass at density 1) when a mass is given: check that.
	tbMassError massError = tb_massOk;
	tbMassData unit = tbComputeMass(&shape, 1.0f, &massError);
	if (massError != tb_massOk) {
		return tbSceneFail(ctx, where, path, "a dynamic body needs a finite mass > 0: %s",
		                   tbMassErrorString(massError));
	}
	double scale =
	    body->mass > 0.0f ? (double)body->mass / (double)unit.mass : (double)body->density;
	tbMassData mass = unit;
	mass.mass = (float)((double)unit.mass * scale);
	mass.inertia = glms_mat3_scale(unit.inertia, (float)scale);
	mass.center = glms_vec3_zero();
	char message[160];
	if (!(scale <= (double)FLT_MAX) || !tbMassData_IsValid(&mass, message, (int)sizeof message)) {
		if (!(scale <= (double)FLT_MAX)) {
			tbSceneFormat(message, sizeof message, "density %g kg/m^3 overflows float", scale);
		}
		return tbSceneFail(ctx, where, path, "a dynamic body's mass is out of range: %s", message);
	}
	return true;
}

// "inertia" (3 principal moments, or the 9 entries of a symmetric tensor row by row, kg m^2,
// about the centre of mass in body axes) and "center_of_mass" (m, body frame): a dynamic body's
// own mass properties in place of its shapes' (docs/scene-format.md). The world checks the
// tensor when the body is built (tbBody_SetMassData).
static bool tbReadMassOverrides(tbParseContext* ctx, const cJSON* object, const char* path,
                                tbSceneBody* body)
{
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* item;
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "inertia")) != NULL) {
		tbJoinKey(keyPath, path, "inertia");
		if (body->type != tb_dynamicBody) {
			return tbSceneFail(ctx, item, keyPath, "only a dynamic body has an inertia");
		}
		float v[9];
		int count = cJSON_IsArray(item) && cJSON_GetArraySize(item) == 9 ? 9 : 3;
		if (!tbReadFloats(ctx, item, keyPath, count, count == 9 ? &tb_anyNumber : &tb_positive,
		                  v)) {
			if (count == 3) {
				tbSceneFail(ctx, item, keyPath,
				            "expected 3 principal moments > 0 or 9 numbers (a symmetric tensor, "
				            "row by row), kg m^2");
			}
			return false;
		}
		mat3s I = glms_mat3_zero();
		for (int r = 0; r < 3; ++r) {
			for (int c = 0; c < 3; ++c) {
				I.col[c].raw[r] = count == 9 ? v[3 * r + c] : (r == c ? v[r] : 0.0f);
			}
		}
		body->hasInertia = true;
		body->inertia = I;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "center_of_mass")) != NULL) {
		tbJoinKey(keyPath, path, "center_of_mass");
		if (body->type != tb_dynamicBody) {
			return tbSceneFail(ctx, item, keyPath, "only a dynamic body has a centre of mass");
		}
		if (!tbReadVec3(ctx, item, keyPath, &tb_coordinate, &body->centerOfMass)) {
			return false;
		}
		body->hasCenterOfMass = true;
	}
	return true;
}

static bool tbReadBody(tbParseContext* ctx, const cJSON* object, const char* path, int index)
{
	static const char* const keys[] = {
	    "name",
	    "type",
	    "position",
	    "rotation",
	    "linear_velocity",
	    "angular_velocity",
	    "shape",
	    "density",
	    "mass",
	    "friction",
	    "restitution",
	    "shapes",
	    "bullet",
	    "inertia",
	    "center_of_mass",
	    "rolling_resistance",
	    "tangent_velocity",
	    "group",
	};
	if (!tbCheckKeys(ctx, object, path, "a body", keys, (int)(sizeof keys / sizeof keys[0]))) {
		return false;
	}
	tbSceneBody* body = tbAddBody(ctx, object, path);
	if (body == NULL) {
		return false;
	}
	tbSceneFormat(body->name, sizeof body->name, "body%d", index);
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* item;
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "name")) != NULL) {
		tbJoinKey(keyPath, path, "name");
		if (!tbReadString(ctx, item, keyPath, body->name, sizeof body->name)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "type")) != NULL) {
		tbJoinKey(keyPath, path, "type");
		if (!cJSON_IsString(item)) {
			return tbSceneFail(ctx, item, keyPath, "expected a string, got %s", tbJsonKind(item));
		}
		if (strcmp(item->valuestring, "static") == 0) {
			body->type = tb_staticBody;
		} else if (strcmp(item->valuestring, "dynamic") == 0) {
			body->type = tb_dynamicBody;
		} else if (strcmp(item->valuestring, "kinematic") == 0) {
			body->type = tb_kinematicBody;
		} else {
			return tbSceneFail(ctx, item, keyPath,
			                   "unknown body type '%s' (expected static, dynamic or kinematic)",
			                   item->valuestring);
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "position")) != NULL) {
		tbJoinKey(keyPath, path, "position");
		if (!tbReadVec3(ctx, item, keyPath, &tb_coordinate, &body->position)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "rotation")) != NULL) {
		tbJoinKey(keyPath, path, "rotation");
		if (!tbReadRotation(ctx, item, keyPath, &body->rotation)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "bullet")) != NULL) {
		tbJoinKey(keyPath, path, "bullet");
		if (!tbReadBool(ctx, item, keyPath, &body->bullet)) {
			return false;
		}
		if (body->bullet && body->type != tb_dynamicBody) {
			return tbSceneFail(ctx, item, keyPath, "only a dynamic body can be a bullet");
		}
	}
	static const char* const velocityKeys[] = {"linear_velocity", "angular_velocity"};
	for (int k = 0; k < 2; ++k) {
		if ((item = cJSON_GetObjectItemCaseSensitive(object, velocityKeys[k])) == NULL) {
			continue;
		}
		tbJoinKey(keyPath, path, velocityKeys[k]);
		vec3s* v = k == 0 ? &body->linearVelocity : &body->angularVelocity;
		if (!tbReadVec3(ctx, item, keyPath, &tb_anyNumber, v)) {
			return false;
		}
		if (body->type == tb_staticBody && (v->x != 0.0f || v->y != 0.0f || v->z != 0.0f)) {
			return tbSceneFail(ctx, item, keyPath, "a static body cannot move (use kinematic)");
		}
	}
	// Material: mass and density only mean something for a dynamic body.
	static const char* const materialKeys[] = {"density", "mass", "friction", "restitution"};
	const tbRange* ranges[] = {&tb_positive, &tb_positive, &tb_nonNegative, &tb_unitInterval};
	float* targets[] = {&body->density, &body->mass, &body->friction, &body->restitution};
	for (int k = 0; k < 4; ++k) {
		if ((item = cJSON_GetObjectItemCaseSensitive(object, materialKeys[k])) == NULL) {
			continue;
		}
		tbJoinKey(keyPath, path, materialKeys[k]);
		if (k < 2 && body->type != tb_dynamicBody) {
			return tbSceneFail(ctx, item, keyPath, "only a dynamic body has a %s", materialKeys[k]);
		}
		if (!tbReadFloat(ctx, item, keyPath, ranges[k], targets[k])) {
			return false;
		}
	}
	// Surface and filter fields for every shape of the body (docs/materials.md).
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "rolling_resistance")) != NULL) {
		tbJoinKey(keyPath, path, "rolling_resistance");
		if (!tbReadFloat(ctx, item, keyPath, &tb_nonNegative, &body->rollingResistance)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "tangent_velocity")) != NULL) {
		tbJoinKey(keyPath, path, "tangent_velocity");
		if (!tbReadVec3(ctx, item, keyPath, &tb_anyNumber, &body->tangentVelocity)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "group")) != NULL) {
		tbJoinKey(keyPath, path, "group");
		if (!tbReadInt(ctx, item, keyPath, -1000000, 1000000, &body->groupIndex)) {
			return false;
		}
	}
	if (!tbReadMassOverrides(ctx, object, path, body)) {
		return false;
	}
	return tbReadBodyShapes(ctx, object, path, body);
}

// ---------------------------------------------------------------------------------------------
// The top level

static bool tbReadDefaults(tbParseContext* ctx, const cJSON* object)
{
	static const char* const keys[] = {"density", "friction", "restitution"};
	if (!tbCheckKeys(ctx, object, "defaults", "defaults", keys, 3)) {
		return false;
	}
	const tbRange* ranges[] = {&tb_positive, &tb_nonNegative, &tb_unitInterval};
	float* targets[] = {&ctx->density, &ctx->friction, &ctx->restitution};
	for (int k = 0; k < 3; ++k) {
		const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, keys[k]);
		char keyPath[TB_SCENE_PATH_SIZE];
		tbJoinKey(keyPath, "defaults", keys[k]);
		if (item != NULL && !tbReadFloat(ctx, item, keyPath, ranges[k], targets[k])) {
			return false;
		}
	}
	return true;
}

static bool tbReadTop(tbParseContext* ctx, const cJSON* root)
{
	static const char* const keys[] = {"description",
	                                   "gravity",
	                                   "dt",
	                                   "substeps",
	                                   "seconds",
	                                   "steps",
	                                   "sleep",
	                                   "defaults",
	                                   "bodies",
	                                   "generators",
	                                   "joints",
	                                   "continuous",
	                                   "restitution_threshold"};
	if (!cJSON_IsObject(root)) {
		return tbSceneFail(ctx, root, "", "expected a JSON object, got %s", tbJsonKind(root));
	}
	if (!tbCheckKeys(ctx, root, "", "", keys, (int)(sizeof keys / sizeof keys[0]))) {
		return false;
	}
	tbSceneDef* def = ctx->def;
	const cJSON* item;
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "description")) != NULL &&
	    !tbReadString(ctx, item, "description", def->description, sizeof def->description)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "gravity")) != NULL &&
	    !tbReadVec3(ctx, item, "gravity", &tb_anyNumber, &def->gravity)) {
		return false;
	}
	// A step over a second is no simulation; 1 s is a generous bound that still catches "60".
	static const tbRange stepRange = {0.0, 1.0, true, " in (0, 1]"};
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "dt")) != NULL &&
	    !tbReadFloat(ctx, item, "dt", &stepRange, &def->dt)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "substeps")) != NULL &&
	    !tbReadInt(ctx, item, "substeps", 1, 64, &def->substeps)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "sleep")) != NULL &&
	    !tbReadBool(ctx, item, "sleep", &def->sleep)) {
		return false;
	}
	// scene.md, Fast bodies: continuous collision against static shapes, on unless turned off.
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "continuous")) != NULL &&
	    !tbReadBool(ctx, item, "continuous", &def->continuous)) {
		return false;
	}
	// scene.md: the speed below which contacts do not bounce (tbWorldDef.restitutionThreshold).
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "restitution_threshold")) != NULL &&
	    !tbReadFloat(ctx, item, "restitution_threshold", &tb_nonNegative,
	                 &def->restitutionThreshold)) {
		return false;
	}
	float seconds = 10.0f;
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "seconds")) != NULL &&
	    !tbReadFloat(ctx, item, "seconds", &tb_positive, &seconds)) {
		return false;
	}
	double steps = ceil((double)seconds / (double)def->dt - 1e-6);
	if (steps > 1e9) {
		return tbSceneFail(ctx, item, "seconds", "%g s is more than 1e9 steps of %g s",
		                   (double)seconds, (double)def->dt);
	}
	def->steps = steps < 1.0 ? 1 : (int)steps;
	// scene.md: steps wins when both are given.
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "steps")) != NULL &&
	    !tbReadInt(ctx, item, "steps", 1, 1000000000, &def->steps)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "defaults")) != NULL &&
	    !tbReadDefaults(ctx, item)) {
		return false;
	}
	const char* lists[] = {"bodies", "generators"};
	for (int k = 0; k < 2; ++k) {
		const cJSON* list = cJSON_GetObjectItemCaseSensitive(root, lists[k]);
		if (list == NULL) {
			continue;
		}
		if (!cJSON_IsArray(list)) {
			return tbSceneFail(ctx, list, lists[k], "expected an array, got %s", tbJsonKind(list));
		}
		int i = 0;
		for (const cJSON* e = list->child; e != NULL; e = e->next, ++i) {
			char path[TB_SCENE_PATH_SIZE];
			tbJoinIndex(path, lists[k], i);
			bool ok = k == 0 ? tbReadBody(ctx, e, path, def->bodyCount)
			                 : tbReadGenerator(ctx, e, path, i);
			if (!ok) {
				return false;
			}
		}
	}
	if (def->bodyCount == 0) {
		return tbSceneFail(ctx, root, "", "no bodies (give bodies or generators)");
	}
	const cJSON* joints = cJSON_GetObjectItemCaseSensitive(root, "joints");
	return joints == NULL || tbReadJoints(ctx, joints);
}

bool tbParseScene(const char* text, size_t length, const char* fileName, tbSceneDef* def,
                  tbSceneError* error)
{
	memset(def, 0, sizeof *def);
	if (error != NULL) {
		memset(error, 0, sizeof *error);
	}
	fileName = fileName != NULL ? fileName : "scene";
	// cJSON wants the terminator inside the length to reject trailing text.
	char* buffer = malloc(length + 1);
	if (buffer == NULL) {
		tbSceneSetError(error, fileName, 0, "", "out of memory");
		return false;
	}
	memcpy(buffer, text, length);
	buffer[length] = '\0';
	if (strlen(buffer) != length) {
		int line = 1;
		for (const char* c = buffer; *c != '\0'; ++c) {
			line += *c == '\n';
		}
		tbSceneSetError(error, fileName, line, "",
		                "a NUL byte in the text (not a JSON text file?)");
		free(buffer);
		return false;
	}

	const char* end = NULL;
	cJSON* root = cJSON_ParseWithLengthOpts(buffer, length + 1, &end, 1);
	if (root == NULL) {
		size_t offset = end != NULL && end >= buffer ? (size_t)(end - buffer) : 0;
		offset = offset > length ? length : offset;
		int line = 1;
		for (size_t i = 0; i < offset; ++i) {
			line += buffer[i] == '\n';
		}
		char path[TB_SCENE_PATH_SIZE];
		tbPathAtOffset(buffer, offset, path, sizeof path);
		char near[24];
		size_t n = 0;
		for (; n + 1 < sizeof near && offset + n < length && buffer[offset + n] != '\n'; ++n) {
			near[n] = buffer[offset + n];
		}
		near[n] = '\0';
		bool blank = true;
		for (size_t i = 0; i < length && blank; ++i) {
			blank = strchr(" \t\r\n", buffer[i]) != NULL;
		}
		if (blank) {
			tbSceneSetError(error, fileName, 1, "", "empty file, expected a JSON object");
		} else if (offset >= length || near[0] == '\0') {
			tbSceneSetError(error, fileName, line, path,
			                "bad JSON: the text ends early (a missing '}', ']' or '\"'?)");
		} else {
			tbSceneSetError(error, fileName, line, path,
			                "bad JSON at '%s' (a missing or extra comma, quote or bracket?)", near);
		}
		free(buffer);
		return false;
	}

	tbParseContext ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.fileName = fileName;
	ctx.error = error;
	ctx.def = def;
	ctx.density = 1000.0f;
	ctx.friction = 0.6f;
	ctx.restitution = 0.0f;
	bool ok = tbSceneMapLines(&ctx.lines, buffer, length, root);
	if (!ok) {
		tbSceneSetError(error, fileName, 0, "", "out of memory");
	} else {
		tbSceneFormat(def->fileName, sizeof def->fileName, "%s", fileName);
		def->gravity = (vec3s){{0.0f, -9.81f, 0.0f}};
		def->dt = 1.0f / 60.0f;
		def->substeps = TB_SCENE_DEFAULT_SUBSTEPS;
		def->sleep = true;
		def->continuous = true;
		def->restitutionThreshold = tbDefaultWorldDef().restitutionThreshold;
		ok = tbReadTop(&ctx, root);
	}
	free(ctx.lines.entries);
	free(ctx.drops);
	free(ctx.dropNext);
	free(ctx.bucketHeads);
	cJSON_Delete(root);
	free(buffer);
	if (!ok) {
		tbFreeSceneDef(def);
		return false;
	}
	for (int i = 0; i < def->bodyCount; ++i) {
		if (def->bodies[i].hullIndex >= 0) {
			def->bodies[i].shape.hull = def->hulls + def->bodies[i].hullIndex;
		}
	}
	for (int i = 0; i < def->shapeCount; ++i) {
		if (def->shapes[i].hullIndex >= 0) {
			def->shapes[i].shape.hull = def->hulls + def->shapes[i].hullIndex;
		}
	}
	return true;
}

bool tbReadSceneFile(const char* path, tbSceneDef* def, tbSceneError* error)
{
	memset(def, 0, sizeof *def);
	FILE* file = fopen(path, "rb");
	if (file == NULL) {
		tbSceneSetError(error, path, 0, "", "cannot open the file");
		return false;
	}
	char* text = NULL;
	size_t length = 0, capacity = 0;
	bool ok = true;
	for (;;) {
		if (length == capacity) {
			capacity = capacity == 0 ? 65536 : 2 * capacity;
			char* larger = realloc(text, capacity);
			if (larger == NULL) {
				ok = false;
				break;
			}
			text = larger;
		}
		size_t n = fread(text + length, 1, capacity - length, file);
		length += n;
		if (n == 0) {
			break;
		}
	}
	bool readError = ferror(file) != 0;
	fclose(file);
	if (!ok || readError) {
		free(text);
		tbSceneSetError(error, path, 0, "", ok ? "read error" : "out of memory");
		return false;
	}
	ok = tbParseScene(text != NULL ? text : "", length, path, def, error);
	free(text);
	return ok;
}

void tbFreeSceneDef(tbSceneDef* def)
{
	if (def == NULL) {
		return;
	}
	for (int i = 0; i < def->hullCount; ++i) {
		tbDestroyHull(def->hulls + i);
	}
	free(def->hulls);
	tbFreeSceneLevels(def);
	free(def->bodies);
	free(def->shapes);
	free(def->joints);
	memset(def, 0, sizeof *def);
}
