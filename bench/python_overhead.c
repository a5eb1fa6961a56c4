// The C side of the Python overhead benchmark (bench/python_overhead.py): 1000 boxes dropped in a
// 10 x 10 x 10 grid onto a ground box, stepped at 60 Hz with 4 substeps, every body's pose read
// with tbWorld_GetBodySnapshots after each step, as the Python loop does. Prints one JSON line:
// the loop's seconds (creation excluded) and the final state hash, which the Python run must
// reproduce (the same work, to the bit).
// usage: python_overhead_c [STEPS]
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tumble/tumble.h>

static double tbNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 300;
	if (steps < 1 || steps > 100000) {
		fprintf(stderr, "python_overhead_c: STEPS must be 1 to 100000, got %s\n", argv[1]);
		return 2;
	}
	tbWorldDef wd = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&wd);
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry floorBox = tbMakeBox(20.0f, 0.5f, 20.0f);
	tbCreateShape(ground, &sd, &floorBox);
	tbGeometry box = tbMakeBox(0.2f, 0.2f, 0.2f);
	// Positions exact in binary (halves), so that Python's doubles give the same floats.
	for (int k = 0; k < 10; ++k) {
		for (int i = 0; i < 10; ++i) {
			for (int j = 0; j < 10; ++j) {
				tbBodyDef bd = tbDefaultBodyDef();
				bd.type = tb_dynamicBody;
				bd.position =
				    (vec3s){{0.5f * (float)(i - 5), 1.0f + 0.5f * (float)k, 0.5f * (float)(j - 5)}};
				tbBodyId b = tbCreateBody(world, &bd);
				tbCreateShape(b, &sd, &box);
			}
		}
	}
	int capacity = 1001;
	tbBodySnapshot* snapshots = malloc(sizeof *snapshots * (size_t)capacity);
	if (snapshots == NULL) {
		return 1;
	}
	double sum = 0.0;
	double t0 = tbNow();
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
		int n = tbWorld_GetBodySnapshots(world, snapshots, capacity);
		sum += (double)snapshots[n - 1].position[1]; // read, as the Python loop's array is
	}
	double seconds = tbNow() - t0;
	printf("{\"seconds\": %.6f, \"steps\": %d, \"hash\": \"%016llx\", \"last_y\": %.6f}\n", seconds,
	       steps, (unsigned long long)tbWorld_GetStateHash(world), sum / (double)steps);
	free(snapshots);
	tbDestroyWorld(world);
	return 0;
}
