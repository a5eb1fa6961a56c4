// Narrow-phase queries against analytic answers: spheres, capsules, boxes (SAT), cylinders, cones,
// ellipsoids and triangles. Every case runs with GJK+EPA and unified EPA, swapped, and placed in
// three world frames (the answers must rotate with the frame).
#include "narrow_oracle.h"

#include <criterion/criterion.h>
#include <tumble/tumble.h>

// ---------------------------------------------------------------------------------------------
// World frames: each scene is built in a canonical frame and then placed by each of these.

typedef struct World
{
	versors q;
	dvec p;
} World;

static World worldFrame(int i)
{
	World w = {quatIdentity(), dv(0, 0, 0)};
	if (i == 1) {
		w.q = quatAxisAngle(dv(0.3, -0.5, 0.8), 0.7);
		w.p = dv(0.5, -1.2, 2.0);
	} else if (i == 2) {
		w.q = quatAxisAngle(dv(-1.0, 0.2, 0.4), 2.5);
		w.p = dv(-3.0, 0.7, 1.1);
	}
	return w;
}

static tbTransform placeIn(World w, tbTransform xf)
{
	dvec p = dadd(drotate(w.q, dvf(xf.p)), w.p);
	return tbMakeTransform(fvd(p), glms_quat_mul(w.q, xf.q));
}

/// The canonical case and its two re-placed copies: same sd, normal rotated with the frame.
static void checkScene(const char* name, const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                       tbTransform xfB, Expect e)
{
	for (int i = 0; i < 3; ++i) {
		World w = worldFrame(i);
		Expect ew = e;
		ew.normal = drotate(w.q, e.normal);
		char label[128];
		snprintf(label, sizeof label, "%s, world %d", name, i);
		checkPair(label, a, placeIn(w, xfA), b, placeIn(w, xfB), ew);
	}
}

/// |p - centre| = r for a witness on a sphere.
static void checkOnSphere(const char* name, dvec p, dvec centre, double r, double L)
{
	double off = fabs(dnorm(dsub(p, centre)) - r);
	cr_expect(off <= 1e-4 * L, "%s: witness %.3g L off the sphere", name, off / L);
}

static tbTransform at(double x, double y, double z)
{
	return xfMake(x, y, z, quatIdentity());
}

static tbTransform atq(double x, double y, double z, dvec axis, double angle)
{
	return xfMake(x, y, z, quatAxisAngle(axis, angle));
}

// ---------------------------------------------------------------------------------------------
// Spheres

Test(narrowphase, sphere_sphere)
{
	tbGeometry a = tbMakeSphere(0.5f), b = tbMakeSphere(0.3f);
	// (centre of B, label): sd = |c| - rA - rB, n = c / |c|.
	struct
	{
		dvec c;
		const char* name;
	} cases[] = {
	    {{1.2, 0.4, -0.6}, "sphere-sphere apart"},
	    {{0.6, 0.2, -0.3}, "sphere-sphere overlap"},
	    {{0.06, 0.02, -0.03}, "sphere-sphere deep"},
	    {{0.8, 0.0, 0.0}, "sphere-sphere touching"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		dvec c = cases[i].c;
		Expect e = expectSd(dnorm(c) - 0.8, c, true);
		tbTransform xfB = atq(c.x, c.y, c.z, dv(1, 1, 0), 0.3);
		checkScene(cases[i].name, &a, at(0, 0, 0), &b, xfB, e);
		for (int k = 0; k < 2; ++k) {
			tbQueryDef def = tbDefaultQueryDef();
			def.algorithm = k == 0 ? tb_algorithmGjkEpa : tb_algorithmUnifiedEpa;
			tbQueryResult r = tbQueryShapes(&a, at(0, 0, 0), &b, xfB, &def);
			double L = pairScale(&a, at(0, 0, 0), &b, xfB);
			checkOnSphere(cases[i].name, dvf(r.pointA), dv(0, 0, 0), 0.5, L);
			checkOnSphere(cases[i].name, dvf(r.pointB), c, 0.3, L);
		}
	}
}

/// Sphere (radius r, centre c in the box frame) against a box of half extents h: the closest
/// point is the clamped centre when outside; inside, the nearest face decides.
static Expect sphereBoxExpected(dvec h, dvec c, double r)
{
	dvec q = dv(fmin(fmax(c.x, -h.x), h.x), fmin(fmax(c.y, -h.y), h.y), fmin(fmax(c.z, -h.z), h.z));
	dvec d = dsub(c, q);
	if (dnorm(d) > 0.0) {
		return expectSd(dnorm(d) - r, d, true);
	}
	double gx = h.x - fabs(c.x), gy = h.y - fabs(c.y), gz = h.z - fabs(c.z);
	if (gx <= gy && gx <= gz) {
		return expectSd(-(gx + r), dv(c.x >= 0 ? 1 : -1, 0, 0), true);
	}
	if (gy <= gz) {
		return expectSd(-(gy + r), dv(0, c.y >= 0 ? 1 : -1, 0), true);
	}
	return expectSd(-(gz + r), dv(0, 0, c.z >= 0 ? 1 : -1), true);
}

Test(narrowphase, sphere_box_regions)
{
	dvec h = dv(1.0, 0.5, 0.75);
	tbGeometry box = tbMakeBox((float)h.x, (float)h.y, (float)h.z);
	tbGeometry ball = tbMakeSphere(0.3f);
	struct
	{
		dvec c;
		const char* name;
	} cases[] = {
	    {{0.2, 0.7, 0.1}, "sphere-box face overlap"},
	    {{0.2, 1.1, 0.1}, "sphere-box face apart"},
	    {{1.2, 0.6, 0.1}, "sphere-box edge overlap"},
	    {{1.3, 0.8, 0.1}, "sphere-box edge apart"},
	    {{1.1, 0.6, 0.85}, "sphere-box corner overlap"},
	    {{1.3, 0.8, 1.05}, "sphere-box corner apart"},
	    {{0.1, 0.3, 0.0}, "sphere-box centre inside"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		Expect e = sphereBoxExpected(h, cases[i].c, 0.3);
		dvec c = cases[i].c;
		checkScene(cases[i].name, &box, at(0, 0, 0), &ball, at(c.x, c.y, c.z), e);
	}
}

// ---------------------------------------------------------------------------------------------
// Capsules: segment distance minus the radii (valid while the segments do not meet).

static void capsuleEnds(tbTransform xf, double hh, dvec* p, dvec* q)
{
	*p = dxfPoint(xf, dv(0, -hh, 0));
	*q = dxfPoint(xf, dv(0, hh, 0));
}

static void checkCapsules(const char* name, double rA, double hhA, tbTransform xfA, double rB,
                          double hhB, tbTransform xfB)
{
	tbGeometry a = tbMakeCapsule((float)rA, (float)hhA), b = tbMakeCapsule((float)rB, (float)hhB);
	dvec p1, q1, p2, q2, c1, c2;
	capsuleEnds(xfA, hhA, &p1, &q1);
	capsuleEnds(xfB, hhB, &p2, &q2);
	double d = segmentDistance(p1, q1, p2, q2, &c1, &c2);
	cr_assert(d > 1e-3, "%s: the test needs the cores apart", name);
	checkScene(name, &a, xfA, &b, xfB, expectSd(d - rA - rB, dsub(c2, c1), true));
}

Test(narrowphase, capsule_capsule)
{
	dvec zAxis = dv(0, 0, 1);
	// Parallel side by side: normal perpendicular to the axes (witnesses not unique).
	checkCapsules("capsules parallel apart", 0.2, 0.5, at(0, 0, 0), 0.25, 0.4, at(0.6, 0.3, 0));
	checkCapsules("capsules parallel overlap", 0.2, 0.5, at(0, 0, 0), 0.25, 0.4, at(0.35, 0.3, 0));
	// Crossing at right angles, one above the other.
	checkCapsules("capsules crossing apart", 0.2, 0.5, at(0, 0, 0), 0.25, 0.4,
	              atq(0.1, 0.2, 0.5, zAxis, M_PI / 2));
	checkCapsules("capsules crossing overlap", 0.2, 0.5, at(0, 0, 0), 0.25, 0.4,
	              atq(0.1, 0.2, 0.35, zAxis, M_PI / 2));
	// Collinear, end to end: the gap is along the common axis.
	checkCapsules("capsules collinear apart", 0.2, 0.5, at(0, 0, 0), 0.25, 0.4, at(0, 1.45, 0));
	checkCapsules("capsules collinear overlap", 0.2, 0.5, at(0, 0, 0), 0.25, 0.4, at(0, 1.25, 0));
	// Skew.
	checkCapsules("capsules skew apart", 0.2, 0.5, atq(0, 0, 0, dv(0, 0, 1), 0.2), 0.15, 0.6,
	              atq(0.5, 0.2, 0.45, dv(1, 1, 0), 0.9));
	checkCapsules("capsules skew overlap", 0.2, 0.5, atq(0, 0, 0, dv(0, 0, 1), 0.2), 0.15, 0.6,
	              atq(0.25, 0.2, 0.2, dv(1, 1, 0), 0.9));
}

Test(narrowphase, capsule_sphere)
{
	tbGeometry cap = tbMakeCapsule(0.2f, 0.5f), ball = tbMakeSphere(0.3f);
	struct
	{
		dvec c;
		const char* name;
	} cases[] = {
	    {{0.45, 0.1, 0.0}, "capsule-sphere side overlap"},
	    {{0.6, -0.2, 0.3}, "capsule-sphere side apart"},
	    {{0.1, 0.9, 0.1}, "capsule-sphere end overlap"},
	    {{0.0, 1.2, 0.0}, "capsule-sphere end apart"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		dvec c = cases[i].c;
		// Closest point of the axis segment to the centre.
		dvec q = dv(0, fmin(fmax(c.y, -0.5), 0.5), 0);
		Expect e = expectSd(dnorm(dsub(c, q)) - 0.5, dsub(c, q), true);
		checkScene(cases[i].name, &cap, at(0, 0, 0), &ball, at(c.x, c.y, c.z), e);
	}
}

// ---------------------------------------------------------------------------------------------
// Boxes

Test(narrowphase, box_box_face_face)
{
	// Boxes with the same rotation: in A's frame they are axis aligned and the depth is the
	// smallest overlap along the three axes; apart with overlapping footprints the distance is
	// the gap along the one separating axis.
	tbGeometry a = tbMakeBox(1.0f, 0.5f, 0.75f), b = tbMakeBox(0.4f, 0.3f, 0.2f);
	checkScene("box-box face overlap", &a, at(0, 0, 0), &b, at(0.3, 0.75, -0.2),
	           expectSd(-0.05, dv(0, 1, 0), true));
	checkScene("box-box face apart", &a, at(0, 0, 0), &b, at(0.3, 0.9, -0.2),
	           expectSd(0.1, dv(0, 1, 0), true));
	checkScene("box-box face overlap -x", &a, at(0, 0, 0), &b, at(-1.3, 0.1, 0.3),
	           expectSd(-0.1, dv(-1, 0, 0), true));

	// Random overlapping axis-aligned pairs against the min-overlap rule.
	Rng rng = {12345};
	for (int i = 0; i < 40; ++i) {
		dvec ha = dv(rngUniform(&rng, 0.1, 1), rngUniform(&rng, 0.1, 1), rngUniform(&rng, 0.1, 1));
		dvec hb = dv(rngUniform(&rng, 0.1, 1), rngUniform(&rng, 0.1, 1), rngUniform(&rng, 0.1, 1));
		dvec c =
		    dv(rngUniform(&rng, -1, 1) * (ha.x + hb.x), rngUniform(&rng, -1, 1) * (ha.y + hb.y),
		       rngUniform(&rng, -1, 1) * (ha.z + hb.z));
		double ov[3] = {ha.x + hb.x - fabs(c.x), ha.y + hb.y - fabs(c.y), ha.z + hb.z - fabs(c.z)};
		int k = ov[0] <= ov[1] && ov[0] <= ov[2] ? 0 : (ov[1] <= ov[2] ? 1 : 2);
		double sorted[3] = {ov[0], ov[1], ov[2]};
		double second = INFINITY;
		for (int j = 0; j < 3; ++j) {
			second = j != k && sorted[j] < second ? sorted[j] : second;
		}
		dvec n = dv(0, 0, 0);
		double cc[3] = {c.x, c.y, c.z};
		double sign = cc[k] >= 0 ? 1.0 : -1.0;
		n = k == 0 ? dv(sign, 0, 0) : (k == 1 ? dv(0, sign, 0) : dv(0, 0, sign));
		// The normal is unique only when the smallest overlap wins clearly and the centres are
		// not level along it.
		bool unique = second - ov[k] > 1e-3 && fabs(cc[k]) > 1e-3;
		tbGeometry sa = tbMakeBox((float)ha.x, (float)ha.y, (float)ha.z);
		tbGeometry sb = tbMakeBox((float)hb.x, (float)hb.y, (float)hb.z);
		versors q = rngQuat(&rng);
		tbTransform xfA = xfMake(0.3, -0.2, 0.1, q);
		tbTransform xfB = tbMakeTransform(fvd(dadd(dvf(xfA.p), drotate(q, c))), q);
		Expect e = expectSd(-ov[k], drotate(q, n), unique);
		// The SAT oracle agrees with the rule (a check of the oracle itself).
		SatResult sat = satBoxes(sa.halfExtents, xfA, sb.halfExtents, xfB);
		cr_expect(fabs(sat.sd + ov[k]) < 1e-6, "SAT oracle %.9g vs min overlap %.9g", sat.sd,
		          -ov[k]);
		char name[64];
		snprintf(name, sizeof name, "random aligned boxes %d", i);
		checkPair(name, &sa, xfA, &sb, xfB, e);
	}
}

Test(narrowphase, box_box_edge_edge)
{
	// A: cube h = 1, axis aligned; its edge {y = 1, z = 1} runs along x. B: cube h = b whose
	// frame maps (1,1,0)/sqrt2 to (0,1,1)/sqrt2 and its z axis to (0,1,-1)/sqrt2, i.e. B is
	// turned 45 degrees about two axes so that its edge {x = -b, y = -b} points down the
	// diagonal, crossing A's edge at right angles. With both edges' midpoints on the line
	// (0,1,1) t, A lies in dot(x, u) <= sqrt2 and B in dot(x, u) >= sqrt2 + d (u the unit
	// diagonal), and the two edge midpoints realise the gap: sd = d exactly, normal u.
	double b = 0.5, s = sqrt(0.5);
	mat3s m;
	m.col[0] = (vec3s){{(float)-s, 0.5f, 0.5f}};
	m.col[1] = (vec3s){{(float)s, 0.5f, 0.5f}};
	m.col[2] = (vec3s){{0.0f, (float)s, (float)-s}};
	tbGeometry a = tbMakeBox(1, 1, 1), cube = tbMakeBox((float)b, (float)b, (float)b);
	double gaps[] = {0.1, 0.01, -0.05, -0.02};
	for (int i = 0; i < 4; ++i) {
		double d = gaps[i];
		double t = 1.0 + b + d * s;
		tbTransform xfB = tbTransformFromMatrix((vec3s){{0.0f, (float)t, (float)t}}, m);
		Expect e = expectSd(d, dv(0, 1, 1), true);
		SatResult sat = satBoxes(a.halfExtents, at(0, 0, 0), cube.halfExtents, xfB);
		// SAT is exact for overlap and for this edge-edge separation: both oracles agree.
		cr_expect(fabs(sat.sd - d) < 1e-6, "edge-edge %g: SAT oracle says %.9g", d, sat.sd);
		char name[64];
		snprintf(name, sizeof name, "box-box edge-edge d=%g", d);
		checkScene(name, &a, at(0, 0, 0), &cube, xfB, e);
		// Both witnesses are unique: the edge midpoints.
		for (int k = 0; k < 2; ++k) {
			tbQueryDef def = tbDefaultQueryDef();
			def.algorithm = k == 0 ? tb_algorithmGjkEpa : tb_algorithmUnifiedEpa;
			tbQueryResult r = tbQueryShapes(&a, at(0, 0, 0), &cube, xfB, &def);
			double L = pairScale(&a, at(0, 0, 0), &cube, xfB);
			double offA = dnorm(dsub(dvf(r.pointA), dv(0, 1, 1)));
			double offB = dnorm(dsub(dvf(r.pointB), dadd(dv(0, 1, 1), dscale(dv(0, s, s), d))));
			cr_expect(offA <= 1e-3 * L && offB <= 1e-3 * L,
			          "%s [%s]: witnesses %.3g L and %.3g L from the edge midpoints", name,
			          algoName(def.algorithm), offA / L, offB / L);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Cylinders and cones on a box (box top face at y = 0.2), and against spheres.

Test(narrowphase, cone_cylinder_on_box)
{
	tbGeometry slab = tbMakeBox(1.0f, 0.2f, 1.0f);
	tbGeometry cone = tbMakeCone(0.3f, 0.4f), cyl = tbMakeCylinder(0.25f, 0.5f);
	dvec up = dv(0, 1, 0);
	double gaps[] = {0.05, -0.03};
	for (int i = 0; i < 2; ++i) {
		double g = gaps[i];
		char name[80];
		// Cone apex down (turned half a turn about x): the apex is the unique witness.
		snprintf(name, sizeof name, "cone apex down on box g=%g", g);
		checkScene(name, &slab, at(0, 0, 0), &cone, atq(0.2, 0.6 + g, -0.3, dv(1, 0, 0), M_PI),
		           expectSd(g, up, true));
		// Cone base down: a disc on the face.
		snprintf(name, sizeof name, "cone base down on box g=%g", g);
		checkScene(name, &slab, at(0, 0, 0), &cone, atq(0.2, 0.6 + g, -0.3, up, 0.4),
		           expectSd(g, up, true));
		// Cylinder lying on its side (axis along x): a line contact.
		snprintf(name, sizeof name, "cylinder on its side on box g=%g", g);
		checkScene(name, &slab, at(0, 0, 0), &cyl, atq(-0.1, 0.45 + g, 0.2, dv(0, 0, 1), M_PI / 2),
		           expectSd(g, up, true));
		// Cylinder standing: a disc on the face.
		snprintf(name, sizeof name, "cylinder standing on box g=%g", g);
		checkScene(name, &slab, at(0, 0, 0), &cyl, at(0.3, 0.7 + g, 0.1), expectSd(g, up, true));
	}
}

Test(narrowphase, cylinder_sphere_rim)
{
	// Sphere near the rim circle of a cylinder r = 0.5, hh = 0.4: closest point on the rim.
	tbGeometry cyl = tbMakeCylinder(0.5f, 0.4f), ball = tbMakeSphere(0.2f);
	double phis[] = {0.0, 1.1, 2.9};
	for (int i = 0; i < 3; ++i) {
		dvec radial = dv(cos(phis[i]), 0, sin(phis[i]));
		dvec rim = dadd(dscale(radial, 0.5), dv(0, 0.4, 0));
		dvec c = dadd(rim, dscale(dunit(dadd(radial, dv(0, 1, 0))), 0.15));
		char name[64];
		snprintf(name, sizeof name, "cylinder rim vs sphere phi=%g", phis[i]);
		checkScene(name, &cyl, at(0, 0, 0), &ball, at(c.x, c.y, c.z),
		           expectSd(0.15 - 0.2, dadd(radial, dv(0, 1, 0)), true));
		// Beside the curved side, level with the middle.
		dvec side = dscale(radial, 0.5 + 0.2 + 0.07);
		snprintf(name, sizeof name, "cylinder side vs sphere phi=%g", phis[i]);
		checkScene(name, &cyl, at(0, 0, 0), &ball, at(side.x, 0.1, side.z),
		           expectSd(0.07, radial, true));
	}
}

Test(narrowphase, cone_sphere_side)
{
	// Cone r = 0.5, hh = 0.5: in the (radial, y) half plane its side is the segment from the
	// apex (0, 0.5) to the rim (0.5, -0.5), outward normal (2, 1)/sqrt5.
	tbGeometry cone = tbMakeCone(0.5f, 0.5f), ball = tbMakeSphere(0.3f);
	double rhos[] = {0.5, 0.4};
	for (int i = 0; i < 2; ++i) {
		double rho = rhos[i], y = 0.3;
		double dist = ((rho - 0.0) * 2.0 + (y - 0.5) * 1.0) / sqrt(5.0);
		double t = ((rho - 0.0) * 0.5 + (y - 0.5) * -1.0) / 1.25;
		cr_assert(t > 0.0 && t < 1.0 && dist > 0.0);
		for (int k = 0; k < 2; ++k) {
			double phi = 0.7 + 2.0 * k;
			dvec c = dv(rho * cos(phi), y, rho * sin(phi));
			char name[64];
			snprintf(name, sizeof name, "cone side vs sphere rho=%g phi=%g", rho, phi);
			checkScene(name, &cone, at(0, 0, 0), &ball, at(c.x, c.y, c.z),
			           expectSd(dist - 0.3, dv(2 * cos(phi), 1, 2 * sin(phi)), true));
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Ellipsoid: a sphere with a non-uniform scale (AtlasPhys notes), resting on a plane-like box.

Test(narrowphase, ellipsoid_on_plane)
{
	tbGeometry plane = tbMakeBox(5.0f, 0.1f, 5.0f);
	tbGeometry ell = tbMakeSphere(1.0f);
	ell.scale = (vec3s){{0.6f, 0.25f, 0.4f}};
	versors q = quatAxisAngle(dv(1, 0, 1), 0.5);
	dvec S = dvf(ell.scale);
	// Support of R S (unit ball) along -y: |S R^T y|, reached at R S^2 R^T (-y) / |S R^T y|.
	dvec yl = dinvRotate(q, dv(0, 1, 0));
	dvec sy = dv(S.x * yl.x, S.y * yl.y, S.z * yl.z);
	double w = dnorm(sy);
	dvec lowLocal = dscale(dv(S.x * sy.x, S.y * sy.y, S.z * sy.z), -1.0 / w);
	double gaps[] = {0.05, -0.04};
	for (int i = 0; i < 2; ++i) {
		double g = gaps[i];
		dvec c = dv(0.3, 0.1 + g + w, -0.2);
		tbTransform xfB = tbMakeTransform(fvd(c), q);
		char name[64];
		snprintf(name, sizeof name, "ellipsoid on plane g=%g", g);
		checkScene(name, &plane, at(0, 0, 0), &ell, xfB, expectSd(g, dv(0, 1, 0), true));
		dvec low = dadd(c, drotate(q, lowLocal));
		for (int k = 0; k < 2; ++k) {
			tbQueryDef def = tbDefaultQueryDef();
			def.algorithm = k == 0 ? tb_algorithmGjkEpa : tb_algorithmUnifiedEpa;
			tbQueryResult r = tbQueryShapes(&plane, at(0, 0, 0), &ell, xfB, &def);
			double L = pairScale(&plane, at(0, 0, 0), &ell, xfB);
			double off = dnorm(dsub(dvf(r.pointB), low));
			cr_expect(off <= 1e-3 * L, "%s [%s]: witness on B %.3g L from the lowest point", name,
			          algoName(def.algorithm), off / L);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Triangle (zero thickness) vs every shape type, each resting above or sunk into its interior.
// Overlapping, the shortest way out is up by the sink depth: pushing down or sideways costs
// more (every shape is taller than 0.3 and 0.45 from the triangle's edges).

static void checkOnTriangle(const char* name, const tbGeometry* b, tbTransform xfB)
{
	tbGeometry tri = tbMakeTriangle((vec3s){{-1.0f, 0.0f, -1.0f}}, (vec3s){{1.0f, 0.0f, -1.0f}},
	                                (vec3s){{0.0f, 0.0f, 1.2f}});
	// Lowest point of B along -y.
	double w = supportValue(b, xfB, dv(0, -1, 0)) + (double)xfB.p.y;
	double gaps[] = {0.05, -0.04};
	for (int i = 0; i < 2; ++i) {
		double g = gaps[i];
		tbTransform xf = xfB;
		xf.p.y = (float)(g + w);
		char label[96];
		snprintf(label, sizeof label, "triangle vs %s g=%g", name, g);
		checkScene(label, &tri, at(0, 0, 0), b, xf, expectSd(g, dv(0, 1, 0), true));
	}
}

Test(narrowphase, triangle_vs_each_shape)
{
	tbGeometry sphere = tbMakeSphere(0.3f);
	checkOnTriangle("sphere", &sphere, at(0.05, 0, 0));
	tbGeometry box = tbMakeBox(0.2f, 0.15f, 0.25f);
	checkOnTriangle("box", &box, atq(0.05, 0, 0, dv(0, 1, 0), 0.3));
	tbGeometry capsule = tbMakeCapsule(0.2f, 0.3f);
	checkOnTriangle("capsule", &capsule, atq(0.05, 0, 0, dv(0, 0, 1), M_PI / 2));
	tbGeometry cylinder = tbMakeCylinder(0.25f, 0.2f);
	checkOnTriangle("cylinder", &cylinder, at(0.05, 0, 0));
	tbGeometry cone = tbMakeCone(0.2f, 0.3f);
	checkOnTriangle("cone apex down", &cone, atq(0.05, 0, 0, dv(1, 0, 0), M_PI));
	tbGeometry ell = tbMakeSphere(1.0f);
	ell.scale = (vec3s){{0.3f, 0.2f, 0.25f}};
	checkOnTriangle("ellipsoid", &ell, atq(0.05, 0, 0, dv(1, 2, 0), 0.6));
	tbGeometry upright = tbMakeTriangle((vec3s){{0.0f, 0.0f, 0.0f}}, (vec3s){{0.3f, 0.5f, 0.0f}},
	                                    (vec3s){{-0.3f, 0.5f, 0.0f}});
	checkOnTriangle("upright triangle", &upright, atq(0.05, 0, 0, dv(0, 1, 0), 0.5));

	vec3s corners[9];
	for (int i = 0; i < 8; ++i) {
		corners[i] = (vec3s){{i & 1 ? 0.2f : -0.2f, i & 2 ? 0.15f : -0.15f, i & 4 ? 0.1f : -0.1f}};
	}
	corners[8] = (vec3s){{0.01f, 0.02f, 0.0f}}; // an interior point the hull must drop
	tbHull hull;
	tbHullError err = tbBuildHull(corners, 9, &hull, NULL);
	cr_expect(err == tb_hullOk, "tbBuildHull: %s", tbHullErrorString(err));
	if (err == tb_hullOk) {
		tbGeometry hs = tbMakeHullShape(&hull);
		checkOnTriangle("hull", &hs, atq(0.05, 0, 0, dv(1, 1, 1), 0.4));
		tbDestroyHull(&hull);
	}
}

// ---------------------------------------------------------------------------------------------
// A hull of a box's corners must collide exactly like the box (SAT oracle).

Test(narrowphase, hull_box_matches_box)
{
	vec3s h = {{0.4f, 0.3f, 0.2f}};
	vec3s pts[14];
	for (int i = 0; i < 8; ++i) {
		pts[i] = (vec3s){{i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z}};
	}
	// Face centres: coplanar points that must not become hull vertices.
	for (int i = 0; i < 6; ++i) {
		vec3s c = {{0, 0, 0}};
		c.raw[i % 3] = (i < 3 ? 1.0f : -1.0f) * h.raw[i % 3];
		pts[8 + i] = c;
	}
	tbHull hull;
	tbHullError err = tbBuildHull(pts, 14, &hull, NULL);
	cr_assert(err == tb_hullOk, "tbBuildHull: %s", tbHullErrorString(err));
	cr_expect(hull.vertexCount == 8, "cube hull has %d vertices", hull.vertexCount);
	tbGeometry hs = tbMakeHullShape(&hull), box = tbMakeBox(0.5f, 0.6f, 0.35f);
	Rng rng = {77};
	int done = 0;
	for (int i = 0; i < 200 && done < 20; ++i) {
		tbTransform xfA = tbMakeTransform(fvd(dv(0.1, 0.2, 0.3)), rngQuat(&rng));
		tbTransform xfB = tbMakeTransform(
		    fvd(dadd(dvf(xfA.p), dscale(rngUnit(&rng), rngUniform(&rng, 0.2, 0.9)))),
		    rngQuat(&rng));
		SatResult sat = satBoxes(box.halfExtents, xfA, h, xfB);
		if (sat.sd > 0.0) {
			continue; // SAT is exact only for overlap
		}
		char name[64];
		snprintf(name, sizeof name, "box vs cube hull %d", done++);
		checkPair(name, &box, xfA, &hs, xfB, expectSd(sat.sd, sat.normal, true));
	}
	tbDestroyHull(&hull);
}

// ---------------------------------------------------------------------------------------------
// The convergence tolerance: a looser one costs accuracy in proportion and saves iterations.

Test(narrowphase, tolerance_bounds_the_depth_error)
{
	// Parallel cylinders side by side (axes along y, 0.9 apart, radii 0.5 and 0.6): A - B is a
	// cylinder of radius 1.1 seen from 0.9 off its axis, so EPA refines a curved side. Depth 0.2
	// along x.
	tbGeometry a = tbMakeCylinder(0.5f, 0.8f), b = tbMakeCylinder(0.6f, 0.7f);
	tbTransform xfA = at(0, 0, 0), xfB = atq(0.9, 0.05, 0, dv(0, 1, 0), 0.4);
	double tolerances[] = {1e-6, 1e-5, 1e-4};
	int epaIterations[3];
	for (int i = 0; i < 3; ++i) {
		tbQueryDef def = tbDefaultQueryDef();
		def.tolerance = (float)tolerances[i];
		tbQueryResult r = tbQueryShapes(&a, xfA, &b, xfB, &def);
		double err = fabs((double)r.distance + 0.2);
		double angle = acos(fmin(1.0, (double)r.normal.x)) * 180.0 / M_PI;
		// The pair scale is about 2.3: the error stays under the tolerance times that.
		cr_expect(r.hit && err <= 2.5 * tolerances[i],
		          "tolerance %g: depth error %.3g (limit %.3g)", tolerances[i], err,
		          2.5 * tolerances[i]);
		cr_expect(angle < 1.0, "tolerance %g: normal off by %.3g deg", tolerances[i], angle);
		epaIterations[i] = r.epaIterations;
	}
	cr_expect(epaIterations[2] < epaIterations[0],
	          "EPA iterations at 1e-4 (%d) should be fewer than at 1e-6 (%d)", epaIterations[2],
	          epaIterations[0]);
}

Test(narrowphase, tolerance_out_of_range_is_refused)
{
	tbGeometry a = tbMakeBox(0.5f, 0.5f, 0.5f), b = tbMakeSphere(0.3f);
	float bad[] = {0.0f, -1e-6f, 1e-8f, 0.5f, NAN, INFINITY};
	for (int i = 0; i < 6; ++i) {
		tbQueryDef def = tbDefaultQueryDef();
		def.tolerance = bad[i];
		tbQueryResult r = tbQueryShapes(&a, at(0, 0, 0), &b, at(0.6, 0, 0), &def);
		cr_expect(r.status == tb_queryInvalidInput && !r.hit, "tolerance %g: status %s",
		          (double)bad[i], tbQueryStatusName(r.status));
		tbQueryResult d = tbShapeDistance(&a, at(0, 0, 0), &b, at(1.6, 0, 0), &def);
		cr_expect(d.status == tb_queryInvalidInput, "distance, tolerance %g: status %s",
		          (double)bad[i], tbQueryStatusName(d.status));
	}
	// The default is accepted and gives the analytic distance.
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult r = tbQueryShapes(&a, at(0, 0, 0), &b, at(1.6, 0, 0), &def);
	cr_expect(r.status != tb_queryInvalidInput && fabs((double)r.distance - 0.8) < 1e-6,
	          "default tolerance: distance %.9g", (double)r.distance);
}
