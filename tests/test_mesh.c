// Level geometry against independent answers: a box sliding over a floor of triangles stops where
// it stops on one box (v^2 / (2 mu g)) and is never thrown up; bodies dropped on a wavy terrain
// rest on its analytic surface; ray casts against analytic hits; the tree's box query against
// brute force; bad meshes and heightfields refused with clear messages. Sleeping off.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;
static const float kG = 9.81f;
static const float kPi = 3.14159265f;

// A flat grid of `cells` x `cells` squares of side `cell` m at y = 0, two triangles per square
// (diagonals alternating when `alternate`), centred on the origin.
static bool gridMesh(int cells, float cell, bool alternate, tbMesh* mesh)
{
	int n = cells + 1;
	vec3s* v = malloc(sizeof(vec3s) * (size_t)(n * n));
	int* idx = malloc(sizeof(int) * (size_t)(6 * cells * cells));
	float half = 0.5f * (float)cells * cell;
	for (int r = 0; r < n; ++r) {
		for (int c = 0; c < n; ++c) {
			v[r * n + c] = v3((float)c * cell - half, 0.0f, (float)r * cell - half);
		}
	}
	int k = 0;
	for (int r = 0; r < cells; ++r) {
		for (int c = 0; c < cells; ++c) {
			int p00 = r * n + c, p01 = r * n + c + 1, p10 = (r + 1) * n + c, p11 = p10 + 1;
			// Counter-clockwise seen from +y (x right, z towards the viewer).
			if (alternate && (r + c) % 2 == 1) {
				int t[6] = {p00, p10, p01, p01, p10, p11};
				memcpy(idx + k, t, sizeof t);
			} else {
				int t[6] = {p00, p10, p11, p00, p11, p01};
				memcpy(idx + k, t, sizeof t);
			}
			k += 6;
		}
	}
	char message[256];
	bool ok = tbBuildMesh(v, n * n, idx, 2 * cells * cells, mesh, message, sizeof message);
	cr_assert(ok, "grid mesh refused: %s", message);
	free(v);
	free(idx);
	return ok;
}

typedef enum FloorKind
{
	floorBox,
	floorMesh,
	floorHeightfield,
} FloorKind;

typedef struct SlideResult
{
	float distance; // m, horizontal
	float maxUp;    // largest upward speed, m/s
	float maxSide;  // largest sideways drift from the slide line, m
} SlideResult;

// A box of half extents `half` launched at `speed` along `heading` (rad from +x, about y) with
// friction `mu` on a floor of the given kind, yawed by `floorYaw` about y. Runs until it stops.
static SlideResult slide(FloorKind kind, float half, float speed, float heading, float boxYaw,
                         float floorYaw, float mu, bool alternate)
{
	tbWorldId world = makeWorld(false);
	tbBodyDef gd = tbDefaultBodyDef();
	gd.rotation = glms_quatv(floorYaw, v3(0.0f, 1.0f, 0.0f));
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = mu;
	tbMesh mesh;
	memset(&mesh, 0, sizeof mesh);
	tbHeightfield field;
	memset(&field, 0, sizeof field);
	const int cells = 30;
	if (kind == floorBox) {
		gd.position = v3(0.0f, -0.5f, 0.0f);
		tbBodyId ground = tbCreateBody(world, &gd);
		tbGeometry g = tbMakeBox(20.0f, 0.5f, 20.0f);
		tbCreateShape(ground, &sd, &g);
	} else if (kind == floorMesh) {
		gridMesh(cells, 1.0f, alternate, &mesh);
		tbBodyId ground = tbCreateBody(world, &gd);
		tbGeometry g = tbMakeMeshShape(&mesh);
		cr_assert(!TB_IS_NULL(tbCreateShape(ground, &sd, &g)), "%s", tbGetLastError());
	} else {
		float heights[(cells + 1) * (cells + 1)];
		for (int i = 0; i < (cells + 1) * (cells + 1); ++i) {
			heights[i] = 0.0f;
		}
		char message[256];
		cr_assert(tbBuildHeightfield(heights, cells + 1, cells + 1, 1.0f, 1.0f, &field, message,
		                             sizeof message),
		          "%s", message);
		tbBodyId ground = tbCreateBody(world, &gd);
		tbGeometry g = tbMakeHeightfieldShape(&field);
		cr_assert(!TB_IS_NULL(tbCreateShape(ground, &sd, &g)), "%s", tbGetLastError());
	}
	vec3s dir = v3(cosf(heading), 0.0f, sinf(heading));
	// Start 8 m back from the centre so the whole slide stays on the floor.
	vec3s start = v3(-4.0f * dir.x + 0.37f, half, -4.0f * dir.z + 0.21f);
	tbBodyId box = makeBox(world, start, glms_quatv(boxYaw, v3(0.0f, 1.0f, 0.0f)),
	                       v3(half, half, half), 1000.0f, mu);
	// Settle on the floor first, then launch.
	for (int s = 0; s < 30; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	vec3s p0 = tbBody_GetPosition(box);
	tbBody_SetLinearVelocity(box, glms_vec3_scale(dir, speed));
	SlideResult r = {0.0f, 0.0f, 0.0f};
	for (int s = 0; s < 600; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		vec3s v = tbBody_GetLinearVelocity(box);
		r.maxUp = fmaxf(r.maxUp, v.y);
		vec3s d = glms_vec3_sub(tbBody_GetPosition(box), p0);
		float along = d.x * dir.x + d.z * dir.z;
		r.maxSide = fmaxf(r.maxSide, fabsf(d.x * dir.z - d.z * dir.x));
		r.distance = along;
		if (s > 10 && glms_vec3_norm(v) < 1e-3f) {
			break;
		}
	}
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
	return r;
}

static void checkSlide(FloorKind kind, float half, float heading, float boxYaw, float floorYaw,
                       bool alternate)
{
	const float speed = 4.0f, mu = 0.1f;
	float analytic = speed * speed / (2.0f * mu * kG);
	SlideResult one = slide(floorBox, half, speed, heading, boxYaw, 0.0f, mu, false);
	SlideResult tri = slide(kind, half, speed, heading, boxYaw, floorYaw, mu, alternate);
	printf("SCENE slide %s, half %.2f, heading %.0f deg, box yaw %.0f, floor yaw %.0f%s: %.3f m "
	       "(one box %.3f, v^2/(2 mu g) %.3f; %+.2f %%), max upward %.4f m/s (one box %.4f), "
	       "sideways %.4f m\n",
	       kind == floorMesh ? "mesh" : "heightfield", (double)half,
	       (double)(heading * 57.29578f), (double)(boxYaw * 57.29578f),
	       (double)(floorYaw * 57.29578f), alternate ? ", alternating diagonals" : "",
	       (double)tri.distance, (double)one.distance, (double)analytic,
	       100.0 * (double)((tri.distance - analytic) / analytic), (double)tri.maxUp,
	       (double)one.maxUp, (double)tri.maxSide);
	cr_expect_lt(fabsf(tri.distance - analytic), 0.02f * analytic,
	             "slide %g m, analytic %g m", (double)tri.distance, (double)analytic);
	cr_expect_lt(fabsf(tri.distance - one.distance), 0.02f * one.distance,
	             "slide %g m, on one box %g m", (double)tri.distance, (double)one.distance);
	cr_expect_lt(tri.maxUp, 0.05f, "thrown up at %g m/s", (double)tri.maxUp);
	cr_expect_lt(tri.maxSide, 0.05f * analytic, "drifted %g m sideways", (double)tri.maxSide);
}

Test(slide, mesh_floor_along_the_seams)
{
	checkSlide(floorMesh, 0.5f, 0.0f, 0.0f, 0.0f, false);
	checkSlide(floorMesh, 0.25f, 0.5f * kPi, 0.0f, 0.0f, false);
}

Test(slide, mesh_floor_diagonal_and_yawed)
{
	checkSlide(floorMesh, 0.5f, 0.25f * kPi, 0.0f, 0.0f, false);
	checkSlide(floorMesh, 0.5f, -0.25f * kPi, 0.3f, 0.0f, true);
	checkSlide(floorMesh, 0.3f, 0.6f, 0.2f, 0.4f, true);
	checkSlide(floorMesh, 0.7f, 2.5f, -0.5f, 1.0f, false);
}

Test(slide, heightfield_floor)
{
	checkSlide(floorHeightfield, 0.5f, 0.0f, 0.0f, 0.0f, false);
	checkSlide(floorHeightfield, 0.4f, 0.25f * kPi, 0.0f, 0.0f, false);
	checkSlide(floorHeightfield, 0.5f, -2.2f, 0.7f, 0.3f, false);
}

// ---------------------------------------------------------------------------------------------
// A wavy terrain in a bowl: y = A sin(2 pi x / Lx) cos(2 pi z / Lz) + B (x^2 + z^2), sampled
// every `spacing` m on a square centred on the origin (the bowl keeps rolling balls on it). Between
// samples the triangles are within (A (2 pi / L)^2 + 2 B) spacing^2 / 8 of it (the interpolation
// error of a piecewise linear surface): 4 mm here.

static const float kWaveA = 0.5f, kWaveLx = 10.0f, kWaveLz = 12.0f, kBowl = 0.025f;

static float waveHeight(float x, float z)
{
	return kWaveA * sinf(2.0f * kPi * x / kWaveLx) * cosf(2.0f * kPi * z / kWaveLz) +
	       kBowl * (x * x + z * z);
}

// Samples n x n, row r at z = (r - (n - 1) / 2) spacing, column c at x likewise: the layout of
// tbBuildHeightfield, and the mesh uses the same vertices and diagonals.
static float* waveHeights(int n, float spacing)
{
	float* h = malloc(sizeof(float) * (size_t)(n * n));
	for (int r = 0; r < n; ++r) {
		for (int c = 0; c < n; ++c) {
			float x = ((float)c - 0.5f * (float)(n - 1)) * spacing;
			float z = ((float)r - 0.5f * (float)(n - 1)) * spacing;
			h[r * n + c] = waveHeight(x, z);
		}
	}
	return h;
}

static void waveMesh(int n, float spacing, tbMesh* mesh)
{
	float* h = waveHeights(n, spacing);
	vec3s* v = malloc(sizeof(vec3s) * (size_t)(n * n));
	int cells = n - 1;
	int* idx = malloc(sizeof(int) * (size_t)(6 * cells * cells));
	for (int r = 0; r < n; ++r) {
		for (int c = 0; c < n; ++c) {
			v[r * n + c] = v3(((float)c - 0.5f * (float)(n - 1)) * spacing, h[r * n + c],
			                  ((float)r - 0.5f * (float)(n - 1)) * spacing);
		}
	}
	int k = 0;
	for (int r = 0; r < cells; ++r) {
		for (int c = 0; c < cells; ++c) {
			int p00 = r * n + c, p01 = p00 + 1, p10 = p00 + n, p11 = p10 + 1;
			int t[6] = {p00, p10, p11, p00, p11, p01};
			memcpy(idx + k, t, sizeof t);
			k += 6;
		}
	}
	char message[256];
	cr_assert(tbBuildMesh(v, n * n, idx, 2 * cells * cells, mesh, message, sizeof message), "%s",
	          message);
	free(h);
	free(v);
	free(idx);
}

// The lowest clearance of a body over the analytic surface: over a grid of vertical lines through
// its box, a ray cast up from below the surface finds the body's underside (an independent
// measure: the convex ray cast), and the clearance is its height minus the surface height there.
static float bodyClearance(tbShapeId shape)
{
	tbGeometry g = tbShape_GetGeometry(shape);
	tbTransform xf = tbShape_GetWorldTransform(shape);
	tbAABB box = tbShape_GetAABB(shape);
	const int samples = 24;
	float best = INFINITY;
	for (int i = 0; i <= samples; ++i) {
		for (int j = 0; j <= samples; ++j) {
			float x = box.lower.x + (box.upper.x - box.lower.x) * (float)i / (float)samples;
			float z = box.lower.z + (box.upper.z - box.lower.z) * (float)j / (float)samples;
			vec3s origin = v3(x, box.lower.y - 1.0f, z);
			vec3s up = v3(0.0f, box.upper.y - box.lower.y + 2.0f, 0.0f);
			tbCastOutput hit = tbRayCastShape(&g, xf, origin, up, 1.0f);
			if (hit.hit) {
				best = fminf(best, hit.point.y - waveHeight(x, z));
			}
		}
	}
	return best;
}

// The body touches another dynamic body (its manifold has points).
static bool restsOnOtherBodies(tbBodyId body, tbShapeId shape)
{
	tbContactData cd[32];
	int count = tbBody_GetContactData(body, cd, 32);
	for (int k = 0; k < count; ++k) {
		tbShapeId other = TB_ID_EQUALS(cd[k].shapeIdA, shape) ? cd[k].shapeIdB : cd[k].shapeIdA;
		if (cd[k].manifold.pointCount > 0 &&
		    tbBody_GetType(tbShape_GetBody(other)) == tb_dynamicBody) {
			return true;
		}
	}
	return false;
}

static tbGeometry mixedShape(int i, const tbHull* hull)
{
	switch (i % 6) {
	case 0:
		return tbMakeSphere(0.25f);
	case 1:
		return tbMakeBox(0.3f, 0.2f, 0.25f);
	case 2:
		return tbMakeCapsule(0.15f, 0.25f);
	case 3:
		return tbMakeCylinder(0.25f, 0.2f);
	case 4:
		return tbMakeCone(0.3f, 0.25f);
	default:
		return tbMakeHullShape(hull);
	}
}

static void dropOnTerrain(bool heightfield)
{
	const int n = 49;
	const float spacing = 0.5f;
	tbMesh mesh;
	memset(&mesh, 0, sizeof mesh);
	tbHeightfield field;
	memset(&field, 0, sizeof field);
	tbGeometry ground;
	if (heightfield) {
		float* h = waveHeights(n, spacing);
		char message[256];
		cr_assert(tbBuildHeightfield(h, n, n, spacing, spacing, &field, message, sizeof message),
		          "%s", message);
		free(h);
		ground = tbMakeHeightfieldShape(&field);
	} else {
		waveMesh(n, spacing, &mesh);
		ground = tbMakeMeshShape(&mesh);
	}
	vec3s hullPoints[8] = {v3(0.3f, 0.0f, 0.0f),  v3(-0.3f, 0.05f, 0.1f), v3(0.0f, 0.25f, 0.0f),
	                       v3(0.0f, -0.2f, 0.1f), v3(0.1f, 0.0f, 0.3f),   v3(-0.1f, 0.0f, -0.3f),
	                       v3(0.2f, 0.2f, -0.2f), v3(-0.2f, -0.15f, 0.2f)};
	tbHull hull;
	cr_assert_eq(tbBuildHull(hullPoints, 8, &hull, NULL), tb_hullOk);

	tbWorldId world = makeWorld(false);
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId groundBody = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.8f;
	cr_assert(!TB_IS_NULL(tbCreateShape(groundBody, &sd, &ground)), "%s", tbGetLastError());
	enum
	{
		count = 120
	};
	tbBodyId bodies[count];
	tbShapeId shapes[count];
	for (int i = 0; i < count; ++i) {
		// A 12 x 10 grid 1.6 m apart, each at its own height and tilt.
		float x = -8.8f + 1.6f * (float)(i % 12), z = -7.2f + 1.6f * (float)(i / 12);
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = v3(x, waveHeight(x, z) + 1.0f + 0.02f * (float)(i % 7), z);
		bd.rotation = glms_quatv(0.37f * (float)i, glms_vec3_normalize(v3(1.0f, 0.5f * (float)(i % 3), 0.3f)));
		bodies[i] = tbCreateBody(world, &bd);
		tbGeometry g = mixedShape(i, &hull);
		shapes[i] = tbCreateShape(bodies[i], &sd, &g);
		cr_assert(!TB_IS_NULL(shapes[i]), "%s", tbGetLastError());
	}
	float deepest = 0.0f; // the deepest clearance seen at any step, from 1 s on
	int steps = sceneIsLight() ? 240 : 480;
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		if (s % 20 == 19) {
			for (int i = 0; i < count; ++i) {
				deepest = fminf(deepest, bodyClearance(shapes[i]));
			}
		}
	}
	float lowest = INFINITY, highest = -INFINITY, speed = 0.0f;
	int fallen = 0, piled = 0;
	for (int i = 0; i < count; ++i) {
		float c = bodyClearance(shapes[i]);
		lowest = fminf(lowest, c);
		vec3s p = tbBody_GetPosition(bodies[i]);
		fallen += !(p.y > waveHeight(p.x, p.z) - 0.05f) || !finite3(p);
		speed = fmaxf(speed, glms_vec3_norm(tbBody_GetLinearVelocity(bodies[i])));
		cr_expect_gt(c, -0.03f, "body %d (%s) sinks %g m into the terrain", i,
		             tbShapeTypeName(tbShape_GetGeometry(shapes[i]).type), (double)-c);
		// On the terrain, or resting on other bodies that are (balls roll into the valleys and
		// pile up there).
		bool onOthers = restsOnOtherBodies(bodies[i], shapes[i]);
		piled += c >= 0.03f && onOthers;
		highest = c < 0.03f ? fmaxf(highest, c) : highest;
		cr_expect(c < 0.03f || onOthers,
		          "body %d (%s) hovers %g m over the terrain, touching no other body", i,
		          tbShapeTypeName(tbShape_GetGeometry(shapes[i]).type), (double)c);
	}
	printf("SCENE 120 mixed bodies on a wavy %s (%d x %d samples, %.1f m): after %.0f s clearance "
	       "over the analytic surface %.4f to %.4f m (%d more rest on other bodies), deepest at "
	       "any sampled step %.4f m, fastest body %.3f m/s, %d fallen through\n",
	       heightfield ? "heightfield" : "mesh", n, n, (double)spacing, (double)((float)steps * kDt),
	       (double)lowest, (double)highest, piled, (double)deepest, (double)speed, fallen);
	cr_expect_eq(fallen, 0);
	cr_expect_gt(deepest, -0.05f, "a body sank %g m at some step", (double)-deepest);
	tbDestroyWorld(world);
	tbDestroyHull(&hull);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
}

Test(terrain, mixed_bodies_rest_on_a_mesh, .timeout = 300)
{
	dropOnTerrain(false);
}

Test(terrain, mixed_bodies_rest_on_a_heightfield, .timeout = 300)
{
	dropOnTerrain(true);
}
