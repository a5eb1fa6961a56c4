// Linear-time checks by hand: destroying N bodies, and parsing a rain generator of N cubes (random
// sequential placement on a uniform grid hash) for N = 10,000 and 100,000, side by side. Linear
// time shows as a per-body time that stays flat when N grows tenfold (the all-pairs placement grew
// it tenfold: 80,000 cubes took 5.4 s). Run: build/bench/scale_bench
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tumble/tumble.h>

static double nowSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Seconds to parse a rain of `count` unit cubes, one per 20 m^3 (their bounding spheres fill 14 %
// of the region, so many tries are refused), best of `repeats`.
static double rainSeconds(int count, int repeats)
{
	// The region [-s, s] x [2, 2 + s / 2] x [-s, s] (volume 2 s^3) grows with the count so that
	// the density, hence the tries per body, is fixed.
	double side = cbrt(10.0 * (double)count);
	char text[512];
	snprintf(text, sizeof text,
	         "{\"generators\": [{\"type\": \"rain\", \"count\": %d, \"seed\": 1,"
	         " \"shape\": {\"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5]},"
	         " \"region_min\": [%.1f, 2, %.1f], \"region_max\": [%.1f, %.1f, %.1f]}]}",
	         count, -side, -side, side, 2.0 + side / 2.0, side);
	double best = 1e30;
	for (int r = 0; r < repeats; ++r) {
		tbSceneDef def;
		tbSceneError error;
		double t0 = nowSeconds();
		bool ok = tbParseScene(text, strlen(text), "rain.json", &def, &error);
		double t = nowSeconds() - t0;
		if (!ok) {
			fprintf(stderr, "scale_bench: %s\n", error.message);
			return -1.0;
		}
		tbFreeSceneDef(&def);
		best = t < best ? t : best;
	}
	return best;
}

// Seconds to destroy `count` cubes resting side by side on a ground in a grid (each touching the
// ground and its neighbours: about 5 contacts per body), after one step made their contacts.
// Each body's own contact list makes this linear (the scan of the whole contact table made
// 20,000 bodies take 7.5 s).
static double destroySeconds(int count)
{
	tbWorldDef wd = tbDefaultWorldDef();
	wd.enableSleep = false;
	wd.initialBodyCapacity = count + 1;
	wd.initialShapeCapacity = count + 1;
	tbWorldId world = tbCreateWorld(&wd);
	int side = (int)ceil(sqrt((double)count));
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry slab = tbMakeBox(0.6f * (float)side + 1.0f, 0.5f, 0.6f * (float)side + 1.0f);
	tbCreateShape(ground, &sd, &slab);
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbBodyId* bodies = malloc(sizeof *bodies * (size_t)count);
	for (int i = 0; i < count; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = (vec3s){{-0.6f * (float)side + 1.01f * (float)(i % side), 0.5f,
		                       -0.6f * (float)side + 1.01f * (float)(i / side)}};
		bodies[i] = tbCreateBody(world, &bd);
		tbCreateShape(bodies[i], &sd, &cube);
	}
	tbWorld_Step(world, 1.0f / 60.0f, 4);
	int pairs = tbWorld_GetCounters(world).contactCount;
	double t0 = nowSeconds();
	for (int i = 0; i < count; ++i) {
		tbDestroyBody(bodies[i]);
	}
	double t = nowSeconds() - t0;
	printf("  %d bodies, %d contact pairs: destroyed in %.3f s\n", count, pairs, t);
	free(bodies);
	tbDestroyWorld(world);
	return t;
}

int main(void)
{
	int counts[2] = {10000, 100000};
	double seconds[2];
	for (int i = 0; i < 2; ++i) {
		seconds[i] = rainSeconds(counts[i], 3);
		if (seconds[i] < 0.0) {
			return 1;
		}
	}
	printf("rain placement      N = %d: %.3f s (%.2f us/body)   N = %d: %.3f s (%.2f us/body)   "
	       "ratio %.1f for 10x the bodies\n",
	       counts[0], seconds[0], 1e6 * seconds[0] / counts[0], counts[1], seconds[1],
	       1e6 * seconds[1] / counts[1], seconds[1] / seconds[0]);
	double destroy[2];
	for (int i = 0; i < 2; ++i) {
		destroy[i] = destroySeconds(counts[i]);
	}
	printf("destroying bodies   N = %d: %.3f s (%.2f us/body)   N = %d: %.3f s (%.2f us/body)   "
	       "ratio %.1f for 10x the bodies\n",
	       counts[0], destroy[0], 1e6 * destroy[0] / counts[0], counts[1], destroy[1],
	       1e6 * destroy[1] / counts[1], destroy[1] / destroy[0]);
	return 0;
}
