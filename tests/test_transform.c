// Transform helpers: Euler XYZ of Casalino 2021 appendix B (eq. 38, R = Rx * Ry * Rz), quaternion
// and matrix agree, tbTransformFromMatrix round trip, tbInvMulTransforms and the double path.
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <tumble/tumble.h>

#include "narrow_oracle.h"

/// Eq. 38 written out in double, row-major: the independent answer.
static void eulerMatrix(double gx, double gy, double gz, double m[3][3])
{
	double rx[3][3] = {{1, 0, 0}, {0, cos(gx), -sin(gx)}, {0, sin(gx), cos(gx)}};
	double ry[3][3] = {{cos(gy), 0, sin(gy)}, {0, 1, 0}, {-sin(gy), 0, cos(gy)}};
	double rz[3][3] = {{cos(gz), -sin(gz), 0}, {sin(gz), cos(gz), 0}, {0, 0, 1}};
	double t[3][3] = {{0}};
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			for (int k = 0; k < 3; ++k) {
				t[i][j] += rx[i][k] * ry[k][j];
			}
		}
	}
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			m[i][j] = 0;
			for (int k = 0; k < 3; ++k) {
				m[i][j] += t[i][k] * rz[k][j];
			}
		}
	}
}

Test(transform, euler_xyz_matches_eq38)
{
	Rng rng = {38};
	for (int n = 0; n < 200; ++n) {
		double g[3] = {rngUniform(&rng, -M_PI, M_PI), rngUniform(&rng, -M_PI / 2, M_PI / 2),
		               rngUniform(&rng, -M_PI, M_PI)};
		double m[3][3];
		eulerMatrix(g[0], g[1], g[2], m);
		mat3s mf = tbMatrixFromEulerXYZ((float)g[0], (float)g[1], (float)g[2]);
		versors q = tbQuatFromEulerXYZ((float)g[0], (float)g[1], (float)g[2]);
		for (int j = 0; j < 3; ++j) {
			dvec col = dv(m[0][j], m[1][j], m[2][j]);
			dvec e = dv(j == 0, j == 1, j == 2);
			// Column j of the matrix (cglm is column-major) and R(q) e_j.
			double dm = dnorm(dsub(dvf(mf.col[j]), col));
			double dq = dnorm(dsub(drotate(q, e), col));
			cr_expect(dm < 1e-6 && dq < 1e-6,
			          "euler (%g %g %g) column %d: matrix off %.3g, quaternion off %.3g", g[0],
			          g[1], g[2], j, dm, dq);
		}
	}
	// A single axis: Rx(90 deg) turns y onto z.
	versors qx = tbQuatFromEulerXYZ((float)(M_PI / 2), 0.0f, 0.0f);
	dvec y = drotate(qx, dv(0, 1, 0));
	cr_expect(dnorm(dsub(y, dv(0, 0, 1))) < 1e-6, "Rx(90) y = (%g %g %g)", y.x, y.y, y.z);
}

Test(transform, from_matrix_round_trip)
{
	Rng rng = {7};
	for (int n = 0; n < 500; ++n) {
		versors q = rngQuat(&rng);
		mat3s m;
		for (int j = 0; j < 3; ++j) {
			m.col[j] = fvd(drotate(q, dv(j == 0, j == 1, j == 2)));
		}
		tbTransform xf = tbTransformFromMatrix((vec3s){{1.0f, 2.0f, 3.0f}}, m);
		double dot = (double)(xf.q.x * q.x + xf.q.y * q.y + xf.q.z * q.z + xf.q.w * q.w);
		cr_expect(fabs(fabs(dot) - 1.0) < 1e-6, "round trip q . q' = %.9g", dot);
		cr_expect(xf.p.x == 1.0f && xf.p.y == 2.0f && xf.p.z == 3.0f);
	}
	// A drifted matrix (1e-3 off orthonormal) still gives a unit quaternion.
	mat3s d = tbMatrixFromEulerXYZ(0.3f, -0.2f, 1.1f);
	d.col[0].x *= 1.001f;
	d.col[1].y += 0.001f;
	tbTransform xf = tbTransformFromMatrix((vec3s){{0, 0, 0}}, d);
	double len =
	    sqrt((double)(xf.q.x * xf.q.x + xf.q.y * xf.q.y + xf.q.z * xf.q.z + xf.q.w * xf.q.w));
	cr_expect(fabs(len - 1.0) < 1e-6, "drifted matrix: |q| = %.9g", len);
}

Test(transform, point_and_inverse)
{
	Rng rng = {11};
	for (int n = 0; n < 200; ++n) {
		tbTransform a = tbMakeTransform(fvd(dscale(rngUnit(&rng), 3.0)), rngQuat(&rng));
		tbTransform b = tbMakeTransform(fvd(dscale(rngUnit(&rng), 3.0)), rngQuat(&rng));
		dvec v = dscale(rngUnit(&rng), 2.0);
		// tbTransformPoint / tbInvTransformPoint against the double rotation.
		dvec w = dvf(tbTransformPoint(a, fvd(v)));
		cr_expect(dnorm(dsub(w, dxfPoint(a, dvf(fvd(v))))) < 1e-5, "tbTransformPoint");
		dvec back = dvf(tbInvTransformPoint(a, fvd(w)));
		cr_expect(dnorm(dsub(back, v)) < 1e-5, "tbInvTransformPoint round trip");
		cr_expect(dnorm(dsub(dvf(tbInvRotateVector(a.q, tbRotateVector(a.q, fvd(v)))), v)) < 1e-5);
		// A^-1 B maps B-local points to A-local points.
		tbTransform rel = tbInvMulTransforms(a, b);
		dvec inA = dvf(tbTransformPoint(rel, fvd(v)));
		dvec expect = dxfInvPoint(a, dxfPoint(b, dvf(fvd(v))));
		cr_expect(dnorm(dsub(inA, expect)) < 1e-5, "tbInvMulTransforms off by %.3g",
		          dnorm(dsub(inA, expect)));
		// A * (A^-1 B) = B.
		tbTransform again = tbMulTransforms(a, rel);
		cr_expect(dnorm(dsub(dvf(again.p), dvf(b.p))) < 1e-5, "tbMulTransforms position");
		dvec e = dv(0.3, -0.4, 0.8);
		cr_expect(dnorm(dsub(drotate(again.q, e), drotate(b.q, e))) < 1e-5,
		          "tbMulTransforms rotation");
	}
}

// Two nearby poses far from the origin: the relative pose keeps its precision (
// positions ~1e3 with millimetre shapes).
Test(transform, relative_pose_far_from_origin)
{
	tbTransformd a = {{1000.0001, -2000.0002, 3000.0003}, {0.9, 0.1, -0.3, 0.2}};
	tbTransformd b = {{1000.0011, -2000.0007, 3000.0004}, {0.9, 0.1, -0.3, 0.2}};
	tbTransform rel = tbRelativeTransformd(&a, &b);
	// Same rotation: the relative position is R^T (pB - pA), |pB - pA| = sqrt(1 + 0.25 + 0.01) mm.
	double len = dnorm(dvf(rel.p));
	cr_expect(fabs(len - sqrt(1e-6 + 0.25e-6 + 0.01e-6)) < 1e-9, "relative distance %.12g", len);
	cr_expect(fabs((double)rel.q.w) > 1.0 - 1e-7, "relative rotation not identity");
	double out[3];
	tbTransformPointd(&a, rel.p, out);
	cr_expect(fabs(out[0] - b.p[0]) < 1e-9 && fabs(out[1] - b.p[1]) < 1e-9 &&
	              fabs(out[2] - b.p[2]) < 1e-9,
	          "tbTransformPointd maps B's origin back: (%.12g %.12g %.12g)", out[0], out[1],
	          out[2]);
}

// tbComputeCosSin against double precision's cos and sin (the independent answer): within two
// ulps of 1 over a fine sweep of the angles a step turns by and far beyond, every quadrant and
// both signs; exact at 0, NaN out for NaN or infinity in.
Test(transform, cos_sin_within_two_ulps)
{
	double worst = 0.0;
	float worstAngle = 0.0f;
	for (int i = -200000; i <= 200000; ++i) {
		float angle = (float)i * 1.0e-4f * 3.7f; // |angle| up to 74 rad
		tbCosSin cs = tbComputeCosSin(angle);
		double c = cos((double)angle), s = sin((double)angle);
		double e = fmax(fabs((double)cs.cosine - c), fabs((double)cs.sine - s));
		if (e > worst) {
			worst = e;
			worstAngle = angle;
		}
	}
	cr_log_info("largest error %.3g at %.6f rad\n", worst, (double)worstAngle);
	cr_expect_leq(worst, 2.0 * (double)FLT_EPSILON, "error %g at %g rad", worst,
	              (double)worstAngle);
	tbCosSin zero = tbComputeCosSin(0.0f);
	cr_expect_eq(zero.cosine, 1.0f);
	cr_expect_eq(zero.sine, 0.0f);
	// The quarter turns land on the axes to float precision of pi/2's own rounding.
	tbCosSin quarter = tbComputeCosSin(1.57079633f);
	cr_expect_leq(fabsf(quarter.cosine), 1e-7f);
	cr_expect_eq(quarter.sine, 1.0f);
	cr_expect(isnan(tbComputeCosSin(NAN).sine) && isnan(tbComputeCosSin(INFINITY).cosine));
	// Past 1e4 rad the C library's (large angles are no turn a step makes).
	tbCosSin big = tbComputeCosSin(12345.0f);
	cr_expect_leq(fabs((double)big.cosine - cos(12345.0)), 1e-6);
}
