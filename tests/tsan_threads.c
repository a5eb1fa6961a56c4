// The threaded step without Criterion, for ThreadSanitizer (Criterion's process arena does not
// start under it, Snaipe/Criterion issue 274): a cube rain with sleeping, a pyramid and joint
// chains and a net (world_scenes.h), a rain onto a packed pile, and boxes and hulls tumbling over a
// wavy mesh (the level pairs' narrow phases and their separating-axis caches side by side), boxes
// on a kinematic turntable, and balls with rolling resistance, at 1, 2, 4 and 8 workers; exits
// non-zero when a hash differs from one worker's.
#include <math.h>
#include <stdio.h>

#include "world_scenes.h"

// The world stepped `steps` steps of 1/60 s, its state hash, the world destroyed.
static unsigned long long stepAndHash(tbWorldId world, int steps)
{
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	unsigned long long h = tbWorld_GetStateHash(world);
	tbDestroyWorld(world);
	return h;
}

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
	return stepAndHash(world, steps);
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

// Boxes and hexagonal prisms spun onto a wavy mesh of 24 x 24 cells of 0.5 m.
static unsigned long long runMeshTumble(int workers, int steps)
{
	enum
	{
		n = 25
	};
	vec3s vertices[n * n];
	int indices[6 * (n - 1) * (n - 1)];
	for (int i = 0; i < n; ++i) {
		for (int j = 0; j < n; ++j) {
			float x = 0.5f * (float)(i - n / 2), z = 0.5f * (float)(j - n / 2);
			vertices[i * n + j] = v3(x, 0.4f * sinf(0.9f * x) * cosf(0.7f * z), z);
		}
	}
	int k = 0;
	for (int i = 0; i + 1 < n; ++i) {
		for (int j = 0; j + 1 < n; ++j) {
			int a = i * n + j, b = a + 1, c = a + n, d = c + 1;
			int quad[6] = {a, b, d, a, d, c};
			for (int q = 0; q < 6; ++q) {
				indices[k++] = quad[q];
			}
		}
	}
	tbMesh mesh;
	if (!tbBuildMesh(vertices, n * n, indices, k / 3, &mesh, NULL, 0)) {
		return 0;
	}
	vec3s points[12];
	for (int i = 0; i < 6; ++i) {
		float a = (float)i * 3.14159265f / 3.0f;
		points[i] = v3(0.3f * cosf(a), -0.4f, 0.3f * sinf(a));
		points[i + 6] = v3(0.3f * cosf(a), 0.4f, 0.3f * sinf(a));
	}
	tbHull prism;
	if (tbBuildHull(points, 12, &prism, NULL) != tb_hullOk) {
		tbDestroyMesh(&mesh);
		return 0;
	}
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = workers;
	tbWorldId world = tbCreateWorld(&def);
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId level = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry g = tbMakeMeshShape(&mesh);
	tbCreateShape(level, &sd, &g);
	for (int b = 0; b < 36; ++b) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = v3(0.9f * (float)(b % 6) - 2.25f, 1.5f + 0.3f * (float)(b / 6),
		                 0.9f * (float)((b / 6) % 6) - 2.25f);
		bd.angularVelocity = v3(3.0f - 0.2f * (float)b, 1.0f, 0.5f * (float)(b % 3));
		tbBodyId body = tbCreateBody(world, &bd);
		tbGeometry shape = b % 2 == 0 ? tbMakeBox(0.3f, 0.2f, 0.25f) : tbMakeHullShape(&prism);
		tbCreateShape(body, &sd, &shape);
	}
	unsigned long long h = stepAndHash(world, steps);
	tbDestroyHull(&prism);
	tbDestroyMesh(&mesh);
	return h;
}

// A kinematic turntable carrying 64 boxes (makeTurntable): records solved side by side that read
// the one kinematic body.
static unsigned long long runTurntable(int workers, int steps)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = workers;
	def.enableSleep = false;
	tbWorldId world = tbCreateWorld(&def);
	tbBodyId boxes[64];
	makeTurntable(world, 0.5f, boxes);
	return stepAndHash(world, steps);
}

// Balls and capsules with rolling resistance (makeRollingBalls): its rows side by side.
static unsigned long long runRolling(int workers, int steps)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = workers;
	def.enableSleep = false;
	tbWorldId world = tbCreateWorld(&def);
	makeGround(world, 40.0f, 0.6f);
	makeRollingBalls(world);
	return stepAndHash(world, steps);
}

typedef unsigned long long RunFcn(int workers, int steps);

// The scene at 2, 4 and 8 workers against one worker; returns how many hashes differ (a zero hash
// at one worker counts as one: the scene did not run).
static int checkScene(const char* name, RunFcn* run, int steps)
{
	const int workers[] = {2, 4, 8};
	unsigned long long one = run(1, steps);
	int failed = one == 0;
	for (int k = 0; k < 3; ++k) {
		unsigned long long h = run(workers[k], steps);
		printf("%s, %d workers: 0x%016llx (one worker 0x%016llx)\n", name, workers[k], h, one);
		failed += h != one;
	}
	return failed;
}

int main(void)
{
	int failed = checkScene("rain", runRain, 60);
	failed += checkScene("pile rain", runPileRain, 60);
	failed += checkScene("mesh tumble", runMeshTumble, 90);
	failed += checkScene("turntable", runTurntable, 60);
	failed += checkScene("rolling", runRolling, 40);
	return failed == 0 ? 0 : 1;
}
