// Recording and replaying a narrow-phase trace through the public trace callback (query.h).
#include "trace_record.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void dmFreeStep(dmTraceStep* step)
{
	free(step->vertices);
	free(step->triangles);
	step->vertices = NULL;
	step->triangles = NULL;
}

static void dmRecordStep(const tbTraceStep* in, void* context)
{
	dmTrace* trace = context;
	if (trace->outOfMemory) {
		return;
	}
	if (trace->count == trace->capacity) {
		int grown = trace->capacity < 32 ? 32 : 2 * trace->capacity;
		dmTraceStep* larger = realloc(trace->steps, sizeof *larger * (size_t)grown);
		if (larger == NULL) {
			trace->outOfMemory = true;
			return;
		}
		trace->steps = larger;
		trace->capacity = grown;
	}
	dmTraceStep* step = trace->steps + trace->count;
	memset(step, 0, sizeof *step);
	step->stage = in->stage;
	step->iteration = in->iteration;
	step->last = in->last;
	// A GJK loop ends with its `last` record: what follows is a new run, as is a change of stage.
	const dmTraceStep* previous = trace->count > 0 ? step - 1 : NULL;
	step->run = previous == NULL ? 0 : previous->run;
	if (previous != NULL && (in->stage != previous->stage || previous->last)) {
		step->run += 1;
	}
	step->direction = in->direction;
	step->support = in->support;
	step->simplexCount = in->simplexCount;
	memcpy(step->simplex, in->simplex, sizeof step->simplex);
	step->distance = in->distance;
	if (in->vertexCount > 0 && in->vertices != NULL) {
		step->vertices = malloc(sizeof(vec3s) * (size_t)in->vertexCount);
		step->triangles =
		    malloc(sizeof(int) * 3 * (size_t)(in->triangleCount > 0 ? in->triangleCount : 1));
		if (step->vertices == NULL || step->triangles == NULL) {
			dmFreeStep(step);
			trace->outOfMemory = true;
			return;
		}
		memcpy(step->vertices, in->vertices, sizeof(vec3s) * (size_t)in->vertexCount);
		if (in->triangleCount > 0) {
			memcpy(step->triangles, in->triangles, sizeof(int) * 3 * (size_t)in->triangleCount);
		}
		step->vertexCount = in->vertexCount;
		step->triangleCount = in->triangleCount;
	}
	trace->count += 1;
}

bool dmTrace_Record(dmTrace* trace, const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                    tbQueryAlgorithm algorithm)
{
	for (int i = 0; i < trace->count; ++i) {
		dmFreeStep(trace->steps + i);
	}
	trace->count = 0;
	trace->outOfMemory = false;
	tbQueryDef def = tbDefaultQueryDef();
	def.algorithm = algorithm;
	def.traceFcn = dmRecordStep;
	def.traceContext = trace;
	trace->result = tbQueryShapesLocal(a, b, bInA, &def);
	// The pair scale L of the query (docs/query-format.md): every tolerance is relative to it.
	trace->scale =
	    tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + glms_vec3_norm(bInA.p);
	trace->coreRadiusA = tbGeometry_CoreRadius(a);
	trace->coreRadiusB = tbGeometry_CoreRadius(b);
	// The query works on the cores' difference as soon as one shape has a ball.
	bool cores = trace->coreRadiusA > 0.0f || trace->coreRadiusB > 0.0f;
	for (int i = 0; i < trace->count; ++i) {
		dmTraceStep* step = trace->steps + i;
		float len = glms_vec3_norm(step->direction);
		if (len <= 0.0f) {
			continue;
		}
		vec3s d = glms_vec3_scale(step->direction, 1.0f / len);
		vec3s sa = cores ? tbGeometry_CoreSupport(a, d, NULL) : tbGeometry_Support(a, d, NULL);
		vec3s nb = tbInvRotateVector(bInA.q, glms_vec3_negate(d));
		vec3s sb = tbTransformPoint(bInA, cores ? tbGeometry_CoreSupport(b, nb, NULL)
		                                        : tbGeometry_Support(b, nb, NULL));
		float h = glms_vec3_dot(glms_vec3_sub(sa, sb), d);
		float inflation = glms_vec3_dot(step->support, d) - h;
		// Below float noise (~1e-7 L per coordinate) there is no inflation to speak of.
		step->inflation = inflation > 1e-6f * trace->scale ? inflation : 0.0f;
	}
	return !trace->outOfMemory;
}

void dmTrace_Free(dmTrace* trace)
{
	for (int i = 0; i < trace->count; ++i) {
		dmFreeStep(trace->steps + i);
	}
	free(trace->steps);
	memset(trace, 0, sizeof *trace);
}

bool dmTrace_Replay(const dmTrace* trace, float* distance, vec3s* normal)
{
	if (trace->count == 0) {
		return false;
	}
	const dmTraceStep* last = trace->steps + trace->count - 1;
	float radii = trace->coreRadiusA + trace->coreRadiusB;
	float len = glms_vec3_norm(last->direction);
	*normal = len > 0.0f ? glms_vec3_scale(last->direction, 1.0f / len) : glms_vec3_zero();
	if (last->stage == tb_traceGjk) {
		// GJK's direction is -v: -v/|v| is the normal from A to B. An inflated difference is
		// nearer the origin by the inflation.
		*distance = last->distance + last->inflation - radii;
		return true;
	}
	// EPA records the closest face distance (the depth of the possibly inflated difference);
	// unified EPA the same inside and minus the distance outside, with the search direction as
	// the normal in both cases. Either way the signed distance is -recorded + inflation - radii.
	*distance = -last->distance + last->inflation - radii;
	return true;
}

int dmTraceStep_ClosestFace(const dmTraceStep* step, float* distance, vec3s* normal)
{
	if (step->stage == tb_traceGjk || step->triangleCount == 0) {
		return -1;
	}
	// The expanded face is the one whose normal is the step's direction (EPA, unified EPA inside);
	// among faces that match it, the nearest plane. Failing a match, the nearest plane.
	int best = -1, matched = -1;
	float bestDist = FLT_MAX, matchedDist = FLT_MAX;
	vec3s dir = glms_vec3_normalize(step->direction);
	for (int t = 0; t < step->triangleCount; ++t) {
		const int* v = step->triangles + 3 * t;
		vec3s a = step->vertices[v[0]], b = step->vertices[v[1]], c = step->vertices[v[2]];
		vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
		float len = glms_vec3_norm(n);
		if (len <= 0.0f) {
			continue;
		}
		n = glms_vec3_scale(n, 1.0f / len);
		float d = glms_vec3_dot(n, a);
		if (d < bestDist) {
			bestDist = d;
			best = t;
		}
		if (glms_vec3_dot(n, dir) > 1.0f - 1e-4f && d < matchedDist) {
			matchedDist = d;
			matched = t;
		}
	}
	int face = matched >= 0 ? matched : best;
	if (face >= 0) {
		const int* v = step->triangles + 3 * face;
		vec3s a = step->vertices[v[0]], b = step->vertices[v[1]], c = step->vertices[v[2]];
		*normal = glms_vec3_normalize(glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a)));
		*distance = glms_vec3_dot(*normal, a);
	}
	return face;
}

void dmTraceStep_Bounds(const dmTraceStep* step, float* lower, float* upper)
{
	float len = glms_vec3_norm(step->direction);
	vec3s dir = len > 0.0f ? glms_vec3_scale(step->direction, 1.0f / len) : glms_vec3_zero();
	float along = glms_vec3_dot(step->support, dir);
	if (step->stage == tb_traceGjk) {
		// v = -dir |v|: the support plane bounds the distance from below (van den Bergen).
		*upper = step->distance;
		*lower = -along;
	} else if (step->stage == tb_traceEpa || step->distance >= 0.0f) {
		// Depth bounds: the closest face from below, the support plane from above.
		*lower = step->distance;
		*upper = along;
	} else {
		// Unified EPA with the origin outside: distance between -w.dir and the closest point.
		*upper = -step->distance;
		*lower = -along;
	}
}

const char* dmTraceStep_Phase(const dmTraceStep* step)
{
	switch (step->stage) {
	case tb_traceGjk:
		return step->inflation > 0.0f ? "GJK (inflated)" : "GJK";
	case tb_traceEpa:
		return step->inflation > 0.0f ? "EPA (inflated)" : "EPA";
	case tb_traceUnifiedEpa:
		return "unified EPA";
	default:
		return "?";
	}
}
