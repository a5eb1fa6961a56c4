// The energy ledger and the solver trace of the world: tbWorld_EnableEnergyLedger,
// tbWorld_GetEnergyLedger, tbWorld_SetSolverTrace (docs/energy.md, docs/tool.md).
#include <math.h>
#include <string.h>

#include "world_internal.h"

void tbWorld_EnableEnergyLedger(tbWorldId worldId, bool flag)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_EnableEnergyLedger");
	if (w != NULL) {
		w->energyLedgerOn = flag;
		memset(&w->energyLedger, 0, sizeof w->energyLedger);
	}
}

tbEnergyLedger tbWorld_GetEnergyLedger(tbWorldId worldId)
{
	tbEnergyLedger none;
	memset(&none, 0, sizeof none);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetEnergyLedger");
	return w != NULL ? w->energyLedger : none;
}

void tbWorld_SetSolverTrace(tbWorldId worldId, tbContactTraceFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_SetSolverTrace");
	if (w != NULL) {
		w->contactTrace = fcn;
		w->contactTraceContext = context;
	}
}

size_t tbEnergyScratchBytes(const tbWorld* w)
{
	return w->energyLedgerOn ? tbSolverLedgerBytes(w->solverBodyCount, w->solverContactCount) : 0u;
}

// The solver's trace row as the world names it: the contact's shapes for its index.
static void tbTraceSolverContact(const tbSolverTraceContact* t, void* context)
{
	tbWorld* w = context;
	const tbContactSlot* c = w->contacts + w->solverContactSlots[t->contact];
	tbContactTrace row;
	memset(&row, 0, sizeof row);
	row.shapeA = tbMakeShapeId(w, c->shapeA);
	row.shapeB = tbMakeShapeId(w, c->shapeB);
	row.substep = t->substep;
	row.iteration = t->iteration;
	row.pass = (tbSolverPassKind)t->pass;
	row.pointCount = t->pointCount;
	_Static_assert(TB_MAX_MANIFOLD_POINTS == 4, "tbContactTrace holds four points");
	memcpy(row.normalImpulse, t->normalImpulse, sizeof row.normalImpulse);
	memcpy(row.speedError, t->speedError, sizeof row.speedError);
	memcpy(row.bias, t->bias, sizeof row.bias);
	memcpy(row.tangentImpulse, t->tangentImpulse, sizeof row.tangentImpulse);
	row.twistImpulse = t->twistImpulse;
	memcpy(row.tangentError, t->tangentError, sizeof row.tangentError);
	row.twistError = t->twistError;
	row.clamped = t->clamped;
	row.normalWork = t->normalWork;
	row.frictionWork = t->frictionWork;
	w->contactTrace(&row, w->contactTraceContext);
}

void tbEnergySolverDef(tbWorld* w, tbSolverDef* def)
{
	def->ledger = w->energyLedgerOn ? &w->solverLedger : NULL;
	def->trace = w->contactTrace != NULL ? tbTraceSolverContact : NULL;
	def->traceContext = w;
	if (!w->energyLedgerOn) {
		w->energyLedger.valid = false;
	}
}

// Puts a creator in the list kept sorted by work, largest first (at most TB_MAX_ENERGY_CREATORS).
static void tbAddCreator(tbEnergyLedger* e, tbEnergyCreator c)
{
	int n = e->creatorCount;
	if (n == TB_MAX_ENERGY_CREATORS && e->creators[n - 1].work >= c.work) {
		return;
	}
	int at = n < TB_MAX_ENERGY_CREATORS ? n : n - 1;
	while (at > 0 && e->creators[at - 1].work < c.work) {
		e->creators[at] = e->creators[at - 1];
		--at;
	}
	e->creators[at] = c;
	e->creatorCount = n < TB_MAX_ENERGY_CREATORS ? n + 1 : n;
}

void tbEnergyFinish(tbWorld* w)
{
	if (!w->energyLedgerOn) {
		return;
	}
	const tbSolverLedger* l = &w->solverLedger;
	tbEnergyLedger* e = &w->energyLedger;
	memset(e, 0, sizeof *e);
	e->valid = true;
	e->kinetic = l->kinetic;
	e->potential = l->potential;
	e->total = l->kinetic + l->potential;
	e->change = e->total - (l->kineticBefore + l->potentialBefore);
	e->scale = l->kineticBefore + fabs(l->potentialBefore);
	e->applied = l->applied;
	e->damping = l->damping;
	e->positionCorrection = l->positionCorrection;
	e->friction = l->friction;
	e->restitution = l->restitution;
	e->joints = l->joints;
	e->rotation = l->rotation;
	e->residual = e->change - (e->applied + e->damping + e->positionCorrection + e->friction +
	                           e->restitution + e->joints + e->rotation);
	// Energy from nothing: the total rose (gravity cannot raise it; forces and kinematic bodies
	// that push may, and are flagged as well).
	e->created = e->change > TB_ENERGY_CREATED_TOLERANCE * e->scale;
	if (!e->created) {
		return;
	}
	for (int i = 0; i < w->solverContactCount; ++i) {
		if (l->contactWork[i] > 0.0f) {
			const tbContactSlot* c = w->contacts + w->solverContactSlots[i];
			tbEnergyCreator k;
			k.bodyA = tbMakeBodyId(w, c->bodyA);
			k.bodyB = tbMakeBodyId(w, c->bodyB);
			k.work = (double)l->contactWork[i];
			k.joint = false;
			tbAddCreator(e, k);
		}
	}
	for (int i = 0; i < w->solverBodyCount; ++i) {
		if (l->jointWork[i] > 0.0f) {
			tbEnergyCreator k;
			k.bodyA = tbMakeBodyId(w, w->solverBodySlots[i]);
			k.bodyB = tb_nullBodyId;
			k.work = (double)l->jointWork[i];
			k.joint = true;
			tbAddCreator(e, k);
		}
	}
}
