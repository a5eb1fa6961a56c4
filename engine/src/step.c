// The step: tbWorld_Step as the list of its stages, each saying what it reads and writes.
#include <math.h>
#include <string.h>

#include "continuous.h"

// Solver contacts and bodies per range: below these the loops run inline.
#define TB_MIN_PREPARE_CONTACTS 64
#define TB_MIN_PREPARE_BODIES 256

// With workers the active contacts are listed for the solver in blocks of this many, a count per
// block first: the blocks are the same at any worker count, so is the list.
#define TB_LIST_BLOCK 256

// The solver's bodies [start, end) of the awake set: each body's own slot only.
static void tbPrepareBodiesRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	for (int k = start; k < end; ++k) {
		int i = w->awakeBodies[k];
		tbBodySlot* b = w->bodies + i;
		b->solverIndex = k;
		w->solverBodies[k] = &b->rb;
		w->solverBodySlots[k] = i;
	}
}

// Stage: the solver's bodies. Reads the awake set; writes solverBodies and solverBodySlots (the
// awake bodies in awake-set order) and each body's solverIndex. Static and sleeping bodies are
// never visited.
static void tbPrepareBodies(tbWorld* w)
{
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
	if (w->parallel) {
		tbParallelFor(w, tbPrepareBodiesRange, bodyCount, TB_MIN_PREPARE_BODIES, w);
	} else {
		tbPrepareBodiesRange(0, bodyCount, 0, w);
	}
	w->solverBodyCount = bodyCount;
}

// The most a contact's surfaces may turn in one substep, rad, and how many times the caller's
// substeps a step may be cut into to keep to it (tbTurnSubsteps).
#define TB_SUBSTEP_TURN 0.25f
#define TB_MAX_SUBSTEP_FACTOR 16

// The substeps for a step: the caller's, or more where a candidate pair's surfaces may turn by
// more than TB_SUBSTEP_TURN in one of them (`turn`, rad/s, the largest tbContactTurn). The
// solver's rows follow each contact point to first order within a substep, p + dtheta x r, while
// the body turns it on a circle: the two part by |r| theta^2 / 2 (docs/continuous.md,
// "Fast-turning pairs: cutting the step finer"), and a thin plate turning half a radian a substep
// sweeps through a ball between two looks. n substeps turn it by turn dt / n; n is raised to
// ceil(turn dt / TB_SUBSTEP_TURN), at most TB_MAX_SUBSTEP_FACTOR times the caller's.
static int tbTurnSubsteps(float turn, float dt, int substeps)
{
	if (!(turn * dt > TB_SUBSTEP_TURN * (float)substeps)) {
		return substeps;
	}
	float need = ceilf(turn * dt / TB_SUBSTEP_TURN);
	float most = (float)(TB_MAX_SUBSTEP_FACTOR * substeps);
	return need < most ? (int)need : (int)most;
}

// A step taken in another number of substeps than the last (tbTurnSubsteps cut one of them): the
// warm start's impulses (contacts' and joints') are those of the last substep, lambda = F h for a
// steady force F, so they are scaled by h / h_last = n_last / n (docs/solver.md, "Measuring contact
// forces").
static void tbRescaleWarmStart(tbWorld* w, int substeps)
{
	if (!(w->lastSubstep > 0.0f) || !(w->lastTimeStep > 0.0f)) {
		return;
	}
	float last = roundf(w->lastTimeStep / w->lastSubstep);
	if (last == (float)substeps || !(last >= 1.0f)) {
		return;
	}
	float scale = last / (float)substeps;
	for (int i = 0; i < w->solverContactCount; ++i) {
		tbContactImpulses* impulses = w->solverContacts[i].impulses;
		for (int k = 0; k < impulses->pointCount && k < TB_MAX_MANIFOLD_POINTS; ++k) {
			impulses->points[k].normalImpulse *= scale;
		}
		impulses->frictionImpulse = glms_vec3_scale(impulses->frictionImpulse, scale);
		impulses->twistImpulse *= scale;
	}
	// The joints' accumulated impulses are per substep too.
	for (int i = 0; i < w->jointCount; ++i) {
		tbJoint* j = &w->joints[i].joint;
		if (!w->joints[i].alive) {
			continue;
		}
		j->linearImpulse = glms_vec3_scale(j->linearImpulse, scale);
		j->angularImpulse = glms_vec3_scale(j->angularImpulse, scale);
		j->axialImpulse *= scale;
		j->lowerImpulse *= scale;
		j->upperImpulse *= scale;
		j->motorImpulse *= scale;
		j->springImpulse *= scale;
		j->springImpulse3 = glms_vec3_scale(j->springImpulse3, scale);
		j->motorImpulse3 = glms_vec3_scale(j->motorImpulse3, scale);
		j->frictionImpulse3 = glms_vec3_scale(j->frictionImpulse3, scale);
		j->coneImpulse *= scale;
	}
}

// Whether the active contact goes to the solver, with its bodies' solver indices.
static inline bool tbSolverContactBodies(const tbWorld* w, const tbContactSlot* c, int* ia, int* ib)
{
	if (!c->touching) {
		return false;
	}
	const tbBodySlot* a = w->bodies + c->bodyA;
	const tbBodySlot* b = w->bodies + c->bodyB;
	*ia = a->awakeIndex >= 0 ? a->solverIndex : TB_NULL_BODY;
	*ib = b->awakeIndex >= 0 ? b->solverIndex : TB_NULL_BODY;
	// A contact with a sleeping body that was not woken (a still kinematic body on a sleeper)
	// waits; so does one between two bodies that cannot move.
	if ((a->rb.type != tb_staticBody && *ia == TB_NULL_BODY) ||
	    (b->rb.type != tb_staticBody && *ib == TB_NULL_BODY)) {
		return false;
	}
	return a->rb.type == tb_dynamicBody || b->rb.type == tb_dynamicBody;
}

// The surface terms of a contact whose shapes have them (docs/materials.md): the velocity friction
// drives B's surface to relative to A's, A's tangent velocity less B's, each turned from its body's
// frame to the world's (a box on belt A rides at the belt's speed); the larger rolling resistance.
static __attribute__((noinline)) void tbSetSurface(const tbWorld* w, const tbShapeSlot* a,
                                                   const tbShapeSlot* b, tbContactConstraint* sc)
{
	vec3s va = tbRotateInline(w->bodies[a->body].xf.q, a->tangentVelocity);
	vec3s vb = tbRotateInline(w->bodies[b->body].xf.q, b->tangentVelocity);
	sc->tangentVelocity = glms_vec3_sub(va, vb);
	sc->surfaceMoves = a->moving || b->moving;
	sc->rollingResistance = fmaxf(a->rollingResistance, b->rollingResistance);
}

// The solver contact `sc` of the active contact `c`: made, warm started, aimed at the impact of
// two balls closing in (their manifold needs no refresh, which follows turning features) or
// marked for the refresh. Writes only `sc` and the pair's impulses (matched to its points for the
// warm start); true for a refresh candidate.
static inline __attribute__((always_inline)) bool
tbMakeSolverContact(const tbWorld* w, tbContactSlot* c, int ia, int ib, float dt, int substeps,
                    tbContactConstraint* sc)
{
	// The pair's own impulses: warm started in place, written by the solve.
	*sc = tbMakeContactConstraint(ia, ib, &c->manifold, &c->impulses, c->friction, c->restitution);
	const tbShapeSlot* a = w->shapes + c->shapeA;
	const tbShapeSlot* b = w->shapes + c->shapeB;
	if (a->surface || b->surface) {
		tbSetSurface(w, a, b, sc);
	}
	tbContactConstraint_WarmStart(sc, w->def.enableWarmStarting ? &c->impulses : NULL);
	bool aimed = tbAimAtImpact(w, c, sc, dt, dt / (float)substeps);
	return w->def.enableContactRefresh && !aimed && tbMarkContactRefresh(w, c, dt, sc);
}

// A candidate's bodies, whose other contacts follow it (tbSpreadContactRefresh).
static void tbMarkRefreshBodies(tbWorld* w, const tbContactSlot* c)
{
	int mark = w->stepCount + 1;
	w->bodies[c->bodyA].refreshStep = mark;
	w->bodies[c->bodyB].refreshStep = mark;
}

typedef struct tbPrepareContactsTask
{
	tbWorld* world;
	float dt;
	int substeps;
	_Alignas(64) int candidates[TB_MAX_WORKERS]; // per worker, summed after the loop
	float turns[TB_MAX_WORKERS];                 // per worker, the largest taken after the loop
} tbPrepareContactsTask;

// Blocks [start, end) of the active contacts: how many of each go to the solver.
static void tbCountSolverContactsRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	for (int block = start; block < end; ++block) {
		int from = block * TB_LIST_BLOCK;
		int to = from + TB_LIST_BLOCK < w->activeCount ? from + TB_LIST_BLOCK : w->activeCount;
		int count = 0;
		for (int k = from; k < to; ++k) {
			int ia, ib;
			tbPrefetchActive(w, k);
			count += tbSolverContactBodies(w, w->contacts + w->activeContacts[k], &ia, &ib) ? 1 : 0;
		}
		w->listBlockCounts[block] = count;
	}
}

// Blocks [start, end) of the active contacts: each solver contact listed at its block's offset
// (listBlockCounts, summed) and made; a refresh candidate's bodies marked (the same mark from any
// worker: a relaxed atomic store, read only after the loop) and its turn rate taken.
static void tbMakeSolverContactsRange(int start, int end, int worker, void* context)
{
	tbPrepareContactsTask* t = context;
	tbWorld* w = t->world;
	int candidates = 0, mark = w->stepCount + 1;
	float turn = t->turns[worker];
	for (int block = start; block < end; ++block) {
		int from = block * TB_LIST_BLOCK;
		int to = from + TB_LIST_BLOCK < w->activeCount ? from + TB_LIST_BLOCK : w->activeCount;
		int n = w->listBlockCounts[block];
		for (int k = from; k < to; ++k) {
			int i = w->activeContacts[k], ia, ib;
			tbPrefetchActive(w, k);
			tbContactSlot* c = w->contacts + i;
			if (!tbSolverContactBodies(w, c, &ia, &ib)) {
				continue;
			}
			w->solverContactSlots[n] = i;
			if (tbMakeSolverContact(w, c, ia, ib, t->dt, t->substeps, w->solverContacts + n)) {
				__atomic_store_n(&w->bodies[c->bodyA].refreshStep, mark, __ATOMIC_RELAXED);
				__atomic_store_n(&w->bodies[c->bodyB].refreshStep, mark, __ATOMIC_RELAXED);
				turn = fmaxf(turn, tbContactTurn(w, c, w->solverContacts + n));
				candidates += 1;
			}
			++n;
		}
	}
	t->candidates[worker] += candidates;
	t->turns[worker] = turn;
}

// The game's pre-solve callback (tbWorld_SetPreSolveCallback) on each solver contact, in order on
// this thread: a contact it turns down leaves the solver's list for this step (and forgets its
// warm start, which no longer holds); one it changes takes its material as given, held to the
// ranges the solver takes.
static void tbPreSolve(tbWorld* w)
{
	int kept = 0;
	for (int n = 0; n < w->solverContactCount; ++n) {
		tbContactConstraint* sc = w->solverContacts + n;
		int slot = w->solverContactSlots[n];
		tbContactSlot* c = w->contacts + slot;
		tbContactMaterial m;
		m.friction = sc->friction;
		m.restitution = sc->restitution;
		m.rollingResistance = sc->rollingResistance;
		m.tangentVelocity = sc->tangentVelocity;
		if (!w->preSolve(tbMakeShapeId(w, c->shapeA), tbMakeShapeId(w, c->shapeB), &c->manifold, &m,
		                 w->preSolveContext)) {
			memset(&c->impulses, 0, sizeof c->impulses);
			continue;
		}
		sc->friction = m.friction > 0.0f && isfinite(m.friction) ? m.friction : 0.0f;
		sc->restitution = m.restitution > 0.0f ? fminf(m.restitution, 1.0f) : 0.0f;
		sc->rollingResistance = m.rollingResistance > 0.0f && isfinite(m.rollingResistance)
		                            ? m.rollingResistance
		                            : 0.0f;
		sc->tangentVelocity =
		    tbIsFiniteVec3(m.tangentVelocity) ? m.tangentVelocity : glms_vec3_zero();
		sc->surfaceMoves = glms_vec3_norm2(sc->tangentVelocity) > 0.0f;
		if (kept != n) {
			w->solverContacts[kept] = *sc;
			w->solverContactSlots[kept] = slot;
		}
		++kept;
	}
	w->solverContactCount = kept;
}

// Room for `count` solver contacts and their slots (grown together; each item is written in full
// when taken, so the new capacity is left uncleared).
static void tbReserveSolverContacts(tbWorld* w, int count)
{
	if (count <= w->solverContactCapacity) {
		return;
	}
	int old = w->solverContactCapacity;
	tbGrowArrayUncleared((void**)&w->solverContacts, &w->solverContactCapacity, count,
	                     sizeof(tbContactConstraint));
	w->solverContactSlots = tbGrowAlloc(w->solverContactSlots, (size_t)old * sizeof(int),
	                                    (size_t)w->solverContactCapacity * sizeof(int));
}

// Stage: the solver's contacts. Reads the active contacts' manifolds and last step's impulses;
// writes solverContacts (warm started) and solverContactSlots; marks the contacts the solver may
// refresh inside the step (contact_refresh.c). With workers: the contacts listed in order, then
// made side by side, the candidates' bodies marked as they are made.
// Returns the largest turn rate of a candidate's surfaces (tbContactTurn), rad/s; `marked` gets
// whether any contact is marked for the refresh.
static float tbPrepareContacts(tbWorld* w, float dt, int substeps, bool* marked)
{
	int contactCount = 0, candidates = 0;
	float turn = 0.0f;
	if (w->parallel) {
		// Counted block by block, the blocks' offsets summed in order, room grown for the
		// contacts the solver takes (the touching ones, not every active pair), then each block
		// listed and made at its offset: the list of the serial path below.
		int blocks = (w->activeCount + TB_LIST_BLOCK - 1) / TB_LIST_BLOCK;
		contactCount = tbCountBlocks(w, tbCountSolverContactsRange, w->activeCount, TB_LIST_BLOCK);
		tbReserveSolverContacts(w, contactCount);
		tbPrepareContactsTask task;
		task.world = w;
		task.dt = dt;
		task.substeps = substeps;
		memset(task.candidates, 0, sizeof task.candidates);
		memset(task.turns, 0, sizeof task.turns);
		tbParallelFor(w, tbMakeSolverContactsRange, blocks,
		              TB_MIN_PREPARE_CONTACTS / TB_LIST_BLOCK + 1, &task);
		// The largest of the workers' largest: the same for any split (fmaxf is exact).
		for (int k = 0; k < w->def.workerCount; ++k) {
			candidates += task.candidates[k];
			turn = fmaxf(turn, task.turns[k]);
		}
	} else {
		for (int k = 0; k < w->activeCount; ++k) {
			int i = w->activeContacts[k], ia, ib;
			tbPrefetchActive(w, k);
			tbContactSlot* c = w->contacts + i;
			if (!tbSolverContactBodies(w, c, &ia, &ib)) {
				continue;
			}
			tbReserveSolverContacts(w, contactCount + 1);
			if (tbMakeSolverContact(w, c, ia, ib, dt, substeps, w->solverContacts + contactCount)) {
				tbMarkRefreshBodies(w, c);
				turn = fmaxf(turn, tbContactTurn(w, c, w->solverContacts + contactCount));
				candidates += 1;
			}
			w->solverContactSlots[contactCount] = i;
			++contactCount;
		}
	}
	w->solverContactCount = contactCount;
	if (w->preSolve != NULL) {
		tbPreSolve(w);
	}
	if (candidates > 0) {
		tbSpreadContactRefresh(w);
	}
	*marked = candidates > 0;
	return turn;
}

// The solver's settings, from the world's; `refresh`: some contact is marked for the refresh
// (without one the solver lists none).
static tbSolverDef tbWorldSolverDef(tbWorld* w, int substeps, bool refresh)
{
	tbSolverDef sd = tbDefaultSolverDef();
	sd.gravity = w->def.gravity;
	sd.substeps = substeps;
	sd.iterations = w->def.iterations;
	sd.relaxIterations = w->def.relaxIterations;
	sd.contactHertz = w->def.contactHertz;
	sd.contactDampingRatio = w->def.contactDampingRatio;
	sd.contactPushMaxSpeed = w->def.contactPushMaxSpeed;
	sd.restitutionThreshold = w->def.restitutionThreshold;
	// The pre-solve callback may give any contact rolling resistance.
	sd.enableRollingResistance = w->rollingShapeCount > 0 || w->preSolve != NULL;
	// Likewise restitution, and the mixing callback (the collision phase, solver.c).
	sd.enableRestitution =
	    w->bouncyShapeCount > 0 || w->preSolve != NULL || w->restitutionCallback != NULL;
	sd.enableWarmStarting = w->def.enableWarmStarting;
	sd.integrator = w->def.integrator;
	sd.refreshContact = w->def.enableContactRefresh && refresh ? tbRefreshSolverContact : NULL;
	sd.refreshContext = w;
	// The solver's per-body loops and colours go to the world's tasks (none with one worker).
	sd.parallelFor = w->parallel ? tbSolverParallelFor : NULL;
	sd.parallelForUneven = w->parallel ? tbSolverParallelForUneven : NULL;
	sd.parallelContext = w;
	tbEnergySolverDef(w, &sd); // the energy ledger and the solver trace (energy.c): off, nulls
	return sd;
}

// Stage: solve and integrate (dynamics/solver.c). Reads the solver's bodies, contacts and joints;
// writes the bodies' state vectors, the contacts' impulses (for next step's warm start) and the
// joints' impulses. The solver calls back into the engine only through sd->refreshContact, to
// look at a contact again inside the step (contact_refresh.c; the glossary in
// docs/architecture.md): the narrow phase lives here, not in dynamics/.
static void tbSolveStage(tbWorld* w, const tbSolverDef* sd, float dt, void** scratch)
{
	int bodyCount = w->solverBodyCount;
	int contactCount = w->solverContactCount;
	// One scratch block, grown to the scene and kept (64 bytes of slack for the alignment the
	// wide records want).
	tbGatherJoints(w);
	size_t solverBytes = tbSolverScratchBytes(bodyCount, contactCount, w->solverJointCount);
	solverBytes = (solverBytes + 63u) & ~(size_t)63u;
	size_t need = solverBytes + tbEnergyScratchBytes(w) + 64u;
	if (need > w->solverScratchBytes) {
		size_t grown = need + need / 2u;
		tbFree(w->solverScratchRaw, w->solverScratchBytes);
		w->solverScratchRaw = tbAlloc(grown);
		w->solverScratchBytes = grown;
	}
	void* aligned = (void*)(((uintptr_t)w->solverScratchRaw + 63u) & ~(uintptr_t)63u);
	*scratch = aligned;
	w->solverLedger.scratch = (char*)aligned + solverBytes; // used only with the ledger on
	tbSolverStats stats;
	for (int k = 0; k < w->def.workerCount; ++k) {
		tbWorkerCounts* counts = w->workerCounts + k;
		counts->refreshedContacts = counts->keptContacts = counts->carriedContacts = 0;
	}
	tbSolverSolve(sd, w->solverBodies, bodyCount, w->solverContacts, contactCount, w->solverJoints,
	              w->solverJointCount, dt, aligned, &stats);
	tbJointBreakEvents(w);
	// The refreshed contacts' counts, per worker (contact_refresh.c), in a fixed order.
	for (int k = 0; k < w->def.workerCount; ++k) {
		const tbWorkerCounts* counts = w->workerCounts + k;
		w->profile.refreshedContacts += counts->refreshedContacts;
		w->profile.keptContacts += counts->keptContacts;
		w->profile.carriedContacts += counts->carriedContacts;
	}
	w->lastSubstep = dt / (float)sd->substeps;
	w->lastTimeStep = dt;
	w->lastSolverStats = stats;
}

// The bodies the finish's NaN guard stopped: `stopped` of them, in the profile and said.
static void tbReportStopped(tbWorld* w, int stopped)
{
	tbSolverStats* stats = &w->lastSolverStats;
	stats->stoppedBodies = stopped;
	if (stats->stoppedBodies > 0) {
		// Never hidden: counted in the profile and the world's counters, and said here.
		w->stoppedBodyCount += stats->stoppedBodies;
		tbSetError("tbWorld_Step: %d bodies got a NaN or Inf state and were stopped where they "
		           "were (step %d)",
		           stats->stoppedBodies, w->stepCount);
	}
}

// Stage: finish the bodies (Baraff's state update and Gram-Schmidt, dynamics/solver.c). Reads and
// writes the solver's bodies; a body whose state left the floats is stopped and counted.
static void tbFinishBodies(tbWorld* w, const tbSolverDef* sd, float dt, void* scratch)
{
	tbReportStopped(w, tbSolverFinish(sd, w->solverBodies, w->solverBodyCount, dt, scratch));
}

// Stage: the bodies' new poses go to their shapes. Reads the solver's bodies; writes each body's
// transform and its shapes' broad-phase boxes, and lists the bodies fast enough to need a
// continuous check.
static void tbUpdateShapes(tbWorld* w, float dt)
{
	int bodyCount = w->solverBodyCount;
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
}

// With workers the two stages above are one pass over the solver's bodies, in blocks of this
// many: a block's bodies are finished, then their poses go to their shapes while the bodies are
// still in the cache (a scene of many bodies does not fit in it between two passes). A block is
// also the unit of the move buffer's runs (tbShapeRun).
#define TB_SHAPE_BLOCK 32

typedef struct tbFinishShapesTask
{
	tbWorld* world;
	tbSolverFinishPass finish;
	float dt;
	_Alignas(64) int stopped[TB_MAX_WORKERS]; // per worker, summed after the loop
} tbFinishShapesTask;

// One body's poses to its shapes (tbUpdateShapes' work) on a worker: the body's own part (its
// transform, its shapes' poses and boxes, a fat box made anew and its proxy enlarged in the
// moving tree, whose boxes end the same in any order) and, onto the worker's list, the shapes for
// the move buffer, marked as there (`enlarged`: only this body's worker touches its shapes here).
// A fast body (a continuous candidate, its pose at the step's start kept) or one with a proxy in
// the static tree goes to the list as itself instead: the serial pass does the rest of it.
static inline void tbUpdateShapesOn(tbWorld* w, int slot, float dt, tbWorkerCounts* counts)
{
	tbBodySlot* b = w->bodies + slot;
	// tbContinuousCheck's test, on the reach tbUpdateBodyShapes would return.
	bool fast = w->def.enableContinuous && b->rb.type == tb_dynamicBody && b->firstShape >= 0 &&
	            b->jointCount == 0 && tbBodyReach(b, dt) >= TB_FAST_FRACTION * b->minExtent;
	if (fast) {
		b->stepStart = b->xf;
	}
	tbSyncBodyTransform(b);
	bool moved = tbUpdateBodyBoxes(w, slot, dt);
	bool serial = fast;
	for (int s = b->firstShape; moved && s >= 0; s = w->shapes[s].nextInBody) {
		tbShapeSlot* shape = w->shapes + s;
		if (shape->fatMoved && tbBroadPhase_EnlargeProxyShared(w, shape)) {
			shape->fatMoved = false;
			shape->fatBuffered = true;
		} else if (shape->fatMoved) {
			serial = true; // the static tree's proxy: moved by the serial pass
		}
	}
	if (serial) {
		counts->moved[counts->movedCount++] = -1 - (2 * slot + (fast ? 1 : 0));
		return;
	}
	for (int s = b->firstShape; moved && s >= 0; s = w->shapes[s].nextInBody) {
		tbShapeSlot* shape = w->shapes + s;
		if (shape->fatBuffered) {
			shape->fatBuffered = false;
			if (!shape->enlarged) {
				shape->enlarged = true; // tbBroadPhase_BufferMove's mark
				counts->moved[counts->movedCount++] = s;
			}
		}
	}
}

// Blocks [start, end) of the solver's bodies: each block's bodies finished, then their shapes
// updated, the block's run of the move buffer on this worker's list.
static void tbFinishShapesRange(int start, int end, int worker, void* context)
{
	tbFinishShapesTask* t = context;
	tbWorld* w = t->world;
	tbWorkerCounts* counts = w->workerCounts + worker;
	int bodyCount = w->solverBodyCount, stopped = 0;
	for (int block = start; block < end; ++block) {
		int from = block * TB_SHAPE_BLOCK;
		int to = from + TB_SHAPE_BLOCK < bodyCount ? from + TB_SHAPE_BLOCK : bodyCount;
		stopped += tbSolverFinishRange(&t->finish, from, to);
		tbShapeRun* run = w->shapeRuns + block;
		run->worker = worker;
		run->first = counts->movedCount;
		for (int i = from; i < to; ++i) {
			tbUpdateShapesOn(w, w->solverBodySlots[i], t->dt, counts);
		}
		run->count = counts->movedCount - run->first;
	}
	t->stopped[worker] += stopped;
}

// A body the parallel pass left whole to the serial one: its shapes to the move buffer (a static
// tree's proxy moved first), in their order, and a fast body onto the continuous list.
static void tbFinishShapesSerial(tbWorld* w, int marker)
{
	int code = -1 - marker, slot = code / 2;
	tbBodySlot* b = w->bodies + slot;
	for (int s = b->firstShape; s >= 0; s = w->shapes[s].nextInBody) {
		tbShapeSlot* shape = w->shapes + s;
		if (shape->fatMoved) {
			shape->fatMoved = false;
			tbBroadPhase_MoveProxy(w, shape);
			tbBroadPhase_BufferMove(w, s);
		} else if (shape->fatBuffered) {
			shape->fatBuffered = false;
			tbBroadPhase_BufferMove(w, s);
		}
	}
	if ((code & 1) != 0) {
		// The parallel pass made tbContinuousCheck's test already.
		tbPushFastBody(w, slot, &b->stepStart);
	}
}

// Stages finish and poses to shapes with workers: one parallel pass over blocks of the solver's
// bodies (tbFinishShapesRange); tbMoveShapeRuns follows. Returns the bodies stopped by the NaN
// guard.
static int tbFinishAndUpdateShapes(tbWorld* w, const tbSolverDef* sd, float dt, void* scratch)
{
	int bodyCount = w->solverBodyCount;
	int blocks = (bodyCount + TB_SHAPE_BLOCK - 1) / TB_SHAPE_BLOCK;
	tbGrowArray((void**)&w->shapeRuns, &w->shapeRunCapacity, blocks, sizeof(tbShapeRun));
	// A worker may take every block: room for each body's shapes, or for the body itself.
	int most = w->shapeCount + bodyCount;
	for (int k = 0; k < w->def.workerCount; ++k) {
		tbWorkerCounts* counts = w->workerCounts + k;
		if (counts->movedCapacity < most) {
			tbGrowArray((void**)&counts->moved, &counts->movedCapacity, most, sizeof(int));
		}
		counts->movedCount = 0;
	}
	tbFinishShapesTask task;
	task.world = w;
	task.finish = tbSolverFinishBegin(sd, w->solverBodies, bodyCount, dt, scratch);
	task.dt = dt;
	memset(task.stopped, 0, sizeof task.stopped);
	tbParallelFor(w, tbFinishShapesRange, blocks, 64 / TB_SHAPE_BLOCK, &task);
	tbSolverFinishEnd(&task.finish);
	int stopped = 0;
	for (int k = 0; k < w->def.workerCount; ++k) {
		stopped += task.stopped[k];
	}
	return stopped;
}

// The serial pass after tbFinishAndUpdateShapes, in the blocks' order (the order of the one-worker
// stages): each block's run appended to the move buffer, and what the parallel pass left whole
// (fast bodies, static proxies) done, so that the move buffer and the continuous list are those of
// one worker.
static void tbMoveShapeRuns(tbWorld* w)
{
	int blocks = (w->solverBodyCount + TB_SHAPE_BLOCK - 1) / TB_SHAPE_BLOCK;
	int total = 0;
	for (int k = 0; k < w->def.workerCount; ++k) {
		total += w->workerCounts[k].movedCount;
	}
	w->fastCount = 0;
	tbGrowArray((void**)&w->moveBuffer, &w->moveCapacity, w->moveCount + total, sizeof(int));
	for (int block = 0; block < blocks; ++block) {
		const tbShapeRun* run = w->shapeRuns + block;
		const int* moved = w->workerCounts[run->worker].moved + run->first;
		for (int n = 0; n < run->count; ++n) {
			if (moved[n] >= 0) {
				w->moveBuffer[w->moveCount++] = moved[n];
			} else {
				tbFinishShapesSerial(w, moved[n]);
			}
		}
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
	// The step, stage by stage (docs/architecture.md). Times go to the profile.
	tbStartStepEvents(w);
	tbTaskPool_SetStepping(w, true);
	memset(&w->profile, 0, sizeof w->profile);
	double t0 = tbMilliseconds();

	// 1. Pairs: wake what joints tie to a moving body, move the broad-phase proxies, find new
	//    pairs (broad_phase.c).
	if (w->liveJoints > 0) {
		tbWakeJointedBodies(w);
	}
	tbBroadPhase_UpdatePairs(w);
	double t1 = tbMilliseconds();

	// 2. Narrow phase: a manifold for every active pair, begin and end touch events (contact.c).
	tbCollide(w, timeStep);
	double t2 = tbMilliseconds();

	// 3. Solve and integrate: gather bodies, contacts and joints, run the soft step's substeps,
	//    write the impulses back (dynamics/solver.c through step.c's stages).
	tbHitEvents_Prepare(w);
	double tGather = tbMilliseconds();
	tbPrepareBodies(w);
	// The contacts are made with the caller's substeps; only the ball pairs aimed at their
	// moment of impact read them (tbAimAtImpact: at most one substep past the step's end), and a
	// later aim is still never early.
	bool refresh = false;
	float turn = tbPrepareContacts(w, timeStep, substeps, &refresh);
	substeps = tbTurnSubsteps(turn, timeStep, substeps);
	tbRescaleWarmStart(w, substeps);
	tbSolverDef sd = tbWorldSolverDef(w, substeps, refresh);
	void* scratch = NULL;
	double tPrepare = tbMilliseconds();
	tbSolveStage(w, &sd, timeStep, &scratch);
	double tSolve = tbMilliseconds();

	// 4. Finish: Baraff's state update and Gram-Schmidt, poses to shapes, continuous collision
	//    for the fast bodies (continuous.c), hit and sensor events.
	//    With workers the bodies' finish and their shapes are one pass, timed as the finish; the
	//    shapes' time is then the serial pass after it (tbMoveShapeRuns).
	double tFinish;
	if (w->parallel) {
		tbReportStopped(w, tbFinishAndUpdateShapes(w, &sd, timeStep, scratch));
		tFinish = tbMilliseconds();
		tbEnergyFinish(w);
		tbMoveShapeRuns(w);
	} else {
		tbFinishBodies(w, &sd, timeStep, scratch);
		tFinish = tbMilliseconds();
		tbEnergyFinish(w);
		tbUpdateShapes(w, timeStep);
	}
	if (w->fastCount > 0) {
		tbSolveContinuous(w, timeStep);
	}
	tbHitEvents_Finish(w);
	tbSensor_Update(w);
	double t3 = tbMilliseconds();

	// 5. Sleep: islands that rested long enough fall asleep (island.c); move events (events.c).
	if (w->def.enableSleep) {
		tbUpdateSleep(w, timeStep);
	}
	tbPushMoveEvents(w);
	double t4 = tbMilliseconds();

	tbTaskPool_SetStepping(w, false);
	w->stepCount += 1;
	tbProfile* p = &w->profile;
	p->solve = (float)(tSolve - t2);
	p->step = (float)(t4 - t0);
	p->pairs = (float)(t1 - t0);
	p->collide = (float)(t2 - t1);
	p->integrate = (float)(t3 - t2) - p->solve;
	p->sleep = (float)(t4 - t3);
	// The solve's parts: the solver's bodies and contacts made (with the joints' gathering and
	// the impulses written back after the passes), then the solver's own stages.
	const tbSolverStats* st = &w->lastSolverStats;
	p->prepare = st->prepareMs;
	p->substeps = st->substepMs;
	p->store = st->storeMs;
	p->gather = (float)(tPrepare - tGather) +
	            fmaxf((float)(tSolve - tPrepare) - p->prepare - p->substeps - p->store, 0.0f);
	p->finish = (float)(tFinish - tSolve);
	p->shapes = (float)(t3 - tFinish);
	p->awakeBodies = w->solverBodyCount;
	p->activeContacts = w->activeCount;
	p->solvedContacts = w->solverContactCount;
	p->colors = w->lastSolverStats.colorCount;
	p->overflowConstraints = w->lastSolverStats.overflowCount;
	p->simdWidth = w->lastSolverStats.simdWidth;
	p->stoppedBodies = w->lastSolverStats.stoppedBodies;
	return true;
}
