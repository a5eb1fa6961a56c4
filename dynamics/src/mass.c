// Mass, centre of mass and inertia of shapes: closed forms, and volume integration for hulls.
#include "tumble/mass.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "dynamics_math.h"

#define TB_PI 3.14159265358979323846

// Every shape is first reduced to its volume V, centroid c and second moment about the centroid
// C = integral of (p - c)(p - c)^T dV (density 1). The inertia tensor is then rho (tr(C) 1 - C),
// and a non-uniform scale S (a linear map) gives V' = det(S) V, c' = S c, C' = det(S) S C S^T: that
// is why the moments, not the inertia tensors of the slide table, are the common currency.
typedef struct tbVolumeMoments
{
	double volume;
	double center[3];
	double second[3][3]; // second[r][c], symmetric
} tbVolumeMoments;

static tbVolumeMoments tbDiagonalMoments(double volume, double cy, double xx, double yy, double zz)
{
	tbVolumeMoments m = {0};
	m.volume = volume;
	m.center[1] = cy;
	m.second[0][0] = xx;
	m.second[1][1] = yy;
	m.second[2][2] = zz;
	return m;
}

static bool tbFiniteAndPositive(float a)
{
	return isfinite(a) && a > 0.0f;
}

static tbMassError tbHullMoments(const tbHull* hull, tbVolumeMoments* out)
{
	if (hull == NULL) {
		return tb_massNullShape;
	}
	if (hull->kind != tb_hullSolid || hull->vertexCount < 4 || hull->faceCount < 4) {
		return tb_massDegenerateHull;
	}
	if (hull->vertices == NULL || hull->faces == NULL || hull->faceIndices == NULL) {
		return tb_massBadHull;
	}
	// Reference point for the tetrahedron fan: the vertex average (inside a solid hull), which
	// keeps the products small and precise wherever the hull sits.
	double o[3] = {0.0, 0.0, 0.0};
	double radius = 0.0;
	for (int i = 0; i < hull->vertexCount; ++i) {
		vec3s p = hull->vertices[i];
		if (!tbIsFiniteVec3(p)) {
			return tb_massNonFinite;
		}
		for (int k = 0; k < 3; ++k) {
			o[k] += (double)p.raw[k];
		}
	}
	for (int k = 0; k < 3; ++k) {
		o[k] /= (double)hull->vertexCount;
	}
	for (int i = 0; i < hull->vertexCount; ++i) {
		for (int k = 0; k < 3; ++k) {
			double d = fabs((double)hull->vertices[i].raw[k] - o[k]);
			radius = d > radius ? d : radius;
		}
	}

	// Sum over the tetrahedra (o, a, b, c) of a fan over each face (CCW from outside, so det > 0).
	// For a tetrahedron with edge vectors a, b, c from o (columns of A), volume = det(A) / 6,
	// first moment = volume (a + b + c) / 4 and second moment about o =
	// det(A) / 120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c: the canonical tetrahedron's
	// covariance (1/120)(1 + 1 1^T) mapped by A (Blow and Binstock, "How to find the inertia tensor
	// (or other mass properties) of a 3D solid body represented by a triangle mesh", 2004).
	double volume = 0.0;
	double first[3] = {0.0, 0.0, 0.0};
	double second[3][3] = {{0.0}};
	for (int f = 0; f < hull->faceCount; ++f) {
		const tbHullFace* face = hull->faces + f;
		if (face->indexCount < 3 || face->firstIndex < 0 ||
		    face->firstIndex + face->indexCount > hull->faceIndexCount) {
			return tb_massBadHull;
		}
		const int* ids = hull->faceIndices + face->firstIndex;
		for (int j = 0; j < face->indexCount; ++j) {
			if (ids[j] < 0 || ids[j] >= hull->vertexCount) {
				return tb_massBadHull;
			}
		}
		double a[3];
		for (int k = 0; k < 3; ++k) {
			a[k] = (double)hull->vertices[ids[0]].raw[k] - o[k];
		}
		for (int j = 1; j + 1 < face->indexCount; ++j) {
			double b[3], c[3], s[3];
			for (int k = 0; k < 3; ++k) {
				b[k] = (double)hull->vertices[ids[j]].raw[k] - o[k];
				c[k] = (double)hull->vertices[ids[j + 1]].raw[k] - o[k];
				s[k] = a[k] + b[k] + c[k];
			}
			double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
			             a[2] * (b[0] * c[1] - b[1] * c[0]);
			double v = det / 6.0;
			volume += v;
			for (int r = 0; r < 3; ++r) {
				first[r] += v * s[r] / 4.0;
				for (int q = 0; q < 3; ++q) {
					second[r][q] +=
					    det / 120.0 * (a[r] * a[q] + b[r] * b[q] + c[r] * c[q] + s[r] * s[q]);
				}
			}
		}
	}
	// A hull that is flat within float noise, or whose faces wind inward, has no usable volume.
	if (!(volume > 1e-9 * radius * radius * radius) || !isfinite(volume)) {
		return tb_massBadHull;
	}
	tbVolumeMoments m = {0};
	m.volume = volume;
	double rel[3];
	for (int k = 0; k < 3; ++k) {
		rel[k] = first[k] / volume;
		m.center[k] = o[k] + rel[k];
	}
	// Parallel axis theorem on second moments: about the centroid = about o - V rel rel^T.
	for (int r = 0; r < 3; ++r) {
		for (int q = 0; q < 3; ++q) {
			m.second[r][q] = second[r][q] - volume * rel[r] * rel[q];
		}
	}
	*out = m;
	return tb_massOk;
}

// Volume moments of the unscaled shape.
static tbMassError tbShapeMoments(const tbGeometry* shape, tbVolumeMoments* out)
{
	switch (shape->type) {
	case tb_sphereShape: {
		float r = shape->radius;
		if (!isfinite(r)) {
			return tb_massNonFinite;
		}
		if (r <= 0.0f) {
			return tb_massBadSize;
		}
		double rd = (double)r;
		double v = 4.0 / 3.0 * TB_PI * rd * rd * rd;
		double s = v * rd * rd / 5.0; // slide table: I = 2/5 m r^2 = m (r^2/5 + r^2/5)
		*out = tbDiagonalMoments(v, 0.0, s, s, s);
		return tb_massOk;
	}
	case tb_boxShape: {
		vec3s e = shape->halfExtents;
		if (!tbIsFiniteVec3(e)) {
			return tb_massNonFinite;
		}
		if (e.x <= 0.0f || e.y <= 0.0f || e.z <= 0.0f) {
			return tb_massBadSize;
		}
		double x = (double)e.x, y = (double)e.y, z = (double)e.z;
		double v = 8.0 * x * y * z;
		// Full side 2a: integral of x^2 over the box / V = (2a)^2 / 12 = a^2 / 3.
		*out = tbDiagonalMoments(v, 0.0, v * x * x / 3.0, v * y * y / 3.0, v * z * z / 3.0);
		return tb_massOk;
	}
	case tb_capsuleShape:
	case tb_cylinderShape:
	case tb_coneShape: {
		float rf = shape->round.radius, hf = shape->round.halfHeight;
		if (!isfinite(rf) || !isfinite(hf)) {
			return tb_massNonFinite;
		}
		// A capsule of zero half height is a sphere; cylinders and cones need a height.
		bool heightOk = shape->type == tb_capsuleShape ? hf >= 0.0f : hf > 0.0f;
		if (rf <= 0.0f || !heightOk) {
			return tb_massBadSize;
		}
		double r = (double)rf, hh = (double)hf, height = 2.0 * hh;
		if (shape->type == tb_cylinderShape) {
			double v = TB_PI * r * r * height;
			double xx = v * r * r / 4.0;
			*out = tbDiagonalMoments(v, 0.0, xx, v * height * height / 12.0, xx);
		} else if (shape->type == tb_coneShape) {
			// About the centroid, a quarter of the height above the base (y = -hh/2), not the apex
			// of the slide table: y variance 3 H^2 / 80 and x variance 3 r^2 / 20, so that
			// Ixx = 3/80 m (4 r^2 + H^2) and Iyy = 3/10 m r^2.
			double v = TB_PI * r * r * height / 3.0;
			double xx = v * 3.0 * r * r / 20.0;
			*out = tbDiagonalMoments(v, -0.5 * hh, xx, v * 3.0 * height * height / 80.0, xx);
		} else {
			// A cylinder of height 2 hh plus two hemispheres whose flat faces sit at y = +-hh. One
			// hemisphere of volume Vh: integral of y^2 = Vh (hh^2 + 2 hh 3r/8 + r^2/5), its
			// centroid being 3r/8 from the flat face.
			double vc = TB_PI * r * r * height;
			double vs = 4.0 / 3.0 * TB_PI * r * r * r;
			double xx = vc * r * r / 4.0 + vs * r * r / 5.0;
			double yy = vc * height * height / 12.0 + vs * (hh * hh + 0.75 * hh * r + r * r / 5.0);
			*out = tbDiagonalMoments(vc + vs, 0.0, xx, yy, xx);
		}
		return tb_massOk;
	}
	case tb_hullShape:
		return tbHullMoments(shape->hull, out);
	case tb_triangleShape:
		return tb_massNoVolume;
	default:
		return tb_massUnknownShape;
	}
}

tbMassData tbComputeMass(const tbGeometry* shape, float density, tbMassError* error)
{
	tbMassData zero = {0};
	tbMassError err = tb_massOk;
	tbVolumeMoments m;
	vec3s s = {{1.0f, 1.0f, 1.0f}};
	if (shape == NULL) {
		err = tb_massNullShape;
	} else if (!tbFiniteAndPositive(density)) {
		err = tb_massBadDensity;
	} else {
		s = shape->scale;
		if (!tbIsFiniteVec3(s)) {
			err = tb_massNonFinite;
		} else if (s.x <= 0.0f || s.y <= 0.0f || s.z <= 0.0f) {
			err = tb_massBadSize;
		} else {
			err = tbShapeMoments(shape, &m);
		}
	}
	if (error != NULL) {
		*error = err;
	}
	if (err != tb_massOk) {
		return zero;
	}

	double sc[3] = {(double)s.x, (double)s.y, (double)s.z};
	double detS = sc[0] * sc[1] * sc[2];
	double rho = (double)density;
	double mass = rho * detS * m.volume;
	double c[3][3];
	for (int r = 0; r < 3; ++r) {
		for (int q = 0; q < 3; ++q) {
			c[r][q] = rho * detS * sc[r] * sc[q] * m.second[r][q];
		}
	}
	double trace = c[0][0] + c[1][1] + c[2][2];
	tbMassData out;
	out.mass = (float)mass;
	out.center = tbV3((float)(sc[0] * m.center[0]), (float)(sc[1] * m.center[1]),
	                  (float)(sc[2] * m.center[2]));
	for (int r = 0; r < 3; ++r) {
		for (int q = 0; q < 3; ++q) {
			out.inertia.col[q].raw[r] = (float)((r == q ? trace : 0.0) - c[r][q]);
		}
	}
	if (!isfinite(out.mass) || !tbIsFiniteMat(out.inertia) || !(out.mass > 0.0f)) {
		// Overflow or underflow of float from extreme sizes or densities.
		if (error != NULL) {
			*error = tb_massBadSize;
		}
		return zero;
	}
	return out;
}

const char* tbMassErrorString(tbMassError error)
{
	switch (error) {
	case tb_massOk:
		return "ok";
	case tb_massNullShape:
		return "shape (or shape.hull) is null";
	case tb_massBadDensity:
		return "density must be > 0 and finite";
	case tb_massNonFinite:
		return "a shape size, scale or hull vertex is NaN or Inf";
	case tb_massBadSize:
		return "a shape radius, half extent, half height or scale is <= 0 (or the mass overflows)";
	case tb_massDegenerateHull:
		return "hull is a point, a segment or a flat polygon: it has no volume (use it only on a "
		       "static body)";
	case tb_massBadHull:
		return "hull faces are inconsistent (index out of range, inward winding or no volume)";
	case tb_massNoVolume:
		return "shape type has no volume (triangle): only static bodies may use it";
	case tb_massUnknownShape:
		return "unknown shape type";
	}
	return "unknown mass error";
}

tbMassData tbCombineMass(tbMassData a, tbMassData b)
{
	tbMassData out = {0};
	float mass = a.mass + b.mass;
	if (!(mass > 0.0f)) {
		return out;
	}
	out.mass = mass;
	out.center = glms_vec3_scale(
	    glms_vec3_add(glms_vec3_scale(a.center, a.mass), glms_vec3_scale(b.center, b.mass)),
	    1.0f / mass);
	// Parallel axis theorem: I about c = I about own centre + m (|d|^2 1 - d d^T), d = own - c.
	const tbMassData* parts[2] = {&a, &b};
	out.inertia = glms_mat3_zero();
	for (int i = 0; i < 2; ++i) {
		vec3s d = glms_vec3_sub(parts[i]->center, out.center);
		mat3s shift = tbMat3MulAdd(tbMat3ScaleM(glms_mat3_identity(), glms_vec3_dot(d, d)), -1.0f,
		                           tbOuter(d, d));
		out.inertia =
		    tbMat3Add(out.inertia, tbMat3MulAdd(parts[i]->inertia, parts[i]->mass, shift));
	}
	return out;
}

// Eigenvalues of a symmetric 3x3 matrix in closed form (Smith, "Eigenvalues of a symmetric 3 x 3
// matrix", Communications of the ACM 4(4), 1961): with q = tr(A)/3 and B = (A - q 1)/p, the
// eigenvalues are q + 2 p cos(phi + 2 pi k / 3), cos(3 phi) = det(B) / 2. Returned ascending.
static void tbSymmetricEigenvalues(double a[3][3], double out[3])
{
	double p1 = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
	double q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
	if (p1 == 0.0) {
		double d[3] = {a[0][0], a[1][1], a[2][2]};
		for (int i = 0; i < 3; ++i) {
			for (int j = i + 1; j < 3; ++j) {
				if (d[j] < d[i]) {
					double t = d[i];
					d[i] = d[j];
					d[j] = t;
				}
			}
		}
		out[0] = d[0];
		out[1] = d[1];
		out[2] = d[2];
		return;
	}
	double p2 = (a[0][0] - q) * (a[0][0] - q) + (a[1][1] - q) * (a[1][1] - q) +
	            (a[2][2] - q) * (a[2][2] - q) + 2.0 * p1;
	double p = sqrt(p2 / 6.0);
	double b[3][3];
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			b[r][c] = (a[r][c] - (r == c ? q : 0.0)) / p;
		}
	}
	double det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) -
	             b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0]) +
	             b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
	double half = fmax(-1.0, fmin(1.0, det / 2.0));
	double phi = acos(half) / 3.0;
	out[2] = q + 2.0 * p * cos(phi);
	out[0] = q + 2.0 * p * cos(phi + 2.0 * TB_PI / 3.0);
	out[1] = 3.0 * q - out[0] - out[2];
}

static bool tbMassFail(char* message, int size, const char* format, double value)
{
	if (message != NULL && size > 0) {
		snprintf(message, (size_t)size, format, value);
	}
	return false;
}

bool tbMassData_IsValid(const tbMassData* mass, char* message, int size)
{
	if (mass == NULL) {
		return tbMassFail(message, size, "mass data is null%.0f", 0.0);
	}
	if (!(isfinite(mass->mass) && mass->mass >= TB_MIN_MASS && mass->mass <= TB_MAX_MASS)) {
		if (message != NULL && size > 0) {
			snprintf(message, (size_t)size, "mass %g kg is outside [%g, %g] kg", (double)mass->mass,
			         (double)TB_MIN_MASS, (double)TB_MAX_MASS);
		}
		return false;
	}
	if (!tbIsFiniteMat(mass->inertia)) {
		return tbMassFail(message, size, "inertia has a NaN or Inf entry%.0f", 0.0);
	}
	// Divide by the largest entry first: the test then does not depend on the body's size.
	double largest = 0.0;
	double a[3][3];
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			a[r][c] = (double)mass->inertia.col[c].raw[r];
			largest = fmax(largest, fabs(a[r][c]));
		}
	}
	if (!(largest > 0.0)) {
		return tbMassFail(message, size, "inertia is zero%.0f", 0.0);
	}
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			a[r][c] /= largest;
		}
	}
	for (int r = 0; r < 3; ++r) {
		for (int c = r + 1; c < 3; ++c) {
			if (fabs(a[r][c] - a[c][r]) > 1e-5) {
				return tbMassFail(message, size, "inertia is not symmetric%.0f", 0.0);
			}
			double mean = 0.5 * (a[r][c] + a[c][r]);
			a[r][c] = mean;
			a[c][r] = mean;
		}
	}
	double eigen[3];
	tbSymmetricEigenvalues(a, eigen);
	if (!(eigen[0] >= (double)TB_MIN_INERTIA_RATIO * eigen[2])) {
		return tbMassFail(
		    message, size,
		    "inertia's smallest principal moment is %g of its largest (needs >= 1e-6: "
		    "the body is too thin or too long)",
		    eigen[2] > 0.0 ? eigen[0] / eigen[2] : 0.0);
	}
	// The moments themselves must be normal floats (their inverse finite).
	if (!(eigen[0] * largest >= (double)FLT_MIN * 1e3)) {
		return tbMassFail(message, size,
		                  "inertia's smallest principal moment %g kg m^2 is too small",
		                  eigen[0] * largest);
	}
	return true;
}
