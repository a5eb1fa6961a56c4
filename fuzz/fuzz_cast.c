// libFuzzer target: ray casts against one fuzzed shape (tbRayCastShape), shape casts and times of
// impact of two fuzzed shapes (tbShapeCast, tbTimeOfImpact), and a small world of fuzzed shapes
// with a fuzzed heightfield and mesh (tbWorld_CastRayClosest, tbWorld_CastShapeClosest,
// tbWorld_OverlapShape, a few steps with continuous collision of a fast or bullet body). Checks:
// no crash or sanitizer report; a hit has a fraction in [0, maxFraction], a finite point and a
// unit normal; bodies stay finite.
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

	// Shape cast and time of impact of a second fuzzed shape against the first.
	tbHull hull3;
	memset(&hull3, 0, sizeof hull3);
	tbGeometry moving = fuzzShape(&r, &hull3);
	tbTransform from = fuzzPose(&r), to = fuzzPose(&r);
	vec3s sweepBy = fuzzVec3(&r);
	tbCastOutput cast = tbShapeCast(&shape, xf, &moving, from, sweepBy, maxFraction);
	if (cast.hit) {
		FUZZ_CHECK(cast.fraction >= 0.0f && cast.fraction <= maxFraction, "cast fraction %g of %g",
		           (double)cast.fraction, (double)maxFraction);
		FUZZ_CHECK(fuzzFinite3(cast.point) && fuzzUnit3(cast.normal), "cast point or normal");
	}
	tbToiInput toiIn = tbDefaultToiInput();
	toiIn.shapeA = &shape;
	toiIn.sweepA = tbMakeSweep(xf, fuzzPose(&r), fuzzVec3(&r));
	toiIn.shapeB = &moving;
	toiIn.sweepB = tbMakeSweep(from, to, fuzzVec3(&r));
	toiIn.targetSeparation = fuzzFloat(&r);
	tbToiOutput toi = tbTimeOfImpact(&toiIn);
	FUZZ_CHECK(toi.state == tb_toiFailed || (toi.fraction >= 0.0f && toi.fraction <= 1.0f),
	           "time of impact %g (state %d)", (double)toi.fraction, (int)toi.state);
	FUZZ_CHECK(toi.iterations <= 64, "%d advancement steps", toi.iterations);

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
	// Level geometry from fuzzed numbers: a 3 x 3 heightfield and a two-triangle mesh (refused
	// when bad, simulated when accepted).
	float heights[9];
	for (int k = 0; k < 9; ++k) {
		heights[k] = fuzzFloat(&r);
	}
	vec3s corners[4] = {fuzzVec3(&r), fuzzVec3(&r), fuzzVec3(&r), fuzzVec3(&r)};
	const int triangles[6] = {0, 1, 2, 0, 2, 3};
	float dx = fuzzFloat(&r), dz = fuzzFloat(&r);
	tbHeightfield field;
	tbMesh mesh;
	bool haveField = tbBuildHeightfield(heights, 3, 3, dx, dz, &field, NULL, 0);
	bool haveMesh = tbBuildMesh(corners, 4, triangles, 2, &mesh, NULL, 0);
	tbBodyDef ld = tbDefaultBodyDef();
	ld.position = fuzzVec3(&r);
	tbBodyId level = tbCreateBody(world, &ld);
	if (!TB_IS_NULL(level)) {
		tbShapeDef sd = tbDefaultShapeDef();
		if (haveField) {
			tbGeometry g = tbMakeHeightfieldShape(&field);
			(void)tbCreateShape(level, &sd, &g);
		}
		if (haveMesh) {
			tbGeometry g = tbMakeMeshShape(&mesh);
			(void)tbCreateShape(level, &sd, &g);
		}
	}
	if (!TB_IS_NULL(body2)) {
		// Fast (continuous collision), and maybe a bullet.
		tbBody_SetLinearVelocity(body2, fuzzVec3(&r));
		tbBody_SetBullet(body2, (fuzzByte(&r) & 1) != 0);
	}
	tbRayResult swept =
	    tbWorld_CastShapeClosest(world, &moving, from, sweepBy, tbDefaultQueryFilter());
	if (swept.hit) {
		FUZZ_CHECK(swept.fraction >= 0.0f && swept.fraction <= 1.0f, "world cast fraction %g",
		           (double)swept.fraction);
		FUZZ_CHECK(fuzzFinite3(swept.point) && fuzzUnit3(swept.normal),
		           "world cast point or normal");
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
	FUZZ_CHECK(overlaps <= 4, "%d overlaps of 4 shapes", overlaps);
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
	if (haveField) {
		tbDestroyHeightfield(&field);
	}
	if (haveMesh) {
		tbDestroyMesh(&mesh);
	}
	tbDestroyHull(&hull);
	tbDestroyHull(&hull2);
	tbDestroyHull(&hull3);
	return 0;
}
