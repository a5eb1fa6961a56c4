// The joints' per-step records (private to dynamics/).
#pragma once

#include "solver_internal.h"
#include "tumble/joint_solver.h"

// The most a body may turn in a substep, rad, for the point rows' arc correction
// (tbArcCorrection).
#ifndef TB_ARC_TURN
#define TB_ARC_TURN 0.3f
#endif

// A jointed body's torque-free turn over the substep (tbJointBodyGyroFlow): while pending, its
// turn of the substep is `flow` followed by a plain rotation by what its deltas moved beyond
// `drift`; the velocities' change is given in two halves (dw, dv to the body, dwOther, dvOther to
// the other body of its joint), the second after the substep's turn (tbJointGyroscopicEnd).
typedef struct tbSpinFlow
{
	mat3s flow;
	vec3s drift; // h times the velocity the flow turns the body by
	vec3s dw, dv, dwOther, dvOther;
	int other;     // the other body's solver index, -1 where it cannot move
	float pending; // 1: the flow is not yet composed into the turn
	float kick;    // 1: a half is still to be given (tbJointGyroscopicKick, then ...End)
	float wScale;  // the rotation cap's scale of w, given with the first half
} tbSpinFlow;

// A jointed body's turn one substep ahead, as the biased pass's SHAKE step made it
// (tbSolveJointGroup): tbTurnAtInto at the deltas `by`. The substep's turn after the deltas are
// integrated (tbJointBodyTurn) takes it where its deltas came out the same to the bit (no later
// row changed the body's velocities), instead of making it again. Valid until the body's turn is
// next composed (tbComposeTurn), which the turn it was made from would no longer be.
// Kept with it, for the substep's stiffening (tbJointBodyStiffen): turnedFresh, the body's
// turned inertia (turnedInertias) is tbTurnInertia of its turn and its inertia (inertias) as
// they are now; false once its turn is composed again.
typedef struct tbAheadTurn
{
	mat3s turn;
	vec3s by;
	bool valid;
	bool turnedFresh;
} tbAheadTurn;

// The joint's current geometry from its bodies' deltas.
typedef struct tbJointNow
{
	vec3s rA, rB;      // anchors turned by the bodies' rotation deltas
	vec3s d;           // B's anchor minus A's, m
	vec3s axisA, refA; // A's frame
	vec3s axisB, refB; // B's frame
	float angle;       // hinge angle, rad
} tbJointNow;

// The swing and twist of a ball joint's B frame against A's (tbBallAnglesOf): the swing turns
// A's twist axis bA onto B's, bB, about n = bA x bB / |bA x bB| by theta; the twist psi is what
// is left about bB (B's reference turned back by the swing, against A's reference).
typedef struct tbBallAngles
{
	float swing;  // theta, rad
	vec3s n;      // the swing's axis (zero when theta is tiny)
	float twist;  // psi, rad, in (-pi, pi]
	vec3s twistJ; // dpsi/dt = twistJ . (wB - wA): (bA + bB) / (1 + cos theta)
	vec3s coneJ;  // dC/dt = coneJ . (wB - wA) for the cone's C (zero: no row)
	float coneC;  // how far inside the cone, rad (< 0: outside)
} tbBallAngles;

// The relax pass may take a joint group's factor from the substep's last biased pass instead of
// making it again at the bodies' new poses (tbSolveJointGroup), where the group allows it
// (tbOrderJointGroup): no joint's row of the factor has more than TB_HELD_FACTOR_BLOCKS blocks
// before its diagonal (a ragdoll's joints have at most four), and no two jointed bodies' masses
// are more than TB_HELD_FACTOR_MASS_RATIO apart (a heavy load on light links makes A so
// ill-conditioned that a factor a few hundredths of a radian old flings the links apart: the
// chains of tests/test_joints.c). And only where no body of the group turned by more than
// TB_HELD_FACTOR_TURN radians in the substep.
#define TB_HELD_FACTOR_BLOCKS 4
#define TB_HELD_FACTOR_MASS_RATIO 32.0f
#define TB_HELD_FACTOR_TURN 0.02f

// A group whose moving bodies' masses are within TB_SOFT_GROUP_MASS_RATIO of each other and one
// of whose bodies holds more than two of its joints (a ragdoll: a branching tree of alike bodies)
// solves its point rows one joint at a time, soft, as a lone joint's (tbOrderJointGroup's
// groupSoft); a chain and a heavy load on light links keep the direct solve. After the relax
// pass's rows, such a group takes the direct solve's projection of its gaps only where a joint's
// gap has passed TB_GROUP_PROJECT_GAP of its arms |rA| + |rB|, so the gaps stay within that
// fraction after every substep.
#define TB_SOFT_GROUP_MASS_RATIO 32.0f
#define TB_GROUP_PROJECT_GAP 5e-3f

// Floats of what a joint's geometry of now is made from besides its record (tbJointNowInputs):
// each body's dp, dtheta and the dtheta its turn was composed up to.
#define TB_JOINT_NOW_INPUTS 18

// What a joint needs beyond its point rows and frames (tbJointRecord.more): its group's part of
// the direct solve, the geometry and angles held through a substep's passes, the ball joint's
// targets and the springs. Kept apart from the record so that the ball joints solved
// TB_SIMD_WIDTH at a time (tbBallBatch), which never read it, never touch its memory: in a grid
// of ball joints the records stream through the cache at a fraction of their full size. Made
// by tbPrepareJointMore, for the joints that are not in a batch.
typedef struct tbJointMore
{
	// In its group's order (tbOrderJointGroup), a bit per joint: the joints before it that share
	// a body with it, its row's blocks before the diagonal in the factor, the later joints whose
	// rows hold its column there.
	uint64_t groupShares, groupLower, groupColumn;
	// A grouped joint's anchors and gap of now as its own rows made them in this pass, for its
	// group's solve right after (at the same turns): valid while nowFresh.
	vec3s nowRA, nowRB, nowD;
	bool nowFresh;
	// Its point mass matrix at those anchors and the record's inertias of now (xx, xy, xz, yy,
	// yz, zz), where its limit rows made it in the same pass, for a soft group's point rows:
	// valid while nowFresh and nowMassFresh.
	float nowMass[6];
	bool nowMassFresh;
	// The joint's geometry of now and a ball joint's angles, made by its warm start and kept
	// through the substep's biased passes (until the deltas are integrated only velocities
	// change, so they would come out the same); the relax pass makes its own: valid while held.
	tbJointNow heldNow;
	tbBallAngles heldAngles;
	bool held;
	// The relax pass's geometry is made in the same place, with what it was made from
	// (tbJointNowInputs): the next warm start takes it where those are unchanged (relaxHeld;
	// relaxAngles, with a ball joint's angles).
	float relaxInputs[TB_JOINT_NOW_INPUTS];
	bool relaxHeld, relaxAngles;
	// A grouped joint's row of its group's factor (tbSolveJointGroup) as the substep's last
	// biased pass made it, read back by the relax pass where the group holds it: its diagonal
	// block with its pivots' inverses and its blocks before the diagonal, in the order of the
	// bits of groupLower. In the group's first record: factorKeep, the group may hold its factor
	// (tbOrderJointGroup), and factorHeld, it holds this substep's; groupSoft, its point rows go
	// one joint at a time (TB_SOFT_GROUP_MASS_RATIO).
	mat3s factorDiag;
	float factorInv[3];
	mat3s factorLower[TB_HELD_FACTOR_BLOCKS];
	bool factorKeep, factorHeld;
	bool groupSoft;
	short groupSlot[2];            // its bodies' (A, B) slots among its group's bodies
	bool groupFirst[2];            // it is the first joint of its group's order to name the body
	vec3s targetAxisA, targetRefA; // ball: B's target frame on A, world, at the start
	vec3s motorVelocity;           // ball: the motor's wB - wA, world, at the start
	float wheelSpringMass;         // wheel: the suspension row's mass the spring was made for
	float springBiasRate, springMassScale, springImpulseScale; // the user's spring
} tbJointMore;

// What a joint needs in every substep, set up once per step: its bodies' solver indices, their
// masses and inverse inertias of the step's start, and the anchors and frames in world axes at
// the start (turned by the bodies' rotation deltas as the step goes).
typedef struct tbJointRecord
{
	// First what every pass reads (a ball joint's point rows read nothing else): a few cache lines
	// per joint where the passes stream through many. The passes over all joints on one thread
	// read the joint's key (tbJointKey) instead.
	int indexA, indexB;
	int staticBody; // the solver's static body index
	int component;  // its joint group, solved together for the point rows; -1: one by one
	float mA, mB;
	// Its group's bodies are also held by a joint outside the group (a distance joint, say),
	// whose rows read their turns after the group's solve in the same pass (tbGroupJoints).
	bool groupOpen;
	bool movesA, movesB; // dynamic: its velocities are written (never a static or kinematic's)
	bool hasPoint;       // ball, hinge, fixed: the anchors coincide (three point rows)
	bool plainBall;      // a ball joint with no angular row (no limit, cone, motor, spring)
	bool spinFlow;       // a body of its turns by a torque-free flow (tbSpinFlow)
	bool isBall;         // a ball joint (joint->type, read here without the joint)
	tbJoint* joint;
	tbJointMore* more;        // the rest (made only for the joints outside the batches)
	mat3s* turns;             // per solver body: its turn since the step began (tbJointBodyTurn)
	mat3s* turnedInertias;    // per solver body: inertias[] turned by it, zero where it cannot move
	vec3s* turnedBy;          // per solver body: the dtheta its turn has been composed up to
	struct tbSpinFlow* flows; // per solver body: its torque-free turn of the substep
	tbAheadTurn* aheads;      // per solver body: its turn a substep ahead (tbAheadTurn)
	vec3s rA, rB;             // anchors from the centres of mass, world, at the start
	vec3s d0;                 // B's anchor minus A's at the start, m
	float biasRate, massScale, impulseScale; // rigid rows (joint softness)
	float h;                                 // the substep, s
	mat3s* inertias;                         // per solver body: the inverse inertia of this substep
	float* stiffened; // per solver body: how much geometric stiffness it took, 0..1
	mat3s iA, iB;     // inverse inertias of now (tbJointNowAt), zero for a body that cannot move
	mat3s iA0, iB0;   // inverse inertias of the step's start
	// tr(I0^-1) - a^T I0^-1 a for each side's arm direction a (tr(I0^-1) where the arm is
	// nil): what a unit tension along the arm adds to its body's rho (tbJointAddLoad)
	float swayA, swayB;
	vec3s axisA, refA; // A's frame, world, at the start
	vec3s axisB, refB; // B's frame
} tbJointRecord;

// Joints whose point rows are solved together, exactly (a direct solve of J M^-1 J^T): the joints
// of one group share moving bodies, at most TB_MAX_DIRECT_JOINTS of them. Groups of at most
// TB_PARALLEL_DIRECT_JOINTS are solved side by side with other joints (each worker has work
// memory of that size); larger ones one at a time after them.
#define TB_MAX_DIRECT_JOINTS 64
#define TB_PARALLEL_DIRECT_JOINTS 16

// Bytes of work memory tbSolveJointGroup needs for a group of `count` joints.
size_t tbJointGroupWorkBytes(int count);

// What the step's passes over all joints on one thread read and write (tbListJointBodies,
// tbGroupJoints, the colouring), copied from each record as it is prepared (tbJointKeyOf): those
// passes stream a few bytes a joint instead of its record's cache line.
typedef struct tbJointKey
{
	int indexA, indexB;                               // the record's
	int component;                                    // the record's, set by tbGroupJoints
	bool movesA, movesB, hasPoint, plainBall, isBall; // the record's
	bool groupOpen;                                   // the record's, set by tbGroupJoints
} tbJointKey;

// The key of a prepared record (its component and groupOpen as tbPrepareJoint left them).
tbJointKey tbJointKeyOf(const tbJointRecord* r);

// Sort the joints into groups (connected through moving bodies); groups larger than
// TB_MAX_DIRECT_JOINTS keep solving their point rows one joint at a time. Sets the keys'
// component and groupOpen (the records take them from there). `order` receives the joints group
// by group; `groupStart` (size jointCount + 1) the groups' first entries. Returns the number of
// groups. `parent` and `rootGroup` are scratch of bodyCount + 1 ints.
int tbGroupJoints(tbJointKey* keys, int jointCount, int bodyCount, int staticBody, int* parent,
                  int* rootGroup, int* order, int* groupStart);

// The joints of a group put in an elimination order that keeps the fill of A's factor small
// (greedy minimum fill; none for a tree of bodies), and the blocks of A and of its factor in that
// order (the records' group masks): the direct solve's factorization keeps to them.
void tbOrderJointGroup(tbJointRecord* records, int* joints, int count);

// The point rows of the joints records[order[0..count)] in one direct solve: made exact for the
// velocities of now (and, with useBias, the substep's arcs closed by SHAKE; without, the relax
// pass's projection of the positions). The solver runs it in the substep's last biased pass and
// its relax passes (a lone joint's in every pass: tbJointUnitsTask). `turnsRead`: after the relax
// pass's projection, something reads the group's bodies' turns and turned inertias before the
// next substep composes them again (a further relax iteration, a joint outside the group), so
// they are brought up to date here. A soft group (groupSoft) solves its rows one joint at a time
// instead, and takes the projection only where a gap has passed TB_GROUP_PROJECT_GAP.
void tbSolveJointGroup(tbJointRecord* records, const int* order, int count, tbSolverBody* states,
                       bool useBias, bool turnsRead, float* work);

// A body that joints act on, listed once (tbListJointBodies): its solver index and the record
// and side (0: A, 1: B) that list it, which hold its mass and inertia.
typedef struct tbJointBody
{
	int index, record, side;
	bool onePoint; // its only joint is a point joint (ball, hinge, fixed): never stiffened
	// It takes its whole stiffness (its load, tbJointAddLoad, is infinite): it is on a slider,
	// wheel or distance joint, whose arms are not the turned anchors, or on a ball joint of a
	// batch (tbBallBatchAddStiffness sums the lanes' whole stiffness).
	bool whole;
	unsigned char gyro; // 1: moving and on one ball joint only (the record's), else 0
} tbJointBody;

// The bodies of the joints, each once, in the order the joints name them, each marked for the
// stiffening (onePoint, and whole for the joints without point rows: the solver adds the
// batches' bodies once it has made them) and the gyroscopic term (gyro); returns the count. After
// the records are prepared. `seen` is scratch per solver body, zero on entry and on exit.
int tbListJointBodies(tbJointRecord* records, const tbJointKey* keys, int jointCount,
                      unsigned char* seen, tbJointBody* list);

// A jointed body's turn since the step began, turns[body] (the records' arrays), brought up to
// its dtheta of now by composing the change since the last call (tbComposeTurn): once for every
// change of the deltas, instead of in every joint that reads it.
// With `stiffness` (the substep's start) its geometric stiffness and its load (stiffened[], which
// tbJointBodyStiffen then overwrites) are cleared for tbJointAddLoad, tbJointAddStiffness and
// tbJointBodyStiffen; without, its substep inverse inertia is turned by it, turnedInertias[body]
// (zero where it cannot move). Writes only the body's entries.
void tbJointBodyTurn(const tbJointRecord* records, const tbJointBody* body,
                     const tbSolverBody* states, mat3s* stiffness);
// Adds the joint's share of rho (tbJointBodyStiffen's measure of how stiff its bodies' joints
// make them, over h) to its moving bodies' load[], from scalars: an arm's geometric stiffness
// (F . r)(1 - r^ r^T) adds (F . r)(tr(I^-1) - r^T I^-1 r / r^2) to tr(I^-1 K), and both terms
// of the bracket are the same in the step's starting axes (swayA, swayB), where the arm and the
// inertia turn together. A joint without point rows (slider, wheel, distance), whose arms are
// not the turned anchors, adds nothing: its bodies take their whole stiffness (whole).
void tbJointAddLoad(const tbJointRecord* record, float* load);
// Whether the body's load (tbJointAddLoad) may make it take some of its geometric stiffness: rho
// = h load may pass 1 (with a margin of two for rounding; the stiffening starts at 1).
static inline bool tbJointLoadStiffens(const tbJointRecord* record, float load)
{
	return !(record->h * load <= 0.5f);
}
// Adds the geometric stiffness of the joint's load to its moving bodies' stiffness[], where
// either of them may take some of it (tbJointLoadStiffens; every other body's stiffness is
// never read).
void tbJointAddStiffness(const tbJointRecord* record, const tbSolverBody* states, mat3s* stiffness,
                         const float* load);
// The body's inverse inertia for this substep into inertias[body] (in the step's starting axes):
// its inertia plus what it needs of its summed geometric stiffness taken implicitly, that fraction
// into stiffened[body] (which held its load), and turned by its turn into turnedInertias[body].
void tbJointBodyStiffen(const tbJointRecord* records, const tbJointBody* body,
                        const mat3s* stiffness);

// The body's turn to none (the step's start), before the first tbJointBodyTurn.
void tbJointBodyStartTurn(const tbJointRecord* records, const tbJointBody* body);

// The gyroscopic part of Euler's equations, I dw/dt = -w x (I w), over the substep h for a
// jointed moving body on one ball joint only (gyro; their w is primary: tbFinishBody): the body's
// torque-free motion with its inverse inertia at the joint, as its turn of the substep (composed
// by the turns) and half of its velocities' change and the other body's answer, kept in its
// tbSpinFlow; the states are only read, so the bodies run side by side. The rotation cap,
// maxRotation a substep, is taken here (on the flow's turn about L, not on the spin about the
// body's axis), as a scale of w kept with the flow. After the substep's inertias, before the warm
// start. bodies are the solver's.
void tbJointBodyGyroFlow(const tbJointRecord* records, const tbJointBody* body,
                         tbRigidBody* const* bodies, const tbSolverBody* states, float h,
                         float maxRotation);
// The first half of those changes (and the caps' scales) given to the bodies list[gyro[0..count)]
// (the gyro bodies, in list order), one after another: a body's half writes the other body of its
// joint, which another's may write too.
void tbJointGyroscopicKick(const tbJointRecord* records, const tbJointBody* list, const int* gyro,
                           int count, tbSolverBody* states);
// The second half of the velocities' change, after the substep's turn (tb_jointTurn), before the
// relax pass; one body after another.
void tbJointGyroscopicEnd(const tbJointRecord* records, const tbJointBody* list, const int* gyro,
                          int count, tbSolverBody* states);

// The body's turn of the step's end, at its deltas of now (tbTurnAtInto), into ends[body]: made
// once per body for the joints' finish (tbFinishJoint) and tbJointBodyTurnToDelta, after the
// last pass. Writes only the body's entry.
void tbJointBodyEndTurn(const tbJointRecord* records, const tbJointBody* body,
                        const tbSolverBody* states, mat3s* ends);

// The moving body's composed turn of the step written back into its dtheta as the rotation
// vector of that turn, so that tbFinishBody's Rot(dtheta) R0 is the turn the joints held. After
// the last pass and the joints' finish; the turn composed is ends[body] (tbJointBodyEndTurn).
void tbJointBodyTurnToDelta(const tbJointRecord* records, const tbJointBody* body,
                            tbSolverBody* states, const mat3s* ends);

void tbPrepareJoint(tbJointRecord* record, const tbJointBinding* binding,
                    tbRigidBody* const* bodies, int staticBody, const tbJointSoftness* softness,
                    float h);
// The record's `more` (which it points at) made: after tbPrepareJoint, for every joint that is
// not solved in a tbBallBatch.
void tbPrepareJointMore(tbJointRecord* record, tbRigidBody* const* bodies);
void tbWarmStartJoint(tbJointRecord* record, tbSolverBody* states);
void tbSolveJoint(tbJointRecord* record, tbSolverBody* states, float invH, bool useBias);
// The joint's reaction and coordinates at the step's end, its bodies' turns read from ends[]
// (tbJointBodyEndTurn).
void tbFinishJoint(tbJointRecord* record, const tbSolverBody* states, const mat3s* ends, float h);

// Ball joints with no rows but the point's, outside any group, TB_SIMD_WIDTH of one colour at a
// time (joint_wide.c): their anchors, gap, inverse inertias and K's inverse made once for each
// set of turns (the warm start's, the relax passes'), read by every pass until the turns move.
// Lane by lane the same operations in the same order as tbSolveBall, so the same bits.
typedef struct tbBallBatch
{
	_Alignas(32) float rA[3][TB_SIMD_WIDTH], rB[3][TB_SIMD_WIDTH]; // anchors of now
	float d[3][TB_SIMD_WIDTH];                                     // B's anchor minus A's
	float iA[9][TB_SIMD_WIDTH], iB[9][TB_SIMD_WIDTH]; // turned inverse inertias, by columns
	float adj[6][TB_SIMD_WIDTH];                      // K's adjugate: xx, xy, xz, yy, yz, zz
	float inv[TB_SIMD_WIDTH];                         // 1 / det K
	float valid[TB_SIMD_WIDTH]; // a mask (tbGreaterW's): K is invertible, else no impulse
	float rA0[3][TB_SIMD_WIDTH], rB0[3][TB_SIMD_WIDTH], d0[3][TB_SIMD_WIDTH]; // the step's start
	float impulse[3][TB_SIMD_WIDTH]; // accumulated, N s (the joint's linearImpulse in the step)
	float mA[TB_SIMD_WIDTH], mB[TB_SIMD_WIDTH];
	float biasRate[TB_SIMD_WIDTH], massScale[TB_SIMD_WIDTH], impulseScale[TB_SIMD_WIDTH];
	float h[TB_SIMD_WIDTH];
	int indexA[TB_SIMD_WIDTH], indexB[TB_SIMD_WIDTH];
	int record[TB_SIMD_WIDTH]; // -1: an empty lane (both indices the static body)
	const mat3s* turns;        // the records' arrays per solver body (tbJointRecord)
	const mat3s* turnedInertias;
	bool movesA[TB_SIMD_WIDTH], movesB[TB_SIMD_WIDTH];
} tbBallBatch;

// Whether the joint's rows are a ball's point rows only, outside a group (tbBallBatch).
bool tbBallBatchable(const tbJointRecord* r);

// The batch's lanes from records[joints[0..count)] (count <= TB_SIMD_WIDTH), their impulses
// taken from the joints.
void tbBallBatchInit(tbBallBatch* b, const tbJointRecord* records, const int* joints, int count,
                     int staticBody);
// The lanes' anchors at the bodies' turns of now (after the turns moved).
void tbBallBatchAnchors(tbBallBatch* b);
// The lanes' gap, inertias and K at those anchors (after the inertias or the deltas moved).
void tbBallBatchPrepare(tbBallBatch* b, const tbSolverBody* states);
// The lanes' geometric stiffness summed on their moving bodies (tbJointAddStiffness), at the
// anchors of tbBallBatchAnchors.
void tbBallBatchAddStiffness(const tbBallBatch* b, mat3s* stiffness);
void tbBallBatchWarmStart(const tbBallBatch* b, tbSolverBody* states);
void tbBallBatchSolve(tbBallBatch* b, tbSolverBody* states, bool useBias);
// The lanes' impulses written back into their joints (for what reads them: the geometric
// stiffness, the finish).
void tbBallBatchStore(const tbBallBatch* b, const tbJointRecord* records);
