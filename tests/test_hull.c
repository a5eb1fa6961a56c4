// Tests of the convex hull builder: known solids, random clouds, degenerate sets and bad input.
#include <criterion/criterion.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "manifold_internal.h"
#include "random.h"
#include "tumble/geometry.h"
#include "tumble/hull.h"

// The tests' own tolerance, looser than the builder's (1e-6 of the diagonal, 4 float epsilons of
// the largest coordinate) so that they check the promise, not the implementation: within 1e-5 of
// the bounding-box diagonal, or about 30 float epsilons of the largest coordinate.
static float testTolerance(const vec3s* points, int count)
{
	vec3s lower = points[0], upper = points[0];
	float largest = 0.0f;
	for (int i = 0; i < count; ++i) {
		lower = glms_vec3_minv(lower, points[i]);
		upper = glms_vec3_maxv(upper, points[i]);
		largest = fmaxf(largest, glms_vec3_max(glms_vec3_abs(points[i])));
	}
	return fmaxf(1e-5f * glms_vec3_distance(lower, upper), 4e-6f * largest);
}

static float uniform(uint32_t* state, float lo, float hi)
{
	return lo + (hi - lo) * (float)(tbRandomNext(state) >> 8) * (1.0f / 16777216.0f);
}

static vec3s randomInBall(uint32_t* state)
{
	for (int tries = 0; tries < 100; ++tries) {
		vec3s p = {{uniform(state, -1.0f, 1.0f), uniform(state, -1.0f, 1.0f),
		            uniform(state, -1.0f, 1.0f)}};
		if (glms_vec3_norm2(p) <= 1.0f) {
			return p;
		}
	}
	return glms_vec3_zero();
}

static vec3s randomInBox(uint32_t* state)
{
	return (vec3s){
	    {uniform(state, -2.0f, 3.0f), uniform(state, -0.5f, 0.5f), uniform(state, 1.0f, 1.25f)}};
}

static vec3s randomOnSphere(uint32_t* state)
{
	vec3s p = randomInBall(state);
	float length = glms_vec3_norm(p);
	return length > 1e-3f ? glms_vec3_scale(p, 2.0f / length) : (vec3s){{2.0f, 0.0f, 0.0f}};
}

// Does face f run from -> to somewhere along its loop?
static bool faceRuns(const tbHull* hull, int f, int from, int to)
{
	const tbHullFace* face = hull->faces + f;
	for (int i = 0; i < face->indexCount; ++i) {
		int a = hull->faceIndices[face->firstIndex + i];
		int b = hull->faceIndices[face->firstIndex + (i + 1) % face->indexCount];
		if (a == from && b == to) {
			return true;
		}
	}
	return false;
}

// Everything a polygon or solid hull promises, checked from scratch against the input points.
static void checkPolytope(const tbHull* hull, const vec3s* points, int count)
{
	float tol = testTolerance(points, count);
	cr_assert(hull->kind == tb_hullSolid || hull->kind == tb_hullPolygon);
	cr_assert_eq(hull->vertexCount - hull->edgeCount + hull->faceCount, 2, "V %d E %d F %d",
	             hull->vertexCount, hull->edgeCount, hull->faceCount);

	// Vertices are input points, each distinct and each used by a face.
	int* uses = calloc((size_t)hull->vertexCount, sizeof(int));
	for (int v = 0; v < hull->vertexCount; ++v) {
		bool isInput = false;
		for (int i = 0; i < count && !isInput; ++i) {
			isInput = glms_vec3_eqv(points[i], hull->vertices[v]);
		}
		cr_assert(isInput, "vertex %d is not an input point", v);
		for (int w = 0; w < v; ++w) {
			CHECK(!glms_vec3_eqv(hull->vertices[v], hull->vertices[w]), "vertices %d, %d", v, w);
		}
	}

	int indexSum = 0;
	for (int f = 0; f < hull->faceCount; ++f) {
		const tbHullFace* face = hull->faces + f;
		vec3s n = face->normal;
		cr_assert_eq(face->firstIndex, indexSum);
		indexSum += face->indexCount;
		cr_assert_geq(face->indexCount, 3);
		cr_assert_float_eq(glms_vec3_norm(n), 1.0f, 1e-5f);
		// Newell's area vector of the loop agrees with the normal: the loop is CCW seen from
		// outside and has a real area.
		vec3s area = glms_vec3_zero();
		for (int i = 0; i < face->indexCount; ++i) {
			int a = hull->faceIndices[face->firstIndex + i];
			int b = hull->faceIndices[face->firstIndex + (i + 1) % face->indexCount];
			cr_assert(a >= 0 && a < hull->vertexCount);
			uses[a] += 1;
			area = glms_vec3_add(area, glms_vec3_cross(hull->vertices[a], hull->vertices[b]));
			// Convex and CCW: every corner c on or left of every side a -> b, within the
			// tolerance; c may also be right of a short side when b is within the tolerance of
			// the line a -> c (the signed area is |ab| dist(c, ab) = |ac| dist(b, ac)).
			vec3s side = glms_vec3_sub(hull->vertices[b], hull->vertices[a]);
			for (int k = 0; k < face->indexCount; ++k) {
				vec3s c = glms_vec3_sub(hull->vertices[hull->faceIndices[face->firstIndex + k]],
				                        hull->vertices[a]);
				float signedArea = glms_vec3_dot(glms_vec3_cross(side, c), n);
				float slack = tol * fmaxf(glms_vec3_norm(side), glms_vec3_norm(c));
				CHECK(signedArea >= -slack, "face %d not convex", f);
			}
			// On the plane.
			float distance = glms_vec3_dot(n, hull->vertices[a]) - face->offset;
			cr_assert_leq(fabsf(distance), tol, "face %d vertex off plane by %g", f,
			              (double)distance);
		}
		cr_assert_gt(glms_vec3_dot(area, n), 0.0f, "face %d is clockwise", f);
		// No corner repeats within a face.
		for (int i = 0; i < face->indexCount; ++i) {
			for (int k = 0; k < i; ++k) {
				cr_assert_neq(hull->faceIndices[face->firstIndex + i],
				              hull->faceIndices[face->firstIndex + k]);
			}
		}
		// Every input point inside every face plane.
		for (int i = 0; i < count; ++i) {
			float distance = glms_vec3_dot(n, points[i]) - face->offset;
			CHECK(distance <= tol, "point %d outside face %d by %g", i, f, (double)distance);
		}
	}
	cr_assert_eq(indexSum, hull->faceIndexCount);
	for (int v = 0; v < hull->vertexCount; ++v) {
		cr_assert_gt(uses[v], 0, "vertex %d in no face", v);
	}
	free(uses);

	// Every edge unique, in exactly its two faces, once each way.
	cr_assert_eq(2 * hull->edgeCount, hull->faceIndexCount);
	for (int e = 0; e < hull->edgeCount; ++e) {
		const tbHullEdge* edge = hull->edges + e;
		cr_assert(edge->v0 != edge->v1);
		cr_assert(edge->face0 >= 0 && edge->face0 < hull->faceCount);
		cr_assert(edge->face1 >= 0 && edge->face1 < hull->faceCount);
		cr_assert_neq(edge->face0, edge->face1);
		cr_assert(faceRuns(hull, edge->face0, edge->v0, edge->v1) ||
		          faceRuns(hull, edge->face0, edge->v1, edge->v0));
		int runs = 0;
		for (int f = 0; f < hull->faceCount; ++f) {
			bool forward = faceRuns(hull, f, edge->v0, edge->v1);
			bool backward = faceRuns(hull, f, edge->v1, edge->v0);
			if (forward || backward) {
				CHECK(f == edge->face0 || f == edge->face1, "edge %d in face %d", e, f);
				runs += 1;
			}
		}
		cr_assert_eq(runs, 2);
		cr_assert(faceRuns(hull, edge->face0, edge->v0, edge->v1) !=
		          faceRuns(hull, edge->face1, edge->v0, edge->v1));
		for (int k = 0; k < e; ++k) {
			const tbHullEdge* other = hull->edges + k;
			bool same = (other->v0 == edge->v0 && other->v1 == edge->v1) ||
			            (other->v0 == edge->v1 && other->v1 == edge->v0);
			CHECK(!same, "edges %d and %d coincide", k, e);
		}
	}

	// Centroid and radius from the vertices.
	vec3s centroid = glms_vec3_zero();
	float radius = 0.0f;
	for (int v = 0; v < hull->vertexCount; ++v) {
		centroid = glms_vec3_add(centroid, hull->vertices[v]);
		radius = fmaxf(radius, glms_vec3_norm(hull->vertices[v]));
	}
	centroid = glms_vec3_divs(centroid, (float)hull->vertexCount);
	cr_assert_leq(glms_vec3_distance(centroid, hull->centroid), 1e-4f * (1.0f + radius));
	cr_assert_float_eq(hull->radius, radius, 1e-5f * (1.0f + radius));
	if (hull->kind == tb_hullSolid) {
		// The centroid of a solid is strictly inside.
		for (int f = 0; f < hull->faceCount; ++f) {
			cr_assert_lt(glms_vec3_dot(hull->faces[f].normal, hull->centroid),
			             hull->faces[f].offset);
		}
	}
}

static tbHull buildOk(const vec3s* points, int count)
{
	tbHull hull;
	int bad = 42;
	tbHullError error = tbBuildHull(points, count, &hull, &bad);
	cr_assert_eq(error, tb_hullOk, "%s", tbHullErrorString(error));
	cr_assert_eq(bad, -1);
	return hull;
}

// For each of the three axes, the number of faces with normal +axis and -axis.
static void checkAxisNormals(const tbHull* hull)
{
	int seen[6] = {0, 0, 0, 0, 0, 0};
	for (int f = 0; f < hull->faceCount; ++f) {
		vec3s n = hull->faces[f].normal;
		int matched = 0;
		for (int axis = 0; axis < 3; ++axis) {
			if (fabsf(fabsf(n.raw[axis]) - 1.0f) < 1e-5f) {
				seen[2 * axis + (n.raw[axis] > 0.0f)] += 1;
				matched += 1;
			}
		}
		cr_assert_eq(matched, 1, "face %d normal (%g %g %g) is not an axis", f, (double)n.x,
		             (double)n.y, (double)n.z);
	}
	for (int i = 0; i < 6; ++i) {
		cr_assert_eq(seen[i], 1);
	}
}

#define CUBE_EXTRA 200

Test(hull, cube_with_inner_face_and_edge_points)
{
	vec3s points[8 + 6 + 12 + CUBE_EXTRA];
	int count = 0;
	uint32_t state = 7u;
	// Interior points first so that the builder cannot lean on the corners coming first.
	for (int i = 0; i < CUBE_EXTRA; ++i) {
		points[count++] = (vec3s){{uniform(&state, -0.99f, 0.99f), uniform(&state, -0.99f, 0.99f),
		                           uniform(&state, -0.99f, 0.99f)}};
	}
	for (int axis = 0; axis < 3; ++axis) {
		for (int sign = -1; sign <= 1; sign += 2) {
			vec3s p = glms_vec3_zero();
			p.raw[axis] = (float)sign;
			points[count++] = p; // face centre
		}
	}
	for (int axis = 0; axis < 3; ++axis) {
		for (int s = 0; s < 4; ++s) {
			vec3s p = glms_vec3_zero();
			p.raw[(axis + 1) % 3] = (s & 1) ? 1.0f : -1.0f;
			p.raw[(axis + 2) % 3] = (s & 2) ? 1.0f : -1.0f;
			points[count++] = p; // edge midpoint
		}
	}
	for (int i = 0; i < 8; ++i) {
		points[count++] =
		    (vec3s){{(i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f}};
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullSolid);
	cr_assert_eq(hull.vertexCount, 8);
	cr_assert_eq(hull.faceCount, 6);
	cr_assert_eq(hull.edgeCount, 12);
	for (int f = 0; f < 6; ++f) {
		cr_assert_eq(hull.faces[f].indexCount, 4);
		cr_assert_float_eq(hull.faces[f].offset, 1.0f, 1e-6f);
	}
	for (int v = 0; v < 8; ++v) {
		for (int axis = 0; axis < 3; ++axis) {
			cr_assert_eq(fabsf(hull.vertices[v].raw[axis]), 1.0f);
		}
	}
	checkAxisNormals(&hull);
	checkPolytope(&hull, points, count);
	cr_assert_float_eq(hull.radius, sqrtf(3.0f), 1e-6f);
	cr_assert_leq(glms_vec3_norm(hull.centroid), 1e-6f);
	tbDestroyHull(&hull);
}

Test(hull, cube_with_noise_on_faces)
{
	// Points on the faces of a cube of side 2, off their face by up to 1e-7: still six faces.
	enum
	{
		perFace = 60
	};
	vec3s points[8 + 6 * perFace];
	int count = 0;
	uint32_t state = 12345u;
	for (int axis = 0; axis < 3; ++axis) {
		for (int sign = -1; sign <= 1; sign += 2) {
			for (int i = 0; i < perFace; ++i) {
				vec3s p;
				p.raw[axis] = (float)sign + uniform(&state, -1e-7f, 1e-7f);
				p.raw[(axis + 1) % 3] = uniform(&state, -1.0f, 1.0f);
				p.raw[(axis + 2) % 3] = uniform(&state, -1.0f, 1.0f);
				points[count++] = p;
			}
		}
	}
	for (int i = 0; i < 8; ++i) {
		points[count++] =
		    (vec3s){{(i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f}};
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullSolid);
	cr_assert_eq(hull.faceCount, 6);
	cr_assert_eq(hull.vertexCount, 8);
	cr_assert_eq(hull.edgeCount, 12);
	checkAxisNormals(&hull);
	checkPolytope(&hull, points, count);
	tbDestroyHull(&hull);
}

Test(hull, tetrahedron)
{
	vec3s points[] = {
	    {{0.0f, 0.0f, 0.0f}}, {{1.0f, 0.0f, 0.0f}}, {{0.0f, 1.0f, 0.0f}},
	    {{0.0f, 0.0f, 1.0f}}, {{0.1f, 0.1f, 0.1f}}, {{0.25f, 0.25f, 0.25f}},
	    {{0.5f, 0.5f, 0.0f}}, {{0.0f, 0.0f, 0.0f}}, {{0.2f, 0.3f, 0.4f}},
	};
	int count = (int)(sizeof(points) / sizeof(points[0]));
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullSolid);
	cr_assert_eq(hull.vertexCount, 4);
	cr_assert_eq(hull.faceCount, 4);
	cr_assert_eq(hull.edgeCount, 6);
	// The slanted face's normal is (1, 1, 1) / sqrt(3) at offset 1 / sqrt(3).
	int slanted = 0;
	for (int f = 0; f < 4; ++f) {
		vec3s n = hull.faces[f].normal;
		if (n.x > 0.5f) {
			slanted += 1;
			cr_assert_float_eq(n.x, 1.0f / sqrtf(3.0f), 1e-6f);
			cr_assert_float_eq(n.y, 1.0f / sqrtf(3.0f), 1e-6f);
			cr_assert_float_eq(n.z, 1.0f / sqrtf(3.0f), 1e-6f);
			cr_assert_float_eq(hull.faces[f].offset, 1.0f / sqrtf(3.0f), 1e-6f);
		}
	}
	cr_assert_eq(slanted, 1);
	checkPolytope(&hull, points, count);
	tbDestroyHull(&hull);
}

static int icosahedron(vec3s* points, float scale)
{
	const float phi = 0.5f * (1.0f + sqrtf(5.0f));
	int count = 0;
	for (int cyc = 0; cyc < 3; ++cyc) {
		for (int s = 0; s < 4; ++s) {
			float c[3] = {0.0f, (s & 1) ? 1.0f : -1.0f, (s & 2) ? phi : -phi};
			points[count++] =
			    (vec3s){{scale * c[cyc % 3], scale * c[(cyc + 1) % 3], scale * c[(cyc + 2) % 3]}};
		}
	}
	return count;
}

Test(hull, icosahedron)
{
	vec3s points[12];
	icosahedron(points, 1.0f);
	tbHull hull = buildOk(points, 12);
	cr_assert_eq(hull.kind, tb_hullSolid);
	cr_assert_eq(hull.vertexCount, 12);
	cr_assert_eq(hull.faceCount, 20);
	cr_assert_eq(hull.edgeCount, 30);
	for (int f = 0; f < 20; ++f) {
		cr_assert_eq(hull.faces[f].indexCount, 3);
	}
	checkPolytope(&hull, points, 12);
	tbDestroyHull(&hull);
}

Test(hull, icosahedron_with_duplicates_far_from_origin)
{
	// Each corner five times, shuffled, and the whole set moved away from the origin.
	vec3s corners[12];
	icosahedron(corners, 0.5f);
	vec3s points[60];
	uint32_t state = 99u;
	for (int i = 0; i < 60; ++i) {
		points[i] = glms_vec3_add(corners[i % 12], (vec3s){{10.0f, -20.0f, 5.0f}});
	}
	for (int i = 59; i > 0; --i) {
		int j = (int)(tbRandomNext(&state) % (uint32_t)(i + 1));
		vec3s swap = points[i];
		points[i] = points[j];
		points[j] = swap;
	}
	tbHull hull = buildOk(points, 60);
	cr_assert_eq(hull.vertexCount, 12);
	cr_assert_eq(hull.faceCount, 20);
	cr_assert_eq(hull.edgeCount, 30);
	checkPolytope(&hull, points, 60);
	tbDestroyHull(&hull);
}

Test(hull, prism_merges_many_sided_caps)
{
	// Two regular 48-gons: 48 quads round the side and two 48-gon caps.
	enum
	{
		sides = 48
	};
	vec3s points[2 * sides + 1];
	for (int i = 0; i < sides; ++i) {
		float angle = 2.0f * GLM_PIf * (float)i / (float)sides;
		points[2 * i] = (vec3s){{cosf(angle), sinf(angle), -0.5f}};
		points[2 * i + 1] = (vec3s){{cosf(angle), sinf(angle), 0.5f}};
	}
	points[2 * sides] = (vec3s){{0.0f, 0.0f, 0.5f}}; // cap centre, on the face
	tbHull hull = buildOk(points, 2 * sides + 1);
	cr_assert_eq(hull.kind, tb_hullSolid);
	cr_assert_eq(hull.vertexCount, 2 * sides);
	cr_assert_eq(hull.faceCount, sides + 2);
	cr_assert_eq(hull.edgeCount, 3 * sides);
	int caps = 0;
	for (int f = 0; f < hull.faceCount; ++f) {
		if (hull.faces[f].indexCount == sides) {
			caps += 1;
			cr_assert_float_eq(fabsf(hull.faces[f].normal.z), 1.0f, 1e-6f);
		} else {
			cr_assert_eq(hull.faces[f].indexCount, 4);
		}
	}
	cr_assert_eq(caps, 2);
	checkPolytope(&hull, points, 2 * sides + 1);
	tbDestroyHull(&hull);
}

static void checkRandomCloud(uint32_t seed, int count, vec3s (*generate)(uint32_t*))
{
	vec3s* points = malloc((size_t)count * sizeof(vec3s));
	uint32_t state = seed;
	for (int i = 0; i < count; ++i) {
		points[i] = generate(&state);
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullSolid);
	cr_assert_leq(hull.vertexCount, count);
	checkPolytope(&hull, points, count);
	tbDestroyHull(&hull);
	free(points);
}

Test(hull, rotated_grid_is_a_cube)
{
	// A 5 x 5 x 5 grid turned by a few rotations: after rounding to float, the points of each side
	// are coplanar and those of each edge collinear only to within a float ulp, the cases where a
	// careless fan folds over its neighbours.
	enum
	{
		side = 5,
		count = side * side * side
	};
	vec3s points[count];
	uint32_t state = 77u;
	for (int turn = 0; turn < 8; ++turn) {
		versors rotation = glms_quat_normalize(
		    (versors){{uniform(&state, -1.0f, 1.0f), uniform(&state, -1.0f, 1.0f),
		               uniform(&state, -1.0f, 1.0f), uniform(&state, -1.0f, 1.0f)}});
		vec3s shift = {{uniform(&state, -5.0f, 5.0f), uniform(&state, -5.0f, 5.0f), 0.5f}};
		int n = 0;
		for (int x = 0; x < side; ++x) {
			for (int y = 0; y < side; ++y) {
				for (int z = 0; z < side; ++z) {
					vec3s p = {{0.1f * (float)x, 0.1f * (float)y, 0.1f * (float)z}};
					points[n++] = glms_vec3_add(glms_quat_rotatev(rotation, p), shift);
				}
			}
		}
		tbHull hull = buildOk(points, count);
		cr_assert_eq(hull.kind, tb_hullSolid);
		cr_assert_eq(hull.vertexCount, 8, "turn %d: %d vertices", turn, hull.vertexCount);
		cr_assert_eq(hull.faceCount, 6, "turn %d: %d faces", turn, hull.faceCount);
		cr_assert_eq(hull.edgeCount, 12);
		checkPolytope(&hull, points, count);
		tbDestroyHull(&hull);
	}
}

Test(hull, thin_slab)
{
	// A disc a few tolerances thick: a solid whose faces meet at very sharp edges round the rim.
	enum
	{
		count = 1500
	};
	vec3s points[count];
	for (uint32_t seed = 1; seed <= 6; ++seed) {
		uint32_t state = seed * 7919u;
		float thickness = seed <= 3 ? 1e-5f : 1e-4f;
		for (int i = 0; i < count; ++i) {
			vec3s p = randomInBall(&state);
			points[i] = (vec3s){{p.x, thickness * p.y, p.z}};
		}
		tbHull hull = buildOk(points, count);
		checkPolytope(&hull, points, count);
		tbDestroyHull(&hull);
	}
}

Test(hull, random_clouds_in_ball)
{
	const int sizes[] = {10, 50, 200, 2000};
	for (uint32_t seed = 1; seed <= 4; ++seed) {
		for (int s = 0; s < 4; ++s) {
			checkRandomCloud(seed * 2654435761u, sizes[s], randomInBall);
		}
	}
}

Test(hull, random_clouds_in_box)
{
	const int sizes[] = {10, 50, 200, 2000};
	for (uint32_t seed = 1; seed <= 4; ++seed) {
		for (int s = 0; s < 4; ++s) {
			checkRandomCloud(seed * 40503u + 17u, sizes[s], randomInBox);
		}
	}
}

Test(hull, random_points_on_sphere)
{
	// Every point is (nearly) a hull vertex: the hardest case for the bookkeeping.
	checkRandomCloud(2024u, 100, randomOnSphere);
	checkRandomCloud(31337u, 1500, randomOnSphere);
}

Test(hull, random_points_on_cube_surface)
{
	// Many exactly coplanar points, snapped to a coarse grid so that some repeat.
	enum
	{
		count = 3000
	};
	vec3s* points = malloc(count * sizeof(vec3s));
	uint32_t state = 555u;
	for (int i = 0; i < count; ++i) {
		int axis = (int)(tbRandomNext(&state) % 3u);
		vec3s p;
		p.raw[axis] = (tbRandomNext(&state) & 1u) ? 1.0f : -1.0f;
		p.raw[(axis + 1) % 3] = (float)((int)(tbRandomNext(&state) % 9u) - 4) * 0.25f;
		p.raw[(axis + 2) % 3] = (float)((int)(tbRandomNext(&state) % 9u) - 4) * 0.25f;
		points[i] = p;
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.faceCount, 6);
	cr_assert_eq(hull.vertexCount, 8);
	checkAxisNormals(&hull);
	checkPolytope(&hull, points, count);
	tbDestroyHull(&hull);
	free(points);
}

Test(hull, maximum_point_count)
{
	vec3s* points = malloc((TB_MAX_HULL_POINTS + 1) * sizeof(vec3s));
	uint32_t state = 4242u;
	for (int i = 0; i <= TB_MAX_HULL_POINTS; ++i) {
		points[i] = randomInBall(&state);
	}
	tbHull hull;
	int bad = 0;
	cr_assert_eq(tbBuildHull(points, TB_MAX_HULL_POINTS + 1, &hull, &bad), tb_hullTooManyPoints);
	cr_assert_null(hull.vertices);
	cr_assert_eq(bad, -1);

	hull = buildOk(points, TB_MAX_HULL_POINTS);
	cr_assert_eq(hull.kind, tb_hullSolid);
	// Cheaper than checkPolytope on 65536 points: Euler and containment of every point.
	cr_assert_eq(hull.vertexCount - hull.edgeCount + hull.faceCount, 2);
	float worst = -1.0f;
	for (int f = 0; f < hull.faceCount; ++f) {
		for (int i = 0; i < TB_MAX_HULL_POINTS; ++i) {
			worst =
			    fmaxf(worst, glms_vec3_dot(hull.faces[f].normal, points[i]) - hull.faces[f].offset);
		}
	}
	cr_assert_leq(worst, 2e-5f);
	tbDestroyHull(&hull);
	free(points);
}

Test(hull, flat_quad_is_a_polygon)
{
	// A unit square in the tilted plane spanned by u and w, with points inside and on its sides.
	vec3s u = glms_vec3_normalize((vec3s){{1.0f, 1.0f, 0.0f}});
	vec3s w = (vec3s){{0.0f, 0.0f, 1.0f}};
	vec3s origin = (vec3s){{0.5f, -1.0f, 2.0f}};
	vec3s points[4 + 4 + 20];
	const float corners[4][2] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
	const float sides[4][2] = {{0.5f, 0.0f}, {1.0f, 0.5f}, {0.5f, 1.0f}, {0.0f, 0.25f}};
	int count = 0;
	uint32_t state = 3u;
	for (int i = 0; i < 20; ++i) {
		float s = uniform(&state, 0.05f, 0.95f), t = uniform(&state, 0.05f, 0.95f);
		points[count++] =
		    glms_vec3_add(origin, glms_vec3_add(glms_vec3_scale(u, s), glms_vec3_scale(w, t)));
	}
	for (int i = 0; i < 4; ++i) {
		points[count++] = glms_vec3_add(origin, glms_vec3_add(glms_vec3_scale(u, sides[i][0]),
		                                                      glms_vec3_scale(w, sides[i][1])));
	}
	for (int i = 0; i < 4; ++i) {
		points[count++] = glms_vec3_add(origin, glms_vec3_add(glms_vec3_scale(u, corners[i][0]),
		                                                      glms_vec3_scale(w, corners[i][1])));
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullPolygon);
	cr_assert_eq(hull.vertexCount, 4);
	cr_assert_eq(hull.faceCount, 2);
	cr_assert_eq(hull.edgeCount, 4);
	// Front and back: opposite normals and offsets, the same corners the other way round.
	vec3s n = hull.faces[0].normal;
	cr_assert_float_eq(fabsf(glms_vec3_dot(n, glms_vec3_cross(u, w))), 1.0f, 1e-5f);
	cr_assert(glms_vec3_eqv_eps(hull.faces[1].normal, glms_vec3_negate(n)));
	cr_assert_float_eq(hull.faces[1].offset, -hull.faces[0].offset, 1e-5f);
	cr_assert_eq(hull.faces[0].indexCount, 4);
	cr_assert_eq(hull.faces[1].indexCount, 4);
	for (int i = 0; i < 4; ++i) {
		cr_assert_eq(hull.faceIndices[hull.faces[0].firstIndex + i], i);
		cr_assert_eq(hull.faceIndices[hull.faces[1].firstIndex + i], 3 - i);
	}
	// The vertices run counter-clockwise about the front normal.
	for (int i = 0; i < 4; ++i) {
		vec3s a = hull.vertices[i], b = hull.vertices[(i + 1) % 4], c = hull.vertices[(i + 2) % 4];
		vec3s turn = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, b));
		cr_assert_gt(glms_vec3_dot(turn, n), 0.0f);
	}
	for (int e = 0; e < 4; ++e) {
		int f0 = hull.edges[e].face0, f1 = hull.edges[e].face1;
		cr_assert((f0 == 0 && f1 == 1) || (f0 == 1 && f1 == 0));
	}
	// Exactly the four corners.
	for (int i = 0; i < 4; ++i) {
		bool found = false;
		for (int v = 0; v < 4; ++v) {
			found = found || glms_vec3_eqv(hull.vertices[v], points[count - 4 + i]);
		}
		cr_assert(found, "corner %d missing", i);
	}
	checkPolytope(&hull, points, count);
	tbDestroyHull(&hull);
}

Test(hull, random_flat_cloud)
{
	enum
	{
		count = 500
	};
	vec3s points[count];
	uint32_t state = 8u;
	for (int i = 0; i < count; ++i) {
		vec3s p = randomInBall(&state);
		points[i] = (vec3s){{p.x, 0.25f, p.z}};
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullPolygon);
	cr_assert_eq(hull.faceCount, 2);
	cr_assert_eq(hull.edgeCount, hull.vertexCount);
	cr_assert_float_eq(fabsf(hull.faces[0].normal.y), 1.0f, 1e-6f);
	checkPolytope(&hull, points, count);
	tbDestroyHull(&hull);
}

Test(hull, collinear_points_give_a_segment)
{
	vec3s direction = glms_vec3_normalize((vec3s){{1.0f, 2.0f, -0.5f}});
	vec3s origin = (vec3s){{1.0f, 1.0f, 1.0f}};
	const float ts[] = {0.5f, -1.5f, 2.0f, 0.0f, 3.0f, 0.5f, -2.0f, 1.0f, 2.5f};
	enum
	{
		count = sizeof(ts) / sizeof(ts[0])
	};
	vec3s points[count];
	for (int i = 0; i < count; ++i) {
		points[i] = glms_vec3_add(origin, glms_vec3_scale(direction, ts[i]));
	}
	tbHull hull = buildOk(points, count);
	cr_assert_eq(hull.kind, tb_hullSegment);
	cr_assert_eq(hull.vertexCount, 2);
	cr_assert_eq(hull.faceCount, 0);
	cr_assert_eq(hull.edgeCount, 1);
	cr_assert_eq(hull.edges[0].face0, -1);
	cr_assert_eq(hull.edges[0].face1, -1);
	cr_assert(hull.edges[0].v0 != hull.edges[0].v1);
	// The extremes are the points at t = -2 and t = 3.
	vec3s lo = points[6], hi = points[4];
	bool found = (glms_vec3_eqv(hull.vertices[0], lo) && glms_vec3_eqv(hull.vertices[1], hi)) ||
	             (glms_vec3_eqv(hull.vertices[0], hi) && glms_vec3_eqv(hull.vertices[1], lo));
	cr_assert(found);
	tbDestroyHull(&hull);
}

Test(hull, coincident_points_give_a_point)
{
	vec3s points[10];
	for (int i = 0; i < 10; ++i) {
		// The same point, up to a float rounding.
		points[i] = (vec3s){{3.0f, -2.0f, 1.0f + (float)(i % 2) * 1e-7f}};
	}
	tbHull hull = buildOk(points, 10);
	cr_assert_eq(hull.kind, tb_hullPoint);
	cr_assert_eq(hull.vertexCount, 1);
	cr_assert_eq(hull.faceCount, 0);
	cr_assert_eq(hull.edgeCount, 0);
	cr_assert(glms_vec3_eqv_eps(hull.vertices[0], points[0]));
	cr_assert(glms_vec3_eqv_eps(hull.centroid, points[0]));
	cr_assert_float_eq(hull.radius, glms_vec3_norm(points[0]), 1e-6f);
	tbDestroyHull(&hull);

	hull = buildOk(points, 1);
	cr_assert_eq(hull.kind, tb_hullPoint);
	cr_assert_eq(hull.vertexCount, 1);
	tbDestroyHull(&hull);
}

Test(hull, empty_input)
{
	tbHull hull;
	memset(&hull, 0xab, sizeof(hull));
	int bad = 7;
	vec3s point = {{0.0f, 0.0f, 0.0f}};
	cr_assert_eq(tbBuildHull(&point, 0, &hull, &bad), tb_hullEmpty);
	cr_assert_eq(bad, -1);
	cr_assert_null(hull.vertices);
	cr_assert_null(hull.faces);
	cr_assert_null(hull.faceIndices);
	cr_assert_null(hull.edges);
	cr_assert_eq(hull.vertexCount, 0);
	cr_assert_eq(hull.faceCount, 0);
	cr_assert_eq(hull.edgeCount, 0);
	cr_assert_eq(tbBuildHull(NULL, 0, &hull, NULL), tb_hullEmpty);
	tbDestroyHull(&hull); // safe on a zeroed hull
	tbDestroyHull(&hull);
}

Test(hull, non_finite_input)
{
	vec3s points[6];
	uint32_t state = 1u;
	for (int i = 0; i < 6; ++i) {
		points[i] = randomInBall(&state);
	}
	points[3].y = NAN;
	tbHull hull;
	memset(&hull, 0xab, sizeof(hull));
	int bad = 0;
	cr_assert_eq(tbBuildHull(points, 6, &hull, &bad), tb_hullNonFinite);
	cr_assert_eq(bad, 3);
	cr_assert_null(hull.vertices);
	cr_assert_eq(hull.vertexCount, 0);

	points[3].y = 0.0f;
	points[5].z = -INFINITY;
	cr_assert_eq(tbBuildHull(points, 6, &hull, &bad), tb_hullNonFinite);
	cr_assert_eq(bad, 5);
	cr_assert_eq(tbBuildHull(points, 6, &hull, NULL), tb_hullNonFinite);
}

Test(hull, error_strings)
{
	cr_assert_str_eq(tbHullErrorString(tb_hullNonFinite), "a point coordinate is NaN or Inf");
	const tbHullError errors[] = {tb_hullOk, tb_hullEmpty, tb_hullNonFinite, tb_hullOutOfMemory,
	                              tb_hullTooManyPoints};
	for (int i = 0; i < 5; ++i) {
		cr_assert_not_null(tbHullErrorString(errors[i]));
		cr_assert_gt(strlen(tbHullErrorString(errors[i])), 5);
		for (int j = 0; j < i; ++j) {
			cr_assert_str_neq(tbHullErrorString(errors[i]), tbHullErrorString(errors[j]));
		}
	}
}

// The support, the best face and the box of a hull shape against a search of its vertices and
// faces one by one (the library takes them four at a time): the farthest vertex along each
// direction, the first of equals where several tie (a cube's face directions tie four vertices),
// and the box of the placed vertices, to the bit. Hull sizes 4 to 40 cover every padding of the
// last four.
Test(hull, support_face_and_box_match_a_one_by_one_search)
{
	uint32_t state = 77u;
	for (int trial = 0; trial < 60; ++trial) {
		int count = 4 + trial % 37;
		vec3s points[64];
		for (int i = 0; i < count; ++i) {
			points[i] = trial % 3 == 0 ? randomOnSphere(&state) : randomInBox(&state);
		}
		if (trial % 5 == 0) {
			// A cube: directions along the axes tie four vertices.
			count = 8;
			for (int i = 0; i < 8; ++i) {
				points[i] =
				    (vec3s){{i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f}};
			}
		}
		tbHull hull;
		cr_assert_eq(tbBuildHull(points, count, &hull, NULL), tb_hullOk);
		cr_assert_not_null(hull.lanes);
		cr_assert_not_null(hull.faceLanes);
		tbGeometry g = tbMakeHullShape(&hull);
		for (int k = 0; k < 40; ++k) {
			vec3s d = k < 6 ? (vec3s){{k == 0   ? 1.0f
			                           : k == 1 ? -1.0f
			                                    : 0.0f,
			                           k == 2   ? 1.0f
			                           : k == 3 ? -1.0f
			                                    : 0.0f,
			                           k == 4   ? 1.0f
			                           : k == 5 ? -1.0f
			                                    : 0.0f}}
			                : randomOnSphere(&state);
			int best = 0;
			float bestDot = -INFINITY;
			for (int i = 0; i < hull.vertexCount; ++i) {
				vec3s v = hull.vertices[i];
				float dot = v.x * d.x + v.y * d.y + v.z * d.z;
				if (dot > bestDot) {
					bestDot = dot;
					best = i;
				}
			}
			int feature = -1;
			vec3s p = tbGeometry_Support(&g, d, &feature);
			cr_assert_eq(feature, best, "trial %d, direction %d: vertex %d, the search %d", trial,
			             k, feature, best);
			cr_assert(p.x == hull.vertices[best].x && p.y == hull.vertices[best].y &&
			          p.z == hull.vertices[best].z);
			// The face best along d (the clipping's reference and incident faces), the same way.
			int face = 0;
			float faceDot = -FLT_MAX;
			for (int i = 0; i < hull.faceCount; ++i) {
				vec3s n = hull.faces[i].normal;
				float dot = n.x * d.x + n.y * d.y + n.z * d.z;
				if (dot > faceDot) {
					faceDot = dot;
					face = i;
				}
			}
			cr_assert_eq(tbHullBestFace(&hull, d), face, "trial %d, direction %d: face", trial, k);
			// A hull made by hand (no lanes) takes the one-by-one search itself: the same.
			tbHull plain = hull;
			plain.lanes = NULL;
			plain.faceLanes = NULL;
			tbGeometry gp = tbMakeHullShape(&plain);
			int plainFeature = -1;
			tbGeometry_Support(&gp, d, &plainFeature);
			cr_assert_eq(plainFeature, best);
			cr_assert_eq(tbHullBestFace(&plain, d), face);
		}
		tbTransform xf = {randomInBox(&state),
		                  glms_quat_normalize(
		                      (versors){{uniform(&state, -1.0f, 1.0f), uniform(&state, -1.0f, 1.0f),
		                                 uniform(&state, -1.0f, 1.0f), 0.5f}})};
		tbAABB box = tbGeometry_ComputeAABB(&g, xf);
		mat3s R = glms_quat_mat3(xf.q);
		vec3s lo = {{INFINITY, INFINITY, INFINITY}}, hi = {{-INFINITY, -INFINITY, -INFINITY}};
		for (int i = 0; i < hull.vertexCount; ++i) {
			vec3s v = hull.vertices[i];
			vec3s w = {{R.col[0].x * v.x + R.col[1].x * v.y + R.col[2].x * v.z,
			            R.col[0].y * v.x + R.col[1].y * v.y + R.col[2].y * v.z,
			            R.col[0].z * v.x + R.col[1].z * v.y + R.col[2].z * v.z}};
			lo = glms_vec3_minv(lo, w);
			hi = glms_vec3_maxv(hi, w);
		}
		lo = glms_vec3_add(xf.p, lo);
		hi = glms_vec3_add(xf.p, hi);
		cr_assert(box.lower.x == lo.x && box.lower.y == lo.y && box.lower.z == lo.z,
		          "trial %d: box lower", trial);
		cr_assert(box.upper.x == hi.x && box.upper.y == hi.y && box.upper.z == hi.z,
		          "trial %d: box upper", trial);
		tbDestroyHull(&hull);
		cr_assert_null(hull.lanes);
		cr_assert_null(hull.faceLanes);
	}
}
