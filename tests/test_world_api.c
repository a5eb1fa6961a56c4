// The world's public API: ray casts against analytic hits, overlap queries, events, bad input
// that is refused with a clear message while the world keeps working, memory that returns to its
// start, no allocation in the step after warm-up, and the dynamic tree's invariants.
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <string.h>

#include "tumble/dynamic_tree.h" // white-box: the broad phase's tree
#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;

static tbShapeId addShape(tbWorldId world, tbBodyType type, vec3s p, versors q, tbGeometry geometry)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = type;
	bd.position = p;
	bd.rotation = q;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	return tbCreateShape(body, &sd, &geometry);
}

Test(world_api, ray_casts_hit_analytic_points)
{
	tbWorldId world = makeWorld(false);
	tbShapeId sphere =
	    addShape(world, tb_staticBody, v3(0.0f, 0.0f, 0.0f), quatIdentity(), tbMakeSphere(1.0f));
	tbShapeId box = addShape(world, tb_staticBody, v3(10.0f, 0.0f, 0.0f), quatIdentity(),
	                         tbMakeBox(0.5f, 1.0f, 2.0f));
	versors tilt = glms_quatv(0.5f * 3.14159265f, v3(0.0f, 0.0f, 1.0f)); // axis along x
	tbShapeId capsule =
	    addShape(world, tb_staticBody, v3(0.0f, 0.0f, 10.0f), tilt, tbMakeCapsule(0.5f, 1.0f));
	float worst = 0.0f;

	// Down onto the sphere's top: hit (0, 1, 0), normal +y, fraction (5 - 1) / 10.
	tbRayResult r = tbWorld_CastRayClosest(world, v3(0.0f, 5.0f, 0.0f), v3(0.0f, -10.0f, 0.0f),
	                                       tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_expect(TB_ID_EQUALS(r.shapeId, sphere));
	worst = fmaxf(worst, dist3(r.point, v3(0.0f, 1.0f, 0.0f)));
	worst = fmaxf(worst, fabsf(r.fraction - 0.4f) * 10.0f);
	cr_expect_float_eq(r.normal.y, 1.0f, 1e-3f);

	// Oblique ray at the sphere: origin (-5, 0.6, 0) along +x: hit x = -sqrt(1 - 0.36) = -0.8.
	r = tbWorld_CastRayClosest(world, v3(-5.0f, 0.6f, 0.0f), v3(8.0f, 0.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_assert(r.hit);
	worst = fmaxf(worst, dist3(r.point, v3(-0.8f, 0.6f, 0.0f)));
	cr_expect_float_eq(r.normal.x, -0.8f, 2e-3f);
	cr_expect_float_eq(r.normal.y, 0.6f, 2e-3f);

	// Along -x at the box's +x face (x = 10.5).
	r = tbWorld_CastRayClosest(world, v3(20.0f, 0.3f, 1.2f), v3(-20.0f, 0.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_expect(TB_ID_EQUALS(r.shapeId, box));
	worst = fmaxf(worst, dist3(r.point, v3(10.5f, 0.3f, 1.2f)));
	cr_expect_float_eq(r.normal.x, 1.0f, 1e-3f);

	// Down onto the capsule lying along x: top of the side at y = 0.5.
	r = tbWorld_CastRayClosest(world, v3(0.7f, 3.0f, 10.0f), v3(0.0f, -6.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_expect(TB_ID_EQUALS(r.shapeId, capsule));
	worst = fmaxf(worst, dist3(r.point, v3(0.7f, 0.5f, 10.0f)));

	// A miss and a ray that stops short.
	r = tbWorld_CastRayClosest(world, v3(0.0f, 5.0f, 5.0f), v3(0.0f, -10.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_expect(!r.hit);
	r = tbWorld_CastRayClosest(world, v3(0.0f, 5.0f, 0.0f), v3(0.0f, -3.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_expect(!r.hit);
	cr_log_info("ray casts: worst hit point error %.2e m", (double)worst);
	printf("SCENE raycast: worst hit point error %.2e m over 4 analytic hits\n", (double)worst);
	cr_expect_lt(worst, 1e-3f);
	tbDestroyWorld(world);
}

static float countHits(tbShapeId shapeId, vec3s point, vec3s normal, float fraction, void* ctx)
{
	(void)shapeId;
	(void)point;
	(void)normal;
	(void)fraction;
	*(int*)ctx += 1;
	return 1.0f; // every hit
}

static bool countOverlaps(tbShapeId shapeId, void* ctx)
{
	(void)shapeId;
	*(int*)ctx += 1;
	return true;
}

Test(world_api, all_hits_and_overlaps)
{
	tbWorldId world = makeWorld(false);
	for (int i = 0; i < 5; ++i) {
		addShape(world, tb_staticBody, v3(3.0f * (float)i, 0.0f, 0.0f), quatIdentity(),
		         tbMakeSphere(0.5f));
	}
	int hits = 0;
	tbWorld_CastRay(world, v3(-5.0f, 0.0f, 0.0f), v3(30.0f, 0.0f, 0.0f), tbDefaultQueryFilter(),
	                countHits, &hits);
	cr_expect_eq(hits, 5);
	int overlaps = 0;
	tbGeometry probe = tbMakeBox(2.0f, 1.0f, 1.0f);
	tbWorld_OverlapShape(world, &probe, tbMakeTransform(v3(4.5f, 0.0f, 0.0f), quatIdentity()),
	                     tbDefaultQueryFilter(), countOverlaps, &overlaps);
	cr_expect_eq(overlaps, 2); // spheres at 3 and 6
	int inBox = 0;
	tbAABB aabb = {v3(-1.0f, -1.0f, -1.0f), v3(3.2f, 1.0f, 1.0f)};
	tbWorld_OverlapAABB(world, aabb, tbDefaultQueryFilter(), countOverlaps, &inBox);
	cr_expect_eq(inBox, 2);
	tbDestroyWorld(world);
}

Test(world_api, contact_events_begin_and_end)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 10.0f, 0.6f);
	tbBodyId box =
	    makeBox(world, v3(0.0f, 1.0f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	int begins = 0, ends = 0;
	for (int s = 0; s < 60; ++s) {
		tbWorld_Step(world, kDt, 4);
		begins += tbWorld_GetContactEvents(world).beginCount;
	}
	cr_expect_eq(begins, 1);
	tbBodyEvents be = tbWorld_GetBodyEvents(world);
	cr_expect_eq(be.moveCount, 1);
	cr_expect(TB_ID_EQUALS(be.moveEvents[0].bodyId, box));
	tbBody_SetTransform(box, v3(0.0f, 5.0f, 0.0f), quatIdentity());
	for (int s = 0; s < 3; ++s) {
		tbWorld_Step(world, kDt, 4);
		ends += tbWorld_GetContactEvents(world).endCount;
	}
	cr_expect_eq(ends, 1);
	tbDestroyWorld(world);
}

// Release builds compile TB_ASSERT out (base.h): there a stale handle is still refused, just
// without the assert callback.
#if !defined(NDEBUG) || defined(TB_ENABLE_ASSERT)
#define TB_TEST_ASSERTS 1
#else
#define TB_TEST_ASSERTS 0
#endif

static int s_asserts = 0;
static char s_lastAssert[256];

static int recordAssert(const char* condition, const char* file, int line)
{
	s_asserts += 1;
	snprintf(s_lastAssert, sizeof s_lastAssert, "%s (%s:%d)", condition, file, line);
	return 0; // continue: the API returns a harmless default
}

Test(world_api, bad_input_is_refused_and_the_world_keeps_working)
{
	tbSetAssertFcn(recordAssert);
	tbWorldId world = makeWorld(false);
	makeGround(world, 10.0f, 0.6f);
	tbBodyId box =
	    makeBox(world, v3(0.0f, 2.0f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);

	// NaN pose.
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = v3(NAN, 0.0f, 0.0f);
	tbBodyId bad = tbCreateBody(world, &bd);
	cr_expect(TB_IS_NULL(bad));
	printf("ERROR nan pose: %s\n", tbGetLastError());
	cr_expect(strstr(tbGetLastError(), "position") != NULL);
	tbBody_SetTransform(box, v3(0.0f, INFINITY, 0.0f), quatIdentity());
	cr_expect(strstr(tbGetLastError(), "position") != NULL);
	cr_expect_float_eq(tbBody_GetPosition(box).y, 2.0f, 1e-6f);

	// Zero-size shape.
	tbGeometry flat = tbMakeBox(0.5f, 0.0f, 0.5f);
	tbShapeDef sd = tbDefaultShapeDef();
	tbShapeId badShape = tbCreateShape(box, &sd, &flat);
	cr_expect(TB_IS_NULL(badShape));
	printf("ERROR zero-size shape: %s\n", tbGetLastError());
	cr_expect(strstr(tbGetLastError(), "half extents") != NULL);
	tbGeometry ball = tbMakeSphere(-1.0f);
	cr_expect(TB_IS_NULL(tbCreateShape(box, &sd, &ball)));
	cr_expect(strstr(tbGetLastError(), "radius") != NULL);

	// dt <= 0 and bad substeps.
	cr_expect(!tbWorld_Step(world, 0.0f, 4));
	printf("ERROR dt = 0: %s\n", tbGetLastError());
	cr_expect(strstr(tbGetLastError(), "timeStep") != NULL);
	cr_expect(!tbWorld_Step(world, -kDt, 4));
	cr_expect(!tbWorld_Step(world, NAN, 4));
	cr_expect(!tbWorld_Step(world, kDt, 0));
	cr_expect(strstr(tbGetLastError(), "substeps") != NULL);

	// Stale handle: a destroyed body's id asserts (recorded here) and returns a default.
	tbBodyId doomed =
	    makeBox(world, v3(5.0f, 0.5f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	tbDestroyBody(doomed);
	int before = s_asserts;
	vec3s p = tbBody_GetPosition(doomed);
	cr_expect_eq(s_asserts, before + TB_TEST_ASSERTS);
	cr_expect(!tbBody_IsValid(doomed));
	printf("ERROR stale handle: %s [assert: %s]\n", tbGetLastError(), s_lastAssert);
	cr_expect(strstr(tbGetLastError(), "stale") != NULL);
	cr_expect_float_eq(p.x, 0.0f, 0.0f);
	// The slot is reused by a new body: the old id still does not alias it.
	tbBodyId reborn =
	    makeBox(world, v3(5.0f, 0.5f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	cr_expect_eq(reborn.index1, doomed.index1);
	cr_expect(!tbBody_IsValid(doomed));
	cr_expect(tbBody_IsValid(reborn));

	// The world keeps working: the box falls and lands.
	for (int s = 0; s < 120; ++s) {
		cr_assert(tbWorld_Step(world, kDt, 4));
	}
	cr_expect_float_eq(tbBody_GetPosition(box).y, 0.5f, 0.01f);
	tbDestroyWorld(world);
	before = s_asserts;
	cr_expect(!tbWorld_Step(world, kDt, 4)); // stale world
	cr_expect_eq(s_asserts, before + TB_TEST_ASSERTS);
	tbSetAssertFcn(NULL);
}

Test(world_api, memory_returns_and_step_does_not_allocate)
{
	long long bytes0 = tbGetByteCount();
	tbWorldId world = makeWorld(true);
	makeGround(world, 20.0f, 0.6f);
	for (int i = 0; i < 50; ++i) {
		makeBox(world, v3((float)(i % 5) * 1.2f, 0.5f + 1.1f * (float)(i / 5), 0.0f),
		        quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	}
	for (int s = 0; s < 60; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	long long allocs = tbGetAllocationCount();
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	long long stepAllocs = tbGetAllocationCount() - allocs;
	long long peak = tbGetByteCount() - bytes0;
	tbDestroyWorld(world);
	long long after = tbGetByteCount() - bytes0;
	printf("SCENE memory: %lld bytes for 50 boxes, %lld allocations in 120 steps after warm-up, "
	       "%lld bytes left after destroy\n",
	       peak, stepAllocs, after);
	cr_expect_eq(stepAllocs, 0);
	cr_expect_eq(after, 0);
}

Test(world_api, dynamic_tree_stays_valid)
{
	tbDynamicTree tree = tbDynamicTree_Create();
	int ids[300];
	uint32_t seed = 7u;
	for (int i = 0; i < 300; ++i) {
		seed = seed * 1664525u + 1013904223u;
		float x = (float)(seed >> 16) / 65536.0f * 100.0f;
		tbAABB b = {v3(x, 0.0f, 0.0f), v3(x + 1.0f, 1.0f, 1.0f)};
		ids[i] = tbDynamicTree_CreateProxy(&tree, b, i);
	}
	cr_assert(tbDynamicTree_Validate(&tree));
	for (int i = 0; i < 300; i += 3) {
		tbAABB b = {v3((float)i, 5.0f, 0.0f), v3((float)i + 1.0f, 6.0f, 1.0f)};
		tbDynamicTree_MoveProxy(&tree, ids[i], b);
	}
	for (int i = 1; i < 300; i += 3) {
		tbDynamicTree_DestroyProxy(&tree, ids[i]);
	}
	cr_assert(tbDynamicTree_Validate(&tree));
	printf("SCENE tree: 200 proxies, height %d\n", tbDynamicTree_GetHeight(&tree));
	cr_expect_lt(tbDynamicTree_GetHeight(&tree), 20);
	tbDynamicTree_Destroy(&tree);
}

// The bulk read equals the per-body getters field for field, skips destroyed bodies, stops at
// the capacity and refuses a negative one by name.
Test(world_api, body_snapshots_equal_the_getters)
{
	tbWorldId world = makeWorld(false);
	tbBodyId bodies[5];
	for (int i = 0; i < 5; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = i == 0 ? tb_staticBody : tb_dynamicBody;
		bd.position = v3((float)i, 2.0f + (float)i, -1.0f);
		bd.rotation = tbQuatFromEulerXYZ(0.1f * (float)i, 0.2f, -0.3f);
		bd.linearVelocity = v3(1.0f, (float)i, 0.5f);
		bd.angularVelocity = v3(0.0f, 3.0f, (float)i);
		bodies[i] = tbCreateBody(world, &bd);
		tbShapeDef sd = tbDefaultShapeDef();
		tbGeometry box = tbMakeBox(0.2f, 0.3f, 0.4f);
		tbCreateShape(bodies[i], &sd, &box);
	}
	for (int s = 0; s < 10; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	tbDestroyBody(bodies[2]);
	tbBodySnapshot snaps[8];
	int n = tbWorld_GetBodySnapshots(world, snaps, 8);
	cr_assert_eq(n, 4);
	cr_expect_eq(n, tbWorld_GetCounters(world).bodyCount);
	const int alive[4] = {0, 1, 3, 4};
	for (int k = 0; k < n; ++k) {
		tbBodyId id = bodies[alive[k]];
		cr_expect(TB_ID_EQUALS(snaps[k].bodyId, id));
		vec3s p = tbBody_GetPosition(id), v = tbBody_GetLinearVelocity(id);
		vec3s w = tbBody_GetAngularVelocity(id);
		versors q = tbBody_GetRotation(id);
		for (int j = 0; j < 3; ++j) {
			cr_expect_eq(snaps[k].position[j], p.raw[j]);
			cr_expect_eq(snaps[k].linearVelocity[j], v.raw[j]);
			cr_expect_eq(snaps[k].angularVelocity[j], w.raw[j]);
		}
		for (int j = 0; j < 4; ++j) {
			cr_expect_eq(snaps[k].rotation[j], q.raw[j]);
		}
		cr_expect_eq(snaps[k].kineticEnergy, tbBody_GetKineticEnergy(id));
	}
	cr_expect_eq(tbWorld_GetBodySnapshots(world, snaps, 2), 2);
	cr_expect(TB_ID_EQUALS(snaps[1].bodyId, bodies[1]));
	tbClearLastError();
	cr_expect_eq(tbWorld_GetBodySnapshots(world, snaps, -1), 0);
	cr_expect(strstr(tbGetLastError(), "capacity") != NULL, "%s", tbGetLastError());
	tbDestroyWorld(world);
}
