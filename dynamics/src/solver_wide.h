// Wide floats for the contact solver: one lane per manifold, TB_SIMD_WIDTH lanes at a time.
//
// The contact solver is written once against these few operations. The scalar build (meson
// -Dsimd=scalar) makes a lane a plain float, which is the version to read; SSE2 (the default on
// x86-64) solves 4 manifolds per instruction and AVX2 (-Dsimd=avx2) 8. Every operation is exactly
// rounded in all three (add, sub, mul, div, sqrt, min, max, select; no fused multiply-add, no
// reciprocal estimates), and manifolds of one graph colour share no dynamic body, so the three
// builds compute the same bits (Catto, "SIMD matters", 2024, for the layout).
#pragma once

#include <stdbool.h>

#if defined(TB_SIMD_AVX2)
#include <immintrin.h>
#define TB_SIMD_WIDTH 8
typedef __m256 tbFloatW;
static inline tbFloatW tbSplatW(float a)
{
	return _mm256_set1_ps(a);
}
static inline tbFloatW tbZeroW(void)
{
	return _mm256_setzero_ps();
}
static inline tbFloatW tbLoadW(const float* p)
{
	return _mm256_load_ps(p);
}
static inline void tbStoreW(float* p, tbFloatW a)
{
	_mm256_store_ps(p, a);
}
static inline tbFloatW tbAddW(tbFloatW a, tbFloatW b)
{
	return _mm256_add_ps(a, b);
}
static inline tbFloatW tbSubW(tbFloatW a, tbFloatW b)
{
	return _mm256_sub_ps(a, b);
}
static inline tbFloatW tbMulW(tbFloatW a, tbFloatW b)
{
	return _mm256_mul_ps(a, b);
}
static inline tbFloatW tbDivW(tbFloatW a, tbFloatW b)
{
	return _mm256_div_ps(a, b);
}
static inline tbFloatW tbMaxW(tbFloatW a, tbFloatW b)
{
	return _mm256_max_ps(a, b);
}
static inline tbFloatW tbMinW(tbFloatW a, tbFloatW b)
{
	return _mm256_min_ps(a, b);
}
static inline tbFloatW tbSqrtW(tbFloatW a)
{
	return _mm256_sqrt_ps(a);
}
// Lanes where a > b (all bits set) or not (zero).
static inline tbFloatW tbGreaterW(tbFloatW a, tbFloatW b)
{
	return _mm256_cmp_ps(a, b, _CMP_GT_OQ);
}
static inline tbFloatW tbLessW(tbFloatW a, tbFloatW b)
{
	return _mm256_cmp_ps(a, b, _CMP_LT_OQ);
}
static inline tbFloatW tbAndMaskW(tbFloatW a, tbFloatW b)
{
	return _mm256_and_ps(a, b);
}
// a where mask holds, else +0: one and.
static inline tbFloatW tbKeepW(tbFloatW mask, tbFloatW a)
{
	return _mm256_and_ps(mask, a);
}
// mask ? b : a, lane by lane.
static inline tbFloatW tbSelectW(tbFloatW mask, tbFloatW a, tbFloatW b)
{
	return _mm256_blendv_ps(a, b, mask);
}
static inline bool tbAnyW(tbFloatW mask)
{
	return _mm256_movemask_ps(mask) != 0;
}

#elif defined(TB_SIMD_SSE2)
#include <emmintrin.h>
#define TB_SIMD_WIDTH 4
typedef __m128 tbFloatW;
static inline tbFloatW tbSplatW(float a)
{
	return _mm_set1_ps(a);
}
static inline tbFloatW tbZeroW(void)
{
	return _mm_setzero_ps();
}
static inline tbFloatW tbLoadW(const float* p)
{
	return _mm_load_ps(p);
}
static inline void tbStoreW(float* p, tbFloatW a)
{
	_mm_store_ps(p, a);
}
static inline tbFloatW tbAddW(tbFloatW a, tbFloatW b)
{
	return _mm_add_ps(a, b);
}
static inline tbFloatW tbSubW(tbFloatW a, tbFloatW b)
{
	return _mm_sub_ps(a, b);
}
static inline tbFloatW tbMulW(tbFloatW a, tbFloatW b)
{
	return _mm_mul_ps(a, b);
}
static inline tbFloatW tbDivW(tbFloatW a, tbFloatW b)
{
	return _mm_div_ps(a, b);
}
static inline tbFloatW tbMaxW(tbFloatW a, tbFloatW b)
{
	return _mm_max_ps(a, b);
}
static inline tbFloatW tbMinW(tbFloatW a, tbFloatW b)
{
	return _mm_min_ps(a, b);
}
static inline tbFloatW tbSqrtW(tbFloatW a)
{
	return _mm_sqrt_ps(a);
}
static inline tbFloatW tbGreaterW(tbFloatW a, tbFloatW b)
{
	return _mm_cmpgt_ps(a, b);
}
static inline tbFloatW tbLessW(tbFloatW a, tbFloatW b)
{
	return _mm_cmplt_ps(a, b);
}
static inline tbFloatW tbAndMaskW(tbFloatW a, tbFloatW b)
{
	return _mm_and_ps(a, b);
}
// a where mask holds, else +0: one and.
static inline tbFloatW tbKeepW(tbFloatW mask, tbFloatW a)
{
	return _mm_and_ps(mask, a);
}
static inline tbFloatW tbSelectW(tbFloatW mask, tbFloatW a, tbFloatW b)
{
	// SSE2 has no blend: (mask & b) | (~mask & a).
	return _mm_or_ps(_mm_and_ps(mask, b), _mm_andnot_ps(mask, a));
}
static inline bool tbAnyW(tbFloatW mask)
{
	return _mm_movemask_ps(mask) != 0;
}

#else
// The reference: one manifold at a time, plain floats. Masks are 1 (true) or 0 (false).
#define TB_SIMD_WIDTH 1
typedef float tbFloatW;
static inline tbFloatW tbSplatW(float a)
{
	return a;
}
static inline tbFloatW tbZeroW(void)
{
	return 0.0f;
}
static inline tbFloatW tbLoadW(const float* p)
{
	return *p;
}
static inline void tbStoreW(float* p, tbFloatW a)
{
	*p = a;
}
static inline tbFloatW tbAddW(tbFloatW a, tbFloatW b)
{
	return a + b;
}
static inline tbFloatW tbSubW(tbFloatW a, tbFloatW b)
{
	return a - b;
}
static inline tbFloatW tbMulW(tbFloatW a, tbFloatW b)
{
	return a * b;
}
static inline tbFloatW tbDivW(tbFloatW a, tbFloatW b)
{
	return a / b;
}
// max/min as SSE computes them (the second operand when either is NaN), so the builds agree.
static inline tbFloatW tbMaxW(tbFloatW a, tbFloatW b)
{
	return a > b ? a : b;
}
static inline tbFloatW tbMinW(tbFloatW a, tbFloatW b)
{
	return a < b ? a : b;
}
static inline tbFloatW tbSqrtW(tbFloatW a)
{
	return sqrtf(a);
}
static inline tbFloatW tbGreaterW(tbFloatW a, tbFloatW b)
{
	return a > b ? 1.0f : 0.0f;
}
static inline tbFloatW tbLessW(tbFloatW a, tbFloatW b)
{
	return a < b ? 1.0f : 0.0f;
}
static inline tbFloatW tbAndMaskW(tbFloatW a, tbFloatW b)
{
	return a != 0.0f && b != 0.0f ? 1.0f : 0.0f;
}
// a where mask holds, else +0.
static inline tbFloatW tbKeepW(tbFloatW mask, tbFloatW a)
{
	return mask != 0.0f ? a : 0.0f;
}
static inline tbFloatW tbSelectW(tbFloatW mask, tbFloatW a, tbFloatW b)
{
	return mask != 0.0f ? b : a;
}
static inline bool tbAnyW(tbFloatW mask)
{
	return mask != 0.0f;
}
#endif

// a + b c, in two roundings (never fused: the builds must agree).
static inline tbFloatW tbMulAddW(tbFloatW a, tbFloatW b, tbFloatW c)
{
	return tbAddW(a, tbMulW(b, c));
}

// a - b c
static inline tbFloatW tbMulSubW(tbFloatW a, tbFloatW b, tbFloatW c)
{
	return tbSubW(a, tbMulW(b, c));
}

// Three wide floats: x, y and z of one vector in every lane.
typedef struct tbVec3W
{
	tbFloatW x, y, z;
} tbVec3W;

static inline tbFloatW tbDotW(tbVec3W a, tbVec3W b)
{
	return tbAddW(tbAddW(tbMulW(a.x, b.x), tbMulW(a.y, b.y)), tbMulW(a.z, b.z));
}

// a + s b
static inline tbVec3W tbVecMulAddW(tbVec3W a, tbFloatW s, tbVec3W b)
{
	tbVec3W r = {tbMulAddW(a.x, s, b.x), tbMulAddW(a.y, s, b.y), tbMulAddW(a.z, s, b.z)};
	return r;
}

// a - s b
static inline tbVec3W tbVecMulSubW(tbVec3W a, tbFloatW s, tbVec3W b)
{
	tbVec3W r = {tbMulSubW(a.x, s, b.x), tbMulSubW(a.y, s, b.y), tbMulSubW(a.z, s, b.z)};
	return r;
}

static inline tbVec3W tbVecSubW(tbVec3W a, tbVec3W b)
{
	tbVec3W r = {tbSubW(a.x, b.x), tbSubW(a.y, b.y), tbSubW(a.z, b.z)};
	return r;
}
