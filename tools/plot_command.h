// `tumble plot`: a scene's energy and momentum over time as a PNG.
#pragma once

#include <stdio.h>

/// tumble plot SCENE --out FILE.png [--steps N | --seconds T] [--every K] [--size WxH].
/// argv[0] is "plot". Returns the exit status: 0, 1 for a bad scene or a failed run, 2 for usage.
int tbPlotCommand(int argc, char** argv);
void tbPlotHelp(FILE* out);
