// The checks the closed-form queries' tests (test_round_triangle.c, test_round_pair.c) share: a
// closed-form answer against GJK on the same pair, the independent answer.
#pragma once

#include <math.h>

#include "check.h"
#include "tumble/query.h"

/// GJK's answer for the pair (tbQueryShapesLocal); asserts that the closed form's distance `r`
/// agrees with it within 1e-5 of the pair's size L (returned in *size) and that r's witnesses lie
/// `distance` apart along its normal. Returns GJK's answer; *error gets the distances' difference.
static inline tbQueryResult checkAgainstGjk(const tbGeometry* a, const tbGeometry* b,
                                            tbTransform bInA, const tbQueryResult* r,
                                            const char* label, int pose, float* size, float* error)
{
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult g = tbQueryShapesLocal(a, b, bInA, &def);
	float L = tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + glms_vec3_norm(bInA.p);
	float err = fabsf(r->distance - g.distance);
	CHECK(err <= 1e-5f * L, "%s %d: closed form %.7f, GJK %.7f", label, pose, (double)r->distance,
	      (double)g.distance);
	vec3s gap = glms_vec3_sub(r->pointB, r->pointA);
	CHECK(glms_vec3_norm(glms_vec3_sub(gap, glms_vec3_scale(r->normal, r->distance))) <= 1e-5f * L,
	      "%s %d: witnesses off the normal", label, pose);
	*size = L;
	*error = err;
	return g;
}
