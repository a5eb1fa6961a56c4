// The degenerate classes of the narrow phase against analytic answers, with random poses, both
// algorithms (checkPair also runs the swapped pair, the boolean test and the GJK distance), at
// sizes scaled by 1e-3, 1 and 1e3:
// - zero-size shapes: point hulls (at and off their origin), flat hulls through the origin, a
//   triangle with a zero-length edge, against every shape type; two coincident points touch;
// - concentric round shapes, whose optimal normals form a ring (a sphere centred in a cylinder,
//   cone or capsule, coaxial cylinders, a cylinder along the axis of a box);
// - identical shapes at the same pose (depth = the shape's width along its thinnest direction);
// - pairs of extreme size (1e-20 to 1e37 m), where products of lengths leave float's range.
#include "narrow_oracle.h"

#include <criterion/criterion.h>
#include <tumble/tumble.h>

static const double s_scales[3] = {1e-3, 1.0, 1e3};

// A pose at a random place (within 3 sizes of the origin, as the sample cases) and rotation.
static tbTransform randomPose(Rng* rng, double scale)
{
	return xfMake(rngUniform(rng, -3, 3) * scale, rngUniform(rng, -3, 3) * scale,
	              rngUniform(rng, -3, 3) * scale, rngQuat(rng));
}

// The pose that puts local point `local` of a shape with rotation q at world point `world`.
static tbTransform poseWithPointAt(versors q, dvec local, dvec world)
{
	dvec p = dsub(world, drotate(q, local));
	return xfMake(p.x, p.y, p.z, q);
}

static tbHull buildHull(const vec3s* points, int count)
{
	tbHull hull = {0};
	tbHullError err = tbBuildHull(points, count, &hull, NULL);
	cr_assert_eq(err, tb_hullOk, "tbBuildHull failed (%d)", (int)err);
	return hull;
}

// ---------------------------------------------------------------------------------------------
// Zero-size shapes

// Two coincident points: every query answers, distance exactly 0, touching, both witnesses at
// the point. A point hull at its origin has bounding radius 0, so the pair size L is 0 too.
Test(degenerate, coincident_point_hulls)
{
	vec3s origin = {{0.0f, 0.0f, 0.0f}};
	tbHull point = buildHull(&origin, 1);
	tbGeometry a = tbMakeHullShape(&point);
	Rng rng = {11};
	tbQueryAlgorithm algos[2] = {tb_algorithmGjkEpa, tb_algorithmUnifiedEpa};
	for (int s = 0; s < 3; ++s) {
		for (int i = 0; i < 20; ++i) {
			tbTransform xfA = randomPose(&rng, s_scales[s]);
			tbTransform xfB = xfMake(xfA.p.x, xfA.p.y, xfA.p.z, rngQuat(&rng));
			for (int k = 0; k < 2; ++k) {
				tbQueryDef def = tbDefaultQueryDef();
				def.algorithm = algos[k];
				tbQueryResult r = tbQueryShapes(&a, xfA, &a, xfB, &def);
				cr_expect_neq(r.status, tb_queryInvalidInput, "scale %g: %s refused two points",
				              s_scales[s], algoName(algos[k]));
				cr_expect(r.hit && r.distance == 0.0f, "scale %g [%s]: hit %d, distance %g",
				          s_scales[s], algoName(algos[k]), (int)r.hit, (double)r.distance);
				cr_expect(glms_vec3_eqv(r.pointA, xfA.p) && glms_vec3_eqv(r.pointB, xfA.p),
				          "scale %g [%s]: witnesses off the point", s_scales[s],
				          algoName(algos[k]));
				cr_expect(fabsf(glms_vec3_norm(r.normal) - 1.0f) < 1e-6f, "unit normal");
			}
			tbQueryStatus status;
			cr_expect(tbTestOverlap(&a, xfA, &a, xfB, &status), "scale %g: overlap test",
			          s_scales[s]);
			cr_expect_neq(status, tb_queryInvalidInput);
			tbQueryResult d = tbShapeDistance(&a, xfA, &a, xfB, NULL);
			cr_expect(d.status != tb_queryInvalidInput && d.hit && d.distance == 0.0f,
			          "scale %g: tbShapeDistance status %s distance %g", s_scales[s],
			          tbQueryStatusName(d.status), (double)d.distance);
		}
	}
	tbDestroyHull(&point);
}

// Point hulls off their origin, at the same world point: distance 0 (to float's rounding of the
// poses), witnesses at the point. Also a triangle whose three corners coincide.
Test(degenerate, coincident_points_off_origin)
{
	Rng rng = {12};
	for (int s = 0; s < 3; ++s) {
		double scale = s_scales[s];
		for (int i = 0; i < 20; ++i) {
			dvec la = dscale(rngUnit(&rng), scale * rngUniform(&rng, 0.1, 1));
			dvec lb = dscale(rngUnit(&rng), scale * rngUniform(&rng, 0.1, 1));
			vec3s pa = fvd(la), pb = fvd(lb);
			tbHull ha = buildHull(&pa, 1), hb = buildHull(&pb, 1);
			tbGeometry a = tbMakeHullShape(&ha);
			// B: a one-point hull, or a triangle whose three corners coincide.
			tbGeometry b = i % 2 == 0 ? tbMakeTriangle(pb, pb, pb) : tbMakeHullShape(&hb);
			tbTransform xfA = randomPose(&rng, scale);
			dvec world = dxfPoint(xfA, dvf(pa));
			tbTransform xfB = poseWithPointAt(rngQuat(&rng), dvf(pb), world);
			// The float poses place the two points up to a few ulps of the positions apart.
			double L = pairScale(&a, xfA, &b, xfB);
			double rounding = 1e-6 * (L + dnorm(world));
			tbQueryAlgorithm algos[2] = {tb_algorithmGjkEpa, tb_algorithmUnifiedEpa};
			for (int k = 0; k < 2; ++k) {
				tbQueryDef def = tbDefaultQueryDef();
				def.algorithm = algos[k];
				tbQueryResult r = tbQueryShapes(&a, xfA, &b, xfB, &def);
				cr_expect(r.status != tb_queryInvalidInput && fabs((double)r.distance) <= rounding,
				          "scale %g [%s]: status %s distance %g (L %g)", scale, algoName(algos[k]),
				          tbQueryStatusName(r.status), (double)r.distance, L);
				cr_expect(dnorm(dsub(dvf(r.pointA), world)) <= rounding &&
				              dnorm(dsub(dvf(r.pointB), world)) <= rounding,
				          "scale %g [%s]: witnesses off the point", scale, algoName(algos[k]));
			}
			tbQueryStatus status;
			tbTestOverlap(&a, xfA, &b, xfB, &status);
			cr_expect_neq(status, tb_queryInvalidInput, "scale %g: overlap test refused", scale);
			tbDestroyHull(&ha);
			tbDestroyHull(&hb);
		}
	}
}

// Distance from local point p to a shape of every type, analytic; *normal the outward direction
// from the shape at its nearest surface point (local), unique unless told.
typedef struct PointTruth
{
	double sd;
	dvec normal; // from the shape towards the point, local
} PointTruth;

// Points at chosen places inside and outside each shape, where the nearest feature is known.
static int pointCases(const tbGeometry* s, dvec* points, PointTruth* truths, Rng* rng)
{
	int n = 0;
	double u = rngUniform(rng, 0.2, 0.8);
	switch (s->type) {
	case tb_sphereShape: {
		double r = (double)s->radius;
		dvec d = rngUnit(rng);
		points[n] = dscale(d, 0.4 * r), truths[n++] = (PointTruth){-0.6 * r, d};
		points[n] = dscale(d, 1.5 * r), truths[n++] = (PointTruth){0.5 * r, d};
		break;
	}
	case tb_boxShape: {
		dvec h = dvf(s->halfExtents);
		// Inside, nearest the +x face; outside beyond the -z face.
		points[n] = dv(h.x - 0.1 * h.x, 0.2 * h.y, -0.1 * h.z);
		truths[n++] = (PointTruth){-0.1 * h.x, dv(1, 0, 0)};
		points[n] = dv(0.3 * h.x, -0.2 * h.y, -h.z - u * h.z);
		truths[n++] = (PointTruth){u * h.z, dv(0, 0, -1)};
		break;
	}
	case tb_capsuleShape: {
		double r = (double)s->round.radius, hh = (double)s->round.halfHeight;
		dvec side = dunit(dv(rngUniform(rng, -1, 1), 0, rngUniform(rng, -1, 1)));
		points[n] = dadd(dscale(side, (1 + u) * r), dv(0, 0.5 * hh, 0));
		truths[n++] = (PointTruth){u * r, side};
		points[n] = dv(0, hh + 0.5 * r, 0);
		truths[n++] = (PointTruth){-0.5 * r, dv(0, 1, 0)};
		break;
	}
	case tb_cylinderShape: {
		double r = (double)s->round.radius, hh = (double)s->round.halfHeight;
		dvec side = dunit(dv(rngUniform(rng, -1, 1), 0, rngUniform(rng, -1, 1)));
		// Outside the side at mid height; inside near the bottom cap.
		points[n] = dadd(dscale(side, (1 + u) * r), dv(0, 0.1 * hh, 0));
		truths[n++] = (PointTruth){u * r, side};
		double depth = 0.05 * fmin(r, hh);
		points[n] = dadd(dscale(side, 0.1 * r), dv(0, -hh + depth, 0));
		truths[n++] = (PointTruth){-depth, dv(0, -1, 0)};
		break;
	}
	case tb_coneShape: {
		double r = (double)s->round.radius, hh = (double)s->round.halfHeight;
		// Below the base on the axis; inside on the axis, where base and slant compete.
		points[n] = dv(0, -hh - u * hh, 0);
		truths[n++] = (PointTruth){u * hh, dv(0, -1, 0)};
		double y = 0.5 * hh;
		double slant = r * (hh - y) / sqrt(r * r + 4 * hh * hh);
		dvec side = dunit(dv(rngUniform(rng, -1, 1), 0, rngUniform(rng, -1, 1)));
		points[n] = dv(0, y, 0);
		// On the axis the nearest slant points form a ring: no unique normal (marked by 0).
		truths[n++] =
		    (PointTruth){-fmin(slant, y + hh), slant < y + hh ? dv(0, 0, 0) : dv(0, -1, 0)};
		(void)side;
		break;
	}
	case tb_triangleShape: {
		// The triangle (possibly with a zero-length edge): a point above its first corner
		// along the plane normal, or beyond the segment when it is one.
		dvec a = dvf(s->vertices[0]), b = dvf(s->vertices[1]), c = dvf(s->vertices[2]);
		dvec nrm = dcross(dsub(b, a), dsub(c, a));
		dvec g = dscale(dadd(dadd(a, b), c), 1.0 / 3.0);
		double size = fmax(dnorm(dsub(b, a)), fmax(dnorm(dsub(c, a)), dnorm(dsub(c, b))));
		if (dnorm(nrm) > 1e-6 * size * size) {
			nrm = dunit(nrm);
			points[n] = dadd(g, dscale(nrm, u * size));
			truths[n++] = (PointTruth){u * size, nrm};
		} else {
			// A segment from a to the farthest corner: a point off its middle.
			dvec e = dnorm(dsub(b, a)) > dnorm(dsub(c, a)) ? dsub(b, a) : dsub(c, a);
			dvec off = dunit(dcross(e, fabs(e.x) < 0.6 * dnorm(e) ? dv(1, 0, 0) : dv(0, 0, 1)));
			points[n] = dadd(dadd(a, dscale(e, 0.5)), dscale(off, u * size));
			truths[n++] = (PointTruth){u * size, off};
		}
		break;
	}
	default:
		break;
	}
	return n;
}

// A point hull (at or off its origin) against every shape type, inside and outside; both
// algorithms, swapped, the boolean test, the GJK distance.
Test(degenerate, point_against_every_shape)
{
	Rng rng = {13};
	for (int s = 0; s < 3; ++s) {
		double scale = s_scales[s];
		for (int i = 0; i < 12; ++i) {
			float k = (float)scale;
			tbGeometry shapes[7] = {
			    tbMakeSphere(0.7f * k),
			    tbMakeBox(0.5f * k, 0.8f * k, 0.3f * k),
			    tbMakeCapsule(0.4f * k, 0.6f * k),
			    tbMakeCylinder(0.5f * k, 0.7f * k),
			    tbMakeCone(0.6f * k, 0.5f * k),
			    tbMakeTriangle((vec3s){{0, 0, 0}}, (vec3s){{0.8f * k, 0, 0}},
			                   (vec3s){{0, 0.6f * k, 0.2f * k}}),
			    // A triangle with a zero-length edge: a segment.
			    tbMakeTriangle((vec3s){{-0.5f * k, 0.1f * k, 0}}, (vec3s){{-0.5f * k, 0.1f * k, 0}},
			                   (vec3s){{0.4f * k, -0.3f * k, 0.2f * k}}),
			};
			for (int t = 0; t < 7; ++t) {
				dvec points[2];
				PointTruth truths[2];
				int n = pointCases(&shapes[t], points, truths, &rng);
				for (int j = 0; j < n; ++j) {
					// The point hull: at its origin or off it, placed so its point lands there.
					vec3s local =
					    i % 2 == 0 ? (vec3s){{0, 0, 0}} : fvd(dscale(rngUnit(&rng), 0.5 * scale));
					tbHull hull = buildHull(&local, 1);
					tbGeometry point = tbMakeHullShape(&hull);
					tbTransform xfS = randomPose(&rng, scale);
					dvec world = dxfPoint(xfS, points[j]);
					tbTransform xfP = poseWithPointAt(rngQuat(&rng), dvf(local), world);
					dvec nWorld = drotate(xfS.q, truths[j].normal);
					bool unique = dnorm(truths[j].normal) > 0.5;
					char name[96];
					snprintf(name, sizeof name, "point vs %s %d.%d scale %g",
					         tbShapeTypeName(shapes[t].type), i, j, scale);
					// A = the point, B = the shape: the normal from the point towards the shape.
					checkPair(name, &point, xfP, &shapes[t], xfS,
					          expectSd(truths[j].sd, dscale(nWorld, -1.0), unique));
					tbDestroyHull(&hull);
				}
			}
		}
	}
}

// Flat hulls through their origin: a triangle and a square of zero thickness. A point at the
// origin touches them (distance 0); a box around the square: depth min(hx + a, hy, hz + a).
Test(degenerate, flat_hulls_through_origin)
{
	Rng rng = {14};
	for (int s = 0; s < 3; ++s) {
		double scale = s_scales[s];
		float k = (float)scale;
		vec3s tri[3] = {
		    {{-0.5f * k, 0, -0.4f * k}}, {{0.6f * k, 0, -0.3f * k}}, {{0, 0, 0.7f * k}}};
		float a = 0.3f * k;
		vec3s square[4] = {{{-a, 0, -a}}, {{a, 0, -a}}, {{a, 0, a}}, {{-a, 0, a}}};
		vec3s origin = {{0, 0, 0}};
		tbHull ht = buildHull(tri, 3), hs = buildHull(square, 4), hp = buildHull(&origin, 1);
		tbGeometry triangle = tbMakeHullShape(&ht), flat = tbMakeHullShape(&hs);
		tbGeometry point = tbMakeHullShape(&hp);
		for (int i = 0; i < 8; ++i) {
			tbTransform xf = randomPose(&rng, scale);
			tbTransform xfP = xfMake(xf.p.x, xf.p.y, xf.p.z, rngQuat(&rng));
			char name[96];
			snprintf(name, sizeof name, "point in flat triangle %d scale %g", i, scale);
			Expect touch = expectSd(0.0, dv(0, 1, 0), false);
			checkPair(name, &point, xfP, &triangle, xf, touch);
			snprintf(name, sizeof name, "two flat squares %d scale %g", i, scale);
			checkPair(name, &flat, xf, &flat, xf, touch);

			tbGeometry box = tbMakeBox(0.5f * k, 0.2f * k, 0.45f * k);
			double depth =
			    fmin(fmin((double)box.halfExtents.x + (double)a, (double)box.halfExtents.y),
			         (double)box.halfExtents.z + (double)a);
			snprintf(name, sizeof name, "flat square in a box %d scale %g", i, scale);
			// Along the box's thin y axis: the square's plane normal, +-y (two optima).
			checkPair(name, &flat, xf, &box, xf, expectSd(-depth, dv(0, 1, 0), false));
		}
		tbDestroyHull(&ht);
		tbDestroyHull(&hs);
		tbDestroyHull(&hp);
	}
}

// ---------------------------------------------------------------------------------------------
// Concentric round shapes: the optimal normals form a ring. Exact answers to 1e-5 L (before
// this class was solved, EPA stopped 1.3e-3 L too deep with its normal tilted).

// The normal must be radial (across the axis) when the ring wins, axial when the caps do.
static void checkAxisRelation(const char* name, const tbGeometry* a, tbTransform xfA,
                              const tbGeometry* b, tbTransform xfB, dvec axis, bool radial)
{
	tbQueryAlgorithm algos[2] = {tb_algorithmGjkEpa, tb_algorithmUnifiedEpa};
	for (int k = 0; k < 2; ++k) {
		tbQueryDef def = tbDefaultQueryDef();
		def.algorithm = algos[k];
		tbQueryResult r = tbQueryShapes(a, xfA, b, xfB, &def);
		double along = fabs(ddot(dunit(dvf(r.normal)), axis));
		if (radial) {
			cr_expect(along < 1e-3, "%s [%s]: normal not radial (%.3g along the axis)", name,
			          algoName(algos[k]), along);
		} else {
			cr_expect(along > 1.0 - 1e-6, "%s [%s]: normal not axial (%.9g)", name,
			          algoName(algos[k]), along);
		}
	}
}

Test(degenerate, sphere_centred_in_round_shapes)
{
	Rng rng = {21};
	for (int s = 0; s < 3; ++s) {
		double scale = s_scales[s];
		for (int i = 0; i < 12; ++i) {
			// Sizes rounded to float first: the analytic answers use what the shapes hold.
			double r = (double)(float)(rngUniform(&rng, 0.05, 0.6) * scale);
			double R = (double)(float)(rngUniform(&rng, 0.2, 1.0) * scale);
			double h = (double)(float)(rngUniform(&rng, 0.2, 1.0) * scale);
			tbGeometry sphere = tbMakeSphere((float)r);
			tbTransform xf = randomPose(&rng, scale);
			tbTransform xfS = xfMake(xf.p.x, xf.p.y, xf.p.z, rngQuat(&rng));
			dvec axis = drotate(xf.q, dv(0, 1, 0));
			char name[96];
			Expect e;

			// Cylinder: depth r + min(R, h), radial or axial.
			tbGeometry cylinder = tbMakeCylinder((float)R, (float)h);
			e = expectSd(-(r + fmin(R, h)), axis, false);
			e.sdTol = 1e-5;
			snprintf(name, sizeof name, "sphere in cylinder %d scale %g", i, scale);
			checkPair(name, &sphere, xfS, &cylinder, xf, e);
			checkAxisRelation(name, &sphere, xfS, &cylinder, xf, axis, R < h);

			// Capsule: the ring of its side, depth r + R.
			tbGeometry capsule = tbMakeCapsule((float)R, (float)h);
			e = expectSd(-(r + R), axis, false);
			e.sdTol = 1e-5;
			snprintf(name, sizeof name, "sphere in capsule %d scale %g", i, scale);
			checkPair(name, &sphere, xfS, &capsule, xf, e);
			checkAxisRelation(name, &sphere, xfS, &capsule, xf, axis, true);

			// Cone (centre at mid height): base at h, slant at R h / sqrt(R^2 + 4 h^2).
			tbGeometry cone = tbMakeCone((float)R, (float)h);
			double slant = R * h / sqrt(R * R + 4.0 * h * h);
			e = expectSd(-(r + fmin(slant, h)), axis, false);
			e.sdTol = 1e-5;
			snprintf(name, sizeof name, "sphere in cone %d scale %g", i, scale);
			checkPair(name, &sphere, xfS, &cone, xf, e);
		}
	}
}

Test(degenerate, coaxial_cylinders_and_box)
{
	Rng rng = {22};
	for (int s = 0; s < 3; ++s) {
		double scale = s_scales[s];
		for (int i = 0; i < 12; ++i) {
			double R1 = (double)(float)(rngUniform(&rng, 0.2, 1) * scale);
			double h1 = (double)(float)(rngUniform(&rng, 0.2, 1) * scale);
			double R2 = (double)(float)(rngUniform(&rng, 0.2, 1) * scale);
			double h2 = (double)(float)(rngUniform(&rng, 0.2, 1) * scale);
			double shift = rngUniform(&rng, -0.3, 0.3) * scale;
			tbGeometry a = tbMakeCylinder((float)R1, (float)h1),
			           b = tbMakeCylinder((float)R2, (float)h2);
			tbTransform xfA = randomPose(&rng, scale);
			dvec axis = drotate(xfA.q, dv(0, 1, 0));
			// B upside down or not, moved along the common axis.
			versors flip = i % 2 == 0 ? quatIdentity() : quatAxisAngle(dv(1, 0, 0), M_PI);
			versors qB;
			glm_quat_mul((float*)xfA.q.raw, (float*)flip.raw, qB.raw);
			dvec pB = dadd(dvf(xfA.p), dscale(axis, shift));
			tbTransform xfB = xfMake(pB.x, pB.y, pB.z, qB);
			double radial = R1 + R2, axial = h1 + h2 - fabs(shift);
			Expect e = expectSd(-fmin(radial, axial), axis, false);
			e.sdTol = 1e-5;
			char name[96];
			snprintf(name, sizeof name, "coaxial cylinders %d scale %g", i, scale);
			checkPair(name, &a, xfA, &b, xfB, e);
			checkAxisRelation(name, &a, xfA, &b, xfB, axis, radial < axial);

			// A cylinder along the axis of a box, both centred: depth min(hx + R, hz + R,
			// hy + h) (h_box + h_cyl >= that over every direction).
			tbGeometry box =
			    tbMakeBox((float)R2, (float)h2, (float)(R2 * rngUniform(&rng, 1.0, 1.5)));
			dvec hb = dvf(box.halfExtents);
			double depth = fmin(fmin(hb.x + R1, hb.z + R1), hb.y + h1);
			e = expectSd(-depth, axis, false);
			e.sdTol = 1e-5;
			snprintf(name, sizeof name, "cylinder in a box %d scale %g", i, scale);
			checkPair(name, &a, xfA, &box, xfA, e);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Identical shapes at the same pose: A - B = K - K, depth = the minimum width of K.

// Minimum width of a point set: over the normals of point triples (the hull's faces) and the
// cross products of point-pair directions (its edge pairs), which hold every critical direction
// of the width of a polytope (Houle and Toussaint 1988).
static double minimumWidth(const vec3s* pts, int n)
{
	double best = INFINITY;
	dvec p[16];
	for (int i = 0; i < n; ++i) {
		p[i] = dvf(pts[i]);
	}
	dvec dirs[120];
	int nd = 0;
	for (int i = 0; i < n; ++i) {
		for (int j = i + 1; j < n; ++j) {
			dirs[nd++] = dsub(p[j], p[i]);
		}
	}
	for (int pass = 0; pass < 2; ++pass) {
		for (int x = 0; x < nd; ++x) {
			for (int y = x + 1; y < nd; ++y) {
				dvec u = dcross(dirs[x], dirs[y]);
				if (pass == 0 && x >= n) {
					break;
				}
				if (dnorm(u) < 1e-12) {
					continue;
				}
				u = dunit(u);
				double lo = INFINITY, hi = -INFINITY;
				for (int k = 0; k < n; ++k) {
					double d = ddot(u, p[k]);
					lo = fmin(lo, d);
					hi = fmax(hi, d);
				}
				best = fmin(best, hi - lo);
			}
		}
	}
	return best;
}

Test(degenerate, identical_shapes)
{
	Rng rng = {31};
	for (int s = 0; s < 3; ++s) {
		double scale = s_scales[s];
		for (int i = 0; i < 15; ++i) {
			int n = 4 + (int)rngUniform(&rng, 0, 6);
			vec3s pts[10];
			for (int k = 0; k < n; ++k) {
				pts[k] =
				    fvd(dv(rngUniform(&rng, -1, 1) * scale, rngUniform(&rng, -0.6, 0.6) * scale,
				           rngUniform(&rng, -0.3, 0.3) * scale));
			}
			tbHull hull = buildHull(pts, n);
			tbGeometry shape = tbMakeHullShape(&hull);
			tbTransform xf = randomPose(&rng, scale);
			Expect e = expectSd(-minimumWidth(pts, n), dv(0, 1, 0), false);
			e.sdTol = 1e-5;
			char name[96];
			snprintf(name, sizeof name, "identical hulls %d scale %g", i, scale);
			checkPair(name, &shape, xf, &shape, xf, e);
			tbDestroyHull(&hull);

			float h[3] = {(float)(rngUniform(&rng, 0.2, 1) * scale),
			              (float)(rngUniform(&rng, 0.2, 1) * scale),
			              (float)(rngUniform(&rng, 0.2, 1) * scale)};
			tbGeometry box = tbMakeBox(h[0], h[1], h[2]);
			e = expectSd(-2.0 * fmin(h[0], fmin(h[1], h[2])), dv(0, 1, 0), false);
			e.sdTol = 1e-5;
			snprintf(name, sizeof name, "identical boxes %d scale %g", i, scale);
			checkPair(name, &box, xf, &box, xf, e);

			tbGeometry cylinder = tbMakeCylinder(h[0], h[1]);
			e = expectSd(-2.0 * fmin(h[0], h[1]), dv(0, 1, 0), false);
			e.sdTol = 1e-5;
			snprintf(name, sizeof name, "identical cylinders %d scale %g", i, scale);
			checkPair(name, &cylinder, xf, &cylinder, xf, e);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Sizes across the supported range (docs/ranges.md: TB_MIN_LENGTH to TB_MAX_LENGTH): two boxes
// half overlapping (depth 1.5 half extents along x), apart, and a sphere against a cone. Both
// algorithms answer correctly and with finite results (under ASan/UBSan in scripts/test.sh;
// before, unified EPA read faces of a start tetrahedron that was never made). Beyond the range
// the shapes are refused (extreme_scale_pairs_are_refused).
Test(degenerate, extreme_scale_pairs)
{
	// (The cone is twice as tall as the size: 4e5 keeps it within TB_MAX_LENGTH.)
	const double sizes[] = {1e-6, 3e-6, 1e-5, 1e3, 1e5, 4e5};
	for (int i = 0; i < 6; ++i) {
		float h = (float)sizes[i];
		tbGeometry box = tbMakeBox(h, h, h);
		tbTransform xfA = xfMake(0, 0, 0, quatIdentity());
		tbTransform xfB = xfMake(0.5 * (double)h, 0, 0, quatIdentity());
		char name[64];
		snprintf(name, sizeof name, "boxes of %g m", sizes[i]);
		checkPair(name, &box, xfA, &box, xfB, expectSd(-1.5 * (double)h, dv(1, 0, 0), true));
		// Apart by half a size.
		tbTransform far = xfMake(2.5 * (double)h, 0.1 * (double)h, 0, quatIdentity());
		snprintf(name, sizeof name, "boxes of %g m apart", sizes[i]);
		checkPair(name, &box, xfA, &box, far, expectSd(0.5 * (double)h, dv(1, 0, 0), true));
		// A sphere and a cone, rotated.
		tbGeometry sphere = tbMakeSphere(h), cone = tbMakeCone(h, 2.0f * h);
		tbTransform xfC =
		    xfMake(0.5 * (double)h, 0.1 * (double)h, 0, quatAxisAngle(dv(1, 2, 3), 0.7));
		snprintf(name, sizeof name, "sphere and cone of %g m", sizes[i]);
		Expect e = expectOracle(&sphere, xfA, &cone, xfC, true);
		checkPair(name, &sphere, xfA, &cone, xfC, e);
	}
}

// Outside the supported range (the reliability reproducers: boxes of 1e-11 and 1e18 m) a pair is
// refused with a status, never answered with Inf or NaN.
Test(degenerate, extreme_scale_pairs_are_refused)
{
	const double sizes[] = {1e-20, 1e-11, 1e-7, 1e7, 1e18, 1e37};
	for (int i = 0; i < 6; ++i) {
		float h = (float)sizes[i];
		tbGeometry box = tbMakeBox(h, h, h);
		tbTransform xfA = xfMake(0, 0, 0, quatIdentity());
		tbTransform xfB = xfMake(0.5 * (double)h, 0, 0, quatIdentity());
		tbQueryDef def = tbDefaultQueryDef();
		tbQueryResult r = tbQueryShapes(&box, xfA, &box, xfB, &def);
		cr_expect_eq(r.status, tb_queryInvalidInput, "boxes of %g m: status %s", sizes[i],
		             tbQueryStatusName(r.status));
		cr_expect(finiteResult(&r), "boxes of %g m: non-finite fields", sizes[i]);
	}
}

// Beyond float's range the pair is refused with a status, never answered with Inf or NaN.
Test(degenerate, beyond_float_range_is_refused)
{
	tbGeometry box = tbMakeBox(3e38f, 3e38f, 3e38f);
	tbTransform xf = xfMake(0, 0, 0, quatIdentity());
	tbTransform xfB = xfMake(1e38, 0, 0, quatIdentity());
	tbQueryAlgorithm algos[2] = {tb_algorithmGjkEpa, tb_algorithmUnifiedEpa};
	for (int k = 0; k < 2; ++k) {
		tbQueryDef def = tbDefaultQueryDef();
		def.algorithm = algos[k];
		tbQueryResult r = tbQueryShapes(&box, xf, &box, xfB, &def);
		cr_expect_eq(r.status, tb_queryInvalidInput, "[%s]: status %s", algoName(algos[k]),
		             tbQueryStatusName(r.status));
		cr_expect(finiteResult(&r), "[%s]: non-finite fields", algoName(algos[k]));
	}
}
