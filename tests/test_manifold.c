// The contact manifold builder (collision/src/manifold.c) called directly: clipping of the
// incident face against the reference face, reduction to four points, and feature ids that stay
// the same while the same features touch. Each against geometry worked out independently: the
// overlap rectangle of two offset boxes, the octagon of two crossed squares (best four-point
// subset by brute force), a tilted box's deepest corner.
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <tumble/tumble.h>

#include "random.h"

static const versors s_identity = {{0.0f, 0.0f, 0.0f, 1.0f}};

// The side planes of the reference face stand this far outside it: 1e-2 of the smaller shape's
// bounding radius (sqrt(3) for these boxes), so that a corner just past an edge keeps its id
// instead of alternating with a clipped copy (TB_PLANE_TOL in manifold.c).
static const float s_slack = 0.01f * 1.7320508f;

static tbTransform at(float x, float y, float z, versors q)
{
	return tbMakeTransform((vec3s){{x, y, z}}, q);
}

// Whether point p is within tol of one of the n expected points; returns its index or -1.
static int match(vec3s p, const vec3s* expected, int n, float tol)
{
	for (int i = 0; i < n; ++i) {
		if (glms_vec3_norm(glms_vec3_sub(p, expected[i])) <= tol) {
			return i;
		}
	}
	return -1;
}

// Signed area of the polygon of points (x, z) in the given order, about +y.
static float polygonArea(const vec3s* p, int n)
{
	float twice = 0.0f;
	for (int i = 0; i < n; ++i) {
		vec3s a = p[i], b = p[(i + 1) % n];
		twice += a.z * b.x - a.x * b.z;
	}
	return 0.5f * fabsf(twice);
}

// Area of the convex hull of four points in the plane y = const (the largest of the three
// orderings of a quadrilateral).
static float quadArea(vec3s a, vec3s b, vec3s c, vec3s d)
{
	vec3s orders[3][4] = {{a, b, c, d}, {a, b, d, c}, {a, c, b, d}};
	float best = 0.0f;
	for (int k = 0; k < 3; ++k) {
		best = fmaxf(best, polygonArea(orders[k], 4));
	}
	return best;
}

Test(manifold, offset_boxes_clip_to_the_overlap_rectangle)
{
	// A: half extents 1, at the origin; B: the same box 1.99 m up (sunk 0.01 m) and moved by
	// (0.6, 0.3) sideways. The contact region is the overlap of the two squares, A's grown by the
	// slack: x in [-0.4, 1 + s], z in [-0.7, 1 + s], at the height of A's top face.
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbManifold m = tbCollideShapes(&box, at(0.0f, 0.0f, 0.0f, s_identity), &box,
	                               at(0.6f, 1.99f, 0.3f, s_identity), 0.02f);
	cr_assert_eq(m.pointCount, 4);
	cr_assert_float_eq(m.normal.y, 1.0f, 1e-5f);
	float e = 1.0f + s_slack;
	vec3s corners[4] = {
	    {{-0.4f, 1.0f, -0.7f}}, {{e, 1.0f, -0.7f}}, {{e, 1.0f, e}}, {{-0.4f, 1.0f, e}}};
	bool seen[4] = {false, false, false, false};
	for (int i = 0; i < 4; ++i) {
		const tbManifoldPoint* p = m.points + i;
		// The corners of the rectangle, on A's face; B's point 0.01 m below it.
		int k = match(p->pointA, corners, 4, 2e-4f);
		cr_assert_geq(k, 0, "point A (%g %g %g) is no corner of the overlap", (double)p->pointA.x,
		              (double)p->pointA.y, (double)p->pointA.z);
		cr_assert_not(seen[k], "corner %d twice", k);
		seen[k] = true;
		cr_assert_float_eq(p->separation, -0.01f, 2e-4f);
		cr_assert_float_eq(p->pointB.y, 0.99f, 2e-4f);
		for (int j = 0; j < i; ++j) {
			cr_assert_neq(p->id, m.points[j].id, "two points share the id %u", p->id);
		}
	}
}

Test(manifold, crossed_squares_reduce_to_a_large_quad)
{
	// B, turned 45 degrees about y, rests on A: its bottom square crosses A's top square in an
	// octagon; with A's square grown by the slack s, its vertices are (e, +-t), (+-t, e), ... where
	// e = 1 + s and t = sqrt(2) - e (B's edges are |x| + |z| = sqrt(2)). Eight candidate points
	// must be reduced to four of them, spanning nearly the best area any four of them span.
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	versors turn = glms_quatv(GLM_PI_4f, (vec3s){{0.0f, 1.0f, 0.0f}});
	tbManifold m = tbCollideShapes(&box, at(0.0f, 0.0f, 0.0f, s_identity), &box,
	                               at(0.0f, 1.995f, 0.0f, turn), 0.02f);
	float e = 1.0f + s_slack, t = sqrtf(2.0f) - e;
	vec3s octagon[8] = {{{e, 1.0f, -t}}, {{e, 1.0f, t}},   {{t, 1.0f, e}},   {{-t, 1.0f, e}},
	                    {{-e, 1.0f, t}}, {{-e, 1.0f, -t}}, {{-t, 1.0f, -e}}, {{t, 1.0f, -e}}};
	cr_assert_eq(m.pointCount, 4);
	vec3s kept[4];
	for (int i = 0; i < 4; ++i) {
		kept[i] = m.points[i].pointA;
		cr_assert_geq(match(kept[i], octagon, 8, 2e-4f), 0, "point (%g %g %g) is no octagon vertex",
		              (double)kept[i].x, (double)kept[i].y, (double)kept[i].z);
		cr_assert_float_eq(m.points[i].separation, -0.005f, 2e-4f);
	}
	float best = 0.0f;
	for (int a = 0; a < 8; ++a) {
		for (int b = a + 1; b < 8; ++b) {
			for (int c = b + 1; c < 8; ++c) {
				for (int d = c + 1; d < 8; ++d) {
					best = fmaxf(best, quadArea(octagon[a], octagon[b], octagon[c], octagon[d]));
				}
			}
		}
	}
	float area = quadArea(kept[0], kept[1], kept[2], kept[3]);
	printf("manifold: kept quad %.4f m^2 of the best %.4f (octagon %.4f)\n", (double)area,
	       (double)best, (double)polygonArea(octagon, 8));
	cr_expect_geq(area, 0.9f * best, "the four points span %g m^2 of a possible %g", (double)area,
	              (double)best);
}

Test(manifold, reduction_keeps_the_deepest_point)
{
	// B turned 45 degrees about y and tipped 0.02 rad about x: of the octagon's corners, the one
	// farthest along the tip sinks deepest, and the solver needs it.
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	versors q = glms_quat_mul(glms_quatv(0.02f, (vec3s){{1.0f, 0.0f, 0.0f}}),
	                          glms_quatv(GLM_PI_4f, (vec3s){{0.0f, 1.0f, 0.0f}}));
	tbTransform xfB = at(0.0f, 1.99f, 0.0f, q);
	tbManifold m = tbCollideShapes(&box, at(0.0f, 0.0f, 0.0f, s_identity), &box, xfB, 0.05f);
	cr_assert_geq(m.pointCount, 3);
	// The deepest point of B's bottom face inside A's top square, by sampling the face densely.
	float deepest = INFINITY;
	for (int i = 0; i <= 200; ++i) {
		for (int j = 0; j <= 200; ++j) {
			vec3s local = {{-1.0f + 0.01f * (float)i, -1.0f, -1.0f + 0.01f * (float)j}};
			vec3s w = tbTransformPoint(xfB, local);
			if (fabsf(w.x) <= 1.0f && fabsf(w.z) <= 1.0f) {
				deepest = fminf(deepest, w.y - 1.0f);
			}
		}
	}
	float kept = INFINITY;
	for (int i = 0; i < m.pointCount; ++i) {
		kept = fminf(kept, m.points[i].separation);
	}
	cr_assert_float_eq(kept, deepest, 2e-3f, "deepest kept %g, deepest of the face %g",
	                   (double)kept, (double)deepest);
}

Test(manifold, feature_ids_stay_while_the_same_features_touch)
{
	// The offset boxes jiggled by up to 0.5 mm and 1 mrad for 100 frames: the same corners and
	// clipped edges touch, so the ids (and the point each id names) must stay.
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbManifold first = tbCollideShapes(&box, at(0.0f, 0.0f, 0.0f, s_identity), &box,
	                                   at(0.6f, 1.99f, 0.3f, s_identity), 0.02f);
	cr_assert_eq(first.pointCount, 4);
	uint64_t state = 12345;
	for (int frame = 0; frame < 100; ++frame) {
		float r[4];
		for (int k = 0; k < 4; ++k) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			r[k] = (float)((double)(state >> 11) / 9007199254740992.0) * 2.0f - 1.0f;
		}
		versors q = glms_quatv(1e-3f * r[3], glms_vec3_normalize((vec3s){{r[0], 1.0f, r[2]}}));
		tbManifold m = tbCollideShapes(
		    &box, at(0.0f, 0.0f, 0.0f, s_identity), &box,
		    at(0.6f + 5e-4f * r[0], 1.99f + 5e-4f * r[1], 0.3f + 5e-4f * r[2], q), 0.02f);
		cr_assert_eq(m.pointCount, 4, "frame %d: %d points", frame, m.pointCount);
		for (int i = 0; i < 4; ++i) {
			int same = -1;
			for (int j = 0; j < 4; ++j) {
				same = first.points[j].id == m.points[i].id ? j : same;
			}
			cr_assert_geq(same, 0, "frame %d: new id %u", frame, m.points[i].id);
			float moved =
			    glms_vec3_norm(glms_vec3_sub(m.points[i].pointA, first.points[same].pointA));
			cr_assert_lt(moved, 5e-3f, "frame %d: id %u moved %g m", frame, m.points[i].id,
			             (double)moved);
		}
	}
}

// Two capsules lying side by side (parallel axes d apart) touch along a line: the manifold is the
// stretch where their core segments overlap, a point at each end, each separated by d - rA - rB.
// The same for a capsule along a cone's slant line (a cone lying on a log), whose contact line is
// the slant from apex to rim. A single point there let a cone on a static capsule roll about it
// and sink 5 cm at the line's other end.
Test(manifold, segments_side_by_side_touch_along_their_common_stretch)
{
	// Capsule A along x (axis y turned to x), radius 0.3, half height 1; capsule B radius 0.2,
	// half height 0.8, parallel, shifted 0.5 along the axis and 0.49 up: sunk 0.01 m.
	versors alongX = glms_quatv(-1.5707963f, (vec3s){{0.0f, 0.0f, 1.0f}});
	tbGeometry a = tbMakeCapsule(0.3f, 1.0f), b = tbMakeCapsule(0.2f, 0.8f);
	float lift = 0.49f, shift = 0.5f;
	tbManifold m =
	    tbCollideShapes(&a, at(0.0f, 0.0f, 0.0f, alongX), &b, at(shift, lift, 0.0f, alongX), 0.02f);
	cr_assert_eq(m.pointCount, 2, "points %d", m.pointCount);
	// The common stretch of the axes: x from shift - 0.8 to 1 (A's end).
	float ends[2] = {shift - 0.8f, 1.0f};
	bool seen[2] = {false, false};
	for (int i = 0; i < 2; ++i) {
		const tbManifoldPoint* p = m.points + i;
		cr_expect_float_eq(p->separation, lift - 0.5f, 1e-5f, "separation %g",
		                   (double)p->separation);
		int k = fabsf(p->pointA.x - ends[0]) < 1e-4f
		            ? 0
		            : (fabsf(p->pointA.x - ends[1]) < 1e-4f ? 1 : -1);
		cr_assert(k >= 0, "point at x = %g, not at an end of the stretch", (double)p->pointA.x);
		seen[k] = true;
		cr_expect_float_eq(p->pointA.y, 0.3f, 1e-5f);        // on A's surface
		cr_expect_float_eq(p->pointB.y, lift - 0.2f, 1e-5f); // on B's surface
	}
	cr_expect(seen[0] && seen[1]);
	cr_expect(m.points[0].id != m.points[1].id);

	// A cone (radius 0.45, half height 0.4) lying on its slant line on capsule A: its slant from
	// apex (0, 0.4, 0) to rim (0.45, -0.4, 0) turned to lie along x, 0.005 m into the capsule.
	tbGeometry cone = tbMakeCone(0.45f, 0.4f);
	float slant = sqrtf(0.45f * 0.45f + 0.8f * 0.8f);
	// The slant's outward normal in the cone's frame is (0.8, 0.45, 0) / slant; turn it to -y.
	float angle = atan2f(0.45f, 0.8f); // the slant normal's angle above the x axis
	versors turn = glms_quatv(-(1.5707963f + angle), (vec3s){{0.0f, 0.0f, 1.0f}});
	// Where the apex and rim point go, and the lift that leaves the slant 0.005 m inside A.
	vec3s apex = glms_quat_rotatev(turn, (vec3s){{0.0f, 0.4f, 0.0f}});
	vec3s rim = glms_quat_rotatev(turn, (vec3s){{0.45f, -0.4f, 0.0f}});
	cr_assert_float_eq(apex.y, rim.y, 1e-5f, "the slant lies flat");
	float y = 0.3f - 0.005f - apex.y;
	float x = -0.5f * (apex.x + rim.x); // the slant centred over the capsule
	m = tbCollideShapes(&a, at(0.0f, 0.0f, 0.0f, alongX), &cone, at(x, y, 0.0f, turn), 0.02f);
	cr_assert_eq(m.pointCount, 2, "points %d", m.pointCount);
	for (int i = 0; i < 2; ++i) {
		cr_expect_float_eq(m.points[i].separation, -0.005f, 2e-5f, "separation %g",
		                   (double)m.points[i].separation);
	}
	// The two points span the slant (apex to rim: it lies within the capsule's core).
	float span = fabsf(m.points[0].pointA.x - m.points[1].pointA.x);
	cr_expect_float_eq(span, slant, 1e-4f, "span %g, slant %g", (double)span, (double)slant);
}

static unsigned s_seed = 12345;

static float uniform(float lo, float hi)
{
	s_seed = s_seed * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(s_seed >> 8) / 16777216.0f;
}

// A manifold holds the pair's depth: its deepest point is as deep as the penetration depth. The
// manifold is built from the default query (GJK and EPA); the depth it is held to comes from
// unified EPA, the other algorithm (hard case c32 checks one case against the brute-force depth
// too). A face clip keeps only what lies over the reference face, and a cone or cylinder whose
// rim hangs over the face's edge was deeper there (manifold.c, tbKeepDeepest; without it 97 of
// these 50,971 pairs were shallower, by up to 15.5 % of the size). Cones, cylinders and capsules
// against boxes take the query and clipping path, boxes against boxes and hulls the separating-axis
// test: 200,000 random poses, the overlapping ones compared.
Test(manifold, deepest_point_reaches_the_penetration_depth, .timeout = 120)
{
	vec3s pts[10];
	for (int i = 0; i < 10; ++i) {
		pts[i] = (vec3s){{uniform(-0.5f, 0.5f), uniform(-0.5f, 0.5f), uniform(-0.5f, 0.5f)}};
	}
	tbHull hull;
	cr_assert_eq(tbBuildHull(pts, 10, &hull, NULL), tb_hullOk);
	int compared = 0, shallow = 0;
	float worst = 0.0f;
	for (int k = 0; k < 200000; ++k) {
		tbGeometry a = tbMakeBox(uniform(0.1f, 1.0f), uniform(0.1f, 1.0f), uniform(0.1f, 1.0f));
		float r = uniform(0.1f, 0.6f), h = uniform(0.1f, 0.6f);
		tbGeometry b;
		switch (k % 5) {
		case 0:
			b = tbMakeCone(r, h);
			break;
		case 1:
			b = tbMakeCylinder(r, h);
			break;
		case 2:
			b = tbMakeCapsule(r, h);
			break;
		case 3:
			b = tbMakeBox(r, h, uniform(0.1f, 0.6f));
			break;
		default:
			b = tbMakeHullShape(&hull);
			break;
		}
		vec3s axisA = {{uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f) + 1e-3f}};
		vec3s axisB = {{uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f) + 1e-3f}};
		tbTransform xa =
		    at(0.0f, 0.0f, 0.0f, glms_quatv(uniform(0.0f, 6.28f), glms_vec3_normalize(axisA)));
		tbTransform xb = at(uniform(-1.5f, 1.5f), uniform(-1.5f, 1.5f), uniform(-1.5f, 1.5f),
		                    glms_quatv(uniform(0.0f, 6.28f), glms_vec3_normalize(axisB)));
		tbQueryDef def = tbDefaultQueryDef();
		def.algorithm = tb_algorithmUnifiedEpa;
		tbQueryResult q = tbQueryShapes(&a, xa, &b, xb, &def);
		if (!(q.distance < 0.0f)) {
			continue;
		}
		tbManifold m = tbCollideShapes(&a, xa, &b, xb, 0.02f);
		float deepest = INFINITY;
		for (int i = 0; i < m.pointCount; ++i) {
			deepest = fminf(deepest, m.points[i].separation);
		}
		float size = fminf(tbGeometry_BoundingRadius(&a), tbGeometry_BoundingRadius(&b));
		float off = (deepest - q.distance) / size;
		shallow += off > 0.01f ? 1 : 0;
		worst = fmaxf(worst, off);
		++compared;
	}
	cr_log_info("%d overlapping pairs: %d with the deepest point shallower than the depth by more "
	            "than 1 %% of the size, worst %.4f",
	            compared, shallow, (double)worst);
	cr_expect_gt(compared, 40000);
	cr_expect_eq(shallow, 0, "%d manifolds shallower than the depth (worst %.4f of the size)",
	             shallow, (double)worst);
	tbDestroyHull(&hull);
}

// A pair GJK answers keeps the vertex ids of its last simplex in the pair's cache (tb_satSimplex)
// and the next call starts from them. Along a path of small steps (B orbiting A at a slowly
// changing distance, turning as it goes, passing from a few centimetres apart to a few
// millimetres deep), every cached call must give what the cold call gives: the distance, the
// normal and the points. A cache left by another pair (ids its shapes do not have) must change
// nothing either.
static void checkWarmPath(const tbGeometry* a, const tbGeometry* b, float reach, const char* label)
{
	tbSatCache cache = {0};
	int kept = 0, steps = 400;
	float worstDistance = 0.0f, worstNormal = 0.0f, nearest = FLT_MAX, farthest = -FLT_MAX;
	for (int k = 0; k < steps; ++k) {
		float t = (float)k / (float)steps;
		float angle = 2.0f * t;
		float radius = reach + 0.2f * cosf(7.0f * t);
		vec3s p = {{radius * cosf(angle), 0.3f * sinf(3.0f * t), radius * sinf(angle)}};
		versors q = glms_quatv(1.5f * t, glms_vec3_normalize((vec3s){{0.3f, 1.0f, 0.2f}}));
		tbTransform bInA = tbMakeTransform(p, q);
		float dWarm = 0.0f, dCold = 0.0f;
		tbManifold warm = tbCollideShapesCached(a, b, bInA, 0.05f, &dWarm, &cache);
		tbManifold cold = tbCollideShapesLocal(a, b, bInA, 0.05f, &dCold);
		kept += cache.type == tb_satSimplex;
		nearest = fminf(nearest, dCold);
		farthest = fmaxf(farthest, dCold);
		float L = tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + glms_vec3_norm(p);
		worstDistance = fmaxf(worstDistance, fabsf(dWarm - dCold));
		cr_assert_float_eq(dWarm, dCold, 1e-5f * L, "%s step %d: distance %.7f warm, %.7f cold",
		                   label, k, (double)dWarm, (double)dCold);
		cr_assert_eq(warm.pointCount, cold.pointCount, "%s step %d: %d points warm, %d cold", label,
		             k, warm.pointCount, cold.pointCount);
		if (cold.pointCount > 0) {
			float angleOff = acosf(fminf(1.0f, glms_vec3_dot(warm.normal, cold.normal)));
			worstNormal = fmaxf(worstNormal, angleOff);
			cr_assert_lt(angleOff, 1e-3f, "%s step %d: normals %.2e rad apart", label, k,
			             (double)angleOff);
			for (int i = 0; i < cold.pointCount; ++i) {
				cr_assert_float_eq(warm.points[i].separation, cold.points[i].separation, 1e-4f * L,
				                   "%s step %d point %d", label, k, i);
			}
		}
	}
	printf("warm GJK %s: distance %.3f to %.3f m, %d of %d steps left a simplex in the cache; "
	       "distance max diff %.2e m, normal %.2e rad\n",
	       label, (double)nearest, (double)farthest, kept, steps, (double)worstDistance,
	       (double)worstNormal);
	cr_assert(nearest < 0.0f && farthest > 0.0f, "%s: the path passes from apart to overlapping",
	          label);
	cr_assert_gt(kept, steps / 4, "%s: the cache holds a simplex on the separated steps", label);
	// A stale cache: ids far beyond these shapes' vertices.
	tbSatCache stale = {.type = tb_satSimplex,
	                    .indexA = (int)((3u << 30) | 1000u | (999u << 10) | (998u << 20)),
	                    .indexB = (int)(1000u | (999u << 10) | (998u << 20))};
	tbTransform near = tbMakeTransform((vec3s){{reach, 0.0f, 0.0f}}, s_identity);
	float dStale = 0.0f, dCold = 0.0f;
	tbCollideShapesCached(a, b, near, 0.05f, &dStale, &stale);
	tbCollideShapesLocal(a, b, near, 0.05f, &dCold);
	cr_assert_float_eq(dStale, dCold, 1e-6f, "%s: a stale cache changes the answer", label);
}

Test(manifold, gjk_starts_from_the_pairs_last_simplex)
{
	// Two hulls of 24 points on ellipsoids: too many edges for the separating-axis test.
	vec3s pa[24], pb[24];
	uint32_t state = 777u;
	for (int i = 0; i < 24; ++i) {
		vec3s u = tbRandomUnit(&state);
		pa[i] = glms_vec3_mul(u, (vec3s){{0.5f, 0.4f, 0.6f}});
		pb[i] = glms_vec3_mul(u, (vec3s){{0.3f, 0.5f, 0.35f}});
	}
	tbHull ha, hb;
	cr_assert_eq(tbBuildHull(pa, 24, &ha, NULL), tb_hullOk);
	cr_assert_eq(tbBuildHull(pb, 24, &hb, NULL), tb_hullOk);
	tbGeometry hullA = tbMakeHullShape(&ha), hullB = tbMakeHullShape(&hb);
	checkWarmPath(&hullA, &hullB, 0.85f, "hull-hull");
	tbGeometry capsule = tbMakeCapsule(0.2f, 0.4f);
	checkWarmPath(&hullA, &capsule, 0.75f, "hull-capsule");
	tbGeometry box = tbMakeBox(0.4f, 0.3f, 0.5f);
	tbGeometry ball = tbMakeSphere(0.3f);
	checkWarmPath(&box, &ball, 0.75f, "box-sphere");
	tbGeometry scaled = tbMakeBox(0.3f, 0.2f, 0.25f);
	scaled.scale = (vec3s){{1.2f, 0.8f, 1.5f}};
	checkWarmPath(&capsule, &scaled, 0.7f, "capsule-scaled box");
	tbDestroyHull(&ha);
	tbDestroyHull(&hb);
}
