// Pulling a drifted orientation matrix back onto the rotations: Gram-Schmidt, polar, quaternion.
#include "tumble/integrator.h"

#include <cglm/struct.h>

#include "dynamics_math.h"

const char* tbOrthonormalizerName(tbOrthonormalizer method)
{
	switch (method) {
	case tb_orthoNone:
		return "none";
	case tb_orthoGramSchmidt:
		return "Gram-Schmidt";
	case tb_orthoPolar:
		return "polar";
	case tb_orthoQuaternion:
		return "quaternion";
	default:
		return "unknown";
	}
}

mat3s tbGramSchmidt(mat3s m)
{
	// The course slides "Gram-Schmidt Process", with two slips of the slide's code fixed: its third
	// column subtracts the projection on the raw second column v1 (not orthogonal to v0) instead of
	// the orthonormalized w1, and is never normalized, so the result is not orthonormal. Here every
	// projection is on the already orthonormal columns (modified Gram-Schmidt).
	vec3s c0 = tbNormalize(m.col[0]);
	vec3s c1 = tbNormalize(tbMulAdd(m.col[1], -glms_vec3_dot(c0, m.col[1]), c0));
	vec3s c2 = tbMulAdd(m.col[2], -glms_vec3_dot(c0, m.col[2]), c0);
	c2 = tbNormalize(tbMulAdd(c2, -glms_vec3_dot(c1, c2), c1));
	mat3s out;
	out.col[0] = c0;
	out.col[1] = c1;
	out.col[2] = c2;
	return out;
}

// E = R^T R - I.
static mat3s tbGramError(mat3s R)
{
	return tbMat3MulAdd(tbMat3Mul(glms_mat3_transpose(R), R), -1.0f, glms_mat3_identity());
}

static float tbMaxAbs(mat3s m)
{
	float e = 0.0f;
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) {
			float a = fabsf(m.col[c].raw[r]);
			e = a > e ? a : e;
		}
	}
	return e;
}

float tbOrthonormalityError(mat3s R)
{
	return tbMaxAbs(tbGramError(R));
}

// The orthogonal polar factor of m, the rotation nearest to m in the Frobenius norm (Higham,
// "Computing the polar decomposition", 1986). Near orthonormal, Bjorck-Bowie's iteration
// X <- X (3 1 - X^T X) / 2 = X (1 - E / 2) converges quadratically with no inverse; far from it,
// Newton's X <- (X + X^-T) / 2 brings it in. Capped: float never gets below ~1e-7.
static mat3s tbPolar(mat3s m)
{
	mat3s x = m;
	for (int iter = 0; iter < 8; ++iter) {
		mat3s e = tbGramError(x);
		float err = tbMaxAbs(e);
		// Always one iteration: stopping while a 1e-6 stretch is left lets it bias the energy,
		// a drift that grows with the step count (tests/test_integrator.c bounds it).
		if (iter > 0 && err <= 1e-6f) {
			break;
		}
		if (err < 0.5f) {
			x = tbMat3Mul(x, tbMat3MulAdd(glms_mat3_identity(), -0.5f, e));
		} else {
			mat3s invT = glms_mat3_transpose(tbMat3Inverse(x));
			x = tbMat3ScaleM(tbMat3Add(x, invT), 0.5f);
		}
	}
	return x;
}

static mat3s tbQuaternionRoundTrip(mat3s m)
{
	// Shepperd's method picks the best-conditioned of the trace and the diagonal.
	versors q = glms_mat3_quat(m);
	q = glms_quat_normalize(q);
	return glms_quat_mat3(q);
}

mat3s tbOrthonormalize(mat3s m, tbOrthonormalizer method)
{
	switch (method) {
	case tb_orthoGramSchmidt:
		return tbGramSchmidt(m);
	case tb_orthoPolar:
		return tbPolar(m);
	case tb_orthoQuaternion:
		return tbQuaternionRoundTrip(m);
	case tb_orthoNone:
	default:
		return m;
	}
}
