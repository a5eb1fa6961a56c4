// The public narrow-phase queries: validation, the pair scale, GJK on cores, EPA or unified EPA
// when GJK cannot answer, and the results mapped back to the caller's frame.
#include "narrowphase.h"

#include <float.h>
#include <math.h>

// Inflation of A - B when EPA cannot work on the plain difference (flat pairs, bent polytopes)
// and for unified EPA, relative to the pair scale L. It must exceed the GJK trust distance below
// so that the origin is inside the inflated difference; the smaller it is, the fewer faces the
// rounded patches around a sharp contact cost. Measured on the sample set: 3e-5 L.
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

static bool tbFiniteVec(vec3s v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static bool tbValidTransform(tbTransform xf)
{
	float q2 = xf.q.x * xf.q.x + xf.q.y * xf.q.y + xf.q.z * xf.q.z + xf.q.w * xf.q.w;
	// docs/ranges.md: two shapes placed within TB_MAX_COORDINATE are at most a few of it apart;
	// farther, the pair's scale leaves the range the iterations hold in float.
	const float reach = 4.0f * TB_MAX_COORDINATE;
	return tbFiniteVec(xf.p) && fabsf(xf.p.x) <= reach && fabsf(xf.p.y) <= reach &&
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

static bool tbSetUp(const tbShape* a, const tbShape* b, tbTransform bInA, const tbQueryDef* def,
                    tbMinkowski* mk)
{
	if (!tbShape_IsUsable(a) || !tbShape_IsUsable(b) || !tbValidTransform(bInA)) {
		return false;
	}
	// Tighter than 1e-7 L is below float's noise and would never converge; looser than 1e-2 L
	// is no longer a contact.
	if (def != NULL && !(def->tolerance >= 1e-7f && def->tolerance <= 1e-2f)) {
		return false;
	}
	tbMinkowski_Init(mk, a, b, tbUnitRotation(bInA));
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
	if (!isfinite(r->distance) || !tbFiniteVec(r->normal) || !tbFiniteVec(r->pointA) ||
	    !tbFiniteVec(r->pointB)) {
		// Never let a NaN out: report the failure instead.
		*r = tbInvalidResult();
		r->status = tb_queryDegenerate;
	}
}

// Penetration (or a distance GJK could not prove) by EPA from GJK's simplex, on the plain and
// then the inflated difference, with unified EPA as the fallback; or by unified EPA alone.
static void tbPenetration(tbMinkowski* mk, const tbQueryDef* def, const tbSimplex* seed,
                          tbQueryResult* r)
{
	// The cores stay cores: a sphere's ball or a capsule's is added back exactly at the end, so
	// EPA never has to tessellate a ball (concentric spheres would need thousands of faces).
	float radiusA = mk->cores ? tbShape_CoreRadius(mk->shapeA) : 0.0f;
	float radiusB = mk->cores ? tbShape_CoreRadius(mk->shapeB) : 0.0f;
	mk->margin = TB_EPA_MARGIN * mk->scale;
	tbPolytopeResult pr;
	if (def->algorithm == tb_algorithmUnifiedEpa) {
		// One loop does GJK's work and EPA's: it gets both budgets.
		tbUnifiedEpa(mk, def->maxGjkIterations + def->maxEpaIterations, def, &pr);
	} else {
		bool enclosed = false;
		if (seed != NULL) {
			// EPA grows GJK's simplex on the plain difference first (seed 000 section 3): its
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
			// polytope bent: unified EPA from an interior point needs neither (narrowphase.md 2.2).
			tbUnifiedEpa(mk, def->maxGjkIterations + def->maxEpaIterations, def, &pr);
			pr.status = pr.status == tb_queryConverged ? tb_queryFallback : pr.status;
		}
	}
	r->epaIterations = pr.iterations;
	r->status = pr.status;
	r->normal = pr.normal;
	// The inflation moved the boundary out by the margin: take it off again.
	r->distance = (pr.inside ? -pr.distance : pr.distance) + mk->margin - radiusA - radiusB;
	r->pointA = glms_vec3_add(pr.pointA, glms_vec3_scale(pr.normal, radiusA));
	r->pointB = glms_vec3_sub(pr.pointB, glms_vec3_scale(pr.normal, radiusB));
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
	const tbShape* a = mk->shapeA;
	const tbShape* b = mk->shapeB;
	bool segA = a->type == tb_capsuleShape && a->round.halfHeight > 0.0f;
	bool segB = b->type == tb_capsuleShape && b->round.halfHeight > 0.0f;
	vec3s axisA = {{0.0f, 1.0f, 0.0f}};
	vec3s axisB = tbRotateVector(mk->bInA.q, axisA);
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

tbQueryResult tbQueryShapesLocal(const tbShape* a, const tbShape* b, tbTransform bInA,
                                 const tbQueryDef* def)
{
	tbQueryDef defaults = tbDefaultQueryDef();
	def = def != NULL ? def : &defaults;
	tbMinkowski mk;
	if (!tbSetUp(a, b, bInA, def, &mk)) {
		return tbInvalidResult();
	}
	tbQueryResult r = {0};
	// Spheres and capsules are handled as cores (a point, a segment) plus a ball: distance and
	// normal of the cores are exact, even when the balls overlap (Jolt's convex radius).
	float radiusA = tbShape_CoreRadius(a), radiusB = tbShape_CoreRadius(b);
	mk.cores = radiusA > 0.0f || radiusB > 0.0f;
	if (def->algorithm == tb_algorithmUnifiedEpa) {
		tbPenetration(&mk, def, NULL, &r);
		tbFinish(&r);
		return r;
	}

	tbGjkOutput g;
	tbGjk(&mk, -1.0f, def->maxGjkIterations, def, &g);
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
	if (radiusA > 0.0f && radiusB > 0.0f) {
		tbRoundedContact(&mk, &g, radiusA, radiusB, &r);
		tbFinish(&r);
		return r;
	}
	tbPenetration(&mk, def, &g.simplex, &r);
	tbFinish(&r);
	return r;
}

bool tbTestOverlapLocal(const tbShape* a, const tbShape* b, tbTransform bInA, tbQueryStatus* status)
{
	tbMinkowski mk;
	if (!tbSetUp(a, b, bInA, NULL, &mk)) {
		if (status != NULL) {
			*status = tb_queryInvalidInput;
		}
		return false;
	}
	float radius = tbShape_CoreRadius(a) + tbShape_CoreRadius(b);
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

static tbQueryResult tbToWorld(tbQueryResult r, tbTransform xfA)
{
	if (r.status == tb_queryInvalidInput) {
		return r;
	}
	r.normal = tbRotateVector(xfA.q, r.normal);
	r.pointA = tbTransformPoint(xfA, r.pointA);
	r.pointB = tbTransformPoint(xfA, r.pointB);
	return r;
}

tbQueryResult tbQueryShapes(const tbShape* a, tbTransform xfA, const tbShape* b, tbTransform xfB,
                            const tbQueryDef* def)
{
	if (!tbValidTransform(xfA) || !tbValidTransform(xfB)) {
		return tbInvalidResult();
	}
	xfA = tbUnitRotation(xfA);
	xfB = tbUnitRotation(xfB);
	// Work in A's frame (Box2D, Jolt): coordinates stay small and the relative pose is exact.
	return tbToWorld(tbQueryShapesLocal(a, b, tbInvMulTransforms(xfA, xfB), def), xfA);
}

bool tbTestOverlap(const tbShape* a, tbTransform xfA, const tbShape* b, tbTransform xfB,
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

tbQueryResult tbShapeDistance(const tbShape* a, tbTransform xfA, const tbShape* b, tbTransform xfB,
                              const tbQueryDef* def)
{
	tbQueryDef defaults = tbDefaultQueryDef();
	def = def != NULL ? def : &defaults;
	tbMinkowski mk;
	if (!tbValidTransform(xfA) || !tbValidTransform(xfB)) {
		return tbInvalidResult();
	}
	xfA = tbUnitRotation(xfA);
	xfB = tbUnitRotation(xfB);
	if (!tbSetUp(a, b, tbInvMulTransforms(xfA, xfB), def, &mk)) {
		return tbInvalidResult();
	}
	float radiusA = tbShape_CoreRadius(a), radiusB = tbShape_CoreRadius(b);
	mk.cores = radiusA > 0.0f || radiusB > 0.0f;
	tbGjkOutput g;
	tbGjk(&mk, -1.0f, def->maxGjkIterations, def, &g);
	tbQueryResult r = {0};
	r.gjkIterations = g.iterations;
	r.status = g.status;
	if (g.outcome != tb_gjkSeparated || g.distance <= radiusA + radiusB || g.distance <= 0.0f) {
		// Overlapping: GJK alone knows no depth (seed 000: that is EPA's job).
		r.hit = true;
		r.distance = 0.0f;
		r.normal = (vec3s){{0.0f, 0.0f, 0.0f}};
		tbSimplex_Witness(&g.simplex, &r.pointA, &r.pointB);
		return tbToWorld(r, xfA);
	}
	r.normal = glms_vec3_scale(g.v, -1.0f / g.distance);
	r.distance = g.distance - radiusA - radiusB;
	tbGjkWitness(&mk, &g, r.normal, &r.pointA, &r.pointB);
	r.pointA = glms_vec3_add(r.pointA, glms_vec3_scale(r.normal, radiusA));
	r.pointB = glms_vec3_sub(r.pointB, glms_vec3_scale(r.normal, radiusB));
	tbFinish(&r);
	return tbToWorld(r, xfA);
}
