// The benchmark suite's scenes (bench/suite_*.c) as built through the public API: a small
// large_pyramid has the box count of its arithmetic series and stands, and a small rain of
// ragdolls keeps its joints together while falling.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../bench/suite.h"

static const tbSuiteScene* findScene(const char* name)
{
	for (int i = 0; i < tb_suiteSceneCount; ++i) {
		if (strcmp(tb_suiteScenes[i]->name, name) == 0) {
			return tb_suiteScenes[i];
		}
	}
	return NULL;
}

// Run `steps` steps of a scene at `scale` and return its checks and counters.
static tbSuiteChecks runScene(const char* name, float scale, int steps, tbWorldCounters* counters)
{
	const tbSuiteScene* scene = findScene(name);
	cr_assert_not_null(scene, "no scene %s", name);
	tbWorldDef def = tbDefaultWorldDef();
	if (scene->configure != NULL) {
		scene->configure(&def, scale);
	}
	tbWorldId world = tbCreateWorld(&def);
	void* state = scene->create(world, scale);
	cr_assert_not_null(state, "%s: %s", name, tbGetLastError());
	for (int s = 0; s < steps; ++s) {
		if (scene->step != NULL) {
			scene->step(state, world, s);
		}
		tbWorld_Step(world, TB_SUITE_DT, TB_SUITE_SUBSTEPS);
	}
	tbSuiteChecks checks;
	memset(&checks, 0, sizeof checks);
	scene->check(state, world, &checks);
	*counters = tbWorld_GetCounters(world);
	scene->destroy(state);
	tbDestroyWorld(world);
	return checks;
}

static double figure(const tbSuiteChecks* checks, const char* name)
{
	for (int i = 0; i < checks->figureCount; ++i) {
		if (strcmp(checks->figures[i].name, name) == 0) {
			return checks->figures[i].value;
		}
	}
	cr_assert_fail("no figure %s", name);
	return NAN;
}

// Base 10 (scale 0.1): 10 + 9 + ... + 1 = 55 boxes and the ground. A pyramid resting on flat
// ground has nowhere to go: after a second every box is within 5 cm of where it started.
Test(suite, small_pyramid_stands)
{
	tbWorldCounters c;
	tbSuiteChecks checks = runScene("large_pyramid", 0.1f, 60, &c);
	cr_assert_eq(c.bodyCount, 55 + 1);
	cr_assert_eq(figure(&checks, "nonfinite_bodies"), 0.0);
	double drift = figure(&checks, "max_box_drift_m");
	cr_assert(drift < 0.05, "a box moved %.4f m", drift);
}

// One cell (scale 0.1): three ragdolls of 14 bones and 13 joints each, dropped from 20 m at step 0
// and made again at step 16 (the one column is replaced); after 40 steps they have fallen for
// 0.4 s, about 0.8 m, touching nothing: every joint's anchors are within 1 cm.
Test(suite, falling_ragdolls_hold_together)
{
	tbWorldCounters c;
	tbSuiteChecks checks = runScene("rain", 0.1f, 40, &c);
	cr_assert_eq(c.bodyCount, 1 + 3 * 14);
	cr_assert_eq(c.jointCount, 3 * 13);
	double gap = figure(&checks, "max_joint_gap_m");
	cr_assert(gap < 0.01, "a joint opened %.4f m", gap);
}
