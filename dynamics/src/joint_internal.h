// The joints' per-step records (private to dynamics/).
#pragma once

#include "solver_internal.h"
#include "tumble/joint_solver.h"

// What a joint needs in every substep, set up once per step: its bodies' solver indices, their
// masses and inverse inertias of the step's start, and the anchors and frames in world axes at
// the start (turned by the bodies' rotation deltas as the step goes).
typedef struct tbJointRecord
{
	tbJoint* joint;
	int indexA, indexB;
	float mA, mB;
	mat3s iA, iB;      // inverse inertias of now (tbJointNowAt), zero for a body that cannot move
	mat3s iA0, iB0;    // inverse inertias of the step's start
	vec3s rA, rB;      // anchors from the centres of mass, world, at the start
	vec3s d0;          // B's anchor minus A's at the start, m
	vec3s axisA, refA; // A's frame, world, at the start
	vec3s axisB, refB; // B's frame
	vec3s targetAxisA, targetRefA; // ball: B's target frame on A, world, at the start
	vec3s motorVelocity;           // ball: the motor's wB - wA, world, at the start
	float wheelSpringMass;         // wheel: the suspension row's mass the spring was made for
	float biasRate, massScale, impulseScale;                   // rigid rows (joint softness)
	float springBiasRate, springMassScale, springImpulseScale; // the user's spring
	float h;                                                   // the substep, s
	int staticBody;                                            // the solver's static body index
	int component;          // its joint group, solved together for the point rows; -1: one by one
	bool hasPoint;          // ball, hinge, fixed: the anchors coincide (three point rows)
	const mat3s* inertias;  // per solver body: the inverse inertia of this substep
	const float* stiffened; // per solver body: how much geometric stiffness it took, 0..1
	mat3s* turns;           // per solver body: its turn since the step began (tbJointTurns)
	vec3s* turnedBy;        // per solver body: the dtheta its turn has been composed up to
	mat3s* turnedInertias;  // per solver body: inertias[] turned by it, zero where it cannot move
} tbJointRecord;

// Joints whose point rows are solved together, exactly (a direct solve of J M^-1 J^T): the joints
// of one group share moving bodies, at most TB_MAX_DIRECT_JOINTS of them.
#define TB_MAX_DIRECT_JOINTS 64

// Bytes of work memory tbSolveJointGroup needs.
size_t tbJointGroupWorkBytes(void);

// Sort the joints into groups (connected through moving bodies); groups larger than
// TB_MAX_DIRECT_JOINTS keep solving their point rows one joint at a time. `order` receives the
// joints group by group; `groupStart` (size jointCount + 1) the groups' first entries. Returns
// the number of groups. `parent` is scratch of bodyCount + 1 ints.
int tbGroupJoints(tbJointRecord* records, int jointCount, int bodyCount, int* parent, int* order,
                  int* groupStart);

// The point rows of the joints records[order[0..count)] in one direct solve.
void tbSolveJointGroup(tbJointRecord* records, const int* order, int count, tbSolverBody* states,
                       bool useBias, float* work);

// Each jointed moving body's inverse inertia for this substep into inertias[body] (in the step's
// starting axes): its inertia plus what it needs of the geometric stiffness of its joints' loads
// taken implicitly, that fraction into stiffened[body]. stiffness and seen are scratch per solver
// body (seen zero on entry and on exit).
void tbJointInertias(tbJointRecord* records, int jointCount, const tbSolverBody* states,
                     mat3s* inertias, float* stiffened, mat3s* stiffness, unsigned char* seen);

// Each jointed body's turn since the step began, turns[body] (the rotation by its dtheta), and its
// substep inverse inertia turned by it, turnedInertias[body] (the records' arrays): once for every
// change of the deltas, instead of in every joint that reads them. tbJointInertias makes them for
// the substep's start; the solver again after the deltas are integrated. seen as above.
void tbJointTurns(tbJointRecord* records, int jointCount, const tbSolverBody* states,
                  unsigned char* seen);

// Every jointed body's turn to none (the step's start), before the first tbJointInertias.
void tbJointStartTurns(tbJointRecord* records, int jointCount);

// Each jointed body's w at the substep's start into spins[body], for tbJointGyroscopic.
void tbJointSaveSpins(const tbJointRecord* records, int jointCount, const tbSolverBody* states,
                      vec3s* spins);

// The gyroscopic part of Euler's equations, I dw/dt = -w x (I w), over the substep h for every
// jointed moving body (their w is primary: tbFinishBody), by the implicit midpoint rule in the
// body's axes of now, the midpoint between spins[body] (the substep's start) and the end the
// joints' warm start foresees. After the joints' warm start. bodies are the solver's; seen as
// above.
void tbJointGyroscopic(tbJointRecord* records, int jointCount, tbRigidBody* const* bodies,
                       tbSolverBody* states, const vec3s* spins, float h, unsigned char* seen);

// Each jointed moving body's composed turn of the step written back into its dtheta as the
// rotation vector of that turn, so that tbFinishBody's Rot(dtheta) R0 is the turn the joints
// held. After the last pass. seen as above.
void tbJointTurnsToDeltas(tbJointRecord* records, int jointCount, tbSolverBody* states,
                          unsigned char* seen);

void tbPrepareJoint(tbJointRecord* record, tbJoint* joint, tbRigidBody* const* bodies,
                    int staticBody, const tbJointSoftness* softness, float h);
void tbWarmStartJoint(tbJointRecord* record, tbSolverBody* states);
void tbSolveJoint(tbJointRecord* record, tbSolverBody* states, float invH, bool useBias);
void tbFinishJoint(tbJointRecord* record, const tbSolverBody* states, float h);
