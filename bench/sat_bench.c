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

#include "manifold_internal.h"
#include "tumble/manifold.h"
#include "tumble/query.h"

#define TB_MAX_POSES 100000

static uint32_t nextRandom(uint32_t* state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static float uniform(uint32_t* state)
{
	return (float)(nextRandom(state) >> 8) / 16777216.0f;
}

static vec3s randomUnit(uint32_t* state)
{
	for (int i = 0; i < 100; ++i) {
		vec3s v = {{2.0f * uniform(state) - 1.0f, 2.0f * uniform(state) - 1.0f,
		            2.0f * uniform(state) - 1.0f}};
		float len = glms_vec3_norm(v);
		if (len > 0.1f && len <= 1.0f) {
			return glms_vec3_scale(v, 1.0f / len);
		}
	}
	return (vec3s){{0.0f, 1.0f, 0.0f}};
}

static versors randomQuat(uint32_t* state)
{
	float u1 = uniform(state), u2 = 6.2831853f * uniform(state), u3 = 6.2831853f * uniform(state);
	float s1 = sqrtf(1.0f - u1), s2 = sqrtf(u1);
	return glms_quat_normalize(
	    (versors){{s1 * sinf(u2), s1 * cosf(u2), s2 * sinf(u3), s2 * cosf(u3)}});
}

// B at a random orientation, moved along a random direction until GJK/EPA gives `target`.
static tbTransform placeAt(const tbShape* a, const tbShape* b, float target, uint32_t* state)
{
	tbQueryDef def = tbDefaultQueryDef();
	tbTransform xf = {.q = randomQuat(state)};
	vec3s u = randomUnit(state);
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
__attribute__((noinline)) int bench_sat(const tbShape* s, const tbTransform* poses, int count,
                                        float margin);
__attribute__((noinline)) int bench_gjk(const tbShape* s, const tbTransform* poses, int count,
                                        float margin);
__attribute__((noinline)) int bench_satCached(const tbShape* s, const tbTransform* poses, int count,
                                              float margin);

int bench_sat(const tbShape* s, const tbTransform* poses, int count, float margin)
{
	int points = 0;
	for (int i = 0; i < count; ++i) {
		points += tbCollideShapesLocal(s, s, poses[i], margin, NULL).pointCount;
	}
	return points;
}

int bench_gjk(const tbShape* s, const tbTransform* poses, int count, float margin)
{
	int points = 0;
	for (int i = 0; i < count; ++i) {
		points += tbCollideShapesByQuery(s, s, poses[i], margin, NULL).pointCount;
	}
	return points;
}

// As a contact does from step to step: the cache filled at the pose, then the pose moved by 1 mm
// and 0.1 degree (poses come in pairs: i even is the earlier step of i + 1).
int bench_satCached(const tbShape* s, const tbTransform* poses, int count, float margin)
{
	int points = 0;
	for (int i = 0; i + 1 < count; i += 2) {
		tbSatCache cache = {0};
		points += tbCollideShapesCached(s, s, poses[i], margin, NULL, &cache).pointCount;
		points += tbCollideShapesCached(s, s, poses[i + 1], margin, NULL, &cache).pointCount;
	}
	return points;
}

int main(int argc, char** argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 2000;
	// "touching", "apart" or both (no argument): callgrind counts each set alone.
	const char* only = argc > 2 ? argv[2] : NULL;
	if (count < 2 || count > TB_MAX_POSES) {
		fprintf(stderr, "sat_bench: pose count must be 2 to %d, got %s\n", TB_MAX_POSES,
		        argc > 1 ? argv[1] : "?");
		return 1;
	}
	count &= ~1;
	tbShape cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbTransform* touching = malloc(sizeof(tbTransform) * (size_t)count);
	tbTransform* apart = malloc(sizeof(tbTransform) * (size_t)count);
	if (touching == NULL || apart == NULL) {
		fprintf(stderr, "sat_bench: out of memory\n");
		return 1;
	}
	uint32_t state = 1234u;
	for (int i = 0; i < count; i += 2) {
		// Overlapping up to 2 cm or touching (rain contacts), and apart by 3-13 cm (a fat-AABB
		// pair beyond the speculative margin); each with a 1 mm / 0.1 degree later step.
		float targets[2] = {-0.02f * uniform(&state), 0.03f + 0.1f * uniform(&state)};
		tbTransform* sets[2] = {touching, apart};
		for (int k = 0; k < 2; ++k) {
			tbTransform xf = placeAt(&cube, &cube, targets[k], &state);
			sets[k][i] = xf;
			versors dq = glms_quatv(0.1f * 0.01745329f, randomUnit(&state));
			sets[k][i + 1] =
			    tbMakeTransform(glms_vec3_add(xf.p, glms_vec3_scale(randomUnit(&state), 1e-3f)),
			                    glms_quat_mul(dq, xf.q));
		}
	}
	const float margin = 0.02f;
	const char* names[2] = {"touching", "apart"};
	tbTransform* sets[2] = {touching, apart};
	for (int k = 0; k < 2; ++k) {
		if (only != NULL && strcmp(only, names[k]) != 0) {
			continue;
		}
		double t0 = nowSeconds();
		int pSat = bench_sat(&cube, sets[k], count, margin);
		double t1 = nowSeconds();
		int pGjk = bench_gjk(&cube, sets[k], count, margin);
		double t2 = nowSeconds();
		int pCached = bench_satCached(&cube, sets[k], count, margin);
		double t3 = nowSeconds();
		printf("%-8s %d poses: SAT %.0f ns (%d points), SAT cached %.0f ns (%d points), GJK/EPA "
		       "%.0f ns (%d points) per manifold\n",
		       names[k], count, 1e9 * (t1 - t0) / count, pSat, 1e9 * (t3 - t2) / count, pCached,
		       1e9 * (t2 - t1) / count, pGjk);
	}
	free(touching);
	free(apart);
	return 0;
}
