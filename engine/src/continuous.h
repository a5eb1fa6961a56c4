// The per-body test of the continuous stage, inlined into the step's integration loop: it runs
// for every solved body, so it costs a few flops and no call (docs/continuous.md).
#pragma once

#include <math.h>

#include "world_internal.h"

// A body is fast when its farthest point moved more than this fraction of its thinnest shape's half
// thickness in the step: slower, the speculative contact made at the step's start (margin from the
// speed) already holds it, and no shape can pass more than half way into another.
#define TB_FAST_FRACTION 0.5f

// Put a fast body and its start pose on the step's list (continuous.c).
void tbPushFastBody(tbWorld* world, int bodyIndex, const tbTransform* start);

// After a solved body's pose is synced (b->xf at the step's end), with its pose at the start: keep
// it for the continuous stage when it moved far for its size. Any point of the body within r of
// its origin moved at most |p1 - p0| + theta r, with r = maxExtent + |localCenter| (maxExtent is
// measured from the centre of mass); the turn angle theta between q0 and q1 has
// cos(theta / 2) = |q0 . q1| and theta <= pi sin(theta / 2) (sin x >= 2 x / pi on [0, pi / 2]):
// a bound without a trigonometric call.
static inline void tbContinuousCheck(tbWorld* w, int bodyIndex, const tbTransform* start)
{
	const tbBodySlot* b = w->bodies + bodyIndex;
	if (b->rb.type != tb_dynamicBody) {
		return;
	}
	float dx = b->xf.p.x - start->p.x, dy = b->xf.p.y - start->p.y, dz = b->xf.p.z - start->p.z;
	float lin2 = dx * dx + dy * dy + dz * dz;
	versors q0 = start->q, q1 = b->xf.q;
	float c = fabsf(q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w);
	float sin2 = c < 1.0f ? 1.0f - c * c : 0.0f; // sin^2(theta / 2)
	const vec3s lc = b->localCenter;
	float lc2 = lc.x * lc.x + lc.y * lc.y + lc.z * lc.z;
	float limit = TB_FAST_FRACTION * b->minExtent;
	// Most bodies are slow, shown without a square root: (a + b)^2 <= 2 (a^2 + b^2) twice.
	if (2.0f * lin2 + 4.0f * GLM_PIf * GLM_PIf * sin2 * (b->maxExtent * b->maxExtent + lc2) <
	    limit * limit) {
		return;
	}
	float moved = sqrtf(lin2) + GLM_PIf * sqrtf(sin2) * (b->maxExtent + sqrtf(lc2));
	if (moved >= limit && b->firstShape >= 0) {
		tbPushFastBody(w, bodyIndex, start);
	}
}
