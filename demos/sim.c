// The demo's simulation: built-in scenes and scene files into a world, the fixed-rate step, the
// mouse spring, thrown boxes, the energy history and the headless `tumble run` summary.
// opendir/readdir are POSIX, not C11.
#define _POSIX_C_SOURCE 200809L

#include "sim.h"

#include "joint_scenes.h"
#include "material_scenes.h"
#include "mover_scenes.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------------
// Scene list

static const char* const s_builtinNames[dm_builtinCount] = {
    "falling_boxes", "shapes", "bridge", "chain", "ragdoll", "door", "car", "materials", "mover"};

// The picker's order: falling boxes (key 1), the joint, materials and mover scenes (keys 2 to 8),
// then the bundled scene files, then the shapes scene.
static const int s_builtinsFirst[] = {dm_builtinFallingBoxes, dm_builtinBridge, dm_builtinChain,
                                      dm_builtinRagdoll,      dm_builtinDoor,   dm_builtinCar,
                                      dm_builtinMaterials,    dm_builtinMover};
static const int s_builtinsLast[] = {dm_builtinShapes};

static int dmCompareEntries(const void* a, const void* b)
{
	return strcmp(((const dmSceneEntry*)a)->name, ((const dmSceneEntry*)b)->name);
}

static void dmBuiltinEntry(dmSceneEntry* entry, int which)
{
	memset(entry, 0, sizeof *entry);
	snprintf(entry->name, sizeof entry->name, "%s", s_builtinNames[which]);
	entry->builtin = which;
}

int dmListScenes(dmSceneEntry* entries, int capacity)
{
	if (capacity < dm_builtinCount) {
		return 0;
	}
	int count = 0;
	for (size_t i = 0; i < sizeof s_builtinsFirst / sizeof s_builtinsFirst[0]; ++i) {
		dmBuiltinEntry(entries + count++, s_builtinsFirst[i]);
	}
	int firstFile = count;
	capacity -= (int)(sizeof s_builtinsLast / sizeof s_builtinsLast[0]);
	const char* dirs[4];
	int dirCount = tbGetBundledSceneDirs(dirs, 4);
	for (int d = 0; d < dirCount; ++d) {
		DIR* dir = opendir(dirs[d]);
		if (dir == NULL) {
			continue;
		}
		struct dirent* e;
		while ((e = readdir(dir)) != NULL && count < capacity) {
			size_t n = strlen(e->d_name);
			if (n <= 5 || n - 5 >= sizeof entries[0].name ||
			    strcmp(e->d_name + n - 5, ".json") != 0) {
				continue;
			}
			dmSceneEntry entry = {0};
			memcpy(entry.name, e->d_name, n - 5);
			snprintf(entry.path, sizeof entry.path, "%s/%s", dirs[d], e->d_name);
			// An earlier directory (the source tree) wins over the installed copy; a built-in
			// scene of the same name wins over both.
			bool seen = false;
			for (int k = 0; k < dm_builtinCount && !seen; ++k) {
				seen = strcmp(s_builtinNames[k], entry.name) == 0;
			}
			for (int k = 0; k < count && !seen; ++k) {
				seen = strcmp(entries[k].name, entry.name) == 0;
			}
			if (!seen) {
				entries[count++] = entry;
			}
		}
		closedir(dir);
	}
	qsort(entries + firstFile, (size_t)(count - firstFile), sizeof *entries, dmCompareEntries);
	for (size_t i = 0; i < sizeof s_builtinsLast / sizeof s_builtinsLast[0]; ++i) {
		dmBuiltinEntry(entries + count++, s_builtinsLast[i]);
	}
	return count;
}

bool dmFindSceneEntry(const char* nameOrPath, dmSceneEntry* entry, char* error, int errorSize)
{
	memset(entry, 0, sizeof *entry);
	for (int i = 0; i < dm_builtinCount; ++i) {
		if (strcmp(nameOrPath, s_builtinNames[i]) == 0) {
			snprintf(entry->name, sizeof entry->name, "%s", s_builtinNames[i]);
			entry->builtin = i;
			return true;
		}
	}
	if (tbFindScene(nameOrPath, entry->path, sizeof entry->path)) {
		// The name shown is the file's base name without ".json".
		const char* slash = strrchr(entry->path, '/');
		const char* base = slash != NULL ? slash + 1 : entry->path;
		size_t n = strlen(base);
		n = n > 5 && strcmp(base + n - 5, ".json") == 0 ? n - 5 : n;
		n = n < sizeof entry->name - 1 ? n : sizeof entry->name - 1;
		memcpy(entry->name, base, n);
		entry->name[n] = '\0';
		return true;
	}
	snprintf(error, (size_t)errorSize, "no scene file or bundled scene named '%s'", nameOrPath);
	return false;
}

// ---------------------------------------------------------------------------------------------
// Building

bool dmSim_AddBody(dmSim* sim, tbBodyId id)
{
	if (TB_IS_NULL(id)) {
		return false;
	}
	if (sim->bodyCount == sim->bodyCapacity) {
		int capacity = sim->bodyCapacity > 0 ? 2 * sim->bodyCapacity : 64;
		tbBodyId* bodies = realloc(sim->bodies, sizeof *bodies * (size_t)capacity);
		if (bodies == NULL) {
			return false;
		}
		sim->bodies = bodies;
		vec3s* start = realloc(sim->startPosition, sizeof *start * (size_t)capacity);
		if (start == NULL) {
			return false;
		}
		sim->startPosition = start;
		sim->bodyCapacity = capacity;
	}
	sim->bodies[sim->bodyCount] = id;
	sim->startPosition[sim->bodyCount] = tbBody_GetPosition(id);
	++sim->bodyCount;
	return true;
}

bool dmSim_AddJoint(dmSim* sim, tbJointId id, vec3s anchor)
{
	if (TB_IS_NULL(id)) {
		return false;
	}
	if (sim->jointCount == sim->jointCapacity) {
		int capacity = sim->jointCapacity > 0 ? 2 * sim->jointCapacity : 32;
		dmJointRecord* joints = realloc(sim->joints, sizeof *joints * (size_t)capacity);
		if (joints == NULL) {
			return false;
		}
		sim->joints = joints;
		sim->jointCapacity = capacity;
	}
	dmJointRecord* r = sim->joints + sim->jointCount++;
	r->id = id;
	r->localA = tbInvTransformPoint(tbBody_GetTransform(tbJoint_GetBodyA(id)), anchor);
	r->localB = tbInvTransformPoint(tbBody_GetTransform(tbJoint_GetBodyB(id)), anchor);
	return true;
}

tbBodyId dmSim_CreateBody(dmSim* sim, const tbBodyDef* bodyDef, const tbShapeDef* shapeDef,
                          const tbGeometry* shape, tbShapeId* shapeId)
{
	tbBodyId body = tbCreateBody(sim->worldId, bodyDef);
	if (TB_IS_NULL(body)) {
		return tb_nullBodyId;
	}
	tbShapeId id = tbCreateShape(body, shapeDef, shape);
	if (TB_IS_NULL(id) || !dmSim_AddBody(sim, body)) {
		return tb_nullBodyId;
	}
	if (shapeId != NULL) {
		*shapeId = id;
	}
	return body;
}

static bool dmAddSimpleBody(dmSim* sim, tbBodyType type, vec3s position, versors rotation,
                            const tbGeometry* shape)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	def.rotation = rotation;
	tbShapeDef shapeDef = tbDefaultShapeDef();
	return !TB_IS_NULL(dmSim_CreateBody(sim, &def, &shapeDef, shape, NULL));
}

// A small deterministic generator (Numerical Recipes' LCG) so that the built-in scenes are the
// same on every run and in every screenshot.
static float dmRandom(uint32_t* state)
{
	*state = *state * 1664525u + 1013904223u;
	return (float)(*state >> 8) / 16777216.0f;
}

static versors dmRandomTilt(uint32_t* state, float maxRadians)
{
	float a = maxRadians * (2.0f * dmRandom(state) - 1.0f);
	float b = maxRadians * (2.0f * dmRandom(state) - 1.0f);
	float c = 3.14159265f * dmRandom(state);
	return tbQuatFromEulerXYZ(a, c, b);
}

static bool dmBuildBuiltin(dmSim* sim, int which)
{
	if (which == dm_builtinMaterials) {
		return dmBuildMaterialScene(sim);
	}
	if (which == dm_builtinMover) {
		return dmBuildMoverScene(sim);
	}
	if (which != dm_builtinFallingBoxes && which != dm_builtinShapes) {
		return dmBuildJointScene(sim, which);
	}
	tbGeometry ground = tbMakeBox(25.0f, 0.5f, 25.0f);
	versors identity = glms_quat_identity();
	if (!dmAddSimpleBody(sim, tb_staticBody, (vec3s){{0.0f, -0.5f, 0.0f}}, identity, &ground)) {
		return false;
	}
	uint32_t seed = 12345u;
	if (which == dm_builtinFallingBoxes) {
		// Four layers of 5 x 5 boxes, tilted, dropped onto the ground: they land, tumble, pile up
		// and fall asleep within a few seconds. 1.4 m apart, so that no two start overlapping
		// (a tilted 0.8 m box spans at most 1.39 m).
		tbGeometry box = tbMakeBox(0.4f, 0.4f, 0.4f);
		for (int layer = 0; layer < 4; ++layer) {
			for (int i = 0; i < 25; ++i) {
				vec3s p = {{1.4f * (float)(i % 5 - 2) + 0.35f * (float)(layer % 2),
				            1.5f + 1.4f * (float)layer, 1.4f * (float)(i / 5 - 2)}};
				if (!dmAddSimpleBody(sim, tb_dynamicBody, p, dmRandomTilt(&seed, 0.6f), &box)) {
					return false;
				}
			}
		}
		return true;
	}
	// Every shape type: six columns of each, a hull (a hexagonal prism) among them.
	vec3s points[12];
	for (int i = 0; i < 6; ++i) {
		float phi = (float)i * 3.14159265f / 3.0f;
		points[i] = (vec3s){{0.4f * cosf(phi), 0.3f, 0.4f * sinf(phi)}};
		points[i + 6] = (vec3s){{0.4f * cosf(phi), -0.3f, 0.4f * sinf(phi)}};
	}
	if (tbBuildHull(points, 12, &sim->hull, NULL) != tb_hullOk) {
		return false;
	}
	sim->ownsHull = true;
	tbGeometry shapes[6] = {
	    tbMakeBox(0.35f, 0.35f, 0.35f), tbMakeSphere(0.4f),     tbMakeCapsule(0.25f, 0.35f),
	    tbMakeCylinder(0.35f, 0.35f),   tbMakeCone(0.4f, 0.4f), tbMakeHullShape(&sim->hull),
	};
	for (int layer = 0; layer < 5; ++layer) {
		for (int i = 0; i < 6; ++i) {
			float phi = (float)i * 3.14159265f / 3.0f + 0.5f * (float)layer;
			vec3s p = {{1.6f * cosf(phi), 1.5f + 1.2f * (float)layer, 1.6f * sinf(phi)}};
			if (!dmAddSimpleBody(sim, tb_dynamicBody, p, dmRandomTilt(&seed, 0.8f),
			                     &shapes[(i + layer) % 6])) {
				return false;
			}
		}
	}
	return true;
}

// Worker threads of every world the demo makes (--threads): a setting of the process, kept across
// scene switches and resets.
static int s_workerCount = 1;

void dmSim_SetWorkerCount(int workerCount)
{
	s_workerCount = workerCount;
}

int dmSim_GetWorkerCount(void)
{
	return s_workerCount;
}

bool dmSim_Load(dmSim* sim, const dmSceneEntry* entry, char* error, int errorSize)
{
	memset(sim, 0, sizeof *sim);
	sim->entry = *entry;
	sim->dt = 1.0f / 60.0f;
	sim->substeps = 4;
	sim->steps = 600;
	if (entry->path[0] != '\0') {
		tbSceneError sceneError;
		tbSceneDef sceneDef;
		if (!tbReadSceneFile(entry->path, &sceneDef, &sceneError)) {
			snprintf(error, (size_t)errorSize, "%s", sceneError.message);
			return false;
		}
		sceneDef.workerCount = s_workerCount;
		if (!tbBuildScene(&sceneDef, &sim->scene, &sceneError)) {
			snprintf(error, (size_t)errorSize, "%s", sceneError.message);
			return false;
		}
		sim->fromFile = true;
		sim->worldId = sim->scene.worldId;
		sim->dt = sim->scene.def.dt;
		sim->substeps = sim->scene.def.substeps;
		sim->steps = sim->scene.def.steps;
		for (int i = 0; i < sim->scene.def.bodyCount; ++i) {
			if (!dmSim_AddBody(sim, sim->scene.bodyIds[i])) {
				snprintf(error, (size_t)errorSize, "out of memory");
				dmSim_Destroy(sim);
				return false;
			}
		}
		return true;
	}
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = s_workerCount;
	sim->worldId = tbCreateWorld(&def);
	if (TB_IS_NULL(sim->worldId) || !dmBuildBuiltin(sim, entry->builtin)) {
		snprintf(error, (size_t)errorSize, "cannot build the %s scene: %s", entry->name,
		         tbGetLastError());
		dmSim_Destroy(sim);
		return false;
	}
	return true;
}

void dmSim_Destroy(dmSim* sim)
{
	if (sim->fromFile) {
		tbDestroyScene(&sim->scene); // its world too
		sim->worldId = tb_nullWorldId;
	}
	if (!TB_IS_NULL(sim->worldId)) {
		tbDestroyWorld(sim->worldId);
	}
	// The world goes first: its hull shapes point into the hull.
	if (sim->ownsHull) {
		tbDestroyHull(&sim->hull);
	}
	free(sim->bodies);
	free(sim->startPosition);
	free(sim->joints);
	memset(sim, 0, sizeof *sim);
}

bool dmSim_Reset(dmSim* sim, char* error, int errorSize)
{
	dmSceneEntry entry = sim->entry;
	bool paused = sim->paused;
	dmSim_Destroy(sim);
	bool ok = dmSim_Load(sim, &entry, error, errorSize);
	sim->paused = paused;
	return ok;
}

// ---------------------------------------------------------------------------------------------
// Stepping

static double dmNowSeconds(void)
{
	struct timespec t;
	timespec_get(&t, TIME_UTC);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

vec3s dmSim_PickPoint(const dmSim* sim)
{
	return tbTransformPoint(tbBody_GetTransform(sim->picked), sim->pickLocal);
}

// The angular frequency of the held body as a physical pendulum hanging from the held point:
// w = sqrt(g d / (k^2 + d^2)), d from the point to the centre of mass, k the radius of gyration.
static float dmPendulumOmega(const dmSim* sim, float d)
{
	float g = glms_vec3_norm(tbWorld_GetGravity(sim->worldId));
	// k^2 of the swing's axis, which may be any: the mean of the three is the typical one.
	return sqrtf(g * d / (sim->pickGyrationMean2 + d * d));
}

// The mouse spring: a critically damped spring of 4 Hz on the held point, capped so that a far
// pull cannot fling, plus critical damping of the swing about the point.
//
// The spring acts on the point, whose response to a force is that of the effective mass
// 1 / (1/m + d^2 / I), not of m: scaled by m, a body held far from its centre overshoots every step
// (the explicit force is too stiff for the step) and spins. Scaled by the smallest effective mass,
// m k_min^2 / (k_min^2 + d^2), no direction of the point responds faster than the 4 Hz asked for.
//
// Held still, the body is a pendulum about the point; the point's spring does not damp that
// swing. A damping force -2 w m (v_c - v_p) at the centre (v_c - v_p the swing's velocity) and an
// angular damping of 2 w on L damp the swing's m d^2 and I parts of its moment of inertia about
// the point together: critically, at the pendulum's own w.
static void dmApplyPickSpring(dmSim* sim)
{
	if (TB_IS_NULL(sim->picked) || !tbBody_IsValid(sim->picked)) {
		return;
	}
	const float omega = 2.0f * 3.14159265f * 4.0f, zeta = 1.0f;
	tbBodyId body = sim->picked;
	float m = tbBody_GetMass(body);
	vec3s p = dmSim_PickPoint(sim);
	vec3s com = tbBody_GetWorldCenterOfMass(body);
	vec3s r = glms_vec3_sub(p, com);
	float d2 = glms_vec3_norm2(r);
	vec3s vc = tbBody_GetLinearVelocity(body);
	vec3s vp = glms_vec3_add(vc, glms_vec3_cross(tbBody_GetAngularVelocity(body), r));
	vec3s accel = glms_vec3_sub(glms_vec3_scale(glms_vec3_sub(sim->pickTarget, p), omega * omega),
	                            glms_vec3_scale(vp, 2.0f * zeta * omega));
	float maxAccel = 150.0f; // m/s^2, about 15 g
	float a = glms_vec3_norm(accel);
	if (a > maxAccel) {
		accel = glms_vec3_scale(accel, maxAccel / a);
	}
	float k2 = sim->pickGyrationMin2;
	float effectiveMass = k2 > 0.0f ? m * k2 / (k2 + d2) : m;
	// Hold against gravity too (with the whole mass), so that the body hangs at the cursor.
	vec3s force = glms_vec3_sub(glms_vec3_scale(accel, effectiveMass),
	                            glms_vec3_scale(tbWorld_GetGravity(sim->worldId), m));
	tbBody_ApplyForce(body, force, p, true);
	float w = dmPendulumOmega(sim, sqrtf(d2));
	tbBody_ApplyForceToCenter(body, glms_vec3_scale(glms_vec3_sub(vc, vp), -2.0f * w * m), true);
	tbBody_SetAngularDamping(body, 2.0f * w);
}

void dmSim_Energy(const dmSim* sim, float* kinetic, vec3s* momentum)
{
	float e = 0.0f;
	vec3s m = {{0.0f, 0.0f, 0.0f}};
	for (int i = 0; i < sim->bodyCount; ++i) {
		tbBodyId b = sim->bodies[i];
		if (tbBody_GetType(b) != tb_dynamicBody) {
			continue;
		}
		e += tbBody_GetKineticEnergy(b);
		m = glms_vec3_add(m, glms_vec3_scale(tbBody_GetLinearVelocity(b), tbBody_GetMass(b)));
	}
	*kinetic = e;
	*momentum = m;
}

void dmSim_Step(dmSim* sim)
{
	dmApplyPickSpring(sim);
	dmJointScenes_Control(sim);
	dmMaterialScene_Control(sim);
	double t0 = dmNowSeconds();
	tbWorld_Step(sim->worldId, sim->dt, sim->substeps);
	float ms = (float)(1000.0 * (dmNowSeconds() - t0));
	dmJointScenes_Observe(sim);
	sim->stepMs = sim->stepCount == 0 ? ms : 0.9f * sim->stepMs + 0.1f * ms;
	++sim->stepCount;
	float e;
	vec3s m;
	dmSim_Energy(sim, &e, &m);
	sim->energy[sim->historyHead] = e;
	sim->momentum[sim->historyHead] = glms_vec3_norm(m);
	sim->historyHead = (sim->historyHead + 1) % DM_HISTORY;
	sim->historyCount += sim->historyCount < DM_HISTORY ? 1 : 0;
}

int dmSim_Advance(dmSim* sim, double frameSeconds)
{
	int taken = 0;
	if (sim->paused) {
		for (; sim->stepRequests > 0; --sim->stepRequests, ++taken) {
			dmSim_Step(sim);
		}
		sim->accumulator = 0.0;
		return taken;
	}
	sim->stepRequests = 0;
	sim->accumulator += frameSeconds;
	while (sim->accumulator >= (double)sim->dt && taken < 4) {
		dmSim_Step(sim);
		sim->accumulator -= (double)sim->dt;
		++taken;
	}
	// Behind by more than 4 steps: slow motion rather than a spiral of ever longer frames.
	if (sim->accumulator >= (double)sim->dt) {
		sim->accumulator = 0.0;
	}
	return taken;
}

// ---------------------------------------------------------------------------------------------
// Interaction

void dmSim_ThrowBox(dmSim* sim, vec3s origin, vec3s direction)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = tb_dynamicBody;
	def.position = glms_vec3_add(origin, glms_vec3_scale(direction, 1.0f));
	def.linearVelocity = glms_vec3_scale(direction, 18.0f);
	uint32_t seed = 777u + (uint32_t)sim->thrownCount;
	def.rotation = dmRandomTilt(&seed, 1.0f);
	def.angularVelocity = (vec3s){{2.0f * dmRandom(&seed) - 1.0f, 2.0f * dmRandom(&seed) - 1.0f,
	                               2.0f * dmRandom(&seed) - 1.0f}};
	tbBodyId body = tbCreateBody(sim->worldId, &def);
	tbGeometry box = tbMakeBox(0.3f, 0.3f, 0.3f);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	if (!TB_IS_NULL(body) && !TB_IS_NULL(tbCreateShape(body, &shapeDef, &box)) &&
	    dmSim_AddBody(sim, body)) {
		++sim->thrownCount;
	}
}

float dmSim_Pick(dmSim* sim, vec3s origin, vec3s direction, float maxDistance)
{
	dmSim_Release(sim);
	tbRayResult hit = tbWorld_CastRayClosest(
	    sim->worldId, origin, glms_vec3_scale(direction, maxDistance), tbDefaultQueryFilter());
	if (!hit.hit) {
		return -1.0f;
	}
	tbBodyId body = tbShape_GetBody(hit.shapeId);
	if (tbBody_GetType(body) != tb_dynamicBody) {
		return -1.0f;
	}
	sim->picked = body;
	sim->pickLocal = tbInvTransformPoint(tbBody_GetTransform(body), hit.point);
	sim->pickTarget = hit.point;
	// Radii of gyration from the shape's mass properties (I / m does not depend on density).
	tbGeometry geometry = tbShape_GetGeometry(hit.shapeId);
	tbMassData unit = tbComputeMass(&geometry, 1.0f, NULL);
	float ix = unit.inertia.m00, iy = unit.inertia.m11, iz = unit.inertia.m22;
	sim->pickGyrationMin2 = unit.mass > 0.0f ? fminf(ix, fminf(iy, iz)) / unit.mass : 0.0f;
	sim->pickGyrationMean2 = unit.mass > 0.0f ? (ix + iy + iz) / (3.0f * unit.mass) : 0.0f;
	// The spring sets the angular damping while the body is held (critical for its swing).
	sim->pickSavedDamping = tbBody_GetAngularDamping(body);
	tbBody_SetAwake(body, true);
	return hit.fraction * maxDistance;
}

void dmSim_Release(dmSim* sim)
{
	if (!TB_IS_NULL(sim->picked) && tbBody_IsValid(sim->picked)) {
		tbBody_SetAngularDamping(sim->picked, sim->pickSavedDamping);
	}
	sim->picked = tb_nullBodyId;
}

// ---------------------------------------------------------------------------------------------
// Headless

static int dmCompareFloats(const void* a, const void* b)
{
	float x = *(const float*)a, y = *(const float*)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

void dmSim_RunHeadless(dmSim* sim, int steps, FILE* out)
{
	float* times = malloc(sizeof *times * (size_t)(steps > 0 ? steps : 1));
	if (times == NULL) {
		fprintf(out, "tumble-demo: out of memory\n");
		return;
	}
	// No keys headless: the car drives itself (forward, then a left turn).
	sim->control.autopilot = true;
	for (int i = 0; i < steps; ++i) {
		dmJointScenes_Control(sim);
		dmMaterialScene_Control(sim);
		double t0 = dmNowSeconds();
		tbWorld_Step(sim->worldId, sim->dt, sim->substeps);
		times[i] = (float)(1000.0 * (dmNowSeconds() - t0));
		dmJointScenes_Observe(sim);
		++sim->stepCount;
	}
	qsort(times, (size_t)steps, sizeof *times, dmCompareFloats);
	float median = steps > 0 ? times[steps / 2] : 0.0f;
	float p95 = steps > 0 ? times[(int)(0.95f * (float)(steps - 1))] : 0.0f;
	float maxMs = steps > 0 ? times[steps - 1] : 0.0f;
	free(times);

	// The same fields as `tumble run --json` (docs/scene-format.md).
	bool nan = false;
	float maxSpeed = 0.0f, maxDisplacement = 0.0f;
	float lowest =
	    INFINITY; // the lowest dynamic body's centre, m: below the ground, it fell through
	vec3s angular = {{0.0f, 0.0f, 0.0f}};
	for (int i = 0; i < sim->bodyCount; ++i) {
		tbBodyId b = sim->bodies[i];
		vec3s p = tbBody_GetPosition(b);
		nan = nan || !isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z);
		if (tbBody_GetType(b) != tb_dynamicBody) {
			continue;
		}
		lowest = fminf(lowest, p.y);
		vec3s v = tbBody_GetLinearVelocity(b);
		maxSpeed = fmaxf(maxSpeed, glms_vec3_norm(v));
		maxDisplacement = fmaxf(maxDisplacement, glms_vec3_distance(p, sim->startPosition[i]));
		// About the origin: spin about the centre of mass plus the orbit of the centre of mass.
		vec3s com = tbBody_GetWorldCenterOfMass(b);
		angular = glms_vec3_add(angular, tbBody_GetAngularMomentum(b));
		angular =
		    glms_vec3_add(angular, glms_vec3_cross(com, glms_vec3_scale(v, tbBody_GetMass(b))));
	}
	float kinetic;
	vec3s momentum;
	dmSim_Energy(sim, &kinetic, &momentum);
	tbWorldCounters counters = tbWorld_GetCounters(sim->worldId);
	float maxPenetration = 0.0f;
	tbContactData* contacts = malloc(
	    sizeof *contacts * (size_t)(counters.touchingCount > 0 ? counters.touchingCount : 1));
	if (contacts != NULL) {
		int n = tbWorld_GetContactData(sim->worldId, contacts, counters.touchingCount);
		for (int i = 0; i < n; ++i) {
			for (int k = 0; k < contacts[i].manifold.pointCount; ++k) {
				maxPenetration = fmaxf(maxPenetration, -contacts[i].manifold.points[k].separation);
			}
		}
		free(contacts);
	}
	fprintf(out,
	        "%s: %d bodies, %d steps of %.4f s (%d substeps), %.3f ms/step median; %d contacts, "
	        "%d awake, kinetic energy %.4g J\n",
	        sim->entry.name, sim->bodyCount, steps, (double)sim->dt, sim->substeps, (double)median,
	        counters.touchingCount, counters.awakeBodyCount, (double)kinetic);
	char note[256];
	dmSim_DescribeScene(sim, note, sizeof note);
	if (note[0] != '\0') {
		fprintf(out, "%s: %s\n", sim->entry.name, note);
	}
	fprintf(out,
	        "{\"scene\": \"%s\", \"bodies\": %d, \"steps\": %d, \"dt\": %.6g, \"substeps\": %d, "
	        "\"ms_per_step\": {\"median\": %.4g, \"p95\": %.4g, \"max\": %.4g}, "
	        "\"contacts\": %d, \"awake\": %d, \"nan\": %s, \"max_penetration\": %.6g, "
	        "\"max_speed\": %.6g, \"max_displacement\": %.6g, \"kinetic_energy\": %.6g, "
	        "\"momentum\": [%.6g, %.6g, %.6g], \"angular_momentum\": [%.6g, %.6g, %.6g], "
	        "\"state_hash\": \"%016llx\", \"joints\": %d, \"max_joint_gap\": %.6g, "
	        "\"min_body_y\": %.6g}\n",
	        sim->entry.path[0] != '\0' ? sim->entry.path : sim->entry.name, sim->bodyCount, steps,
	        (double)sim->dt, sim->substeps, (double)median, (double)p95, (double)maxMs,
	        counters.touchingCount, counters.awakeBodyCount, nan ? "true" : "false",
	        (double)maxPenetration, (double)maxSpeed, (double)maxDisplacement, (double)kinetic,
	        (double)momentum.x, (double)momentum.y, (double)momentum.z, (double)angular.x,
	        (double)angular.y, (double)angular.z,
	        (unsigned long long)tbWorld_GetStateHash(sim->worldId), sim->jointCount,
	        (double)sim->maxJointGap, isfinite(lowest) ? (double)lowest : 0.0);
}
