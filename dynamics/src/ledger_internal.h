// The solver's observers (ledger.c): the energy ledger's terms and the trace's rows, fed by the
// step's serial path when tbSolverDef.ledger or .trace is set.
#pragma once

#include "solver_internal.h"

typedef struct tbLedgerBody tbLedgerBody;

// What the observed passes need: the settings, the ledger (null: trace only), the ledger's
// bodies, the substep and the pass's iteration (for the trace).
typedef struct tbObserver
{
	const tbSolverDef* def;
	tbSolverLedger* ledger;
	tbLedgerBody* bodies;
	int bodyCount, contactCount;
	// Per contact and point: the biased passes' push-out impulse of this substep not yet taken
	// back by a relax pass, N s (tbRowsSeen.biasImpulse).
	float* biasImpulse;
	float h;
	int substep, iteration;
} tbObserver;

// The ledger's bodies and the energy at the step's start; the terms cleared.
void tbObserveBegin(tbObserver* o, const tbSolverDef* def, tbRigidBody* const* bodies,
                    int bodyCount, int contactCount, float h);
// The bodies' velocities before a pass measured by the two below.
void tbObserveSnapshot(tbObserver* o, const tbSolverBody* states);
// After the velocity integration: gravity's, the forces' and the damping's terms.
void tbObserveIntegration(tbObserver* o, const tbSolverBody* states,
                          const tbSolverBodyMotion* motions);
// After a pass over the joints (joints) or the rolling resistance: each body's change of energy,
// with the potential part where the pass comes before the deltas are integrated.
void tbObserveBodies(tbObserver* o, const tbSolverBody* states, bool beforeDeltas, bool joints);
// One contact pass over all records, observed: the ledger's terms and the trace's rows.
void tbObserveContacts(tbObserver* o, tbSolverPass pass, tbContactConstraintW* groups,
                       int groupCount, tbSolverBody* states, float invH);
// One sweep of the collision phase over all records, observed: the work of its impulses charged
// to the restitution term. Returns whether any point was struck.
bool tbObserveCollisions(tbObserver* o, tbContactConstraintW* groups, int groupCount,
                         tbSolverBody* states, float window, float threshold);
// The energy after tbSolverFinish and the finish's rotation term (`states`: the solver's).
void tbObserveFinish(const tbSolverDef* def, tbRigidBody* const* bodies, int bodyCount,
                     const tbSolverBody* states);
