// Repeatable random numbers, directions and rotations for tests and benchmarks: xorshift32, so
// that the cases are the same on every platform.
#pragma once

#include <cglm/struct.h>
#include <math.h>
#include <stdint.h>

// Marsaglia's xorshift32 (Journal of Statistical Software 8(14), 2003); the state must not be 0.
static inline uint32_t tbRandomNext(uint32_t* state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

// Uniform on [0, 1), 24 bits.
static inline float tbRandomUniform(uint32_t* state)
{
	return (float)(tbRandomNext(state) >> 8) / 16777216.0f;
}

// n uniforms on [0, 1) into u, in draw order.
static inline void tbRandomUniforms(uint32_t* state, float* u, int n)
{
	for (int k = 0; k < n; ++k) {
		u[k] = tbRandomUniform(state);
	}
}

// A random unit vector (rejection from the cube; +y if 100 draws all fall outside the shell).
static inline vec3s tbRandomUnit(uint32_t* state)
{
	for (int i = 0; i < 100; ++i) {
		vec3s v = {{2.0f * tbRandomUniform(state) - 1.0f, 2.0f * tbRandomUniform(state) - 1.0f,
		            2.0f * tbRandomUniform(state) - 1.0f}};
		float len = glms_vec3_norm(v);
		if (len > 0.1f && len <= 1.0f) {
			return glms_vec3_scale(v, 1.0f / len);
		}
	}
	return (vec3s){{0.0f, 1.0f, 0.0f}};
}

// A uniformly random rotation (Shoemake, Graphics Gems III: uniform random rotations).
static inline versors tbRandomQuat(uint32_t* state)
{
	float u1 = tbRandomUniform(state), u2 = 6.2831853f * tbRandomUniform(state),
	      u3 = 6.2831853f * tbRandomUniform(state);
	float s1 = sqrtf(1.0f - u1), s2 = sqrtf(u1);
	versors q = {{s1 * sinf(u2), s1 * cosf(u2), s2 * sinf(u3), s2 * cosf(u3)}};
	return glms_quat_normalize(q);
}
