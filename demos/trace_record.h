// A recorded narrow-phase query: every tbTraceStep copied out of the trace callback, the query's
// answer, and the answer replayed from the last step, for the GJK/EPA debugger and its tests.
#pragma once

#include <tumble/tumble.h>

/// One iteration, owning its polytope (the callback's arrays live only during the call).
typedef struct dmTraceStep
{
	tbTraceStage stage;
	int iteration;
	/// GJK: the simplex the loop ended with, after `iteration` iterations (no support of its own).
	bool last;
	/// Which loop of the query made this step, counted from 0: a new loop starts when the stage
	/// changes or GJK starts over (GJK, then EPA; on some paths GJK again, EPA, unified EPA).
	int run;
	vec3s direction;
	vec3s support;
	int simplexCount;
	vec3s simplex[4];
	int vertexCount;
	vec3s* vertices;
	int triangleCount;
	int* triangles; ///< 3 vertex ids per triangle
	float distance;
	/// How far the difference this step worked on is inflated beyond A - B (of the cores),
	/// measured from the support: w.d - h(d) with h the support function of A - B. The query
	/// grows A - B by a small margin on some paths (touching and flat pairs); 0 otherwise.
	float inflation;
} dmTraceStep;

/// A whole query. Points are in A's local frame (the Minkowski difference A - B).
typedef struct dmTrace
{
	dmTraceStep* steps;
	int count, capacity;
	bool outOfMemory;
	tbQueryResult result; ///< the query's answer, A's local frame
	/// Sizes the query works with, from the public API: the pair scale L (docs/query-format.md) and
	/// the ball radii that spheres and capsules are reduced to cores by.
	float scale, coreRadiusA, coreRadiusB;
} dmTrace;

/// Run tbQueryShapesLocal with B in A's frame and record every iteration. `trace` is reset first
/// (its memory is reused). Returns false when memory ran out (the steps recorded so far stay).
bool dmTrace_Record(dmTrace* trace, const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                    tbQueryAlgorithm algorithm);

void dmTrace_Free(dmTrace* trace);

/// The final answer as the last recorded step implies it: signed distance and normal (A to B),
/// A's frame. False when there is no step.
bool dmTrace_Replay(const dmTrace* trace, float* distance, vec3s* normal);

/// For a polytope step: the triangle whose plane is closest to the origin along its outward
/// normal (the face EPA expands), its distance and normal. -1 for GJK steps or empty polytopes.
int dmTraceStep_ClosestFace(const dmTraceStep* step, float* distance, vec3s* normal);

/// Distance bounds of a step: GJK |v| (upper) and v.w/|v| (lower); EPA the closest face (lower)
/// and the support plane (upper) on the depth; unified EPA either, by the side of the origin.
void dmTraceStep_Bounds(const dmTraceStep* step, float* lower, float* upper);

/// Short name of a step's loop: "GJK", "GJK (inflated)", "EPA", "EPA (inflated)", "unified EPA".
const char* dmTraceStep_Phase(const dmTraceStep* step);
