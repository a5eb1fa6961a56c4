// Shared basics of every Tumble module: export macro, assert hook, version.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <cglm/struct.h>

#if defined(_WIN32) && defined(TUMBLE_BUILD_DLL)
#define TB_API __declspec(dllexport)
#elif defined(__GNUC__)
#define TB_API __attribute__((visibility("default")))
#else
#define TB_API
#endif

/// Called when an internal invariant or a programmer error (stale handle, bad definition) is hit.
/// Return non-zero to break into the debugger / abort; zero to continue.
typedef int tbAssertFcn(const char* condition, const char* fileName, int lineNumber);

/// Replace the assert handler (nullptr restores the default, which aborts).
TB_API void tbSetAssertFcn(tbAssertFcn* assertFcn);

/// Internal: forwards to the installed handler.
TB_API int tbInternalAssert(const char* condition, const char* fileName, int lineNumber);

#if !defined(NDEBUG) || defined(TB_ENABLE_ASSERT)
#define TB_ASSERT(condition)                                                                       \
	do {                                                                                           \
		if (!(condition) && tbInternalAssert(#condition, __FILE__, __LINE__)) {                    \
			__builtin_trap();                                                                      \
		}                                                                                          \
	} while (0)
#else
#define TB_ASSERT(condition) ((void)0)
#endif

/// Library version, e.g. "0.1.0".
TB_API const char* tbVersionString(void);
