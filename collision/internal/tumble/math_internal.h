// Scalar helpers for the library's hot loops, shared by the modules. Internal: not installed.
#pragma once

#include <math.h>

/// fminf inline (GCC leaves fminf a library call for its rule on NaNs): a NaN operand gives the
/// other, and a tie (+0 and -0) the second, as the x86-64 C library's minss does.
static inline float tbFMin(float x, float y)
{
	return isnan(y) ? x : (x < y ? x : y);
}

/// fmaxf inline, by the same rule as tbFMin.
static inline float tbFMax(float x, float y)
{
	return isnan(y) ? x : (x > y ? x : y);
}
