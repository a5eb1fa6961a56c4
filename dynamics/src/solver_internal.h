// The solver's private records: the compact body state, the wide contact constraint, the passes.
#pragma once

#include "solver_wide.h"
#include "tumble/contact_solver.h"

// The solver's view of a moving body during one step: 64 bytes, all the inner loop touches.
// v and w are the velocities (w = I0^-1 L with the inertia of the step's start held: Catto's
// soft step), dp and dtheta what the body has moved and turned since the step began (dtheta the
// integral of w: a rotation vector while the step's rotation is small). Baraff's Y = (x, R, P, L)
// is brought up to date from them once per step (solver.c, tbFinishBody). The body after the
// last one is the shared, never moving "static body": zero velocity and zero deltas, so that a
// contact with the ground needs no branch (Box2D v3's dummy body).
typedef struct tbSolverBody
{
	_Alignas(16) float v[4]; // m/s (the fourth lane is padding)
	float w[4];              // rad/s
	float dp[4];             // m
	float dtheta[4];         // rad
} tbSolverBody;

// What changes a body's velocity outside contacts, per substep: gravity and force (linear
// acceleration), torque (angular acceleration, I0^-1 tau), and the implicit damping factors
// 1 / (1 + h c). Kinematic bodies have zero accelerations and factors of one.
typedef struct tbSolverBodyMotion
{
	vec3s linearAcceleration;  // m/s^2
	vec3s angularAcceleration; // rad/s^2
	float linearDamping;       // factor per substep
	float angularDamping;      // factor per substep
	bool flowTurned; // its turn is a torque-free flow, whose rate tbJointBodyGyroFlow caps
} tbSolverBodyMotion;

// One contact point (one row of the normal constraint) in TB_SIMD_WIDTH manifolds at once. The
// anchors rA, rB (from each centre of mass to the point) are held over the step, as Catto's soft
// step does: the Jacobian J = (-n, -(rA x n), n, rB x n) is the same in every substep, and the
// separation follows the bodies' deltas to first order, s = s0 + J . (dp, dtheta).
typedef struct tbContactPointW
{
	tbVec3W rAxn, rBxn; // angular Jacobians rA x n, rB x n
	tbVec3W invIArAxn,
	    invIBrBxn;             // the same through the inverse inertias: the spin per unit impulse
	tbFloatW separation;       // at the start of the step, m
	tbFloatW normalMass;       // 1 / (J M^-1 J^T), Baraff II eq. 8-18's denominator; 0: no point
	tbFloatW normalImpulse;    // accumulated, N s
	tbFloatW maxNormalImpulse; // largest impulse applied in the step (restitution's test)
} tbContactPointW;

// What a point needs only once or twice a step (restitution, the step's impulse), kept apart from
// the rows the passes stream through: a point's rows are then four cache lines (sixteen lanes of
// four floats) that a pass reads whole, the lines of the next point not shared with this one.
typedef struct tbContactPointColdW
{
	tbFloatW stepImpulse;      // the substeps' accumulated impulses and restitution's, summed, N s
	tbFloatW relativeVelocity; // normal speed at the moment of impact, m/s (docs/solver.md)
	tbFloatW approachAccel;    // relative normal acceleration from gravity and forces, m/s^2
} tbContactPointColdW;

// A contact constraint for TB_SIMD_WIDTH manifolds, structure of arrays: lane k is manifold k.
// Friction is one 2D row at the manifold's centre plus a twist row about the normal (Box3D's
// choice, and Bullet's "friction anchor"), not a pair of rows per point: three rows instead of
// eight, and the same Coulomb cone for the whole face.
typedef struct tbContactConstraintW
{
	int bodyA[TB_SIMD_WIDTH], bodyB[TB_SIMD_WIDTH]; // solver body index (the static body if none)
	int contact[TB_SIMD_WIDTH];                     // index of the input contact, or -1 (padding)
	int pointCount; // the most points of any lane: rows beyond it are zero in every lane
	// Every lane's contact is dormant (tbContactConstraint.dormant): the passes skip the record
	// until the refresh finds one of its pairs able to close within a substep (tbRefreshOne).
	int dormant;
	// Where each lane's bodies are written back: bodyA, bodyB, or for a body that does not move
	// in the solve but has a state of its own (kinematic) the record's sink, which nothing reads.
	// Such a body is then only read, and may sit in many records solved side by side.
	int writeA[TB_SIMD_WIDTH], writeB[TB_SIMD_WIDTH];
	tbFloatW invMassA, invMassB;
	tbVec3W normal, tangent1, tangent2;
	tbFloatW friction, restitution;
	tbFloatW biasRate, massScale, impulseScale; // soft contact (Catto, GDC 2011)
	tbFloatW maxPush; // minus the largest push-out speed of an overlapping row, m/s
	_Alignas(64) tbContactPointW points[TB_MAX_MANIFOLD_POINTS]; // each on whole cache lines
	tbVec3W rAxt1, rBxt1, invIArAxt1, invIBrBxt1;                // tangent row 1 at the centre
	tbVec3W rAxt2, rBxt2, invIArAxt2, invIBrBxt2;                // tangent row 2
	tbFloatW tangentMass1, tangentMass2, tangentImpulse1, tangentImpulse2;
	// The friction rows' target speeds: the contact's tangentVelocity along tangent1, tangent2.
	tbFloatW tangentSpeed1, tangentSpeed2;
	tbVec3W invIAn, invIBn; // twist row: J = (0, -n, 0, n)
	tbFloatW twistMass, twistImpulse;
	tbFloatW twistArm;    // mean distance of the points from the centre: twist limit mu N arm, m
	tbVec3W stepFriction; // the substeps' friction impulses summed, world, N s
	tbContactPointColdW cold[TB_MAX_MANIFOLD_POINTS];
} tbContactConstraintW;

// A soft constraint's coefficients for one substep length (Catto, GDC 2011).
typedef struct tbSoftness
{
	float biasRate, massScale, impulseScale;
	float pushMaxSpeed; // the solver's contactPushMaxSpeed, m/s
} tbSoftness;

// What an observed contact pass saw of one record (the energy ledger and the solver trace,
// docs/energy.md): per lane, the work its rows did on the moving bodies, split by cause, and, per
// row, the velocity error before the update. The plain passes take none (a null pointer known at
// compile time), so their code is unchanged.
typedef struct tbRowsSeen
{
	// In: h/2 times each side's gravity where the body is dynamic (zero where not). A linear
	// impulse changes the energy the ledger measures along the sampled parabola by -m g . h dv / 2
	// before the deltas are integrated and by +m g . h dv / 2 after (docs/energy.md, "Gravity's
	// half substep"); the other -m g . h dv / 2 is gravity's (gravityWork).
	tbVec3W gravityHA, gravityHB;
	bool afterDeltas; // in: the pass comes after the substep's deltas are integrated
	// In and out, per point: the biased passes' position correction impulse of this substep not
	// yet taken back by a relax pass, N s (ledger.c keeps it per contact between the passes).
	tbFloatW biasImpulse[TB_MAX_MANIFOLD_POINTS];
	// Out: the work of the normal rows' impact part (a rigid contact's update), of their position
	// correction part (the soft row's bias and softness), of the friction rows (2D and twist), and
	// gravity's share, J, lane by lane: lambda (u_before + u_after) / 2 over the moving bodies plus
	// the gravity part.
	tbFloatW normalWork, biasWork, frictionWork, gravityWork;
	tbFloatW speedError[TB_MAX_MANIFOLD_POINTS]; // J v + bias before the row's update, m/s
	tbFloatW bias[TB_MAX_MANIFOLD_POINTS];       // the row's bias speed, m/s
	tbFloatW tangentError1, tangentError2;       // J v - target of the friction rows, m/s
	tbFloatW twistError;                         // relative spin about the normal, rad/s
	tbFloatW clamped; // all bits where the friction impulse was cut to the Coulomb disc
} tbRowsSeen;

// The step's constraint passes (contact_solver.c).
void tbContactSoftness(const tbSolverDef* def, float h, tbSoftness soft[2]);
// A lane's bodies, masses, friction and softness; its rows and impulses come with the rest of
// its record's lanes (tbPrepareContactRowsW, once every lane is placed). `staticBody` stands for
// a side with no solver body; `sinkBody` takes the write-back of a kinematic one.
void tbPrepareContactLane(tbContactConstraintW* c, int lane, const tbContactConstraint* contact,
                          int contactIndex, tbRigidBody* const* bodies, int staticBody,
                          int sinkBody, const tbSoftness soft[2]);
void tbPrepareContactRowsW(tbContactConstraintW* c, const tbContactConstraint* contacts,
                           tbRigidBody* const* bodies, const tbSolverDef* def);
void tbWarmStartContactsW(tbContactConstraintW* c, tbSolverBody* states);
void tbSolveContactsW(tbContactConstraintW* c, tbSolverBody* states, float invH, bool useBias);
// Each point's normal speed at the moment of impact, from the bodies' velocities and
// accelerations at the step's start and its gap (restitution's speed).
void tbSetImpactSpeedW(tbContactConstraintW* c, const tbSolverBody* states,
                       const tbSolverBodyMotion* motions, int bodyCount, float h);
void tbApplyRestitutionW(tbContactConstraintW* c, tbSolverBody* states, float threshold, float h);
// The same three passes, observed (tbRowsSeen): the same arithmetic on the velocities, and the
// rows' work and errors written to `seen` (which the caller clears and fills with its inputs).
void tbWarmStartContactsSeenW(tbContactConstraintW* c, tbSolverBody* states, tbRowsSeen* seen);
void tbSolveContactsSeenW(tbContactConstraintW* c, tbSolverBody* states, float invH, bool useBias,
                          tbRowsSeen* seen);
void tbApplyRestitutionSeenW(tbContactConstraintW* c, tbSolverBody* states, float threshold,
                             float h, tbRowsSeen* seen);
// The collision phase (Guendelman, Bridson, Fedkiw 2003): one visit of a record, before the
// substeps. Each point with e > 0 that meets within `window` seconds (dt + h) at a speed above
// `threshold` gets the collision impulse that sends it off on its outgoing parabola at the moment
// of impact t, and its bodies' deltas are moved back by t times their change of velocity; its
// impulse is added to the step's. Returns whether any lane was struck. The caller sweeps the
// records until none is.
bool tbCollideContactsW(tbContactConstraintW* c, tbSolverBody* states, float window, float h,
                        float threshold);
// The same, observed: the normal rows' work in `seen`, its gravity inputs the bodies' gravity
// (per second: the move back by t changes the potential by t lambda n . (gB - gA)).
bool tbCollideContactsSeenW(tbContactConstraintW* c, tbSolverBody* states, float window, float h,
                            float threshold, tbRowsSeen* seen);
// After the phase and tbSetImpactSpeedW again: the struck points' impact speed set to zero, so
// that restitution is not applied to them a second time.
void tbEndCollisionsW(tbContactConstraintW* c);
// Adds the substep's accumulated normal and friction impulses to the step's sums (once per
// substep, after the relax pass: each substep applies its accumulated impulse once).
void tbAddStepImpulsesW(tbContactConstraintW* c);
void tbStoreContactImpulsesW(const tbContactConstraintW* c, tbContactConstraint* contacts);

// Rolling resistance (rolling_resistance.c): the contacts that have it, listed colour by colour
// (the `colorCount` colours of the contacts, the overflow last; `order` and `colorBase` as the
// solver sorts them), each colour's in input order, `starts[k]` where colour k's begin
// (colorCount + 1 of them); their impulses cleared at a substep's start; solved before the contacts
// of a relax pass (each contact's `record` names its lane), one colour's side by side where workers
// are given.
// `rows` runs beside `list`: each contact's rows, made by its first relax pass of the step and
// again after the substeps remake its manifold (tbContactConstraint.remade); the list marks them
// unmade. A row holds what its passes read of its contact besides the manifold's point count
// and `remade` (its bodies, lane, coefficient and the substep's impulse), so that a pass reads
// one line of the contact's constraint, not three, and no rigid body.
typedef struct tbRollingRow
{
	vec3s t1, t2;         // the tangents the rows turn about
	vec3s a1, a2, b1, b2; // IA^-1 t1, IA^-1 t2, IB^-1 t1, IB^-1 t2 (zero for a body that stays)
	float k11, k12, k22;  // the rows' 2 x 2 mass matrix K
	float lever;          // tbRollingLever: the torque's limit is c N lever
	int remade;           // the contact's `remade` they were made at; -1: not made
	int bodyA, bodyB;     // the solver bodies the rows turn, -1 for one that does not move
	int record;           // the contact's record * TB_SIMD_WIDTH + lane
	float coefficient;    // the contact's rollingResistance
	float impulse[2];     // the substep's impulse about t1, t2, N m s
} tbRollingRow;
int tbListRollingContacts(const tbContactConstraint* contacts, const int* order,
                          const int* colorBase, int colorCount, int* list, tbRollingRow* rows,
                          int* starts);
void tbClearRolling(tbRollingRow* rows, int count);
void tbSolveRolling(const tbContactConstraint* contacts, const int* list, tbRollingRow* rows,
                    int count, const tbContactConstraintW* groups, tbRigidBody* const* bodies,
                    tbSolverBody* states);

// The narrow phase inside the step: the lane's contact made again by def->refreshContact at the
// bodies' poses of now and its rows rebuilt there, impulses carried over by feature id; or kept
// when the callback finds its anchored points still hold the deepest features (`along`: the
// shapes' separation along the lane's normal then). The lane is unchanged unless made.
// `ahead`: whether the turn may close on the new points beyond the rows' forecast enough to ask
// the callback where they will be (tbAnticipateTurn). `worker`: the calling range's worker index,
// passed to the callback.
tbRefreshResult tbRefreshContactLane(tbContactConstraintW* c, int lane,
                                     tbContactConstraint* contact, tbRigidBody* const* bodies,
                                     const tbSolverBody* states, const tbSolverDef* def, float h,
                                     bool ahead, int worker, float* along);
