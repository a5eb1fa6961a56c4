// Scene files: line numbers of the parsed JSON items and the error messages that name them.
#include "scene_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Line numbers. cJSON keeps no positions, so the text is walked again in step with the parsed
// tree (both in document order) and each item's line (its key's line for an object member) is
// recorded, sorted by item address for lookup.

typedef struct tbScanner
{
	const char* text;
	size_t length;
	size_t pos;
	int line;
} tbScanner;

static bool tbLineMapAdd(tbLineMap* map, const cJSON* item, int line)
{
	if (map->count == map->capacity) {
		int grown = map->capacity < 256 ? 256 : 2 * map->capacity;
		tbLineEntry* larger = realloc(map->entries, sizeof *larger * (size_t)grown);
		if (larger == NULL) {
			return false;
		}
		map->entries = larger;
		map->capacity = grown;
	}
	map->entries[map->count++] = (tbLineEntry){item, line};
	return true;
}

static void tbScanSpace(tbScanner* s)
{
	while (s->pos < s->length) {
		char c = s->text[s->pos];
		// cJSON skips every byte <= 0x20 as whitespace (form feed, vertical tab, NUL...), so
		// the scanner must too, or it falls out of step and names line 1.
		if (c == '\n') {
			s->line += 1;
		} else if ((unsigned char)c > 0x20) {
			return;
		}
		s->pos += 1;
	}
}

static void tbScanString(tbScanner* s)
{
	s->pos += 1; // opening quote
	while (s->pos < s->length && s->text[s->pos] != '"') {
		s->pos += s->text[s->pos] == '\\' ? 2 : 1;
	}
	s->pos += 1; // closing quote
}

static void tbScanPast(tbScanner* s, char c)
{
	tbScanSpace(s);
	if (s->pos < s->length && s->text[s->pos] == c) {
		s->pos += 1;
	}
}

// The text is valid JSON (cJSON accepted it) and the tree is its parse, so no checks are needed
// beyond staying inside the buffer. keyLine > 0 for object members.
static bool tbScanValue(tbScanner* s, tbLineMap* map, const cJSON* item, int keyLine)
{
	tbScanSpace(s);
	if (!tbLineMapAdd(map, item, keyLine > 0 ? keyLine : s->line)) {
		return false;
	}
	if (s->pos >= s->length) {
		return true;
	}
	char open = s->text[s->pos];
	if (open == '{' || open == '[') {
		s->pos += 1;
		for (const cJSON* child = item->child; child != NULL; child = child->next) {
			int childKeyLine = 0;
			if (open == '{') {
				tbScanSpace(s);
				childKeyLine = s->line;
				tbScanString(s);
				tbScanPast(s, ':');
			}
			if (!tbScanValue(s, map, child, childKeyLine)) {
				return false;
			}
			tbScanPast(s, ',');
		}
		tbScanPast(s, open == '{' ? '}' : ']');
	} else if (open == '"') {
		tbScanString(s);
	} else {
		while (s->pos < s->length && strchr(",]} \t\r\n", s->text[s->pos]) == NULL) {
			s->pos += 1;
		}
	}
	return true;
}

static int tbCompareLineEntries(const void* left, const void* right)
{
	uintptr_t a = (uintptr_t)((const tbLineEntry*)left)->item;
	uintptr_t b = (uintptr_t)((const tbLineEntry*)right)->item;
	return (a > b) - (a < b);
}

int tbLineOf(const tbLineMap* map, const cJSON* item)
{
	tbLineEntry key = {item, 0};
	const tbLineEntry* found =
	    map->entries == NULL
	        ? NULL
	        : bsearch(&key, map->entries, (size_t)map->count, sizeof key, tbCompareLineEntries);
	return found != NULL ? found->line : 1;
}

// The key path at a byte offset of text that is valid JSON up to there: which member or element
// the parser was in when it failed. A small tokenizer with a stack of containers.
void tbPathAtOffset(const char* text, size_t offset, char* out, size_t outSize)
{
	enum
	{
		maxDepth = 32
	};
	struct
	{
		bool isObject;
		bool expectKey; // after '{' or ',' in an object: the next string is a key
		int index;      // array element
		char key[48];
	} stack[maxDepth];
	int depth = 0;
	for (size_t pos = 0; pos < offset; ++pos) {
		char c = text[pos];
		if (c == '"') {
			size_t start = ++pos;
			while (pos < offset && text[pos] != '"') {
				pos += text[pos] == '\\' ? 2 : 1;
			}
			if (depth > 0 && depth <= maxDepth && stack[depth - 1].isObject &&
			    stack[depth - 1].expectKey) {
				size_t n =
				    pos - start < sizeof stack[0].key - 1 ? pos - start : sizeof stack[0].key - 1;
				memcpy(stack[depth - 1].key, text + start, n);
				stack[depth - 1].key[n] = '\0';
				stack[depth - 1].expectKey = false;
			}
		} else if (c == '{' || c == '[') {
			if (depth < maxDepth) {
				stack[depth].isObject = c == '{';
				stack[depth].expectKey = c == '{';
				stack[depth].index = 0;
				stack[depth].key[0] = '\0';
			}
			depth += 1;
		} else if ((c == '}' || c == ']') && depth > 0) {
			depth -= 1;
		} else if (c == ',' && depth > 0 && depth <= maxDepth) {
			if (stack[depth - 1].isObject) {
				stack[depth - 1].expectKey = true;
			} else {
				stack[depth - 1].index += 1;
			}
		}
	}
	out[0] = '\0';
	size_t used = 0;
	for (int i = 0; i < depth && i < maxDepth && used < outSize; ++i) {
		int n = 0;
		if (stack[i].isObject && !stack[i].expectKey) {
			n = snprintf(out + used, outSize - used, "%s%s", used > 0 ? "." : "", stack[i].key);
		} else if (!stack[i].isObject) {
			n = snprintf(out + used, outSize - used, "[%d]", stack[i].index);
		}
		used += n > 0 ? (size_t)n : 0;
	}
}

bool tbSceneMapLines(tbLineMap* map, const char* text, size_t length, const cJSON* root)
{
	tbScanner scanner = {text, length, 0, 1};
	if (!tbScanValue(&scanner, map, root, 0)) {
		return false;
	}
	qsort(map->entries, (size_t)map->count, sizeof *map->entries, tbCompareLineEntries);
	return true;
}

// ---------------------------------------------------------------------------------------------
// Errors

// snprintf that may cut: messages and key paths are bounded on purpose (through vsnprintf, which
// GCC's -Wformat-truncation leaves alone).
int tbSceneFormat(char* out, size_t size, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	int n = vsnprintf(out, size, format, args);
	va_end(args);
	return n;
}

static void tbSceneSetErrorV(tbSceneError* error, const char* fileName, int line, const char* path,
                             const char* format, va_list args)
{
	if (error == NULL) {
		return;
	}
	char what[TB_SCENE_MESSAGE_SIZE];
	vsnprintf(what, sizeof what, format, args);
	error->line = line;
	tbSceneFormat(error->keyPath, sizeof error->keyPath, "%s", path);
	if (line > 0) {
		tbSceneFormat(error->message, sizeof error->message, "%s:%d: %s: %s", fileName, line,
		              path[0] != '\0' ? path : "top level", what);
	} else {
		tbSceneFormat(error->message, sizeof error->message, "%s: %s", fileName, what);
	}
}

void tbSceneSetError(tbSceneError* error, const char* fileName, int line, const char* path,
                     const char* format, ...)
{
	va_list args;
	va_start(args, format);
	tbSceneSetErrorV(error, fileName, line, path, format, args);
	va_end(args);
}

// Always returns false so that readers can `return tbSceneFail(...)`.
bool tbSceneFail(tbParseContext* ctx, const cJSON* item, const char* path, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	tbSceneSetErrorV(ctx->error, ctx->fileName, tbLineOf(&ctx->lines, item), path, format, args);
	va_end(args);
	return false;
}

const char* tbJsonKind(const cJSON* item)
{
	if (cJSON_IsNumber(item)) {
		return "a number";
	} else if (cJSON_IsString(item)) {
		return "a string";
	} else if (cJSON_IsBool(item)) {
		return "a boolean";
	} else if (cJSON_IsNull(item)) {
		return "null";
	} else if (cJSON_IsArray(item)) {
		return "an array";
	} else if (cJSON_IsObject(item)) {
		return "an object";
	}
	return "an invalid value";
}

void tbJoinKey(char* out, const char* parent, const char* key)
{
	tbSceneFormat(out, TB_SCENE_PATH_SIZE, "%s%s%s", parent, parent[0] != '\0' ? "." : "", key);
}

void tbJoinIndex(char* out, const char* parent, int index)
{
	tbSceneFormat(out, TB_SCENE_PATH_SIZE, "%s[%d]", parent, index);
}
