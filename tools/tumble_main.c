// The `tumble` command-line tool: a table of subcommands (`query` now; `run` and others later).
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include "json_write.h"
#include "lab.h"
#include "plot_command.h"
#include "query_file.h"
#include "run_command.h"

#include <tumble/tumble.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Exit statuses: 1 when some input could not be answered, 2 for usage errors and unreadable files.
#define TB_EXIT_BAD_INPUT 1
#define TB_EXIT_USAGE 2

#define TB_MESSAGE_SIZE 512

// A subcommand. To add one, write its run and help functions and append a row to s_commands.
typedef struct tbCommand
{
	const char* name;
	const char* summary;
	int (*run)(int argc, char** argv); // argv[0] is the subcommand's name
	void (*printHelp)(FILE* out);
} tbCommand;

// ---------------------------------------------------------------------------------------------
// tumble query

typedef struct tbQueryOptions
{
	const char* path; // "-" for stdin
	tbQueryDef def;
	bool overlapOnly;
	bool bench;
	bool trace;        // --trace: print one case's iterations as JSON lines
	long long traceId; // the case to trace
} tbQueryOptions;

// One answer in world coordinates (docs/query-format.md, Answers).
typedef struct tbCaseAnswer
{
	int hit; // 1, 0, or -1 when the query refused the input
	double sd;
	double normal[3];
	double pointA[3];
	double pointB[3];
} tbCaseAnswer;

static void tbQueryHelp(FILE* out)
{
	fprintf(
	    out,
	    "usage: tumble query [options] FILE|-\n"
	    "\n"
	    "Answer the narrow-phase cases of FILE (or stdin for -), one case per line:\n"
	    "  <id> <category> <shapeA> | <shapeB>\n"
	    "  <shape> = <type> <params...> pos px py pz quat qw qx qy qz\n"
	    "  types: sphere r | box hx hy hz | capsule r hh | cylinder r hh | cone r hh |\n"
	    "         hull n x1 y1 z1 ... xn yn zn | triangle x1 y1 z1 x2 y2 z2 x3 y3 z3\n"
	    "and write one line per case in world coordinates:\n"
	    "  <id> <hit> <sd> <nx> <ny> <nz> <pAx> <pAy> <pAz> <pBx> <pBy> <pBz>\n"
	    "sd is the signed distance (negative: minus the depth), n the unit normal from A to B,\n"
	    "pA and pB the witness points. A malformed line is reported on stderr with its line\n"
	    "number and field, answered with '<id> -1', and makes the exit status non-zero.\n"
	    "\n"
	    "options:\n"
	    "  --algo gjk-epa|uepa  algorithm of the full query (default gjk-epa)\n"
	    "  --tolerance T        convergence tolerance relative to the pair's size (default\n"
	    "                       1e-6, as tight as float allows; 1e-4 is Bullet's accuracy)\n"
	    "  --overlap-only       boolean test only; lines are '<id> <hit>'\n"
	    "  --bench              repeat the queries (single thread) for at least a second and\n"
	    "                       print queries per second per shape pair and in total\n"
	    "  --trace ID           answer only case ID and print its iterations as JSON lines,\n"
	    "                       one object per iteration (stage gjk|epa|uepa, iteration,\n"
	    "                       direction, support, simplex or polytope, distance; points of\n"
	    "                       A - B in A's local frame), then {\"result\": ...} in world.\n"
	    "                       GJK's iterations are numbered 1..gjkIterations; a record\n"
	    "                       with \"last\":true is the simplex it ended with. Spheres and\n"
	    "                       capsules are traced as their cores (a point, a segment):\n"
	    "                       coreRadiusA/B in the result are the radii added back\n"
	    "  -h, --help           this text\n");
}

static void tbPrintNumber(FILE* out, double value)
{
	// glibc prints "-nan" for some NaNs; docs/query-format.md asks for "nan".
	if (isnan(value)) {
		fputs(" nan", out);
	} else {
		fprintf(out, " %.9g", value);
	}
}

// The full query: relative pose in double (positions ~3, shapes ~1e-3), query in A's frame, then
// back to world in double so that the reported points keep their precision.
static tbCaseAnswer tbAnswerFull(const tbQueryCase* queryCase, const tbQueryDef* def)
{
	tbTransform bInA = tbRelativeTransformd(&queryCase->a.xf, &queryCase->b.xf);
	tbQueryResult result = tbQueryShapesLocal(&queryCase->a.shape, &queryCase->b.shape, bInA, def);
	tbCaseAnswer answer;
	answer.hit = result.status == tb_queryInvalidInput ? -1 : result.hit ? 1 : 0;
	answer.sd = (double)result.distance;
	tbRotateVectord(&queryCase->a.xf, result.normal, answer.normal);
	tbTransformPointd(&queryCase->a.xf, result.pointA, answer.pointA);
	tbTransformPointd(&queryCase->a.xf, result.pointB, answer.pointB);
	return answer;
}

static int tbAnswerOverlap(const tbQueryCase* queryCase)
{
	tbTransform bInA = tbRelativeTransformd(&queryCase->a.xf, &queryCase->b.xf);
	tbQueryStatus status = tb_queryConverged;
	bool hit = tbTestOverlapLocal(&queryCase->a.shape, &queryCase->b.shape, bInA, &status);
	return status == tb_queryInvalidInput ? -1 : hit ? 1 : 0;
}

// Significant digits of query answers and traces (float results, to the last bit).
#define TB_QUERY_DIGITS 9

static void tbJsonVec3s(FILE* out, vec3s v)
{
	double d[3] = {(double)v.x, (double)v.y, (double)v.z};
	tbJsonVec(out, d, TB_QUERY_DIGITS);
}

// The trace callback of --trace: one JSON object per iteration on stdout.
static void tbPrintTraceStep(const tbTraceStep* step, void* context)
{
	(void)context;
	static const char* const stages[] = {"gjk", "epa", "uepa"};
	printf("{\"stage\":\"%s\",\"iteration\":%d,\"direction\":",
	       step->stage <= tb_traceUnifiedEpa ? stages[step->stage] : "unknown", step->iteration);
	tbJsonVec3s(stdout, step->direction);
	fputs(",\"support\":", stdout);
	tbJsonVec3s(stdout, step->support);
	if (step->stage == tb_traceGjk) {
		fputs(",\"simplex\":[", stdout);
		for (int i = 0; i < step->simplexCount; ++i) {
			fputs(i > 0 ? "," : "", stdout);
			tbJsonVec3s(stdout, step->simplex[i]);
		}
		fputc(']', stdout);
	} else {
		fputs(",\"polytope\":{\"vertices\":[", stdout);
		for (int i = 0; i < step->vertexCount; ++i) {
			fputs(i > 0 ? "," : "", stdout);
			tbJsonVec3s(stdout, step->vertices[i]);
		}
		fputs("],\"triangles\":[", stdout);
		for (int t = 0; t < step->triangleCount; ++t) {
			const int* v = step->triangles + 3 * t;
			printf("%s[%d,%d,%d]", t > 0 ? "," : "", v[0], v[1], v[2]);
		}
		fputs("]}", stdout);
	}
	fputs(",\"distance\":", stdout);
	tbJsonNumber(stdout, (double)step->distance, TB_QUERY_DIGITS);
	// The record of the simplex GJK ended with, after that many iterations.
	fputs(step->last ? ",\"last\":true}\n" : "}\n", stdout);
}

// --trace: the iterations of one case, then its answer (world frame) as a last JSON line.
static bool tbWriteTrace(const tbQueryCase* queryCase, const tbQueryOptions* options)
{
	tbQueryDef def = options->def;
	def.traceFcn = tbPrintTraceStep;
	def.traceContext = NULL;
	tbTransform bInA = tbRelativeTransformd(&queryCase->a.xf, &queryCase->b.xf);
	tbQueryResult result = tbQueryShapesLocal(&queryCase->a.shape, &queryCase->b.shape, bInA, &def);
	tbCaseAnswer a = tbAnswerFull(queryCase, &options->def);
	printf("{\"result\":{\"id\":%lld,\"hit\":%s,\"distance\":", queryCase->id,
	       result.hit ? "true" : "false");
	tbJsonNumber(stdout, a.sd, TB_QUERY_DIGITS);
	fputs(",\"normal\":", stdout);
	tbJsonVec(stdout, a.normal, TB_QUERY_DIGITS);
	fputs(",\"pointA\":", stdout);
	tbJsonVec(stdout, a.pointA, TB_QUERY_DIGITS);
	fputs(",\"pointB\":", stdout);
	tbJsonVec(stdout, a.pointB, TB_QUERY_DIGITS);
	printf(",\"status\":\"%s\",\"gjkIterations\":%d,\"epaIterations\":%d",
	       tbQueryStatusName(result.status), result.gjkIterations, result.epaIterations);
	// A sphere or a capsule is traced as its core (a point, a segment): the trace's distances are
	// the cores', larger than the shapes' by coreRadiusA + coreRadiusB.
	fputs(",\"coreRadiusA\":", stdout);
	tbJsonNumber(stdout, (double)tbGeometry_CoreRadius(&queryCase->a.shape), TB_QUERY_DIGITS);
	fputs(",\"coreRadiusB\":", stdout);
	tbJsonNumber(stdout, (double)tbGeometry_CoreRadius(&queryCase->b.shape), TB_QUERY_DIGITS);
	fputs("}}\n", stdout);
	if (result.status == tb_queryInvalidInput) {
		fprintf(stderr, "tumble query: line %d: id %lld: the query rejected the shapes\n",
		        queryCase->lineNumber, queryCase->id);
		return false;
	}
	return true;
}

// Answer one case on stdout; false when the query refused it.
static bool tbWriteAnswer(const tbQueryCase* queryCase, const tbQueryOptions* options)
{
	int hit;
	if (options->overlapOnly) {
		hit = tbAnswerOverlap(queryCase);
		printf("%lld %d\n", queryCase->id, hit);
	} else {
		tbCaseAnswer a = tbAnswerFull(queryCase, &options->def);
		hit = a.hit;
		printf("%lld %d", queryCase->id, a.hit);
		if (a.hit >= 0) {
			tbPrintNumber(stdout, a.sd);
			for (int i = 0; i < 3; ++i) {
				tbPrintNumber(stdout, a.normal[i]);
			}
			for (int i = 0; i < 3; ++i) {
				tbPrintNumber(stdout, a.pointA[i]);
			}
			for (int i = 0; i < 3; ++i) {
				tbPrintNumber(stdout, a.pointB[i]);
			}
		}
		putchar('\n');
	}
	if (hit < 0) {
		fprintf(stderr, "tumble query: line %d: id %lld: the query rejected the shapes\n",
		        queryCase->lineNumber, queryCase->id);
		return false;
	}
	return true;
}

static double tbNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Shape types in a fixed order so that "box-cylinder" and "cylinder-box" are one pair.
static int tbTypeRank(const char* typeName)
{
	static const char* const order[] = {"sphere", "box",  "capsule", "cylinder",
	                                    "cone",   "hull", "triangle"};
	for (int i = 0; i < (int)(sizeof order / sizeof order[0]); ++i) {
		if (strcmp(order[i], typeName) == 0) {
			return i;
		}
	}
	return (int)(sizeof order / sizeof order[0]);
}

typedef struct tbBenchGroup
{
	char name[32];
	int first, count; // cases [first, first + count) of the sorted array
	double seconds;
	long long queries;
} tbBenchGroup;

static void tbPairName(const tbQueryCase* queryCase, char* out, size_t outSize)
{
	const char* a = queryCase->a.typeName;
	const char* b = queryCase->b.typeName;
	if (tbTypeRank(b) < tbTypeRank(a)) {
		const char* t = a;
		a = b;
		b = t;
	}
	snprintf(out, outSize, "%s-%s", a, b);
}

static int tbCompareCasesByPair(const void* left, const void* right)
{
	char a[32], b[32];
	tbPairName(left, a, sizeof a);
	tbPairName(right, b, sizeof b);
	int c = strcmp(a, b);
	if (c != 0) {
		return c;
	}
	int la = ((const tbQueryCase*)left)->lineNumber, lb = ((const tbQueryCase*)right)->lineNumber;
	return (la > lb) - (la < lb);
}

// Repeat all cases, grouped by shape pair and timed per group, until a second has passed.
static void tbRunBench(tbQueryCase* cases, int caseCount, const tbQueryOptions* options)
{
	if (caseCount == 0) {
		printf("total: 0 queries/s\n");
		return;
	}
	qsort(cases, (size_t)caseCount, sizeof *cases, tbCompareCasesByPair);
	tbBenchGroup* groups = calloc((size_t)caseCount, sizeof *groups);
	if (groups == NULL) {
		fprintf(stderr, "tumble query: out of memory\n");
		return;
	}
	int groupCount = 0;
	for (int i = 0; i < caseCount; ++i) {
		char name[32];
		tbPairName(cases + i, name, sizeof name);
		if (groupCount == 0 || strcmp(groups[groupCount - 1].name, name) != 0) {
			tbBenchGroup* g = groups + groupCount++;
			snprintf(g->name, sizeof g->name, "%s", name);
			g->first = i;
		}
		groups[groupCount - 1].count += 1;
	}

	// The sink keeps the compiler from dropping queries whose results would be unused.
	volatile double sink = 0.0;
	double totalSeconds = 0.0;
	long long totalQueries = 0;
	while (totalSeconds < 1.0) {
		for (int g = 0; g < groupCount; ++g) {
			tbBenchGroup* group = groups + g;
			const tbQueryCase* begin = cases + group->first;
			double local = 0.0;
			double start = tbNow();
			if (options->overlapOnly) {
				for (int i = 0; i < group->count; ++i) {
					local += (double)tbAnswerOverlap(begin + i);
				}
			} else {
				for (int i = 0; i < group->count; ++i) {
					local += tbAnswerFull(begin + i, &options->def).sd;
				}
			}
			double seconds = tbNow() - start;
			sink = sink + local;
			group->seconds += seconds;
			group->queries += group->count;
			totalSeconds += seconds;
			totalQueries += group->count;
		}
	}
	for (int g = 0; g < groupCount; ++g) {
		printf("%s: %.0f queries/s\n", groups[g].name,
		       (double)groups[g].queries / groups[g].seconds);
	}
	printf("total: %.0f queries/s\n", (double)totalQueries / totalSeconds);
	free(groups);
}

static int tbParseQueryOptions(int argc, char** argv, tbQueryOptions* options)
{
	options->path = NULL;
	options->def = tbDefaultQueryDef();
	options->overlapOnly = false;
	options->bench = false;
	options->trace = false;
	options->traceId = 0;
	bool endOfOptions = false;
	for (int i = 1; i < argc; ++i) {
		const char* arg = argv[i];
		if (!endOfOptions && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
			tbQueryHelp(stdout);
			return -1;
		} else if (!endOfOptions && strcmp(arg, "--") == 0) {
			endOfOptions = true;
		} else if (!endOfOptions && strncmp(arg, "--algo", 6) == 0 &&
		           (arg[6] == '\0' || arg[6] == '=')) {
			const char* value = arg[6] == '=' ? arg + 7 : (i + 1 < argc ? argv[++i] : NULL);
			if (value != NULL && strcmp(value, "gjk-epa") == 0) {
				options->def.algorithm = tb_algorithmGjkEpa;
			} else if (value != NULL && strcmp(value, "uepa") == 0) {
				options->def.algorithm = tb_algorithmUnifiedEpa;
			} else {
				fprintf(stderr, "tumble query: --algo: expected gjk-epa or uepa, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (!endOfOptions && strcmp(arg, "--tolerance") == 0) {
			const char* value = i + 1 < argc ? argv[++i] : NULL;
			char* end = NULL;
			double tolerance = value != NULL ? strtod(value, &end) : 0.0;
			if (value == NULL || end == value || *end != '\0' || !(tolerance >= 1e-7) ||
			    !(tolerance <= 1e-2)) {
				fprintf(
				    stderr,
				    "tumble query: --tolerance: expected a number from 1e-7 to 1e-2, got '%s'\n",
				    value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
			options->def.tolerance = (float)tolerance;
		} else if (!endOfOptions && strcmp(arg, "--overlap-only") == 0) {
			options->overlapOnly = true;
		} else if (!endOfOptions && strcmp(arg, "--bench") == 0) {
			options->bench = true;
		} else if (!endOfOptions && strcmp(arg, "--trace") == 0) {
			const char* value = i + 1 < argc ? argv[++i] : NULL;
			char* end = NULL;
			options->traceId = value != NULL ? strtoll(value, &end, 10) : 0;
			if (value == NULL || end == value || *end != '\0') {
				fprintf(stderr, "tumble query: --trace: expected a case id, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
			options->trace = true;
		} else if (!endOfOptions && arg[0] == '-' && arg[1] != '\0') {
			fprintf(stderr, "tumble query: unknown option '%s' (see tumble query --help)\n", arg);
			return TB_EXIT_USAGE;
		} else if (options->path == NULL) {
			options->path = arg;
		} else {
			fprintf(stderr, "tumble query: one input file only, got '%s' and '%s'\n", options->path,
			        arg);
			return TB_EXIT_USAGE;
		}
	}
	if (options->path == NULL) {
		fprintf(stderr, "tumble query: missing FILE (use - for stdin; see tumble query --help)\n");
		return TB_EXIT_USAGE;
	}
	if (options->trace && (options->bench || options->overlapOnly)) {
		fprintf(stderr, "tumble query: --trace goes with neither --bench nor --overlap-only\n");
		return TB_EXIT_USAGE;
	}
	return 0;
}

static int tbRunQuery(int argc, char** argv)
{
	tbQueryOptions options;
	int status = tbParseQueryOptions(argc, argv, &options);
	if (status != 0) {
		return status < 0 ? 0 : status;
	}
	bool fromStdin = strcmp(options.path, "-") == 0;
	FILE* file = fromStdin ? stdin : fopen(options.path, "r");
	if (file == NULL) {
		fprintf(stderr, "tumble query: cannot open '%s'\n", options.path);
		return TB_EXIT_USAGE;
	}

	bool allGood = true;
	char* line = NULL;
	size_t capacity = 0;
	int lineNumber = 0;
	// Bench mode keeps the cases: parsing and shape set-up are not timed.
	tbQueryCase* cases = NULL;
	int caseCount = 0, caseCapacity = 0;
	bool traced = false;
	char message[TB_MESSAGE_SIZE];
	while (tbReadQueryLine(file, &line, &capacity)) {
		++lineNumber;
		tbQueryCase queryCase;
		bool idParsed = false;
		tbQueryLineStatus lineStatus =
		    tbParseQueryLine(line, lineNumber, &queryCase, &idParsed, message, sizeof message);
		if (lineStatus == tb_queryLineSkip) {
			continue;
		}
		if (options.trace && (!idParsed || queryCase.id != options.traceId)) {
			// Other cases are not answered; a bad line elsewhere is not this trace's business.
			if (lineStatus == tb_queryLineCase) {
				tbFreeQueryCase(&queryCase);
			}
			continue;
		}
		if (lineStatus == tb_queryLineError) {
			fprintf(stderr, "tumble query: %s\n", message);
			if (idParsed && !options.bench && !options.trace) {
				printf("%lld -1\n", queryCase.id);
			}
			allGood = false;
			continue;
		}
		if (options.trace) {
			allGood = tbWriteTrace(&queryCase, &options) && allGood;
			traced = true;
			tbFreeQueryCase(&queryCase);
			break; // ids are unique: the first match is the case
		}
		if (!options.bench) {
			allGood = tbWriteAnswer(&queryCase, &options) && allGood;
			tbFreeQueryCase(&queryCase);
			continue;
		}
		if (caseCount == caseCapacity) {
			int grown = caseCapacity < 64 ? 64 : 2 * caseCapacity;
			tbQueryCase* larger = realloc(cases, sizeof *cases * (size_t)grown);
			if (larger == NULL) {
				fprintf(stderr, "tumble query: out of memory at line %d\n", lineNumber);
				tbFreeQueryCase(&queryCase);
				allGood = false;
				break;
			}
			cases = larger;
			caseCapacity = grown;
		}
		cases[caseCount++] = queryCase;
	}
	if (ferror(file)) {
		fprintf(stderr, "tumble query: read error in '%s' after line %d\n", options.path,
		        lineNumber);
		allGood = false;
	}
	free(line);
	if (!fromStdin) {
		fclose(file);
	}
	if (options.trace && !traced) {
		fprintf(stderr, "tumble query: --trace: no case with id %lld in '%s'\n", options.traceId,
		        options.path);
		allGood = false;
	}
	if (options.bench) {
		tbRunBench(cases, caseCount, &options);
		for (int i = 0; i < caseCount; ++i) {
			tbFreeQueryCase(cases + i);
		}
		free(cases);
	}
	fflush(stdout);
	return allGood ? 0 : TB_EXIT_BAD_INPUT;
}

// ---------------------------------------------------------------------------------------------
// The command table and the top level

static const tbCommand s_commands[] = {
    {"query", "answer narrow-phase query cases (distance, depth, normal, witness points)",
     tbRunQuery, tbQueryHelp},
    {"run", "simulate a scene file headless: summary, trajectories as CSV", tbRunSceneCommand,
     tbRunSceneHelp},
    {"scenes", "list the bundled scenes", tbListScenesCommand, tbListScenesHelp},
#ifdef TB_HAVE_PLOT
    {"plot", "draw a scene's energy and momentum over time into a PNG", tbPlotCommand, tbPlotHelp},
    {"lab", "mechanics-course experiments against their closed forms", tbLabCommand, tbLabHelp},
    {"check", "a trajectory CSV against a lab's engine run and closed form", tbCheckCommand,
     tbCheckHelp},
#endif
};

static const int s_commandCount = (int)(sizeof s_commands / sizeof s_commands[0]);

static const tbCommand* tbFindCommand(const char* name)
{
	for (int i = 0; i < s_commandCount; ++i) {
		if (strcmp(s_commands[i].name, name) == 0) {
			return s_commands + i;
		}
	}
	return NULL;
}

static void tbMainHelp(FILE* out)
{
	fprintf(out, "usage: tumble <command> [options] [args]\n\ncommands:\n");
	for (int i = 0; i < s_commandCount; ++i) {
		fprintf(out, "  %-10s %s\n", s_commands[i].name, s_commands[i].summary);
	}
	fprintf(out, "\n"
	             "  tumble <command> --help   help on one command\n"
	             "  tumble --version          print the version\n");
}

int main(int argc, char** argv)
{
	if (argc < 2) {
		tbMainHelp(stderr);
		return TB_EXIT_USAGE;
	}
	const char* name = argv[1];
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
		tbMainHelp(stdout);
		return 0;
	}
	if (strcmp(name, "--version") == 0) {
		printf("tumble %s\n", tbVersionString());
		return 0;
	}
	if (strcmp(name, "help") == 0) {
		const tbCommand* command = argc > 2 ? tbFindCommand(argv[2]) : NULL;
		if (command != NULL) {
			command->printHelp(stdout);
		} else {
			tbMainHelp(stdout);
		}
		return 0;
	}
	const tbCommand* command = tbFindCommand(name);
	if (command == NULL) {
		fprintf(stderr, "tumble: unknown command '%s'\n\n", name);
		tbMainHelp(stderr);
		return TB_EXIT_USAGE;
	}
	return command->run(argc - 1, argv + 1);
}
