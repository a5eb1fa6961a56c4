// A recorded solver step of one contact: every tbContactTrace row of the chosen pair over one
// step (all substeps, iterations and passes), stepped on the world and then undone with a save, so
// that the scene stays at the step's start. GL-free: the contact solver debugger and its tests.
#pragma once

#include <tumble/tumble.h>

/// One step of one contact, pass by pass.
typedef struct dmSolverRecord
{
	tbShapeId shapeA, shapeB; ///< the pair recorded (either order matches)
	tbContactTrace* rows;     ///< in the order the solver ran the passes
	int count, capacity;
	bool outOfMemory;
	int substeps;
	float timeStep;
	/// The pair's Coulomb coefficient, sqrt(muA muB) (tbShapeDef.friction; a friction callback
	/// may set another, which the trace's clamp then shows).
	float friction;
	void* save; ///< the world's save at the step's start, reused
	size_t saveCapacity;
} dmSolverRecord;

/// Step the world once by (timeStep, substeps) with the solver trace on, keep the rows of the pair
/// (a, b), then restore the world as it was before the step. The pair's bodies are woken first (a
/// sleeping island is not solved). The record is reset first (its memory is reused). False when
/// the world could not be saved, stepped or restored, or memory ran out.
bool dmSolverRecord_Capture(dmSolverRecord* record, tbWorldId worldId, tbShapeId a, tbShapeId b,
                            float timeStep, int substeps);

void dmSolverRecord_Free(dmSolverRecord* record);

/// The residual of a row: the largest |speed error| of its points, m/s (zero in the warm start
/// and restitution passes, which compute none).
float dmSolverRow_Residual(const tbContactTrace* row);

/// Sum of the points' normal impulses, N s: the friction disc's radius is mu times it.
float dmSolverRow_TotalNormal(const tbContactTrace* row);

/// The row of the warm start that began row k's substep (-1 when none was recorded).
int dmSolverRecord_WarmStartOf(const dmSolverRecord* record, int k);

/// The first row of the substep after row k's, or the restitution row; -1 after the last.
int dmSolverRecord_NextSubstep(const dmSolverRecord* record, int k);

/// "warm start", "push", "relax", "restitution".
const char* dmSolverPassName(tbSolverPassKind pass);

/// The contact of `data` with the largest summed normal impulse over the last step (the most
/// loaded: the bottom of a stack); -1 when count is 0.
int dmMostLoadedContact(const tbContactData* data, int count);
