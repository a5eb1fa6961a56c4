// The contact solver debugger's recording: one step of one contact from the world's solver trace
// (tbWorld_SetSolverTrace), taken between a save and a restore of the world (docs/demo.md).
#include "solver_record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool dmSamePair(const dmSolverRecord* r, const tbContactTrace* row)
{
	return (TB_ID_EQUALS(row->shapeA, r->shapeA) && TB_ID_EQUALS(row->shapeB, r->shapeB)) ||
	       (TB_ID_EQUALS(row->shapeA, r->shapeB) && TB_ID_EQUALS(row->shapeB, r->shapeA));
}

// The trace callback: keeps the chosen pair's rows, growing the array by doubling.
static void dmKeepRow(const tbContactTrace* row, void* context)
{
	dmSolverRecord* r = context;
	if (!dmSamePair(r, row) || r->outOfMemory) {
		return;
	}
	if (r->count == r->capacity) {
		int capacity = r->capacity > 0 ? 2 * r->capacity : 64;
		tbContactTrace* rows = realloc(r->rows, sizeof *rows * (size_t)capacity);
		if (rows == NULL) {
			r->outOfMemory = true;
			return;
		}
		r->rows = rows;
		r->capacity = capacity;
	}
	r->rows[r->count++] = *row;
}

bool dmSolverRecord_Capture(dmSolverRecord* r, tbWorldId worldId, tbShapeId a, tbShapeId b,
                            float timeStep, int substeps)
{
	r->count = 0;
	r->outOfMemory = false;
	r->shapeA = a;
	r->shapeB = b;
	r->timeStep = timeStep;
	r->substeps = substeps;
	r->friction = sqrtf(fmaxf(tbShape_GetFriction(a), 0.0f) * fmaxf(tbShape_GetFriction(b), 0.0f));
	tbBodyId bodies[2] = {tbShape_GetBody(a), tbShape_GetBody(b)};
	for (int i = 0; i < 2; ++i) {
		if (!TB_IS_NULL(bodies[i]) && tbBody_GetType(bodies[i]) != tb_staticBody) {
			tbBody_SetAwake(bodies[i], true);
		}
	}
	size_t size = tbWorld_Save(worldId, NULL, 0);
	if (size == 0) {
		return false;
	}
	if (size > r->saveCapacity) {
		void* save = realloc(r->save, size);
		if (save == NULL) {
			return false;
		}
		r->save = save;
		r->saveCapacity = size;
	}
	if (tbWorld_Save(worldId, r->save, r->saveCapacity) != size) {
		return false;
	}
	tbWorld_SetSolverTrace(worldId, dmKeepRow, r);
	bool stepped = tbWorld_Step(worldId, timeStep, substeps);
	tbWorld_SetSolverTrace(worldId, NULL, NULL);
	bool restored = tbWorld_Restore(worldId, r->save, size);
	return stepped && restored && !r->outOfMemory;
}

void dmSolverRecord_Free(dmSolverRecord* r)
{
	free(r->rows);
	free(r->save);
	memset(r, 0, sizeof *r);
}

float dmSolverRow_Residual(const tbContactTrace* row)
{
	float worst = 0.0f;
	for (int i = 0; i < row->pointCount && i < 4; ++i) {
		worst = fmaxf(worst, fabsf(row->speedError[i]));
	}
	return worst;
}

float dmSolverRow_TotalNormal(const tbContactTrace* row)
{
	float sum = 0.0f;
	for (int i = 0; i < row->pointCount && i < 4; ++i) {
		sum += row->normalImpulse[i];
	}
	return sum;
}

int dmSolverRecord_WarmStartOf(const dmSolverRecord* r, int k)
{
	if (k < 0 || k >= r->count) {
		return -1;
	}
	for (int i = k; i >= 0; --i) {
		if (r->rows[i].pass == tb_traceWarmStart && r->rows[i].substep == r->rows[k].substep) {
			return i;
		}
		if (r->rows[i].substep != r->rows[k].substep) {
			break;
		}
	}
	return -1;
}

int dmSolverRecord_NextSubstep(const dmSolverRecord* r, int k)
{
	if (k < 0 || k >= r->count) {
		return -1;
	}
	for (int i = k + 1; i < r->count; ++i) {
		if (r->rows[i].substep != r->rows[k].substep || r->rows[i].pass == tb_traceRestitution) {
			return i;
		}
	}
	return -1;
}

const char* dmSolverPassName(tbSolverPassKind pass)
{
	switch (pass) {
	case tb_traceWarmStart:
		return "warm start";
	case tb_tracePush:
		return "push";
	case tb_traceRelax:
		return "relax";
	case tb_traceRestitution:
		return "restitution";
	}
	return "?";
}

int dmMostLoadedContact(const tbContactData* data, int count)
{
	int best = -1;
	float most = -1.0f;
	for (int i = 0; i < count; ++i) {
		float sum = 0.0f;
		for (int p = 0; p < data[i].manifold.pointCount && p < TB_MAX_MANIFOLD_POINTS; ++p) {
			sum += data[i].normalImpulses[p];
		}
		if (sum > most) {
			most = sum;
			best = i;
		}
	}
	return best;
}
