// The world: creation, the step, bodies, shapes on bodies, events, queries and debug draw.
#pragma once

#include "tumble/types.h"

// ---------------------------------------------------------------------------------------------
// Errors. Programmer errors (a stale or null handle) go through TB_ASSERT and the function returns
// a harmless default; bad data (NaN pose, zero-size shape, dt <= 0) is refused with a message.
// Either way the message is kept here and the world keeps working.

/// The last error message ("tbWorld_Step: timeStep must be finite and > 0, got -0.016"), or "".
TB_API const char* tbGetLastError(void);

/// Forget the last error.
TB_API void tbClearLastError(void);

// ---------------------------------------------------------------------------------------------
// World

/// Create a world. Up to TB_MAX_WORLDS exist at once; returns the null id (with an error) beyond.
/// Every field of `def` is checked (finite, in range, a known integrator, capacities up to
/// TB_MAX_INITIAL_CAPACITY); a bad field or a failed allocation gives the null id and an error
/// naming it (tbGetLastError).
TB_API tbWorldId tbCreateWorld(const tbWorldDef* def);

/// The most worlds alive at once.
#define TB_MAX_WORLDS 64

/// Largest tbWorldDef.iterations and relaxIterations tbCreateWorld accepts.
#define TB_MAX_SOLVER_ITERATIONS 1000

/// Largest tbWorldDef.contactHertz tbCreateWorld accepts, Hz: a quarter of the substep rate of
/// 240 Hz steps with 4 substeps. Every step also holds it to a quarter of its own substep rate
/// (60 Hz at 60 Hz and 4 substeps), beyond which the implicit spring no longer resolves it.
#define TB_MAX_CONTACT_HERTZ 240.0f

/// Largest tbWorldDef.initialBodyCapacity and initialShapeCapacity (about 0.5 GB of slots);
/// worlds still grow past it as bodies are added.
#define TB_MAX_INITIAL_CAPACITY (1 << 20)

/// Destroy a world with everything in it; its memory returns to the allocator.
TB_API void tbDestroyWorld(tbWorldId worldId);

/// True while the world exists.
TB_API bool tbWorld_IsValid(tbWorldId worldId);

/// Advance the world by `timeStep` seconds with `substeps` solver substeps (4 is good): broad
/// phase, manifolds, warm start, soft-step solver, sleeping, events. Returns false (and changes
/// nothing) when timeStep is not finite and > 0 or substeps < 1. Allocates nothing once the
/// world's tables have grown to the scene.
TB_API bool tbWorld_Step(tbWorldId worldId, float timeStep, int substeps);

/// Draw the world through the callbacks.
TB_API void tbWorld_Draw(tbWorldId worldId, const tbDebugDraw* draw);

/// Contact begin/end events of the last step.
TB_API tbContactEvents tbWorld_GetContactEvents(tbWorldId worldId);

/// The sensor events of the last step (sensor.c, docs/events.md): valid until the next step.
TB_API tbSensorEvents tbWorld_GetSensorEvents(tbWorldId worldId);

/// Body move events of the last step.
TB_API tbBodyEvents tbWorld_GetBodyEvents(tbWorldId worldId);

/// How many touching pairs tbWorld_GetContactData has to give now (size its buffer with it).
TB_API int tbWorld_GetContactCount(tbWorldId worldId);

/// Copy up to `capacity` touching pairs into `data`; returns how many were copied.
TB_API int tbWorld_GetContactData(tbWorldId worldId, tbContactData* data, int capacity);

/// Set the gravity, m/s^2 (a NaN or Inf vector is refused with an error).
TB_API void tbWorld_SetGravity(tbWorldId worldId, vec3s gravity);
/// The gravity, m/s^2.
TB_API vec3s tbWorld_GetGravity(tbWorldId worldId);

/// Turn sleeping on or off (off wakes every body).
TB_API void tbWorld_EnableSleeping(tbWorldId worldId, bool flag);

// ---------------------------------------------------------------------------------------------
// Callbacks: the game's say over which shapes collide and how (docs/materials.md). Each is called
// on the thread that calls tbWorld_Step (never from a worker), in an order that does not depend on
// the worker count, and must not create or destroy anything in the world.

/// Whether two shapes that pass their filters (tbFilter) may make a contact: called when the broad
/// phase finds their boxes overlapping and they have no contact yet (again each time one of them
/// moves out of its fattened box while they overlap), and before a continuous sweep of one
/// against the other. False keeps them apart; a contact once made stays until the boxes part.
typedef bool tbCustomFilterFcn(tbShapeId shapeIdA, tbShapeId shapeIdB, void* context);

/// Set (or clear, with NULL) the custom pair filter.
TB_API void tbWorld_SetCustomFilterCallback(tbWorldId worldId, tbCustomFilterFcn* fcn,
                                            void* context);

/// What a touching contact does in this step, as the pre-solve callback may change it.
typedef struct tbContactMaterial
{
	float friction;          ///< Coulomb coefficient of the pair, >= 0
	float restitution;       ///< in [0, 1]
	float rollingResistance; ///< the pair's rolling resistance coefficient, >= 0
	/// The relative tangential velocity friction drives the surfaces to, B's surface relative to
	/// A's, world, m/s: the shapes' tangent velocities (tbShapeDef.tangentVelocity) B's less A's.
	vec3s tangentVelocity;
} tbContactMaterial;

/// Called every step for each touching contact that goes to the solver, after the narrow phase:
/// return false to leave the contact out of this step (a one-way platform), or change `material`
/// for this step. `manifold` is the contact's (world points, normal from A to B).
typedef bool tbPreSolveFcn(tbShapeId shapeIdA, tbShapeId shapeIdB, const tbManifold* manifold,
                           tbContactMaterial* material, void* context);

/// Set (or clear, with NULL) the pre-solve callback.
TB_API void tbWorld_SetPreSolveCallback(tbWorldId worldId, tbPreSolveFcn* fcn, void* context);

/// How a pair's friction is made from its shapes' (and their tbShapeDef.material numbers) when
/// the contact is created. The default is sqrt(frictionA frictionB).
typedef float tbFrictionCallback(float frictionA, int32_t materialA, float frictionB,
                                 int32_t materialB);

/// How a pair's restitution is made from its shapes'. The default is max(eA, eB).
typedef float tbRestitutionCallback(float restitutionA, int32_t materialA, float restitutionB,
                                    int32_t materialB);

/// Set (or restore the default, with NULL) the friction mixing rule for contacts made from now
/// on. A result that is NaN or negative is taken as zero.
TB_API void tbWorld_SetFrictionCallback(tbWorldId worldId, tbFrictionCallback* callback);
/// Set (or restore the default, with NULL) the restitution mixing rule for contacts made from
/// now on. A result outside [0, 1] (or NaN) is clamped to it (NaN: 0).
TB_API void tbWorld_SetRestitutionCallback(tbWorldId worldId, tbRestitutionCallback* callback);

/// Counts, for tools and tests.
typedef struct tbWorldCounters
{
	int bodyCount;
	int shapeCount;
	int contactCount;  ///< pairs whose fat boxes overlap
	int touchingCount; ///< pairs with manifold points
	int awakeBodyCount;
	int treeHeight; ///< of the moving-proxy tree
	int stepCount;
	int stoppedBodyCount; ///< bodies the step's NaN guard has stopped since the world was made
	int jointCount;
} tbWorldCounters;

/// The world's counts after the last step.
TB_API tbWorldCounters tbWorld_GetCounters(tbWorldId worldId);

/// Where the last step's time went, by stage, and what each stage worked on.
typedef struct tbProfile
{
	float step;          ///< the whole tbWorld_Step, ms
	float pairs;         ///< broad phase: moved proxies and new pairs, ms
	float collide;       ///< narrow phase of the active contacts (or their cached manifolds), ms
	float solve;         ///< contact constraints: colouring, prepare, substeps, restitution, ms
	float integrate;     ///< Baraff's state from the solver, Gram-Schmidt, poses and AABBs, ms
	float sleep;         ///< islands, sleep timers and move events, ms
	int awakeBodies;     ///< bodies the step moved (the awake set)
	int activeContacts;  ///< contacts with an awake body (the ones collided)
	int solvedContacts;  ///< touching manifolds in the solver
	int narrowPhaseRuns; ///< pairs that ran the narrow phase
	int cachedManifolds; ///< pairs that reused their last manifold (moved too little)
	int newPairs;        ///< pairs the broad phase created
	int colors;          ///< graph colours of the contact constraints
	int overflowConstraints; ///< constraints solved one at a time (no colour left)
	int simdWidth;           ///< manifolds per wide constraint record (1, 4 or 8)
	int stoppedBodies;       ///< bodies stopped by the NaN guard in this step
	int fastBodies;          ///< bodies swept by continuous collision in this step
	int impactBodies;        ///< of those, moved back to a time of impact
	int refreshedContacts;   ///< manifolds made again inside the step (fast-turning pairs)
	int keptContacts;        ///< of those looked at inside the step, kept (their points still held)
	int carriedContacts;     ///< of those, carried to the poses of now without the narrow phase
	float gather; ///< solve, first part: the solver's bodies and contacts made from the world's, ms
	float prepare;  ///< solve, second part: graph colouring, constraint records, joint units, ms
	float substeps; ///< solve, third part: the substeps' passes, ms
	float store;    ///< solve, last part: restitution, impulses kept for the warm start, ms
	float finish;   ///< integrate, first part: Baraff's state update and Gram-Schmidt, ms (with
	                ///< workers one pass with the shapes' poses and boxes)
	float shapes;   ///< integrate, second part: poses to shapes, boxes, continuous collision, ms
	                ///< (with workers the move buffer in order, continuous collision)
} tbProfile;

/// The profile of the last step (all zero before the first).
TB_API tbProfile tbWorld_GetProfile(tbWorldId worldId);

/// The most contacts or bodies a tbEnergyLedger names as having created energy.
#define TB_MAX_ENERGY_CREATORS 8

/// A contact (two bodies) or a jointed body (bodyB null) whose rows did positive work in a step.
typedef struct tbEnergyCreator
{
	tbBodyId bodyA; ///< the contact's first body, or the jointed body
	tbBodyId bodyB; ///< the contact's second body (null for the ground and for a joint's entry)
	double work;    ///< the rows' net work over the step, J (> 0)
	bool joint;     ///< the joint rows on bodyA, not a contact
} tbEnergyCreator;

/// The last step's energy, term by term (docs/energy.md). The energy is that of the dynamic
/// bodies the step moved (the awake ones): kinetic 1/2 m v.v + 1/2 w . I w and gravitational
/// -m g' . x (g' the body's gravity; zero at the origin). The terms and `residual` sum to
/// `change` exactly; `residual` is what no pass accounts for (the integration error).
typedef struct tbEnergyLedger
{
	bool valid;       ///< the ledger was on for the last step
	double kinetic;   ///< after the step, J
	double potential; ///< after the step, J
	double total;     ///< kinetic + potential after the step, J
	double change;    ///< total after less total before the step (measured from the states), J
	double scale;     ///< kinetic + |potential| before the step: the tolerances' scale, J
	/// Gravity, forces and torques: their work less the potential they changed, with the half of
	/// every constraint's gravity part that is gravity's (docs/energy.md); for gravity alone the
	/// semi-implicit Euler step's own -1/2 m |g|^2 h^2 per substep of free flight, J.
	double applied;
	double damping; ///< linear and angular damping and the rotation cap, J (<= 0)
	/// Contacts' position correction: the soft push-out of an overlap (the normal rows' bias
	/// part) and what the relax passes take back of it, J
	double positionCorrection;
	double friction; ///< friction, twist and rolling resistance rows, J (dissipated: < 0)
	/// Impact and restitution: the contacts' normal rows but for their bias part (they stop an
	/// approach and hold bodies up) and the restitution pass (a bounce's return); an impact of
	/// restitution e loses (1 - e^2) of its approach energy here, J
	double restitution;
	double joints; ///< all joint rows (points, motors, springs, limits), J
	/// The finish's rotation of the bodies: their kinetic energy at the new orientation less
	/// what the passes measured with the step's starting inertia (zero for spheres, cubes), J
	double rotation;
	double residual; ///< change less the sum of the terms above, J
	/// Energy was created: change > TB_ENERGY_CREATED_TOLERANCE scale (gravity cannot raise the
	/// total; forces and pushing kinematic bodies may, and are flagged too).
	bool created;
	int creatorCount;                                 ///< entries in creators, largest work first
	tbEnergyCreator creators[TB_MAX_ENERGY_CREATORS]; ///< the rows that did positive work
} tbEnergyLedger;

/// The part of tbEnergyLedger.scale above which energy gained counts as created.
#define TB_ENERGY_CREATED_TOLERANCE 1e-4

/// Turns the energy ledger on or off (off by default). On, each step measures its energy term
/// by term and runs its solver serially (the same result for any worker count); off, the step
/// costs what it did without it.
TB_API void tbWorld_EnableEnergyLedger(tbWorldId worldId, bool flag);

/// The energy ledger of the last step (valid false when the ledger was off).
TB_API tbEnergyLedger tbWorld_GetEnergyLedger(tbWorldId worldId);

/// Which pass of the solver a tbContactTrace row comes from.
typedef enum tbSolverPassKind
{
	tb_traceWarmStart,   ///< the substep's warm start
	tb_tracePush,        ///< a biased iteration (soft push-out)
	tb_traceRelax,       ///< a relax iteration (friction)
	tb_traceRestitution, ///< restitution, once per step
} tbSolverPassKind;

/// One contact after one pass of the solver (tbWorld_SetSolverTrace).
typedef struct tbContactTrace
{
	tbShapeId shapeA, shapeB; ///< the contact's shapes
	int substep;              ///< 0 .. substeps - 1
	int iteration;            ///< the pass's iteration in the substep
	tbSolverPassKind pass;    ///< which pass
	int pointCount;           ///< points of the manifold
	float normalImpulse[4];   ///< accumulated normal impulse per point after the pass, N s
	/// Each normal row's velocity error before its update, J v + bias, m/s (zero where the point
	/// is apart and not pushing; zero in the warm start and restitution)
	float speedError[4];
	float bias[4];           ///< each normal row's bias speed, m/s
	float tangentImpulse[2]; ///< friction impulse at the centre along the two tangents, N s
	float twistImpulse;      ///< friction impulse about the normal, N m s
	float tangentError[2];   ///< the friction rows' slip before their update, m/s
	float twistError;        ///< relative spin about the normal before its update, rad/s
	bool clamped;            ///< the friction impulse was cut to the Coulomb disc
	float normalWork;        ///< the normal rows' work in this pass, J
	float frictionWork;      ///< the friction rows' work in this pass, J
} tbContactTrace;

/// Receives a tbContactTrace for every contact after every pass.
typedef void tbContactTraceFcn(const tbContactTrace* row, void* context);

/// Calls `fcn` for every contact after every solver pass of each step (null: off, the default).
/// With it the solver runs serially. For tools and tests: it is slow.
TB_API void tbWorld_SetSolverTrace(tbWorldId worldId, tbContactTraceFcn* fcn, void* context);

/// FNV-1a hash of every body's position and rotation bits, in creation order: equal for two runs
/// of the same scene stepped the same way (the determinism test).
TB_API uint64_t tbWorld_GetStateHash(tbWorldId worldId);

/// The closest shape hit by the segment origin -> origin + translation (GJK ray cast per shape).
TB_API tbRayResult tbWorld_CastRayClosest(tbWorldId worldId, vec3s origin, vec3s translation,
                                          tbQueryFilter filter);

/// Every shape hit by the segment, reported through fcn (see tbCastResultFcn for its return).
/// Hits come in broad-phase order, not sorted.
TB_API void tbWorld_CastRay(tbWorldId worldId, vec3s origin, vec3s translation,
                            tbQueryFilter filter, tbCastResultFcn* fcn, void* context);

/// Every shape hit by `shape` moved from `start` along `translation` (no rotation), through fcn as
/// for rays: the fraction of the translation at which it first touches each, the point on that
/// shape and its outward normal there (conservative advancement on GJK distances, within 1e-4 of
/// the smaller shape's size: tbShapeCast). Shapes it overlaps at the start are not reported. Hits
/// come in broad-phase order.
TB_API void tbWorld_CastShape(tbWorldId worldId, const tbGeometry* shape, tbTransform start,
                              vec3s translation, tbQueryFilter filter, tbCastResultFcn* fcn,
                              void* context);

/// The first shape hit by `shape` moved from `start` along `translation` (see tbWorld_CastShape).
TB_API tbRayResult tbWorld_CastShapeClosest(tbWorldId worldId, const tbGeometry* shape,
                                            tbTransform start, vec3s translation,
                                            tbQueryFilter filter);

/// Every shape whose fattened broad-phase box overlaps `aabb`.
TB_API void tbWorld_OverlapAABB(tbWorldId worldId, tbAABB aabb, tbQueryFilter filter,
                                tbOverlapResultFcn* fcn, void* context);

/// Every shape that overlaps `shape` placed at `transform` (GJK overlap test).
TB_API void tbWorld_OverlapShape(tbWorldId worldId, const tbGeometry* shape, tbTransform transform,
                                 tbQueryFilter filter, tbOverlapResultFcn* fcn, void* context);

// ---------------------------------------------------------------------------------------------
// Bodies

/// Create a body. Returns the null id (and an error) when the def holds NaN/Inf or a zero
/// rotation.
TB_API tbBodyId tbCreateBody(tbWorldId worldId, const tbBodyDef* def);

/// Destroy a body and its shapes (their contacts end with events; touching bodies wake).
TB_API void tbDestroyBody(tbBodyId bodyId);

/// True while the body exists.
TB_API bool tbBody_IsValid(tbBodyId bodyId);

/// Static, kinematic or dynamic (static for a stale id).
TB_API tbBodyType tbBody_GetType(tbBodyId bodyId);

/// Position of the body origin, m, world.
TB_API vec3s tbBody_GetPosition(tbBodyId bodyId);

/// Rotation, unit quaternion.
TB_API versors tbBody_GetRotation(tbBodyId bodyId);

/// Origin and rotation.
TB_API tbTransform tbBody_GetTransform(tbBodyId bodyId);

/// Teleport the body (wakes it and what touches it). Refuses NaN/Inf or a zero quaternion.
TB_API void tbBody_SetTransform(tbBodyId bodyId, vec3s position, versors rotation);

/// Centre of mass, world, m.
TB_API vec3s tbBody_GetWorldCenterOfMass(tbBodyId bodyId);

/// Velocity of the centre of mass, m/s.
TB_API vec3s tbBody_GetLinearVelocity(tbBodyId bodyId);
/// Set the velocity of the centre of mass, m/s (a non-zero one wakes the body; ignored for static
/// bodies).
TB_API void tbBody_SetLinearVelocity(tbBodyId bodyId, vec3s v);

/// Angular velocity, world, rad/s.
TB_API vec3s tbBody_GetAngularVelocity(tbBodyId bodyId);
/// Set the angular velocity, world, rad/s (a non-zero one wakes the body; ignored for static
/// bodies).
TB_API void tbBody_SetAngularVelocity(tbBodyId bodyId, vec3s w);

/// Give a kinematic body the velocities that carry it to the pose (body origin, rotation) in
/// `timeStep` seconds, the next step's: a platform or a pusher driven by the game, which, unlike
/// tbBody_SetTransform, pushes what it meets on the way. The centre of mass goes in a straight
/// line, the rotation about one fixed axis. On a dynamic body forces and contacts act on top.
TB_API void tbBody_SetTargetTransform(tbBodyId bodyId, vec3s position, versors rotation,
                                      float timeStep);

/// Angular momentum about the centre of mass (Baraff's L), world, kg m^2/s.
TB_API vec3s tbBody_GetAngularMomentum(tbBodyId bodyId);

/// Kinetic energy, J.
TB_API float tbBody_GetKineticEnergy(tbBodyId bodyId);

/// Force (N) at a world point, for the next step. Wakes the body when `wake`; a sleeping body that
/// is not woken ignores it.
TB_API void tbBody_ApplyForce(tbBodyId bodyId, vec3s force, vec3s point, bool wake);
/// Force (N) at the centre of mass (no torque), for the next step; `wake` as above.
TB_API void tbBody_ApplyForceToCenter(tbBodyId bodyId, vec3s force, bool wake);

/// Torque, world, N m, for the next step.
TB_API void tbBody_ApplyTorque(tbBodyId bodyId, vec3s torque, bool wake);

/// Impulse (N s) at a world point, applied at once.
TB_API void tbBody_ApplyLinearImpulse(tbBodyId bodyId, vec3s impulse, vec3s point, bool wake);

/// Angular impulse (N m s), world, applied at once.
TB_API void tbBody_ApplyAngularImpulse(tbBodyId bodyId, vec3s impulse, bool wake);

/// Linear damping c of dP/dt = F - c P, 1/s (0 by default).
TB_API void tbBody_SetLinearDamping(tbBodyId bodyId, float damping);
/// Linear damping, 1/s.
TB_API float tbBody_GetLinearDamping(tbBodyId bodyId);
/// Angular damping c of dL/dt = tau - c L, 1/s (0 by default).
TB_API void tbBody_SetAngularDamping(tbBodyId bodyId, float damping);
/// Angular damping, 1/s.
TB_API float tbBody_GetAngularDamping(tbBodyId bodyId);

/// Gravity scale: the body feels scale * the world's gravity (1 by default).
TB_API void tbBody_SetGravityScale(tbBodyId bodyId, float scale);
/// Gravity scale.
TB_API float tbBody_GetGravityScale(tbBodyId bodyId);

/// Mass, kg (0 for static and kinematic bodies).
TB_API float tbBody_GetMass(tbBodyId bodyId);

/// Mass properties in the body frame (all zero for static and kinematic bodies): mass (kg), the
/// centre of mass from the body origin in body axes (m), the inertia tensor about the centre of
/// mass in body axes (Baraff's Ibody, kg m^2). A dynamic body's come from its shapes' densities;
/// one whose shapes weigh nothing has what tbBody_SetMassData gave it (a dynamic body with no
/// shape yet has a 1 kg placeholder: docs/ranges.md).
TB_API tbMassData tbBody_GetMassData(tbBodyId bodyId);

/// Set a dynamic body's mass, centre of mass (body frame, from the origin) and inertia about the
/// centre of mass (body axes, symmetric). The origin stays where it is; the velocity of the new
/// centre of mass is that of the point there, and the spin is kept. Refused with an error for a
/// static or kinematic body, a mass outside [TB_MIN_MASS, TB_MAX_MASS], an inertia that is not
/// symmetric positive definite (tbMassData_IsValid) or a centre beyond TB_MAX_LENGTH. Adding or
/// removing a shape that weighs something replaces it with the shapes' mass: set it after the
/// shapes.
TB_API void tbBody_SetMassData(tbBodyId bodyId, tbMassData massData);

/// The inertia tensor about the centre of mass in world axes, I = R Ibody R^T (kg m^2; zero for
/// static and kinematic bodies). L = I w.
TB_API mat3s tbBody_GetWorldInertia(tbBodyId bodyId);

/// Attach your own pointer to the body (Tumble never reads it).
TB_API void tbBody_SetUserData(tbBodyId bodyId, void* userData);
/// Your pointer, or null.
TB_API void* tbBody_GetUserData(tbBodyId bodyId);

/// Awake or asleep. Waking wakes the body's whole island; putting to sleep stops it and its
/// island now.
TB_API bool tbBody_IsAwake(tbBodyId bodyId);
/// Wake the body (and its island) or put it (and its island) to sleep.
TB_API void tbBody_SetAwake(tbBodyId bodyId, bool awake);

/// Make the body a bullet (continuous collision against dynamic bodies as well) or not.
TB_API void tbBody_SetBullet(tbBodyId bodyId, bool flag);
/// True for a bullet.
TB_API bool tbBody_IsBullet(tbBodyId bodyId);

/// Allow or forbid this body to sleep.
TB_API void tbBody_EnableSleep(tbBodyId bodyId, bool flag);

/// Set the speed of the body's farthest point below which it counts as resting, m/s (>= 0; an
/// island sleeps when all its bodies have rested for the world's timeToSleep).
TB_API void tbBody_SetSleepThreshold(tbBodyId bodyId, float speed);

/// The body's sleep threshold, m/s.
TB_API float tbBody_GetSleepThreshold(tbBodyId bodyId);

/// Number of shapes on the body, and up to `capacity` of their ids.
TB_API int tbBody_GetShapeCount(tbBodyId bodyId);
/// Copy up to `capacity` shape ids of the body into `shapeIds`; returns how many were copied.
TB_API int tbBody_GetShapes(tbBodyId bodyId, tbShapeId* shapeIds, int capacity);

/// How many touching pairs the body has now (what tbBody_GetContactData has to give).
TB_API int tbBody_GetContactCount(tbBodyId bodyId);

/// Touching pairs of this body (up to `capacity`); returns how many were copied.
TB_API int tbBody_GetContactData(tbBodyId bodyId, tbContactData* data, int capacity);

/// One body's pose and motion as tbWorld_GetBodySnapshots copies it: plain floats (no SIMD
/// alignment), so an array of them is a table that bindings and recorders read in one call.
typedef struct tbBodySnapshot
{
	tbBodyId bodyId;
	float position[3];        ///< body origin, m, world (tbBody_GetPosition)
	float rotation[4];        ///< unit quaternion x, y, z, w (tbBody_GetRotation)
	float linearVelocity[3];  ///< of the centre of mass, m/s (tbBody_GetLinearVelocity)
	float angularVelocity[3]; ///< world, rad/s (tbBody_GetAngularVelocity)
	float kineticEnergy;      ///< J (tbBody_GetKineticEnergy)
} tbBodySnapshot;

/// Copy the snapshots of the world's live bodies, up to `capacity`, into `snapshots`, in body slot
/// order (creation order until a body is destroyed and its slot reused); returns how many were
/// copied. tbWorld_GetCounters().bodyCount is the number of live bodies. Each field equals what
/// the per-body getter named beside it returns. Allocates nothing.
TB_API int tbWorld_GetBodySnapshots(tbWorldId worldId, tbBodySnapshot* snapshots, int capacity);

// ---------------------------------------------------------------------------------------------
// Shapes on bodies. Handle methods are tbShape_* (Box2D's b2Shape_*); tbGeometry_* works on the
// geometry itself.

/// Attach a convex shape to a body (the geometry is copied; a hull's tbHull must outlive it).
/// Returns the null id (and an error naming the field) for a bad geometry, density, friction,
/// restitution or local pose. The body's mass is recomputed from all its shapes' densities.
TB_API tbShapeId tbCreateShape(tbBodyId bodyId, const tbShapeDef* def, const tbGeometry* geometry);

/// Remove a shape (its contacts end with events; the body's mass is recomputed).
TB_API void tbDestroyShape(tbShapeId shapeId);

/// True while the id names a live shape (false once it or its body or world is destroyed).
TB_API bool tbShape_IsValid(tbShapeId shapeId);
/// The body the shape is attached to.
TB_API tbBodyId tbShape_GetBody(tbShapeId shapeId);
/// A copy of the shape's geometry, in its local frame (all zero for a stale id).
TB_API tbGeometry tbShape_GetGeometry(tbShapeId shapeId);
/// The shape's frame in the world (the body's pose times the shape's local pose).
TB_API tbTransform tbShape_GetWorldTransform(tbShapeId shapeId);
/// The shape's tight world bounding box at the body's current pose, m.
TB_API tbAABB tbShape_GetAABB(tbShapeId shapeId);
/// Coulomb friction coefficient (>= 0; mixed with the other shape's as sqrt(a b)).
TB_API void tbShape_SetFriction(tbShapeId shapeId, float friction);
/// Coulomb friction coefficient.
TB_API float tbShape_GetFriction(tbShapeId shapeId);
/// Restitution in [0, 1] (mixed with the other shape's as the larger of the two).
TB_API void tbShape_SetRestitution(tbShapeId shapeId, float restitution);
/// Restitution.
TB_API float tbShape_GetRestitution(tbShapeId shapeId);
/// Set the rolling resistance coefficient (>= 0; tbShapeDef.rollingResistance).
TB_API void tbShape_SetRollingResistance(tbShapeId shapeId, float rollingResistance);
/// The rolling resistance coefficient.
TB_API float tbShape_GetRollingResistance(tbShapeId shapeId);
/// Set the surface's velocity along itself, body frame, m/s (tbShapeDef.tangentVelocity).
TB_API void tbShape_SetTangentVelocity(tbShapeId shapeId, vec3s tangentVelocity);
/// The surface's velocity along itself, body frame, m/s.
TB_API vec3s tbShape_GetTangentVelocity(tbShapeId shapeId);
/// The shape's material number (tbShapeDef.material).
TB_API int32_t tbShape_GetMaterial(tbShapeId shapeId);

/// Collision filter (tbFilter, its group index included). The
/// shape's current pairs are dropped and looked for again.
TB_API void tbShape_SetFilter(tbShapeId shapeId, tbFilter filter);
/// Collision filter.
TB_API tbFilter tbShape_GetFilter(tbShapeId shapeId);

/// True for a sensor shape (tbShapeDef.isSensor, fixed at creation; docs/events.md).
TB_API bool tbShape_IsSensor(tbShapeId shapeId);
/// Turn the shape's hit events (tbContactHitEvent) on or off.
TB_API void tbShape_EnableHitEvents(tbShapeId shapeId, bool flag);
/// Whether the shape's contacts report hits.
TB_API bool tbShape_AreHitEventsEnabled(tbShapeId shapeId);

/// Attach your own pointer to the shape (Tumble never reads it).
TB_API void tbShape_SetUserData(tbShapeId shapeId, void* userData);
/// Your pointer, or null.
TB_API void* tbShape_GetUserData(tbShapeId shapeId);

/// Ray cast against this shape alone.
TB_API tbCastOutput tbShape_RayCast(tbShapeId shapeId, vec3s origin, vec3s translation);
