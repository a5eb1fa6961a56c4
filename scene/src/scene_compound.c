// A body's shapes in a scene file: one `shape`, or a compound body's `shapes` list, each entry with
// its own frame (position, rotation) and material (docs/scene-format.md, "Compound bodies"), and
// the optional `"sensor": true` of either form.
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

// Shapes of one compound body at most: a file with more is a mistake (the broad phase would hold
// every one of them as its own proxy).
#define TB_SCENE_MAX_BODY_SHAPES 1024

// The keys a shape object may carry besides its type's own ones: its frame and material inside a
// compound body, and the sensor flag.
static const char* const tb_entryKeys[] = {"position", "rotation",    "density",
                                           "friction", "restitution", "sensor"};
#define TB_ENTRY_KEY_COUNT ((int)(sizeof tb_entryKeys / sizeof tb_entryKeys[0]))

// The entry keys of `object` that are allowed (the first `allowedCount` of tb_entryKeys, or only
// "sensor" when `sensorOnly`) are taken out into detached[], so that tbReadShape sees its type's
// keys only; tbRestoreKeys puts them back (the parse tree owns them, the line map knows them by
// address, which neither changes). A duplicate is an error here, as tbCheckKeys would say.
static bool tbTakeEntryKeys(tbParseContext* ctx, cJSON* object, const char* path, bool sensorOnly,
                            cJSON* detached[TB_ENTRY_KEY_COUNT])
{
	memset(detached, 0, sizeof(cJSON*) * TB_ENTRY_KEY_COUNT);
	if (!cJSON_IsObject(object)) {
		return true; // tbReadShape says what is wrong with it
	}
	for (int k = 0; k < TB_ENTRY_KEY_COUNT; ++k) {
		if (sensorOnly && strcmp(tb_entryKeys[k], "sensor") != 0) {
			continue;
		}
		const cJSON* first = NULL;
		for (const cJSON* child = object->child; child != NULL; child = child->next) {
			if (strcmp(child->string, tb_entryKeys[k]) != 0) {
				continue;
			}
			if (first != NULL) {
				char childPath[TB_SCENE_PATH_SIZE];
				tbJoinKey(childPath, path, child->string);
				return tbSceneFail(ctx, child, childPath, "duplicate key (first at line %d)",
				                   tbLineOf(&ctx->lines, first));
			}
			first = child;
		}
	}
	for (int k = 0; k < TB_ENTRY_KEY_COUNT; ++k) {
		if (!sensorOnly || strcmp(tb_entryKeys[k], "sensor") == 0) {
			detached[k] = cJSON_DetachItemFromObjectCaseSensitive(object, tb_entryKeys[k]);
		}
	}
	return true;
}

static void tbRestoreKeys(cJSON* object, cJSON* detached[TB_ENTRY_KEY_COUNT])
{
	for (int k = 0; k < TB_ENTRY_KEY_COUNT; ++k) {
		if (detached[k] != NULL) {
			// Appended as an array item would be: the key string stays the item's own.
			cJSON_AddItemToArray(object, detached[k]);
		}
	}
}

// A shape object with the entry keys taken out first (see tbTakeEntryKeys).
static bool tbReadShapeWithKeys(tbParseContext* ctx, const cJSON* item, const char* path,
                                bool sensorOnly, tbGeometry* shape, int* hullIndex,
                                cJSON* detached[TB_ENTRY_KEY_COUNT])
{
	// The parse tree is the loader's own (tbParseScene made it and deletes it): taking keys out
	// for a moment and putting them back changes nothing a later reader sees but their order.
	cJSON* object = (cJSON*)item;
	if (!tbTakeEntryKeys(ctx, object, path, sensorOnly, detached)) {
		return false;
	}
	bool ok = tbReadShape(ctx, object, path, shape, hullIndex);
	if (!ok) {
		tbRestoreKeys(object, detached);
		memset(detached, 0, sizeof(cJSON*) * TB_ENTRY_KEY_COUNT);
	}
	return ok;
}

static bool tbReadSensorKey(tbParseContext* ctx, const cJSON* item, const char* path, bool* out)
{
	char keyPath[TB_SCENE_PATH_SIZE];
	tbJoinKey(keyPath, path, "sensor");
	return tbReadBool(ctx, item, keyPath, out);
}

// One entry of `shapes`: the shape, then its frame and material.
static bool tbReadEntry(tbParseContext* ctx, const cJSON* item, const char* path,
                        const tbSceneBody* body, tbSceneShape* out)
{
	memset(out, 0, sizeof *out);
	out->localPose = tbTransformIdentity();
	out->density = body->density;
	out->friction = body->friction;
	out->restitution = body->restitution;
	out->line = tbLineOf(&ctx->lines, item);
	cJSON* keys[TB_ENTRY_KEY_COUNT];
	if (!tbReadShapeWithKeys(ctx, item, path, false, &out->shape, &out->hullIndex, keys)) {
		return false;
	}
	// A shape's frame within the body: as far from the origin as tbCreateShape accepts.
	static const tbRange offsetRange = {-(double)TB_MAX_LENGTH, (double)TB_MAX_LENGTH, false,
	                                    " within +-1e6 m of the body origin (docs/ranges.md)"};
	bool ok = true;
	char keyPath[TB_SCENE_PATH_SIZE];
	for (int k = 0; k < TB_ENTRY_KEY_COUNT && ok; ++k) {
		const cJSON* value = keys[k];
		if (value == NULL) {
			continue;
		}
		tbJoinKey(keyPath, path, tb_entryKeys[k]);
		switch (k) {
		case 0:
			ok = tbReadVec3(ctx, value, keyPath, &offsetRange, &out->localPose.p);
			break;
		case 1:
			ok = tbReadRotation(ctx, value, keyPath, &out->localPose.q);
			break;
		case 2:
			if (body->type != tb_dynamicBody) {
				ok =
				    tbSceneFail(ctx, value, keyPath, "only a dynamic body's shapes have a density");
			} else {
				ok = tbReadFloat(ctx, value, keyPath, &tb_positive, &out->density);
			}
			break;
		case 3:
			ok = tbReadFloat(ctx, value, keyPath, &tb_nonNegative, &out->friction);
			break;
		case 4:
			ok = tbReadFloat(ctx, value, keyPath, &tb_unitInterval, &out->restitution);
			break;
		default:
			ok = tbReadSensorKey(ctx, value, path, &out->isSensor);
			break;
		}
	}
	tbRestoreKeys((cJSON*)item, keys);
	if (!ok) {
		return false;
	}
	// Each shape's own mass must be finite and > 0 (the body's total is checked when it is built,
	// by the world, with the body named).
	tbSceneBody alone = *body;
	alone.shape = out->shape;
	alone.hullIndex = out->hullIndex;
	alone.density = out->density;
	alone.mass = 0.0f;
	alone.shapeCount = 0;
	return tbCheckMass(ctx, item, path, &alone);
}

static bool tbReadShapeList(tbParseContext* ctx, const cJSON* list, const char* path,
                            tbSceneBody* body)
{
	int count = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
	if (count < 1 || count > TB_SCENE_MAX_BODY_SHAPES) {
		return tbSceneFail(ctx, list, path, "expected an array of 1 to %d shapes",
		                   TB_SCENE_MAX_BODY_SHAPES);
	}
	tbSceneDef* def = ctx->def;
	tbSceneShape* larger =
	    realloc(def->shapes, sizeof *larger * ((size_t)def->shapeCount + (size_t)count));
	if (larger == NULL) {
		return tbSceneFail(ctx, list, path, "out of memory");
	}
	def->shapes = larger;
	body->firstShape = def->shapeCount;
	int i = 0;
	for (const cJSON* item = list->child; item != NULL; item = item->next, ++i) {
		char entryPath[TB_SCENE_PATH_SIZE];
		tbJoinIndex(entryPath, path, i);
		if (!tbReadEntry(ctx, item, entryPath, body, def->shapes + def->shapeCount)) {
			return false;
		}
		def->shapeCount += 1;
		body->shapeCount += 1;
	}
	if (body->type == tb_dynamicBody) {
		// A given body mass is spread over the shapes in proportion to their masses at their
		// densities (scene_build.c): the total at the densities must be a float > 0.
		double total = 0.0;
		for (int k = 0; k < body->shapeCount; ++k) {
			tbSceneShape* s = def->shapes + body->firstShape + k;
			tbGeometry g = s->shape;
			if (s->hullIndex >= 0) {
				g.hull = def->hulls + s->hullIndex;
			}
			total += (double)tbComputeMass(&g, s->density, NULL).mass;
		}
		if (!(total > 0.0 && total <= (double)FLT_MAX)) {
			return tbSceneFail(ctx, list, path, "a dynamic body's mass is out of range: %g kg",
			                   total);
		}
		// A given mass scales every density by mass / total: each must stay a float.
		for (int k = 0; k < body->shapeCount && body->mass > 0.0f; ++k) {
			const tbSceneShape* e = def->shapes + body->firstShape + k;
			double density = (double)e->density * (double)body->mass / total;
			if (!(density <= (double)FLT_MAX)) {
				char entryPath[TB_SCENE_PATH_SIZE];
				tbJoinIndex(entryPath, path, k);
				return tbSceneFail(ctx, cJSON_GetArrayItem(list, k), entryPath,
				                   "the body's mass %g kg gives this shape a density of %g "
				                   "kg/m^3, beyond float",
				                   (double)body->mass, density);
			}
		}
	}
	return true;
}

bool tbReadBodyShapes(tbParseContext* ctx, const cJSON* object, const char* path, tbSceneBody* body)
{
	const cJSON* one = cJSON_GetObjectItemCaseSensitive(object, "shape");
	const cJSON* many = cJSON_GetObjectItemCaseSensitive(object, "shapes");
	char keyPath[TB_SCENE_PATH_SIZE];
	if (one != NULL && many != NULL) {
		tbJoinKey(keyPath, path, "shapes");
		return tbSceneFail(ctx, many, keyPath,
		                   "a body has either 'shape' or 'shapes', not both ('shape' at line %d)",
		                   tbLineOf(&ctx->lines, one));
	}
	if (one == NULL && many == NULL) {
		return tbSceneFail(ctx, object, path,
		                   "missing key 'shape' (or 'shapes' for a compound body)");
	}
	if (many != NULL) {
		tbJoinKey(keyPath, path, "shapes");
		return tbReadShapeList(ctx, many, keyPath, body);
	}
	tbJoinKey(keyPath, path, "shape");
	cJSON* keys[TB_ENTRY_KEY_COUNT];
	if (!tbReadShapeWithKeys(ctx, one, keyPath, true, &body->shape, &body->hullIndex, keys)) {
		return false;
	}
	bool ok = true;
	for (int k = 0; k < TB_ENTRY_KEY_COUNT; ++k) {
		if (keys[k] != NULL) {
			ok = tbReadSensorKey(ctx, keys[k], keyPath, &body->isSensor);
		}
	}
	tbRestoreKeys((cJSON*)one, keys);
	return ok && tbCheckMass(ctx, one, keyPath, body);
}
