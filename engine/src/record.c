// Recording and replay: a save of the world at the start and the inputs given since, applied
// again in order after restoring the save (docs/save.md).
#include <string.h>

#include "tumble/save.h"
#include "world_internal.h"

struct tbRecorder
{
	tbWorldId worldId;
	unsigned char* start; // tbWorld_Save of the world when recording began
	size_t startSize;
	tbInput* inputs;
	int inputCount, inputCapacity;
};

tbInput tbMakeInput(tbInputType type)
{
	tbInput input;
	memset(&input, 0, sizeof input);
	input.type = type;
	input.rotation = glms_quat_identity();
	input.bodyDef = tbDefaultBodyDef();
	input.shapeDef = tbDefaultShapeDef();
	return input;
}

tbRecorder* tbRecorder_Create(tbWorldId worldId)
{
	size_t size = tbWorld_Save(worldId, NULL, 0);
	if (size == 0) {
		return NULL;
	}
	tbRecorder* r = tbTryAlloc(sizeof(tbRecorder));
	unsigned char* start = tbTryAlloc(size);
	if (r == NULL || start == NULL) {
		tbFree(r, sizeof(tbRecorder));
		tbFree(start, size);
		tbSetError("tbRecorder_Create: out of memory for a save of %zu bytes", size);
		return NULL;
	}
	memset(r, 0, sizeof *r);
	r->worldId = worldId;
	r->start = start;
	r->startSize = tbWorld_Save(worldId, start, size);
	return r;
}

void tbRecorder_Destroy(tbRecorder* recorder)
{
	if (recorder == NULL) {
		return;
	}
	tbFree(recorder->start, recorder->startSize);
	tbFree(recorder->inputs, (size_t)recorder->inputCapacity * sizeof(tbInput));
	tbFree(recorder, sizeof(tbRecorder));
}

// The input's body id as it names a body of `worldId`.
static tbBodyId tbInputBody(const tbInput* input, tbWorldId worldId)
{
	tbBodyId id = input->bodyId;
	id.world0 = (uint16_t)(worldId.index1 - 1);
	id.worldGeneration = worldId.generation;
	return id;
}

// Apply one input to the world through the public API; false when it is refused.
static bool tbApplyInput(tbWorldId worldId, const tbInput* input, tbBodyId* created,
                         const char* caller)
{
	tbBodyId body = tbInputBody(input, worldId);
	bool needsBody = input->type != tb_inputStep && input->type != tb_inputCreateBody;
	if ((int)input->type < 0 || (int)input->type >= (int)tb_inputTypeCount) {
		tbSetError("%s: input type %d is not an input", caller, (int)input->type);
		return false;
	}
	if (needsBody && !tbBody_IsValid(body)) {
		tbSetError("%s: the input's body (index1 %d, generation %u) does not exist", caller,
		           body.index1, (unsigned)body.generation);
		return false;
	}
	switch (input->type) {
	case tb_inputStep:
		return tbWorld_Step(worldId, input->timeStep, input->substeps);
	case tb_inputForce:
		tbBody_ApplyForce(body, input->vector, input->point, input->wake);
		return true;
	case tb_inputForceToCenter:
		tbBody_ApplyForceToCenter(body, input->vector, input->wake);
		return true;
	case tb_inputTorque:
		tbBody_ApplyTorque(body, input->vector, input->wake);
		return true;
	case tb_inputLinearImpulse:
		tbBody_ApplyLinearImpulse(body, input->vector, input->point, input->wake);
		return true;
	case tb_inputAngularImpulse:
		tbBody_ApplyAngularImpulse(body, input->vector, input->wake);
		return true;
	case tb_inputSetLinearVelocity:
		tbBody_SetLinearVelocity(body, input->vector);
		return true;
	case tb_inputSetAngularVelocity:
		tbBody_SetAngularVelocity(body, input->vector);
		return true;
	case tb_inputSetTransform:
		tbBody_SetTransform(body, input->point, input->rotation);
		return true;
	case tb_inputCreateBody: {
		tbBodyId made = tbCreateBody(worldId, &input->bodyDef);
		if (made.index1 == 0) {
			return false;
		}
		if (input->hasShape &&
		    tbCreateShape(made, &input->shapeDef, &input->geometry).index1 == 0) {
			tbDestroyBody(made);
			return false;
		}
		if (created != NULL) {
			*created = made;
		}
		return true;
	}
	case tb_inputDestroyBody:
		tbDestroyBody(body);
		return true;
	case tb_inputTypeCount:
		break;
	}
	return false;
}

bool tbRecorder_Apply(tbRecorder* recorder, const tbInput* input, tbBodyId* createdBody)
{
	if (recorder == NULL || input == NULL) {
		tbSetError("tbRecorder_Apply: recorder and input must not be null");
		return false;
	}
	if (!tbWorld_IsValid(recorder->worldId)) {
		tbSetError("tbRecorder_Apply: the recorded world was destroyed");
		return false;
	}
	if (!tbApplyInput(recorder->worldId, input, createdBody, "tbRecorder_Apply")) {
		return false;
	}
	tbGrowArray((void**)&recorder->inputs, &recorder->inputCapacity, recorder->inputCount + 1,
	            sizeof(tbInput));
	recorder->inputs[recorder->inputCount++] = *input;
	return true;
}

bool tbRecorder_Step(tbRecorder* recorder, float timeStep, int substeps)
{
	tbInput input = tbMakeInput(tb_inputStep);
	input.timeStep = timeStep;
	input.substeps = substeps;
	return tbRecorder_Apply(recorder, &input, NULL);
}

int tbRecorder_GetInputCount(const tbRecorder* recorder)
{
	return recorder != NULL ? recorder->inputCount : 0;
}

bool tbRecorder_Replay(const tbRecorder* recorder, tbWorldId worldId)
{
	if (recorder == NULL) {
		tbSetError("tbRecorder_Replay: recorder is null");
		return false;
	}
	if (!tbWorld_Restore(worldId, recorder->start, recorder->startSize)) {
		return false;
	}
	for (int i = 0; i < recorder->inputCount; ++i) {
		if (!tbApplyInput(worldId, recorder->inputs + i, NULL, "tbRecorder_Replay")) {
			return false;
		}
	}
	return true;
}
