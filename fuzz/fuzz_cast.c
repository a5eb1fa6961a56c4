// libFuzzer target: ray casts against one fuzzed shape (tbRayCastShape) and through a small world
// of fuzzed shapes (tbWorld_CastRayClosest, tbWorld_OverlapShape). Checks: no crash or sanitizer
// report; a hit has a fraction in [0, maxFraction], a finite point and a unit normal.
#include "fuzz_common.h"

static bool countOverlap(tbShapeId shapeId, void* context)
{
	(void)shapeId;
	*(int*)context += 1;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	FuzzReader r = {data, size, 0};
	tbHull hull;
	memset(&hull, 0, sizeof hull);
	tbGeometry shape = fuzzShape(&r, &hull);
	tbTransform xf = fuzzPose(&r);
	vec3s origin = fuzzVec3(&r);
	vec3s translation = fuzzVec3(&r);
	float maxFraction = fuzzFloat(&r);
	tbCastOutput out = tbRayCastShape(&shape, xf, origin, translation, maxFraction);
	if (out.hit) {
		FUZZ_CHECK(out.fraction >= 0.0f && out.fraction <= maxFraction, "fraction %g of %g",
		           (double)out.fraction, (double)maxFraction);
		FUZZ_CHECK(fuzzFinite3(out.point) && fuzzUnit3(out.normal), "hit point or normal");
		FUZZ_CHECK(out.iterations <= 64, "%d iterations", out.iterations);
	}

	// The same shape in a world, on a static body, and a second one on a dynamic body.
	tbWorldDef wd = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&wd);
	FUZZ_CHECK(!TB_IS_NULL(world), "%s", tbGetLastError());
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = xf.p;
	bd.rotation = xf.q;
	tbBodyId body = tbCreateBody(world, &bd);
	if (!TB_IS_NULL(body)) {
		tbShapeDef sd = tbDefaultShapeDef();
		(void)tbCreateShape(body, &sd, &shape);
	}
	tbHull hull2;
	memset(&hull2, 0, sizeof hull2);
	tbGeometry other = fuzzShape(&r, &hull2);
	tbBodyDef bd2 = tbDefaultBodyDef();
	bd2.type = tb_dynamicBody;
	bd2.position = fuzzVec3(&r);
	fuzzDescribe("static", &shape, xf);
	fuzzDescribe("dynamic", &other, (tbTransform){bd2.position, bd2.rotation});
	tbBodyId body2 = tbCreateBody(world, &bd2);
	if (!TB_IS_NULL(body2)) {
		tbShapeDef sd = tbDefaultShapeDef();
		sd.density = fuzzFloat(&r);
		if (getenv("FUZZ_VERBOSE") != NULL) {
			fprintf(stderr, "density %g\n", (double)sd.density);
		}
		(void)tbCreateShape(body2, &sd, &other);
	}
	tbRayResult ray = tbWorld_CastRayClosest(world, origin, translation, tbDefaultQueryFilter());
	if (ray.hit) {
		FUZZ_CHECK(ray.fraction >= 0.0f && ray.fraction <= 1.0f, "world fraction %g",
		           (double)ray.fraction);
		FUZZ_CHECK(fuzzFinite3(ray.point) && fuzzUnit3(ray.normal), "world hit point or normal");
	}
	int overlaps = 0;
	tbWorld_OverlapShape(world, &other, fuzzPose(&r), tbDefaultQueryFilter(), countOverlap,
	                     &overlaps);
	FUZZ_CHECK(overlaps <= 2, "%d overlaps of 2 shapes", overlaps);
	// A couple of steps: the fuzzed pair must not make a NaN body.
	for (int i = 0; i < 3; ++i) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
		if (getenv("FUZZ_VERBOSE") != NULL && !TB_IS_NULL(body2)) {
			vec3s p = tbBody_GetPosition(body2), v = tbBody_GetLinearVelocity(body2);
			vec3s w = tbBody_GetAngularVelocity(body2);
			fprintf(stderr, "step %d: p %g %g %g v %g %g %g w %g %g %g mass %g\n", i, (double)p.x,
			        (double)p.y, (double)p.z, (double)v.x, (double)v.y, (double)v.z, (double)w.x,
			        (double)w.y, (double)w.z, (double)tbBody_GetMass(body2));
		}
	}
	if (!TB_IS_NULL(body2)) {
		FUZZ_CHECK(fuzzFinite3(tbBody_GetPosition(body2)), "dynamic body position not finite");
	}
	tbDestroyWorld(world);
	tbDestroyHull(&hull);
	tbDestroyHull(&hull2);
	return 0;
}
