// The closed-form query of two spheres or capsules (collision/src/round_pair.c) against an
// independent answer, GJK on the same pair (tbQueryShapesLocal): at random poses from a metre
// apart to the balls deep in each other (the cores still apart), the distance, the normal and the
// witness points agree; crossing cores, an ellipsoid, a bad pose and other shapes are refused;
// and capsules lying side by side still get the two-point manifold of their common stretch.
#include <criterion/criterion.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "closed_form_check.h"
#include "manifold_internal.h"
#include "narrowphase.h"
#include "random.h"
#include "tumble/query.h"

static void runPoses(const tbGeometry* a, const tbGeometry* b, uint32_t seed, int count,
                     const char* label)
{
	uint32_t state = seed;
	int answered = 0, checked = 0;
	float worstDistance = 0.0f, worstNormal = 0.0f, worstWitness = 0.0f;
	for (int i = 0; i < count; ++i) {
		// B somewhere within a metre of A's origin, turned at random.
		vec3s p = glms_vec3_scale(tbRandomUnit(&state), 1.0f * tbRandomUniform(&state));
		tbTransform bInA = {.p = p, .q = tbRandomQuat(&state)};
		tbQueryResult r;
		if (!tbRoundPairQuery(a, b, bInA, &r)) {
			continue; // the cores touch or cross: GJK/EPA's case
		}
		++answered;
		float L, err;
		tbQueryResult g = checkAgainstGjk(a, b, bInA, &r, label, i, &L, &err);
		worstDistance = fmaxf(worstDistance, err);
		CHECK(r.hit == g.hit, "%s %d: hit %d, GJK's %d", label, i, r.hit, g.hit);
		// The normal and the witnesses are unique where the cores are clearly apart and not
		// parallel segments (whose closest points slide along their common stretch).
		float cores = r.distance + tbGeometry_CoreRadius(a) + tbGeometry_CoreRadius(b);
		if (cores > 0.02f * L) {
			++checked;
			float angle = acosf(fminf(1.0f, glms_vec3_dot(r.normal, g.normal)));
			worstNormal = fmaxf(worstNormal, angle);
			CHECK(angle <= 2e-3f, "%s %d: normals %.2e rad apart", label, i, (double)angle);
			vec3s mid = glms_vec3_scale(glms_vec3_add(r.pointA, r.pointB), 0.5f);
			vec3s gmid = glms_vec3_scale(glms_vec3_add(g.pointA, g.pointB), 0.5f);
			// Along parallel cores any point of the common stretch is a closest one: only the
			// midpoints' offset along the normal is compared.
			worstWitness =
			    fmaxf(worstWitness, fabsf(glms_vec3_dot(glms_vec3_sub(mid, gmid), r.normal)));
		}
	}
	printf("round-pair %s: %d of %d poses answered in closed form, distance against GJK max "
	       "%.2e m, normal max %.2e rad over %d, witness midpoints along the normal max %.2e m\n",
	       label, answered, count, (double)worstDistance, (double)worstNormal, checked,
	       (double)worstWitness);
	cr_assert_gt(answered, count / 2, "%s: most poses leave the cores apart", label);
	cr_assert_gt(checked, count / 4, "%s: normals checked", label);
	cr_assert_lt(worstWitness, 1e-4f, "%s: witness points apart along the normal", label);
}

Test(round_pair, spheres_and_capsules_match_gjk)
{
	tbGeometry ball = tbMakeSphere(0.25f);
	tbGeometry small = tbMakeSphere(0.1f);
	tbGeometry capsule = tbMakeCapsule(0.15f, 0.4f);
	tbGeometry thin = tbMakeCapsule(0.05f, 0.3f);
	runPoses(&ball, &small, 3u, 2000, "sphere-sphere");
	runPoses(&ball, &capsule, 5u, 2000, "sphere-capsule");
	runPoses(&capsule, &small, 7u, 2000, "capsule-sphere");
	runPoses(&capsule, &thin, 11u, 2000, "capsule-capsule");
	capsule.scale = (vec3s){{1.5f, 1.5f, 1.5f}};
	runPoses(&capsule, &thin, 13u, 2000, "scaled capsule-capsule");
}

Test(round_pair, refuses_what_gjk_must_answer)
{
	tbGeometry capsule = tbMakeCapsule(0.1f, 0.5f);
	tbGeometry ball = tbMakeSphere(0.2f);
	tbQueryResult r;
	// Crossed at their middles: the cores meet.
	tbTransform crossed = {.p = {{0.0f, 0.0f, 0.0f}},
	                       .q = glms_quatv(1.5707963f, (vec3s){{0, 0, 1}})};
	cr_assert_not(tbRoundPairQuery(&capsule, &capsule, crossed, &r));
	// Lying side by side 0.3 m apart: cores 0.3 apart, the capsules 0.1, normal +x.
	tbTransform beside = {.p = {{0.3f, 0.1f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	cr_assert(tbRoundPairQuery(&capsule, &capsule, beside, &r));
	cr_assert_float_eq(r.distance, 0.1f, 1e-6f);
	cr_assert_float_eq(r.normal.x, 1.0f, 1e-6f);
	// A ball over a capsule's end: its centre 0.5 above the top of the core.
	tbTransform over = {.p = {{0.0f, 1.0f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	cr_assert(tbRoundPairQuery(&capsule, &ball, over, &r));
	cr_assert_float_eq(r.distance, 0.5f - 0.1f - 0.2f, 1e-6f);
	cr_assert_float_eq(r.normal.y, 1.0f, 1e-6f);
	// Concentric balls: no direction.
	tbTransform same = {.p = {{0.0f, 0.0f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	cr_assert_not(tbRoundPairQuery(&ball, &ball, same, &r));
	// An ellipsoid (a non-uniformly scaled sphere) has no ball core; a box is not round.
	tbGeometry ellipsoid = tbMakeSphere(0.2f);
	ellipsoid.scale = (vec3s){{1.0f, 2.0f, 1.0f}};
	cr_assert_not(tbRoundPairQuery(&capsule, &ellipsoid, over, &r));
	tbGeometry box = tbMakeBox(0.2f, 0.2f, 0.2f);
	cr_assert_not(tbRoundPairQuery(&capsule, &box, over, &r));
	tbTransform bad = {.p = {{NAN, 0.0f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	cr_assert_not(tbRoundPairQuery(&capsule, &ball, bad, &r));
}

// The manifold builder on two capsules side by side (the query in closed form, then the segment
// pair's common stretch, manifold.c): two points at the ends of the stretch, at the gap (within
// the 0.1 m speculative distance asked for).
Test(round_pair, capsules_side_by_side_keep_their_stretch)
{
	tbGeometry capsule = tbMakeCapsule(0.1f, 0.5f);
	// B 0.25 m along x and shifted 0.3 m along y: the stretch runs from y = -0.2 to 0.5.
	tbTransform beside = {.p = {{0.25f, 0.3f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	float distance;
	tbManifold m = tbCollideShapesLocal(&capsule, &capsule, beside, 0.1f, &distance);
	cr_assert_eq(m.pointCount, 2);
	cr_assert_float_eq(distance, 0.05f, 1e-5f);
	float lo = fminf(m.points[0].pointA.y, m.points[1].pointA.y);
	float hi = fmaxf(m.points[0].pointA.y, m.points[1].pointA.y);
	cr_assert_float_eq(lo, -0.2f, 1e-5f);
	cr_assert_float_eq(hi, 0.5f, 1e-5f);
	for (int i = 0; i < 2; ++i) {
		cr_assert_float_eq(m.points[i].separation, 0.05f, 1e-5f);
	}
}
