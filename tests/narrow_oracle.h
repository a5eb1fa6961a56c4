// Independent answers for the narrow-phase tests: double vector helpers, the brute-force
// support-function oracle sd = -min_u h_C(u) of docs/query-format.md, a 15-axis SAT oracle for
// boxes, and a checker that holds one query to all of them. Header-only (static inline) so each
// suite stays one file in tests/meson.build.
#pragma once

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tumble/tumble.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846 // not in strict C11 <math.h>
#endif

/// cr_expect that also clears the local `ok`, so a checker can report whether all passed.
#define CHECK(cond, ...)                                                                           \
	do {                                                                                           \
		bool checkPassed_ = (cond);                                                                \
		ok &= checkPassed_;                                                                        \
		cr_expect(checkPassed_, __VA_ARGS__);                                                      \
	} while (0)

// ---------------------------------------------------------------------------------------------
// Double vectors: the oracles work in double so that their own error is far below the tolerances.

typedef struct dvec
{
	double x, y, z;
} dvec;

static inline dvec dv(double x, double y, double z)
{
	dvec r = {x, y, z};
	return r;
}

static inline dvec dvf(vec3s v)
{
	return dv((double)v.x, (double)v.y, (double)v.z);
}

static inline vec3s fvd(dvec v)
{
	return (vec3s){{(float)v.x, (float)v.y, (float)v.z}};
}

static inline dvec dadd(dvec a, dvec b)
{
	return dv(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline dvec dsub(dvec a, dvec b)
{
	return dv(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline dvec dscale(dvec a, double s)
{
	return dv(a.x * s, a.y * s, a.z * s);
}

static inline double ddot(dvec a, dvec b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline dvec dcross(dvec a, dvec b)
{
	return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline double dnorm(dvec a)
{
	return sqrt(ddot(a, a));
}

static inline dvec dunit(dvec a)
{
	double n = dnorm(a);
	return n > 0.0 ? dscale(a, 1.0 / n) : dv(0.0, 0.0, 0.0);
}

/// Angle between two directions in degrees (NaN-safe: a zero vector gives 180).
static inline double dangleDeg(dvec a, dvec b)
{
	double na = dnorm(a), nb = dnorm(b);
	if (!(na > 0.0) || !(nb > 0.0)) {
		return 180.0;
	}
	double c = ddot(a, b) / (na * nb);
	c = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);
	return acos(c) * 180.0 / M_PI;
}

/// R(q) v in double from a float quaternion (cglm x y z w), normalised here.
static inline dvec drotate(versors q, dvec v)
{
	double x = (double)q.x, y = (double)q.y, z = (double)q.z, w = (double)q.w;
	double n = sqrt(x * x + y * y + z * z + w * w);
	x /= n, y /= n, z /= n, w /= n;
	dvec u = dv(x, y, z);
	dvec t = dscale(dcross(u, v), 2.0);
	return dadd(dadd(v, dscale(t, w)), dcross(u, t));
}

static inline dvec dinvRotate(versors q, dvec v)
{
	versors c = {{-q.x, -q.y, -q.z, q.w}};
	return drotate(c, v);
}

static inline dvec dxfPoint(tbTransform xf, dvec local)
{
	return dadd(drotate(xf.q, local), dvf(xf.p));
}

static inline dvec dxfInvPoint(tbTransform xf, dvec world)
{
	return dinvRotate(xf.q, dsub(world, dvf(xf.p)));
}

/// Quaternion of a rotation by `angle` radians about `axis` (any length).
static inline versors quatAxisAngle(dvec axis, double angle)
{
	dvec a = dunit(axis);
	double s = sin(0.5 * angle);
	return (versors){
	    {(float)(a.x * s), (float)(a.y * s), (float)(a.z * s), (float)cos(0.5 * angle)}};
}

static inline versors quatIdentity(void)
{
	return (versors){{0.0f, 0.0f, 0.0f, 1.0f}};
}

static inline tbTransform xfMake(double x, double y, double z, versors q)
{
	return tbMakeTransform((vec3s){{(float)x, (float)y, (float)z}}, q);
}

// ---------------------------------------------------------------------------------------------
// Seeded random numbers (splitmix64): runs are reproducible.

typedef struct Rng
{
	uint64_t s;
} Rng;

static inline uint64_t rngNext(Rng* r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/// Uniform in [lo, hi).
static inline double rngUniform(Rng* r, double lo, double hi)
{
	return lo + (hi - lo) * (double)(rngNext(r) >> 11) * (1.0 / 9007199254740992.0);
}

static inline dvec rngUnit(Rng* r)
{
	for (;;) {
		dvec v = dv(rngUniform(r, -1, 1), rngUniform(r, -1, 1), rngUniform(r, -1, 1));
		double n = dnorm(v);
		if (n > 0.1 && n <= 1.0) {
			return dscale(v, 1.0 / n);
		}
	}
}

/// Uniformly random rotation (Shoemake).
static inline versors rngQuat(Rng* r)
{
	double u1 = rngUniform(r, 0, 1), u2 = rngUniform(r, 0, 2 * M_PI),
	       u3 = rngUniform(r, 0, 2 * M_PI);
	double a = sqrt(1 - u1), b = sqrt(u1);
	return (versors){
	    {(float)(a * sin(u2)), (float)(a * cos(u2)), (float)(b * sin(u3)), (float)(b * cos(u3))}};
}

/// Direction i of n on a Fibonacci sphere: nearly uniform, deterministic.
static inline dvec fibonacciDir(int i, int n)
{
	double golden = M_PI * (3.0 - sqrt(5.0));
	double y = 1.0 - 2.0 * ((double)i + 0.5) / (double)n;
	double r = sqrt(1.0 - y * y);
	double phi = golden * (double)i;
	return dv(r * cos(phi), y, r * sin(phi));
}

// ---------------------------------------------------------------------------------------------
// Support functions in world space, and the brute-force signed distance of docs/query-format.md:
// sd = -min over unit u of h_C(u), C = A - B, h_C(u) = h_A(u) + h_B(-u).

/// h of a placed shape along the world direction u (double except the local support itself).
static inline double supportValue(const tbGeometry* s, tbTransform xf, dvec u)
{
	vec3s local = fvd(dinvRotate(xf.q, u));
	dvec p = dxfPoint(xf, dvf(tbGeometry_Support(s, local, NULL)));
	return ddot(u, p);
}

static inline double supportDiff(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                 tbTransform xfB, dvec u)
{
	return supportValue(a, xfA, u) + supportValue(b, xfB, dscale(u, -1.0));
}

typedef struct Oracle
{
	double sd;   ///< -min h_C
	dvec normal; ///< argmin: from A towards B
} Oracle;

/// Local refinement of min h_C on the unit sphere: pattern search in 48 tangent directions with
/// a shrinking step; before shrinking, the direction fan is turned twice by a fraction of its
/// spacing. h_C is convex and positively homogeneous, so near the minimum the search only has to
/// follow kinks (polytope faces, a cone's apex ridge), which the fine fan handles.
static inline double oracleRefine(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                  tbTransform xfB, dvec* u, double h)
{
	enum
	{
		fan = 48,
		turns = 3
	};
	double step = 0.05;
	int evals = 0;
	while (step > 1e-11 && evals < 60000) {
		dvec helper = fabs(u->x) < 0.6 ? dv(1, 0, 0) : dv(0, 1, 0);
		dvec t1 = dunit(dcross(*u, helper));
		dvec t2 = dcross(*u, t1);
		bool improved = false;
		for (int turn = 0; turn < turns && !improved; ++turn) {
			for (int k = 0; k < fan; ++k) {
				double phi = 2.0 * M_PI * ((double)k + (double)turn / turns) / fan;
				dvec c =
				    dunit(dadd(*u, dscale(dadd(dscale(t1, cos(phi)), dscale(t2, sin(phi))), step)));
				double hc = supportDiff(a, xfA, b, xfB, c);
				++evals;
				if (hc < h) {
					h = hc;
					*u = c;
					improved = true;
					break;
				}
			}
		}
		if (improved) {
			step *= 1.5; // follow a long valley quickly
		} else {
			step *= 0.5;
		}
		step = step > 0.1 ? 0.1 : step;
	}
	return h;
}

typedef struct OracleSample
{
	double h;
	int i;
} OracleSample;

static inline int oracleSampleOrder(const void* x, const void* y)
{
	double a = ((const OracleSample*)x)->h, b = ((const OracleSample*)y)->h;
	return a < b ? -1 : (a > b ? 1 : 0);
}

/// Brute force: a dense Fibonacci sphere of directions, then local refinement of the best few
/// mutually distant samples (so that a second basin of almost the same depth is refined too).
static inline Oracle oracleSignedDistance(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                          tbTransform xfB)
{
	enum
	{
		samples = 20000,
		keep = 12
	};
	OracleSample* all = malloc(sizeof(OracleSample) * samples);
	cr_assert_not_null(all);
	for (int i = 0; i < samples; ++i) {
		all[i].h = supportDiff(a, xfA, b, xfB, fibonacciDir(i, samples));
		all[i].i = i;
	}
	qsort(all, samples, sizeof(OracleSample), oracleSampleOrder);
	dvec picked[keep];
	double pickedH[keep];
	int count = 0;
	for (int k = 0; k < samples && count < keep; ++k) {
		dvec u = fibonacciDir(all[k].i, samples);
		bool near = false;
		for (int j = 0; j < count; ++j) {
			near |= ddot(u, picked[j]) > cos(0.1);
		}
		if (!near) {
			picked[count] = u;
			pickedH[count++] = all[k].h;
		}
	}
	free(all);
	Oracle o = {-INFINITY, dv(0, 0, 1)};
	double minH = INFINITY;
	for (int i = 0; i < count; ++i) {
		dvec u = picked[i];
		double h = oracleRefine(a, xfA, b, xfB, &u, pickedH[i]);
		if (h < minH) {
			minH = h;
			o.normal = u;
		}
	}
	o.sd = -minH;
	return o;
}

/// How far p lies outside the placed shape, estimated from below by the support function:
/// max over many u of u.p - h(u) (0 or less when inside). Exact for polytope face directions in
/// the sample; for smooth shapes the sampling error is O(spacing^2).
static inline double outsideDistance(const tbGeometry* s, tbTransform xf, dvec p)
{
	enum
	{
		samples = 3000
	};
	double worst = -INFINITY;
	for (int i = 0; i < samples + 6; ++i) {
		dvec u;
		if (i < samples) {
			u = fibonacciDir(i, samples);
		} else {
			// The local axes: box faces are then checked exactly.
			dvec axis = dv(0, 0, 0);
			int k = i - samples;
			double sign = k < 3 ? 1.0 : -1.0;
			if (k % 3 == 0) {
				axis.x = sign;
			} else if (k % 3 == 1) {
				axis.y = sign;
			} else {
				axis.z = sign;
			}
			u = drotate(xf.q, axis);
		}
		double g = ddot(u, p) - supportValue(s, xf, u);
		worst = g > worst ? g : worst;
	}
	return worst;
}

// ---------------------------------------------------------------------------------------------
// SAT oracle for two boxes (15 axes, double). When the boxes overlap the result is exact: the
// penetration depth is the smallest overlap over the face normals of A - B, all of which are
// among the 15 axes. When apart it is the largest separation over the axes: a lower bound of the
// distance, exact when a face or an edge-edge pair realises it.

typedef struct SatResult
{
	double sd;   ///< -depth when overlapping, max separation (a lower bound) when apart
	dvec normal; ///< the deciding axis, oriented from A towards B
} SatResult;

static inline SatResult satBoxes(vec3s hA, tbTransform xfA, vec3s hB, tbTransform xfB)
{
	dvec ea = dvf(hA), eb = dvf(hB);
	dvec axA[3] = {drotate(xfA.q, dv(1, 0, 0)), drotate(xfA.q, dv(0, 1, 0)),
	               drotate(xfA.q, dv(0, 0, 1))};
	dvec axB[3] = {drotate(xfB.q, dv(1, 0, 0)), drotate(xfB.q, dv(0, 1, 0)),
	               drotate(xfB.q, dv(0, 0, 1))};
	double ha[3] = {ea.x, ea.y, ea.z}, hb[3] = {eb.x, eb.y, eb.z};
	dvec d = dsub(dvf(xfB.p), dvf(xfA.p));
	SatResult r = {-INFINITY, dv(0, 0, 1)};
	dvec axes[15];
	int n = 0;
	for (int i = 0; i < 3; ++i) {
		axes[n++] = axA[i];
		axes[n++] = axB[i];
	}
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			axes[n++] = dcross(axA[i], axB[j]);
		}
	}
	for (int k = 0; k < n; ++k) {
		double len = dnorm(axes[k]);
		if (len < 1e-9) {
			continue; // parallel edges: their cross product is no axis
		}
		dvec u = dscale(axes[k], 1.0 / len);
		double ra = 0.0, rb = 0.0;
		for (int i = 0; i < 3; ++i) {
			ra += ha[i] * fabs(ddot(u, axA[i]));
			rb += hb[i] * fabs(ddot(u, axB[i]));
		}
		double s = ddot(d, u);
		double sep = fabs(s) - ra - rb;
		if (sep > r.sd) {
			r.sd = sep;
			r.normal = s >= 0.0 ? u : dscale(u, -1.0);
		}
	}
	return r;
}

// ---------------------------------------------------------------------------------------------
// Closest points of two segments in double (Ericson 5.1.9), for capsules.

static inline double segmentDistance(dvec p1, dvec q1, dvec p2, dvec q2, dvec* c1, dvec* c2)
{
	dvec d1 = dsub(q1, p1), d2 = dsub(q2, p2), r = dsub(p1, p2);
	double a = ddot(d1, d1), e = ddot(d2, d2), f = ddot(d2, r);
	double s, t;
	if (a <= 1e-300 && e <= 1e-300) {
		s = t = 0.0;
	} else if (a <= 1e-300) {
		s = 0.0;
		t = fmin(fmax(f / e, 0.0), 1.0);
	} else {
		double c = ddot(d1, r);
		if (e <= 1e-300) {
			t = 0.0;
			s = fmin(fmax(-c / a, 0.0), 1.0);
		} else {
			double b = ddot(d1, d2), denom = a * e - b * b;
			s = denom > 0.0 ? fmin(fmax((b * f - c * e) / denom, 0.0), 1.0) : 0.0;
			t = (b * s + f) / e;
			if (t < 0.0) {
				t = 0.0;
				s = fmin(fmax(-c / a, 0.0), 1.0);
			} else if (t > 1.0) {
				t = 1.0;
				s = fmin(fmax((b - c) / a, 0.0), 1.0);
			}
		}
	}
	*c1 = dadd(p1, dscale(d1, s));
	*c2 = dadd(p2, dscale(d2, t));
	return dnorm(dsub(*c2, *c1));
}

// ---------------------------------------------------------------------------------------------
// The checker: one query against an expected answer, with both algorithms.

/// Pair scale L of docs/query-format.md: radA + radB + |posA - posB|.
static inline double pairScale(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                               tbTransform xfB)
{
	return (double)tbGeometry_BoundingRadius(a) + (double)tbGeometry_BoundingRadius(b) +
	       dnorm(dsub(dvf(xfA.p), dvf(xfB.p)));
}

typedef struct Expect
{
	double sd;         ///< expected signed distance, metres
	dvec normal;       ///< expected normal A -> B (world); ignored when !normalUnique
	bool normalUnique; ///< the truth normal is unique (else any normal with h_C(n) = -sd is right)
	double sdTol;      ///< |sd error| bound relative to L; 0 means 1e-4
	double normalTol;  ///< degrees; 0 means 1
	double witnessTol; ///< witness off the surfaces, relative to L; 0 means 1e-3
	bool skipUepa;     ///< the unified EPA is not held to this case (say why at the call)
	bool skipOverlap;  ///< tbTestOverlap not compared (the call says why)
	bool fromOracle;   ///< sd came from the brute-force minimum: refine it from the reported
	                   ///< normal too (min h_C can only go down: that keeps the truth honest)
} Expect;

static inline const char* algoName(tbQueryAlgorithm algo)
{
	return algo == tb_algorithmUnifiedEpa ? "uepa" : "gjk-epa";
}

static inline bool finiteResult(const tbQueryResult* r)
{
	return isfinite(r->distance) && isfinite(r->normal.x) && isfinite(r->normal.y) &&
	       isfinite(r->normal.z) && isfinite(r->pointA.x) && isfinite(r->pointA.y) &&
	       isfinite(r->pointA.z) && isfinite(r->pointB.x) && isfinite(r->pointB.y) &&
	       isfinite(r->pointB.z);
}

/// Check one result: no NaN, a status, sd, normal, pB - pA = sd n, witnesses on the surfaces
/// (inside the shape and on its support plane along n). Returns false when anything failed.
static inline bool checkResult(const char* name, const char* algo, const tbGeometry* a,
                               tbTransform xfA, const tbGeometry* b, tbTransform xfB,
                               const tbQueryResult* r, const Expect* e, const tbQueryDef* def)
{
	double L = pairScale(a, xfA, b, xfB);
	double sdTol = (e->sdTol > 0.0 ? e->sdTol : 1e-4) * L;
	double nTol = e->normalTol > 0.0 ? e->normalTol : 1.0;
	double wTol = (e->witnessTol > 0.0 ? e->witnessTol : 1e-3) * L;
	bool ok = true;
	CHECK(r->status != tb_queryInvalidInput, "%s [%s]: status invalid input", name, algo);
	if (r->status == tb_queryInvalidInput) {
		return false;
	}
	CHECK(finiteResult(r), "%s [%s]: NaN/Inf in the result", name, algo);
	CHECK(r->gjkIterations <= def->maxGjkIterations && r->epaIterations <= def->maxEpaIterations,
	      "%s [%s]: iterations gjk %d epa %d above the caps", name, algo, r->gjkIterations,
	      r->epaIterations);
	double sd = (double)r->distance;
	dvec n = dvf(r->normal);
	Expect better = *e;
	if (e->fromOracle && dnorm(n) > 0.5) {
		// Seed the oracle's local search with the reported normal as well: if that leads lower,
		// the brute-force sampling had missed the basin and the lower value is closer to the truth.
		dvec u = dunit(n);
		double h = oracleRefine(a, xfA, b, xfB, &u, supportDiff(a, xfA, b, xfB, u));
		if (-h > e->sd) {
			better.sd = -h;
			better.normal = u;
			e = &better;
		}
	}
	// h_C(n) + sd: 0 when the reported normal is optimal for the reported sd (docs/query-format.md,
	// resid).
	double resid = supportDiff(a, xfA, b, xfB, dunit(n)) + sd;
	CHECK(fabs(sd - e->sd) <= sdTol,
	      "%s [%s]: sd %.9g, expected %.9g (error %.3g L, tol %.1g L, h_C(n) + sd = %.3g L, "
	      "status %s)",
	      name, algo, sd, e->sd, fabs(sd - e->sd) / L, sdTol / L, resid / L,
	      tbQueryStatusName(r->status));
	CHECK(fabs(dnorm(n) - 1.0) < 1e-4, "%s [%s]: |normal| = %.9g", name, algo, dnorm(n));
	if (e->normalUnique) {
		double ang = dangleDeg(n, e->normal);
		CHECK(ang <= nTol, "%s [%s]: normal (%.6f %.6f %.6f) is %.4g deg from (%.6f %.6f %.6f)",
		      name, algo, n.x, n.y, n.z, ang, e->normal.x, e->normal.y, e->normal.z);
	}
	CHECK(r->hit == (r->distance <= 0.0f), "%s [%s]: hit %d but sd %.9g", name, algo, (int)r->hit,
	      sd);
	dvec pA = dvf(r->pointA), pB = dvf(r->pointB);
	double gap = dnorm(dsub(dsub(pB, pA), dscale(n, sd)));
	CHECK(gap <= 1e-5 * L, "%s [%s]: |pB - pA - sd n| = %.3g L", name, algo, gap / L);
	// Witnesses: inside their shape, and on its support plane along the normal (A) or its
	// opposite (B): exactly the surface point that realises the distance or the depth.
	double outA = outsideDistance(a, xfA, pA), outB = outsideDistance(b, xfB, pB);
	double planeA = fabs(supportValue(a, xfA, n) - ddot(n, pA));
	double planeB = fabs(supportValue(b, xfB, dscale(n, -1.0)) + ddot(n, pB));
	CHECK(outA <= wTol && planeA <= wTol,
	      "%s [%s]: witness A off surface: outside %.3g L, off support plane %.3g L", name, algo,
	      outA / L, planeA / L);
	CHECK(outB <= wTol && planeB <= wTol,
	      "%s [%s]: witness B off surface: outside %.3g L, off support plane %.3g L", name, algo,
	      outB / L, planeB / L);
	return ok;
}

/// Run the full check on a pair with both algorithms, swapped (same sd, opposite normal), and the
/// boolean GJK test (agrees with the sign of sd outside the 1e-6 L band).
static inline bool checkPair(const char* name, const tbGeometry* a, tbTransform xfA,
                             const tbGeometry* b, tbTransform xfB, Expect e)
{
	bool ok = true;
	double L = pairScale(a, xfA, b, xfB);
	tbQueryAlgorithm algos[2] = {tb_algorithmGjkEpa, tb_algorithmUnifiedEpa};
	for (int k = 0; k < 2; ++k) {
		if (k == 1 && e.skipUepa) {
			continue;
		}
		tbQueryDef def = tbDefaultQueryDef();
		def.algorithm = algos[k];
		tbQueryResult r = tbQueryShapes(a, xfA, b, xfB, &def);
		ok &= checkResult(name, algoName(algos[k]), a, xfA, b, xfB, &r, &e, &def);

		char swapped[160];
		snprintf(swapped, sizeof swapped, "%s (swapped)", name);
		Expect es = e;
		es.normal = dscale(e.normal, -1.0);
		tbQueryResult s = tbQueryShapes(b, xfB, a, xfA, &def);
		ok &= checkResult(swapped, algoName(algos[k]), b, xfB, a, xfA, &s, &es, &def);
		// Swap symmetry against the query itself, tighter than against the truth.
		CHECK(fabs((double)(r.distance - s.distance)) <= 2e-5 * L,
		      "%s [%s]: swap changed sd %.9g -> %.9g", name, algoName(algos[k]), (double)r.distance,
		      (double)s.distance);
		if (e.normalUnique) {
			double ang = dangleDeg(dvf(r.normal), dscale(dvf(s.normal), -1.0));
			CHECK(ang <= 1.0, "%s [%s]: swapped normal not opposite (%.4g deg)", name,
			      algoName(algos[k]), ang);
		}
	}
	if (!e.skipOverlap && fabs(e.sd) > 1e-6 * L) {
		tbQueryStatus st;
		bool hit = tbTestOverlap(a, xfA, b, xfB, &st);
		CHECK(hit == (e.sd < 0.0), "%s: tbTestOverlap says %d, sd %.9g (status %s)", name, (int)hit,
		      e.sd, tbQueryStatusName(st));
		bool hitSwapped = tbTestOverlap(b, xfB, a, xfA, &st);
		CHECK(hitSwapped == hit, "%s: tbTestOverlap not symmetric", name);
	}
	if (e.sd > 1e-3 * L) {
		// The GJK-only distance must agree where the shapes are clearly apart.
		tbQueryResult g = tbShapeDistance(a, xfA, b, xfB, NULL);
		CHECK(!g.hit && fabs((double)g.distance - e.sd) <= 1e-4 * L,
		      "%s: tbShapeDistance %.9g (hit %d), expected %.9g", name, (double)g.distance,
		      (int)g.hit, e.sd);
	}
	return ok;
}

/// Expectation from the brute-force oracle; the normal counts as unique unless told otherwise.
static inline Expect expectOracle(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                  tbTransform xfB, bool normalUnique)
{
	Oracle o = oracleSignedDistance(a, xfA, b, xfB);
	Expect e = {0};
	e.sd = o.sd;
	e.normal = o.normal;
	e.normalUnique = normalUnique;
	e.fromOracle = true;
	return e;
}

static inline Expect expectSd(double sd, dvec normal, bool unique)
{
	Expect e = {0};
	e.sd = sd;
	e.normal = dunit(normal);
	e.normalUnique = unique;
	return e;
}
