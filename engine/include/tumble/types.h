// The engine's public value types: ids, definitions with their defaults, events, query results.
#pragma once

#include "tumble/base.h"
#include "tumble/collision.h"
#include "tumble/dynamics.h"

/// A world handle. All zero is the null id. Worlds are few: index1 is the slot + 1. The
/// generation counts the worlds a slot has held (32 bits; a slot whose count is exhausted is
/// retired, never reused, so an id is never repeated).
typedef struct tbWorldId
{
	uint16_t index1;
	uint16_t reserved;
	uint32_t generation;
} tbWorldId;

/// A body handle: slot + 1, the world's slot and generation, and a generation that changes when
/// the body slot is reused, so a stale handle is detected instead of aliasing a new body (Box2D
/// v3's b2BodyId). The world's generation makes a handle of a destroyed world stale even after
/// another world takes its slot. A body slot whose 32-bit generation is exhausted is retired.
typedef struct tbBodyId
{
	int32_t index1;
	uint16_t world0;
	uint16_t reserved;
	uint32_t worldGeneration;
	uint32_t generation;
} tbBodyId;

/// A handle of a shape attached to a body (same layout and rules as tbBodyId).
typedef struct tbShapeId
{
	int32_t index1;
	uint16_t world0;
	uint16_t reserved;
	uint32_t worldGeneration;
	uint32_t generation;
} tbShapeId;

/// The null ids: what a failed create returns (TB_IS_NULL is true for them).
static const tbWorldId tb_nullWorldId = {0, 0, 0};
static const tbBodyId tb_nullBodyId = {0, 0, 0, 0, 0};
static const tbShapeId tb_nullShapeId = {0, 0, 0, 0, 0};

/// True when the ids name the same object.
#define TB_ID_EQUALS(a, b)                                                                         \
	((a).index1 == (b).index1 && (a).world0 == (b).world0 &&                                       \
	 (a).worldGeneration == (b).worldGeneration && (a).generation == (b).generation)
/// True for the null id.
#define TB_IS_NULL(id) ((id).index1 == 0)

/// World settings. Start from tbDefaultWorldDef().
/// A task of the step: items [startIndex, endIndex) of one of its parallel loops, run by worker
/// `workerIndex` (0 to tbWorldDef.workerCount - 1). Ranges that run at the same time must have
/// different worker indices: a worker's scratch memory is its own.
typedef void tbTaskCallback(int startIndex, int endIndex, int workerIndex, void* taskContext);

/// Hands one of the step's parallel loops to the game's job system: call `task` over the items
/// [0, itemCount), split into ranges of at least `minRange` items (or one range), each range once,
/// on any threads. Returns a handle for tbFinishTaskCallback, or NULL when the task has already
/// run to the end (inline). Items are independent: the results are the same bits for any split.
typedef void* tbEnqueueTaskCallback(tbTaskCallback* task, int itemCount, int minRange,
                                    void* taskContext, void* userTaskContext);

/// Waits until every range of the task that tbEnqueueTaskCallback returned has run.
typedef void tbFinishTaskCallback(void* userTask, void* userTaskContext);

typedef struct tbWorldDef
{
	vec3s gravity;       ///< m/s^2, (0, -9.81, 0)
	int iterations;      ///< soft (biased) contact iterations per substep (2); joints take the last
	int relaxIterations; ///< unbiased iterations per substep (1)
	/// Contact spring stiffness, Hz (60): at most TB_MAX_CONTACT_HERTZ (refused above it), and
	/// each step uses at most a quarter of its substep rate.
	float contactHertz;
	float contactDampingRatio;  ///< contact spring damping ratio (10)
	float contactPushMaxSpeed;  ///< largest speed at which overlap is pushed out, m/s (3)
	float restitutionThreshold; ///< approach speed below which nothing bounces, m/s (1)
	/// Contact points are made while shapes are up to this far apart plus the distance they close
	/// in one step, m (0.02): speculative contacts (Catto 2013) stop a body before it sinks in.
	float speculativeDistance;
	/// fattening of the broad-phase boxes of moving shapes, m (0.1); a shape whose bounding radius
	/// is under 8 aabbMargin gets an eighth of that radius instead
	float aabbMargin;
	bool enableSleep;     ///< islands at rest fall asleep (true)
	float sleepThreshold; ///< speed above which a moving kinematic body wakes what it touches, m/s
	                      ///< (0.05); each body rests below its own tbBodyDef.sleepThreshold
	float timeToSleep;    ///< rest time before an island sleeps, s (0.5)
	bool enableWarmStarting; ///< start contacts from the last step's impulses (true)
	tbIntegrator integrator; ///< how R follows L in a substep (TB_DEFAULT_INTEGRATOR)
	/// Continuous collision (true): a dynamic body that moved far for its size in a step is swept
	/// against static shapes and stopped at its first time of impact (docs/continuous.md).
	bool enableContinuous;
	/// Contacts of pairs that turn fast are made again at the start of every substep where their
	/// surfaces may meet (true): a tumbling box's or a spinning cone's closest features change
	/// within a step, which the step's manifold cannot see (docs/continuous.md, "Fast-turning
	/// pairs"). Off: one narrow phase per pair per step, cheaper in violent scenes.
	bool enableContactRefresh;
	int initialBodyCapacity;  ///< bodies to make room for at creation (grows as needed)
	int initialShapeCapacity; ///< shapes to make room for at creation
	float hitEventThreshold;  ///< approach speed of a hit event (tbContactHitEvent), m/s (1)
	/// Threads that run the step, 1 to 64 (1: the calling thread alone, no threading). Without
	/// enqueueTask, the world starts workerCount - 1 threads of its own (docs/threads.md). The
	/// results are the same bits for any count.
	int workerCount;
	/// Optional: run the step's tasks on the game's job system (with finishTask; both or neither).
	/// It may use worker indices 0 to workerCount - 1.
	tbEnqueueTaskCallback* enqueueTask;
	tbFinishTaskCallback* finishTask; ///< waits for a task enqueueTask returned
	void* userTaskContext;            ///< passed to enqueueTask and finishTask
	void* userData;
} tbWorldDef;

/// The default world settings.
TB_API tbWorldDef tbDefaultWorldDef(void);

/// Body settings. Start from tbDefaultBodyDef().
typedef struct tbBodyDef
{
	tbBodyType type;       ///< tb_staticBody by default
	vec3s position;        ///< world position of the body origin, m
	versors rotation;      ///< unit quaternion (normalised here), identity by default
	vec3s linearVelocity;  ///< of the centre of mass, m/s
	vec3s angularVelocity; ///< world, rad/s
	float linearDamping;   ///< 1/s (0)
	float angularDamping;  ///< 1/s (0)
	float gravityScale;    ///< (1)
	bool enableSleep;      ///< this body may sleep (true)
	/// Speed of the body's farthest point below which it counts as resting, m/s (0.05, Box2D's).
	/// An experiment that measures slow motion sets it lower, or enableSleep false.
	float sleepThreshold;
	bool isAwake; ///< starts awake (true)
	/// Continuous collision against dynamic bodies as well as static ones (false): for small fast
	/// projectiles (docs/continuous.md).
	bool isBullet;
	void* userData;
} tbBodyDef;

/// The default body: static, at the origin, identity rotation.
TB_API tbBodyDef tbDefaultBodyDef(void);

/// Collision filter: two shapes of different bodies collide when each one's category is in the
/// other's mask, unless a group index decides first (Box2D's rule): two shapes with the same
/// positive groupIndex always collide, two with the same negative one never do (a ragdoll's
/// parts); zero, or different groups, leaves it to the bits.
typedef struct tbFilter
{
	uint64_t categoryBits; ///< what this shape is (1)
	uint64_t maskBits;     ///< what it collides with (all)
	int32_t groupIndex;    ///< 0: no group
} tbFilter;

/// Shape settings. Start from tbDefaultShapeDef().
typedef struct tbShapeDef
{
	tbTransform localPose; ///< the shape's frame in the body frame (identity)
	float density;         ///< kg/m^3 (1000: water)
	/// Coulomb coefficient (0.6). A pair uses sqrt(muA muB) (tbMixFriction): either zero gives
	/// zero.
	float friction;
	/// Restitution in [0, 1] (0). A pair uses max(eA, eB) (tbMixRestitution): a ball bounces on
	/// anything.
	float restitution;
	tbFilter filter;
	/// A sensor (false): it never collides and never pushes; it reports which other shapes overlap
	/// it, as begin and end events (tbWorld_GetSensorEvents, docs/events.md). A sensor does not
	/// see other sensors nor shapes of its own body. It has its density's mass like any shape.
	bool isSensor;
	/// Report hits of this shape's contacts faster than tbWorldDef.hitEventThreshold (false):
	/// tbContactEvents.hitEvents.
	bool enableHitEvents;
	/// Rolling resistance coefficient c (0): a contact resists the bodies' relative rolling with a
	/// torque of at most c N r, where N is the normal force and r the distance from the rolling
	/// body's centre of mass to the contact (docs/materials.md). A pair uses max(cA, cB).
	float rollingResistance;
	/// Velocity of the shape's surface along itself, in the body frame, m/s (zero): a conveyor
	/// belt. Friction drives the surfaces' relative tangential velocity to the difference of the
	/// two shapes' tangent velocities instead of to zero; the part along the normal is ignored.
	vec3s tangentVelocity;
	/// A number of the game's own for this shape's material (0), handed to the friction and
	/// restitution callbacks (tbWorld_SetFrictionCallback).
	int32_t material;
	void* userData;
} tbShapeDef;

/// The default shape settings.
TB_API tbShapeDef tbDefaultShapeDef(void);

/// A filter for queries: shapes whose category is in maskBits and whose mask holds categoryBits.
typedef struct tbQueryFilter
{
	uint64_t categoryBits;
	uint64_t maskBits;
} tbQueryFilter;

/// A filter that sees everything.
TB_API tbQueryFilter tbDefaultQueryFilter(void);

/// Two shapes began touching (their manifold got points) in the last step.
typedef struct tbContactBeginTouchEvent
{
	tbShapeId shapeIdA;
	tbShapeId shapeIdB;
	tbManifold manifold;
} tbContactBeginTouchEvent;

/// Two shapes stopped touching (or one was destroyed) in the last step.
typedef struct tbContactEndTouchEvent
{
	tbShapeId shapeIdA;
	tbShapeId shapeIdB;
} tbContactEndTouchEvent;

/// A contact point that struck in the last step: its shapes approached faster than
/// tbWorldDef.hitEventThreshold along the normal at the point and the solver pushed them apart
/// there (docs/events.md). Made when either shape has enableHitEvents.
typedef struct tbContactHitEvent
{
	tbShapeId shapeIdA;
	tbShapeId shapeIdB;
	vec3s point;         ///< m, world: midway between the two shapes' points
	vec3s normal;        ///< unit, world, from A to B
	float approachSpeed; ///< m/s > 0: the relative normal velocity at the point before the solve
} tbContactHitEvent;

/// The contact events of the last step; the arrays are valid until the next step, also while
/// bodies and shapes are destroyed or refiltered: the end events those calls make between steps
/// are held back and delivered with the next step's events.
typedef struct tbContactEvents
{
	const tbContactBeginTouchEvent* beginEvents;
	const tbContactEndTouchEvent* endEvents;
	int beginCount;
	int endCount;
	const tbContactHitEvent* hitEvents; ///< the hits of the last step (tbContactHitEvent)
	int hitCount;
} tbContactEvents;

/// A shape began to overlap a sensor shape in the last step.
typedef struct tbSensorBeginTouchEvent
{
	tbShapeId sensorShapeId;
	tbShapeId visitorShapeId;
} tbSensorBeginTouchEvent;

/// A shape stopped overlapping a sensor shape in the last step, or it (or the sensor) was
/// destroyed since the step before: then the id is stale (tbShape_IsValid is false).
typedef struct tbSensorEndTouchEvent
{
	tbShapeId sensorShapeId;
	tbShapeId visitorShapeId;
} tbSensorEndTouchEvent;

/// The sensor events of the last step (overlaps as they are at its end); the arrays are valid
/// until the next step, also while bodies and shapes are destroyed between steps.
typedef struct tbSensorEvents
{
	const tbSensorBeginTouchEvent* beginEvents;
	const tbSensorEndTouchEvent* endEvents;
	int beginCount;
	int endCount;
} tbSensorEvents;

/// A body moved in the last step (every awake body moves).
typedef struct tbBodyMoveEvent
{
	tbTransform transform; ///< body origin and rotation, world
	tbBodyId bodyId;
	void* userData;
	bool fellAsleep; ///< its island fell asleep at the end of the step
} tbBodyMoveEvent;

/// The body events of the last step; valid until the next step.
typedef struct tbBodyEvents
{
	const tbBodyMoveEvent* moveEvents;
	int moveCount;
} tbBodyEvents;

/// A touching pair: its manifold and what each point pushed with over the last step (a body
/// resting on it alone: the points' normal impulses sum to m g dt, their forces to m g).
typedef struct tbContactData
{
	tbShapeId shapeIdA;
	tbShapeId shapeIdB;
	tbManifold manifold; ///< world points, normal A to B
	/// Normal impulse on B over the whole last step, N s: the sum over its substeps and the
	/// restitution pass (docs/solver.md, "Measuring contact forces").
	float normalImpulses[TB_MAX_MANIFOLD_POINTS];
	/// Friction impulse on B over the whole last step, world, N s: the manifold's one friction
	/// row shared among the points in proportion to their normal impulses.
	vec3s frictionImpulses[TB_MAX_MANIFOLD_POINTS];
	/// Mean normal force over the last step, N: normalImpulses / the step's timeStep.
	float normalForces[TB_MAX_MANIFOLD_POINTS];
	/// Mean friction force over the last step, world, N: frictionImpulses / timeStep.
	vec3s frictionForces[TB_MAX_MANIFOLD_POINTS];
} tbContactData;

/// The closest hit of a ray.
typedef struct tbRayResult
{
	tbShapeId shapeId;
	vec3s point;    ///< m, world
	vec3s normal;   ///< outward surface normal, world
	float fraction; ///< point = origin + fraction * translation
	bool hit;
} tbRayResult;

/// Called for each shape a ray hits. Return -1 to ignore the hit, 0 to stop, the fraction to clip
/// the ray there (closest hit), or 1 to go on with every hit (Box2D's b2CastResultFcn).
typedef float tbCastResultFcn(tbShapeId shapeId, vec3s point, vec3s normal, float fraction,
                              void* context);

/// Called for each shape an overlap query finds. Return false to stop.
typedef bool tbOverlapResultFcn(tbShapeId shapeId, void* context);

/// A colour 0xRRGGBB.
typedef uint32_t tbHexColor;

/// Debug drawing: the world calls these from tbWorld_Draw; no GL in the library. Any callback may
/// be null.
typedef struct tbDebugDraw
{
	void (*DrawSegment)(vec3s p1, vec3s p2, tbHexColor color, void* context);
	void (*DrawPoint)(vec3s p, float size, tbHexColor color, void* context);
	void (*DrawTransform)(tbTransform transform, void* context);
	/// The shape (local geometry) placed at `transform`; the viewer tessellates it.
	void (*DrawShape)(const tbGeometry* shape, tbTransform transform, tbHexColor color,
	                  void* context);
	bool drawShapes;          ///< each shape, coloured by body state (awake, asleep, static)
	bool drawAABBs;           ///< fattened broad-phase boxes as 12 segments
	bool drawContactPoints;   ///< manifold points
	bool drawContactNormals;  ///< normals at the points, 0.2 m long
	bool drawContactImpulses; ///< normal impulses as segments, 1 m per 10 N s
	bool drawMass;            ///< body frames at the centres of mass
	bool drawJoints;          ///< anchors, the segments to them, hinge and slider axes
	void* context;
} tbDebugDraw;

/// Debug draw with shapes and joints on, everything else off, all callbacks null.
TB_API tbDebugDraw tbDefaultDebugDraw(void);
