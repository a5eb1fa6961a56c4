// EPA: the expanding polytope algorithm (Casalino 2021 sec. 3; the EPA article): grow a polytope
// inside A - B from a simplex that holds the origin until its closest face lies on the boundary.
#include "narrowphase.h"

#include <float.h>
#include <math.h>

// Any unit vector perpendicular to d.
static vec3s tbPerpendicular(vec3s d)
{
	vec3s axis = fabsf(d.x) < fabsf(d.y)
	                 ? (fabsf(d.x) < fabsf(d.z) ? (vec3s){{1, 0, 0}} : (vec3s){{0, 0, 1}})
	                 : (fabsf(d.y) < fabsf(d.z) ? (vec3s){{0, 1, 0}} : (vec3s){{0, 0, 1}});
	return glms_vec3_normalize(glms_vec3_cross(d, axis));
}

// Blow a 1- to 3-point simplex that holds the origin up to a tetrahedron (the EPA article; the
// origin may end up on its boundary, which EPA handles). Returns false if A - B is flat everywhere.
static bool tbBlowUp(const tbMinkowski* mk, const tbSimplex* s, tbSupportVertex out[4])
{
	int count = s->count;
	for (int i = 0; i < count; ++i) {
		out[i] = s->v[i];
	}
	const float L = mk->scale;
	if (count == 1) {
		vec3s d =
		    glms_vec3_norm2(out[0].w) > 0.0f ? glms_vec3_negate(out[0].w) : (vec3s){{1, 0, 0}};
		out[1] = tbMinkowskiSupport(mk, d);
		if (glms_vec3_norm2(glms_vec3_sub(out[1].w, out[0].w)) <= 1e-12f * L * L) {
			out[1] = tbMinkowskiSupport(mk, glms_vec3_negate(d));
		}
		count = 2;
	}
	if (count == 2) {
		// Of six directions around the segment, take the support farthest from its line.
		vec3s axis = glms_vec3_sub(out[1].w, out[0].w);
		float axisLen2 = glms_vec3_norm2(axis);
		if (axisLen2 <= 1e-12f * L * L) {
			return false;
		}
		vec3s u = tbPerpendicular(axis);
		vec3s t = glms_vec3_normalize(glms_vec3_cross(axis, u));
		float best = -1.0f;
		for (int k = 0; k < 6; ++k) {
			float angle = (float)k * (GLM_PIf / 3.0f);
			tbCosSin cs = tbComputeCosSin(angle);
			vec3s d = glms_vec3_add(glms_vec3_scale(u, cs.cosine), glms_vec3_scale(t, cs.sine));
			tbSupportVertex c = tbMinkowskiSupport(mk, d);
			vec3s r = glms_vec3_sub(c.w, out[0].w);
			float off = glms_vec3_norm2(glms_vec3_cross(r, axis)) / axisLen2;
			if (off > best) {
				best = off;
				out[2] = c;
			}
		}
		count = 3;
	}
	// Triangle: the support farther from its plane, on either side.
	vec3s n = glms_vec3_cross(glms_vec3_sub(out[1].w, out[0].w), glms_vec3_sub(out[2].w, out[0].w));
	if (glms_vec3_norm2(n) <= 1e-20f * L * L * L * L) {
		return false;
	}
	tbSupportVertex up = tbMinkowskiSupport(mk, n);
	tbSupportVertex down = tbMinkowskiSupport(mk, glms_vec3_negate(n));
	float hu = glms_vec3_dot(n, glms_vec3_sub(up.w, out[0].w));
	float hd = -glms_vec3_dot(n, glms_vec3_sub(down.w, out[0].w));
	out[3] = hu >= hd ? up : down;
	return true;
}

void tbEpa(const tbMinkowski* mk, const tbSimplex* simplex, int maxIterations,
           const tbQueryDef* def, tbPolytopeResult* out)
{
	const float L = mk->scale;
	tbPolytope poly;
	poly.areaTolerance = 1e-12f * L * L;

	tbSupportVertex start[4];
	bool ok = simplex->count == 4;
	if (ok) {
		for (int i = 0; i < 4; ++i) {
			start[i] = simplex->v[i];
		}
	} else {
		ok = tbBlowUp(mk, simplex, start);
	}
	ok = ok && tbPolytope_InitTetrahedron(&poly, start);
	out->status = tb_queryConverged;
	out->iterations = 0;
	out->failed = false;
	if (!ok) {
		// A - B has no volume even after inflation: cannot happen with a positive margin; keep
		// the answer defined anyway.
		out->inside = true;
		out->distance = 0.0f;
		out->normal = (vec3s){{0.0f, 1.0f, 0.0f}};
		tbSimplex_Witness(simplex, &out->pointA, &out->pointB);
		out->status = tb_queryDegenerate;
		return;
	}

	tbPolytope_Solve(mk, &poly, maxIterations, def, tb_traceEpa, out);
}
