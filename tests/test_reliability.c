// Reliability regressions (the fuzzing and misuse findings): the supported ranges of
// docs/ranges.md enforced at every entry and simulated inside them, tbCollideShapes and
// tbRayCastShape on bad input, contact events that stay valid while bodies are destroyed, ids
// that never alias (world generations, no 16-bit wrap), every tbWorldDef field checked, and the
// scene loader's line numbers and linear-time rain placement. Reproducer files: data/reliability/.
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world_scenes.h"

#define DATA(name) TB_TEST_DATA_DIR "/reliability/" name

static const float kDt = 1.0f / 60.0f;

static bool loadScene(const char* path, tbScene* scene, tbSceneError* error)
{
	memset(error, 0, sizeof *error);
	return tbLoadScene(path, scene, error);
}

#define expectMessage(text, expected)                                                              \
	cr_expect(strstr((text), (expected)) != NULL, "message '%s' lacks '%s'", (text), (expected))

// ---------------------------------------------------------------------------------------------
// Tiny sizes and masses: the scale-free inertia check (det(I) underflowed float and asserted).

Test(ranges, tiny_box_falls_freely_with_its_analytic_mass)
{
	// tiny_box.json: one box of half extent 1e-6 m at y = 1, density 1000, 600 steps of 1/60 s.
	tbScene scene;
	tbSceneError error;
	cr_assert(loadScene(DATA("tiny_box.json"), &scene, &error), "%s", error.message);
	tbBodyId box = scene.bodyIds[0];
	// m = rho (2h)^3 = 1000 * 8e-18 kg.
	cr_expect(fabsf(tbBody_GetMass(box) - 8e-15f) < 1e-6f * 8e-15f, "mass %g",
	          (double)tbBody_GetMass(box));
	int steps = 120;
	for (int i = 0; i < steps; ++i) {
		cr_assert(tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps));
	}
	// Free fall: v = g t exactly for any of the integrators (constant force); y within the
	// integrator's O(dt) error of 1 - g t^2 / 2.
	float t = (float)steps * scene.def.dt;
	vec3s v = tbBody_GetLinearVelocity(box);
	vec3s p = tbBody_GetPosition(box);
	cr_expect(fabsf(v.y + 9.81f * t) < 1e-4f * 9.81f * t, "v %g, expected %g", (double)v.y,
	          (double)(-9.81f * t));
	float y = 1.0f - 0.5f * 9.81f * t * t;
	cr_expect(fabsf(p.y - y) < 0.01f * fabsf(1.0f - y), "y %g, expected %g", (double)p.y,
	          (double)y);
	tbDestroyScene(&scene);
}

Test(ranges, tiny_box_rests_on_the_ground)
{
	// tiny_box_release.json: a box of half extent 1e-4 m released 1 mm above the ground (top
	// y = 0), spinning about y. It must land and rest with its centre near y = 1e-4.
	tbScene scene;
	tbSceneError error;
	cr_assert(loadScene(DATA("tiny_box_release.json"), &scene, &error), "%s", error.message);
	tbBodyId tiny = scene.bodyIds[1];
	cr_expect(fabsf(tbBody_GetMass(tiny) - 8e-9f) < 1e-6f * 8e-9f);
	for (int i = 0; i < scene.def.steps; ++i) {
		cr_assert(tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps));
	}
	vec3s p = tbBody_GetPosition(tiny);
	cr_assert(finite3(p));
	// Soft contacts let it sink by less than its own half size; it must not fall through.
	cr_expect(p.y > 0.0f && p.y < 2e-4f, "centre at y = %g m", (double)p.y);
	cr_expect(dist3(tbBody_GetLinearVelocity(tiny), v3(0.0f, 0.0f, 0.0f)) < 1e-3f);
	tbDestroyScene(&scene);
}

Test(ranges, mass_check_is_scale_free)
{
	// Boxes of half extent L and density 1000 over the whole length range: det(I) ~ (m L^2)^3
	// underflows float below L ~ 1e-5, the check (eigenvalues of I / max entry) does not.
	float lengths[] = {1e-6f, 1e-4f, 1.0f, 1e3f, 1e6f};
	for (int i = 0; i < 5; ++i) {
		float h = lengths[i];
		tbGeometry box = tbMakeBox(h, h, h);
		tbMassError err;
		tbMassData m = tbComputeMass(&box, 1000.0f, &err);
		cr_assert_eq(err, tb_massOk);
		char message[160] = "";
		cr_expect(tbMassData_IsValid(&m, message, sizeof message), "L %g: %s", (double)h, message);
		// The body's inverse inertia: 1 / (m (2 h^2) / 3), computed without a determinant.
		tbRigidBody body =
		    tbMakeBody(tb_dynamicBody, m, v3(0.0f, 0.0f, 0.0f), glms_mat3_identity());
		double inertia = (double)m.mass * 2.0 * (double)h * (double)h / 3.0;
		double inverse = (double)body.IbodyInv.col[0].raw[0];
		cr_expect(fabs(inverse * inertia - 1.0) < 1e-5, "L %g: I^-1 %g, expected %g", (double)h,
		          inverse, 1.0 / inertia);
	}
	tbMassData bad = {0};
	bad.mass = 1e-30f; // below TB_MIN_MASS
	bad.inertia = glms_mat3_scale(glms_mat3_identity(), 1e-30f);
	char message[160];
	cr_expect_not(tbMassData_IsValid(&bad, message, sizeof message));
	expectMessage(message, "mass 1e-30 kg is outside");
	// A rod whose smallest principal moment is 1e-8 of its largest.
	bad.mass = 1.0f;
	bad.inertia = glms_mat3_identity();
	bad.inertia.col[1].raw[1] = 1e-8f;
	cr_expect_not(tbMassData_IsValid(&bad, message, sizeof message));
	expectMessage(message, "too thin");
	// Not positive definite: a rotated diag(1, 1, -0.1).
	bad.inertia = glms_mat3_identity();
	bad.inertia.col[0].raw[0] = 0.45f;
	bad.inertia.col[2].raw[2] = 0.45f;
	bad.inertia.col[0].raw[2] = 0.55f;
	bad.inertia.col[2].raw[0] = 0.55f;
	cr_expect_not(tbMassData_IsValid(&bad, NULL, 0));
}

// ---------------------------------------------------------------------------------------------
// The supported ranges (docs/ranges.md), enforced at every entry.

Test(ranges, shape_validation_limits)
{
	char message[200];
	tbGeometry ok[] = {tbMakeBox(1e-6f, 1e-6f, 1e-6f), tbMakeBox(1e6f, 1e6f, 1e6f),
	                   tbMakeSphere(1e-6f), tbMakeCapsule(1e-6f, 0.0f), tbMakeCone(1e6f, 1e6f)};
	for (int i = 0; i < 5; ++i) {
		cr_expect(tbGeometry_Validate(&ok[i], message, sizeof message), "%d: %s", i, message);
	}
	tbGeometry small = tbMakeBox(1.0f, 0.9e-6f, 1.0f);
	cr_expect_not(tbGeometry_Validate(&small, message, sizeof message));
	expectMessage(message, "box half extent: 9e-07 m (scale included) is outside [1e-06, 1e+06]");
	tbGeometry large = tbMakeSphere(1.1e6f);
	cr_expect_not(tbGeometry_Validate(&large, message, sizeof message));
	expectMessage(message, "sphere radius");
	// A denormal but positive scale passed before and gave NaN contact points.
	tbGeometry squashed = tbMakeBox(1.0f, 1.0f, 1.0f);
	squashed.scale = v3(1.0f, 1e-40f, 1.0f);
	cr_expect_not(tbGeometry_Validate(&squashed, message, sizeof message));
	expectMessage(message, "scale: (1, 9.99995e-41, 1) has a component outside [1e-06, 1e+06]");
	// Fuzz: a capsule of raw half height 5.9e37 squashed by a scale of 1.8e-43 to 1e-5 m passed
	// as a scaled length and broke unified EPA: raw lengths must be in range too.
	tbGeometry rod = tbMakeCapsule(1.8f, 5.9e37f);
	rod.scale = v3(1.0f, 1.0f, 1.0f);
	cr_expect_not(tbGeometry_Validate(&rod, message, sizeof message));
	expectMessage(message, "(unscaled)");
	tbGeometry thin = tbMakeBox(1.0f, 1e7f, 1.0f);
	thin.scale = v3(1.0f, 1e-4f, 1.0f); // 1e3 m scaled, but 1e7 m unscaled
	cr_expect_not(tbGeometry_Validate(&thin, message, sizeof message));
	// A triangle collapsed to a point is a point, a valid shape like a one-point hull (every
	// query answers it); one collapsed to a sliver below the range is refused.
	tbGeometry point = tbMakeTriangle(v3(1, 2, 3), v3(1, 2, 3), v3(1, 2, 3));
	cr_expect(tbGeometry_Validate(&point, message, sizeof message), "%s", message);
	tbGeometry sliver = tbMakeTriangle(v3(0, 0, 0), v3(0, 0, 1e-7f), v3(0, 0, 0));
	cr_expect_not(tbGeometry_Validate(&sliver, message, sizeof message));
	expectMessage(message, "triangle longest edge");
	tbGeometry far = tbMakeTriangle(v3(2e6f, 0, 0), v3(0, 1, 0), v3(0, 0, 1));
	cr_expect_not(tbGeometry_Validate(&far, message, sizeof message));
	// A one-point hull is a point shape; a hull farther than 1e6 m from its origin is not.
	vec3s pts[1] = {v3(0.0f, 0.0f, 0.0f)};
	tbHull hull;
	cr_assert_eq(tbBuildHull(pts, 1, &hull, NULL), tb_hullOk);
	tbGeometry onePoint = tbMakeHullShape(&hull);
	cr_expect(tbGeometry_Validate(&onePoint, message, sizeof message), "%s", message);
	tbDestroyHull(&hull);
}

Test(ranges, api_entries_refuse_out_of_range_input)
{
	tbWorldId world = makeWorld(false);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = v3(3.4e38f, 0.0f, 0.0f);
	tbClearLastError();
	cr_expect(TB_IS_NULL(tbCreateBody(world, &bd)));
	expectMessage(tbGetLastError(),
	              "def->position (3.4e+38, 0, 0) is NaN, Inf or beyond +-1e+06 m");
	bd.position = v3(0.0f, 1.0f, 0.0f);
	tbBodyId body = tbCreateBody(world, &bd);
	cr_assert_not(TB_IS_NULL(body));
	tbBody_SetTransform(body, v3(0.0f, -2e6f, 0.0f), quatIdentity());
	expectMessage(tbGetLastError(), "tbBody_SetTransform: position");
	cr_expect_float_eq(tbBody_GetPosition(body).y, 1.0f, 1e-6f);

	// A shape whose mass overflows float was a weightless 1 kg body: now it is refused, and the
	// body keeps the mass of its other shape.
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry unit = tbMakeBox(0.5f, 0.5f, 0.5f);
	cr_assert_not(TB_IS_NULL(tbCreateShape(body, &sd, &unit)));
	cr_expect_float_eq(tbBody_GetMass(body), 1000.0f, 1e-3f);
	sd.density = 3e38f;
	tbGeometry big = tbMakeBox(2.0f, 2.0f, 2.0f);
	tbClearLastError();
	cr_expect(TB_IS_NULL(tbCreateShape(body, &sd, &big)));
	expectMessage(tbGetLastError(), "mass");
	cr_expect_float_eq(tbBody_GetMass(body), 1000.0f, 1e-3f);
	// Heavy but in float, and above TB_MAX_MASS: refused too.
	sd.density = 1e24f;
	cr_expect(TB_IS_NULL(tbCreateShape(body, &sd, &big)));
	expectMessage(tbGetLastError(), "is outside [1e-21, 1e+25] kg");
	// A static body has no mass: any finite density is fine there.
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId ground = tbCreateBody(world, &gd);
	cr_expect_not(TB_IS_NULL(tbCreateShape(ground, &sd, &big)));
	// The shape offset counts as a length.
	tbShapeDef offset = tbDefaultShapeDef();
	offset.localPose.p = v3(0.0f, 2e6f, 0.0f);
	cr_expect(TB_IS_NULL(tbCreateShape(ground, &offset, &unit)));
	for (int i = 0; i < 10; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	cr_expect(finite3(tbBody_GetPosition(body)));
	tbDestroyWorld(world);
}

static tbSceneError sceneFailure(const char* text)
{
	tbSceneDef def;
	tbSceneError error;
	memset(&error, 0, sizeof error);
	bool ok = tbParseScene(text, strlen(text), "bad.json", &def, &error);
	cr_assert_not(ok, "accepted: %s", text);
	return error;
}

Test(ranges, scene_entries_refuse_out_of_range_input)
{
	tbSceneError e =
	    sceneFailure("{\"bodies\": [\n"
	                 " {\"position\": [3.4e38, 0, 0],\n"
	                 "  \"shape\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]}}]}");
	cr_expect_eq(e.line, 2);
	expectMessage(e.message, "bodies[0].position");
	expectMessage(e.message, "within +-1e6 m");
	e = sceneFailure("{\"bodies\": [\n"
	                 " {\"density\": 3e38,\n"
	                 "  \"shape\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]}}]}");
	expectMessage(e.message, "mass is out of range");
	e = sceneFailure("{\"bodies\": [\n"
	                 " {\"mass\": 1e-30,\n"
	                 "  \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	expectMessage(e.message, "mass 1e-30 kg is outside");
	// fuzz_tiny_extent_assert.json: a ground of half extent 1e-45 (a denormal) asserted.
	tbSceneDef def;
	cr_assert_not(tbReadSceneFile(DATA("fuzz_tiny_extent_assert.json"), &def, &e));
	cr_expect_eq(e.line, 24, "line %d: %s", e.line, e.message);
	expectMessage(e.message, "bodies[0].shape: box half extent: 1.4013e-45 m");
	// huge_ground_uepa.json: a 1e18 m ground read uninitialised polytope faces in unified EPA.
	cr_assert_not(tbReadSceneFile(DATA("huge_ground_uepa.json"), &def, &e));
	expectMessage(e.message, "within +-1e6 m");
	// fuzz_pyramid_gap.json (scene fuzzer): a pyramid with gap 1e38 put its cubes at infinity;
	// a stack of 100,000 cubes of half extent 1e3 would reach 2e8 m.
	cr_assert_not(tbReadSceneFile(DATA("fuzz_pyramid_gap.json"), &def, &e));
	cr_expect_eq(e.line, 3, "line %d: %s", e.line, e.message);
	expectMessage(e.message, "generators[0]: the pyramid reaches");
	e = sceneFailure("{\"generators\": [\n"
	                 " {\"type\": \"stack\", \"count\": 100000, \"half_extent\": 1000}]}");
	expectMessage(e.message, "generators[0]: the stack reaches");
	expectMessage(e.message, "beyond +-1e+06 m");
	// The same generators within the range load.
	const char* fine = "{\"generators\": [\n"
	                   " {\"type\": \"stack\", \"count\": 499, \"half_extent\": 1000}]}";
	cr_expect(tbParseScene(fine, strlen(fine), "fine.json", &def, &e), "%s", e.message);
	tbFreeSceneDef(&def);
}

Test(ranges, scene_axis_of_1e20_is_a_rotation)
{
	// axis_overflow.json: axis [1e20, 0, 0], 90 degrees. Its float norm overflowed and the body
	// silently got the identity rotation; the answer is q = (sin 45, 0, 0, cos 45).
	tbSceneDef def;
	tbSceneError e;
	cr_assert(tbReadSceneFile(DATA("axis_overflow.json"), &def, &e), "%s", e.message);
	versors q = def.bodies[0].rotation;
	float h = sqrtf(0.5f);
	cr_expect(fabsf(q.x - h) < 1e-6f && fabsf(q.y) < 1e-6f && fabsf(q.z) < 1e-6f &&
	              fabsf(q.w - h) < 1e-6f,
	          "q %g %g %g %g", (double)q.x, (double)q.y, (double)q.z, (double)q.w);
	tbFreeSceneDef(&def);
	// And a denormal axis is a direction too: 90 degrees about [0, 1e-40, 0].
	const char* text = "{\"bodies\": [{\"rotation\": {\"axis\": [0, 1e-40, 0], \"angle_deg\": 90},"
	                   " \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}";
	cr_assert(tbParseScene(text, strlen(text), "axis.json", &def, &e), "%s", e.message);
	q = def.bodies[0].rotation;
	cr_expect(fabsf(q.y - h) < 1e-6f && fabsf(q.w - h) < 1e-6f, "q %g %g %g %g", (double)q.x,
	          (double)q.y, (double)q.z, (double)q.w);
	tbFreeSceneDef(&def);
}

Test(ranges, queries_answer_at_the_range_ends_and_refuse_beyond)
{
	// Two axis-aligned boxes of half extent h, a gap of h between them along x: distance h,
	// normal +x, with both algorithms, at both ends of the length range.
	float sizes[] = {1e-6f, 1e6f};
	for (int s = 0; s < 2; ++s) {
		float h = sizes[s];
		tbGeometry box = tbMakeBox(h, h, h);
		tbTransform xa = {v3(0.0f, 0.0f, 0.0f), quatIdentity()};
		tbTransform xb = {v3(3.0f * h, 0.0f, 0.0f), quatIdentity()};
		for (int alg = 0; alg < 2; ++alg) {
			tbQueryDef def = tbDefaultQueryDef();
			def.algorithm = (tbQueryAlgorithm)alg;
			tbQueryResult r = tbQueryShapes(&box, xa, &box, xb, &def);
			cr_expect_neq(r.status, tb_queryInvalidInput);
			cr_expect(fabsf(r.distance - h) < 1e-4f * h, "h %g alg %d: distance %g", (double)h, alg,
			          (double)r.distance);
			cr_expect(fabsf(r.normal.x - 1.0f) < 1e-4f, "h %g alg %d: normal x %g", (double)h, alg,
			          (double)r.normal.x);
			// Overlapping by h/2: depth h/2.
			tbTransform xc = {v3(1.5f * h, 0.0f, 0.0f), quatIdentity()};
			r = tbQueryShapes(&box, xa, &box, xc, &def);
			cr_expect(fabsf(r.distance + 0.5f * h) < 1e-4f * h, "h %g alg %d: depth %g", (double)h,
			          alg, (double)r.distance);
		}
	}
	// Outside the range: refused, never a success with a zero normal.
	tbGeometry tiny = tbMakeBox(1e-8f, 1e-8f, 1e-8f);
	tbGeometry huge = tbMakeBox(1e9f, 1e9f, 1e9f);
	tbTransform origin = {v3(0.0f, 0.0f, 0.0f), quatIdentity()};
	tbTransform near = {v3(1.5e-8f, 0.0f, 0.0f), quatIdentity()};
	tbTransform far = {v3(5e17f, 0.0f, 0.0f), quatIdentity()};
	tbQueryDef def = tbDefaultQueryDef();
	def.algorithm = tb_algorithmUnifiedEpa;
	cr_expect_eq(tbQueryShapes(&tiny, origin, &tiny, near, &def).status, tb_queryInvalidInput);
	cr_expect_eq(tbQueryShapes(&huge, origin, &huge, far, &def).status, tb_queryInvalidInput);
	tbGeometry unit = tbMakeBox(1.0f, 1.0f, 1.0f);
	cr_expect_eq(tbQueryShapes(&unit, origin, &unit, far, &def).status, tb_queryInvalidInput);
}

Test(ranges, degenerate_pairs_never_give_a_bad_normal)
{
	// Fuzz findings: two one-point hulls at the same place (zero normal from GJK-EPA, an index
	// out of bounds in unified EPA), and a sphere and a capsule whose centres are 1e-22 m apart
	// (a normal of length 0.97 from a denormal difference). Every answer is refused or has a
	// unit normal and finite witnesses.
	vec3s p[1] = {v3(1.0f, 1.0f, 1.0f)};
	tbHull hull;
	cr_assert_eq(tbBuildHull(p, 1, &hull, NULL), tb_hullOk);
	tbGeometry point = tbMakeHullShape(&hull);
	tbGeometry sphere = tbMakeSphere(0.0215f);
	tbGeometry capsule = tbMakeCapsule(2.34e-5f, 0.0f);
	tbTransform origin = {v3(0.0f, 0.0f, 0.0f), quatIdentity()};
	tbTransform tiny = {v3(-3.2e-23f, 4e-43f, 9.8e-23f), quatIdentity()};
	tbTransform tinyOrigin = {v3(3.19e-23f, 3.19e-23f, 3.19e-23f), quatIdentity()};
	const tbGeometry* pairs[3][2] = {{&point, &point}, {&sphere, &capsule}, {&point, &point}};
	tbTransform poses[3][2] = {{origin, origin}, {tiny, origin}, {tinyOrigin, tinyOrigin}};
	for (int i = 0; i < 3; ++i) {
		for (int alg = 0; alg < 2; ++alg) {
			tbQueryDef def = tbDefaultQueryDef();
			def.algorithm = (tbQueryAlgorithm)alg;
			tbQueryResult r =
			    tbQueryShapes(pairs[i][0], poses[i][0], pairs[i][1], poses[i][1], &def);
			if (r.status != tb_queryInvalidInput) {
				float n2 = glms_vec3_dot(r.normal, r.normal);
				cr_expect(fabsf(n2 - 1.0f) < 1e-4f, "pair %d alg %d: |n|^2 %g", i, alg, (double)n2);
				cr_expect(isfinite(r.distance) && finite3(r.pointA) && finite3(r.pointB));
			}
		}
		tbManifold m = tbCollideShapes(pairs[i][0], poses[i][0], pairs[i][1], poses[i][1], 0.02f);
		cr_expect(fabsf(glms_vec3_dot(m.normal, m.normal) - 1.0f) < 1e-4f);
	}
	tbDestroyHull(&hull);

	// Fuzz: quaternions off unit by 7e-4 (accepted, to 1e-3) gave world normals of length
	// 0.9988 and 1.0008; they are made unit first. A sphere above a box: normal +y exactly.
	tbGeometry ball = tbMakeSphere(0.5f);
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	float k = sqrtf(0.9993f);  // |q|^2 = 0.9993
	float h = k * sqrtf(0.5f); // 90 degrees about x (the cube maps onto itself), times k
	tbTransform xfBox = {v3(0.0f, 0.0f, 0.0f), (versors){{h, 0.0f, 0.0f, h}}};
	tbTransform xfBall = {v3(0.0f, 1.4f, 0.0f), (versors){{0.0f, h, 0.0f, h}}};
	for (int alg = 0; alg < 2; ++alg) {
		tbQueryDef def = tbDefaultQueryDef();
		def.algorithm = (tbQueryAlgorithm)alg;
		tbQueryResult r = tbQueryShapes(&box, xfBox, &ball, xfBall, &def);
		cr_expect(fabsf(r.normal.y - 1.0f) < 1e-5f, "alg %d: normal y %g", alg, (double)r.normal.y);
		cr_expect(fabsf(r.distance + 0.1f) < 1e-5f, "alg %d: depth %g", alg, (double)r.distance);
	}
	tbManifold m = tbCollideShapes(&box, xfBox, &ball, xfBall, 0.02f);
	cr_expect(fabsf(m.normal.y - 1.0f) < 1e-5f, "manifold normal y %g", (double)m.normal.y);
	tbCastOutput out =
	    tbRayCastShape(&box, xfBox, v3(0.0f, 5.0f, 0.0f), v3(0.0f, -10.0f, 0.0f), 1.0f);
	cr_expect(out.hit && fabsf(out.normal.y - 1.0f) < 1e-5f && fabsf(out.fraction - 0.4f) < 1e-4f);
}

// ---------------------------------------------------------------------------------------------
// tbCollideShapes and tbRayCastShape on bad input.

static void expectEmptyManifold(tbManifold m, const char* what)
{
	cr_expect_eq(m.pointCount, 0, "%s: %d points", what, m.pointCount);
	float n2 = glms_vec3_dot(m.normal, m.normal);
	cr_expect(fabsf(n2 - 1.0f) < 1e-6f, "%s: normal not unit", what);
}

Test(collide, bad_poses_and_shapes_give_an_empty_manifold)
{
	tbGeometry box = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbGeometry sphere = tbMakeSphere(0.5f);
	tbTransform good = {v3(0.0f, 0.0f, 0.0f), quatIdentity()};
	tbTransform above = {v3(0.0f, 0.9f, 0.0f), quatIdentity()};
	// The good pair: one point, depth 0.1, normal +y (box top at 0.5, sphere bottom at 0.4).
	tbManifold m = tbCollideShapes(&box, good, &sphere, above, 0.02f);
	cr_assert_eq(m.pointCount, 1);
	cr_expect(fabsf(m.points[0].separation + 0.1f) < 1e-5f);
	cr_expect(fabsf(m.normal.y - 1.0f) < 1e-5f);

	tbTransform nanPos = {v3(NAN, 0.0f, 0.0f), quatIdentity()};
	tbTransform zeroQ = {v3(0.0f, 0.9f, 0.0f), (versors){{0.0f, 0.0f, 0.0f, 0.0f}}};
	tbTransform longQ = {v3(0.0f, 0.9f, 0.0f), (versors){{0.0f, 0.0f, 0.0f, 2.0f}}};
	expectEmptyManifold(tbCollideShapes(&box, nanPos, &sphere, above, 0.02f), "NaN position");
	expectEmptyManifold(tbCollideShapes(&box, good, &sphere, zeroQ, 0.02f), "zero quaternion");
	expectEmptyManifold(tbCollideShapes(&box, longQ, &sphere, above, 0.02f), "non-unit quat");
	expectEmptyManifold(tbCollideShapes(&box, good, &sphere, above, NAN), "NaN distance");
	tbGeometry squashed = box;
	squashed.scale = v3(1.0f, 1e-40f, 1.0f);
	expectEmptyManifold(tbCollideShapes(&squashed, good, &sphere, above, 0.02f), "denormal scale");

	// A one-point hull at a sphere's centre: touching with no defined normal. Whatever the
	// manifold, its normal is a unit vector and its points finite (it was a zero normal).
	vec3s p[1] = {v3(0.0f, 0.9f, 0.0f)};
	tbHull hull;
	cr_assert_eq(tbBuildHull(p, 1, &hull, NULL), tb_hullOk);
	tbGeometry point = tbMakeHullShape(&hull);
	m = tbCollideShapes(&point, good, &sphere, above, 0.02f);
	cr_expect(fabsf(glms_vec3_dot(m.normal, m.normal) - 1.0f) < 1e-5f, "normal %g %g %g",
	          (double)m.normal.x, (double)m.normal.y, (double)m.normal.z);
	for (int i = 0; i < m.pointCount; ++i) {
		cr_expect(finite3(m.points[i].pointA) && finite3(m.points[i].pointB));
	}
	tbDestroyHull(&hull);
}

Test(raycast, empty_or_nan_segments_hit_nothing)
{
	tbGeometry sphere = tbMakeSphere(1.0f);
	tbTransform xf = {v3(0.0f, 0.0f, 0.0f), quatIdentity()};
	// The origin is 1e-5 above the surface, inside the cast's tolerance (1e-4 of the size): a
	// cast of length 0 reported a hit at fraction 0 at the surface point, off the ray.
	vec3s origin = v3(0.0f, 1.00001f, 0.5f);
	origin = glms_vec3_scale(origin, 1.00001f / glms_vec3_norm(origin));
	vec3s translation = v3(0.0f, 0.0f, 5.0f);
	float bad[] = {0.0f, -1.0f, NAN, INFINITY};
	for (int i = 0; i < 4; ++i) {
		tbCastOutput out = tbRayCastShape(&sphere, xf, origin, translation, bad[i]);
		cr_expect_not(out.hit, "maxFraction %g: hit at %g", (double)bad[i], (double)out.fraction);
	}
	// A real cast still hits: from (0, 0, -5) along +z by 10, the sphere at fraction 0.4.
	tbCastOutput out =
	    tbRayCastShape(&sphere, xf, v3(0.0f, 0.0f, -5.0f), v3(0.0f, 0.0f, 10.0f), 1.0f);
	cr_assert(out.hit);
	cr_expect(fabsf(out.fraction - 0.4f) < 1e-4f, "fraction %g", (double)out.fraction);
	cr_expect(fabsf(out.point.z + 1.0f) < 1e-4f);
}

// ---------------------------------------------------------------------------------------------
// Contact events stay valid until the next step while bodies and shapes are destroyed.

Test(events, destroying_bodies_while_walking_end_events)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 50.0f, 0.6f);
	enum
	{
		count = 60
	};
	tbBodyId boxes[count];
	tbShapeId shapes[count];
	for (int i = 0; i < count; ++i) {
		float x = (float)(i % 10) * 2.0f - 9.0f, z = (float)(i / 10) * 2.0f - 5.0f;
		boxes[i] =
		    makeBox(world, v3(x, 0.5f, z), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
		cr_assert_eq(tbBody_GetShapes(boxes[i], &shapes[i], 1), 1);
	}
	tbWorld_Step(world, kDt, 4);
	cr_assert_eq(tbWorld_GetContactEvents(world).beginCount, count, "every box touches");
	// The first box's end event is delivered with the next step's events.
	tbDestroyBody(boxes[0]);
	cr_expect_eq(tbWorld_GetContactEvents(world).endCount, 0, "made between steps: pending");
	tbWorld_Step(world, kDt, 4);
	tbContactEvents events = tbWorld_GetContactEvents(world);
	cr_assert_eq(events.endCount, 1);
	tbContactEndTouchEvent first = events.endEvents[0];
	cr_expect(TB_ID_EQUALS(first.shapeIdB, shapes[0]) || TB_ID_EQUALS(first.shapeIdA, shapes[0]));
	// Walk the events and destroy every other body meanwhile (59 end events: more than the
	// array's room). The array read after the destruction must still be the one handed out.
	for (int i = 0; i < events.endCount; ++i) {
		for (int k = 1; k < count; ++k) {
			if (k % 2 == 0) {
				tbDestroyShape(shapes[k]);
			} else {
				tbDestroyBody(boxes[k]);
			}
		}
		const tbContactEndTouchEvent* e = events.endEvents + i; // freed memory before the fix
		cr_expect(TB_ID_EQUALS(e->shapeIdA, first.shapeIdA) &&
		          TB_ID_EQUALS(e->shapeIdB, first.shapeIdB));
	}
	// The destroyed ones arrive with the next step: one ground contact each.
	tbWorld_Step(world, kDt, 4);
	events = tbWorld_GetContactEvents(world);
	cr_expect_eq(events.endCount, count - 1);
	tbDestroyWorld(world);
}

Test(events, filter_change_end_event_arrives_with_the_next_step)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 10.0f, 0.6f);
	tbBodyId box =
	    makeBox(world, v3(0.0f, 0.5f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	tbShapeId shape;
	tbBody_GetShapes(box, &shape, 1);
	tbWorld_Step(world, kDt, 4);
	tbWorld_Step(world, kDt, 4);
	tbContactEvents before = tbWorld_GetContactEvents(world);
	cr_assert_eq(before.endCount, 0);
	tbFilter none = {1, 0, 0};
	tbShape_SetFilter(shape, none);
	cr_expect_eq(tbWorld_GetContactEvents(world).endCount, 0);
	tbWorld_Step(world, kDt, 4);
	cr_expect_eq(tbWorld_GetContactEvents(world).endCount, 1);
	tbWorld_Step(world, kDt, 4);
	cr_expect_eq(tbWorld_GetContactEvents(world).endCount, 0, "delivered once");
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Ids.

Test(ids, a_destroyed_worlds_ids_stay_stale_in_the_next_world)
{
	tbWorldId a = makeWorld(false);
	tbBodyDef bd = tbDefaultBodyDef();
	tbBodyId oldBody = tbCreateBody(a, &bd);
	tbGeometry s = tbMakeSphere(1.0f);
	tbShapeDef sd = tbDefaultShapeDef();
	tbShapeId oldShape = tbCreateShape(oldBody, &sd, &s);
	tbDestroyWorld(a);
	tbWorldId b = makeWorld(false);
	cr_assert_eq(b.index1, a.index1, "the new world takes the same slot");
	tbBodyId newBody = tbCreateBody(b, &bd);
	tbShapeId newShape = tbCreateShape(newBody, &sd, &s);
	cr_expect_eq(newBody.index1, oldBody.index1);
	cr_expect_not(tbBody_IsValid(oldBody), "an id of the destroyed world names a new body");
	cr_expect_not(tbShape_IsValid(oldShape));
	cr_expect(tbBody_IsValid(newBody) && tbShape_IsValid(newShape));
	cr_expect_not(TB_ID_EQUALS(oldBody, newBody));
	cr_expect_not(tbWorld_IsValid(a));
	tbDestroyWorld(b);
}

Test(ids, generations_do_not_wrap_after_65536_reuses)
{
	tbWorldId world = makeWorld(false);
	tbBodyDef bd = tbDefaultBodyDef();
	tbBodyId first = tbCreateBody(world, &bd);
	tbDestroyBody(first);
	// Each reuse advanced a 16-bit generation by 2: the 32768th new body had first's id.
	for (int i = 0; i < 70000; ++i) {
		tbBodyId b = tbCreateBody(world, &bd);
		cr_assert_eq(b.index1, first.index1);
		if (tbBody_IsValid(first)) {
			cr_assert_fail("reuse %d: the first id names a new body", i);
		}
		tbDestroyBody(b);
	}
	tbDestroyWorld(world);
	// World slots: 70,000 worlds in one slot; the first world's id stays stale.
	tbWorldId w0 = makeWorld(false);
	tbDestroyWorld(w0);
	for (int i = 0; i < 70000; ++i) {
		tbWorldId w = makeWorld(false);
		cr_assert_eq(w.index1, w0.index1);
		if (tbWorld_IsValid(w0)) {
			cr_assert_fail("world %d has the first world's id", i);
		}
		tbDestroyWorld(w);
	}
}

// ---------------------------------------------------------------------------------------------
// tbCreateWorld checks every field.

static void expectRefusedWorld(tbWorldDef def, const char* field)
{
	tbClearLastError();
	tbWorldId w = tbCreateWorld(&def);
	cr_expect(TB_IS_NULL(w), "%s: accepted", field);
	expectMessage(tbGetLastError(), field);
	if (!TB_IS_NULL(w)) {
		tbDestroyWorld(w);
	}
}

static void* failingAlloc(size_t size, int alignment)
{
	(void)size;
	(void)alignment;
	return NULL;
}

static void plainFree(void* memory, size_t size)
{
	(void)size;
	free(memory);
}

Test(world_def, every_field_is_checked)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.speculativeDistance = NAN;
	expectRefusedWorld(def, "speculativeDistance");
	def = tbDefaultWorldDef();
	def.aabbMargin = -0.1f;
	expectRefusedWorld(def, "aabbMargin");
	def = tbDefaultWorldDef();
	def.timeToSleep = -1.0f;
	expectRefusedWorld(def, "timeToSleep");
	def = tbDefaultWorldDef();
	def.sleepThreshold = INFINITY;
	expectRefusedWorld(def, "sleepThreshold");
	def = tbDefaultWorldDef();
	def.contactHertz = 0.0f;
	expectRefusedWorld(def, "contactHertz");
	def = tbDefaultWorldDef();
	def.contactDampingRatio = NAN;
	expectRefusedWorld(def, "contactDampingRatio");
	def = tbDefaultWorldDef();
	def.contactPushMaxSpeed = -1.0f;
	expectRefusedWorld(def, "contactPushMaxSpeed");
	def = tbDefaultWorldDef();
	def.restitutionThreshold = NAN;
	expectRefusedWorld(def, "restitutionThreshold");
	def = tbDefaultWorldDef();
	def.integrator = (tbIntegrator)17;
	expectRefusedWorld(def, "integrator");
	def = tbDefaultWorldDef();
	def.iterations = -3;
	expectRefusedWorld(def, "iterations");
	def = tbDefaultWorldDef();
	def.relaxIterations = 1 << 30;
	expectRefusedWorld(def, "relaxIterations");
	def = tbDefaultWorldDef();
	def.initialBodyCapacity = (1 << 30) + 1; // overflowed a signed int and hung
	expectRefusedWorld(def, "initialBodyCapacity");
	def = tbDefaultWorldDef();
	def.initialShapeCapacity = -5;
	expectRefusedWorld(def, "initialShapeCapacity");
	def = tbDefaultWorldDef();
	def.gravity = v3(0.0f, NAN, 0.0f);
	expectRefusedWorld(def, "gravity");
	// The defaults and the largest capacities are accepted.
	def = tbDefaultWorldDef();
	tbWorldId w = tbCreateWorld(&def);
	cr_expect_not(TB_IS_NULL(w), "%s", tbGetLastError());
	tbDestroyWorld(w);
}

Test(world_def, a_failed_allocation_is_an_error)
{
	tbSetAllocator(failingAlloc, plainFree);
	tbWorldDef def = tbDefaultWorldDef();
	tbClearLastError();
	tbWorldId w = tbCreateWorld(&def);
	tbSetAllocator(NULL, NULL);
	cr_expect(TB_IS_NULL(w));
	expectMessage(tbGetLastError(), "out of memory");
}

// ---------------------------------------------------------------------------------------------
// Scene loader: line numbers with control bytes, rain placement.

Test(scene_reliability, control_bytes_as_whitespace_keep_line_numbers)
{
	// ctrl_whitespace.json: a form feed and a vertical tab on line 1 (cJSON skips every byte
	// <= 0x20); the bad half extent is on line 3.
	tbSceneDef def;
	tbSceneError e;
	cr_assert_not(tbReadSceneFile(DATA("ctrl_whitespace.json"), &def, &e));
	cr_expect_eq(e.line, 3, "line %d: %s", e.line, e.message);
	expectMessage(e.message, "bodies[1].shape.half_extents");
}

Test(scene_reliability, rain_placement_has_no_overlap)
{
	// The grid hash must find every conflict the all-pairs test found: check the placement of
	// 2000 cubes (bounding radius sqrt(3)/2) and 200 balls (23 % of the region) against all pairs.
	const char* text = "{\"generators\": [{\"type\": \"rain\", \"count\": 200, \"seed\": 6,"
	                   " \"shape\": {\"type\": \"sphere\", \"radius\": 1.5},"
	                   " \"region_min\": [-30, 0, -30], \"region_max\": [30, 10, 30]},"
	                   " {\"type\": \"rain\", \"count\": 2000, \"seed\": 5,"
	                   " \"shape\": {\"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5]},"
	                   " \"region_min\": [-30, 0, -30], \"region_max\": [30, 10, 30]}]}";
	tbSceneDef def;
	tbSceneError e;
	cr_assert(tbParseScene(text, strlen(text), "rain.json", &def, &e), "%s", e.message);
	cr_assert_eq(def.bodyCount, 2200);
	int overlaps = 0;
	for (int i = 0; i < def.bodyCount; ++i) {
		float ri = tbGeometry_BoundingRadius(&def.bodies[i].shape);
		for (int j = i + 1; j < def.bodyCount; ++j) {
			float rj = tbGeometry_BoundingRadius(&def.bodies[j].shape);
			float d = dist3(def.bodies[i].position, def.bodies[j].position);
			overlaps += d < ri + rj ? 1 : 0;
		}
	}
	cr_expect_eq(overlaps, 0);
	tbFreeSceneDef(&def);
	// Counts are capped with a clear error.
	const char* many = "{\"generators\": [{\"type\": \"rain\", \"count\": 1000000,"
	                   " \"shape\": {\"type\": \"sphere\", \"radius\": 0.5},"
	                   " \"region_min\": [-1000, 0, -1000], \"region_max\": [1000, 10, 1000]}]}";
	cr_assert_not(tbParseScene(many, strlen(many), "many.json", &def, &e));
	expectMessage(e.message, "generators[0].count");
}

Test(scene_reliability, rain_of_80000_loads)
{
	// rain_80000.json took 5 s to place (all pairs); its placement is unchanged by the grid.
	tbSceneDef def;
	tbSceneError e;
	cr_assert(tbReadSceneFile(DATA("rain_80000.json"), &def, &e), "%s", e.message);
	cr_expect_eq(def.bodyCount, 80001);
	tbFreeSceneDef(&def);
}
