// The assert hook and the version string shared by all modules.
#include "tumble/base.h"

#include <stdio.h>
#include <stdlib.h>

static int tbDefaultAssertFcn(const char* condition, const char* fileName, int lineNumber)
{
	fprintf(stderr, "tumble: assertion failed: %s, %s:%d\n", condition, fileName, lineNumber);
	return 1;
}

static tbAssertFcn* s_assertFcn = tbDefaultAssertFcn;

void tbSetAssertFcn(tbAssertFcn* assertFcn)
{
	s_assertFcn = assertFcn != NULL ? assertFcn : tbDefaultAssertFcn;
}

int tbInternalAssert(const char* condition, const char* fileName, int lineNumber)
{
	return s_assertFcn(condition, fileName, lineNumber);
}

// The version comes from meson.build's project() through the generated tumble/version.h.
const char* tbVersionString(void)
{
	return TB_VERSION_STRING;
}

tbVersion tbGetVersion(void)
{
	return (tbVersion){TB_VERSION_MAJOR, TB_VERSION_MINOR, TB_VERSION_PATCH};
}
