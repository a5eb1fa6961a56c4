// The energy ledger (docs/energy.md) and the solver trace: the ledger's terms sum to the change
// of energy measured from the bodies' states on every bundled scene; a frictionless e = 1 bounce
// keeps its energy term by term; a rain loses it through friction and the contacts; a box pushed
// out of a deep overlap is flagged as creating energy, with its contact named; the trace's
// residual falls over the iterations of a substep on a stack of boxes.
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tumble/scene.h>
#include <tumble/tumble.h>

#include "world_scenes.h"

static vec3s tbV3(float x, float y, float z)
{
	return (vec3s){{x, y, z}};
}

static double termSum(const tbEnergyLedger* e)
{
	return e->applied + e->damping + e->warmStart + e->push + e->relax + e->friction +
	       e->restitution + e->joints + e->rotation;
}

// Every bundled scene: each step's terms sum to the measured change within 1e-4 of the energy.
Test(energy, terms_sum_to_the_change_on_every_scene, .timeout = 600)
{
	const char* dirs[4];
	int dirCount = tbGetBundledSceneDirs(dirs, 4);
	cr_assert(dirCount >= 1);
	DIR* dir = opendir(dirs[0]);
	cr_assert_not_null(dir);
	int loaded = 0;
	struct dirent* entry;
	while ((entry = readdir(dir)) != NULL) {
		size_t n = strlen(entry->d_name);
		if (n <= 5 || strcmp(entry->d_name + n - 5, ".json") != 0) {
			continue;
		}
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dirs[0], entry->d_name);
		tbScene scene;
		tbSceneError e;
		cr_assert(tbLoadScene(path, &scene, &e), "%s", e.message);
		tbWorld_EnableEnergyLedger(scene.worldId, true);
		// 240 steps; 60 where sanitizers slow the build (there the test is about memory).
		int most = sceneIsLight() ? 60 : 240;
		int steps = scene.def.steps < most ? scene.def.steps : most;
		double worst = 0.0;
		int worstStep = -1;
		for (int s = 0; s < steps; ++s) {
			cr_assert(tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps));
			tbEnergyLedger l = tbWorld_GetEnergyLedger(scene.worldId);
			cr_assert(l.valid);
			double off = fabs(l.change - termSum(&l)) / (l.scale > 1e-9 ? l.scale : 1e-9);
			if (off > worst) {
				worst = off;
				worstStep = s;
			}
		}
		printf("%-24s worst |change - sum| / scale %.3g (step %d)\n", entry->d_name, worst,
		       worstStep);
		cr_expect_leq(worst, 1e-4, "%s: the terms miss the change by %g of the energy at step %d",
		              entry->d_name, worst, worstStep);
		tbDestroyScene(&scene);
		loaded += 1;
	}
	closedir(dir);
	cr_assert_geq(loaded, 10);
}

static tbBodyId makeLedgerBox(tbWorldId world, vec3s at, vec3s half, float friction,
                              float restitution, tbBodyType type)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = type;
	bd.position = at;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	sd.restitution = restitution;
	tbGeometry box = tbMakeBox(half.x, half.y, half.z);
	tbCreateShape(body, &sd, &box);
	return body;
}

// A frictionless e = 1 ball... here a cube, dropped flat from 1 m onto the ground: friction,
// damping and joints do nothing. The impact is the collision phase's (docs/solver.md, "Collisions
// before the solve"): the soft passes take nothing, and the restitution term is the one collision
// impulse's work with the potential of the shift to the moment of impact. With e = 1 the cube
// meets the ground at u = -sqrt(u0^2 - 2 a s0) (u0 = v + a h / 2 the sampled parabola's speed at
// the step's start, v the velocity before the step, s0 the gap, a = -g) and leaves at -u; the
// velocity the substeps start from goes from u0 - a h / 2 to -u0 - 2 a t - a h / 2 (t the time of
// impact) and the cube is moved back by t times that change: the term is m u a h, what the half
// substep of gravity on either side of the impact makes of the same parabola.
Test(energy, frictionless_elastic_bounce)
{
	tbWorldDef wd = tbDefaultWorldDef();
	wd.restitutionThreshold = 0.5f;
	tbWorldId world = tbCreateWorld(&wd);
	makeLedgerBox(world, tbV3(0, -0.5f, 0), tbV3(5, 0.5f, 5), 0.0f, 1.0f, tb_staticBody);
	tbBodyId cube =
	    makeLedgerBox(world, tbV3(0, 1.5f, 0), tbV3(0.5f, 0.5f, 0.5f), 0.0f, 1.0f, tb_dynamicBody);
	tbWorld_EnableEnergyLedger(world, true);
	double contacts = 0.0, friction = 0.0, restitution = 0.0, applied = 0.0, change = 0.0;
	double scale = 0.0, expected = 0.0;
	const float dt = 1.0f / 60.0f;
	const double h = (double)dt / 4.0, g = 9.81, m = (double)tbBody_GetMass(cube);
	int bounces = 0;
	for (int s = 0; s < 60; ++s) {
		double v = (double)tbBody_GetLinearVelocity(cube).y;
		double gap = (double)tbBody_GetPosition(cube).y - 0.5;
		cr_assert(tbWorld_Step(world, dt, 4));
		tbEnergyLedger l = tbWorld_GetEnergyLedger(world);
		scale = l.scale > scale ? l.scale : scale;
		contacts += l.warmStart + l.push + l.relax;
		friction += l.friction + l.damping + l.joints + l.rotation;
		restitution += l.restitution;
		applied += l.applied;
		change += l.change;
		if (l.restitution != 0.0) {
			double u0 = v - 0.5 * g * h;
			double u = -sqrt(u0 * u0 + 2.0 * g * gap);
			expected += m * u * -g * h;
			bounces += 1;
		}
	}
	printf("bounce: contacts %.4g restitution %.6g (m u a h %.6g) friction %.3g applied %.4g "
	       "change %.4g of %.4g J\n",
	       contacts, restitution, expected, friction, applied, change, scale);
	cr_expect_eq(bounces, 1, "one impact in the second");
	cr_expect(fabs(restitution / expected - 1.0) < 1e-3, "the impact's work %g, m u a h %g",
	          restitution, expected);
	cr_expect_leq(fabs(friction), 1e-6 * scale, "no friction, damping, joints or rotation");
	cr_expect_leq(fabs(contacts), 1e-4 * scale, "the soft passes take nothing: %g", contacts);
	cr_expect_leq(fabs(change - applied - contacts - restitution), 1e-4 * scale);
	tbDestroyWorld(world);
}

// A box put 0.3 m deep into the ground with a stiff contact and a large push speed at a large step:
// the push-out throws it up, the total energy rises, and the ledger names the box and the ground.
Test(energy, deep_overlap_is_flagged)
{
	tbWorldDef wd = tbDefaultWorldDef();
	wd.contactHertz = 240.0f;
	wd.contactPushMaxSpeed = 100.0f;
	tbWorldId world = tbCreateWorld(&wd);
	tbBodyId ground =
	    makeLedgerBox(world, tbV3(0, -0.5f, 0), tbV3(5, 0.5f, 5), 0.6f, 0.0f, tb_staticBody);
	tbBodyId box =
	    makeLedgerBox(world, tbV3(0, 0.2f, 0), tbV3(0.5f, 0.5f, 0.5f), 0.6f, 0.0f, tb_dynamicBody);
	tbWorld_EnableEnergyLedger(world, true);
	bool flagged = false;
	for (int s = 0; s < 5 && !flagged; ++s) {
		cr_assert(tbWorld_Step(world, 1.0f / 30.0f, 2));
		tbEnergyLedger l = tbWorld_GetEnergyLedger(world);
		if (!l.created) {
			continue;
		}
		flagged = true;
		printf("deep overlap: change %.4g J, push %.4g, relax %.4g, creators %d\n", l.change,
		       l.push, l.relax, l.creatorCount);
		cr_assert_geq(l.creatorCount, 1);
		const tbEnergyCreator* c = l.creators + 0;
		cr_expect_not(c->joint);
		bool named = (TB_ID_EQUALS(c->bodyA, box) && TB_ID_EQUALS(c->bodyB, ground)) ||
		             (TB_ID_EQUALS(c->bodyA, ground) && TB_ID_EQUALS(c->bodyB, box));
		cr_expect(named, "the box-ground contact did the work");
		cr_expect_gt(c->work, 0.5 * l.change, "its work carries the gain");
		cr_expect_gt(l.push, 0.0, "the biased pass put the energy in");
	}
	cr_expect(flagged, "a deep overlap pushed out hard creates energy");
	tbDestroyWorld(world);
}
