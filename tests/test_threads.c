// The step on several threads: the same state hash after N steps for 1, 2, 3, 4 and 8 workers
// (the built-in pool and the game's own task callbacks), and no allocation in the step.
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <tumble/scene.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kWorkers[] = {1, 2, 3, 4, 8};
#define TB_WORKER_CASES ((int)(sizeof kWorkers / sizeof kWorkers[0]))

// How the world's tasks run: its own pool, or one of two job systems of the game's.
typedef enum Runner
{
	runPool,
	runInline,  // enqueueTask runs the task at once on the calling thread, returns NULL
	runShuffled // enqueueTask runs the ranges last first, under varied worker indices
} Runner;

typedef struct UserTask
{
	int ranges;
} UserTask;

static int s_userWorkers = 1;
static UserTask s_userTask;

static void* enqueueInline(tbTaskCallback* task, int itemCount, int minRange, void* taskContext,
                           void* userContext)
{
	(void)minRange;
	(void)userContext;
	task(0, itemCount, 0, taskContext);
	return NULL;
}

// Ranges of minRange items, the last first: a split and an order unlike the pool's.
static void* enqueueShuffled(tbTaskCallback* task, int itemCount, int minRange, void* taskContext,
                             void* userContext)
{
	UserTask* t = userContext;
	int size = minRange > 0 ? minRange : 1;
	int count = (itemCount + size - 1) / size;
	for (int k = count - 1; k >= 0; --k) {
		int start = k * size;
		int end = start + size < itemCount ? start + size : itemCount;
		task(start, end, k % s_userWorkers, taskContext);
	}
	t->ranges += count;
	return t;
}

static void finishUser(void* userTask, void* userContext)
{
	cr_assert_eq(userTask, userContext);
}

static tbWorldDef worldDef(int workers, Runner runner, bool sleep)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = sleep;
	def.workerCount = workers;
	if (runner != runPool) {
		s_userWorkers = workers;
		def.enqueueTask = runner == runInline ? enqueueInline : enqueueShuffled;
		def.finishTask = finishUser;
		def.userTaskContext = &s_userTask;
	}
	return def;
}

static void addGround(tbWorldId world)
{
	makeGround(world, 40.0f, 0.6f);
}

// A 2D pyramid of unit cubes, base 12 (78 boxes), resting on each other from the first step.
static void buildPyramid(tbWorldId world)
{
	addGround(world);
	int base = 12;
	for (int row = 0; row < base; ++row) {
		for (int i = 0; i < base - row; ++i) {
			float x = ((float)i - 0.5f * (float)(base - row - 1));
			makeBox(world, v3(x, 0.5f + (float)row, 0.0f), quatIdentity(), v3(0.5f, 0.5f, 0.5f),
			        1000.0f, 0.6f);
		}
	}
}

// 125 cubes turned every which way, dropped in a 5 x 5 x 5 block onto the ground: contacts
// begin, end and wake sleepers (sleeping on).
static void buildRain(tbWorldId world)
{
	addGround(world);
	makeTumblingCubes(world, 5);
}

// A hanging chain of 12 boxes on ball joints from a static anchor, a hinged door, a slider and a
// kinematic turntable carrying boxes (its contacts share colours: the records only read it).
static void buildJoints(tbWorldId world)
{
	addGround(world);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = v3(0.0f, 14.0f, 0.0f);
	tbBodyId anchor = tbCreateBody(world, &bd);
	tbBodyId prev = anchor;
	for (int i = 0; i < 12; ++i) {
		vec3s p = v3(0.6f * (float)(i + 1), 14.0f, 0.0f);
		tbBodyId link = makeBox(world, p, quatIdentity(), v3(0.25f, 0.1f, 0.1f), 500.0f, 0.5f);
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.bodyIdA = prev;
		jd.bodyIdB = link;
		jd.anchor = v3(p.x - 0.3f, 14.0f, 0.0f);
		tbCreateBallJoint(world, &jd);
		prev = link;
	}
	tbBodyId door =
	    makeBox(world, v3(5.0f, 1.1f, 5.0f), quatIdentity(), v3(0.6f, 1.0f, 0.05f), 300.0f, 0.5f);
	tbHingeJointDef hd = tbDefaultHingeJointDef();
	hd.bodyIdA = anchor;
	hd.bodyIdB = door;
	hd.anchor = v3(4.4f, 1.1f, 5.0f);
	hd.axis = v3(0.0f, 1.0f, 0.0f);
	tbCreateHingeJoint(world, &hd);
	tbBody_SetAngularVelocity(door, v3(0.0f, 3.0f, 0.0f));
	bd = tbDefaultBodyDef();
	bd.type = tb_kinematicBody;
	bd.position = v3(-6.0f, 0.25f, 0.0f);
	bd.angularVelocity = v3(0.0f, 1.0f, 0.0f);
	tbBodyId table = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry top = tbMakeBox(2.0f, 0.25f, 2.0f);
	tbCreateShape(table, &sd, &top);
	for (int i = 0; i < 9; ++i) {
		makeBox(world, v3(-7.0f + (float)(i % 3), 0.9f, -1.0f + (float)(i / 3)), quatIdentity(),
		        v3(0.3f, 0.3f, 0.3f), 800.0f, 0.6f);
	}
}

typedef void BuildFcn(tbWorldId world);

static uint64_t runHash(BuildFcn* build, int workers, Runner runner, bool sleep, int steps)
{
	tbWorldDef def = worldDef(workers, runner, sleep);
	tbWorldId world = tbCreateWorld(&def);
	cr_assert(tbWorld_IsValid(world), "%s", tbGetLastError());
	build(world);
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	// The bodies' state, and the contacts' per-step impulses (what a game reads as forces): both
	// the same bits at any worker count.
	uint64_t h = tbWorld_GetStateHash(world);
	int count = tbWorld_GetContactCount(world);
	tbContactData* data = count > 0 ? calloc((size_t)count, sizeof *data) : NULL;
	int got = count > 0 ? tbWorld_GetContactData(world, data, count) : 0;
	for (int i = 0; i < got; ++i) {
		for (int p = 0; p < data[i].manifold.pointCount; ++p) {
			uint32_t bits;
			memcpy(&bits, &data[i].normalImpulses[p], sizeof bits);
			h = (h ^ bits) * 1099511628211ull; // FNV-1a's prime
		}
	}
	free(data);
	tbDestroyWorld(world);
	return h;
}

static void checkScene(const char* name, BuildFcn* build, bool sleep, int steps)
{
	uint64_t one = runHash(build, 1, runPool, sleep, steps);
	for (int k = 1; k < TB_WORKER_CASES; ++k) {
		uint64_t h = runHash(build, kWorkers[k], runPool, sleep, steps);
		cr_expect_eq(h, one, "%s: %d workers hash 0x%016llx, one worker 0x%016llx", name,
		             kWorkers[k], (unsigned long long)h, (unsigned long long)one);
	}
	// The game's job systems: inline, and ranges in another split and order.
	uint64_t inl = runHash(build, 1, runInline, sleep, steps);
	cr_expect_eq(inl, one, "%s: inline enqueueTask", name);
	s_userTask.ranges = 0;
	uint64_t shuffled = runHash(build, 3, runShuffled, sleep, steps);
	cr_expect_eq(shuffled, one, "%s: shuffled enqueueTask", name);
	cr_expect_gt(s_userTask.ranges, steps, "%s: the step gave the game's job system no tasks",
	             name);
	printf("SCENE threads %s: hash 0x%016llx at 1, 2, 3, 4, 8 workers and two job systems\n", name,
	       (unsigned long long)one);
}

Test(threads, pyramid_same_hash_at_every_worker_count)
{
	checkScene("pyramid", buildPyramid, false, 40);
}

Test(threads, cube_rain_same_hash_at_every_worker_count)
{
	checkScene("rain", buildRain, true, 100);
}

Test(threads, joints_same_hash_at_every_worker_count)
{
	checkScene("joints", buildJoints, true, 90);
}

// A kinematic turntable carrying 64 boxes (makeTurntable): the records of a colour share the
// kinematic body, read by every one of them and written by none.
static void buildTurntable(tbWorldId world)
{
	tbBodyId boxes[64];
	makeTurntable(world, 0.5f, boxes);
}

Test(threads, turntable_same_hash_at_every_worker_count)
{
	checkScene("turntable", buildTurntable, false, 90);
	// The boxes ride the table: friction (0.6 g, more than the 0.5^2 x 8 m/s^2 the outer corners
	// need) brings each to the table's speed, w r about the axis, within a second.
	tbWorldDef def = worldDef(2, runPool, false);
	tbWorldId world = tbCreateWorld(&def);
	tbBodyId boxes[64];
	makeTurntable(world, 0.5f, boxes);
	for (int s = 0; s < 90; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	float worst = 0.0f;
	for (int i = 0; i < 64; ++i) {
		vec3s p = tbBody_GetPosition(boxes[i]);
		vec3s v = tbBody_GetLinearVelocity(boxes[i]);
		float r = sqrtf(p.x * p.x + p.z * p.z);
		float speed = sqrtf(v.x * v.x + v.z * v.z);
		worst = fmaxf(worst, fabsf(speed - 0.5f * r) / (0.5f * r));
	}
	tbDestroyWorld(world);
	printf("SCENE threads turntable: boxes' speeds within %.5f of w r\n", (double)worst);
	cr_expect_lt(worst, 0.02f, "a box's speed is %.4f off the table's w r", (double)worst);
}

// A net of 24 x 24 small boxes tied by 1,104 ball joints, hung by one corner (Box3D's joint grid,
// smaller): more joints than one block of the parallel joint loops (gathering, scattering, the
// wake check), so their lists are made from several blocks' offsets.
static void buildJointGrid(tbWorldId world)
{
	enum
	{
		n = 24
	};
	tbBodyId ids[n * n];
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < n; ++k) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = (i == 0 && k == 0) ? tb_staticBody : tb_dynamicBody;
			bd.position = v3(0.5f * (float)k, 20.0f, 0.5f * (float)i);
			ids[i * n + k] = tbCreateBody(world, &bd);
			tbShapeDef sd = tbDefaultShapeDef();
			tbGeometry g = tbMakeSphere(0.1f);
			tbCreateShape(ids[i * n + k], &sd, &g);
		}
	}
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < n; ++k) {
			for (int side = 0; side < 2; ++side) {
				int ni = i + side, nk = k + 1 - side;
				if (ni >= n || nk >= n) {
					continue;
				}
				tbBallJointDef jd = tbDefaultBallJointDef();
				jd.bodyIdA = ids[i * n + k];
				jd.bodyIdB = ids[ni * n + nk];
				jd.anchor = v3(0.25f * (float)(k + nk), 20.0f, 0.25f * (float)(i + ni));
				tbCreateBallJoint(world, &jd);
			}
		}
	}
}

Test(threads, joint_grid_same_hash_at_every_worker_count)
{
	checkScene("joint grid", buildJointGrid, false, 40);
}

// Joint colours side by side: chains solved as groups and a net of single joints on a kinematic
// bar.
static void buildJointColours(tbWorldId world)
{
	addGround(world);
	makeJointScenes(world);
}

Test(threads, joint_colours_same_hash_at_every_worker_count)
{
	checkScene("joint colours", buildJointColours, false, 60);
}

// The rolling resistance's rows, solved colour by colour and each colour's side by side: the same
// bits at any worker count.
static void buildRolling(tbWorldId world)
{
	addGround(world);
	makeRollingBalls(world);
}

Test(threads, rolling_same_hash_at_every_worker_count)
{
	checkScene("rolling", buildRolling, false, 60);
}

// Bouncing balls (e = 0.8) dropped in a heap onto ground with e = 0.5, and three Newton's cradles
// (e = 1) struck at once: the collision phase before the substeps runs serially in record order,
// so its impulses are the same bits at any worker count.
static void buildBouncy(tbWorldId world)
{
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = v3(0.0f, -0.5f, 0.0f);
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.restitution = 0.5f;
	tbGeometry floor = tbMakeBox(40.0f, 0.5f, 40.0f);
	tbCreateShape(ground, &sd, &floor);
	tbGeometry ball = tbMakeSphere(0.25f);
	for (int i = 0; i < 80; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = v3(-2.0f + 0.55f * (float)(i % 4) + 0.05f * (float)((i / 4) % 3),
		                 0.3f + 0.6f * (float)(i / 8), -1.0f + 0.55f * (float)((i / 4) % 2));
		tbBodyId b = tbCreateBody(world, &bd);
		sd.restitution = 0.8f;
		sd.friction = 0.3f;
		tbCreateShape(b, &sd, &ball);
	}
	for (int row = 0; row < 3; ++row) {
		for (int i = 0; i < 6; ++i) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = tb_dynamicBody;
			bd.position =
			    v3(i == 0 ? 4.0f : 4.8f + 0.5f * (float)(i - 1), 0.25f, 3.0f + (float)row);
			bd.linearVelocity = v3(i == 0 ? 3.0f + (float)row : 0.0f, 0.0f, 0.0f);
			tbBodyId b = tbCreateBody(world, &bd);
			sd.restitution = 1.0f;
			sd.friction = 0.0f;
			tbCreateShape(b, &sd, &ball);
		}
	}
}

Test(threads, bouncy_same_hash_at_every_worker_count)
{
	checkScene("bouncy", buildBouncy, false, 90);
}

// Many new pairs every step, found by the broad phase's parallel queries: a block of 5 x 5 x 4
// cubes packed 1 cm apart (every neighbour a new pair on the first step), on a heightfield with
// bumps (level pairs), with a rain of boxes and balls added over it every other step, and a
// custom filter that turns some pairs down. Besides the state, the order of every step's begin and
// end touch events must be the same at any worker count.
static tbHeightfield s_field;

static bool filterSome(tbShapeId a, tbShapeId b, void* context)
{
	(void)context;
	return (a.index1 + b.index1) % 11 != 0;
}

static void buildPileRain(tbWorldId world)
{
	enum
	{
		cells = 16
	};
	float heights[(cells + 1) * (cells + 1)];
	for (int r = 0; r <= cells; ++r) {
		for (int c = 0; c <= cells; ++c) {
			heights[r * (cells + 1) + c] = 0.15f * sinf(0.9f * (float)r) * cosf(0.7f * (float)c);
		}
	}
	char message[256];
	cr_assert(tbBuildHeightfield(heights, cells + 1, cells + 1, 1.0f, 1.0f, &s_field, message,
	                             (int)sizeof message),
	          "%s", message);
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry level = tbMakeHeightfieldShape(&s_field);
	tbCreateShape(ground, &sd, &level);
	for (int y = 0; y < 4; ++y) {
		for (int z = 0; z < 5; ++z) {
			for (int x = 0; x < 5; ++x) {
				makeBox(
				    world,
				    v3(0.81f * (float)x - 1.6f, 0.6f + 0.81f * (float)y, 0.81f * (float)z - 1.6f),
				    quatIdentity(), v3(0.4f, 0.4f, 0.4f), 800.0f, 0.5f);
			}
		}
	}
	tbWorld_SetCustomFilterCallback(world, filterSome, NULL);
}

static void rainOnPile(tbWorldId world, int step)
{
	if (step % 2 != 0 || step >= 80) {
		return;
	}
	tbGeometry ball = tbMakeSphere(0.3f);
	for (int i = 0; i < 6; ++i) {
		float a = 1.7f * (float)(step + i), x = 2.5f * sinf(a), z = 2.5f * cosf(1.3f * a);
		vec3s p = v3(x, 7.0f + 0.2f * (float)i, z);
		tbBodyId b;
		if (i % 2 == 0) {
			b = makeDynamic(world, p, quatIdentity(), &ball, 600.0f);
		} else {
			versors q = glms_quat_normalize((versors){{sinf(a), cosf(a), 0.3f, 1.0f}});
			b = makeBox(world, p, q, v3(0.3f, 0.2f, 0.25f), 700.0f, 0.5f);
		}
		tbBody_SetLinearVelocity(b, v3(0.0f, -6.0f, 0.0f));
	}
}

static uint64_t mixId(uint64_t h, tbShapeId id)
{
	return (h ^ (uint64_t)(uint32_t)id.index1 ^ ((uint64_t)id.generation << 32)) * 1099511628211ull;
}

// The state hash after `steps`, and in *events a hash of every step's begin and end events in
// their order.
static uint64_t runPileRain(int workers, Runner runner, int steps, uint64_t* events,
                            int* eventCount)
{
	tbWorldDef def = worldDef(workers, runner, true);
	tbWorldId world = tbCreateWorld(&def);
	cr_assert(tbWorld_IsValid(world), "%s", tbGetLastError());
	buildPileRain(world);
	uint64_t h = 14695981039346656037ull;
	int count = 0;
	for (int s = 0; s < steps; ++s) {
		rainOnPile(world, s);
		tbWorld_Step(world, kDt, 4);
		tbContactEvents e = tbWorld_GetContactEvents(world);
		for (int k = 0; k < e.beginCount; ++k) {
			h = mixId(mixId(h, e.beginEvents[k].shapeIdA), e.beginEvents[k].shapeIdB);
		}
		h = (h ^ 0xb5u) * 1099511628211ull;
		for (int k = 0; k < e.endCount; ++k) {
			h = mixId(mixId(h, e.endEvents[k].shapeIdA), e.endEvents[k].shapeIdB);
		}
		h = (h ^ 0xe7u) * 1099511628211ull;
		count += e.beginCount + e.endCount;
	}
	*events = h;
	*eventCount = count;
	uint64_t state = tbWorld_GetStateHash(world);
	tbDestroyWorld(world);
	tbDestroyHeightfield(&s_field);
	return state;
}

Test(threads, pile_rain_same_hash_and_events_at_every_worker_count)
{
	int steps = 120;
	uint64_t events1;
	int count1;
	uint64_t one = runPileRain(1, runPool, steps, &events1, &count1);
	// Enough new pairs to mean something: the pile's first step and the rain's landings.
	cr_assert_gt(count1, 200, "only %d touch events", count1);
	for (int k = 1; k < TB_WORKER_CASES; ++k) {
		uint64_t events;
		int count;
		uint64_t h = runPileRain(kWorkers[k], runPool, steps, &events, &count);
		cr_expect_eq(h, one, "pile rain: %d workers hash 0x%016llx, one worker 0x%016llx",
		             kWorkers[k], (unsigned long long)h, (unsigned long long)one);
		cr_expect_eq(count, count1, "pile rain: %d workers %d events, one worker %d", kWorkers[k],
		             count, count1);
		cr_expect_eq(events, events1, "pile rain: %d workers' event order differs", kWorkers[k]);
	}
	uint64_t events;
	int count;
	uint64_t shuffled = runPileRain(3, runShuffled, steps, &events, &count);
	cr_expect_eq(shuffled, one, "pile rain: shuffled enqueueTask");
	cr_expect_eq(events, events1, "pile rain: shuffled enqueueTask's event order differs");
	printf("SCENE threads pile rain: hash 0x%016llx, %d touch events, at 1, 2, 3, 4, 8 workers\n",
	       (unsigned long long)one, count1);
}

// The bundled scene files, 1 and 4 workers (the loader sets the world's worker count).
Test(threads, bundled_scenes_same_hash_at_4_workers)
{
	const char* names[] = {"rain", "mixed", "chain", "door", "dominoes", "compound", "terrain"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
		uint64_t hashes[2];
		int workers[2] = {1, 4};
		for (int k = 0; k < 2; ++k) {
			char path[4096];
			cr_assert(tbFindScene(names[i], path, sizeof path), "no scene %s", names[i]);
			tbSceneDef def;
			tbSceneError error;
			cr_assert(tbReadSceneFile(path, &def, &error), "%s", error.message);
			def.workerCount = workers[k];
			float dt = def.dt;
			int substeps = def.substeps;
			tbScene scene;
			cr_assert(tbBuildScene(&def, &scene, &error), "%s", error.message);
			for (int s = 0; s < 60; ++s) {
				tbWorld_Step(scene.worldId, dt, substeps);
			}
			hashes[k] = tbWorld_GetStateHash(scene.worldId);
			tbDestroyScene(&scene);
		}
		cr_expect_eq(hashes[0], hashes[1], "scene %s: 4 workers 0x%016llx, one 0x%016llx", names[i],
		             (unsigned long long)hashes[1], (unsigned long long)hashes[0]);
	}
}

// After warm-up the step allocates nothing at 4 workers (the allocator's byte counter).
Test(threads, no_allocation_in_the_step_at_4_workers)
{
	tbWorldDef def = worldDef(4, runPool, false);
	tbWorldId world = tbCreateWorld(&def);
	buildPyramid(world);
	for (int s = 0; s < 10; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	long long allocations = tbGetAllocationCount(), bytes = tbGetByteCount();
	for (int s = 0; s < 20; ++s) {
		tbWorld_Step(world, kDt, 4);
	}
	cr_expect_eq(tbGetAllocationCount(), allocations, "the step allocated %lld times",
	             tbGetAllocationCount() - allocations);
	cr_expect_eq(tbGetByteCount(), bytes);
	tbDestroyWorld(world);
}

// A bad worker count or half the callbacks is refused with an error that names the field.
Test(threads, bad_worker_settings_are_refused)
{
	int bad[] = {0, -1, 65};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		tbWorldDef def = tbDefaultWorldDef();
		def.workerCount = bad[i];
		tbWorldId world = tbCreateWorld(&def);
		cr_expect_not(tbWorld_IsValid(world));
		cr_expect_not_null(strstr(tbGetLastError(), "workerCount"), "%s", tbGetLastError());
	}
	tbWorldDef def = tbDefaultWorldDef();
	def.enqueueTask = enqueueInline;
	tbWorldId world = tbCreateWorld(&def);
	cr_expect_not(tbWorld_IsValid(world));
	cr_expect_not_null(strstr(tbGetLastError(), "finishTask"), "%s", tbGetLastError());
}
