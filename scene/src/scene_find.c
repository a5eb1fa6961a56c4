// Bundled scenes: the source tree's scenes/ (a build run in place), the install data directory,
// and the search of a scene by name or path.
#include "scene_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Bundled scenes: the source tree's scenes/ (a build run in place) and the install data dir.

int tbGetBundledSceneDirs(const char** dirs, int capacity)
{
	int count = 0;
#ifdef TB_SCENES_SOURCE_DIR
	if (count < capacity) {
		dirs[count++] = TB_SCENES_SOURCE_DIR;
	}
#endif
#ifdef TB_SCENES_INSTALL_DIR
	if (count < capacity) {
		dirs[count++] = TB_SCENES_INSTALL_DIR;
	}
#endif
	return count;
}

static bool tbFileExists(const char* path)
{
	FILE* file = fopen(path, "rb");
	if (file != NULL) {
		fclose(file);
		return true;
	}
	return false;
}

bool tbFindScene(const char* nameOrPath, char* path, size_t pathSize)
{
	if (tbFileExists(nameOrPath)) {
		tbSceneFormat(path, pathSize, "%s", nameOrPath);
		return true;
	}
	// Only bare names are looked up: "dir/x.json" that does not exist is simply missing.
	if (strchr(nameOrPath, '/') != NULL || nameOrPath[0] == '\0') {
		return false;
	}
	size_t length = strlen(nameOrPath);
	bool hasSuffix = length > 5 && strcmp(nameOrPath + length - 5, ".json") == 0;
	const char* dirs[4];
	int dirCount = tbGetBundledSceneDirs(dirs, 4);
	for (int i = 0; i < dirCount; ++i) {
		int n =
		    tbSceneFormat(path, pathSize, "%s/%s%s", dirs[i], nameOrPath, hasSuffix ? "" : ".json");
		if (n > 0 && (size_t)n < pathSize && tbFileExists(path)) {
			return true;
		}
	}
	return false;
}
