// White-box tests of the world's bookkeeping against brute force: the dynamic AABB tree (queries
// and ray casts after inserts, moves and removals), the pair set (an open-addressing hash table
// with backward-shift deletion) and the islands that sleep and wake as rings.
#include "tumble/dynamic_tree.h"
#include "world_internal.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// splitmix64: the same numbers on every platform.
static uint64_t s_state = 7;
static double uniform(void)
{
	uint64_t z = (s_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static float range(float lo, float hi)
{
	return lo + (hi - lo) * (float)uniform();
}

static tbAABB randomBox(void)
{
	vec3s c = {{range(-20.0f, 20.0f), range(-20.0f, 20.0f), range(-20.0f, 20.0f)}};
	vec3s h = {{range(0.1f, 2.0f), range(0.1f, 2.0f), range(0.1f, 2.0f)}};
	return (tbAABB){glms_vec3_sub(c, h), glms_vec3_add(c, h)};
}

static bool overlaps(tbAABB a, tbAABB b)
{
	return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
	       b.lower.y <= a.upper.y && a.lower.z <= b.upper.z && b.lower.z <= a.upper.z;
}

// Slab test: the entry fraction of the segment o + t d, t in [0, 1], into the box, or -1.
static float segmentEntry(vec3s o, vec3s d, tbAABB b)
{
	float t0 = 0.0f, t1 = 1.0f;
	for (int k = 0; k < 3; ++k) {
		float lo = b.lower.raw[k], hi = b.upper.raw[k];
		if (fabsf(d.raw[k]) < 1e-12f) {
			if (o.raw[k] < lo || o.raw[k] > hi) {
				return -1.0f;
			}
			continue;
		}
		float a = (lo - o.raw[k]) / d.raw[k], c = (hi - o.raw[k]) / d.raw[k];
		t0 = fmaxf(t0, fminf(a, c));
		t1 = fminf(t1, fmaxf(a, c));
	}
	return t0 <= t1 ? t0 : -1.0f;
}

#define PROXIES 600

typedef struct Found
{
	bool hit[PROXIES];
	int count;
} Found;

static bool collect(int proxyId, int userData, void* context)
{
	(void)proxyId;
	Found* f = context;
	cr_assert(!f->hit[userData], "proxy %d reported twice", userData);
	f->hit[userData] = true;
	f->count += 1;
	return true;
}

static float collectRay(int proxyId, int userData, vec3s origin, vec3s translation,
                        float maxFraction, void* context)
{
	(void)proxyId, (void)origin, (void)translation;
	collect(proxyId, userData, context);
	return maxFraction; // go on: every leaf the segment crosses
}

Test(dynamic_tree, queries_and_rays_match_brute_force)
{
	tbDynamicTree tree = tbDynamicTree_Create();
	tbAABB boxes[PROXIES];
	int ids[PROXIES];
	bool alive[PROXIES];
	for (int i = 0; i < PROXIES; ++i) {
		boxes[i] = randomBox();
		ids[i] = tbDynamicTree_CreateProxy(&tree, boxes[i], i);
		alive[i] = true;
	}
	for (int round = 0; round < 3; ++round) {
		if (round > 0) {
			// Move half, remove a sixth, re-insert what was removed the round before.
			for (int i = 0; i < PROXIES; ++i) {
				double u = uniform();
				if (!alive[i]) {
					boxes[i] = randomBox();
					ids[i] = tbDynamicTree_CreateProxy(&tree, boxes[i], i);
					alive[i] = true;
				} else if (u < 0.5) {
					boxes[i] = randomBox();
					tbDynamicTree_MoveProxy(&tree, ids[i], boxes[i]);
				} else if (u < 0.67) {
					tbDynamicTree_DestroyProxy(&tree, ids[i]);
					alive[i] = false;
				}
			}
		}
		cr_assert(tbDynamicTree_Validate(&tree), "round %d: the tree is inconsistent", round);
		int live = 0;
		for (int i = 0; i < PROXIES; ++i) {
			live += alive[i];
			if (alive[i]) {
				tbAABB stored = tbDynamicTree_GetAABB(&tree, ids[i]);
				cr_assert(memcmp(&stored, &boxes[i], sizeof stored) == 0);
				cr_assert_eq(tbDynamicTree_GetUserData(&tree, ids[i]), i);
			}
		}
		// Balanced: an AVL-like tree of n leaves is at most about 1.44 log2(n) high.
		int height = tbDynamicTree_GetHeight(&tree);
		cr_expect_leq(height, (int)ceil(1.45 * log2((double)live + 2.0)) + 1,
		              "round %d: height %d for %d leaves", round, height, live);
		for (int q = 0; q < 50; ++q) {
			tbAABB query = randomBox();
			Found f = {0};
			tbDynamicTree_Query(&tree, query, collect, &f);
			int expected = 0;
			for (int i = 0; i < PROXIES; ++i) {
				bool want = alive[i] && overlaps(query, boxes[i]);
				expected += want;
				cr_assert_eq(f.hit[i], want, "round %d query %d: proxy %d %s", round, q, i,
				             want ? "missed" : "reported but does not overlap");
			}
			cr_assert_eq(f.count, expected);

			vec3s o = {{range(-25.0f, 25.0f), range(-25.0f, 25.0f), range(-25.0f, 25.0f)}};
			vec3s d = {{range(-40.0f, 40.0f), range(-40.0f, 40.0f), range(-40.0f, 40.0f)}};
			Found r = {0};
			tbDynamicTree_RayCast(&tree, o, d, 1.0f, collectRay, &r);
			for (int i = 0; i < PROXIES; ++i) {
				float entry = alive[i] ? segmentEntry(o, d, boxes[i]) : -1.0f;
				// Grazing boxes (an entry within rounding of the segment's ends) may go either way.
				if (entry >= 0.0f && entry < 0.999f) {
					cr_assert(r.hit[i], "round %d ray %d: proxy %d crossed at %g not reported",
					          round, q, i, (double)entry);
				} else if (entry < 0.0f && alive[i]) {
					vec3s h = glms_vec3_scale(glms_vec3_sub(boxes[i].upper, boxes[i].lower), 1e-4f);
					tbAABB grown = {glms_vec3_sub(boxes[i].lower, h),
					                glms_vec3_add(boxes[i].upper, h)};
					cr_assert(!r.hit[i] || segmentEntry(o, d, grown) >= 0.0f,
					          "round %d ray %d: proxy %d reported, the segment misses it", round, q,
					          i);
				}
			}
		}
	}
	tbDynamicTree_Destroy(&tree);
}

// A parallel loop that runs the ranges one item at a time, last first, under changing worker
// indices: the rebuild must give the same tree as on one thread.
static void reversedParallelFor(tbTreeTaskFcn* task, int itemCount, int minRange, void* taskContext,
                                void* context)
{
	(void)minRange, (void)context;
	for (int i = itemCount - 1; i >= 0; --i) {
		task(i, i + 1, i % 3, taskContext);
	}
}

// Moves by enlarging in place, then rebuilds: the same leaves found as by brute force, a
// consistent tree of about the height of a balanced one, the same tree from the workers' enlarge
// in another order as from the one-thread enlarge, and the same tree from a rebuild split over
// workers as from one thread.
Test(dynamic_tree, enlarged_and_rebuilt_trees_answer_as_brute_force)
{
	tbDynamicTree trees[2] = {tbDynamicTree_Create(), tbDynamicTree_Create()};
	tbAABB boxes[PROXIES];
	bool moved[PROXIES];
	int ids[2][PROXIES];
	for (int i = 0; i < PROXIES; ++i) {
		boxes[i] = randomBox();
		for (int t = 0; t < 2; ++t) {
			ids[t][i] = tbDynamicTree_CreateProxy(trees + t, boxes[i], i);
		}
	}
	for (int round = 0; round < 4; ++round) {
		// Move about two thirds: each to a box near its old one (a step's motion) or anywhere.
		for (int i = 0; i < PROXIES; ++i) {
			double u = uniform();
			if (u < 0.33) {
				vec3s d = {{range(-1.0f, 1.0f), range(-1.0f, 1.0f), range(-1.0f, 1.0f)}};
				boxes[i].lower = glms_vec3_add(boxes[i].lower, d);
				boxes[i].upper = glms_vec3_add(boxes[i].upper, d);
			} else if (u < 0.67) {
				boxes[i] = randomBox();
			} else {
				moved[i] = false;
				continue;
			}
			moved[i] = true;
			tbDynamicTree_EnlargeProxy(trees, ids[0][i], boxes[i]);
		}
		// The second tree takes the same moves through the workers' enlarge, last first: the
		// tree ends the same in any order.
		for (int i = PROXIES - 1; i >= 0; --i) {
			if (moved[i]) {
				tbDynamicTree_EnlargeProxyShared(trees + 1, ids[1][i], boxes[i]);
			}
		}
		cr_assert(tbDynamicTree_Validate(trees), "round %d: enlarged tree inconsistent", round);
		cr_assert(memcmp(trees[0].nodes, trees[1].nodes,
		                 (size_t)trees[0].nodeCapacity * sizeof(tbTreeNode)) == 0,
		          "round %d: the trees enlarged in two orders differ", round);
		int placed = tbDynamicTree_Rebuild(trees, NULL, 1, NULL);
		int placedToo = tbDynamicTree_Rebuild(trees + 1, reversedParallelFor, 1 + round * 40, NULL);
		cr_assert_gt(placed, PROXIES / 2, "round %d: the rebuild placed %d", round, placed);
		cr_assert_eq(placedToo, placed);
		cr_assert_eq(tbDynamicTree_Rebuild(trees, NULL, 1, NULL), 0, "nothing left to rebuild");
		for (int t = 0; t < 2; ++t) {
			cr_assert(tbDynamicTree_Validate(trees + t), "round %d tree %d inconsistent", round, t);
		}
		cr_assert_eq(trees[0].root, trees[1].root);
		cr_assert(memcmp(trees[0].nodes, trees[1].nodes,
		                 (size_t)trees[0].nodeCapacity * sizeof(tbTreeNode)) == 0,
		          "round %d: the tree split over workers differs from one thread's", round);
		// A surface-area build is no balanced tree, but near one: within twice its height.
		int height = tbDynamicTree_GetHeight(trees);
		cr_expect_leq(height, 2 * (int)ceil(1.45 * log2((double)PROXIES + 2.0)),
		              "round %d: height %d", round, height);
		for (int q = 0; q < 50; ++q) {
			tbAABB query = randomBox();
			Found f = {0};
			tbDynamicTree_Query(trees, query, collect, &f);
			for (int i = 0; i < PROXIES; ++i) {
				cr_assert_eq(f.hit[i], overlaps(query, boxes[i]), "round %d query %d proxy %d",
				             round, q, i);
			}
		}
	}
	tbDynamicTree_Destroy(trees);
	tbDynamicTree_Destroy(trees + 1);
}

Test(pair_set, matches_a_reference_through_inserts_and_removals)
{
	tbWorldDef def = tbDefaultWorldDef();
	tbWorldId id = tbCreateWorld(&def);
	tbWorld* w = tbGetWorld(id, "test");
	cr_assert_not_null(w);
	enum
	{
		n = 3000
	};
	static int a[n], b[n], child[n], value[n];
	static bool present[n];
	for (int i = 0; i < n; ++i) {
		// Distinct pairs among 120 shapes: clustered indices collide in the table.
		a[i] = i % 120;
		b[i] = 120 + i / 120 * 7 + i % 5;
		// Child contacts (a triangle of a mesh, or -1): the same two shapes, distinct pairs.
		child[i] = i % 3 - 1;
		value[i] = (int)(uniform() * 1e6);
		present[i] = false;
	}
	for (int i = 0; i < n; ++i) {
		bool dup = false;
		for (int j = 0; j < i && !dup; ++j) {
			dup = present[j] && a[j] == a[i] && b[j] == b[i] && child[j] == child[i];
		}
		if (dup) {
			continue;
		}
		// Either order names the same pair.
		if (i % 2 == 0) {
			tbPairInsert(w, a[i], b[i], child[i], value[i]);
		} else {
			tbPairInsert(w, b[i], a[i], child[i], value[i]);
		}
		present[i] = true;
	}
	for (int round = 0; round < 4; ++round) {
		int count = 0;
		for (int i = 0; i < n; ++i) {
			count += present[i];
			int found = tbPairFind(w, a[i], b[i], child[i]);
			cr_assert_eq(found, present[i] ? value[i] : -1, "round %d: pair (%d, %d)", round, a[i],
			             b[i]);
			cr_assert_eq(tbPairFind(w, b[i], a[i], child[i]), found);
		}
		cr_assert_eq(w->pairCount, count, "round %d: the table counts %d of %d", round,
		             w->pairCount, count);
		cr_assert_leq(2 * w->pairCount, w->pairCapacity, "load above one half");
		// Remove a random third of what is there, put back a random third of what is not.
		for (int i = 0; i < n; ++i) {
			double u = uniform();
			if (present[i] && u < 0.33) {
				tbPairRemove(w, a[i], b[i], child[i]);
				present[i] = false;
			} else if (!present[i] && u < 0.33 && tbPairFind(w, a[i], b[i], child[i]) < 0) {
				tbPairInsert(w, a[i], b[i], child[i], value[i]);
				present[i] = true;
			}
		}
	}
	// Removing what is not there changes nothing.
	int before = w->pairCount;
	tbPairRemove(w, 100000, 100001, -1);
	cr_assert_eq(w->pairCount, before);
	tbDestroyWorld(id);
}

// Two stacks far apart are two islands: both fall asleep as rings of exactly their own bodies;
// waking one body wakes its island, not the other.
Test(islands, sleep_as_rings_and_wake_whole)
{
	tbWorldDef def = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&def);
	tbBodyDef groundDef = tbDefaultBodyDef();
	groundDef.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &groundDef);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbGeometry groundBox = tbMakeBox(50.0f, 0.5f, 50.0f);
	tbCreateShape(ground, &shapeDef, &groundBox);
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbBodyId stacks[2][3];
	for (int s = 0; s < 2; ++s) {
		for (int k = 0; k < 3; ++k) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = tb_dynamicBody;
			bd.position = (vec3s){{s == 0 ? -10.0f : 10.0f, 0.5f + 1.0f * (float)k, 0.0f}};
			stacks[s][k] = tbCreateBody(world, &bd);
			tbCreateShape(stacks[s][k], &shapeDef, &cube);
		}
	}
	for (int step = 0; step < 300 && (tbBody_IsAwake(stacks[0][0]) || tbBody_IsAwake(stacks[1][0]));
	     ++step) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	tbWorld* w = tbGetWorld(world, "test");
	for (int s = 0; s < 2; ++s) {
		// Follow the ring from the bottom body: it visits the stack's three bodies and returns.
		int start = stacks[s][0].index1 - 1;
		bool inRing[3] = {false, false, false};
		int i = start, visited = 0;
		do {
			cr_assert(!w->bodies[i].awake, "stack %d: body %d is awake", s, i);
			int which = -1;
			for (int k = 0; k < 3; ++k) {
				which = stacks[s][k].index1 - 1 == i ? k : which;
			}
			cr_assert_geq(which, 0, "stack %d's ring holds body %d of another island", s, i);
			cr_assert_not(inRing[which]);
			inRing[which] = true;
			i = w->bodies[i].sleepNext;
			cr_assert_geq(i, 0, "stack %d: the ring is broken", s);
		} while (i != start && ++visited < 10);
		cr_assert(inRing[0] && inRing[1] && inRing[2], "stack %d: a body is not in the ring", s);
	}
	// Wake the top of the left stack: its island wakes, the right one sleeps on.
	tbBody_SetAwake(stacks[0][2], true);
	for (int k = 0; k < 3; ++k) {
		cr_assert(tbBody_IsAwake(stacks[0][k]), "left body %d still asleep", k);
		cr_assert_not(tbBody_IsAwake(stacks[1][k]), "right body %d woke", k);
		cr_assert_eq(w->bodies[stacks[0][k].index1 - 1].sleepNext, -1);
	}
	tbDestroyWorld(world);
}

// A cube at the middle of a kinematic turntable turning at 0.05 rad/s: its own points move at
// 0.05 * 0.43 m/s, below the sleep threshold, but the table's rim moves at 0.35 m/s, and a moving
// kinematic body keeps what it touches awake. So the cube is awake after 4 s and has turned with
// the table by w t = 0.2 rad (asleep after its 0.5 s it would have stopped near 0.03 rad).
Test(islands, a_cube_on_a_slowly_turning_table_stays_awake_and_turns_with_it)
{
	tbWorldDef def = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&def);
	tbBodyDef tableDef = tbDefaultBodyDef();
	tableDef.type = tb_kinematicBody;
	tableDef.position = (vec3s){{0.0f, -0.25f, 0.0f}};
	tbBodyId table = tbCreateBody(world, &tableDef);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbGeometry top = tbMakeBox(5.0f, 0.25f, 5.0f);
	tbCreateShape(table, &shapeDef, &top);
	const float spin = 0.05f;
	tbBody_SetAngularVelocity(table, (vec3s){{0.0f, spin, 0.0f}});
	tbBodyDef cubeDef = tbDefaultBodyDef();
	cubeDef.type = tb_dynamicBody;
	cubeDef.position = (vec3s){{0.0f, 0.25f, 0.0f}};
	tbBodyId cube = tbCreateBody(world, &cubeDef);
	tbGeometry box = tbMakeBox(0.25f, 0.25f, 0.25f);
	tbCreateShape(cube, &shapeDef, &box);
	const int steps = 240;
	for (int step = 0; step < steps; ++step) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	cr_assert(tbBody_IsAwake(cube), "the cube fell asleep on the turning table");
	// The cube's turn about y: the angle of its x axis in the ground plane.
	versors q = tbBody_GetRotation(cube);
	vec3s x = glms_quat_rotatev(q, (vec3s){{1.0f, 0.0f, 0.0f}});
	float turned = atan2f(-x.z, x.x);
	float expected = spin * (float)steps / 60.0f;
	cr_assert(fabsf(turned - expected) < 0.1f * expected, "turned %g rad, the table %g rad",
	          (double)turned, (double)expected);
	tbDestroyWorld(world);
}

// Two cubes of half size h at rest side by side, `gap` m between their faces, no gravity: whether
// the broad phase pairs them after a step (their fat boxes overlap).
static int pairsOfTwoCubes(float h, float gap)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = (vec3s){{0.0f, 0.0f, 0.0f}};
	tbWorldId world = tbCreateWorld(&def);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbGeometry cube = tbMakeBox(h, h, h);
	for (int k = 0; k < 2; ++k) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = (vec3s){{(float)k * (2.0f * h + gap), 0.0f, 0.0f}};
		tbCreateShape(tbCreateBody(world, &bd), &shapeDef, &cube);
	}
	tbWorld_Step(world, 1.0f / 60.0f, 4);
	int pairs = tbWorld_GetCounters(world).contactCount;
	tbDestroyWorld(world);
	return pairs;
}

Test(fat_boxes, margin_is_the_smaller_of_aabb_margin_and_an_eighth_of_the_radius)
{
	// A cube of half size 0.2 m has bounding radius 0.2 sqrt(3) = 0.3464 m: its margin is an eighth
	// of that, 0.0433 m, so two such cubes pair when their faces are under 0.0866 m apart.
	float small = 0.125f * 0.2f * sqrtf(3.0f);
	cr_expect_eq(pairsOfTwoCubes(0.2f, 2.0f * small - 0.005f), 1);
	cr_expect_eq(pairsOfTwoCubes(0.2f, 2.0f * small + 0.005f), 0);
	// A unit cube (radius 0.866 m, an eighth 0.108 m) keeps the world's aabbMargin, 0.1 m.
	tbWorldDef def = tbDefaultWorldDef();
	cr_expect_eq(pairsOfTwoCubes(0.5f, 2.0f * def.aabbMargin - 0.005f), 1);
	cr_expect_eq(pairsOfTwoCubes(0.5f, 2.0f * def.aabbMargin + 0.005f), 0);
}
