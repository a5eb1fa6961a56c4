// Query files (docs/query-format.md): one case line -> two shapes and their double-precision
// poses.
#pragma once

#include "tumble/geometry.h"
#include "tumble/hull.h"
#include "tumble/transform.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// Room for the category word, terminator included.
#define TB_QUERY_CATEGORY_SIZE 64

/// One side of a case: the shape, its pose and what the text said (peers and judges need it).
typedef struct tbQueryCaseShape
{
	tbGeometry shape; ///< for hulls, points at `hull`
	/// Pose as read, in double: positions reach ~3 with shapes of 1e-3, so it is rounded to float
	/// only after forming the relative pose. q is normalised, w x y z.
	tbTransformd xf;
	/// Size parameters as read, metres: sphere r; box hx hy hz; capsule/cylinder/cone r hh.
	double params[3];
	/// Hull and triangle points as read, x y z per point (owned); null for the other shapes.
	double* points;
	int pointCount;
	/// The built hull (owned by the case); null unless shape.type is tb_hullShape.
	tbHull* hull;
	/// Bounding radius about the shape position as docs/query-format.md defines it (for the pair
	/// scale L), metres.
	double boundingRadius;
	/// The type word of the file ("box", "hull", ...); a static string.
	const char* typeName;
} tbQueryCaseShape;

/// A parsed case line. Release with tbFreeQueryCase.
typedef struct tbQueryCase
{
	long long id;
	char category[TB_QUERY_CATEGORY_SIZE];
	int lineNumber;
	tbQueryCaseShape a, b;
} tbQueryCase;

typedef enum tbQueryLineStatus
{
	tb_queryLineCase = 0, ///< a case was parsed
	tb_queryLineSkip,     ///< a blank or `#` line
	tb_queryLineError,    ///< malformed; a message was written
} tbQueryLineStatus;

/// Parse one case line (no trailing newline needed). On tb_queryLineCase, *out owns its hulls and
/// points. On tb_queryLineError, `message` receives "line N: <field>: <problem>", *out owns
/// nothing, and *idParsed tells whether out->id holds the line's id (so that a caller can report
/// it).
tbQueryLineStatus tbParseQueryLine(const char* line, int lineNumber, tbQueryCase* out,
                                   bool* idParsed, char* message, int messageSize);

/// Free what a parsed case owns and zero it. Safe on a zeroed case.
void tbFreeQueryCase(tbQueryCase* queryCase);

/// Read one line of any length from `file` into *buffer (grown with realloc; the caller frees it),
/// without the line ending. Returns false at end of file with nothing read, or when out of memory.
bool tbReadQueryLine(FILE* file, char** buffer, size_t* capacity);

/// Pair scale L = radA + radB + |posA - posB| of docs/query-format.md, metres.
double tbQueryCaseScale(const tbQueryCase* queryCase);
