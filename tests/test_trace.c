// The GJK/EPA trace as the debugger records and replays it: the replayed answer is the
// query's, and the seed examples (boxes overlapping, boxes apart, sphere and cone) take the steps
// that geometry predicts. Black-box: the public API and the demo's GL-free trace recorder.
#include "../demos/trace_record.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <tumble/tumble.h>

static const versors s_identity = {{0.0f, 0.0f, 0.0f, 1.0f}};

static tbTransform pose(float x, float y, float z, versors q)
{
	return tbMakeTransform((vec3s){{x, y, z}}, q);
}

static dmTrace record(const tbGeometry* a, tbTransform xfA, const tbGeometry* b, tbTransform xfB,
                      tbQueryAlgorithm algorithm)
{
	dmTrace trace = {0};
	cr_assert(dmTrace_Record(&trace, a, b, tbInvMulTransforms(xfA, xfB), algorithm));
	return trace;
}

// Closest point of a 1- to 3-point simplex to the origin, by brute force over a fine barycentric
// grid refined around the best sample: independent of the library's sub-simplex solver.
static float simplexDistance(const vec3s* p, int count)
{
	float best = INFINITY;
	const int n = 400;
	for (int i = 0; i <= n; ++i) {
		for (int j = 0; j <= (count >= 2 ? n - i : 0); ++j) {
			int k = count >= 3 ? n - i - j : 0;
			if (count == 2 && i + j != n) {
				continue;
			}
			if (count == 1 && i != n) {
				continue;
			}
			float l0 = (float)i / n, l1 = (float)j / n, l2 = (float)k / n;
			vec3s q = glms_vec3_scale(p[0], l0);
			if (count >= 2) {
				q = glms_vec3_add(q, glms_vec3_scale(p[1], l1));
			}
			if (count >= 3) {
				q = glms_vec3_add(q, glms_vec3_scale(p[2], l2));
			}
			best = fminf(best, glms_vec3_norm(q));
		}
	}
	return best;
}

static void assertReplayMatches(const dmTrace* trace, const char* what)
{
	float distance;
	vec3s normal;
	cr_assert(dmTrace_Replay(trace, &distance, &normal), "%s: no step recorded", what);
	const tbQueryResult* r = &trace->result;
	float tol = 1e-5f * trace->scale;
	cr_assert(fabsf(distance - r->distance) <= tol, "%s: replayed %.7f, query %.7f", what,
	          (double)distance, (double)r->distance);
	cr_assert(glms_vec3_dot(normal, r->normal) > 1.0f - 1e-4f,
	          "%s: replayed normal (%f %f %f), query (%f %f %f)", what, (double)normal.x,
	          (double)normal.y, (double)normal.z, (double)r->normal.x, (double)r->normal.y,
	          (double)r->normal.z);
}

Test(trace, overlapping_boxes_end_in_a_tetrahedron_then_epa)
{
	// Seed example: two 2 m cubes whose centres are 1.5 m apart along x overlap by 0.5 m. A small
	// tilt keeps the support points off ties.
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbTransform xfA = pose(0.0f, 0.0f, 0.0f, s_identity);
	tbTransform xfB = pose(1.5f, 0.1f, -0.05f, tbQuatFromEulerXYZ(0.0f, 0.0f, 0.0f));
	dmTrace t = record(&box, xfA, &box, xfB, tb_algorithmGjkEpa);
	cr_assert(t.count >= 2);
	cr_assert(t.result.hit);
	cr_assert_float_eq(t.result.distance, -0.5f, 1e-4f);

	// GJK: starts from one point and never holds more than a triangle before adding w; its
	// final record is the simplex it ends with.
	cr_assert_eq(t.steps[0].stage, tb_traceGjk);
	cr_assert_eq(t.steps[0].simplexCount, 1);
	int lastGjk = -1;
	for (int i = 0; i < t.count && t.steps[i].stage == tb_traceGjk; ++i) {
		lastGjk = i;
	}
	cr_assert(lastGjk >= 1 && lastGjk + 1 < t.count, "EPA must follow GJK");
	for (int i = 0; i < lastGjk; ++i) {
		cr_assert(t.steps[i].simplexCount >= 1 && t.steps[i].simplexCount <= 3);
	}
	// The origin is inside: the step before the last holds a triangle whose support closes the
	// tetrahedron (Casalino 2021 case c); GJK ends with that tetrahedron and EPA takes it as its
	// first polytope.
	const dmTraceStep* g = t.steps + lastGjk - 1;
	const dmTraceStep* end = t.steps + lastGjk;
	const dmTraceStep* e = t.steps + lastGjk + 1;
	cr_assert_eq(g->simplexCount, 3);
	cr_assert_eq(end->simplexCount, 4);
	cr_assert_eq(e->stage, tb_traceEpa);
	cr_assert_eq(e->iteration, 0);
	cr_assert_eq(e->vertexCount, 4);
	cr_assert_eq(e->triangleCount, 4);
	for (int k = 0; k < 4; ++k) {
		vec3s expected = k < 3 ? g->simplex[k] : g->support;
		bool inEnd = false;
		for (int v = 0; v < 4; ++v) {
			inEnd = inEnd || glms_vec3_norm(glms_vec3_sub(end->simplex[v], expected)) < 1e-6f;
		}
		cr_assert(inEnd, "GJK's final tetrahedron lacks vertex %d", k);
		bool found = false;
		for (int v = 0; v < 4; ++v) {
			found = found || glms_vec3_norm(glms_vec3_sub(e->vertices[v], expected)) < 1e-6f;
		}
		cr_assert(found, "tetrahedron vertex %d is not from GJK's last simplex", k);
	}
	// EPA's last step: its closest face is the answer (depth 0.5 along +x).
	const dmTraceStep* last = t.steps + t.count - 1;
	cr_assert_eq(last->stage, tb_traceEpa);
	float fd;
	vec3s n;
	cr_assert(dmTraceStep_ClosestFace(last, &fd, &n) >= 0);
	cr_assert_float_eq(fd, last->distance, 1e-5f);
	cr_assert_float_eq(fd - last->inflation, 0.5f, 1e-4f);
	cr_assert(n.x > 0.9999f, "closest face normal (%f %f %f)", (double)n.x, (double)n.y,
	          (double)n.z);
	assertReplayMatches(&t, "overlapping boxes");
	dmTrace_Free(&t);
}

Test(trace, boxes_apart_end_on_the_analytic_distance)
{
	// Seed example: two 2 m cubes 1 m apart along x (faces at x = 1 and x = 2).
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbTransform xfA = pose(0.0f, 0.0f, 0.0f, s_identity);
	tbTransform xfB = pose(3.0f, 0.5f, 0.25f, s_identity);
	dmTrace t = record(&box, xfA, &box, xfB, tb_algorithmGjkEpa);
	cr_assert(!t.result.hit);
	cr_assert(t.count >= 1);
	for (int i = 0; i < t.count; ++i) {
		cr_assert_eq(t.steps[i].stage, tb_traceGjk, "apart: GJK alone answers");
		cr_assert(t.steps[i].simplexCount >= 1 && t.steps[i].simplexCount <= 3);
	}
	cr_assert_eq(t.steps[0].simplexCount, 1);
	// |v| never grows (Casalino 2021: each iteration gets closer), and the final simplex's closest
	// point to the origin is at the analytic distance, 1 m.
	for (int i = 1; i < t.count; ++i) {
		cr_assert(t.steps[i].distance <= t.steps[i - 1].distance + 1e-6f);
	}
	const dmTraceStep* last = t.steps + t.count - 1;
	cr_assert_float_eq(simplexDistance(last->simplex, last->simplexCount), 1.0f, 2e-3f);
	cr_assert_float_eq(last->distance, 1.0f, 1e-5f);
	vec3s d = glms_vec3_normalize(last->direction);
	cr_assert(d.x > 0.9999f);
	cr_assert_float_eq(t.result.distance, 1.0f, 1e-5f);
	assertReplayMatches(&t, "boxes apart");
	dmTrace_Free(&t);
}

// A cone (r 0.5, half height 0.5) upside down above a ball of radius 0.5 at the origin, its apex
// `gap` above the ball's top.
static dmTrace sphereAndCone(float gap, tbQueryAlgorithm algorithm)
{
	tbGeometry ball = tbMakeSphere(0.5f);
	tbGeometry cone = tbMakeCone(0.5f, 0.5f);
	tbTransform xfA = pose(0.0f, 0.0f, 0.0f, s_identity);
	// Upside down: the apex at the cone's local y = -0.5 after the half turn about x.
	versors flip = glms_quatv(GLM_PIf, (vec3s){{1.0f, 0.0f, 0.0f}});
	tbTransform xfB = pose(0.0f, 0.5f + gap + 0.5f, 0.0f, flip);
	return record(&ball, xfA, &cone, xfB, algorithm);
}

Test(trace, sphere_and_cone_close_on_the_apex)
{
	// The ball is a point core plus its radius: A - B of the cores is minus the cone, and the
	// closest point is the apex, a vertex region. Apart by 0.3 m, then sunk 0.1 m: GJK alone
	// answers both (the cores stay apart), each ending on a one-point simplex.
	const float gaps[2] = {0.3f, -0.1f};
	for (int g = 0; g < 2; ++g) {
		dmTrace t = sphereAndCone(gaps[g], tb_algorithmGjkEpa);
		cr_assert(t.count >= 1);
		cr_assert_float_eq(t.coreRadiusA, 0.5f, 0.0f);
		cr_assert_eq(t.steps[0].simplexCount, 1);
		const dmTraceStep* last = t.steps + t.count - 1;
		cr_assert_eq(last->stage, tb_traceGjk);
		cr_assert_eq(last->simplexCount, 1, "gap %g: the apex alone is closest", (double)gaps[g]);
		cr_assert_float_eq(last->distance, 0.5f + gaps[g], 1e-5f);
		cr_assert_float_eq(t.result.distance, gaps[g], 1e-5f);
		cr_assert_eq(t.result.hit, gaps[g] <= 0.0f);
		assertReplayMatches(&t, gaps[g] > 0.0f ? "sphere and cone apart" : "sphere into cone");
		dmTrace_Free(&t);
	}
}

Test(trace, unified_epa_replays_its_answer)
{
	tbGeometry box = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbTransform xfA = pose(0.0f, 0.0f, 0.0f, s_identity);
	const float xs[2] = {1.5f, 2.6f}; // overlapping by 0.5 m, apart by 0.6 m
	for (int i = 0; i < 2; ++i) {
		tbTransform xfB = pose(xs[i], 0.1f, -0.05f, s_identity);
		dmTrace t = record(&box, xfA, &box, xfB, tb_algorithmUnifiedEpa);
		cr_assert(t.count >= 2);
		for (int k = 0; k < t.count; ++k) {
			cr_assert_eq(t.steps[k].stage, tb_traceUnifiedEpa);
			cr_assert(t.steps[k].vertexCount >= 4 && t.steps[k].triangleCount >= 4);
		}
		// Linneweber 2021: the start is a small tetrahedron deep inside A - B.
		cr_assert_eq(t.steps[0].vertexCount, 4);
		cr_assert_float_eq(t.result.distance, xs[i] - 2.0f, 1e-4f);
		assertReplayMatches(&t, xs[i] < 2.0f ? "uepa overlapping" : "uepa apart");
		dmTrace_Free(&t);
	}
}

// A small deterministic generator (no libc rand: the same numbers on every platform).
static float nextRandom(unsigned* state)
{
	*state = *state * 1664525u + 1013904223u;
	return (float)(*state >> 8) / 16777216.0f;
}

Test(trace, replay_reproduces_random_queries)
{
	// Every shape pair in random poses, both algorithms: whenever the query converged, the last
	// recorded step implies its answer. Two balls (sphere, capsule) touching are answered from
	// GJK's final v after the last recorded iteration, so they are left out when they overlap.
	vec3s gem[8];
	for (int i = 0; i < 8; ++i) {
		float phi = (float)i * GLM_PIf / 4.0f;
		gem[i] = (vec3s){{0.6f * cosf(phi), i % 2 == 0 ? 0.4f : -0.35f, 0.5f * sinf(phi)}};
	}
	tbHull hull;
	cr_assert_eq(tbBuildHull(gem, 8, &hull, NULL), tb_hullOk);
	tbGeometry shapes[6] = {tbMakeBox(0.5f, 0.3f, 0.4f), tbMakeSphere(0.45f),
	                        tbMakeCapsule(0.25f, 0.4f),  tbMakeCylinder(0.4f, 0.35f),
	                        tbMakeCone(0.45f, 0.5f),     tbMakeHullShape(&hull)};
	unsigned state = 12345u;
	int checked = 0;
	dmTrace t = {0};
	for (int round = 0; round < 300; ++round) {
		const tbGeometry* a = shapes + round % 6;
		const tbGeometry* b = shapes + (round / 6) % 6;
		vec3s p = {{2.0f * nextRandom(&state) - 1.0f, 2.0f * nextRandom(&state) - 1.0f,
		            2.0f * nextRandom(&state) - 1.0f}};
		p = glms_vec3_scale(p, 1.2f);
		versors q = tbQuatFromEulerXYZ(6.0f * nextRandom(&state), 6.0f * nextRandom(&state),
		                               6.0f * nextRandom(&state));
		tbTransform bInA = tbMakeTransform(p, q);
		tbQueryAlgorithm algorithm = round % 2 == 0 ? tb_algorithmGjkEpa : tb_algorithmUnifiedEpa;
		cr_assert(dmTrace_Record(&t, a, b, bInA, algorithm));
		bool balls = tbGeometry_CoreRadius(a) > 0.0f && tbGeometry_CoreRadius(b) > 0.0f;
		tbQueryStatus status = t.result.status;
		if ((balls && t.result.hit && algorithm == tb_algorithmGjkEpa) ||
		    (status != tb_queryConverged && status != tb_queryFallback)) {
			continue;
		}
		char what[96];
		snprintf(what, sizeof what, "round %d: %s-%s, %s", round, tbShapeTypeName(a->type),
		         tbShapeTypeName(b->type), algorithm == tb_algorithmGjkEpa ? "gjk-epa" : "uepa");
		assertReplayMatches(&t, what);
		++checked;
	}
	dmTrace_Free(&t);
	tbDestroyHull(&hull);
	cr_assert(checked >= 200, "only %d queries converged", checked);
}

// GJK's records are numbered 1, 2, ... without gaps, each run ends with one `last` record that
// carries the number of its last iteration, and those numbers add up to the result's
// gjkIterations (the query may run GJK twice: on A - B, then on its inflated copy).
Test(trace, gjk_iterations_numbered_as_the_result_counts_them)
{
	tbGeometry box = tbMakeBox(0.5f, 0.5f, 0.5f), sphere = tbMakeSphere(0.5f);
	tbGeometry cone = tbMakeCone(0.5f, 0.5f), capsule = tbMakeCapsule(0.3f, 0.6f);
	versors tilt = glms_quatv(0.7f, glms_vec3_normalize((vec3s){{1.0f, 2.0f, 0.5f}}));
	struct
	{
		const tbGeometry *a, *b;
		tbTransform xfB;
	} cases[] = {
	    {&box, &box, pose(2.0f, 0.3f, 0.1f, tilt)},      // apart
	    {&box, &box, pose(0.6f, 0.2f, 0.1f, tilt)},      // overlapping: GJK, then EPA
	    {&sphere, &cone, pose(0.3f, 1.1f, 0.0f, tilt)},  // a core and a polytope-like shape
	    {&capsule, &box, pose(0.1f, 0.5f, 0.2f, tilt)},  // overlapping core
	    {&box, &box, pose(1.0f, 0.0f, 0.0f, s_identity)} // touching faces
	};
	for (int c = 0; c < 5; ++c) {
		dmTrace t = record(cases[c].a, pose(0.0f, 0.0f, 0.0f, s_identity), cases[c].b, cases[c].xfB,
		                   tb_algorithmGjkEpa);
		int total = 0, expected = 1, lastCount = 0;
		for (int i = 0; i < t.count; ++i) {
			const dmTraceStep* s = t.steps + i;
			if (s->stage != tb_traceGjk) {
				continue;
			}
			if (s->last) {
				cr_expect_eq(s->iteration, expected - 1, "case %d: the end record says %d after %d",
				             c, s->iteration, expected - 1);
				total += s->iteration;
				expected = 1;
				++lastCount;
			} else {
				cr_expect_eq(s->iteration, expected, "case %d: iteration %d where %d was due", c,
				             s->iteration, expected);
				expected = s->iteration + 1;
			}
		}
		cr_expect_geq(lastCount, 1, "case %d: no GJK end record", c);
		cr_expect_eq(total, t.result.gjkIterations, "case %d: the trace counts %d, the result %d",
		             c, total, t.result.gjkIterations);
		dmTrace_Free(&t);
	}
}
