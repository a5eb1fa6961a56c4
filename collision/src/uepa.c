// Unified EPA (Linneweber 2021): one expanding polytope for both separated and overlapping shapes,
// started as a small tetrahedron around a point deep inside A - B.
#include "narrowphase.h"

#include <float.h>
#include <math.h>

void tbUnifiedEpa(const tbMinkowski* mk, int maxIterations, const tbQueryDef* def,
                  tbPolytopeResult* out)
{
	const float L = mk->scale;
	tbPolytope poly;
	poly.areaTolerance = 1e-12f * L * L;

	// Linneweber 2021: the difference of the shapes' centres is deep inside A - B; a tetrahedron
	// smaller than the margin around it lies inside the inflated difference, whatever the shapes.
	vec3s cA = tbGeometry_InteriorPoint(mk->shapeA);
	vec3s cB = tbTransformPointInline(mk->bInA, tbGeometry_InteriorPoint(mk->shapeB));
	vec3s c = glms_vec3_sub(cA, cB);
	float size = 0.5f * mk->margin;
	static const float dirs[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
	tbSupportVertex start[4];
	for (int i = 0; i < 4; ++i) {
		vec3s e =
		    glms_vec3_scale((vec3s){{dirs[i][0], dirs[i][1], dirs[i][2]}}, size / sqrtf(3.0f));
		// These are interior points, not supports: split them as (cA + e) - cB for the witnesses.
		start[i].w = glms_vec3_add(c, e);
		start[i].a = glms_vec3_add(cA, e);
		start[i].b = cB;
		start[i].ia = -2 - i; // never equal to a real feature pair
		start[i].ib = -2;
	}
	if (!tbPolytope_InitTetrahedron(&poly, start)) {
		// No volume (the margin under- or overflowed at this scale, or no margin at all): the
		// faces were never made, so there is no polytope to run on. Report it; the caller
		// answers with its failure status.
		out->inside = false;
		out->distance = 0.0f;
		out->normal = (vec3s){{0.0f, 1.0f, 0.0f}};
		out->pointA = cA;
		out->pointB = cB;
		out->status = tb_queryDegenerate;
		out->iterations = 0;
		out->failed = true;
		return;
	}
	tbPolytope_Solve(mk, &poly, maxIterations, def, tb_traceUnifiedEpa, out);
	out->failed = false;
}
