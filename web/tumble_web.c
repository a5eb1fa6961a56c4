// The WebAssembly build's exports (web/tumble.js calls them): one world at a time, built body by
// body or from scene JSON, stepped, and read in bulk through float tables in wasm memory. Public
// API only.
#include <tumble/tumble.h>

#include <emscripten.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Floats per body in the pose table: position (3), rotation x, y, z, w (4), state (1: 0 static,
// 1 awake dynamic, 2 asleep dynamic, 3 kinematic).
#define TBW_POSE_FLOATS 8
// Floats per shape in the shape table: body index, shape type (tbShapeType), size a, b, c (sphere:
// radius; box: half extents; capsule, cylinder, cone: radius, half height; others: the local
// bounding box's half extents), local position (3), local rotation (4), spare (3).
#define TBW_SHAPE_FLOATS 16

typedef struct tbwState
{
	tbWorldId world;
	tbScene scene; // when the world came from scene JSON (its world is `world`)
	bool fromScene;
	tbBodyId* bodies; // in creation order: the body index of the JavaScript API
	int bodyCount, bodyCapacity;
	tbJointId* joints;
	int jointCount, jointCapacity;
	float* poses; // TBW_POSE_FLOATS per body
	int poseCapacity;
	float* states; // 13 per body (tbw_GetStates)
	int stateCapacity;
	float* shapes; // TBW_SHAPE_FLOATS per shape
	int shapeCount, shapeCapacity;
	// The body held by the mouse: a damped spring from a point on it to a target.
	int pickBody;
	vec3s pickLocal; // the held point in the body frame, m
	vec3s pickTarget;
	float energy[3]; // kinetic, potential, total, J
	float hit[7];    // the last ray hit: point (3), normal (3), fraction
	char text[2048]; // the last error, or a hash as hex
} tbwState;

static tbwState s_state = {.pickBody = -1};

static void tbwSetError(const char* what)
{
	snprintf(s_state.text, sizeof s_state.text, "%s", what);
}

// Grows a table to hold `count` items of `size` bytes; false when memory runs out.
static bool tbwReserve(void** table, int* capacity, int count, size_t size)
{
	if (count <= *capacity) {
		return true;
	}
	int grown = count + count / 2 + 16;
	void* larger = realloc(*table, size * (size_t)grown);
	if (larger == NULL) {
		return false;
	}
	*table = larger;
	*capacity = grown;
	return true;
}

static void tbwClear(void)
{
	if (s_state.fromScene) {
		tbDestroyScene(&s_state.scene);
	} else if (!TB_IS_NULL(s_state.world)) {
		tbDestroyWorld(s_state.world);
	}
	s_state.world = tb_nullWorldId;
	s_state.fromScene = false;
	s_state.bodyCount = 0;
	s_state.jointCount = 0;
	s_state.shapeCount = 0;
	s_state.pickBody = -1;
}

static bool tbwAddBodyId(tbBodyId id)
{
	if (!tbwReserve((void**)&s_state.bodies, &s_state.bodyCapacity, s_state.bodyCount + 1,
	                sizeof(tbBodyId))) {
		return false;
	}
	s_state.bodies[s_state.bodyCount++] = id;
	return true;
}

/// Destroy the current world and make an empty one: gravity (m/s^2), sleeping on or off. One
/// worker: the step runs on the calling thread (no threads in this build). Returns 1, or 0 with
/// the reason in tbw_GetText.
EMSCRIPTEN_KEEPALIVE int tbw_CreateWorld(float gx, float gy, float gz, int sleep)
{
	tbwClear();
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = (vec3s){{gx, gy, gz}};
	def.enableSleep = sleep != 0;
	def.workerCount = 1;
	s_state.world = tbCreateWorld(&def);
	if (TB_IS_NULL(s_state.world)) {
		tbwSetError(tbGetLastError());
		return 0;
	}
	return 1;
}

/// Destroy the current world and build the scene JSON `text` (docs/scene-format.md). Returns the
/// number of bodies, or -1 with the loader's message ("file:line: key: what") in tbw_GetText.
/// The scene's time step and substeps: tbw_GetSceneDt, tbw_GetSceneSubsteps.
EMSCRIPTEN_KEEPALIVE int tbw_LoadScene(const char* text, int length, const char* fileName)
{
	tbwClear();
	tbSceneDef def;
	tbSceneError error;
	if (!tbParseScene(text, (size_t)length, fileName, &def, &error)) {
		tbwSetError(error.message);
		return -1;
	}
	def.workerCount = 1;
	if (!tbBuildScene(&def, &s_state.scene, &error)) {
		tbwSetError(error.message);
		return -1;
	}
	s_state.fromScene = true;
	s_state.world = s_state.scene.worldId;
	for (int i = 0; i < s_state.scene.def.bodyCount; ++i) {
		if (!tbwAddBodyId(s_state.scene.bodyIds[i])) {
			tbwSetError("out of memory");
			tbwClear();
			return -1;
		}
	}
	return s_state.bodyCount;
}

/// The loaded scene's fixed step, s (1/60 for a world made by tbw_CreateWorld).
EMSCRIPTEN_KEEPALIVE float tbw_GetSceneDt(void)
{
	return s_state.fromScene ? s_state.scene.def.dt : 1.0f / 60.0f;
}

/// The loaded scene's substeps (4 for a world made by tbw_CreateWorld).
EMSCRIPTEN_KEEPALIVE int tbw_GetSceneSubsteps(void)
{
	return s_state.fromScene ? s_state.scene.def.substeps : TB_SCENE_DEFAULT_SUBSTEPS;
}

/// Add a body: type (0 static, 1 kinematic, 2 dynamic: tbBodyType), position (m), rotation
/// (quaternion x, y, z, w), linear (m/s) and angular (rad/s) velocity. Returns its index (the
/// order of creation), or -1 with the reason in tbw_GetText.
EMSCRIPTEN_KEEPALIVE int tbw_AddBody(int type, float px, float py, float pz, float qx, float qy,
                                     float qz, float qw, float vx, float vy, float vz, float wx,
                                     float wy, float wz)
{
	if (type < 0 || type > (int)tb_dynamicBody) {
		tbwSetError("tbw_AddBody: type must be 0 (static), 1 (kinematic) or 2 (dynamic)");
		return -1;
	}
	tbBodyDef def = tbDefaultBodyDef();
	def.type = (tbBodyType)type;
	def.position = (vec3s){{px, py, pz}};
	def.rotation = (versors){{qx, qy, qz, qw}};
	def.linearVelocity = (vec3s){{vx, vy, vz}};
	def.angularVelocity = (vec3s){{wx, wy, wz}};
	tbClearLastError();
	tbBodyId id = tbCreateBody(s_state.world, &def);
	if (TB_IS_NULL(id)) {
		tbwSetError(tbGetLastError());
		return -1;
	}
	if (!tbwAddBodyId(id)) {
		tbwSetError("out of memory");
		return -1;
	}
	return s_state.bodyCount - 1;
}

/// Attach a shape to body `body`: kind 0 sphere (a = radius), 1 box (a, b, c = half extents),
/// 2 capsule, 3 cylinder, 4 cone (a = radius, b = half height along local y); its local pose
/// (position, quaternion x, y, z, w), density (kg/m^3), friction, restitution. Returns 1, or 0
/// with the reason in tbw_GetText.
EMSCRIPTEN_KEEPALIVE int tbw_AddShape(int body, int kind, float a, float b, float c, float px,
                                      float py, float pz, float qx, float qy, float qz, float qw,
                                      float density, float friction, float restitution)
{
	if (body < 0 || body >= s_state.bodyCount) {
		tbwSetError("tbw_AddShape: no such body");
		return 0;
	}
	tbGeometry g;
	switch (kind) {
	case 0:
		g = tbMakeSphere(a);
		break;
	case 1:
		g = tbMakeBox(a, b, c);
		break;
	case 2:
		g = tbMakeCapsule(a, b);
		break;
	case 3:
		g = tbMakeCylinder(a, b);
		break;
	case 4:
		g = tbMakeCone(a, b);
		break;
	default:
		tbwSetError("tbw_AddShape: kind must be 0 to 4");
		return 0;
	}
	tbShapeDef def = tbDefaultShapeDef();
	def.localPose.p = (vec3s){{px, py, pz}};
	def.localPose.q = (versors){{qx, qy, qz, qw}};
	def.density = density;
	def.friction = friction;
	def.restitution = restitution;
	tbClearLastError();
	if (TB_IS_NULL(tbCreateShape(s_state.bodies[body], &def, &g))) {
		tbwSetError(tbGetLastError());
		return 0;
	}
	return 1;
}

/// Join bodies a and b: kind 0 ball, 1 hinge, 2 fixed; the anchor (world, m) and, for a hinge,
/// the axis (world). Returns the joint's index, or -1 with the reason in tbw_GetText.
EMSCRIPTEN_KEEPALIVE int tbw_AddJoint(int kind, int a, int b, float ax, float ay, float az,
                                      float nx, float ny, float nz)
{
	if (a < 0 || a >= s_state.bodyCount || b < 0 || b >= s_state.bodyCount) {
		tbwSetError("tbw_AddJoint: no such body");
		return -1;
	}
	vec3s anchor = {{ax, ay, az}};
	tbClearLastError();
	tbJointId id = tb_nullJointId;
	if (kind == 0) {
		tbBallJointDef def = tbDefaultBallJointDef();
		def.bodyIdA = s_state.bodies[a];
		def.bodyIdB = s_state.bodies[b];
		def.anchor = anchor;
		id = tbCreateBallJoint(s_state.world, &def);
	} else if (kind == 1) {
		tbHingeJointDef def = tbDefaultHingeJointDef();
		def.bodyIdA = s_state.bodies[a];
		def.bodyIdB = s_state.bodies[b];
		def.anchor = anchor;
		def.axis = (vec3s){{nx, ny, nz}};
		id = tbCreateHingeJoint(s_state.world, &def);
	} else if (kind == 2) {
		tbFixedJointDef def = tbDefaultFixedJointDef();
		def.bodyIdA = s_state.bodies[a];
		def.bodyIdB = s_state.bodies[b];
		def.anchor = anchor;
		id = tbCreateFixedJoint(s_state.world, &def);
	} else {
		tbwSetError("tbw_AddJoint: kind must be 0 (ball), 1 (hinge) or 2 (fixed)");
		return -1;
	}
	if (TB_IS_NULL(id)) {
		tbwSetError(tbGetLastError());
		return -1;
	}
	if (!tbwReserve((void**)&s_state.joints, &s_state.jointCapacity, s_state.jointCount + 1,
	                sizeof(tbJointId))) {
		tbwSetError("out of memory");
		return -1;
	}
	s_state.joints[s_state.jointCount++] = id;
	return s_state.jointCount - 1;
}

/// Drive a hinge joint: motor speed (rad/s) and the largest torque (N m); 0 torque turns it off.
EMSCRIPTEN_KEEPALIVE void tbw_SetHingeMotor(int joint, float speed, float maxTorque)
{
	if (joint < 0 || joint >= s_state.jointCount) {
		return;
	}
	tbJointId id = s_state.joints[joint];
	tbJoint_EnableMotor(id, maxTorque > 0.0f);
	tbJoint_SetMotorSpeed(id, speed);
	tbJoint_SetMaxMotorForce(id, maxTorque);
	tbBody_SetAwake(tbJoint_GetBodyB(id), true);
}

// The held body's spring: a critically damped spring of 4 Hz between the held point and the
// target, scaled by the body's mass, plus its weight, applied at the point (so that the body
// swings about it): F = m (w^2 (target - p) - 2 w v_p - g).
static void tbwApplyPick(void)
{
	if (s_state.pickBody < 0) {
		return;
	}
	tbBodyId id = s_state.bodies[s_state.pickBody];
	if (!tbBody_IsValid(id) || tbBody_GetType(id) != tb_dynamicBody) {
		s_state.pickBody = -1;
		return;
	}
	tbTransform xf = tbBody_GetTransform(id);
	vec3s p = glms_vec3_add(xf.p, glms_quat_rotatev(xf.q, s_state.pickLocal));
	vec3s r = glms_vec3_sub(p, tbBody_GetWorldCenterOfMass(id));
	vec3s vp = glms_vec3_add(tbBody_GetLinearVelocity(id),
	                         glms_vec3_cross(tbBody_GetAngularVelocity(id), r));
	float omega = 2.0f * 3.14159265f * 4.0f;
	float m = tbBody_GetMass(id);
	vec3s g = tbWorld_GetGravity(s_state.world);
	vec3s a = glms_vec3_sub(glms_vec3_scale(glms_vec3_sub(s_state.pickTarget, p), omega * omega),
	                        glms_vec3_scale(vp, 2.0f * omega));
	tbBody_ApplyForce(id, glms_vec3_scale(glms_vec3_sub(a, g), m), p, true);
	// Some spin damping, so that a held body does not twirl about the point for ever.
	tbBody_SetAngularVelocity(id, glms_vec3_scale(tbBody_GetAngularVelocity(id), 0.98f));
}

/// Step the world by dt seconds with `substeps` substeps (the held body's spring first).
/// Returns the step's time, ms (tbWorld_GetProfile), or -1 when the step was refused.
EMSCRIPTEN_KEEPALIVE float tbw_Step(float dt, int substeps)
{
	tbwApplyPick();
	if (!tbWorld_Step(s_state.world, dt, substeps)) {
		tbwSetError(tbGetLastError());
		return -1.0f;
	}
	return tbWorld_GetProfile(s_state.world).step;
}

/// Number of bodies (the pose table's rows).
EMSCRIPTEN_KEEPALIVE int tbw_GetBodyCount(void)
{
	return s_state.bodyCount;
}

/// Fill the pose table (TBW_POSE_FLOATS floats per body, in body index order) and return its
/// address in wasm memory, or 0 when memory runs out. Valid until the next call that adds bodies.
EMSCRIPTEN_KEEPALIVE float* tbw_GetPoses(void)
{
	int n = s_state.bodyCount;
	if (!tbwReserve((void**)&s_state.poses, &s_state.poseCapacity, n * TBW_POSE_FLOATS,
	                sizeof(float))) {
		return NULL;
	}
	for (int i = 0; i < n; ++i) {
		tbBodyId id = s_state.bodies[i];
		tbTransform xf = tbBody_GetTransform(id);
		float* row = s_state.poses + TBW_POSE_FLOATS * i;
		row[0] = xf.p.x;
		row[1] = xf.p.y;
		row[2] = xf.p.z;
		row[3] = xf.q.x;
		row[4] = xf.q.y;
		row[5] = xf.q.z;
		row[6] = xf.q.w;
		tbBodyType type = tbBody_GetType(id);
		row[7] = type == tb_staticBody      ? 0.0f
		         : type == tb_kinematicBody ? 3.0f
		         : tbBody_IsAwake(id)       ? 1.0f
		                                    : 2.0f;
	}
	return s_state.poses;
}

/// Fill the state table: 13 floats per body, in body index order: position (3), rotation x, y,
/// z, w (4), linear velocity (3), angular velocity (3): what the `tumble run` hash and CSV hold.
/// Returns its address, or 0 when memory runs out.
EMSCRIPTEN_KEEPALIVE float* tbw_GetStates(void)
{
	int n = s_state.bodyCount;
	if (!tbwReserve((void**)&s_state.states, &s_state.stateCapacity, n * 13, sizeof(float))) {
		return NULL;
	}
	for (int i = 0; i < n; ++i) {
		tbBodyId id = s_state.bodies[i];
		vec3s p = tbBody_GetPosition(id);
		versors q = tbBody_GetRotation(id);
		vec3s v = tbBody_GetLinearVelocity(id);
		vec3s w = tbBody_GetAngularVelocity(id);
		float row[13] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z};
		memcpy(s_state.states + 13 * i, row, sizeof row);
	}
	return s_state.states;
}

/// Fill the shape table (TBW_SHAPE_FLOATS floats per shape; see the top of this file) and return
/// its address; the count is tbw_GetShapeCount. Shapes do not change while a world lives, so the
/// page reads it once per world.
EMSCRIPTEN_KEEPALIVE float* tbw_GetShapes(void)
{
	s_state.shapeCount = 0;
	for (int i = 0; i < s_state.bodyCount; ++i) {
		tbBodyId body = s_state.bodies[i];
		tbShapeId ids[64];
		int count = tbBody_GetShapes(body, ids, 64);
		tbTransform bodyXf = tbBody_GetTransform(body);
		versors inverse = glms_quat_conjugate(bodyXf.q);
		for (int k = 0; k < count; ++k) {
			if (!tbwReserve((void**)&s_state.shapes, &s_state.shapeCapacity,
			                (s_state.shapeCount + 1) * TBW_SHAPE_FLOATS, sizeof(float))) {
				return NULL;
			}
			float* row = s_state.shapes + TBW_SHAPE_FLOATS * s_state.shapeCount++;
			memset(row, 0, sizeof(float) * TBW_SHAPE_FLOATS);
			tbGeometry g = tbShape_GetGeometry(ids[k]);
			tbTransform xf = tbShape_GetWorldTransform(ids[k]);
			// The local pose: the body's inverse times the shape's world frame.
			vec3s local = glms_quat_rotatev(inverse, glms_vec3_sub(xf.p, bodyXf.p));
			versors localRotation = glms_quat_mul(inverse, xf.q);
			row[0] = (float)i;
			row[1] = (float)g.type;
			if (g.type == tb_sphereShape) {
				row[2] = g.radius * g.scale.x;
			} else if (g.type == tb_boxShape) {
				row[2] = g.halfExtents.x * g.scale.x;
				row[3] = g.halfExtents.y * g.scale.y;
				row[4] = g.halfExtents.z * g.scale.z;
			} else if (g.type == tb_capsuleShape || g.type == tb_cylinderShape ||
			           g.type == tb_coneShape) {
				row[2] = g.round.radius * g.scale.x;
				row[3] = g.round.halfHeight * g.scale.y;
			} else {
				// Hulls, meshes and the rest: their box in the shape frame, drawn as a box about
				// its centre.
				tbAABB box = tbShape_GetAABB(ids[k]);
				vec3s centre = glms_vec3_scale(glms_vec3_add(box.lower, box.upper), 0.5f);
				vec3s half = glms_vec3_scale(glms_vec3_sub(box.upper, box.lower), 0.5f);
				local = glms_quat_rotatev(inverse, glms_vec3_sub(centre, bodyXf.p));
				localRotation = inverse;
				row[1] = (float)tb_boxShape;
				row[2] = half.x;
				row[3] = half.y;
				row[4] = half.z;
			}
			row[5] = local.x;
			row[6] = local.y;
			row[7] = local.z;
			row[8] = localRotation.x;
			row[9] = localRotation.y;
			row[10] = localRotation.z;
			row[11] = localRotation.w;
		}
	}
	return s_state.shapes;
}

/// Number of rows tbw_GetShapes wrote.
EMSCRIPTEN_KEEPALIVE int tbw_GetShapeCount(void)
{
	return s_state.shapeCount;
}

/// Kinetic, potential (m g h of the centres of mass against the world's gravity) and total
/// energy of the dynamic bodies, J: three floats at the returned address.
EMSCRIPTEN_KEEPALIVE float* tbw_GetEnergy(void)
{
	double kinetic = 0.0, potential = 0.0;
	vec3s g = tbWorld_GetGravity(s_state.world);
	for (int i = 0; i < s_state.bodyCount; ++i) {
		tbBodyId id = s_state.bodies[i];
		if (tbBody_GetType(id) != tb_dynamicBody) {
			continue;
		}
		kinetic += (double)tbBody_GetKineticEnergy(id);
		potential -=
		    (double)tbBody_GetMass(id) * (double)glms_vec3_dot(g, tbBody_GetWorldCenterOfMass(id));
	}
	s_state.energy[0] = (float)kinetic;
	s_state.energy[1] = (float)potential;
	s_state.energy[2] = (float)(kinetic + potential);
	return s_state.energy;
}

// FNV-1a over bytes (the `tumble run` summary's state hash).
static uint64_t tbwHashBytes(uint64_t h, const void* data, size_t size)
{
	const unsigned char* bytes = data;
	for (size_t i = 0; i < size; ++i) {
		h = (h ^ bytes[i]) * 0x100000001b3ull;
	}
	return h;
}

/// Two hashes of the world now as 16 hex digits each, "world run": tbWorld_GetStateHash, and the
/// `tumble run` summary's "state hash" (FNV-1a over every body's position, rotation, linear and
/// angular velocity bits, in creation order), which the native tool prints for the same scene.
EMSCRIPTEN_KEEPALIVE const char* tbw_GetStateHash(void)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (int i = 0; i < s_state.bodyCount; ++i) {
		tbBodyId id = s_state.bodies[i];
		vec3s p = tbBody_GetPosition(id);
		versors q = tbBody_GetRotation(id);
		vec3s v = tbBody_GetLinearVelocity(id);
		vec3s w = tbBody_GetAngularVelocity(id);
		float state[13] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z};
		h = tbwHashBytes(h, state, sizeof state);
	}
	snprintf(s_state.text, sizeof s_state.text, "%016" PRIx64 " %016" PRIx64,
	         tbWorld_GetStateHash(s_state.world), h);
	return s_state.text;
}

/// The last error message, or the last hash (tbw_GetStateHash).
EMSCRIPTEN_KEEPALIVE const char* tbw_GetText(void)
{
	return s_state.text;
}

/// Cast a ray from `o` along `d` (m; the segment o to o + d) with tbWorld_CastRayClosest. Returns
/// the index of the body hit, or -1; the hit point, normal and fraction are at tbw_GetHit.
EMSCRIPTEN_KEEPALIVE int tbw_CastRay(float ox, float oy, float oz, float dx, float dy, float dz)
{
	tbRayResult r = tbWorld_CastRayClosest(s_state.world, (vec3s){{ox, oy, oz}},
	                                       (vec3s){{dx, dy, dz}}, tbDefaultQueryFilter());
	if (!r.hit) {
		return -1;
	}
	float hit[7] = {r.point.x,  r.point.y,  r.point.z, r.normal.x,
	                r.normal.y, r.normal.z, r.fraction};
	memcpy(s_state.hit, hit, sizeof hit);
	tbBodyId body = tbShape_GetBody(r.shapeId);
	for (int i = 0; i < s_state.bodyCount; ++i) {
		if (TB_ID_EQUALS(s_state.bodies[i], body)) {
			return i;
		}
	}
	return -1;
}

/// The last ray hit: point (3), normal (3), fraction.
EMSCRIPTEN_KEEPALIVE float* tbw_GetHit(void)
{
	return s_state.hit;
}

/// Hold body `body` at the world point p (it follows tbw_MovePick's target); -1 lets go, and the
/// body keeps the velocity it has: a throw.
EMSCRIPTEN_KEEPALIVE void tbw_BeginPick(int body, float px, float py, float pz)
{
	if (body < 0 || body >= s_state.bodyCount ||
	    tbBody_GetType(s_state.bodies[body]) != tb_dynamicBody) {
		s_state.pickBody = -1;
		return;
	}
	tbTransform xf = tbBody_GetTransform(s_state.bodies[body]);
	vec3s p = {{px, py, pz}};
	s_state.pickBody = body;
	s_state.pickLocal = glms_quat_rotatev(glms_quat_conjugate(xf.q), glms_vec3_sub(p, xf.p));
	s_state.pickTarget = p;
	tbBody_SetAwake(s_state.bodies[body], true);
}

/// Move the held point's target (world, m).
EMSCRIPTEN_KEEPALIVE void tbw_MovePick(float tx, float ty, float tz)
{
	s_state.pickTarget = (vec3s){{tx, ty, tz}};
}

/// Let go of the held body.
EMSCRIPTEN_KEEPALIVE void tbw_EndPick(void)
{
	s_state.pickBody = -1;
}
