// The world's private tables: body, shape and contact slots, the pair set, scratch and events.
#pragma once

#include <stdatomic.h>

#include "tumble/allocate_internal.h"
#include "tumble/collide_internal.h"
#include "tumble/contact_solver.h"
#include "tumble/dynamic_tree.h"
#include "tumble/joint.h"
#include "tumble/transform_internal.h"
#include "tumble/world.h"

// The most threads a world steps on (tbWorldDef.workerCount).
#define TB_MAX_WORKERS 64

// What one worker counts in a parallel pass, on its own cache line (summed after, in a fixed
// order: integers, so the sums are the same for any split).
typedef struct tbWorkerCounts
{
	_Alignas(64) int cachedManifolds;
	int narrowPhaseRuns;
	int stoppedBodies;
	// The solver's refreshed contacts (contact_refresh.c): made again, kept, carried.
	int refreshedContacts, keptContacts, carriedContacts;
	// The broad phase's candidate pairs found by this worker (broad_phase.c): the other shapes of
	// its moved proxies, `pairCount` of `pairCapacity` used; `pairWant` counts those that did not
	// fit (grown for the next step).
	int* pairs;
	int pairCount, pairCapacity, pairWant;
	// The poses-to-shapes pass's list for the move buffer (step.c): the moved proxies' shapes of
	// the blocks of bodies this worker took, each block's a run (tbShapeRun), and a body left to
	// the serial pass as -1 - (2 slot + fast).
	int* moved;
	int movedCount, movedCapacity;
} tbWorkerCounts;

// With workers, where a block of the solver's bodies left its part of the move buffer (step.c):
// `count` items from `first` of its worker's `moved`.
typedef struct tbShapeRun
{
	int worker, first, count;
} tbShapeRun;

// With workers, where one moved proxy's candidate pairs are (broad_phase.c): `count` items from
// `first` of its worker's `pairs`, or count -1 when they did not fit (the serial pass queries
// again).
typedef struct tbMoveQuery
{
	int worker, first, count;
} tbMoveQuery;

// A slot (world, body or shape) whose generation reaches this is retired instead of reused: its
// ids can then never repeat (each reuse adds 2: one at destruction, one at creation).
#define TB_RETIRED_GENERATION (UINT32_MAX - 2u)

// What tbCollide works out once per awake body at its start, for every pair of the body.
typedef struct tbBodyBounds
{
	float turn;    // |w|, rad/s
	float spin;    // |w| maxExtent: how fast its farthest point moves by its spin, m/s
	float surface; // |v| + spin: how fast any point of it moves, m/s
	float swing;   // what an impact in the step may swing it over, m (contact_refresh.c)
} tbBodyBounds;

typedef struct tbBodySlot
{
	// What a pass over the contacts reads of a pair's bodies (with rb's first fields: x, the
	// type, v, w), at the slot's start so that it costs two cache lines a body, not five.
	int awakeIndex;  // index in the world's awake set, or -1 (static or sleeping)
	int solverIndex; // index in the step's solver array, or -1
	int contactList; // first contact edge (contact index * 2 + side), or -1
	float maxExtent; // largest distance of a shape point from the centre of mass, m
	bool alive;
	bool awake;
	bool enableSleep;
	bool isBullet;     // continuous collision against dynamic bodies too
	tbRigidBody rb;    // Baraff state; rb.state.x is the centre of mass
	vec3s localCenter; // centre of mass in the body frame, m
	tbTransform xf;    // body origin and rotation, kept in step with rb
	float minExtent;   // smallest half thickness of its shapes, m (continuous.c: when it is fast)
	float sleepTime;   // how long the body has been resting, s
	void* userData;
	int firstShape; // shape list through tbShapeSlot.nextInBody
	int shapeCount;
	int sleepNext; // next body of the same sleeping island (a ring), -1 while awake
	int contactCount;
	// Its touching contacts with another dynamic body (tbCountTouch, contact.c): such a body's
	// velocity is changed by its neighbours every step, and its fat box reaches one step ahead,
	// not two (tbUpdateShapeBoxes).
	int touchingMovers;
	int jointList; // first joint edge (joint index * 2 + side), or -1
	int jointCount;
	int nextFree;
	uint32_t generation;  // TB_RETIRED_GENERATION: never reused
	bool massSet;         // tbBody_SetMassData gave the mass: kept while none of its shapes weighs
	float sleepThreshold; // m/s: resting below it (tbBodyDef.sleepThreshold)
	// With workers, a fast body's pose at the step's start, kept by tbUpdateShapes' parallel pass
	// for the continuous stage (step.c).
	tbTransform stepStart;
	int refreshStep; // step count + 1 of the last step it had a refresh candidate
	                 // (contact_refresh.c)
} tbBodySlot;

// A body that moves this step: alive, awake and not static. The one test the awake set, the narrow
// phase and the joints share.
static inline bool tbIsAwakeMover(const tbBodySlot* b)
{
	return b->alive && b->awake && b->rb.type != tb_staticBody;
}

// One level pair's narrow phase inside a substep (contact_refresh.c): a pair's slots are refreshed
// one by one, at the same poses, and share its one tbCollideLevel. Each worker has a table of its
// own: an entry holds what recomputing would give, so which worker kept it changes no bit.
#define TB_LEVEL_MEMO 64

typedef struct tbLevelMemoKey
{
	int shapeA, shapeB, step;
	float margin;
	float pose[7]; // B in A's frame: position, then quaternion
} tbLevelMemoKey;

typedef struct tbLevelMemo
{
	tbLevelMemoKey key;
	bool valid;
	int count;
	float distance;
	tbManifold groups[TB_MAX_LEVEL_MANIFOLDS];
} tbLevelMemo;

typedef struct tbShapeSlot
{
	tbGeometry geometry;
	tbTransform localPose; // in the body frame
	tbTransform xf;        // world, kept in step with the body
	tbAABB aabb;           // tight world box
	tbAABB fatAABB;        // the broad-phase box (holds aabb)
	float radius;          // bounding radius of the geometry about the shape's origin, m
	float spinReach;       // largest distance of its points from the body's centre of mass, m
	vec3s localMiddle;     // the middle of its box in its own frame (the origin for level shapes)
	float middleReach;     // largest distance of its points from localMiddle, m
	vec3s bodyMiddle;      // localMiddle in the body's frame (localPose applied)
	float density, friction, restitution;
	float rollingResistance;
	vec3s tangentVelocity; // body frame, m/s
	bool moving;           // tangentVelocity is not zero
	bool surface;          // moving, or rollingResistance > 0: its contacts take them
	int32_t material;
	tbFilter filter;
	void* userData;
	int body;
	int nextInBody;
	int proxyId;
	int tree;         // 0: static tree, 1: moving tree
	bool enlarged;    // in the move buffer
	bool fatMoved;    // its fat box was made anew by a parallel pass; the tree not yet told
	bool fatBuffered; // the tree told by the parallel pass; the move buffer not yet
	int nextFree;
	// A box or solid hull that has met a mesh or heightfield: its entry in the world's levelSats
	// (the triangles' separating axes, kept from step to step); -1: none.
	int levelSat;
	uint32_t generation; // TB_RETIRED_GENERATION: never reused
	bool alive;
	// A sensor: overlap events only, never a contact (sensor.c). Hit events: hit_event.c.
	bool isSensor, enableHitEvents;
} tbShapeSlot;

// A convex polytope's separating axes against the triangles of the level it touches, kept from one
// step to the next (tbCollideLevelCached), owned by the shape (tbShapeSlot.levelSat): one level at
// a time, the one whose pair made it last.
typedef struct tbLevelSatSlot
{
	int level;    // the level shape; -1: a free entry
	int nextFree; // a free entry: the next free one
	tbLevelSatCache cache;
} tbLevelSatSlot;

// The last narrow-phase result of a pair in the pair's own frames, kept so that a pair whose
// relative pose has barely moved since can skip GJK/EPA and clipping (contact.c).
typedef struct tbContactCache
{
	// B's frame in A's frame (float) when the narrow phase ran: its position, then its quaternion
	// (x, y, z, w); tbCachePose. Seven floats: a tbTransform's quaternion would align the whole
	// pair slot to 16 bytes.
	float bInA[7];
	tbSatCache sat;                       // the SAT's last separating feature (box and hull pairs)
	vec3s normal;                         // A's frame
	vec3s pointA[TB_MAX_MANIFOLD_POINTS]; // A's frame
	vec3s pointB[TB_MAX_MANIFOLD_POINTS]; // B's frame
	float separationOffset[TB_MAX_MANIFOLD_POINTS]; // separation - (pointB - pointA).normal
	uint32_t id[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
	float margin;   // the speculative distance it was made with, m
	float distance; // the query's signed distance, m
	bool valid;
} tbContactCache;

// The cache's relative pose, and setting it.
static inline tbTransform tbCachePose(const tbContactCache* cc)
{
	tbTransform t;
	t.p = (vec3s){{cc->bInA[0], cc->bInA[1], cc->bInA[2]}};
	t.q = (versors){{cc->bInA[3], cc->bInA[4], cc->bInA[5], cc->bInA[6]}};
	return t;
}

static inline void tbSetCachePose(tbContactCache* cc, tbTransform t)
{
	cc->bInA[0] = t.p.x;
	cc->bInA[1] = t.p.y;
	cc->bInA[2] = t.p.z;
	cc->bInA[3] = t.q.x;
	cc->bInA[4] = t.q.y;
	cc->bInA[5] = t.q.z;
	cc->bInA[6] = t.q.w;
}

typedef struct tbContactSlot
{
	// What the passes over the active contacts read for every pair first (the narrow phase's
	// visit, the solver's gather), together at the slot's start so that a visit that goes no
	// further touches one or two cache lines, not the whole slot.
	int shapeA, shapeB; // shapeA < shapeB
	// The shapes' bodies (a shape never changes body), kept here to save a hop through the
	// shapes; set once with the slot, as its link's (tbContactLink) are.
	int bodyA, bodyB;
	// A convex shape against a mesh or heightfield: which of the pair's manifolds (0 to
	// TB_MAX_LEVEL_MANIFOLDS - 1; 0 is made by the broad phase, the others by the narrow phase for
	// further normals: contact.c); -1 for a convex pair.
	int child;
	int activeIndex; // index in the world's active contact set, or -1
	float friction, restitution;
	bool touching;
	bool alive;
	// Set by the narrow phase's parallel pass (contact.c): 0 not looked at (or nothing left to
	// do), 1 its manifold is made and its touching changes, 2 its boxes parted (to be destroyed);
	// the serial pass after reads and clears it.
	uint8_t ahead; // (3: a level pair whose narrow phase it made, in levelAhead)
	union
	{
		int nextFree;   // a free slot: the next free one
		int levelAhead; // ahead 3: the world's levelAhead entry
	};
	tbManifold manifold;
	tbContactCache cache;
	tbContactImpulses impulses; // warm-start cache (by feature id)
	// The pair's relative surface speed (tbRelativeSurfaceSpeed) where the narrow phase's margin
	// made it, m/s, and the step that made it (the world's stepCount + 1; 0: none): the refresh's
	// mark in the same step reads it instead of making it again (the bodies' motion and the
	// shapes' poses are the same then).
	float surfaceSpeed;
	int surfaceStep;
} tbContactSlot;

// A contact's place in its two bodies' contact lists (side 0: A's body, 1: B's body; the
// neighbours are edges, contact index * 2 + side, or -1), with the two bodies: kept apart from
// the slots, in the world's contactLinks (same index), so that a walk over a body's contacts
// (its strike speed each step, contact_refresh.c) reads 24 bytes a contact, not a slot's line
// somewhere in the contact array.
typedef struct tbContactLink
{
	int bodyA, bodyB;
	int edgePrev[2], edgeNext[2];
} tbContactLink;

// A level pair's narrow phase made by the parallel pass of tbCollide (contact.c): its manifolds,
// one per normal, and the distance for the pair's cache.
typedef struct tbLevelAhead
{
	tbManifold groups[TB_MAX_LEVEL_MANIFOLDS];
	int count;
	float distance;
} tbLevelAhead;

// A joint: the solver's record (tbJoint, anchors from the centres of mass) plus what the world
// keeps: the anchors from the body origins (the centre of mass moves when shapes are added), the
// two bodies' joint lists, and the handle's generation.
typedef struct tbJointSlot
{
	tbJoint joint;
	vec3s originAnchorA, originAnchorB; // body frames, from the body origins, m
	int bodyA, bodyB;                   // body slots
	int edgePrev[2], edgeNext[2];       // joint index * 2 + side, or -1
	int solverIndex;                    // in this step's joint array, or -1
	float forceThreshold;               // N: a joint event above it (FLT_MAX: never)
	float torqueThreshold;              // N m
	void* userData;
	bool collideConnected;
	bool alive;
	uint32_t generation;
	int nextFree;
} tbJointSlot;

typedef struct tbWorld
{
	tbWorldDef def;
	// The game's callbacks (world.h): NULL when not set.
	tbCustomFilterFcn* customFilter;
	void* customFilterContext;
	tbPreSolveFcn* preSolve;
	void* preSolveContext;
	tbFrictionCallback* frictionCallback;
	tbRestitutionCallback* restitutionCallback;
	uint32_t generation;
	int index;
	bool alive;

	tbBodySlot* bodies;
	int bodyCount, bodyCapacity, freeBody, liveBodies;
	tbShapeSlot* shapes;
	int shapeCount, shapeCapacity, freeShape, liveShapes;
	tbContactSlot* contacts;
	int contactCount, contactCapacity, freeContact, liveContacts;
	tbContactLink* contactLinks; // one a contact slot (contactCount of them are set)
	int contactLinkCapacity;
	tbJointSlot* joints;
	int jointCount, jointCapacity, freeJoint, liveJoints;
	// A joint was made, or a body with joints woke or fell asleep, since tbWakeJointedBodies
	// last looked: only then may a joint tie a sleeping body to a moving one.
	bool jointWakeCheck;
	// Some joint was given a finite break threshold (never cleared): only then are the solved
	// joints' reactions checked for breaking (tbJointBreakEvents).
	bool breakableJoints;

	// Pair set: open addressing on key (shapeA << 32 | shapeB) and child -> contact index.
	uint64_t* pairKeys;
	int* pairValues;
	int* pairChildren; // the child (triangle) of each key, -1 for a convex pair
	int pairCapacity, pairCount;

	// The sets the step walks, so that its cost follows what is awake (Box2D v3's solver sets):
	// bodies that move and are awake, and contacts with at least one such body.
	int* awakeBodies;
	int awakeCount, awakeCapacity;
	int* activeContacts;
	int activeCount, activeCapacity;
	tbBodyBounds* bodyBounds; // per awake body at the start of tbCollide (indexed like the set)
	int bodyBoundCount, bodyBoundCapacity;

	tbDynamicTree trees[2];
	int* moveBuffer;
	int moveCount, moveCapacity;
	tbMoveQuery* moveQueries; // with workers: per moved proxy (broad_phase.c)
	int moveQueryCapacity;
	// With workers: per block of TB_MOVE_BLOCK moved proxies, whether one of them left the serial
	// pass work (a candidate, or a query to make again) (broad_phase.c).
	uint8_t* moveBlockFlags;
	int moveBlockCapacity;
	// With workers: a flag per active contact, written by a parallel pass for the serial pass
	// after it (the narrow phase's serial work, the solver's contacts).
	uint8_t* activeFlags;
	int activeFlagCapacity;

	// Step scratch, grown to the scene and then reused (no allocation after warm-up).
	tbRigidBody** solverBodies; // the awake bodies' Baraff records, solved in place
	int* solverBodySlots;
	int solverBodyCapacity;
	tbContactConstraint* solverContacts;
	int* solverContactSlots;
	int solverContactCapacity, solverContactCount;
	int* listBlockCounts; // with workers: per block of active contacts, the solver's (step.c)
	int listBlockCapacity;
	tbJointBinding* solverJoints; // the awake joints as the solve sees them (their slots' joints)
	int* solverJointSlots;
	int solverJointCapacity, solverJointCount;
	void* solverScratchRaw; // tbSolverStep's scratch (aligned to 64 bytes inside)
	size_t solverScratchBytes;
	tbSolverStats lastSolverStats;
	// The energy ledger and the solver trace (energy.c; all zero: off).
	bool energyLedgerOn;
	tbSolverLedger solverLedger;
	tbEnergyLedger energyLedger; // the last step's
	tbContactTraceFcn* contactTrace;
	void* contactTraceContext;
	int stoppedBodyCount; // bodies the step's NaN guard stopped, over the world's life
	tbProfile profile;    // the last step's
	float lastSubstep;    // s, of the last step (motor forces from impulses)
	float lastTimeStep;   // s, the last step's (contact forces from the step's impulses)
	int solverBodyCount;
	int* islandParent;
	float* islandSleep;
	int* islandHead;
	int islandCapacity;    // of the arrays above and solverBodySlots
	tbShapeRun* shapeRuns; // with workers: per block of solver bodies (step.c)
	int shapeRunCapacity;

	tbContactBeginTouchEvent* beginEvents;
	int beginCount, beginCapacity;
	tbContactEndTouchEvent* endEvents;
	int endCount, endCapacity;
	// End events made between steps (a destroyed shape or body, a filter change): kept apart and
	// delivered with the next step's events, so the arrays handed out stay valid until then.
	tbContactEndTouchEvent* pendingEndEvents;
	int pendingEndCount, pendingEndCapacity;
	tbBodyMoveEvent* moveEvents;
	int moveEventCount, moveEventCapacity;
	tbJointEvent* jointEvents; // joint.c: joints over their thresholds in the last step
	int jointEventCount, jointEventCapacity;

	// Bodies that moved far for their size in this step, and their poses at its start
	// (continuous.c).
	int* fastBodies;
	tbTransform* fastStarts;
	float* fastFractions; // each one's earliest impact, with workers (tbSolveContinuous)
	int fastCount, fastCapacity;

	int stepCount;
	tbLevelMemo* levelMemo; // contact_refresh.c: TB_LEVEL_MEMO entries per worker, each its own

	struct tbSensorState* sensors; // sensor.c: null until the first sensor shape
	tbContactHitEvent* hitEvents;  // hit_event.c: this step's, valid until the next
	int hitCount, hitCapacity;
	int hitShapeCount;     // live shapes with enableHitEvents: none, and the step skips the pass
	int rollingShapeCount; // live shapes with rolling resistance: none, and the solver skips it
	int bouncyShapeCount;  // live shapes with restitution > 0: none, no collision phase
	struct tbHitCandidate* hitCandidates; // hit_event.c: points that may strike in this solve
	int hitCandidateCount, hitCandidateCapacity;

	// Threads (task.c): the pool when the world runs its own (null with one worker or the game's
	// callbacks); whether the step's loops may run in parallel at all; per-worker counts.
	struct tbTaskPool* pool;
	bool parallel;
	tbWorkerCounts workerCounts[TB_MAX_WORKERS];
	// Polytopes' separating axes against level triangles (tbLevelSatSlot; mesh_contact.c).
	tbLevelSatSlot* levelSats;
	int levelSatCount, levelSatCapacity, freeLevelSat;
	// The narrow phase's parallel pass: level pairs' manifolds made ahead (contact.c).
	tbLevelAhead* levelAhead;
	int levelAheadCapacity;
	atomic_int levelAheadUsed;
} tbWorld;

// The passes over the active contacts visit slots scattered over the contact array, each visit
// waiting for its slot and then its bodies to come from memory. The next slots' indices are known
// ahead (the active set is a plain array), so a pass asks for them a few visits early: the whole
// slot TB_PREFETCH_AHEAD positions ahead (the narrow phase reads its manifold and cache), and,
// half that far ahead, what the visit reads of the bodies and shapes that slot names (the bodies'
// first two cache lines: tbBodySlot's hot fields and rb's state, v and w; the shapes' fat boxes).
// Hints only: a stale index (a pass that reorders the set) costs a wasted fetch, nothing else.
// Always inlined: GCC takes a function of prefetches alone for one without effects and drops
// the calls to it (the prefetches survive only written in place).
#define TB_PREFETCH_AHEAD 8

static inline __attribute__((always_inline)) void tbPrefetchActive(const tbWorld* w, int at)
{
	int ahead = at + TB_PREFETCH_AHEAD, near = at + TB_PREFETCH_AHEAD / 2;
	if (ahead < w->activeCount) {
		const char* p = (const char*)(w->contacts + w->activeContacts[ahead]);
		for (size_t k = 0; k < sizeof(tbContactSlot); k += 64) {
			__builtin_prefetch(p + k);
		}
	}
	if (near < w->activeCount) {
		const tbContactSlot* c = w->contacts + w->activeContacts[near];
		__builtin_prefetch(w->bodies + c->bodyA);
		__builtin_prefetch(w->bodies + c->bodyB);
		__builtin_prefetch((const char*)(w->bodies + c->bodyA) + 64);
		__builtin_prefetch((const char*)(w->bodies + c->bodyB) + 64);
		__builtin_prefetch(&w->shapes[c->shapeA].fatAABB);
		__builtin_prefetch(&w->shapes[c->shapeB].fatAABB);
	}
}

// core.c
void tbSetError(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Grow an array of `elem`-byte items to hold `need`; capacities double.
void tbGrowArray(void** array, int* capacity, int need, size_t elem);
// tbGrowArray without clearing the new items: for the large arrays whose items are written whole
// before they are read (contacts, the solver's contacts), so that the capacity not yet used is
// never touched and takes no resident memory.
void tbGrowArrayUncleared(void** array, int* capacity, int need, size_t elem);
bool tbFiniteQuat(versors q);
// Finite and within +-TB_MAX_COORDINATE on every axis.
bool tbCoordinatesInRange(vec3s v);
// A monotonic clock in milliseconds for the profile (never for the simulation itself).
double tbMilliseconds(void);

// task.c: the step's parallel loops. tbParallelFor runs task over [0, itemCount) in ranges of at
// least minRange items on the game's job system, the world's pool, or inline (one worker).
bool tbTaskPool_Create(tbWorld* world, int workerCount);
void tbTaskPool_Destroy(tbWorld* world);
// Whether a step is running: the pool's threads then wait for the next loop without sleeping.
void tbTaskPool_SetStepping(tbWorld* world, bool stepping);
void tbParallelFor(tbWorld* world, tbTaskCallback* task, int itemCount, int minRange,
                   void* taskContext);
// The same for items of very uneven cost (the narrow phase's pairs): smaller ranges on the pool,
// so that the loop's last ranges end close together. A game's job system gets the same call.
void tbParallelForUneven(tbWorld* world, tbTaskCallback* task, int itemCount, int minRange,
                         void* taskContext);
// One flag per worker, each on its own cache line: whether a worker's ranges of a parallel loop
// met something that leaves work to a serial pass after it (cleared before the loop, read after).
typedef struct tbWorkerFlags
{
	struct
	{
		_Alignas(64) bool any;
	} worker[TB_MAX_WORKERS];
} tbWorkerFlags;

static inline void tbClearWorkerFlags(tbWorkerFlags* f, int workerCount)
{
	for (int k = 0; k < workerCount; ++k) {
		f->worker[k].any = false;
	}
}

static inline bool tbAnyWorkerFlag(const tbWorkerFlags* f, int workerCount)
{
	bool any = false;
	for (int k = 0; k < workerCount; ++k) {
		any = any || f->worker[k].any;
	}
	return any;
}

// A list made side by side in fixed blocks of blockSize items (the same list at any worker
// count): `count` (context: the world) writes each block's count to listBlockCounts[block]; they
// become the blocks' offsets, summed in order. Returns the list's length.
int tbCountBlocks(tbWorld* world, tbTaskCallback* count, int itemCount, int blockSize);
// tbParallelFor as dynamics/ sees it (tbSolverDef.parallelFor; context: the world).
void tbSolverParallelFor(tbSolverTaskFcn* task, int itemCount, int minRange, void* taskContext,
                         void* context);
// tbParallelForUneven as dynamics/ sees it (tbSolverDef.parallelForUneven).
void tbSolverParallelForUneven(tbSolverTaskFcn* task, int itemCount, int minRange,
                               void* taskContext, void* context);

// world.c
tbWorld* tbGetWorld(tbWorldId id, const char* caller);
tbWorld* tbGetWorldFromIndex(int world0);

// body.c
tbBodySlot* tbGetBodySlot(tbBodyId id, tbWorld** world, const char* caller);
tbBodyId tbMakeBodyId(const tbWorld* world, int index);
void tbWakeBody(tbWorld* world, int bodyIndex);
void tbUpdateBodyMass(tbWorld* world, int bodyIndex);
// The mass of a dynamic body's shapes (plus `extra`, when not null, about to be added): false with
// a message when a shape's mass leaves float or the total is outside the supported range. When
// no shape weighs (*weighs false; `weighs` may be null), the mass tbBody_SetMassData gave, or the
// 1 kg placeholder of a body that has neither.
bool tbBodyMassFromShapes(const tbWorld* world, int bodyIndex, const tbGeometry* extra,
                          float extraDensity, tbTransform extraPose, tbMassData* out, bool* weighs,
                          char* message, int size);
void tbSyncBodyTransform(tbBodySlot* body);
// The narrow phase inside the step (contact_refresh.c): which solver contacts turn too fast for
// one manifold a step, and the solver's callback that makes them again at the substeps' poses.
// How far an impact in this step may swing the body's surface over, m (0 for slow bodies and
// spheres turning about their centre): added to the speculative margin of its pairs.
float tbSwingReach(const tbWorld* world, const tbBodySlot* body, float dt);
// A bound of how fast the points of one shape move against the other (in the other's frame) over
// the step, m/s: the two bodies' relative motion at the middle of the smaller shape plus their
// relative spin times its reach (contact.c).
float tbRelativeSurfaceSpeed(const tbBodySlot* bodyA, const tbShapeSlot* shapeA,
                             const tbBodySlot* bodyB, const tbShapeSlot* shapeB, float dt);
// The body's bounds of this step (zero for one that was not awake when tbCollide began).
static inline tbBodyBounds tbGetBodyBounds(const tbWorld* w, const tbBodySlot* b)
{
	tbBodyBounds none = {0.0f, 0.0f, 0.0f, 0.0f};
	return b->awakeIndex >= 0 && b->awakeIndex < w->bodyBoundCount ? w->bodyBounds[b->awakeIndex]
	                                                               : none;
}
// Whether the solver contact is a candidate (then filled for the refresh); writes only it, so
// the caller marks its bodies (refreshStep) for tbSpreadContactRefresh.
bool tbMarkContactRefresh(const tbWorld* world, const tbContactSlot* contact, float dt,
                          tbContactConstraint* solverContact);
// A bound of how fast a bullet's contact's surfaces may turn in this step, rad/s (0 for a pair
// without a bullet): the larger spin of its two bodies plus the most the normal impulse of a
// perfectly inelastic impact at one of its points would add to it. For the step's substeps (step.c,
// tbTurnSubsteps).
float tbContactTurn(const tbWorld* world, const tbContactSlot* contact,
                    const tbContactConstraint* solverContact);
// Every other contact of a body with a candidate becomes a candidate too (after all are marked).
void tbSpreadContactRefresh(tbWorld* world);
tbRefreshResult tbRefreshSolverContact(int contactIndex, const tbSolverDelta* movedA,
                                       const tbSolverDelta* movedB, tbSolverAnchors* anchors,
                                       tbManifold* manifold, int workerIndex, void* context);
// Whether a shape's contact features stay where they are on its body as it turns: a polytope's
// vertices, edges and faces, and a sphere's one point (always under its centre).
static inline bool tbKeepsFeatures(const tbGeometry* g)
{
	return g->type == tb_boxShape || g->type == tb_hullShape || g->type == tb_triangleShape ||
	       g->type == tb_sphereShape;
}
// A shape of flat faces only: a clipped point of it is one of its vertices, fixed in its body
// (a ball's point rolls over it).
static inline bool tbIsPolyhedron(const tbGeometry* g)
{
	return g->type == tb_boxShape || g->type == tb_hullShape || g->type == tb_triangleShape;
}
// Whether a face contact's manifold placed at the shapes' poses of now still holds their deepest
// features, for two shapes that keep their features (tbKeepsFeatures): the points share one
// reference face (or are one clipped point), and the shapes' separation along its normal is within
// the look's tolerance of its deepest point (contact_refresh.c).
bool tbPlacedManifoldHolds(const tbWorld* world, const tbShapeSlot* shapeA,
                           const tbShapeSlot* shapeB, const tbManifold* manifold);
// Returns how far the body's farthest point moves in dt at its velocity, m.
float tbUpdateBodyShapes(tbWorld* world, int bodyIndex, float dt, bool forceMove);
// The same for a parallel pass: each shape's pose and boxes only, a fat box made anew marked
// (fatMoved) for a serial pass to move its proxy in order; true when one was.
bool tbUpdateBodyBoxes(tbWorld* world, int bodyIndex, float dt);
// A body's reach in a step at its velocity, dt (|v| + |w| maxExtent), m.
static inline float tbBodyReach(const tbBodySlot* b, float dt)
{
	float turn = dt * glms_vec3_norm(b->rb.w);
	return dt * glms_vec3_norm(b->rb.v) + turn * b->maxExtent;
}

// The fattening of a moving shape's broad-phase box: the world's aabbMargin, or an eighth of the
// shape's bounding radius when that is less, so that small shapes in a crowd (a drum of small
// cubes) do not pair with every neighbour within a tenth of a metre (Box3D sizes its margins
// by the shape's extent the same way). Static shapes get none.
static inline float tbShapeMargin(const tbWorld* w, const tbShapeSlot* s)
{
	float own = 0.125f * s->radius;
	return own < w->def.aabbMargin ? own : w->def.aabbMargin;
}

// events.c
// Around an API call between steps that may end contacts: its end events go to the pending array.
void tbBeginApiEvents(tbWorld* world);
void tbEndApiEvents(tbWorld* world);
// At the start of a step: last step's events are dropped and the pending ones become this step's.
void tbStartStepEvents(tbWorld* world);
// After the step: a move event for every body of this step's solve.
void tbPushMoveEvents(tbWorld* world);

// shape.c
tbShapeId tbMakeShapeId(const tbWorld* world, int index);
void tbDestroyShapeInternal(tbWorld* world, int shapeIndex, bool updateMass);
bool tbShouldShapesCollide(tbFilter a, tbFilter b);
// Whether two shapes of different bodies may make a contact: their filters and the game's custom
// filter (called only when the filters pass).
bool tbShouldShapesContact(tbWorld* w, int shapeA, int shapeB);
// The pair's mixed friction and restitution, by the world's rules (contact.c).
void tbMixMaterial(const tbWorld* w, const tbShapeSlot* a, const tbShapeSlot* b, float* friction,
                   float* restitution);

// contact.c
void tbCreateContact(tbWorld* world, int shapeA, int shapeB, int child);
void tbDestroyContact(tbWorld* world, int contactIndex, bool wakeBodies);
void tbDestroyShapeContacts(tbWorld* world, int shapeIndex);
void tbCollide(tbWorld* world, float dt);
// For two balls whose gap closes within the step: the solver's copy of the manifold made at the
// poses of impact (normal along the line of centres then) and the bodies' deltas to those poses
// in contact->madeA, madeB. False (the contact unchanged) for any other pair.
bool tbAimAtImpact(const tbWorld* world, const tbContactSlot* c, tbContactConstraint* contact,
                   float dt, float substep);
tbContactData tbMakeContactData(const tbWorld* world, const tbContactSlot* c);

// broad_phase.c
void tbBroadPhase_UpdatePairs(tbWorld* world);
// Gives a shape's proxy its new fat box: moved in the static tree, enlarged in place in the
// moving tree (rebuilt at the next pairs stage).
void tbBroadPhase_MoveProxy(tbWorld* w, const tbShapeSlot* shape);
// tbBroadPhase_MoveProxy for a moving shape from a parallel loop over bodies (each shape's proxy
// its caller's own; tbDynamicTree_EnlargeProxyShared): false for a static shape, which the
// caller moves on one thread.
bool tbBroadPhase_EnlargeProxyShared(tbWorld* w, const tbShapeSlot* shape);
void tbBroadPhase_BufferMove(tbWorld* world, int shapeIndex);
void tbBroadPhase_RemoveFromMoveBuffer(tbWorld* world, int shapeIndex);
// Frees the workers' candidate pairs and the move queries (tbDestroyWorld).
void tbBroadPhase_FreeScratch(tbWorld* world);
int tbPairFind(const tbWorld* world, int shapeA, int shapeB, int child);
void tbPairInsert(tbWorld* world, int shapeA, int shapeB, int child, int contactIndex);
void tbPairRemove(tbWorld* world, int shapeA, int shapeB, int child);

// mesh_contact.c: contacts of convex shapes with meshes and heightfields.
// The first contact of a convex shape and a mesh or heightfield shape (either order); the narrow
// phase (tbCollide) makes the pair's further manifolds.
void tbCreateLevelContacts(tbWorld* world, int shapeA, int shapeB);
// The convex shape's separating-axis cache for this level shape (null: it keeps none for it).
tbLevelSatCache* tbLevelSatOf(const tbWorld* world, int convex, int level);
// A destroyed shape's cache entry back to the free list.
void tbReleaseLevelSat(tbWorld* world, int shape);
// True when a convex shape placed at xf overlaps a triangle of the level shape (world queries).
bool tbLevelOverlapsShape(const tbShapeSlot* shape, const tbGeometry* convex, tbTransform xf);
// The triangles of a mesh or heightfield shape as segments (debug draw).
void tbDrawLevelShape(const tbShapeSlot* shape, const tbDebugDraw* draw, tbHexColor color);

// island.c: the awake set
void tbSetBodyAwake(tbWorld* world, int bodyIndex, bool awake);
void tbRemoveBodyFromSets(tbWorld* world, int bodyIndex);
void tbUpdateContactActivity(tbWorld* world, int contactIndex);
void tbLinkContact(tbWorld* world, int contactIndex);
void tbUnlinkContact(tbWorld* world, int contactIndex);

// joint.c
void tbDestroyBodyJoints(tbWorld* world, int bodyIndex);
bool tbBodiesMayCollide(const tbWorld* world, int bodyA, int bodyB);
void tbWakeJointedBodies(tbWorld* world);
void tbGatherJoints(tbWorld* world);
void tbJointBreakEvents(tbWorld* world);
void tbDrawJoints(const tbWorld* world, const tbDebugDraw* draw);

// sensor.c: sensors' overlaps at the end of each step and their begin/end events.
void tbSensor_Add(tbWorld* world, int shapeIndex);
void tbSensor_Update(tbWorld* world);
void tbSensor_DestroyAll(tbWorld* world);

// hit_event.c: contact points that approach faster than def.hitEventThreshold (before the solve)
// and that the solve pushed apart.
void tbHitEvents_Prepare(tbWorld* world);
void tbHitEvents_Finish(tbWorld* world);
void tbHitEvents_DestroyAll(tbWorld* world);
// world_query.c: the cast callback that keeps the closest hit in a tbRayResult (context) and
// clips the cast there; tbWorld_CastRayClosest and tbWorld_CastShapeClosest use it.
float tbClosestHitCallback(tbShapeId shapeId, vec3s point, vec3s normal, float fraction,
                           void* context);

// continuous.c
// (continuous.h: tbContinuousCheck, inlined into the step.)
// Sweep the step's fast bodies against static shapes (bullets also against dynamic bodies) and
// move each back to its first time of impact.
void tbSolveContinuous(tbWorld* world, float dt);
// The smallest half thickness of the body's shapes, m.
float tbBodyMinExtent(const tbWorld* world, int bodyIndex);

// island.c: islands and sleep
void tbUpdateSleep(tbWorld* world, float dt);

// The energy ledger and the solver trace (energy.c): the scratch bytes the ledger needs this
// step (0 when off), the solver's settings for them, and the ledger read after the finish.
size_t tbEnergyScratchBytes(const tbWorld* world);
void tbEnergySolverDef(tbWorld* world, tbSolverDef* def);
void tbEnergyFinish(tbWorld* world);
void tbPutIslandToSleep(tbWorld* world, int headBody);
