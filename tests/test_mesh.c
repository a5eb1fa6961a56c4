// Level geometry against independent answers: a box sliding over a floor of triangles stops where
// it stops on one box (v^2 / (2 mu g)) and is never thrown up; bodies dropped on a wavy terrain
// rest on its analytic surface; ray casts against analytic hits; the tree's box query against
// brute force; bad meshes and heightfields refused with clear messages. Sleeping off.
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "random.h"
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

// The side of the mesh floor's cells in the slides, m.
static float gSlideCell = 1.0f;

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
	// With a negative `floorYaw` the box is made first: the floor's shape is then B of the box's
	// pairs (the other order of the narrow phase and of its cache).
	bool floorLast = floorYaw < 0.0f;
	vec3s dir = v3(cosf(heading), 0.0f, sinf(heading));
	// Start 4 m back from the centre so the whole slide stays on the floor.
	vec3s start = v3(-4.0f * dir.x + 0.37f, half, -4.0f * dir.z + 0.21f);
	versors boxRotation = glms_quatv(boxYaw, v3(0.0f, 1.0f, 0.0f));
	tbBodyId box = tb_nullBodyId;
	if (floorLast) {
		box = makeBox(world, start, boxRotation, v3(half, half, half), 1000.0f, mu);
	}
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
		gridMesh((int)lroundf((float)cells / gSlideCell), gSlideCell, alternate, &mesh);
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
	if (!floorLast) {
		box = makeBox(world, start, boxRotation, v3(half, half, half), 1000.0f, mu);
	}
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
	       kind == floorMesh ? "mesh" : "heightfield", (double)half, (double)(heading * 57.29578f),
	       (double)(boxYaw * 57.29578f), (double)(floorYaw * 57.29578f),
	       alternate ? ", alternating diagonals" : "", (double)tri.distance, (double)one.distance,
	       (double)analytic, 100.0 * (double)((tri.distance - analytic) / analytic),
	       (double)tri.maxUp, (double)one.maxUp, (double)tri.maxSide);
	cr_expect_lt(fabsf(tri.distance - analytic), 0.02f * analytic, "slide %g m, analytic %g m",
	             (double)tri.distance, (double)analytic);
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
	checkSlide(floorMesh, 0.4f, -1.9f, 0.8f, -0.7f, true); // the floor made after the box
}

Test(slide, fine_mesh_floor)
{
	// Cells of 10 cm under a box of 1 m: the box's one manifold of the floor gathers the corners
	// of a hundred triangles and their seams every step.
	gSlideCell = 0.1f;
	checkSlide(floorMesh, 0.5f, 0.0f, 0.0f, 0.0f, false);
	checkSlide(floorMesh, 0.5f, 0.3f, 0.2f, 0.0f, true);
	gSlideCell = 1.0f;
}

Test(slide, heightfield_floor)
{
	checkSlide(floorHeightfield, 0.5f, 0.0f, 0.0f, 0.0f, false);
	checkSlide(floorHeightfield, 0.4f, 0.25f * kPi, 0.0f, 0.0f, false);
	checkSlide(floorHeightfield, 0.5f, -2.2f, 0.7f, 0.3f, false);
	checkSlide(floorHeightfield, 0.35f, 1.1f, -0.3f, -0.2f, false); // made after the box
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

// The irregular hull of eight points the terrain scenes drop among their boxes and balls.
static void terrainHull(tbHull* hull)
{
	vec3s points[8] = {v3(0.3f, 0.0f, 0.0f),  v3(-0.3f, 0.05f, 0.1f), v3(0.0f, 0.25f, 0.0f),
	                   v3(0.0f, -0.2f, 0.1f), v3(0.1f, 0.0f, 0.3f),   v3(-0.1f, 0.0f, -0.3f),
	                   v3(0.2f, 0.2f, -0.2f), v3(-0.2f, -0.15f, 0.2f)};
	cr_assert_eq(tbBuildHull(points, 8, hull, NULL), tb_hullOk);
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

static void makeStaticShape(tbWorldId world, const tbShapeDef* sd, const tbGeometry* g)
{
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId body = tbCreateBody(world, &gd);
	cr_assert(!TB_IS_NULL(tbCreateShape(body, sd, g)), "%s", tbGetLastError());
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
	tbHull hull;
	terrainHull(&hull);

	tbWorldId world = makeWorld(false);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.8f;
	// The heightfield is made after the bodies: its shape is then B of every pair (the other
	// order of the narrow phase and of its cache).
	if (!heightfield) {
		makeStaticShape(world, &sd, &ground);
	}
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
		bd.rotation = glms_quatv(0.37f * (float)i,
		                         glms_vec3_normalize(v3(1.0f, 0.5f * (float)(i % 3), 0.3f)));
		bodies[i] = tbCreateBody(world, &bd);
		tbGeometry g = mixedShape(i, &hull);
		shapes[i] = tbCreateShape(bodies[i], &sd, &g);
		cr_assert(!TB_IS_NULL(shapes[i]), "%s", tbGetLastError());
	}
	if (heightfield) {
		makeStaticShape(world, &sd, &ground);
	}
	// The deepest clearance at every 10th step once all have landed (from 2 s; the sink of the
	// first impacts is the solver's, the same on a box floor).
	float deepest = 0.0f;
	int steps = sceneIsLight() ? 240 : 480;
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		if (s >= 120 && s % 10 == 9) {
			for (int i = 0; i < count; ++i) {
				deepest = fminf(deepest, bodyClearance(shapes[i]));
			}
		}
	}
	float lowest = INFINITY, highest = -INFINITY, speed = 0.0f;
	int fallen = 0, piled = 0, rolling = 0;
	for (int i = 0; i < count; ++i) {
		float c = bodyClearance(shapes[i]);
		lowest = fminf(lowest, c);
		vec3s p = tbBody_GetPosition(bodies[i]);
		fallen += !(p.y > waveHeight(p.x, p.z) - 0.05f) || !finite3(p);
		float v = glms_vec3_norm(tbBody_GetLinearVelocity(bodies[i]));
		speed = fmaxf(speed, v);
		cr_expect_gt(c, -0.03f, "body %d (%s) sinks %g m into the terrain", i,
		             tbShapeTypeName(tbShape_GetGeometry(shapes[i]).type), (double)-c);
		// On the terrain, or resting on other bodies that are (balls roll into the valleys and
		// pile up there). A ball still rolling from valley to valley (no rolling resistance
		// here: it keeps its energy) may be over a crest in the air at the end: only the
		// bodies that have come to rest are judged.
		bool onOthers = restsOnOtherBodies(bodies[i], shapes[i]);
		bool resting = v < 0.5f;
		rolling += !resting;
		piled += c >= 0.03f && onOthers;
		highest = c < 0.03f ? fmaxf(highest, c) : highest;
		cr_expect(c < 0.03f || onOthers || !resting,
		          "body %d (%s) rests %g m over the terrain, touching no other body", i,
		          tbShapeTypeName(tbShape_GetGeometry(shapes[i]).type), (double)c);
	}
	printf("SCENE 120 mixed bodies on a wavy %s (%d x %d samples, %.1f m): after %.0f s clearance "
	       "over the analytic surface %.4f to %.4f m (%d more rest on other bodies), deepest "
	       "from 2 s on %.4f m, fastest body %.3f m/s, %d still rolling, %d fallen through\n",
	       heightfield ? "heightfield" : "mesh", n, n, (double)spacing,
	       (double)((float)steps * kDt), (double)lowest, (double)highest, piled, (double)deepest,
	       (double)speed, rolling, fallen);
	cr_expect_leq(rolling, count / 4, "most bodies have come to rest (%d still move)", rolling);
	cr_expect_eq(fallen, 0);
	cr_expect_gt(deepest, -0.03f, "a body sank %g m at some step", (double)-deepest);
	tbDestroyWorld(world);
	tbDestroyHull(&hull);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
}

Test(terrain, mixed_bodies_rest_on_a_mesh, .timeout = 300)
{
	dropOnTerrain(false);
}

// Made after the bodies (see dropOnTerrain).
Test(terrain, mixed_bodies_rest_on_a_heightfield, .timeout = 300)
{
	dropOnTerrain(true);
}

// ---------------------------------------------------------------------------------------------
// Ray casts and box queries against independent answers

static uint32_t gRandom = 12345u;
static float uniform01(void)
{
	gRandom = gRandom * 1664525u + 1013904223u;
	return (float)(gRandom >> 8) / 16777216.0f;
}

// Every triangle against the ray, with its own plane test (a second method: the ray's parameter
// at the plane, then the point's barycentric coordinates), in double.
static bool bruteRay(const tbGeometry* g, vec3s p, vec3s d, double* tBest, vec3s* normal)
{
	bool hit = false;
	*tBest = 1.0;
	int count = tbGeometry_GetTriangleCount(g);
	for (int t = 0; t < count; ++t) {
		vec3s v[3];
		tbGeometry_GetTriangle(g, t, v, NULL);
		double e1[3], e2[3], n[3], w[3];
		for (int k = 0; k < 3; ++k) {
			e1[k] = (double)v[1].raw[k] - (double)v[0].raw[k];
			e2[k] = (double)v[2].raw[k] - (double)v[0].raw[k];
		}
		n[0] = e1[1] * e2[2] - e1[2] * e2[1];
		n[1] = e1[2] * e2[0] - e1[0] * e2[2];
		n[2] = e1[0] * e2[1] - e1[1] * e2[0];
		double denom = n[0] * (double)d.x + n[1] * (double)d.y + n[2] * (double)d.z;
		if (fabs(denom) < 1e-12) {
			continue;
		}
		double num = n[0] * ((double)v[0].x - (double)p.x) + n[1] * ((double)v[0].y - (double)p.y) +
		             n[2] * ((double)v[0].z - (double)p.z);
		double t0 = num / denom;
		if (t0 < 0.0 || t0 > *tBest) {
			continue;
		}
		for (int k = 0; k < 3; ++k) {
			w[k] = (double)p.raw[k] + t0 * (double)d.raw[k] - (double)v[0].raw[k];
		}
		// Barycentric coordinates of w in (e1, e2).
		double d11 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
		double d12 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
		double d22 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
		double dw1 = w[0] * e1[0] + w[1] * e1[1] + w[2] * e1[2];
		double dw2 = w[0] * e2[0] + w[1] * e2[1] + w[2] * e2[2];
		double det = d11 * d22 - d12 * d12;
		double b1 = (d22 * dw1 - d12 * dw2) / det, b2 = (d11 * dw2 - d12 * dw1) / det;
		if (b1 < -1e-9 || b2 < -1e-9 || b1 + b2 > 1.0 + 1e-9) {
			continue;
		}
		*tBest = t0;
		double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		*normal = v3((float)(n[0] / len), (float)(n[1] / len), (float)(n[2] / len));
		if (denom > 0.0) {
			*normal = glms_vec3_negate(*normal);
		}
		hit = true;
	}
	return hit;
}

// 31 rows of 57 columns, dx 0.4 m, dz 0.7 m, of the wavy surface.
static bool makeOblong(tbHeightfield* field)
{
	const int rows = 31, columns = 57;
	float* h = malloc(sizeof(float) * (size_t)(rows * columns));
	for (int r = 0; r < rows; ++r) {
		for (int c = 0; c < columns; ++c) {
			h[r * columns + c] = waveHeight(((float)c - 28.0f) * 0.4f, ((float)r - 15.0f) * 0.7f);
		}
	}
	char message[256];
	bool ok = tbBuildHeightfield(h, rows, columns, 0.4f, 0.7f, field, message, sizeof message);
	cr_expect(ok, "%s", message);
	free(h);
	return ok;
}

static void checkRays(const tbGeometry* g, tbTransform xf, const char* what)
{
	int hits = 0, misses = 0;
	float worst = 0.0f, worstNormal = 0.0f;
	for (int i = 0; i < 400; ++i) {
		// From above or below, steep or grazing, some starting over the edge of the terrain.
		vec3s o = v3(-14.0f + 28.0f * uniform01(), (i % 5 == 0 ? -4.0f : 4.0f) + uniform01(),
		             -14.0f + 28.0f * uniform01());
		vec3s d = v3(-6.0f + 12.0f * uniform01(), (i % 5 == 0 ? 6.0f : -6.0f) * uniform01(),
		             -6.0f + 12.0f * uniform01());
		if (i % 7 == 0) {
			d = v3(0.0f, i % 5 == 0 ? 8.0f : -8.0f, 0.0f); // vertical
		}
		// The brute force in the shape's frame.
		vec3s lo = tbInvTransformPoint(xf, o), ld = tbInvRotateVector(xf.q, d);
		double t;
		vec3s n;
		bool want = bruteRay(g, lo, ld, &t, &n);
		tbCastOutput got = tbRayCastShape(g, xf, o, d, 1.0f);
		cr_assert_eq(got.hit, want, "%s ray %d: hit %d, brute force %d (t %g)", what, i, got.hit,
		             want, t);
		if (!want) {
			++misses;
			continue;
		}
		++hits;
		float err = fabsf(got.fraction - (float)t) * glms_vec3_norm(d);
		worst = fmaxf(worst, err);
		vec3s wn = tbRotateVector(xf.q, n);
		worstNormal = fmaxf(worstNormal, glms_vec3_norm(glms_vec3_sub(got.normal, wn)));
		cr_expect_lt(err, 1e-4f, "%s ray %d: hit %g m from the brute force's", what, i,
		             (double)err);
		cr_expect_lt(glms_vec3_norm(glms_vec3_sub(got.normal, wn)), 1e-3f, "%s ray %d: normal",
		             what, i);
		vec3s at = glms_vec3_add(o, glms_vec3_scale(d, got.fraction));
		cr_expect_lt(dist3(at, got.point), 1e-4f);
	}
	printf("SCENE ray casts against a %s: %d hits, %d misses; worst hit distance from the brute "
	       "force %.2e m, worst normal %.2e\n",
	       what, hits, misses, (double)worst, (double)worstNormal);
	cr_expect_gt(hits, 50);
	cr_expect_gt(misses, 10);
}

Test(raycast, mesh_and_heightfield_against_brute_force)
{
	tbMesh mesh;
	waveMesh(49, 0.5f, &mesh);
	float* h = waveHeights(49, 0.5f);
	tbHeightfield field;
	char message[256];
	cr_assert(tbBuildHeightfield(h, 49, 49, 0.5f, 0.5f, &field, message, sizeof message));
	free(h);
	tbGeometry gm = tbMakeMeshShape(&mesh), gh = tbMakeHeightfieldShape(&field);
	tbTransform identity = tbTransformIdentity();
	tbTransform placed = tbMakeTransform(
	    v3(1.5f, -0.7f, 2.0f), glms_quatv(0.6f, glms_vec3_normalize(v3(0.2f, 1.0f, 0.1f))));
	checkRays(&gm, identity, "mesh");
	checkRays(&gh, identity, "heightfield");
	checkRays(&gm, placed, "placed mesh");
	checkRays(&gh, placed, "placed heightfield");
	// Rows and columns differ, and so do the spacings: a swap of x and z would show.
	tbHeightfield oblong;
	cr_assert(makeOblong(&oblong));
	tbGeometry go = tbMakeHeightfieldShape(&oblong);
	checkRays(&go, identity, "57 x 31 heightfield");
	checkRays(&go, placed, "placed 57 x 31 heightfield");
	tbDestroyHeightfield(&oblong);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
}

static bool countOverlap(tbShapeId shapeId, void* context)
{
	(void)shapeId;
	*(int*)context += 1;
	return true;
}

// A flat floor at y = 0 in a world: the closest hit of a slanted ray is where it reaches y = 0.
Test(raycast, world_sees_meshes_and_heightfields)
{
	tbWorldId world = makeWorld(false);
	tbMesh mesh;
	gridMesh(10, 1.0f, true, &mesh);
	float heights[4] = {2.0f, 2.0f, 2.0f, 2.0f};
	tbHeightfield field;
	cr_assert(tbBuildHeightfield(heights, 2, 2, 4.0f, 4.0f, &field, NULL, 0));
	tbBodyDef bd = tbDefaultBodyDef();
	tbBodyId floor = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry g = tbMakeMeshShape(&mesh);
	tbShapeId floorShape = tbCreateShape(floor, &sd, &g);
	bd.position = v3(20.0f, -1.0f, 0.0f); // a raised square at y = 1 around x = 20
	tbBodyId plateau = tbCreateBody(world, &bd);
	g = tbMakeHeightfieldShape(&field);
	tbShapeId plateauShape = tbCreateShape(plateau, &sd, &g);
	vec3s o = v3(-1.0f, 3.0f, 0.5f), d = v3(2.0f, -4.0f, 1.0f);
	tbRayResult r = tbWorld_CastRayClosest(world, o, d, tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_expect(TB_ID_EQUALS(r.shapeId, floorShape));
	cr_expect_float_eq(r.fraction, 0.75f, 1e-5f);
	cr_expect_float_eq(r.point.x, 0.5f, 1e-5f);
	cr_expect_float_eq(r.normal.y, 1.0f, 1e-5f);
	r = tbWorld_CastRayClosest(world, v3(20.5f, 5.0f, 0.3f), v3(0.0f, -10.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_expect(TB_ID_EQUALS(r.shapeId, plateauShape));
	cr_expect_float_eq(r.point.y, 1.0f, 1e-5f);
	cr_expect_float_eq(r.fraction, 0.4f, 1e-5f);
	// From below the floor, upwards: the underside, normal down.
	r = tbWorld_CastRayClosest(world, v3(0.2f, -1.0f, 0.2f), v3(0.0f, 3.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_expect_float_eq(r.normal.y, -1.0f, 1e-5f);
	cr_expect_float_eq(r.fraction, 1.0f / 3.0f, 1e-5f);
	// Off the floor: nothing.
	r = tbWorld_CastRayClosest(world, v3(8.0f, 3.0f, 0.0f), v3(0.0f, -6.0f, 0.0f),
	                           tbDefaultQueryFilter());
	cr_expect_not(r.hit);
	// Overlap queries test the triangles: a ball dipping 1 cm into the floor is found, one 1 cm
	// over it is not (though its box overlaps the floor's).
	int found = 0;
	tbGeometry ball = tbMakeSphere(0.3f);
	tbWorld_OverlapShape(world, &ball, tbMakeTransform(v3(0.4f, 0.29f, -0.7f), quatIdentity()),
	                     tbDefaultQueryFilter(), countOverlap, &found);
	cr_expect_eq(found, 1);
	found = 0;
	tbWorld_OverlapShape(world, &ball, tbMakeTransform(v3(0.4f, 0.31f, -0.7f), quatIdentity()),
	                     tbDefaultQueryFilter(), countOverlap, &found);
	cr_expect_eq(found, 0);
	found = 0;
	tbWorld_OverlapShape(world, &ball, tbMakeTransform(v3(20.0f, 1.25f, 1.0f), quatIdentity()),
	                     tbDefaultQueryFilter(), countOverlap, &found);
	cr_expect_eq(found, 1);
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
}

typedef struct Collected
{
	int count;
	unsigned char* seen;
} Collected;

static bool collect(int triangle, void* context)
{
	Collected* c = context;
	c->seen[triangle] += 1;
	c->count += 1;
	return true;
}

static void checkQueries(const tbGeometry* g, const char* what)
{
	int n = tbGeometry_GetTriangleCount(g);
	unsigned char* seen = calloc((size_t)n, 1);
	long found = 0;
	for (int i = 0; i < 300; ++i) {
		vec3s c = v3(-14.0f + 28.0f * uniform01(), -1.0f + 3.0f * uniform01(),
		             -14.0f + 28.0f * uniform01());
		vec3s e =
		    v3(0.05f + 2.0f * uniform01(), 0.05f + 0.8f * uniform01(), 0.05f + 2.0f * uniform01());
		tbAABB box = {glms_vec3_sub(c, e), glms_vec3_add(c, e)};
		memset(seen, 0, (size_t)n);
		Collected col = {0, seen};
		tbGeometry_QueryTriangles(g, box, collect, &col);
		int want = 0;
		for (int t = 0; t < n; ++t) {
			vec3s v[3];
			tbGeometry_GetTriangle(g, t, v, NULL);
			vec3s lo = glms_vec3_minv(v[0], glms_vec3_minv(v[1], v[2]));
			vec3s hi = glms_vec3_maxv(v[0], glms_vec3_maxv(v[1], v[2]));
			bool overlap = lo.x <= box.upper.x && box.lower.x <= hi.x && lo.y <= box.upper.y &&
			               box.lower.y <= hi.y && lo.z <= box.upper.z && box.lower.z <= hi.z;
			want += overlap;
			cr_assert_eq(seen[t], overlap ? 1 : 0,
			             "%s box %d: triangle %d reported %d times, "
			             "brute force %d",
			             what, i, t, seen[t], overlap);
		}
		cr_assert_eq(col.count, want);
		found += want;
	}
	printf("SCENE box queries on a %s of %d triangles: 300 boxes, %ld triangles found, all equal "
	       "to the brute force\n",
	       what, n, found);
	free(seen);
}

Test(query, triangles_in_a_box_against_brute_force)
{
	tbMesh mesh;
	waveMesh(49, 0.5f, &mesh);
	float* h = waveHeights(49, 0.5f);
	tbHeightfield field;
	cr_assert(tbBuildHeightfield(h, 49, 49, 0.5f, 0.5f, &field, NULL, 0));
	free(h);
	tbGeometry gm = tbMakeMeshShape(&mesh), gh = tbMakeHeightfieldShape(&field);
	checkQueries(&gm, "mesh");
	checkQueries(&gh, "heightfield");
	tbHeightfield oblong;
	cr_assert(makeOblong(&oblong));
	tbGeometry go = tbMakeHeightfieldShape(&oblong);
	checkQueries(&go, "57 x 31 heightfield");
	// Its samples are where the documented layout puts them.
	vec3s v[3];
	cr_assert(tbGeometry_GetTriangle(&go, 2 * (5 * 56 + 7), v, NULL)); // cell row 5, column 7
	float x = (7.0f - 28.0f) * 0.4f, z = (5.0f - 15.0f) * 0.7f;
	cr_expect_float_eq(v[0].x, x, 1e-5f);
	cr_expect_float_eq(v[0].z, z, 1e-5f);
	cr_expect_float_eq(v[0].y, waveHeight(x, z), 1e-5f);
	cr_expect_float_eq(v[2].x, x + 0.4f, 1e-5f); // the diagonal's far end, (r + 1, c + 1)
	cr_expect_float_eq(v[2].z, z + 0.7f, 1e-5f);
	tbDestroyHeightfield(&oblong);
	cr_expect_leq(mesh.depth, 12, "a tree of %d levels for 4608 triangles", mesh.depth);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
}

// The edge flags: a flat grid's inner edges are inactive, its boundary edges active; a ridge
// (convex, 90 degrees) is active, a valley (concave) is not; a 2-degree fold is not.
// Two triangles folded along the z axis by `angle` each side of flat, up (ridge) or down.
static void foldedPair(float angle, tbMesh* mesh)
{
	float s = sinf(angle), c = cosf(angle);
	vec3s v[4] = {v3(0.0f, 0.0f, 0.0f), v3(0.0f, 0.0f, 1.0f), v3(c, -s, 0.5f), v3(-c, -s, 0.5f)};
	// (0, 1, 2) and (1, 0, 3) share the edge 0-1, counter-clockwise seen from above.
	int idx[6] = {0, 1, 2, 1, 0, 3};
	char message[256];
	cr_assert(tbBuildMesh(v, 4, idx, 2, mesh, message, sizeof message), "%s", message);
}

Test(query, edge_flags)
{
	float angles[3] = {0.7854f, -0.7854f, 0.0175f};
	uint32_t want[3] = {1u, 0u, 0u};
	for (int k = 0; k < 3; ++k) {
		tbMesh mesh;
		foldedPair(angles[k], &mesh);
		cr_assert_gt(mesh.normals[0].y, 0.0f);
		cr_expect_eq(mesh.edgeFlags[0] & 1u, want[k], "fold %g rad: edge flag %u",
		             (double)angles[k], mesh.edgeFlags[0] & 1u);
		cr_expect_eq(mesh.edgeFlags[1] & 1u, want[k]);
		cr_expect_eq(mesh.edgeFlags[0] & 6u, 6u, "boundary edges are active");
		tbDestroyMesh(&mesh);
	}
	tbMesh grid;
	gridMesh(3, 1.0f, false, &grid);
	int inner = 0, boundary = 0;
	for (int t = 0; t < grid.triangleCount; ++t) {
		for (int e = 0; e < 3; ++e) {
			bool active = (grid.edgeFlags[t] >> e) & 1u;
			bool onBoundary = grid.neighbours[3 * t + e] < 0;
			cr_expect_eq(active, onBoundary, "triangle %d edge %d", t, e);
			inner += !onBoundary;
			boundary += onBoundary;
		}
	}
	cr_expect_eq(boundary, 12);
	cr_expect_eq(inner, 2 * (grid.triangleCount * 3 - 12) / 2);
	tbDestroyMesh(&grid);
}

// Every triangle's fold bits against its neighbours' corners' heights over its plane, taken here
// in double: a corner clearly below (by more than 1e-5 of the triangle's longest edge) sets the
// front bit, one clearly above the back bit; heights within that of zero (a flat seam's) are the
// float arithmetic's either way. Returns how many triangles had a clear fold of each kind.
static void checkFolds(const tbMesh* m, const char* what, int* front, int* back)
{
	*front = *back = 0;
	for (int t = 0; t < m->triangleCount; ++t) {
		const int* idx = m->indices + 3 * t;
		vec3s a = m->vertices[idx[0]], b = m->vertices[idx[1]], c = m->vertices[idx[2]];
		double ux = (double)b.x - (double)a.x, uy = (double)b.y - (double)a.y,
		       uz = (double)b.z - (double)a.z;
		double vx = (double)c.x - (double)a.x, vy = (double)c.y - (double)a.y,
		       vz = (double)c.z - (double)a.z;
		double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
		double len = sqrt(nx * nx + ny * ny + nz * nz);
		double longest = fmax(sqrt(ux * ux + uy * uy + uz * uz), sqrt(vx * vx + vy * vy + vz * vz));
		double tol = 1e-5 * longest;
		bool below = false, above = false;
		for (int e = 0; e < 3; ++e) {
			int other = m->neighbours[3 * t + e];
			for (int k = 0; k < 3 && other >= 0; ++k) {
				vec3s w = m->vertices[m->indices[3 * other + k]];
				double h = (((double)w.x - (double)a.x) * nx + ((double)w.y - (double)a.y) * ny +
				            ((double)w.z - (double)a.z) * nz) /
				           len;
				below = below || h < -tol;
				above = above || h > tol;
			}
		}
		if (below) {
			cr_expect(m->folds[t] & TB_FOLD_FRONT, "%s: triangle %d folds below its front", what,
			          t);
			*front += 1;
		}
		if (above) {
			cr_expect(m->folds[t] & TB_FOLD_BACK, "%s: triangle %d folds above its plane", what, t);
			*back += 1;
		}
	}
}

Test(query, fold_bits)
{
	// A wavy terrain (ridges and valleys: both kinds), the two folded pairs of edge_flags' ridge
	// and valley, and a closed box (every fold below every face's front, none above).
	tbMesh wave;
	waveMesh(12, 1.0f, &wave);
	int front, back;
	checkFolds(&wave, "wave", &front, &back);
	printf("fold bits: wave mesh of %d triangles, %d with a clear convex fold, %d concave\n",
	       wave.triangleCount, front, back);
	cr_expect_gt(front, 0);
	cr_expect_gt(back, 0);
	tbDestroyMesh(&wave);
	for (int k = 0; k < 2; ++k) {
		tbMesh pair;
		foldedPair(k == 0 ? 0.7854f : -0.7854f, &pair);
		checkFolds(&pair, k == 0 ? "ridge" : "valley", &front, &back);
		// A ridge folds below both fronts, a valley above.
		cr_expect_eq(front, k == 0 ? 2 : 0);
		cr_expect_eq(back, k == 0 ? 0 : 2);
		tbDestroyMesh(&pair);
	}
	vec3s corners[8];
	for (int i = 0; i < 8; ++i) {
		corners[i] = v3((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f);
	}
	// Two triangles a face, counter-clockwise seen from outside.
	int faces[36] = {0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
	                 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};
	tbMesh box;
	char message[256];
	cr_assert(tbBuildMesh(corners, 8, faces, 12, &box, message, sizeof message), "%s", message);
	cr_assert_gt(glms_vec3_dot(box.normals[0], v3(-1.0f, 0.0f, 0.0f)), 0.99f, "faces outward");
	checkFolds(&box, "box", &front, &back);
	cr_expect_eq(front, 12);
	cr_expect_eq(back, 0);
	for (int t = 0; t < 12; ++t) {
		cr_expect_eq(box.folds[t] & TB_FOLD_BACK, 0u, "box triangle %d", t);
	}
	tbDestroyMesh(&box);
}

// ---------------------------------------------------------------------------------------------
// Bad input

static void expectMeshRefused(const vec3s* v, int vc, const int* idx, int tc, const char* words)
{
	tbMesh mesh;
	char message[256] = "";
	cr_expect_not(tbBuildMesh(v, vc, idx, tc, &mesh, message, sizeof message),
	              "accepted, expected: %s", words);
	cr_expect_not_null(strstr(message, words), "message '%s' lacks '%s'", message, words);
	cr_expect_null(mesh.vertices);
}

Test(refusal, bad_meshes)
{
	vec3s v[4] = {v3(0.0f, 0.0f, 0.0f), v3(1.0f, 0.0f, 0.0f), v3(0.0f, 0.0f, 1.0f),
	              v3(2.0f, 0.0f, 0.0f)};
	int ok[3] = {0, 2, 1};
	int collinear[6] = {0, 2, 1, 0, 1, 3};
	int repeated[6] = {0, 2, 1, 1, 1, 2};
	int outOfRange[6] = {0, 2, 1, 0, 7, 2};
	int negative[3] = {0, -1, 2};
	expectMeshRefused(v, 4, collinear, 2, "triangle 1 (vertices 0, 1, 3): degenerate, zero area");
	expectMeshRefused(v, 4, repeated, 2, "triangle 1: degenerate, it repeats a vertex");
	expectMeshRefused(v, 4, outOfRange, 2, "triangle 1: vertex index 7 is out of range (0 to 3)");
	expectMeshRefused(v, 4, negative, 1, "triangle 0: vertex index -1 is out of range");
	expectMeshRefused(v, 4, ok, 0, "no triangles");
	vec3s tiny[3] = {v3(0.0f, 0.0f, 0.0f), v3(1.0f, 0.0f, 0.0f), v3(0.5f, 0.0f, 1e-7f)};
	expectMeshRefused(tiny, 3, ok, 1, "degenerate, zero area");
	vec3s bad[3] = {v3(0.0f, 0.0f, 0.0f), v3(1.0f, NAN, 0.0f), v3(0.0f, 0.0f, 1.0f)};
	expectMeshRefused(bad, 3, ok, 1, "vertex 1: NaN or Inf coordinate");
	vec3s far[3] = {v3(0.0f, 0.0f, 0.0f), v3(3e6f, 0.0f, 0.0f), v3(0.0f, 0.0f, 1.0f)};
	expectMeshRefused(far, 3, ok, 1, "vertex 1 is 3e+06 m from the origin");
	// The good one builds and its shape validates; scaled, it does not.
	tbMesh mesh;
	cr_assert(tbBuildMesh(v, 4, ok, 1, &mesh, NULL, 0));
	tbGeometry g = tbMakeMeshShape(&mesh);
	char message[256];
	cr_expect(tbGeometry_Validate(&g, message, sizeof message), "%s", message);
	g.scale = v3(2.0f, 1.0f, 1.0f);
	cr_expect_not(tbGeometry_Validate(&g, message, sizeof message));
	cr_expect_not_null(strstr(message, "takes no scale"), "%s", message);
	// Convex-only queries refuse it cleanly.
	g.scale = v3(1.0f, 1.0f, 1.0f);
	tbGeometry ball = tbMakeSphere(0.5f);
	tbManifold m = tbCollideShapes(&g, tbTransformIdentity(), &ball,
	                               tbMakeTransform(v3(0.2f, 0.1f, 0.2f), quatIdentity()), 0.1f);
	cr_expect_eq(m.pointCount, 0);
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult q = tbQueryShapes(&g, tbTransformIdentity(), &ball, tbTransformIdentity(), &def);
	cr_expect_eq(q.status, tb_queryInvalidInput);
	tbDestroyMesh(&mesh);
	tbGeometry unbuilt = tbMakeMeshShape(NULL);
	cr_expect_not(tbGeometry_Validate(&unbuilt, message, sizeof message));
	cr_expect_not_null(strstr(message, "not built"), "%s", message);
}

Test(refusal, bad_heightfields)
{
	float h[6] = {0.0f, 1.0f, 2.0f, 0.0f, NAN, 1.0f};
	tbHeightfield f;
	char message[256] = "";
	cr_expect_not(tbBuildHeightfield(h, 2, 3, 1.0f, 1.0f, &f, message, sizeof message));
	cr_expect_not_null(strstr(message, "heights[4] (row 1, column 1)"), "%s", message);
	h[4] = INFINITY;
	cr_expect_not(tbBuildHeightfield(h, 2, 3, 1.0f, 1.0f, &f, message, sizeof message));
	cr_expect_not_null(strstr(message, "heights[4]"), "%s", message);
	h[4] = 0.0f;
	cr_expect_not(tbBuildHeightfield(h, 1, 6, 1.0f, 1.0f, &f, message, sizeof message));
	cr_expect_not_null(strstr(message, "rows and columns must be >= 2"), "%s", message);
	cr_expect_not(tbBuildHeightfield(h, 2, 3, 0.0f, 1.0f, &f, message, sizeof message));
	cr_expect_not_null(strstr(message, "spacing"), "%s", message);
	cr_expect_not(tbBuildHeightfield(h, 2, 3, NAN, 1.0f, &f, message, sizeof message));
	cr_expect(tbBuildHeightfield(h, 2, 3, 1.0f, 1.0f, &f, message, sizeof message), "%s", message);
	cr_expect_eq(
	    tbGeometry_GetTriangleCount(&(tbGeometry){.type = tb_heightfieldShape, .heightfield = &f}),
	    4);
	tbDestroyHeightfield(&f);
}

Test(refusal, level_geometry_on_moving_bodies)
{
	tbWorldId world = makeWorld(false);
	tbMesh mesh;
	gridMesh(2, 1.0f, false, &mesh);
	float heights[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	tbHeightfield field;
	cr_assert(tbBuildHeightfield(heights, 2, 2, 1.0f, 1.0f, &field, NULL, 0));
	tbGeometry shapes[2] = {tbMakeMeshShape(&mesh), tbMakeHeightfieldShape(&field)};
	tbBodyType types[2] = {tb_dynamicBody, tb_kinematicBody};
	for (int i = 0; i < 2; ++i) {
		for (int k = 0; k < 2; ++k) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = types[k];
			tbBodyId body = tbCreateBody(world, &bd);
			tbClearLastError();
			tbShapeDef sd = tbDefaultShapeDef();
			tbShapeId s = tbCreateShape(body, &sd, &shapes[i]);
			cr_expect(TB_IS_NULL(s));
			const char* e = tbGetLastError();
			cr_expect_not_null(strstr(e, "static bodies only"), "%s", e);
			cr_expect_not_null(strstr(e, k == 0 ? "is dynamic" : "is kinematic"), "%s", e);
			cr_expect_not_null(strstr(e, i == 0 ? "a mesh shape" : "a heightfield shape"), "%s", e);
			cr_expect_eq(tbBody_GetShapeCount(body), 0);
		}
		// Nor a sensor, even on a static body: its exact overlap test takes convex shapes only.
		tbBodyDef gd = tbDefaultBodyDef();
		tbBodyId ground = tbCreateBody(world, &gd);
		tbShapeDef sd = tbDefaultShapeDef();
		sd.isSensor = true;
		tbClearLastError();
		cr_expect(TB_IS_NULL(tbCreateShape(ground, &sd, &shapes[i])));
		cr_expect_not_null(strstr(tbGetLastError(), "cannot be a sensor"), "%s", tbGetLastError());
	}
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
	tbDestroyHeightfield(&field);
}

// ---------------------------------------------------------------------------------------------
// Scene files

static const char* kMeshScene =
    "{\n"
    "  \"sleep\": false,\n"
    "  \"bodies\": [\n"
    "    { \"name\": \"floor\", \"type\": \"static\", \"position\": [0, 0, 0],\n"
    "      \"shape\": { \"type\": \"mesh\",\n"
    "        \"vertices\": [[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]],\n"
    "        \"triangles\": [[0, 2, 1], [0, 3, 2]] } },\n"
    "    { \"name\": \"hill\", \"type\": \"static\", \"position\": [20, 0, 0],\n"
    "      \"shape\": { \"type\": \"heightfield\", \"rows\": 3, \"columns\": 2,\n"
    "        \"spacing\": [4, 2], \"heights\": [1, 1, 1, 1, 1, 1] } },\n"
    "    { \"name\": \"crate\", \"position\": [0.3, 1, 0.2],\n"
    "      \"shape\": { \"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5] } },\n"
    "    { \"name\": \"ball\", \"position\": [20.5, 3, 0.5],\n"
    "      \"shape\": { \"type\": \"sphere\", \"radius\": 0.5 } }\n"
    "  ]\n"
    "}\n";

Test(scene, mesh_and_heightfield_bodies_simulate)
{
	tbSceneDef def;
	tbSceneError error;
	cr_assert(tbParseScene(kMeshScene, strlen(kMeshScene), "level.json", &def, &error), "%s",
	          error.message);
	cr_expect_eq(def.meshCount, 1);
	cr_expect_eq(def.heightfieldCount, 1);
	cr_expect_eq(def.bodies[0].shape.type, tb_meshShape);
	cr_expect_eq(def.bodies[1].shape.type, tb_heightfieldShape);
	tbScene scene;
	cr_assert(tbBuildScene(&def, &scene, &error), "%s", error.message);
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(scene.worldId, kDt, kSubsteps);
	}
	// The crate rests on the mesh (centre 0.5 m up), the ball on the heightfield's plateau at
	// y = 1 (centre 1.5 m up).
	vec3s crate = tbBody_GetPosition(scene.bodyIds[2]);
	vec3s ball = tbBody_GetPosition(scene.bodyIds[3]);
	printf("SCENE level.json after 2 s: crate centre %.4f m (0.5), ball centre %.4f m (1.5)\n",
	       (double)crate.y, (double)ball.y);
	cr_expect_float_eq(crate.y, 0.5f, 0.01f);
	cr_expect_float_eq(ball.y, 1.5f, 0.01f);
	tbDestroyScene(&scene);
}

static void expectSceneError(const char* text, int line, const char* keyPath, const char* words)
{
	tbSceneDef def;
	tbSceneError error;
	cr_expect_not(tbParseScene(text, strlen(text), "bad.json", &def, &error), "accepted: %s",
	              words);
	cr_expect_eq(error.line, line, "line %d, expected %d: %s", error.line, line, error.message);
	cr_expect_str_eq(error.keyPath, keyPath, "%s", error.message);
	cr_expect_not_null(strstr(error.message, words), "'%s' lacks '%s'", error.message, words);
	cr_expect_eq(def.bodyCount, 0);
}

Test(scene, level_geometry_errors_name_key_and_line)
{
	expectSceneError("{\"bodies\": [\n"
	                 "  {\"name\": \"lid\", \"type\": \"dynamic\",\n"
	                 "   \"shape\": {\"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],\n"
	                 "     \"triangles\": [[0,2,1]]}}]}",
	                 3, "bodies[0].shape",
	                 "body 'lid' is dynamic: a mesh goes on static bodies only");
	expectSceneError("{\"bodies\": [\n"
	                 "  {\"name\": \"belt\", \"type\": \"kinematic\",\n"
	                 "   \"shape\": {\"type\": \"heightfield\", \"rows\": 2, \"columns\": 2,\n"
	                 "     \"spacing\": [1, 1], \"heights\": [0, 0, 0, 0]}}]}",
	                 3, "bodies[0].shape",
	                 "body 'belt' is kinematic: a heightfield goes on static bodies only");
	expectSceneError("{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"mesh\",\n"
	                 "  \"vertices\": [[0,0,0],[1,0,0],[0,0,1],[2,0,0]],\n"
	                 "  \"triangles\": [\n"
	                 "    [0,2,1],\n"
	                 "    [0,1,3]]}}]}",
	                 5, "bodies[0].shape.triangles[1]", "degenerate, zero area");
	expectSceneError("{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"mesh\",\n"
	                 "  \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],\n"
	                 "  \"triangles\": [[0,2,1],\n"
	                 "    [0,3,1]]}}]}",
	                 4, "bodies[0].shape.triangles[1][1]", "expected an integer in [0, 2], got 3");
	expectSceneError("{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"mesh\",\n"
	                 "  \"vertices\": [[0,0,0],[1,0,0],\n"
	                 "     [0,\"y\",1]],\n"
	                 "  \"triangles\": [[0,2,1]]}}]}",
	                 3, "bodies[0].shape.vertices[2]", "expected 3 numbers");
	expectSceneError("{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"heightfield\",\n"
	                 "  \"rows\": 2, \"columns\": 3, \"spacing\": [1, 1],\n"
	                 "  \"heights\": [0, 0, 0,\n"
	                 "     0, null, 0]}}]}",
	                 4, "bodies[0].shape.heights[4]", "expected a number");
	expectSceneError("{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"heightfield\",\n"
	                 "  \"rows\": 2, \"columns\": 3, \"spacing\": [1, 1],\n"
	                 "  \"heights\": [0, 0, 0, 0, 0]}}]}",
	                 3, "bodies[0].shape.heights",
	                 "expected rows x columns = 2 x 3 = 6 numbers, got 5");
	expectSceneError(
	    "{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"heightfield\",\n"
	    "  \"rows\": 1, \"columns\": 3, \"spacing\": [1, 1], \"heights\": [0, 0, 0]}}]}",
	    2, "bodies[0].shape.rows", "expected an integer in [2,");
	expectSceneError(
	    "{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"heightfield\",\n"
	    "  \"rows\": 2, \"columns\": 2, \"spacing\": [1, 0], \"heights\": [0, 0, 0, 0]}}]}",
	    2, "bodies[0].shape.spacing", "expected 2 numbers > 0");
	expectSceneError("{\"bodies\": [{\"type\": \"static\", \"shape\": {\"type\": \"mesh\",\n"
	                 "  \"vertices\": [[0,0,0],[1,0,0],[0,0,1]], \"triangles\": [[0,2,1]],\n"
	                 "  \"normals\": []}}]}",
	                 3, "bodies[0].shape.normals", "");
	// A rain of meshes would put them on dynamic bodies.
	expectSceneError("{\"generators\": [{\"type\": \"rain\", \"count\": 2, \"seed\": 1,\n"
	                 "  \"shape\": {\"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],\n"
	                 "    \"triangles\": [[0,2,1]]},\n"
	                 "  \"region_min\": [0, 0, 0], \"region_max\": [10, 10, 10]}]}",
	                 2, "generators[0].shape", "goes on static bodies only");
}

// ---------------------------------------------------------------------------------------------
// Edges that must stay: a floor meeting a wall at a concave edge (inactive) still stops a box at
// the wall's face, and a box slid off a mesh's boundary edge falls off it.

// A floor of 10 x 4 cells of 1 m from x = -7 to 3, and a wall of 4 x 1 cells at x = 3 from y = 0 to
// 1, facing -x: vertices shared along the foot of the wall (a concave edge).
static void floorAndWall(tbMesh* mesh)
{
	vec3s v[11 * 5 + 2 * 5];
	int idx[6 * 10 * 4 + 6 * 4];
	int k = 0;
	for (int r = 0; r < 5; ++r) {
		for (int c = 0; c < 11; ++c) {
			v[r * 11 + c] = v3(-7.0f + (float)c, 0.0f, -2.0f + (float)r);
		}
	}
	for (int r = 0; r < 4; ++r) {
		for (int c = 0; c < 10; ++c) {
			int p00 = r * 11 + c, p01 = p00 + 1, p10 = p00 + 11, p11 = p10 + 1;
			int t[6] = {p00, p10, p11, p00, p11, p01};
			memcpy(idx + k, t, sizeof t);
			k += 6;
		}
	}
	// The wall's top row (y = 1); its foot is the floor's column c = 10 (x = 3).
	for (int r = 0; r < 5; ++r) {
		v[55 + r] = v3(3.0f, 1.0f, -2.0f + (float)r);
	}
	for (int r = 0; r < 4; ++r) {
		int f0 = r * 11 + 10, f1 = (r + 1) * 11 + 10, t0 = 55 + r, t1 = 56 + r;
		// Counter-clockwise seen from -x (the room side); the second one's edge 0 is the foot.
		int t[6] = {f0, t1, t0, f0, f1, t1};
		memcpy(idx + k, t, sizeof t);
		k += 6;
	}
	char message[256];
	cr_assert(tbBuildMesh(v, 60, idx, k / 3, mesh, message, sizeof message), "%s", message);
}

Test(edges, a_wall_on_a_concave_edge_stops_a_box)
{
	tbMesh mesh;
	floorAndWall(&mesh);
	// The wall's normal faces the room, and the floor-wall edge is inactive (concave).
	int wall = 81; // the wall's first foot triangle
	cr_expect_float_eq(mesh.normals[wall].x, -1.0f, 1e-6f);
	cr_expect_eq(mesh.edgeFlags[wall] & 1u, 0u, "the wall's foot edge (concave) is inactive");
	float finals[2];
	for (int kind = 0; kind < 2; ++kind) {
		tbWorldId world = makeWorld(false);
		tbBodyDef bd = tbDefaultBodyDef();
		tbShapeDef sd = tbDefaultShapeDef();
		sd.friction = 0.1f;
		if (kind == 0) {
			tbBodyId level = tbCreateBody(world, &bd);
			tbGeometry g = tbMakeMeshShape(&mesh);
			tbCreateShape(level, &sd, &g);
		} else {
			// The same room of boxes: floor top at y = 0, wall face at x = 3.
			bd.position = v3(-2.0f, -0.5f, 0.0f);
			tbBodyId floorBody = tbCreateBody(world, &bd);
			tbGeometry g = tbMakeBox(5.0f, 0.5f, 2.0f);
			tbCreateShape(floorBody, &sd, &g);
			bd.position = v3(3.5f, 0.5f, 0.0f);
			tbBodyId wallBody = tbCreateBody(world, &bd);
			g = tbMakeBox(0.5f, 0.5f, 2.0f);
			tbCreateShape(wallBody, &sd, &g);
		}
		tbBodyId box = makeBox(world, v3(-3.0f, 0.3f, 0.1f), quatIdentity(), v3(0.3f, 0.3f, 0.3f),
		                       1000.0f, 0.1f);
		for (int s = 0; s < 20; ++s) {
			tbWorld_Step(world, kDt, kSubsteps);
		}
		tbBody_SetLinearVelocity(box, v3(4.0f, 0.0f, 0.0f));
		float farthest = -10.0f;
		for (int s = 0; s < 300; ++s) {
			tbWorld_Step(world, kDt, kSubsteps);
			farthest = fmaxf(farthest, tbBody_GetPosition(box).x);
		}
		vec3s p = tbBody_GetPosition(box);
		finals[kind] = p.x;
		printf(
		    "SCENE box into a wall (%s): rests at x %.4f (face at 3 - 0.3 = 2.7), farthest %.4f, "
		    "y %.4f\n",
		    kind == 0 ? "mesh floor and wall" : "boxes", (double)p.x, (double)farthest,
		    (double)p.y);
		cr_expect_lt(farthest, 2.72f, "went %g m into the wall", (double)(farthest - 2.7f));
		cr_expect_gt(p.x, 2.5f, "stopped short of the wall at %g", (double)p.x);
		cr_expect_float_eq(p.y, 0.3f, 0.02f);
		tbDestroyWorld(world);
	}
	cr_expect_float_eq(finals[0], finals[1], 0.05f);
	tbDestroyMesh(&mesh);
}

Test(edges, a_box_slides_off_the_boundary)
{
	// 6 x 2 cells from x = -3 to 3: a box at 4 m/s with mu 0.1 leaves the edge and falls.
	tbMesh mesh;
	gridMesh(6, 1.0f, false, &mesh);
	tbWorldId world = makeWorld(false);
	tbBodyDef bd = tbDefaultBodyDef();
	tbBodyId level = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.1f;
	tbGeometry g = tbMakeMeshShape(&mesh);
	tbCreateShape(level, &sd, &g);
	tbBodyId box = makeBox(world, v3(-2.0f, 0.25f, 0.1f), quatIdentity(), v3(0.25f, 0.25f, 0.25f),
	                       1000.0f, 0.1f);
	tbBody_SetLinearVelocity(box, v3(4.0f, 0.0f, 0.0f));
	for (int s = 0; s < 180; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	vec3s p = tbBody_GetPosition(box);
	// Off the edge (5 m on) after about 1.5 s of sliding: 3 s is about 1.5 s of falling, metres
	// below.
	cr_expect_gt(p.x, 3.0f);
	cr_expect_lt(p.y, -1.0f, "still at y %g", (double)p.y);
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
}

// Distance from (x, y) to the segment a-b in the plane.
static float segmentDistance(float x, float y, float ax, float ay, float bx, float by)
{
	float dx = bx - ax, dy = by - ay;
	float t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
	t = fminf(fmaxf(t, 0.0f), 1.0f);
	return hypotf(x - ax - t * dx, y - ay - t * dy);
}

Test(terrain, a_ball_rolls_over_shallow_ridges)
{
	// Two slopes meeting in a convex ridge along z, folded by less than the active-edge angle (so
	// the ridge's edges are inactive): across the fold the ball's lowest point along each face's
	// normal lies over the other face. It must stay on the surface the whole way (it fell through
	// a rolling terrain before tbCollideLevelTriangle kept such contacts). The clearance is the
	// ball centre's distance to the ridge's profile less its radius, in the x-y plane.
	const float angles[] = {0.5f, 1.5f, 3.0f};
	const float radii[] = {0.25f, 0.1f, 0.6f};
	for (int k = 0; k < 3; ++k) {
		float slope = tanf(angles[k] * GLM_PIf / 180.0f), r = radii[k], L = 6.0f;
		const vec3s v[6] = {v3(-L, -L * slope, -L), v3(0, 0, -L), v3(L, -L * slope, -L),
		                    v3(-L, -L * slope, L),  v3(0, 0, L),  v3(L, -L * slope, L)};
		// Up-facing triangles, counter-clockwise seen from above.
		const int tris[12] = {0, 3, 4, 0, 4, 1, 1, 4, 5, 1, 5, 2};
		tbMesh mesh;
		char message[160];
		cr_assert(tbBuildMesh(v, 6, tris, 4, &mesh, message, (int)sizeof message), "%s", message);
		tbWorldId world = makeWorld(false);
		tbBodyDef gd = tbDefaultBodyDef();
		tbBodyId ground = tbCreateBody(world, &gd);
		tbShapeDef sd = tbDefaultShapeDef();
		tbGeometry g = tbMakeMeshShape(&mesh);
		cr_assert(!TB_IS_NULL(tbCreateShape(ground, &sd, &g)), "%s", tbGetLastError());
		// Across the ridge, then along it (inside the strip where neither face holds the ball).
		for (int along = 0; along < 2; ++along) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = tb_dynamicBody;
			float x0 = along ? 1e-3f * r : -3.0f;
			bd.position = v3(x0, -fabsf(x0) * slope + r / cosf(atanf(slope)), along ? -4.0f : 0.3f);
			// Rolling already (omega = v / r), fast enough to climb the slope and go over.
			bd.linearVelocity = along ? v3(0.0f, 0.0f, 1.0f) : v3(3.0f, 0.0f, 0.0f);
			bd.angularVelocity = along ? v3(1.0f / r, 0.0f, 0.0f) : v3(0.0f, 0.0f, -3.0f / r);
			tbBodyId ball = tbCreateBody(world, &bd);
			tbGeometry sphere = tbMakeSphere(r);
			tbCreateShape(ball, &sd, &sphere);
			float lowest = INFINITY, highest = -INFINITY;
			bool crossed = false;
			for (int s = 0; s < 300; ++s) {
				tbWorld_Step(world, kDt, kSubsteps);
				vec3s p = tbBody_GetPosition(ball);
				if (fabsf(p.x) > L - r || fabsf(p.z) > L - r) {
					break;
				}
				float d = fminf(segmentDistance(p.x, p.y, -L, -L * slope, 0.0f, 0.0f),
				                segmentDistance(p.x, p.y, 0.0f, 0.0f, L, -L * slope));
				lowest = fminf(lowest, d - r);
				highest = fmaxf(highest, d - r);
				crossed = crossed || (along ? p.z > 0.0f : p.x > 1.0f);
			}
			printf("SCENE ball of radius %.2f %s a ridge folded %.1f deg: clearance %.5f to "
			       "%.5f m, %s\n",
			       (double)r, along ? "along" : "over", (double)(2.0f * angles[k]), (double)lowest,
			       (double)highest, crossed ? "went on" : "stopped");
			cr_expect(crossed, "the ball stopped");
			cr_expect_gt(lowest, -0.002f * (r / 0.25f), "radius %g, fold %g deg: sank %g m",
			             (double)r, (double)(2.0f * angles[k]), (double)-lowest);
			tbDestroyBody(ball);
		}
		tbDestroyWorld(world);
		tbDestroyMesh(&mesh);
	}
}

// ---------------------------------------------------------------------------------------------
// One manifold per shape and mesh: a box resting on a flat mesh has one contact of at most four
// points whatever the size of the cells, and rests where it rests on a box floor; a compound of
// hulls toppling onto a fine mesh holds a few contacts per hull.

typedef struct Rest
{
	float y;      // the box's height after settling, m
	int contacts; // the world's contacts (pairs whose fat boxes overlap)
	int manifolds, points;
} Rest;

static Rest restBox(float cell)
{
	tbWorldId world = makeWorld(false);
	tbMesh mesh;
	memset(&mesh, 0, sizeof mesh);
	tbShapeDef sd = tbDefaultShapeDef();
	if (cell > 0.0f) {
		gridMesh((int)lroundf(4.0f / cell), cell, false, &mesh);
		tbBodyDef gd = tbDefaultBodyDef();
		tbBodyId ground = tbCreateBody(world, &gd);
		tbGeometry g = tbMakeMeshShape(&mesh);
		cr_assert(!TB_IS_NULL(tbCreateShape(ground, &sd, &g)), "%s", tbGetLastError());
	} else {
		makeGround(world, 2.0f, 0.6f);
	}
	tbBodyId box = makeBox(world, v3(0.013f, 0.52f, 0.027f), quatIdentity(), v3(0.5f, 0.5f, 0.5f),
	                       1000.0f, 0.6f);
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	Rest r;
	r.y = tbBody_GetPosition(box).y;
	r.contacts = tbWorld_GetCounters(world).contactCount;
	tbContactData data[16];
	r.manifolds = tbBody_GetContactData(box, data, 16);
	r.points = 0;
	for (int i = 0; i < r.manifolds; ++i) {
		r.points += data[i].manifold.pointCount;
	}
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
	return r;
}

Test(level, a_box_rests_on_one_manifold_at_any_cell_size)
{
	Rest floor = restBox(0.0f);
	const float cells[] = {0.5f, 0.1f, 0.02f};
	for (int i = 0; i < 3; ++i) {
		Rest r = restBox(cells[i]);
		printf("SCENE level rest on %.2f m cells: height %.5f m (box floor %.5f), %d contacts, "
		       "%d manifolds, %d points\n",
		       (double)cells[i], (double)r.y, (double)floor.y, r.contacts, r.manifolds, r.points);
		cr_expect_eq(r.contacts, 1, "%g m cells: %d contacts", (double)cells[i], r.contacts);
		cr_expect_eq(r.manifolds, 1, "%g m cells: %d manifolds", (double)cells[i], r.manifolds);
		cr_expect(r.points >= 3 && r.points <= 4, "%g m cells: %d points", (double)cells[i],
		          r.points);
		// At the analytic height (the box's half extent) to a tenth of a millimetre, as on a box.
		cr_expect_lt(fabsf(r.y - 0.5f), 1e-4f, "%g m cells: height %g m", (double)cells[i],
		             (double)r.y);
		cr_expect_lt(fabsf(r.y - floor.y), 1e-4f, "%g m cells: height %g m, box floor %g m",
		             (double)cells[i], (double)r.y, (double)floor.y);
	}
}

Test(level, a_spinning_compound_topples_onto_a_fine_mesh)
{
	// A column of four 2 m hull boxes of 0.5 m section given in the body frame (every hull's
	// origin at the body's, the centre of mass 4 m above it), dropped upright, tilted and spinning
	// onto a mesh of 10 cm cells. It falls over and rests on a long face: its centre of mass at
	// the half thickness, 0.25 m.
	tbHull hulls[4];
	for (int k = 0; k < 4; ++k) {
		vec3s pts[8];
		for (int i = 0; i < 8; ++i) {
			pts[i] = v3((i & 1) ? 0.25f : -0.25f, (float)(2 * k) + ((i & 2) ? 2.0f : 0.0f),
			            (i & 4) ? 0.25f : -0.25f);
		}
		int bad;
		cr_assert_eq(tbBuildHull(pts, 8, hulls + k, &bad), tb_hullOk);
	}
	tbWorldId world = makeWorld(true);
	tbMesh mesh;
	gridMesh(240, 0.1f, true, &mesh);
	tbShapeDef sd = tbDefaultShapeDef();
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId ground = tbCreateBody(world, &gd);
	tbGeometry g = tbMakeMeshShape(&mesh);
	cr_assert(!TB_IS_NULL(tbCreateShape(ground, &sd, &g)), "%s", tbGetLastError());
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = v3(0.0f, 0.05f, 0.0f);
	bd.rotation = glms_quatv(0.1f, v3(0.0f, 0.0f, 1.0f));
	bd.angularVelocity = v3(0.0f, 1.5f, -0.8f);
	tbBodyId body = tbCreateBody(world, &bd);
	for (int k = 0; k < 4; ++k) {
		tbGeometry h = tbMakeHullShape(hulls + k);
		tbCreateShape(body, &sd, &h);
	}
	int most = 0;
	float lowest = 1e9f;
	int s = 0;
	for (; s < 900 && tbBody_IsAwake(body); ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		int contacts = tbWorld_GetCounters(world).contactCount;
		most = contacts > most ? contacts : most;
		lowest = fminf(lowest, tbBody_GetWorldCenterOfMass(body).y);
	}
	vec3s c = tbBody_GetWorldCenterOfMass(body);
	printf("SCENE level compound on 0.1 m cells: asleep after %d steps, centre of mass at %.4f m "
	       "(lowest %.4f m), most contacts %d\n",
	       s, (double)c.y, (double)lowest, most);
	cr_expect(!tbBody_IsAwake(body), "still awake after %d steps", s);
	cr_expect_lt(fabsf(c.y - 0.25f), 0.005f, "rests at %g m", (double)c.y);
	cr_expect_gt(lowest, 0.25f - 0.03f, "sank to %g m", (double)lowest);
	// At most the level manifolds of each of its four hulls, whatever the cells under it.
	cr_expect_leq(most, 4 * TB_MAX_LEVEL_MANIFOLDS, "%d contacts", most);
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
	for (int k = 0; k < 4; ++k) {
		tbDestroyHull(hulls + k);
	}
}

// A hexagonal prism of radius 0.6 m and length 2.4 m along y (the trees' trunk pieces).
static void makeTrunkPrism(tbHull* hull)
{
	vec3s points[12];
	for (int i = 0; i < 6; ++i) {
		float a = (float)i * kPi / 3.0f;
		points[i] = v3(0.6f * cosf(a), -1.2f, 0.6f * sinf(a));
		points[i + 6] = v3(0.6f * cosf(a), 1.2f, 0.6f * sinf(a));
	}
	cr_assert_eq(tbBuildHull(points, 12, hull, NULL), tb_hullOk);
}

// The convex shape's triangles against each triangle alone (tbCollideLevelTriangle over every
// triangle of the mesh, the independent answer): tbCollideLevel, which skips the triangles a face
// axis proves farther than the speculative distance, must find points exactly when some triangle
// gives one, its deepest point must be the deepest of all triangles', and its distance the
// smallest triangle distance (capped at the speculative distance).
static void expectLevelMatchesTriangles(const tbGeometry* convex, const tbGeometry* level,
                                        uint32_t seed, int poses)
{
	const float speculative = 0.05f;
	int touching = 0;
	for (int k = 0; k < poses; ++k) {
		float x = 3.0f * (tbRandomUniform(&seed) - 0.5f);
		float z = 3.0f * (tbRandomUniform(&seed) - 0.5f);
		float lift = 0.9f * tbRandomUniform(&seed) - 0.15f;
		tbTransform pose = {v3(x, waveHeight(x, z) + lift, z), tbRandomQuat(&seed)};
		// A bottom point on the surface for a third of the poses: contacts at every depth.
		if (k % 3 == 0) {
			vec3s down =
			    tbGeometry_Support(convex, tbInvRotateVector(pose.q, v3(0.0f, -1.0f, 0.0f)), NULL);
			vec3s low = tbTransformPoint(pose, down);
			pose.p.y += waveHeight(low.x, low.z) - low.y + 0.03f * (tbRandomUniform(&seed) - 0.5f);
		}
		tbTransform levelInConvex = tbInvMulTransforms(pose, tbTransformIdentity());
		tbManifold groups[TB_MAX_LEVEL_MANIFOLDS];
		float distance = 0.0f;
		int count = tbCollideLevel(convex, level, levelInConvex, speculative, groups,
		                           TB_MAX_LEVEL_MANIFOLDS, &distance);
		float deepest = FLT_MAX;
		for (int g = 0; g < count; ++g) {
			for (int i = 0; i < groups[g].pointCount; ++i) {
				deepest = fminf(deepest, groups[g].points[i].separation);
			}
		}
		float bruteDeepest = FLT_MAX, bruteDistance = speculative;
		int triangles = tbGeometry_GetTriangleCount(level);
		for (int t = 0; t < triangles; ++t) {
			float d = 0.0f;
			tbManifold m = tbCollideLevelTriangle(convex, level, levelInConvex, t, speculative, &d);
			bruteDistance = fminf(bruteDistance, d);
			for (int i = 0; i < m.pointCount; ++i) {
				bruteDeepest = fminf(bruteDeepest, m.points[i].separation);
			}
		}
		touching += count > 0 ? 1 : 0;
		cr_expect_eq(count > 0, bruteDeepest < FLT_MAX, "pose %d: %d groups, brute deepest %g", k,
		             count, (double)bruteDeepest);
		if (count > 0 && bruteDeepest < FLT_MAX) {
			cr_expect_lt(fabsf(deepest - bruteDeepest), 1e-5f, "pose %d: deepest %g, brute %g", k,
			             (double)deepest, (double)bruteDeepest);
		}
		cr_expect_lt(fabsf(distance - bruteDistance), 1e-5f, "pose %d: distance %g, brute %g", k,
		             (double)distance, (double)bruteDistance);
	}
	// The poses cover both cases.
	cr_expect_gt(touching, poses / 4, "%d of %d poses touching", touching, poses);
	cr_expect_lt(touching, poses, "%d of %d poses touching", touching, poses);
}

// The wavy mesh of 17 x 17 samples 0.5 m apart with a trunk prism and a box to collide with it.
typedef struct WaveShapes
{
	tbMesh mesh;
	tbHull hull;
	tbGeometry level, prism, box;
} WaveShapes;

static void makeWaveShapes(WaveShapes* w)
{
	waveMesh(17, 0.5f, &w->mesh);
	w->level = tbMakeMeshShape(&w->mesh);
	makeTrunkPrism(&w->hull);
	w->prism = tbMakeHullShape(&w->hull);
	w->box = tbMakeBox(0.8f, 0.25f, 0.5f);
}

static void destroyWaveShapes(WaveShapes* w)
{
	tbDestroyHull(&w->hull);
	tbDestroyMesh(&w->mesh);
}

Test(level, skipped_triangles_match_every_triangle_alone)
{
	WaveShapes w;
	makeWaveShapes(&w);
	expectLevelMatchesTriangles(&w.prism, &w.level, 12345u, 120);
	expectLevelMatchesTriangles(&w.box, &w.level, 777u, 120);
	// Round shapes are filtered by their core (a segment, a centre) and radius.
	tbGeometry capsule = tbMakeCapsule(0.3f, 0.6f);
	expectLevelMatchesTriangles(&capsule, &w.level, 4242u, 120);
	capsule.scale = v3(1.5f, 1.5f, 1.5f);
	expectLevelMatchesTriangles(&capsule, &w.level, 31u, 120);
	tbGeometry ball = tbMakeSphere(0.4f);
	expectLevelMatchesTriangles(&ball, &w.level, 99u, 120);
	destroyWaveShapes(&w);
}

// The documented rule of tbReduceManifoldPoints written the plain way (each area a cross product
// of the point's own vectors): the deepest point, the farthest from it across the normal, the one
// making the largest triangle with those two, the one adding the most area outside that triangle.
static int plainReduce(const tbManifoldPoint* points, int count, vec3s n, int keep[4])
{
	int i0 = 0;
	for (int i = 1; i < count; ++i) {
		i0 = points[i].separation < points[i0].separation ? i : i0;
	}
	vec3s p0 = points[i0].pointA;
	int i1 = -1;
	float far2 = 0.0f;
	for (int i = 0; i < count; ++i) {
		vec3s d = glms_vec3_sub(points[i].pointA, p0);
		d = glms_vec3_sub(d, glms_vec3_scale(n, glms_vec3_dot(d, n)));
		if (glms_vec3_norm2(d) > far2) {
			far2 = glms_vec3_norm2(d);
			i1 = i;
		}
	}
	keep[0] = i0;
	keep[1] = i1;
	vec3s p1 = points[i1].pointA;
	int i2 = -1;
	float best = 0.0f, sign = 1.0f;
	for (int i = 0; i < count; ++i) {
		vec3s c = glms_vec3_cross(glms_vec3_sub(p1, p0), glms_vec3_sub(points[i].pointA, p0));
		float area = glms_vec3_dot(c, n);
		if (fabsf(area) > best) {
			best = fabsf(area);
			sign = area < 0.0f ? -1.0f : 1.0f;
			i2 = i;
		}
	}
	keep[2] = i2;
	vec3s t[3] = {p0, sign > 0.0f ? p1 : points[i2].pointA, sign > 0.0f ? points[i2].pointA : p1};
	int i3 = -1;
	best = 0.0f;
	for (int i = 0; i < count; ++i) {
		for (int e = 0; e < 3; ++e) {
			vec3s c = glms_vec3_cross(glms_vec3_sub(t[(e + 1) % 3], t[e]),
			                          glms_vec3_sub(points[i].pointA, t[e]));
			if (-glms_vec3_dot(c, n) > best) {
				best = -glms_vec3_dot(c, n);
				i3 = i;
			}
		}
	}
	keep[3] = i3;
	return i3 >= 0 ? 4 : 3;
}

// Random clouds of 5 to 16 points spread over a tilted plane (some a little off it): the reduced
// set is the plain rule's, point for point, and keeps the deepest point.
Test(level, reduced_points_follow_the_rule)
{
	uint32_t seed = 2024u;
	for (int trial = 0; trial < 200; ++trial) {
		versors q = tbRandomQuat(&seed);
		vec3s n = tbRotateVector(q, v3(0.0f, 1.0f, 0.0f));
		vec3s u = tbRotateVector(q, v3(1.0f, 0.0f, 0.0f)),
		      w = tbRotateVector(q, v3(0.0f, 0.0f, 1.0f));
		int count = 5 + trial % 12;
		tbManifoldPoint points[16], copy[16];
		for (int i = 0; i < count; ++i) {
			float a = 2.0f * tbRandomUniform(&seed) - 1.0f,
			      b = 2.0f * tbRandomUniform(&seed) - 1.0f;
			float h = 0.01f * (tbRandomUniform(&seed) - 0.5f);
			memset(points + i, 0, sizeof points[i]);
			points[i].pointA = glms_vec3_add(
			    glms_vec3_add(glms_vec3_scale(u, a), glms_vec3_scale(w, b)), glms_vec3_scale(n, h));
			points[i].pointB = points[i].pointA;
			points[i].separation = 0.05f * tbRandomUniform(&seed) - 0.02f;
			points[i].id = (uint32_t)i;
		}
		memcpy(copy, points, sizeof points);
		int keep[4];
		int expected = plainReduce(copy, count, n, keep);
		int kept = tbReduceManifoldPoints(points, count, n);
		cr_assert_eq(kept, expected, "trial %d: %d kept, the rule keeps %d", trial, kept, expected);
		for (int k = 0; k < kept; ++k) {
			cr_expect_eq(points[k].id, copy[keep[k]].id, "trial %d: point %d is %u, the rule's %u",
			             trial, k, points[k].id, copy[keep[k]].id);
		}
	}
}

// The deepest point and the smallest distance of tbCollideLevelCached's answer.
static int levelDeepest(const tbGeometry* convex, const tbGeometry* level, tbTransform levelIn,
                        float speculative, tbLevelSatCache* cache, float* deepest, float* distance)
{
	tbManifold groups[TB_MAX_LEVEL_MANIFOLDS];
	int count = tbCollideLevelCached(convex, level, levelIn, speculative, groups,
	                                 TB_MAX_LEVEL_MANIFOLDS, distance, cache);
	*deepest = FLT_MAX;
	for (int g = 0; g < count; ++g) {
		for (int i = 0; i < groups[g].pointCount; ++i) {
			*deepest = fminf(*deepest, groups[g].points[i].separation);
		}
	}
	return count;
}

// A shape gliding and turning over the wavy mesh from crest to crest, its lowest point kept within
// 2 cm of the surface, collided each step with the cache it kept (tbCollideLevelCached) and without
// (the full separating-axis test for every triangle, the independent answer): the cached axes stand
// for the full test only while their separation has moved by less than 1 % of the smaller shape's
// size, so the deepest points of the two answers agree to within that, and both find contact at the
// same poses.
static void expectCachedAxesMatchFullTest(const tbGeometry* convex, const tbGeometry* level)
{
	const float speculative = 0.05f;
	tbLevelSatCache cache;
	memset(&cache, 0, sizeof cache);
	float size = fminf(tbGeometry_BoundingRadius(convex), 0.5f); // the mesh's cells are 0.5 m
	float worst = 0.0f;
	int touching = 0, steps = 240, cached = 0;
	for (int k = 0; k < steps; ++k) {
		float s = (float)k / (float)steps;
		float x = -3.5f + 7.0f * s, z = 1.5f * sinf(3.0f * s);
		versors q =
		    glms_quat_normalize(glms_quat_mul(glms_quatv(2.0f * s, v3(0.0f, 1.0f, 0.0f)),
		                                      glms_quatv(0.3f + 1.4f * s, v3(1.0f, 0.0f, 0.3f))));
		tbTransform pose = {v3(x, 0.0f, z), q};
		vec3s down = tbGeometry_Support(convex, tbInvRotateVector(q, v3(0.0f, -1.0f, 0.0f)), NULL);
		vec3s low = tbTransformPoint(pose, down);
		pose.p.y = waveHeight(low.x, low.z) - low.y + 0.02f * sinf(17.0f * s);
		tbTransform levelIn = tbInvMulTransforms(pose, tbTransformIdentity());
		float deepCached, deepFull, distCached, distFull;
		int countCached =
		    levelDeepest(convex, level, levelIn, speculative, &cache, &deepCached, &distCached);
		int countFull =
		    levelDeepest(convex, level, levelIn, speculative, NULL, &deepFull, &distFull);
		cr_expect_eq(countCached > 0, countFull > 0, "step %d: %d groups cached, %d full", k,
		             countCached, countFull);
		if (countCached > 0 && countFull > 0) {
			touching += 1;
			worst = fmaxf(worst, fabsf(deepCached - deepFull));
			cr_expect_leq(fabsf(deepCached - deepFull), 0.01f * size + 1e-5f,
			              "step %d: deepest %g cached, %g full", k, (double)deepCached,
			              (double)deepFull);
		}
		cached += cache.count > 0 ? 1 : 0;
	}
	cr_expect_gt(touching, steps / 2, "%d of %d steps touching", touching, steps);
	// Triangles take the separating-axis test only where one of their edges is active (over the
	// crests, x near +-2.5): a box's or hull's face clipped over a smooth stretch needs none.
	cr_expect_geq(cached, steps / 10, "the cache held axes at %d of %d steps", cached, steps);
	cr_log_info("SCENE cached triangle axes: %d touching steps, deepest points differ by at most "
	            "%.2e m (1 %% of size: %.2e m)",
	            touching, (double)worst, (double)(0.01f * size));
}

Test(level, cached_triangle_axes_answer_as_the_full_test)
{
	WaveShapes w;
	makeWaveShapes(&w);
	expectCachedAxesMatchFullTest(&w.prism, &w.level);
	expectCachedAxesMatchFullTest(&w.box, &w.level);
	destroyWaveShapes(&w);
}

// A cache that names nothing of the shapes (feature ids beyond them, separations far from any)
// changes no answer: each triangle it names takes the full test, bit for bit the uncached answer.
// The pose is one where some triangle takes the separating-axis test (a fresh cache gets entries:
// near a crest, where edges are active), and the stale entries name those very triangles.
Test(level, a_cache_naming_nothing_of_the_shapes_changes_nothing)
{
	tbMesh mesh;
	waveMesh(17, 0.5f, &mesh);
	tbGeometry level = tbMakeMeshShape(&mesh);
	tbGeometry box = tbMakeBox(0.8f, 0.25f, 0.5f);
	tbLevelSatCache fresh;
	tbTransform levelIn = tbTransformIdentity();
	tbManifold a[TB_MAX_LEVEL_MANIFOLDS], b[TB_MAX_LEVEL_MANIFOLDS];
	bool found = false;
	for (int k = 0; k < 200 && !found; ++k) {
		float x = -3.5f + 0.035f * (float)k;
		versors q = glms_quat_normalize(glms_quatv(0.7f + 0.05f * (float)k, v3(0.4f, 1.0f, 0.3f)));
		tbTransform pose = {v3(x, 0.0f, -0.4f), q};
		vec3s down = tbGeometry_Support(&box, tbInvRotateVector(q, v3(0.0f, -1.0f, 0.0f)), NULL);
		vec3s low = tbTransformPoint(pose, down);
		pose.p.y = waveHeight(low.x, low.z) - low.y - 0.01f;
		levelIn = tbInvMulTransforms(pose, tbTransformIdentity());
		memset(&fresh, 0, sizeof fresh);
		float d = 0.0f;
		found = tbCollideLevelCached(&box, &level, levelIn, 0.05f, a, TB_MAX_LEVEL_MANIFOLDS, &d,
		                             &fresh) > 0 &&
		        fresh.count > 0;
	}
	cr_assert(found, "no pose where a triangle takes the separating-axis test");
	tbLevelSatCache stale = fresh;
	const tbSatFeatureType types[4] = {tb_satFaceA, tb_satFaceB, tb_satEdges, tb_satSimplex};
	for (int i = 0; i < stale.count; ++i) {
		stale.sat[i].type = types[i % 4];
		stale.sat[i].indexA = i % 3 == 0 ? 1000 + i : i % 3;
		stale.sat[i].indexB = i % 2 == 0 ? -5 - i : i % 5;
		stale.sat[i].separation = 1e6f;
	}
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	float da = 0.0f, db = 0.0f;
	int ca =
	    tbCollideLevelCached(&box, &level, levelIn, 0.05f, a, TB_MAX_LEVEL_MANIFOLDS, &da, &stale);
	int cb = tbCollideLevel(&box, &level, levelIn, 0.05f, b, TB_MAX_LEVEL_MANIFOLDS, &db);
	cr_assert_eq(ca, cb);
	cr_expect_eq(memcmp(a, b, sizeof a), 0, "the manifolds differ");
	cr_expect_eq(da, db);
	// The full tests rewrote the entries they made: the same axes as the fresh cache's.
	cr_assert_eq(stale.count, fresh.count);
	for (int i = 0; i < stale.count; ++i) {
		cr_expect_eq(stale.triangles[i], fresh.triangles[i]);
		cr_expect_eq(stale.sat[i].type, fresh.sat[i].type, "entry %d", i);
		cr_expect_eq(stale.sat[i].separation, fresh.sat[i].separation, "entry %d", i);
	}
	tbDestroyMesh(&mesh);
}

// A tilted box over a flat floor of triangles whose edges are all flat seams (the face-clipped
// path of tbCollideLevelTriangle): every point's separation is its height over the floor (the
// analytic answer, y of the box's point), the deepest the lowest corner's, and a corner beyond the
// speculative distance gives none.
Test(level, a_tilted_box_over_flat_seams_gets_its_corner_heights)
{
	tbMesh mesh;
	cr_assert(gridMesh(8, 0.25f, true, &mesh));
	tbGeometry level = tbMakeMeshShape(&mesh);
	tbGeometry box = tbMakeBox(0.3f, 0.1f, 0.2f);
	const float speculative = 0.02f;
	const float tilts[3] = {0.0f, 0.01f, 0.03f};
	for (int i = 0; i < 3; ++i) {
		versors q = glms_quat_mul(glms_quatv(tilts[i], v3(1.0f, 0.0f, 0.2f)),
		                          glms_quatv(0.4f + (float)i, v3(0.0f, 1.0f, 0.0f)));
		q = glms_quat_normalize(q);
		tbTransform pose = {v3(0.07f * (float)i, 0.0f, -0.05f), q};
		// The lowest corner 4 mm over the floor (or 4 mm into it for the last tilt).
		float lowest = FLT_MAX;
		for (int k = 0; k < 8; ++k) {
			vec3s c = v3((k & 1) ? 0.3f : -0.3f, (k & 2) ? 0.1f : -0.1f, (k & 4) ? 0.2f : -0.2f);
			lowest = fminf(lowest, tbTransformPoint(pose, c).y);
		}
		float target = i == 2 ? -0.004f : 0.004f;
		pose.p.y = target - lowest;
		tbTransform levelInBox = tbInvMulTransforms(pose, tbTransformIdentity());
		tbManifold groups[TB_MAX_LEVEL_MANIFOLDS];
		float distance = 0.0f;
		int count = tbCollideLevel(&box, &level, levelInBox, speculative, groups,
		                           TB_MAX_LEVEL_MANIFOLDS, &distance);
		cr_assert_eq(count, 1, "tilt %g: %d groups", (double)tilts[i], count);
		vec3s up = tbRotateVector(pose.q, groups[0].normal);
		cr_expect_lt(fabsf(up.y + 1.0f), 1e-5f, "tilt %g: normal (%g %g %g)", (double)tilts[i],
		             (double)up.x, (double)up.y, (double)up.z);
		float deepest = FLT_MAX;
		for (int k = 0; k < groups[0].pointCount; ++k) {
			const tbManifoldPoint* p = groups[0].points + k;
			float height = tbTransformPoint(pose, p->pointA).y;
			cr_expect_lt(fabsf(p->separation - height), 2e-5f, "tilt %g: separation %g, height %g",
			             (double)tilts[i], (double)p->separation, (double)height);
			cr_expect_leq(p->separation, speculative + 1e-6f);
			deepest = fminf(deepest, p->separation);
		}
		cr_expect_lt(fabsf(deepest - target), 2e-5f, "tilt %g: deepest %g", (double)tilts[i],
		             (double)deepest);
		// Flat: four corners; tilted by 0.01 rad over 0.6 m: the far corners are within 2 cm.
		int expected = i == 2 ? 2 : 4;
		cr_expect_geq(groups[0].pointCount, expected, "tilt %g: %d points", (double)tilts[i],
		              groups[0].pointCount);
	}
	tbDestroyMesh(&mesh);
}

// A gentle ridge along z, y = 0.3 - 0.04 |x| (its crest folds by 4.6 degrees: inactive edges),
// 8 m square in cells of 0.5 m, its vertices offset by `at`.
static void ridgeMesh(vec3s at, tbMesh* mesh)
{
	enum
	{
		cells = 16
	};
	const int n = cells + 1;
	vec3s v[(cells + 1) * (cells + 1)];
	int idx[6 * cells * cells];
	for (int r = 0; r < n; ++r) {
		for (int c = 0; c < n; ++c) {
			float x = 0.5f * (float)c - 4.0f, z = 0.5f * (float)r - 4.0f;
			v[r * n + c] = glms_vec3_add(at, v3(x, 0.3f - 0.04f * fabsf(x), z));
		}
	}
	int k = 0;
	for (int r = 0; r < cells; ++r) {
		for (int c = 0; c < cells; ++c) {
			int p00 = r * n + c, p01 = p00 + 1, p10 = p00 + n, p11 = p10 + 1;
			int t[6] = {p00, p10, p11, p00, p11, p01}; // counter-clockwise seen from +y
			memcpy(idx + k, t, sizeof t);
			k += 6;
		}
	}
	char message[256];
	cr_assert(tbBuildMesh(v, n * n, idx, 2 * cells * cells, mesh, message, sizeof message), "%s",
	          message);
}

// A slab 1 m wide and 0.2 m thick lying on the ridge's crest 5 mm over it, as a hull whose points
// are given `offset` from its own origin (a piece of a compound in its body's frame), against the
// ridge whose vertices lie `at` from the mesh's origin: the deepest point the level's narrow phase
// reports. The slab's bottom face over each slope is clipped against that slope's triangles; a
// point kept beyond a triangle's edge is measured against the slope's plane carried past the
// crest, 2 cm higher at the slab's far edge.
static float slabOnRidge(vec3s at, vec3s offset)
{
	tbMesh mesh;
	ridgeMesh(at, &mesh);
	tbGeometry level = tbMakeMeshShape(&mesh);
	vec3s points[8];
	for (int k = 0; k < 8; ++k) {
		vec3s c = v3((k & 1) ? 0.5f : -0.5f, (k & 2) ? 0.2f : 0.0f, (k & 4) ? 0.5f : -0.5f);
		points[k] = glms_vec3_add(offset, c);
	}
	tbHull hull;
	cr_assert_eq(tbBuildHull(points, 8, &hull, NULL), tb_hullOk);
	tbGeometry slab = tbMakeHullShape(&hull);
	// The slab's pose puts its bottom's middle 5 mm over the crest.
	tbTransform pose = {glms_vec3_sub(glms_vec3_add(at, v3(0.0f, 0.305f, 0.0f)), offset),
	                    glms_quat_identity()};
	tbTransform slabInLevel = pose; // the level's frame is the world's
	tbManifold groups[TB_MAX_LEVEL_MANIFOLDS];
	float distance = 0.0f;
	int count = tbCollideLevel(&level, &slab, slabInLevel, 0.02f, groups, TB_MAX_LEVEL_MANIFOLDS,
	                           &distance);
	float deepest = FLT_MAX;
	for (int g = 0; g < count; ++g) {
		for (int k = 0; k < groups[g].pointCount; ++k) {
			deepest = fminf(deepest, groups[g].points[k].separation);
		}
	}
	tbDestroyHull(&hull);
	tbDestroyMesh(&mesh);
	return deepest;
}

// The narrow phase's tolerances are fractions of the shapes' own sizes, not of their distances
// from their origins: a slab 5 mm over a ridge's crest is 5 mm over it whether the ridge lies at
// the mesh's origin or 300 m from it, and whether the slab's points are given about its origin or
// 40 m from it (a tree's top piece). Measured against the slopes' planes carried past the crest by
// a clipping tolerance of 1 % of the distance from the origin, the slab sank 7 cm into the ridge
// and was thrown off it every step.
Test(level, contacts_do_not_depend_on_where_the_origins_lie)
{
	const vec3s ats[4] = {v3(0.0f, 0.0f, 0.0f), v3(300.0f, 0.0f, -200.0f), v3(0.0f, 0.0f, 0.0f),
	                      v3(60.0f, 0.0f, -40.0f)};
	const vec3s offsets[4] = {v3(0.0f, 0.0f, 0.0f), v3(0.0f, 0.0f, 0.0f), v3(40.0f, 0.0f, 0.0f),
	                          v3(-20.0f, 0.0f, 35.0f)};
	float near = slabOnRidge(ats[0], offsets[0]);
	// The crest is 5 mm under the slab's bottom, less what the clipping's tolerance (1 % of the
	// triangle's size, under 2 cm here) carries a slope's plane past the crest: 0.04 x 2 cm.
	cr_expect(near <= 0.005f + 1e-5f && near >= 0.005f - 8e-4f, "at the origin: deepest %g",
	          (double)near);
	for (int i = 1; i < 4; ++i) {
		float deepest = slabOnRidge(ats[i], offsets[i]);
		cr_log_info("ridge at (%g %g %g), slab's points %g m off its origin: deepest %g",
		            (double)ats[i].x, (double)ats[i].y, (double)ats[i].z,
		            (double)glms_vec3_norm(offsets[i]), (double)deepest);
		cr_expect(fabsf(deepest - near) < 1e-4f,
		          "ridge at (%g %g %g), slab's points %g m off its origin: deepest %g, not %g",
		          (double)ats[i].x, (double)ats[i].y, (double)ats[i].z,
		          (double)glms_vec3_norm(offsets[i]), (double)deepest, (double)near);
	}
}

// Boxes and hulls launched across the wavy mesh fast enough to slide a box's size in a few steps:
// the points a pair holds through the substeps stand for the triangles they were made on, and a
// point that slid off them must not carry a plane the surface has left (a box would sink into a
// rise or float over a dip until the next step). The deepest clearance over the analytic surface,
// sampled every step, stays within what a resting body has.
Test(terrain, fast_bodies_follow_a_curved_mesh, .timeout = 300)
{
	const int n = 49;
	const float spacing = 0.5f;
	tbMesh mesh;
	waveMesh(n, spacing, &mesh);
	tbGeometry ground = tbMakeMeshShape(&mesh);
	tbHull hull;
	terrainHull(&hull);
	tbWorldId world = makeWorld(false);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.05f;
	makeStaticShape(world, &sd, &ground);
	enum
	{
		count = 24
	};
	tbBodyId bodies[count];
	tbShapeId shapes[count];
	for (int i = 0; i < count; ++i) {
		float x = -9.0f + 0.8f * (float)(i % 3), z = -9.0f + 1.6f * (float)(i / 3) + 3.0f;
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = v3(x, waveHeight(x, z) + 0.6f, z);
		bodies[i] = tbCreateBody(world, &bd);
		tbGeometry g = i % 2 == 0 ? tbMakeBox(0.3f, 0.2f, 0.3f) : tbMakeHullShape(&hull);
		shapes[i] = tbCreateShape(bodies[i], &sd, &g);
		cr_assert(!TB_IS_NULL(shapes[i]), "%s", tbGetLastError());
	}
	float deepest = 0.0f;
	for (int s = 0; s < 150; ++s) {
		if (s == 40) {
			for (int i = 0; i < count; ++i) {
				tbBody_SetLinearVelocity(bodies[i], v3(12.0f + 0.5f * (float)(i % 5), 0.0f, 1.0f));
			}
		}
		tbWorld_Step(world, kDt, kSubsteps);
		if (s >= 40) {
			for (int i = 0; i < count; ++i) {
				vec3s p = tbBody_GetPosition(bodies[i]);
				if (fabsf(p.x) < 11.0f && fabsf(p.z) < 11.0f) {
					deepest = fminf(deepest, bodyClearance(shapes[i]));
				}
			}
		}
	}
	// They went fast across the waves (0.2 m a step or more: a box's width in three steps), and
	// none went through.
	// A body judged where the mesh is under it: the fastest reach its far edge (x = 12 m) by the
	// end and may slide off it, below the waves' formula continued past the edge.
	const float edge = 0.5f * (float)(n - 1) * spacing - 0.5f;
	float travelled = INFINITY;
	int fallen = 0, overMesh = 0;
	for (int i = 0; i < count; ++i) {
		vec3s p = tbBody_GetPosition(bodies[i]);
		travelled = fminf(travelled, p.x - (-9.0f + 0.8f * (float)(i % 3)));
		if (!finite3(p)) {
			fallen += 1;
		} else if (fabsf(p.x) < edge && fabsf(p.z) < edge) {
			overMesh += 1;
			fallen += !(p.y > waveHeight(p.x, p.z) - 0.05f);
		}
	}
	printf("SCENE fast bodies over the wavy mesh: deepest clearance %.4f m, least travel %.2f m, "
	       "%d of %d still over the mesh fallen through\n",
	       (double)deepest, (double)travelled, fallen, overMesh);
	cr_expect_geq(overMesh, count - 4, "most bodies still over the mesh at the end");
	cr_expect_gt(travelled, 5.0f, "the bodies were launched at 12 m/s or more");
	cr_expect_eq(fallen, 0);
	cr_expect_gt(deepest, -0.03f, "a body sank %g m into the mesh", (double)-deepest);
	tbDestroyWorld(world);
	tbDestroyHull(&hull);
	tbDestroyMesh(&mesh);
}
