// `tumble lab` (run an experiment of lab_experiments.c against its closed form, or a sweep of one
// parameter) and `tumble check` (a student's trajectory against the engine and the closed form).
#include "lab.h"

#include "plot_command.h"
#include "run_command.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define TB_EXIT_FAIL 1
#define TB_EXIT_USAGE 2
#define TB_LAB_MAX_SWEEP 200
// The longest run a lab may take, steps (every loop has a cap).
#define TB_LAB_MAX_STEPS 2000000LL

void tbLabPrintf(tbLabText* t, const char* format, ...)
{
	if (t->overflow) {
		return;
	}
	va_list args;
	va_start(args, format);
	int n = vsnprintf(t->text + t->length, sizeof t->text - t->length, format, args);
	va_end(args);
	if (n < 0 || (size_t)n >= sizeof t->text - t->length) {
		t->overflow = true;
		return;
	}
	t->length += (size_t)n;
}

// ---------------------------------------------------------------------------------------------
// Running

static void tbLabRecord(tbLabRun* run)
{
	if (run->csv != NULL && !tbWriteFrame(run->csv, &run->scene, run->step)) {
		run->failed = true;
	}
	tbLabTrace* trace = run->trace;
	if (trace == NULL) {
		return;
	}
	if (trace->steps == trace->capacity) {
		long long grown = trace->capacity < 256 ? 256 : 2 * trace->capacity;
		double* larger =
		    realloc(trace->xyz, sizeof(double) * 3 * (size_t)trace->bodyCount * (size_t)grown);
		if (larger == NULL) {
			run->failed = true;
			return;
		}
		trace->xyz = larger;
		trace->capacity = grown;
	}
	double* row = trace->xyz + 3 * (size_t)trace->bodyCount * (size_t)trace->steps;
	for (int i = 0; i < trace->bodyCount; ++i) {
		tbLabPosition(run, i, row + 3 * i);
	}
	trace->steps += 1;
}

bool tbLabStep(tbLabRun* run)
{
	if (run->failed || run->step >= run->maxSteps) {
		return false;
	}
	if (!tbWorld_Step(run->scene.worldId, run->dt, run->substeps)) {
		run->failed = true;
		return false;
	}
	run->step += 1;
	for (int i = 0; i < run->scene.def.bodyCount; ++i) {
		double x[3], v[3];
		tbLabPosition(run, i, x);
		tbLabVelocity(run, i, v);
		if (!isfinite(x[0] + x[1] + x[2] + v[0] + v[1] + v[2])) {
			run->failed = true;
		}
	}
	tbLabRecord(run);
	return !run->failed;
}

void tbLabPosition(const tbLabRun* run, int body, double out[3])
{
	vec3s p = tbBody_GetPosition(run->scene.bodyIds[body]);
	out[0] = (double)p.x, out[1] = (double)p.y, out[2] = (double)p.z;
}

void tbLabVelocity(const tbLabRun* run, int body, double out[3])
{
	vec3s v = tbBody_GetLinearVelocity(run->scene.bodyIds[body]);
	out[0] = (double)v.x, out[1] = (double)v.y, out[2] = (double)v.z;
}

void tbLabAngularVelocity(const tbLabRun* run, int body, double out[3])
{
	vec3s w = tbBody_GetAngularVelocity(run->scene.bodyIds[body]);
	out[0] = (double)w.x, out[1] = (double)w.y, out[2] = (double)w.z;
}

// ---------------------------------------------------------------------------------------------
// Parameters

static const tbLabExperiment* tbFindExperiment(const char* name)
{
	for (int i = 0; i < tb_labExperimentCount; ++i) {
		if (strcmp(tb_labExperiments[i].name, name) == 0) {
			return tb_labExperiments + i;
		}
	}
	return NULL;
}

static int tbFindParam(const tbLabExperiment* e, const char* key)
{
	for (int i = 0; i < e->paramCount; ++i) {
		if (strcmp(e->params[i].key, key) == 0) {
			return i;
		}
	}
	return -1;
}

static void tbListKeys(FILE* out, const tbLabExperiment* e)
{
	for (int i = 0; i < e->paramCount; ++i) {
		fprintf(out, "%s--%s", i > 0 ? ", " : "", e->params[i].key);
	}
}

static bool tbParseNumber(const char* text, double* out)
{
	char* end = NULL;
	double v = text != NULL ? strtod(text, &end) : 0.0;
	if (text == NULL || end == text || *end != '\0' || !isfinite(v)) {
		return false;
	}
	*out = v;
	return true;
}

// A parameter's value in its range; prints the error and returns false otherwise.
static bool tbSetParam(const char* command, const tbLabExperiment* e, int index, const char* text,
                       double* p)
{
	const tbLabParam* param = e->params + index;
	double v;
	if (!tbParseNumber(text, &v) || v < param->min || v > param->max) {
		fprintf(stderr, "tumble %s: %s --%s: expected a number from %g to %g (%s), got '%s'\n",
		        command, e->name, param->key, param->min, param->max, param->help,
		        text != NULL ? text : "nothing");
		return false;
	}
	p[index] = v;
	return true;
}

// Write the whole scene text of an experiment.
static bool tbLabSceneText(const tbLabExperiment* e, const double* p, tbLabText* t)
{
	double rate = p[tbFindParam(e, "rate")];
	int substeps = (int)round(p[tbFindParam(e, "substeps")]);
	t->length = 0;
	t->overflow = false;
	t->text[0] = '\0';
	tbLabPrintf(t, "{\n \"description\": \"tumble lab %s:", e->name);
	for (int i = 0; i < e->paramCount; ++i) {
		tbLabPrintf(t, " --%s %.6g", e->params[i].key, p[i]);
	}
	tbLabPrintf(t,
	            " (%s)\",\n \"dt\": %.9g,\n \"substeps\": %d,\n \"seconds\": %.9g,\n"
	            " \"sleep\": false,\n \"restitution_threshold\": 0",
	            e->summary, 1.0 / rate, substeps, e->seconds(p));
	e->writeScene(p, t);
	tbLabPrintf(t, "\n}\n");
	return !t->overflow;
}

// Build the experiment's scene into a run; false with a message on stderr.
static bool tbLabBuild(const char* command, const tbLabExperiment* e, const double* p,
                       tbLabRun* run)
{
	static tbLabText s_text;
	memset(run, 0, sizeof *run);
	if (!tbLabSceneText(e, p, &s_text)) {
		fprintf(stderr, "tumble %s: %s: the scene is too large for the lab\n", command, e->name);
		return false;
	}
	tbSceneDef def;
	tbSceneError error;
	char name[64];
	snprintf(name, sizeof name, "%s.json", e->name);
	if (!tbParseScene(s_text.text, s_text.length, name, &def, &error) ||
	    !tbBuildScene(&def, &run->scene, &error)) {
		fprintf(stderr, "tumble %s: %s: the scene was refused: %s\n", command, e->name,
		        error.message);
		return false;
	}
	run->dt = run->scene.def.dt;
	run->substeps = run->scene.def.substeps;
	run->maxSteps = TB_LAB_MAX_STEPS;
	return true;
}

typedef struct tbLabOutcome
{
	bool measured;
	tbLabMeasure measure;
	double closed;
	double error; // relative
	bool pass;
} tbLabOutcome;

// Run one experiment: build, measure, compare. false only when the scene could not be built.
static bool tbLabRunOnce(const char* command, const tbLabExperiment* e, const double* p, FILE* csv,
                         tbLabTrace* trace, tbLabOutcome* o)
{
	tbLabRun run;
	if (!tbLabBuild(command, e, p, &run)) {
		return false;
	}
	run.csv = csv;
	run.trace = trace;
	if (trace != NULL) {
		trace->bodyCount = run.scene.def.bodyCount;
		trace->steps = 0;
	}
	if (csv != NULL) {
		fputs(TB_TRAJECTORY_HEADER, csv);
	}
	tbLabRecord(&run);
	memset(o, 0, sizeof *o);
	o->measured = e->measure(&run, p, &o->measure) && !run.failed;
	if (run.failed) {
		snprintf(o->measure.note, sizeof o->measure.note, "the run stopped at step %lld: %s",
		         run.step, tbGetLastError());
	}
	o->closed = e->closedForm(p);
	o->error = (o->measure.figure - o->closed) / fabs(o->closed);
	o->pass = o->measured && isfinite(o->error) && fabs(o->error) <= e->tolerance;
	tbDestroyScene(&run.scene);
	return true;
}

// ---------------------------------------------------------------------------------------------
// tumble lab

void tbLabHelp(FILE* out)
{
	fprintf(out,
	        "usage: tumble lab                      list the experiments\n"
	        "       tumble lab NAME [--KEY VALUE ...] [--csv FILE] [--scene FILE.json]\n"
	        "       tumble lab NAME [--KEY VALUE ...] --sweep KEY A:B:N [--plot FILE.png]\n"
	        "                  [--csv FILE]\n"
	        "       tumble lab NAME --help          the experiment's parameters\n"
	        "\n"
	        "Build an experiment of a mechanics course as a scene, run it, measure its figure\n"
	        "and print it beside the closed form with the relative error (docs/lab.md). The\n"
	        "exit status is 0 when the error is within the experiment's tolerance, 1 when not\n"
	        "(or the run gave no figure), 2 for usage errors.\n"
	        "\n"
	        "options:\n"
	        "  --KEY VALUE        an experiment's parameter (every one has --rate, steps per\n"
	        "                     second, and --substeps)\n"
	        "  --csv FILE         one run: its trajectory, the columns of `tumble run --out`\n"
	        "                     (every step); a sweep: KEY,measured,closed_form,error,pass\n"
	        "  --scene FILE.json  write the experiment's scene (open it in the demo, run it\n"
	        "                     with `tumble run`) instead of running it\n"
	        "  --sweep KEY A:B:N  run N values of KEY from A to B (N from 2 to %d); print a\n"
	        "                     table, write the CSV and a PNG of the figure beside the\n"
	        "                     closed form and of the relative error against KEY\n"
	        "  --plot FILE.png    the sweep's picture (default NAME-KEY.png; with --csv\n"
	        "                     unset the sweep's CSV is NAME-KEY.csv)\n"
	        "  -h, --help         this text\n",
	        TB_LAB_MAX_SWEEP);
}

static void tbLabList(void)
{
	for (int i = 0; i < tb_labExperimentCount; ++i) {
		const tbLabExperiment* e = tb_labExperiments + i;
		printf("%-14s %s\n", e->name, e->summary);
	}
	printf("\nrun one with: tumble lab NAME [--KEY VALUE ...]; its keys: tumble lab NAME --help\n");
}

static void tbLabExperimentHelp(const tbLabExperiment* e)
{
	printf("tumble lab %s: %s\nfigure: %s; tolerance %.3g %%\n", e->name, e->summary, e->figureName,
	       100.0 * e->tolerance);
	printf("parameters (default, range):\n");
	for (int i = 0; i < e->paramCount; ++i) {
		const tbLabParam* q = e->params + i;
		printf("  --%-10s %-8g %g to %g  %s\n", q->key, q->value, q->min, q->max, q->help);
	}
}

static void tbPrintOutcome(const tbLabExperiment* e, const double* p, const tbLabOutcome* o)
{
	printf("%s:", e->name);
	for (int i = 0; i < e->paramCount; ++i) {
		printf(" --%s %g", e->params[i].key, p[i]);
	}
	printf("\n  %s\n", e->figureName);
	if (o->measured) {
		printf("  measured     %.6g\n", o->measure.figure);
	} else {
		printf("  measured     none\n");
	}
	printf("  closed form  %.6g\n", o->closed);
	if (o->measured) {
		printf("  error        %+.4f %% (tolerance %.3g %%)\n", 100.0 * o->error,
		       100.0 * e->tolerance);
	}
	printf("  note         %s\n", o->measure.note);
	if (o->pass) {
		printf("  result       pass\n");
	} else {
		printf("  result       FAIL\n");
	}
}

typedef struct tbLabArgs
{
	const tbLabExperiment* e;
	double p[TB_LAB_MAX_PARAMS];
	const char* csvPath;
	const char* plotPath;
	const char* scenePath;
	const char* checkPath; // check: the student's CSV
	double tolerance;      // check: fraction of the scene's size
	int sweepKey;          // -1: no sweep
	double sweepFrom, sweepTo;
	int sweepCount;
} tbLabArgs;

static bool tbParseSweep(const tbLabExperiment* e, const char* key, const char* range, tbLabArgs* a)
{
	a->sweepKey = key != NULL ? tbFindParam(e, key) : -1;
	if (a->sweepKey < 0) {
		fprintf(stderr, "tumble lab: %s --sweep: unknown key '%s' (keys: ", e->name,
		        key != NULL ? key : "nothing");
		tbListKeys(stderr, e);
		fprintf(stderr, ")\n");
		return false;
	}
	char from[64], to[64], count[64], tail;
	const tbLabParam* q = e->params + a->sweepKey;
	if (range == NULL || strlen(range) >= 64 ||
	    sscanf(range, "%63[^:]:%63[^:]:%63[^:]%c", from, to, count, &tail) != 3 ||
	    !tbParseNumber(from, &a->sweepFrom) || !tbParseNumber(to, &a->sweepTo) ||
	    sscanf(count, "%d%c", &a->sweepCount, &tail) != 1 || a->sweepCount < 2 ||
	    a->sweepCount > TB_LAB_MAX_SWEEP || a->sweepFrom < q->min || a->sweepFrom > q->max ||
	    a->sweepTo < q->min || a->sweepTo > q->max || !(a->sweepFrom < a->sweepTo)) {
		fprintf(stderr,
		        "tumble lab: %s --sweep %s: expected A:B:N with %g <= A < B <= %g and N from 2 "
		        "to %d, got '%s'\n",
		        e->name, q->key, q->min, q->max, TB_LAB_MAX_SWEEP,
		        range != NULL ? range : "nothing");
		return false;
	}
	return true;
}

// The arguments after NAME: --key value pairs and the command's options. Returns 0, -1 for help
// printed, or TB_EXIT_USAGE.
static int tbParseLabArgs(const char* command, int argc, char** argv, int first, tbLabArgs* a)
{
	const tbLabExperiment* e = a->e;
	for (int i = 0; i < e->paramCount; ++i) {
		a->p[i] = e->params[i].value;
	}
	a->sweepKey = -1;
	const char* sweepKey = NULL;
	const char* sweepRange = NULL;
	bool sweep = false;
	for (int i = first; i < argc; ++i) {
		const char* arg = argv[i];
		const char* value = NULL;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			tbLabExperimentHelp(e);
			return -1;
		} else if (strcmp(command, "lab") == 0 &&
		           tbMatchOption(arg, "--sweep", &i, argc, argv, &value)) {
			sweep = true;
			sweepKey = value != NULL && value[0] == '-' && value[1] == '-' ? value + 2 : value;
			sweepRange = value != NULL && i + 1 < argc ? argv[++i] : NULL;
		} else if (tbMatchOption(arg, "--csv", &i, argc, argv, &value) ||
		           tbMatchOption(arg, "--plot", &i, argc, argv, &value) ||
		           tbMatchOption(arg, "--scene", &i, argc, argv, &value)) {
			char which = arg[2];
			bool allowed = strcmp(command, "lab") == 0;
			if (!allowed || value == NULL || value[0] == '\0') {
				fprintf(stderr,
				        allowed ? "tumble %s: %.8s: expected a file name\n"
				                : "tumble %s: unknown option '%s'\n",
				        command, arg);
				return TB_EXIT_USAGE;
			}
			*(which == 'c' ? &a->csvPath : which == 'p' ? &a->plotPath : &a->scenePath) = value;
		} else if (strcmp(command, "check") == 0 &&
		           tbMatchOption(arg, "--tolerance", &i, argc, argv, &value)) {
			if (!tbParseNumber(value, &a->tolerance) || !(a->tolerance > 0.0) ||
			    a->tolerance > 1.0) {
				fprintf(stderr,
				        "tumble check: --tolerance: expected a fraction of the scene's size in "
				        "(0, 1], got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (arg[0] == '-' && arg[1] == '-') {
			const char* key = arg + 2;
			const char* eq = strchr(key, '=');
			char name[64];
			snprintf(name, sizeof name, "%.*s", eq != NULL ? (int)(eq - key) : (int)strlen(key),
			         key);
			int index = tbFindParam(e, name);
			if (index < 0) {
				fprintf(stderr, "tumble %s: %s: unknown key '--%s' (keys: ", command, e->name,
				        name);
				tbListKeys(stderr, e);
				fprintf(stderr, ")\n");
				return TB_EXIT_USAGE;
			}
			value = eq != NULL ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!tbSetParam(command, e, index, value, a->p)) {
				return TB_EXIT_USAGE;
			}
		} else if (strcmp(command, "check") == 0 && a->checkPath == NULL) {
			a->checkPath = arg;
		} else {
			fprintf(stderr, "tumble %s: unexpected argument '%s'\n", command, arg);
			return TB_EXIT_USAGE;
		}
	}
	if (sweep && !tbParseSweep(e, sweepKey, sweepRange, a)) {
		return TB_EXIT_USAGE;
	}
	if (!sweep && a->plotPath != NULL) {
		fprintf(stderr, "tumble lab: --plot goes with --sweep\n");
		return TB_EXIT_USAGE;
	}
	if (sweep && a->scenePath != NULL) {
		fprintf(stderr, "tumble lab: --scene writes one scene: not with --sweep\n");
		return TB_EXIT_USAGE;
	}
	const char* problem = e->validate != NULL ? e->validate(a->p) : NULL;
	if (problem != NULL && !sweep) {
		fprintf(stderr, "tumble %s: %s: %s\n", command, e->name, problem);
		return TB_EXIT_USAGE;
	}
	return 0;
}

static int tbLabWriteScene(const tbLabArgs* a)
{
	static tbLabText s_text;
	if (!tbLabSceneText(a->e, a->p, &s_text)) {
		fprintf(stderr, "tumble lab: %s: the scene is too large\n", a->e->name);
		return TB_EXIT_FAIL;
	}
	FILE* out = fopen(a->scenePath, "w");
	bool ok = out != NULL && fwrite(s_text.text, 1, s_text.length, out) == s_text.length;
	ok = out != NULL && fclose(out) == 0 && ok;
	if (!ok) {
		fprintf(stderr, "tumble lab: --scene: cannot write '%s'\n", a->scenePath);
		return TB_EXIT_USAGE;
	}
	printf("%s: the scene of tumble lab %s\n", a->scenePath, a->e->name);
	return 0;
}

static int tbLabSweep(tbLabArgs* a)
{
	const tbLabExperiment* e = a->e;
	const char* key = e->params[a->sweepKey].key;
	char plotName[128], csvName[128];
	snprintf(plotName, sizeof plotName, "%s-%s.png", e->name, key);
	snprintf(csvName, sizeof csvName, "%s-%s.csv", e->name, key);
	const char* plotPath = a->plotPath != NULL ? a->plotPath : plotName;
	const char* csvPath = a->csvPath != NULL ? a->csvPath : csvName;
	FILE* csv = fopen(csvPath, "w");
	if (csv == NULL) {
		fprintf(stderr, "tumble lab: --csv: cannot write '%s'\n", csvPath);
		return TB_EXIT_USAGE;
	}
	fprintf(csv, "%s,measured,closed_form,error,pass\n", key);
	double x[TB_LAB_MAX_SWEEP], measured[TB_LAB_MAX_SWEEP], closed[TB_LAB_MAX_SWEEP],
	    error[TB_LAB_MAX_SWEEP];
	int rows = 0, failures = 0;
	printf("%s against %s (tolerance %.3g %%)\n%12s %14s %14s %10s\n", e->figureName, key,
	       100.0 * e->tolerance, key, "measured", "closed form", "error %");
	for (int i = 0; i < a->sweepCount; ++i) {
		a->p[a->sweepKey] =
		    a->sweepFrom + (a->sweepTo - a->sweepFrom) * (double)i / (double)(a->sweepCount - 1);
		const char* problem = e->validate != NULL ? e->validate(a->p) : NULL;
		tbLabOutcome o;
		if (problem != NULL) {
			printf("%12.6g  skipped: %s\n", a->p[a->sweepKey], problem);
			++failures;
			continue;
		}
		if (!tbLabRunOnce("lab", e, a->p, NULL, NULL, &o)) {
			fclose(csv);
			return TB_EXIT_FAIL;
		}
		failures += o.pass ? 0 : 1;
		if (!o.measured) {
			printf("%12.6g %14s %14.6g %10s  %s\n", a->p[a->sweepKey], "none", o.closed, "",
			       o.measure.note);
			fprintf(csv, "%.9g,,%.9g,,0\n", a->p[a->sweepKey], o.closed);
			continue;
		}
		printf("%12.6g %14.6g %14.6g %+10.4f%s\n", a->p[a->sweepKey], o.measure.figure, o.closed,
		       100.0 * o.error, o.pass ? "" : "  outside");
		fprintf(csv, "%.9g,%.9g,%.9g,%.9g,%d\n", a->p[a->sweepKey], o.measure.figure, o.closed,
		        o.error, o.pass ? 1 : 0);
		x[rows] = a->p[a->sweepKey];
		measured[rows] = o.measure.figure;
		closed[rows] = o.closed;
		error[rows] = o.error;
		++rows;
	}
	bool ok = fclose(csv) == 0;
	if (rows > 0) {
		char title[256];
		snprintf(title, sizeof title, "tumble lab %s: %s against %s", e->name, e->figureName, key);
		tbPanel panels[2] = {
		    {e->figureName,
		     {"measured", "closed form"},
		     {measured, closed},
		     {{220, 60, 40}, {40, 90, 220}},
		     2},
		    {"relative error", {"error"}, {error}, {{20, 20, 20}}, 1},
		};
		ok = tbWritePlot(plotPath, 800, 600, title, key, x, rows, panels, 2) && ok;
	}
	if (!ok) {
		fprintf(stderr, "tumble lab: cannot write '%s' or '%s'\n", plotPath, csvPath);
		return TB_EXIT_USAGE;
	}
	printf("%d of %d within tolerance; wrote %s%s%s\n", a->sweepCount - failures, a->sweepCount,
	       csvPath, rows > 0 ? " and " : "", rows > 0 ? plotPath : "");
	return failures == 0 ? 0 : TB_EXIT_FAIL;
}

int tbLabCommand(int argc, char** argv)
{
	if (argc < 2) {
		tbLabList();
		return 0;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		tbLabHelp(stdout);
		return 0;
	}
	tbLabArgs a;
	memset(&a, 0, sizeof a);
	a.e = tbFindExperiment(argv[1]);
	if (a.e == NULL) {
		fprintf(stderr, "tumble lab: unknown experiment '%s' (see tumble lab)\n", argv[1]);
		return TB_EXIT_USAGE;
	}
	int status = tbParseLabArgs("lab", argc, argv, 2, &a);
	if (status != 0) {
		return status < 0 ? 0 : status;
	}
	if (a.scenePath != NULL) {
		return tbLabWriteScene(&a);
	}
	if (a.sweepKey >= 0) {
		return tbLabSweep(&a);
	}
	FILE* csv = NULL;
	if (a.csvPath != NULL && (csv = fopen(a.csvPath, "w")) == NULL) {
		fprintf(stderr, "tumble lab: --csv: cannot write '%s'\n", a.csvPath);
		return TB_EXIT_USAGE;
	}
	tbLabOutcome o;
	bool built = tbLabRunOnce("lab", a.e, a.p, csv, NULL, &o);
	if (csv != NULL && fclose(csv) != 0) {
		fprintf(stderr, "tumble lab: --csv: error writing '%s'\n", a.csvPath);
		return TB_EXIT_USAGE;
	}
	if (!built) {
		return TB_EXIT_FAIL;
	}
	tbPrintOutcome(a.e, a.p, &o);
	return o.pass ? 0 : TB_EXIT_FAIL;
}

// ---------------------------------------------------------------------------------------------
// tumble check

void tbCheckHelp(FILE* out)
{
	fprintf(out,
	        "usage: tumble check TRAJECTORY.csv --lab NAME [--KEY VALUE ...] [--tolerance F]\n"
	        "\n"
	        "Compare a trajectory (the columns of `tumble run --out`: step,body,name,x,y,z,\n"
	        "qw,qx,qy,qz,vx,vy,vz,wx,wy,wz; step n at time n / rate) with the engine's run of\n"
	        "the same lab experiment and, where the experiment has one, with its closed form.\n"
	        "For each it reports the first step and body whose position is further than F\n"
	        "times the scene's size from it (default F 0.01). The exit status is 0 when the\n"
	        "trajectory stays with the engine or with the closed form over every row, 1 when\n"
	        "it parts from both, 2 for usage errors and malformed files.\n");
}

typedef struct tbCheckRow
{
	long long step;
	int body;
	double x[3];
} tbCheckRow;

// Split one CSV line into fields (RFC 4180 quotes for the name); returns the field count.
static int tbSplitCsv(char* line, char** fields, int capacity)
{
	int count = 0;
	char* s = line;
	for (int guard = 0; guard < 64 && count < capacity; ++guard) {
		if (*s == '"') {
			char* w = ++s;
			fields[count++] = w;
			while (*s != '\0' && !(*s == '"' && s[1] != '"')) {
				*w++ = *s == '"' ? (++s, '"') : *s;
				++s;
			}
			*w = '\0';
			s += *s == '"' ? 1 : 0;
		} else {
			fields[count++] = s;
			s += strcspn(s, ",\r\n");
		}
		if (*s != ',') {
			*s = '\0';
			break;
		}
		*s++ = '\0';
	}
	return count;
}

// Read the trajectory; false (with a message naming the line) when it is malformed.
static bool tbReadTrajectory(const char* path, tbCheckRow** rows, int* count)
{
	FILE* file = fopen(path, "r");
	if (file == NULL) {
		fprintf(stderr, "tumble check: cannot open '%s'\n", path);
		return false;
	}
	char line[1024];
	bool ok = fgets(line, sizeof line, file) != NULL && strcmp(line, TB_TRAJECTORY_HEADER) == 0;
	if (!ok) {
		fprintf(stderr, "tumble check: %s:1: expected the header %s", path, TB_TRAJECTORY_HEADER);
	}
	int capacity = 0, lineNumber = 1;
	*rows = NULL;
	*count = 0;
	while (ok && fgets(line, sizeof line, file) != NULL) {
		++lineNumber;
		if (line[0] == '\n' || line[0] == '\0') {
			continue;
		}
		char* fields[17];
		int n = tbSplitCsv(line, fields, 17);
		double v[16];
		ok = n == 16;
		for (int i = 0; ok && i < 16; ++i) {
			ok = i == 2 || tbParseNumber(fields[i], &v[i]);
		}
		ok = ok && v[0] >= 0.0 && v[0] <= 1e9 && v[0] == floor(v[0]) && v[1] >= 0.0 && v[1] < 1e6 &&
		     v[1] == floor(v[1]);
		if (!ok) {
			fprintf(stderr,
			        "tumble check: %s:%d: expected 16 fields: a step and a body (whole numbers "
			        ">= 0), a name and 13 finite numbers\n",
			        path, lineNumber);
			break;
		}
		if (*count == capacity) {
			capacity = capacity < 1024 ? 1024 : 2 * capacity;
			tbCheckRow* larger = realloc(*rows, sizeof *larger * (size_t)capacity);
			if (larger == NULL) {
				fprintf(stderr, "tumble check: out of memory at line %d\n", lineNumber);
				ok = false;
				break;
			}
			*rows = larger;
		}
		tbCheckRow* r = *rows + (*count)++;
		r->step = (long long)v[0];
		r->body = (int)v[1];
		r->x[0] = v[3], r->x[1] = v[4], r->x[2] = v[5];
	}
	if (ok && *count == 0) {
		fprintf(stderr, "tumble check: %s: no rows after the header\n", path);
		ok = false;
	}
	fclose(file);
	return ok;
}

typedef struct tbParting
{
	long long compared;
	bool parted;
	long long step;
	int body;
	double distance;
} tbParting;

static void tbNoteParting(tbParting* pt, const tbCheckRow* r, double distance, double limit)
{
	pt->compared += 1;
	if (distance > limit && (!pt->parted || r->step < pt->step)) {
		pt->parted = true;
		pt->step = r->step;
		pt->body = r->body;
		pt->distance = distance;
	}
}

static void tbPrintParting(const char* against, const tbParting* pt, double limit)
{
	if (pt->compared == 0) {
		printf("%-12s no rows to compare\n", against);
	} else if (pt->parted) {
		printf("%-12s parts at step %lld, body %d: %.6g m apart (tolerance %.4g m)\n", against,
		       pt->step, pt->body, pt->distance, limit);
	} else {
		printf("%-12s agrees over %lld rows (within %.4g m)\n", against, pt->compared, limit);
	}
}

int tbCheckCommand(int argc, char** argv)
{
	tbLabArgs a;
	memset(&a, 0, sizeof a);
	a.tolerance = 0.01;
	const char* labName = NULL;
	// --lab NAME first: the other keys belong to the experiment.
	for (int i = 1; i < argc; ++i) {
		const char* value = NULL;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			tbCheckHelp(stdout);
			return 0;
		}
		if (tbMatchOption(argv[i], "--lab", &i, argc, argv, &value)) {
			labName = value;
			break;
		}
	}
	if (labName == NULL) {
		fprintf(stderr, "tumble check: missing --lab NAME (see tumble lab)\n");
		return TB_EXIT_USAGE;
	}
	a.e = tbFindExperiment(labName);
	if (a.e == NULL) {
		fprintf(stderr, "tumble check: unknown experiment '%s' (see tumble lab)\n", labName);
		return TB_EXIT_USAGE;
	}
	// Drop --lab NAME from the arguments, then read the rest as for tumble lab.
	char** rest = malloc(sizeof(char*) * (size_t)(argc + 1));
	if (rest == NULL) {
		return TB_EXIT_USAGE;
	}
	int restCount = 0;
	for (int i = 0; i < argc; ++i) {
		const char* value = NULL;
		int j = i;
		if (i > 0 && tbMatchOption(argv[i], "--lab", &j, argc, argv, &value)) {
			i = j;
			continue;
		}
		rest[restCount++] = argv[i];
	}
	int status = tbParseLabArgs("check", restCount, rest, 1, &a);
	free(rest);
	if (status != 0) {
		return status < 0 ? 0 : status;
	}
	if (a.checkPath == NULL) {
		fprintf(stderr, "tumble check: missing TRAJECTORY.csv (see tumble check --help)\n");
		return TB_EXIT_USAGE;
	}
	tbCheckRow* rows = NULL;
	int rowCount = 0;
	if (!tbReadTrajectory(a.checkPath, &rows, &rowCount)) {
		free(rows);
		return TB_EXIT_USAGE;
	}
	tbLabTrace trace;
	memset(&trace, 0, sizeof trace);
	tbLabOutcome o;
	if (!tbLabRunOnce("check", a.e, a.p, NULL, &trace, &o)) {
		free(rows);
		free(trace.xyz);
		return TB_EXIT_FAIL;
	}
	double rate = a.p[tbFindParam(a.e, "rate")];
	double limit = a.tolerance * a.e->size(a.p);
	tbParting engine = {0}, closed = {0};
	long long beyond = 0;
	int badBody = -1;
	for (int i = 0; i < rowCount; ++i) {
		const tbCheckRow* r = rows + i;
		if (r->body >= trace.bodyCount) {
			badBody = r->body;
			break;
		}
		if (r->step < trace.steps) {
			const double* e =
			    trace.xyz + 3 * ((size_t)r->step * (size_t)trace.bodyCount + (size_t)r->body);
			double d[3] = {r->x[0] - e[0], r->x[1] - e[1], r->x[2] - e[2]};
			tbNoteParting(&engine, r, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), limit);
		} else {
			++beyond;
		}
		double c[3];
		if (a.e->reference != NULL && a.e->reference(a.p, (double)r->step / rate, r->body, c)) {
			double d[3] = {r->x[0] - c[0], r->x[1] - c[1], r->x[2] - c[2]};
			tbNoteParting(&closed, r, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), limit);
		}
	}
	free(rows);
	free(trace.xyz);
	if (badBody >= 0) {
		fprintf(stderr, "tumble check: %s: body %d, but the lab %s has %d bodies (0 to %d)\n",
		        a.checkPath, badBody, a.e->name, trace.bodyCount, trace.bodyCount - 1);
		return TB_EXIT_USAGE;
	}
	printf("%s against tumble lab %s at %g Hz (%d rows; tolerance %g of the scene's %.4g m)\n",
	       a.checkPath, a.e->name, rate, rowCount, a.tolerance, a.e->size(a.p));
	tbPrintParting("engine", &engine, limit);
	if (beyond > 0) {
		printf("%-12s %lld rows after its last step %lld not compared\n", "", beyond,
		       trace.steps - 1);
	}
	if (a.e->reference != NULL) {
		tbPrintParting("closed form", &closed, limit);
	} else {
		printf("%-12s none for this experiment\n", "closed form");
	}
	bool withEngine = engine.compared > 0 && !engine.parted;
	bool withClosed = closed.compared > 0 && !closed.parted;
	return withEngine || withClosed ? 0 : TB_EXIT_FAIL;
}
