// The world: the registry of worlds, creation and destruction, world settings, the state hash.
#include <limits.h>
#include <math.h>
#include <string.h>

#include "continuous.h"

static tbWorld* s_worlds[TB_MAX_WORLDS];
static uint32_t s_worldGenerations[TB_MAX_WORLDS];

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
	if (!tbIsFiniteVec3(def->gravity)) {
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
	    {"contactHertz", def->contactHertz, 0.0f, TB_MAX_CONTACT_HERTZ, true},
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
	if (def->workerCount < 1 || def->workerCount > TB_MAX_WORKERS) {
		tbSetError("tbCreateWorld: def->workerCount must be in [1, %d], got %d", TB_MAX_WORKERS,
		           def->workerCount);
		return false;
	}
	if ((def->enqueueTask == NULL) != (def->finishTask == NULL)) {
		tbSetError("tbCreateWorld: def->enqueueTask and def->finishTask must be given together "
		           "(got %s without %s)",
		           def->enqueueTask != NULL ? "enqueueTask" : "finishTask",
		           def->enqueueTask != NULL ? "finishTask" : "enqueueTask");
		return false;
	}
	return true;
}

// An initial array, or false when the allocator refuses (never dereferenced then).
static bool tbInitialArray(void** array, int* capacity, int count, size_t elem)
{
	int n = count > 0 ? count : 16;
	// Zero pages from the system: the capacity the scene never reaches is never made resident.
	*array = tbTryAllocZeroed((size_t)n * elem);
	if (*array == NULL) {
		return false;
	}
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
	w->freeLevelSat = -1;
	w->freeJoint = -1;
	size_t memoBytes = (size_t)def->workerCount * TB_LEVEL_MEMO * sizeof(tbLevelMemo);
	w->levelMemo = tbTryAlloc(memoBytes);
	if (w->levelMemo == NULL) {
		tbFree(w->bodies, (size_t)w->bodyCapacity * sizeof(tbBodySlot));
		tbFree(w->shapes, (size_t)w->shapeCapacity * sizeof(tbShapeSlot));
		s_worldGenerations[slot] -= 1;
		tbFree(w, sizeof(tbWorld));
		tbSetError("tbCreateWorld: out of memory (%zu bytes)", memoBytes);
		return id;
	}
	memset(w->levelMemo, 0, memoBytes);
	w->trees[0] = tbDynamicTree_Create();
	w->trees[1] = tbDynamicTree_Create();
	// The step's loops go to the game's job system, or to threads of the world's own, started
	// here and ended with the world (none for one worker: the step runs inline).
	w->parallel = def->enqueueTask != NULL || def->workerCount > 1;
	if (def->enqueueTask == NULL && def->workerCount > 1 &&
	    !tbTaskPool_Create(w, def->workerCount)) {
		tbDynamicTree_Destroy(&w->trees[0]);
		tbDynamicTree_Destroy(&w->trees[1]);
		tbFree(w->levelMemo, memoBytes);
		tbFree(w->bodies, (size_t)w->bodyCapacity * sizeof(tbBodySlot));
		tbFree(w->shapes, (size_t)w->shapeCapacity * sizeof(tbShapeSlot));
		s_worldGenerations[slot] -= 1;
		tbFree(w, sizeof(tbWorld));
		return id;
	}
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
	tbTaskPool_Destroy(w);
	tbDynamicTree_Destroy(&w->trees[0]);
	tbDynamicTree_Destroy(&w->trees[1]);
	TB_FREE_ARRAY(w->bodies, w->bodyCapacity, tbBodySlot);
	TB_FREE_ARRAY(w->shapes, w->shapeCapacity, tbShapeSlot);
	TB_FREE_ARRAY(w->contacts, w->contactCapacity, tbContactSlot);
	TB_FREE_ARRAY(w->contactLinks, w->contactLinkCapacity, tbContactLink);
	TB_FREE_ARRAY(w->joints, w->jointCapacity, tbJointSlot);
	TB_FREE_ARRAY(w->solverJoints, w->solverJointCapacity, tbJointBinding);
	TB_FREE_ARRAY(w->solverJointSlots, w->solverJointCapacity, int);
	TB_FREE_ARRAY(w->pairKeys, w->pairCapacity, uint64_t);
	TB_FREE_ARRAY(w->pairValues, w->pairCapacity, int);
	TB_FREE_ARRAY(w->pairChildren, w->pairCapacity, int);
	TB_FREE_ARRAY(w->moveBuffer, w->moveCapacity, int);
	tbBroadPhase_FreeScratch(w);
	TB_FREE_ARRAY(w->solverBodies, w->solverBodyCapacity, tbRigidBody*);
	tbFree(w->solverScratchRaw, w->solverScratchBytes);
	TB_FREE_ARRAY(w->solverBodySlots, w->solverBodyCapacity, int);
	TB_FREE_ARRAY(w->solverContacts, w->solverContactCapacity, tbContactConstraint);
	TB_FREE_ARRAY(w->solverContactSlots, w->solverContactCapacity, int);
	TB_FREE_ARRAY(w->listBlockCounts, w->listBlockCapacity, int);
	TB_FREE_ARRAY(w->islandParent, w->islandCapacity, int);
	TB_FREE_ARRAY(w->islandSleep, w->islandCapacity, float);
	TB_FREE_ARRAY(w->islandHead, w->islandCapacity, int);
	TB_FREE_ARRAY(w->shapeRuns, w->shapeRunCapacity, tbShapeRun);
	TB_FREE_ARRAY(w->awakeBodies, w->awakeCapacity, int);
	TB_FREE_ARRAY(w->activeContacts, w->activeCapacity, int);
	TB_FREE_ARRAY(w->bodyBounds, w->bodyBoundCapacity, tbBodyBounds);
	TB_FREE_ARRAY(w->levelAhead, w->levelAheadCapacity, tbLevelAhead);
	TB_FREE_ARRAY(w->levelSats, w->levelSatCapacity, tbLevelSatSlot);
	TB_FREE_ARRAY(w->beginEvents, w->beginCapacity, tbContactBeginTouchEvent);
	TB_FREE_ARRAY(w->endEvents, w->endCapacity, tbContactEndTouchEvent);
	TB_FREE_ARRAY(w->pendingEndEvents, w->pendingEndCapacity, tbContactEndTouchEvent);
	TB_FREE_ARRAY(w->moveEvents, w->moveEventCapacity, tbBodyMoveEvent);
	TB_FREE_ARRAY(w->jointEvents, w->jointEventCapacity, tbJointEvent);
	tbSensor_DestroyAll(w);
	tbHitEvents_DestroyAll(w);
	TB_FREE_ARRAY(w->fastBodies, w->fastCapacity, int);
	TB_FREE_ARRAY(w->fastStarts, w->fastCapacity, tbTransform);
	TB_FREE_ARRAY(w->fastFractions, w->fastCapacity, float);
	tbFree(w->levelMemo, (size_t)w->def.workerCount * TB_LEVEL_MEMO * sizeof(tbLevelMemo));
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

tbProfile tbWorld_GetProfile(tbWorldId worldId)
{
	tbProfile p;
	memset(&p, 0, sizeof p);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetProfile");
	return w != NULL ? w->profile : p;
}

int tbWorld_GetContactCount(tbWorldId worldId)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetContactCount");
	if (w == NULL) {
		return 0;
	}
	int n = 0;
	for (int i = 0; i < w->contactCount; ++i) {
		n += w->contacts[i].alive && w->contacts[i].touching ? 1 : 0;
	}
	return n;
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
	if (!tbIsFiniteVec3(gravity)) {
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

void tbWorld_SetCustomFilterCallback(tbWorldId worldId, tbCustomFilterFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_SetCustomFilterCallback");
	if (w == NULL) {
		return;
	}
	w->customFilter = fcn;
	w->customFilterContext = context;
}

void tbWorld_SetPreSolveCallback(tbWorldId worldId, tbPreSolveFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_SetPreSolveCallback");
	if (w == NULL) {
		return;
	}
	w->preSolve = fcn;
	w->preSolveContext = context;
}

void tbWorld_SetFrictionCallback(tbWorldId worldId, tbFrictionCallback* callback)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_SetFrictionCallback");
	if (w != NULL) {
		w->frictionCallback = callback;
	}
}

void tbWorld_SetRestitutionCallback(tbWorldId worldId, tbRestitutionCallback* callback)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_SetRestitutionCallback");
	if (w != NULL) {
		w->restitutionCallback = callback;
	}
}
