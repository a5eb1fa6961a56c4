// Support functions of every shape against brute force (max over dense surface samples), the
// scale rule of the AtlasPhys notes, bounds, and tbGeometry_Validate messages.
#include "narrow_oracle.h"
#include "random.h"

#include <criterion/criterion.h>
#include <string.h>
#include <tumble/tumble.h>

/// Dense samples of a shape's surface (unscaled, local frame); returns the count.
static int surfaceSamples(const tbGeometry* s, dvec* out, int cap)
{
	int n = 0;
	switch (s->type) {
	case tb_sphereShape:
		for (int i = 0; i < 4000 && n < cap; ++i) {
			out[n++] = dscale(fibonacciDir(i, 4000), (double)s->radius);
		}
		break;
	case tb_boxShape: {
		// The corners carry the maximum of any linear function: include them, plus a face grid.
		dvec h = dvf(s->halfExtents);
		for (int i = 0; i < 8; ++i) {
			out[n++] = dv(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
		}
		for (int i = 0; i <= 10; ++i) {
			for (int j = 0; j <= 10; ++j) {
				double u = -1 + 0.2 * i, v = -1 + 0.2 * j;
				out[n++] = dv(h.x, u * h.y, v * h.z);
				out[n++] = dv(u * h.x, -h.y, v * h.z);
				out[n++] = dv(u * h.x, v * h.y, -h.z);
			}
		}
		break;
	}
	case tb_capsuleShape:
	case tb_cylinderShape:
	case tb_coneShape: {
		double r = (double)s->round.radius, hh = (double)s->round.halfHeight;
		for (int i = 0; i < 720; ++i) {
			double phi = 2 * M_PI * i / 720.0;
			for (int j = 0; j <= 20; ++j) {
				double t = j / 20.0;
				if (s->type == tb_capsuleShape) {
					// Side, and both hemispheres (latitude t * 90 degrees).
					out[n++] = dv(r * cos(phi), -hh + 2 * hh * t, r * sin(phi));
					double lat = t * M_PI / 2;
					out[n++] =
					    dv(r * cos(lat) * cos(phi), hh + r * sin(lat), r * cos(lat) * sin(phi));
					out[n++] =
					    dv(r * cos(lat) * cos(phi), -hh - r * sin(lat), r * cos(lat) * sin(phi));
				} else if (s->type == tb_cylinderShape) {
					out[n++] = dv(r * cos(phi), -hh + 2 * hh * t, r * sin(phi));
					out[n++] = dv(r * t * cos(phi), hh, r * t * sin(phi));
					out[n++] = dv(r * t * cos(phi), -hh, r * t * sin(phi));
				} else {
					out[n++] = dv(r * t * cos(phi), hh - 2 * hh * t, r * t * sin(phi));
					out[n++] = dv(r * t * cos(phi), -hh, r * t * sin(phi));
				}
			}
		}
		break;
	}
	case tb_triangleShape:
		for (int i = 0; i < 3; ++i) {
			out[n++] = dvf(s->vertices[i]);
		}
		break;
	case tb_hullShape:
		for (int i = 0; i < s->hull->vertexCount; ++i) {
			out[n++] = dvf(s->hull->vertices[i]);
		}
		break;
	default:
		break;
	}
	// Apply the scale: S * shape.
	dvec sc = dvf(s->scale);
	for (int i = 0; i < n; ++i) {
		out[i] = dv(out[i].x * sc.x, out[i].y * sc.y, out[i].z * sc.z);
	}
	return n;
}

/// Support value along d must reach the best surface sample (never less) and exceed it by at
/// most the sampling error; the support point must itself be in the shape.
static void checkSupport(const char* name, const tbGeometry* s, double sampleTol)
{
	enum
	{
		cap = 50000
	};
	dvec* pts = malloc(sizeof(dvec) * cap);
	cr_assert_not_null(pts);
	int n = surfaceSamples(s, pts, cap);
	cr_assert(n > 0);
	double size = (double)tbGeometry_BoundingRadius(s);
	int bad = 0;
	for (int i = 0; i < 500; ++i) {
		dvec d = fibonacciDir(i, 500);
		double best = -INFINITY;
		for (int k = 0; k < n; ++k) {
			double v = ddot(pts[k], d);
			best = v > best ? v : best;
		}
		// A non-unit direction: the support must not depend on |d|.
		vec3s df = fvd(dscale(d, 3.7));
		dvec p = dvf(tbGeometry_Support(s, df, NULL));
		double h = ddot(p, d);
		double out = outsideDistance(s, tbTransformIdentity(), p);
		bool ok = h >= best - 1e-6 * size && h <= best + sampleTol * size && out <= 1e-5 * size;
		if (!ok && ++bad <= 5) {
			cr_expect(ok, "%s: d (%g %g %g): support %.9g, samples %.9g, point outside by %.3g",
			          name, d.x, d.y, d.z, h, best, out);
		}
	}
	cr_expect(bad == 0, "%s: %d of 500 directions wrong", name, bad);
	free(pts);
}

Test(shape, support_vs_brute_force)
{
	tbGeometry sphere = tbMakeSphere(0.7f);
	checkSupport("sphere", &sphere, 1e-3);
	tbGeometry box = tbMakeBox(0.3f, 0.5f, 0.2f);
	checkSupport("box", &box, 1e-6); // corners are sampled: exact
	tbGeometry capsule = tbMakeCapsule(0.25f, 0.6f);
	checkSupport("capsule", &capsule, 2e-3);
	tbGeometry cylinder = tbMakeCylinder(0.4f, 0.3f);
	checkSupport("cylinder", &cylinder, 1e-4); // rim circle sampled every 0.5 degrees
	tbGeometry cone = tbMakeCone(0.4f, 0.5f);
	checkSupport("cone", &cone, 1e-4);
	tbGeometry tri = tbMakeTriangle((vec3s){{0.1f, 0.2f, -0.3f}}, (vec3s){{-0.5f, 0.0f, 0.4f}},
	                                (vec3s){{0.6f, -0.2f, 0.1f}});
	checkSupport("triangle", &tri, 1e-6);
	// Scaled shapes: S * shape.
	tbGeometry ell = tbMakeSphere(1.0f);
	ell.scale = (vec3s){{0.5f, 1.5f, 0.8f}};
	checkSupport("ellipsoid", &ell, 2e-3);
	tbGeometry sbox = box;
	sbox.scale = (vec3s){{2.0f, 0.5f, 1.0f}};
	checkSupport("scaled box", &sbox, 1e-6);
	tbGeometry scyl = cylinder;
	scyl.scale = (vec3s){{1.0f, 2.0f, 0.5f}};
	checkSupport("scaled cylinder", &scyl, 1e-3);
	tbGeometry scap = capsule;
	scap.scale = (vec3s){{1.5f, 1.5f, 1.5f}};
	checkSupport("uniformly scaled capsule", &scap, 2e-3);

	vec3s pts[20];
	Rng rng = {3};
	for (int i = 0; i < 20; ++i) {
		pts[i] = fvd(dscale(rngUnit(&rng), rngUniform(&rng, 0.2, 0.6)));
	}
	tbHull hull;
	tbHullError err = tbBuildHull(pts, 20, &hull, NULL);
	cr_expect(err == tb_hullOk, "tbBuildHull: %s", tbHullErrorString(err));
	if (err == tb_hullOk) {
		tbGeometry hs = tbMakeHullShape(&hull);
		checkSupport("hull", &hs, 1e-6);
		// Every input point lies inside the hull (support value never below a point's).
		for (int i = 0; i < 20; ++i) {
			double out = outsideDistance(&hs, tbTransformIdentity(), dvf(pts[i]));
			cr_expect(out <= 1e-6, "hull: input point %d outside by %.3g", i, out);
		}
		tbDestroyHull(&hull);
	}
}

// The AtlasPhys notes: the support of S * sphere along d is S * support(S d): for a unit sphere
// that is S^2 d / |S d|, the ellipsoid's exact support point.
Test(shape, ellipsoid_support_formula)
{
	tbGeometry ell = tbMakeSphere(2.0f);
	ell.scale = (vec3s){{0.5f, 1.5f, 0.8f}};
	for (int i = 0; i < 200; ++i) {
		dvec d = fibonacciDir(i, 200);
		dvec sd = dv(0.5 * d.x, 1.5 * d.y, 0.8 * d.z);
		dvec expect = dscale(dv(0.5 * sd.x, 1.5 * sd.y, 0.8 * sd.z), 2.0 / dnorm(sd));
		dvec p = dvf(tbGeometry_Support(&ell, fvd(d), NULL));
		cr_expect(dnorm(dsub(p, expect)) < 1e-6 * 3.0, "ellipsoid support (%g %g %g) vs (%g %g %g)",
		          p.x, p.y, p.z, expect.x, expect.y, expect.z);
	}
}

Test(shape, feature_indices)
{
	tbGeometry box = tbMakeBox(1, 2, 3);
	for (int i = 0; i < 8; ++i) {
		vec3s d = {{i & 1 ? -1.0f : 1.0f, i & 2 ? -1.0f : 1.0f, i & 4 ? -1.0f : 1.0f}};
		int f0 = -2, f1 = -2;
		tbGeometry_Support(&box, d, &f0);
		tbGeometry_Support(&box, glms_vec3_scale(d, 5.0f), &f1);
		cr_expect(f0 >= 0 && f0 < 8 && f0 == f1, "box corner index %d / %d", f0, f1);
		for (int j = 0; j < i; ++j) {
			vec3s dj = {{j & 1 ? -1.0f : 1.0f, j & 2 ? -1.0f : 1.0f, j & 4 ? -1.0f : 1.0f}};
			int fj;
			tbGeometry_Support(&box, dj, &fj);
			cr_expect(fj != f0, "two box corners share index %d", f0);
		}
	}
	tbGeometry cone = tbMakeCone(0.5f, 1.0f);
	int apex = -2;
	vec3s p = tbGeometry_Support(&cone, (vec3s){{0.0f, 1.0f, 0.0f}}, &apex);
	cr_expect(apex >= 0 && fabsf(p.y - 1.0f) < 1e-6f, "cone apex index %d at y %g", apex,
	          (double)p.y);
	tbGeometry sphere = tbMakeSphere(1.0f);
	int smooth = 7;
	tbGeometry_Support(&sphere, (vec3s){{1.0f, 2.0f, 3.0f}}, &smooth);
	cr_expect(smooth == -1, "sphere support index %d, expected -1 (smooth)", smooth);
	// d = 0 is allowed and gives a point of the shape.
	vec3s z = tbGeometry_Support(&sphere, (vec3s){{0.0f, 0.0f, 0.0f}}, NULL);
	cr_expect(isfinite(z.x) && fabs(dnorm(dvf(z)) - 1.0) < 1e-6, "support along 0");
}

Test(shape, bounds_and_aabb)
{
	tbGeometry shapes[5] = {tbMakeSphere(0.5f), tbMakeBox(0.3f, 0.4f, 0.5f),
	                        tbMakeCapsule(0.2f, 0.7f), tbMakeCylinder(0.3f, 0.2f),
	                        tbMakeCone(0.6f, 0.3f)};
	shapes[0].scale = (vec3s){{1.0f, 2.0f, 0.5f}};
	tbTransform xf = tbMakeTransform((vec3s){{1.0f, -2.0f, 0.5f}}, quatAxisAngle(dv(1, 2, 3), 0.9));
	for (int i = 0; i < 5; ++i) {
		enum
		{
			cap = 50000
		};
		dvec* pts = malloc(sizeof(dvec) * cap);
		cr_assert_not_null(pts);
		int n = surfaceSamples(&shapes[i], pts, cap);
		double rmax = 0.0;
		dvec lo = dv(INFINITY, INFINITY, INFINITY), hi = dv(-INFINITY, -INFINITY, -INFINITY);
		for (int k = 0; k < n; ++k) {
			rmax = fmax(rmax, dnorm(pts[k]));
			dvec w = dxfPoint(xf, pts[k]);
			lo = dv(fmin(lo.x, w.x), fmin(lo.y, w.y), fmin(lo.z, w.z));
			hi = dv(fmax(hi.x, w.x), fmax(hi.y, w.y), fmax(hi.z, w.z));
		}
		const char* name = tbShapeTypeName(shapes[i].type);
		double r = (double)tbGeometry_BoundingRadius(&shapes[i]);
		cr_expect(r >= rmax - 1e-6, "%s: bounding radius %g < farthest point %g", name, r, rmax);
		tbAABB box = tbGeometry_ComputeAABB(&shapes[i], xf);
		double tol = 3e-3 * r; // sampling error of curved surfaces
		cr_expect(
		    fabs((double)box.lower.x - lo.x) < tol && fabs((double)box.lower.y - lo.y) < tol &&
		        fabs((double)box.lower.z - lo.z) < tol && fabs((double)box.upper.x - hi.x) < tol &&
		        fabs((double)box.upper.y - hi.y) < tol && fabs((double)box.upper.z - hi.z) < tol,
		    "%s: AABB (%g %g %g)-(%g %g %g) vs samples (%g %g %g)-(%g %g %g)", name,
		    (double)box.lower.x, (double)box.lower.y, (double)box.lower.z, (double)box.upper.x,
		    (double)box.upper.y, (double)box.upper.z, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
		free(pts);
	}
}

// The largest distance of box `got`'s faces from the bounds lo, hi worked out in double.
static double boundsError(tbAABB got, dvec lo, dvec hi)
{
	return fmax(fmax(fmax(fabs((double)got.lower.x - lo.x), fabs((double)got.lower.y - lo.y)),
	                 fmax(fabs((double)got.lower.z - lo.z), fabs((double)got.upper.x - hi.x))),
	            fmax(fabs((double)got.upper.y - hi.y), fabs((double)got.upper.z - hi.z)));
}

// The largest distance of box `got`'s faces from the reach of g's support points along the world
// axes both ways, g placed at xf (the six-support form of the bounds).
static double supportReachError(const tbGeometry* g, tbTransform xf, tbAABB got)
{
	double worst = 0.0;
	for (int axis = 0; axis < 3; ++axis) {
		vec3s d = {{0.0f, 0.0f, 0.0f}};
		d.raw[axis] = 1.0f;
		vec3s local = tbInvRotateVector(xf.q, d);
		float up = glms_vec3_dot(tbGeometry_Support(g, local, NULL), local);
		float down = glms_vec3_dot(tbGeometry_Support(g, glms_vec3_negate(local), NULL), local);
		worst =
		    fmax(worst, fmax(fabs((double)got.upper.raw[axis] - (double)(xf.p.raw[axis] + up)),
		                     fabs((double)got.lower.raw[axis] - (double)(xf.p.raw[axis] + down))));
	}
	return worst;
}

// A box's bounds are worked out in closed form (the reach sum |u_i| h_i s_i along each axis): they
// must be the box's eight corners' extremes (placed in double), and the same bits as the reach from
// its two support points, for turned, non-uniformly scaled boxes of many sizes.
Test(shape, box_aabb_is_its_corners_and_its_supports)
{
	uint32_t seed = 12345u;
	double worst = 0.0;
	int differ = 0;
	for (int trial = 0; trial < 2000; ++trial) {
		float u[10];
		tbRandomUniforms(&seed, u, 10);
		float size = powf(10.0f, 4.0f * u[0] - 2.0f); // 0.01 m to 100 m
		tbGeometry box =
		    tbMakeBox(size * (0.1f + u[1]), size * (0.1f + u[2]), size * (0.1f + u[3]));
		box.scale = (vec3s){{0.5f + u[4], 0.5f + u[5], 0.5f + u[6]}};
		tbTransform xf = tbMakeTransform(
		    (vec3s){{10.0f * u[7] - 5.0f, 10.0f * u[8] - 5.0f, 3.0f}},
		    quatAxisAngle(dv((double)u[1] - 0.5, (double)u[5] - 0.5, (double)u[9] - 0.5),
		                  6.0 * (double)u[9]));
		tbAABB got = tbGeometry_ComputeAABB(&box, xf);
		vec3s h = {{box.halfExtents.x * box.scale.x, box.halfExtents.y * box.scale.y,
		            box.halfExtents.z * box.scale.z}};
		dvec lo = dv(INFINITY, INFINITY, INFINITY), hi = dv(-INFINITY, -INFINITY, -INFINITY);
		for (int c = 0; c < 8; ++c) {
			dvec w =
			    dxfPoint(xf, dv((c & 1) ? h.x : -h.x, (c & 2) ? h.y : -h.y, (c & 4) ? h.z : -h.z));
			lo = dv(fmin(lo.x, w.x), fmin(lo.y, w.y), fmin(lo.z, w.z));
			hi = dv(fmax(hi.x, w.x), fmax(hi.y, w.y), fmax(hi.z, w.z));
		}
		double extent = dnorm(dv(h.x, h.y, h.z));
		worst = fmax(worst, boundsError(got, lo, hi) / (extent + 5.0));
		// The second method: along each world axis, the box's support point's reach both ways.
		for (int axis = 0; axis < 3; ++axis) {
			vec3s d = {{0.0f, 0.0f, 0.0f}};
			d.raw[axis] = 1.0f;
			vec3s local = tbInvRotateVector(xf.q, d);
			float up = glms_vec3_dot(tbGeometry_Support(&box, local, NULL), local);
			float down =
			    glms_vec3_dot(tbGeometry_Support(&box, glms_vec3_negate(local), NULL), local);
			differ += got.upper.raw[axis] != xf.p.raw[axis] + up;
			differ += got.lower.raw[axis] != xf.p.raw[axis] + down;
		}
	}
	// Float placement of a point within (extent + |position|): a few float epsilons of it.
	cr_expect(worst < 1e-6, "box bounds off their corners by %g of their size", worst);
	cr_expect_eq(differ, 0, "%d box bounds differ from their support points' reach", differ);
}

// An unscaled sphere's and capsule's bounds are worked out in closed form (the centre +- r; the
// core's turned half axis |u_i| plus r): they must be the exact bounds worked out in double (the
// capsule's two end balls), and within float rounding of the reach of the support points along
// the world axes, for turned capsules and spheres of many sizes.
Test(shape, ball_and_capsule_aabb_are_their_end_balls_and_their_supports)
{
	uint32_t seed = 777u;
	double worst = 0.0, worstSupport = 0.0;
	for (int trial = 0; trial < 2000; ++trial) {
		float u[8];
		tbRandomUniforms(&seed, u, 8);
		float r = 0.01f + 2.0f * u[0], hh = trial % 2 == 0 ? 0.0f : 0.01f + 3.0f * u[1];
		tbGeometry g = trial % 2 == 0 ? tbMakeSphere(r) : tbMakeCapsule(r, hh);
		tbTransform xf = tbMakeTransform(
		    (vec3s){{20.0f * u[2] - 10.0f, 20.0f * u[3] - 10.0f, 20.0f * u[4] - 10.0f}},
		    quatAxisAngle(dv((double)u[5] - 0.5, (double)u[6] - 0.5, (double)u[7] - 0.3),
		                  6.0 * (double)u[7]));
		tbAABB got = tbGeometry_ComputeAABB(&g, xf);
		// The segment's ends placed in double, each grown by r.
		dvec e0 = dxfPoint(xf, dv(0.0, -(double)hh, 0.0)), e1 = dxfPoint(xf, dv(0.0, hh, 0.0));
		double rd = (double)r;
		dvec lo = dv(fmin(e0.x, e1.x) - rd, fmin(e0.y, e1.y) - rd, fmin(e0.z, e1.z) - rd);
		dvec hi = dv(fmax(e0.x, e1.x) + rd, fmax(e0.y, e1.y) + rd, fmax(e0.z, e1.z) + rd);
		double size = (double)(r + hh) + 20.0;
		worst = fmax(worst, boundsError(got, lo, hi) / size);
		worstSupport = fmax(worstSupport, supportReachError(&g, xf, got) / size);
	}
	printf("SCENE ball and capsule bounds: off the end balls by %.2e, off the supports by %.2e of "
	       "their size\n",
	       worst, worstSupport);
	cr_expect(worst < 1e-6, "ball and capsule bounds off their end balls by %g of their size",
	          worst);
	cr_expect(worstSupport < 1e-6, "ball and capsule bounds off their supports by %g",
	          worstSupport);
}

// A hull's bounds come from one pass over its placed vertices: they must be its vertices'
// extremes placed in double, and within float rounding of the reach of its support points along
// the world axes (the six-support form), for turned, non-uniformly scaled hulls of many sizes.
Test(shape, hull_aabb_is_its_vertices_and_its_supports)
{
	uint32_t seed = 4242u;
	double worst = 0.0, worstSupport = 0.0;
	for (int trial = 0; trial < 300; ++trial) {
		float u[12];
		tbRandomUniforms(&seed, u, 12);
		float size = powf(10.0f, 4.0f * u[0] - 2.0f); // 0.01 m to 100 m
		vec3s points[24];
		for (int k = 0; k < 24; ++k) {
			float r[3];
			tbRandomUniforms(&seed, r, 3);
			points[k] = (vec3s){{size * (r[0] - 0.5f), size * (r[1] - 0.5f), size * (r[2] - 0.5f)}};
		}
		tbHull hull;
		cr_assert_eq(tbBuildHull(points, 24, &hull, NULL), tb_hullOk);
		tbGeometry g = tbMakeHullShape(&hull);
		g.scale = (vec3s){{0.5f + u[4], 0.5f + u[5], 0.5f + u[6]}};
		tbTransform xf = tbMakeTransform(
		    (vec3s){{10.0f * u[7] - 5.0f, 10.0f * u[8] - 5.0f, 3.0f}},
		    quatAxisAngle(dv((double)u[1] - 0.5, (double)u[10] - 0.5, (double)u[9] - 0.5),
		                  6.0 * (double)u[11]));
		tbAABB got = tbGeometry_ComputeAABB(&g, xf);
		dvec lo = dv(INFINITY, INFINITY, INFINITY), hi = dv(-INFINITY, -INFINITY, -INFINITY);
		for (int k = 0; k < hull.vertexCount; ++k) {
			vec3s v = hull.vertices[k];
			dvec w =
			    dxfPoint(xf, dv((double)v.x * (double)g.scale.x, (double)v.y * (double)g.scale.y,
			                    (double)v.z * (double)g.scale.z));
			lo = dv(fmin(lo.x, w.x), fmin(lo.y, w.y), fmin(lo.z, w.z));
			hi = dv(fmax(hi.x, w.x), fmax(hi.y, w.y), fmax(hi.z, w.z));
		}
		double extent = (double)tbGeometry_BoundingRadius(&g) + 5.0;
		worst = fmax(worst, boundsError(got, lo, hi) / extent);
		worstSupport = fmax(worstSupport, supportReachError(&g, xf, got) / extent);
		tbDestroyHull(&hull);
	}
	cr_expect(worst < 1e-6, "hull bounds off their vertices by %g of their size", worst);
	cr_expect(worstSupport < 1e-6, "hull bounds off their supports' reach by %g of their size",
	          worstSupport);
}

static void expectInvalid(const tbGeometry* s, const char* field)
{
	char message[128] = "";
	bool ok = tbGeometry_Validate(s, message, sizeof message);
	cr_expect(!ok, "shape with bad %s accepted", field);
	cr_expect(strstr(message, field) != NULL, "message \"%s\" does not name \"%s\"", message,
	          field);
}

Test(shape, validate_messages)
{
	tbGeometry good[6] = {
	    tbMakeSphere(1),
	    tbMakeBox(1, 2, 3),
	    tbMakeCapsule(0.5f, 0.0f),
	    tbMakeCylinder(0.5f, 1),
	    tbMakeCone(0.5f, 1),
	    tbMakeTriangle((vec3s){{0, 0, 0}}, (vec3s){{1, 0, 0}}, (vec3s){{0, 1, 0}})};
	for (int i = 0; i < 6; ++i) {
		char message[64] = "untouched";
		cr_expect(tbGeometry_Validate(&good[i], message, sizeof message), "%s rejected: %s",
		          tbShapeTypeName(good[i].type), message);
	}
	tbGeometry s = tbMakeSphere(NAN);
	expectInvalid(&s, "radius");
	s = tbMakeSphere(-1.0f);
	expectInvalid(&s, "radius");
	s = tbMakeBox(1.0f, -0.5f, 1.0f);
	expectInvalid(&s, "half extents");
	s = tbMakeBox(1.0f, 0.0f, 1.0f);
	expectInvalid(&s, "half extents");
	s = tbMakeBox(INFINITY, 1.0f, 1.0f);
	expectInvalid(&s, "half extents");
	s = tbMakeCapsule(0.5f, NAN);
	expectInvalid(&s, "half height");
	s = tbMakeCylinder(-0.5f, 1.0f);
	expectInvalid(&s, "radius");
	s = tbMakeCone(0.5f, -1.0f);
	expectInvalid(&s, "half height");
	s = tbMakeTriangle((vec3s){{0, NAN, 0}}, (vec3s){{1, 0, 0}}, (vec3s){{0, 1, 0}});
	expectInvalid(&s, "triangle vertex");
	s = tbMakeSphere(1.0f);
	s.scale.y = 0.0f;
	expectInvalid(&s, "scale");
	s = tbMakeHullShape(NULL);
	expectInvalid(&s, "hull");
	// A null message buffer is allowed.
	cr_expect(!tbGeometry_Validate(&s, NULL, 0));
}
