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
