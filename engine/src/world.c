// The world: registry of worlds, errors, defaults, the step loop, events and the state hash.
#define _POSIX_C_SOURCE 200809L // clock_gettime for the step's profile

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <time.h>

#include "continuous.h"

// A monotonic clock in milliseconds for the profile (never for the simulation itself).
static double tbMilliseconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static tbWorld* s_worlds[TB_MAX_WORLDS];
static uint32_t s_worldGenerations[TB_MAX_WORLDS];
static char s_lastError[256];

const char* tbGetLastError(void)
{
	return s_lastError;
}

void tbClearLastError(void)
{
	s_lastError[0] = '\0';
}

void tbSetError(const char* format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(s_lastError, sizeof s_lastError, format, args);
	va_end(args);
}

void tbGrowArray(void** array, int* capacity, int need, size_t elem)
{
	if (need <= *capacity) {
		return;
	}
	int newCapacity = *capacity > 0 ? *capacity : 16;
	while (newCapacity < need) {
		// Doubling past INT_MAX / 2 would overflow: take the need itself then.
		newCapacity = newCapacity > INT_MAX / 2 ? need : 2 * newCapacity;
	}
	*array = tbGrowAlloc(*array, (size_t)*capacity * elem, (size_t)newCapacity * elem);
	memset((char*)*array + (size_t)*capacity * elem, 0, (size_t)(newCapacity - *capacity) * elem);
	*capacity = newCapacity;
}

bool tbFiniteVec3(vec3s v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

bool tbFiniteQuat(versors q)
{
	return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w) &&
	       q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12f;
}

bool tbCoordinatesInRange(vec3s v)
{
	return fabsf(v.x) <= TB_MAX_COORDINATE && fabsf(v.y) <= TB_MAX_COORDINATE &&
	       fabsf(v.z) <= TB_MAX_COORDINATE;
}

tbWorldDef tbDefaultWorldDef(void)
{
	tbWorldDef def;
	memset(&def, 0, sizeof def);
	tbSolverDef solver = tbDefaultSolverDef();
	def.gravity = solver.gravity;
	// Measured on the stack of 20 (tests/test_world_stacking.c): with the solver's 30 Hz and one
	// iteration the stack sank 0.1 m into its soft contacts and toppled within 10 s; 60 Hz (the
	// solver caps it at a quarter of the 240 Hz substep rate) and two iterations keep it within
	// 3 cm, for twice the solve time.
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

tbWorld* tbGetWorldFromIndex(int world0)
{
	if (world0 < 0 || world0 >= TB_MAX_WORLDS) {
		return NULL;
	}
	tbWorld* w = s_worlds[world0];
	return w != NULL && w->alive ? w : NULL;
}

tbWorld* tbGetWorld(tbWorldId id, const char* caller)
{
	int index = (int)id.index1 - 1;
	tbWorld* w = tbGetWorldFromIndex(index);
	if (w == NULL || w->generation != id.generation) {
		tbSetError("%s: stale or null world id (index1 %d, generation %u)", caller, id.index1,
		           (unsigned)id.generation);
		TB_ASSERT(false && "stale or null world id");
		return NULL;
	}
	return w;
}

// Every field of a world definition, with the field named in the error (issue: a NaN
// speculative distance or a negative margin let boxes through the ground).
static bool tbCheckWorldDef(const tbWorldDef* def)
{
	if (!tbFiniteVec3(def->gravity)) {
		tbSetError("tbCreateWorld: def->gravity is NaN or Inf");
		return false;
	}
	if (def->iterations < 0 || def->iterations > TB_MAX_SOLVER_ITERATIONS) {
		tbSetError("tbCreateWorld: def->iterations must be in [1, %d] (0 means 1), got %d",
		           TB_MAX_SOLVER_ITERATIONS, def->iterations);
		return false;
	}
	if (def->relaxIterations < 0 || def->relaxIterations > TB_MAX_SOLVER_ITERATIONS) {
		tbSetError("tbCreateWorld: def->relaxIterations must be in [0, %d], got %d",
		           TB_MAX_SOLVER_ITERATIONS, def->relaxIterations);
		return false;
	}
	struct
	{
		const char* name;
		float value, min, max;
		bool minOpen;
	} fields[] = {
	    {"contactHertz", def->contactHertz, 0.0f, 1e6f, true},
	    {"contactDampingRatio", def->contactDampingRatio, 0.0f, 1e6f, false},
	    {"contactPushMaxSpeed", def->contactPushMaxSpeed, 0.0f, 1e6f, false},
	    {"restitutionThreshold", def->restitutionThreshold, 0.0f, 1e6f, false},
	    {"speculativeDistance", def->speculativeDistance, 0.0f, TB_MAX_LENGTH, false},
	    {"aabbMargin", def->aabbMargin, 0.0f, TB_MAX_LENGTH, false},
	    {"sleepThreshold", def->sleepThreshold, 0.0f, 1e6f, false},
	    {"timeToSleep", def->timeToSleep, 0.0f, 1e9f, false},
	    {"hitEventThreshold", def->hitEventThreshold, 0.0f, 1e6f, false},
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
		float v = fields[i].value;
		bool above = fields[i].minOpen ? v > fields[i].min : v >= fields[i].min;
		if (!(isfinite(v) && above && v <= fields[i].max)) {
			tbSetError("tbCreateWorld: def->%s must be finite and in %s%g, %g], got %g",
			           fields[i].name, fields[i].minOpen ? "(" : "[", (double)fields[i].min,
			           (double)fields[i].max, (double)v);
			return false;
		}
	}
	if ((int)def->integrator < 0 || (int)def->integrator >= (int)tb_integratorCount) {
		tbSetError("tbCreateWorld: def->integrator %d is not an integrator", (int)def->integrator);
		return false;
	}
	if (def->initialBodyCapacity < 0 || def->initialBodyCapacity > TB_MAX_INITIAL_CAPACITY ||
	    def->initialShapeCapacity < 0 || def->initialShapeCapacity > TB_MAX_INITIAL_CAPACITY) {
		tbSetError("tbCreateWorld: def->initialBodyCapacity and initialShapeCapacity must be in "
		           "[0, %d], got %d and %d",
		           TB_MAX_INITIAL_CAPACITY, def->initialBodyCapacity, def->initialShapeCapacity);
		return false;
	}
	return true;
}

// An initial array, or false when the allocator refuses (never dereferenced then).
static bool tbInitialArray(void** array, int* capacity, int count, size_t elem)
{
	int n = count > 0 ? count : 16;
	*array = tbTryAlloc((size_t)n * elem);
	if (*array == NULL) {
		return false;
	}
	memset(*array, 0, (size_t)n * elem);
	*capacity = n;
	return true;
}

tbWorldId tbCreateWorld(const tbWorldDef* def)
{
	tbWorldId id = tb_nullWorldId;
	if (def == NULL) {
		tbSetError("tbCreateWorld: def is null (use tbDefaultWorldDef())");
		return id;
	}
	if (!tbCheckWorldDef(def)) {
		return id;
	}
	int slot = -1;
	for (int i = 0; i < TB_MAX_WORLDS; ++i) {
		// A slot whose generation is exhausted is retired: an old id can never name a new world.
		if (s_worlds[i] == NULL && s_worldGenerations[i] < TB_RETIRED_GENERATION) {
			slot = i;
			break;
		}
	}
	if (slot < 0) {
		tbSetError("tbCreateWorld: all %d world slots are in use (or retired)", TB_MAX_WORLDS);
		return id;
	}
	tbWorld* w = tbTryAlloc(sizeof(tbWorld));
	if (w == NULL) {
		tbSetError("tbCreateWorld: out of memory (%zu bytes)", sizeof(tbWorld));
		return id;
	}
	memset(w, 0, sizeof *w);
	if (!tbInitialArray((void**)&w->bodies, &w->bodyCapacity, def->initialBodyCapacity,
	                    sizeof(tbBodySlot)) ||
	    !tbInitialArray((void**)&w->shapes, &w->shapeCapacity, def->initialShapeCapacity,
	                    sizeof(tbShapeSlot))) {
		tbFree(w->bodies, (size_t)w->bodyCapacity * sizeof(tbBodySlot));
		tbFree(w, sizeof(tbWorld));
		tbSetError("tbCreateWorld: out of memory for %d bodies and %d shapes",
		           def->initialBodyCapacity, def->initialShapeCapacity);
		return id;
	}
	w->def = *def;
	w->def.iterations = def->iterations > 0 ? def->iterations : 1;
	s_worldGenerations[slot] += 1;
	w->generation = s_worldGenerations[slot];
	w->index = slot;
	w->alive = true;
	w->freeBody = -1;
	w->freeShape = -1;
	w->freeContact = -1;
	w->freeJoint = -1;
	w->trees[0] = tbDynamicTree_Create();
	w->trees[1] = tbDynamicTree_Create();
	s_worlds[slot] = w;
	id.index1 = (uint16_t)(slot + 1);
	id.generation = w->generation;
	return id;
}

#define TB_FREE_ARRAY(ptr, cap, type)                                                              \
	do {                                                                                           \
		tbFree((ptr), (size_t)(cap) * sizeof(type));                                               \
		(ptr) = NULL;                                                                              \
	} while (0)

void tbDestroyWorld(tbWorldId worldId)
{
	tbWorld* w = tbGetWorld(worldId, "tbDestroyWorld");
	if (w == NULL) {
		return;
	}
	tbDynamicTree_Destroy(&w->trees[0]);
	tbDynamicTree_Destroy(&w->trees[1]);
	TB_FREE_ARRAY(w->bodies, w->bodyCapacity, tbBodySlot);
	TB_FREE_ARRAY(w->shapes, w->shapeCapacity, tbShapeSlot);
	TB_FREE_ARRAY(w->contacts, w->contactCapacity, tbContactSlot);
	TB_FREE_ARRAY(w->joints, w->jointCapacity, tbJointSlot);
	TB_FREE_ARRAY(w->solverJoints, w->solverJointCapacity, tbJoint);
	TB_FREE_ARRAY(w->solverJointSlots, w->solverJointCapacity, int);
	TB_FREE_ARRAY(w->pairKeys, w->pairCapacity, uint64_t);
	TB_FREE_ARRAY(w->pairValues, w->pairCapacity, int);
	TB_FREE_ARRAY(w->pairChildren, w->pairCapacity, int);
	TB_FREE_ARRAY(w->moveBuffer, w->moveCapacity, int);
	TB_FREE_ARRAY(w->solverBodies, w->solverBodyCapacity, tbRigidBody*);
	tbFree(w->solverScratchRaw, w->solverScratchBytes);
	TB_FREE_ARRAY(w->solverBodySlots, w->solverBodyCapacity, int);
	TB_FREE_ARRAY(w->solverContacts, w->solverContactCapacity, tbContact);
	TB_FREE_ARRAY(w->solverContactSlots, w->solverContactCapacity, int);
	TB_FREE_ARRAY(w->islandParent, w->islandCapacity, int);
	TB_FREE_ARRAY(w->islandSleep, w->islandCapacity, float);
	TB_FREE_ARRAY(w->islandHead, w->islandCapacity, int);
	TB_FREE_ARRAY(w->awakeBodies, w->awakeCapacity, int);
	TB_FREE_ARRAY(w->activeContacts, w->activeCapacity, int);
	TB_FREE_ARRAY(w->bodyBounds, w->bodyBoundCapacity, tbBodyBounds);
	TB_FREE_ARRAY(w->beginEvents, w->beginCapacity, tbContactBeginTouchEvent);
	TB_FREE_ARRAY(w->endEvents, w->endCapacity, tbContactEndTouchEvent);
	TB_FREE_ARRAY(w->pendingEndEvents, w->pendingEndCapacity, tbContactEndTouchEvent);
	TB_FREE_ARRAY(w->moveEvents, w->moveEventCapacity, tbBodyMoveEvent);
	tbSensor_DestroyAll(w);
	tbHitEvents_DestroyAll(w);
	TB_FREE_ARRAY(w->fastBodies, w->fastCapacity, int);
	TB_FREE_ARRAY(w->fastStarts, w->fastCapacity, tbTransform);
	int slot = w->index;
	w->alive = false;
	tbFree(w, sizeof(tbWorld));
	s_worlds[slot] = NULL;
}

bool tbWorld_IsValid(tbWorldId worldId)
{
	tbWorld* w = tbGetWorldFromIndex((int)worldId.index1 - 1);
	return w != NULL && w->generation == worldId.generation;
}

// Solve every awake body and every touching contact that has one, with the soft step.
static void tbSolve(tbWorld* w, float dt, int substeps)
{
	// The awake set: static and sleeping bodies are never visited.
	int bodyCount = w->awakeCount;
	tbGrowArray((void**)&w->solverBodies, &w->solverBodyCapacity, bodyCount, sizeof(tbRigidBody*));
	int capacity = w->solverBodyCapacity;
	// Grown in step with solverBodies (same capacity), so one counter serves them all.
	if (w->solverBodySlots == NULL || w->islandCapacity < capacity) {
		int old = w->islandCapacity;
		w->solverBodySlots = tbGrowAlloc(w->solverBodySlots, (size_t)old * sizeof(int),
		                                 (size_t)capacity * sizeof(int));
		w->islandParent =
		    tbGrowAlloc(w->islandParent, (size_t)old * sizeof(int), (size_t)capacity * sizeof(int));
		w->islandSleep = tbGrowAlloc(w->islandSleep, (size_t)old * sizeof(float),
		                             (size_t)capacity * sizeof(float));
		w->islandHead =
		    tbGrowAlloc(w->islandHead, (size_t)old * sizeof(int), (size_t)capacity * sizeof(int));
		w->islandCapacity = capacity;
	}
	for (int k = 0; k < bodyCount; ++k) {
		int i = w->awakeBodies[k];
		tbBodySlot* b = w->bodies + i;
		b->solverIndex = k;
		w->solverBodies[k] = &b->rb;
		w->solverBodySlots[k] = i;
	}
	w->solverBodyCount = bodyCount;

	int contactCount = 0, candidates = 0;
	for (int k = 0; k < w->activeCount; ++k) {
		int i = w->activeContacts[k];
		const tbContactSlot* c = w->contacts + i;
		if (!c->touching) {
			continue;
		}
		const tbBodySlot* a = w->bodies + w->shapes[c->shapeA].body;
		const tbBodySlot* b = w->bodies + w->shapes[c->shapeB].body;
		int ia = a->awakeIndex >= 0 ? a->solverIndex : TB_NULL_BODY;
		int ib = b->awakeIndex >= 0 ? b->solverIndex : TB_NULL_BODY;
		// A contact with a sleeping body that was not woken (a still kinematic body on a sleeper)
		// waits; so does one between two bodies that cannot move.
		if ((a->rb.type != tb_staticBody && ia == TB_NULL_BODY) ||
		    (b->rb.type != tb_staticBody && ib == TB_NULL_BODY)) {
			continue;
		}
		if (a->rb.type != tb_dynamicBody && b->rb.type != tb_dynamicBody) {
			continue;
		}
		if (contactCount + 1 > w->solverContactCapacity) {
			int old = w->solverContactCapacity;
			tbGrowArray((void**)&w->solverContacts, &w->solverContactCapacity, contactCount + 1,
			            sizeof(tbContact));
			w->solverContactSlots = tbGrowAlloc(w->solverContactSlots, (size_t)old * sizeof(int),
			                                    (size_t)w->solverContactCapacity * sizeof(int));
		}
		tbContact* sc = w->solverContacts + contactCount;
		*sc = tbMakeContact(ia, ib, &c->manifold, c->friction, c->restitution);
		tbContact_WarmStart(sc, w->def.enableWarmStarting ? &c->impulses : NULL);
		if (w->def.enableContactRefresh) {
			candidates += tbMarkContactRefresh(w, c, dt, sc) ? 1 : 0;
		}
		w->solverContactSlots[contactCount] = i;
		++contactCount;
	}
	w->solverContactCount = contactCount;
	if (candidates > 0) {
		tbSpreadContactRefresh(w);
	}

	tbSolverDef sd = tbDefaultSolverDef();
	sd.gravity = w->def.gravity;
	sd.substeps = substeps;
	sd.iterations = w->def.iterations;
	sd.relaxIterations = w->def.relaxIterations;
	sd.contactHertz = w->def.contactHertz;
	sd.contactDampingRatio = w->def.contactDampingRatio;
	sd.contactPushMaxSpeed = w->def.contactPushMaxSpeed;
	sd.restitutionThreshold = w->def.restitutionThreshold;
	sd.enableWarmStarting = w->def.enableWarmStarting;
	sd.integrator = w->def.integrator;
	sd.refreshContact = w->def.enableContactRefresh ? tbRefreshSolverContact : NULL;
	sd.refreshContext = w;
	// One scratch block, grown to the scene and kept (64 bytes of slack for the alignment the
	// wide records want).
	tbGatherJoints(w);
	size_t need = tbSolverScratchBytes(bodyCount, contactCount, w->solverJointCount) + 64u;
	if (need > w->solverScratchBytes) {
		size_t grown = need + need / 2u;
		tbFree(w->solverScratchRaw, w->solverScratchBytes);
		w->solverScratchRaw = tbAlloc(grown);
		w->solverScratchBytes = grown;
	}
	void* aligned = (void*)(((uintptr_t)w->solverScratchRaw + 63u) & ~(uintptr_t)63u);
	tbSolverStats stats;
	tbSolverSolve(&sd, w->solverBodies, bodyCount, w->solverContacts, contactCount, w->solverJoints,
	              w->solverJointCount, dt, aligned, &stats);
	tbScatterJoints(w);
	w->lastSubstep = dt / (float)substeps;
	for (int i = 0; i < contactCount; ++i) {
		tbContactSlot* c = w->contacts + w->solverContactSlots[i];
		c->impulses = tbContact_GetImpulses(w->solverContacts + i);
	}
	double t0 = tbMilliseconds();
	w->profile.solve = (float)(t0 - w->profileStart);
	stats.stoppedBodies = tbSolverFinish(&sd, w->solverBodies, bodyCount, dt, aligned);
	w->lastSolverStats = stats;
	if (stats.stoppedBodies > 0) {
		// Never hidden: counted in the profile and the world's counters, and said here.
		w->stoppedBodyCount += stats.stoppedBodies;
		tbSetError("tbWorld_Step: %d bodies got a NaN or Inf state and were stopped where they "
		           "were (step %d)",
		           stats.stoppedBodies, w->stepCount);
	}
	w->fastCount = 0;
	for (int i = 0; i < bodyCount; ++i) {
		int slot = w->solverBodySlots[i];
		tbBodySlot* b = w->bodies + slot;
		tbTransform start = b->xf; // the pose the step began with
		tbSyncBodyTransform(b);
		float reach = tbUpdateBodyShapes(w, slot, dt, false);
		if (w->def.enableContinuous) {
			tbContinuousCheck(w, slot, &start, reach);
		}
	}
	if (w->fastCount > 0) {
		tbSolveContinuous(w, dt);
	}
}

static void tbPushMoveEvents(tbWorld* w)
{
	// The bodies of this step's solve (in the awake set at its start; some may have just fallen
	// asleep, which the event says).
	w->moveEventCount = 0;
	tbGrowArray((void**)&w->moveEvents, &w->moveEventCapacity, w->solverBodyCount,
	            sizeof(tbBodyMoveEvent));
	for (int k = 0; k < w->solverBodyCount; ++k) {
		int i = w->solverBodySlots[k];
		tbBodySlot* b = w->bodies + i;
		tbBodyMoveEvent* e = w->moveEvents + w->moveEventCount++;
		e->transform = b->xf;
		e->bodyId = tbMakeBodyId(w, i);
		e->userData = b->userData;
		e->fellAsleep = !b->awake;
	}
}

bool tbWorld_Step(tbWorldId worldId, float timeStep, int substeps)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_Step");
	if (w == NULL) {
		return false;
	}
	if (!(isfinite(timeStep) && timeStep > 0.0f)) {
		tbSetError("tbWorld_Step: timeStep must be finite and > 0, got %g", (double)timeStep);
		return false;
	}
	if (substeps < 1) {
		tbSetError("tbWorld_Step: substeps must be >= 1, got %d", substeps);
		return false;
	}
	tbStartStepEvents(w);
	memset(&w->profile, 0, sizeof w->profile);
	// The step (docs/solver.md): pairs, manifolds (+ warm start), solve and integrate, sleep.
	double t0 = tbMilliseconds();
	if (w->liveJoints > 0) {
		tbWakeJointedBodies(w);
	}
	tbBroadPhase_UpdatePairs(w);
	double t1 = tbMilliseconds();
	tbCollide(w, timeStep);
	double t2 = tbMilliseconds();
	w->profileStart = t2;
	tbHitEvents_Prepare(w);
	tbSolve(w, timeStep, substeps);
	tbHitEvents_Finish(w);
	tbSensor_Update(w);
	double t3 = tbMilliseconds();
	if (w->def.enableSleep) {
		tbUpdateSleep(w, timeStep);
	}
	tbPushMoveEvents(w);
	double t4 = tbMilliseconds();
	w->stepCount += 1;
	tbProfile* p = &w->profile;
	p->step = (float)(t4 - t0);
	p->pairs = (float)(t1 - t0);
	p->collide = (float)(t2 - t1);
	p->integrate = (float)(t3 - t2) - p->solve;
	p->sleep = (float)(t4 - t3);
	p->awakeBodies = w->solverBodyCount;
	p->activeContacts = w->activeCount;
	p->solvedContacts = w->solverContactCount;
	p->colors = w->lastSolverStats.colorCount;
	p->overflowConstraints = w->lastSolverStats.overflowCount;
	p->simdWidth = w->lastSolverStats.simdWidth;
	p->stoppedBodies = w->lastSolverStats.stoppedBodies;
	return true;
}

tbProfile tbWorld_GetProfile(tbWorldId worldId)
{
	tbProfile p;
	memset(&p, 0, sizeof p);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetProfile");
	return w != NULL ? w->profile : p;
}

tbContactEvents tbWorld_GetContactEvents(tbWorldId worldId)
{
	tbContactEvents e;
	memset(&e, 0, sizeof e);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetContactEvents");
	if (w == NULL) {
		return e;
	}
	e.beginEvents = w->beginEvents;
	e.beginCount = w->beginCount;
	e.endEvents = w->endEvents;
	e.endCount = w->endCount;
	e.hitEvents = w->hitEvents;
	e.hitCount = w->hitCount;
	return e;
}

tbBodyEvents tbWorld_GetBodyEvents(tbWorldId worldId)
{
	tbBodyEvents e;
	memset(&e, 0, sizeof e);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetBodyEvents");
	if (w == NULL) {
		return e;
	}
	e.moveEvents = w->moveEvents;
	e.moveCount = w->moveEventCount;
	return e;
}

int tbWorld_GetContactData(tbWorldId worldId, tbContactData* data, int capacity)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetContactData");
	if (w == NULL) {
		return 0;
	}
	int n = 0;
	for (int i = 0; i < w->contactCount && n < capacity; ++i) {
		const tbContactSlot* c = w->contacts + i;
		if (c->alive && c->touching) {
			data[n++] = tbMakeContactData(w, c);
		}
	}
	return n;
}

void tbWorld_SetGravity(tbWorldId worldId, vec3s gravity)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_SetGravity");
	if (w == NULL) {
		return;
	}
	if (!tbFiniteVec3(gravity)) {
		tbSetError("tbWorld_SetGravity: gravity is NaN or Inf");
		return;
	}
	w->def.gravity = gravity;
}

vec3s tbWorld_GetGravity(tbWorldId worldId)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetGravity");
	return w != NULL ? w->def.gravity : glms_vec3_zero();
}

void tbWorld_EnableSleeping(tbWorldId worldId, bool flag)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_EnableSleeping");
	if (w == NULL) {
		return;
	}
	w->def.enableSleep = flag;
	if (!flag) {
		for (int i = 0; i < w->bodyCount; ++i) {
			if (w->bodies[i].alive && !w->bodies[i].awake) {
				tbWakeBody(w, i);
			}
		}
	}
}

tbWorldCounters tbWorld_GetCounters(tbWorldId worldId)
{
	tbWorldCounters c;
	memset(&c, 0, sizeof c);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetCounters");
	if (w == NULL) {
		return c;
	}
	c.bodyCount = w->liveBodies;
	c.shapeCount = w->liveShapes;
	c.contactCount = w->liveContacts;
	for (int i = 0; i < w->contactCount; ++i) {
		c.touchingCount += w->contacts[i].alive && w->contacts[i].touching ? 1 : 0;
	}
	for (int i = 0; i < w->bodyCount; ++i) {
		const tbBodySlot* b = w->bodies + i;
		c.awakeBodyCount += b->alive && b->awake && b->rb.type != tb_staticBody ? 1 : 0;
	}
	c.treeHeight = tbDynamicTree_GetHeight(&w->trees[1]);
	c.stepCount = w->stepCount;
	c.jointCount = w->liveJoints;
	c.stoppedBodyCount = w->stoppedBodyCount;
	return c;
}

static uint64_t tbFnv(uint64_t h, const void* data, size_t size)
{
	const unsigned char* p = data;
	for (size_t i = 0; i < size; ++i) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t tbWorld_GetStateHash(tbWorldId worldId)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetStateHash");
	uint64_t h = 14695981039346656037ull;
	if (w == NULL) {
		return h;
	}
	for (int i = 0; i < w->bodyCount; ++i) {
		const tbBodySlot* b = w->bodies + i;
		if (b->alive) {
			h = tbFnv(h, &b->rb.state.x, sizeof(vec3s));
			h = tbFnv(h, &b->rb.state.R, sizeof(mat3s));
		}
	}
	return h;
}
