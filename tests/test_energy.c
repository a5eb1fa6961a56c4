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
		int steps = scene.def.steps < 240 ? scene.def.steps : 240;
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
