// CHECK: a Criterion assert that costs one branch while it holds, for the tests whose loops check
// thousands of poses (Criterion's asserts are not free in such loops).
#pragma once

#include <criterion/criterion.h>

// Asserts only on failure.
#define CHECK(condition, ...)                                                                      \
	do {                                                                                           \
		if (!(condition)) {                                                                        \
			cr_assert(condition, __VA_ARGS__);                                                     \
		}                                                                                          \
	} while (0)
