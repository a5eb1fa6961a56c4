// box3d-suite: the Box3D peer of tumble-suite. It runs one scene of Box3D's own benchmark suite
// (the scene functions of its shared/benchmarks.c, compiled from the Box3D tree given to
// bench/suite.sh) on one thread, timed the same way, and prints the same JSON line. Built by
// bench/suite.sh only (it needs a Box3D build); never by meson.
// Usage: box3d-suite SCENE [--steps N] [--workers W] [--callgrind-from K] [--joint-gaps]
//        [--overlaps] | --list
// (--workers: Box3D's own threads and scheduler, b3WorldDef.workerCount; 1 by default;
// --joint-gaps: after every step, the largest b3Joint_GetLinearSeparation of the joints of the
// bodies that moved, printed as max_joint_gap_m for the last step and max_joint_gap_run_m over
// the run; it slows the run, so never with a timed one; --overlaps: after every step, the deepest
// point of the touching contacts of the bodies that moved, as deepest_overlap_m over the run, the
// figure of tumble-suite's --overlaps; never with a timed run either)
#define _POSIX_C_SOURCE 200809L

#include "benchmarks.h"
#include "box3d/box3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PEER_CALLGRIND 1
#endif
#endif
#ifndef PEER_CALLGRIND
#define CALLGRIND_START_INSTRUMENTATION ((void)0)
#define CALLGRIND_STOP_INSTRUMENTATION ((void)0)
#endif

typedef struct PeerScene
{
	const char* name;
	void (*capacity)(b3Capacity* capacity);
	void (*create)(b3WorldId worldId);
	void (*step)(b3WorldId worldId, int stepIndex);
	void (*destroy)(void);
	int defaultSteps;
} PeerScene;

// The scene table of tumble-suite, bound to Box3D's scene functions.
static const PeerScene peerScenes[] = {
    {"large_pyramid", NULL, CreateLargePyramid, NULL, NULL, 200},
    {"many_pyramids", NULL, CreateManyPyramids, NULL, NULL, 100},
    {"large_world", GetLargeWorldCapacity, CreateLargeWorld, StepLargeWorld, NULL, 500},
    {"convex_pile", GetConvexPileCapacity, CreateConvexPile, NULL, NULL, 500},
    {"junkyard", GetJunkyardCapacity, CreateJunkyard, StepJunkyard, NULL, 500},
    {"washer", GetWasherCapacity, CreateWasher, NULL, NULL, 1000},
    {"joint_grid", NULL, CreateJointGrid, NULL, NULL, 100},
    {"rain", GetRainCapacity, CreateRain, StepRain, DestroyRain, 400},
    {"trees25", NULL, CreateTrees25, NULL, DestroyTrees, 500},
    {"trees50", NULL, CreateTrees50, NULL, DestroyTrees, 500},
    {"trees100", NULL, CreateTrees100, NULL, DestroyTrees, 500},
};

// The largest linear separation of a constraining joint of a body that moved in the last step
// (its move event): a body asleep keeps its joints as they were when it fell asleep.
static double peerJointGap(b3WorldId worldId)
{
	double gap = 0.0;
	b3BodyEvents events = b3World_GetBodyEvents(worldId);
	b3JointId joints[64];
	for (int i = 0; i < events.moveCount; ++i) {
		int n = b3Body_GetJoints(events.moveEvents[i].bodyId, joints, 64);
		for (int k = 0; k < n; ++k) {
			if (b3Joint_GetType(joints[k]) == b3_filterJoint) {
				continue; // no constraint: it only keeps two bodies from colliding
			}
			double d = (double)b3Joint_GetLinearSeparation(joints[k]);
			gap = d > gap ? d : gap;
		}
	}
	return gap;
}

// The deepest point of the touching contacts of the bodies that moved in the last step, m (0 where
// none overlaps): the most negative separation of their manifolds. A sleeping body's contacts are
// as they were when it fell asleep.
static double peerDeepestOverlap(b3WorldId worldId)
{
	double deepest = 0.0;
	b3BodyEvents events = b3World_GetBodyEvents(worldId);
	b3ContactData data[256];
	for (int i = 0; i < events.moveCount; ++i) {
		int n = b3Body_GetContactData(events.moveEvents[i].bodyId, data, 256);
		for (int k = 0; k < n; ++k) {
			for (int j = 0; j < data[k].manifoldCount; ++j) {
				const b3Manifold* m = data[k].manifolds + j;
				for (int p = 0; p < m->pointCount; ++p) {
					double d = -(double)m->points[p].separation;
					deepest = d > deepest ? d : deepest;
				}
			}
		}
	}
	return deepest;
}

static double peerNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv)
{
	const char* name = NULL;
	long steps = -1, callgrindFrom = -1, workers = 1;
	bool jointGaps = false, overlaps = false;
	int count = (int)(sizeof peerScenes / sizeof peerScenes[0]);
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--list") == 0) {
			for (int k = 0; k < count; ++k) {
				printf("%-14s %5d\n", peerScenes[k].name, peerScenes[k].defaultSteps);
			}
			return 0;
		} else if (strcmp(argv[i], "--joint-gaps") == 0) {
			jointGaps = true;
		} else if (strcmp(argv[i], "--overlaps") == 0) {
			overlaps = true;
		} else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
			steps = strtol(argv[++i], NULL, 10);
			if (steps < 1 || steps > 10000000) {
				fprintf(stderr, "box3d-suite: --steps wants an integer in [1, 1e7]\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc) {
			workers = strtol(argv[++i], NULL, 10);
			if (workers < 1 || workers > 64) {
				fprintf(stderr, "box3d-suite: --workers wants an integer in [1, 64]\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--callgrind-from") == 0 && i + 1 < argc) {
			callgrindFrom = strtol(argv[++i], NULL, 10);
		} else if (argv[i][0] != '-' && name == NULL) {
			name = argv[i];
		} else {
			fprintf(stderr, "box3d-suite: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	const PeerScene* scene = NULL;
	for (int k = 0; k < count && name != NULL; ++k) {
		if (strcmp(peerScenes[k].name, name) == 0) {
			scene = peerScenes + k;
		}
	}
	if (scene == NULL) {
		fprintf(stderr, "usage: box3d-suite SCENE [--steps N] [--workers W] [--callgrind-from K] "
		                "[--joint-gaps] | "
		                "--list\n");
		return 2;
	}
	if (steps < 0) {
		steps = scene->defaultSteps;
	}

	b3WorldDef def = b3DefaultWorldDef();
	// More than one worker: Box3D starts its own threads and runs its in-tree scheduler.
	def.workerCount = (uint32_t)workers;
	if (scene->capacity != NULL) {
		scene->capacity(&def.capacity);
	}
	b3WorldId worldId = b3CreateWorld(&def);
	double t0 = peerNow();
	scene->create(worldId);
	double createMs = 1e3 * (peerNow() - t0);

	const float dt = 1.0f / 60.0f;
	t0 = peerNow();
	if (scene->step != NULL) {
		scene->step(worldId, 0);
	}
	if (callgrindFrom == 0) {
		CALLGRIND_START_INSTRUMENTATION;
	}
	b3World_Step(worldId, dt, 4);
	double firstMs = 1e3 * (peerNow() - t0);
	// Where each moving body is after the first step (from the move events), for the drift of
	// the pyramids at the end: the same check as Tumble's, from one step later.
	int startCapacity = b3World_GetCounters(worldId).bodyCount + 1;
	double* start = calloc((size_t)startCapacity * 4, sizeof(double));
	if (start != NULL) {
		b3BodyEvents events = b3World_GetBodyEvents(worldId);
		for (int i = 0; i < events.moveCount; ++i) {
			int k = events.moveEvents[i].bodyId.index1;
			if (k >= 0 && k < startCapacity) {
				start[4 * k] = 1.0;
				start[4 * k + 1] = (double)events.moveEvents[i].transform.p.x;
				start[4 * k + 2] = (double)events.moveEvents[i].transform.p.y;
				start[4 * k + 3] = (double)events.moveEvents[i].transform.p.z;
			}
		}
	}
	double maxJointGap = 0.0, lastJointGap = 0.0, deepestOverlap = 0.0;
	// Box3D's own stage timers (b3World_GetProfile) summed over the timed steps, printed as the
	// mean per step beside Tumble's stage_ms: the same split of one step, from each engine.
	double stage[11] = {0};
	// BOX3D_SUITE_PROFILE=K prints every K-th step's time and awake bodies to stderr (as
	// TB_SUITE_PROFILE does for tumble-suite), to follow a scene's cost through its run.
	const char* profileEnv = getenv("BOX3D_SUITE_PROFILE");
	long profileEvery = profileEnv != NULL ? strtol(profileEnv, NULL, 10) : 0;
	t0 = peerNow();
	for (long s = 1; s < steps; ++s) {
		if (s == callgrindFrom) {
			CALLGRIND_START_INSTRUMENTATION;
		}
		if (scene->step != NULL) {
			scene->step(worldId, (int)s);
		}
		double stepStart = profileEvery > 0 ? peerNow() : 0.0;
		b3World_Step(worldId, dt, 4);
		if (profileEvery > 0 && s % profileEvery == 0) {
			b3Counters counts = b3World_GetCounters(worldId);
			fprintf(stderr, "step %ld: %.2f ms awake %d contacts %d\n", s,
			        1e3 * (peerNow() - stepStart), b3World_GetAwakeBodyCount(worldId),
			        counts.awakeContactCount);
		}
		b3Profile p = b3World_GetProfile(worldId);
		const float parts[11] = {p.pairs,
		                         p.collide,
		                         p.solverSetup,
		                         p.prepareConstraints,
		                         p.integrateVelocities,
		                         p.warmStart,
		                         p.solveImpulses,
		                         p.relaxImpulses,
		                         p.storeImpulses,
		                         p.transforms + p.refit,
		                         p.sleepIslands + p.splitIslands};
		for (int k = 0; k < 11; ++k) {
			stage[k] += (double)parts[k];
		}
		if (overlaps) {
			double d = peerDeepestOverlap(worldId);
			deepestOverlap = d > deepestOverlap ? d : deepestOverlap;
		}
		if (jointGaps) {
			lastJointGap = peerJointGap(worldId);
			maxJointGap = lastJointGap > maxJointGap ? lastJointGap : maxJointGap;
		}
	}
	CALLGRIND_STOP_INSTRUMENTATION;
	double loopMs = 1e3 * (peerNow() - t0);
	double msPerStep = steps > 1 ? loopMs / (double)(steps - 1) : firstMs;

	double drift = 0.0;
	if (start != NULL) {
		b3BodyEvents events = b3World_GetBodyEvents(worldId);
		for (int i = 0; i < events.moveCount; ++i) {
			int k = events.moveEvents[i].bodyId.index1;
			if (k >= 0 && k < startCapacity && start[4 * k] == 1.0) {
				double dx = (double)events.moveEvents[i].transform.p.x - start[4 * k + 1];
				double dy = (double)events.moveEvents[i].transform.p.y - start[4 * k + 2];
				double dz = (double)events.moveEvents[i].transform.p.z - start[4 * k + 3];
				double d = sqrt(dx * dx + dy * dy + dz * dz);
				drift = d > drift ? d : drift;
			}
		}
		free(start);
	}
	b3Counters c = b3World_GetCounters(worldId);
	// The constraint graph's colours hold the awake touching contacts (and the joints).
	int touching = -c.jointCount;
	for (int i = 0; i < (int)(sizeof(c.colorCounts) / sizeof(c.colorCounts[0])); ++i) {
		touching += c.colorCounts[i];
	}
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	printf("{\"engine\": \"box3d\", \"scene\": \"%s\", \"steps\": %ld, \"scale\": 1, "
	       "\"ms_per_step\": %.4f, \"first_step_ms\": %.3f, \"create_ms\": %.1f, "
	       "\"peak_rss_kb\": %ld, \"bodies\": %d, \"shapes\": %d, \"contacts\": %d, "
	       "\"touching\": %d, \"joints\": %d, \"sat_calls\": %d, \"sat_cache_hits\": %d, "
	       "\"max_drift_from_step_1_m\": %.6g",
	       scene->name, steps, msPerStep, firstMs, createMs, usage.ru_maxrss, c.bodyCount,
	       c.shapeCount, c.contactCount, touching, c.jointCount, c.satCallCount, c.satCacheHitCount,
	       drift);
	if (overlaps) {
		printf(", \"deepest_overlap_m\": %.6g", deepestOverlap);
	}
	if (jointGaps) {
		printf(", \"max_joint_gap_m\": %.6g, \"max_joint_gap_run_m\": %.6g", lastJointGap,
		       maxJointGap);
	}
	static const char* const stageNames[11] = {"pairs",     "collide",    "setup", "prepare",
	                                           "integrate", "warm_start", "solve", "relax",
	                                           "store",     "transforms", "sleep"};
	printf(", \"stage_ms\": {");
	for (int k = 0; k < 11; ++k) {
		printf("%s\"%s\": %.4f", k > 0 ? ", " : "", stageNames[k],
		       steps > 1 ? stage[k] / (double)(steps - 1) : 0.0);
	}
	printf("}}\n");

	if (scene->destroy != NULL) {
		scene->destroy();
	}
	b3DestroyWorld(worldId);
	return 0;
}
