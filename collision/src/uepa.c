// Unified EPA (seed 001): one expanding polytope for both separated and overlapping shapes,
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

	// Seed 001: the difference of the shapes' centres is deep inside A - B; a tetrahedron smaller
	// than the margin around it lies inside the inflated difference, whatever the shapes.
	vec3s cA = tbShape_InteriorPoint(mk->shapeA);
	vec3s cB = tbTransformPoint(mk->bInA, tbShape_InteriorPoint(mk->shapeB));
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
	tbPolytope_InitTetrahedron(&poly, start);
	tbPolytope_Solve(mk, &poly, maxIterations, def, tb_traceUnifiedEpa, out);
}

// The expanding loop shared by EPA and unified EPA. Inside mode is EPA (seed 000 section 3, seed
// 003); outside mode is GJK on the polytope (seed 001 step b), which EPA also needs when a touching
// pair leaves the origin just outside its seed tetrahedron.
void tbPolytope_Solve(const tbMinkowski* mk, tbPolytope* poly, int maxIterations,
                      const tbQueryDef* def, tbTraceStage stage, tbPolytopeResult* out)
{
	const float L = mk->scale;
	const float gapTol = TB_EPA_GAP * L;

	out->status = tb_queryConverged;
	out->iterations = 0;
	int best = 0;
	bool inside = false;
	// Inside, each support bounds the depth from above (as in EPA): the answer at a cap.
	float upperDepth = FLT_MAX;
	vec3s upperNormal = glms_vec3_zero(), upperA = glms_vec3_zero(), upperB = glms_vec3_zero();
	tbSupportVertex last; // the support of the last iteration, along the answer's normal
	bool haveLast = false;
	bool converged = false;
	bool byUpper = false; // stopped on the best upper bound: answer with its direction
	vec3s bestPoint = glms_vec3_zero();
	for (int iter = 0;; ++iter) {
		// Inside when no trusted face has the origin in front of it. Then the closest boundary
		// point is on the nearest face plane (EPA); otherwise it is the nearest point of the
		// faces that see the origin (GJK-like; seed 001 step b).
		float fd = FLT_MAX;
		int f = tbPolytope_ClosestFace(poly, &fd);
		float outsideBest = FLT_MAX;
		int outsideFace = -1;
		vec3s outsidePoint = glms_vec3_zero();
		for (int k = 0; fd < 0.0f && k < poly->faceCount; ++k) {
			// Only when some face has the origin in front: the nearest point of those faces.
			const tbPolyFace* face = &poly->faces[k];
			if (!face->alive || !face->valid || face->dist >= 0.0f) {
				continue;
			}
			float l[3];
			vec3s q =
			    tbClosestOnTriangle(poly->vertices[face->v[0]].w, poly->vertices[face->v[1]].w,
			                        poly->vertices[face->v[2]].w, l);
			float d2 = glms_vec3_norm2(q);
			if (d2 < outsideBest) {
				outsideBest = d2;
				outsideFace = k;
				outsidePoint = q;
			}
		}
		if (f < 0) {
			out->status = tb_queryDegenerate;
			break;
		}
		// The origin on the surface (within float noise) has no direction to search in: treat
		// it as inside, where the face normal gives one.
		inside = outsideFace < 0 || outsideBest <= (1e-7f * L) * (1e-7f * L);
		vec3s dir, point;
		float lower, upper;
		tbSupportVertex w;
		if (inside) {
			best = f;
			point = glms_vec3_scale(poly->faces[f].n, fd);
			dir = poly->faces[f].n;
			w = tbMinkowskiSupport(mk, dir);
			lower = fd;
			upper = glms_vec3_dot(w.w, dir);
			if (upper < upperDepth) {
				upperDepth = upper;
				upperNormal = dir;
				upperA = w.a;
				upperB = w.b;
			}
		} else {
			best = outsideFace;
			point = outsidePoint;
			float len = sqrtf(outsideBest);
			// Seed 001 step b: search from the closest point towards the origin.
			dir = len > 0.0f ? glms_vec3_scale(point, -1.0f / len) : poly->faces[f].n;
			w = tbMinkowskiSupport(mk, dir);
			upper = len;
			lower = -glms_vec3_dot(w.w, dir);
		}
		bestPoint = point;
		last = w;
		haveLast = true;
		if (iter >= maxIterations) {
			out->status = tb_queryIterationCap;
			break;
		}
		tbPolytope_Trace(poly, def, stage, iter, dir, w.w, inside ? fd : -upper);
		out->iterations = iter + 1;
		// Both modes stop when the support plane is within tolerance of the polytope (seed 001
		// step h: the support point brings nothing new).
		if (upper - lower <= gapTol) {
			converged = true;
			break;
		}
		if (inside && upperDepth - lower <= gapTol) {
			// An earlier support already bounds the depth to within tolerance of this lower
			// bound: on curved differences that bound converges long before the faces do.
			byUpper = true;
			break;
		}
		// Expand from a face that sees w; in the outside mode that is the face holding the
		// closest point, or failing that (numerical ties) any face that sees w.
		int startFace = -1, faintFace = -1;
		float faintSide = 0.0f;
		for (int k = -1; k < poly->faceCount && startFace < 0; ++k) {
			int g = k < 0 ? best : k;
			const tbPolyFace* face = &poly->faces[g];
			if (!face->alive || !face->valid) {
				continue;
			}
			float side = glms_vec3_dot(face->n, glms_vec3_sub(w.w, poly->vertices[face->v[0]].w));
			if (side > 0.1f * gapTol) {
				startFace = g;
			} else if (!inside && side > faintSide) {
				faintSide = side;
				faintFace = g;
			}
		}
		if (startFace < 0) {
			// A paper-thin polytope (A - B flat, thickened only by the margin) tilts its faces by
			// margin / size, so a point beyond its rim is seen only faintly. Outside, any face
			// that sees the new point at all may start the expansion.
			startFace = faintFace;
		}
		if (startFace >= 0 && !tbPolytope_IsNewVertex(poly, &w)) {
			// A known vertex beyond the polytope: rounding has bent it. Keep the best so far.
			out->status = tb_queryDegenerate;
			break;
		}
		if (startFace < 0) {
			out->status = tb_queryDegenerate; // nothing sees the new point: keep the best so far
			break;
		}
		if (!tbPolytope_Expand(poly, startFace, &w, 0.1f * gapTol)) {
			out->status = poly->vertexCount >= TB_POLY_MAX_VERTICES ? tb_queryIterationCap
			                                                        : tb_queryDegenerate;
			break;
		}
	}
	out->inside = inside;
	if (inside && (byUpper || !converged) && upperDepth < FLT_MAX) {
		out->distance = upperDepth;
		out->normal = upperNormal;
		vec3s fa, fb;
		tbPolytope_Witness(poly, tbPolytope_FaceHolding(poly, best, bestPoint, gapTol), bestPoint,
		                   &fa, &fb);
		tbChooseWitness(mk, upperNormal, fa, fb, upperA, upperB, 10.0f * gapTol, &out->pointA,
		                &out->pointB);
		return;
	}
	if (inside) {
		out->distance = poly->faces[best].dist;
		out->normal = poly->faces[best].n;
	} else {
		float len = glms_vec3_norm(bestPoint);
		out->distance = len;
		// Apart: the normal from A to B is minus the direction of the closest point of A - B.
		out->normal = len > 0.0f ? glms_vec3_scale(bestPoint, -1.0f / len) : poly->faces[best].n;
	}
	int holder = inside ? tbPolytope_FaceHolding(poly, best, bestPoint, gapTol) : best;
	vec3s fa, fb;
	tbPolytope_Witness(poly, holder, bestPoint, &fa, &fb);
	// The start tetrahedron's interior points can survive in the final face; the supports along
	// the normal are on the surfaces. The last iteration searched along this very normal.
	tbSupportVertex s = haveLast ? last : tbMinkowskiSupport(mk, out->normal);
	tbChooseWitness(mk, out->normal, fa, fb, s.a, s.b, 10.0f * gapTol, &out->pointA, &out->pointB);
}
