// The closest points of two segments (Ericson, Real-Time Collision Detection 5.1.9): used by
// the separating-axis test's edge pairs and the round shapes' closed-form query.
#include "segments.h"

static float tbClamp01(float x)
{
	return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}

// Closest points of the segments p + s dp and q + u dq, s and u in [0, 1] (Ericson, Real-Time
// Collision Detection 5.1.9): the lines' closest pair, clamped to one segment and then the other;
// either segment may be a point (dp or dq zero).
void tbClosestSegments(vec3s p, vec3s dp, vec3s q, vec3s dq, vec3s* onP, vec3s* onQ)
{
	vec3s w = glms_vec3_sub(p, q);
	float a = glms_vec3_dot(dp, dp), e = glms_vec3_dot(dq, dq), b = glms_vec3_dot(dp, dq);
	float c = glms_vec3_dot(dp, w), f = glms_vec3_dot(dq, w);
	if (!(e > 0.0f)) {
		// The second is a point: the first segment's point closest to it.
		*onP = glms_vec3_add(p, glms_vec3_scale(dp, a > 0.0f ? tbClamp01(-c / a) : 0.0f));
		*onQ = q;
		return;
	}
	float denom = a * e - b * b;
	float s = denom > 0.0f ? tbClamp01((b * f - c * e) / denom) : 0.0f;
	float u = (b * s + f) / e;
	if (u < 0.0f) {
		u = 0.0f;
		s = a > 0.0f ? tbClamp01(-c / a) : 0.0f;
	} else if (u > 1.0f) {
		u = 1.0f;
		s = a > 0.0f ? tbClamp01((b - c) / a) : 0.0f;
	}
	*onP = glms_vec3_add(p, glms_vec3_scale(dp, s));
	*onQ = glms_vec3_add(q, glms_vec3_scale(dq, u));
}
