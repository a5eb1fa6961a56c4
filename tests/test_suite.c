// The benchmark suite's scenes (bench/suite_*.c) as built through the public API: a small
// large_pyramid has the box count of its arithmetic series and stands, a small rain of ragdolls
// keeps its joints together while falling, and every scene steps to the same state at any worker
// count.
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

// Run `steps` steps of a scene at `scale` on `workers` workers and return its checks and
// counters, and the world's state hash at the end (hash may be null).
static tbSuiteChecks runSceneOn(const char* name, float scale, int steps, int workers,
                                tbWorldCounters* counters, uint64_t* hash)
{
	const tbSuiteScene* scene = findScene(name);
	cr_assert_not_null(scene, "no scene %s", name);
	tbWorldDef def = tbDefaultWorldDef();
	if (scene->configure != NULL) {
		scene->configure(&def, scale);
	}
	def.workerCount = workers;
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
	if (hash != NULL) {
		*hash = tbWorld_GetStateHash(world);
	}
	scene->destroy(state);
	tbDestroyWorld(world);
	return checks;
}

static tbSuiteChecks runScene(const char* name, float scale, int steps, tbWorldCounters* counters)
{
	return runSceneOn(name, scale, steps, 1, counters, NULL);
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

// The same cell run until its ragdolls have landed at about 20 m/s on the mesh floor and lain
// there (a 20 m fall takes 2 s, 120 steps, and the second group lands 16 steps later): the
// ragdolls' groups solve their point rows one joint at a time, soft, and a group takes the direct
// projection only where a gap has grown (docs/joints.md), so the hard landings are where a joint
// would open. Every anchor pair is within 1 cm at the end, and within the projection's rule: no
// joint's gap more than TB_GROUP_PROJECT_GAP (5e-3) of its arms |rA| + |rB| (each anchor's
// distance from its body's centre of mass), with a tenth of it for the projection's linear step.
// No bone is under the floor.
Test(suite, landed_ragdolls_hold_together)
{
	tbWorldCounters c;
	tbSuiteChecks checks = runScene("rain", 0.1f, 200, &c);
	cr_assert_eq(figure(&checks, "nonfinite_bodies"), 0.0);
	cr_assert_eq(figure(&checks, "ragdoll_failures"), 0.0);
	cr_assert_eq(figure(&checks, "below_ground"), 0.0);
	cr_assert(c.touchingCount > 0, "the ragdolls never landed");
	double gap = figure(&checks, "max_joint_gap_m");
	cr_assert(gap < 0.01, "a joint opened %.4f m", gap);
	double perArm = figure(&checks, "max_joint_gap_per_arm");
	cr_assert(perArm < 1.1 * 5e-3, "a joint opened %.5f of its arms", perArm);
}

// Every scene of the suite, small, run long enough that its bodies touch (the pile and the yard
// have landed, the drum turns its load, the ragdolls and trees lie on their meshes, the joint grid
// swings): the state hash after the run is the same at 1, 2, 3, 4 and 8 workers, and a contact or
// a joint is at work in each (a scene where nothing touches would prove little).
Test(suite, every_scene_same_hash_at_every_worker_count, .timeout = 240)
{
	static const struct
	{
		const char* name;
		float scale;
		int steps;
	} runs[] = {
	    {"large_pyramid", 0.2f, 60}, {"many_pyramids", 0.1f, 60}, {"large_world", 0.01f, 60},
	    {"convex_pile", 0.1f, 120},  {"junkyard", 0.1f, 150},     {"washer", 0.2f, 200},
	    {"joint_grid", 0.2f, 60},    {"rain", 0.2f, 200},         {"trees25", 0.05f, 100},
	    {"trees50", 0.1f, 160},      {"trees100", 0.1f, 160},
	};
	static const int workers[] = {1, 2, 3, 4, 8};
	int count = (int)(sizeof runs / sizeof runs[0]);
	cr_assert_eq(count, tb_suiteSceneCount, "a scene of the suite is not run here");
	for (int i = 0; i < count; ++i) {
		uint64_t first = 0;
		for (int k = 0; k < 5; ++k) {
			tbWorldCounters c;
			uint64_t hash = 0;
			runSceneOn(runs[i].name, runs[i].scale, runs[i].steps, workers[k], &c, &hash);
			if (k == 0) {
				first = hash;
				cr_assert(c.touchingCount > 0 || c.jointCount > 0, "%s: nothing touches",
				          runs[i].name);
				continue;
			}
			cr_expect_eq(hash, first, "%s: %d workers 0x%016llx, one 0x%016llx", runs[i].name,
			             workers[k], (unsigned long long)hash, (unsigned long long)first);
		}
	}
}
