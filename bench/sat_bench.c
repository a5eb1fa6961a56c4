// Box-box manifolds by the separating-axis test (sat.c) against the GJK/EPA + clipping path, on
// the same random unit-cube poses. Prints ns per manifold; for instruction counts run it under
// callgrind and read the inclusive cost of each loop:
//   valgrind --tool=callgrind --callgrind-out-file=sat.cg build/bench/sat_bench 2000 touching
//   callgrind_annotate --inclusive=yes sat.cg | grep bench_
// (second argument: "touching" or "apart" runs one pose set; without it, both).
#define _POSIX_C_SOURCE 199309L // clock_gettime
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/random.h"
#include "manifold_internal.h"
#include "tumble/hull.h"
#include "tumble/manifold.h"
#include "tumble/query.h"

#define TB_MAX_POSES 100000

// B at a random orientation, moved along a random direction until GJK/EPA gives `target`.
static tbTransform placeAt(const tbGeometry* a, const tbGeometry* b, float target, uint32_t* state)
{
	tbQueryDef def = tbDefaultQueryDef();
	tbTransform xf = {.q = tbRandomQuat(state)};
	vec3s u = tbRandomUnit(state);
	float lo = 0.0f, hi = 2.0f;
	for (int i = 0; i < 40; ++i) {
		float mid = 0.5f * (lo + hi);
		xf.p = glms_vec3_scale(u, mid);
		if (tbQueryShapesLocal(a, b, xf, &def).distance < target) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	xf.p = glms_vec3_scale(u, hi);
	return xf;
}

static double nowSeconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Non-static, not inlined: callgrind reports each loop by name.
__attribute__((noinline)) int bench_sat(const tbGeometry* a, const tbGeometry* b,
                                        const tbTransform* poses, int count, float margin);
__attribute__((noinline)) int bench_gjk(const tbGeometry* a, const tbGeometry* b,
                                        const tbTransform* poses, int count, float margin);
__attribute__((noinline)) int bench_satCached(const tbGeometry* a, const tbGeometry* b,
                                              const tbTransform* poses, int count, float margin);

int bench_sat(const tbGeometry* a, const tbGeometry* b, const tbTransform* poses, int count,
              float margin)
{
	int points = 0;
	for (int i = 0; i < count; ++i) {
		points += tbCollideShapesLocal(a, b, poses[i], margin, NULL).pointCount;
	}
	return points;
}

int bench_gjk(const tbGeometry* a, const tbGeometry* b, const tbTransform* poses, int count,
              float margin)
{
	int points = 0;
	for (int i = 0; i < count; ++i) {
		points += tbCollideShapesByQuery(a, b, poses[i], margin, NULL).pointCount;
	}
	return points;
}

// As a contact does from step to step: the cache filled at the pose, then the pose moved by 1 mm
// and 0.1 degree (poses come in pairs: i even is the earlier step of i + 1).
int bench_satCached(const tbGeometry* a, const tbGeometry* b, const tbTransform* poses, int count,
                    float margin)
{
	int points = 0;
	for (int i = 0; i + 1 < count; i += 2) {
		tbSatCache cache = {0};
		points += tbCollideShapesCached(a, b, poses[i], margin, NULL, &cache).pointCount;
		points += tbCollideShapesCached(a, b, poses[i + 1], margin, NULL, &cache).pointCount;
	}
	return points;
}

// A hull of `count` random points on an ellipsoid with semi-axes `axes`.
static bool randomHull(tbHull* hull, int count, vec3s axes, uint32_t* state)
{
	vec3s points[64];
	for (int i = 0; i < count && i < 64; ++i) {
		points[i] = glms_vec3_mul(tbRandomUnit(state), axes);
	}
	return tbBuildHull(points, count < 64 ? count : 64, hull, NULL) == tb_hullOk;
}

int main(int argc, char** argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 2000;
	// One pose set by name (callgrind counts each alone), or all without a second argument.
	const char* only = argc > 2 ? argv[2] : NULL;
	// Points of the larger hull (the smaller has 12): a hull's edge count sets the SAT's cost.
	int hullPoints = argc > 3 ? atoi(argv[3]) : 20;
	if (count < 2 || count > TB_MAX_POSES) {
		fprintf(stderr, "sat_bench: pose count must be 2 to %d, got %s\n", TB_MAX_POSES,
		        argc > 1 ? argv[1] : "?");
		return 1;
	}
	count &= ~1;
	uint32_t state = 1234u;
	tbHull big, small;
	if (!randomHull(&big, hullPoints, (vec3s){{0.5f, 0.5f, 0.5f}}, &state) ||
	    !randomHull(&small, 12, (vec3s){{0.6f, 0.3f, 0.4f}}, &state)) {
		fprintf(stderr, "sat_bench: hull build failed\n");
		return 1;
	}
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbGeometry hullA = tbMakeHullShape(&big), hullB = tbMakeHullShape(&small);
	// Unit cubes overlapping up to 2 cm or touching (rain contacts); apart by 3-13 cm (a fat-AABB
	// pair beyond the speculative margin); a box and a 20-point hull, and two hulls (20 and 12
	// points), touching. Each pose comes with a later step moved by 1 mm and 0.1 degree.
	const char* names[4] = {"touching", "apart", "box-hull", "hull-hull"};
	const tbGeometry* shapeA[4] = {&cube, &cube, &cube, &hullA};
	const tbGeometry* shapeB[4] = {&cube, &cube, &hullA, &hullB};
	float lowest[4] = {-0.02f, 0.03f, -0.02f, -0.02f}, range[4] = {0.02f, 0.1f, 0.02f, 0.02f};
	tbTransform* poses = malloc(sizeof(tbTransform) * (size_t)count);
	if (poses == NULL) {
		fprintf(stderr, "sat_bench: out of memory\n");
		return 1;
	}
	const float margin = 0.02f;
	for (int k = 0; k < 4; ++k) {
		if (only != NULL && strcmp(only, names[k]) != 0) {
			continue;
		}
		for (int i = 0; i < count; i += 2) {
			float target = lowest[k] + range[k] * tbRandomUniform(&state);
			tbTransform xf = placeAt(shapeA[k], shapeB[k], target, &state);
			poses[i] = xf;
			versors dq = glms_quatv(0.1f * 0.01745329f, tbRandomUnit(&state));
			poses[i + 1] =
			    tbMakeTransform(glms_vec3_add(xf.p, glms_vec3_scale(tbRandomUnit(&state), 1e-3f)),
			                    glms_quat_mul(dq, xf.q));
		}
		double t0 = nowSeconds();
		int pSat = bench_sat(shapeA[k], shapeB[k], poses, count, margin);
		double t1 = nowSeconds();
		int pGjk = bench_gjk(shapeA[k], shapeB[k], poses, count, margin);
		double t2 = nowSeconds();
		int pCached = bench_satCached(shapeA[k], shapeB[k], poses, count, margin);
		double t3 = nowSeconds();
		printf("%-9s %d poses: SAT %.0f ns (%d points), SAT cached %.0f ns (%d points), GJK/EPA "
		       "%.0f ns (%d points) per manifold\n",
		       names[k], count, 1e9 * (t1 - t0) / count, pSat, 1e9 * (t3 - t2) / count, pCached,
		       1e9 * (t2 - t1) / count, pGjk);
	}
	free(poses);
	tbDestroyHull(&big);
	tbDestroyHull(&small);
	return 0;
}
