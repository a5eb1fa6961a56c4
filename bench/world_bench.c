// The world benchmark: the same box scenes in Tumble, ODE and Bullet (each peer optional), timed
// per step, with the same quality figures for every engine, then a scaling table.
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "world_peer.h"

#include <tumble/tumble.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> // getpid

// Instruction counts: with callgrind.h the measured window switches instrumentation on, so that
// valgrind runs the warm-up steps at near native speed (bench/instructions.sh).
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TB_HAVE_CALLGRIND 1
#endif
#endif

// Every engine: 60 Hz, sleeping off, friction 0.5 for every pair, restitution 0.
#define TB_BENCH_DT (1.0 / 60.0)
#define TB_BENCH_FRICTION 0.5
// Resting: below this speed (m/s) and spin (rad/s) at the end.
#define TB_REST_SPEED 0.05
#define TB_REST_SPIN 0.1
#define TB_MAX_ENGINES 3

// ---------------------------------------------------------------------------------------------
// Tumble behind the peer interface, so that every engine is driven by the same loop. The world
// is built from the same box list as the peers, with the scene reader's defaults: 4 substeps.

typedef struct tbTumbleWorld
{
	tbWorldId world;
	tbBodyId* bodies;
	int count;
	tbContactData* contacts;
	int contactCapacity;
} tbTumbleWorld;

static void* tbTumbleCreate(const tbPeerScene* scene)
{
	tbTumbleWorld* w = calloc(1, sizeof *w);
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity =
	    (vec3s){{(float)scene->gravity[0], (float)scene->gravity[1], (float)scene->gravity[2]}};
	def.enableSleep = false;
	def.initialBodyCapacity = scene->boxCount;
	def.initialShapeCapacity = scene->boxCount;
	w->world = tbCreateWorld(&def);
	w->count = scene->boxCount;
	w->bodies = calloc((size_t)scene->boxCount, sizeof *w->bodies);
	for (int i = 0; i < scene->boxCount; ++i) {
		const tbPeerBox* b = scene->boxes + i;
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = b->dynamic ? tb_dynamicBody : tb_staticBody;
		bd.position =
		    (vec3s){{(float)b->position[0], (float)b->position[1], (float)b->position[2]}};
		bd.rotation = (versors){{(float)b->quaternion[1], (float)b->quaternion[2],
		                         (float)b->quaternion[3], (float)b->quaternion[0]}};
		w->bodies[i] = tbCreateBody(w->world, &bd);
		tbShapeDef sd = tbDefaultShapeDef();
		// Tumble mixes sqrt(muA muB): mu on both sides gives mu.
		sd.friction = (float)scene->friction;
		sd.density = (float)b->density;
		tbGeometry box = tbMakeBox((float)b->half[0], (float)b->half[1], (float)b->half[2]);
		tbCreateShape(w->bodies[i], &sd, &box);
	}
	return w;
}

static void tbTumbleStep(void* world, double dt)
{
	tbWorld_Step(((tbTumbleWorld*)world)->world, (float)dt, TB_SCENE_DEFAULT_SUBSTEPS);
}

static double tbTumbleMaxPenetration(void* world)
{
	tbTumbleWorld* w = world;
	tbWorldCounters c = tbWorld_GetCounters(w->world);
	if (c.touchingCount > w->contactCapacity) {
		w->contactCapacity = c.touchingCount + c.touchingCount / 2 + 16;
		free(w->contacts);
		w->contacts = malloc(sizeof *w->contacts * (size_t)w->contactCapacity);
	}
	int n = tbWorld_GetContactData(w->world, w->contacts, w->contactCapacity);
	double deepest = 0.0;
	for (int i = 0; i < n; ++i) {
		const tbManifold* m = &w->contacts[i].manifold;
		for (int k = 0; k < m->pointCount; ++k) {
			double overlap = -(double)m->points[k].separation;
			deepest = overlap > deepest ? overlap : deepest;
		}
	}
	return deepest;
}

static void tbTumbleGetState(void* world, int index, tbPeerState* s)
{
	tbTumbleWorld* w = world;
	tbBodyId id = w->bodies[index];
	vec3s p = tbBody_GetPosition(id), v = tbBody_GetLinearVelocity(id),
	      a = tbBody_GetAngularVelocity(id);
	versors q = tbBody_GetRotation(id);
	for (int k = 0; k < 3; ++k) {
		s->position[k] = (double)p.raw[k];
		s->velocity[k] = (double)v.raw[k];
		s->angularVelocity[k] = (double)a.raw[k];
	}
	s->quaternion[0] = (double)q.w;
	s->quaternion[1] = (double)q.x;
	s->quaternion[2] = (double)q.y;
	s->quaternion[3] = (double)q.z;
}

static void tbTumbleDestroy(void* world)
{
	tbTumbleWorld* w = world;
	tbDestroyWorld(w->world);
	free(w->bodies);
	free(w->contacts);
	free(w);
}

static const tbPeerEngine tb_tumbleEngine = {"tumble",         tbTumbleCreate,
                                             tbTumbleStep,     tbTumbleMaxPenetration,
                                             tbTumbleGetState, tbTumbleDestroy};

// ---------------------------------------------------------------------------------------------
// Scenes: written in the scene format and expanded by the scene reader, so that every engine
// gets the very same boxes (the rain generator's seeded positions and rotations included).

typedef struct tbBenchScene
{
	char name[32];
	tbPeerBox* boxes;
	int boxCount;
	int dynamicCount;
} tbBenchScene;

static bool tbMakeBenchScene(const char* name, const char* json, tbBenchScene* out)
{
	tbSceneDef def;
	tbSceneError error;
	memset(out, 0, sizeof *out);
	if (!tbParseScene(json, strlen(json), name, &def, &error)) {
		fprintf(stderr, "world_bench: %s\n", error.message);
		return false;
	}
	snprintf(out->name, sizeof out->name, "%s", name);
	out->boxes = calloc((size_t)def.bodyCount, sizeof *out->boxes);
	out->boxCount = def.bodyCount;
	for (int i = 0; i < def.bodyCount; ++i) {
		const tbSceneBody* b = def.bodies + i;
		tbPeerBox* box = out->boxes + i;
		box->dynamic = b->type == tb_dynamicBody;
		out->dynamicCount += box->dynamic;
		for (int k = 0; k < 3; ++k) {
			box->half[k] = (double)b->shape.halfExtents.raw[k];
			box->position[k] = (double)b->position.raw[k];
		}
		box->quaternion[0] = (double)b->rotation.w;
		box->quaternion[1] = (double)b->rotation.x;
		box->quaternion[2] = (double)b->rotation.y;
		box->quaternion[3] = (double)b->rotation.z;
		box->density = (double)b->density;
	}
	tbFreeSceneDef(&def);
	return true;
}

// Rain of `count` unit cubes over a region whose size grows with the count (about 20 % of the
// region filled with bounding spheres), dropped from up to `top` metres.
static bool tbMakeRain(const char* name, int count, double side, double top, tbBenchScene* out)
{
	char json[1024];
	double ground = side / 2.0 + 10.0;
	snprintf(json, sizeof json,
	         "{\"sleep\": false, \"defaults\": {\"friction\": %g},\n"
	         " \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, "
	         "0],\n   \"shape\": {\"type\": \"box\", \"half_extents\": [%g, 0.5, %g]}}],\n"
	         " \"generators\": [{\"type\": \"rain\", \"count\": %d, \"seed\": 1,\n"
	         "   \"shape\": {\"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5]},\n"
	         "   \"region_min\": [%g, 2, %g], \"region_max\": [%g, %g, %g]}]}",
	         TB_BENCH_FRICTION, ground, ground, count, -side / 2.0, -side / 2.0, side / 2.0, top,
	         side / 2.0);
	return tbMakeBenchScene(name, json, out);
}

static bool tbMakePyramid(int base, tbBenchScene* out)
{
	char json[512];
	snprintf(json, sizeof json,
	         "{\"sleep\": false, \"defaults\": {\"friction\": %g},\n"
	         " \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, "
	         "0],\n   \"shape\": {\"type\": \"box\", \"half_extents\": [40, 0.5, 40]}}],\n"
	         " \"generators\": [{\"type\": \"pyramid\", \"base\": %d, \"half_extent\": 0.5}]}",
	         TB_BENCH_FRICTION, base);
	char name[32];
	snprintf(name, sizeof name, "pyramid%d", base);
	return tbMakeBenchScene(name, json, out);
}

// ---------------------------------------------------------------------------------------------
// Running and measuring

typedef struct tbBenchResult
{
	double median, p95; // ms per step
	int resting;
	int fellThrough; // centre below the ground's top face, over the ground, at the end
	int offGround;   // centre beyond the ground's edge at the end (slid or bounced away)
	double maxPenetration;
	double maxDisplacement;
	bool nan;
	bool ran;
} tbBenchResult;

static double tbNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int tbCompareDoubles(const void* left, const void* right)
{
	double a = *(const double*)left, b = *(const double*)right;
	return (a > b) - (a < b);
}

static tbBenchResult tbRunEngine(const tbPeerEngine* engine, const tbBenchScene* scene, int steps)
{
	tbBenchResult r;
	memset(&r, 0, sizeof r);
	tbPeerScene peerScene = {scene->boxes, scene->boxCount, {0.0, -9.81, 0.0}, TB_BENCH_FRICTION};
	void* world = engine->create(&peerScene);
	double* times = malloc(sizeof *times * (size_t)steps);
	for (int s = 0; s < steps; ++s) {
		double t0 = tbNow();
		engine->step(world, TB_BENCH_DT);
		times[s] = 1000.0 * (tbNow() - t0);
		// Outside the timed step for Tumble and Bullet (a copy or a walk of the manifolds); ODE
		// records the depth in its collision callback, which is part of its step anyway.
		double pen = engine->maxPenetration(world);
		r.maxPenetration = pen > r.maxPenetration ? pen : r.maxPenetration;
		if (steps >= 60 && s % (steps / 20) == 0) {
			fputc('.', stderr);
		}
	}
	qsort(times, (size_t)steps, sizeof *times, tbCompareDoubles);
	r.median = times[steps / 2];
	r.p95 = times[(int)ceil(0.95 * steps) - 1];
	free(times);
	for (int i = 0; i < scene->boxCount; ++i) {
		if (!scene->boxes[i].dynamic) {
			continue;
		}
		tbPeerState s;
		engine->getState(world, i, &s);
		double speed = 0.0, spin = 0.0, moved = 0.0;
		for (int k = 0; k < 3; ++k) {
			speed += s.velocity[k] * s.velocity[k];
			spin += s.angularVelocity[k] * s.angularVelocity[k];
			double d = s.position[k] - scene->boxes[i].position[k];
			moved += d * d;
			r.nan = r.nan || !isfinite(s.position[k]) || !isfinite(s.velocity[k]);
		}
		r.resting += sqrt(speed) < TB_REST_SPEED && sqrt(spin) < TB_REST_SPIN;
		// The ground is the scene's first box (static), its top face at y = 0.
		const tbPeerBox* ground = scene->boxes;
		bool over = fabs(s.position[0] - ground->position[0]) <= ground->half[0] &&
		            fabs(s.position[2] - ground->position[2]) <= ground->half[2];
		r.fellThrough += over && s.position[1] < ground->position[1] + ground->half[1];
		r.offGround += !over;
		moved = sqrt(moved);
		r.maxDisplacement = moved > r.maxDisplacement ? moved : r.maxDisplacement;
	}
	engine->destroy(world);
	r.ran = true;
	return r;
}

static void tbPrintRow(const char* scene, const char* engine, const tbBenchResult* r,
                       const tbBenchResult* tumble, int dynamicCount, bool showDisplacement)
{
	printf("%-10s %-7s %8.2f %8.2f %6d/%-6d %9.4f ", scene, engine, r->median, r->p95, r->resting,
	       dynamicCount, r->maxPenetration);
	if (showDisplacement) {
		printf("%9.4f ", r->maxDisplacement);
	} else {
		printf("%9s ", "-");
	}
	printf("%4d %4d %4s", r->fellThrough, r->offGround, r->nan ? "YES" : "no");
	if (r != tumble && tumble->ran && tumble->median > 0.0 && r->median > 0.0) {
		printf("   %5.2fx   %5.2fx", r->median / tumble->median, tumble->median / r->median);
	}
	putchar('\n');
	fflush(stdout);
}

static void tbHelp(void)
{
	printf("usage: world_bench [--quick] [--seconds T] [--no-scaling] [--engines LIST]\n"
	       "\n"
	       "Rain of 1000 and 4000 cubes and a pyramid of base 20 for 10 s at 60 Hz in Tumble,\n"
	       "ODE and Bullet (those built in), sleeping off, friction 0.5; then step time against\n"
	       "the cube count (100, 1000, 4000, 10000).\n"
	       "  --quick        2 s per scene, scaling to 4000 cubes over 1 s\n"
	       "  --seconds T    simulated seconds per scene (10)\n"
	       "  --no-scaling   skip the scaling table\n"
	       "  --engines L    comma-separated subset of tumble,ode,bullet\n"
	       "  --sleepers     100 awake cubes alone and beside 10,000 sleeping ones (ms/step)\n"
	       "  --no-instructions  skip the callgrind counts (run by default with 10 s scenes\n"
	       "                 when valgrind is installed: a few minutes)\n"
	       "  --callgrind SCENE FROM TO   Tumble alone, steps FROM..TO instrumented (for\n"
	       "                 bench/instructions.sh; SCENE: rain1000, rain4000, pyramid20,\n"
	       "                 sleepers, awake100)\n");
}

// ---------------------------------------------------------------------------------------------
// Sleeping bodies cost nothing: 100 awake cubes (never sleeping) on the ground, alone and beside
// `sleeping` cubes created asleep on the same ground, far enough not to touch them.

static tbWorldId tbMakeSleepersWorld(int sleeping)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = true;
	def.initialBodyCapacity = sleeping + 128;
	def.initialShapeCapacity = sleeping + 128;
	tbWorldId world = tbCreateWorld(&def);
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = (float)TB_BENCH_FRICTION;
	tbGeometry slab = tbMakeBox(200.0f, 0.5f, 200.0f);
	tbCreateShape(ground, &sd, &slab);
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	// The awake ones: a 10 x 10 grid of cubes 2 m apart, dropped from 1 m, kept awake.
	for (int i = 0; i < 100; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.enableSleep = false;
		bd.position =
		    (vec3s){{-150.0f + 2.0f * (float)(i % 10), 1.5f, -150.0f + 2.0f * (float)(i / 10)}};
		tbCreateShape(tbCreateBody(world, &bd), &sd, &cube);
	}
	// The sleepers: a grid of cubes 1.5 m apart, resting on the ground, asleep from the start.
	int side = (int)ceil(sqrt((double)sleeping));
	for (int i = 0; i < sleeping; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.isAwake = false;
		bd.position =
		    (vec3s){{-100.0f + 1.5f * (float)(i % side), 0.5f, -100.0f + 1.5f * (float)(i / side)}};
		tbCreateShape(tbCreateBody(world, &bd), &sd, &cube);
	}
	return world;
}

// ms per step (median over `steps` after 60 warm-up steps) of 100 awake cubes beside `sleeping`.
static double tbTimeSleepers(int sleeping, int steps)
{
	tbWorldId world = tbMakeSleepersWorld(sleeping);
	for (int s = 0; s < 60; ++s) {
		tbWorld_Step(world, (float)TB_BENCH_DT, TB_SCENE_DEFAULT_SUBSTEPS);
	}
	double* times = malloc(sizeof *times * (size_t)steps);
	for (int s = 0; s < steps; ++s) {
		double t0 = tbNow();
		tbWorld_Step(world, (float)TB_BENCH_DT, TB_SCENE_DEFAULT_SUBSTEPS);
		times[s] = 1000.0 * (tbNow() - t0);
	}
	tbWorldCounters c = tbWorld_GetCounters(world);
	qsort(times, (size_t)steps, sizeof *times, tbCompareDoubles);
	double median = times[steps / 2];
	free(times);
	printf("  %6d sleeping: %d bodies, %d awake, median %.4f ms/step\n", sleeping, c.bodyCount,
	       c.awakeBodyCount, median);
	tbDestroyWorld(world);
	return median;
}

// ---------------------------------------------------------------------------------------------
// Instruction counting: Tumble alone, steps [from, to) of one scene with callgrind's
// instrumentation on (bench/instructions.sh runs this under valgrind with
// --toggle-collect=tbWorld_Step, so that only the step function and what it calls is counted).

static int tbCallgrindRun(const char* name, int from, int to)
{
	tbBenchScene scene;
	bool ok;
	if (strcmp(name, "rain1000") == 0) {
		ok = tbMakeRain(name, 1000, 20.0, 60.0, &scene);
	} else if (strcmp(name, "rain4000") == 0) {
		ok = tbMakeRain(name, 4000, 40.0, 80.0, &scene);
	} else if (strcmp(name, "pyramid20") == 0) {
		ok = tbMakePyramid(20, &scene);
	} else if (strcmp(name, "sleepers") == 0 || strcmp(name, "awake100") == 0) {
		tbWorldId world = tbMakeSleepersWorld(name[0] == 's' ? 10000 : 0);
		for (int s = 0; s < to; ++s) {
#ifdef TB_HAVE_CALLGRIND
			if (s == from) {
				CALLGRIND_START_INSTRUMENTATION;
			}
#endif
			tbWorld_Step(world, (float)TB_BENCH_DT, TB_SCENE_DEFAULT_SUBSTEPS);
		}
#ifdef TB_HAVE_CALLGRIND
		CALLGRIND_STOP_INSTRUMENTATION;
#endif
		tbDestroyWorld(world);
		return 0;
	} else {
		fprintf(stderr,
		        "world_bench: unknown scene '%s' (rain1000, rain4000, pyramid20, "
		        "sleepers, awake100)\n",
		        name);
		return 2;
	}
	if (!ok) {
		return 1;
	}
	tbPeerScene peerScene = {scene.boxes, scene.boxCount, {0.0, -9.81, 0.0}, TB_BENCH_FRICTION};
	void* world = tb_tumbleEngine.create(&peerScene);
	for (int s = 0; s < to; ++s) {
#ifdef TB_HAVE_CALLGRIND
		if (s == from) {
			CALLGRIND_START_INSTRUMENTATION;
		}
#endif
		tb_tumbleEngine.step(world, TB_BENCH_DT);
	}
#ifdef TB_HAVE_CALLGRIND
	CALLGRIND_STOP_INSTRUMENTATION;
#endif
	tbTumbleWorld* tw = world;
	tbWorldCounters c = tbWorld_GetCounters(tw->world);
	printf("%s steps %d-%d: %d bodies, %d awake, %d touching contacts\n", name, from, to,
	       c.bodyCount, c.awakeBodyCount, c.touchingCount);
	tb_tumbleEngine.destroy(world);
	free(scene.boxes);
	return 0;
}

// Instructions per step under callgrind, where valgrind is installed: this same program re-run
// in --callgrind mode for each window (only tbWorld_Step and what it calls is collected; see
// bench/instructions.sh for the same by hand). Returns false when valgrind is missing.
static bool tbCountInstructions(const char* self)
{
	if (system("command -v valgrind >/dev/null 2>&1") != 0) {
		printf("\ninstructions per step: valgrind not found (apt-get install valgrind)\n");
		return false;
	}
	static const struct
	{
		const char* scene;
		int from, to;
		double goal; // million instructions per step
	} windows[] = {
	    {"pyramid20", 600, 720, 6.0}, {"rain1000", 120, 240, 26.0}, {"rain1000", 600, 720, 24.0}};
	printf("\ninstructions per step (callgrind, --toggle-collect=tbWorld_Step):\n");
	printf("%-10s %-10s %12s %8s\n", "scene", "steps", "M/step", "goal");
	for (int k = 0; k < 3; ++k) {
		char out[64], command[1024];
		snprintf(out, sizeof out, "/tmp/tumble_world_bench_%d.cg", (int)getpid());
		snprintf(command, sizeof command,
		         "valgrind --tool=callgrind --instr-atstart=no --toggle-collect=tbWorld_Step "
		         "--callgrind-out-file=%s '%s' --callgrind %s %d %d >/dev/null 2>&1",
		         out, self, windows[k].scene, windows[k].from, windows[k].to);
		fprintf(stderr, "callgrind %s %d-%d\n", windows[k].scene, windows[k].from, windows[k].to);
		if (system(command) != 0) {
			printf("%-10s %4d-%-5d %12s\n", windows[k].scene, windows[k].from, windows[k].to,
			       "failed");
			continue;
		}
		// The profile's "summary:" line holds the collected total.
		FILE* f = fopen(out, "r");
		long long total = -1;
		char line[512];
		while (f != NULL && fgets(line, sizeof line, f) != NULL) {
			if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0) {
				total = atoll(strchr(line, ':') + 1);
			}
		}
		if (f != NULL) {
			fclose(f);
		}
		remove(out);
		double perStep =
		    total >= 0 ? (double)total / (double)(windows[k].to - windows[k].from) : -1.0;
		printf("%-10s %4d-%-5d %12.2f %8.1f\n", windows[k].scene, windows[k].from, windows[k].to,
		       perStep / 1e6, windows[k].goal);
		fflush(stdout);
	}
	return true;
}

int main(int argc, char** argv)
{
	double seconds = 10.0, scalingSeconds = 3.0;
	bool scaling = true;
	bool instructions = true;
	int scalingMax = 10000;
	const char* only = NULL;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--quick") == 0) {
			seconds = 2.0;
			scalingSeconds = 1.0;
			scalingMax = 4000;
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			seconds = atof(argv[++i]);
		} else if (strcmp(argv[i], "--no-scaling") == 0) {
			scaling = false;
		} else if (strcmp(argv[i], "--no-instructions") == 0) {
			instructions = false;
		} else if (strcmp(argv[i], "--sleepers") == 0) {
			printf("sleeping bodies: 100 awake cubes alone and beside 10,000 sleeping ones\n");
			double alone = tbTimeSleepers(0, 600);
			double beside = tbTimeSleepers(10000, 600);
			printf("  ratio %.2fx (the goal: <= 1.2x)\n", beside / alone);
			return 0;
		} else if (strcmp(argv[i], "--callgrind") == 0 && i + 3 < argc) {
			return tbCallgrindRun(argv[i + 1], atoi(argv[i + 2]), atoi(argv[i + 3]));
		} else if (strcmp(argv[i], "--engines") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else {
			tbHelp();
			return strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0 ? 0 : 2;
		}
	}
	if (!(seconds > 0.0)) {
		fprintf(stderr, "world_bench: --seconds must be > 0\n");
		return 2;
	}
	const tbPeerEngine* all[TB_MAX_ENGINES];
	int allCount = 0;
	all[allCount++] = &tb_tumbleEngine;
#ifdef TB_HAVE_ODE
	all[allCount++] = &tb_odeEngine;
#endif
#ifdef TB_HAVE_BULLET
	all[allCount++] = &tb_bulletEngine;
#endif
	const tbPeerEngine* engines[TB_MAX_ENGINES];
	int engineCount = 0;
	for (int e = 0; e < allCount; ++e) {
		if (only == NULL || strstr(only, all[e]->name) != NULL) {
			engines[engineCount++] = all[e];
		}
	}
	if (engineCount == 0) {
		fprintf(stderr, "world_bench: no engine matches '%s' (built: tumble", only);
		for (int e = 1; e < allCount; ++e) {
			fprintf(stderr, ", %s", all[e]->name);
		}
		fprintf(stderr, ")\n");
		return 2;
	}

	int steps = (int)lround(seconds / TB_BENCH_DT);
	printf(
	    "world_bench: %g s at 60 Hz (%d steps), sleeping off, friction 0.5, one thread.\n"
	    "ms per step: median and p95 of the step call. Quality at the end: resting (speed "
	    "< %.2g m/s,\nspin < %.2g rad/s), deepest contact overlap over the run, largest "
	    "displacement (pyramid),\ncentres below the ground's top (thru) and beyond its edge (off), "
	    "NaN.\npeer/tumble: the peer's median over Tumble's; tumble/peer its inverse (issue goal:\n"
	    "<= 0.45 against Bullet on the rain of 1000, <= 0.4 on the pyramid). Instructions per\n"
	    "step: bench/instructions.sh (callgrind).\n\n",
	    seconds, steps, TB_REST_SPEED, TB_REST_SPIN);
	printf("%-10s %-7s %8s %8s %13s %9s %9s %4s %4s %4s   %s\n", "scene", "engine", "median", "p95",
	       "resting", "max pen", "max disp", "thru", "off", "nan", "peer/tumble  tumble/peer");

	tbBenchScene scenes[3];
	bool ok = tbMakeRain("rain1000", 1000, 20.0, 60.0, scenes + 0) &&
	          tbMakeRain("rain4000", 4000, 40.0, 80.0, scenes + 1) && tbMakePyramid(20, scenes + 2);
	if (!ok) {
		return 1;
	}
	for (int s = 0; s < 3; ++s) {
		tbBenchResult results[TB_MAX_ENGINES];
		memset(results, 0, sizeof results);
		for (int e = 0; e < engineCount; ++e) {
			fprintf(stderr, "%s %s ", scenes[s].name, engines[e]->name);
			results[e] = tbRunEngine(engines[e], scenes + s, steps);
			fputc('\n', stderr);
		}
		const tbBenchResult* tumble = engines[0] == &tb_tumbleEngine ? results : NULL;
		tbBenchResult none;
		memset(&none, 0, sizeof none);
		for (int e = 0; e < engineCount; ++e) {
			tbPrintRow(scenes[s].name, engines[e]->name, results + e,
			           tumble != NULL ? tumble : &none, scenes[s].dynamicCount, s == 2);
		}
		free(scenes[s].boxes);
	}

	if (scaling) {
		int scalingSteps = (int)lround(scalingSeconds / TB_BENCH_DT);
		printf("\nscaling: rain of N cubes dropped from up to 12 m, %g s (%d steps); median ms "
		       "per step\n",
		       scalingSeconds, scalingSteps);
		printf("%8s", "cubes");
		for (int e = 0; e < engineCount; ++e) {
			printf(" %10s", engines[e]->name);
		}
		printf("   ms per 1000 cubes (first engine)\n");
		const int counts[] = {100, 1000, 4000, 10000};
		for (int c = 0; c < 4 && counts[c] <= scalingMax; ++c) {
			tbBenchScene scene;
			char name[32];
			snprintf(name, sizeof name, "scale%d", counts[c]);
			// Side so that the bounding spheres fill about a fifth of a region 11 m high.
			double side = 1.11 * sqrt((double)counts[c]);
			if (!tbMakeRain(name, counts[c], side, 12.0, &scene)) {
				return 1;
			}
			printf("%8d", counts[c]);
			double first = 0.0;
			for (int e = 0; e < engineCount; ++e) {
				fprintf(stderr, "%s %s ", name, engines[e]->name);
				tbBenchResult r = tbRunEngine(engines[e], &scene, scalingSteps);
				fputc('\n', stderr);
				printf(" %10.2f", r.median);
				fflush(stdout);
				first = e == 0 ? r.median : first;
			}
			printf("   %.2f\n", first * 1000.0 / counts[c]);
			free(scene.boxes);
		}
	}
	if (instructions && seconds >= 10.0) {
		tbCountInstructions(argv[0]);
	}
	return 0;
}
