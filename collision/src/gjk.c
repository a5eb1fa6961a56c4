// GJK: distance between convex shapes and the boolean overlap test (Casalino 2021 sec. 2, Algorithm
// 2; the course slides' do_simplex), with a relative convergence test and hard iteration caps.
#include "narrowphase.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

static bool tbSameVertex(const tbMinkowski* mk, const tbSupportVertex* x, const tbSupportVertex* y)
{
	// Box2D's duplicate rule: a repeated (vertex of A, vertex of B) pair means no progress is
	// possible. Smooth supports have no index, and an inflated difference moves with the
	// direction even at a repeated pair: compare the points then.
	if (x->ia >= 0 && x->ib >= 0 && mk->margin == 0.0f) {
		return x->ia == y->ia && x->ib == y->ib;
	}
	return x->w.x == y->w.x && x->w.y == y->w.y && x->w.z == y->w.z;
}

static void tbGjkTrace(const tbQueryDef* def, int iteration, vec3s d, vec3s support,
                       const tbSimplex* s, float distance, bool last)
{
	if (def == NULL || def->traceFcn == NULL) {
		return;
	}
	tbTraceStep step = {0};
	step.stage = tb_traceGjk;
	step.iteration = iteration;
	step.direction = d;
	step.support = support;
	step.simplexCount = s->count;
	for (int i = 0; i < s->count; ++i) {
		step.simplex[i] = s->v[i].w;
	}
	step.distance = distance;
	step.last = last;
	def->traceFcn(&step, def->traceContext);
}

// A simplex cache's ids: three of 10 bits on each side, the count in bits 30 and 31 of A's.
#define TB_GJK_ID_BITS 10
#define TB_GJK_ID_MASK ((1 << TB_GJK_ID_BITS) - 1)

// The simplex the pair's cache holds (tb_satSimplex), rebuilt at the current pose, and the point
// of it closest to the origin (Box2D's b2MakeSimplexFromCache): where the pair moved little since,
// that is within a step or two of the answer, where a cold start takes one support per vertex of
// the closest feature and more near a contact. False without a usable cache: an inflated
// difference (its points depend on the direction), a size other than 1 to 3, or ids that name no
// vertex of these shapes.
static bool tbGjkWarmStart(const tbMinkowski* mk, tbSimplex* s, float volumeTol, vec3s* v)
{
	const tbSatCache* c = mk->warm;
	if (c == NULL || c->type != tb_satSimplex || mk->margin != 0.0f) {
		return false;
	}
	uint32_t idsA = (uint32_t)c->indexA, idsB = (uint32_t)c->indexB;
	int count = (int)(idsA >> 30);
	if (count < 1 || count > 3) {
		return false;
	}
	for (int i = 0; i < count; ++i) {
		int ia = (int)(idsA >> (TB_GJK_ID_BITS * i)) & TB_GJK_ID_MASK;
		int ib = (int)(idsB >> (TB_GJK_ID_BITS * i)) & TB_GJK_ID_MASK;
		if (!tbMinkowskiVertex(mk, ia, ib, s->v + i)) {
			return false;
		}
		s->lambda[i] = 1.0f / (float)count;
	}
	s->count = count;
	*v = count == 1 ? s->v[0].w : tbSimplex_Solve(s, volumeTol);
	return true;
}

// The ids of the simplex GJK ended with into the pair's cache, when it ended apart with ids that
// fit; otherwise the cache is cleared (the next query starts afresh).
static void tbGjkKeep(const tbMinkowski* mk, const tbGjkOutput* out)
{
	tbSatCache* c = mk->warm;
	if (c == NULL) {
		return;
	}
	const tbSimplex* s = &out->simplex;
	*c = (tbSatCache){0};
	if (out->outcome != tb_gjkSeparated || s->count < 1 || s->count > 3 || mk->margin != 0.0f) {
		return;
	}
	uint32_t idsA = (uint32_t)s->count << 30, idsB = 0u;
	for (int i = 0; i < s->count; ++i) {
		if (s->v[i].ia < 0 || s->v[i].ia > TB_GJK_ID_MASK || s->v[i].ib < 0 ||
		    s->v[i].ib > TB_GJK_ID_MASK) {
			return;
		}
		idsA |= (uint32_t)s->v[i].ia << (TB_GJK_ID_BITS * i);
		idsB |= (uint32_t)s->v[i].ib << (TB_GJK_ID_BITS * i);
	}
	c->type = tb_satSimplex;
	c->indexA = (int)idsA;
	c->indexB = (int)idsB;
}

void tbGjk(const tbMinkowski* mk, float hitDistance, int maxIterations, const tbQueryDef* def,
           tbGjkOutput* out)
{
	const float L = mk->scale;
	// Distance tolerance, relative (docs/narrowphase.md, Tolerances: never absolute FLT_EPSILON
	// tests).
	const float distTol = mk->tolerance * L;
	// Below this |v| the origin is taken to be on the difference (precision floor).
	const float floor2 = (3e-7f * L) * (3e-7f * L);
	const float volumeTol = 1e-9f * L * L * L;
	const bool boolean = hitDistance >= 0.0f;

	tbSimplex* s = &out->simplex;
	vec3s v;
	if (!tbGjkWarmStart(mk, s, volumeTol, &v)) {
		// Start along the line from A's interior point to B's: in A - B that is the direction
		// from the difference's centre towards the origin, so the first support is already near
		// the closest feature for most pairs.
		vec3s cA = tbGeometry_InteriorPoint(mk->shapeA);
		vec3s cB = tbTransformPointInline(mk->bInA, tbGeometry_InteriorPoint(mk->shapeB));
		vec3s d = glms_vec3_sub(cB, cA);
		if (glms_vec3_norm2(d) <= 1e-12f * L * L) {
			d = (vec3s){{1.0f, 0.0f, 0.0f}};
		}
		s->v[0] = tbMinkowskiSupport(mk, d);
		s->lambda[0] = 1.0f;
		s->count = 1;
		v = s->v[0].w;
	}
	float vv = glms_vec3_norm2(v);
	tbSimplex best = *s;
	vec3s bestV = v;
	float bestVV = vv;
	int stalls = 0;

	out->outcome = tb_gjkSeparated;
	out->status = tb_queryIterationCap;
	out->lowerBound = -FLT_MAX;
	out->lastValid = false;
	int iter = 0;
	// An iteration is one support taken: the two early exits below take none, so they count
	// nothing, and the trace's iteration numbers run 1, 2, ... as out->iterations counts them.
	while (iter < maxIterations) {
		if (vv <= floor2) {
			out->outcome = tb_gjkOverlap;
			out->status = tb_queryConverged;
			break;
		}
		float vlen = sqrtf(vv);
		if (boolean && vlen <= hitDistance) {
			out->outcome = tb_gjkEarlyHit;
			out->status = tb_queryConverged;
			break;
		}
		++iter;
		vec3s dir = glms_vec3_negate(v);
		tbSupportVertex w = tbMinkowskiSupport(mk, dir);
		float vw = glms_vec3_dot(v, w.w);
		tbGjkTrace(def, iter, dir, w.w, s, vlen, false);
		if (vw > out->lowerBound * vlen) {
			out->lowerBound = vw / vlen; // divide only when the bound improves
		}
		// Lower bound on the distance from the support plane (van den Bergen).
		if (boolean && vw > hitDistance * vlen) {
			out->outcome = tb_gjkEarlyMiss;
			out->status = tb_queryConverged;
			break;
		}
		// Converged: the support plane is within tolerance of v.
		if (vv - vw <= distTol * vlen) {
			out->status = tb_queryConverged;
			out->last = w; // v stays the answer: w is its support
			out->lastValid = true;
			break;
		}
		bool duplicate = false;
		for (int i = 0; i < s->count; ++i) {
			duplicate = duplicate || tbSameVertex(mk, &s->v[i], &w);
		}
		if (duplicate) {
			out->status = tb_queryConverged;
			break;
		}
		s->v[s->count] = w;
		s->count += 1;
		vec3s vNew = tbSimplex_Solve(s, volumeTol);
		if (s->count == 4) {
			v = glms_vec3_zero();
			vv = 0.0f;
			out->outcome = tb_gjkOverlap;
			out->status = tb_queryConverged;
			break;
		}
		float vvNew = glms_vec3_norm2(vNew);
		// Monotonicity guard (Jolt), with patience: against a sharp ridge of A - B the supports
		// zig-zag between its two sides and every other step gains almost nothing, which
		// rounding can turn into a loss. Only a run of steps without a new best stops the loop,
		// and the best simplex is the answer.
		if (vvNew < bestVV) {
			best = *s;
			bestV = vNew;
			bestVV = vvNew;
			stalls = 0;
		} else if (++stalls >= 3) {
			out->status = tb_queryConverged;
			break;
		}
		v = vNew;
		vv = vvNew;
	}
	if (out->outcome == tb_gjkSeparated && vv > bestVV) {
		*s = best;
		v = bestV;
		vv = bestVV;
		out->lastValid = false;
	}
	// One last record of the simplex GJK ends with (a tetrahedron around the origin, or the
	// closest feature), so that a replay can reproduce the answer from the trace alone. It carries
	// the number of the last iteration, marked as the end.
	tbGjkTrace(def, iter, glms_vec3_negate(v), s->v[s->count - 1].w, s, sqrtf(vv), true);
	out->v = v;
	out->distance = sqrtf(vv);
	out->iterations = iter;
	tbGjkKeep(mk, out);
}
