// Scene files: level geometry shapes (docs/scene-format.md, "Level geometry"): `mesh` with
// vertices and triangles, `heightfield` with rows, columns, spacing and heights. Each is built
// here (tumble/mesh.h) and owned by the scene definition; errors name the key and its line.
#include "scene_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The array `key` of `object`, with `minCount` to `maxCount` elements, or an error.
static const cJSON* tbRequireArray(tbParseContext* ctx, const cJSON* object, const char* path,
                                   const char* key, int minCount, int maxCount, char* keyPath)
{
	tbJoinKey(keyPath, path, key);
	const cJSON* item = tbRequire(ctx, object, path, key);
	if (item == NULL) {
		return NULL;
	}
	int count = cJSON_IsArray(item) ? cJSON_GetArraySize(item) : -1;
	if (count < minCount || count > maxCount) {
		tbSceneFail(ctx, item, keyPath, "expected an array of %d to %d elements, got %s", minCount,
		            maxCount, cJSON_IsArray(item) ? "another count" : tbJsonKind(item));
		return NULL;
	}
	return item;
}

// A message of tbBuildMesh names "vertex N" or "triangle N": point at that element.
static const cJSON* tbNamedElement(const char* message, const char* word, const cJSON* array,
                                   int* index)
{
	const char* at = strstr(message, word);
	*index = -1;
	if (at != NULL && sscanf(at + strlen(word), "%d", index) == 1 && *index >= 0) {
		return cJSON_GetArrayItem(array, *index);
	}
	return NULL;
}

static bool tbReadMesh(tbParseContext* ctx, const cJSON* object, const char* path,
                       tbGeometry* shape)
{
	static const char* const keys[] = {"type", "vertices", "triangles"};
	if (!tbCheckKeys(ctx, object, path, "a mesh", keys, 3)) {
		return false;
	}
	char verticesPath[TB_SCENE_PATH_SIZE], trianglesPath[TB_SCENE_PATH_SIZE];
	const cJSON* vertices =
	    tbRequireArray(ctx, object, path, "vertices", 3, TB_MAX_MESH_TRIANGLES, verticesPath);
	if (vertices == NULL) {
		return false;
	}
	const cJSON* triangles =
	    tbRequireArray(ctx, object, path, "triangles", 1, TB_MAX_MESH_TRIANGLES, trianglesPath);
	if (triangles == NULL) {
		return false;
	}
	int vertexCount = cJSON_GetArraySize(vertices), triangleCount = cJSON_GetArraySize(triangles);
	vec3s* v = malloc(sizeof *v * (size_t)vertexCount);
	int* idx = malloc(sizeof *idx * 3u * (size_t)triangleCount);
	tbMesh* mesh = calloc(1, sizeof *mesh);
	bool ok = v != NULL && idx != NULL && mesh != NULL;
	if (!ok) {
		tbSceneFail(ctx, object, path, "out of memory");
	}
	char itemPath[TB_SCENE_PATH_SIZE];
	int i = 0;
	for (const cJSON* e = ok ? vertices->child : NULL; e != NULL && ok; e = e->next, ++i) {
		tbJoinIndex(itemPath, verticesPath, i);
		ok = tbReadVec3(ctx, e, itemPath, &tb_coordinate, v + i);
	}
	i = 0;
	for (const cJSON* e = ok ? triangles->child : NULL; e != NULL && ok; e = e->next, ++i) {
		tbJoinIndex(itemPath, trianglesPath, i);
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3) {
			ok = tbSceneFail(ctx, e, itemPath, "expected 3 vertex indices [i, j, k], got %s",
			                 cJSON_IsArray(e) ? "another count" : tbJsonKind(e));
			break;
		}
		int k = 0;
		for (const cJSON* n = e->child; n != NULL && ok; n = n->next, ++k) {
			char indexPath[TB_SCENE_PATH_SIZE];
			tbJoinIndex(indexPath, itemPath, k);
			ok = tbReadInt(ctx, n, indexPath, 0, vertexCount - 1, idx + 3 * i + k);
		}
	}
	char message[256];
	if (ok && !tbBuildMesh(v, vertexCount, idx, triangleCount, mesh, message, sizeof message)) {
		// Point at the triangle or vertex the message names.
		int index;
		const cJSON* where = tbNamedElement(message, "triangle ", triangles, &index);
		if (where != NULL) {
			tbJoinIndex(itemPath, trianglesPath, index);
		} else if ((where = tbNamedElement(message, "vertex ", vertices, &index)) != NULL) {
			tbJoinIndex(itemPath, verticesPath, index);
		} else {
			where = object;
			tbSceneFormat(itemPath, sizeof itemPath, "%s", path);
		}
		ok = tbSceneFail(ctx, where, itemPath, "%s", message);
	}
	free(v);
	free(idx);
	if (ok) {
		tbSceneDef* def = ctx->def;
		tbMesh** larger = realloc(def->meshes, sizeof *larger * (size_t)(def->meshCount + 1));
		ok = larger != NULL;
		if (ok) {
			def->meshes = larger;
			def->meshes[def->meshCount++] = mesh;
			*shape = tbMakeMeshShape(mesh);
			return true;
		}
		tbSceneFail(ctx, object, path, "out of memory");
	}
	if (mesh != NULL) {
		tbDestroyMesh(mesh);
		free(mesh);
	}
	return false;
}

static bool tbReadHeightfield(tbParseContext* ctx, const cJSON* object, const char* path,
                              tbGeometry* shape)
{
	static const char* const keys[] = {"type", "rows", "columns", "spacing", "heights"};
	if (!tbCheckKeys(ctx, object, path, "a heightfield", keys, 5)) {
		return false;
	}
	char keyPath[TB_SCENE_PATH_SIZE];
	int rows, columns;
	float spacing[2];
	const cJSON* item = tbRequire(ctx, object, path, "rows");
	tbJoinKey(keyPath, path, "rows");
	if (item == NULL || !tbReadInt(ctx, item, keyPath, 2, TB_MAX_MESH_TRIANGLES / 2, &rows)) {
		return false;
	}
	item = tbRequire(ctx, object, path, "columns");
	tbJoinKey(keyPath, path, "columns");
	if (item == NULL || !tbReadInt(ctx, item, keyPath, 2, TB_MAX_MESH_TRIANGLES / 2, &columns)) {
		return false;
	}
	if ((double)rows * (double)columns > (double)TB_MAX_MESH_TRIANGLES) {
		return tbSceneFail(ctx, item, keyPath, "rows x columns is over %d samples",
		                   TB_MAX_MESH_TRIANGLES);
	}
	item = tbRequire(ctx, object, path, "spacing");
	tbJoinKey(keyPath, path, "spacing");
	if (item == NULL || !tbReadFloats(ctx, item, keyPath, 2, &tb_positive, spacing)) {
		return false;
	}
	char heightsPath[TB_SCENE_PATH_SIZE];
	int count = rows * columns;
	const cJSON* heights =
	    tbRequireArray(ctx, object, path, "heights", 0, TB_MAX_MESH_TRIANGLES, heightsPath);
	if (heights == NULL) {
		return false;
	}
	if (cJSON_GetArraySize(heights) != count) {
		return tbSceneFail(ctx, heights, heightsPath,
		                   "expected rows x columns = %d x %d = %d numbers, got %d", rows, columns,
		                   count, cJSON_GetArraySize(heights));
	}
	float* h = malloc(sizeof *h * (size_t)count);
	tbHeightfield* field = calloc(1, sizeof *field);
	bool ok = h != NULL && field != NULL;
	if (!ok) {
		tbSceneFail(ctx, object, path, "out of memory");
	}
	int i = 0;
	for (const cJSON* e = ok ? heights->child : NULL; e != NULL && ok; e = e->next, ++i) {
		tbJoinIndex(keyPath, heightsPath, i);
		ok = tbReadFloat(ctx, e, keyPath, &tb_coordinate, h + i);
	}
	char message[256];
	if (ok && !tbBuildHeightfield(h, rows, columns, spacing[0], spacing[1], field, message,
	                              sizeof message)) {
		ok = tbSceneFail(ctx, object, path, "%s", message);
	}
	free(h);
	if (ok) {
		tbSceneDef* def = ctx->def;
		tbHeightfield** larger =
		    realloc(def->heightfields, sizeof *larger * (size_t)(def->heightfieldCount + 1));
		ok = larger != NULL;
		if (ok) {
			def->heightfields = larger;
			def->heightfields[def->heightfieldCount++] = field;
			*shape = tbMakeHeightfieldShape(field);
			return true;
		}
		tbSceneFail(ctx, object, path, "out of memory");
	}
	if (field != NULL) {
		tbDestroyHeightfield(field);
		free(field);
	}
	return false;
}

bool tbReadLevelShape(tbParseContext* ctx, const cJSON* object, const char* path, const char* type,
                      tbGeometry* shape)
{
	return strcmp(type, "mesh") == 0 ? tbReadMesh(ctx, object, path, shape)
	                                 : tbReadHeightfield(ctx, object, path, shape);
}

bool tbCheckLevelBody(tbParseContext* ctx, const cJSON* where, const char* path,
                      const tbSceneBody* body)
{
	if (!tbGeometry_IsLevel(&body->shape) || body->type == tb_staticBody) {
		return true;
	}
	return tbSceneFail(ctx, where, path, "body '%s' is %s: a %s goes on static bodies only",
	                   body->name, body->type == tb_dynamicBody ? "dynamic" : "kinematic",
	                   tbShapeTypeName(body->shape.type));
}

void tbFreeSceneLevels(tbSceneDef* def)
{
	for (int i = 0; i < def->meshCount; ++i) {
		tbDestroyMesh(def->meshes[i]);
		free(def->meshes[i]);
	}
	for (int i = 0; i < def->heightfieldCount; ++i) {
		tbDestroyHeightfield(def->heightfields[i]);
		free(def->heightfields[i]);
	}
	free(def->meshes);
	free(def->heightfields);
}
