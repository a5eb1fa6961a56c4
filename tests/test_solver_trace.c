// The solver trace on a stack of ten 0.5 m boxes: the residual (the largest |speed error| over
// the stack's contacts) falls over the biased iterations of the substep where the column lands, in
// the API's trace rows and in the JSON lines of `tumble run --trace-solver`; at rest it is the
// soft bias, the soft row's fixed point, and the impulse update falls instead. The contact solver
// debugger's recording (demos/solver_record.c) holds one row per pass of the step, the count the
// solver's loop gives: substeps x (warm start + iterations + relax iterations) + restitution.
#include "../demos/solver_record.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tumble/tumble.h>

#define BOXES 10
#define SUBSTEPS 4
#define ITERATIONS 8
#define RELAX 1
static const float kDt = 1.0f / 60.0f;

// A column of ten 0.5 m cubes over a ground box whose top is y = 0, `gap` apart (0: resting).
static tbWorldId makeStack(int iterations, float gap, tbBodyId* boxes)
{
	tbWorldDef wd = tbDefaultWorldDef();
	wd.iterations = iterations;
	wd.relaxIterations = RELAX;
	wd.enableSleep = false;
	tbWorldId world = tbCreateWorld(&wd);
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry slab = tbMakeBox(20.0f, 0.5f, 20.0f);
	tbCreateShape(ground, &sd, &slab);
	tbGeometry cube = tbMakeBox(0.25f, 0.25f, 0.25f);
	for (int i = 0; i < BOXES; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = (vec3s){{0.0f, 0.25f + (0.5f + gap) * (float)i, 0.0f}};
		boxes[i] = tbCreateBody(world, &bd);
		tbCreateShape(boxes[i], &sd, &cube);
	}
	return world;
}

// Per substep and push iteration over the stack's contacts: the largest |speed error| (the
// residual), the largest |speed error - bias| (the normal speed J v), and the largest change of
// a point's normal impulse in that sweep (the Gauss-Seidel update).
typedef struct Residuals
{
	float push[SUBSTEPS][ITERATIONS];
	float speed[SUBSTEPS][ITERATIONS];
	float update[SUBSTEPS][ITERATIONS];
	int rows[SUBSTEPS][ITERATIONS];
	float last[256][4]; // each contact's impulses after its previous pass, by shape indices
} Residuals;

static void keepResidual(const tbContactTrace* row, void* context)
{
	Residuals* r = context;
	int key = (int)(row->shapeA.index1 % 16u) * 16 + (int)(row->shapeB.index1 % 16u);
	float update = 0.0f, speed = 0.0f;
	for (int i = 0; i < row->pointCount; ++i) {
		update = fmaxf(update, fabsf(row->normalImpulse[i] - r->last[key][i]));
		speed = fmaxf(speed, fabsf(row->speedError[i] - row->bias[i]));
		r->last[key][i] = row->normalImpulse[i];
	}
	int s = row->substep, it = row->iteration;
	if (row->pass != tb_tracePush || s < 0 || s >= SUBSTEPS || it < 0 || it >= ITERATIONS) {
		return;
	}
	r->push[s][it] = fmaxf(r->push[s][it], dmSolverRow_Residual(row));
	r->speed[s][it] = fmaxf(r->speed[s][it], speed);
	r->update[s][it] = fmaxf(r->update[s][it], update);
	r->rows[s][it] += 1;
}

static void traceStep(tbWorldId world, Residuals* r)
{
	memset(r, 0, sizeof *r);
	tbWorld_SetSolverTrace(world, keepResidual, r);
	cr_assert(tbWorld_Step(world, kDt, SUBSTEPS));
	tbWorld_SetSolverTrace(world, NULL, NULL);
}

// The column dropped from 1 cm gaps: in the substep where the boxes land on each other the
// residual is the impact speed, and the eight biased sweeps take most of it out.
Test(solver_trace, residual_falls_over_the_push_iterations)
{
	tbBodyId boxes[BOXES];
	tbWorldId world = makeStack(ITERATIONS, 0.01f, boxes);
	int landing = -1;
	Residuals r;
	for (int step = 0; step < 60 && landing < 0; ++step) {
		traceStep(world, &r);
		for (int s = 0; s < SUBSTEPS && landing < 0; ++s) {
			// An impact: a first sweep's residual of a tenth of a metre per second or more.
			if (r.rows[s][0] == BOXES && r.push[s][0] > 0.1f) {
				landing = s;
			}
		}
	}
	cr_assert(landing >= 0, "the column never landed with all its contacts");
	float first = r.push[landing][0], last = r.push[landing][ITERATIONS - 1];
	cr_log_info("landing substep %d: residual %.3g m/s after the first push, %.3g after the last",
	            landing, (double)first, (double)last);
	cr_assert(last < 0.1f * first, "residual %g -> %g", (double)first, (double)last);
	for (int i = 0; i < ITERATIONS; ++i) {
		cr_assert(isfinite(r.push[landing][i]));
	}
	tbDestroyWorld(world);
}

// The column at rest: each row's speed error is its soft bias (the resting boxes do not move
// along the normal, J v = 0), a fixed point of the soft row that is not zero, and what falls
// over the sweeps is the impulse update, as Gauss-Seidel converges up the column.
Test(solver_trace, resting_residual_is_the_bias)
{
	tbBodyId boxes[BOXES];
	tbWorldId world = makeStack(ITERATIONS, 0.0f, boxes);
	for (int s = 0; s < 60; ++s) {
		cr_assert(tbWorld_Step(world, kDt, SUBSTEPS));
	}
	Residuals r;
	traceStep(world, &r);
	for (int s = 0; s < SUBSTEPS; ++s) {
		// One row per contact per pass: the ten boxes touch the ground and each other.
		cr_assert_eq(r.rows[s][0], BOXES, "substep %d: %d contacts traced", s, r.rows[s][0]);
		float first = r.update[s][0], last = r.update[s][ITERATIONS - 1];
		cr_log_info("resting substep %d: residual %.3g m/s, normal speed %.3g m/s, impulse "
		            "update %.3g -> %.3g N s",
		            s, (double)r.push[s][ITERATIONS - 1], (double)r.speed[s][ITERATIONS - 1],
		            (double)first, (double)last);
		cr_assert(r.push[s][ITERATIONS - 1] > 0.0f);
		cr_assert(r.speed[s][ITERATIONS - 1] < 0.05f * r.push[s][ITERATIONS - 1]);
		cr_assert(last < 0.25f * first, "substep %d: update %g -> %g", s, (double)first,
		          (double)last);
	}
	tbDestroyWorld(world);
}

// The contact solver debugger's recording of the bottom box on the ground: one row per pass, the
// world where it was before the step, and the rows' impulses those the next real step makes.
Test(solver_trace, debugger_records_every_pass_and_restores)
{
	tbBodyId boxes[BOXES];
	tbWorldId world = makeStack(ITERATIONS, 0.0f, boxes);
	for (int s = 0; s < 30; ++s) {
		cr_assert(tbWorld_Step(world, kDt, SUBSTEPS));
	}
	tbContactData contacts[32];
	int n = tbWorld_GetContactData(world, contacts, 32);
	cr_assert_eq(n, BOXES);
	int bottom = dmMostLoadedContact(contacts, n);
	cr_assert(bottom >= 0);
	// The most loaded contact carries the whole column: the ground's.
	tbBodyId a = tbShape_GetBody(contacts[bottom].shapeIdA);
	tbBodyId b = tbShape_GetBody(contacts[bottom].shapeIdB);
	cr_assert(TB_ID_EQUALS(a, boxes[0]) || TB_ID_EQUALS(b, boxes[0]));

	uint64_t before = tbWorld_GetStateHash(world);
	dmSolverRecord record;
	memset(&record, 0, sizeof record);
	cr_assert(dmSolverRecord_Capture(&record, world, contacts[bottom].shapeIdA,
	                                 contacts[bottom].shapeIdB, kDt, SUBSTEPS));
	cr_assert_eq(tbWorld_GetStateHash(world), before, "the capture left the world changed");
	int passes = SUBSTEPS * (1 + ITERATIONS + RELAX) + 1;
	cr_assert_eq(record.count, passes, "%d rows, %d passes", record.count, passes);
	cr_assert_eq(record.rows[0].pass, tb_traceWarmStart);
	cr_assert_eq(record.rows[1].pass, tb_tracePush);
	cr_assert_eq(record.rows[1 + ITERATIONS].pass, tb_traceRelax);
	cr_assert_eq(record.rows[passes - 1].pass, tb_traceRestitution);
	cr_assert_eq(dmSolverRecord_NextSubstep(&record, 0), 2 + ITERATIONS);
	cr_assert_eq(dmSolverRecord_WarmStartOf(&record, 5), 0);
	cr_assert_eq(dmSolverRecord_WarmStartOf(&record, 2 + ITERATIONS + 3), 2 + ITERATIONS);
	cr_assert_float_eq(record.friction, 0.6f, 1e-6f); // sqrt(0.6 * 0.6), the default friction

	// Each substep's relax pass leaves the impulses the substep applied; over the step they carry
	// the column's weight, m g dt (ten boxes of 125 kg): the contact data sums the substeps.
	float weight = 0.0f;
	for (int k = 0; k < record.count; ++k) {
		if (record.rows[k].pass == tb_traceRelax) {
			weight += dmSolverRow_TotalNormal(record.rows + k);
		}
	}
	float expected = (float)BOXES * 1000.0f * 0.125f * 9.81f * kDt;
	cr_log_info("ground contact: %d rows; relax impulses sum to %.4g N s, m g dt %.4g N s",
	            record.count, (double)weight, (double)expected);
	cr_assert(fabsf(weight - expected) < 0.05f * expected, "%g against %g", (double)weight,
	          (double)expected);

	// The same step taken for real gives the impulses the recording ended with.
	cr_assert(tbWorld_Step(world, kDt, SUBSTEPS));
	n = tbWorld_GetContactData(world, contacts, 32);
	float real = 0.0f;
	for (int i = 0; i < n; ++i) {
		if (TB_ID_EQUALS(contacts[i].shapeIdA, record.shapeA) &&
		    TB_ID_EQUALS(contacts[i].shapeIdB, record.shapeB)) {
			for (int p = 0; p < contacts[i].manifold.pointCount; ++p) {
				real += contacts[i].normalImpulses[p];
			}
		}
	}
	// The restitution pass adds what it changed on top of the last substep's impulses.
	float recorded = weight + dmSolverRow_TotalNormal(record.rows + passes - 1) -
	                 dmSolverRow_TotalNormal(record.rows + passes - 2);
	cr_assert(fabsf(real - recorded) < 1e-3f * real, "the real step %g, recorded %g", (double)real,
	          (double)recorded);
	dmSolverRecord_Free(&record);
	tbDestroyWorld(world);
}

#ifdef TB_TUMBLE
// The same column as a scene file for `tumble run` (scene files keep the default two push
// iterations), dropped from 1 cm gaps.
static void writeStackScene(const char* path)
{
	FILE* f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fprintf(f,
	        "{\"dt\": 0.0166666667, \"substeps\": %d, \"sleep\": false, \"bodies\": [\n"
	        " {\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0],\n"
	        "  \"shape\": {\"type\": \"box\", \"half_extents\": [20, 0.5, 20]}}",
	        SUBSTEPS);
	for (int i = 0; i < BOXES; ++i) {
		fprintf(f,
		        ",\n {\"name\": \"box%d\", \"position\": [0, %.4f, 0],\n"
		        "  \"shape\": {\"type\": \"box\", \"half_extents\": [0.25, 0.25, 0.25]}}",
		        i, 0.25 + 0.51 * i);
	}
	fprintf(f, "\n]}\n");
	cr_assert_eq(fclose(f), 0);
}

// A JSON line's number after `key` (its first element when an array), or NAN.
static double jsonNumber(const char* line, const char* key)
{
	const char* at = strstr(line, key);
	if (at == NULL) {
		return NAN;
	}
	at += strlen(key);
	while (*at == ' ' || *at == ':' || *at == '[') {
		++at;
	}
	return strtod(at, NULL);
}

// `tumble run --trace-solver`: the largest |residual| of each step's substep and push iteration
// over every contact, read back from the JSON lines; where the boxes land on each other the second
// push sweep leaves less than the first.
Test(solver_trace, tumble_run_json_lines_show_the_fall)
{
	const char* scene = TB_TEST_OUT_DIR "/solver_trace_stack.json";
	const char* trace = TB_TEST_OUT_DIR "/solver_trace_stack.jsonl";
	writeStackScene(scene);
	char command[2048];
	snprintf(command, sizeof command, "%s run %s --steps 30 --trace-solver %s > /dev/null",
	         TB_TUMBLE, scene, trace);
	cr_assert_eq(system(command), 0, "%s", command);
	FILE* f = fopen(trace, "r");
	cr_assert_not_null(f, "%s", trace);
	static float push[31][SUBSTEPS][2];
	static int rows[31][SUBSTEPS];
	memset(push, 0, sizeof push);
	memset(rows, 0, sizeof rows);
	char line[2048];
	int lines = 0;
	while (fgets(line, sizeof line, f) != NULL && lines < 1000000) {
		++lines;
		if (strstr(line, "\"pass\": \"push\"") == NULL) {
			continue;
		}
		int step = (int)jsonNumber(line, "\"step\""), s = (int)jsonNumber(line, "\"substep\"");
		int it = (int)jsonNumber(line, "\"iteration\""), n = (int)jsonNumber(line, "\"points\"");
		cr_assert(step >= 1 && step <= 30 && s >= 0 && s < SUBSTEPS && it >= 0 && it < 2, "%s",
		          line);
		const char* residual = strstr(line, "\"residual\": [");
		cr_assert_not_null(residual, "%s", line);
		residual += strlen("\"residual\": [");
		for (int i = 0; i < n; ++i) {
			char* end = NULL;
			float e = fabsf(strtof(residual, &end));
			cr_assert(end != residual, "%s", line);
			push[step][s][it] = fmaxf(push[step][s][it], e);
			residual = end + (*end == ',' ? 1 : 0);
		}
		rows[step][s] += it == 0 ? 1 : 0;
	}
	fclose(f);
	cr_assert(lines > 0);
	// Over the impacts (a first sweep's residual of a tenth of a metre per second or more, every
	// box on the column), the second sweep leaves less in total, and much less at the hardest.
	double firstSum = 0.0, secondSum = 0.0;
	int worstStep = 0, worstSub = 0;
	for (int step = 1; step <= 30; ++step) {
		for (int s = 0; s < SUBSTEPS; ++s) {
			if (rows[step][s] != BOXES || push[step][s][0] <= 0.1f) {
				continue;
			}
			firstSum += (double)push[step][s][0];
			secondSum += (double)push[step][s][1];
			if (push[step][s][0] > push[worstStep][worstSub][0]) {
				worstStep = step, worstSub = s;
			}
		}
	}
	float first = push[worstStep][worstSub][0], second = push[worstStep][worstSub][1];
	cr_log_info("tumble run: hardest impact at step %d substep %d, residual %.3g -> %.3g m/s; "
	            "over the impacts %.3g -> %.3g",
	            worstStep, worstSub, (double)first, (double)second, firstSum, secondSum);
	cr_assert(worstStep > 0, "the column never landed with all its contacts");
	cr_assert(second < 0.5f * first, "%g -> %g", (double)first, (double)second);
	cr_assert(secondSum < 0.75 * firstSum, "%g -> %g", firstSum, secondSum);
}
#endif
