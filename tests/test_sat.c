// Tests of the separating-axis test for polytope pairs (collision/src/sat.c) against independent
// answers (and of its triangle form, sat_triangle.c): GJK + EPA (tbQueryShapesLocal) for depth,
// distance and normal; the unpruned SAT over every edge pair; a box given as a hull; analytic
// resting and crossing configurations.
#include <criterion/criterion.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "random.h"
#include "sat.h"
#include "tumble/hull.h"
#include "tumble/manifold.h"
#include "tumble/query.h"

static const float kDegree = 0.01745329f;

static float pairScale(const tbGeometry* a, const tbGeometry* b, tbTransform bInA)
{
	return tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + glms_vec3_norm(bInA.p);
}

static float queryDistance(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                           vec3s* normal)
{
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult r = tbQueryShapesLocal(a, b, bInA, &def);
	if (normal != NULL) {
		*normal = r.normal;
	}
	return r.distance;
}

// B at a random orientation, moved along a random direction until GJK/EPA says the signed
// distance is `target` (bisection: the distance grows as B leaves A along the ray).
static tbTransform placeAt(const tbGeometry* a, const tbGeometry* b, float target, uint32_t* state)
{
	tbTransform xf = {.q = tbRandomQuat(state)};
	vec3s u = tbRandomUnit(state);
	float lo = 0.0f,
	      hi = tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + target + 0.1f;
	for (int i = 0; i < 60; ++i) {
		float mid = 0.5f * (lo + hi);
		xf.p = glms_vec3_scale(u, mid);
		if (queryDistance(a, b, xf, NULL) < target) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	xf.p = glms_vec3_scale(u, hi);
	return xf;
}

// A hull of `count` random points on an ellipsoid with semi-axes `axes`.
static void randomHull(tbHull* hull, int count, vec3s axes, uint32_t* state)
{
	vec3s points[64];
	for (int i = 0; i < count && i < 64; ++i) {
		points[i] = glms_vec3_mul(tbRandomUnit(state), axes);
	}
	cr_assert_eq(tbBuildHull(points, count, hull, NULL), tb_hullOk);
	cr_assert_eq(hull->kind, tb_hullSolid);
}

// True when n (A's frame, from A to B) is within `cosTol` of a face normal of A or of a face of B
// facing A: the closest features are then a face and whatever touches it, where the face axis
// measures the distance exactly.
static bool nearFaceNormal(const tbGeometry* s, versors q, vec3s n, float cosTol)
{
	vec3s local = tbInvRotateVector(q, n);
	if (s->type == tb_boxShape) {
		return fabsf(local.x) >= cosTol || fabsf(local.y) >= cosTol || fabsf(local.z) >= cosTol;
	}
	const tbHull* h = s->hull;
	vec3s inv = {{1.0f / s->scale.x, 1.0f / s->scale.y, 1.0f / s->scale.z}};
	for (int i = 0; i < h->faceCount; ++i) {
		vec3s m = glms_vec3_normalize(glms_vec3_mul(h->faces[i].normal, inv));
		if (fabsf(glms_vec3_dot(m, local)) >= cosTol) {
			return true;
		}
	}
	return false;
}

typedef struct PairStats
{
	int overlap, overlapUnique, separated, separatedFace, deepestEqual, withPoints, fallbacks;
	float worstDepth, worstNormalDeg, worstSeparated, worstBound, worstDeepest, worstBrute;
} PairStats;

// One pose: SAT against GJK/EPA and against the unpruned SAT.
static void checkPose(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, PairStats* st,
                      const char* label)
{
	float L = pairScale(a, b, bInA);
	float tol = 1e-4f * L;
	vec3s qn;
	float d = queryDistance(a, b, bInA, &qn);
	tbSatResult r = tbSat_Find(a, b, bInA, FLT_MAX, NULL);
	CHECK(!r.exitedEarly, "%s: no axis separates by more than FLT_MAX", label);
	float brute = tbSat_BruteForceSeparation(a, b, bInA, r.maxNormal, 2.0f);
	if (d < 0.0f) {
		// Overlapping: the depth of two polytopes is attained on a face of A - B, which the
		// pruned test visits; the unpruned one can find nothing larger.
		++st->overlap;
		float err = fabsf(r.maxSeparation - d);
		st->worstDepth = fmaxf(st->worstDepth, err);
		CHECK(err <= tol, "%s: SAT %.7f vs EPA %.7f (L %.3f)", label, (double)r.maxSeparation,
		      (double)d, (double)L);
		float bruteErr = fabsf(brute - r.maxSeparation);
		st->worstBrute = fmaxf(st->worstBrute, bruteErr);
		CHECK(bruteErr <= 1e-5f * L, "%s: pruned %.7f vs unpruned %.7f", label,
		      (double)r.maxSeparation, (double)brute);
		// Unique when every axis outside a one-degree cone about SAT's is clearly shallower.
		float second = tbSat_BruteForceSeparation(a, b, bInA, r.maxNormal, cosf(kDegree));
		if (second < r.maxSeparation - 1e-3f * L) {
			++st->overlapUnique;
			float angle = acosf(fminf(1.0f, glms_vec3_dot(qn, r.maxNormal))) / kDegree;
			st->worstNormalDeg = fmaxf(st->worstNormalDeg, angle);
			CHECK(angle <= 1.0f, "%s: normals %.3f degrees apart (depth %.5f)", label,
			      (double)angle, (double)d);
		}
	} else {
		++st->separated;
		// Apart: any axis's gap is a lower bound on the distance.
		float over = r.maxSeparation - d;
		st->worstBound = fmaxf(st->worstBound, over);
		CHECK(over <= tol, "%s: SAT %.7f exceeds the distance %.7f", label, (double)r.maxSeparation,
		      (double)d);
		CHECK(brute <= d + tol, "%s: unpruned %.7f exceeds the distance %.7f", label, (double)brute,
		      (double)d);
		if (nearFaceNormal(a, (versors){{0.0f, 0.0f, 0.0f, 1.0f}}, qn, cosf(0.01f * kDegree)) ||
		    nearFaceNormal(b, bInA.q, qn, cosf(0.01f * kDegree))) {
			++st->separatedFace;
			float err = fabsf(r.maxSeparation - d);
			st->worstSeparated = fmaxf(st->worstSeparated, err);
			CHECK(err <= tol, "%s: face-closest pair: SAT %.7f vs GJK %.7f", label,
			      (double)r.maxSeparation, (double)d);
		}
	}
	// The manifold: no point deeper than the chosen axis allows, and the deepest point at the
	// depth in the usual case.
	// The SAT manifold itself, whether or not the dispatch would send this pair to it (large
	// hulls take GJK/EPA there); false asks for the GJK/EPA path (no clipped point kept).
	tbManifold m;
	if (!tbSat_Collide(a, b, bInA, 0.1f, NULL, NULL, &m)) {
		++st->fallbacks;
		return;
	}
	if (m.pointCount > 0) {
		++st->withPoints;
		float deepest = FLT_MAX;
		for (int i = 0; i < m.pointCount; ++i) {
			const tbManifoldPoint* p = m.points + i;
			deepest = fminf(deepest, p->separation);
			vec3s gap = glms_vec3_sub(p->pointB, p->pointA);
			CHECK(fabsf(glms_vec3_dot(gap, m.normal) - p->separation) <= tol,
			      "%s: point %d separation %.6f disagrees with its points", label, i,
			      (double)p->separation);
		}
		// Every point lies on B (or A) at or above the chosen axis's separation, which the feature
		// hysteresis allows below the largest by its tolerance.
		CHECK(deepest >= r.chosen.separation - tol,
		      "%s: a point %.6f is deeper than the chosen axis allows %.6f", label, (double)deepest,
		      (double)r.chosen.separation);
		float err = fabsf(deepest - d);
		if (err <= tol) {
			++st->deepestEqual;
		}
		st->worstDeepest = fmaxf(st->worstDeepest, err);
	}
}

static void runPairs(const tbGeometry* a, const tbGeometry* b, uint32_t seed, int count,
                     const char* label)
{
	uint32_t state = seed;
	PairStats st = {0};
	float size = fminf(tbGeometry_BoundingRadius(a), tbGeometry_BoundingRadius(b));
	for (int i = 0; i < count; ++i) {
		// Deep, shallow, touching and separated within a 0.05 m margin, in turn.
		float targets[5] = {-0.3f * size * tbRandomUniform(&state),
		                    -0.01f * size * tbRandomUniform(&state), 0.0f,
		                    0.01f * tbRandomUniform(&state), 0.05f * tbRandomUniform(&state)};
		float target = targets[i % 5];
		tbTransform bInA = placeAt(a, b, target, &state);
		checkPose(a, b, bInA, &st, label);
	}
	printf("SAT %s: %d overlapping (depth err max %.2e m, pruned vs unpruned %.2e m; %d unique, "
	       "normal max %.3f deg), %d apart (bound excess %.2e m; %d face-closest, err %.2e m), "
	       "deepest point = query distance within 1e-4 L in %d of %d manifolds (max diff %.2e m), "
	       "%d handed to GJK/EPA\n",
	       label, st.overlap, (double)st.worstDepth, (double)st.worstBrute, st.overlapUnique,
	       (double)st.worstNormalDeg, st.separated, (double)st.worstBound, st.separatedFace,
	       (double)st.worstSeparated, st.deepestEqual, st.withPoints, (double)st.worstDeepest,
	       st.fallbacks);
	cr_assert_gt(st.overlapUnique, st.overlap / 3, "%s: too few unique cases to test normals",
	             label);
	cr_assert_gt(st.separatedFace, count / 20, "%s: too few face-closest separated cases", label);
}

Test(sat, box_box_matches_gjk_epa)
{
	tbGeometry a = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbGeometry b = tbMakeBox(0.5f, 0.5f, 0.5f);
	runPairs(&a, &b, 12345u, 1000, "unit cubes");
	tbGeometry c = tbMakeBox(0.8f, 0.2f, 0.45f);
	tbGeometry d = tbMakeBox(0.3f, 0.6f, 0.25f);
	d.scale = (vec3s){{1.2f, 0.7f, 1.0f}};
	runPairs(&c, &d, 777u, 1000, "unequal boxes");
}

Test(sat, box_hull_matches_gjk_epa)
{
	uint32_t state = 99u;
	tbHull hull;
	randomHull(&hull, 20, (vec3s){{0.6f, 0.4f, 0.5f}}, &state);
	tbGeometry a = tbMakeBox(0.4f, 0.3f, 0.5f);
	tbGeometry b = tbMakeHullShape(&hull);
	runPairs(&a, &b, 4242u, 800, "box-hull");
	runPairs(&b, &a, 4343u, 800, "hull-box");
	tbDestroyHull(&hull);
}

Test(sat, hull_hull_matches_gjk_epa)
{
	uint32_t state = 5u;
	tbHull h1, h2;
	randomHull(&h1, 24, (vec3s){{0.5f, 0.5f, 0.5f}}, &state);
	randomHull(&h2, 12, (vec3s){{0.7f, 0.3f, 0.4f}}, &state);
	tbGeometry a = tbMakeHullShape(&h1);
	tbGeometry b = tbMakeHullShape(&h2);
	runPairs(&a, &b, 31337u, 800, "hull-hull");
	b.scale = (vec3s){{0.8f, 1.5f, 1.1f}};
	runPairs(&a, &b, 271828u, 800, "hull-scaled hull");
	tbDestroyHull(&h1);
	tbDestroyHull(&h2);
}

// The box-box shortcut against the general path on the same boxes given as hulls.
Test(sat, box_shortcut_matches_hull_path)
{
	vec3s h = {{0.6f, 0.25f, 0.4f}};
	vec3s corners[8];
	for (int i = 0; i < 8; ++i) {
		corners[i] = (vec3s){{i & 1 ? -h.x : h.x, i & 2 ? -h.y : h.y, i & 4 ? -h.z : h.z}};
	}
	tbHull hull;
	cr_assert_eq(tbBuildHull(corners, 8, &hull, NULL), tb_hullOk);
	cr_assert_eq(hull.faceCount, 6);
	tbGeometry box = tbMakeBox(h.x, h.y, h.z);
	tbGeometry boxHull = tbMakeHullShape(&hull);
	uint32_t state = 2024u;
	int edges = 0, edgeOnFace = 0;
	float worstDeepest = 0.0f;
	for (int i = 0; i < 2000; ++i) {
		tbTransform xf = {.q = tbRandomQuat(&state)};
		xf.p = glms_vec3_scale(tbRandomUnit(&state), 1.6f * tbRandomUniform(&state));
		tbSatResult fast = tbSat_Find(&box, &box, xf, FLT_MAX, NULL);
		tbSatResult slow = tbSat_Find(&boxHull, &boxHull, xf, FLT_MAX, NULL);
		CHECK(fabsf(fast.maxSeparation - slow.maxSeparation) <= 1e-5f,
		      "pose %d: box shortcut %.7f vs hull path %.7f", i, (double)fast.maxSeparation,
		      (double)slow.maxSeparation);
		CHECK(fast.chosen.type == slow.chosen.type, "pose %d: chosen %d vs %d", i, fast.chosen.type,
		      slow.chosen.type);
		if (fast.chosen.type == tb_satEdges) {
			++edges;
			// The edges the shortcut names are the supporting ones: their separation is the
			// axis's.
			tbManifold m = tbCollideShapesLocal(&box, &box, xf, FLT_MAX, NULL);
			// Crossing edges: one point. An edge pair whose axis is within 5 degrees of a face
			// normal of either box: clipped as a face contact, two or more points, none deeper
			// than the axis and the deepest at it.
			bool alongFace =
			    nearFaceNormal(&box, (versors){{0.0f, 0.0f, 0.0f, 1.0f}}, fast.chosen.normal,
			                   0.996f) ||
			    nearFaceNormal(&box, xf.q, glms_vec3_negate(fast.chosen.normal), 0.996f);
			CHECK(m.pointCount == 1 || (alongFace && m.pointCount >= 2),
			      "pose %d: edge contact with %d points (along a face: %d)", i, m.pointCount,
			      alongFace);
			float deepest = FLT_MAX;
			for (int k = 0; k < m.pointCount; ++k) {
				deepest = fminf(deepest, m.points[k].separation);
				CHECK(m.points[k].separation >= fast.chosen.separation - 1e-5f,
				      "pose %d: edge point %.7f deeper than the axis %.7f", i,
				      (double)m.points[k].separation, (double)fast.chosen.separation);
			}
			edgeOnFace += m.pointCount >= 2;
			if (fast.chosen.separation <= 0.0f) {
				worstDeepest = fmaxf(worstDeepest, fabsf(deepest - fast.chosen.separation));
			}
			// Overlapping: the deepest at the axis (apart, the ends clipped on the face's rim need
			// not reach the edges' closest pair).
			CHECK(fast.chosen.separation > 0.0f || fabsf(deepest - fast.chosen.separation) <= 1e-5f,
			      "pose %d: deepest edge point %.7f vs axis %.7f", i, (double)deepest,
			      (double)fast.chosen.separation);
		}
	}
	cr_assert_gt(edges, 20, "too few edge contacts (%d) to test the edge ids", edges);
	cr_log_info("box shortcut: %d edge contacts, %d along a face, deepest overlapping vs axis %.2e",
	            edges, edgeOnFace, (double)worstDeepest);
	tbDestroyHull(&hull);
}

// A box resting face down on a larger one, turned about the vertical: four points at its bottom
// corners, each at the analytic depth.
Test(sat, box_resting_on_box)
{
	tbGeometry ground = tbMakeBox(1.0f, 0.5f, 1.0f);
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	float depth = 0.01f, angle = 0.5f;
	tbTransform xfA = tbTransformIdentity();
	tbTransform xfB = tbMakeTransform((vec3s){{0.2f, 1.0f - depth, -0.1f}},
	                                  glms_quatv(angle, (vec3s){{0.0f, 1.0f, 0.0f}}));
	tbManifold m = tbCollideShapes(&ground, xfA, &cube, xfB, 0.02f);
	cr_assert_eq(m.pointCount, 4);
	cr_assert_float_eq(m.normal.y, 1.0f, 1e-6f);
	for (int k = 0; k < 4; ++k) {
		vec3s corner = {{k & 1 ? -0.5f : 0.5f, -0.5f, k & 2 ? -0.5f : 0.5f}};
		vec3s expected = tbTransformPoint(xfB, corner);
		int found = -1;
		for (int i = 0; i < 4; ++i) {
			if (glms_vec3_distance(m.points[i].pointB, expected) < 1e-5f) {
				found = i;
			}
		}
		cr_assert_geq(found, 0, "corner %d (%.4f %.4f %.4f) missing", k, (double)expected.x,
		              (double)expected.y, (double)expected.z);
		cr_assert_float_eq(m.points[found].separation, -depth, 1e-5f);
		cr_assert_float_eq(m.points[found].pointA.y, 0.5f, 1e-6f);
		cr_assert_float_eq(m.points[found].pointA.x, expected.x, 1e-6f);
		cr_assert_float_eq(m.points[found].pointA.z, expected.z, 1e-6f);
	}
}

// Two unit cubes turned 45 degrees about crossing horizontal axes: A's top is an edge along x,
// B's bottom an edge along z; they cross at one point.
Test(sat, crossing_edges_give_one_point)
{
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	float r = 0.5f * sqrtf(2.0f), depth = 0.02f;
	float quarter = 0.25f * 3.14159265f;
	tbTransform xfA = tbMakeTransform((vec3s){{0.0f, 0.0f, 0.0f}},
	                                  glms_quatv(quarter, (vec3s){{1.0f, 0.0f, 0.0f}}));
	tbTransform xfB = tbMakeTransform((vec3s){{0.1f, 2.0f * r - depth, 0.05f}},
	                                  glms_quatv(quarter, (vec3s){{0.0f, 0.0f, 1.0f}}));
	tbManifold m = tbCollideShapes(&cube, xfA, &cube, xfB, 0.02f);
	cr_assert_eq(m.pointCount, 1);
	cr_assert_float_eq(m.normal.x, 0.0f, 1e-5f);
	cr_assert_float_eq(m.normal.y, 1.0f, 1e-5f);
	cr_assert_float_eq(m.normal.z, 0.0f, 1e-5f);
	const tbManifoldPoint* p = m.points;
	cr_assert_float_eq(p->separation, -depth, 1e-5f);
	cr_assert_float_eq(p->pointA.x, 0.1f, 1e-5f);
	cr_assert_float_eq(p->pointA.y, r, 1e-5f);
	cr_assert_float_eq(p->pointA.z, 0.0f, 1e-5f);
	cr_assert_float_eq(p->pointB.x, 0.1f, 1e-5f);
	cr_assert_float_eq(p->pointB.y, r - depth, 1e-5f);
	cr_assert_float_eq(p->pointB.z, 0.0f, 1e-5f);
	// Apart by 3 mm, within a 1 cm margin: one speculative point at +3 mm.
	xfB.p.y = 2.0f * r + 0.003f;
	m = tbCollideShapes(&cube, xfA, &cube, xfB, 0.01f);
	cr_assert_eq(m.pointCount, 1);
	cr_assert_float_eq(m.points[0].separation, 0.003f, 1e-5f);
	// Beyond the margin: none.
	m = tbCollideShapes(&cube, xfA, &cube, xfB, 0.002f);
	cr_assert_eq(m.pointCount, 0);
}

static bool sameManifold(const tbManifold* x, const tbManifold* y)
{
	if (x->pointCount != y->pointCount || glms_vec3_distance(x->normal, y->normal) > 1e-6f) {
		return false;
	}
	for (int i = 0; i < x->pointCount; ++i) {
		const tbManifoldPoint *p = x->points + i, *q = y->points + i;
		if (p->id != q->id || fabsf(p->separation - q->separation) > 1e-6f ||
		    glms_vec3_distance(p->pointA, q->pointA) > 1e-6f ||
		    glms_vec3_distance(p->pointB, q->pointB) > 1e-6f) {
			return false;
		}
	}
	return true;
}

// A cache, fresh or filled at the same pose, changes nothing; beyond the margin the cached axis
// alone answers with a lower bound on the distance.
Test(sat, cache_gives_the_same_manifold)
{
	uint32_t state = 8u;
	tbHull hull;
	// A 5-point hull: small enough that the dispatch gives its pairs to the SAT too.
	randomHull(&hull, 5, (vec3s){{0.5f, 0.4f, 0.6f}}, &state);
	tbGeometry shapes[3] = {tbMakeBox(0.5f, 0.5f, 0.5f), tbMakeBox(0.7f, 0.2f, 0.4f),
	                        tbMakeHullShape(&hull)};
	for (int i = 0; i < 9; ++i) {
		cr_assert(tbSat_Applies(shapes + i % 3, shapes + i / 3, tbTransformIdentity()));
	}
	int early = 0;
	for (int i = 0; i < 1500; ++i) {
		const tbGeometry* a = shapes + (i % 3);
		const tbGeometry* b = shapes + ((i / 3) % 3);
		float target = -0.1f * tbRandomUniform(&state) + 0.06f * tbRandomUniform(&state);
		tbTransform bInA = placeAt(a, b, target, &state);
		float margin = 0.02f;
		float d0, d1, d2;
		tbManifold plain = tbCollideShapesLocal(a, b, bInA, margin, &d0);
		tbSatCache cache = {0};
		tbManifold fresh = tbCollideShapesCached(a, b, bInA, margin, &d1, &cache);
		CHECK(sameManifold(&plain, &fresh) && d0 == d1, "pose %d: a fresh cache changed it", i);
		CHECK(cache.type != tb_satNone, "pose %d: the cache was not filled", i);
		tbSatCache again = cache;
		tbManifold filled = tbCollideShapesCached(a, b, bInA, margin, &d2, &again);
		CHECK(sameManifold(&plain, &filled), "pose %d: a filled cache changed it", i);
		CHECK(again.type == cache.type && again.indexA == cache.indexA &&
		          again.indexB == cache.indexB,
		      "pose %d: the cached feature moved at the same pose", i);
		if (d2 > margin) {
			++early;
			float d = queryDistance(a, b, bInA, NULL);
			CHECK(d2 <= d + 1e-4f * pairScale(a, b, bInA),
			      "pose %d: cached separation %.6f over the distance %.6f", i, (double)d2,
			      (double)d);
			CHECK(filled.pointCount == 0, "pose %d: points beyond the margin", i);
		}
	}
	cr_assert_gt(early, 100, "too few separated pairs (%d) to test the early exit", early);
	tbDestroyHull(&hull);
}

// Feature ids stay the same while a resting contact moves a little, with or without the cache.
Test(sat, feature_ids_survive_small_motion)
{
	uint32_t state = 77u;
	tbGeometry ground = tbMakeBox(1.0f, 0.5f, 1.0f);
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbGeometry tilted = tbMakeBox(0.5f, 0.5f, 0.5f);
	int compared = 0;
	for (int trial = 0; trial < 200; ++trial) {
		// A resting cube (4 points) or an edge crossing (1 point), then 20 small moves.
		bool edge = trial % 2 == 1;
		float quarter = 0.25f * 3.14159265f;
		tbTransform xfA = edge ? tbMakeTransform((vec3s){{0.0f, 0.0f, 0.0f}},
		                                         glms_quatv(quarter, (vec3s){{1.0f, 0.0f, 0.0f}}))
		                       : tbTransformIdentity();
		float spin = 6.2831853f * tbRandomUniform(&state);
		versors q = edge ? glms_quat_mul(glms_quatv(spin * 0.1f, (vec3s){{0.0f, 1.0f, 0.0f}}),
		                                 glms_quatv(quarter, (vec3s){{0.0f, 0.0f, 1.0f}}))
		                 : glms_quatv(spin, (vec3s){{0.0f, 1.0f, 0.0f}});
		float top = edge ? 2.0f * 0.5f * sqrtf(2.0f) : 1.0f;
		vec3s p = {{0.3f * tbRandomUniform(&state) - 0.15f, top - 0.005f,
		            0.3f * tbRandomUniform(&state) - 0.15f}};
		const tbGeometry* a = edge ? &tilted : &ground;
		tbSatCache cache = {0};
		tbTransform start = tbInvMulTransforms(xfA, tbMakeTransform(p, q));
		tbManifold first = tbCollideShapesCached(a, &cube, start, 0.02f, NULL, &cache);
		cr_assert_eq(first.pointCount, edge ? 1 : 4, "trial %d: %d points", trial,
		             first.pointCount);
		for (int step = 0; step < 20; ++step) {
			vec3s dp = glms_vec3_scale(tbRandomUnit(&state), 2e-4f);
			versors dq = glms_quatv(2e-4f, tbRandomUnit(&state));
			tbTransform moved =
			    tbMakeTransform(glms_vec3_add(p, dp), glms_quat_normalize(glms_quat_mul(dq, q)));
			tbTransform bInA = tbInvMulTransforms(xfA, moved);
			tbManifold withCache = tbCollideShapesCached(a, &cube, bInA, 0.02f, NULL, &cache);
			tbManifold without = tbCollideShapesLocal(a, &cube, bInA, 0.02f, NULL);
			for (int k = 0; k < 2; ++k) {
				const tbManifold* m = k == 0 ? &withCache : &without;
				CHECK(m->pointCount == first.pointCount, "trial %d step %d: %d points", trial, step,
				      m->pointCount);
				for (int i = 0; i < first.pointCount; ++i) {
					bool found = false;
					for (int j = 0; j < m->pointCount; ++j) {
						found = found || m->points[j].id == first.points[i].id;
					}
					CHECK(found, "trial %d step %d: id %08x lost", trial, step, first.points[i].id);
				}
			}
			++compared;
		}
	}
	cr_assert_eq(compared, 4000);
}

// The box-box formulas for a cached feature against the general hull-layout evaluation of the
// same feature of the same boxes.
Test(sat, box_cache_formulas_match_hull_layout)
{
	tbGeometry a = tbMakeBox(0.6f, 0.25f, 0.4f);
	tbGeometry b = tbMakeBox(0.3f, 0.5f, 0.45f);
	uint32_t state = 31u;
	int eligibleEdges = 0;
	for (int n = 0; n < 3000; ++n) {
		tbTransform xf = {.q = tbRandomQuat(&state)};
		xf.p = glms_vec3_scale(tbRandomUnit(&state), 1.5f * tbRandomUniform(&state));
		tbSatCache cache = {.type = (tbSatFeatureType)(1 + tbRandomNext(&state) % 3)};
		int range = cache.type == tb_satEdges ? 12 : 6;
		cache.indexA =
		    cache.type == tb_satFaceB ? -1 : (int)(tbRandomNext(&state) % (uint32_t)range);
		cache.indexB =
		    cache.type == tb_satFaceA ? -1 : (int)(tbRandomNext(&state) % (uint32_t)range);
		tbSatAxis fast, slow;
		bool fastEligible, slowEligible;
		bool fastOk = tbSat_EvaluateCache(&a, &b, xf, &cache, false, &fast, &fastEligible);
		bool slowOk = tbSat_EvaluateCache(&a, &b, xf, &cache, true, &slow, &slowEligible);
		CHECK(fastOk == slowOk, "case %d: one evaluation failed", n);
		if (!fastOk) {
			continue;
		}
		CHECK(fastEligible == slowEligible, "case %d (type %d): eligible %d vs %d", n, cache.type,
		      fastEligible, slowEligible);
		eligibleEdges += cache.type == tb_satEdges && fastEligible;
		CHECK(fabsf(fast.separation - slow.separation) <= 1e-5f, "case %d (type %d): %.7f vs %.7f",
		      n, cache.type, (double)fast.separation, (double)slow.separation);
		CHECK(glms_vec3_distance(fast.normal, slow.normal) <= 1e-5f,
		      "case %d (type %d): normals differ", n, cache.type);
	}
	cr_assert_gt(eligibleEdges, 30, "too few supporting edge pairs (%d)", eligibleEdges);
}

// Bad input never crashes or lets a NaN out: a NaN pose or a box of zero size goes to the GJK/EPA
// path, which refuses it (no points, distance -FLT_MAX); a cache naming features the shapes do
// not have is ignored and overwritten.
Test(sat, bad_input_and_stale_cache)
{
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbGeometry flat = tbMakeBox(0.5f, 0.0f, 0.5f);
	tbTransform bad = {.p = {{NAN, 0.0f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	tbTransform near = {.p = {{0.0f, 0.99f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	tbSatCache cache = {0};
	float d = 0.0f;
	tbManifold m = tbCollideShapesCached(&cube, &cube, bad, 0.02f, &d, &cache);
	cr_assert_eq(m.pointCount, 0);
	cr_assert_eq(d, -FLT_MAX);
	m = tbCollideShapesCached(&cube, &flat, near, 0.02f, &d, &cache);
	cr_assert_eq(m.pointCount, 0);
	cr_assert_eq(d, -FLT_MAX);
	cr_assert_eq(cache.type, tb_satNone, "a pair SAT does not answer leaves the cache alone");
	tbSatCache stale[3] = {{.type = tb_satFaceA, .indexA = 17, .indexB = -1},
	                       {.type = tb_satEdges, .indexA = 3, .indexB = 99},
	                       {.type = (tbSatFeatureType)42, .indexA = -5, .indexB = 7}};
	tbManifold plain = tbCollideShapesLocal(&cube, &cube, near, 0.02f, NULL);
	cr_assert_eq(plain.pointCount, 4);
	for (int i = 0; i < 3; ++i) {
		m = tbCollideShapesCached(&cube, &cube, near, 0.02f, &d, stale + i);
		cr_assert(sameManifold(&m, &plain), "stale cache %d changed the manifold", i);
		cr_assert_float_eq(d, -0.01f, 1e-6f);
		cr_assert_eq(stale[i].type, tb_satFaceA, "stale cache %d not replaced", i);
		cr_assert_eq(stale[i].indexA, 2, "the +y face of A, got %d", stale[i].indexA);
	}
}

// A box lying across the ridge of a wedge (the ramp of scenes/mixed.json): the ridge crosses the
// box's bottom face at a slight tilt. The face's plane runs on past the ridge's far end, which
// dips below it, so the face axis loses to an edge pair; one point at the edges' closest pair let
// such a box rock about it and sink 6 cm in a mixed rain. The manifold's points reach both ends
// of the ridge's stretch under the face (found here in double, by clipping the ridge to the
// face's rectangle in the box's frame), and its deepest point is the penetration depth GJK/EPA
// finds.
Test(sat, box_across_a_ridge_touches_at_both_ends)
{
	vec3s points[6] = {{{-2.0f, 0.0f, -1.5f}}, {{2.0f, 0.0f, -1.5f}}, {{-2.0f, 0.0f, 1.5f}},
	                   {{2.0f, 0.0f, 1.5f}},   {{2.0f, 1.5f, -1.5f}}, {{2.0f, 1.5f, 1.5f}}};
	tbHull hull;
	cr_assert_eq(tbBuildHull(points, 6, &hull, NULL), tb_hullOk);
	tbGeometry ramp = tbMakeHullShape(&hull);
	vec3s half = {{0.5f, 0.25f, 0.35f}};
	tbGeometry box = tbMakeBox(half.x, half.y, half.z);
	// The ridge runs from (-2, 0, -1.5) to (2, 1.5, -1.5) between the slope and the back face.
	vec3s r0 = points[0], r1 = points[4];
	vec3s along = glms_vec3_normalize(glms_vec3_sub(r1, r0));
	vec3s up = glms_vec3_normalize((vec3s){{-1.5f, 4.0f, 0.0f}}); // the slope's normal
	uint32_t state = 77u;
	int cases = 0;
	float worstSpan = -FLT_MAX;
	for (int i = 0; i < 200 && cases < 60; ++i) {
		// Box x along the ridge, y along the slope's normal, then turned about the normal and
		// tilted a little about the ridge and across it.
		float yaw = (2.0f * tbRandomUniform(&state) - 1.0f) * 0.9f;
		float tilt = (2.0f * tbRandomUniform(&state) - 1.0f) * 0.08f;
		float roll = (2.0f * tbRandomUniform(&state) - 1.0f) * 0.08f;
		mat3s basis = {.col = {along, up, glms_vec3_cross(along, up)}};
		versors q = glms_mat3_quat(basis);
		q = glms_quat_mul(glms_quatv(yaw, up), q);
		q = glms_quat_mul(glms_quatv(tilt, along), q);
		q = glms_quat_normalize(glms_quat_mul(glms_quatv(roll, glms_vec3_cross(along, up)), q));
		float t = 0.3f + 0.4f * tbRandomUniform(&state),
		      depth = 0.005f + 0.04f * tbRandomUniform(&state);
		vec3s onRidge = glms_vec3_lerp(r0, r1, t);
		// The box's bottom face reaches `depth` below the ridge point; the centre is off to one
		// side so that the ridge crosses the face.
		vec3s centreLocal = {
		    {0.0f, half.y - depth, (2.0f * tbRandomUniform(&state) - 1.0f) * 0.2f}};
		tbTransform bInA = {.q = q};
		bInA.p = glms_vec3_add(onRidge, glms_quat_rotatev(q, centreLocal));
		// The ridge in the box's frame, clipped to the bottom face's rectangle (|x| <= hx,
		// |z| <= hz): the stretch [s0, s1] of the segment, in double.
		vec3s a = glms_quat_rotatev(glms_quat_conjugate(q), glms_vec3_sub(r0, bInA.p));
		vec3s b = glms_quat_rotatev(glms_quat_conjugate(q), glms_vec3_sub(r1, bInA.p));
		double p0[3] = {a.x, a.y, a.z}, p1[3] = {b.x, b.y, b.z};
		double s0 = 0.0, s1 = 1.0;
		int clipAxes[2] = {0, 2};
		for (int c = 0; c < 2; ++c) {
			int k = clipAxes[c];
			double lim = half.raw[k], d = p1[k] - p0[k];
			for (int sign = -1; sign <= 1; sign += 2) {
				// sign * x <= lim
				double num = lim - sign * p0[k], den = sign * d;
				if (fabs(den) < 1e-12) {
					if (num < 0.0) {
						s0 = 1.0;
						s1 = 0.0;
					}
					continue;
				}
				double s = num / den;
				if (den > 0.0) {
					s1 = fmin(s1, s);
				} else {
					s0 = fmax(s0, s);
				}
			}
		}
		if (s1 - s0 < 0.05) {
			continue; // the ridge misses the face or grazes a corner
		}
		// The stretch's ends, and their heights over the bottom face (outward: -y; negative
		// inside): cases where the ridge stays over the face are not overlapping.
		double h[2];
		vec3s endA[2];
		for (int j = 0; j < 2; ++j) {
			double s = j == 0 ? s0 : s1;
			h[j] = -(double)half.y - (p0[1] + s * (p1[1] - p0[1]));
			endA[j] = glms_vec3_add(r0, glms_vec3_scale(glms_vec3_sub(r1, r0), (float)s));
		}
		float epa = queryDistance(&ramp, &box, bInA, NULL);
		if (!(epa < 0.0f) || fmin(h[0], h[1]) > 0.0) {
			continue; // not overlapping
		}
		++cases;
		tbManifold m = tbCollideShapesLocal(&ramp, &box, bInA, 0.05f, NULL);
		cr_assert_geq(m.pointCount, 2, "case %d: %d point(s) for a box across the ridge", i,
		              m.pointCount);
		float deepest = FLT_MAX;
		for (int k = 0; k < m.pointCount; ++k) {
			deepest = fminf(deepest, m.points[k].separation);
		}
		cr_assert_float_eq(deepest, epa, 1e-4f * pairScale(&ramp, &box, bInA),
		                   "case %d: deepest %.6f vs GJK/EPA %.6f", i, (double)deepest,
		                   (double)epa);
		// The points reach both ends of the stretch: their extent along the ridge is the
		// stretch's length (to a centimetre: a face contact's points lie on the box's face, a
		// little off the ridge line).
		float lo = FLT_MAX, hi = -FLT_MAX;
		for (int k = 0; k < m.pointCount; ++k) {
			float at = glms_vec3_dot(m.points[k].pointA, along);
			lo = fminf(lo, at);
			hi = fmaxf(hi, at);
		}
		float stretch = glms_vec3_distance(endA[0], endA[1]);
		cr_assert(hi - lo >= stretch - 0.01f, "case %d: points span %.4f m of a %.4f m stretch", i,
		          (double)(hi - lo), (double)stretch);
		worstSpan = fmaxf(worstSpan, stretch - (hi - lo));
	}
	cr_assert_geq(cases, 30, "only %d overlapping cases", cases);
	cr_log_info("box across a ridge: %d cases, points short of the stretch by at most %.4f m",
	            cases, (double)worstSpan);
	tbDestroyHull(&hull);
}

// A triangle against a polytope (sat_triangle.c) at random poses, against GJK/EPA: overlapping,
// the largest separation is minus the depth; apart, it is a lower bound on the distance and equal
// to it where the closest features are a face and what touches it. The chosen axis is checked
// against the shapes themselves: its separation recomputed from their support functions matches
// the witness points, and lies within the face preference's tolerance of the largest.
static void runTrianglePairs(const tbGeometry* tri, const tbGeometry* poly, uint32_t seed,
                             int count, const char* label)
{
	uint32_t state = seed;
	float size = fminf(tbGeometry_BoundingRadius(tri), tbGeometry_BoundingRadius(poly));
	int overlap = 0, apart = 0, faceClosest = 0;
	float worstDepth = 0.0f, worstBound = 0.0f, worstAxis = 0.0f;
	for (int i = 0; i < 2 * count; ++i) {
		bool triIsA = i % 2 == 0;
		const tbGeometry* a = triIsA ? tri : poly;
		const tbGeometry* b = triIsA ? poly : tri;
		float targets[5] = {-0.3f * size * tbRandomUniform(&state),
		                    -0.01f * size * tbRandomUniform(&state), 0.0f,
		                    0.01f * tbRandomUniform(&state), 0.05f * tbRandomUniform(&state)};
		tbTransform bInA = placeAt(a, b, targets[(i / 2) % 5], &state);
		float L = pairScale(a, b, bInA);
		float tol = 1e-4f * L;
		vec3s qn;
		float d = queryDistance(a, b, bInA, &qn);
		tbQueryResult r;
		CHECK(tbSat_TriangleQuery(a, b, bInA, FLT_MAX, NULL, &r), "%s: the test answers", label);
		if (d < 0.0f) {
			++overlap;
			worstDepth = fmaxf(worstDepth, fabsf(r.distance - d));
			CHECK(fabsf(r.distance - d) <= tol, "%s %d: SAT %.7f vs EPA %.7f", label, i,
			      (double)r.distance, (double)d);
		} else {
			++apart;
			worstBound = fmaxf(worstBound, r.distance - d);
			CHECK(r.distance <= d + tol, "%s %d: SAT %.7f exceeds the distance %.7f", label, i,
			      (double)r.distance, (double)d);
			// The triangle's normal in A's frame (its corners scaled).
			vec3s c[3];
			for (int k = 0; k < 3; ++k) {
				c[k] = glms_vec3_mul(tri->vertices[k], tri->scale);
			}
			vec3s tn = glms_vec3_normalize(
			    glms_vec3_cross(glms_vec3_sub(c[1], c[0]), glms_vec3_sub(c[2], c[0])));
			tn = triIsA ? tn : tbRotateVector(bInA.q, tn);
			float faceCos = cosf(0.01f * kDegree);
			if (fabsf(glms_vec3_dot(tn, qn)) >= faceCos ||
			    nearFaceNormal(poly, triIsA ? bInA.q : (versors){{0.0f, 0.0f, 0.0f, 1.0f}}, qn,
			                   faceCos)) {
				++faceClosest;
				CHECK(fabsf(r.distance - d) <= tol, "%s %d: face-closest: SAT %.7f vs GJK %.7f",
				      label, i, (double)r.distance, (double)d);
			}
		}
		// The chosen axis: B's lowest point along it less A's highest, from the shapes.
		vec3s nB = tbInvRotateVector(bInA.q, glms_vec3_negate(r.normal));
		float axisSep = glms_vec3_dot(r.normal, bInA.p) - tbGeometry_SupportValue(b, nB) -
		                tbGeometry_SupportValue(a, r.normal);
		float witness = glms_vec3_dot(glms_vec3_sub(r.pointB, r.pointA), r.normal);
		worstAxis = fmaxf(worstAxis, fabsf(axisSep - witness));
		CHECK(fabsf(glms_vec3_norm(r.normal) - 1.0f) < 1e-4f, "%s %d: unit normal", label, i);
		CHECK(fabsf(axisSep - witness) <= tol, "%s %d: axis separation %.7f, witness %.7f", label,
		      i, (double)axisSep, (double)witness);
		CHECK(witness <= r.distance + tol &&
		          witness >= r.distance - 0.1f * fabsf(r.distance) - 1e-3f * L - tol,
		      "%s %d: chosen %.7f against the largest %.7f", label, i, (double)witness,
		      (double)r.distance);
	}
	printf("SAT triangle-%s: %d overlapping (depth err max %.2e m), %d apart (bound excess "
	       "%.2e m, %d face-closest), chosen axis against the support functions max %.2e m\n",
	       label, overlap, (double)worstDepth, apart, (double)worstBound, faceClosest,
	       (double)worstAxis);
	cr_assert_gt(overlap, count / 3, "%s: overlapping cases", label);
	cr_assert_gt(faceClosest, count / 20, "%s: face-closest separated cases", label);
}

Test(sat, triangle_polytope_matches_gjk_epa)
{
	uint32_t state = 2024u;
	tbGeometry tri = tbMakeTriangle((vec3s){{-0.6f, 0.0f, -0.4f}}, (vec3s){{0.7f, 0.1f, -0.3f}},
	                                (vec3s){{0.0f, -0.1f, 0.8f}});
	tbGeometry box = tbMakeBox(0.4f, 0.25f, 0.5f);
	runTrianglePairs(&tri, &box, 11u, 600, "box");
	tbHull hull;
	randomHull(&hull, 16, (vec3s){{0.5f, 0.35f, 0.45f}}, &state);
	tbGeometry h = tbMakeHullShape(&hull);
	runTrianglePairs(&tri, &h, 13u, 600, "hull");
	h.scale = (vec3s){{1.3f, 0.6f, 0.9f}};
	tri.scale = (vec3s){{2.0f, 1.0f, 0.5f}};
	runTrianglePairs(&tri, &h, 17u, 600, "scaled hull");
	tbDestroyHull(&hull);
}

// Bad input leaves the triangle test to the query path: no area, NaN corners, a shape it does not
// take.
Test(sat, triangle_test_refuses_what_it_cannot_answer)
{
	tbGeometry box = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbTransform xf = {.p = {{0.0f, 1.0f, 0.0f}}, .q = {{0.0f, 0.0f, 0.0f, 1.0f}}};
	tbQueryResult r;
	tbGeometry sliver = tbMakeTriangle((vec3s){{0.0f, 0.0f, 0.0f}}, (vec3s){{1.0f, 0.0f, 0.0f}},
	                                   (vec3s){{2.0f, 0.0f, 0.0f}});
	cr_assert_not(tbSat_TriangleQuery(&sliver, &box, xf, 0.1f, NULL, &r));
	tbGeometry nan = tbMakeTriangle((vec3s){{NAN, 0.0f, 0.0f}}, (vec3s){{1.0f, 0.0f, 0.0f}},
	                                (vec3s){{0.0f, 0.0f, 1.0f}});
	cr_assert_not(tbSat_TriangleQuery(&nan, &box, xf, 0.1f, NULL, &r));
	tbGeometry ball = tbMakeSphere(0.5f);
	tbGeometry tri = tbMakeTriangle((vec3s){{-1.0f, 0.0f, -1.0f}}, (vec3s){{1.0f, 0.0f, -1.0f}},
	                                (vec3s){{0.0f, 0.0f, 1.0f}});
	cr_assert_not(tbSat_TriangleQuery(&tri, &ball, xf, 0.1f, NULL, &r));
	// A box resting 0.01 m into a triangle, face down: depth and normal exactly.
	xf.p.y = 0.49f;
	cr_assert(tbSat_TriangleQuery(&tri, &box, xf, 0.1f, NULL, &r));
	cr_assert_float_eq(r.distance, -0.01f, 1e-6f);
	cr_assert_float_eq(r.normal.y, 1.0f, 1e-6f);
}
