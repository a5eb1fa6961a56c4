// Small vector and 3x3 matrix helpers of the dynamics module (private; cglm struct layout).
#pragma once

#include <math.h>

#include "tumble/base.h"

// cglm matrices are column-major: m.col[c].raw[r] is row r, column c.

static inline vec3s tbV3(float x, float y, float z)
{
	vec3s v = {{x, y, z}};
	return v;
}

static inline vec3s tbAdd(vec3s a, vec3s b)
{
	return tbV3(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline vec3s tbSub(vec3s a, vec3s b)
{
	return tbV3(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline vec3s tbScale(vec3s a, float s)
{
	return tbV3(a.x * s, a.y * s, a.z * s);
}

// a + s b
static inline vec3s tbMulAdd(vec3s a, float s, vec3s b)
{
	return tbV3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

static inline float tbDot(vec3s a, vec3s b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline vec3s tbCross(vec3s a, vec3s b)
{
	return tbV3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline float tbLength(vec3s a)
{
	return sqrtf(tbDot(a, a));
}

static inline vec3s tbNormalize(vec3s a)
{
	float len = tbLength(a);
	return len > 0.0f ? tbScale(a, 1.0f / len) : a;
}

static inline bool tbIsFiniteVec(vec3s a)
{
	return isfinite(a.x) && isfinite(a.y) && isfinite(a.z);
}

static inline mat3s tbMat3Zero(void)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbV3(0.0f, 0.0f, 0.0f);
	}
	return m;
}

static inline mat3s tbMat3Identity(void)
{
	mat3s m = tbMat3Zero();
	m.col[0].x = 1.0f;
	m.col[1].y = 1.0f;
	m.col[2].z = 1.0f;
	return m;
}

static inline mat3s tbMat3Diag(float a, float b, float c)
{
	mat3s m = tbMat3Zero();
	m.col[0].x = a;
	m.col[1].y = b;
	m.col[2].z = c;
	return m;
}

static inline vec3s tbMat3MulV(mat3s m, vec3s v)
{
	return tbAdd(tbAdd(tbScale(m.col[0], v.x), tbScale(m.col[1], v.y)), tbScale(m.col[2], v.z));
}

static inline mat3s tbMat3Mul(mat3s a, mat3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbMat3MulV(a, b.col[c]);
	}
	return m;
}

static inline mat3s tbMat3Transpose(mat3s a)
{
	mat3s m;
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			m.col[c].raw[r] = a.col[r].raw[c];
		}
	}
	return m;
}

static inline mat3s tbMat3Add(mat3s a, mat3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbAdd(a.col[c], b.col[c]);
	}
	return m;
}

static inline mat3s tbMat3ScaleM(mat3s a, float s)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbScale(a.col[c], s);
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

// R A R^T: a body-frame tensor in world axes (seed 002: I(t) = R Ibody R^T).
static inline mat3s tbMat3Rotate(mat3s R, mat3s A)
{
	return tbMat3Mul(tbMat3Mul(R, A), tbMat3Transpose(R));
}

// The outer product a b^T.
static inline mat3s tbOuter(vec3s a, vec3s b)
{
	mat3s m;
	for (int c = 0; c < 3; ++c) {
		m.col[c] = tbScale(a, b.raw[c]);
	}
	return m;
}

static inline float tbMat3Det(mat3s m)
{
	return tbDot(m.col[0], tbCross(m.col[1], m.col[2]));
}

// Inverse by cofactors; returns zero for a singular matrix.
static inline mat3s tbMat3Inverse(mat3s m)
{
	vec3s a = m.col[0], b = m.col[1], c = m.col[2];
	float det = tbDot(a, tbCross(b, c));
	if (det == 0.0f || !isfinite(det)) {
		return tbMat3Zero();
	}
	float inv = 1.0f / det;
	// Rows of the inverse are the cross products of the columns (divided by det).
	vec3s r0 = tbScale(tbCross(b, c), inv);
	vec3s r1 = tbScale(tbCross(c, a), inv);
	vec3s r2 = tbScale(tbCross(a, b), inv);
	mat3s out;
	out.col[0] = tbV3(r0.x, r1.x, r2.x);
	out.col[1] = tbV3(r0.y, r1.y, r2.y);
	out.col[2] = tbV3(r0.z, r1.z, r2.z);
	return out;
}

static inline bool tbIsFiniteMat(mat3s m)
{
	return tbIsFiniteVec(m.col[0]) && tbIsFiniteVec(m.col[1]) && tbIsFiniteVec(m.col[2]);
}
