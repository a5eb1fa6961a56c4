// libFuzzer target: the scene loader on fuzzed text, then a few steps of what it accepts. Checks:
// no crash, hang or sanitizer report; a refused file has a message; an accepted scene builds (or
// is refused with a message) and its bodies stay finite for a few steps.
#include "fuzz_common.h"

// Bigger scenes are parsed (that is what is fuzzed) but not built: a step of 10^5 bodies would
// make each execution take seconds, and pyramids of 210 cubes stepped at a fuzzed dt took 3/4 of
// the run's time (a 4x lower rate at 256 bodies), while 64 bodies already reach every stage of the
// step (colours, islands, sleep, joints).
#define FUZZ_MAX_BUILT_BODIES 64
#define FUZZ_STEPS 5

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	tbSceneDef def;
	tbSceneError error;
	if (!tbParseScene((const char*)data, size, "fuzz.json", &def, &error)) {
		FUZZ_CHECK(error.message[0] != '\0', "refused without a message");
		return 0;
	}
	FUZZ_CHECK(def.bodyCount >= 0, "body count %d", def.bodyCount);
	for (int i = 0; i < def.bodyCount; ++i) {
		FUZZ_CHECK(fuzzFinite3(def.bodies[i].position), "body %d position", i);
	}
	if (def.bodyCount > FUZZ_MAX_BUILT_BODIES) {
		tbFreeSceneDef(&def);
		return 0;
	}
	float dt = def.dt;
	int substeps = def.substeps;
	tbScene scene;
	if (!tbBuildScene(&def, &scene, &error)) {
		FUZZ_CHECK(error.message[0] != '\0', "build refused without a message");
		return 0;
	}
	for (int s = 0; s < FUZZ_STEPS; ++s) {
		FUZZ_CHECK(tbWorld_Step(scene.worldId, dt, substeps), "step refused: %s", tbGetLastError());
	}
	for (int i = 0; i < scene.def.bodyCount; ++i) {
		tbTransform xf = tbBody_GetTransform(scene.bodyIds[i]);
		FUZZ_CHECK(fuzzFinite3(xf.p) && isfinite(xf.q.x + xf.q.y + xf.q.z + xf.q.w),
		           "body %d pose not finite after %d steps", i, FUZZ_STEPS);
	}
	tbDestroyScene(&scene);
	return 0;
}
