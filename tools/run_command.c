// `tumble run` and `tumble scenes`: simulate a scene headless, print the summary of
// docs/scene-format.md, write the trajectory CSV; list the bundled scenes.
#define _POSIX_C_SOURCE 200809L // clock_gettime, isatty, fileno, opendir

#include "run_command.h"
#include "json_write.h"

#include <tumble/scene.h>
#include <tumble/tumble.h>

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// Exit statuses, as for `tumble query`: 1 bad input (a bad scene), 2 usage and unreadable files.
#define TB_EXIT_BAD_INPUT 1
#define TB_EXIT_USAGE 2

typedef struct tbRunOptions
{
	const char* scene;
	long long steps; // 0: from the scene
	double seconds;  // 0: from the scene
	bool json;
	const char* outPath;
	const char* energyPath;
	const char* tracePath; // --trace-solver: JSON lines of every contact after every pass
	long long traceBody;   // --trace-contact N: only the contacts of scene body N (-1: all)
	long long every;
	long long threads;
	long long saveAt;        // 0: no save
	const char* savePath;    // --save-at N FILE
	const char* restorePath; // --restore FILE
} tbRunOptions;

// What the summary reports about the run (docs/scene-format.md, "Output of tumble run").
typedef struct tbRunFigures
{
	double maxPenetration; // m, largest overlap of any contact point after any step
	int contactPoints;     // manifold points at the end
	int awake;             // dynamic bodies awake at the end
	bool nan;              // a non-finite state at a recorded frame or at the end
	double maxSpeed;
	double maxDisplacement;
	double kineticEnergy;
	double momentum[3];
	double angularMomentum[3];
	uint64_t stateHash;
} tbRunFigures;

void tbRunSceneHelp(FILE* out)
{
	fprintf(out,
	        "usage: tumble run SCENE [--steps N | --seconds T] [--json] [--out FILE.csv]\n"
	        "                        [--energy FILE.csv] [--every K] [--threads N]\n"
	        "                        [--save-at N FILE] [--restore FILE]\n"
	        "\n"
	        "Simulate a scene file (JSON, docs/scene-format.md) headless. SCENE is a file or\n"
	        "the name of a bundled scene (see tumble scenes), e.g. `tumble run pyramid`.\n"
	        "Prints a summary: step time (median, p95, max), contacts, awake bodies, NaN,\n"
	        "max penetration, max speed, max displacement, kinetic energy, momentum, angular\n"
	        "momentum and a hash of the final state. A bad scene is reported with its file,\n"
	        "line and key and makes the exit status 1.\n"
	        "\n"
	        "options:\n"
	        "  --steps N      simulate N steps (default: the scene's steps or seconds)\n"
	        "  --seconds T    simulate T seconds of scene time\n"
	        "  --json         print the summary as one JSON object (the last line of stdout)\n"
	        "  --out FILE     write trajectories as CSV, one row per body per recorded frame:\n"
	        "                 step,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
	        "  --energy FILE  write the world's energy and momentum as CSV, one row per\n"
	        "                 recorded frame (docs/scene-format.md, \"Energy\"):\n"
	        "                 step,time,kinetic,potential,total,px,py,pz,lx,ly,lz\n"
	        "  --trace-solver FILE  write the solver's passes as JSON lines: per step, substep,\n"
	        "                 pass and iteration, each contact's impulses and row errors\n"
	        "  --trace-contact N  trace only the contacts of the scene's body N (0-based)\n"
	        "  --every K      record a frame every K steps (default 1); step 0 and the last\n"
	        "                 step are always recorded\n"
	        "  --threads N    worker threads, 1 to 64 (the same results at any count)\n"
	        "  --save-at N FILE  after step N, write the world's save to FILE (docs/save.md)\n"
	        "  --restore FILE    before stepping, restore the world from FILE (a save of the\n"
	        "                 same scene); the steps continue from the saved step\n"
	        "  -h, --help     this text\n");
}

void tbListScenesHelp(FILE* out)
{
	fprintf(out, "usage: tumble scenes\n"
	             "\n"
	             "List the bundled scenes (name, bodies, simulated seconds, description) found in\n"
	             "the source tree's scenes/ and in the installed data directory. Run one with\n"
	             "`tumble run NAME`.\n");
}

static double tbNowSeconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// A whole positive number for --steps, --every, --threads; false when it is not one.
bool tbParseCount(const char* text, long long max, long long* out)
{
	char* end = NULL;
	long long v = text != NULL ? strtoll(text, &end, 10) : 0;
	if (text == NULL || end == text || *end != '\0' || v < 1 || v > max) {
		return false;
	}
	*out = v;
	return true;
}

// "--name value" or "--name=value"; *value is NULL when missing.
bool tbMatchOption(const char* arg, const char* name, int* i, int argc, char** argv,
                   const char** value)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0 || (arg[n] != '\0' && arg[n] != '=')) {
		return false;
	}
	*value = arg[n] == '=' ? arg + n + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
	return true;
}

static int tbParseRunOptions(int argc, char** argv, tbRunOptions* o)
{
	memset(o, 0, sizeof *o);
	o->every = 1;
	o->threads = 1;
	o->traceBody = -1;
	for (int i = 1; i < argc; ++i) {
		const char* arg = argv[i];
		const char* value = NULL;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			tbRunSceneHelp(stdout);
			return -1;
		} else if (strcmp(arg, "--json") == 0) {
			o->json = true;
		} else if (tbMatchOption(arg, "--steps", &i, argc, argv, &value)) {
			if (!tbParseCount(value, 1000000000LL, &o->steps)) {
				fprintf(stderr, "tumble run: --steps: expected a whole number >= 1, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (tbMatchOption(arg, "--seconds", &i, argc, argv, &value)) {
			char* end = NULL;
			o->seconds = value != NULL ? strtod(value, &end) : 0.0;
			if (value == NULL || end == value || *end != '\0' || !(o->seconds > 0.0) ||
			    !isfinite(o->seconds)) {
				fprintf(stderr, "tumble run: --seconds: expected a number > 0, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (tbMatchOption(arg, "--out", &i, argc, argv, &value)) {
			if (value == NULL || value[0] == '\0') {
				fprintf(stderr, "tumble run: --out: expected a file name\n");
				return TB_EXIT_USAGE;
			}
			o->outPath = value;
		} else if (tbMatchOption(arg, "--energy", &i, argc, argv, &value)) {
			if (value == NULL || value[0] == '\0') {
				fprintf(stderr, "tumble run: --energy: expected a file name\n");
				return TB_EXIT_USAGE;
			}
			o->energyPath = value;
		} else if (tbMatchOption(arg, "--trace-solver", &i, argc, argv, &value)) {
			if (value == NULL) {
				fprintf(stderr, "tumble run: --trace-solver: expected a file name\n");
				return TB_EXIT_USAGE;
			}
			o->tracePath = value;
		} else if (tbMatchOption(arg, "--trace-contact", &i, argc, argv, &value)) {
			long long n = 0;
			if (value == NULL || !tbParseCount(value, 1000000000LL, &n)) {
				if (value == NULL || strcmp(value, "0") != 0) {
					fprintf(stderr, "tumble run: --trace-contact: expected a body index >= 0\n");
					return TB_EXIT_USAGE;
				}
			}
			o->traceBody = n;
		} else if (tbMatchOption(arg, "--every", &i, argc, argv, &value)) {
			if (!tbParseCount(value, 1000000000LL, &o->every)) {
				fprintf(stderr, "tumble run: --every: expected a whole number >= 1, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (tbMatchOption(arg, "--save-at", &i, argc, argv, &value)) {
			if (!tbParseCount(value, 1000000000LL, &o->saveAt) || i + 1 >= argc) {
				fprintf(stderr, "tumble run: --save-at: expected a step >= 1 and a file name\n");
				return TB_EXIT_USAGE;
			}
			o->savePath = argv[++i];
		} else if (tbMatchOption(arg, "--restore", &i, argc, argv, &value)) {
			if (value == NULL) {
				fprintf(stderr, "tumble run: --restore: expected a file name\n");
				return TB_EXIT_USAGE;
			}
			o->restorePath = value;
		} else if (tbMatchOption(arg, "--threads", &i, argc, argv, &value)) {
			if (!tbParseCount(value, 64, &o->threads)) {
				fprintf(stderr,
				        "tumble run: --threads: expected a whole number from 1 to 64, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (arg[0] == '-' && arg[1] != '\0') {
			fprintf(stderr, "tumble run: unknown option '%s' (see tumble run --help)\n", arg);
			return TB_EXIT_USAGE;
		} else if (o->scene == NULL) {
			o->scene = arg;
		} else {
			fprintf(stderr, "tumble run: one scene only, got '%s' and '%s'\n", o->scene, arg);
			return TB_EXIT_USAGE;
		}
	}
	if (o->scene == NULL) {
		fprintf(stderr, "tumble run: missing SCENE (a file or a bundled name; see tumble "
		                "scenes)\n");
		return TB_EXIT_USAGE;
	}
	if (o->steps > 0 && o->seconds > 0.0) {
		fprintf(stderr, "tumble run: give --steps or --seconds, not both\n");
		return TB_EXIT_USAGE;
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Output helpers

// Significant digits of the summary's numbers.
#define TB_RUN_DIGITS 6

// RFC 4180: a name with a comma, quote or line break is quoted, its quotes doubled.
static void tbWriteCsvName(FILE* out, const char* name)
{
	if (strpbrk(name, ",\"\r\n") == NULL) {
		fputs(name, out);
		return;
	}
	fputc('"', out);
	for (; *name != '\0'; ++name) {
		if (*name == '"') {
			fputc('"', out);
		}
		fputc(*name, out);
	}
	fputc('"', out);
}

void tbMeasureEnergy(const tbScene* scene, tbEnergyRow* row)
{
	memset(row, 0, sizeof *row);
	vec3s g = tbWorld_GetGravity(scene->worldId);
	for (int i = 0; i < scene->def.bodyCount; ++i) {
		tbBodyId id = scene->bodyIds[i];
		if (tbBody_GetType(id) != tb_dynamicBody) {
			continue; // infinite mass, no energy of its own (a kinematic body is driven)
		}
		double m = (double)tbBody_GetMass(id);
		double s = (double)tbBody_GetGravityScale(id);
		vec3s c = tbBody_GetWorldCenterOfMass(id);
		vec3s v = tbBody_GetLinearVelocity(id);
		vec3s spin = tbBody_GetAngularMomentum(id);
		row->kinetic += (double)tbBody_GetKineticEnergy(id);
		// In a uniform field the potential is -m g . c (zero at the origin).
		row->potential -=
		    m * s *
		    ((double)g.x * (double)c.x + (double)g.y * (double)c.y + (double)g.z * (double)c.z);
		double p[3] = {m * (double)v.x, m * (double)v.y, m * (double)v.z};
		// About the world origin: the orbital part c x (m v) plus the spin L (Baraff's L).
		double orbit[3] = {(double)c.y * p[2] - (double)c.z * p[1],
		                   (double)c.z * p[0] - (double)c.x * p[2],
		                   (double)c.x * p[1] - (double)c.y * p[0]};
		row->momentum[0] += p[0];
		row->momentum[1] += p[1];
		row->momentum[2] += p[2];
		row->angularMomentum[0] += orbit[0] + (double)spin.x;
		row->angularMomentum[1] += orbit[1] + (double)spin.y;
		row->angularMomentum[2] += orbit[2] + (double)spin.z;
	}
	row->total = row->kinetic + row->potential;
}

void tbWriteEnergyHeader(FILE* out)
{
	fputs("step,time,kinetic,potential,total,px,py,pz,lx,ly,lz\n", out);
}

void tbWriteEnergyRow(FILE* out, long long step, double time, const tbEnergyRow* row)
{
	fprintf(out, "%lld,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", step, time,
	        row->kinetic, row->potential, row->total, row->momentum[0], row->momentum[1],
	        row->momentum[2], row->angularMomentum[0], row->angularMomentum[1],
	        row->angularMomentum[2]);
}

// The energy ledger's terms summed over the steps since the last row (docs/energy.md).
typedef struct tbLedgerSum
{
	double change, applied, damping, positionCorrection, friction, restitution, joints, rotation,
	    residual;
	int created;
} tbLedgerSum;

#define TB_LEDGER_COLUMNS                                                                          \
	",d_total,applied,damping,position_correction,friction,restitution,joints,rotation,residual,"  \
	"created\n"

static void tbAddLedger(tbLedgerSum* sum, const tbEnergyLedger* e)
{
	sum->change += e->change;
	sum->applied += e->applied;
	sum->damping += e->damping;
	sum->positionCorrection += e->positionCorrection;
	sum->friction += e->friction;
	sum->restitution += e->restitution;
	sum->joints += e->joints;
	sum->rotation += e->rotation;
	sum->residual += e->residual;
	sum->created += e->created ? 1 : 0;
}

// The energy row (tbWriteEnergyRow's columns) and the ledger's since the last row, then cleared.
static void tbRecordEnergy(FILE* out, const tbScene* scene, long long step, tbLedgerSum* sum)
{
	tbEnergyRow row;
	tbMeasureEnergy(scene, &row);
	fprintf(out, "%lld,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", step,
	        (double)step * (double)scene->def.dt, row.kinetic, row.potential, row.total,
	        row.momentum[0], row.momentum[1], row.momentum[2], row.angularMomentum[0],
	        row.angularMomentum[1], row.angularMomentum[2]);
	fprintf(out, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d\n", sum->change, sum->applied,
	        sum->damping, sum->positionCorrection, sum->friction, sum->restitution, sum->joints,
	        sum->rotation, sum->residual, sum->created);
	memset(sum, 0, sizeof *sum);
}

// --trace-solver: one JSON line per contact per pass (docs/tool.md, "The solver trace").
typedef struct tbTraceOutput
{
	FILE* out;
	const tbScene* scene;
	long long step;
	long long body; // only this scene body's contacts (-1: all)
} tbTraceOutput;

static long long tbSceneBodyOf(const tbScene* scene, tbShapeId shape)
{
	tbBodyId body = tbShape_GetBody(shape);
	for (int i = 0; i < scene->def.bodyCount; ++i) {
		if (TB_ID_EQUALS(scene->bodyIds[i], body)) {
			return i;
		}
	}
	return -1;
}

static void tbWriteFloats(FILE* out, const char* key, const float* v, int n)
{
	fprintf(out, ", \"%s\": [", key);
	for (int i = 0; i < n; ++i) {
		fprintf(out, "%s%.9g", i > 0 ? ", " : "", (double)v[i]);
	}
	fputc(']', out);
}

static void tbTraceRow(const tbContactTrace* t, void* context)
{
	const tbTraceOutput* o = context;
	long long a = tbSceneBodyOf(o->scene, t->shapeA), b = tbSceneBodyOf(o->scene, t->shapeB);
	if (o->body >= 0 && a != o->body && b != o->body) {
		return;
	}
	static const char* passes[] = {"warm_start", "push", "relax", "restitution"};
	int n = t->pointCount;
	fprintf(o->out,
	        "{\"step\": %lld, \"substep\": %d, \"iteration\": %d, \"pass\": \"%s\", "
	        "\"body_a\": %lld, \"body_b\": %lld, \"points\": %d",
	        o->step, t->substep, t->iteration, passes[t->pass], a, b, n);
	tbWriteFloats(o->out, "normal_impulse", t->normalImpulse, n);
	tbWriteFloats(o->out, "residual", t->speedError, n);
	tbWriteFloats(o->out, "bias", t->bias, n);
	tbWriteFloats(o->out, "friction_impulse", t->tangentImpulse, 2);
	tbWriteFloats(o->out, "friction_residual", t->tangentError, 2);
	fprintf(o->out,
	        ", \"twist_impulse\": %.9g, \"twist_residual\": %.9g, \"clamped\": %s, "
	        "\"normal_work\": %.9g, \"friction_work\": %.9g}\n",
	        (double)t->twistImpulse, (double)t->twistError, t->clamped ? "true" : "false",
	        (double)t->normalWork, (double)t->frictionWork);
}

// One CSV row per body; returns false when a state is not finite.
bool tbWriteFrame(FILE* out, const tbScene* scene, long long step)
{
	bool finite = true;
	for (int i = 0; i < scene->def.bodyCount; ++i) {
		tbBodyId id = scene->bodyIds[i];
		vec3s p = tbBody_GetPosition(id);
		versors q = tbBody_GetRotation(id);
		vec3s v = tbBody_GetLinearVelocity(id);
		vec3s w = tbBody_GetAngularVelocity(id);
		finite = finite && tbIsFiniteVec3(p) && tbIsFiniteVec3(v) && tbIsFiniteVec3(w) &&
		         isfinite(q.w) && isfinite(q.x) && isfinite(q.y) && isfinite(q.z);
		fprintf(out, "%lld,%d,", step, i);
		tbWriteCsvName(out, scene->def.bodies[i].name);
		fprintf(out, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
		        (double)p.x, (double)p.y, (double)p.z, (double)q.w, (double)q.x, (double)q.y,
		        (double)q.z, (double)v.x, (double)v.y, (double)v.z, (double)w.x, (double)w.y,
		        (double)w.z);
	}
	return finite;
}

// FNV-1a over the bits of every body's position, rotation and velocities, in creation order.
static uint64_t tbHashFloats(uint64_t h, const float* f, int count)
{
	const unsigned char* bytes = (const unsigned char*)f;
	for (size_t i = 0; i < sizeof(float) * (size_t)count; ++i) {
		h = (h ^ bytes[i]) * 0x100000001b3ull;
	}
	return h;
}

// The deepest overlap among the touching pairs now, m (speculative points count as 0).
static double tbDeepestOverlap(tbWorldId world, tbContactData** buffer, int* capacity,
                               int* pointCount)
{
	tbWorldCounters counters = tbWorld_GetCounters(world);
	if (counters.touchingCount > *capacity) {
		int grown = counters.touchingCount + counters.touchingCount / 2 + 16;
		tbContactData* larger = realloc(*buffer, sizeof *larger * (size_t)grown);
		if (larger == NULL) {
			return 0.0;
		}
		*buffer = larger;
		*capacity = grown;
	}
	int n = tbWorld_GetContactData(world, *buffer, *capacity);
	double deepest = 0.0;
	int points = 0;
	for (int i = 0; i < n; ++i) {
		const tbManifold* m = &(*buffer)[i].manifold;
		points += m->pointCount;
		for (int k = 0; k < m->pointCount; ++k) {
			double overlap = -(double)m->points[k].separation;
			deepest = overlap > deepest ? overlap : deepest;
		}
	}
	if (pointCount != NULL) {
		*pointCount = points;
	}
	return deepest;
}

static void tbFinalFigures(const tbScene* scene, const vec3s* start, tbRunFigures* f)
{
	uint64_t hash = 0xcbf29ce484222325ull;
	for (int i = 0; i < scene->def.bodyCount; ++i) {
		tbBodyId id = scene->bodyIds[i];
		vec3s p = tbBody_GetPosition(id);
		versors q = tbBody_GetRotation(id);
		vec3s v = tbBody_GetLinearVelocity(id);
		vec3s w = tbBody_GetAngularVelocity(id);
		float state[13] = {p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z};
		hash = tbHashFloats(hash, state, 13);
		for (int k = 0; k < 13; ++k) {
			f->nan = f->nan || !isfinite(state[k]);
		}
		if (tbBody_GetType(id) != tb_dynamicBody) {
			continue;
		}
		f->awake += tbBody_IsAwake(id) ? 1 : 0;
		double speed = (double)glms_vec3_norm(v);
		double moved = (double)glms_vec3_norm(glms_vec3_sub(p, start[i]));
		f->maxSpeed = speed > f->maxSpeed ? speed : f->maxSpeed;
		f->maxDisplacement = moved > f->maxDisplacement ? moved : f->maxDisplacement;
		f->kineticEnergy += (double)tbBody_GetKineticEnergy(id);
		double m = (double)tbBody_GetMass(id);
		vec3s c = tbBody_GetWorldCenterOfMass(id);
		vec3s spin = tbBody_GetAngularMomentum(id);
		double pv[3] = {m * (double)v.x, m * (double)v.y, m * (double)v.z};
		// About the world origin: the orbital part c x (m v) plus the spin L (Baraff's L).
		double orbit[3] = {(double)c.y * pv[2] - (double)c.z * pv[1],
		                   (double)c.z * pv[0] - (double)c.x * pv[2],
		                   (double)c.x * pv[1] - (double)c.y * pv[0]};
		double l[3] = {(double)spin.x, (double)spin.y, (double)spin.z};
		for (int k = 0; k < 3; ++k) {
			f->momentum[k] += pv[k];
			f->angularMomentum[k] += orbit[k] + l[k];
		}
	}
	f->stateHash = hash;
}

static int tbCompareDoubles(const void* left, const void* right)
{
	double a = *(const double*)left, b = *(const double*)right;
	return (a > b) - (a < b);
}

// The per-stage profile of every step, summed over the run (tbWorld_GetProfile).
typedef struct tbProfileSum
{
	double pairs, collide, solve, integrate, sleep, step;    // ms
	double gather, prepare, substeps, store, finish, shapes; // ms, the parts
	double narrowPhaseRuns, cachedManifolds, solvedContacts, awakeBodies, colors, refreshed, kept,
	    carried;
	int simdWidth;
} tbProfileSum;

static void tbAddProfile(tbProfileSum* sum, tbProfile p)
{
	sum->pairs += (double)p.pairs;
	sum->collide += (double)p.collide;
	sum->solve += (double)p.solve;
	sum->integrate += (double)p.integrate;
	sum->sleep += (double)p.sleep;
	sum->step += (double)p.step;
	sum->gather += (double)p.gather;
	sum->prepare += (double)p.prepare;
	sum->substeps += (double)p.substeps;
	sum->store += (double)p.store;
	sum->finish += (double)p.finish;
	sum->shapes += (double)p.shapes;
	sum->narrowPhaseRuns += p.narrowPhaseRuns;
	sum->cachedManifolds += p.cachedManifolds;
	sum->solvedContacts += p.solvedContacts;
	sum->awakeBodies += p.awakeBodies;
	sum->colors += p.colors;
	sum->refreshed += p.refreshedContacts;
	sum->kept += p.keptContacts;
	sum->carried += p.carriedContacts;
	sum->simdWidth = p.simdWidth;
}

static void tbPrintProfile(FILE* out, const tbProfileSum* s, long long steps)
{
	double n = steps > 0 ? (double)steps : 1.0;
	fprintf(out,
	        "profile           mean ms per step: pairs %.3f  collide %.3f  solve %.3f  "
	        "integrate %.3f  sleep %.3f  (step %.3f)\n",
	        s->pairs / n, s->collide / n, s->solve / n, s->integrate / n, s->sleep / n,
	        s->step / n);
	fprintf(out,
	        "                  solve: gather %.3f  prepare %.3f  substeps %.3f  store %.3f;  "
	        "integrate: finish %.3f  shapes %.3f\n",
	        s->gather / n, s->prepare / n, s->substeps / n, s->store / n, s->finish / n,
	        s->shapes / n);
	fprintf(out,
	        "                  mean per step: %.1f awake bodies, %.1f narrow phases, %.1f "
	        "cached manifolds, %.1f solved contacts in %.1f colours, %d lanes, %.1f manifolds "
	        "made again inside the step (%.1f kept, %.1f carried)\n",
	        s->awakeBodies / n, s->narrowPhaseRuns / n, s->cachedManifolds / n,
	        s->solvedContacts / n, s->colors / n, s->simdWidth, s->refreshed / n, s->kept / n,
	        s->carried / n);
}

static void tbWriteProfileJson(FILE* out, const tbProfileSum* s, long long steps)
{
	double n = steps > 0 ? (double)steps : 1.0;
	fprintf(out,
	        "{\"ms\": {\"pairs\": %.6g, \"collide\": %.6g, \"solve\": %.6g, \"integrate\": %.6g, "
	        "\"sleep\": %.6g, \"step\": %.6g, \"gather\": %.6g, \"prepare\": %.6g, "
	        "\"substeps\": %.6g, \"store\": %.6g, \"finish\": %.6g, \"shapes\": %.6g}, "
	        "\"awake_bodies\": %.6g, \"narrow_phases\": %.6g, "
	        "\"cached_manifolds\": %.6g, \"solved_contacts\": %.6g, \"colors\": %.6g, "
	        "\"simd_width\": %d, \"refreshed_contacts\": %.6g, \"kept_contacts\": %.6g, "
	        "\"carried_contacts\": %.6g}",
	        s->pairs / n, s->collide / n, s->solve / n, s->integrate / n, s->sleep / n, s->step / n,
	        s->gather / n, s->prepare / n, s->substeps / n, s->store / n, s->finish / n,
	        s->shapes / n, s->awakeBodies / n, s->narrowPhaseRuns / n, s->cachedManifolds / n,
	        s->solvedContacts / n, s->colors / n, s->simdWidth, s->refreshed / n, s->kept / n,
	        s->carried / n);
}

static void tbDrawProgress(long long done, long long total)
{
	enum
	{
		width = 40
	};
	int filled = (int)(width * done / (total > 0 ? total : 1));
	char bar[width + 1];
	for (int i = 0; i < width; ++i) {
		bar[i] = i < filled ? '#' : '.';
	}
	bar[width] = '\0';
	fprintf(stderr, "\r[%s] %3d%%  step %lld/%lld", bar,
	        (int)(100 * done / (total > 0 ? total : 1)), done, total);
	fflush(stderr);
}

static const char* tbBaseName(const char* path)
{
	const char* slash = strrchr(path, '/');
	return slash != NULL ? slash + 1 : path;
}

// ---------------------------------------------------------------------------------------------
// tumble run

// --save-at: the world's save written to `path`; false with a message.
static bool tbWriteSaveFile(tbWorldId world, const char* path)
{
	size_t size = tbWorld_Save(world, NULL, 0);
	unsigned char* data = size > 0 ? malloc(size) : NULL;
	bool ok = data != NULL && tbWorld_Save(world, data, size) == size;
	FILE* f = ok ? fopen(path, "wb") : NULL;
	ok = f != NULL && fwrite(data, 1, size, f) == size;
	ok = (f != NULL && fclose(f) == 0) && ok;
	free(data);
	if (!ok) {
		fprintf(stderr, "tumble run: --save-at: cannot write '%s' (%s)\n", path, tbGetLastError());
	}
	return ok;
}

// --restore: the save in `path` put into the world; false with a message.
static bool tbReadSaveFile(tbWorldId world, const char* path)
{
	FILE* f = fopen(path, "rb");
	long size = -1;
	if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
		size = ftell(f);
		rewind(f);
	}
	unsigned char* data = size > 0 ? malloc((size_t)size) : NULL;
	bool ok = data != NULL && fread(data, 1, (size_t)size, f) == (size_t)size;
	if (f != NULL) {
		fclose(f);
	}
	if (!ok) {
		fprintf(stderr, "tumble run: --restore: cannot read '%s'\n", path);
	} else if (!tbWorld_Restore(world, data, (size_t)size)) {
		fprintf(stderr, "tumble run: --restore: %s\n", tbGetLastError());
		ok = false;
	}
	free(data);
	return ok;
}

int tbRunSceneCommand(int argc, char** argv)
{
	tbRunOptions o;
	int status = tbParseRunOptions(argc, argv, &o);
	if (status != 0) {
		return status < 0 ? 0 : status;
	}
	char path[4096];
	if (!tbFindScene(o.scene, path, sizeof path)) {
		fprintf(stderr,
		        "tumble run: '%s': no such file, nor a bundled scene of that name (see tumble "
		        "scenes)\n",
		        o.scene);
		return TB_EXIT_USAGE;
	}
	tbScene scene;
	tbSceneError error;
	tbSceneDef sceneDef;
	if (!tbReadSceneFile(path, &sceneDef, &error)) {
		fprintf(stderr, "tumble run: %s\n", error.message);
		return error.line > 0 ? TB_EXIT_BAD_INPUT : TB_EXIT_USAGE;
	}
	// The world's workers (docs/threads.md): the same results at any count.
	sceneDef.workerCount = (int)o.threads;
	if (!tbBuildScene(&sceneDef, &scene, &error)) {
		fprintf(stderr, "tumble run: %s\n", error.message);
		return error.line > 0 ? TB_EXIT_BAD_INPUT : TB_EXIT_USAGE;
	}
	if (o.restorePath != NULL && !tbReadSaveFile(scene.worldId, o.restorePath)) {
		tbDestroyScene(&scene);
		return TB_EXIT_BAD_INPUT;
	}
	const tbSceneDef* d = &scene.def;
	long long steps = d->steps;
	if (o.steps > 0) {
		steps = o.steps;
	} else if (o.seconds > 0.0) {
		double n = ceil(o.seconds / (double)d->dt - 1e-6);
		steps = n < 1.0 ? 1 : n > 1e9 ? 1000000000LL : (long long)n;
	}

	FILE* csv = NULL;
	if (o.outPath != NULL) {
		csv = fopen(o.outPath, "w");
		if (csv == NULL) {
			fprintf(stderr, "tumble run: --out: cannot write '%s'\n", o.outPath);
			tbDestroyScene(&scene);
			return TB_EXIT_USAGE;
		}
		fputs(TB_TRAJECTORY_HEADER, csv);
	}
	FILE* energy = NULL;
	if (o.energyPath != NULL) {
		energy = fopen(o.energyPath, "w");
		if (energy == NULL) {
			fprintf(stderr, "tumble run: --energy: cannot write '%s'\n", o.energyPath);
			if (csv != NULL) {
				fclose(csv);
			}
			tbDestroyScene(&scene);
			return TB_EXIT_USAGE;
		}
		// The ledger's columns after the energy's (docs/energy.md); the ledger runs the solver
		// serially, with the same results.
		fputs("step,time,kinetic,potential,total,px,py,pz,lx,ly,lz", energy);
		fputs(TB_LEDGER_COLUMNS, energy);
		tbWorld_EnableEnergyLedger(scene.worldId, true);
	}
	tbLedgerSum ledger;
	memset(&ledger, 0, sizeof ledger);
	tbTraceOutput trace = {NULL, &scene, 0, o.traceBody};
	if (o.tracePath != NULL) {
		trace.out = fopen(o.tracePath, "w");
		if (trace.out == NULL) {
			fprintf(stderr, "tumble run: --trace-solver: cannot write '%s'\n", o.tracePath);
			if (csv != NULL) {
				fclose(csv);
			}
			if (energy != NULL) {
				fclose(energy);
			}
			tbDestroyScene(&scene);
			return TB_EXIT_USAGE;
		}
		tbWorld_SetSolverTrace(scene.worldId, tbTraceRow, &trace);
	}
	double* times = malloc(sizeof *times * (size_t)steps);
	vec3s* start = malloc(sizeof *start * (size_t)(d->bodyCount > 0 ? d->bodyCount : 1));
	if (times == NULL || start == NULL) {
		fprintf(stderr, "tumble run: out of memory for %lld steps\n", steps);
		free(times);
		free(start);
		if (csv != NULL) {
			fclose(csv);
		}
		if (energy != NULL) {
			fclose(energy);
		}
		tbDestroyScene(&scene);
		return TB_EXIT_USAGE;
	}
	for (int i = 0; i < d->bodyCount; ++i) {
		start[i] = tbBody_GetPosition(scene.bodyIds[i]);
	}

	tbRunFigures figures;
	memset(&figures, 0, sizeof figures);
	if (csv != NULL) {
		figures.nan = !tbWriteFrame(csv, &scene, 0);
	}
	if (energy != NULL) {
		tbRecordEnergy(energy, &scene, 0, &ledger);
	}
	bool progress = isatty(fileno(stderr)) != 0;
	double lastDraw = 0.0;
	tbContactData* contacts = NULL;
	int contactCapacity = 0;
	bool stepped = true;
	long long done = 0;
	tbProfileSum profile;
	memset(&profile, 0, sizeof profile);
	for (; done < steps; ++done) {
		trace.step = done + 1;
		double t0 = tbNowSeconds();
		stepped = tbWorld_Step(scene.worldId, d->dt, d->substeps);
		double t1 = tbNowSeconds();
		if (!stepped) {
			break;
		}
		times[done] = 1000.0 * (t1 - t0);
		if (done + 1 == o.saveAt && !tbWriteSaveFile(scene.worldId, o.savePath)) {
			stepped = false;
			break;
		}
		tbAddProfile(&profile, tbWorld_GetProfile(scene.worldId));
		// Outside the timed step: the copy of the contacts is the tool's cost.
		double overlap =
		    tbDeepestOverlap(scene.worldId, &contacts, &contactCapacity, &figures.contactPoints);
		figures.maxPenetration =
		    overlap > figures.maxPenetration ? overlap : figures.maxPenetration;
		bool record = (done + 1) % o.every == 0 || done + 1 == steps;
		if (csv != NULL && record) {
			figures.nan = !tbWriteFrame(csv, &scene, done + 1) || figures.nan;
		}
		if (energy != NULL) {
			tbEnergyLedger e = tbWorld_GetEnergyLedger(scene.worldId);
			tbAddLedger(&ledger, &e);
		}
		if (energy != NULL && record) {
			tbRecordEnergy(energy, &scene, done + 1, &ledger);
		}
		if (progress && (t1 - lastDraw > 0.1 || done + 1 == steps)) {
			tbDrawProgress(done + 1, steps);
			lastDraw = t1;
		}
	}
	if (progress) {
		fputs("\r\033[K", stderr); // clear the bar's line
	}
	free(contacts);
	if (trace.out != NULL) {
		tbWorld_SetSolverTrace(scene.worldId, NULL, NULL);
		fclose(trace.out);
	}
	if (!stepped) {
		fprintf(stderr, "tumble run: step %lld failed: %s\n", done + 1, tbGetLastError());
	}
	bool csvOk = true;
	if (csv != NULL) {
		csvOk = !ferror(csv);
		csvOk = fclose(csv) == 0 && csvOk;
		if (!csvOk) {
			fprintf(stderr, "tumble run: --out: error writing '%s'\n", o.outPath);
		}
	}
	if (energy != NULL) {
		bool ok = !ferror(energy);
		ok = fclose(energy) == 0 && ok;
		if (!ok) {
			fprintf(stderr, "tumble run: --energy: error writing '%s'\n", o.energyPath);
		}
		csvOk = csvOk && ok;
	}
	tbFinalFigures(&scene, start, &figures);
	// A body the step's NaN guard stopped had a NaN: say so, never hide it behind its frozen pose.
	int stopped = tbWorld_GetCounters(scene.worldId).stoppedBodyCount;
	figures.nan = figures.nan || stopped > 0;

	double median = 0.0, p95 = 0.0, worst = 0.0;
	if (done > 0) {
		qsort(times, (size_t)done, sizeof *times, tbCompareDoubles);
		median = done % 2 == 1 ? times[done / 2] : 0.5 * (times[done / 2 - 1] + times[done / 2]);
		long long k = (long long)ceil(0.95 * (double)done) - 1;
		p95 = times[k < 0 ? 0 : k];
		worst = times[done - 1];
	}
	const char* name = tbBaseName(path);
	if (o.json) {
		printf("{\"scene\": ");
		tbJsonString(stdout, name);
		printf(", \"bodies\": %d, \"steps\": %lld, \"dt\": ", d->bodyCount, done);
		tbJsonNumber(stdout, (double)d->dt, TB_RUN_DIGITS);
		printf(", \"substeps\": %d, \"ms_per_step\": {\"median\": ", d->substeps);
		tbJsonNumber(stdout, median, TB_RUN_DIGITS);
		fputs(", \"p95\": ", stdout);
		tbJsonNumber(stdout, p95, TB_RUN_DIGITS);
		fputs(", \"max\": ", stdout);
		tbJsonNumber(stdout, worst, TB_RUN_DIGITS);
		printf("}, \"contacts\": %d, \"awake\": %d, \"nan\": %s, \"max_penetration\": ",
		       figures.contactPoints, figures.awake, figures.nan ? "true" : "false");
		tbJsonNumber(stdout, figures.maxPenetration, TB_RUN_DIGITS);
		fputs(", \"max_speed\": ", stdout);
		tbJsonNumber(stdout, figures.maxSpeed, TB_RUN_DIGITS);
		fputs(", \"max_displacement\": ", stdout);
		tbJsonNumber(stdout, figures.maxDisplacement, TB_RUN_DIGITS);
		fputs(", \"kinetic_energy\": ", stdout);
		tbJsonNumber(stdout, figures.kineticEnergy, TB_RUN_DIGITS);
		fputs(", \"momentum\": ", stdout);
		tbJsonVec(stdout, figures.momentum, TB_RUN_DIGITS);
		fputs(", \"angular_momentum\": ", stdout);
		tbJsonVec(stdout, figures.angularMomentum, TB_RUN_DIGITS);
		printf(", \"stopped_bodies\": %d, \"profile\": ", stopped);
		tbWriteProfileJson(stdout, &profile, done);
		printf(", \"state_hash\": \"%016" PRIx64 "\"}\n", figures.stateHash);
	} else {
		printf("scene             %s (%d bodies)\n", path, d->bodyCount);
		printf("steps             %lld of %.6g s, %d substeps (%.4g s simulated)\n", done,
		       (double)d->dt, d->substeps, (double)done * (double)d->dt);
		printf("ms per step       median %.3f  p95 %.3f  max %.3f\n", median, p95, worst);
		printf("contacts          %d points at the end\n", figures.contactPoints);
		printf("awake             %d dynamic bodies at the end\n", figures.awake);
		printf("nan               %s", figures.nan ? "YES" : "no");
		printf(stopped > 0 ? " (%d bodies stopped by the step's NaN guard)\n" : "\n", stopped);
		printf("max penetration   %.4g m (over the run)\n", figures.maxPenetration);
		printf("max speed         %.4g m/s\n", figures.maxSpeed);
		printf("max displacement  %.4g m (from the start)\n", figures.maxDisplacement);
		printf("kinetic energy    %.6g J\n", figures.kineticEnergy);
		printf("momentum          %.6g %.6g %.6g kg m/s\n", figures.momentum[0],
		       figures.momentum[1], figures.momentum[2]);
		printf("angular momentum  %.6g %.6g %.6g kg m^2/s (about the origin)\n",
		       figures.angularMomentum[0], figures.angularMomentum[1], figures.angularMomentum[2]);
		printf("state hash        %016" PRIx64 "\n", figures.stateHash);
		tbPrintProfile(stdout, &profile, done);
	}
	fflush(stdout);
	free(times);
	free(start);
	tbDestroyScene(&scene);
	return stepped && csvOk ? 0 : TB_EXIT_BAD_INPUT;
}

// ---------------------------------------------------------------------------------------------
// tumble scenes

typedef struct tbSceneEntry
{
	char name[128];
	char path[4096];
} tbSceneEntry;

static int tbCompareEntries(const void* left, const void* right)
{
	return strcmp(((const tbSceneEntry*)left)->name, ((const tbSceneEntry*)right)->name);
}

int tbListScenesCommand(int argc, char** argv)
{
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			tbListScenesHelp(stdout);
			return 0;
		}
		fprintf(stderr, "tumble scenes: unexpected argument '%s'\n", argv[i]);
		return TB_EXIT_USAGE;
	}
	const char* dirs[4];
	int dirCount = tbGetBundledSceneDirs(dirs, 4);
	tbSceneEntry* entries = NULL;
	int count = 0, capacity = 0;
	for (int k = 0; k < dirCount; ++k) {
		DIR* dir = opendir(dirs[k]);
		if (dir == NULL) {
			continue;
		}
		struct dirent* e;
		while ((e = readdir(dir)) != NULL) {
			size_t n = strlen(e->d_name);
			if (n <= 5 || n - 5 >= sizeof entries[0].name ||
			    strcmp(e->d_name + n - 5, ".json") != 0) {
				continue;
			}
			char name[128];
			snprintf(name, sizeof name, "%.*s", (int)(n - 5), e->d_name);
			bool seen = false; // an earlier directory wins, as in tbFindScene
			for (int i = 0; i < count && !seen; ++i) {
				seen = strcmp(entries[i].name, name) == 0;
			}
			if (seen) {
				continue;
			}
			if (count == capacity) {
				capacity = capacity == 0 ? 16 : 2 * capacity;
				tbSceneEntry* larger = realloc(entries, sizeof *larger * (size_t)capacity);
				if (larger == NULL) {
					break;
				}
				entries = larger;
			}
			snprintf(entries[count].name, sizeof entries[count].name, "%s", name);
			snprintf(entries[count].path, sizeof entries[count].path, "%s/%s", dirs[k], e->d_name);
			count += 1;
		}
		closedir(dir);
	}
	if (count == 0) {
		fprintf(stderr, "tumble scenes: no bundled scenes found (looked in");
		for (int k = 0; k < dirCount; ++k) {
			fprintf(stderr, " %s", dirs[k]);
		}
		fprintf(stderr, ")\n");
		free(entries);
		return TB_EXIT_USAGE;
	}
	qsort(entries, (size_t)count, sizeof *entries, tbCompareEntries);
	int bad = 0;
	for (int i = 0; i < count; ++i) {
		tbSceneDef def;
		tbSceneError error;
		if (!tbReadSceneFile(entries[i].path, &def, &error)) {
			printf("%-12s (bad scene: %s)\n", entries[i].name, error.message);
			bad += 1;
			continue;
		}
		printf("%-12s %5d bodies %5.4g s  %s\n", entries[i].name, def.bodyCount,
		       (double)def.steps * (double)def.dt, def.description);
		tbFreeSceneDef(&def);
	}
	printf("\nrun one with: tumble run NAME [--json] [--out FILE.csv]\n");
	free(entries);
	return bad > 0 ? TB_EXIT_BAD_INPUT : 0;
}
