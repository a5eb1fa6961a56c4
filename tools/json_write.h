// JSON output of the `tumble` tool: numbers (NaN and infinity as null), vectors and strings.
#pragma once

#include <stdio.h>

// A number with `digits` significant digits; JSON has no NaN or infinity: those become null.
void tbJsonNumber(FILE* out, double value, int digits);
// [x,y,z], each as tbJsonNumber.
void tbJsonVec(FILE* out, const double v[3], int digits);
// A string in quotes, with quotes, backslashes and control characters escaped.
void tbJsonString(FILE* out, const char* s);
