// Tests of the query-file parser: good lines round trip, bad lines name their line and field.
#include "query_file.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESSAGE_SIZE 512

static const char* const s_goodLine =
    "17 deep box 0.5 0.25 1.5 pos 1 2 3 quat 2 0 0 0 | "
    "hull 4 0 0 0 1 0 0 0 1 0 0 0 1 pos -1 0.5 2 quat 0.5 0.5 0.5 0.5";

// Parse `line` expecting an error; return the message.
static const char* parseError(const char* line, int lineNumber, bool* idParsed, long long* id)
{
	static char message[MESSAGE_SIZE];
	tbQueryCase c;
	bool parsed = false;
	tbQueryLineStatus status =
	    tbParseQueryLine(line, lineNumber, &c, &parsed, message, MESSAGE_SIZE);
	cr_assert_eq(status, tb_queryLineError, "expected an error for: %s", line);
	cr_assert_null(c.a.hull);
	cr_assert_null(c.b.hull);
	cr_assert_null(c.a.points);
	cr_assert_null(c.b.points);
	if (idParsed != NULL) {
		*idParsed = parsed;
	}
	if (id != NULL) {
		*id = c.id;
	}
	return message;
}

#define assert_contains(haystack, needle)                                                          \
	cr_assert(strstr((haystack), (needle)) != NULL, "'%s' does not contain '%s'", (haystack),      \
	          (needle))

Test(query_file, good_line_round_trip)
{
	tbQueryCase c;
	bool idParsed = false;
	char message[MESSAGE_SIZE];
	cr_assert_eq(tbParseQueryLine(s_goodLine, 3, &c, &idParsed, message, MESSAGE_SIZE),
	             tb_queryLineCase, "%s", message);
	cr_assert(idParsed);
	cr_assert_eq(c.id, 17);
	cr_assert_eq(c.lineNumber, 3);
	cr_assert_str_eq(c.category, "deep");
	cr_assert_str_eq(c.a.typeName, "box");
	cr_assert_eq(c.a.params[0], 0.5);
	cr_assert_eq(c.a.params[1], 0.25);
	cr_assert_eq(c.a.params[2], 1.5);
	cr_assert_eq(c.a.xf.p[0], 1.0);
	cr_assert_eq(c.a.xf.p[2], 3.0);
	// The quaternion is normalised on read: (2, 0, 0, 0) becomes the identity, w first.
	cr_assert_eq(c.a.xf.q[0], 1.0);
	cr_assert_eq(c.a.xf.q[1], 0.0);
	cr_assert_float_eq(c.a.boundingRadius, sqrt(0.25 + 0.0625 + 2.25), 1e-15);
	cr_assert_null(c.a.hull);

	cr_assert_str_eq(c.b.typeName, "hull");
	cr_assert_eq(c.b.pointCount, 4);
	cr_assert_eq(c.b.points[3], 1.0);
	cr_assert_eq(c.b.points[11], 1.0);
	cr_assert_not_null(c.b.hull);
	cr_assert_eq(c.b.shape.hull, c.b.hull);
	cr_assert_eq(c.b.xf.p[0], -1.0);
	cr_assert_eq(c.b.xf.q[0], 0.5);
	cr_assert_eq(c.b.xf.q[3], 0.5);
	cr_assert_float_eq(c.b.boundingRadius, 1.0, 1e-15);
	cr_assert_float_eq(tbQueryCaseScale(&c), sqrt(2.5625) + 1.0 + sqrt(4.0 + 2.25 + 1.0), 1e-12);
	tbFreeQueryCase(&c);
	cr_assert_null(c.b.hull);
}

Test(query_file, every_shape_type)
{
	const char* lines[] = {
	    "1 x sphere 1 pos 0 0 0 quat 1 0 0 0 | capsule 0.5 1 pos 0 0 0 quat 1 0 0 0",
	    "2 x cylinder 0.5 1 pos 0 0 0 quat 1 0 0 0 | cone 0.5 1 pos 0 0 0 quat 0 1 0 0",
	    ("3 x triangle 0 0 0 1 0 0 0 1 0 pos 0 0 0 quat 1 0 0 0 | hull 1 0.5 0.5 0.5 pos 0 0 0 "
	     "quat 1 0 0 0"),
	    "4\tx\tbox 1 2 3   pos 0 0 0 quat 1 0 0 0 |  box 1e-3 2E-3 .5 pos 1e3 -2 0 quat 1 1 1 1\r",
	};
	const char* expected[][2] = {
	    {"sphere", "capsule"}, {"cylinder", "cone"}, {"triangle", "hull"}, {"box", "box"}};
	for (int i = 0; i < 4; ++i) {
		tbQueryCase c;
		bool idParsed = false;
		char message[MESSAGE_SIZE];
		cr_assert_eq(tbParseQueryLine(lines[i], i + 1, &c, &idParsed, message, MESSAGE_SIZE),
		             tb_queryLineCase, "%s", message);
		cr_assert_str_eq(c.a.typeName, expected[i][0]);
		cr_assert_str_eq(c.b.typeName, expected[i][1]);
		tbFreeQueryCase(&c);
	}
}

Test(query_file, skips_blank_and_comment_lines)
{
	const char* lines[] = {"", "   \t", "# a comment", "   # indented comment 1 2 3"};
	for (int i = 0; i < 4; ++i) {
		tbQueryCase c;
		bool idParsed = true;
		char message[MESSAGE_SIZE];
		cr_assert_eq(tbParseQueryLine(lines[i], 1, &c, &idParsed, message, MESSAGE_SIZE),
		             tb_queryLineSkip);
		cr_assert(!idParsed);
	}
}

Test(query_file, names_line_side_and_field)
{
	const char* m =
	    parseError("5 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | box 1 2 abc pos 0 0 0 quat "
	               "1 0 0 0",
	               17, NULL, NULL);
	cr_assert_str_eq(m, "line 17: shape B: box half extent hz: expected a positive number, got "
	                    "'abc'");
}

Test(query_file, bad_id)
{
	bool idParsed = true;
	const char* m = parseError("x7 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat "
	                           "1 0 0 0",
	                           2, &idParsed, NULL);
	assert_contains(m, "line 2: id: expected a non-negative integer, got 'x7'");
	cr_assert(!idParsed);
	parseError("-3 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0", 2,
	           &idParsed, NULL);
	cr_assert(!idParsed);
}

Test(query_file, id_kept_when_a_later_field_is_bad)
{
	bool idParsed = false;
	long long id = -1;
	const char* m = parseError("42 deep", 9, &idParsed, &id);
	cr_assert(idParsed);
	cr_assert_eq(id, 42);
	assert_contains(m, "line 9: shape A: shape type: missing");
	m = parseError("43", 10, &idParsed, &id);
	assert_contains(m, "line 10: category: missing");
	cr_assert_eq(id, 43);
}

Test(query_file, unknown_shape_type)
{
	const char* m = parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | torus 1 0.5 pos 0 0 0 "
	                           "quat 1 0 0 0",
	                           4, NULL, NULL);
	assert_contains(m, "line 4: shape B: shape type: unknown shape type 'torus'");
}

Test(query_file, nan_and_inf)
{
	const char* m = parseError("1 deep sphere nan pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 "
	                           "quat 1 0 0 0",
	                           6, NULL, NULL);
	assert_contains(m, "line 6: shape A: sphere radius r:");
	assert_contains(m, "'nan'");
	assert_contains(m, "not finite");
	m = parseError("1 deep sphere 1 pos 0 inf 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0", 7,
	               NULL, NULL);
	assert_contains(m, "line 7: shape A: pos py:");
	assert_contains(m, "not finite");
	m = parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 NaN 0", 8,
	               NULL, NULL);
	assert_contains(m, "line 8: shape B: quat qy:");
	m = parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | hull 2 0 0 0 1 -inf 0 pos 0 0 0 "
	               "quat 1 0 0 0",
	               9, NULL, NULL);
	assert_contains(m, "line 9: shape B: hull point 2 y:");
}

Test(query_file, non_positive_sizes)
{
	const char* m = parseError("1 deep capsule 0.5 0 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 "
	                           "quat 1 0 0 0",
	                           3, NULL, NULL);
	assert_contains(m, "line 3: shape A: capsule half height hh: expected a positive number, "
	                   "got '0'");
	m = parseError("1 deep cone -1 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0", 3,
	               NULL, NULL);
	assert_contains(m, "cone radius r: expected a positive number, got '-1'");
	m = parseError("1 deep sphere 1e-60 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0",
	               3, NULL, NULL);
	assert_contains(m, "too small for a float");
}

Test(query_file, zero_quaternion)
{
	const char* m = parseError("1 deep sphere 1 pos 0 0 0 quat 0 0 0 0 | sphere 1 pos 0 0 0 quat 1 "
	                           "0 0 0",
	                           12, NULL, NULL);
	assert_contains(m, "line 12: shape A: quat: zero quaternion");
}

Test(query_file, bad_hull_count)
{
	const char* m = parseError("1 flat sphere 1 pos 0 0 0 quat 1 0 0 0 | hull 4 0 0 0 1 0 0 0 1 0 "
	                           "pos 0 0 0 quat 1 0 0 0",
	                           21, NULL, NULL);
	assert_contains(m, "line 21: shape B: hull point: expected 4 points (12 numbers), got 9 "
	                   "numbers before 'pos'");
	m = parseError("1 flat hull 2 0 0 0 1 0 0 0 1 0 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 "
	               "quat 1 0 0 0",
	               22, NULL, NULL);
	assert_contains(m, "line 22: shape A: hull point: more numbers than 2 points");
	m = parseError("1 flat hull 0 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0", 23,
	               NULL, NULL);
	assert_contains(m, "line 23: shape A: hull point count n: expected a positive integer, got "
	                   "'0'");
	m = parseError("1 flat hull 2.5 0 0 0 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0",
	               24, NULL, NULL);
	assert_contains(m, "hull point count n: expected a positive integer, got '2.5'");
	m = parseError("1 flat triangle 0 0 0 1 0 0 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 "
	               "0 0 0",
	               25, NULL, NULL);
	assert_contains(m, "line 25: shape A: triangle corner: expected 3 points (9 numbers), got 6");
}

Test(query_file, missing_fields_and_keywords)
{
	const char* m =
	    parseError("1 deep box 1 2 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 "
	               "0 0",
	               30, NULL, NULL);
	assert_contains(m, "line 30: shape A: box half extent hz: expected a positive number, got "
	                   "'pos'");
	m = parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0", 31,
	               NULL, NULL);
	assert_contains(m, "line 31: shape B: quat qz: missing");
	m = parseError("1 deep sphere 1 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0", 32, NULL,
	               NULL);
	assert_contains(m, "line 32: shape A: expected 'pos' after the sphere parameters, got '0'");
	m = parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 sphere 1 pos 0 0 0 quat 1 0 0 0", 33,
	               NULL, NULL);
	assert_contains(m, "line 33: expected '|' between shape A and shape B, got 'sphere'");
	m = parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 |", 34, NULL, NULL);
	assert_contains(m, "line 34: shape B: shape type: missing");
}

Test(query_file, trailing_garbage)
{
	const char* m =
	    parseError("1 deep sphere 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 "
	               "0 0 extra",
	               40, NULL, NULL);
	assert_contains(m, "line 40: trailing text after shape B: 'extra'");
	m = parseError("1 deep sphere 1.5x pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0",
	               41, NULL, NULL);
	assert_contains(m, "line 41: shape A: sphere radius r: expected a positive number, got '1.5x'");
}

Test(query_file, reads_long_lines)
{
	// A hull line far longer than the first buffer, then a CRLF line, then a last line with no end.
	FILE* file = tmpfile();
	cr_assert_not_null(file);
	fputs("1 big hull 400", file);
	for (int i = 0; i < 400; ++i) {
		fprintf(file, " %d 0.%d -%d", i % 7, i, i % 5);
	}
	fputs(" pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0\r\n", file);
	fputs("# last\n2 x sphere 1 pos 0 0 0 quat 1 0 0 0 | sphere 1 pos 0 0 0 quat 1 0 0 0", file);
	rewind(file);
	char* buffer = NULL;
	size_t capacity = 0;
	int count = 0, cases = 0;
	while (tbReadQueryLine(file, &buffer, &capacity)) {
		++count;
		tbQueryCase c;
		bool idParsed;
		char message[MESSAGE_SIZE];
		tbQueryLineStatus status =
		    tbParseQueryLine(buffer, count, &c, &idParsed, message, MESSAGE_SIZE);
		cr_assert_neq(status, tb_queryLineError, "%s", message);
		if (status == tb_queryLineCase) {
			++cases;
			if (c.id == 1) {
				cr_assert_eq(c.a.pointCount, 400);
				cr_assert_float_eq(c.a.points[3 * 399 + 1], 0.399, 1e-15);
			}
			tbFreeQueryCase(&c);
		}
	}
	cr_assert_eq(count, 3);
	cr_assert_eq(cases, 2);
	free(buffer);
	fclose(file);
}

Test(query_file, quaternion_extremes_normalise)
{
	const char* line = "1 x sphere 1 pos 0 0 0 quat 1e200 1e200 0 0 | sphere 1 pos 0 0 0 quat 0 0 "
	                   "3e-200 4e-200";
	tbQueryCase c;
	bool idParsed;
	char message[MESSAGE_SIZE];
	cr_assert_eq(tbParseQueryLine(line, 1, &c, &idParsed, message, MESSAGE_SIZE), tb_queryLineCase,
	             "%s", message);
	cr_assert_float_eq(c.a.xf.q[0], sqrt(0.5), 1e-15);
	cr_assert_float_eq(c.a.xf.q[1], sqrt(0.5), 1e-15);
	cr_assert_float_eq(c.b.xf.q[2], 0.6, 1e-15);
	cr_assert_float_eq(c.b.xf.q[3], 0.8, 1e-15);
	tbFreeQueryCase(&c);
}

Test(query_file, every_sample_case_parses)
{
	FILE* file = fopen(TB_TEST_DATA_DIR "/query_cases.txt", "r");
	cr_assert_not_null(file, "cannot open %s", TB_TEST_DATA_DIR "/query_cases.txt");
	char* buffer = NULL;
	size_t capacity = 0;
	int lineNumber = 0, cases = 0;
	while (tbReadQueryLine(file, &buffer, &capacity)) {
		++lineNumber;
		tbQueryCase c;
		bool idParsed;
		char message[MESSAGE_SIZE];
		tbQueryLineStatus status =
		    tbParseQueryLine(buffer, lineNumber, &c, &idParsed, message, MESSAGE_SIZE);
		cr_assert_neq(status, tb_queryLineError, "%s", message);
		if (status == tb_queryLineCase) {
			++cases;
			cr_assert(tbQueryCaseScale(&c) > 0.0);
			tbFreeQueryCase(&c);
		}
	}
	free(buffer);
	fclose(file);
	cr_assert_gt(cases, 1000);
}
