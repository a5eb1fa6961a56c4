// The public narrow-phase queries: validation, the pair scale, GJK on cores, EPA or unified EPA
// when GJK cannot answer, and the results mapped back to the caller's frame.
#include "narrowphase.h"

#include <float.h>
#include <math.h>

// Inflation of A - B when EPA cannot work on the plain difference (flat pairs, bent polytopes)
// and for unified EPA, relative to the pair scale L. It must exceed the GJK trust distance below
// so that the origin is inside the inflated difference; the smaller it is, the fewer faces the
// rounded patches around a sharp contact cost.
#define TB_EPA_MARGIN 3e-5f
// GJK answers directly when the cores are proven this far apart (relative to L); closer than
// that its direction is at the mercy of rounding and EPA decides.
#define TB_GJK_TRUST 6e-6f

tbQueryDef tbDefaultQueryDef(void)
{
	tbQueryDef def = {0};
	def.algorithm = tb_algorithmGjkEpa;
	def.maxGjkIterations = 64;
	def.maxEpaIterations = 64;
	def.tolerance = TB_DEFAULT_TOLERANCE;
	return def;
}

const char* tbQueryStatusName(tbQueryStatus status)
{
	switch (status) {
	case tb_queryConverged:
		return "converged";
	case tb_queryIterationCap:
		return "iteration cap";
	case tb_queryDegenerate:
		return "degenerate";
	case tb_queryFallback:
		return "fallback";
	case tb_queryInvalidInput:
		return "invalid input";
	default:
		return "unknown";
	}
}

static bool tbValidTransform(tbTransform xf)
{
	float q2 = xf.q.x * xf.q.x + xf.q.y * xf.q.y + xf.q.z * xf.q.z + xf.q.w * xf.q.w;
	// docs/ranges.md: two shapes placed within TB_MAX_COORDINATE are at most a few of it apart;
	// farther, the pair's scale leaves the range the iterations hold in float.
	const float reach = 4.0f * TB_MAX_COORDINATE;
	return tbIsFiniteVec3(xf.p) && fabsf(xf.p.x) <= reach && fabsf(xf.p.y) <= reach &&
	       fabsf(xf.p.z) <= reach && isfinite(q2) && fabsf(q2 - 1.0f) < 1e-3f;
}

// A quaternion accepted by tbValidTransform (unit to 1e-3) made exactly unit: a rotation by a
// non-unit one scales the normal and witnesses. Unit ones (to float rounding) are left as they
// are, so that the world's answers keep their bits.
static tbTransform tbUnitRotation(tbTransform xf)
{
	float q2 = xf.q.x * xf.q.x + xf.q.y * xf.q.y + xf.q.z * xf.q.z + xf.q.w * xf.q.w;
	if (fabsf(q2 - 1.0f) > 1e-6f) {
		float inv = 1.0f / sqrtf(q2);
		xf.q = (versors){{xf.q.x * inv, xf.q.y * inv, xf.q.z * inv, xf.q.w * inv}};
	}
	return xf;
}

static tbQueryResult tbInvalidResult(void)
{
	tbQueryResult r = {0};
	r.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
	r.status = tb_queryInvalidInput;
	return r;
}

// The Minkowski difference of a pair that tbPreparePair has checked, with its scale L.
static bool tbSetUp(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                    const tbQueryDef* def, float scale, tbMinkowski* mk)
{
	// Tighter than 1e-7 L is below float's noise and would never converge; looser than 1e-2 L
	// is no longer a contact.
	if (def != NULL && !(def->tolerance >= 1e-7f && def->tolerance <= 1e-2f)) {
		return false;
	}
	tbMinkowski_InitScaled(mk, a, b, tbUnitRotation(bInA), scale);
	if (def != NULL) {
		mk->tolerance = def->tolerance;
	}
	// docs/ranges.md: a pair smaller than TB_MIN_LENGTH (two one-point hulls at about the same
	// place) has no size the tolerances can be relative to.
	return isfinite(mk->scale) && mk->scale >= TB_MIN_LENGTH;
}

// Make the witnesses exactly consistent: pB - pA = sd * n about their midpoint.
static void tbFinish(tbQueryResult* r)
{
	vec3s mid = glms_vec3_scale(glms_vec3_add(r->pointA, r->pointB), 0.5f);
	vec3s half = glms_vec3_scale(r->normal, 0.5f * r->distance);
	r->pointA = glms_vec3_sub(mid, half);
	r->pointB = glms_vec3_add(mid, half);
	r->hit = r->distance <= 0.0f;
	// A normal from nearly coincident cores (concentric spheres, two one-point hulls) can come
	// out of a denormal difference with a length far from 1: never let it out as such.
	float n2 = glms_vec3_dot(r->normal, r->normal);
	if (!(fabsf(n2 - 1.0f) <= 1e-4f)) {
		r->distance = NAN; // refused just below
	}
	if (!isfinite(r->distance) || !tbIsFiniteVec3(r->normal) || !tbIsFiniteVec3(r->pointA) ||
	    !tbIsFiniteVec3(r->pointB)) {
		// Never let a NaN out: report the failure instead.
		*r = tbInvalidResult();
		r->status = tb_queryDegenerate;
	}
}

// Penetration (or a distance GJK could not prove) by EPA from GJK's simplex, on the plain and
// then the inflated difference, with unified EPA as the fallback; or by unified EPA alone.
static bool tbPenetration(tbMinkowski* mk, const tbQueryDef* def, const tbSimplex* seed,
                          tbQueryResult* r)
{
	// The cores stay cores: a sphere's ball or a capsule's is added back exactly at the end, so
	// EPA never has to tessellate a ball (concentric spheres would need thousands of faces).
	float radiusA = mk->cores ? tbGeometry_CoreRadius(mk->shapeA) : 0.0f;
	float radiusB = mk->cores ? tbGeometry_CoreRadius(mk->shapeB) : 0.0f;
	tbPolytopeResult pr;
	mk->margin = 0.0f;
	if (tbRevolvedPenetration(mk, def, &pr)) {
		// Coaxial bodies of revolution: a ring of equally deep normals, solved in 2D.
	} else if (def->algorithm == tb_algorithmUnifiedEpa) {
		mk->margin = TB_EPA_MARGIN * mk->scale;
		// One loop does GJK's work and EPA's: it gets both budgets.
		tbUnifiedEpa(mk, def->maxGjkIterations + def->maxEpaIterations, def, &pr);
	} else {
		mk->margin = TB_EPA_MARGIN * mk->scale;
		bool enclosed = false;
		if (seed != NULL) {
			// EPA grows GJK's simplex on the plain difference first (Casalino 2021 sec. 3): its
			// faces stay flat, so polytopes converge in a few steps even when they only touch.
			// The inflated path below is for differences with no volume (flat pairs) and for
			// polytopes that rounding bends.
			mk->margin = 0.0f;
			tbEpa(mk, seed, def->maxEpaIterations, def, &pr);
			enclosed = pr.status != tb_queryDegenerate;
			mk->margin = TB_EPA_MARGIN * mk->scale;
			if (enclosed) {
				mk->margin = 0.0f; // nothing to take off below
			}
		}
		if (!enclosed) {
			// GJK on the inflated difference: the origin is at least margin - trust inside it,
			// so GJK ends with a simplex around the origin that EPA grows.
			tbGjkOutput g;
			tbGjk(mk, -1.0f, def->maxGjkIterations, def, &g);
			r->gjkIterations += g.iterations;
			enclosed = g.outcome == tb_gjkOverlap;
			if (enclosed) {
				tbEpa(mk, &g.simplex, def->maxEpaIterations, def, &pr);
			}
		}
		if (!enclosed || pr.status == tb_queryDegenerate) {
			// GJK crept towards a sharp ridge of A - B without enclosing the origin, or EPA's
			// polytope bent: unified EPA from an interior point needs neither (docs/narrowphase.md,
			// EPA).
			tbUnifiedEpa(mk, def->maxGjkIterations + def->maxEpaIterations, def, &pr);
			pr.status = pr.status == tb_queryConverged ? tb_queryFallback : pr.status;
		}
	}
	r->epaIterations = pr.iterations;
	if (pr.failed) {
		// No answer: the failure status, never the defaults as if they were one.
		int gjkIterations = r->gjkIterations;
		*r = tbInvalidResult();
		r->status = tb_queryDegenerate;
		r->gjkIterations = gjkIterations;
		return false;
	}
	r->status = pr.status;
	r->normal = pr.normal;
	// The inflation moved the boundary out by the margin: take it off again.
	float cores = (pr.inside ? -pr.distance : pr.distance) + mk->margin;
	// Taking the margin off leaves its rounding: a few ulps of the margin are no distance at all
	// (two coincident points of a flat or point pair report 1e-12 instead of 0).
	if (fabsf(cores) <= 4.0f * FLT_EPSILON * mk->margin) {
		cores = 0.0f;
	}
	r->distance = cores - radiusA - radiusB;
	r->pointA = glms_vec3_add(pr.pointA, glms_vec3_scale(pr.normal, radiusA));
	r->pointB = glms_vec3_sub(pr.pointB, glms_vec3_scale(pr.normal, radiusB));
	return true;
}

// Closest points of a separated pair: the simplex's barycentric pair, unless it is a chord of a
// curved surface or a tie across a face (see tbChooseWitness).
static void tbGjkWitness(const tbMinkowski* mk, const tbGjkOutput* g, vec3s n, vec3s* pointA,
                         vec3s* pointB)
{
	vec3s fa, fb;
	tbSimplex_Witness(&g->simplex, &fa, &fb);
	// GJK's last support was taken along this very normal when it converged on its test.
	tbSupportVertex s = g->lastValid ? g->last : tbMinkowskiSupport(mk, n);
	tbChooseWitness(mk, n, fa, fb, s.a, s.b, 1e-5f * mk->scale, pointA, pointB);
}

// Both shapes are a point or a segment swept by a ball, and the cores touch. The difference of
// the cores is a point, a segment or a parallelogram: it has no inside, so the signed distance
// is exactly |v| - rA - rB, and where |v| is too small to give a direction the normal is the
// one perpendicular to both cores (capsules crossing: the cross product of their axes).
static void tbRoundedContact(const tbMinkowski* mk, const tbGjkOutput* g, float radiusA,
                             float radiusB, tbQueryResult* r)
{
	const tbGeometry* a = mk->shapeA;
	const tbGeometry* b = mk->shapeB;
	bool segA = a->type == tb_capsuleShape && a->round.halfHeight > 0.0f;
	bool segB = b->type == tb_capsuleShape && b->round.halfHeight > 0.0f;
	vec3s axisA = {{0.0f, 1.0f, 0.0f}};
	vec3s axisB = tbRotateInline(mk->bInA.q, axisA);
	vec3s toward = glms_vec3_negate(g->v); // from A's core towards B's
	if (glms_vec3_norm2(toward) <= 1e-24f * mk->scale * mk->scale) {
		toward = mk->bInA.p;
	}
	vec3s n = toward;
	if (segA && segB && glms_vec3_norm2(glms_vec3_cross(axisA, axisB)) > 1e-6f) {
		n = glms_vec3_cross(axisA, axisB);
	} else if (segA || segB) {
		vec3s axis = segA ? axisA : axisB;
		n = glms_vec3_sub(toward, glms_vec3_scale(axis, glms_vec3_dot(axis, toward)));
		if (glms_vec3_norm2(n) <= 1e-12f * glms_vec3_norm2(toward)) {
			vec3s other =
			    fabsf(axis.x) < 0.9f ? (vec3s){{1.0f, 0.0f, 0.0f}} : (vec3s){{0.0f, 0.0f, 1.0f}};
			n = glms_vec3_cross(axis, other);
		}
	}
	if (glms_vec3_norm2(n) <= 0.0f) {
		n = (vec3s){{0.0f, 1.0f, 0.0f}};
	}
	n = glms_vec3_normalize(n);
	if (glms_vec3_dot(n, toward) < 0.0f) {
		n = glms_vec3_negate(n);
	}
	r->normal = n;
	r->distance = g->distance - radiusA - radiusB;
	tbSimplex_Witness(&g->simplex, &r->pointA, &r->pointB);
	r->pointA = glms_vec3_add(r->pointA, glms_vec3_scale(n, radiusA));
	r->pointB = glms_vec3_sub(r->pointB, glms_vec3_scale(n, radiusB));
	r->status = g->status;
}

// Whether an answer's normal bears out its distance. Along any direction n the shapes are at
// most as far apart as along the answer's own normal (the separation along n, -h_(A-B)(n) less
// the radii, is the distance at the true normal and no more elsewhere; overlapping, the overlap
// along n is at least the depth). A normal along which they sit deeper than the answer says is
// not the answer's: a polytope that ended degenerate can give a tiny ball just outside a
// cylinder's side a normal far off and witnesses off the surface (hard case c31).
static bool tbAgreesAlongNormal(tbMinkowski* mk, const tbQueryResult* r, float radii)
{
	mk->margin = 0.0f;
	float along = -glms_vec3_dot(r->normal, tbMinkowskiSupport(mk, r->normal).w) - radii;
	return along >= r->distance - 1e-3f * mk->scale;
}

// `warm`: the pair's cache GJK starts from and keeps its simplex in (may be null).
static tbQueryResult tbQueryPair(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 const tbQueryDef* def, float scale, tbSatCache* warm)
{
	tbMinkowski mk;
	if (!tbSetUp(a, b, bInA, def, scale, &mk)) {
		return tbInvalidResult();
	}
	tbQueryResult r = {0};
	// Spheres and capsules are handled as cores (a point, a segment) plus a ball: distance and
	// normal of the cores are exact, even when the balls overlap (Jolt's convex radius).
	float radiusA = tbGeometry_CoreRadius(a), radiusB = tbGeometry_CoreRadius(b);
	mk.cores = radiusA > 0.0f || radiusB > 0.0f;
	// Two points or segments swept by balls: their cores have no volume for a polytope to grow
	// in, and their distance is exact from GJK (below), whichever algorithm was asked for.
	bool bothRound = radiusA > 0.0f && radiusB > 0.0f;
	if (def->algorithm == tb_algorithmUnifiedEpa && !bothRound) {
		if (tbPenetration(&mk, def, NULL, &r)) {
			tbFinish(&r);
		}
		if (r.status == tb_queryDegenerate) {
			// Rounding bent the polytope (a sharp contact of cones and rims leaves slivers that
			// hide the closest point): GJK and EPA answer instead, as unified EPA answers for
			// them. The status says so.
			tbQueryDef gjkEpa = *def;
			gjkEpa.algorithm = tb_algorithmGjkEpa;
			tbQueryResult f = tbQueryPair(a, b, bInA, &gjkEpa, scale, NULL);
			if (f.status == tb_queryConverged || f.status == tb_queryFallback) {
				f.status = tb_queryFallback;
				r = f;
			}
		}
		return r;
	}

	tbGjkOutput g;
	mk.warm = warm;
	tbGjk(&mk, -1.0f, def->maxGjkIterations, def, &g);
	mk.warm = NULL; // the penetration's own GJK runs below start afresh
	r.gjkIterations = g.iterations;
	// Trust a separation only when a support plane proves it: a loop stopped by rounding (no
	// progress, repeated vertex) may still hold the origin.
	// GJK creeps towards curved surfaces near contact and may stop on its no-progress guard
	// with |v| well above the distance: its bounds must agree too.
	// A looser tolerance lets GJK stop with its bounds further apart: they need only agree to it.
	float agree = fmaxf(10.0f * TB_GJK_TRUST, 2.0f * mk.tolerance) * mk.scale;
	if (g.outcome == tb_gjkSeparated && g.distance > TB_GJK_TRUST * mk.scale &&
	    g.lowerBound > 0.5f * TB_GJK_TRUST * mk.scale && g.distance - g.lowerBound <= agree) {
		r.normal = glms_vec3_scale(g.v, -1.0f / g.distance);
		r.distance = g.distance - radiusA - radiusB;
		tbGjkWitness(&mk, &g, r.normal, &r.pointA, &r.pointB);
		r.pointA = glms_vec3_add(r.pointA, glms_vec3_scale(r.normal, radiusA));
		r.pointB = glms_vec3_sub(r.pointB, glms_vec3_scale(r.normal, radiusB));
		r.status = g.status;
		tbFinish(&r);
		return r;
	}
	if (bothRound) {
		tbRoundedContact(&mk, &g, radiusA, radiusB, &r);
		tbFinish(&r);
		return r;
	}
	if (tbPenetration(&mk, def, &g.simplex, &r)) {
		if (g.outcome == tb_gjkSeparated && !tbAgreesAlongNormal(&mk, &r, radiusA + radiusB)) {
			// The polytope's answer fails its own check, and GJK found the cores apart: GJK's
			// answer, which its support plane backs, is the better one.
			r.normal = glms_vec3_scale(g.v, -1.0f / g.distance);
			r.distance = g.distance - radiusA - radiusB;
			tbGjkWitness(&mk, &g, r.normal, &r.pointA, &r.pointB);
			r.pointA = glms_vec3_add(r.pointA, glms_vec3_scale(r.normal, radiusA));
			r.pointB = glms_vec3_sub(r.pointB, glms_vec3_scale(r.normal, radiusB));
			r.status = tb_queryDegenerate;
		}
		tbFinish(&r);
	}
	return r;
}

static bool tbOverlapPair(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, float scale,
                          tbQueryStatus* status)
{
	tbMinkowski mk;
	if (!tbSetUp(a, b, bInA, NULL, scale, &mk)) {
		if (status != NULL) {
			*status = tb_queryInvalidInput;
		}
		return false;
	}
	float radius = tbGeometry_CoreRadius(a) + tbGeometry_CoreRadius(b);
	mk.cores = radius > 0.0f;
	tbQueryDef def = tbDefaultQueryDef();
	tbGjkOutput g;
	tbGjk(&mk, radius, def.maxGjkIterations, NULL, &g);
	if (status != NULL) {
		*status = g.status;
	}
	switch (g.outcome) {
	case tb_gjkOverlap:
	case tb_gjkEarlyHit:
		return true;
	case tb_gjkEarlyMiss:
		return false;
	default:
		// Converged without a separating plane: the distance decides.
		return g.distance <= radius + 5e-7f * mk.scale;
	}
}

// GJK alone, in A's frame (tbShapeDistance).
static tbQueryResult tbDistancePair(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                    const tbQueryDef* def, float scale)
{
	tbMinkowski mk;
	if (!tbSetUp(a, b, bInA, def, scale, &mk)) {
		return tbInvalidResult();
	}
	float radiusA = tbGeometry_CoreRadius(a), radiusB = tbGeometry_CoreRadius(b);
	mk.cores = radiusA > 0.0f || radiusB > 0.0f;
	tbGjkOutput g;
	tbGjk(&mk, -1.0f, def->maxGjkIterations, def, &g);
	tbQueryResult r = {0};
	r.gjkIterations = g.iterations;
	r.status = g.status;
	if (g.outcome != tb_gjkSeparated || g.distance <= radiusA + radiusB || g.distance <= 0.0f) {
		// Overlapping: GJK alone knows no depth (Casalino 2021: that is EPA's job).
		r.hit = true;
		r.distance = 0.0f;
		r.normal = (vec3s){{0.0f, 0.0f, 0.0f}};
		tbSimplex_Witness(&g.simplex, &r.pointA, &r.pointB);
		return r;
	}
	r.normal = glms_vec3_scale(g.v, -1.0f / g.distance);
	r.distance = g.distance - radiusA - radiusB;
	tbGjkWitness(&mk, &g, r.normal, &r.pointA, &r.pointB);
	r.pointA = glms_vec3_add(r.pointA, glms_vec3_scale(r.normal, radiusA));
	r.pointB = glms_vec3_sub(r.pointB, glms_vec3_scale(r.normal, radiusB));
	tbFinish(&r);
	return r;
}

// A pair whose scale L is 0: both shapes are a single point at their origin (a one-point hull, a
// triangle with three equal corners) and the two origins coincide. The points touch.
static tbQueryResult tbCoincidentPoints(void)
{
	tbQueryResult r = {0};
	r.hit = true;
	r.normal = (vec3s){{0.0f, 1.0f, 0.0f}}; // every direction is optimal: a fixed one
	r.status = tb_queryConverged;
	return r;
}

// Between 2^-9 and 2^8 m the queries run as given. Beyond, products of three or four lengths
// (volumes, squared areas) under- or overflow float (a 1e-11 m pair's start tetrahedron has no
// volume, a 1e18 m pair's overflows): the pair is scaled to about 1 m by a power of two, which is
// exact in float, and the answer scaled back. Every tolerance is relative to L, so the answer is
// the one the query gives at 1 m.
typedef struct tbPair
{
	const tbGeometry* a;
	const tbGeometry* b;
	tbTransform bInA;
	float scale;   ///< L of the pair as the query sees it (about 1 m when scaled)
	float unscale; ///< lengths of the answer times this: 1 unless scaled
	tbGeometry sa, sb;
} tbPair;

typedef enum tbPairKind
{
	tb_pairInvalid, ///< refused: unusable shapes, a bad pose, or beyond float's range
	tb_pairPoints,  ///< L = 0: two points at the same place
	tb_pairRegular, ///< run the query on the pair
} tbPairKind;

// `checked`: the caller has checked both shapes (tbQueryShapesChecked), so only the pose is.
static tbPairKind tbPreparePair(tbPair* pair, const tbGeometry* a, const tbGeometry* b,
                                tbTransform bInA, bool checked)
{
	if (!checked && (!tbGeometry_IsUsable(a) || !tbGeometry_IsUsable(b))) {
		return tb_pairInvalid;
	}
	if (!tbValidTransform(bInA)) {
		return tb_pairInvalid;
	}
	float L = tbGeometry_BoundingRadius(a) + tbGeometry_BoundingRadius(b) + tbSafeNorm(bInA.p);
	if (!isfinite(L)) {
		return tb_pairInvalid; // beyond float's range: no query can hold it
	}
	if (L == 0.0f) {
		return tb_pairPoints;
	}
	pair->a = a;
	pair->b = b;
	pair->bInA = bInA;
	pair->scale = L;
	pair->unscale = 1.0f;
	if (L < 0x1p-8f || L >= 0x1p8f) {
		int exponent;
		frexpf(L, &exponent);
		float k = ldexpf(1.0f, -exponent);
		pair->sa = tbGeometry_Scaled(a, k);
		pair->sb = tbGeometry_Scaled(b, k);
		pair->a = &pair->sa;
		pair->b = &pair->sb;
		pair->bInA.p = glms_vec3_scale(bInA.p, k);
		pair->scale = L * k;
		pair->unscale = ldexpf(1.0f, exponent);
	}
	return tb_pairRegular;
}

static tbQueryResult tbUnscale(tbQueryResult r, float unscale)
{
	if (unscale != 1.0f && r.status != tb_queryInvalidInput) {
		r.distance *= unscale;
		r.pointA = glms_vec3_scale(r.pointA, unscale);
		r.pointB = glms_vec3_scale(r.pointB, unscale);
	}
	return r;
}

static tbQueryResult tbQueryShapesWith(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                       const tbQueryDef* def, bool checked, tbSatCache* warm)
{
	tbPair pair;
	switch (tbPreparePair(&pair, a, b, bInA, checked)) {
	case tb_pairInvalid:
		return tbInvalidResult();
	case tb_pairPoints:
		return tbCoincidentPoints();
	default:
		break;
	}
	tbQueryDef defaults;
	if (def == NULL) {
		defaults = tbDefaultQueryDef();
		def = &defaults;
	}
	return tbUnscale(tbQueryPair(pair.a, pair.b, pair.bInA, def, pair.scale, warm), pair.unscale);
}

tbQueryResult tbQueryShapesLocal(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 const tbQueryDef* def)
{
	return tbQueryShapesWith(a, b, bInA, def, false, NULL);
}

tbQueryResult tbQueryShapesChecked(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                   const tbQueryDef* def)
{
	return tbQueryShapesWith(a, b, bInA, def, true, NULL);
}

tbQueryResult tbQueryShapesWarm(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                const tbQueryDef* def, bool checked, tbSatCache* cache)
{
	return tbQueryShapesWith(a, b, bInA, def, checked, cache);
}

bool tbTestOverlapLocal(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                        tbQueryStatus* status)
{
	tbPair pair;
	tbQueryStatus st = tb_queryConverged;
	bool hit = false;
	switch (tbPreparePair(&pair, a, b, bInA, false)) {
	case tb_pairInvalid:
		st = tb_queryInvalidInput;
		break;
	case tb_pairPoints:
		hit = true;
		break;
	default:
		hit = tbOverlapPair(pair.a, pair.b, pair.bInA, pair.scale, &st);
		break;
	}
	if (status != NULL) {
		*status = st;
	}
	return hit;
}

static tbQueryResult tbToWorld(tbQueryResult r, tbTransform xfA)
{
	if (r.status == tb_queryInvalidInput) {
		return r;
	}
	r.normal = tbRotateInline(xfA.q, r.normal);
	r.pointA = tbTransformPointInline(xfA, r.pointA);
	r.pointB = tbTransformPointInline(xfA, r.pointB);
	if (!tbIsFiniteVec3(r.pointA) || !tbIsFiniteVec3(r.pointB)) {
		// A finite answer placed beyond float's range: report the failure, never an Inf.
		r = tbInvalidResult();
		r.status = tb_queryDegenerate;
	}
	return r;
}

tbQueryResult tbQueryShapes(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                            tbTransform xfB, const tbQueryDef* def)
{
	if (!tbValidTransform(xfA) || !tbValidTransform(xfB)) {
		return tbInvalidResult();
	}
	xfA = tbUnitRotation(xfA);
	xfB = tbUnitRotation(xfB);
	// Work in A's frame (Box2D, Jolt): coordinates stay small and the relative pose is exact.
	return tbToWorld(tbQueryShapesLocal(a, b, tbInvMulTransforms(xfA, xfB), def), xfA);
}

bool tbTestOverlap(const tbGeometry* a, tbTransform xfA, const tbGeometry* b, tbTransform xfB,
                   tbQueryStatus* status)
{
	if (!tbValidTransform(xfA) || !tbValidTransform(xfB)) {
		if (status != NULL) {
			*status = tb_queryInvalidInput;
		}
		return false;
	}
	return tbTestOverlapLocal(a, b, tbInvMulTransforms(xfA, xfB), status);
}

tbQueryResult tbShapeDistance(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                              tbTransform xfB, const tbQueryDef* def)
{
	if (!tbValidTransform(xfA) || !tbValidTransform(xfB)) {
		return tbInvalidResult();
	}
	xfA = tbUnitRotation(xfA);
	xfB = tbUnitRotation(xfB);
	tbPair pair;
	switch (tbPreparePair(&pair, a, b, tbInvMulTransforms(xfA, xfB), false)) {
	case tb_pairInvalid:
		return tbInvalidResult();
	case tb_pairPoints:
		return tbToWorld(tbCoincidentPoints(), xfA);
	default:
		break;
	}
	tbQueryDef defaults;
	if (def == NULL) {
		defaults = tbDefaultQueryDef();
		def = &defaults;
	}
	tbQueryResult r = tbDistancePair(pair.a, pair.b, pair.bInA, def, pair.scale);
	return tbToWorld(tbUnscale(r, pair.unscale), xfA);
}
