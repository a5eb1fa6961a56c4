// Soak: 10^5 steps of a rain of 1000 cubes with sleeping off (on a ground wide enough that none
// slides off its edge to fall for ever), reporting any NaN (the NaN guard's
// count and a scan of every body), the largest kinetic energy after the first settling (bounded:
// nothing should gain energy at rest), and the resident memory at step 1,000 and at the end (flat:
// no allocation after warm-up). Run by hand: build/bench/soak_bench [steps] (about 4 minutes).
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tumble/tumble.h>

// Resident set size from /proc/self/statm, kB (0 where there is no /proc).
static long residentKb(void)
{
	FILE* f = fopen("/proc/self/statm", "r");
	long pages = 0, resident = 0;
	if (f == NULL) {
		return 0;
	}
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2) {
		resident = 0;
	}
	fclose(f);
	return resident * 4;
}

int main(int argc, char** argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 100000;
	const char* text =
	    "{\"sleep\": false, \"defaults\": {\"friction\": 0.5},\n"
	    " \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0],\n"
	    "   \"shape\": {\"type\": \"box\", \"half_extents\": [200, 0.5, 200]}}],\n"
	    " \"generators\": [{\"type\": \"rain\", \"count\": 1000, \"seed\": 1,\n"
	    "   \"shape\": {\"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5]},\n"
	    "   \"region_min\": [-10, 2, -10], \"region_max\": [10, 60, 10]}]}";
	tbSceneDef def;
	tbSceneError error;
	tbScene scene;
	if (!tbParseScene(text, strlen(text), "soak.json", &def, &error) ||
	    !tbBuildScene(&def, &scene, &error)) {
		fprintf(stderr, "soak_bench: %s\n", error.message);
		return 1;
	}
	long kbAt1000 = 0;
	double maxEnergyLate = 0.0;
	long nanSteps = 0;
	for (long s = 0; s < steps; ++s) {
		tbWorld_Step(scene.worldId, 1.0f / 60.0f, 4);
		if (s + 1 == 1000) {
			kbAt1000 = residentKb();
		}
		if (s % 1000 == 999) {
			double energy = 0.0;
			bool nan = false;
			for (int i = 0; i < scene.def.bodyCount; ++i) {
				vec3s p = tbBody_GetPosition(scene.bodyIds[i]);
				nan = nan || !isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z);
				energy += (double)tbBody_GetKineticEnergy(scene.bodyIds[i]);
			}
			nanSteps += nan ? 1 : 0;
			if (s >= 1999) {
				maxEnergyLate = energy > maxEnergyLate ? energy : maxEnergyLate;
			}
			if (s % 10000 == 9999) {
				printf("  step %6ld: kinetic energy %.4g J, resident %ld kB\n", s + 1, energy,
				       residentKb());
				fflush(stdout);
			}
		}
	}
	long kbEnd = residentKb();
	tbWorldCounters c = tbWorld_GetCounters(scene.worldId);
	printf("soak: %ld steps of 1000 cubes, sleeping off: NaN in %ld checks, bodies stopped by the "
	       "NaN guard %d, largest kinetic energy after step 2000 %.4g J, resident %ld kB at step "
	       "1000 and %ld kB at the end (%+.2f %%)\n",
	       steps, nanSteps, c.stoppedBodyCount, maxEnergyLate, kbAt1000, kbEnd,
	       kbAt1000 > 0 ? 100.0 * (double)(kbEnd - kbAt1000) / (double)kbAt1000 : 0.0);
	tbDestroyScene(&scene);
	return nanSteps == 0 && c.stoppedBodyCount == 0 ? 0 : 1;
}
