// Witness points: which pair of surface points realises a distance or a depth, from the closest
// face's barycentric pair or from support points anchored on one shape (the EPA article's
// barycentric contact point, made safe for curved shapes and tied faces).
#include "narrowphase.h"

#include <math.h>

// Length of the part of d across n.
static float tbAcross(vec3s n, vec3s d)
{
	return glms_vec3_norm(glms_vec3_sub(d, glms_vec3_scale(n, glms_vec3_dot(d, n))));
}

// Distance from q to shape A (which = true) or to B placed in A's frame, cores as mk uses them:
// GJK between the shape and a point (a triangle with three equal corners).
static float tbPointOutside(const tbMinkowski* mk, bool which, vec3s q)
{
	const tbGeometry* shape = which ? mk->shapeA : mk->shapeB;
	if (!which) {
		// Into B's frame: R^T (q - p).
		vec3s d = glms_vec3_sub(q, mk->bInA.p);
		const mat3s* r = &mk->rotB;
		q = (vec3s){{glms_vec3_dot(r->col[0], d), glms_vec3_dot(r->col[1], d),
		             glms_vec3_dot(r->col[2], d)}};
	}
	tbGeometry point = tbMakeTriangle(q, q, q);
	tbMinkowski pm;
	tbMinkowski_Init(&pm, shape, &point, tbTransformIdentity());
	pm.cores = mk->cores;
	pm.scale = mk->scale;
	tbGjkOutput g;
	tbGjk(&pm, -1.0f, 32, NULL, &g);
	return g.outcome == tb_gjkSeparated ? g.distance : 0.0f;
}

void tbChooseWitness(const tbMinkowski* mk, vec3s n, vec3s fa, vec3s fb, vec3s sa, vec3s sb,
                     float tol, vec3s* pointA, vec3s* pointB)
{
	// The face pair (fa, fb) sits where the contact is, but a barycentric mix of support points
	// of a curved shape is a chord point, inside the surface; and on a tied face the supports
	// (sa, sb) can be any corner. So: keep the face pair when both of its points lie on their
	// support planes and face each other across n. Otherwise anchor on a point of one shape,
	// put its partner at the signed distance along n (on the other's support plane), and keep
	// the pair whose partner is least outside the other shape.
	float hA = glms_vec3_dot(sa, n), hB = glms_vec3_dot(sb, n);
	float offPlanes = fabsf(hA - glms_vec3_dot(fa, n)) + fabsf(glms_vec3_dot(fb, n) - hB);
	// Symmetrising a pair that is off by e moves each point by e / 2: keep the face pair up to
	// 1e-4 L of mismatch, well inside what a witness may be off, so that contact points of a
	// resting pair do not jump between candidates from step to step.
	if (offPlanes + tbAcross(n, glms_vec3_sub(fb, fa)) <= fmaxf(tol, 1e-4f * mk->scale)) {
		*pointA = fa;
		*pointB = fb;
		return;
	}
	float d = hB - hA;
	vec3s anchors[4] = {sa, sb, fa, fb};
	bool onA[4] = {true, false, true, false};
	bool usable[4] = {true, true, fabsf(hA - glms_vec3_dot(fa, n)) <= tol,
	                  fabsf(glms_vec3_dot(fb, n) - hB) <= tol};
	// Candidates in order of their distance across n from the face pair; the first whose
	// partner is not outside the other shape wins (each check costs eight support calls).
	vec3s mid = glms_vec3_scale(glms_vec3_add(fa, fb), 0.5f);
	vec3s pas[4], pbs[4];
	float across[4];
	int order[4], count = 0;
	for (int k = 0; k < 4; ++k) {
		if (!usable[k]) {
			continue;
		}
		pas[k] = onA[k] ? anchors[k] : glms_vec3_sub(anchors[k], glms_vec3_scale(n, d));
		pbs[k] = onA[k] ? glms_vec3_add(anchors[k], glms_vec3_scale(n, d)) : anchors[k];
		across[k] =
		    tbAcross(n, glms_vec3_sub(glms_vec3_scale(glms_vec3_add(pas[k], pbs[k]), 0.5f), mid));
		int j = count++;
		while (j > 0 && across[order[j - 1]] > across[k]) {
			order[j] = order[j - 1];
			--j;
		}
		order[j] = k;
	}
	float best = INFINITY;
	*pointA = fa;
	*pointB = fb;
	for (int j = 0; j < count; ++j) {
		int k = order[j];
		// The partner must lie on the other shape (it is on its support plane already).
		float outside =
		    onA[k] ? tbPointOutside(mk, false, pbs[k]) : tbPointOutside(mk, true, pas[k]);
		if (outside < best) {
			best = outside;
			*pointA = pas[k];
			*pointB = pbs[k];
		}
		if (outside <= tol) {
			break;
		}
	}
}
