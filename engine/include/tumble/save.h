// Save and restore a whole world as bytes, and record a run's inputs to replay it (docs/save.md).
#pragma once

#include "tumble/types.h"

// ---------------------------------------------------------------------------------------------
// Save and restore. A save holds everything the step reads: bodies, shapes, contacts with their
// manifolds, caches and warm-start impulses, joints with their impulses, the broad phase's trees,
// pair set and move buffer, the awake and active sets, sleep timers, the last step's events and
// the pending ones, sensor overlaps, free lists and slot generations. A restored world steps on
// with the same state hash as the original, step for step (docs/save.md).
//
// Saved by reference, not by value: hull, mesh and heightfield geometry (the shapes point at the
// caller's tbHull, tbMesh and tbHeightfield, which must still live at the same address) and the
// userData pointers of the world, bodies, shapes and joints. Such a save restores only in the
// process that made it; elsewhere a save with hull, mesh or heightfield shapes is refused, and
// userData comes back null.

/// The current save format version (tbWorld_Save writes it; a restore refuses any other).
#define TB_SAVE_VERSION 4

/// Save the world into `buffer` (snprintf's pattern): returns the size of the save in bytes, and
/// writes it only when `buffer` is not null and `capacity` is at least that. Call it once with a
/// null buffer for the size, then with a buffer of that size. Returns 0 (with an error) for a
/// stale world id or a buffer that is too small. Allocates nothing.
TB_API size_t tbWorld_Save(tbWorldId worldId, void* buffer, size_t capacity);

/// Put the world back into the state of a save (of this world or another): the world's id stays
/// valid, and every body, shape and joint id that was valid when the save was made is valid again
/// (with the world's id in place of the saved world's). The world keeps its own threads, task
/// callbacks and userData (tbWorldDef.workerCount, enqueueTask, finishTask, userTaskContext,
/// userData); the save's other settings replace its own. A save that is truncated, damaged (its
/// checksum), of another version or build is refused with an error (tbGetLastError) and the world
/// is left as it was. Returns true when restored.
TB_API bool tbWorld_Restore(tbWorldId worldId, const void* data, size_t size);

/// Create a world from a save: tbCreateWorld with the save's settings, then tbWorld_Restore.
/// `runtime`, when not null, gives the new world's workerCount, enqueueTask, finishTask,
/// userTaskContext and userData (its other fields are ignored); null means one worker. Returns the
/// null id with an error for a bad save. Body, shape and joint ids of the saved world map to the
/// new one by taking the new world's index (tbWorldId.index1 - 1 as world0) and generation.
TB_API tbWorldId tbCreateWorldFromSave(const void* data, size_t size, const tbWorldDef* runtime);

// ---------------------------------------------------------------------------------------------
// Recording and replay. A recorder saves the world when it is made, then applies and keeps every
// input given through it, in order: forces, torques, impulses, velocity and transform sets, body
// creation (with one shape) and destruction, and steps. Replaying restores the start into a world
// and applies the same inputs again, which gives the same state hash as the recorded run. Changes
// made to the world without the recorder are not recorded (docs/save.md).

/// What one recorded input does.
typedef enum tbInputType
{
	tb_inputStep,               ///< tbWorld_Step(timeStep, substeps)
	tb_inputForce,              ///< tbBody_ApplyForce(vector, point, wake)
	tb_inputForceToCenter,      ///< tbBody_ApplyForceToCenter(vector, wake)
	tb_inputTorque,             ///< tbBody_ApplyTorque(vector, wake)
	tb_inputLinearImpulse,      ///< tbBody_ApplyLinearImpulse(vector, point, wake)
	tb_inputAngularImpulse,     ///< tbBody_ApplyAngularImpulse(vector, wake)
	tb_inputSetLinearVelocity,  ///< tbBody_SetLinearVelocity(vector)
	tb_inputSetAngularVelocity, ///< tbBody_SetAngularVelocity(vector)
	tb_inputSetTransform,       ///< tbBody_SetTransform(point, rotation)
	tb_inputCreateBody,         ///< tbCreateBody(bodyDef) and, with hasShape, tbCreateShape
	tb_inputDestroyBody,        ///< tbDestroyBody
	tb_inputTypeCount,
} tbInputType;

/// One input. Fields a type does not use are ignored.
typedef struct tbInput
{
	tbInputType type;
	tbBodyId bodyId;   ///< the body it acts on (not for step and create)
	vec3s vector;      ///< force N, torque N m, impulse N s or kg m^2/s, velocity m/s or rad/s
	vec3s point;       ///< world point, m (force, impulse); position (set transform)
	versors rotation;  ///< set transform
	bool wake;         ///< forces and impulses: wake the body
	float timeStep;    ///< step, s
	int substeps;      ///< step
	tbBodyDef bodyDef; ///< create: the body (its userData is kept as given)
	bool hasShape;     ///< create: also one shape
	tbShapeDef shapeDef;
	tbGeometry geometry; ///< create: hull, mesh and heightfield geometry must outlive the recorder
} tbInput;

/// An input of the given type with every other field zero (and an identity rotation).
TB_API tbInput tbMakeInput(tbInputType type);

/// A recorder (opaque): a save of the world at its start and the inputs since.
typedef struct tbRecorder tbRecorder;

/// Start recording the world: saves it now. Null (with an error) for a stale world id or when
/// memory runs out. Free it with tbRecorder_Destroy.
TB_API tbRecorder* tbRecorder_Create(tbWorldId worldId);

/// Free a recorder (the world is not touched).
TB_API void tbRecorder_Destroy(tbRecorder* recorder);

/// Apply an input to the recorded world and record it. Returns false (recording nothing) when the
/// input is refused: an unknown type, a stale body id, a failed step or body creation. For
/// tb_inputCreateBody, `createdBody` (may be null) receives the new body's id.
TB_API bool tbRecorder_Apply(tbRecorder* recorder, const tbInput* input, tbBodyId* createdBody);

/// Step the recorded world and record the step (tbRecorder_Apply with tb_inputStep).
TB_API bool tbRecorder_Step(tbRecorder* recorder, float timeStep, int substeps);

/// How many inputs were recorded (steps included).
TB_API int tbRecorder_GetInputCount(const tbRecorder* recorder);

/// Replay into `worldId` (the recorded world itself, to rewind and run again, or another world):
/// restore the start save there, then apply every recorded input in order, body ids mapped to
/// that world. Returns false with an error when the restore or an input fails.
TB_API bool tbRecorder_Replay(const tbRecorder* recorder, tbWorldId worldId);
