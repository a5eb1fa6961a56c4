// Shared basics of every Tumble module: export macro, assert hook, version.
#pragma once

#include <stdbool.h>
#include <stdint.h>

// C++ has no anonymous structs in ISO, so cglm leaves vec3s.x etc. out there unless asked; GCC,
// Clang and MSVC all accept them, and Tumble's API reads and writes vectors by member.
#if defined(__cplusplus) && !defined(CGLM_USE_ANONYMOUS_STRUCT)
#define CGLM_USE_ANONYMOUS_STRUCT 1
#endif
#include <cglm/struct.h>

#include "tumble/version.h"

// Exported from libtumble (the library is built with -fvisibility=hidden: what is not marked TB_API
// stays inside). From C++ every TB_API function has C linkage, as Box2D v3 does with B2_API, so
// the headers need no extern "C" block of their own.
#if defined(_WIN32) && defined(TUMBLE_BUILD_DLL)
#define TB_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define TB_EXPORT __attribute__((visibility("default")))
#else
#define TB_EXPORT
#endif
#ifdef __cplusplus
#define TB_API extern "C" TB_EXPORT
#else
#define TB_API TB_EXPORT
#endif

/// Called when an internal invariant or a programmer error (stale handle, bad definition) is hit.
/// Return non-zero to break into the debugger / abort; zero to continue.
typedef int tbAssertFcn(const char* condition, const char* fileName, int lineNumber);

/// Replace the assert handler (nullptr restores the default, which aborts).
TB_API void tbSetAssertFcn(tbAssertFcn* assertFcn);

/// Internal: forwards to the installed handler.
TB_API int tbInternalAssert(const char* condition, const char* fileName, int lineNumber);

/// Check an invariant in debug builds (or with TB_ENABLE_ASSERT): a failure calls the assert hook.
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

/// Library version, e.g. "0.1.0" (TB_VERSION_STRING of the library that was linked).
TB_API const char* tbVersionString(void);

/// A version as three numbers.
typedef struct tbVersion
{
	int major; ///< incompatible API changes
	int minor; ///< added features
	int patch; ///< fixes
} tbVersion;

/// The version of the library that was linked; compare with TB_VERSION_MAJOR etc. of the headers
/// the program was compiled with.
TB_API tbVersion tbGetVersion(void);
