// tumble-suite: one scene of the benchmark suite, single-threaded, timed, checked, reported as
// one line of JSON. Usage: tumble-suite SCENE [--steps N] [--scale S] [--workers W]
// [--callgrind-from K]
// and tumble-suite --list. bench/suite.sh runs every scene against the Box3D peer.
#define _POSIX_C_SOURCE 200809L

#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TB_SUITE_CALLGRIND 1
#endif
#endif
#ifndef TB_SUITE_CALLGRIND
#define CALLGRIND_START_INSTRUMENTATION ((void)0)
#define CALLGRIND_STOP_INSTRUMENTATION ((void)0)
#endif

// ---------------------------------------------------------------------------------------------
// The driver

static double tbSuiteNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void tbSuiteUsage(FILE* f)
{
	fprintf(f,
	        "usage: tumble-suite SCENE [--steps N] [--scale S] [--workers W] [--callgrind-from K]\n"
	        "                    [--overlaps]\n"
	        "       tumble-suite --list\n"
	        "  --steps N           steps to run (default: the scene's reference count)\n"
	        "  --scale S           scale the scene's counts by S in (0, 1] (default 1)\n"
	        "  --workers W         worker threads of the step, 1 to 64 (default 1)\n"
	        "  --callgrind-from K  under callgrind --instr-atstart=no: instrument steps K..N-1\n"
	        "  --overlaps          after every step, the deepest point of the touching pairs\n"
	        "                      (deepest_overlap_m over the run) and the touching pairs of\n"
	        "                      the last step that took no normal impulse (idle_touching);\n"
	        "                      never with a timed run\n");
}

// The deepest point of the world's touching pairs now, m (0 where none overlaps): the most
// negative separation of their manifolds, as the step's narrow phase made them. The same figure
// as box3d-suite's --overlaps. `idle` gets how many of the pairs took no normal impulse in the
// step (points the margins made that the solve never needed). `data` grows to the count.
static double tbSuiteDeepestOverlap(tbWorldId worldId, tbContactData** data, int* capacity,
                                    int* idle)
{
	int count = tbWorld_GetContactCount(worldId);
	if (count > *capacity) {
		tbContactData* grown = realloc(*data, sizeof(tbContactData) * (size_t)count);
		if (grown == NULL) {
			return 0.0;
		}
		*data = grown;
		*capacity = count;
	}
	int n = tbWorld_GetContactData(worldId, *data, *capacity);
	double deepest = 0.0;
	int still = 0;
	for (int c = 0; c < n; ++c) {
		const tbManifold* m = &(*data)[c].manifold;
		float impulse = 0.0f;
		for (int i = 0; i < m->pointCount; ++i) {
			deepest = fmax(deepest, -(double)m->points[i].separation);
			impulse += (*data)[c].normalImpulses[i];
		}
		still += impulse > 0.0f ? 0 : 1;
	}
	*idle = still;
	return deepest;
}

// Parse a positive integer option value; false on anything else.
static bool tbSuiteParseInt(const char* text, long maxValue, long* out)
{
	char* end = NULL;
	long v = strtol(text, &end, 10);
	if (end == text || *end != '\0' || v < 0 || v > maxValue) {
		return false;
	}
	*out = v;
	return true;
}

static void tbSuitePrintProfile(tbWorldId worldId, long step)
{
	tbProfile p = tbWorld_GetProfile(worldId);
	tbWorldCounters c = tbWorld_GetCounters(worldId);
	fprintf(stderr,
	        "step %ld: %.2f ms (pairs %.2f collide %.2f solve %.2f integrate %.2f sleep %.2f) "
	        "awake %d active %d solved %d narrow %d cached %d new %d contacts %d touching %d "
	        "overflow %d fast %d impact %d refreshed %d kept %d carried %d\n",
	        step, (double)p.step, (double)p.pairs, (double)p.collide, (double)p.solve,
	        (double)p.integrate, (double)p.sleep, p.awakeBodies, p.activeContacts, p.solvedContacts,
	        p.narrowPhaseRuns, p.cachedManifolds, p.newPairs, c.contactCount, c.touchingCount,
	        p.overflowConstraints, p.fastBodies, p.impactBodies, p.refreshedContacts,
	        p.keptContacts, p.carriedContacts);
}

int main(int argc, char** argv)
{
	const char* sceneName = NULL;
	long steps = -1, callgrindFrom = -1, workers = 1;
	float scale = 1.0f;
	bool overlaps = false;
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		if (strcmp(a, "--list") == 0) {
			for (int k = 0; k < tb_suiteSceneCount; ++k) {
				printf("%-14s %5d  %s\n", tb_suiteScenes[k]->name, tb_suiteScenes[k]->defaultSteps,
				       tb_suiteScenes[k]->summary);
			}
			return 0;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			tbSuiteUsage(stdout);
			return 0;
		} else if (strcmp(a, "--overlaps") == 0) {
			overlaps = true;
		} else if (strcmp(a, "--steps") == 0 && i + 1 < argc) {
			if (!tbSuiteParseInt(argv[++i], 10000000, &steps) || steps < 1) {
				fprintf(stderr, "tumble-suite: --steps wants an integer in [1, 1e7], got '%s'\n",
				        argv[i]);
				return 2;
			}
		} else if (strcmp(a, "--workers") == 0 && i + 1 < argc) {
			if (!tbSuiteParseInt(argv[++i], 64, &workers) || workers < 1) {
				fprintf(stderr, "tumble-suite: --workers wants an integer in [1, 64], got '%s'\n",
				        argv[i]);
				return 2;
			}
		} else if (strcmp(a, "--callgrind-from") == 0 && i + 1 < argc) {
			if (!tbSuiteParseInt(argv[++i], 10000000, &callgrindFrom)) {
				fprintf(stderr, "tumble-suite: --callgrind-from wants an integer >= 0, got '%s'\n",
				        argv[i]);
				return 2;
			}
		} else if (strcmp(a, "--scale") == 0 && i + 1 < argc) {
			char* end = NULL;
			scale = strtof(argv[++i], &end);
			if (end == argv[i] || *end != '\0' || !(scale > 0.0f && scale <= 1.0f)) {
				fprintf(stderr, "tumble-suite: --scale wants a number in (0, 1], got '%s'\n",
				        argv[i]);
				return 2;
			}
		} else if (a[0] != '-' && sceneName == NULL) {
			sceneName = a;
		} else {
			fprintf(stderr, "tumble-suite: unknown or incomplete argument '%s'\n", a);
			tbSuiteUsage(stderr);
			return 2;
		}
	}
	if (sceneName == NULL) {
		tbSuiteUsage(stderr);
		return 2;
	}
	const tbSuiteScene* scene = NULL;
	for (int k = 0; k < tb_suiteSceneCount; ++k) {
		if (strcmp(tb_suiteScenes[k]->name, sceneName) == 0) {
			scene = tb_suiteScenes[k];
		}
	}
	if (scene == NULL) {
		fprintf(stderr, "tumble-suite: no scene '%s' (--list names them)\n", sceneName);
		return 2;
	}
	if (steps < 0) {
		steps = scene->defaultSteps;
	}

	tbWorldDef def = tbDefaultWorldDef();
	if (scene->configure != NULL) {
		scene->configure(&def, scale);
	}
	def.workerCount = (int)workers;
	// TB_SUITE_DEF="name=value,..." overrides world settings for experiments: hertz, damping,
	// push, iterations, relax, speculative, margin, refresh (0: tbWorldDef.enableContactRefresh
	// off, which also drops the impacts' swing from the speculative margins).
	const char* defEnv = getenv("TB_SUITE_DEF");
	if (defEnv != NULL) {
		char buffer[256];
		snprintf(buffer, sizeof buffer, "%s", defEnv);
		for (char* item = strtok(buffer, ","); item != NULL; item = strtok(NULL, ",")) {
			char* eq = strchr(item, '=');
			if (eq == NULL) {
				continue;
			}
			*eq = '\0';
			float value = strtof(eq + 1, NULL);
			if (strcmp(item, "hertz") == 0) {
				def.contactHertz = value;
			} else if (strcmp(item, "damping") == 0) {
				def.contactDampingRatio = value;
			} else if (strcmp(item, "push") == 0) {
				def.contactPushMaxSpeed = value;
			} else if (strcmp(item, "iterations") == 0) {
				def.iterations = (int)value;
			} else if (strcmp(item, "relax") == 0) {
				def.relaxIterations = (int)value;
			} else if (strcmp(item, "speculative") == 0) {
				def.speculativeDistance = value;
			} else if (strcmp(item, "margin") == 0) {
				def.aabbMargin = value;
			} else if (strcmp(item, "refresh") == 0) {
				def.enableContactRefresh = value != 0.0f;
			} else {
				fprintf(stderr, "tumble-suite: TB_SUITE_DEF: unknown setting '%s'\n", item);
				return 2;
			}
		}
	}
	tbWorldId worldId = tbCreateWorld(&def);
	if (TB_IS_NULL(worldId)) {
		fprintf(stderr, "tumble-suite: cannot create the world: %s\n", tbGetLastError());
		return 1;
	}
	// TB_SUITE_PROFILE=K prints the stage times and counts of every K-th step to stderr.
	const char* profileEnv = getenv("TB_SUITE_PROFILE");
	long profileEvery = 0;
	if (profileEnv != NULL && !tbSuiteParseInt(profileEnv, 10000000, &profileEvery)) {
		profileEvery = 0;
	}
	double t0 = tbSuiteNow();
	void* state = scene->create(worldId, scale);
	if (state == NULL) {
		fprintf(stderr, "tumble-suite: %s: the scene could not be built: %s\n", scene->name,
		        tbGetLastError());
		tbDestroyWorld(worldId);
		return 1;
	}
	double createMs = 1e3 * (tbSuiteNow() - t0);

	// The first step is timed on its own (it finds every pair of the new scene), as the reference
	// app leaves it out of its figure; the rest is the steady cost per step.
	t0 = tbSuiteNow();
	if (scene->step != NULL) {
		scene->step(state, worldId, 0);
	}
	if (callgrindFrom == 0) {
		CALLGRIND_START_INSTRUMENTATION;
	}
	tbWorld_Step(worldId, TB_SUITE_DT, TB_SUITE_SUBSTEPS);
	double firstMs = 1e3 * (tbSuiteNow() - t0);
	// The stages' ms summed over the timed steps (tbProfile), as in the step's order.
	enum
	{
		tb_suiteStages = 9
	};
	static const char* stageNames[tb_suiteStages] = {
	    "pairs", "collide", "gather", "prepare", "substeps", "store", "finish", "shapes", "sleep"};
	double stageMs[tb_suiteStages] = {0.0};
	double deepest = 0.0;
	tbContactData* overlapData = NULL;
	int overlapCapacity = 0, idleTouching = 0;
	t0 = tbSuiteNow();
	for (long s = 1; s < steps; ++s) {
		if (s == callgrindFrom) {
			CALLGRIND_START_INSTRUMENTATION;
		}
		if (scene->step != NULL) {
			scene->step(state, worldId, (int)s);
		}
		tbWorld_Step(worldId, TB_SUITE_DT, TB_SUITE_SUBSTEPS);
		tbProfile p = tbWorld_GetProfile(worldId);
		float stage[tb_suiteStages] = {p.pairs, p.collide, p.gather, p.prepare, p.substeps,
		                               p.store, p.finish,  p.shapes, p.sleep};
		for (int k = 0; k < tb_suiteStages; ++k) {
			stageMs[k] += (double)stage[k];
		}
		if (profileEvery > 0 && s % profileEvery == 0) {
			tbSuitePrintProfile(worldId, s);
		}
		if (overlaps) {
			deepest = fmax(deepest, tbSuiteDeepestOverlap(worldId, &overlapData, &overlapCapacity,
			                                              &idleTouching));
		}
	}
	CALLGRIND_STOP_INSTRUMENTATION;
	double loopMs = 1e3 * (tbSuiteNow() - t0);
	double msPerStep = steps > 1 ? loopMs / (double)(steps - 1) : firstMs;

	tbWorldCounters counters = tbWorld_GetCounters(worldId);
	// The state after the run: two builds whose hashes agree stepped the scene to the same bits
	// (an optimization that claims to change no result shows it here).
	uint64_t stateHash = tbWorld_GetStateHash(worldId);
	tbSuiteChecks checks;
	memset(&checks, 0, sizeof checks);
	tbSuiteAddFigure(&checks, "nan_guard_stops", (double)counters.stoppedBodyCount, 0.0);
	scene->check(state, worldId, &checks);
	bool pass = true;
	for (int i = 0; i < checks.figureCount; ++i) {
		// NaN never passes.
		pass = pass && checks.figures[i].value <= checks.figures[i].bound;
	}
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);

	printf("{\"engine\": \"tumble\", \"scene\": \"%s\", \"steps\": %ld, \"scale\": %g, "
	       "\"workers\": %ld, "
	       "\"ms_per_step\": %.4f, \"first_step_ms\": %.3f, \"create_ms\": %.1f, "
	       "\"peak_rss_kb\": %ld, \"bodies\": %d, \"shapes\": %d, \"contacts\": %d, "
	       "\"touching\": %d, \"awake\": %d, \"joints\": %d, \"state_hash\": \"%016llx\", ",
	       scene->name, steps, (double)scale, workers, msPerStep, firstMs, createMs,
	       usage.ru_maxrss, counters.bodyCount, counters.shapeCount, counters.contactCount,
	       counters.touchingCount, counters.awakeBodyCount, counters.jointCount,
	       (unsigned long long)stateHash);
	if (overlaps) {
		printf("\"deepest_overlap_m\": %.6g, \"idle_touching\": %d, ", deepest, idleTouching);
	}
	free(overlapData);
	printf("\"stage_ms\": {");
	for (int k = 0; k < tb_suiteStages; ++k) {
		printf("%s\"%s\": %.4f", k > 0 ? ", " : "", stageNames[k],
		       steps > 1 ? stageMs[k] / (double)(steps - 1) : 0.0);
	}
	printf("}, \"checks\": {");
	for (int i = 0; i < checks.figureCount; ++i) {
		const tbSuiteFigure* f = checks.figures + i;
		// JSON has no NaN: a non-finite figure is written as null (and has failed).
		if (isfinite(f->value)) {
			printf("%s\"%s\": %.6g", i > 0 ? ", " : "", f->name, f->value);
		} else {
			printf("%s\"%s\": null", i > 0 ? ", " : "", f->name);
		}
	}
	printf("}, \"bounds\": {");
	for (int i = 0; i < checks.figureCount; ++i) {
		printf("%s\"%s\": %.6g", i > 0 ? ", " : "", checks.figures[i].name,
		       checks.figures[i].bound);
	}
	printf("}, \"pass\": %s}\n", pass ? "true" : "false");

	scene->destroy(state);
	tbDestroyWorld(worldId);
	return 0;
}
