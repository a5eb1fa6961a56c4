// `tumble plot` draws what `tumble run --energy` writes: the test runs both on a bundled scene,
// reads the CSV back, finds where each panel's extremes must be drawn from the layout documented
// in docs/scene-format.md ("tumble plot"), and checks the PNG has the curve's colour there. It also
// checks the energy CSV against physics: in free fall, before any contact, the total energy of the
// bounce scene stays within 1 % of its start and the momentum grows as m g t.
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "png_check.h"

#define ROWS_MAX 4096

typedef struct Series
{
	int rows;
	double time[ROWS_MAX], kinetic[ROWS_MAX], potential[ROWS_MAX], total[ROWS_MAX];
	double linear[ROWS_MAX], angular[ROWS_MAX];
	// As drawn: potential and total above the lowest potential, the total's change from its start.
	double raisedPotential[ROWS_MAX], raisedTotal[ROWS_MAX], change[ROWS_MAX];
	// The ledger's columns of each row: d_total, then applied .. residual (8 terms).
	double ledger[ROWS_MAX][9];
	double momentum[ROWS_MAX][3];
} Series;

static Series s_series;

static void run(const char* command)
{
	int status = system(command);
	cr_assert_eq(status, 0, "'%s' exited with %d", command, status);
}

static void readEnergy(const char* path, Series* s)
{
	FILE* file = fopen(path, "r");
	cr_assert_not_null(file, "%s", path);
	char line[1024];
	cr_assert_not_null(fgets(line, sizeof line, file));
	cr_assert_str_eq(line,
	                 "step,time,kinetic,potential,total,px,py,pz,lx,ly,lz,d_total,applied,damping,"
	                 "position_correction,friction,restitution,joints,rotation,residual,created\n");
	s->rows = 0;
	while (fgets(line, sizeof line, file) != NULL && s->rows < ROWS_MAX) {
		long long step;
		double l[3];
		int i = s->rows;
		double* p = s->momentum[i];
		cr_assert_eq(sscanf(line, "%lld,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &step,
		                    &s->time[i], &s->kinetic[i], &s->potential[i], &s->total[i], &p[0],
		                    &p[1], &p[2], &l[0], &l[1], &l[2]),
		             11, "bad row '%s'", line);
		// The ledger's columns follow the eleventh comma.
		const char* at = line;
		for (int comma = 0; comma < 11 && at != NULL; ++comma) {
			at = strchr(at, ',');
			at = at != NULL ? at + 1 : NULL;
		}
		cr_assert_not_null(at, "no ledger columns in '%s'", line);
		double* g = s->ledger[i];
		cr_assert_eq(sscanf(at, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &g[0], &g[1], &g[2], &g[3],
		                    &g[4], &g[5], &g[6], &g[7], &g[8]),
		             9, "bad ledger columns '%s'", at);
		s->linear[i] = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
		s->angular[i] = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
		++s->rows;
	}
	fclose(file);
}

// The layout of docs/scene-format.md: margins 80 / 16 / 36 / 28 px, four panels 36 px apart.
static void panelRange(const double* const* curves, int count, int rows, double* lo, double* hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int c = 0; c < count; ++c) {
		for (int i = 0; i < rows; ++i) {
			*lo = fmin(*lo, curves[c][i]);
			*hi = fmax(*hi, curves[c][i]);
		}
	}
	double floor = 1e-6 * fmax(1.0, fmax(fabs(*lo), fabs(*hi)));
	if (!(*hi - *lo >= floor)) {
		double mid = 0.5 * (*lo + *hi);
		*lo = mid - 0.5 * floor;
		*hi = mid + 0.5 * floor;
	}
}

// Whether the picture has colour `rgb` within a pixel of where sample i of the panel's curve is.
static bool curveAt(const unsigned char* png, int w, int h, int panel, const Series* s,
                    const double* const* curves, int count, const double* curve, int i,
                    const unsigned char rgb[3], int* px, int* py)
{
	int panelHeight = (h - 36 - 28 - 3 * 36) / 4;
	int top = 36 + panel * (panelHeight + 36);
	double lo, hi;
	panelRange(curves, count, s->rows, &lo, &hi);
	double span = s->time[s->rows - 1] - s->time[0];
	*px = 80 + (int)lround((s->time[i] - s->time[0]) / span * (double)(w - 96 - 1));
	*py = top + (int)lround((hi - curve[i]) / (hi - lo) * (double)(panelHeight - 1));
	return pngColourNear(png, w, h, *px, *py, rgb);
}

Test(plot, png_draws_the_energy_csv)
{
	const char* csv = TB_TEST_OUT_DIR "/plot_bounce_energy.csv";
	const char* png = TB_TEST_OUT_DIR "/plot_bounce.png";
	remove(png);
	run(TB_TUMBLE " run bounce --steps 240 --every 2 --energy " TB_TEST_OUT_DIR
	              "/plot_bounce_energy.csv > /dev/null");
	run(TB_TUMBLE " plot bounce --steps 240 --every 2 --size 640x480 --out " TB_TEST_OUT_DIR
	              "/plot_bounce.png > /dev/null");
	Series* s = &s_series;
	readEnergy(csv, s);
	cr_assert_eq(s->rows, 121, "steps 0, 2, ..., 240: %d rows", s->rows);

	int w, h, channels;
	unsigned char* pixels = stbi_load(png, &w, &h, &channels, 3);
	cr_assert_not_null(pixels, "cannot read %s", png);
	cr_assert_eq(w, 640);
	cr_assert_eq(h, 480);

	// The energies as drawn (docs/scene-format.md): potential and total above the run's lowest
	// potential, and the total's change from its start.
	double lowest = INFINITY;
	for (int i = 0; i < s->rows; ++i) {
		lowest = fmin(lowest, s->potential[i]);
	}
	for (int i = 0; i < s->rows; ++i) {
		s->raisedPotential[i] = s->potential[i] - lowest;
		s->raisedTotal[i] = s->total[i] - lowest;
		s->change[i] = s->total[i] - s->total[0];
	}
	const double* energy[3] = {s->kinetic, s->raisedPotential, s->raisedTotal};
	const double* change[1] = {s->change};
	const double* linear[1] = {s->linear};
	const double* angular[1] = {s->angular};
	static const unsigned char total[3] = {20, 20, 20}, orange[3] = {200, 120, 0},
	                           green[3] = {30, 150, 60}, purple[3] = {150, 40, 170};
	// The last-drawn curve of each panel, at its largest and smallest sample.
	struct
	{
		int panel;
		const double* const* curves;
		int count;
		const double* curve;
		const unsigned char* rgb;
		const char* name;
	} checks[] = {
	    {0, energy, 3, s->raisedTotal, total, "total energy"},
	    {1, change, 1, s->change, orange, "E - E0"},
	    {2, linear, 1, s->linear, green, "|P|"},
	    {3, angular, 1, s->angular, purple, "|L|"},
	};
	for (int c = 0; c < 4; ++c) {
		for (int k = 0; k < 2; ++k) {
			int i = argExtreme(checks[c].curve, s->rows, k == 0);
			int x, y;
			cr_expect(curveAt(pixels, w, h, checks[c].panel, s, checks[c].curves, checks[c].count,
			                  checks[c].curve, i, checks[c].rgb, &x, &y),
			          "%s %s (%g at t = %g s) is not drawn at (%d, %d)", checks[c].name,
			          k == 0 ? "max" : "min", checks[c].curve[i], s->time[i], x, y);
		}
	}
	stbi_image_free(pixels);

	// Physics of the CSV: the balls of the bounce scene fall freely for 0.3 s (from 1 m, they
	// touch at t = sqrt(2 / 9.81) = 0.45 s): the total energy holds to 1 % and the momentum is
	// the total mass times g t (the mass from the start: P = 0, then py = -M g t).
	int before = 0;
	while (before + 1 < s->rows && s->time[before + 1] <= 0.3) {
		++before;
	}
	cr_assert_gt(before, 5);
	double m = -s->momentum[1][1] / (9.81 * s->time[1]);
	for (int i = 0; i <= before; ++i) {
		cr_expect(fabs(s->total[i] - s->total[0]) <= 0.01 * fabs(s->total[0]),
		          "free fall: total %g at t = %g, %g at 0", s->total[i], s->time[i], s->total[0]);
		cr_expect(fabs(-s->momentum[i][1] - m * 9.81 * s->time[i]) <= 1e-3 * m * 9.81 * 0.3 + 1e-9,
		          "free fall: py %g at t = %g", s->momentum[i][1], s->time[i]);
	}
}

// `tumble plot --ledger`: two panels (docs/scene-format.md), the first the ledger's terms since the
// start stacked, with the measured change over them in black. Its extremes are found from the CSV
// of `tumble run --energy` (the same terms, summed here), and the terms add up to the measured
// change (the ledger's promise, docs/energy.md).
Test(plot, ledger_stacks_the_terms_under_the_measured_change)
{
	const char* csv = TB_TEST_OUT_DIR "/plot_ledger_energy.csv";
	const char* png = TB_TEST_OUT_DIR "/plot_ledger.png";
	remove(png);
	run(TB_TUMBLE " run bounce --steps 180 --energy " TB_TEST_OUT_DIR
	              "/plot_ledger_energy.csv > /dev/null");
	run(TB_TUMBLE " plot bounce --steps 180 --ledger --size 640x480 --out " TB_TEST_OUT_DIR
	              "/plot_ledger.png > /dev/null");
	Series* s = &s_series;
	readEnergy(csv, s);
	cr_assert_eq(s->rows, 181);
	// Cumulative sums: the measured change and the eight bands of the plot.
	static double measured[ROWS_MAX];
	double sum[9] = {0.0};
	double lo = 0.0, hi = 0.0, worstGap = 0.0;
	for (int i = 0; i < s->rows; ++i) {
		for (int k = 0; k < 9; ++k) {
			sum[k] += s->ledger[i][k];
		}
		measured[i] = sum[0];
		const double b[8] = {sum[1], sum[2], sum[3], sum[4], sum[5], sum[6], sum[7], sum[8]};
		double up = 0.0, down = 0.0, terms = 0.0;
		for (int k = 0; k < 8; ++k) {
			up += fmax(b[k], 0.0);
			down += fmin(b[k], 0.0);
			terms += b[k];
		}
		lo = fmin(lo, fmin(down, measured[i]));
		hi = fmax(hi, fmax(up, measured[i]));
		worstGap = fmax(worstGap, fabs(terms - measured[i]));
	}
	// The CSV's nine digits: the terms' sum is the measured change to their rounding.
	cr_expect_lt(worstGap, 1e-6 * (fabs(s->total[0]) + 1.0), "terms - change %g", worstGap);
	int w, h, channels;
	unsigned char* pixels = stbi_load(png, &w, &h, &channels, 3);
	cr_assert_not_null(pixels, "cannot read %s", png);
	int panelHeight = (h - 36 - 28 - 36) / 2;
	double span = s->time[s->rows - 1] - s->time[0];
	static const unsigned char black[3] = {20, 20, 20};
	for (int k = 0; k < 2; ++k) {
		int i = argExtreme(measured, s->rows, k == 0);
		int px = 80 + (int)lround((s->time[i] - s->time[0]) / span * (double)(w - 96 - 1));
		int py = 36 + (int)lround((hi - measured[i]) / (hi - lo) * (double)(panelHeight - 1));
		cr_expect(pngColourNear(pixels, w, h, px, py, black),
		          "the measured change's %s (%g J at t = %g s) is not drawn at (%d, %d)",
		          k == 0 ? "max" : "min", measured[i], s->time[i], px, py);
	}
	stbi_image_free(pixels);
}
