// Narrow-phase benchmark: Tumble, libccd and Bullet on the same cases, speed and accuracy vs truth.
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include "bench_peer.h"
#include "query_file.h"

#include <tumble/tumble.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TB_BENCH_DATA_DIR
#define TB_BENCH_DATA_DIR "tests/data"
#endif

#define TB_PI 3.14159265358979323846

// Thresholds of docs/query-format.md, "Ground truth and accuracy", relative to the pair scale L.
#define TB_SD_TOLERANCE 1e-3  // |sd error| above this is a gross error
#define TB_BOOL_BAND 1e-6     // overlap answers count only where |sd truth| > this
#define TB_NORMAL_DEGREES 1.0 // normal error above this is counted...
#define TB_UNIQUE_GAP2 1e-3   // ...where the truth normal is unique (gap2 above this)

typedef struct tbTruth
{
	bool present;
	double sd;
	double normal[3];
	double gap2;
} tbTruth;

typedef struct tbBenchCase
{
	tbQueryCase q;
	tbTruth truth;
	double scale; // L
	tbPeerShape peers[2];
	double* peerPoints[2]; // hull vertices in double for the peers (owned)
#ifdef TB_HAVE_CCD
	tbCcdCase* ccd;
#endif
#ifdef TB_HAVE_BULLET
	tbBulletCase* bullet;
#endif
} tbBenchCase;

typedef void tbAnswerFcn(const tbBenchCase* c, tbPeerAnswer* answer);

typedef struct tbMethod
{
	const char* name;
	tbAnswerFcn* answer; // null when the peer is not built
	const char* missing; // why the peer is not built
	bool boolean;        // answers hit only
	int reference;       // index of the Tumble method its speed is compared with, or -1
	long long queries;   // timed so far
	double seconds;
	double queriesPerSecond;
} tbMethod;

static double tbNow(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// ---------------------------------------------------------------------------------------------
// Tumble methods: world poses in double -> relative pose -> local query -> world answer.

// The query options of each Tumble method, made once in main: the timed loop only queries.
static tbQueryDef s_gjkEpaDef, s_looseDef, s_uepaDef;

static void tbTumbleFull(const tbBenchCase* c, const tbQueryDef* def, tbPeerAnswer* answer)
{
	const tbQueryCase* q = &c->q;
	tbTransform bInA = tbRelativeTransformd(&q->a.xf, &q->b.xf);
	tbQueryResult r = tbQueryShapesLocal(&q->a.shape, &q->b.shape, bInA, def);
	// The witness points are mapped too, so that the timing covers what `tumble query` reports.
	tbTransformPointd(&q->a.xf, r.pointA, answer->pointA);
	tbTransformPointd(&q->a.xf, r.pointB, answer->pointB);
	tbRotateVectord(&q->a.xf, r.normal, answer->normal);
	answer->hit = r.status == tb_queryInvalidInput ? -1 : r.hit ? 1 : 0;
	answer->hasDistance = answer->hit >= 0;
	answer->sd = (double)r.distance;
}

static void tbTumbleGjkEpa(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbTumbleFull(c, &s_gjkEpaDef, answer);
}

// At Bullet's float accuracy (its GJK and EPA stop at 1e-4 in absolute units, about 1e-4 L
// here): the like-for-like speed comparison.
static void tbTumbleGjkEpaLoose(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbTumbleFull(c, &s_looseDef, answer);
}

static void tbTumbleUepa(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbTumbleFull(c, &s_uepaDef, answer);
}

static void tbTumbleOverlap(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbTransform bInA = tbRelativeTransformd(&c->q.a.xf, &c->q.b.xf);
	tbQueryStatus status = tb_queryConverged;
	bool hit = tbTestOverlapLocal(&c->q.a.shape, &c->q.b.shape, bInA, &status);
	answer->hit = status == tb_queryInvalidInput ? -1 : hit ? 1 : 0;
	answer->hasDistance = 0;
}

// ---------------------------------------------------------------------------------------------
// Peers

#ifdef TB_HAVE_CCD
static void tbCcdIntersectMethod(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbCcdGjkIntersect(c->ccd, answer);
}
static void tbCcdGjkMethod(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbCcdGjkPenetration(c->ccd, answer);
}
static void tbCcdMprMethod(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbCcdMprPenetration(c->ccd, answer);
}
#define TB_CCD(fcn) .answer = fcn
#else
#define TB_CCD(fcn) .missing = "libccd not found by pkg-config at configure time"
#endif

#ifdef TB_HAVE_BULLET
static void tbBulletDistanceMethod(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbBulletDistance(c->bullet, answer);
}
static void tbBulletSignedMethod(const tbBenchCase* c, tbPeerAnswer* answer)
{
	tbBulletSignedDistance(c->bullet, answer);
}
#define TB_BULLET(fcn) .answer = fcn
#else
#define TB_BULLET(fcn) .missing = "Bullet (or a C++ compiler) not found at configure time"
#endif

static tbPeerShapeType tbPeerType(const char* typeName)
{
	static const char* const names[] = {"sphere", "box",  "capsule", "cylinder",
	                                    "cone",   "hull", "triangle"};
	for (int i = 0; i < 7; ++i) {
		if (strcmp(names[i], typeName) == 0) {
			return (tbPeerShapeType)i;
		}
	}
	return tb_peerSphere;
}

// Peers get the same vertex set as Tumble (the hull's vertices) so that hulls cost them the same;
// when the hull has none (it failed), the points as read.
static void tbMakePeerShape(const tbQueryCaseShape* s, tbPeerShape* peer, double** owned)
{
	memset(peer, 0, sizeof *peer);
	peer->type = tbPeerType(s->typeName);
	memcpy(peer->params, s->params, sizeof peer->params);
	memcpy(peer->position, s->xf.p, sizeof peer->position);
	memcpy(peer->quaternion, s->xf.q, sizeof peer->quaternion);
	peer->points = s->points;
	peer->pointCount = s->pointCount;
	*owned = NULL;
	if (s->hull != NULL && s->hull->vertexCount > 0) {
		*owned = malloc(sizeof(double) * 3 * (size_t)s->hull->vertexCount);
		if (*owned != NULL) {
			for (int i = 0; i < s->hull->vertexCount; ++i) {
				(*owned)[3 * i + 0] = (double)s->hull->vertices[i].x;
				(*owned)[3 * i + 1] = (double)s->hull->vertices[i].y;
				(*owned)[3 * i + 2] = (double)s->hull->vertices[i].z;
			}
			peer->points = *owned;
			peer->pointCount = s->hull->vertexCount;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Input

static tbBenchCase* tbLoadCases(const char* path, int* count)
{
	FILE* file = fopen(path, "r");
	if (file == NULL) {
		fprintf(stderr, "narrow_bench: cannot open cases '%s'\n", path);
		return NULL;
	}
	tbBenchCase* cases = NULL;
	int capacity = 0;
	*count = 0;
	char* line = NULL;
	size_t lineCapacity = 0;
	int lineNumber = 0;
	char message[512];
	while (tbReadQueryLine(file, &line, &lineCapacity)) {
		++lineNumber;
		tbQueryCase q;
		bool idParsed;
		tbQueryLineStatus status =
		    tbParseQueryLine(line, lineNumber, &q, &idParsed, message, sizeof message);
		if (status == tb_queryLineError) {
			fprintf(stderr, "narrow_bench: %s: %s (case skipped)\n", path, message);
		}
		if (status != tb_queryLineCase) {
			continue;
		}
		if (*count == capacity) {
			capacity = capacity < 64 ? 64 : 2 * capacity;
			tbBenchCase* larger = realloc(cases, sizeof *cases * (size_t)capacity);
			if (larger == NULL) {
				fprintf(stderr, "narrow_bench: out of memory\n");
				exit(1);
			}
			cases = larger;
		}
		tbBenchCase* c = cases + (*count)++;
		memset(c, 0, sizeof *c);
		c->q = q;
		c->scale = tbQueryCaseScale(&q);
	}
	free(line);
	fclose(file);
	return cases;
}

static int tbCompareIds(const void* left, const void* right)
{
	long long a = ((const tbBenchCase*)left)->q.id, b = ((const tbBenchCase*)right)->q.id;
	return (a > b) - (a < b);
}

// Truth lines: <id> <sd> <n x3> <pA x3> <pB x3> <tol> <gap2> <wq> <method>.
static int tbLoadTruth(const char* path, tbBenchCase* cases, int count)
{
	FILE* file = fopen(path, "r");
	if (file == NULL) {
		fprintf(stderr, "narrow_bench: cannot open truth '%s'\n", path);
		return -1;
	}
	qsort(cases, (size_t)count, sizeof *cases, tbCompareIds);
	char* line = NULL;
	size_t capacity = 0;
	int matched = 0, lineNumber = 0;
	while (tbReadQueryLine(file, &line, &capacity)) {
		++lineNumber;
		char* s = line;
		while (*s == ' ' || *s == '\t') {
			++s;
		}
		if (*s == '\0' || *s == '#') {
			continue;
		}
		double v[13];
		char* end = s;
		int n = 0;
		for (; n < 13; ++n) {
			char* start = end;
			v[n] = strtod(start, &end);
			if (end == start) {
				break;
			}
		}
		if (n < 13) {
			fprintf(stderr, "narrow_bench: %s: line %d: expected 13 numbers, got %d\n", path,
			        lineNumber, n);
			continue;
		}
		tbBenchCase key;
		key.q.id = (long long)v[0];
		tbBenchCase* c = bsearch(&key, cases, (size_t)count, sizeof *cases, tbCompareIds);
		if (c == NULL) {
			continue;
		}
		c->truth.present = true;
		c->truth.sd = v[1];
		memcpy(c->truth.normal, v + 2, sizeof c->truth.normal);
		c->truth.gap2 = v[12];
		++matched;
	}
	free(line);
	fclose(file);
	return matched;
}

// ---------------------------------------------------------------------------------------------
// Accuracy

typedef struct tbAccuracy
{
	int sdCount;  // cases with a distance and a truth
	int sdBad;    // |sd - truth| > 1e-3 L
	double sdP99; // p99 of |sd - truth| / L
	double sdMax;
	int normalCount; // distances where the truth normal is unique
	int normalBad;   // > 1 degree (NaN or zero normals included)
	int boolCount;   // outside the 1e-6 L band
	int boolBad;     // wrong or failed overlap answers there
	int nanCount;
	int failCount;
} tbAccuracy;

static int tbCompareDoubles(const void* left, const void* right)
{
	double a = *(const double*)left, b = *(const double*)right;
	return (a > b) - (a < b);
}

static double tbAngleDegrees(const double n[3], const double t[3])
{
	double cx = n[1] * t[2] - n[2] * t[1];
	double cy = n[2] * t[0] - n[0] * t[2];
	double cz = n[0] * t[1] - n[1] * t[0];
	double dot = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
	double cross = sqrt(cx * cx + cy * cy + cz * cz);
	if (!(cross == cross) || !(dot == dot) || (cross == 0.0 && dot == 0.0)) {
		return 180.0;
	}
	return atan2(cross, dot) * 180.0 / TB_PI;
}

static tbAccuracy tbMeasureAccuracy(const tbMethod* method, const tbBenchCase* cases, int count,
                                    int listLimit)
{
	tbAccuracy acc;
	memset(&acc, 0, sizeof acc);
	double* errors = malloc(sizeof(double) * (size_t)(count > 0 ? count : 1));
	int listed = 0;
	for (int i = 0; i < count; ++i) {
		const tbBenchCase* c = cases + i;
		if (!c->truth.present) {
			continue;
		}
		tbPeerAnswer a;
		memset(&a, 0, sizeof a);
		method->answer(c, &a);
		double L = c->scale;
		const char* problem = NULL;
		double detail = 0.0;
		if (a.hit < 0) {
			acc.failCount += 1;
			problem = "failed";
		}
		if (fabs(c->truth.sd) > TB_BOOL_BAND * L) {
			acc.boolCount += 1;
			int expected = c->truth.sd < 0.0 ? 1 : 0;
			if (a.hit != expected) {
				acc.boolBad += 1;
				problem = problem != NULL ? problem : "overlap answer";
			}
		}
		if (a.hasDistance) {
			if (isnan(a.sd) || isnan(a.normal[0]) || isnan(a.normal[1]) || isnan(a.normal[2])) {
				acc.nanCount += 1;
				problem = "NaN";
			}
			double error = fabs(a.sd - c->truth.sd) / L;
			if (isnan(error)) {
				error = (double)INFINITY;
			}
			errors[acc.sdCount++] = error;
			acc.sdMax = fmax(acc.sdMax, error);
			if (error > TB_SD_TOLERANCE) {
				acc.sdBad += 1;
				problem = problem != NULL ? problem : "sd error / L";
				detail = error;
			}
			if (c->truth.gap2 > TB_UNIQUE_GAP2) {
				acc.normalCount += 1;
				double angle = tbAngleDegrees(a.normal, c->truth.normal);
				if (angle > TB_NORMAL_DEGREES) {
					acc.normalBad += 1;
					if (problem == NULL) {
						problem = "normal degrees";
						detail = angle;
					}
				}
			}
		}
		if (problem != NULL && listed < listLimit) {
			++listed;
			printf("    id %lld (%s %s-%s): %s %.3g  [sd %.9g truth %.9g, L %.3g]\n", c->q.id,
			       c->q.category, c->q.a.typeName, c->q.b.typeName, problem, detail, a.sd,
			       c->truth.sd, L);
		}
	}
	if (acc.sdCount > 0) {
		qsort(errors, (size_t)acc.sdCount, sizeof *errors, tbCompareDoubles);
		int k = (int)ceil(0.99 * acc.sdCount) - 1;
		acc.sdP99 = errors[k < 0 ? 0 : k];
	}
	free(errors);
	return acc;
}

// ---------------------------------------------------------------------------------------------
// Timing

// Run whole passes over the cases for at least `seconds`; adds to the method's totals.
static void tbMeasureSpeed(tbMethod* method, const tbBenchCase* cases, int count, double seconds)
{
	volatile double sink = 0.0;
	long long queries = 0;
	double start = tbNow(), elapsed = 0.0;
	do {
		double local = 0.0;
		for (int i = 0; i < count; ++i) {
			tbPeerAnswer a;
			method->answer(cases + i, &a);
			local += (double)a.hit + (a.hasDistance ? a.sd : 0.0);
		}
		sink = sink + local;
		queries += count;
		elapsed = tbNow() - start;
	} while (elapsed < seconds);
	method->queries += queries;
	method->seconds += elapsed;
}

static void tbUsage(FILE* out)
{
	fprintf(out,
	        "usage: narrow_bench [--time SECONDS] [--list N] [CASES [TRUTH]]\n"
	        "  Runs Tumble (gjk-epa, uepa, boolean), libccd and Bullet on the same cases in one\n"
	        "  process and prints queries/s, the ratio Tumble/peer and the accuracy against the\n"
	        "  truth. Defaults: %s/query_cases.txt and %s/query_truth.txt.\n"
	        "  --time S  minimum seconds per method (default 0.5)\n"
	        "  --list N  list up to N failing cases per method\n",
	        TB_BENCH_DATA_DIR, TB_BENCH_DATA_DIR);
}

int main(int argc, char** argv)
{
	const char* casesPath = TB_BENCH_DATA_DIR "/query_cases.txt";
	const char* truthPath = TB_BENCH_DATA_DIR "/query_truth.txt";
	double minSeconds = 0.5;
	int listLimit = 0;
	int positional = 0;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			tbUsage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
			minSeconds = strtod(argv[++i], NULL);
		} else if (strcmp(argv[i], "--list") == 0 && i + 1 < argc) {
			listLimit = atoi(argv[++i]);
		} else if (argv[i][0] == '-') {
			tbUsage(stderr);
			return 2;
		} else if (positional == 0) {
			casesPath = argv[i];
			truthPath = NULL; // a different case file needs its own truth
			++positional;
		} else if (positional == 1) {
			truthPath = argv[i];
			++positional;
		} else {
			tbUsage(stderr);
			return 2;
		}
	}

	int count = 0;
	tbBenchCase* cases = tbLoadCases(casesPath, &count);
	if (cases == NULL || count == 0) {
		fprintf(stderr, "narrow_bench: no cases in '%s'\n", casesPath);
		free(cases);
		return 1;
	}
	int matched = truthPath != NULL ? tbLoadTruth(truthPath, cases, count) : 0;

	// Set-up, not timed: peer shapes and their solver objects.
	for (int i = 0; i < count; ++i) {
		tbBenchCase* c = cases + i;
		tbMakePeerShape(&c->q.a, &c->peers[0], &c->peerPoints[0]);
		tbMakePeerShape(&c->q.b, &c->peers[1], &c->peerPoints[1]);
#ifdef TB_HAVE_CCD
		c->ccd = tbCcdCreateCase(&c->peers[0], &c->peers[1]);
#endif
#ifdef TB_HAVE_BULLET
		c->bullet = tbBulletCreateCase(&c->peers[0], &c->peers[1]);
#endif
	}

	s_gjkEpaDef = tbDefaultQueryDef();
	s_looseDef = s_gjkEpaDef;
	s_looseDef.tolerance = 1e-4f;
	s_uepaDef = s_gjkEpaDef;
	s_uepaDef.algorithm = tb_algorithmUnifiedEpa;
	tbMethod methods[] = {
	    {.name = "tumble gjk-epa", .answer = tbTumbleGjkEpa},
	    {.name = "tumble gjk-epa tol 1e-4", .answer = tbTumbleGjkEpaLoose},
	    {.name = "tumble uepa", .answer = tbTumbleUepa},
	    {.name = "tumble overlap", .answer = tbTumbleOverlap},
	    {.name = "libccd ccdGJKIntersect", TB_CCD(tbCcdIntersectMethod)},
	    {.name = "libccd ccdGJKPenetration", TB_CCD(tbCcdGjkMethod)},
	    {.name = "libccd ccdMPRPenetration", TB_CCD(tbCcdMprMethod)},
	    {.name = "bullet Distance", TB_BULLET(tbBulletDistanceMethod)},
	    {.name = "bullet SignedDistance", TB_BULLET(tbBulletSignedMethod)},
	};
	// Fill in what the peer macros leave out: kind and the Tumble method each is compared with.
	const bool booleanOf[] = {false, false, false, true, true, false, false, false, false};
	const int referenceOf[] = {-1, -1, -1, -1, 3, 0, 0, 0, 0};
	const int looseIndex = 1, bulletSignedIndex = 8;
	const int methodCount = (int)(sizeof methods / sizeof methods[0]);
	for (int m = 0; m < methodCount; ++m) {
		methods[m].boolean = booleanOf[m];
		methods[m].reference = referenceOf[m];
	}

	printf("narrow_bench: %d cases from %s, truth for %d (%s)\n", count, casesPath, matched,
	       truthPath != NULL ? truthPath : "none");
#ifdef TB_HAVE_BULLET
	printf(
	    "peers: libccd %s; Bullet %d.%02d (float, margins 0; sphere/capsule radius added back)\n",
#ifdef TB_HAVE_CCD
	    "yes (double)",
#else
	    "NOT BUILT",
#endif
	    tbBulletVersion() / 100, tbBulletVersion() % 100);
#else
	printf("peers: libccd %s; Bullet NOT BUILT\n",
#ifdef TB_HAVE_CCD
	       "yes (double)"
#else
	       "NOT BUILT"
#endif
	);
#endif
	printf(
	    "accuracy: L = radA + radB + |posA - posB|; sd>1e-3L counts gross depth/distance errors,\n"
	    "  n>1deg counts normals off by more than a degree where the truth normal is unique,\n"
	    "  bool counts wrong overlap answers where |sd truth| > 1e-6 L. Penetration-only and\n"
	    "  distance-only methods are judged on the cases they answer (column 'sd on').\n\n");

	// Methods take turns in short slices rather than one long run each, so that a change of machine
	// load during the run (other builds, frequency scaling) shifts all of them alike.
	const int rounds = 5;
	for (int round = 0; round < rounds; ++round) {
		for (int m = 0; m < methodCount; ++m) {
			if (methods[m].answer != NULL) {
				tbMeasureSpeed(methods + m, cases, count, minSeconds / rounds);
			}
		}
	}
	for (int m = 0; m < methodCount; ++m) {
		if (methods[m].answer != NULL) {
			methods[m].queriesPerSecond = (double)methods[m].queries / methods[m].seconds;
		}
	}

	printf("%-26s %12s %11s %6s %9s %9s %9s %9s %5s %5s\n", "method", "queries/s", "tumble/peer",
	       "sd on", "sd>1e-3L", "p99 sd/L", "max sd/L", "n>1deg", "bool", "nan");
	for (int m = 0; m < methodCount; ++m) {
		const tbMethod* method = methods + m;
		if (method->answer == NULL) {
			printf("%-26s not built: %s\n", method->name, method->missing);
			continue;
		}
		if (listLimit > 0) {
			printf("  %s failures:\n", method->name);
		}
		tbAccuracy acc = tbMeasureAccuracy(method, cases, count, listLimit);
		char ratio[32] = "-";
		if (method->reference >= 0 && methods[method->reference].queriesPerSecond > 0.0) {
			snprintf(ratio, sizeof ratio, "%.2fx",
			         methods[method->reference].queriesPerSecond / method->queriesPerSecond);
		}
		if (method->boolean) {
			printf("%-26s %12.0f %11s %6s %9s %9s %9s %9s %5d %5s\n", method->name,
			       method->queriesPerSecond, ratio, "-", "-", "-", "-", "-", acc.boolBad, "-");
		} else {
			char normals[32];
			snprintf(normals, sizeof normals, "%d/%d", acc.normalBad, acc.normalCount);
			printf("%-26s %12.0f %11s %6d %9d %9.2e %9.2e %9s %5d %5d\n", method->name,
			       method->queriesPerSecond, ratio, acc.sdCount, acc.sdBad, acc.sdP99, acc.sdMax,
			       normals, acc.boolBad, acc.nanCount);
		}
		if (acc.failCount > 0) {
			printf("%-26s (%d queries ended with a failure status)\n", "", acc.failCount);
		}
	}
	printf(
	    "\ntumble/peer: speed of tumble gjk-epa (full queries) or tumble overlap (boolean tests)\n"
	    "divided by the peer's; above 1 means Tumble is faster.\n");
	if (methods[bulletSignedIndex].answer != NULL &&
	    methods[bulletSignedIndex].queriesPerSecond > 0.0) {
		printf("at Bullet's accuracy (tolerance 1e-4): tumble gjk-epa tol 1e-4 / bullet "
		       "SignedDistance = %.2fx\n",
		       methods[looseIndex].queriesPerSecond / methods[bulletSignedIndex].queriesPerSecond);
	}

	for (int i = 0; i < count; ++i) {
#ifdef TB_HAVE_CCD
		tbCcdDestroyCase(cases[i].ccd);
#endif
#ifdef TB_HAVE_BULLET
		tbBulletDestroyCase(cases[i].bullet);
#endif
		free(cases[i].peerPoints[0]);
		free(cases[i].peerPoints[1]);
		tbFreeQueryCase(&cases[i].q);
	}
	free(cases);
	return 0;
}
