// Scene files (shared/formats/scene.md): JSON through cJSON, checked key by key, into a world.
#include "tumble/scene.h"

#include "tumble/world.h"

#include <cJSON.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Enough for a pyramid of base 1000 or 200,000 cubes of rain (about 0.3 GB of world); beyond that
// a file is a mistake.
#define TB_SCENE_MAX_BODIES 200000
// Rain placement gives up after this many tries per body: the region is then too small.
#define TB_RAIN_TRIES_PER_BODY 200
#define TB_PI_D 3.14159265358979323846

// ---------------------------------------------------------------------------------------------
// Line numbers. cJSON keeps no positions, so the text is walked again in step with the parsed
// tree (both in document order) and each item's line (its key's line for an object member) is
// recorded, sorted by item address for lookup.

typedef struct tbLineEntry
{
	const cJSON* item;
	int line;
} tbLineEntry;

typedef struct tbLineMap
{
	tbLineEntry* entries;
	int count;
	int capacity;
} tbLineMap;

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

static int tbLineOf(const tbLineMap* map, const cJSON* item)
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
static void tbPathAtOffset(const char* text, size_t offset, char* out, size_t outSize)
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

// ---------------------------------------------------------------------------------------------
// Errors

#if defined(__GNUC__)
#define TB_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define TB_PRINTF_LIKE(f, a)
#endif

// snprintf that may cut: messages and key paths are bounded on purpose (through vsnprintf, which
// GCC's -Wformat-truncation leaves alone).
static int tbFormat(char* out, size_t size, const char* format, ...) TB_PRINTF_LIKE(3, 4);
static int tbFormat(char* out, size_t size, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	int n = vsnprintf(out, size, format, args);
	va_end(args);
	return n;
}

typedef struct tbParseContext
{
	const char* fileName;
	tbLineMap lines;
	tbSceneError* error;
	tbSceneDef* def;
	// Defaults of the "defaults" object (scene.md): density kg/m^3, friction, restitution.
	float density;
	float friction;
	float restitution;
	int bodyCapacity; // of def->bodies
	// Bounding spheres of rain bodies placed so far (xyz + radius): new drops must not overlap.
	float* drops;
	int dropCount;
	int dropCapacity;
	// A uniform grid hash over the drops (cells of dropCell metres, at least twice the largest
	// drop radius): a new drop is tested against the 27 cells around it only, so placing n drops
	// takes expected O(n) time instead of O(n^2). Buckets chain through dropNext.
	int* dropNext;
	int* bucketHeads;
	int bucketCount; // a power of two
	float dropCell;
	float dropMaxRadius;
} tbParseContext;

static void tbSetErrorV(tbSceneError* error, const char* fileName, int line, const char* path,
                        const char* format, va_list args)
{
	if (error == NULL) {
		return;
	}
	char what[TB_SCENE_MESSAGE_SIZE];
	vsnprintf(what, sizeof what, format, args);
	error->line = line;
	tbFormat(error->keyPath, sizeof error->keyPath, "%s", path);
	if (line > 0) {
		tbFormat(error->message, sizeof error->message, "%s:%d: %s: %s", fileName, line,
		         path[0] != '\0' ? path : "top level", what);
	} else {
		tbFormat(error->message, sizeof error->message, "%s: %s", fileName, what);
	}
}

static void tbSetError(tbSceneError* error, const char* fileName, int line, const char* path,
                       const char* format, ...) TB_PRINTF_LIKE(5, 6);
static void tbSetError(tbSceneError* error, const char* fileName, int line, const char* path,
                       const char* format, ...)
{
	va_list args;
	va_start(args, format);
	tbSetErrorV(error, fileName, line, path, format, args);
	va_end(args);
}

// Always returns false so that readers can `return tbFail(...)`.
static bool tbFail(tbParseContext* ctx, const cJSON* item, const char* path, const char* format,
                   ...) TB_PRINTF_LIKE(4, 5);
static bool tbFail(tbParseContext* ctx, const cJSON* item, const char* path, const char* format,
                   ...)
{
	va_list args;
	va_start(args, format);
	tbSetErrorV(ctx->error, ctx->fileName, tbLineOf(&ctx->lines, item), path, format, args);
	va_end(args);
	return false;
}

static const char* tbJsonKind(const cJSON* item)
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

static void tbJoinKey(char* out, const char* parent, const char* key)
{
	tbFormat(out, TB_SCENE_PATH_SIZE, "%s%s%s", parent, parent[0] != '\0' ? "." : "", key);
}

static void tbJoinIndex(char* out, const char* parent, int index)
{
	tbFormat(out, TB_SCENE_PATH_SIZE, "%s[%d]", parent, index);
}

// ---------------------------------------------------------------------------------------------
// Values

// An allowed interval for a number, and how a message states it.
typedef struct tbRange
{
	double min, max;
	bool minOpen;
	const char* text; // "> 0"
} tbRange;

static const tbRange tb_anyNumber = {-(double)FLT_MAX, (double)FLT_MAX, false, ""};
// docs/ranges.md: positions within +-TB_MAX_COORDINATE.
static const tbRange tb_coordinate = {-(double)TB_MAX_COORDINATE, (double)TB_MAX_COORDINATE, false,
                                      " within +-1e6 m (docs/ranges.md)"};
static const tbRange tb_positive = {0.0, (double)FLT_MAX, true, " > 0"};
static const tbRange tb_nonNegative = {0.0, (double)FLT_MAX, false, " >= 0"};
static const tbRange tb_unitInterval = {0.0, 1.0, false, " in [0, 1]"};

static bool tbInRange(double v, const tbRange* range)
{
	return isfinite(v) && (range->minOpen ? v > range->min : v >= range->min) && v <= range->max;
}

static bool tbReadFloat(tbParseContext* ctx, const cJSON* item, const char* path,
                        const tbRange* range, float* out)
{
	if (!cJSON_IsNumber(item)) {
		return tbFail(ctx, item, path, "expected a number%s, got %s", range->text,
		              tbJsonKind(item));
	}
	if (!tbInRange(item->valuedouble, range)) {
		return tbFail(ctx, item, path, "expected a number%s, got %g", range->text,
		              item->valuedouble);
	}
	*out = (float)item->valuedouble;
	return true;
}

// `count` numbers in an array, each in range: positions, half extents, quaternions.
static bool tbReadFloats(tbParseContext* ctx, const cJSON* item, const char* path, int count,
                         const tbRange* range, float* out)
{
	bool ok = cJSON_IsArray(item) && cJSON_GetArraySize(item) == count;
	int i = 0;
	for (const cJSON* e = ok ? item->child : NULL; e != NULL && ok; e = e->next, ++i) {
		ok = cJSON_IsNumber(e) && tbInRange(e->valuedouble, range);
		out[i] = ok ? (float)e->valuedouble : 0.0f;
	}
	if (!ok) {
		// One message for every way of getting it wrong: the user sees what is expected.
		return tbFail(ctx, item, path, "expected %d numbers%s", count, range->text);
	}
	return true;
}

static bool tbReadVec3(tbParseContext* ctx, const cJSON* item, const char* path,
                       const tbRange* range, vec3s* out)
{
	float v[3];
	if (!tbReadFloats(ctx, item, path, 3, range, v)) {
		return false;
	}
	*out = (vec3s){{v[0], v[1], v[2]}};
	return true;
}

static bool tbReadInt(tbParseContext* ctx, const cJSON* item, const char* path, int min, int max,
                      int* out)
{
	if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) ||
	    item->valuedouble < (double)min || item->valuedouble > (double)max) {
		if (cJSON_IsNumber(item)) {
			return tbFail(ctx, item, path, "expected an integer in [%d, %d], got %g", min, max,
			              item->valuedouble);
		}
		return tbFail(ctx, item, path, "expected an integer in [%d, %d], got %s", min, max,
		              tbJsonKind(item));
	}
	*out = (int)item->valuedouble;
	return true;
}

static bool tbReadBool(tbParseContext* ctx, const cJSON* item, const char* path, bool* out)
{
	if (!cJSON_IsBool(item)) {
		return tbFail(ctx, item, path, "expected true or false, got %s", tbJsonKind(item));
	}
	*out = cJSON_IsTrue(item);
	return true;
}

static bool tbReadString(tbParseContext* ctx, const cJSON* item, const char* path, char* out,
                         size_t outSize)
{
	if (!cJSON_IsString(item)) {
		return tbFail(ctx, item, path, "expected a string, got %s", tbJsonKind(item));
	}
	if (strlen(item->valuestring) >= outSize) {
		return tbFail(ctx, item, path, "longer than %d characters", (int)outSize - 1);
	}
	tbFormat(out, outSize, "%s", item->valuestring);
	return true;
}

// The object's keys must all be in `allowed` and appear once.
static bool tbCheckKeys(tbParseContext* ctx, const cJSON* object, const char* path,
                        const char* what, const char* const* allowed, int allowedCount)
{
	if (!cJSON_IsObject(object)) {
		return tbFail(ctx, object, path, "expected an object, got %s", tbJsonKind(object));
	}
	for (const cJSON* child = object->child; child != NULL; child = child->next) {
		char childPath[TB_SCENE_PATH_SIZE];
		tbJoinKey(childPath, path, child->string);
		bool known = false;
		for (int i = 0; i < allowedCount && !known; ++i) {
			known = strcmp(child->string, allowed[i]) == 0;
		}
		if (!known) {
			char list[256];
			size_t used = 0;
			list[0] = '\0';
			for (int i = 0; i < allowedCount && used < sizeof list; ++i) {
				int n = tbFormat(list + used, sizeof list - used, "%s%s", i > 0 ? ", " : "",
				                 allowed[i]);
				used += n > 0 ? (size_t)n : 0;
			}
			return tbFail(ctx, child, childPath, "unknown key '%s'%s%s (expected %s)",
			              child->string, what[0] != '\0' ? " for " : "", what, list);
		}
		for (const cJSON* earlier = object->child; earlier != child; earlier = earlier->next) {
			if (strcmp(earlier->string, child->string) == 0) {
				return tbFail(ctx, child, childPath, "duplicate key (first at line %d)",
				              tbLineOf(&ctx->lines, earlier));
			}
		}
	}
	return true;
}

static const cJSON* tbRequire(tbParseContext* ctx, const cJSON* object, const char* path,
                              const char* key)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
	if (item == NULL) {
		tbFail(ctx, object, path, "missing key '%s'", key);
	}
	return item;
}

// ---------------------------------------------------------------------------------------------
// Shapes and rotations

static bool tbAddHull(tbParseContext* ctx, const cJSON* points, const char* path, int* hullIndex)
{
	int count = cJSON_IsArray(points) ? cJSON_GetArraySize(points) : 0;
	if (count < 4 || count > TB_MAX_HULL_POINTS) {
		return tbFail(ctx, points, path, "expected an array of 4 to %d points [x, y, z]",
		              TB_MAX_HULL_POINTS);
	}
	vec3s* buffer = malloc(sizeof *buffer * (size_t)count);
	if (buffer == NULL) {
		return tbFail(ctx, points, path, "out of memory");
	}
	int i = 0;
	for (const cJSON* p = points->child; p != NULL; p = p->next, ++i) {
		char pointPath[TB_SCENE_PATH_SIZE];
		tbJoinIndex(pointPath, path, i);
		if (!tbReadVec3(ctx, p, pointPath, &tb_anyNumber, buffer + i)) {
			free(buffer);
			return false;
		}
	}
	tbSceneDef* def = ctx->def;
	tbHull* larger = realloc(def->hulls, sizeof *larger * (size_t)(def->hullCount + 1));
	if (larger == NULL) {
		free(buffer);
		return tbFail(ctx, points, path, "out of memory");
	}
	def->hulls = larger;
	tbHull* hull = def->hulls + def->hullCount;
	int badIndex = -1;
	tbHullError hullError = tbBuildHull(buffer, count, hull, &badIndex);
	free(buffer);
	if (hullError != tb_hullOk) {
		return tbFail(ctx, points, path, "%s%s", tbHullErrorString(hullError),
		              badIndex >= 0 ? " (see the point named)" : "");
	}
	if (hull->kind != tb_hullSolid) {
		static const char* const kinds[] = {"all at one point", "all on one line",
		                                    "all in one plane"};
		int kind = (int)hull->kind;
		tbDestroyHull(hull);
		return tbFail(ctx, points, path, "the points span no volume (they are %s)", kinds[kind]);
	}
	*hullIndex = def->hullCount++;
	return true;
}

static bool tbReadShape(tbParseContext* ctx, const cJSON* object, const char* path, tbShape* shape,
                        int* hullIndex)
{
	*hullIndex = -1;
	if (!cJSON_IsObject(object)) {
		return tbFail(ctx, object, path, "expected a shape object, got %s", tbJsonKind(object));
	}
	char typePath[TB_SCENE_PATH_SIZE];
	tbJoinKey(typePath, path, "type");
	const cJSON* typeItem = tbRequire(ctx, object, path, "type");
	if (typeItem == NULL) {
		return false;
	}
	if (!cJSON_IsString(typeItem)) {
		return tbFail(ctx, typeItem, typePath, "expected a string, got %s", tbJsonKind(typeItem));
	}
	const char* type = typeItem->valuestring;
	// Keys per shape type (scene.md "Shapes"); the first is always "type".
	static const char* const sphereKeys[] = {"type", "radius"};
	static const char* const boxKeys[] = {"type", "half_extents"};
	static const char* const roundKeys[] = {"type", "radius", "half_height"};
	static const char* const hullKeys[] = {"type", "points"};
	char keyPath[TB_SCENE_PATH_SIZE];
	if (strcmp(type, "sphere") == 0) {
		float r;
		if (!tbCheckKeys(ctx, object, path, "a sphere", sphereKeys, 2)) {
			return false;
		}
		tbJoinKey(keyPath, path, "radius");
		const cJSON* radius = tbRequire(ctx, object, path, "radius");
		if (radius == NULL || !tbReadFloat(ctx, radius, keyPath, &tb_positive, &r)) {
			return false;
		}
		*shape = tbMakeSphere(r);
	} else if (strcmp(type, "box") == 0) {
		vec3s h;
		if (!tbCheckKeys(ctx, object, path, "a box", boxKeys, 2)) {
			return false;
		}
		tbJoinKey(keyPath, path, "half_extents");
		const cJSON* half = tbRequire(ctx, object, path, "half_extents");
		if (half == NULL || !tbReadVec3(ctx, half, keyPath, &tb_positive, &h)) {
			return false;
		}
		*shape = tbMakeBox(h.x, h.y, h.z);
	} else if (strcmp(type, "capsule") == 0 || strcmp(type, "cylinder") == 0 ||
	           strcmp(type, "cone") == 0) {
		float r, hh;
		char what[16];
		tbFormat(what, sizeof what, "a %s", type);
		if (!tbCheckKeys(ctx, object, path, what, roundKeys, 3)) {
			return false;
		}
		tbJoinKey(keyPath, path, "radius");
		const cJSON* radius = tbRequire(ctx, object, path, "radius");
		if (radius == NULL || !tbReadFloat(ctx, radius, keyPath, &tb_positive, &r)) {
			return false;
		}
		tbJoinKey(keyPath, path, "half_height");
		const cJSON* halfHeight = tbRequire(ctx, object, path, "half_height");
		if (halfHeight == NULL || !tbReadFloat(ctx, halfHeight, keyPath, &tb_positive, &hh)) {
			return false;
		}
		*shape = type[1] == 'a'   ? tbMakeCapsule(r, hh)
		         : type[1] == 'y' ? tbMakeCylinder(r, hh)
		                          : tbMakeCone(r, hh);
	} else if (strcmp(type, "hull") == 0) {
		if (!tbCheckKeys(ctx, object, path, "a hull", hullKeys, 2)) {
			return false;
		}
		tbJoinKey(keyPath, path, "points");
		const cJSON* points = tbRequire(ctx, object, path, "points");
		if (points == NULL || !tbAddHull(ctx, points, keyPath, hullIndex)) {
			return false;
		}
		// The pointer is set once parsing is done: the hull array may still move.
		*shape = tbMakeHullShape(NULL);
	} else {
		return tbFail(ctx, typeItem, typePath,
		              "unknown shape '%s' (expected sphere, box, capsule, cylinder, cone or hull)",
		              type);
	}
	char message[160];
	if (*hullIndex < 0 && !tbShape_Validate(shape, message, (int)sizeof message)) {
		return tbFail(ctx, object, path, "%s", message);
	}
	return true;
}

static bool tbReadRotation(tbParseContext* ctx, const cJSON* object, const char* path, versors* out)
{
	static const char* const keys[] = {"quat_wxyz", "euler_xyz_deg", "axis", "angle_deg"};
	if (!tbCheckKeys(ctx, object, path, "a rotation", keys, 4)) {
		return false;
	}
	const cJSON* quat = cJSON_GetObjectItemCaseSensitive(object, "quat_wxyz");
	const cJSON* euler = cJSON_GetObjectItemCaseSensitive(object, "euler_xyz_deg");
	const cJSON* axis = cJSON_GetObjectItemCaseSensitive(object, "axis");
	const cJSON* angle = cJSON_GetObjectItemCaseSensitive(object, "angle_deg");
	int forms = (quat != NULL) + (euler != NULL) + (axis != NULL || angle != NULL);
	if (forms != 1 || (axis != NULL) != (angle != NULL)) {
		return tbFail(ctx, object, path,
		              "expected exactly one of quat_wxyz, euler_xyz_deg, or axis with angle_deg");
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	const double degree = TB_PI_D / 180.0;
	if (quat != NULL) {
		float q[4];
		tbJoinKey(keyPath, path, "quat_wxyz");
		if (!tbReadFloats(ctx, quat, keyPath, 4, &tb_anyNumber, q)) {
			return false;
		}
		double w = (double)q[0], x = (double)q[1], y = (double)q[2], z = (double)q[3];
		double norm = sqrt(w * w + x * x + y * y + z * z);
		// A file's quaternion is written to a few digits; more than that off unit is a mistake
		// (a missing component, degrees in place of a quaternion), not rounding.
		if (fabs(norm - 1.0) > 1e-3) {
			return tbFail(ctx, quat, keyPath, "expected a unit quaternion [w, x, y, z], norm is %g",
			              norm);
		}
		*out =
		    (versors){{(float)(x / norm), (float)(y / norm), (float)(z / norm), (float)(w / norm)}};
	} else if (euler != NULL) {
		vec3s e;
		tbJoinKey(keyPath, path, "euler_xyz_deg");
		if (!tbReadVec3(ctx, euler, keyPath, &tb_anyNumber, &e)) {
			return false;
		}
		*out = tbQuatFromEulerXYZ((float)((double)e.x * degree), (float)((double)e.y * degree),
		                          (float)((double)e.z * degree));
	} else {
		vec3s a;
		float deg;
		tbJoinKey(keyPath, path, "axis");
		if (!tbReadVec3(ctx, axis, keyPath, &tb_anyNumber, &a)) {
			return false;
		}
		// In double: the norm of [1e20, 0, 0] overflows float and would give a zero axis.
		double ax = (double)a.x, ay = (double)a.y, az = (double)a.z;
		double length = sqrt(ax * ax + ay * ay + az * az);
		// Any nonzero float vector has a direction in double, even [1e-40, 0, 0].
		if (!(length > 0.0)) {
			return tbFail(ctx, axis, keyPath, "expected 3 numbers, not all 0");
		}
		a = (vec3s){{(float)(ax / length), (float)(ay / length), (float)(az / length)}};
		tbJoinKey(keyPath, path, "angle_deg");
		if (!tbReadFloat(ctx, angle, keyPath, &tb_anyNumber, &deg)) {
			return false;
		}
		*out = glms_quatv((float)((double)deg * degree), a);
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Bodies

static tbSceneBody* tbAddBody(tbParseContext* ctx, const cJSON* where, const char* path)
{
	tbSceneDef* def = ctx->def;
	if (def->bodyCount >= TB_SCENE_MAX_BODIES) {
		tbFail(ctx, where, path, "more than %d bodies", TB_SCENE_MAX_BODIES);
		return NULL;
	}
	if (def->bodyCount == ctx->bodyCapacity) {
		int capacity = ctx->bodyCapacity < 64 ? 64 : 2 * ctx->bodyCapacity;
		tbSceneBody* larger = realloc(def->bodies, sizeof *larger * (size_t)capacity);
		if (larger == NULL) {
			tbFail(ctx, where, path, "out of memory");
			return NULL;
		}
		def->bodies = larger;
		ctx->bodyCapacity = capacity;
	}
	tbSceneBody* body = def->bodies + def->bodyCount++;
	memset(body, 0, sizeof *body);
	body->type = tb_dynamicBody;
	body->rotation = (versors){{0.0f, 0.0f, 0.0f, 1.0f}};
	body->hullIndex = -1;
	body->density = ctx->density;
	body->friction = ctx->friction;
	body->restitution = ctx->restitution;
	body->line = tbLineOf(&ctx->lines, where);
	tbFormat(body->keyPath, sizeof body->keyPath, "%s", path);
	return body;
}

// A dynamic body needs a volume (its mass comes from density or the given mass) and mass
// properties inside the supported range (docs/ranges.md); say so with the shape's path.
static bool tbCheckMass(tbParseContext* ctx, const cJSON* where, const char* path,
                        const tbSceneBody* body)
{
	if (body->type != tb_dynamicBody) {
		return true;
	}
	tbShape shape = body->shape;
	if (body->hullIndex >= 0) {
		shape.hull = ctx->def->hulls + body->hullIndex;
	}
	// The world is given density = mass / (mass at density 1) when a mass is given: check that.
	tbMassError massError = tb_massOk;
	tbMassData unit = tbComputeMass(&shape, 1.0f, &massError);
	if (massError != tb_massOk) {
		return tbFail(ctx, where, path, "a dynamic body needs a finite mass > 0: %s",
		              tbMassErrorString(massError));
	}
	double scale =
	    body->mass > 0.0f ? (double)body->mass / (double)unit.mass : (double)body->density;
	tbMassData mass = unit;
	mass.mass = (float)((double)unit.mass * scale);
	mass.inertia = glms_mat3_scale(unit.inertia, (float)scale);
	mass.center = glms_vec3_zero();
	char message[160];
	if (!(scale <= (double)FLT_MAX) || !tbMassData_IsValid(&mass, message, (int)sizeof message)) {
		if (!(scale <= (double)FLT_MAX)) {
			tbFormat(message, sizeof message, "density %g kg/m^3 overflows float", scale);
		}
		return tbFail(ctx, where, path, "a dynamic body's mass is out of range: %s", message);
	}
	return true;
}

static bool tbReadBody(tbParseContext* ctx, const cJSON* object, const char* path, int index)
{
	static const char* const keys[] = {
	    "name",  "type",    "position", "rotation", "linear_velocity", "angular_velocity",
	    "shape", "density", "mass",     "friction", "restitution",
	};
	if (!tbCheckKeys(ctx, object, path, "a body", keys, (int)(sizeof keys / sizeof keys[0]))) {
		return false;
	}
	tbSceneBody* body = tbAddBody(ctx, object, path);
	if (body == NULL) {
		return false;
	}
	tbFormat(body->name, sizeof body->name, "body%d", index);
	char keyPath[TB_SCENE_PATH_SIZE];
	const cJSON* item;
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "name")) != NULL) {
		tbJoinKey(keyPath, path, "name");
		if (!tbReadString(ctx, item, keyPath, body->name, sizeof body->name)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "type")) != NULL) {
		tbJoinKey(keyPath, path, "type");
		if (!cJSON_IsString(item)) {
			return tbFail(ctx, item, keyPath, "expected a string, got %s", tbJsonKind(item));
		}
		if (strcmp(item->valuestring, "static") == 0) {
			body->type = tb_staticBody;
		} else if (strcmp(item->valuestring, "dynamic") == 0) {
			body->type = tb_dynamicBody;
		} else if (strcmp(item->valuestring, "kinematic") == 0) {
			body->type = tb_kinematicBody;
		} else {
			return tbFail(ctx, item, keyPath,
			              "unknown body type '%s' (expected static, dynamic or kinematic)",
			              item->valuestring);
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "position")) != NULL) {
		tbJoinKey(keyPath, path, "position");
		if (!tbReadVec3(ctx, item, keyPath, &tb_coordinate, &body->position)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "rotation")) != NULL) {
		tbJoinKey(keyPath, path, "rotation");
		if (!tbReadRotation(ctx, item, keyPath, &body->rotation)) {
			return false;
		}
	}
	static const char* const velocityKeys[] = {"linear_velocity", "angular_velocity"};
	for (int k = 0; k < 2; ++k) {
		if ((item = cJSON_GetObjectItemCaseSensitive(object, velocityKeys[k])) == NULL) {
			continue;
		}
		tbJoinKey(keyPath, path, velocityKeys[k]);
		vec3s* v = k == 0 ? &body->linearVelocity : &body->angularVelocity;
		if (!tbReadVec3(ctx, item, keyPath, &tb_anyNumber, v)) {
			return false;
		}
		if (body->type == tb_staticBody && (v->x != 0.0f || v->y != 0.0f || v->z != 0.0f)) {
			return tbFail(ctx, item, keyPath, "a static body cannot move (use kinematic)");
		}
	}
	// Material: mass and density only mean something for a dynamic body.
	static const char* const materialKeys[] = {"density", "mass", "friction", "restitution"};
	const tbRange* ranges[] = {&tb_positive, &tb_positive, &tb_nonNegative, &tb_unitInterval};
	float* targets[] = {&body->density, &body->mass, &body->friction, &body->restitution};
	for (int k = 0; k < 4; ++k) {
		if ((item = cJSON_GetObjectItemCaseSensitive(object, materialKeys[k])) == NULL) {
			continue;
		}
		tbJoinKey(keyPath, path, materialKeys[k]);
		if (k < 2 && body->type != tb_dynamicBody) {
			return tbFail(ctx, item, keyPath, "only a dynamic body has a %s", materialKeys[k]);
		}
		if (!tbReadFloat(ctx, item, keyPath, ranges[k], targets[k])) {
			return false;
		}
	}
	tbJoinKey(keyPath, path, "shape");
	if ((item = tbRequire(ctx, object, path, "shape")) == NULL ||
	    !tbReadShape(ctx, item, keyPath, &body->shape, &body->hullIndex)) {
		return false;
	}
	return tbCheckMass(ctx, item, keyPath, body);
}

// ---------------------------------------------------------------------------------------------
// Generators (scene.md "Generators"): dynamic cubes in a pyramid or a stack, or seeded rain.

// splitmix64 (Steele, Lea, Flood 2014): tiny, and the same numbers on every platform.
static uint64_t tbNextRandom(uint64_t* state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double tbRandomUnit(uint64_t* state)
{
	return (double)(tbNextRandom(state) >> 11) * (1.0 / 9007199254740992.0);
}

static bool tbReadCubeGenerator(tbParseContext* ctx, const cJSON* object, const char* path,
                                int index, bool pyramid)
{
	static const char* const pyramidKeys[] = {"type", "base", "half_extent", "position", "gap"};
	static const char* const stackKeys[] = {"type", "count", "half_extent", "position"};
	if (!tbCheckKeys(ctx, object, path, pyramid ? "a pyramid" : "a stack",
	                 pyramid ? pyramidKeys : stackKeys, pyramid ? 5 : 4)) {
		return false;
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	const char* countKey = pyramid ? "base" : "count";
	int count;
	float half = 0.5f, gap = 0.0f;
	vec3s origin = {{0.0f, 0.0f, 0.0f}};
	const cJSON* item = tbRequire(ctx, object, path, countKey);
	tbJoinKey(keyPath, path, countKey);
	if (item == NULL || !tbReadInt(ctx, item, keyPath, 1, pyramid ? 1000 : 100000, &count)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "half_extent")) != NULL) {
		tbJoinKey(keyPath, path, "half_extent");
		if (!tbReadFloat(ctx, item, keyPath, &tb_positive, &half)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "position")) != NULL) {
		tbJoinKey(keyPath, path, "position");
		if (!tbReadVec3(ctx, item, keyPath, &tb_coordinate, &origin)) {
			return false;
		}
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "gap")) != NULL) {
		tbJoinKey(keyPath, path, "gap");
		if (!tbReadFloat(ctx, item, keyPath, &tb_nonNegative, &gap)) {
			return false;
		}
	}
	int rows = pyramid ? count : 1;
	int made = 0;
	for (int row = 0; row < rows; ++row) {
		// A pyramid row has base - row cubes centred on x = position.x; a stack is one column.
		int inRow = pyramid ? count - row : count;
		for (int i = 0; i < inRow; ++i) {
			tbSceneBody* body = tbAddBody(ctx, object, path);
			if (body == NULL) {
				return false;
			}
			tbFormat(body->name, sizeof body->name, "%s%d_%d", pyramid ? "pyramid" : "stack", index,
			         made++);
			body->shape = tbMakeBox(half, half, half);
			if (pyramid) {
				float pitch = 2.0f * half + gap;
				body->position = (vec3s){{origin.x + ((float)i - 0.5f * (float)(inRow - 1)) * pitch,
				                          origin.y + half + 2.0f * half * (float)row, origin.z}};
			} else {
				body->position =
				    (vec3s){{origin.x, origin.y + half + 2.0f * half * (float)i, origin.z}};
			}
		}
	}
	return tbCheckMass(ctx, object, path, ctx->def->bodies + ctx->def->bodyCount - 1);
}

// ---------------------------------------------------------------------------------------------
// Rain placement: a uniform grid hash over the drops' bounding spheres.

static int64_t tbDropCellOf(const tbParseContext* ctx, float x)
{
	return (int64_t)floor((double)x / (double)ctx->dropCell);
}

static int tbDropBucket(const tbParseContext* ctx, int64_t i, int64_t j, int64_t k)
{
	// Large primes (Teschner et al., "Optimized Spatial Hashing for Collision Detection of
	// Deformable Objects", VMV 2003), on 64-bit cell indices.
	uint64_t h = (uint64_t)i * 73856093u ^ (uint64_t)j * 19349663u ^ (uint64_t)k * 83492791u;
	h ^= h >> 29;
	return (int)(h & (uint64_t)(ctx->bucketCount - 1));
}

static void tbLinkDrop(tbParseContext* ctx, int d)
{
	const float* o = ctx->drops + 4 * d;
	int b = tbDropBucket(ctx, tbDropCellOf(ctx, o[0]), tbDropCellOf(ctx, o[1]),
	                     tbDropCellOf(ctx, o[2]));
	ctx->dropNext[d] = ctx->bucketHeads[b];
	ctx->bucketHeads[b] = d;
}

// Room for `total` drops, with cells at least twice the largest radius (`radius` included); the
// grid is rebuilt when the buckets or the cell size change (once per rain generator at most).
static bool tbReserveDrops(tbParseContext* ctx, int total, float radius)
{
	if (total > ctx->dropCapacity) {
		float* drops = realloc(ctx->drops, sizeof *drops * 4 * (size_t)total);
		if (drops == NULL) {
			return false;
		}
		ctx->drops = drops;
		int* next = realloc(ctx->dropNext, sizeof *next * (size_t)total);
		if (next == NULL) {
			return false;
		}
		ctx->dropNext = next;
		ctx->dropCapacity = total;
	}
	int buckets = ctx->bucketCount > 0 ? ctx->bucketCount : 64;
	while (buckets < 2 * total) {
		buckets *= 2;
	}
	float maxRadius = fmaxf(ctx->dropMaxRadius, radius);
	if (buckets == ctx->bucketCount && maxRadius == ctx->dropMaxRadius) {
		return true;
	}
	int* heads = realloc(ctx->bucketHeads, sizeof *heads * (size_t)buckets);
	if (heads == NULL) {
		return false;
	}
	ctx->bucketHeads = heads;
	ctx->bucketCount = buckets;
	ctx->dropMaxRadius = maxRadius;
	ctx->dropCell = 2.0f * maxRadius;
	for (int b = 0; b < buckets; ++b) {
		heads[b] = -1;
	}
	for (int d = 0; d < ctx->dropCount; ++d) {
		tbLinkDrop(ctx, d);
	}
	return true;
}

// True when a sphere of `radius` at p misses every drop. Cells are at least radius + any other
// drop's radius wide, so only the 27 cells around p can hold a drop within reach.
static bool tbDropIsClear(const tbParseContext* ctx, const float p[3], float radius)
{
	int64_t ci = tbDropCellOf(ctx, p[0]), cj = tbDropCellOf(ctx, p[1]),
	        ck = tbDropCellOf(ctx, p[2]);
	for (int64_t i = ci - 1; i <= ci + 1; ++i) {
		for (int64_t j = cj - 1; j <= cj + 1; ++j) {
			for (int64_t k = ck - 1; k <= ck + 1; ++k) {
				// Every drop is in one list; a list holds at most all drops (the iteration cap).
				int guard = 0;
				for (int d = ctx->bucketHeads[tbDropBucket(ctx, i, j, k)];
				     d >= 0 && guard <= ctx->dropCount; d = ctx->dropNext[d], ++guard) {
					const float* o = ctx->drops + 4 * d;
					float dx = p[0] - o[0], dy = p[1] - o[1], dz = p[2] - o[2];
					float reach = radius + o[3];
					if (dx * dx + dy * dy + dz * dz < reach * reach) {
						return false;
					}
				}
			}
		}
	}
	return true;
}

static void tbAddDrop(tbParseContext* ctx, const float p[3], float radius)
{
	int d = ctx->dropCount++;
	memcpy(ctx->drops + 4 * d, p, 3 * sizeof(float));
	ctx->drops[4 * d + 3] = radius;
	tbLinkDrop(ctx, d);
}

static bool tbReadRain(tbParseContext* ctx, const cJSON* object, const char* path, int index)
{
	static const char* const keys[] = {"type",  "count",      "seed",
	                                   "shape", "region_min", "region_max"};
	if (!tbCheckKeys(ctx, object, path, "rain", keys, 6)) {
		return false;
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	int count, seed = 1;
	vec3s lo, hi;
	tbShape shape;
	int hullIndex;
	const cJSON* item = tbRequire(ctx, object, path, "count");
	tbJoinKey(keyPath, path, "count");
	if (item == NULL || !tbReadInt(ctx, item, keyPath, 1, TB_SCENE_MAX_BODIES, &count)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(object, "seed")) != NULL) {
		tbJoinKey(keyPath, path, "seed");
		if (!tbReadInt(ctx, item, keyPath, 0, INT32_MAX, &seed)) {
			return false;
		}
	}
	item = tbRequire(ctx, object, path, "shape");
	tbJoinKey(keyPath, path, "shape");
	if (item == NULL || !tbReadShape(ctx, item, keyPath, &shape, &hullIndex)) {
		return false;
	}
	const cJSON* shapeItem = item;
	char shapePath[TB_SCENE_PATH_SIZE];
	tbJoinKey(shapePath, path, "shape");
	item = tbRequire(ctx, object, path, "region_min");
	tbJoinKey(keyPath, path, "region_min");
	if (item == NULL || !tbReadVec3(ctx, item, keyPath, &tb_coordinate, &lo)) {
		return false;
	}
	item = tbRequire(ctx, object, path, "region_max");
	tbJoinKey(keyPath, path, "region_max");
	if (item == NULL || !tbReadVec3(ctx, item, keyPath, &tb_coordinate, &hi)) {
		return false;
	}
	if (!(hi.x >= lo.x && hi.y >= lo.y && hi.z >= lo.z)) {
		return tbFail(ctx, item, keyPath, "expected every component >= region_min's");
	}
	tbShape placed = shape;
	if (hullIndex >= 0) {
		placed.hull = ctx->def->hulls + hullIndex;
	}
	float radius = tbShape_BoundingRadius(&placed);

	// Random sequential placement: a drop is kept when its bounding sphere misses every earlier
	// drop's (of any rain generator), so no body starts inside another.
	if (!tbReserveDrops(ctx, ctx->dropCount + count, radius)) {
		return tbFail(ctx, object, path, "out of memory");
	}
	uint64_t state = (uint64_t)seed;
	for (int k = 0; k < count; ++k) {
		float p[3];
		bool clear = false;
		for (int attempt = 0; attempt < TB_RAIN_TRIES_PER_BODY && !clear; ++attempt) {
			p[0] = lo.x + (float)tbRandomUnit(&state) * (hi.x - lo.x);
			p[1] = lo.y + (float)tbRandomUnit(&state) * (hi.y - lo.y);
			p[2] = lo.z + (float)tbRandomUnit(&state) * (hi.z - lo.z);
			clear = tbDropIsClear(ctx, p, radius);
		}
		if (!clear) {
			return tbFail(ctx, object, path,
			              "placed %d of %d bodies (bounding radius %g m) without overlap, then "
			              "found no room: enlarge the region",
			              k, count, (double)radius);
		}
		tbAddDrop(ctx, p, radius);

		tbSceneBody* body = tbAddBody(ctx, object, path);
		if (body == NULL) {
			return false;
		}
		tbFormat(body->name, sizeof body->name, "rain%d_%d", index, k);
		body->shape = shape;
		body->hullIndex = hullIndex;
		body->position = (vec3s){{p[0], p[1], p[2]}};
		// Uniform random rotation (Shoemake, Graphics Gems III).
		double u1 = tbRandomUnit(&state), u2 = tbRandomUnit(&state), u3 = tbRandomUnit(&state);
		double a = sqrt(1.0 - u1), b = sqrt(u1);
		body->rotation =
		    (versors){{(float)(a * sin(2.0 * TB_PI_D * u2)), (float)(a * cos(2.0 * TB_PI_D * u2)),
		               (float)(b * sin(2.0 * TB_PI_D * u3)), (float)(b * cos(2.0 * TB_PI_D * u3))}};
	}
	return tbCheckMass(ctx, shapeItem, shapePath, ctx->def->bodies + ctx->def->bodyCount - 1);
}

static bool tbReadGenerator(tbParseContext* ctx, const cJSON* object, const char* path, int index)
{
	if (!cJSON_IsObject(object)) {
		return tbFail(ctx, object, path, "expected a generator object, got %s", tbJsonKind(object));
	}
	char typePath[TB_SCENE_PATH_SIZE];
	tbJoinKey(typePath, path, "type");
	const cJSON* type = tbRequire(ctx, object, path, "type");
	if (type == NULL) {
		return false;
	}
	if (!cJSON_IsString(type)) {
		return tbFail(ctx, type, typePath, "expected a string, got %s", tbJsonKind(type));
	}
	if (strcmp(type->valuestring, "pyramid") == 0 || strcmp(type->valuestring, "stack") == 0) {
		return tbReadCubeGenerator(ctx, object, path, index, type->valuestring[0] == 'p');
	} else if (strcmp(type->valuestring, "rain") == 0) {
		return tbReadRain(ctx, object, path, index);
	}
	return tbFail(ctx, type, typePath, "unknown generator '%s' (expected pyramid, stack or rain)",
	              type->valuestring);
}

// ---------------------------------------------------------------------------------------------
// The top level

static bool tbReadDefaults(tbParseContext* ctx, const cJSON* object)
{
	static const char* const keys[] = {"density", "friction", "restitution"};
	if (!tbCheckKeys(ctx, object, "defaults", "defaults", keys, 3)) {
		return false;
	}
	const tbRange* ranges[] = {&tb_positive, &tb_nonNegative, &tb_unitInterval};
	float* targets[] = {&ctx->density, &ctx->friction, &ctx->restitution};
	for (int k = 0; k < 3; ++k) {
		const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, keys[k]);
		char keyPath[TB_SCENE_PATH_SIZE];
		tbJoinKey(keyPath, "defaults", keys[k]);
		if (item != NULL && !tbReadFloat(ctx, item, keyPath, ranges[k], targets[k])) {
			return false;
		}
	}
	return true;
}

static bool tbReadTop(tbParseContext* ctx, const cJSON* root)
{
	static const char* const keys[] = {"description", "gravity",   "dt",    "substeps",
	                                   "seconds",     "steps",     "sleep", "defaults",
	                                   "bodies",      "generators"};
	if (!cJSON_IsObject(root)) {
		return tbFail(ctx, root, "", "expected a JSON object, got %s", tbJsonKind(root));
	}
	if (!tbCheckKeys(ctx, root, "", "", keys, (int)(sizeof keys / sizeof keys[0]))) {
		return false;
	}
	tbSceneDef* def = ctx->def;
	const cJSON* item;
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "description")) != NULL &&
	    !tbReadString(ctx, item, "description", def->description, sizeof def->description)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "gravity")) != NULL &&
	    !tbReadVec3(ctx, item, "gravity", &tb_anyNumber, &def->gravity)) {
		return false;
	}
	// A step over a second is no simulation; 1 s is a generous bound that still catches "60".
	static const tbRange stepRange = {0.0, 1.0, true, " in (0, 1]"};
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "dt")) != NULL &&
	    !tbReadFloat(ctx, item, "dt", &stepRange, &def->dt)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "substeps")) != NULL &&
	    !tbReadInt(ctx, item, "substeps", 1, 64, &def->substeps)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "sleep")) != NULL &&
	    !tbReadBool(ctx, item, "sleep", &def->sleep)) {
		return false;
	}
	float seconds = 10.0f;
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "seconds")) != NULL &&
	    !tbReadFloat(ctx, item, "seconds", &tb_positive, &seconds)) {
		return false;
	}
	double steps = ceil((double)seconds / (double)def->dt - 1e-6);
	if (steps > 1e9) {
		return tbFail(ctx, item, "seconds", "%g s is more than 1e9 steps of %g s", (double)seconds,
		              (double)def->dt);
	}
	def->steps = steps < 1.0 ? 1 : (int)steps;
	// scene.md: steps wins when both are given.
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "steps")) != NULL &&
	    !tbReadInt(ctx, item, "steps", 1, 1000000000, &def->steps)) {
		return false;
	}
	if ((item = cJSON_GetObjectItemCaseSensitive(root, "defaults")) != NULL &&
	    !tbReadDefaults(ctx, item)) {
		return false;
	}
	const char* lists[] = {"bodies", "generators"};
	for (int k = 0; k < 2; ++k) {
		const cJSON* list = cJSON_GetObjectItemCaseSensitive(root, lists[k]);
		if (list == NULL) {
			continue;
		}
		if (!cJSON_IsArray(list)) {
			return tbFail(ctx, list, lists[k], "expected an array, got %s", tbJsonKind(list));
		}
		int i = 0;
		for (const cJSON* e = list->child; e != NULL; e = e->next, ++i) {
			char path[TB_SCENE_PATH_SIZE];
			tbJoinIndex(path, lists[k], i);
			bool ok = k == 0 ? tbReadBody(ctx, e, path, def->bodyCount)
			                 : tbReadGenerator(ctx, e, path, i);
			if (!ok) {
				return false;
			}
		}
	}
	if (def->bodyCount == 0) {
		return tbFail(ctx, root, "", "no bodies (give bodies or generators)");
	}
	return true;
}

bool tbParseScene(const char* text, size_t length, const char* fileName, tbSceneDef* def,
                  tbSceneError* error)
{
	memset(def, 0, sizeof *def);
	if (error != NULL) {
		memset(error, 0, sizeof *error);
	}
	fileName = fileName != NULL ? fileName : "scene";
	// cJSON wants the terminator inside the length to reject trailing text.
	char* buffer = malloc(length + 1);
	if (buffer == NULL) {
		tbSetError(error, fileName, 0, "", "out of memory");
		return false;
	}
	memcpy(buffer, text, length);
	buffer[length] = '\0';
	if (strlen(buffer) != length) {
		int line = 1;
		for (const char* c = buffer; *c != '\0'; ++c) {
			line += *c == '\n';
		}
		tbSetError(error, fileName, line, "", "a NUL byte in the text (not a JSON text file?)");
		free(buffer);
		return false;
	}

	const char* end = NULL;
	cJSON* root = cJSON_ParseWithLengthOpts(buffer, length + 1, &end, 1);
	if (root == NULL) {
		size_t offset = end != NULL && end >= buffer ? (size_t)(end - buffer) : 0;
		offset = offset > length ? length : offset;
		int line = 1;
		for (size_t i = 0; i < offset; ++i) {
			line += buffer[i] == '\n';
		}
		char path[TB_SCENE_PATH_SIZE];
		tbPathAtOffset(buffer, offset, path, sizeof path);
		char near[24];
		size_t n = 0;
		for (; n + 1 < sizeof near && offset + n < length && buffer[offset + n] != '\n'; ++n) {
			near[n] = buffer[offset + n];
		}
		near[n] = '\0';
		bool blank = true;
		for (size_t i = 0; i < length && blank; ++i) {
			blank = strchr(" \t\r\n", buffer[i]) != NULL;
		}
		if (blank) {
			tbSetError(error, fileName, 1, "", "empty file, expected a JSON object");
		} else if (offset >= length || near[0] == '\0') {
			tbSetError(error, fileName, line, path,
			           "bad JSON: the text ends early (a missing '}', ']' or '\"'?)");
		} else {
			tbSetError(error, fileName, line, path,
			           "bad JSON at '%s' (a missing or extra comma, quote or bracket?)", near);
		}
		free(buffer);
		return false;
	}

	tbParseContext ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.fileName = fileName;
	ctx.error = error;
	ctx.def = def;
	ctx.density = 1000.0f;
	ctx.friction = 0.6f;
	ctx.restitution = 0.0f;
	tbScanner scanner = {buffer, length, 0, 1};
	bool ok = tbScanValue(&scanner, &ctx.lines, root, 0);
	if (!ok) {
		tbSetError(error, fileName, 0, "", "out of memory");
	} else {
		qsort(ctx.lines.entries, (size_t)ctx.lines.count, sizeof *ctx.lines.entries,
		      tbCompareLineEntries);
		tbFormat(def->fileName, sizeof def->fileName, "%s", fileName);
		def->gravity = (vec3s){{0.0f, -9.81f, 0.0f}};
		def->dt = 1.0f / 60.0f;
		def->substeps = TB_SCENE_DEFAULT_SUBSTEPS;
		def->sleep = true;
		ok = tbReadTop(&ctx, root);
	}
	free(ctx.lines.entries);
	free(ctx.drops);
	free(ctx.dropNext);
	free(ctx.bucketHeads);
	cJSON_Delete(root);
	free(buffer);
	if (!ok) {
		tbFreeSceneDef(def);
		return false;
	}
	for (int i = 0; i < def->bodyCount; ++i) {
		if (def->bodies[i].hullIndex >= 0) {
			def->bodies[i].shape.hull = def->hulls + def->bodies[i].hullIndex;
		}
	}
	return true;
}

bool tbReadSceneFile(const char* path, tbSceneDef* def, tbSceneError* error)
{
	memset(def, 0, sizeof *def);
	FILE* file = fopen(path, "rb");
	if (file == NULL) {
		tbSetError(error, path, 0, "", "cannot open the file");
		return false;
	}
	char* text = NULL;
	size_t length = 0, capacity = 0;
	bool ok = true;
	for (;;) {
		if (length == capacity) {
			capacity = capacity == 0 ? 65536 : 2 * capacity;
			char* larger = realloc(text, capacity);
			if (larger == NULL) {
				ok = false;
				break;
			}
			text = larger;
		}
		size_t n = fread(text + length, 1, capacity - length, file);
		length += n;
		if (n == 0) {
			break;
		}
	}
	bool readError = ferror(file) != 0;
	fclose(file);
	if (!ok || readError) {
		free(text);
		tbSetError(error, path, 0, "", ok ? "read error" : "out of memory");
		return false;
	}
	ok = tbParseScene(text != NULL ? text : "", length, path, def, error);
	free(text);
	return ok;
}

void tbFreeSceneDef(tbSceneDef* def)
{
	if (def == NULL) {
		return;
	}
	for (int i = 0; i < def->hullCount; ++i) {
		tbDestroyHull(def->hulls + i);
	}
	free(def->hulls);
	free(def->bodies);
	memset(def, 0, sizeof *def);
}

// ---------------------------------------------------------------------------------------------
// Building the world

void tbDestroyScene(tbScene* scene)
{
	if (scene == NULL) {
		return;
	}
	if (!TB_IS_NULL(scene->worldId) && tbWorld_IsValid(scene->worldId)) {
		tbDestroyWorld(scene->worldId);
	}
	free(scene->bodyIds);
	tbFreeSceneDef(&scene->def);
	memset(scene, 0, sizeof *scene);
}

bool tbBuildScene(tbSceneDef* def, tbScene* scene, tbSceneError* error)
{
	memset(scene, 0, sizeof *scene);
	if (error != NULL) {
		memset(error, 0, sizeof *error);
	}
	scene->def = *def;
	memset(def, 0, sizeof *def);
	const tbSceneDef* d = &scene->def;
	const char* fileName = d->fileName;

	scene->bodyIds = calloc((size_t)(d->bodyCount > 0 ? d->bodyCount : 1), sizeof(tbBodyId));
	if (scene->bodyIds == NULL) {
		tbSetError(error, fileName, 0, "", "out of memory");
		tbDestroyScene(scene);
		return false;
	}
	tbWorldDef worldDef = tbDefaultWorldDef();
	worldDef.gravity = d->gravity;
	worldDef.enableSleep = d->sleep;
	worldDef.initialBodyCapacity = d->bodyCount;
	worldDef.initialShapeCapacity = d->bodyCount;
	scene->worldId = tbCreateWorld(&worldDef);
	if (TB_IS_NULL(scene->worldId)) {
		tbSetError(error, fileName, 0, "", "cannot create the world: %s", tbGetLastError());
		tbDestroyScene(scene);
		return false;
	}
	for (int i = 0; i < d->bodyCount; ++i) {
		const tbSceneBody* b = d->bodies + i;
		tbBodyDef bodyDef = tbDefaultBodyDef();
		bodyDef.type = b->type;
		bodyDef.position = b->position;
		bodyDef.rotation = b->rotation;
		bodyDef.linearVelocity = b->linearVelocity;
		bodyDef.angularVelocity = b->angularVelocity;
		tbClearLastError();
		tbBodyId bodyId = tbCreateBody(scene->worldId, &bodyDef);
		tbShapeDef shapeDef = tbDefaultShapeDef();
		shapeDef.density = b->density;
		shapeDef.friction = b->friction;
		shapeDef.restitution = b->restitution;
		if (b->type == tb_dynamicBody && b->mass > 0.0f) {
			// scene.md: a given mass overrides density; the world takes density, so scale it.
			tbMassData unit = tbComputeMass(&b->shape, 1.0f, NULL);
			shapeDef.density = b->mass / unit.mass;
		}
		if (TB_IS_NULL(bodyId) || TB_IS_NULL(tbCreateShape(bodyId, &shapeDef, &b->shape))) {
			tbSetError(error, fileName, b->line, b->keyPath, "body '%s': %s", b->name,
			           tbGetLastError());
			tbDestroyScene(scene);
			return false;
		}
		scene->bodyIds[i] = bodyId;
	}
	return true;
}

bool tbLoadScene(const char* path, tbScene* scene, tbSceneError* error)
{
	tbSceneDef def;
	memset(scene, 0, sizeof *scene);
	if (!tbReadSceneFile(path, &def, error)) {
		return false;
	}
	return tbBuildScene(&def, scene, error);
}

// ---------------------------------------------------------------------------------------------
// Bundled scenes: the source tree's scenes/ (a build run in place) and the install data dir.

int tbGetBundledSceneDirs(const char** dirs, int capacity)
{
	int count = 0;
#ifdef TB_SCENES_SOURCE_DIR
	if (count < capacity) {
		dirs[count++] = TB_SCENES_SOURCE_DIR;
	}
#endif
#ifdef TB_SCENES_INSTALL_DIR
	if (count < capacity) {
		dirs[count++] = TB_SCENES_INSTALL_DIR;
	}
#endif
	return count;
}

static bool tbFileExists(const char* path)
{
	FILE* file = fopen(path, "rb");
	if (file != NULL) {
		fclose(file);
		return true;
	}
	return false;
}

bool tbFindScene(const char* nameOrPath, char* path, size_t pathSize)
{
	if (tbFileExists(nameOrPath)) {
		tbFormat(path, pathSize, "%s", nameOrPath);
		return true;
	}
	// Only bare names are looked up: "dir/x.json" that does not exist is simply missing.
	if (strchr(nameOrPath, '/') != NULL || nameOrPath[0] == '\0') {
		return false;
	}
	size_t length = strlen(nameOrPath);
	bool hasSuffix = length > 5 && strcmp(nameOrPath + length - 5, ".json") == 0;
	const char* dirs[4];
	int dirCount = tbGetBundledSceneDirs(dirs, 4);
	for (int i = 0; i < dirCount; ++i) {
		int n = tbFormat(path, pathSize, "%s/%s%s", dirs[i], nameOrPath, hasSuffix ? "" : ".json");
		if (n > 0 && (size_t)n < pathSize && tbFileExists(path)) {
			return true;
		}
	}
	return false;
}
