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
	mat3s iA, iB;
	vec3s rA, rB;      // anchors from the centres of mass, world, at the start
	vec3s d0;          // B's anchor minus A's at the start, m
	vec3s axisA, refA; // A's frame, world, at the start
	vec3s axisB, refB; // B's frame
	float biasRate, massScale, impulseScale;                   // rigid rows (joint softness)
	float springBiasRate, springMassScale, springImpulseScale; // the user's spring
} tbJointRecord;

void tbPrepareJoint(tbJointRecord* record, tbJoint* joint, tbRigidBody* const* bodies,
                    int staticBody, const tbJointSoftness* softness, float h);
void tbWarmStartJoint(tbJointRecord* record, tbSolverBody* states);
void tbSolveJoint(tbJointRecord* record, tbSolverBody* states, float invH, bool useBias);
void tbFinishJoint(tbJointRecord* record, const tbSolverBody* states, float h);
