// The world's private tables: body, shape and contact slots, the pair set, scratch and events.
#pragma once

#include "tumble/world.h"

// A slot (world, body or shape) whose generation reaches this is retired instead of reused: its
// ids can then never repeat (each reuse adds 2: one at destruction, one at creation).
#define TB_RETIRED_GENERATION (UINT32_MAX - 2u)

typedef struct tbBodySlot
{
	tbRigidBody rb;    // Baraff state; rb.state.x is the centre of mass
	vec3s localCenter; // centre of mass in the body frame, m
	tbTransform xf;    // body origin and rotation, kept in step with rb
	float maxExtent;   // largest distance of a shape point from the centre of mass, m
	float sleepTime;   // how long the body has been resting, s
	void* userData;
	int firstShape; // shape list through tbShapeSlot.nextInBody
	int shapeCount;
	int sleepNext;   // next body of the same sleeping island, or -1
	int solverIndex; // index in the step's solver array, or -1
	int nextFree;
	uint32_t generation; // TB_RETIRED_GENERATION: never reused
	bool alive;
	bool awake;
	bool enableSleep;
} tbBodySlot;

typedef struct tbShapeSlot
{
	tbShape geometry;
	tbTransform localPose; // in the body frame
	tbTransform xf;        // world, kept in step with the body
	tbAABB aabb;           // tight world box
	tbAABB fatAABB;        // the broad-phase box (holds aabb)
	float density, friction, restitution;
	tbFilter filter;
	void* userData;
	int body;
	int nextInBody;
	int proxyId;
	int tree;      // 0: static tree, 1: moving tree
	bool enlarged; // in the move buffer
	int nextFree;
	uint32_t generation; // TB_RETIRED_GENERATION: never reused
	bool alive;
} tbShapeSlot;

// The last narrow-phase result of a pair in the pair's own frames, kept so that a pair whose
// relative pose has barely moved since can skip GJK/EPA and clipping (contact.c).
typedef struct tbContactCache
{
	tbTransform bInA;                     // B's frame in A's frame when the narrow phase ran
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

typedef struct tbContactSlot
{
	int shapeA, shapeB; // shapeA < shapeB
	tbManifold manifold;
	tbContactCache cache;
	tbContactImpulses impulses; // warm-start cache (by feature id)
	float friction, restitution;
	bool touching;
	bool alive;
	int nextFree;
} tbContactSlot;

typedef struct tbWorld
{
	tbWorldDef def;
	uint32_t generation;
	int index;
	bool alive;

	tbBodySlot* bodies;
	int bodyCount, bodyCapacity, freeBody, liveBodies;
	tbShapeSlot* shapes;
	int shapeCount, shapeCapacity, freeShape, liveShapes;
	tbContactSlot* contacts;
	int contactCount, contactCapacity, freeContact, liveContacts;

	// Pair set: open addressing on key (shapeA << 32 | shapeB) -> contact index.
	uint64_t* pairKeys;
	int* pairValues;
	int pairCapacity, pairCount;

	tbDynamicTree trees[2];
	int* moveBuffer;
	int moveCount, moveCapacity;

	// Step scratch, grown to the scene and then reused (no allocation after warm-up).
	tbRigidBody* solverBodies;
	int* solverBodySlots;
	int solverBodyCapacity;
	tbContact* solverContacts;
	int* solverContactSlots;
	int solverContactCapacity;
	int* islandParent;
	float* islandSleep;
	int islandCapacity;

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

	int stepCount;
} tbWorld;

// world.c
tbWorld* tbGetWorld(tbWorldId id, const char* caller);
tbWorld* tbGetWorldFromIndex(int world0);
void tbSetError(const char* format, ...) __attribute__((format(printf, 1, 2)));
// Grow an array of `elem`-byte items to hold `need`; capacities double.
void tbGrowArray(void** array, int* capacity, int need, size_t elem);
bool tbFiniteVec3(vec3s v);
bool tbFiniteQuat(versors q);
// Finite and within +-TB_MAX_COORDINATE on every axis.
bool tbCoordinatesInRange(vec3s v);

// body.c
tbBodySlot* tbGetBodySlot(tbBodyId id, tbWorld** world, const char* caller);
tbBodyId tbMakeBodyId(const tbWorld* world, int index);
void tbWakeBody(tbWorld* world, int bodyIndex);
void tbUpdateBodyMass(tbWorld* world, int bodyIndex);
// The mass of a dynamic body's shapes (plus `extra`, when not null, about to be added): false with
// a message when a shape's mass leaves float or the total is outside the supported range.
bool tbBodyMassFromShapes(const tbWorld* world, int bodyIndex, const tbShape* extra,
                          float extraDensity, tbTransform extraPose, tbMassData* out, char* message,
                          int size);
void tbSyncBodyTransform(tbBodySlot* body);
void tbUpdateBodyShapes(tbWorld* world, int bodyIndex, float dt, bool forceMove);

// shape.c
tbShapeId tbMakeShapeId(const tbWorld* world, int index);
// Around an API call between steps that may end contacts: its end events go to the pending array.
void tbBeginApiEvents(tbWorld* world);
void tbEndApiEvents(tbWorld* world);
// At the start of a step: last step's events are dropped and the pending ones become this step's.
void tbStartStepEvents(tbWorld* world);
void tbDestroyShapeInternal(tbWorld* world, int shapeIndex, bool updateMass);
bool tbShouldShapesCollide(tbFilter a, tbFilter b);

// contact.c
void tbCreateContact(tbWorld* world, int shapeA, int shapeB);
void tbDestroyContact(tbWorld* world, int contactIndex, bool wakeBodies);
void tbDestroyShapeContacts(tbWorld* world, int shapeIndex);
void tbCollide(tbWorld* world, float dt);
tbContactData tbMakeContactData(const tbWorld* world, const tbContactSlot* c);

// broad_phase.c
void tbBroadPhase_UpdatePairs(tbWorld* world);
void tbBroadPhase_BufferMove(tbWorld* world, int shapeIndex);
void tbBroadPhase_RemoveFromMoveBuffer(tbWorld* world, int shapeIndex);
int tbPairFind(const tbWorld* world, int shapeA, int shapeB);
void tbPairInsert(tbWorld* world, int shapeA, int shapeB, int contactIndex);
void tbPairRemove(tbWorld* world, int shapeA, int shapeB);

// island.c
void tbUpdateSleep(tbWorld* world, float dt);
void tbPutIslandToSleep(tbWorld* world, int headBody);
