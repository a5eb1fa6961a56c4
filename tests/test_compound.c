// Compound bodies in scene files (docs/scene-format.md, "Compound bodies"): mass, centre of mass
// and inertia from all shapes against the parallel-axis theorem worked by hand; a table of five
// boxes dropped tilted and spinning ends upright on its four legs at the analytic height; bad
// compound bodies are refused with the line and key.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tumble/tumble.h>

#define PI_D 3.14159265358979323846

// ---------------------------------------------------------------------------------------------
// Hand computation: a box of half extents h about its centre has I = m/3 diag(hy^2 + hz^2, ...)
// (solid cuboid, e.g. Goldstein, Classical Mechanics, table of moments); a part at offset d from
// the centre of mass adds m (|d|^2 E - d d^T) (the parallel-axis theorem, Steiner).

typedef struct Part
{
	double half[3];
	double center[3];
	double density;
} Part;

typedef struct Hand
{
	double mass;
	double center[3];
	double inertia[3][3]; // about the centre of mass, body axes
} Hand;

static Hand handMass(const Part* parts, int count)
{
	Hand h;
	memset(&h, 0, sizeof h);
	double m[16];
	for (int i = 0; i < count; ++i) {
		const Part* p = parts + i;
		m[i] = p->density * 8.0 * p->half[0] * p->half[1] * p->half[2];
		h.mass += m[i];
		for (int k = 0; k < 3; ++k) {
			h.center[k] += m[i] * p->center[k];
		}
	}
	for (int k = 0; k < 3; ++k) {
		h.center[k] /= h.mass;
	}
	for (int i = 0; i < count; ++i) {
		const Part* p = parts + i;
		double a = p->half[0] * p->half[0], b = p->half[1] * p->half[1],
		       c = p->half[2] * p->half[2];
		double own[3] = {m[i] / 3.0 * (b + c), m[i] / 3.0 * (a + c), m[i] / 3.0 * (a + b)};
		double d[3] = {p->center[0] - h.center[0], p->center[1] - h.center[1],
		               p->center[2] - h.center[2]};
		double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
		for (int r = 0; r < 3; ++r) {
			for (int s = 0; s < 3; ++s) {
				h.inertia[r][s] += (r == s ? own[r] + m[i] * d2 : 0.0) - m[i] * d[r] * d[s];
			}
		}
	}
	return h;
}

static tbScene loadText(const char* text)
{
	tbSceneDef def;
	tbSceneError error;
	bool ok = tbParseScene(text, strlen(text), "compound.json", &def, &error);
	cr_assert(ok, "%s", error.message);
	tbScene scene;
	ok = tbBuildScene(&def, &scene, &error);
	cr_assert(ok, "%s", error.message);
	return scene;
}

// The body's mass properties through the public API: mass, the world centre of mass, and the
// inertia's columns as the angular momentum L = I w for w = e_x, e_y, e_z (a body at rest with
// identity rotation: world and body axes agree).
static void assertMassMatches(tbBodyId body, vec3s origin, const Hand* h, const char* what)
{
	float mass = tbBody_GetMass(body);
	cr_assert(fabs((double)mass - h->mass) <= 1e-5 * h->mass, "%s: mass %.6f, by hand %.6f", what,
	          (double)mass, h->mass);
	vec3s c = tbBody_GetWorldCenterOfMass(body);
	double cw[3] = {c.x - origin.x, c.y - origin.y, c.z - origin.z};
	for (int k = 0; k < 3; ++k) {
		cr_assert(fabs(cw[k] - h->center[k]) <= 1e-5, "%s: centre[%d] %.7f, by hand %.7f", what, k,
		          cw[k], h->center[k]);
	}
	double scale = fabs(h->inertia[0][0]) + fabs(h->inertia[1][1]) + fabs(h->inertia[2][2]);
	for (int s = 0; s < 3; ++s) {
		vec3s w = glms_vec3_zero();
		w.raw[s] = 1.0f;
		tbBody_SetAngularVelocity(body, w);
		vec3s L = tbBody_GetAngularMomentum(body);
		for (int r = 0; r < 3; ++r) {
			cr_assert(fabs((double)L.raw[r] - h->inertia[r][s]) <= 2e-5 * scale,
			          "%s: I[%d][%d] %.6f, by hand %.6f", what, r, s, (double)L.raw[r],
			          h->inertia[r][s]);
		}
	}
	tbBody_SetAngularVelocity(body, glms_vec3_zero());
}

// The tables of scenes/table.json: a 2 x 0.1 x 1.2 m pine top on four 0.1 x 0.4 x 0.1 m steel legs;
// the body origin is the plane of the legs' feet.
#define TABLE_SHAPES                                                                               \
	"[{\"type\": \"box\", \"half_extents\": [1, 0.05, 0.6], \"position\": [0, 0.45, 0],"           \
	" \"density\": 600},"                                                                          \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.2, 0.05], \"position\": [0.9, 0.2, 0.5],"     \
	" \"density\": 7800},"                                                                         \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.2, 0.05], \"position\": [-0.9, 0.2, 0.5],"    \
	" \"density\": 7800},"                                                                         \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.2, 0.05], \"position\": [0.9, 0.2, -0.5],"    \
	" \"density\": 7800},"                                                                         \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.2, 0.05], \"position\": [-0.9, 0.2, -0.5],"   \
	" \"density\": 7800}]"

static const Part tableParts[5] = {
    {{1, 0.05, 0.6}, {0, 0.45, 0}, 600},          {{0.05, 0.2, 0.05}, {0.9, 0.2, 0.5}, 7800},
    {{0.05, 0.2, 0.05}, {-0.9, 0.2, 0.5}, 7800},  {{0.05, 0.2, 0.05}, {0.9, 0.2, -0.5}, 7800},
    {{0.05, 0.2, 0.05}, {-0.9, 0.2, -0.5}, 7800},
};

Test(compound, table_mass_properties_match_the_parallel_axis_theorem)
{
	tbScene scene = loadText("{\"gravity\": [0, 0, 0], \"bodies\": [{\"name\": \"table\","
	                         " \"position\": [1, 2, 3], \"shapes\": " TABLE_SHAPES "}]}");
	Hand h = handMass(tableParts, 5);
	// 144 kg of top and 4 x 31.2 kg of legs: the centre of mass 0.3339 m above the feet.
	cr_assert(fabs(h.mass - 268.8) < 1e-9);
	vec3s origin = {{1, 2, 3}};
	// The scene's position is the body origin (the frame the shapes are given in), not the
	// centre of mass.
	vec3s p = tbBody_GetPosition(scene.bodyIds[0]);
	cr_assert(fabsf(p.x - 1.0f) < 1e-6f && fabsf(p.y - 2.0f) < 1e-6f && fabsf(p.z - 3.0f) < 1e-6f,
	          "origin (%g, %g, %g)", (double)p.x, (double)p.y, (double)p.z);
	assertMassMatches(scene.bodyIds[0], origin, &h, "table");
	cr_assert_eq(tbBody_GetShapeCount(scene.bodyIds[0]), 5);
	tbDestroyScene(&scene);
}

Test(compound, rotated_entry_and_mass_override)
{
	// An L of two boxes: a 1 x 0.2 x 0.2 m bar along x, and the same bar rotated 90 degrees about
	// z (so along y) at the bar's end. By hand the second is a 0.2 x 1 x 0.2 m box; a rotation
	// given the other two ways (quaternion, axis-angle) must agree. The body's "mass" scales both
	// densities by one factor: 12 kg, 6 kg each.
	const char* rotations[] = {
	    "{\"euler_xyz_deg\": [0, 0, 90]}",
	    "{\"quat_wxyz\": [0.70710678, 0, 0, 0.70710678]}",
	    "{\"axis\": [0, 0, -1], \"angle_deg\": 270}",
	};
	Part parts[2] = {{{0.5, 0.1, 0.1}, {0, 0, 0}, 1000}, {{0.1, 0.5, 0.1}, {0.6, 0.4, 0}, 1000}};
	Hand h = handMass(parts, 2);
	double scale = 12.0 / h.mass;
	h.mass *= scale;
	for (int r = 0; r < 3; ++r) {
		for (int s = 0; s < 3; ++s) {
			h.inertia[r][s] *= scale;
		}
	}
	cr_assert(fabs(h.inertia[0][1]) > 0.1, "the L has a product of inertia");
	for (int i = 0; i < 3; ++i) {
		char text[1024];
		snprintf(
		    text, sizeof text,
		    "{\"gravity\": [0, 0, 0], \"bodies\": [{\"mass\": 12, \"shapes\": ["
		    "{\"type\": \"box\", \"half_extents\": [0.5, 0.1, 0.1]},"
		    "{\"type\": \"box\", \"half_extents\": [0.5, 0.1, 0.1], \"position\": [0.6, 0.4, 0],"
		    " \"rotation\": %s}]}]}",
		    rotations[i]);
		tbScene scene = loadText(text);
		assertMassMatches(scene.bodyIds[0], glms_vec3_zero(), &h, rotations[i]);
		tbDestroyScene(&scene);
	}
}

Test(compound, bundled_table_scene_runs_upright)
{
	char path[512];
	cr_assert(tbFindScene("table", path, sizeof path));
	tbScene scene;
	tbSceneError error;
	cr_assert(tbLoadScene(path, &scene, &error), "%s", error.message);
	cr_assert_eq(scene.def.bodyCount, 5);
	Hand h = handMass(tableParts, 5);
	for (int i = 1; i <= 3; ++i) {
		cr_assert(fabs((double)tbBody_GetMass(scene.bodyIds[i]) - h.mass) < 1e-3 * h.mass);
	}
	// Its run: the three tables end upright on the ground, the dumbbell on its two spheres.
	for (int step = 0; step < scene.def.steps; ++step) {
		cr_assert(tbWorld_Step(scene.worldId, scene.def.dt, scene.def.substeps));
	}
	for (int i = 1; i <= 3; ++i) {
		vec3s up = tbRotateVector(tbBody_GetRotation(scene.bodyIds[i]), (vec3s){{0, 1, 0}});
		vec3s origin = tbBody_GetPosition(scene.bodyIds[i]);
		cr_log_info("%s: up.y %.6f, feet at %.5f m", scene.def.bodies[i].name, (double)up.y,
		            (double)origin.y);
		cr_assert(up.y > cosf(2.0f * 3.14159265f / 180.0f) && fabsf(origin.y) < 5e-3f,
		          "%s: up.y %g, feet at %g m", scene.def.bodies[i].name, (double)up.y,
		          (double)origin.y);
	}
	// The dumbbell rests on its 0.2 m spheres, its bar level (y = 0.2 m at the origin).
	vec3s bar = tbRotateVector(tbBody_GetRotation(scene.bodyIds[4]), (vec3s){{1, 0, 0}});
	cr_assert(fabsf(tbBody_GetPosition(scene.bodyIds[4]).y - 0.2f) < 5e-3f && fabsf(bar.y) < 0.01f);
	tbDestroyScene(&scene);
}

// ---------------------------------------------------------------------------------------------
// The table lands upright.

typedef struct Drop
{
	const char* rotation;
	float height;  // of the feet above the ground, m
	float spin[3]; // rad/s
	float velocity[3];
} Drop;

// How many of the body's legs (box shapes 0.4 m tall) touch the ground, and whether the top does.
static int legsTouching(tbBodyId table, bool* topTouches)
{
	tbContactData data[16];
	int n = tbBody_GetContactData(table, data, 16);
	bool leg[16] = {false};
	tbShapeId shapes[8];
	int shapeCount = tbBody_GetShapes(table, shapes, 8);
	*topTouches = false;
	for (int i = 0; i < n; ++i) {
		if (data[i].manifold.pointCount == 0) {
			continue;
		}
		for (int k = 0; k < shapeCount; ++k) {
			if (!TB_ID_EQUALS(shapes[k], data[i].shapeIdA) &&
			    !TB_ID_EQUALS(shapes[k], data[i].shapeIdB)) {
				continue;
			}
			tbGeometry g = tbShape_GetGeometry(shapes[k]);
			if (g.halfExtents.y > 0.1f) {
				leg[k] = true;
			} else {
				*topTouches = true;
			}
		}
	}
	int count = 0;
	for (int k = 0; k < shapeCount; ++k) {
		count += leg[k] ? 1 : 0;
	}
	return count;
}

// The example table of the scene format's specification, verbatim: a 2 x 0.1 x 1.2 m top whose
// centre is 0.45 m above the origin on four 0.1 x 0.9 x 0.1 m legs centred on it (they reach
// 0.45 m below it and overlap the top by 5 cm, which both count), all at the default density.
#define SPEC_TABLE_SHAPES                                                                          \
	"[{\"type\": \"box\", \"half_extents\": [1, 0.05, 0.6], \"position\": [0, 0.45, 0]},"          \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.45, 0.05], \"position\": [0.9, 0, 0.5]},"     \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.45, 0.05], \"position\": [-0.9, 0, 0.5]},"    \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.45, 0.05], \"position\": [0.9, 0, -0.5]},"    \
	" {\"type\": \"box\", \"half_extents\": [0.05, 0.45, 0.05], \"position\": [-0.9, 0, -0.5]}]"

static const Part specTableParts[5] = {
    {{1, 0.05, 0.6}, {0, 0.45, 0}, 1000},        {{0.05, 0.45, 0.05}, {0.9, 0, 0.5}, 1000},
    {{0.05, 0.45, 0.05}, {-0.9, 0, 0.5}, 1000},  {{0.05, 0.45, 0.05}, {0.9, 0, -0.5}, 1000},
    {{0.05, 0.45, 0.05}, {-0.9, 0, -0.5}, 1000},
};

Test(compound, table_of_five_boxes_lands_upright)
{
	const Drop drops[] = {
	    {"{\"euler_xyz_deg\": [0, 0, 0]}", 0.5f, {0, 0, 0}, {0, 0, 0}},
	    {"{\"euler_xyz_deg\": [10, 0, 0]}", 1.0f, {0, 0, 0}, {0, 0, 0}},
	    {"{\"euler_xyz_deg\": [0, 0, -12]}", 1.0f, {0, 0, 0}, {0, 0, 0}},
	    {"{\"euler_xyz_deg\": [8, 30, 6]}", 2.0f, {0, 0, 0}, {0, 0, 0}},
	    {"{\"axis\": [1, 0, 1], \"angle_deg\": 10}", 1.5f, {0, 3, 0}, {0, 0, 0}},
	    {"{\"euler_xyz_deg\": [-6, 45, 9]}", 1.0f, {0.5f, 2, -0.5f}, {1, 0, 0.5f}},
	};
	// The two tables: their shapes, their parts by hand, and how far below the origin the feet are.
	const char* shapes[2] = {TABLE_SHAPES, SPEC_TABLE_SHAPES};
	const Part* parts[2] = {tableParts, specTableParts};
	const double feet[2] = {0.0, 0.45};
	for (int t = 0; t < 2; ++t) {
		Hand h = handMass(parts[t], 5);
		for (size_t i = 0; i < sizeof drops / sizeof drops[0]; ++i) {
			const Drop* d = drops + i;
			char text[4096];
			snprintf(text, sizeof text,
			         "{\"bodies\": [{\"type\": \"static\", \"position\": [0, -0.5, 0],"
			         " \"shape\": {\"type\": \"box\", \"half_extents\": [20, 0.5, 20]}},"
			         " {\"name\": \"table\", \"position\": [0, %g, 0], \"rotation\": %s,"
			         " \"angular_velocity\": [%g, %g, %g], \"linear_velocity\": [%g, %g, %g],"
			         " \"shapes\": %s}]}",
			         (double)d->height + feet[t], d->rotation, (double)d->spin[0],
			         (double)d->spin[1], (double)d->spin[2], (double)d->velocity[0],
			         (double)d->velocity[1], (double)d->velocity[2], shapes[t]);
			tbScene scene = loadText(text);
			tbBodyId table = scene.bodyIds[1];
			for (int step = 0; step < 360; ++step) {
				cr_assert(tbWorld_Step(scene.worldId, 1.0f / 60.0f, 4));
			}
			// Upright: the top's normal (the body's y axis) within 2 degrees of up.
			versors q = tbBody_GetRotation(table);
			vec3s up = tbRotateVector(q, (vec3s){{0, 1, 0}});
			double tilt = acos(fmin(1.0, (double)up.y)) * 180.0 / PI_D;
			// At the analytic height: the feet on the ground's top, y = 0, so the origin at
			// feet[t] and the centre of mass h.center[1] above the origin.
			vec3s origin = tbBody_GetPosition(table);
			vec3s com = tbBody_GetWorldCenterOfMass(table);
			bool topTouches;
			int legs = legsTouching(table, &topTouches);
			cr_log_info("table %d drop %zu: tilt %.4f deg, origin at y = %.5f m (analytic %.2f), "
			            "centre of mass %.5f m (analytic %.5f), %d legs touching",
			            t, i, tilt, (double)origin.y, feet[t], (double)com.y, feet[t] + h.center[1],
			            legs);
			cr_assert(tilt < 2.0, "table %d drop %zu: the table ends %.2f degrees from upright", t,
			          i, tilt);
			cr_assert(fabs((double)origin.y - feet[t]) < 5e-3,
			          "table %d drop %zu: origin at y = %.4f m, expected %.2f", t, i,
			          (double)origin.y, feet[t]);
			cr_assert(fabs((double)com.y - feet[t] - h.center[1]) < 5e-3,
			          "table %d drop %zu: centre of mass at %.4f m, analytic %.4f", t, i,
			          (double)com.y, feet[t] + h.center[1]);
			cr_assert_eq(legs, 4, "table %d drop %zu: %d legs touch the ground", t, i, legs);
			cr_assert_not(topTouches, "table %d drop %zu: the top touches the ground", t, i);
			tbDestroyScene(&scene);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Bad compound bodies: the line and key of what is wrong.

static tbSceneError parseFailure(const char* text)
{
	tbSceneDef def;
	tbSceneError error;
	bool ok = tbParseScene(text, strlen(text), "bad.json", &def, &error);
	cr_assert_not(ok, "the scene was accepted:\n%s", text);
	cr_assert_eq(def.bodyCount, 0);
	return error;
}

#define assertMessage(error, expected)                                                             \
	cr_assert(strstr((error).message, (expected)) != NULL, "message '%s' lacks '%s'",              \
	          (error).message, (expected))

Test(compound, bad_compound_bodies_name_line_and_key)
{
	tbSceneError e = parseFailure("{\"bodies\": [\n"
	                              " {\"shape\": {\"type\": \"sphere\", \"radius\": 1},\n"
	                              "  \"shapes\": [{\"type\": \"sphere\", \"radius\": 1}]}]}");
	assertMessage(e, "bad.json:3: bodies[0].shapes: a body has either 'shape' or 'shapes', not "
	                 "both ('shape' at line 2)");
	e = parseFailure("{\"bodies\": [\n {\"position\": [0, 1, 0]}]}");
	assertMessage(e, "bad.json:2: bodies[0]: missing key 'shape' (or 'shapes' for a compound");
	e = parseFailure("{\"bodies\": [\n {\"shapes\": []}]}");
	assertMessage(e, "bad.json:2: bodies[0].shapes: expected an array of 1 to 1024 shapes");
	e = parseFailure("{\"bodies\": [{\"shapes\": [\n"
	                 "  {\"type\": \"sphere\", \"radius\": 1},\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1],\n"
	                 "   \"position\": [0, \"up\", 0]}]}]}");
	assertMessage(e, "bad.json:4: bodies[0].shapes[1].position: expected 3 numbers within");
	e = parseFailure("{\"bodies\": [{\"shapes\": [\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1],\n"
	                 "   \"rotation\": {\"axis\": [0, 0, 0], \"angle_deg\": 3}}]}]}");
	cr_assert_eq(e.line, 3, "%s", e.message);
	assertMessage(e, "bodies[0].shapes[0].rotation");
	e = parseFailure("{\"bodies\": [{\"shapes\": [\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"radius\": 2}]}]}");
	assertMessage(e, "bad.json:2: bodies[0].shapes[0].radius: unknown key 'radius' for a box");
	e = parseFailure("{\"bodies\": [{\"shapes\": [\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"density\": 1,\n"
	                 "   \"density\": 2}]}]}");
	assertMessage(e, "bad.json:3: bodies[0].shapes[0].density: duplicate key (first at line 2)");
	e = parseFailure("{\"bodies\": [{\"type\": \"static\", \"shapes\": [\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"density\": 1}]}]}");
	assertMessage(e, "bad.json:2: bodies[0].shapes[0].density: only a dynamic body's shapes have");
	e = parseFailure("{\"bodies\": [{\"shapes\": [\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"friction\": -1}]}]}");
	assertMessage(e, "bad.json:2: bodies[0].shapes[0].friction: expected a number >= 0, got -1");
	e = parseFailure("{\"bodies\": [{\"shapes\": [\n"
	                 "  {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"sensor\": 1}]}]}");
	assertMessage(e, "bad.json:2: bodies[0].shapes[0].sensor:");
	// The one-shape form takes "sensor" but not a frame of its own (the body's position is the
	// shape's centre).
	e = parseFailure(
	    "{\"bodies\": [{\"shape\": \n"
	    "  {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"position\": [0, 1, 0]}}]}");
	assertMessage(e, "bad.json:2: bodies[0].shape.position: unknown key 'position' for a box");
	// A body mass that would give a shape a density beyond float is refused by the reader:
	// 3e38 kg in a 0.1 m ball is 7e40 kg/m^3.
	e = parseFailure("{\"bodies\": [{\"mass\": 3e38, \"shapes\": [\n"
	                 "  {\"type\": \"sphere\", \"radius\": 0.1}]}]}");
	assertMessage(e, "bad.json:2: bodies[0].shapes[0]: the body's mass 3e+38 kg gives this shape a "
	                 "density");
	// Each shape within range but the body not: refused when built, naming the entry that tipped
	// it.
	const char* heavy = "{\"bodies\": [\n {\"name\": \"heavy\", \"shapes\": [\n"
	                    "  {\"type\": \"sphere\", \"radius\": 1, \"density\": 2e24},\n"
	                    "  {\"type\": \"sphere\", \"radius\": 1, \"position\": [3, 0, 0],"
	                    " \"density\": 2e24}]}]}";
	tbSceneDef heavyDef;
	tbSceneError heavyError;
	cr_assert(tbParseScene(heavy, strlen(heavy), "bad.json", &heavyDef, &heavyError));
	tbScene heavyScene;
	cr_assert_not(tbBuildScene(&heavyDef, &heavyScene, &heavyError));
	assertMessage(heavyError, "bad.json:4: bodies[0].shapes[1]: body 'heavy': tbCreateShape: mass");
	// Still accepted afterwards: the same object read again is whole (no key was lost).
	const char* good = "{\"bodies\": [{\"shape\": {\"type\": \"sphere\", \"radius\": 1,"
	                   " \"sensor\": true}}, {\"shapes\": [{\"type\": \"sphere\", \"radius\": 1,"
	                   " \"position\": [1, 0, 0], \"sensor\": false, \"friction\": 0.2}]}]}";
	tbSceneDef def;
	tbSceneError error;
	cr_assert(tbParseScene(good, strlen(good), "good.json", &def, &error), "%s", error.message);
	cr_assert(def.bodies[0].isSensor);
	cr_assert_eq(def.bodies[1].shapeCount, 1);
	cr_assert(def.shapes[0].localPose.p.x == 1.0f && def.shapes[0].friction == 0.2f);
	tbFreeSceneDef(&def);
}

Test(compound, hull_entries_of_several_bodies)
{
	// Hull entries of two compound bodies (the scene's hull array grows between them, and every
	// entry must point into it when parsing ends): a cube given as 8 points next to a box of the
	// same size, 1 m apart: 0.2 m cubes of 8 kg each at density 1000, the centre midway.
#define CUBE_HULL                                                                                  \
	"{\"type\": \"hull\", \"points\": [[-0.1, -0.1, -0.1], [0.1, -0.1, -0.1], [-0.1, 0.1, -0.1],"  \
	" [0.1, 0.1, -0.1], [-0.1, -0.1, 0.1], [0.1, -0.1, 0.1], [-0.1, 0.1, 0.1], [0.1, 0.1, 0.1]],"  \
	" \"position\": [-0.5, 0, 0]}"
	const char* text =
	    "{\"gravity\": [0, 0, 0], \"bodies\": ["
	    "{\"shapes\": [" CUBE_HULL ", {\"type\": \"box\", \"half_extents\": [0.1, "
	    "0.1, 0.1], \"position\": [0.5, 0, 0]}]},"
	    "{\"position\": [0, 3, 0], \"shapes\": [" CUBE_HULL ", " CUBE_HULL ","
	    " {\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1], \"position\": [0.5, "
	    "0, 0]}]}]}";
	tbScene scene = loadText(text);
	Part pair[2] = {{{0.1, 0.1, 0.1}, {-0.5, 0, 0}, 1000}, {{0.1, 0.1, 0.1}, {0.5, 0, 0}, 1000}};
	Hand h = handMass(pair, 2);
	cr_assert(fabs(h.mass - 16.0) < 1e-9);
	assertMassMatches(scene.bodyIds[0], glms_vec3_zero(), &h, "hull and box");
	// Two hulls at the same place and a box: 3 cubes, the centre at -1/6 m.
	Part three[3] = {pair[0], pair[0], pair[1]};
	h = handMass(three, 3);
	assertMassMatches(scene.bodyIds[1], (vec3s){{0, 3, 0}}, &h, "two hulls and a box");
	tbDestroyScene(&scene);
}

Test(compound, spec_example_table_mass_properties)
{
	// The specification's table: the legs overlap the top by 5 cm and both count (240 kg of top,
	// 4 x 9 kg of legs; the centre 0.3913 m above the origin).
	tbScene scene = loadText("{\"gravity\": [0, 0, 0], \"bodies\": [{\"name\": \"table\","
	                         " \"position\": [0, 1, 0], \"shapes\": " SPEC_TABLE_SHAPES "}]}");
	Hand h = handMass(specTableParts, 5);
	cr_assert(fabs(h.mass - 276.0) < 1e-9 && fabs(h.center[1] - 108.0 / 276.0) < 1e-12);
	assertMassMatches(scene.bodyIds[0], (vec3s){{0, 1, 0}}, &h, "specification's table");
	tbDestroyScene(&scene);
}

// ---------------------------------------------------------------------------------------------
// Reach about the centre of mass. A shape's farthest point from a point, tbGeometry_ReachFrom,
// against brute force over points sampled on its surface (the vertices of a polytope, rings of a
// round shape); then the broad-phase boxes of a spinning compound whose hulls are given in the
// body frame, far from the centre of mass: each box grows by its own shape's reach, not the body's.

static float sampledReach(const tbGeometry* g, vec3s from)
{
	// Support points along a dense set of directions: the farthest point from `from` is the
	// support point along (p - from) / |p - from|, so the largest distance over the supports
	// converges to the reach from below.
	float best = 0.0f;
	const int n = 96;
	for (int i = 0; i <= n; ++i) {
		float theta = (float)PI_D * (float)i / (float)n;
		for (int j = 0; j < 2 * n; ++j) {
			float phi = (float)PI_D * (float)j / (float)n;
			vec3s d = {{sinf(theta) * cosf(phi), cosf(theta), sinf(theta) * sinf(phi)}};
			vec3s p = tbGeometry_Support(g, d, NULL);
			best = fmaxf(best, glms_vec3_norm(glms_vec3_sub(p, from)));
		}
	}
	return best;
}

Test(compound, reach_from_a_point_against_brute_force)
{
	vec3s pts[8];
	for (int i = 0; i < 8; ++i) {
		pts[i] = (vec3s){{(i & 1) ? 0.3f : -0.2f, (i & 2) ? 5.0f : 3.0f, (i & 4) ? 0.25f : -0.4f}};
	}
	tbHull hull;
	int bad;
	cr_assert_eq(tbBuildHull(pts, 8, &hull, &bad), tb_hullOk);
	tbGeometry shapes[] = {tbMakeSphere(0.4f),         tbMakeBox(0.3f, 0.7f, 0.2f),
	                       tbMakeCapsule(0.25f, 0.6f), tbMakeCylinder(0.5f, 0.3f),
	                       tbMakeCone(0.45f, 0.8f),    tbMakeHullShape(&hull)};
	vec3s froms[] = {{{0.0f, 0.0f, 0.0f}}, {{0.1f, -2.0f, 0.3f}}, {{1.5f, 0.2f, -0.7f}}};
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
		for (size_t f = 0; f < sizeof froms / sizeof froms[0]; ++f) {
			float reach = tbGeometry_ReachFrom(shapes + s, froms[f]);
			float sampled = sampledReach(shapes + s, froms[f]);
			// Never below a point of the shape; above the sampled supports by the sampling's
			// angular step at most (1 - cos(pi / 96) of the reach).
			cr_expect_geq(reach, sampled - 1e-5f, "shape %zu from %zu: reach %g < sampled %g", s, f,
			              (double)reach, (double)sampled);
			cr_expect_leq(reach, sampled * 1.001f + 1e-5f,
			              "shape %zu from %zu: reach %g > sampled %g", s, f, (double)reach,
			              (double)sampled);
		}
	}
	tbDestroyHull(&hull);
}

typedef struct Probe
{
	tbShapeId shape;
	bool found;
} Probe;

static bool probeHit(tbShapeId shapeId, void* context)
{
	Probe* p = context;
	if (TB_ID_EQUALS(shapeId, p->shape)) {
		p->found = true;
		return false;
	}
	return true;
}

// How far the shape's broad-phase box reaches beyond its tight box along axis `axis` (0: x, 1: y),
// side `sign`: a thin slab query moved out until the shape is no longer reported, bisected.
static float fatReach(tbWorldId world, tbShapeId shape, int axis, float sign)
{
	tbAABB tight = tbShape_GetAABB(shape);
	float lo = 0.0f, hi = 100.0f;
	for (int it = 0; it < 40; ++it) {
		float mid = 0.5f * (lo + hi);
		tbAABB slab = tight;
		float at = sign > 0.0f ? tight.upper.raw[axis] + mid : tight.lower.raw[axis] - mid;
		slab.lower.raw[axis] = at - 1e-6f;
		slab.upper.raw[axis] = at + 1e-6f;
		Probe p = {shape, false};
		tbWorld_OverlapAABB(world, slab, tbDefaultQueryFilter(), probeHit, &p);
		if (p.found) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return lo;
}

Test(compound, spinning_compound_boxes_grow_by_each_shapes_own_reach)
{
	// A column of four 2 m hull boxes given in the body frame, from y = 0 to 8 m: the centre of
	// mass 4 m above the body origin, every hull's origin at the body's.
	tbHull hulls[4];
	for (int k = 0; k < 4; ++k) {
		vec3s pts[8];
		for (int i = 0; i < 8; ++i) {
			pts[i] = (vec3s){{(i & 1) ? 0.25f : -0.25f, (float)(2 * k) + ((i & 2) ? 2.0f : 0.0f),
			                  (i & 4) ? 0.25f : -0.25f}};
		}
		int bad;
		cr_assert_eq(tbBuildHull(pts, 8, hulls + k, &bad), tb_hullOk);
	}
	tbWorldDef wd = tbDefaultWorldDef();
	wd.gravity = (vec3s){{0.0f, 0.0f, 0.0f}};
	wd.enableSleep = false;
	tbWorldId world = tbCreateWorld(&wd);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = (vec3s){{0.0f, 1.0f, 0.0f}};
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbShapeId shapes[4];
	for (int k = 0; k < 4; ++k) {
		tbGeometry g = tbMakeHullShape(hulls + k);
		shapes[k] = tbCreateShape(body, &sd, &g);
	}
	const float omega = 8.0f, dt = 1.0f / 60.0f;
	tbBody_SetAngularVelocity(body, (vec3s){{0.0f, 0.0f, omega}});
	tbWorld_Step(world, dt, 4);
	vec3s c = tbBody_GetWorldCenterOfMass(body);
	tbTransform xf = tbBody_GetTransform(body);
	float bodyReach = 0.0f, originReach = 0.0f;
	for (int k = 0; k < 4; ++k) {
		// Brute force: the hull's corners placed, their largest distance from the centre of mass.
		float reach = 0.0f;
		for (int i = 0; i < hulls[k].vertexCount; ++i) {
			vec3s p = tbTransformPoint(xf, hulls[k].vertices[i]);
			reach = fmaxf(reach, glms_vec3_norm(glms_vec3_sub(p, c)));
			originReach = fmaxf(originReach, glms_vec3_norm(hulls[k].vertices[i]));
		}
		bodyReach = fmaxf(bodyReach, reach);
		float spin = dt * omega * reach;
		for (int axis = 0; axis < 2; ++axis) {
			for (int side = -1; side <= 1; side += 2) {
				float grown = fatReach(world, shapes[k], axis, (float)side);
				printf("SCENE compound box %d axis %d side %+d: grown %.4f m, own reach %.3f m, "
				       "one step's turn %.4f m\n",
				       k, axis, side, (double)grown, (double)reach, (double)spin);
				// It holds the next step's turn and is no wider than two steps' and the margin.
				cr_expect_geq(grown, spin - 1e-4f, "box %d axis %d side %d", k, axis, side);
				cr_expect_leq(grown, 2.0f * spin + wd.aabbMargin + 1e-3f,
				              "box %d axis %d side %d: grown %g m, own reach %g m", k, axis, side,
				              (double)grown, (double)reach);
			}
		}
	}
	// The body's reach about its centre of mass, not about its origin plus the offset.
	cr_expect_lt(bodyReach, 0.6f * (originReach + glms_vec3_norm(glms_vec3_sub(c, xf.p))));
	tbDestroyWorld(world);
	for (int k = 0; k < 4; ++k) {
		tbDestroyHull(hulls + k);
	}
}
