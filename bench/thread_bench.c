// Thread scaling of the step: ms per step at 1 and N workers, the speed-up, and per stage the
// serial fraction with Amdahl's prediction for more workers (docs/threads.md).
//
// build/bench/thread_bench [--workers 2,4,8] [--steps N] [--scenes pyramid,rain] [--repeat R]
//
// Each scene is built once per worker count and the worlds are stepped in turn, one step each:
// `warm` steps not timed, then `steps` timed, R rounds (--repeat) of it. The median of the step's
// and of each stage's milliseconds (tbWorld_GetProfile) over the timed steps is printed, and the
// speed-up at N workers as the median over the steps of T(1) / T(N) taken step by step: the two
// worlds are at the same step of the same scene, and a slow spell of a shared machine slows both.
// The serial fraction s of a stage is measured from 1 and the smallest N > 1 workers with
// Amdahl's law, T(N) = T(1) (s + (1 - s) / N), solved for s (clamped to [0, 1]); the step's
// prediction for n workers sums the stages' predictions: S(n) = T(1) / sum_i T_i(1) (s_i + (1 -
// s_i) / n). Results go to stdout (a table) and, with --out FILE, to a CSV file.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tumble/scene.h>
#include <tumble/tumble.h>

#define TB_STAGES 9
#define TB_MAX_COUNTS 8

// The step's stages as tbProfile splits them: the solve in four parts, the integration in two.
static const char* tb_stageNames[TB_STAGES] = {"pairs", "collide", "gather", "prepare", "substeps",
                                               "store", "finish",  "shapes", "sleep"};

typedef struct tbStepTimes
{
	double step;
	double stage[TB_STAGES];
} tbStepTimes;

static int tbCompare(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

static double tbMedian(double* v, int n)
{
	qsort(v, (size_t)n, sizeof *v, tbCompare);
	return v[n / 2];
}

// The scene's JSON: a pyramid of `base` unit cubes (base (base + 1) / 2 boxes) or a rain of
// `count` unit cubes over a square of `side` m, sleeping off, friction 0.6.
static void tbSceneJson(const char* name, int size, char* json, size_t capacity)
{
	if (strcmp(name, "pyramid") == 0) {
		snprintf(json, capacity,
		         "{\"sleep\": false, \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", "
		         "\"position\": [0, -0.5, 0], \"shape\": {\"type\": \"box\", \"half_extents\": "
		         "[200, 0.5, 200]}}], \"generators\": [{\"type\": \"pyramid\", \"base\": %d, "
		         "\"half_extent\": 0.5}]}",
		         size);
	} else {
		double side = 1.11 * sqrt((double)size);
		snprintf(json, capacity,
		         "{\"sleep\": false, \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", "
		         "\"position\": [0, -0.5, 0], \"shape\": {\"type\": \"box\", \"half_extents\": "
		         "[%g, 0.5, %g]}}], \"generators\": [{\"type\": \"rain\", \"count\": %d, "
		         "\"seed\": 1, \"shape\": {\"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5]}, "
		         "\"region_min\": [%g, 2, %g], \"region_max\": [%g, 14, %g]}]}",
		         side / 2.0 + 10.0, side / 2.0 + 10.0, size, -side / 2.0, -side / 2.0, side / 2.0,
		         side / 2.0);
	}
}

// One world per worker count, built from the same scene (and so stepped to the same states).
typedef struct tbBenchWorld
{
	tbScene scene;
	bool built;
} tbBenchWorld;

static bool tbBuild(const char* name, int size, int workers, tbBenchWorld* out)
{
	char json[2048];
	tbSceneJson(name, size, json, sizeof json);
	tbSceneDef def;
	tbSceneError error;
	out->built = false;
	if (!tbParseScene(json, strlen(json), name, &def, &error)) {
		fprintf(stderr, "thread_bench: %s\n", error.message);
		return false;
	}
	def.workerCount = workers;
	if (!tbBuildScene(&def, &out->scene, &error)) {
		fprintf(stderr, "thread_bench: %s\n", error.message);
		return false;
	}
	out->built = true;
	return true;
}

// The step's and the stages' ms of the world's last step, in tbStepTimes' order.
static void tbReadProfile(tbWorldId world, double* v)
{
	tbProfile p = tbWorld_GetProfile(world);
	double stage[TB_STAGES + 1] = {p.step,     p.pairs, p.collide, p.gather, p.prepare,
	                               p.substeps, p.store, p.finish,  p.shapes, p.sleep};
	memcpy(v, stage, sizeof stage);
}

// The scene at every worker count, `repeat` rounds of `warm` untimed and `steps` timed steps.
// The worlds are stepped in turn, one step each (the same step of the same scene at every
// count), so that a slow spell of a shared machine falls on all the counts alike: `out[k]` gets
// the median ms of the step and of each stage at counts[k] over all the timed steps, and
// `ratio[k]` the median over the steps of the ratio of one worker's ms to counts[k]'s, step by
// step (the speed-up, paired). `hashes[k]`: the state hash at the end of a round.
static bool tbRun(const char* name, int size, const int* counts, int countN, int warm, int steps,
                  int repeat, tbStepTimes* out, tbStepTimes* ratio, unsigned long long* hashes)
{
	int samples = steps * repeat;
	size_t per = (size_t)samples * (TB_STAGES + 1); // [stage][sample] per count
	double* v = malloc(sizeof(double) * per * (size_t)countN * 2u);
	double* r = v + per * (size_t)countN;
	tbBenchWorld worlds[TB_MAX_COUNTS];
	bool ok = v != NULL;
	for (int round = 0; ok && round < repeat; ++round) {
		for (int k = 0; k < countN; ++k) {
			worlds[k].built = false;
		}
		for (int k = 0; ok && k < countN; ++k) {
			ok = tbBuild(name, size, counts[k], worlds + k);
		}
		for (int s = 0; ok && s < warm + steps; ++s) {
			double now[TB_MAX_COUNTS][TB_STAGES + 1];
			for (int k = 0; k < countN; ++k) {
				tbWorld_Step(worlds[k].scene.worldId, 1.0f / 60.0f, 4);
				tbReadProfile(worlds[k].scene.worldId, now[k]);
			}
			if (s < warm) {
				continue;
			}
			size_t at = (size_t)round * (size_t)steps + (size_t)(s - warm);
			for (int k = 0; k < countN; ++k) {
				for (int i = 0; i <= TB_STAGES; ++i) {
					size_t slot = per * (size_t)k + (size_t)i * (size_t)samples + at;
					v[slot] = now[k][i];
					r[slot] = now[k][i] > 0.0 ? now[0][i] / now[k][i] : 1.0;
				}
			}
		}
		for (int k = 0; k < countN; ++k) {
			if (worlds[k].built) {
				hashes[k] = (unsigned long long)tbWorld_GetStateHash(worlds[k].scene.worldId);
				tbDestroyScene(&worlds[k].scene);
			}
		}
	}
	for (int k = 0; ok && k < countN; ++k) {
		double* vk = v + per * (size_t)k;
		double* rk = r + per * (size_t)k;
		out[k].step = tbMedian(vk, samples);
		ratio[k].step = tbMedian(rk, samples);
		for (int i = 0; i < TB_STAGES; ++i) {
			out[k].stage[i] = tbMedian(vk + (size_t)(i + 1) * (size_t)samples, samples);
			ratio[k].stage[i] = tbMedian(rk + (size_t)(i + 1) * (size_t)samples, samples);
		}
	}
	free(v);
	return ok;
}

// Amdahl's law: the speed-up on n workers of a part with serial fraction s.
static double tbAmdahl(double s, double n)
{
	return 1.0 / (s + (1.0 - s) / n);
}

int main(int argc, char** argv)
{
	int counts[TB_MAX_COUNTS] = {1, 2};
	int countN = 2;
	int steps = 120, repeat = 3;
	const char* scenes = "pyramid,rain";
	const char* outPath = NULL;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc) {
			countN = 1;
			char* text = argv[++i];
			for (char* tok = strtok(text, ","); tok != NULL && countN < TB_MAX_COUNTS;
			     tok = strtok(NULL, ",")) {
				int n = atoi(tok);
				if (n < 2 || n > 64) {
					fprintf(stderr, "thread_bench: --workers: each count in [2, 64], got %s\n",
					        tok);
					return 2;
				}
				counts[countN++] = n;
			}
		} else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
			steps = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
			repeat = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--scenes") == 0 && i + 1 < argc) {
			scenes = argv[++i];
		} else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
			outPath = argv[++i];
		} else {
			fprintf(stderr, "usage: thread_bench [--workers 2,4,8] [--steps N] [--repeat R] "
			                "[--scenes pyramid,rain] [--out FILE.csv]\n");
			return 2;
		}
	}
	if (steps < 10 || steps > 100000 || repeat < 1 || repeat > 100 || countN < 2) {
		fprintf(stderr, "thread_bench: --steps in [10, 100000], --repeat in [1, 100]\n");
		return 2;
	}
	FILE* csv = outPath != NULL ? fopen(outPath, "w") : NULL;
	if (outPath != NULL && csv == NULL) {
		fprintf(stderr, "thread_bench: cannot write %s\n", outPath);
		return 1;
	}
	if (csv != NULL) {
		fprintf(csv, "scene,bodies,workers,stage,ms,speedup\n");
	}
	struct
	{
		const char* name;
		int size, bodies, warm;
	} list[] = {
	    {"pyramid", 100, 5050, 30}, // Box3D's large pyramid: 5,050 boxes, settled
	    {"rain", 4000, 4000, 90},   // 4,000 cubes landing on each other
	};
	printf("thread_bench: median ms per step over %d rounds of %d steps, the worker counts 1 to %d "
	       "stepped in turn; speed-ups paired step by step\n",
	       repeat, steps, counts[countN - 1]);
	for (size_t c = 0; c < sizeof list / sizeof list[0]; ++c) {
		if (strstr(scenes, list[c].name) == NULL) {
			continue;
		}
		tbStepTimes best[TB_MAX_COUNTS], ratio[TB_MAX_COUNTS];
		unsigned long long hashes[TB_MAX_COUNTS];
		if (!tbRun(list[c].name, list[c].size, counts, countN, list[c].warm, steps, repeat, best,
		           ratio, hashes)) {
			return 1;
		}
		printf("\n%s (%d boxes)\n%-9s", list[c].name, list[c].bodies, "workers");
		for (int k = 0; k < countN; ++k) {
			printf(" %8d", counts[k]);
		}
		printf("\n%-9s", "ms/step");
		for (int k = 0; k < countN; ++k) {
			printf(" %8.3f", best[k].step);
		}
		printf("\n%-9s", "speed-up");
		for (int k = 0; k < countN; ++k) {
			printf(" %7.2fx", ratio[k].step);
			if (csv != NULL) {
				fprintf(csv, "%s,%d,%d,step,%.4f,%.3f\n", list[c].name, list[c].bodies, counts[k],
				        best[k].step, ratio[k].step);
			}
		}
		// Each stage's median ms at every count: where the time goes as workers are added.
		printf("\n%-9s", "stage ms");
		for (int k = 0; k < countN; ++k) {
			printf(" %8d", counts[k]);
		}
		for (int i = 0; i < TB_STAGES; ++i) {
			printf("\n%-9s", tb_stageNames[i]);
			for (int k = 0; k < countN; ++k) {
				printf(" %8.3f", best[k].stage[i]);
				if (csv != NULL && k > 0) {
					fprintf(csv, "%s,%d,%d,%s,%.4f,%.3f\n", list[c].name, list[c].bodies, counts[k],
					        tb_stageNames[i], best[k].stage[i], ratio[k].stage[i]);
				}
			}
		}
		bool same = true;
		for (int k = 1; k < countN; ++k) {
			same = same && hashes[k] == hashes[0];
		}
		printf("\nstate hash the same at every count: %s\n", same ? "yes" : "NO");
		// Amdahl per stage from 1 and the first N > 1: T(N) / T(1) is the inverse of the paired
		// speed-up, s = (1 / S - 1 / N) / (1 - 1 / N).
		double n1 = (double)counts[1];
		printf("%-9s %8s %8s %8s %8s %8s %8s %8s\n", "stage", "ms@1", "ms@N", "S(N)", "share",
		       "serial", "S(8)", "S(16)");
		double pred8 = 0.0, pred16 = 0.0, serialTime = 0.0, total = 0.0;
		for (int i = 0; i < TB_STAGES; ++i) {
			double t1 = best[0].stage[i], tn = best[1].stage[i], paired = ratio[1].stage[i];
			double s = paired > 0.0 ? (1.0 / paired - 1.0 / n1) / (1.0 - 1.0 / n1) : 1.0;
			s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
			pred8 += t1 * (s + (1.0 - s) / 8.0);
			pred16 += t1 * (s + (1.0 - s) / 16.0);
			serialTime += t1 * s;
			total += t1;
			printf("%-9s %8.3f %8.3f %7.2fx %7.1f%% %7.1f%% %7.2fx %7.2fx\n", tb_stageNames[i], t1,
			       tn, paired, 100.0 * t1 / best[0].step, 100.0 * s, tbAmdahl(s, 8.0),
			       tbAmdahl(s, 16.0));
		}
		// What the stages do not cover (events, the profile's own clock) counts as serial.
		double rest = best[0].step - total;
		rest = rest > 0.0 ? rest : 0.0;
		pred8 += rest;
		pred16 += rest;
		serialTime += rest;
		printf("serial fraction of the step (from %d workers): %.1f%%; Amdahl: S(8) = %.2fx, "
		       "S(16) = %.2fx\n",
		       counts[1], 100.0 * serialTime / best[0].step, best[0].step / pred8,
		       best[0].step / pred16);
	}
	if (csv != NULL) {
		fclose(csv);
	}
	return 0;
}
