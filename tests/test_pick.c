// The demo's mouse spring (demos/sim.c, GL-free): a box lifted by a corner and held still must
// settle, not swing. A body hanging from a held point is a physical pendulum of angular frequency
// w = sqrt(g d / (k^2 + d^2)) (d from the point to the centre of mass, k the radius of gyration);
// critically damped it comes to rest within a few 1/w, so 3 s after the lift its angular speed
// must be under 1 % of the largest it had while swinging, and its centre must hang below the
// held point (the pendulum's rest).
#include "../demos/sim.h"

#include <criterion/criterion.h>
#include <math.h>
#include <tumble/tumble.h>

Test(pick, held_body_settles_below_the_point)
{
	dmSceneEntry entry;
	char error[256];
	cr_assert(dmFindSceneEntry("falling_boxes", &entry, error, sizeof error), "%s", error);
	dmSim sim;
	cr_assert(dmSim_Load(&sim, &entry, error, sizeof error), "%s", error);
	// Let the boxes land, then grab the first dynamic body a ray from above hits, off its centre.
	for (int i = 0; i < 180; ++i) {
		dmSim_Step(&sim);
	}
	tbBodyId body = tb_nullBodyId;
	for (int i = 0; i < sim.bodyCount && TB_IS_NULL(body); ++i) {
		if (tbBody_GetType(sim.bodies[i]) == tb_dynamicBody) {
			body = sim.bodies[i];
		}
	}
	cr_assert(!TB_IS_NULL(body));
	vec3s c = tbBody_GetWorldCenterOfMass(body);
	vec3s origin = {{c.x + 0.3f, c.y + 10.0f, c.z + 0.2f}};
	cr_assert_gt(dmSim_Pick(&sim, origin, (vec3s){{0.0f, -1.0f, 0.0f}}, 20.0f), 0.0f);
	body = sim.picked; // the top body of a pile, whichever it is
	// Lift it 2 m above the highest body of the scene, clear of every pile (a body held beside a
	// pile leans on it and does not hang below the point), and hold the point still there.
	float top = dmSim_PickPoint(&sim).y;
	for (int i = 0; i < sim.bodyCount; ++i) {
		if (tbBody_GetType(sim.bodies[i]) == tb_dynamicBody) {
			top = fmaxf(top, tbBody_GetWorldCenterOfMass(sim.bodies[i]).y);
		}
	}
	vec3s lift = dmSim_PickPoint(&sim);
	sim.pickTarget = (vec3s){{lift.x, top + 2.0f, lift.z}};
	float peak = 0.0f, late = 0.0f;
	for (int i = 0; i < 6 * 60; ++i) {
		dmSim_Step(&sim);
		float w = glms_vec3_norm(tbBody_GetAngularVelocity(body));
		peak = fmaxf(peak, w);
		if (i >= 5 * 60) {
			late = fmaxf(late, w); // from 3 s after the lift settled in (2 s to get there)
		}
	}
	vec3s p = dmSim_PickPoint(&sim);
	c = tbBody_GetWorldCenterOfMass(body);
	float d = glms_vec3_norm(glms_vec3_sub(c, p));
	printf("pick: peak %.3f rad/s, after 5 s %.5f rad/s; centre %.3f m from the point\n",
	       (double)peak, (double)late, (double)d);
	cr_expect_gt(peak, 0.5f, "the lift should make it swing (peak %g rad/s)", (double)peak);
	cr_expect_lt(late, 0.01f * peak, "still swinging: %g rad/s of a %g peak", (double)late,
	             (double)peak);
	// At rest the centre hangs straight below the held point.
	cr_expect_lt(sqrtf((c.x - p.x) * (c.x - p.x) + (c.z - p.z) * (c.z - p.z)), 0.02f * d + 1e-3f,
	             "the centre is not below the point");
	cr_expect_float_eq(glms_vec3_norm(glms_vec3_sub(p, sim.pickTarget)), 0.0f, 0.02f,
	                   "the point is not at the target");
	// The premise of the two checks above: it hangs free.
	cr_expect_eq(tbBody_GetContactCount(body), 0, "the held body still touches something");
	dmSim_Release(&sim);
	dmSim_Destroy(&sim);
}
