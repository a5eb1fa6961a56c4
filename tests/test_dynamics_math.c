// The dynamics module's own math helpers against the C library (white-box: dynamics_math.h).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "dynamics_math.h"

// tbAtan2 against double-precision atan2 on every octant and over six decades of ratios, at the
// points where its range reduction switches (tan(pi/8), |y| = |x|), and at the signed zeros. The
// bound is a few float roundings of the result: 2e-7 relative and 2e-7 rad absolute.
Test(dynamics_math, atan2_matches_the_c_library_to_float_precision)
{
	double worst = 0.0;
	uint32_t seed = 12345u;
	for (int i = 0; i < 200000; ++i) {
		seed = seed * 1664525u + 1013904223u;
		double u = (double)(seed >> 8) / 16777216.0;
		seed = seed * 1664525u + 1013904223u;
		double v = (double)(seed >> 8) / 16777216.0;
		// An angle anywhere on the circle and a radius from 1e-3 to 1e3.
		double angle = (u * 2.0 - 1.0) * 3.141592653589793;
		double radius = pow(10.0, v * 6.0 - 3.0);
		float x = (float)(radius * cos(angle)), y = (float)(radius * sin(angle));
		double want = atan2((double)y, (double)x);
		double err = fabs((double)tbAtan2(y, x) - want);
		double bound = 2e-7 + 2e-7 * fabs(want);
		worst = err / bound > worst ? err / bound : worst;
		cr_assert(err <= bound, "atan2(%.9g, %.9g) = %.9g, want %.9g", (double)y, (double)x,
		          (double)tbAtan2(y, x), want);
	}
	const float t8 = 0.41421356f;
	const float edges[][2] = {{t8, 1.0f},     {nextafterf(t8, 1.0f), 1.0f},
	                          {1.0f, 1.0f},   {-1.0f, 1.0f},
	                          {1.0f, -1.0f},  {-1.0f, -1.0f},
	                          {1e-30f, 1.0f}, {1.0f, 1e-30f},
	                          {3.0f, -1e-30f}};
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
		float y = edges[i][0], x = edges[i][1];
		double want = atan2((double)y, (double)x);
		cr_expect(fabs((double)tbAtan2(y, x) - want) <= 2e-7 + 2e-7 * fabs(want),
		          "atan2(%g, %g) = %.9g, want %.9g", (double)y, (double)x, (double)tbAtan2(y, x),
		          want);
	}
	// The signed zeros as C has them, and NaN kept.
	cr_expect(tbAtan2(0.0f, 1.0f) == 0.0f && !signbit(tbAtan2(0.0f, 1.0f)));
	cr_expect(tbAtan2(-0.0f, 1.0f) == 0.0f && signbit(tbAtan2(-0.0f, 1.0f)));
	cr_expect(fabsf(tbAtan2(0.0f, -1.0f) - 3.14159265f) < 1e-6f);
	cr_expect(fabsf(tbAtan2(-0.0f, -1.0f) + 3.14159265f) < 1e-6f);
	cr_expect(fabsf(tbAtan2(0.0f, -0.0f) - 3.14159265f) < 1e-6f);
	cr_expect(tbAtan2(0.0f, 0.0f) == 0.0f);
	cr_expect(isnan(tbAtan2(NAN, 1.0f)) && isnan(tbAtan2(1.0f, NAN)) && isnan(tbAtan2(NAN, 0.0f)));
	cr_log_info("tbAtan2: worst error %.3f of the bound", worst);
}
