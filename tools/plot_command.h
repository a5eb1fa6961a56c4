// `tumble plot`: a scene's energy and momentum over time as a PNG.
#pragma once

#include <stdbool.h>
#include <stdio.h>

/// A colour of a curve.
typedef struct tbRgb
{
	unsigned char r, g, b;
} tbRgb;

/// One panel of a plot: up to three curves over the same x values, drawn in order.
typedef struct tbPanel
{
	const char* title;
	const char* names[3];
	const double* curves[3];
	tbRgb colours[3];
	int curveCount;
} tbPanel;

/// Draw panels stacked top to bottom against x (the layout of docs/scene-format.md, "tumble
/// plot", with panelCount panels instead of three) into a PNG; false when it cannot be written.
/// Every value must be finite.
bool tbWritePlot(const char* path, int width, int height, const char* title, const char* xLabel,
                 const double* x, int rows, const tbPanel* panels, int panelCount);

/// tumble plot SCENE --out FILE.png [--steps N | --seconds T] [--every K] [--size WxH].
/// argv[0] is "plot". Returns the exit status: 0, 1 for a bad scene or a failed run, 2 for usage.
int tbPlotCommand(int argc, char** argv);
void tbPlotHelp(FILE* out);
