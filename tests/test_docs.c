// The examples of docs/scene-format.md and docs/query-format.md, loaded as they are written: every
// `json` block must parse, build and simulate, every `query` block must parse and be answered, and
// the hand-worked `answers` block must match what the query returns. A change of either format
// that the docs do not follow fails here.
#include "query_file.h"

#include <tumble/tumble.h>

#include <cjson/cJSON.h>
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_MAX_BLOCKS 16

typedef struct tbDocBlock
{
	char* text;
	int line; // line of the opening fence, for messages
} tbDocBlock;

static char* tbReadWhole(const char* path)
{
	FILE* file = fopen(path, "rb");
	cr_assert_not_null(file, "cannot open %s", path);
	fseek(file, 0, SEEK_END);
	long size = ftell(file);
	fseek(file, 0, SEEK_SET);
	char* text = malloc((size_t)size + 1);
	cr_assert_not_null(text);
	cr_assert_eq(fread(text, 1, (size_t)size, file), (size_t)size);
	text[size] = '\0';
	fclose(file);
	return text;
}

// The fenced blocks of a Markdown file whose info string is exactly `tag`.
static int tbFindBlocks(const char* path, const char* tag, tbDocBlock* blocks, int capacity)
{
	char* text = tbReadWhole(path);
	int count = 0, lineNumber = 0;
	char* block = NULL;
	size_t used = 0;
	int blockLine = 0;
	bool inOther = false;
	for (char* line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		++lineNumber;
		bool fence = strncmp(line, "```", 3) == 0;
		if (block != NULL) {
			if (fence) {
				cr_assert_lt(count, capacity, "%s: more than %d %s blocks", path, capacity, tag);
				blocks[count++] = (tbDocBlock){block, blockLine};
				block = NULL;
				continue;
			}
			size_t n = strlen(line);
			block = realloc(block, used + n + 2);
			cr_assert_not_null(block);
			memcpy(block + used, line, n);
			used += n;
			block[used++] = '\n';
			block[used] = '\0';
		} else if (fence && inOther) {
			inOther = false;
		} else if (fence) {
			if (strcmp(line + 3, tag) == 0) {
				block = calloc(1, 1);
				cr_assert_not_null(block);
				used = 0;
				blockLine = lineNumber;
			} else {
				inOther = true;
			}
		}
	}
	cr_assert_null(block, "%s: unterminated %s block at line %d", path, tag, blockLine);
	free(text);
	return count;
}

static void tbFreeBlocks(tbDocBlock* blocks, int count)
{
	for (int i = 0; i < count; ++i) {
		free(blocks[i].text);
	}
}

// Bodies a scene should have, counted from its JSON independently of the reader: the explicit
// bodies plus base (base + 1) / 2 per pyramid and `count` per stack or rain.
static int tbExpectedBodyCount(const char* text)
{
	cJSON* root = cJSON_Parse(text);
	cr_assert_not_null(root);
	int expected = cJSON_GetArraySize(cJSON_GetObjectItem(root, "bodies"));
	const cJSON* generator;
	cJSON_ArrayForEach(generator, cJSON_GetObjectItem(root, "generators"))
	{
		const char* type = cJSON_GetObjectItem(generator, "type")->valuestring;
		if (strcmp(type, "pyramid") == 0) {
			int base = cJSON_GetObjectItem(generator, "base")->valueint;
			expected += base * (base + 1) / 2;
		} else {
			expected += cJSON_GetObjectItem(generator, "count")->valueint;
		}
	}
	cJSON_Delete(root);
	return expected;
}

Test(docs, scene_examples_load_build_and_simulate)
{
	tbDocBlock blocks[TB_MAX_BLOCKS];
	int count = tbFindBlocks(TB_DOCS_DIR "/scene-format.md", "json", blocks, TB_MAX_BLOCKS);
	cr_assert_geq(count, 3, "scene-format.md lost its examples (%d left)", count);
	for (int b = 0; b < count; ++b) {
		const char* text = blocks[b].text;
		tbSceneDef def;
		tbSceneError error;
		char name[64];
		snprintf(name, sizeof name, "scene-format.md:%d", blocks[b].line);
		cr_assert(tbParseScene(text, strlen(text), name, &def, &error), "%s", error.message);
		cr_assert_eq(def.bodyCount, tbExpectedBodyCount(text), "%s: %d bodies", name,
		             def.bodyCount);
		float dt = def.dt;
		int substeps = def.substeps, steps = def.steps;
		tbScene scene;
		cr_assert(tbBuildScene(&def, &scene, &error), "%s", error.message);
		for (int s = 0; s < steps; ++s) {
			cr_assert(tbWorld_Step(scene.worldId, dt, substeps), "%s: step %d", name, s);
		}
		for (int i = 0; i < scene.def.bodyCount; ++i) {
			vec3s p = tbBody_GetPosition(scene.bodyIds[i]);
			vec3s v = tbBody_GetLinearVelocity(scene.bodyIds[i]);
			cr_assert(isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) &&
			              isfinite(v.y) && isfinite(v.z),
			          "%s: body %s is not finite", name, scene.def.bodies[i].name);
			// Nothing falls through the ground of these examples: every dynamic body stays above
			// the plane y = 0 less a contact slop.
			if (scene.def.bodies[i].type == tb_dynamicBody) {
				cr_assert_gt(p.y, -0.05f, "%s: %s fell to y = %g", name, scene.def.bodies[i].name,
				             (double)p.y);
			}
		}
		// The first example: a unit box dropped on the ground (top face y = 0) must rest on a
		// face after 2 s, its centre half its edge above the ground and its speed gone.
		if (b == 0) {
			vec3s p = tbBody_GetPosition(scene.bodyIds[1]);
			vec3s v = tbBody_GetLinearVelocity(scene.bodyIds[1]);
			cr_assert_float_eq(p.y, 0.5f, 0.01f, "%s: the box rests at y = %g", name, (double)p.y);
			cr_assert_lt(glms_vec3_norm(v), 0.05f, "%s: the box still moves", name);
		}
		tbDestroyScene(&scene);
	}
	tbFreeBlocks(blocks, count);
}

typedef struct tbAnswer
{
	long long id;
	int hit;
	double sd, n[3];
} tbAnswer;

Test(docs, query_examples_parse_and_match_the_worked_answers)
{
	tbDocBlock blocks[TB_MAX_BLOCKS], answerBlocks[TB_MAX_BLOCKS];
	int count = tbFindBlocks(TB_DOCS_DIR "/query-format.md", "query", blocks, TB_MAX_BLOCKS);
	int answerCount =
	    tbFindBlocks(TB_DOCS_DIR "/query-format.md", "answers", answerBlocks, TB_MAX_BLOCKS);
	cr_assert_geq(count, 1);
	cr_assert_eq(answerCount, 1);
	tbAnswer answers[32];
	int known = 0;
	for (char* line = strtok(answerBlocks[0].text, "\n"); line != NULL && known < 32;
	     line = strtok(NULL, "\n")) {
		tbAnswer* a = answers + known++;
		cr_assert_eq(sscanf(line, "%lld %d %lf %lf %lf %lf", &a->id, &a->hit, &a->sd, &a->n[0],
		                    &a->n[1], &a->n[2]),
		             6, "bad answers line '%s'", line);
	}
	int cases = 0;
	for (int b = 0; b < count; ++b) {
		int lineNumber = 0;
		for (char* line = strtok(blocks[b].text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
			++lineNumber;
			tbQueryCase queryCase;
			bool idParsed;
			char message[256];
			tbQueryLineStatus status =
			    tbParseQueryLine(line, lineNumber, &queryCase, &idParsed, message, sizeof message);
			cr_assert_neq(status, tb_queryLineError, "query-format.md:%d: %s",
			              blocks[b].line + lineNumber, message);
			if (status == tb_queryLineSkip) {
				continue;
			}
			++cases;
			tbTransform bInA = tbRelativeTransformd(&queryCase.a.xf, &queryCase.b.xf);
			tbQueryDef def = tbDefaultQueryDef();
			tbQueryResult r =
			    tbQueryShapesLocal(&queryCase.a.shape, &queryCase.b.shape, bInA, &def);
			cr_assert_neq(r.status, tb_queryInvalidInput, "case %lld rejected", queryCase.id);
			double scale = tbQueryCaseScale(&queryCase);
			double n[3];
			tbRotateVectord(&queryCase.a.xf, r.normal, n);
			const tbAnswer* want = NULL;
			for (int k = 0; k < known; ++k) {
				want = answers[k].id == queryCase.id ? answers + k : want;
			}
			cr_assert_not_null(want, "case %lld has no worked answer in the doc", queryCase.id);
			cr_assert_eq(r.hit ? 1 : 0, want->hit, "case %lld: hit", queryCase.id);
			cr_assert_float_eq((double)r.distance, want->sd, 1e-4 * scale, "case %lld: sd %g",
			                   queryCase.id, (double)r.distance);
			for (int i = 0; i < 3; ++i) {
				cr_assert_float_eq(n[i], want->n[i], 1e-4, "case %lld: normal[%d] %g", queryCase.id,
				                   i, n[i]);
			}
			tbFreeQueryCase(&queryCase);
		}
	}
	cr_assert_eq(cases, known, "%d cases, %d worked answers", cases, known);
	tbFreeBlocks(blocks, count);
	tbFreeBlocks(answerBlocks, answerCount);
}
