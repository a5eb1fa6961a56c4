// `tumble lab` and `tumble check`, run as a student runs them: every experiment at its defaults
// (60 Hz) prints a figure within its tolerance of the closed form; a sweep's PNG draws its CSV
// (extremes read back, the layout of docs/scene-format.md with two panels); `tumble check` finds a
// perturbation injected at a known step and parts from an explicit Euler pendulum where an
// independent RK4 says it should; bad input is refused.
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <stb_image.h>

#include "png_check.h"

#define OUT_SIZE 65536

// Run a command; its stdout and stderr in `out`, its exit status returned.
static int capture(const char* command, char* out)
{
	char full[2048];
	snprintf(full, sizeof full, "%s 2>&1", command);
	FILE* pipe = popen(full, "r");
	cr_assert_not_null(pipe, "%s", command);
	size_t n = fread(out, 1, OUT_SIZE - 1, pipe);
	out[n] = '\0';
	int status = pclose(pipe);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static double field(const char* out, const char* label)
{
	const char* at = strstr(out, label);
	cr_assert_not_null(at, "no '%s' in:\n%s", label, out);
	return strtod(at + strlen(label), NULL);
}

Test(lab, every_experiment_at_its_defaults_matches_its_closed_form)
{
	static char list[OUT_SIZE], out[OUT_SIZE];
	cr_assert_eq(capture(TB_TUMBLE " lab", list), 0);
	int count = 0;
	for (char* line = strtok(list, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		char name[64];
		if (line[0] == '\n' || strncmp(line, "run one", 7) == 0 ||
		    sscanf(line, "%63s", name) != 1) {
			continue;
		}
		char command[256];
		snprintf(command, sizeof command, TB_TUMBLE " lab %s --rate 60", name);
		int status = capture(command, out);
		++count;
		cr_expect_eq(status, 0, "%s exited %d:\n%s", name, status, out);
		double measured = field(out, "measured");
		double closed = field(out, "closed form");
		double tolerance = field(out, "(tolerance") / 100.0;
		cr_expect(fabs(measured / closed - 1.0) <= tolerance, "%s: %g against %g (tolerance %g)",
		          name, measured, closed, tolerance);
		cr_expect(strstr(out, "result       pass") != NULL, "%s:\n%s", name, out);
	}
	cr_expect_geq(count, 12, "%d experiments listed", count);
}

// The cradle at the other step rates and sizes a course would try: the last ball leaves at v0
// (elastic collisions of equal masses, pair after pair) within the experiment's 2 %.
Test(lab, cradle_at_30_and_120_hz_and_other_rows)
{
	static char out[OUT_SIZE];
	const char* args[] = {"--rate 30",
	                      "--rate 120",
	                      "--balls 3 --rate 30",
	                      "--balls 7 --rate 120",
	                      "--balls 7 --speed 4 --radius 0.05",
	                      "--balls 3 --speed 0.3 --radius 0.5"};
	for (size_t i = 0; i < sizeof args / sizeof args[0]; ++i) {
		char command[256];
		snprintf(command, sizeof command, TB_TUMBLE " lab cradle %s", args[i]);
		int status = capture(command, out);
		cr_expect_eq(status, 0, "cradle %s exited %d:\n%s", args[i], status, out);
		double measured = field(out, "measured");
		cr_expect(fabs(measured - 1.0) <= 0.02, "cradle %s: last ball %g v0", args[i], measured);
	}
}

// The sweep's CSV rows, read back.
typedef struct Sweep
{
	int rows;
	double x[64], measured[64], closed[64], error[64];
} Sweep;

static void panelRange(const double* a, const double* b, int rows, double* lo, double* hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < rows; ++i) {
		*lo = fmin(*lo, fmin(a[i], b != NULL ? b[i] : a[i]));
		*hi = fmax(*hi, fmax(a[i], b != NULL ? b[i] : a[i]));
	}
	double floor = 1e-6 * fmax(1.0, fmax(fabs(*lo), fabs(*hi)));
	if (!(*hi - *lo >= floor)) {
		double mid = 0.5 * (*lo + *hi);
		*lo = mid - 0.5 * floor;
		*hi = mid + 0.5 * floor;
	}
}

// Whether colour rgb is within a pixel of sample i of a panel (two panels, docs/scene-format.md).
static bool drawnAt(const unsigned char* png, int w, int h, int panel, const Sweep* s,
                    const double* curve, const double* other, int i, const unsigned char rgb[3])
{
	int panelHeight = (h - 36 - 28 - 36) / 2;
	int top = 36 + panel * (panelHeight + 36);
	double lo, hi;
	panelRange(curve, other, s->rows, &lo, &hi);
	int px = 80 + (int)lround((s->x[i] - s->x[0]) / (s->x[s->rows - 1] - s->x[0]) *
	                          (double)(w - 96 - 1));
	int py = top + (int)lround((hi - curve[i]) / (hi - lo) * (double)(panelHeight - 1));
	return pngColourNear(png, w, h, px, py, rgb);
}

Test(lab, sweep_writes_a_csv_and_a_png_that_draws_it)
{
	static char out[OUT_SIZE];
	const char* png = TB_TEST_OUT_DIR "/lab_bounce_e.png";
	const char* csv = TB_TEST_OUT_DIR "/lab_bounce_e.csv";
	remove(png);
	remove(csv);
	int status = capture(TB_TUMBLE " lab bounce --n 2 --sweep e 0.5:1:6 --plot " TB_TEST_OUT_DIR
	                               "/lab_bounce_e.png --csv " TB_TEST_OUT_DIR "/lab_bounce_e.csv",
	                     out);
	cr_assert_eq(status, 0, "%s", out);
	FILE* file = fopen(csv, "r");
	cr_assert_not_null(file);
	char line[512];
	cr_assert_not_null(fgets(line, sizeof line, file));
	cr_assert_str_eq(line, "e,measured,closed_form,error,pass\n");
	Sweep s = {0};
	int pass;
	while (fgets(line, sizeof line, file) != NULL && s.rows < 64) {
		int i = s.rows++;
		cr_assert_eq(sscanf(line, "%lf,%lf,%lf,%lf,%d", &s.x[i], &s.measured[i], &s.closed[i],
		                    &s.error[i], &pass),
		             5, "bad row '%s'", line);
		// The closed form e^4 h with h = 1 m.
		cr_expect(fabs(s.closed[i] - pow(s.x[i], 4.0)) < 1e-6 * s.closed[i] + 1e-9);
		cr_expect_eq(pass, 1, "e %g: %g against %g", s.x[i], s.measured[i], s.closed[i]);
	}
	fclose(file);
	cr_assert_eq(s.rows, 6);
	int w, h, channels;
	unsigned char* pixels = stbi_load(png, &w, &h, &channels, 3);
	cr_assert_not_null(pixels, "cannot read %s", png);
	cr_assert_eq(w, 800);
	cr_assert_eq(h, 600);
	static const unsigned char blue[3] = {40, 90, 220}, black[3] = {20, 20, 20};
	for (int k = 0; k < 2; ++k) {
		// The closed form is drawn over the measured curve; the error alone in its panel.
		int i = argExtreme(s.closed, s.rows, k == 0);
		cr_expect(drawnAt(pixels, w, h, 0, &s, s.closed, s.measured, i, blue),
		          "closed form %g at e = %g not drawn", s.closed[i], s.x[i]);
		i = argExtreme(s.error, s.rows, k == 0);
		cr_expect(drawnAt(pixels, w, h, 1, &s, s.error, NULL, i, black),
		          "error %g at e = %g not drawn", s.error[i], s.x[i]);
	}
	stbi_image_free(pixels);
}

// Copy the engine's trajectory with body 1's x moved by `shift` from step k on.
static void perturb(const char* from, const char* to, long long k, double shift)
{
	FILE* in = fopen(from, "r");
	FILE* out = fopen(to, "w");
	cr_assert(in != NULL && out != NULL);
	char line[1024];
	cr_assert_not_null(fgets(line, sizeof line, in));
	fputs(line, out);
	while (fgets(line, sizeof line, in) != NULL) {
		long long step;
		int body, n = 0;
		char name[64];
		double x;
		cr_assert_eq(sscanf(line, "%lld,%d,%63[^,],%lf%n", &step, &body, name, &x, &n), 4);
		if (body == 1 && step >= k) {
			fprintf(out, "%lld,%d,%s,%.9g%s", step, body, name, x + shift, line + n);
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	fclose(out);
}

Test(lab, check_finds_an_injected_divergence)
{
	static char out[OUT_SIZE];
	const char* engine = TB_TEST_OUT_DIR "/lab_pendulum.csv";
	const char* bad = TB_TEST_OUT_DIR "/lab_pendulum_bad.csv";
	cr_assert_eq(capture(TB_TUMBLE " lab pendulum --csv " TB_TEST_OUT_DIR "/lab_pendulum.csv", out),
	             0, "%s", out);
	// The engine's own trajectory agrees with the engine.
	cr_assert_eq(
	    capture(TB_TUMBLE " check " TB_TEST_OUT_DIR "/lab_pendulum.csv --lab pendulum", out), 0,
	    "%s", out);
	cr_expect(strstr(out, "engine       agrees") != NULL, "%s", out);
	// 5 cm (5 % of the 1 m pendulum) from step 137 on.
	perturb(engine, bad, 137, 0.05);
	int status =
	    capture(TB_TUMBLE " check " TB_TEST_OUT_DIR "/lab_pendulum_bad.csv --lab pendulum", out);
	cr_expect_eq(status, 1, "%s", out);
	cr_expect(strstr(out, "engine       parts at step 137, body 1:") != NULL, "%s", out);
	// Within the tolerance when it is looser than the perturbation.
	status = capture(TB_TUMBLE " check " TB_TEST_OUT_DIR
	                           "/lab_pendulum_bad.csv --lab pendulum --tolerance 0.06",
	                 out);
	cr_expect_eq(status, 0, "%s", out);
}

// An explicit Euler pendulum (x' = v, v' = a with the old values) gains energy every step: check
// says where it parts from the closed form; an RK4 of the same equation at 1e-4 s here gives the
// step independently.
Test(lab, check_parts_from_an_explicit_euler_pendulum)
{
	static char out[OUT_SIZE];
	const double L = 1.0, r = 0.05, g = 9.81, dt = 1.0 / 60.0, a0 = 10.0 * M_PI / 180.0;
	const double k = g * L / (L * L + 0.4 * r * r), H = L + 1.0;
	const char* path = TB_TEST_OUT_DIR "/lab_euler.csv";
	FILE* file = fopen(path, "w");
	cr_assert_not_null(file);
	fputs("step,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", file);
	double theta = a0, omega = 0.0, rk = a0, rw = 0.0;
	int expected = -1;
	for (int s = 0; s <= 600; ++s) {
		fprintf(file, "%d,0,pivot,0,%.9g,0,1,0,0,0,0,0,0,0,0,0\n", s, H);
		fprintf(file, "%d,1,bob,%.9g,%.9g,0,1,0,0,0,0,0,0,0,0,0\n", s, L * sin(theta),
		        H - L * cos(theta));
		double dx = L * (sin(theta) - sin(rk)), dy = L * (cos(theta) - cos(rk));
		if (expected < 0 && sqrt(dx * dx + dy * dy) > 0.01 * L) {
			expected = s;
		}
		double next = theta + dt * omega;
		omega -= dt * k * sin(theta);
		theta = next;
		for (int i = 0; i < 167; ++i) {
			double h = dt / 167.0;
			double k1t = rw, k1w = -k * sin(rk);
			double k2t = rw + 0.5 * h * k1w, k2w = -k * sin(rk + 0.5 * h * k1t);
			double k3t = rw + 0.5 * h * k2w, k3w = -k * sin(rk + 0.5 * h * k2t);
			double k4t = rw + h * k3w, k4w = -k * sin(rk + h * k3t);
			rk += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
			rw += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
		}
	}
	fclose(file);
	cr_assert_gt(expected, 0, "the Euler pendulum never left its reference");
	int status = capture(TB_TUMBLE " check " TB_TEST_OUT_DIR "/lab_euler.csv --lab pendulum", out);
	cr_expect_eq(status, 1, "%s", out);
	const char* at = strstr(out, "closed form  parts at step ");
	cr_assert_not_null(at, "%s", out);
	long long step = strtoll(at + strlen("closed form  parts at step "), NULL, 10);
	cr_expect(llabs(step - expected) <= 1, "check says step %lld, the RK4 here %d:\n%s", step,
	          expected, out);
	cr_expect(strstr(out, "engine       parts at step") != NULL, "%s", out);
}

Test(lab, scene_files_run)
{
	static char out[OUT_SIZE];
	cr_assert_eq(
	    capture(TB_TUMBLE " lab chain --links 8 --scene " TB_TEST_OUT_DIR "/lab_chain.json", out),
	    0, "%s", out);
	cr_expect_eq(capture(TB_TUMBLE " run " TB_TEST_OUT_DIR "/lab_chain.json --steps 30", out), 0,
	             "%s", out);
	cr_expect(strstr(out, "(10 bodies)") != NULL, "%s", out);
}

static void refused(const char* command, int status, const char* message)
{
	static char out[OUT_SIZE];
	int got = capture(command, out);
	cr_expect_eq(got, status, "'%s' exited %d:\n%s", command, got, out);
	cr_expect(strstr(out, message) != NULL, "'%s' says:\n%s\nnot '%s'", command, out, message);
}

Test(lab, bad_input_is_refused_clearly)
{
	refused(TB_TUMBLE " lab nosuch", 2, "unknown experiment 'nosuch'");
	refused(TB_TUMBLE " lab pendulum --colour 3", 2, "unknown key '--colour' (keys: --length");
	refused(TB_TUMBLE " lab pendulum --length -1", 2, "--length: expected a number from 0.1 to 10");
	refused(TB_TUMBLE " lab pendulum --length", 2, "got 'nothing'");
	refused(TB_TUMBLE " lab bounce --sweep e 1:0.5:4", 2, "expected A:B:N");
	refused(TB_TUMBLE " lab bounce --sweep e 0.5:1:1", 2, "expected A:B:N");
	refused(TB_TUMBLE " lab bounce --sweep e 0.5:1", 2, "expected A:B:N");
	refused(TB_TUMBLE " lab bounce --sweep colour 0:1:3", 2, "--sweep: unknown key 'colour'");
	refused(TB_TUMBLE " lab chain --links 7", 2, "links must be even");
	refused(TB_TUMBLE " lab pendulum --plot x.png", 2, "--plot goes with --sweep");
	refused(TB_TUMBLE " check x.csv", 2, "missing --lab NAME");
	refused(TB_TUMBLE " check x.csv --lab nosuch", 2, "unknown experiment 'nosuch'");
	refused(TB_TUMBLE " check " TB_TEST_OUT_DIR "/no_such_file.csv --lab pendulum", 2,
	        "cannot open");
	const char* path = TB_TEST_OUT_DIR "/lab_malformed.csv";
	FILE* file = fopen(path, "w");
	cr_assert_not_null(file);
	fputs("step,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
	      "0,0,pivot,0,2,0,1,0,0,0,0,0,0,0,0,0\n"
	      "0,1,bob,0.17,1.01,0,1,0,0,0,0,0\n",
	      file);
	fclose(file);
	refused(TB_TUMBLE " check " TB_TEST_OUT_DIR "/lab_malformed.csv --lab pendulum", 2,
	        "lab_malformed.csv:3: expected 16 fields");
	file = fopen(path, "w");
	cr_assert_not_null(file);
	fputs("step,body,x\n0,0,1\n", file);
	fclose(file);
	refused(TB_TUMBLE " check " TB_TEST_OUT_DIR "/lab_malformed.csv --lab pendulum", 2,
	        "lab_malformed.csv:1: expected the header");
	file = fopen(path, "w");
	cr_assert_not_null(file);
	fputs("step,body,name,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
	      "0,5,bob,0,2,0,1,0,0,0,0,0,0,0,0,0\n",
	      file);
	fclose(file);
	refused(TB_TUMBLE " check " TB_TEST_OUT_DIR "/lab_malformed.csv --lab pendulum", 2,
	        "body 5, but the lab pendulum has 2 bodies");
}
