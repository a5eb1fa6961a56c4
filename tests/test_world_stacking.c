// Whole-world stacking scenes (sleeping off): pyramid of base 20, stack of 20, a 1:100
// mass-ratio stack, the determinism hash of a 300-step pyramid, and reused manifolds against a
// fresh narrow phase.
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <string.h>
#include <time.h>

#include "world_scenes.h"

#define MAX_BOXES 256

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;

static double nowSeconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// A 2D pyramid of unit cubes in the x-y plane: row r has base - r boxes, a small gap between
// neighbours so that they start apart (Box2D's pyramid sample).
static int buildPyramid(tbWorldId world, int base, tbBodyId* bodies, vec3s* starts)
{
	int n = 0;
	float gap = 0.0f;
	for (int row = 0; row < base; ++row) {
		int count = base - row;
		for (int i = 0; i < count; ++i) {
			float x = ((float)i - 0.5f * (float)(count - 1)) * (1.0f + gap);
			float y = 0.5f + (float)row * 1.0f;
			starts[n] = v3(x, y, 0.0f);
			bodies[n] =
			    makeBox(world, starts[n], quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
			++n;
		}
	}
	return n;
}

Test(world_stacking, pyramid_base_20_stands_10s, .timeout = 600)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 40.0f, 0.6f);
	static tbBodyId bodies[MAX_BOXES];
	static vec3s starts[MAX_BOXES];
	static tbContactData contacts[4096];
	int base = sceneIsLight() ? 10 : 20; // the sanitizer build runs the smaller pyramid
	int n = buildPyramid(world, base, bodies, starts);
	int steps = 600;
	float worstPen = 0.0f;
	double t0 = nowSeconds();
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		if (s > 30) {
			float pen = worldMaxPenetration(world, contacts, 4096);
			worstPen = pen > worstPen ? pen : worstPen;
		}
	}
	double ms = 1e3 * (nowSeconds() - t0) / steps;
	float worstMove = 0.0f;
	for (int i = 0; i < n; ++i) {
		vec3s p = tbBody_GetPosition(bodies[i]);
		cr_assert(finite3(p));
		float d = dist3(p, starts[i]);
		worstMove = d > worstMove ? d : worstMove;
	}
	cr_log_info("pyramid base %d (%d boxes), 10 s: worst box displacement %.4f m, max penetration "
	            "%.4f m, %.3f ms/step",
	            base, n, (double)worstMove, (double)worstPen, ms);
	printf("SCENE pyramid20: boxes %d, worst displacement %.4f m, max penetration %.4f m, %.3f "
	       "ms/step\n",
	       n, (double)worstMove, (double)worstPen, ms);
	cr_expect_lt(worstMove, 0.05f);
	cr_expect_lt(worstPen, 0.01f);
	tbDestroyWorld(world);
}

Test(world_stacking, stack_of_20_stands_10s, .timeout = 600)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 20.0f, 0.6f);
	int count = 20;
	tbBodyId bodies[20];
	vec3s starts[20];
	for (int i = 0; i < count; ++i) {
		starts[i] = v3(0.0f, 0.5f + (float)i, 0.0f);
		bodies[i] = makeBox(world, starts[i], quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	}
	float worstMove = 0.0f;
	for (int s = 0; s < 600; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	for (int i = 0; i < count; ++i) {
		float d = dist3(tbBody_GetPosition(bodies[i]), starts[i]);
		worstMove = d > worstMove ? d : worstMove;
	}
	float top = dist3(tbBody_GetPosition(bodies[count - 1]), starts[count - 1]);
	cr_log_info("stack of 20, 10 s: top box displacement %.4f m (worst %.4f m)", (double)top,
	            (double)worstMove);
	printf("SCENE stack20: top displacement %.4f m, worst %.4f m\n", (double)top,
	       (double)worstMove);
	cr_expect_lt(top, 0.05f);
	tbDestroyWorld(world);
}

Test(world_stacking, mass_ratio_1_to_100_stands)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 20.0f, 0.6f);
	// 1 kg below, 100 kg above: unit cubes of density 1 and 100.
	tbBodyId light =
	    makeBox(world, v3(0.0f, 0.5f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f);
	tbBodyId heavy =
	    makeBox(world, v3(0.0f, 1.5f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 100.0f, 0.6f);
	cr_assert_float_eq(tbBody_GetMass(light), 1.0f, 1e-4f);
	cr_assert_float_eq(tbBody_GetMass(heavy), 100.0f, 1e-2f);
	for (int s = 0; s < 600; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	vec3s pl = tbBody_GetPosition(light), ph = tbBody_GetPosition(heavy);
	float dl = dist3(pl, v3(0.0f, 0.5f, 0.0f)), dh = dist3(ph, v3(0.0f, 1.5f, 0.0f));
	cr_log_info("mass ratio 1:100, 10 s: light box moved %.4f m, heavy box %.4f m", (double)dl,
	            (double)dh);
	printf("SCENE massratio: light moved %.4f m, heavy moved %.4f m\n", (double)dl, (double)dh);
	cr_expect_lt(dl, 0.05f);
	cr_expect_lt(dh, 0.05f);
	tbDestroyWorld(world);
}

// The hash of a base-10 pyramid after 300 steps at 60 Hz, 4 substeps, sleeping off. It changes
// only when the simulation does: update it deliberately with the printed value.
#define TB_PYRAMID_HASH 0x6066e81969348adbull

static uint64_t runPyramidHash(void)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 40.0f, 0.6f);
	static tbBodyId bodies[MAX_BOXES];
	static vec3s starts[MAX_BOXES];
	buildPyramid(world, 10, bodies, starts);
	for (int s = 0; s < 300; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	uint64_t h = tbWorld_GetStateHash(world);
	tbDestroyWorld(world);
	return h;
}

Test(world_stacking, determinism_hash_300_steps)
{
	uint64_t h1 = runPyramidHash();
	uint64_t h2 = runPyramidHash();
	cr_log_info("determinism: pyramid base 10, 300 steps: hash 0x%016llx (second run 0x%016llx)",
	            (unsigned long long)h1, (unsigned long long)h2);
	printf("SCENE determinism: hash 0x%016llx, rerun 0x%016llx\n", (unsigned long long)h1,
	       (unsigned long long)h2);
	cr_assert_eq(h1, h2);
	if (TB_PYRAMID_HASH != 0x0ull) {
		cr_expect_eq(h1, TB_PYRAMID_HASH, "hash 0x%016llx differs from the stored one",
		             (unsigned long long)h1);
	}
}

// The step reuses a pair's last manifold while the pair has barely moved, and a face contact's
// a little further when the placed points pass the look's check (engine/src/contact.c,
// docs/solver.md, "Manifolds reused"). Against a second method, the narrow phase run afresh at the
// same poses: 48 boxes of random sizes and turns dropped from 0.6-7.7 m into a heap, where they
// tumble, slide and settle on each other. Every touching pair at every step: the deepest point of
// the world's manifold against the fresh manifold's, within 2 % of the smaller box's radius (the
// check's tolerance). Measured: 0.6 % at worst over about 9,600 pairs.
Test(world_stacking, reused_manifolds_match_a_fresh_narrow_phase)
{
	enum
	{
		count = 48
	};
	tbWorldId world = makeWorld(false);
	tbBodyId ground = makeGround(world, 20.0f, 0.6f);
	tbShapeId shapes[count + 1];
	tbBody_GetShapes(ground, shapes + count, 1);
	unsigned seed = 11;
	for (int i = 0; i < count; ++i) {
		seed = seed * 1664525u + 1013904223u;
		float u[7];
		for (int k = 0; k < 7; ++k) {
			seed = seed * 1664525u + 1013904223u;
			u[k] = (float)(seed >> 8) / 16777216.0f;
		}
		vec3s half = v3(0.2f + 0.3f * u[0], 0.2f + 0.3f * u[1], 0.2f + 0.3f * u[2]);
		vec3s at = v3(-1.5f + 3.0f * u[3], 0.6f + 0.15f * (float)i, -1.5f + 3.0f * u[4]);
		versors q = glms_quatv(6.28f * u[5], glms_vec3_normalize(v3(u[6], 1.0f - u[6], 0.5f)));
		tbBodyId b = makeBox(world, at, q, half, 1000.0f, 0.6f);
		tbBody_GetShapes(b, shapes + i, 1);
	}
	tbTransform poses[count + 1];
	tbContactData data[8 * count];
	double worst = 0.0;
	long compared = 0;
	for (int step = 0; step < 240; ++step) {
		for (int i = 0; i <= count; ++i) {
			poses[i] = tbShape_GetWorldTransform(shapes[i]);
		}
		tbWorld_Step(world, kDt, kSubsteps);
		int n = tbWorld_GetContactData(world, data, 8 * count);
		for (int c = 0; c < n; ++c) {
			if (data[c].manifold.pointCount == 0) {
				continue;
			}
			int ia = -1, ib = -1;
			for (int i = 0; i <= count; ++i) {
				ia = TB_ID_EQUALS(shapes[i], data[c].shapeIdA) ? i : ia;
				ib = TB_ID_EQUALS(shapes[i], data[c].shapeIdB) ? i : ib;
			}
			cr_assert(ia >= 0 && ib >= 0);
			tbGeometry ga = tbShape_GetGeometry(shapes[ia]), gb = tbShape_GetGeometry(shapes[ib]);
			// The world's manifold was made at the poses the step began with.
			tbManifold fresh = tbCollideShapes(&ga, poses[ia], &gb, poses[ib], 1.0f);
			if (fresh.pointCount == 0) {
				continue;
			}
			double held = INFINITY, made = INFINITY;
			for (int k = 0; k < data[c].manifold.pointCount; ++k) {
				held = fmin(held, (double)data[c].manifold.points[k].separation);
			}
			for (int k = 0; k < fresh.pointCount; ++k) {
				made = fmin(made, (double)fresh.points[k].separation);
			}
			double size = fmin((double)tbGeometry_BoundingRadius(&ga),
			                   (double)tbGeometry_BoundingRadius(&gb));
			// Pairs in contact: a speculative point's separation depends on the feature pair the
			// test stopped at, and is not the distance.
			if (!(fmin(held, made) <= 0.0)) {
				continue;
			}
			worst = fmax(worst, fabs(held - made) / size);
			++compared;
		}
	}
	cr_log_info("reused manifolds: %ld touching pairs compared, worst deepest-point difference "
	            "%.4f of the radius",
	            compared, worst);
	cr_expect_gt(compared, 1000);
	cr_expect_leq(worst, 0.02, "deepest point %.4f of the radius from the fresh narrow phase",
	              worst);
	tbDestroyWorld(world);
}
