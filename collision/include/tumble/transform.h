// Rigid transforms: a position and a unit quaternion (cglm versors, x y z w in memory).
#pragma once

#include <math.h>

#include "tumble/base.h"

/// A rigid transform: world = R(q) * local + p. q must be a unit quaternion.
typedef struct tbTransform
{
	vec3s p;   ///< translation, metres
	versors q; ///< rotation, unit quaternion (cglm layout: x, y, z, w)
} tbTransform;

/// True when every component of v is finite (no NaN or infinity): the one check the modules,
/// the tool and the demo use for vectors from outside.
static inline bool tbIsFiniteVec3(vec3s v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/// The cosine and sine of one angle.
typedef struct tbCosSin
{
	float cosine; ///< cos(angle)
	float sine;   ///< sin(angle)
} tbCosSin;

/// cos and sin of `angle` (radians) from float additions and multiplications alone, so that every
/// platform gets the same bits (the C libraries' sinf and cosf differ in the last bit between
/// glibc and the WebAssembly build's musl). Within 2 float ulps of 1 of the true values for
/// |angle| < 1e4; beyond, the C library's. NaN or infinity in, NaN out. Inline: a body's turn
/// takes one each substep.
static inline tbCosSin tbComputeCosSin(float angle)
{
	tbCosSin out;
	if (!(fabsf(angle) < 1e4f)) {
		bool finite = isfinite(angle);
		out.cosine = finite ? cosf(angle) : NAN;
		out.sine = finite ? sinf(angle) : NAN;
		return out;
	}
	// angle = k pi/2 + r with |r| <= pi/4, k rounded half away from zero: pi/2 in three parts
	// (Cody and Waite, "Software Manual for the Elementary Functions", 1980), the first two with
	// few enough bits that k times them is exact for |k| < 2^13, so r keeps its precision.
	float t = angle * 0.636619772f;
	int q = (int)(t + (t < 0.0f ? -0.5f : 0.5f));
	float k = (float)q;
	float r =
	    ((angle - k * 1.5703125f) - k * 4.837512969970703125e-4f) - k * 7.54978995489188216e-8f;
	// The minimax polynomials of Cephes' sinf and cosf on [-pi/4, pi/4] (Moshier, "Methods and
	// Programs for Mathematical Functions", 1989), evaluated in this one order everywhere.
	float r2 = r * r;
	float s = r + r * r2 * (-1.6666654611e-1f + r2 * (8.3321608736e-3f - r2 * 1.9515295891e-4f));
	float c =
	    1.0f - 0.5f * r2 +
	    r2 * r2 *
	        (4.166664568298827e-2f + r2 * (-1.388731625493765e-3f + r2 * 2.443315711809948e-5f));
	// The quadrant: k mod 4 (two's complement keeps it for negative k).
	int quadrant = q & 3;
	out.cosine = quadrant == 0 ? c : (quadrant == 1 ? -s : (quadrant == 2 ? -c : s));
	out.sine = quadrant == 0 ? s : (quadrant == 1 ? c : (quadrant == 2 ? -s : -c));
	return out;
}

/// The identity transform.
TB_API tbTransform tbTransformIdentity(void);

/// A transform from a position and a quaternion; q is normalised here.
TB_API tbTransform tbMakeTransform(vec3s p, versors q);

/// A transform from a position and a rotation matrix (columns are the frame's axes, Casalino 2021
/// eq. 37). The matrix is re-orthonormalised before conversion, so small drift is tolerated.
TB_API tbTransform tbTransformFromMatrix(vec3s p, mat3s rotation);

/// Quaternion of the XYZ Euler angles of Casalino 2021 appendix B (radians):
/// R = Rx(gx) * Ry(gy) * Rz(gz), i.e. x first, then the new y, then the new z.
TB_API versors tbQuatFromEulerXYZ(float gx, float gy, float gz);

/// Rotation matrix of Casalino 2021 appendix B, eq. 38.
TB_API mat3s tbMatrixFromEulerXYZ(float gx, float gy, float gz);

/// Apply: R(q) * v + p.
TB_API vec3s tbTransformPoint(tbTransform xf, vec3s v);

/// Inverse apply: R(q)^T * (v - p).
TB_API vec3s tbInvTransformPoint(tbTransform xf, vec3s v);

/// Rotate a direction: R(q) * v.
TB_API vec3s tbRotateVector(versors q, vec3s v);

/// Inverse rotate a direction: R(q)^T * v.
TB_API vec3s tbInvRotateVector(versors q, vec3s v);

/// B relative to A: A^-1 * B, formed in double so that two nearby poses far from the origin keep
/// their relative precision (both inputs are exact in double).
TB_API tbTransform tbInvMulTransforms(tbTransform a, tbTransform b);

/// A * B.
TB_API tbTransform tbMulTransforms(tbTransform a, tbTransform b);

/// A transform given in double precision, as read from text files (positions ~1e3 with mm shapes).
typedef struct tbTransformd
{
	double p[3]; ///< translation, metres
	double q[4]; ///< rotation quaternion, w x y z order (as in query files), normalised on use
} tbTransformd;

/// B relative to A computed fully in double, then rounded to float.
TB_API tbTransform tbRelativeTransformd(const tbTransformd* a, const tbTransformd* b);

/// Map a point from A's frame to world in double (for reporting results of local queries).
TB_API void tbTransformPointd(const tbTransformd* xf, vec3s local, double out[3]);

/// Rotate a direction from A's frame to world in double.
TB_API void tbRotateVectord(const tbTransformd* xf, vec3s local, double out[3]);
