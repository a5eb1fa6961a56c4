// `tumble run` (simulate a scene file headless) and `tumble scenes` (list the bundled scenes).
#pragma once

#include <stdio.h>

/// tumble run SCENE [--steps N | --seconds T] [--json] [--out FILE.csv] [--every K] [--threads N].
/// argv[0] is "run". Returns the exit status: 0, 1 for a bad scene, 2 for usage errors.
int tbRunSceneCommand(int argc, char** argv);
void tbRunSceneHelp(FILE* out);

/// tumble scenes: one line per bundled scene (name, bodies, seconds, description).
int tbListScenesCommand(int argc, char** argv);
void tbListScenesHelp(FILE* out);
