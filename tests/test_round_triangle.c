// The closed-form query of a sphere or capsule against a triangle (collision/src/round_triangle.c)
// against an independent answer, GJK on the same pair (tbQueryShapesLocal): at random poses from
// a few centimetres apart to the ball half sunk (the cores still apart), the distance, the normal
// and the witness points agree; a segment through the triangle, a sliver and NaN are refused.
#include <criterion/criterion.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "closed_form_check.h"
#include "narrowphase.h"
#include "random.h"
#include "tumble/query.h"

static void runPoses(const tbGeometry* round, uint32_t seed, int count, const char* label)
{
	uint32_t state = seed;
	tbGeometry tri = tbMakeTriangle((vec3s){{-0.8f, 0.05f, -0.5f}}, (vec3s){{0.9f, -0.1f, -0.4f}},
	                                (vec3s){{0.1f, 0.0f, 0.9f}});
	int answered = 0, checked = 0;
	float worstDistance = 0.0f, worstNormal = 0.0f;
	for (int i = 0; i < count; ++i) {
		bool triIsA = i % 2 == 0;
		const tbGeometry* a = triIsA ? &tri : round;
		const tbGeometry* b = triIsA ? round : &tri;
		// B somewhere within a metre of A's origin, turned at random.
		vec3s p = glms_vec3_scale(tbRandomUnit(&state), 0.9f * tbRandomUniform(&state));
		tbTransform bInA = {.p = p, .q = tbRandomQuat(&state)};
		tbQueryResult r;
		if (!tbRoundTriangleQuery(a, b, bInA, &r)) {
			continue; // the core touches or crosses the triangle: GJK/EPA's case
		}
		++answered;
		float L, err;
		tbQueryResult g = checkAgainstGjk(a, b, bInA, &r, label, i, &L, &err);
		worstDistance = fmaxf(worstDistance, err);
		// The normal is unique where the cores are clearly apart.
		float radius = tbGeometry_CoreRadius(round);
		if (r.distance + radius > 0.02f * L) {
			++checked;
			float angle = acosf(fminf(1.0f, glms_vec3_dot(r.normal, g.normal)));
			worstNormal = fmaxf(worstNormal, angle);
			CHECK(angle <= 2e-3f, "%s %d: normals %.2e rad apart", label, i, (double)angle);
		}
	}
	printf("round-triangle %s: %d of %d poses answered in closed form, distance against GJK max "
	       "%.2e m, normal max %.2e rad over %d\n",
	       label, answered, count, (double)worstDistance, (double)worstNormal, checked);
	cr_assert_gt(answered, count / 2, "%s: most poses leave the core apart", label);
	cr_assert_gt(checked, count / 4, "%s: normals checked", label);
}

Test(round_triangle, sphere_and_capsule_match_gjk)
{
	tbGeometry ball = tbMakeSphere(0.25f);
	runPoses(&ball, 3u, 2000, "sphere");
	tbGeometry capsule = tbMakeCapsule(0.15f, 0.4f);
	runPoses(&capsule, 5u, 2000, "capsule");
	capsule.scale = (vec3s){{1.5f, 1.5f, 1.5f}};
	runPoses(&capsule, 7u, 2000, "scaled capsule");
}

Test(round_triangle, refuses_what_gjk_must_answer)
{
	tbGeometry tri = tbMakeTriangle((vec3s){{-1.0f, 0.0f, -1.0f}}, (vec3s){{1.0f, 0.0f, -1.0f}},
	                                (vec3s){{0.0f, 0.0f, 1.0f}});
	tbGeometry capsule = tbMakeCapsule(0.1f, 0.5f);
	tbQueryResult r;
	// Upright through the triangle's middle: the core crosses it.
	tbTransform through = {.p = {{0.0f, 0.1f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	cr_assert_not(tbRoundTriangleQuery(&tri, &capsule, through, &r));
	// Lying 0.3 m above it: the core's distance 0.3, the capsule's 0.2, normal +y.
	tbTransform above = {.p = {{0.0f, 0.3f, 0.0f}},
	                     .q = glms_quatv(1.5707963f, (vec3s){{0, 0, 1}})};
	cr_assert(tbRoundTriangleQuery(&tri, &capsule, above, &r));
	cr_assert_float_eq(r.distance, 0.2f, 1e-6f);
	cr_assert_float_eq(r.normal.y, 1.0f, 1e-6f);
	tbGeometry sliver = tbMakeTriangle((vec3s){{0.0f, 0.0f, 0.0f}}, (vec3s){{1.0f, 0.0f, 0.0f}},
	                                   (vec3s){{2.0f, 0.0f, 0.0f}});
	cr_assert_not(tbRoundTriangleQuery(&sliver, &capsule, above, &r));
	tbGeometry nan = tbMakeTriangle((vec3s){{NAN, 0.0f, 0.0f}}, (vec3s){{1.0f, 0.0f, 0.0f}},
	                                (vec3s){{0.0f, 0.0f, 1.0f}});
	cr_assert_not(tbRoundTriangleQuery(&nan, &capsule, above, &r));
	// An ellipsoid (a non-uniformly scaled sphere) has no ball core.
	tbGeometry ellipsoid = tbMakeSphere(0.2f);
	ellipsoid.scale = (vec3s){{1.0f, 2.0f, 1.0f}};
	cr_assert_not(tbRoundTriangleQuery(&tri, &ellipsoid, above, &r));
}
