// The few vector and 3x3 matrix helpers of the dynamics module that cglm lacks or does differently
// (private; cglm struct layout and the glms_* functions for everything else).
#pragma once

#include "tumble/transform.h"
#include <math.h>

#include "tumble/base.h"

// cglm matrices are column-major: m.col[c].raw[r] is row r, column c.

static inline vec3s tbV3(float x, float y, float z)
{
	vec3s v = {{x, y, z}};
	return v;
}

// a + s b
static inline vec3s tbMulAdd(vec3s a, float s, vec3s b)
{
	return tbV3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

static inline vec3s tbNormalize(vec3s a)
{
	float len = glms_vec3_norm(a);
	return len > 0.0f ? glms_vec3_scale(a, 1.0f / len) : a;
}

static inline vec3s tbMat3MulV(mat3s m, vec3s v)
{
	return glms_vec3_add(
	    glms_vec3_add(glms_vec3_scale(m.col[0], v.x), glms_vec3_scale(m.col[1], v.y)),
	    glms_vec3_scale(m.col[2], v.z));
}

static inline mat3s tbMat3Mul(mat3s a, mat3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbMat3MulV(a, b.col[c]);
	}
	return m;
}

static inline mat3s tbMat3Add(mat3s a, mat3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = glms_vec3_add(a.col[c], b.col[c]);
	}
	return m;
}

static inline mat3s tbMat3ScaleM(mat3s a, float s)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = glms_vec3_scale(a.col[c], s);
	}
	return m;
}

// a + s b
static inline mat3s tbMat3MulAdd(mat3s a, float s, mat3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbMulAdd(a.col[c], s, b.col[c]);
	}
	return m;
}

// Whether A is a multiple of the identity, to the bit (a sphere's or a cube's inertia).
static inline bool tbMat3IsIsotropic(const mat3s* A)
{
	float d = A->col[0].x;
	return A->col[1].y == d && A->col[2].z == d && A->col[0].y == 0.0f && A->col[0].z == 0.0f &&
	       A->col[1].x == 0.0f && A->col[1].z == 0.0f && A->col[2].x == 0.0f && A->col[2].y == 0.0f;
}

// R A R^T: a body-frame tensor in world axes (course slides: I(t) = R Ibody R^T). A multiple of
// the identity turns into itself (R c 1 R^T = c R R^T = c 1), exactly, where the products would
// leave rounding off the diagonal.
static inline mat3s tbMat3Rotate(mat3s R, mat3s A)
{
	if (tbMat3IsIsotropic(&A)) {
		return A;
	}
	return tbMat3Mul(tbMat3Mul(R, A), glms_mat3_transpose(R));
}

// The outer product a b^T.
static inline mat3s tbOuter(vec3s a, vec3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = glms_vec3_scale(a, b.raw[c]);
	}
	return m;
}

static inline float tbMat3Det(mat3s m)
{
	return glms_vec3_dot(m.col[0], glms_vec3_cross(m.col[1], m.col[2]));
}

// Inverse by cofactors; returns zero for a singular matrix.
static inline mat3s tbMat3Inverse(mat3s m)
{
	vec3s a = m.col[0], b = m.col[1], c = m.col[2];
	float det = glms_vec3_dot(a, glms_vec3_cross(b, c));
	if (det == 0.0f || !isfinite(det)) {
		return glms_mat3_zero();
	}
	float inv = 1.0f / det;
	// Rows of the inverse are the cross products of the columns (divided by det).
	vec3s r0 = glms_vec3_scale(glms_vec3_cross(b, c), inv);
	vec3s r1 = glms_vec3_scale(glms_vec3_cross(c, a), inv);
	vec3s r2 = glms_vec3_scale(glms_vec3_cross(a, b), inv);
	mat3s out;
	out.col[0] = tbV3(r0.x, r1.x, r2.x);
	out.col[1] = tbV3(r0.y, r1.y, r2.y);
	out.col[2] = tbV3(r0.z, r1.z, r2.z);
	return out;
}

static inline bool tbIsFiniteMat(mat3s m)
{
	return tbIsFiniteVec3(m.col[0]) && tbIsFiniteVec3(m.col[1]) && tbIsFiniteVec3(m.col[2]);
}

// atan2(y, x) to float precision without the C library's call: the joints read two or three
// angles per joint and pass (a ball joint's swing and twist, a hinge's angle), where libm's
// atan2f, with its wrapper and special cases, costs several times the arithmetic. The ratio of
// the smaller to the larger magnitude, t in [0, 1], is brought into [-tan(pi/8), tan(pi/8)] by
// atan t = pi/4 + atan((t - 1) / (t + 1)), where the odd polynomial of Cephes' atanf (Moshier,
// "Methods and Programs for Mathematical Functions", 1989) is within 2e-7 of atan; then the
// octant is restored: pi/2 - r where |y| > |x|, pi - r where x < 0 (its sign bit, so that
// atan2(0, -0) = pi as in C), and the sign of y. Zero where both are zero; NaN in, NaN out.
static inline float tbAtan2(float y, float x)
{
	float ax = fabsf(x), ay = fabsf(y);
	bool steep = ay > ax;
	float num = steep ? ax : ay, den = steep ? ay : ax;
	float t = den > 0.0f ? num / den : (den == 0.0f && num == 0.0f ? 0.0f : num + den);
	float base = 0.0f;
	if (t > 0.41421356f) {
		base = 0.78539816f;
		t = (t - 1.0f) / (t + 1.0f);
	}
	float z = t * t;
	float p = ((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
	          3.33329491539e-1f;
	float r = base + (t + t * z * p);
	r = steep ? 1.57079633f - r : r;
	r = signbit(x) ? 3.14159265f - r : r;
	return copysignf(r, y);
}
