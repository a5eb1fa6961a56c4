// Scene files (docs/scene-format.md): malformed files name line and key; bundled scenes load;
// short runs of the bundled bounce, incline and spinner scenes match the analytic answers.
#define _POSIX_C_SOURCE 200809L // opendir

#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tumble/tumble.h>

#define PI_D 3.14159265358979323846

// The sanitizer build (-O0, ASan) runs shorter versions of the heavy checks.
static bool isLightBuild(void)
{
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
	return true;
#else
	return false;
#endif
}

// Parse text that must fail; returns the error.
static tbSceneError parseFailure(const char* text)
{
	tbSceneDef def;
	tbSceneError error;
	bool ok = tbParseScene(text, strlen(text), "bad.json", &def, &error);
	cr_assert_not(ok, "the scene was accepted:\n%s", text);
	cr_assert_eq(def.bodyCount, 0);
	cr_assert_null(def.bodies);
	return error;
}

#define assertMessage(error, expected)                                                             \
	cr_assert(strstr((error).message, (expected)) != NULL, "message '%s' lacks '%s'",              \
	          (error).message, (expected))

// A valid body list line by line, so that a broken line has a known number.
#define GROUND_LINE                                                                                \
	"  {\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0],\n"                 \
	"   \"shape\": {\"type\": \"box\", \"half_extents\": [20, 0.5, 20]}},\n"

Test(scene_errors, bad_json_names_line_and_key)
{
	// Line 4: a missing comma between two members of bodies[1].
	tbSceneError e = parseFailure("{\"dt\": 0.01,\n"
	                              " \"bodies\": [\n" GROUND_LINE
	                              "  {\"position\": [0, 1, 0] \"shape\": {\"type\": \"sphere\","
	                              " \"radius\": 1}}\n"
	                              " ]\n"
	                              "}\n");
	cr_assert_eq(e.line, 5, "line %d: %s", e.line, e.message);
	assertMessage(e, "bad.json:5: bodies[1].position: bad JSON at '\"shape\"");
}

Test(scene_errors, truncated_and_empty_files)
{
	tbSceneError e = parseFailure("{\"bodies\": [\n" GROUND_LINE);
	assertMessage(e, "bad.json:4: bodies[1]: bad JSON: the text ends early");
	e = parseFailure("  \n\n");
	assertMessage(e, "bad.json:1: top level: empty file");
	e = parseFailure("[1, 2]");
	assertMessage(e, "bad.json:1: top level: expected a JSON object, got an array");
	e = parseFailure("{\"dt\": 0.01} trailing");
	assertMessage(e, "bad.json:1: top level: bad JSON at 'trailing'");
}

Test(scene_errors, unknown_key)
{
	tbSceneError e = parseFailure("{\n"
	                              " \"bodies\": [\n" GROUND_LINE
	                              "  {\"shape\": {\"type\": \"sphere\", \"radius\": 1},\n"
	                              "   \"colour\": \"red\"}\n"
	                              " ]\n"
	                              "}\n");
	cr_assert_eq(e.line, 6, "%s", e.message);
	cr_assert_str_eq(e.keyPath, "bodies[1].colour");
	assertMessage(e, "bad.json:6: bodies[1].colour: unknown key 'colour' for a body (expected "
	                 "name, type, position");
	e = parseFailure("{\"gravity\": [0, -9.81, 0],\n \"dt\": 0.01,\n \"substep\": 4}");
	assertMessage(e, "bad.json:3: substep: unknown key 'substep' (expected description, gravity");
	// A key of the wrong shape type is unknown for that type, not ignored.
	e = parseFailure("{\"bodies\": [{\"shape\": {\"type\": \"sphere\", \"radius\": 1,\n"
	                 "  \"half_height\": 2}}]}");
	assertMessage(e, "bad.json:2: bodies[0].shape.half_height: unknown key 'half_height' for a "
	                 "sphere (expected type, radius)");
	e = parseFailure("{\"dt\": 0.01,\n\"dt\": 0.02, \"bodies\": []}");
	assertMessage(e, "bad.json:2: dt: duplicate key (first at line 1)");
}

Test(scene_errors, wrong_type)
{
	tbSceneError e = parseFailure("{\n \"gravity\": [0, -9.81, 0],\n \"dt\": \"fast\"\n}");
	assertMessage(e, "bad.json:3: dt: expected a number in (0, 1], got a string");
	e = parseFailure("{\"sleep\": 1}");
	assertMessage(e, "bad.json:1: sleep: expected true or false, got a number");
	e = parseFailure("{\"bodies\": [\n" GROUND_LINE "  {\"position\": [0, 1],\n"
	                 "   \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	assertMessage(e, "bad.json:4: bodies[1].position: expected 3 numbers");
	e = parseFailure("{\"substeps\": 2.5}");
	assertMessage(e, "bad.json:1: substeps: expected an integer in [1, 64], got 2.5");
	e = parseFailure("{\"bodies\": {}}");
	assertMessage(e, "bad.json:1: bodies: expected an array, got an object");
}

Test(scene_errors, negative_size_as_in_scene_md)
{
	// An example error: a negative half extent: bodies[3] on line 14.
	tbSceneError e = parseFailure("{\n"
	                              " \"gravity\": [0, -9.81, 0],\n"
	                              " \"bodies\": [\n" GROUND_LINE "  {\"position\": [0, 1, 0],\n"
	                              "   \"shape\": {\"type\": \"sphere\", \"radius\": 0.5}},\n"
	                              "  {\"position\": [0, 3, 0],\n"
	                              "   \"shape\": {\"type\": \"sphere\", \"radius\": 0.5}},\n"
	                              "  {\n"
	                              "   \"position\": [0, 5, 0],\n"
	                              "   \"shape\": {\n"
	                              "    \"type\": \"box\",\n"
	                              "    \"half_extents\": [0.5, -0.5, 0.5]\n"
	                              "   }\n"
	                              "  }\n"
	                              " ]\n"
	                              "}\n");
	cr_assert_str_eq(e.message,
	                 "bad.json:14: bodies[3].shape.half_extents: expected 3 numbers > 0");
	e = parseFailure("{\"bodies\": [{\"shape\": {\"type\": \"sphere\",\n \"radius\": -1}}]}");
	assertMessage(e, "bad.json:2: bodies[0].shape.radius: expected a number > 0, got -1");
	e = parseFailure("{\"defaults\": {\"restitution\": 1.5}}");
	assertMessage(e, "bad.json:1: defaults.restitution: expected a number in [0, 1], got 1.5");
	e = parseFailure("{\"generators\": [{\"type\": \"pyramid\", \"base\": 0}]}");
	assertMessage(e, "bad.json:1: generators[0].base: expected an integer in [1, 1000], got 0");
}

Test(scene_errors, unknown_or_bad_shape)
{
	tbSceneError e = parseFailure("{\"bodies\": [\n" GROUND_LINE
	                              "  {\"shape\": {\"type\": \"torus\", \"radius\": 1}}]}");
	assertMessage(e, "bad.json:4: bodies[1].shape.type: unknown shape 'torus' (expected sphere, "
	                 "box, capsule, cylinder, cone, hull, mesh or heightfield)");
	e = parseFailure("{\"bodies\": [{\"position\": [0, 0, 0]}]}");
	assertMessage(e, "bad.json:1: bodies[0]: missing key 'shape'");
	e = parseFailure("{\"bodies\": [{\"shape\": {\"type\": \"cone\", \"radius\": 1}}]}");
	assertMessage(e, "bad.json:1: bodies[0].shape: missing key 'half_height'");
	// Four points in one plane: a hull with no volume cannot be a dynamic body's shape.
	e = parseFailure("{\"bodies\": [{\"shape\": {\"type\": \"hull\", \"points\":\n"
	                 "  [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]]}}]}");
	assertMessage(e, "bad.json:1: bodies[0].shape.points: the points span no volume (they are "
	                 "all in one plane)");
	e = parseFailure("{\"bodies\": [{\"shape\": {\"type\": \"hull\", \"points\":\n"
	                 "  [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0]]}}]}");
	assertMessage(e, "bad.json:2: bodies[0].shape.points[3]: expected 3 numbers");
}

Test(scene_errors, bad_values_in_context)
{
	tbSceneError e = parseFailure("{\"bodies\": [{\"type\": \"static\", \"linear_velocity\": "
	                              "[1, 0, 0], \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	assertMessage(e, "bodies[0].linear_velocity: a static body cannot move");
	e = parseFailure("{\"bodies\": [{\"type\": \"static\", \"mass\": 3,"
	                 " \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	assertMessage(e, "bodies[0].mass: only a dynamic body has a mass");
	e = parseFailure("{\"bodies\": [{\"type\": \"floating\","
	                 " \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	assertMessage(e, "bodies[0].type: unknown body type 'floating'");
	e = parseFailure("{\"bodies\": [{\"rotation\": {\"quat_wxyz\": [2, 0, 0, 0]},"
	                 " \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	assertMessage(e, "bodies[0].rotation.quat_wxyz: expected a unit quaternion");
	e = parseFailure("{\"bodies\": [{\"rotation\": {\"axis\": [0, 1, 0]},"
	                 " \"shape\": {\"type\": \"sphere\", \"radius\": 1}}]}");
	assertMessage(e, "bodies[0].rotation: expected exactly one of");
	e = parseFailure("{\"generators\": [{\"type\": \"rain\", \"count\": 100,\n"
	                 " \"shape\": {\"type\": \"sphere\", \"radius\": 1},\n"
	                 " \"region_min\": [0, 0, 0], \"region_max\": [2, 2, 2]}]}");
	assertMessage(e, "of 100 bodies (bounding radius 1 m) without overlap, then found no room");
	e = parseFailure("{\"generators\": [{\"type\": \"avalanche\"}]}");
	assertMessage(e, "generators[0].type: unknown generator 'avalanche'");
	e = parseFailure("{\"sleep\": true}");
	assertMessage(e, "top level: no bodies");
}

Test(scene_errors, missing_file)
{
	tbSceneDef def;
	tbSceneError e;
	cr_assert_not(tbReadSceneFile("/nonexistent/scene.json", &def, &e));
	cr_assert_eq(e.line, 0);
	assertMessage(e, "/nonexistent/scene.json: cannot open the file");
}

Test(scene, defaults_generators_and_mass)
{
	const char* text =
	    "{\"steps\": 7, \"seconds\": 100, \"defaults\": {\"friction\": 0.3},\n"
	    " \"bodies\": [{\"name\": \"heavy\", \"mass\": 5, \"restitution\": 0.25,\n"
	    "   \"rotation\": {\"euler_xyz_deg\": [0, 90, 0]},\n"
	    "   \"shape\": {\"type\": \"box\", \"half_extents\": [1, 2, 3]}}],\n"
	    " \"generators\": [{\"type\": \"pyramid\", \"base\": 3, \"position\": [10, 0, 0]},\n"
	    "   {\"type\": \"stack\", \"count\": 2, \"half_extent\": 0.25},\n"
	    "   {\"type\": \"rain\", \"count\": 5, \"seed\": 3, \"shape\": {\"type\": \"hull\",\n"
	    "    \"points\": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]},\n"
	    "    \"region_min\": [-5, 5, -5], \"region_max\": [5, 10, 5]}]}";
	tbSceneDef def;
	tbSceneError e;
	cr_assert(tbParseScene(text, strlen(text), "ok.json", &def, &e), "%s", e.message);
	cr_assert_eq(def.steps, 7, "steps wins over seconds");
	cr_assert_eq(def.substeps, TB_SCENE_DEFAULT_SUBSTEPS);
	cr_assert_eq(def.bodyCount, 1 + 6 + 2 + 5);
	cr_assert_str_eq(def.bodies[0].name, "heavy");
	cr_assert_float_eq(def.bodies[0].friction, 0.3f, 1e-6f);
	cr_assert_float_eq(def.bodies[0].restitution, 0.25f, 1e-6f);
	// Pyramid base 3 at x = 10: bottom row at x = 9, 10, 11, y = 0.5; top cube at y = 2.5.
	cr_assert_float_eq(def.bodies[1].position.x, 9.0f, 1e-6f);
	cr_assert_float_eq(def.bodies[1].position.y, 0.5f, 1e-6f);
	cr_assert_float_eq(def.bodies[6].position.x, 10.0f, 1e-6f);
	cr_assert_float_eq(def.bodies[6].position.y, 2.5f, 1e-6f);
	cr_assert_float_eq(def.bodies[8].position.y, 0.75f, 1e-6f);
	cr_assert_eq(def.hullCount, 1);
	for (int i = 9; i < 14; ++i) {
		cr_assert_eq(def.bodies[i].shape.hull, def.hulls);
		cr_assert(def.bodies[i].position.y >= 5.0f && def.bodies[i].position.y <= 10.0f);
	}
	tbScene scene;
	cr_assert(tbBuildScene(&def, &scene, &e), "%s", e.message);
	cr_assert_eq(def.bodies, NULL, "the scene took the def");
	cr_assert_float_eq(tbBody_GetMass(scene.bodyIds[0]), 5.0f, 1e-4f);
	// euler_xyz_deg [0, 90, 0] turns local x onto world -z.
	vec3s x = tbRotateVector(tbBody_GetRotation(scene.bodyIds[0]), (vec3s){{1.0f, 0.0f, 0.0f}});
	cr_assert_float_eq(x.z, -1.0f, 1e-5f);
	tbDestroyScene(&scene);
}

Test(scene, find_bundled_by_name)
{
	char path[4096];
	cr_assert(tbFindScene("pyramid", path, sizeof path));
	cr_assert(strstr(path, "pyramid.json") != NULL, "%s", path);
	cr_assert(tbFindScene("stack.json", path, sizeof path));
	cr_assert_not(tbFindScene("no_such_scene", path, sizeof path));
	cr_assert_not(tbFindScene("nowhere/pyramid", path, sizeof path));
}

// Every bundled scene loads, builds, and takes a few finite steps.
Test(scene, every_bundled_scene_loads, .timeout = 300)
{
	const char* dirs[4];
	int dirCount = tbGetBundledSceneDirs(dirs, 4);
	cr_assert(dirCount >= 1);
	DIR* dir = opendir(dirs[0]);
	cr_assert_not_null(dir, "no scenes/ at %s", dirs[0]);
	int loaded = 0;
	struct dirent* entry;
	while ((entry = readdir(dir)) != NULL) {
		size_t n = strlen(entry->d_name);
		if (n <= 5 || strcmp(entry->d_name + n - 5, ".json") != 0) {
			continue;
		}
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dirs[0], entry->d_name);
		tbScene scene;
		tbSceneError e;
		cr_assert(tbLoadScene(path, &scene, &e), "%s", e.message);
		cr_assert_gt(scene.def.bodyCount, 0);
		cr_assert_neq(scene.def.description[0], '\0', "%s has no description", path);
		int steps = isLightBuild() ? 2 : 10;
		for (int s = 0; s < steps; ++s) {
			cr_assert(tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps));
		}
		for (int i = 0; i < scene.def.bodyCount; ++i) {
			vec3s p = tbBody_GetPosition(scene.bodyIds[i]);
			cr_assert(isfinite(p.x) && isfinite(p.y) && isfinite(p.z), "%s body %d", path, i);
		}
		tbDestroyScene(&scene);
		loaded += 1;
	}
	closedir(dir);
	cr_assert_geq(loaded, 10, "only %d bundled scenes", loaded);
}

static tbScene loadBundled(const char* name)
{
	char path[4096];
	cr_assert(tbFindScene(name, path, sizeof path), "no bundled %s", name);
	tbScene scene;
	tbSceneError e;
	cr_assert(tbLoadScene(path, &scene, &e), "%s", e.message);
	return scene;
}

static int bodyNamed(const tbScene* scene, const char* name)
{
	for (int i = 0; i < scene->def.bodyCount; ++i) {
		if (strcmp(scene->def.bodies[i].name, name) == 0) {
			return i;
		}
	}
	cr_assert_fail("no body %s", name);
	return -1;
}

// scenes/bounce.json: balls dropped from 1 m (bottom) with e = 0, 0.5, 1 rebound to e^2 h.
Test(scene_physics, bounce_rebounds_e_squared_h)
{
	tbScene scene = loadBundled("bounce");
	const char* names[] = {"ball_e0", "ball_e05", "ball_e1"};
	const float e[] = {0.0f, 0.5f, 1.0f};
	int ids[3];
	float apex[3] = {0}, lowest[3] = {1e9f, 1e9f, 1e9f};
	bool bounced[3] = {false};
	for (int k = 0; k < 3; ++k) {
		ids[k] = bodyNamed(&scene, names[k]);
	}
	// 0.45 s down and at most 0.9 s up and back for e = 1: 1.5 s covers the first rebound.
	for (int s = 0; s < 90; ++s) {
		tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps);
		for (int k = 0; k < 3; ++k) {
			tbBodyId id = scene.bodyIds[ids[k]];
			float y = tbBody_GetPosition(id).y, vy = tbBody_GetLinearVelocity(id).y;
			lowest[k] = fminf(lowest[k], y);
			bounced[k] = bounced[k] || (vy > 0.0f && lowest[k] < 0.3f);
			if (bounced[k] && s < 89) {
				apex[k] = fmaxf(apex[k], y - 0.25f); // radius 0.25: the height of the bottom
			}
		}
	}
	for (int k = 1; k < 3; ++k) {
		float want = e[k] * e[k] * 1.0f;
		cr_assert(bounced[k], "%s never bounced", names[k]);
		cr_assert(fabsf(apex[k] - want) <= 0.05f * want, "%s rebound %.4f m, want %.3f +- 5%%",
		          names[k], (double)apex[k], (double)want);
	}
	cr_assert_lt(apex[0], 0.01f, "e = 0 rebounded %.4f m", (double)apex[0]);
	tbDestroyScene(&scene);
}

// scenes/incline20.json: mu = 0.5 > tan 20 deg: the block holds within 1 mm over 2 s.
Test(scene_physics, incline20_holds)
{
	tbScene scene = loadBundled("incline20");
	tbBodyId block = scene.bodyIds[bodyNamed(&scene, "block")];
	vec3s start = tbBody_GetPosition(block);
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps);
	}
	float moved = glms_vec3_norm(glms_vec3_sub(tbBody_GetPosition(block), start));
	cr_assert_lt(moved, 1e-3f, "the block moved %.4f mm", 1000.0 * (double)moved);
	tbDestroyScene(&scene);
}

// scenes/incline30.json: the block slides d = a t^2 / 2, a = g (sin 30 - 0.5 cos 30), +- 5 %.
Test(scene_physics, incline30_slides_as_coulomb)
{
	tbScene scene = loadBundled("incline30");
	tbBodyId block = scene.bodyIds[bodyNamed(&scene, "block")];
	vec3s start = tbBody_GetPosition(block);
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps);
	}
	double t = 120.0 * (double)scene.def.dt;
	double a = 9.81 * (sin(PI_D / 6.0) - 0.5 * cos(PI_D / 6.0));
	double want = 0.5 * a * t * t;
	double moved = (double)glms_vec3_norm(glms_vec3_sub(tbBody_GetPosition(block), start));
	cr_assert(fabs(moved - want) <= 0.05 * want, "slid %.4f m, Coulomb %.4f m", moved, want);
	tbDestroyScene(&scene);
}

// scenes/spinner.json: the 1 x 2 x 3 box spun about its middle axis keeps L (no torque) while it
// flips; the light build runs 5 s of the 20.
Test(scene_physics, spinner_keeps_angular_momentum)
{
	tbScene scene = loadBundled("spinner");
	tbBodyId box = scene.bodyIds[0];
	vec3s l0 = tbBody_GetAngularMomentum(box);
	float e0 = tbBody_GetKineticEnergy(box);
	int steps = isLightBuild() ? 300 : scene.def.steps;
	float worstL = 0.0f, worstE = 0.0f;
	float minUp = 1.0f; // cos of the angle between the box's y axis and L: it flips below 0
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps);
		vec3s l = tbBody_GetAngularMomentum(box);
		worstL = fmaxf(worstL, glms_vec3_norm(glms_vec3_sub(l, l0)) / glms_vec3_norm(l0));
		worstE = fmaxf(worstE, fabsf(tbBody_GetKineticEnergy(box) - e0) / e0);
		vec3s up = tbRotateVector(tbBody_GetRotation(box), (vec3s){{0.0f, 1.0f, 0.0f}});
		minUp = fminf(minUp, glms_vec3_dot(up, glms_vec3_normalize(l0)));
	}
	cr_assert_lt(worstL, 1e-3f, "|L| drift %.3g", (double)worstL);
	cr_assert_lt(worstE, 5e-3f, "energy drift %.3g", (double)worstE);
	if (!isLightBuild()) {
		cr_assert_lt(minUp, 0.0f, "never flipped (min cos %.3f)", (double)minUp);
	}
	tbDestroyScene(&scene);
}

// Two runs of the same scene end in the same state, bit for bit.
Test(scene, runs_are_deterministic)
{
	uint64_t hashes[2];
	for (int run = 0; run < 2; ++run) {
		tbScene scene = loadBundled(isLightBuild() ? "stack" : "pyramid");
		for (int s = 0; s < (isLightBuild() ? 30 : 120); ++s) {
			tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps);
		}
		hashes[run] = tbWorld_GetStateHash(scene.worldId);
		tbDestroyScene(&scene);
	}
	cr_assert_eq(hashes[0], hashes[1]);
}

// A slow drop: an e = 1 ball from h = 2 cm meets the ground at sqrt(2 g h) = 0.63 m/s. Below the
// default restitution threshold it stays down; with "restitution_threshold": 0 it returns to
// e^2 h = h (within 5 %).
static float slowDropApex(const char* thresholdKey)
{
	char text[1024];
	snprintf(
	    text, sizeof text,
	    "{%s \"sleep\": false, \"steps\": 60,\n"
	    " \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0],\n"
	    "   \"shape\": {\"type\": \"box\", \"half_extents\": [5, 0.5, 5]}},\n"
	    "  {\"name\": \"ball\", \"position\": [0, 0.12, 0], \"restitution\": 1,\n"
	    "   \"shape\": {\"type\": \"sphere\", \"radius\": 0.1}}]}",
	    thresholdKey);
	tbSceneDef def;
	tbSceneError e;
	cr_assert(tbParseScene(text, strlen(text), "drop.json", &def, &e), "%s", e.message);
	tbScene scene;
	cr_assert(tbBuildScene(&def, &scene, &e), "%s", e.message);
	tbBodyId ball = scene.bodyIds[1];
	float apex = 0.0f, lowest = 1.0f;
	bool bounced = false;
	for (int s = 0; s < 60; ++s) { // 0.064 s down, 0.13 s up and back
		tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps);
		float y = tbBody_GetPosition(ball).y - 0.1f, vy = tbBody_GetLinearVelocity(ball).y;
		lowest = fminf(lowest, y);
		bounced = bounced || (vy > 0.0f && lowest < 0.005f);
		if (bounced) {
			apex = fmaxf(apex, y);
		}
	}
	tbDestroyScene(&scene);
	return apex;
}

Test(scene_physics, restitution_threshold_from_the_scene_file)
{
	const float h = 0.02f;
	float keptDown = slowDropApex("");
	cr_assert_lt(keptDown, 0.1f * h, "default threshold: rebound %.4f m", (double)keptDown);
	float bounced = slowDropApex("\"restitution_threshold\": 0,");
	cr_assert(fabsf(bounced - h) <= 0.05f * h, "threshold 0: rebound %.5f m, want %.3f +- 5%%",
	          (double)bounced, (double)h);
	tbSceneError e = parseFailure("{\"restitution_threshold\": -1}");
	cr_assert(strstr(e.message, "restitution_threshold") != NULL, "%s", e.message);
}
