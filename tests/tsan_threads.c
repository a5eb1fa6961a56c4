// The threaded step without Criterion, for ThreadSanitizer (Criterion's process arena does not
// start under it, Snaipe/Criterion issue 274): a cube rain with sleeping, a pyramid and joint
// chains and a net (world_scenes.h), and a rain onto a packed pile, at 1, 2, 4 and 8 workers; exits
// non-zero when a hash differs from one worker's.
#include <stdio.h>

#include "world_scenes.h"

static unsigned long long runRain(int workers, int steps)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = workers;
	tbWorldId world = tbCreateWorld(&def);
	makeGround(world, 40.0f, 0.6f);
	makeTumblingCubes(world, 4);
	for (int base = 8, row = 0; row < base; ++row) {
		for (int i = 0; i < base - row; ++i) {
			makeBox(world,
			        v3(12.0f + (float)i - 0.5f * (float)(base - row - 1), 0.5f + (float)row, 0.0f),
			        quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
		}
	}
	makeJointScenes(world);
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	unsigned long long h = tbWorld_GetStateHash(world);
	tbDestroyWorld(world);
	return h;
}

// The broad phase's parallel queries under many new pairs: a packed block of cubes (every
// neighbour new on the first step) with boxes added above it every other step, and a custom
// filter (called on the stepping thread only).
static bool filterSome(tbShapeId a, tbShapeId b, void* context)
{
	(void)context;
	return (a.index1 + b.index1) % 11 != 0;
}

static unsigned long long runPileRain(int workers, int steps)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = workers;
	tbWorldId world = tbCreateWorld(&def);
	makeGround(world, 40.0f, 0.6f);
	for (int n = 0; n < 64; ++n) {
		makeBox(world,
		        v3(0.81f * (float)(n % 4), 0.41f + 0.81f * (float)(n / 16),
		           0.81f * (float)((n / 4) % 4)),
		        quatIdentity(), v3(0.4f, 0.4f, 0.4f), 800.0f, 0.5f);
	}
	tbWorld_SetCustomFilterCallback(world, filterSome, NULL);
	for (int s = 0; s < steps; ++s) {
		for (int i = 0; s % 2 == 0 && i < 4; ++i) {
			makeBox(world, v3(0.6f * (float)i, 6.0f, 0.5f * (float)(s % 5)), quatIdentity(),
			        v3(0.3f, 0.2f, 0.25f), 700.0f, 0.5f);
		}
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	unsigned long long h = tbWorld_GetStateHash(world);
	tbDestroyWorld(world);
	return h;
}

int main(void)
{
	int workers[] = {1, 2, 4, 8};
	unsigned long long one = runRain(1, 60);
	int failed = 0;
	for (int k = 1; k < 4; ++k) {
		unsigned long long h = runRain(workers[k], 60);
		printf("%d workers: 0x%016llx (one worker 0x%016llx)\n", workers[k], h, one);
		failed += h != one;
	}
	unsigned long long pileOne = runPileRain(1, 60);
	for (int k = 1; k < 4; ++k) {
		unsigned long long h = runPileRain(workers[k], 60);
		printf("pile rain, %d workers: 0x%016llx (one worker 0x%016llx)\n", workers[k], h, pileOne);
		failed += h != pileOne;
	}
	return failed == 0 ? 0 : 1;
}
