// The per-body test of the continuous stage, inlined into the step's integration loop: it runs
// for every solved body, so it costs a comparison and no call (docs/continuous.md).
#pragma once

#include "world_internal.h"

// A body is fast when its farthest point moves more than this fraction of its thinnest shape's half
// thickness in a step at its velocity: slower, the speculative contact made at the step's start
// (margin from the speed) already holds it, and no shape can pass more than half way into another.
#define TB_FAST_FRACTION 0.5f

// Put a fast body and its start pose on the step's list (continuous.c).
void tbPushFastBody(tbWorld* world, int bodyIndex, const tbTransform* start);

// After a solved body's pose and shapes are updated, with its pose at the step's start and `reach`,
// dt (|v| + |w| maxExtent) at its velocity (tbUpdateBodyShapes computes it): keep it for the
// continuous stage when that is far for its size. The velocity's reach rather than the distance
// moved, as Box2D v3 tests it: a body the step stopped (a speculative contact) did not pass
// anything, and the test then costs one comparison.
static inline void tbContinuousCheck(tbWorld* w, int bodyIndex, const tbTransform* start,
                                     float reach)
{
	const tbBodySlot* b = w->bodies + bodyIndex;
	// A jointed body is left to its speculative contacts: moved back alone, it would pull its
	// joints apart (a car's spinning wheel moved back from a bump leaves its hinge open).
	if (reach >= TB_FAST_FRACTION * b->minExtent && b->rb.type == tb_dynamicBody &&
	    b->firstShape >= 0 && b->jointCount == 0) {
		tbPushFastBody(w, bodyIndex, start);
	}
}
