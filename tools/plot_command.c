// `tumble plot`: simulate a scene and draw its energy and momentum over time into a PNG, the same
// numbers `tumble run --energy` writes. The layout is fixed and documented (docs/scene-format.md,
// "tumble plot") so that a test can find the plotted values' pixels from the CSV alone.
#include "plot_command.h"

#include "run_command.h"

#include <tumble/scene.h>
#include <tumble/tumble.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stb_easy_font.h>
#include <stb_image_write.h>

#define TB_EXIT_BAD_INPUT 1
#define TB_EXIT_USAGE 2

// Layout in pixels (docs/scene-format.md): margins, the gap between the panels.
#define TB_PLOT_LEFT 80
#define TB_PLOT_RIGHT 16
#define TB_PLOT_TOP 36
#define TB_PLOT_BOTTOM 28
#define TB_PLOT_GAP 36
#define TB_PLOT_PANELS 4
// Tick marks outside the plot area, their labels, and the light grid lines inside it.
#define TB_PLOT_TICK 4
#define TB_PLOT_MAX_TICKS 8
// Recorded frames at most: 800 px wide plots gain nothing from more, and the arrays stay small.
#define TB_PLOT_MAX_ROWS 1000000

static const tbRgb tb_white = {255, 255, 255};
static const tbRgb tb_frame = {180, 180, 180};
static const tbRgb tb_text = {60, 60, 60};
static const tbRgb tb_kinetic = {220, 60, 40};
static const tbRgb tb_potential = {40, 90, 220};
static const tbRgb tb_total = {20, 20, 20};
static const tbRgb tb_linear = {30, 150, 60};
static const tbRgb tb_angular = {150, 40, 170};
static const tbRgb tb_grid = {232, 232, 232};
static const tbRgb tb_change = {200, 120, 0};

typedef struct tbImage
{
	int width, height;
	unsigned char* pixels; // RGB, rows top-down
} tbImage;

static void tbPut(tbImage* image, int x, int y, tbRgb c)
{
	if (x < 0 || y < 0 || x >= image->width || y >= image->height) {
		return;
	}
	unsigned char* p = image->pixels + 3 * ((size_t)y * (size_t)image->width + (size_t)x);
	p[0] = c.r;
	p[1] = c.g;
	p[2] = c.b;
}

// Bresenham's line: every pixel the segment crosses, both ends included.
static void tbLine(tbImage* image, int x0, int y0, int x1, int y1, tbRgb c)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;
	for (int guard = 0; guard <= dx - dy + 1; ++guard) {
		tbPut(image, x0, y0, c);
		if (x0 == x1 && y0 == y1) {
			break;
		}
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

// stb_easy_font builds letters from axis-aligned quads: fill each one.
static void tbText(tbImage* image, int x, int y, const char* text, tbRgb c)
{
	static float quads[4 * 4 * 600]; // 4 vertices of x, y, z, colour per quad
	char buffer[256];
	snprintf(buffer, sizeof buffer, "%s", text);
	unsigned char colour[4] = {c.r, c.g, c.b, 255};
	int count = stb_easy_font_print((float)x, (float)y, buffer, colour, quads, sizeof quads);
	for (int q = 0; q < count; ++q) {
		const float* v = quads + 16 * q;
		int x0 = (int)v[0], y0 = (int)v[1], x1 = (int)v[8], y1 = (int)v[9];
		for (int py = y0; py < y1; ++py) {
			for (int px = x0; px < x1; ++px) {
				tbPut(image, px, py, c);
			}
		}
	}
}

static int tbTextWidth(const char* text)
{
	char buffer[256];
	snprintf(buffer, sizeof buffer, "%s", text);
	return stb_easy_font_width(buffer);
}

// The value range of a panel: the curves' minimum and maximum, at least 1e-6 of their size wide.
static void tbPlotPanelRange(const double* const* curves, int curveCount, int rows, double* lo,
                             double* hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int c = 0; c < curveCount; ++c) {
		for (int i = 0; i < rows; ++i) {
			*lo = fmin(*lo, curves[c][i]);
			*hi = fmax(*hi, curves[c][i]);
		}
	}
	// A range narrower than float's resolution of the values (a conserved quantity, zero momentum)
	// is widened to it about its middle: rounding noise is not magnified into a zig-zag.
	double floor = 1e-6 * fmax(1.0, fmax(fabs(*lo), fabs(*hi)));
	if (!(*hi - *lo >= floor)) {
		double mid = 0.5 * (*lo + *hi);
		*lo = mid - 0.5 * floor;
		*hi = mid + 0.5 * floor;
	}
}

// The pixel of sample i of a panel: see docs/scene-format.md, "tumble plot".
static int tbPlotX(int width, const double* time, int rows, int i)
{
	int plotWidth = width - TB_PLOT_LEFT - TB_PLOT_RIGHT;
	double span = time[rows - 1] - time[0];
	return TB_PLOT_LEFT +
	       (span > 0.0 ? (int)lround((time[i] - time[0]) / span * (double)(plotWidth - 1)) : 0);
}

static int tbPlotY(int top, int panelHeight, double lo, double hi, double value)
{
	return top + (int)lround((hi - value) / (hi - lo) * (double)(panelHeight - 1));
}

// "Nice" tick values over [lo, hi]: multiples of 1, 2 or 5 times a power of ten, the step chosen
// so that 3 to TB_PLOT_MAX_TICKS of them fall in the range. Returns how many were written.
static int tbNiceTicks(double lo, double hi, double* ticks)
{
	double span = hi - lo;
	if (!(span > 0.0) || !isfinite(span)) {
		return 0;
	}
	double raw = span / 5.0;
	double power = pow(10.0, floor(log10(raw)));
	double unit = raw / power;
	double step = (unit < 1.5 ? 1.0 : unit < 3.5 ? 2.0 : unit < 7.5 ? 5.0 : 10.0) * power;
	double first = ceil(lo / step - 1e-9) * step;
	int count = 0;
	for (int k = 0; k < 2 * TB_PLOT_MAX_TICKS && count < TB_PLOT_MAX_TICKS; ++k) {
		double t = first + (double)k * step;
		if (t > hi + 1e-9 * span) {
			break;
		}
		// A tick that should be zero is not printed as 1e-17.
		ticks[count++] = fabs(t) < 1e-9 * step ? 0.0 : t;
	}
	return count;
}

// The x position of time t (the same mapping as tbPlotX).
static int tbPlotXAt(int width, const double* time, int rows, double t)
{
	int plotWidth = width - TB_PLOT_LEFT - TB_PLOT_RIGHT;
	double span = time[rows - 1] - time[0];
	return TB_PLOT_LEFT +
	       (span > 0.0 ? (int)lround((t - time[0]) / span * (double)(plotWidth - 1)) : 0);
}

// A panel's value ticks (labelled at the left) and time ticks (labelled under it when it is the
// last panel), with light grid lines across the area for each when `grid`.
static void tbDrawTicks(tbImage* image, int top, int panelHeight, double lo, double hi,
                        const double* time, int rows, bool timeLabels, bool grid)
{
	int left = TB_PLOT_LEFT, right = image->width - TB_PLOT_RIGHT - 1;
	char label[64];
	double ticks[TB_PLOT_MAX_TICKS];
	int tickCount = tbNiceTicks(lo, hi, ticks);
	for (int k = 0; k < tickCount; ++k) {
		int y = tbPlotY(top, panelHeight, lo, hi, ticks[k]);
		if (grid) {
			tbLine(image, left, y, right, y, tb_grid);
		}
		tbLine(image, left - 1 - TB_PLOT_TICK, y, left - 2, y, tb_frame);
		snprintf(label, sizeof label, "%.4g", ticks[k]);
		tbText(image, left - 6 - TB_PLOT_TICK - tbTextWidth(label), y - 4, label, tb_text);
	}
	int timeTickCount = tbNiceTicks(time[0], time[rows - 1], ticks);
	for (int k = 0; k < timeTickCount; ++k) {
		int x = tbPlotXAt(image->width, time, rows, ticks[k]);
		if (grid) {
			tbLine(image, x, top, x, top + panelHeight - 1, tb_grid);
		}
		tbLine(image, x, top + panelHeight + 1, x, top + panelHeight + TB_PLOT_TICK, tb_frame);
		if (timeLabels) {
			snprintf(label, sizeof label, "%.4g", ticks[k]);
			tbText(image, x - tbTextWidth(label) / 2, top + panelHeight + TB_PLOT_TICK + 3, label,
			       tb_text);
		}
	}
}

// The frame one pixel outside a panel's area, so that no curve pixel is ever hidden by it.
static void tbDrawFrame(tbImage* image, int top, int panelHeight)
{
	int left = TB_PLOT_LEFT, right = image->width - TB_PLOT_RIGHT - 1;
	tbLine(image, left - 1, top - 1, right + 1, top - 1, tb_frame);
	tbLine(image, left - 1, top + panelHeight, right + 1, top + panelHeight, tb_frame);
	tbLine(image, left - 1, top - 1, left - 1, top + panelHeight, tb_frame);
	tbLine(image, right + 1, top - 1, right + 1, top + panelHeight, tb_frame);
}

static void tbDrawPanel(tbImage* image, const tbPanel* panel, int index, int panelCount,
                        const double* time, int rows)
{
	int panelHeight =
	    (image->height - TB_PLOT_TOP - TB_PLOT_BOTTOM - (panelCount - 1) * TB_PLOT_GAP) /
	    panelCount;
	int top = TB_PLOT_TOP + index * (panelHeight + TB_PLOT_GAP);
	int left = TB_PLOT_LEFT, right = image->width - TB_PLOT_RIGHT - 1;
	tbDrawFrame(image, top, panelHeight);

	double lo, hi;
	tbPlotPanelRange(panel->curves, panel->curveCount, rows, &lo, &hi);
	tbDrawTicks(image, top, panelHeight, lo, hi, time, rows, index == panelCount - 1, true);
	tbText(image, left, top - 14, panel->title, tb_text);
	int x = right;
	for (int c = panel->curveCount - 1; c >= 0; --c) {
		x -= tbTextWidth(panel->names[c]) + 12;
		tbText(image, x, top - 14, panel->names[c], panel->colours[c]);
	}
	// Curves in order: the last one is on top where they cross.
	for (int c = 0; c < panel->curveCount; ++c) {
		int px = tbPlotX(image->width, time, rows, 0);
		int py = tbPlotY(top, panelHeight, lo, hi, panel->curves[c][0]);
		tbPut(image, px, py, panel->colours[c]);
		for (int i = 1; i < rows; ++i) {
			int qx = tbPlotX(image->width, time, rows, i);
			int qy = tbPlotY(top, panelHeight, lo, hi, panel->curves[c][i]);
			tbLine(image, px, py, qx, qy, panel->colours[c]);
			px = qx;
			py = qy;
		}
	}
}

// The ledger's terms (docs/energy.md) in the stacked plot's order and colours, as the CSV of
// `tumble run --energy` names them.
#define TB_LEDGER_TERMS 8
static const char* const tb_ledgerNames[TB_LEDGER_TERMS] = {
    "applied",  "damping", "position correction", "friction", "restitution", "joints",
    "rotation", "residual"};
static const tbRgb tb_ledgerColours[TB_LEDGER_TERMS] = {
    {120, 120, 120}, {170, 110, 60}, {40, 90, 220}, {220, 60, 40},
    {250, 170, 40},  {150, 40, 170}, {90, 180, 90}, {200, 200, 120}};

// A stacked panel: at each sample the terms' cumulative values piled from zero, the positive ones
// upwards and the negative ones downwards, each band filled in its colour from the sample's
// column to the next one's; the measured change drawn over them as a black line. The range holds
// both piles and the line. The picture's title names the panel; its legend is under it.
static void tbDrawStacked(tbImage* image, const double* const* terms, const double* measured,
                          int index, int panelCount, const double* time, int rows)
{
	int panelHeight =
	    (image->height - TB_PLOT_TOP - TB_PLOT_BOTTOM - (panelCount - 1) * TB_PLOT_GAP) /
	    panelCount;
	int top = TB_PLOT_TOP + index * (panelHeight + TB_PLOT_GAP);
	int left = TB_PLOT_LEFT;
	double lo = 0.0, hi = 0.0;
	for (int i = 0; i < rows; ++i) {
		double up = 0.0, down = 0.0;
		for (int k = 0; k < TB_LEDGER_TERMS; ++k) {
			up += fmax(terms[k][i], 0.0);
			down += fmin(terms[k][i], 0.0);
		}
		lo = fmin(lo, fmin(down, measured[i]));
		hi = fmax(hi, fmax(up, measured[i]));
	}
	double floor = 1e-6 * fmax(1.0, fmax(fabs(lo), fabs(hi)));
	if (!(hi - lo >= floor)) {
		hi = lo + floor;
	}
	// The frame and ticks as the line panels have them (tbDrawPanel); the legend goes under the
	// title, since ten names do not fit beside it.
	tbDrawFrame(image, top, panelHeight);
	for (int i = 0; i < rows; ++i) {
		int x0 = tbPlotX(image->width, time, rows, i);
		int x1 = i + 1 < rows ? tbPlotX(image->width, time, rows, i + 1) : x0 + 1;
		double up = 0.0, down = 0.0;
		for (int k = 0; k < TB_LEDGER_TERMS; ++k) {
			double v = terms[k][i];
			double from = v >= 0.0 ? up : down;
			double to = from + v;
			if (v >= 0.0) {
				up = to;
			} else {
				down = to;
			}
			int ya = tbPlotY(top, panelHeight, lo, hi, from);
			int yb = tbPlotY(top, panelHeight, lo, hi, to);
			if (ya == yb) {
				continue; // a band thinner than a pixel is not drawn
			}
			int y0 = ya < yb ? ya + 1 : yb, y1 = ya < yb ? yb : ya - 1;
			for (int x = x0; x < x1 || x == x0; ++x) {
				tbLine(image, x, y0, x, y1, tb_ledgerColours[k]);
			}
		}
	}
	tbDrawTicks(image, top, panelHeight, lo, hi, time, rows, index == panelCount - 1, false);
	int x = left;
	for (int k = 0; k < TB_LEDGER_TERMS; ++k) {
		tbText(image, x, top - 14, tb_ledgerNames[k], tb_ledgerColours[k]);
		x += tbTextWidth(tb_ledgerNames[k]) + 10;
	}
	tbText(image, x, top - 14, "measured", tb_total);
	// The measured change on top: zero at the start, as the piles are.
	int px = tbPlotX(image->width, time, rows, 0);
	int py = tbPlotY(top, panelHeight, lo, hi, measured[0]);
	tbPut(image, px, py, tb_total);
	for (int i = 1; i < rows; ++i) {
		int qx = tbPlotX(image->width, time, rows, i);
		int qy = tbPlotY(top, panelHeight, lo, hi, measured[i]);
		tbLine(image, px, py, qx, qy, tb_total);
		px = qx;
		py = qy;
	}
}

void tbPlotHelp(FILE* out)
{
	fprintf(
	    out,
	    "usage: tumble plot SCENE --out FILE.png [--steps N | --seconds T] [--every K]\n"
	    "                         [--size WxH] [--ledger]\n"
	    "\n"
	    "Simulate a scene (a file or a bundled name) and draw, against time, its kinetic,\n"
	    "potential and total energy, the magnitude of its linear momentum and of its\n"
	    "angular momentum about the origin: the numbers of `tumble run --energy`.\n"
	    "\n"
	    "options:\n"
	    "  --out FILE     the PNG to write (required)\n"
	    "  --steps N      simulate N steps (default: the scene's steps or seconds)\n"
	    "  --seconds T    simulate T seconds of scene time\n"
	    "  --every K      plot every K-th step (default 1); step 0 and the last always\n"
	    "  --size WxH     picture size in pixels (default 800x600; at least 320x240)\n"
	    "  --ledger       draw the energy ledger instead (docs/energy.md): the change of the\n"
	    "                 total energy since the start, stacked by cause (gravity and forces,\n"
	    "                 damping, position correction, friction, impacts and restitution,\n"
	    "                 joints, the finish's rotation, the residual) with the measured change\n"
	    "                 over it, and the energies; the columns of `tumble run --energy`\n"
	    "  -h, --help     this text\n");
}

int tbPlotCommand(int argc, char** argv)
{
	const char* sceneArg = NULL;
	const char* outPath = NULL;
	long long steps = 0, every = 1, width = 800, height = 600;
	double seconds = 0.0;
	bool ledger = false;
	for (int i = 1; i < argc; ++i) {
		const char* arg = argv[i];
		const char* value = NULL;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			tbPlotHelp(stdout);
			return 0;
		} else if (strcmp(arg, "--ledger") == 0) {
			ledger = true;
		} else if (tbMatchOption(arg, "--out", &i, argc, argv, &value)) {
			if (value == NULL || value[0] == '\0') {
				fprintf(stderr, "tumble plot: --out: expected a file name\n");
				return TB_EXIT_USAGE;
			}
			outPath = value;
		} else if (tbMatchOption(arg, "--steps", &i, argc, argv, &value) ||
		           tbMatchOption(arg, "--every", &i, argc, argv, &value)) {
			bool isSteps = arg[2] == 's';
			if (!tbParseCount(value, 1000000000LL, isSteps ? &steps : &every)) {
				fprintf(stderr, "tumble plot: %s: expected a whole number >= 1, got '%s'\n",
				        isSteps ? "--steps" : "--every", value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (tbMatchOption(arg, "--seconds", &i, argc, argv, &value)) {
			char* end = NULL;
			seconds = value != NULL ? strtod(value, &end) : 0.0;
			if (value == NULL || end == value || *end != '\0' || !(seconds > 0.0) ||
			    !isfinite(seconds)) {
				fprintf(stderr, "tumble plot: --seconds: expected a number > 0, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
		} else if (tbMatchOption(arg, "--size", &i, argc, argv, &value)) {
			int w = 0, h = 0;
			char tail = '\0';
			if (value == NULL || sscanf(value, "%dx%d%c", &w, &h, &tail) != 2 || w < 320 ||
			    h < 240 || w > 8192 || h > 8192) {
				fprintf(stderr,
				        "tumble plot: --size: expected WxH from 320x240 to 8192x8192, got '%s'\n",
				        value != NULL ? value : "nothing");
				return TB_EXIT_USAGE;
			}
			width = w;
			height = h;
		} else if (arg[0] == '-' && arg[1] != '\0') {
			fprintf(stderr, "tumble plot: unknown option '%s' (see tumble plot --help)\n", arg);
			return TB_EXIT_USAGE;
		} else if (sceneArg == NULL) {
			sceneArg = arg;
		} else {
			fprintf(stderr, "tumble plot: one scene only, got '%s' and '%s'\n", sceneArg, arg);
			return TB_EXIT_USAGE;
		}
	}
	if (sceneArg == NULL || outPath == NULL) {
		fprintf(stderr,
		        "tumble plot: expected SCENE and --out FILE.png (see tumble plot --help)\n");
		return TB_EXIT_USAGE;
	}
	if (steps > 0 && seconds > 0.0) {
		fprintf(stderr, "tumble plot: give --steps or --seconds, not both\n");
		return TB_EXIT_USAGE;
	}
	char path[4096];
	if (!tbFindScene(sceneArg, path, sizeof path)) {
		fprintf(stderr, "tumble plot: '%s': no such file, nor a bundled scene of that name\n",
		        sceneArg);
		return TB_EXIT_USAGE;
	}
	tbScene scene;
	tbSceneError error;
	if (!tbLoadScene(path, &scene, &error)) {
		fprintf(stderr, "tumble plot: %s\n", error.message);
		return error.line > 0 ? TB_EXIT_BAD_INPUT : TB_EXIT_USAGE;
	}
	const tbSceneDef* d = &scene.def;
	if (steps == 0) {
		double n = seconds > 0.0 ? ceil(seconds / (double)d->dt - 1e-6) : (double)d->steps;
		steps = n < 1.0 ? 1 : n > 1e9 ? 1000000000LL : (long long)n;
	}
	long long rowsWanted = steps / every + 2;
	if (rowsWanted > TB_PLOT_MAX_ROWS) {
		fprintf(stderr, "tumble plot: %lld frames to plot; use --every to keep under %d\n",
		        rowsWanted, TB_PLOT_MAX_ROWS);
		tbDestroyScene(&scene);
		return TB_EXIT_USAGE;
	}
	// Columns: time, kinetic, potential, total, |P|, |L|, the total's change, and with --ledger
	// the terms' sums since the start and the measured change's.
	int columns = 7 + (ledger ? TB_LEDGER_TERMS + 1 : 0);
	double* data = malloc(sizeof(double) * (size_t)columns * (size_t)rowsWanted);
	tbImage image = {(int)width, (int)height, malloc(3 * (size_t)width * (size_t)height)};
	if (data == NULL || image.pixels == NULL) {
		fprintf(stderr, "tumble plot: out of memory\n");
		free(data);
		free(image.pixels);
		tbDestroyScene(&scene);
		return TB_EXIT_USAGE;
	}
	double* time = data;
	double* kinetic = data + rowsWanted;
	double* potential = data + 2 * rowsWanted;
	double* total = data + 3 * rowsWanted;
	double* linear = data + 4 * rowsWanted;
	double* angular = data + 5 * rowsWanted;
	double* change = data + 6 * rowsWanted;
	double* terms[TB_LEDGER_TERMS];
	for (int k = 0; k < TB_LEDGER_TERMS; ++k) {
		terms[k] = ledger ? data + (7 + k) * rowsWanted : NULL;
	}
	double* measured = ledger ? data + (7 + TB_LEDGER_TERMS) * rowsWanted : NULL;
	double sums[TB_LEDGER_TERMS + 1] = {0.0};
	if (ledger) {
		tbWorld_EnableEnergyLedger(scene.worldId, true);
	}
	int rows = 0;
	bool stepped = true;
	for (long long step = 0; step <= steps && stepped; ++step) {
		if (step > 0) {
			stepped = tbWorld_Step(scene.worldId, d->dt, d->substeps);
			if (stepped && ledger) {
				// Every step's terms are summed, the rows plotted or not.
				tbEnergyLedger e = tbWorld_GetEnergyLedger(scene.worldId);
				const double values[TB_LEDGER_TERMS + 1] = {
				    e.applied, e.damping,  e.positionCorrection, e.friction, e.restitution,
				    e.joints,  e.rotation, e.residual,           e.change};
				for (int k = 0; k <= TB_LEDGER_TERMS; ++k) {
					sums[k] += values[k];
				}
			}
		}
		if (stepped && (step % every == 0 || step == steps) && rows < rowsWanted) {
			tbEnergyRow e;
			tbMeasureEnergy(&scene, &e);
			// The time as `tumble run --energy` writes it, so that the two agree to the digit.
			time[rows] = (double)step * (double)d->dt;
			kinetic[rows] = e.kinetic;
			if (ledger) {
				for (int k = 0; k < TB_LEDGER_TERMS; ++k) {
					terms[k][rows] = sums[k];
				}
				measured[rows] = sums[TB_LEDGER_TERMS];
			}
			potential[rows] = e.potential;
			total[rows] = e.total;
			linear[rows] = sqrt(e.momentum[0] * e.momentum[0] + e.momentum[1] * e.momentum[1] +
			                    e.momentum[2] * e.momentum[2]);
			angular[rows] = sqrt(e.angularMomentum[0] * e.angularMomentum[0] +
			                     e.angularMomentum[1] * e.angularMomentum[1] +
			                     e.angularMomentum[2] * e.angularMomentum[2]);
			bool finite = isfinite(e.total) && isfinite(linear[rows]) && isfinite(angular[rows]);
			if (!finite) {
				fprintf(stderr, "tumble plot: a non-finite energy at step %lld\n", step);
				stepped = false;
				break;
			}
			++rows;
		}
	}
	if (!stepped) {
		fprintf(stderr, "tumble plot: the run stopped: %s\n", tbGetLastError());
	}
	int status = 0;
	if (rows > 0) {
		for (size_t i = 0; i < 3 * (size_t)width * (size_t)height; i += 3) {
			image.pixels[i] = tb_white.r;
			image.pixels[i + 1] = tb_white.g;
			image.pixels[i + 2] = tb_white.b;
		}
		char title[512];
		snprintf(title, sizeof title, "%s: %d bodies, %.4g s, dt %.4g s%s", d->fileName,
		         d->bodyCount, time[rows - 1], (double)d->dt,
		         ledger ? ": energy change since the start by cause, J (stacked)" : "");
		tbText(&image, TB_PLOT_LEFT, 6, title, tb_text);
		// The exchange a student looks for: the potential energy above its lowest value of the
		// run (and the total with it), so that a pendulum's swing of 0.3 J is not a flat line
		// under 83 J of potential energy; and the total's change from its start, on a scale of
		// its own, where drift and losses show.
		double lowest = INFINITY;
		for (int i = 0; i < rows; ++i) {
			lowest = fmin(lowest, potential[i]);
		}
		double start = total[0];
		for (int i = 0; i < rows; ++i) {
			potential[i] -= lowest;
			total[i] -= lowest;
			change[i] = total[i] + lowest - start;
		}
		tbPanel panels[TB_PLOT_PANELS] = {
		    {"energy, J (potential above its lowest)",
		     {"kinetic", "potential", "total"},
		     {kinetic, potential, total},
		     {tb_kinetic, tb_potential, tb_total},
		     3},
		    {"total energy - its start, J", {"E - E0"}, {change}, {tb_change}, 1},
		    {"|linear momentum|, kg m/s", {"|P|"}, {linear}, {tb_linear}, 1},
		    {"|angular momentum| about the origin, kg m^2/s", {"|L|"}, {angular}, {tb_angular}, 1},
		};
		if (ledger) {
			tbDrawStacked(&image, (const double* const*)terms, measured, 0, 2, time, rows);
			tbDrawPanel(&image, panels, 1, 2, time, rows);
		} else {
			for (int p = 0; p < TB_PLOT_PANELS; ++p) {
				tbDrawPanel(&image, panels + p, p, TB_PLOT_PANELS, time, rows);
			}
		}
		tbText(&image, 8, (int)height - TB_PLOT_BOTTOM + TB_PLOT_TICK + 3, "time, s", tb_text);
		if (!stbi_write_png(outPath, (int)width, (int)height, 3, image.pixels, 3 * (int)width)) {
			fprintf(stderr, "tumble plot: cannot write '%s'\n", outPath);
			status = TB_EXIT_USAGE;
		} else {
			printf("%s: %d frames of %s, %lldx%lld\n", outPath, rows, d->fileName, width, height);
		}
	}
	free(data);
	free(image.pixels);
	tbDestroyScene(&scene);
	return status != 0 ? status : stepped ? 0 : TB_EXIT_BAD_INPUT;
}

bool tbWritePlot(const char* path, int width, int height, const char* title, const char* xLabel,
                 const double* x, int rows, const tbPanel* panels, int panelCount)
{
	if (rows < 1 || panelCount < 1 || width < 320 || height < 240) {
		return false;
	}
	tbImage image = {width, height, malloc(3 * (size_t)width * (size_t)height)};
	if (image.pixels == NULL) {
		return false;
	}
	memset(image.pixels, 255, 3 * (size_t)width * (size_t)height);
	tbText(&image, TB_PLOT_LEFT, 6, title, tb_text);
	for (int p = 0; p < panelCount; ++p) {
		tbDrawPanel(&image, panels + p, p, panelCount, x, rows);
	}
	tbText(&image, 8, height - TB_PLOT_BOTTOM + TB_PLOT_TICK + 3, xLabel, tb_text);
	bool ok = stbi_write_png(path, width, height, 3, image.pixels, 3 * width) != 0;
	free(image.pixels);
	return ok;
}
