// JSON output of the `tumble` tool: numbers (NaN and infinity as null), vectors and strings.
#include "json_write.h"

#include <math.h>

void tbJsonNumber(FILE* out, double value, int digits)
{
	if (isfinite(value)) {
		fprintf(out, "%.*g", digits, value);
	} else {
		fputs("null", out);
	}
}

void tbJsonVec(FILE* out, const double v[3], int digits)
{
	fputc('[', out);
	for (int i = 0; i < 3; ++i) {
		if (i > 0) {
			fputc(',', out);
		}
		tbJsonNumber(out, v[i], digits);
	}
	fputc(']', out);
}

void tbJsonString(FILE* out, const char* s)
{
	fputc('"', out);
	for (; *s != '\0'; ++s) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
		} else {
			fputc(c, out);
		}
	}
	fputc('"', out);
}
