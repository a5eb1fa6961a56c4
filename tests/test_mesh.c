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
