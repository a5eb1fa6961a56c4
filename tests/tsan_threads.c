// The threaded step without Criterion, for ThreadSanitizer (Criterion's process arena does not
// start under it, Snaipe/Criterion issue 274): a cube rain with sleeping, a pyramid and joint
// chains and a net (world_scenes.h) at 1, 2, 4 and 8 workers; exits non-zero when a hash differs
// from one worker's.
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
	return failed == 0 ? 0 : 1;
}
