// Parser of query-file case lines (docs/query-format.md) with errors that name line and field.
#include "query_file.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Longest token quoted back in a message; longer ones are cut with "...".
#define TB_QUOTE_MAX 40

// Longest number token we accept: far beyond any sensible decimal, short enough for the stack.
#define TB_NUMBER_MAX 128

typedef struct tbLineCursor
{
	const char* next; // first character not yet consumed
	int lineNumber;
	const char* side; // "shape A: ", "shape B: " or ""
	char* message;
	int messageSize;
} tbLineCursor;

typedef struct tbToken
{
	const char* text;
	int length; // 0 when the line ended
} tbToken;

static bool tbIsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static tbToken tbNextToken(tbLineCursor* cursor)
{
	const char* s = cursor->next;
	while (*s != '\0' && tbIsSpace(*s)) {
		++s;
	}
	const char* start = s;
	while (*s != '\0' && !tbIsSpace(*s)) {
		++s;
	}
	cursor->next = s;
	return (tbToken){start, (int)(s - start)};
}

static tbToken tbPeekToken(const tbLineCursor* cursor)
{
	tbLineCursor copy = *cursor;
	return tbNextToken(&copy);
}

static bool tbTokenIs(tbToken token, const char* word)
{
	size_t n = strlen(word);
	return (size_t)token.length == n && memcmp(token.text, word, n) == 0;
}

// Write "line N: <side><formatted>" into the cursor's message buffer.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
tbFail(const tbLineCursor* cursor, const char* format, ...)
{
	if (cursor->message == NULL || cursor->messageSize <= 0) {
		return;
	}
	int used = snprintf(cursor->message, (size_t)cursor->messageSize, "line %d: %s",
	                    cursor->lineNumber, cursor->side);
	if (used < 0 || used >= cursor->messageSize) {
		return;
	}
	va_list args;
	va_start(args, format);
	vsnprintf(cursor->message + used, (size_t)(cursor->messageSize - used), format, args);
	va_end(args);
}

// The token as it appears in a message: quoted, cut when long, or "end of line".
static void tbQuote(tbToken token, char* out, size_t outSize)
{
	if (token.length == 0) {
		snprintf(out, outSize, "end of line");
	} else if (token.length > TB_QUOTE_MAX) {
		snprintf(out, outSize, "'%.*s...'", TB_QUOTE_MAX, token.text);
	} else {
		snprintf(out, outSize, "'%.*s'", token.length, token.text);
	}
}

typedef enum tbNumberKind
{
	tb_anyFinite,     // positions, quaternion components
	tb_floatFinite,   // hull and triangle coordinates: must also fit a float
	tb_floatPositive, // sizes: > 0 and still > 0 as a float
} tbNumberKind;

static const char* tbNumberExpectation(tbNumberKind kind)
{
	return kind == tb_floatPositive ? "a positive number" : "a number";
}

// Read one number for `field`. strtod on the whole token: "1.5x" is an error, not 1.5.
static bool tbReadNumber(tbLineCursor* cursor, const char* field, tbNumberKind kind, double* out)
{
	tbToken token = tbNextToken(cursor);
	char quoted[TB_QUOTE_MAX + 8];
	tbQuote(token, quoted, sizeof quoted);
	const char* expected = tbNumberExpectation(kind);
	if (token.length == 0) {
		tbFail(cursor, "%s: missing (expected %s, got end of line)", field, expected);
		return false;
	}
	if (token.length >= TB_NUMBER_MAX) {
		tbFail(cursor, "%s: expected %s, got %s", field, expected, quoted);
		return false;
	}
	char buffer[TB_NUMBER_MAX];
	memcpy(buffer, token.text, (size_t)token.length);
	buffer[token.length] = '\0';
	char* end = NULL;
	errno = 0;
	double value = strtod(buffer, &end);
	if (end == buffer || *end != '\0') {
		tbFail(cursor, "%s: expected %s, got %s", field, expected, quoted);
		return false;
	}
	if (isnan(value) || isinf(value)) {
		tbFail(cursor, "%s: expected %s, got %s (not finite)", field, expected, quoted);
		return false;
	}
	if (kind != tb_anyFinite && fabs(value) > (double)FLT_MAX) {
		tbFail(cursor, "%s: %s is too large for a float", field, quoted);
		return false;
	}
	if (kind == tb_floatPositive) {
		if (!(value > 0.0)) {
			tbFail(cursor, "%s: expected %s, got %s", field, expected, quoted);
			return false;
		}
		// Shapes are float: a size that rounds to zero (or to a denormal) is not a usable size.
		if (value < (double)FLT_MIN) {
			tbFail(cursor, "%s: %s is too small for a float", field, quoted);
			return false;
		}
	}
	*out = value;
	return true;
}

static bool tbExpectKeyword(tbLineCursor* cursor, const char* keyword, const char* after)
{
	tbToken token = tbNextToken(cursor);
	if (tbTokenIs(token, keyword)) {
		return true;
	}
	char quoted[TB_QUOTE_MAX + 8];
	tbQuote(token, quoted, sizeof quoted);
	tbFail(cursor, "expected '%s' after %s, got %s", keyword, after, quoted);
	return false;
}

// The pose part: "pos px py pz quat qw qx qy qz".
static bool tbReadPose(tbLineCursor* cursor, const char* typeName, tbTransformd* xf)
{
	char after[64];
	snprintf(after, sizeof after, "the %s parameters", typeName);
	if (!tbExpectKeyword(cursor, "pos", after)) {
		return false;
	}
	static const char* const posNames[3] = {"pos px", "pos py", "pos pz"};
	for (int i = 0; i < 3; ++i) {
		if (!tbReadNumber(cursor, posNames[i], tb_anyFinite, &xf->p[i])) {
			return false;
		}
	}
	if (!tbExpectKeyword(cursor, "quat", "the position")) {
		return false;
	}
	static const char* const quatNames[4] = {"quat qw", "quat qx", "quat qy", "quat qz"};
	for (int i = 0; i < 4; ++i) {
		if (!tbReadNumber(cursor, quatNames[i], tb_anyFinite, &xf->q[i])) {
			return false;
		}
	}
	// Normalise on read (docs/query-format.md). Scale by the largest component first so that
	// neither 1e200 nor 1e-200 components overflow or underflow the sum of squares.
	double largest = 0.0;
	for (int i = 0; i < 4; ++i) {
		largest = fmax(largest, fabs(xf->q[i]));
	}
	if (largest == 0.0) {
		tbFail(cursor, "quat: zero quaternion cannot be normalised");
		return false;
	}
	double sum = 0.0;
	for (int i = 0; i < 4; ++i) {
		double c = xf->q[i] / largest;
		sum += c * c;
	}
	double scale = 1.0 / (largest * sqrt(sum));
	for (int i = 0; i < 4; ++i) {
		xf->q[i] *= scale;
	}
	return true;
}

static void tbFreeCaseShape(tbQueryCaseShape* shape)
{
	if (shape->hull != NULL) {
		tbDestroyHull(shape->hull);
		free(shape->hull);
	}
	free(shape->points);
	memset(shape, 0, sizeof *shape);
}

// Read `count` points (3 numbers each) named "<what> <i> x|y|z" into out->points.
static bool tbReadPoints(tbLineCursor* cursor, const char* what, int count, tbQueryCaseShape* out)
{
	out->points = malloc(sizeof(double) * 3 * (size_t)count);
	if (out->points == NULL) {
		tbFail(cursor, "%s: out of memory for %d points", what, count);
		return false;
	}
	out->pointCount = count;
	static const char axes[3] = {'x', 'y', 'z'};
	for (int i = 0; i < count; ++i) {
		for (int k = 0; k < 3; ++k) {
			tbToken peek = tbPeekToken(cursor);
			if (tbTokenIs(peek, "pos") || peek.length == 0) {
				// A short list: say how many numbers there were, the usual mistake being a wrong n.
				tbFail(cursor, "%s: expected %d points (%d numbers), got %d numbers before %s",
				       what, count, 3 * count, 3 * i + k,
				       peek.length == 0 ? "end of line" : "'pos'");
				return false;
			}
			char field[64];
			snprintf(field, sizeof field, "%s %d %c", what, i + 1, axes[k]);
			if (!tbReadNumber(cursor, field, tb_floatFinite, &out->points[3 * i + k])) {
				return false;
			}
		}
	}
	tbToken peek = tbPeekToken(cursor);
	if (!tbTokenIs(peek, "pos") && peek.length > 0) {
		char* end = NULL;
		char buffer[TB_NUMBER_MAX];
		int n = peek.length < TB_NUMBER_MAX ? peek.length : TB_NUMBER_MAX - 1;
		memcpy(buffer, peek.text, (size_t)n);
		buffer[n] = '\0';
		strtod(buffer, &end);
		if (end != buffer && *end == '\0') {
			tbFail(cursor, "%s: more numbers than %d points: expected 'pos' after %d numbers", what,
			       count, 3 * count);
			return false;
		}
	}
	return true;
}

static double tbMaxPointNorm(const tbQueryCaseShape* shape)
{
	double r = 0.0;
	for (int i = 0; i < shape->pointCount; ++i) {
		const double* p = shape->points + 3 * i;
		r = fmax(r, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
	}
	return r;
}

static vec3s tbPointToFloat(const double* p)
{
	return (vec3s){{(float)p[0], (float)p[1], (float)p[2]}};
}

static bool tbReadHull(tbLineCursor* cursor, tbQueryCaseShape* out)
{
	tbToken token = tbNextToken(cursor);
	char quoted[TB_QUOTE_MAX + 8];
	tbQuote(token, quoted, sizeof quoted);
	long long n = 0;
	bool ok = token.length > 0 && token.length < 12;
	for (int i = 0; ok && i < token.length; ++i) {
		ok = token.text[i] >= '0' && token.text[i] <= '9';
		n = 10 * n + (token.text[i] - '0');
	}
	if (!ok || n < 1) {
		tbFail(cursor, "hull point count n: expected a positive integer, got %s", quoted);
		return false;
	}
	if (n > TB_MAX_HULL_POINTS) {
		tbFail(cursor, "hull point count n: %lld is more than the limit of %d points", n,
		       TB_MAX_HULL_POINTS);
		return false;
	}
	if (!tbReadPoints(cursor, "hull point", (int)n, out)) {
		return false;
	}
	vec3s* floats = malloc(sizeof(vec3s) * (size_t)n);
	out->hull = calloc(1, sizeof(tbHull));
	if (floats == NULL || out->hull == NULL) {
		free(floats);
		tbFail(cursor, "hull: out of memory for %lld points", n);
		return false;
	}
	for (int i = 0; i < (int)n; ++i) {
		floats[i] = tbPointToFloat(out->points + 3 * i);
	}
	int badIndex = -1;
	tbHullError error = tbBuildHull(floats, (int)n, out->hull, &badIndex);
	free(floats);
	if (error != tb_hullOk) {
		if (badIndex >= 0) {
			tbFail(cursor, "hull point %d: %s", badIndex + 1, tbHullErrorString(error));
		} else {
			tbFail(cursor, "hull: %s", tbHullErrorString(error));
		}
		return false;
	}
	out->shape = tbMakeHullShape(out->hull);
	out->boundingRadius = tbMaxPointNorm(out);
	return true;
}

// One shape: "<type> <params...> pos ... quat ...".
static bool tbReadShape(tbLineCursor* cursor, tbQueryCaseShape* out)
{
	tbToken token = tbNextToken(cursor);
	char quoted[TB_QUOTE_MAX + 8];
	tbQuote(token, quoted, sizeof quoted);
	if (token.length == 0) {
		tbFail(cursor, "shape type: missing (got end of line)");
		return false;
	}
	double* q = out->params;
	bool ok = false;
	if (tbTokenIs(token, "sphere")) {
		out->typeName = "sphere";
		ok = tbReadNumber(cursor, "sphere radius r", tb_floatPositive, &q[0]);
		if (ok) {
			out->shape = tbMakeSphere((float)q[0]);
			out->boundingRadius = q[0];
		}
	} else if (tbTokenIs(token, "box")) {
		out->typeName = "box";
		ok = tbReadNumber(cursor, "box half extent hx", tb_floatPositive, &q[0]) &&
		     tbReadNumber(cursor, "box half extent hy", tb_floatPositive, &q[1]) &&
		     tbReadNumber(cursor, "box half extent hz", tb_floatPositive, &q[2]);
		if (ok) {
			out->shape = tbMakeBox((float)q[0], (float)q[1], (float)q[2]);
			out->boundingRadius = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
		}
	} else if (tbTokenIs(token, "capsule") || tbTokenIs(token, "cylinder") ||
	           tbTokenIs(token, "cone")) {
		out->typeName = token.text[1] == 'a'   ? "capsule"
		                : token.text[1] == 'y' ? "cylinder"
		                                       : "cone";
		char radiusField[32], heightField[32];
		snprintf(radiusField, sizeof radiusField, "%s radius r", out->typeName);
		snprintf(heightField, sizeof heightField, "%s half height hh", out->typeName);
		ok = tbReadNumber(cursor, radiusField, tb_floatPositive, &q[0]) &&
		     tbReadNumber(cursor, heightField, tb_floatPositive, &q[1]);
		if (ok) {
			float r = (float)q[0], hh = (float)q[1];
			if (out->typeName[1] == 'a') {
				out->shape = tbMakeCapsule(r, hh);
				out->boundingRadius = q[0] + q[1];
			} else {
				out->shape = out->typeName[1] == 'y' ? tbMakeCylinder(r, hh) : tbMakeCone(r, hh);
				out->boundingRadius = sqrt(q[0] * q[0] + q[1] * q[1]);
			}
		}
	} else if (tbTokenIs(token, "hull")) {
		out->typeName = "hull";
		ok = tbReadHull(cursor, out);
	} else if (tbTokenIs(token, "triangle")) {
		out->typeName = "triangle";
		ok = tbReadPoints(cursor, "triangle corner", 3, out);
		if (ok) {
			out->shape =
			    tbMakeTriangle(tbPointToFloat(out->points), tbPointToFloat(out->points + 3),
			                   tbPointToFloat(out->points + 6));
			out->boundingRadius = tbMaxPointNorm(out);
		}
	} else {
		tbFail(cursor,
		       "shape type: unknown shape type %s (expected sphere, box, capsule, cylinder, cone, "
		       "hull or triangle)",
		       quoted);
		return false;
	}
	return ok && tbReadPose(cursor, out->typeName, &out->xf);
}

tbQueryLineStatus tbParseQueryLine(const char* line, int lineNumber, tbQueryCase* out,
                                   bool* idParsed, char* message, int messageSize)
{
	memset(out, 0, sizeof *out);
	out->lineNumber = lineNumber;
	*idParsed = false;
	if (message != NULL && messageSize > 0) {
		message[0] = '\0';
	}
	tbLineCursor cursor = {line, lineNumber, "", message, messageSize};
	tbToken token = tbNextToken(&cursor);
	if (token.length == 0 || token.text[0] == '#') {
		return tb_queryLineSkip;
	}

	char quoted[TB_QUOTE_MAX + 8];
	tbQuote(token, quoted, sizeof quoted);
	// The id: decimal digits only, so that "1e3" or "-4" are not silently taken.
	long long id = 0;
	bool ok = token.length <= 18;
	for (int i = 0; ok && i < token.length; ++i) {
		ok = token.text[i] >= '0' && token.text[i] <= '9';
		id = 10 * id + (token.text[i] - '0');
	}
	if (!ok) {
		tbFail(&cursor, "id: expected a non-negative integer, got %s", quoted);
		return tb_queryLineError;
	}
	out->id = id;
	*idParsed = true;

	token = tbNextToken(&cursor);
	tbQuote(token, quoted, sizeof quoted);
	if (token.length == 0) {
		tbFail(&cursor, "category: missing (got end of line)");
		return tb_queryLineError;
	}
	if (token.length >= TB_QUERY_CATEGORY_SIZE) {
		tbFail(&cursor, "category: %s is longer than %d characters", quoted,
		       TB_QUERY_CATEGORY_SIZE - 1);
		return tb_queryLineError;
	}
	memcpy(out->category, token.text, (size_t)token.length);
	out->category[token.length] = '\0';

	cursor.side = "shape A: ";
	if (!tbReadShape(&cursor, &out->a)) {
		goto failed;
	}
	cursor.side = "";
	token = tbNextToken(&cursor);
	if (!tbTokenIs(token, "|")) {
		tbQuote(token, quoted, sizeof quoted);
		tbFail(&cursor, "expected '|' between shape A and shape B, got %s", quoted);
		goto failed;
	}
	cursor.side = "shape B: ";
	if (!tbReadShape(&cursor, &out->b)) {
		goto failed;
	}
	cursor.side = "";
	token = tbNextToken(&cursor);
	if (token.length != 0) {
		tbQuote(token, quoted, sizeof quoted);
		tbFail(&cursor, "trailing text after shape B: %s", quoted);
		goto failed;
	}
	return tb_queryLineCase;

failed:
	tbFreeCaseShape(&out->a);
	tbFreeCaseShape(&out->b);
	return tb_queryLineError;
}

void tbFreeQueryCase(tbQueryCase* queryCase)
{
	tbFreeCaseShape(&queryCase->a);
	tbFreeCaseShape(&queryCase->b);
	memset(queryCase, 0, sizeof *queryCase);
}

bool tbReadQueryLine(FILE* file, char** buffer, size_t* capacity)
{
	size_t length = 0;
	for (;;) {
		if (*buffer == NULL || *capacity - length < 2) {
			size_t grown = *capacity < 256 ? 256 : 2 * *capacity;
			char* larger = realloc(*buffer, grown);
			if (larger == NULL) {
				return false;
			}
			*buffer = larger;
			*capacity = grown;
		}
		if (fgets(*buffer + length, (int)(*capacity - length), file) == NULL) {
			(*buffer)[length] = '\0';
			return length > 0;
		}
		length += strlen(*buffer + length);
		if (length > 0 && (*buffer)[length - 1] == '\n') {
			(*buffer)[--length] = '\0';
			if (length > 0 && (*buffer)[length - 1] == '\r') {
				(*buffer)[--length] = '\0';
			}
			return true;
		}
	}
}

double tbQueryCaseScale(const tbQueryCase* queryCase)
{
	const double* pa = queryCase->a.xf.p;
	const double* pb = queryCase->b.xf.p;
	double dx = pb[0] - pa[0], dy = pb[1] - pa[1], dz = pb[2] - pa[2];
	return queryCase->a.boundingRadius + queryCase->b.boundingRadius +
	       sqrt(dx * dx + dy * dy + dz * dz);
}
