// The engine's basics: the last error message, growable arrays, finite checks and the profile
// clock.
#define _POSIX_C_SOURCE 200809L // clock_gettime for the step's profile

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "world_internal.h"

static char s_lastError[256];

// A monotonic clock in milliseconds for the profile (never for the simulation itself).
double tbMilliseconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

const char* tbGetLastError(void)
{
	return s_lastError;
}

void tbClearLastError(void)
{
	s_lastError[0] = '\0';
}

void tbSetError(const char* format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(s_lastError, sizeof s_lastError, format, args);
	va_end(args);
}

void tbGrowArray(void** array, int* capacity, int need, size_t elem)
{
	if (need <= *capacity) {
		return;
	}
	int newCapacity = *capacity > 0 ? *capacity : 16;
	while (newCapacity < need) {
		// Doubling past INT_MAX / 2 would overflow: take the need itself then.
		newCapacity = newCapacity > INT_MAX / 2 ? need : 2 * newCapacity;
	}
	*array = tbGrowAllocZeroed(*array, (size_t)*capacity * elem, (size_t)newCapacity * elem);
	*capacity = newCapacity;
}

void tbGrowArrayUncleared(void** array, int* capacity, int need, size_t elem)
{
	if (need <= *capacity) {
		return;
	}
	int newCapacity = *capacity > 0 ? *capacity : 16;
	while (newCapacity < need) {
		newCapacity = newCapacity > INT_MAX / 2 ? need : 2 * newCapacity;
	}
	*array = tbGrowAlloc(*array, (size_t)*capacity * elem, (size_t)newCapacity * elem);
	*capacity = newCapacity;
}

bool tbFiniteQuat(versors q)
{
	return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w) &&
	       q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12f;
}

bool tbCoordinatesInRange(vec3s v)
{
	return fabsf(v.x) <= TB_MAX_COORDINATE && fabsf(v.y) <= TB_MAX_COORDINATE &&
	       fabsf(v.z) <= TB_MAX_COORDINATE;
}
