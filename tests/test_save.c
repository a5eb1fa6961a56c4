// World saves and replays: a restored world steps on with the original's state hash, step for
// step (every bundled scene, mid-contact, asleep, jointed, threaded, rewound in place); damaged
// saves are refused with an error; a replayed recording ends on the recorded hash.
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;

// The world's save in a malloc'd buffer (*size its length).
static unsigned char* saveWorld(tbWorldId world, size_t* size)
{
	*size = tbWorld_Save(world, NULL, 0);
	cr_assert_gt(*size, 0, "tbWorld_Save: %s", tbGetLastError());
	unsigned char* data = malloc(*size);
	cr_assert_eq(tbWorld_Save(world, data, *size), *size, "%s", tbGetLastError());
	return data;
}

// Step both worlds `steps` times; the state hashes and every body's velocities must agree after
// each step. Returns the step of the first difference, or -1.
static int stepTogether(tbWorldId a, tbWorldId b, int steps, float dt, int substeps)
{
	int bodies = tbWorld_GetCounters(a).bodyCount;
	tbBodySnapshot* sa = malloc((size_t)(bodies + 1) * sizeof(tbBodySnapshot));
	tbBodySnapshot* sb = malloc((size_t)(bodies + 1) * sizeof(tbBodySnapshot));
	int first = -1;
	for (int s = 0; s < steps && first < 0; ++s) {
		tbWorld_Step(a, dt, substeps);
		tbWorld_Step(b, dt, substeps);
		if (tbWorld_GetStateHash(a) != tbWorld_GetStateHash(b)) {
			first = s;
			break;
		}
		int na = tbWorld_GetBodySnapshots(a, sa, bodies + 1);
		int nb = tbWorld_GetBodySnapshots(b, sb, bodies + 1);
		// The ids name different worlds: the poses and motions must be the same bits.
		size_t from = offsetof(tbBodySnapshot, position);
		for (int i = 0; i < na && i < nb && first < 0; ++i) {
			if (memcmp((char*)(sa + i) + from, (char*)(sb + i) + from,
			           sizeof(tbBodySnapshot) - from) != 0) {
				first = s;
			}
		}
		if (na != nb) {
			first = s;
		}
	}
	free(sa);
	free(sb);
	return first;
}

// Steps after the save: the full 600 in the optimised build, fewer where sanitizers slow it
// (there the test is about memory: every array restored, nothing read past its end).
static int afterSteps(void)
{
	return sceneIsLight() ? 40 : 600;
}

static bool loadScene(const char* path, int workers, tbScene* scene)
{
	tbSceneDef def;
	tbSceneError error;
	memset(scene, 0, sizeof *scene);
	if (!tbReadSceneFile(path, &def, &error)) {
		cr_log_error("%s", error.message);
		return false;
	}
	def.workerCount = workers;
	if (!tbBuildScene(&def, scene, &error)) {
		cr_log_error("%s", error.message);
		return false;
	}
	return true;
}

// Load, step `before`, save, restore into a new world (with `restoreWorkers`), step both.
static void checkScene(const char* path, int workers, int restoreWorkers, int before)
{
	tbScene scene;
	cr_assert(loadScene(path, workers, &scene), "%s does not load", path);
	float dt = scene.def.dt > 0.0f ? scene.def.dt : kDt;
	int substeps = scene.def.substeps > 0 ? scene.def.substeps : 4;
	for (int s = 0; s < before; ++s) {
		tbWorld_Step(scene.worldId, dt, substeps);
	}
	size_t size = 0;
	unsigned char* data = saveWorld(scene.worldId, &size);
	tbWorldDef runtime = tbDefaultWorldDef();
	runtime.workerCount = restoreWorkers;
	tbWorldId copy = tbCreateWorldFromSave(data, size, &runtime);
	cr_assert(tbWorld_IsValid(copy), "%s: %s", path, tbGetLastError());
	cr_expect_eq(tbWorld_GetStateHash(copy), tbWorld_GetStateHash(scene.worldId), "%s", path);
	tbWorldCounters ca = tbWorld_GetCounters(scene.worldId), cb = tbWorld_GetCounters(copy);
	cr_expect_eq(ca.bodyCount, cb.bodyCount, "%s", path);
	cr_expect_eq(ca.contactCount, cb.contactCount, "%s", path);
	cr_expect_eq(ca.touchingCount, cb.touchingCount, "%s", path);
	cr_expect_eq(ca.awakeBodyCount, cb.awakeBodyCount, "%s", path);
	cr_expect_eq(ca.stepCount, cb.stepCount, "%s", path);
	// A scene of thousands of bodies (the rain of 4,000 cubes) is followed for a third as long:
	// its landing, its piles and its first sleepers, at a third of the test's time.
	int after = ca.bodyCount > 1000 ? afterSteps() / 3 : afterSteps();
	int differs = stepTogether(scene.worldId, copy, after, dt, substeps);
	cr_expect_eq(differs, -1, "%s (%d workers, restored on %d): the hashes part at step %d", path,
	             workers, restoreWorkers, differs);
	// The copy's own save matches a save of the original after the same steps, byte for byte
	// past the header's process-independent part (the ids name different worlds in events only).
	tbDestroyWorld(copy);
	tbDestroyScene(&scene);
	free(data);
}

Test(save, every_bundled_scene_continues_with_the_same_hash, .timeout = 600)
{
	DIR* dir = opendir("scenes");
	cr_assert_not_null(dir, "run from the source root (scenes/)");
	struct dirent* e;
	int count = 0;
	while ((e = readdir(dir)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) {
			continue;
		}
		char path[512];
		snprintf(path, sizeof path, "scenes/%s", e->d_name);
		checkScene(path, 1, 1, sceneIsLight() ? 30 : 100);
		count += 1;
	}
	closedir(dir);
	cr_expect_geq(count, 17, "found %d bundled scenes", count);
}

Test(save, pyramid_saved_mid_contact_keeps_its_impulses)
{
	tbScene scene;
	cr_assert(loadScene("scenes/pyramid.json", 1, &scene));
	for (int s = 0; s < 30; ++s) {
		tbWorld_Step(scene.worldId, kDt, 4);
	}
	int touching = tbWorld_GetContactCount(scene.worldId);
	cr_assert_gt(touching, 10, "the pyramid's boxes touch (%d pairs)", touching);
	size_t size = 0;
	unsigned char* data = saveWorld(scene.worldId, &size);
	tbWorldId copy = tbCreateWorldFromSave(data, size, NULL);
	cr_assert(tbWorld_IsValid(copy), "%s", tbGetLastError());
	// The warm-start impulses come back: the same contact data, point for point.
	tbContactData* a = malloc((size_t)touching * sizeof(tbContactData));
	tbContactData* b = malloc((size_t)touching * sizeof(tbContactData));
	cr_assert_eq(tbWorld_GetContactData(scene.worldId, a, touching), touching);
	cr_assert_eq(tbWorld_GetContactData(copy, b, touching), touching);
	for (int i = 0; i < touching; ++i) {
		cr_expect_eq(a[i].manifold.pointCount, b[i].manifold.pointCount);
		for (int k = 0; k < a[i].manifold.pointCount; ++k) {
			cr_expect_eq(a[i].normalImpulses[k], b[i].normalImpulses[k], "contact %d point %d", i,
			             k);
		}
	}
	free(a);
	free(b);
	cr_expect_eq(stepTogether(scene.worldId, copy, afterSteps(), kDt, 4), -1);
	tbDestroyWorld(copy);
	tbDestroyScene(&scene);
	free(data);
}

Test(save, sleeping_bodies_stay_asleep_and_wake_alike)
{
	tbWorldId world = makeWorld(true);
	makeGround(world, 20.0f, 0.6f);
	tbBodyId boxes[6];
	for (int i = 0; i < 6; ++i) {
		boxes[i] = makeBox(world, v3(3.0f * (float)(i % 3), 0.5f + 1.1f * (float)(i / 3), 0.0f),
		                   quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	}
	int s = 0;
	while (s < 600 && tbWorld_GetCounters(world).awakeBodyCount > 0) {
		tbWorld_Step(world, kDt, 4);
		++s;
	}
	cr_assert_eq(tbWorld_GetCounters(world).awakeBodyCount, 0, "all asleep by step %d", s);
	size_t size = 0;
	unsigned char* data = saveWorld(world, &size);
	tbWorldId copy = tbCreateWorldFromSave(data, size, NULL);
	cr_assert(tbWorld_IsValid(copy), "%s", tbGetLastError());
	cr_expect_eq(tbWorld_GetCounters(copy).awakeBodyCount, 0);
	cr_expect_eq(stepTogether(world, copy, 30, kDt, 4), -1);
	// Wake one box in each with the same impulse: they wake, move and settle alike.
	tbBodyId other = boxes[4];
	other.world0 = (uint16_t)(copy.index1 - 1);
	other.worldGeneration = copy.generation;
	cr_assert(tbBody_IsValid(other), "the saved body id maps to the restored world");
	cr_expect_not(tbBody_IsAwake(other));
	tbBody_ApplyLinearImpulse(boxes[4], v3(0.0f, 3000.0f, 500.0f), tbBody_GetPosition(boxes[4]),
	                          true);
	tbBody_ApplyLinearImpulse(other, v3(0.0f, 3000.0f, 500.0f), tbBody_GetPosition(other), true);
	cr_expect(tbBody_IsAwake(other));
	cr_expect_eq(stepTogether(world, copy, afterSteps(), kDt, 4), -1);
	tbDestroyWorld(copy);
	tbDestroyWorld(world);
	free(data);
}

Test(save, jointed_scenes_continue_alike, .timeout = 300)
{
	const char* paths[] = {"scenes/chain.json", "scenes/door.json", "scenes/pendulum.json"};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; ++i) {
		checkScene(paths[i], 1, 1, 37);
	}
}

Test(save, threaded_worlds_save_and_restore_on_any_worker_count, .timeout = 300)
{
	// Two workers saved; restored on two and on one: the step gives the same bits for any count.
	checkScene("scenes/pyramid.json", 2, 2, 50);
	checkScene("scenes/pyramid.json", 2, 1, 50);
	checkScene("scenes/mixed.json", 1, 2, 50);
}

Test(save, rewind_in_place_keeps_every_id_valid)
{
	tbScene scene;
	cr_assert(loadScene("scenes/chain.json", 1, &scene));
	tbWorldId world = scene.worldId;
	for (int s = 0; s < 40; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	size_t size = 0;
	unsigned char* data = saveWorld(world, &size);
	enum
	{
		kSteps = 150
	};
	uint64_t hashes[kSteps];
	// Changes after the save: a body destroyed, another made (the slot and generation it takes
	// follow the free list, which the restore puts back).
	tbDestroyBody(scene.bodyIds[scene.def.bodyCount - 1]);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = v3(0.0f, 10.0f, 0.0f);
	tbBodyId made = tbCreateBody(world, &bd);
	tbGeometry ball = tbMakeSphere(0.3f);
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateShape(made, &sd, &ball);
	cr_assert(tbWorld_Restore(world, data, size), "%s", tbGetLastError());
	cr_expect(tbWorld_IsValid(world));
	for (int i = 0; i < scene.def.bodyCount; ++i) {
		cr_expect(tbBody_IsValid(scene.bodyIds[i]), "body %d valid again after the rewind", i);
	}
	for (int i = 0; i < scene.def.jointCount; ++i) {
		cr_expect(tbJoint_IsValid(scene.jointIds[i]), "joint %d valid after the rewind", i);
	}
	cr_expect_eq(tbWorld_GetCounters(world).bodyCount, scene.def.bodyCount);
	for (int s = 0; s < kSteps; ++s) {
		tbWorld_Step(world, kDt, 4);
		hashes[s] = tbWorld_GetStateHash(world);
	}
	// Rewind again: the same run, step for step.
	cr_assert(tbWorld_Restore(world, data, size), "%s", tbGetLastError());
	for (int s = 0; s < kSteps; ++s) {
		tbWorld_Step(world, kDt, 4);
		cr_assert_eq(tbWorld_GetStateHash(world), hashes[s], "rewound run parts at step %d", s);
	}
	tbDestroyScene(&scene);
	free(data);
}

Test(save, new_bodies_after_a_restore_take_the_same_slots)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 20.0f, 0.6f);
	tbBodyId a =
	    makeBox(world, v3(0.0f, 1.0f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	makeBox(world, v3(2.0f, 1.0f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	tbDestroyBody(a);
	tbWorld_Step(world, kDt, 4);
	size_t size = 0;
	unsigned char* data = saveWorld(world, &size);
	tbWorldId copy = tbCreateWorldFromSave(data, size, NULL);
	cr_assert(tbWorld_IsValid(copy), "%s", tbGetLastError());
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	tbBodyId x = tbCreateBody(world, &bd);
	tbBodyId y = tbCreateBody(copy, &bd);
	cr_expect_eq(x.index1, a.index1, "the destroyed body's slot is reused");
	cr_expect_eq(x.index1, y.index1);
	cr_expect_eq(x.generation, y.generation);
	cr_expect_neq(x.generation, a.generation, "a reused slot has a new generation");
	tbDestroyWorld(copy);
	tbDestroyWorld(world);
	free(data);
}

// A small world with a sensor, a joint and contacts, stepped a little.
static tbWorldId smallWorld(void)
{
	tbWorldId world = makeWorld(true);
	tbBodyId ground = makeGround(world, 5.0f, 0.6f);
	tbBodyId box =
	    makeBox(world, v3(0.0f, 0.5f, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.isSensor = true;
	tbGeometry zone = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbCreateShape(ground, &sd, &zone);
	tbBodyId ball =
	    makeBox(world, v3(0.0f, 1.6f, 0.0f), quatIdentity(), v3(0.2f, 0.2f, 0.2f), 500.0f, 0.6f);
	tbBallJointDef jd = tbDefaultBallJointDef();
	jd.bodyIdA = box;
	jd.bodyIdB = ball;
	jd.anchor = v3(0.0f, 1.2f, 0.0f);
	tbCreateBallJoint(world, &jd);
	for (int s = 0; s < 10; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	return world;
}

Test(save, damaged_saves_are_refused_with_an_error)
{
	tbWorldId world = smallWorld();
	size_t size = 0;
	unsigned char* data = saveWorld(world, &size);
	tbWorldId target = makeWorld(false);
	uint64_t empty = tbWorld_GetStateHash(target);
	// Null, empty, and every truncation.
	cr_expect_not(tbWorld_Restore(target, NULL, size));
	cr_expect_neq(strlen(tbGetLastError()), 0);
	for (size_t n = 0; n < size; ++n) {
		tbClearLastError();
		cr_assert_not(tbWorld_Restore(target, data, n), "a save cut to %zu of %zu bytes", n, size);
		cr_assert_neq(strlen(tbGetLastError()), 0, "no error for a cut at %zu", n);
	}
	cr_expect_eq(tbWorld_GetStateHash(target), empty,
	             "a refused restore leaves the world as it was");
	// Magic and version.
	unsigned char* bad = malloc(size + 16);
	memcpy(bad, data, size);
	bad[0] ^= 0xffu;
	cr_expect_not(tbWorld_Restore(target, bad, size));
	cr_expect_not_null(strstr(tbGetLastError(), "magic"), "%s", tbGetLastError());
	memcpy(bad, data, size);
	bad[4] += 1u;
	cr_expect_not(tbWorld_Restore(target, bad, size));
	cr_expect_not_null(strstr(tbGetLastError(), "version"), "%s", tbGetLastError());
	// A longer buffer: bytes past the save.
	memcpy(bad, data, size);
	memset(bad + size, 0, 16);
	cr_expect_not(tbWorld_Restore(target, bad, size + 16));
	// Every byte flipped, one at a time: refused (the checksum covers the header too).
	int accepted = 0;
	for (size_t i = 0; i < size; ++i) {
		memcpy(bad, data, size);
		bad[i] ^= 0x5au;
		tbClearLastError();
		if (tbWorld_Restore(target, bad, size)) {
			accepted += 1;
			cr_expect_eq(tbWorld_GetStateHash(target), tbWorld_GetStateHash(world),
			             "byte %zu flipped and accepted", i);
		} else {
			cr_assert_neq(strlen(tbGetLastError()), 0, "no error for byte %zu flipped", i);
		}
	}
	cr_expect_eq(accepted, 0, "%d single-byte flips accepted", accepted);
	// The good save still restores, and the world steps on with the original.
	cr_assert(tbWorld_Restore(target, data, size), "%s", tbGetLastError());
	cr_expect_eq(stepTogether(world, target, 60, kDt, 4), -1);
	// Too small a buffer for tbWorld_Save.
	cr_expect_eq(tbWorld_Save(world, bad, 10), 0);
	cr_expect_not_null(strstr(tbGetLastError(), "buffer"), "%s", tbGetLastError());
	cr_expect_eq(tbCreateWorldFromSave(data, size / 2, NULL).index1, 0);
	free(bad);
	free(data);
	tbDestroyWorld(target);
	tbDestroyWorld(world);
}

Test(save, a_replayed_recording_ends_on_the_recorded_hash)
{
	tbScene scene;
	cr_assert(loadScene("scenes/pyramid.json", 1, &scene));
	tbWorldId world = scene.worldId;
	tbBodyId top = scene.bodyIds[scene.def.bodyCount - 1];
	tbBodyId low = scene.bodyIds[1];
	tbRecorder* rec = tbRecorder_Create(world);
	cr_assert_not_null(rec, "%s", tbGetLastError());
	tbBodyId made = {0};
	for (int s = 0; s < 240; ++s) {
		if (s % 20 == 5 && s < 200) {
			tbInput in = tbMakeInput(tb_inputForce);
			in.bodyId = top;
			in.vector = v3(40.0f, 0.0f, 15.0f * (float)(s % 3));
			in.point = tbBody_GetPosition(top);
			in.wake = true;
			cr_assert(tbRecorder_Apply(rec, &in, NULL), "%s", tbGetLastError());
		}
		if (s == 60) {
			tbInput in = tbMakeInput(tb_inputLinearImpulse);
			in.bodyId = low;
			in.vector = v3(0.0f, 5.0f, -30.0f);
			in.point = tbBody_GetPosition(low);
			in.wake = true;
			cr_assert(tbRecorder_Apply(rec, &in, NULL));
		}
		if (s == 80) {
			tbInput in = tbMakeInput(tb_inputCreateBody);
			in.bodyDef.type = tb_dynamicBody;
			in.bodyDef.position = v3(0.3f, 12.0f, 0.2f);
			in.hasShape = true;
			in.geometry = tbMakeSphere(0.4f);
			cr_assert(tbRecorder_Apply(rec, &in, &made), "%s", tbGetLastError());
		}
		if (s == 120) {
			tbInput in = tbMakeInput(tb_inputSetAngularVelocity);
			in.bodyId = made;
			in.vector = v3(0.0f, 20.0f, 3.0f);
			cr_assert(tbRecorder_Apply(rec, &in, NULL));
		}
		if (s == 200) {
			tbInput in = tbMakeInput(tb_inputDestroyBody);
			in.bodyId = top;
			cr_assert(tbRecorder_Apply(rec, &in, NULL));
		}
		cr_assert(tbRecorder_Step(rec, kDt, 4));
	}
	uint64_t recorded = tbWorld_GetStateHash(world);
	cr_expect_eq(tbRecorder_GetInputCount(rec), 240 + 10 + 4);
	// Into a new world, and into the recorded world itself (a rewind and a rerun).
	tbWorldDef def = tbDefaultWorldDef();
	tbWorldId other = tbCreateWorld(&def);
	cr_assert(tbRecorder_Replay(rec, other), "%s", tbGetLastError());
	cr_expect_eq(tbWorld_GetStateHash(other), recorded, "replayed into a new world");
	cr_assert(tbRecorder_Replay(rec, world), "%s", tbGetLastError());
	cr_expect_eq(tbWorld_GetStateHash(world), recorded, "replayed into the recorded world");
	cr_expect_not(tbBody_IsValid(top), "the destroyed body stays destroyed");
	// A refused input is not recorded.
	tbInput in = tbMakeInput(tb_inputForce);
	in.bodyId = top;
	cr_expect_not(tbRecorder_Apply(rec, &in, NULL));
	cr_expect_eq(tbRecorder_GetInputCount(rec), 240 + 10 + 4);
	tbRecorder_Destroy(rec);
	tbDestroyWorld(other);
	tbDestroyScene(&scene);
}
