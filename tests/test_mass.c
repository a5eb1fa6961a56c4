// Mass properties against closed forms: the slide table (course slides), the cone about its
// centroid, hulls integrated over their faces, and the errors for bad input.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "tumble/mass.h"

#define PI_D 3.14159265358979323846

static tbGeometry shapeOf(tbShapeType type)
{
	tbGeometry s;
	memset(&s, 0, sizeof s);
	s.type = type;
	s.scale = (vec3s){{1.0f, 1.0f, 1.0f}};
	return s;
}

static double relErr(double got, double want)
{
	return fabs(got - want) / fmax(fabs(want), 1e-30);
}

static void expectClose(double got, double want, double tol, const char* what)
{
	cr_expect(relErr(got, want) <= tol, "%s: got %.9g, want %.9g (rel err %.3g)", what, got, want,
	          relErr(got, want));
}

// Diagonal inertia (ixx, iyy, izz), zero products of inertia.
static void expectInertia(tbMassData m, double ixx, double iyy, double izz, double tol)
{
	expectClose((double)m.inertia.col[0].x, ixx, tol, "Ixx");
	expectClose((double)m.inertia.col[1].y, iyy, tol, "Iyy");
	expectClose((double)m.inertia.col[2].z, izz, tol, "Izz");
	double scale = fmax(ixx, fmax(iyy, izz));
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) {
			if (r != c) {
				cr_expect(fabs((double)m.inertia.col[c].raw[r]) <= tol * scale,
				          "product of inertia [%d][%d] = %g", r, c,
				          (double)m.inertia.col[c].raw[r]);
			}
		}
	}
}

Test(mass, sphere_matches_slide_table)
{
	tbGeometry s = shapeOf(tb_sphereShape);
	s.radius = 0.5f;
	tbMassError err;
	tbMassData m = tbComputeMass(&s, 2.0f, &err);
	cr_assert_eq(err, tb_massOk);
	double mass = 2.0 * 4.0 / 3.0 * PI_D * 0.125;
	expectClose((double)m.mass, mass, 1e-6, "mass");
	double i = 0.4 * mass * 0.25; // 2/5 m r^2
	expectInertia(m, i, i, i, 1e-6);
	cr_expect_float_eq(m.center.x, 0.0f, 1e-7f);
}

Test(mass, scaled_sphere_is_slide_ellipsoid)
{
	tbGeometry s = shapeOf(tb_sphereShape);
	s.radius = 1.0f;
	s.scale = (vec3s){{0.5f, 1.0f, 2.0f}};
	tbMassData m = tbComputeMass(&s, 1.0f, NULL);
	double a = 0.5, b = 1.0, c = 2.0;
	double mass = 4.0 / 3.0 * PI_D * a * b * c;
	expectClose((double)m.mass, mass, 1e-6, "mass");
	// Slide table: 1/5 m (b^2 + c^2), 1/5 m (a^2 + c^2), 1/5 m (a^2 + b^2).
	expectInertia(m, mass * (b * b + c * c) / 5.0, mass * (a * a + c * c) / 5.0,
	              mass * (a * a + b * b) / 5.0, 1e-6);
}

Test(mass, box_closed_form)
{
	tbGeometry s = shapeOf(tb_boxShape);
	s.halfExtents = (vec3s){{0.5f, 1.0f, 1.5f}};
	tbMassData m = tbComputeMass(&s, 3.0f, NULL);
	double w = 1.0, h = 2.0, d = 3.0, mass = 3.0 * w * h * d;
	expectClose((double)m.mass, mass, 1e-6, "mass");
	expectInertia(m, mass / 12.0 * (h * h + d * d), mass / 12.0 * (w * w + d * d),
	              mass / 12.0 * (w * w + h * h), 1e-6);
}

Test(mass, scaled_box_is_bigger_box)
{
	tbGeometry s = shapeOf(tb_boxShape);
	s.halfExtents = (vec3s){{1.0f, 1.0f, 1.0f}};
	s.scale = (vec3s){{0.5f, 1.0f, 1.5f}};
	tbGeometry t = shapeOf(tb_boxShape);
	t.halfExtents = (vec3s){{0.5f, 1.0f, 1.5f}};
	tbMassData a = tbComputeMass(&s, 3.0f, NULL), b = tbComputeMass(&t, 3.0f, NULL);
	expectClose((double)a.mass, (double)b.mass, 1e-6, "mass");
	expectInertia(a, (double)b.inertia.col[0].x, (double)b.inertia.col[1].y,
	              (double)b.inertia.col[2].z, 1e-6);
}

Test(mass, cylinder_closed_form)
{
	tbGeometry s = shapeOf(tb_cylinderShape);
	s.round.radius = 0.3f;
	s.round.halfHeight = 0.8f;
	tbMassData m = tbComputeMass(&s, 1.5f, NULL);
	double r = 0.3, hgt = 1.6, mass = 1.5 * PI_D * r * r * hgt;
	expectClose((double)m.mass, mass, 1e-6, "mass");
	double ixx = mass * (3.0 * r * r + hgt * hgt) / 12.0;
	expectInertia(m, ixx, 0.5 * mass * r * r, ixx, 1e-6);
}

Test(mass, capsule_closed_form)
{
	tbGeometry s = shapeOf(tb_capsuleShape);
	s.round.radius = 0.25f;
	s.round.halfHeight = 0.5f;
	tbMassData m = tbComputeMass(&s, 2.0f, NULL);
	double r = 0.25, hgt = 1.0;
	double mc = 2.0 * PI_D * r * r * hgt, ms = 2.0 * 4.0 / 3.0 * PI_D * r * r * r;
	expectClose((double)m.mass, mc + ms, 1e-6, "mass");
	// Cylinder plus two hemispheres each shifted by h/2 + 3r/8 (textbook form).
	double ixx = mc * (hgt * hgt / 12.0 + r * r / 4.0) +
	             ms * (2.0 * r * r / 5.0 + hgt * hgt / 4.0 + 3.0 * hgt * r / 8.0);
	double iyy = mc * r * r / 2.0 + ms * 2.0 * r * r / 5.0;
	expectInertia(m, ixx, iyy, ixx, 1e-6);
}

Test(mass, cone_about_centroid)
{
	tbGeometry s = shapeOf(tb_coneShape);
	s.round.radius = 0.4f;
	s.round.halfHeight = 0.6f;
	tbMassData m = tbComputeMass(&s, 1.0f, NULL);
	double r = 0.4, hgt = 1.2, mass = PI_D * r * r * hgt / 3.0;
	expectClose((double)m.mass, mass, 1e-6, "mass");
	// Centroid a quarter of the height above the base (base at y = -0.6).
	cr_expect(fabs((double)m.center.y - (-0.6 + hgt / 4.0)) < 1e-6, "centroid y %g",
	          (double)m.center.y);
	// Issue 3: Ixx = 3/80 m (4 r^2 + h^2), Iyy = 3/10 m r^2 about the centroid.
	double ixx = 3.0 / 80.0 * mass * (4.0 * r * r + hgt * hgt);
	expectInertia(m, ixx, 0.3 * mass * r * r, ixx, 1e-6);
	// And the slide table's apex form, 3/5 m h^2 + 3/20 m r^2, by the parallel axis theorem.
	double d = 0.75 * hgt;
	expectClose((double)m.inertia.col[0].x + mass * d * d,
	            0.6 * mass * hgt * hgt + 0.15 * mass * r * r, 1e-6, "apex Ixx");
}

// A box hull built by hand: 8 corners, 6 quads counter-clockwise seen from outside.
typedef struct HandHull
{
	vec3s vertices[8];
	tbHullFace faces[6];
	int indices[24];
	tbHull hull;
} HandHull;

static void makeBoxHull(HandHull* h, vec3s half, vec3s offset)
{
	for (int i = 0; i < 8; ++i) {
		h->vertices[i] = (vec3s){{offset.x + ((i & 1) ? half.x : -half.x),
		                          offset.y + ((i & 2) ? half.y : -half.y),
		                          offset.z + ((i & 4) ? half.z : -half.z)}};
	}
	// Corner i has bit 0 = +x, bit 1 = +y, bit 2 = +z.
	static const int quads[6][4] = {
	    {1, 3, 7, 5}, // +x
	    {0, 4, 6, 2}, // -x
	    {2, 6, 7, 3}, // +y
	    {0, 1, 5, 4}, // -y
	    {4, 5, 7, 6}, // +z
	    {0, 2, 3, 1}, // -z
	};
	static const float normals[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
	                                    {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
	for (int f = 0; f < 6; ++f) {
		for (int k = 0; k < 4; ++k) {
			h->indices[4 * f + k] = quads[f][k];
		}
		h->faces[f].normal = (vec3s){{normals[f][0], normals[f][1], normals[f][2]}};
		h->faces[f].offset = 0.0f;
		h->faces[f].firstIndex = 4 * f;
		h->faces[f].indexCount = 4;
	}
	memset(&h->hull, 0, sizeof h->hull);
	h->hull.kind = tb_hullSolid;
	h->hull.vertices = h->vertices;
	h->hull.vertexCount = 8;
	h->hull.faces = h->faces;
	h->hull.faceCount = 6;
	h->hull.faceIndices = h->indices;
	h->hull.faceIndexCount = 24;
	h->hull.centroid = offset;
}

Test(mass, hull_of_box_equals_box)
{
	vec3s half = {{0.5f, 1.0f, 1.5f}};
	HandHull h;
	makeBoxHull(&h, half, (vec3s){{0.0f, 0.0f, 0.0f}});
	tbGeometry hs = shapeOf(tb_hullShape);
	hs.hull = &h.hull;
	tbGeometry bs = shapeOf(tb_boxShape);
	bs.halfExtents = half;
	tbMassError err;
	tbMassData a = tbComputeMass(&hs, 3.0f, &err);
	cr_assert_eq(err, tb_massOk, "%s", tbMassErrorString(err));
	tbMassData b = tbComputeMass(&bs, 3.0f, NULL);
	expectClose((double)a.mass, (double)b.mass, 1e-6, "mass");
	expectInertia(a, (double)b.inertia.col[0].x, (double)b.inertia.col[1].y,
	              (double)b.inertia.col[2].z, 1e-5);
	cr_expect(fabsf(a.center.x) + fabsf(a.center.y) + fabsf(a.center.z) < 1e-6f);
}

Test(mass, offset_scaled_hull_of_box)
{
	// Far from its frame's origin and scaled: the centre moves by S * offset, the inertia about
	// it is the scaled box's.
	vec3s half = {{1.0f, 1.0f, 1.0f}};
	HandHull h;
	makeBoxHull(&h, half, (vec3s){{10.0f, -20.0f, 30.0f}});
	tbGeometry hs = shapeOf(tb_hullShape);
	hs.hull = &h.hull;
	hs.scale = (vec3s){{0.5f, 1.0f, 1.5f}};
	tbMassData a = tbComputeMass(&hs, 3.0f, NULL);
	double mass = 3.0 * 1.0 * 2.0 * 3.0;
	expectClose((double)a.mass, mass, 1e-5, "mass");
	expectClose((double)a.center.x, 5.0, 1e-6, "cx");
	expectClose((double)a.center.y, -20.0, 1e-6, "cy");
	expectClose((double)a.center.z, 45.0, 1e-6, "cz");
	expectInertia(a, mass / 12.0 * (4.0 + 9.0), mass / 12.0 * (1.0 + 9.0),
	              mass / 12.0 * (1.0 + 4.0), 1e-5);
}

Test(mass, hull_regular_tetrahedron)
{
	// Regular tetrahedron of edge a: I = m a^2 / 20 about every axis through its centroid.
	vec3s v[4] = {{{1, 1, 1}}, {{1, -1, -1}}, {{-1, 1, -1}}, {{-1, -1, 1}}};
	int tri[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
	int indices[12];
	tbHullFace faces[4];
	for (int f = 0; f < 4; ++f) {
		vec3s a = v[tri[f][0]], b = v[tri[f][1]], c = v[tri[f][2]];
		vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
		// Wind counter-clockwise seen from outside (the centroid is the origin).
		if (glms_vec3_dot(n, a) < 0.0f) {
			int t = tri[f][1];
			tri[f][1] = tri[f][2];
			tri[f][2] = t;
			n = glms_vec3_negate(n);
		}
		for (int k = 0; k < 3; ++k) {
			indices[3 * f + k] = tri[f][k];
		}
		faces[f].normal = glms_vec3_normalize(n);
		faces[f].offset = glms_vec3_dot(faces[f].normal, a);
		faces[f].firstIndex = 3 * f;
		faces[f].indexCount = 3;
	}
	tbHull hull = {0};
	hull.kind = tb_hullSolid;
	hull.vertices = v;
	hull.vertexCount = 4;
	hull.faces = faces;
	hull.faceCount = 4;
	hull.faceIndices = indices;
	hull.faceIndexCount = 12;
	tbGeometry s = shapeOf(tb_hullShape);
	s.hull = &hull;
	tbMassData m = tbComputeMass(&s, 1.0f, NULL);
	double edge2 = 8.0, volume = 8.0 / 3.0;
	expectClose((double)m.mass, volume, 1e-6, "mass");
	expectInertia(m, volume * edge2 / 20.0, volume * edge2 / 20.0, volume * edge2 / 20.0, 1e-5);
}

Test(mass, combine_two_boxes_is_long_box)
{
	tbGeometry s = shapeOf(tb_boxShape);
	s.halfExtents = (vec3s){{0.5f, 0.5f, 0.5f}};
	tbMassData a = tbComputeMass(&s, 1.0f, NULL), b = a;
	a.center.x = -0.5f;
	b.center.x = 0.5f;
	tbMassData c = tbCombineMass(a, b);
	tbGeometry l = shapeOf(tb_boxShape);
	l.halfExtents = (vec3s){{1.0f, 0.5f, 0.5f}};
	tbMassData d = tbComputeMass(&l, 1.0f, NULL);
	expectClose((double)c.mass, (double)d.mass, 1e-6, "mass");
	expectInertia(c, (double)d.inertia.col[0].x, (double)d.inertia.col[1].y,
	              (double)d.inertia.col[2].z, 1e-6);
}

static tbMassError errorOf(const tbGeometry* s, float density)
{
	tbMassError err = tb_massOk;
	tbMassData m = tbComputeMass(s, density, &err);
	if (err != tb_massOk) {
		cr_expect_eq(m.mass, 0.0f, "mass must be zero on error");
	}
	return err;
}

Test(mass, bad_input_is_a_clear_error)
{
	tbGeometry s = shapeOf(tb_sphereShape);
	s.radius = 1.0f;
	cr_expect_eq(errorOf(&s, 0.0f), tb_massBadDensity);
	cr_expect_eq(errorOf(&s, -1.0f), tb_massBadDensity);
	cr_expect_eq(errorOf(&s, NAN), tb_massBadDensity);
	cr_expect_eq(errorOf(&s, INFINITY), tb_massBadDensity);
	cr_expect_eq(errorOf(NULL, 1.0f), tb_massNullShape);
	s.radius = NAN;
	cr_expect_eq(errorOf(&s, 1.0f), tb_massNonFinite);
	s.radius = 0.0f;
	cr_expect_eq(errorOf(&s, 1.0f), tb_massBadSize);
	s.radius = 1.0f;
	s.scale.y = 0.0f;
	cr_expect_eq(errorOf(&s, 1.0f), tb_massBadSize);
	s.scale.y = NAN;
	cr_expect_eq(errorOf(&s, 1.0f), tb_massNonFinite);

	tbGeometry b = shapeOf(tb_boxShape);
	b.halfExtents = (vec3s){{1.0f, -1.0f, 1.0f}};
	cr_expect_eq(errorOf(&b, 1.0f), tb_massBadSize);

	tbGeometry t = shapeOf(tb_triangleShape);
	cr_expect_eq(errorOf(&t, 1.0f), tb_massNoVolume);

	tbGeometry hs = shapeOf(tb_hullShape);
	hs.hull = NULL;
	cr_expect_eq(errorOf(&hs, 1.0f), tb_massNullShape);

	// A flat hull (a square polygon, front and back faces) or a single point has no volume.
	vec3s sq[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{1, 0, 1}}, {{0, 0, 1}}};
	int idx[8] = {0, 3, 2, 1, 0, 1, 2, 3};
	tbHullFace faces[2] = {{{{0, 1, 0}}, 0.0f, 0, 4}, {{{0, -1, 0}}, 0.0f, 4, 4}};
	tbHull flat = {0};
	flat.kind = tb_hullPolygon;
	flat.vertices = sq;
	flat.vertexCount = 4;
	flat.faces = faces;
	flat.faceCount = 2;
	flat.faceIndices = idx;
	flat.faceIndexCount = 8;
	hs.hull = &flat;
	cr_expect_eq(errorOf(&hs, 1.0f), tb_massDegenerateHull);
	tbHull point = {0};
	point.kind = tb_hullPoint;
	point.vertices = sq;
	point.vertexCount = 1;
	hs.hull = &point;
	cr_expect_eq(errorOf(&hs, 1.0f), tb_massDegenerateHull);

	// A hull with a NaN vertex or an out-of-range face index.
	HandHull h;
	makeBoxHull(&h, (vec3s){{1, 1, 1}}, (vec3s){{0, 0, 0}});
	hs.hull = &h.hull;
	h.vertices[3].y = NAN;
	cr_expect_eq(errorOf(&hs, 1.0f), tb_massNonFinite);
	makeBoxHull(&h, (vec3s){{1, 1, 1}}, (vec3s){{0, 0, 0}});
	h.indices[5] = 8;
	cr_expect_eq(errorOf(&hs, 1.0f), tb_massBadHull);

	// Every error has its own message.
	for (int e = tb_massNullShape; e <= tb_massUnknownShape; ++e) {
		const char* msg = tbMassErrorString((tbMassError)e);
		cr_expect(strlen(msg) > 5);
		for (int f = tb_massOk; f < e; ++f) {
			cr_expect_str_neq(msg, tbMassErrorString((tbMassError)f));
		}
	}
}
