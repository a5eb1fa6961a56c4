// The part of cJSON's API (github.com/DaveGamble/cJSON) that the scene loader uses, for builds
// where the cJSON library is not at hand (the WebAssembly build, scripts/web.sh): a small reader
// written for Tumble with cJSON's names, tree layout and number parsing (strtod), so that scene/
// compiles unchanged and reads the same numbers.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Value kinds (bit flags, as cJSON's).
#define cJSON_Invalid 0
#define cJSON_False (1 << 0)
#define cJSON_True (1 << 1)
#define cJSON_NULL (1 << 2)
#define cJSON_Number (1 << 3)
#define cJSON_String (1 << 4)
#define cJSON_Array (1 << 5)
#define cJSON_Object (1 << 6)

/// Deepest nesting of arrays and objects the reader accepts (cJSON's CJSON_NESTING_LIMIT).
#define CJSON_NESTING_LIMIT 1000

/// cJSON's boolean.
typedef int cJSON_bool;

/// One value of the tree: children of an array or object are a linked list from `child`.
typedef struct cJSON
{
	struct cJSON* next;
	struct cJSON* prev;
	struct cJSON* child;
	int type;
	char* valuestring;  ///< a string's text (UTF-8, escapes decoded)
	int valueint;       ///< a number, saturated to int
	double valuedouble; ///< a number, as strtod reads it
	char* string;       ///< the key, for a member of an object
} cJSON;

/// Parse `value` (buffer_length bytes at most, the terminator counted). On failure NULL, and
/// *return_parse_end (when given) points where reading stopped. require_null_terminated: only
/// white space may follow the value.
cJSON* cJSON_ParseWithLengthOpts(const char* value, size_t buffer_length,
                                 const char** return_parse_end, cJSON_bool require_null_terminated);
/// Free a tree (NULL is fine).
void cJSON_Delete(cJSON* item);
/// Number of children of an array or object.
int cJSON_GetArraySize(const cJSON* array);
/// The child at `index`, or NULL.
cJSON* cJSON_GetArrayItem(const cJSON* array, int index);
/// The first member of `object` named exactly `string`, or NULL.
cJSON* cJSON_GetObjectItemCaseSensitive(const cJSON* object, const char* string);
/// Unlink the first member named `string` from `object` and return it (the caller owns it).
cJSON* cJSON_DetachItemFromObjectCaseSensitive(cJSON* object, const char* string);
/// Append `item` to the children of `array`; false when either is NULL.
cJSON_bool cJSON_AddItemToArray(cJSON* array, cJSON* item);

/// Kind tests (false for NULL).
cJSON_bool cJSON_IsFalse(const cJSON* item);
cJSON_bool cJSON_IsTrue(const cJSON* item);
cJSON_bool cJSON_IsBool(const cJSON* item);
cJSON_bool cJSON_IsNull(const cJSON* item);
cJSON_bool cJSON_IsNumber(const cJSON* item);
cJSON_bool cJSON_IsString(const cJSON* item);
cJSON_bool cJSON_IsArray(const cJSON* item);
cJSON_bool cJSON_IsObject(const cJSON* item);

#ifdef __cplusplus
}
#endif
