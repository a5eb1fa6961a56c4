// The step at its limits: huge finite spins stay rotations (the documented largest rotation per
// substep, as Box2D's), a body never collapses to an unrotated one, and a NaN never leaves the
// step.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;

// A free cube spun at `spin` rad/s: the spin is capped at a quarter turn per substep, the pose
// stays a rotation that keeps turning, and the energy never grows.
static void spinningCube(vec3s omega)
{
	tbWorldDef wd = tbDefaultWorldDef();
	wd.gravity = v3(0.0f, 0.0f, 0.0f);
	wd.enableSleep = false;
	tbWorldId world = tbCreateWorld(&wd);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.angularVelocity = omega;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbCreateShape(body, &sd, &cube);
	float e0 = tbBody_GetKineticEnergy(body);
	float cap = 0.25f * 3.14159265f * (float)kSubsteps / kDt; // rad/s
	float worstSpin = 0.0f, worstNorm = 0.0f, maxEnergy = 0.0f;
	int turned = 0;
	versors prev = tbBody_GetRotation(body);
	for (int s = 0; s < 120; ++s) {
		cr_assert(tbWorld_Step(world, kDt, kSubsteps));
		versors q = tbBody_GetRotation(body);
		vec3s w = tbBody_GetAngularVelocity(body);
		cr_assert(isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w));
		cr_assert(isfinite(w.x) && isfinite(w.y) && isfinite(w.z));
		worstSpin = fmaxf(worstSpin, glms_vec3_norm(w));
		worstNorm = fmaxf(worstNorm, fabsf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0f));
		maxEnergy = fmaxf(maxEnergy, tbBody_GetKineticEnergy(body));
		float dot = fabsf(q.x * prev.x + q.y * prev.y + q.z * prev.z + q.w * prev.w);
		turned += dot < 0.9999f ? 1 : 0;
		prev = q;
	}
	printf(
	    "SCENE spin %.0f rad/s: largest spin after a step %.1f rad/s (cap %.1f), |q| - 1 at most "
	    "%.1e, energy %.3e J -> at most %.3e J, turned in %d of 120 steps, stopped bodies %d\n",
	    (double)glms_vec3_norm(omega), (double)worstSpin, (double)cap, (double)worstNorm,
	    (double)e0, (double)maxEnergy, turned, tbWorld_GetCounters(world).stoppedBodyCount);
	cr_expect_leq(worstSpin, cap * 1.001f);
	cr_expect_lt(worstNorm, 1e-5f);
	cr_expect_leq(maxEnergy, e0 * 1.0001f);
	cr_expect_eq(turned, 120, "the cube stopped turning in %d steps", 120 - turned);
	cr_expect_eq(tbWorld_GetCounters(world).stoppedBodyCount, 0);
	tbDestroyWorld(world);
}

Test(step_limits, huge_spins_stay_rotations)
{
	spinningCube(v3(6000.0f, 8000.0f, 0.0f)); // spin_nan.json
	spinningCube(v3(3000.0f, 4000.0f, 0.0f)); // spin_zero.json
	spinningCube(v3(0.0f, 150.0f, 40.0f));    // under the cap: untouched
	spinningCube(v3(1e7f, -3e6f, 2e5f));
}

// A torque far beyond anything physical for a few steps: still a rotation, never a NaN.
Test(step_limits, huge_torque)
{
	tbWorldId world = makeWorld(false);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry box = tbMakeBox(0.5f, 0.1f, 0.3f);
	tbCreateShape(body, &sd, &box);
	for (int s = 0; s < 30; ++s) {
		tbBody_ApplyTorque(body, v3(1e20f, -3e19f, 5e18f), true);
		tbWorld_Step(world, kDt, kSubsteps);
		versors q = tbBody_GetRotation(body);
		cr_assert(isfinite(q.x) && isfinite(q.w), "step %d: NaN rotation", s);
		cr_expect_lt(fabsf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0f), 1e-5f);
	}
	tbDestroyWorld(world);
}
