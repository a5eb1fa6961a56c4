// The energy ledger (docs/energy.md): the ledger's terms sum to the change of energy measured
// from the bodies' states on every bundled scene; a frictionless e = 1 ball keeps its energy term
// by term (every term but gravity's near zero); a rain of e = 0 cubes loses it through friction
// and its impacts, not through position correction; a box pushed out of a deep overlap is flagged
// as creating energy, with its contact named.
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
	return e->applied + e->damping + e->positionCorrection + e->friction + e->restitution +
	       e->joints + e->rotation;
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

// A frictionless ball of radius 0.5 m and 1000 kg/m^3 whose lowest point is 1 m above y = 0.
static tbBodyId makeLedgerBall(tbWorldId world, float restitution)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = tbV3(0, 1.5f, 0);
	tbBodyId ball = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = 1000.0f;
	sd.friction = 0.0f;
	sd.restitution = restitution;
	tbGeometry sphere = tbMakeSphere(0.5f);
	tbCreateShape(ball, &sd, &sphere);
	return ball;
}

// The terms summed over steps.
typedef struct LedgerSums
{
	double applied, damping, positionCorrection, friction, restitution, joints, rotation, residual;
	double change;
} LedgerSums;

static void addLedger(LedgerSums* s, const tbEnergyLedger* e)
{
	s->applied += e->applied;
	s->damping += e->damping;
	s->positionCorrection += e->positionCorrection;
	s->friction += e->friction;
	s->restitution += e->restitution;
	s->joints += e->joints;
	s->rotation += e->rotation;
	s->residual += e->residual;
	s->change += e->change;
}

// A frictionless e = 1 ball (radius 0.5 m, 1000 kg/m^3) dropped from 1 m onto the ground and
// bouncing for 150 steps (three impacts). No friction, damping or joints act, a sphere's inertia
// turns nothing, and an elastic impact loses nothing: what its normal rows take stopping the
// approach, restitution gives back within the same term, and no overlap is pushed out. So every
// term but gravity's is below 1 % of m g h, summed over the run and in every step; gravity's
// carries the semi-implicit Euler step's own drift (-1/2 m g^2 h^2 a substep in flight, made up
// at each bounce).
Test(energy, frictionless_elastic_ball)
{
	tbWorldDef wd = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&wd);
	makeLedgerBox(world, tbV3(0, -0.5f, 0), tbV3(5, 0.5f, 5), 0.0f, 1.0f, tb_staticBody);
	tbBodyId ball = makeLedgerBall(world, 1.0f);
	tbWorld_EnableEnergyLedger(world, true);
	double mgh = (double)tbBody_GetMass(ball) * 9.81 * 1.0;
	LedgerSums sum;
	memset(&sum, 0, sizeof sum);
	double worstStep = 0.0, top = 0.0;
	int bounces = 0;
	float vPrev = 0.0f;
	for (int s = 0; s < 150; ++s) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
		tbEnergyLedger l = tbWorld_GetEnergyLedger(world);
		addLedger(&sum, &l);
		const double terms[] = {
		    l.damping, l.positionCorrection, l.friction, l.restitution, l.joints, l.rotation};
		for (int k = 0; k < 6; ++k) {
			worstStep = fmax(worstStep, fabs(terms[k]));
		}
		float v = tbBody_GetLinearVelocity(ball).y;
		bounces += vPrev < 0.0f && v > 0.0f;
		vPrev = v;
		if (s > 60) {
			top = fmax(top, (double)tbBody_GetPosition(ball).y);
		}
	}
	printf("elastic ball (m g h %.4g J, %d bounces, top %.4f m): applied %.4g damping %.3g "
	       "position correction %.4g friction %.3g restitution %.4g joints %.3g rotation %.3g "
	       "residual %.3g change %.4g; worst step %.4g J\n",
	       mgh, bounces, top, sum.applied, sum.damping, sum.positionCorrection, sum.friction,
	       sum.restitution, sum.joints, sum.rotation, sum.residual, sum.change, worstStep);
	cr_expect_geq(bounces, 3, "the ball bounced %d times", bounces);
	const double run[] = {sum.damping,  sum.positionCorrection,
	                      sum.friction, sum.restitution,
	                      sum.joints,   sum.rotation};
	const char* names[] = {"damping", "positionCorrection", "friction", "restitution", "joints",
	                       "rotation"};
	for (int k = 0; k < 6; ++k) {
		cr_expect_leq(fabs(run[k]), 0.01 * mgh, "%s sums to %g J over the run (m g h %g J)",
		              names[k], run[k], mgh);
	}
	cr_expect_leq(worstStep, 0.01 * mgh, "a term reached %g J in one step (m g h %g J)", worstStep,
	              mgh);
	cr_expect_leq(fabs(sum.residual), 1e-4 * mgh);
	tbDestroyWorld(world);
}

// A frictionless e = 1/2 ball (radius 0.5 m) dropped from 1 m: its impact, struck by the collision
// phase, loses (1 - e^2) of the approach energy 1/2 m u^2, u = sqrt(2 g 1 m) (Newton's impact law;
// Baraff II eq. 8-5), and the ledger's restitution term reads exactly that loss at the impact.
Test(energy, half_elastic_impact_loses_one_minus_e_squared)
{
	tbWorldDef wd = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&wd);
	makeLedgerBox(world, tbV3(0, -0.5f, 0), tbV3(5, 0.5f, 5), 0.0f, 0.5f, tb_staticBody);
	tbBodyId ball = makeLedgerBall(world, 0.5f);
	tbWorld_EnableEnergyLedger(world, true);
	double m = (double)tbBody_GetMass(ball), e = 0.5;
	double expected = -(1.0 - e * e) * 0.5 * m * 2.0 * 9.81 * 1.0;
	double restitution = 0.0, positionCorrection = 0.0;
	for (int s = 0; s < 40; ++s) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
		tbEnergyLedger l = tbWorld_GetEnergyLedger(world);
		restitution += l.restitution;
		positionCorrection += l.positionCorrection;
	}
	printf("half elastic impact: restitution %.6g J, -(1 - e^2) m g h %.6g J, position correction "
	       "%.3g J\n",
	       restitution, expected, positionCorrection);
	cr_expect(fabs(restitution / expected - 1.0) < 0.01, "restitution %g J, expected %g J",
	          restitution, expected);
	cr_expect_leq(fabs(positionCorrection), 1e-3 * fabs(expected));
	tbDestroyWorld(world);
}

// A box resting on the ground: gravity pulls it down every substep and the contact's warm start
// holds it up again. The support does no work on a body that does not move, and gravity none on
// it: every term stays near zero, far below m g times the box's size (its energy scale here).
Test(energy, resting_support_does_no_work)
{
	tbWorldDef wd = tbDefaultWorldDef();
	wd.enableSleep = false;
	tbWorldId world = tbCreateWorld(&wd);
	makeLedgerBox(world, tbV3(0, -0.5f, 0), tbV3(5, 0.5f, 5), 0.6f, 0.0f, tb_staticBody);
	tbBodyId box =
	    makeLedgerBox(world, tbV3(0, 0.5f, 0), tbV3(0.5f, 0.5f, 0.5f), 0.6f, 0.0f, tb_dynamicBody);
	double mgl = (double)tbBody_GetMass(box) * 9.81 * 1.0;
	// Settle first (the first steps build up the warm-started impulses).
	for (int s = 0; s < 30; ++s) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
	}
	tbWorld_EnableEnergyLedger(world, true);
	LedgerSums sum;
	memset(&sum, 0, sizeof sum);
	double worstStep = 0.0;
	for (int s = 0; s < 120; ++s) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
		tbEnergyLedger l = tbWorld_GetEnergyLedger(world);
		addLedger(&sum, &l);
		const double terms[] = {l.applied, l.positionCorrection, l.friction, l.restitution};
		for (int k = 0; k < 4; ++k) {
			worstStep = fmax(worstStep, fabs(terms[k]));
		}
	}
	printf("resting box (m g l %.4g J): applied %.3g position correction %.3g friction %.3g "
	       "restitution %.3g change %.3g; worst step %.3g J\n",
	       mgl, sum.applied, sum.positionCorrection, sum.friction, sum.restitution, sum.change,
	       worstStep);
	// Float rounding of the rows' work is all there is.
	cr_expect_leq(worstStep, 1e-6 * mgl, "a term reached %g J in one step", worstStep);
	cr_expect_leq(fabs(sum.restitution), 1e-5 * mgl);
	cr_expect_leq(fabs(sum.positionCorrection), 1e-5 * mgl);
	cr_expect_leq(fabs(sum.applied), 1e-5 * mgl);
	tbDestroyWorld(world);
}

// A rain of e = 0 cubes: the bundled 1000-cube scene for 8 s (the sanitizer build: four layers of
// tumbling cubes for 3 s). The energy it loses is lost to friction and to its impacts (the normal
// rows' impact part, restitution's term): together at least 90 %; position correction, pushing
// out what overlaps, is a small part.
Test(energy, rain_loses_its_energy_to_friction_and_impacts, .timeout = 600)
{
	tbScene scene;
	bool bundled = !sceneIsLight();
	tbWorldId world;
	float dt = 1.0f / 60.0f;
	int substeps = 4, steps = 180;
	if (bundled) {
		const char* dirs[4];
		cr_assert(tbGetBundledSceneDirs(dirs, 4) >= 1);
		char path[4096];
		snprintf(path, sizeof path, "%s/rain.json", dirs[0]);
		tbSceneError e;
		cr_assert(tbLoadScene(path, &scene, &e), "%s", e.message);
		world = scene.worldId;
		dt = scene.def.dt;
		substeps = scene.def.substeps;
		steps = 480;
	} else {
		tbWorldDef wd = tbDefaultWorldDef();
		world = tbCreateWorld(&wd);
		makeGround(world, 20.0f, 0.6f);
		makeTumblingCubes(world, 4);
	}
	tbWorld_EnableEnergyLedger(world, true);
	LedgerSums sum;
	memset(&sum, 0, sizeof sum);
	for (int s = 0; s < steps; ++s) {
		cr_assert(tbWorld_Step(world, dt, substeps));
		tbEnergyLedger l = tbWorld_GetEnergyLedger(world);
		addLedger(&sum, &l);
	}
	double lost = -sum.change;
	printf("rain (%s, %d steps): lost %.5g J: friction %.4g restitution %.4g position correction "
	       "%.4g applied %.4g damping %.3g rotation %.3g joints %.3g residual %.3g\n",
	       bundled ? "1000 cubes" : "100 cubes", steps, lost, sum.friction, sum.restitution,
	       sum.positionCorrection, sum.applied, sum.damping, sum.rotation, sum.joints,
	       sum.residual);
	cr_assert_gt(lost, 0.0);
	cr_expect_leq(sum.friction + sum.restitution, -0.9 * lost,
	              "friction and impacts carry %g of %g J lost", -(sum.friction + sum.restitution),
	              lost);
	cr_expect_leq(fabs(sum.positionCorrection), 0.05 * lost,
	              "position correction %g J of %g J lost", sum.positionCorrection, lost);
	if (bundled) {
		tbDestroyScene(&scene);
	} else {
		tbDestroyWorld(world);
	}
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
		printf("deep overlap: change %.4g J, position correction %.4g, creators %d\n", l.change,
		       l.positionCorrection, l.creatorCount);
		cr_assert_geq(l.creatorCount, 1);
		const tbEnergyCreator* c = l.creators + 0;
		cr_expect_not(c->joint);
		bool named = (TB_ID_EQUALS(c->bodyA, box) && TB_ID_EQUALS(c->bodyB, ground)) ||
		             (TB_ID_EQUALS(c->bodyA, ground) && TB_ID_EQUALS(c->bodyB, box));
		cr_expect(named, "the box-ground contact did the work");
		cr_expect_gt(c->work, 0.5 * l.change, "its work carries the gain");
		cr_expect_gt(l.positionCorrection, 0.0, "the push-out put the energy in");
	}
	cr_expect(flagged, "a deep overlap pushed out hard creates energy");
	tbDestroyWorld(world);
}
