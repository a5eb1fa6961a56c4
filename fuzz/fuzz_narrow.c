// libFuzzer target: the narrow phase on fuzzed shapes (every type, scale, hull point sets) and
// poses. Checks: no crash or sanitizer report, and a query or manifold that succeeds has finite
// distances and points and a unit normal.
#include "fuzz_common.h"

static void checkQuery(const tbGeometry* a, tbTransform xfA, const tbGeometry* b, tbTransform xfB,
                       tbQueryAlgorithm algorithm)
{
	tbQueryDef def = tbDefaultQueryDef();
	def.algorithm = algorithm;
	tbQueryResult q = tbQueryShapes(a, xfA, b, xfB, &def);
	if (q.status == tb_queryInvalidInput) {
		return;
	}
	FUZZ_CHECK(isfinite(q.distance), "distance %g (status %s)", (double)q.distance,
	           tbQueryStatusName(q.status));
	FUZZ_CHECK(fuzzUnit3(q.normal), "normal %g %g %g", (double)q.normal.x, (double)q.normal.y,
	           (double)q.normal.z);
	FUZZ_CHECK(fuzzFinite3(q.pointA) && fuzzFinite3(q.pointB), "witness not finite");
	// Unified EPA (alone or as the fallback) runs under the sum of both caps.
	FUZZ_CHECK(q.gjkIterations <= def.maxGjkIterations + 1 &&
	               q.epaIterations <= def.maxGjkIterations + def.maxEpaIterations + 1,
	           "iterations %d %d above the caps", q.gjkIterations, q.epaIterations);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	FuzzReader r = {data, size, 0};
	tbHull hullA, hullB;
	memset(&hullA, 0, sizeof hullA);
	memset(&hullB, 0, sizeof hullB);
	tbGeometry a = fuzzShape(&r, &hullA);
	tbGeometry b = fuzzShape(&r, &hullB);
	tbTransform xfA = fuzzPose(&r);
	tbTransform xfB = fuzzPose(&r);
	fuzzDescribe("A", &a, xfA);
	fuzzDescribe("B", &b, xfB);
	bool validA = tbGeometry_Validate(&a, NULL, 0);
	bool validB = tbGeometry_Validate(&b, NULL, 0);

	checkQuery(&a, xfA, &b, xfB, tb_algorithmGjkEpa);
	checkQuery(&a, xfA, &b, xfB, tb_algorithmUnifiedEpa);
	tbQueryStatus status;
	(void)tbTestOverlap(&a, xfA, &b, xfB, &status);

	float speculative = fuzzFloat(&r);
	tbManifold m = tbCollideShapes(&a, xfA, &b, xfB, speculative);
	FUZZ_CHECK(m.pointCount >= 0 && m.pointCount <= TB_MAX_MANIFOLD_POINTS, "%d points",
	           m.pointCount);
	FUZZ_CHECK(fuzzUnit3(m.normal), "manifold normal %g %g %g", (double)m.normal.x,
	           (double)m.normal.y, (double)m.normal.z);
	for (int i = 0; i < m.pointCount; ++i) {
		FUZZ_CHECK(fuzzFinite3(m.points[i].pointA) && fuzzFinite3(m.points[i].pointB) &&
		               isfinite(m.points[i].separation),
		           "manifold point %d not finite", i);
	}
	// Queries check a hull by its radius only (tbBuildHull checked its points), so a hull whose
	// extent is below TB_MIN_LENGTH but whose radius is not may still be answered.
	bool hulls = a.type == tb_hullShape || b.type == tb_hullShape;
	if ((!validA || !validB) && !hulls) {
		FUZZ_CHECK(m.pointCount == 0, "an invalid shape gave %d points", m.pointCount);
	}
	tbDestroyHull(&hullA);
	tbDestroyHull(&hullB);
	return 0;
}
