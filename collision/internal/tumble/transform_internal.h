// The rotations and transforms of tumble/transform.h as inline functions, for the library's hot
// loops: the narrow phase and the step place points and normals by the thousand a step, and a call
// across files costs more than its dozen multiplications. The exported functions call these, so
// both give the same
// bits. Internal: not installed.
#pragma once

#include "tumble/transform.h"

/// R(q) v: v' = v + 2w (u x v) + 2 u x (u x v), u = (x, y, z) (q a unit quaternion).
static inline vec3s tbRotateInline(versors q, vec3s v)
{
	vec3s u = {{q.x, q.y, q.z}};
	vec3s t = glms_vec3_scale(glms_vec3_cross(u, v), 2.0f);
	return glms_vec3_add(glms_vec3_add(v, glms_vec3_scale(t, q.w)), glms_vec3_cross(u, t));
}

/// R(q)^T v: the rotation by the conjugate.
static inline vec3s tbInvRotateInline(versors q, vec3s v)
{
	versors c = {{-q.x, -q.y, -q.z, q.w}};
	return tbRotateInline(c, v);
}

/// R(q) v + p.
static inline vec3s tbTransformPointInline(tbTransform xf, vec3s v)
{
	return glms_vec3_add(tbRotateInline(xf.q, v), xf.p);
}

/// R(q)^T (v - p).
static inline vec3s tbInvTransformPointInline(tbTransform xf, vec3s v)
{
	return tbInvRotateInline(xf.q, glms_vec3_sub(v, xf.p));
}
