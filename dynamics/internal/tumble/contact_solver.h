// The soft-step contact solver: compact solver bodies, coloured wide contact constraints.
#pragma once

#include <stddef.h>

#include "tumble/base.h"
#include "tumble/body.h"
#include "tumble/integrator.h"
#include "tumble/joint_solver.h"
#include "tumble/manifold.h"

/// A body index meaning "the static world": infinite mass, at rest, at the origin.
#define TB_NULL_BODY (-1)

/// How far a body has moved part-way through a step: its centre of mass by dp and its rotation
/// by the rotation vector dtheta (angle |dtheta| about dtheta / |dtheta|, applied after the
/// step's R), both from the pose the step began with.
typedef struct tbSolverDelta
{
	vec3s dp;     ///< displacement of the centre of mass, world, m
	vec3s dtheta; ///< rotation vector, world, rad
} tbSolverDelta;

/// What a marked contact's anchored points say at the start of a substep: the normal the passes
/// push along and the smallest separation of its points along it now, to first order in the
/// deltas (what the passes will measure). The callback may answer from these alone.
typedef struct tbSolverAnchors
{
	vec3s normal;           ///< world, from A to B
	float gap;              ///< the points' smallest separation now, m (pointCount > 0)
	float gapNext;          ///< the same at the substep's end if the bodies keep their velocities
	tbSolverDelta nextA;    ///< A's deltas at the substep's end at its velocities (A moves)
	tbSolverDelta nextB;    ///< the same for B
	int pointCount;         ///< the points the lane holds (0: the pair was beyond the margin)
	float along;            ///< out, with tb_refreshKept: the shapes' separation along normal, m
	bool lookAhead;         ///< whether the solver wants `ahead` (see below)
	float ahead;            ///< out, tb_refreshMade: their separation at nextA, nextB (see below)
	const tbManifold* held; ///< the manifold the lane holds, in the world at the deltas below
	tbSolverDelta heldA;    ///< A's deltas when `held` was made (zero: at the step's start)
	tbSolverDelta heldB;    ///< the same for B
} tbSolverAnchors;

/// What tbContactRefreshFcn did.
typedef enum tbRefreshResult
{
	tb_refreshFailed, ///< nothing: the old manifold stays (the query failed)
	tb_refreshKept,   ///< the anchored points still hold the pair's deepest features: kept
	tb_refreshMade,   ///< the manifold was made again
} tbRefreshResult;

/// Makes contact `contactIndex` again with its bodies moved as given (null: a body that does
/// not move, the static world or a sleeping one) and writes the world manifold, normal from A to
/// B, points within the contact's speculative distance (tb_refreshMade); or, when `anchors`
/// still give the pair's closest approach along their normal, keeps them (tb_refreshKept,
/// `anchors->along` set). The solver calls it at the start of the substeps after the first for
/// the contacts marked `refresh` whose gap the bodies' surfaces may close in that substep: the
/// narrow phase inside the step, for pairs that turn too fast for one manifold. With
/// parallelFor it is called for several contacts at once (never twice for one at the same time):
/// `workerIndex` is the calling range's (tbSolverTaskFcn), 0 without parallelFor. With
/// tb_refreshMade and `anchors->lookAhead` it may set `anchors->ahead` (left FLT_MAX: not known):
/// the shapes' separation at the deltas nextA, nextB along the new normal turned with A's or B's
/// turn over the substep (the larger), from which the solver sees how far a turning face closes on
/// a point sliding over it beyond the rows' first-order forecast.
typedef tbRefreshResult tbContactRefreshFcn(int contactIndex, const tbSolverDelta* movedA,
                                            const tbSolverDelta* movedB, tbSolverAnchors* anchors,
                                            tbManifold* manifold, int workerIndex, void* context);

/// The most workers a tbParallelForFcn may use (worker indices 0 to 63).
#define TB_SOLVER_MAX_WORKERS 64

/// A range of one of the solver's parallel loops: items [startIndex, endIndex), run by worker
/// `workerIndex` (ranges running at the same time have different indices).
typedef void tbSolverTaskFcn(int startIndex, int endIndex, int workerIndex, void* taskContext);

/// Runs `task` over the items [0, itemCount) in ranges of at least `minRange` items, on any
/// threads, and returns when every range has run. The items of each loop are independent, so the
/// results are the same bits for any split. `context` is tbSolverDef.parallelContext.
typedef void tbParallelForFcn(tbSolverTaskFcn* task, int itemCount, int minRange, void* taskContext,
                              void* context);

/// The passes of a substep, as the energy ledger and the solver trace name them.
typedef enum tbSolverPass
{
	tb_passWarmStart,   ///< last substep's accumulated impulses applied again
	tb_passPush,        ///< the biased pass: non-penetration with the soft push-out
	tb_passRelax,       ///< the relax pass: no bias, with friction
	tb_passRestitution, ///< once per step, after the substeps
} tbSolverPass;

/// One contact as one pass left it (tbSolverDef.trace): its rows' impulses after the pass and
/// each row's velocity error before its update.
typedef struct tbSolverTraceContact
{
	int contact;       ///< index of the input contact
	int substep;       ///< 0 .. substeps - 1 (the last one for restitution)
	int iteration;     ///< the pass's iteration within the substep (0 for warm start, restitution)
	tbSolverPass pass; ///< which pass
	int pointCount;    ///< the contact's points
	float normalImpulse[TB_MAX_MANIFOLD_POINTS]; ///< accumulated after the pass, N s
	/// J v + bias before the row's update, m/s (negative: approaching faster than the bias
	/// allows; zero for a row apart and not pushing, and in the warm start and restitution)
	float speedError[TB_MAX_MANIFOLD_POINTS];
	float bias[TB_MAX_MANIFOLD_POINTS]; ///< the row's bias speed, m/s (push: soft push-out)
	float tangentImpulse[2];            ///< the friction impulse at the centre, N s (relax)
	float twistImpulse;                 ///< the friction impulse about the normal, N m s
	float tangentError[2];              ///< the friction rows' slip before their update, m/s
	float twistError;                   ///< the relative spin about the normal before, rad/s
	bool clamped;                       ///< the friction impulse was cut to the Coulomb disc
	float normalWork;   ///< the normal rows' work in this pass (with their gravity part), J
	float frictionWork; ///< the friction rows' work in this pass, J
} tbSolverTraceContact;

/// Called for every contact after each of its passes when tbSolverDef.trace is set (the solver
/// then runs serially). Null by default: the plain passes are untouched.
typedef void tbSolverTraceFcn(const tbSolverTraceContact* contact, void* context);

/// The energy the passes of one step gave the moving bodies, term by term (docs/energy.md). The
/// caller gives the memory (tbSolverLedgerBytes) and reads the terms after tbSolverFinish. The
/// energy is that of the dynamic bodies among the solver's: kinetic 1/2 m v.v + 1/2 w . I w and
/// gravitational -m g' . x (g' the body's gravity, its gravityScale times the solver's).
typedef struct tbSolverLedger
{
	void* scratch;          ///< in: tbSolverLedgerBytes(bodyCount, contactCount) bytes, 64-aligned
	double kineticBefore;   ///< out: at the step's start, J
	double potentialBefore; ///< out: at the step's start, J
	double kinetic;         ///< out: after tbSolverFinish, J
	double potential;       ///< out: after tbSolverFinish, J
	/// Gravity, forces and torques: their work less the potential they changed, with the half of
	/// every row's gravity part that is gravity's (docs/energy.md); for gravity alone
	/// -1/2 m |g'|^2 h^2 per substep of free flight, J.
	double applied;
	double damping; ///< linear and angular damping and the rotation cap, J (<= 0)
	/// The contacts' normal rows' bias part (the soft push-out of an overlap) and what the relax
	/// passes take back of it, J
	double positionCorrection;
	double friction; ///< friction rows (warm start, relax), twist and rolling resistance, J
	/// The contacts' normal rows' impact part in every pass (all but the bias's) and the
	/// restitution pass: what stops an approach and what a bounce returns, J
	double restitution;
	double joints; ///< every joint row in every pass, J
	/// The finish's rotation: the kinetic energy 1/2 L . I(R)^-1 L it leaves less the passes'
	/// 1/2 w . I0 w (zero for a spherical inertia), J
	double rotation;
	float* contactWork; ///< out, per input contact: its rows' work over the step, J
	float* jointWork;   ///< out, per solver body: the joint rows' work on it over the step, J
} tbSolverLedger;

/// Bytes of tbSolverLedger.scratch for this many bodies and contacts.
size_t tbSolverLedgerBytes(int bodyCount, int contactCount);

/// Solver settings. Get the defaults from tbDefaultSolverDef() and change what you need.
typedef struct tbSolverDef
{
	vec3s gravity;              ///< m/s^2, (0, -9.81, 0) by default
	int substeps;               ///< substeps per step (4): stiffness and accuracy for their cost
	int iterations;             ///< biased (soft) velocity iterations per substep (1)
	int relaxIterations;        ///< unbiased iterations per substep, remove the push-out speed (1)
	float contactHertz;         ///< contact spring frequency, Hz (60), capped at 1/4 substep rate
	float contactDampingRatio;  ///< contact spring damping ratio (10: heavily over-damped)
	float contactPushMaxSpeed;  ///< largest speed at which overlap is pushed out, m/s (3)
	float restitutionThreshold; ///< approach speed below which contacts do not bounce, m/s (1)
	float maxRotation;          ///< largest rotation of a body in one substep, rad (0.25 pi)
	tbJointSoftness jointSoftness; ///< how stiffly joints hold (60 Hz, damping ratio 2)
	bool enableWarmStarting;       ///< start from the previous step's impulses (true)
	/// Some contact may have rollingResistance > 0 (true); false: the solver does not look.
	bool enableRollingResistance;
	/// Some contact may have restitution > 0 (true); false: the collision phase does not look.
	bool enableRestitution;
	tbIntegrator integrator; ///< how R follows L for bodies in free flight (TB_DEFAULT_INTEGRATOR)
	tbOrthonormalizer orthonormalizer;   ///< applied to R once per step (Gram-Schmidt)
	tbContactRefreshFcn* refreshContact; ///< remakes marked contacts per substep (null: never)
	void* refreshContext;                ///< passed to refreshContact
	/// Runs the per-body loops, each colour's constraints and joints and the refreshed contacts
	/// in parallel (null: inline, one thread). The overflow constraints stay serial.
	tbParallelForFcn* parallelFor;
	/// parallelFor for items whose costs differ many times over (a colour's joint units: a
	/// ragdoll's group beside a lone joint): smaller ranges, so that the loop's last range, which
	/// one worker finishes while the others wait, is short (null: parallelFor).
	tbParallelForFcn* parallelForUneven;
	void* parallelContext; ///< passed to parallelFor and parallelForUneven
	/// The energy ledger of the step (null: off). With it the step runs serially, its contact
	/// passes observed row by row (docs/energy.md); without it the passes are the plain ones.
	tbSolverLedger* ledger;
	tbSolverTraceFcn* trace; ///< every contact after every pass (null: off; serial when set)
	void* traceContext;      ///< passed to trace
} tbSolverDef;

/// The default solver settings.
tbSolverDef tbDefaultSolverDef(void);

/// The impulse of one contact point, kept by the caller between steps for warm starting.
typedef struct tbContactPointImpulse
{
	uint32_t id;         ///< the manifold point's feature id
	float normalImpulse; ///< accumulated normal impulse of the last substep, N s (warm start)
	/// The normal impulse over the whole step, N s: the sum of every substep's accumulated
	/// impulse and the restitution pass's (a box resting on it gets m g dt).
	float stepNormalImpulse;
} tbContactPointImpulse;

/// The impulses of one manifold (the engine's contact cache entry for a shape pair).
typedef struct tbContactImpulses
{
	tbContactPointImpulse points[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
	vec3s frictionImpulse;     ///< the manifold's friction impulse at its centre, world, N s
	float twistImpulse;        ///< the manifold's friction impulse about the normal, N m s
	vec3s stepFrictionImpulse; ///< the friction impulse over the whole step, world, N s
} tbContactImpulses;

/// Point i's share of the manifold's friction impulse over the whole step, world, N s. The
/// friction is one row at the manifold's centre; it is reported per point in proportion to the
/// points' step normal impulses (evenly when they are all zero), so the shares sum to it.
vec3s tbContactImpulses_PointFriction(const tbContactImpulses* impulses, int i);

/// One manifold between two bodies as the solver sees it. Make it with tbMakeContactConstraint;
/// warm start it with tbContactConstraint_WarmStart; after tbSolverStep, `impulses` (the caller's:
/// the world's pair keeps its own there) holds the last substep's impulses (for the next warm
/// start) and the whole step's (stepNormalImpulse, stepFrictionImpulse).
typedef struct tbContactConstraint
{
	int bodyA, bodyB;  ///< indices into the solver's body array, or TB_NULL_BODY
	float friction;    ///< Coulomb coefficient mu (combine with tbMixFriction)
	float restitution; ///< e in [0, 1] (combine with tbMixRestitution)
	/// The tangential velocity of B relative to A that friction drives to, world, m/s (zero: the
	/// surfaces stick; a conveyor belt's speed: its load is carried along). Its part along the
	/// normal is ignored.
	vec3s tangentVelocity;
	bool surfaceMoves; ///< tangentVelocity is not zero (false: the solver does not read it)
	/// Rolling resistance coefficient c: the bodies' relative rolling (their relative angular
	/// velocity across the normal) is resisted by a torque of at most c N r, r the distance from
	/// the nearer dynamic body's centre of mass to the manifold's centre (zero: none).
	float rollingResistance;
	int record;          ///< the solver's wide record * TB_SIMD_WIDTH + lane (solver)
	tbManifold manifold; ///< the input manifold, normal from A to B
	/// How many times the substeps remade `manifold` this step (solver); beside the manifold's
	/// point count, which the rolling-resistance rows read with it every pass.
	int remade;
	tbContactImpulses* impulses; ///< the caller's: in, warm-start impulses; out, this step's
	bool refresh;      ///< remade in the substeps by tbSolverDef.refreshContact (false by default)
	float margin;      ///< with `refresh`: the speculative distance the manifold was made with, m
	float spinReachA;  ///< with `refresh`: how far A's surface here moves per radian A turns, m
	float spinReachB;  ///< the same for B, m
	float refreshTurn; ///< with `refresh`: how far the turns may carry the surfaces before, m
	tbSolverDelta madeA; ///< A's deltas when `manifold` was made (zero: at the step's start)
	tbSolverDelta madeB; ///< the same for B
	/// The solver's: a cold candidate of `refresh` that no row can act on in the first substep
	/// (tbSolverSolve); its record waits until the pair can close.
	bool dormant;
} tbContactConstraint;

/// A contact for a manifold between bodies A and B (the manifold normal points from A to B),
/// whose impulses go to `impulses` (which must outlive the solve): warm start them with
/// tbContactConstraint_WarmStart before the solve.
tbContactConstraint tbMakeContactConstraint(int bodyA, int bodyB, const tbManifold* manifold,
                                            tbContactImpulses* impulses, float friction,
                                            float restitution);

/// The contact's impulses for its manifold's points: each point starts from the previous step's
/// impulse of the point with the same feature id (points without a match start at zero) and the
/// friction from the previous manifold's. `previous` may be null (all zero), and may be the
/// contact's own `impulses` (matched in place).
void tbContactConstraint_WarmStart(tbContactConstraint* contact, const tbContactImpulses* previous);

/// Friction mixing: sqrt(mu_a mu_b) (Box2D's rule: either zero gives zero).
float tbMixFriction(float a, float b);

/// Restitution mixing: max(e_a, e_b) (a bouncy ball bounces on anything).
float tbMixRestitution(float a, float b);

/// Bytes of scratch memory tbSolverStep needs for this many bodies, contacts and joints (the
/// solver allocates nothing; the caller keeps one block and grows it).
size_t tbSolverScratchBytes(int bodyCount, int contactCount, int jointCount);

/// What one step did, for profiles and tests.
typedef struct tbSolverStats
{
	int colorCount;       ///< graph colours used by the contact constraints
	int overflowCount;    ///< constraints that found no colour (solved one at a time)
	int constraintGroups; ///< wide constraint records (TB_SIMD_WIDTH manifolds each)
	int simdWidth;        ///< manifolds per wide record: 1 (scalar), 4 (SSE2) or 8 (AVX2)
	int stoppedBodies;    ///< bodies whose new state was not finite: left where they were, at rest
	float prepareMs;      ///< colouring, records and joint units (before the first substep), ms
	float substepMs;      ///< the substeps' passes, ms
	float storeMs;        ///< restitution, stored impulses and the joints' finish, ms
} tbSolverStats;

/// The first part of tbSolverStep: everything but bringing the bodies' state up to date (the
/// velocities and deltas stay in the scratch block for tbSolverFinish). The world calls the two
/// parts separately to time them.
void tbSolverSolve(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                   tbContactConstraint* contacts, int contactCount, tbJointBinding* joints,
                   int jointCount, float dt, void* scratch, tbSolverStats* stats);

/// The second part of tbSolverStep: Baraff's state Y = (x, R, P, L) of each body from the
/// solver's velocities and deltas, R re-orthonormalized, forces cleared. Returns how many bodies
/// got a non-finite state and were stopped where they were.
int tbSolverFinish(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount, float dt,
                   void* scratch);

/// tbSolverFinish in ranges of the caller's own loop, so that each body's finish can be followed
/// at once by the caller's own work on it (the world's poses to shapes) while the body is still in
/// the cache: tbSolverFinishBegin once, then tbSolverFinishRange on any thread for ranges that
/// together cover [0, bodyCount) once, then tbSolverFinishEnd. The same bits as tbSolverFinish.
typedef struct tbSolverFinishPass
{
	const tbSolverDef* def;
	tbRigidBody* const* bodies;
	int bodyCount;
	const void* states;         // the solver's bodies in the scratch block
	const uint32_t* colorMasks; // each body's mask (bit 30: jointed)
	float dt;
} tbSolverFinishPass;

tbSolverFinishPass tbSolverFinishBegin(const tbSolverDef* def, tbRigidBody* const* bodies,
                                       int bodyCount, float dt, void* scratch);

/// Bodies [start, end) finished; returns how many were stopped (tbSolverFinish).
int tbSolverFinishRange(const tbSolverFinishPass* pass, int start, int end);

/// After every range: the energy ledger's look at the finished bodies (none when it is off).
void tbSolverFinishEnd(const tbSolverFinishPass* pass);

/// One time step of `dt` seconds for the bodies (pointers to the caller's bodies: only those that
/// move, dynamic or kinematic) and the contacts between them, Catto's soft step: per substep
/// integrate velocities, warm start, solve with soft position correction, integrate position
/// deltas, relax; then restitution, and once per step Baraff's state Y = (x, R, P, L) is brought
/// up to date from the deltas and R re-orthonormalized. Bodies in free flight turn by the chosen
/// integrator with L held (exact |L|). Clears every body's force and torque. `scratch` must hold
/// tbSolverScratchBytes(bodyCount, contactCount, jointCount) bytes, 64-byte aligned. Joints
/// (may be null) are solved one at a time before the contacts in every pass. `stats` may be null.
void tbSolverStep(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                  tbContactConstraint* contacts, int contactCount, tbJointBinding* joints,
                  int jointCount, float dt, void* scratch, tbSolverStats* stats);
