// Scene generators (scene.md "Generators"): pyramids and stacks of cubes, and seeded rain placed
// without overlap on a uniform grid hash.
#include "scene_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
			tbSceneFormat(body->name, sizeof body->name, "%s%d_%d", pyramid ? "pyramid" : "stack",
			              index, made++);
			body->shape = tbMakeBox(half, half, half);
			if (pyramid) {
				float pitch = 2.0f * half + gap;
				body->position = (vec3s){{origin.x + ((float)i - 0.5f * (float)(inRow - 1)) * pitch,
				                          origin.y + half + 2.0f * half * (float)row, origin.z}};
			} else {
				body->position =
				    (vec3s){{origin.x, origin.y + half + 2.0f * half * (float)i, origin.z}};
			}
			// Every cube inside the world's coordinate range: a gap of 1e38 or a tall stack of
			// big cubes would put them at infinity (found by fuzzing).
			vec3s p = body->position;
			if (!(fabsf(p.x) <= TB_MAX_COORDINATE && fabsf(p.y) <= TB_MAX_COORDINATE)) {
				return tbSceneFail(ctx, object, path,
				                   "%s reaches (%g, %g, %g), beyond +-%g m (docs/ranges.md): "
				                   "fewer cubes, a smaller half_extent or gap",
				                   pyramid ? "the pyramid" : "the stack", (double)p.x, (double)p.y,
				                   (double)p.z, (double)TB_MAX_COORDINATE);
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
	tbGeometry shape;
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
		return tbSceneFail(ctx, item, keyPath, "expected every component >= region_min's");
	}
	tbGeometry placed = shape;
	if (hullIndex >= 0) {
		placed.hull = ctx->def->hulls + hullIndex;
	}
	float radius = tbGeometry_BoundingRadius(&placed);

	// Random sequential placement: a drop is kept when its bounding sphere misses every earlier
	// drop's (of any rain generator), so no body starts inside another.
	if (!tbReserveDrops(ctx, ctx->dropCount + count, radius)) {
		return tbSceneFail(ctx, object, path, "out of memory");
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
			return tbSceneFail(
			    ctx, object, path,
			    "placed %d of %d bodies (bounding radius %g m) without overlap, then "
			    "found no room: enlarge the region",
			    k, count, (double)radius);
		}
		tbAddDrop(ctx, p, radius);

		tbSceneBody* body = tbAddBody(ctx, object, path);
		if (body == NULL) {
			return false;
		}
		tbSceneFormat(body->name, sizeof body->name, "rain%d_%d", index, k);
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

bool tbReadGenerator(tbParseContext* ctx, const cJSON* object, const char* path, int index)
{
	if (!cJSON_IsObject(object)) {
		return tbSceneFail(ctx, object, path, "expected a generator object, got %s",
		                   tbJsonKind(object));
	}
	char typePath[TB_SCENE_PATH_SIZE];
	tbJoinKey(typePath, path, "type");
	const cJSON* type = tbRequire(ctx, object, path, "type");
	if (type == NULL) {
		return false;
	}
	if (!cJSON_IsString(type)) {
		return tbSceneFail(ctx, type, typePath, "expected a string, got %s", tbJsonKind(type));
	}
	if (strcmp(type->valuestring, "pyramid") == 0 || strcmp(type->valuestring, "stack") == 0) {
		return tbReadCubeGenerator(ctx, object, path, index, type->valuestring[0] == 'p');
	} else if (strcmp(type->valuestring, "rain") == 0) {
		return tbReadRain(ctx, object, path, index);
	}
	return tbSceneFail(ctx, type, typePath,
	                   "unknown generator '%s' (expected pyramid, stack or rain)",
	                   type->valuestring);
}

// ---------------------------------------------------------------------------------------------
// The top level
