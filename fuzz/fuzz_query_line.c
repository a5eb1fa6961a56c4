// libFuzzer target: the query-file line parser on fuzzed text; every parsed case is then run
// through the narrow phase as `tumble query` runs it (relative pose in double). Checks: no crash
// or sanitizer report; a refused line has a message naming its line; a successful query has a
// finite distance and witnesses and a unit normal.
#include "fuzz_common.h"

#include "query_file.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	char* line = malloc(size + 1);
	if (line == NULL) {
		return 0;
	}
	memcpy(line, data, size);
	line[size] = '\0';
	tbQueryCase c;
	bool idParsed = false;
	char message[256];
	message[0] = '\0';
	tbQueryLineStatus status = tbParseQueryLine(line, 7, &c, &idParsed, message, sizeof message);
	if (status == tb_queryLineError) {
		FUZZ_CHECK(strncmp(message, "line 7", 6) == 0, "message '%s'", message);
	} else if (status == tb_queryLineCase) {
		tbTransform bInA = tbRelativeTransformd(&c.a.xf, &c.b.xf);
		for (int algorithm = 0; algorithm < 2; ++algorithm) {
			tbQueryDef def = tbDefaultQueryDef();
			def.algorithm = (tbQueryAlgorithm)algorithm;
			tbQueryResult q = tbQueryShapesLocal(&c.a.shape, &c.b.shape, bInA, &def);
			if (q.status != tb_queryInvalidInput) {
				FUZZ_CHECK(isfinite(q.distance), "distance %g", (double)q.distance);
				FUZZ_CHECK(fuzzUnit3(q.normal), "normal %g %g %g", (double)q.normal.x,
				           (double)q.normal.y, (double)q.normal.z);
				FUZZ_CHECK(fuzzFinite3(q.pointA) && fuzzFinite3(q.pointB), "witness");
			}
		}
		tbManifold m = tbCollideShapesLocal(&c.a.shape, &c.b.shape, bInA, 0.02f, NULL);
		FUZZ_CHECK(m.pointCount <= TB_MAX_MANIFOLD_POINTS && fuzzUnit3(m.normal), "manifold");
		tbFreeQueryCase(&c);
	}
	free(line);
	return 0;
}
