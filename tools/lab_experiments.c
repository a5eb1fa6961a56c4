// The experiments of `tumble lab`, one table entry each: the scene as JSON, what is measured, the
// closed form (derivations in docs/lab.md), the tolerance.
#include "lab.h"

#include <math.h>
#include <string.h>

#define TB_PI 3.14159265358979323846
#define TB_DEG (TB_PI / 180.0)

// Every experiment ends its parameters with the step rate and the substeps (lab.c finds them by
// key).
#define TB_LAB_STEP_PARAMS                                                                         \
	{"rate", 60.0, 10.0, 1000.0, "steps per second, Hz"},                                          \
	{                                                                                              \
		"substeps", 4.0, 1.0, 64.0, "solver substeps per step"                                     \
	}

double tbLabEllipticK(double k)
{
	double a = 1.0, b = sqrt(fmax(0.0, 1.0 - k * k));
	for (int i = 0; i < 40 && fabs(a - b) > 1e-15 * a; ++i) {
		double m = 0.5 * (a + b);
		b = sqrt(a * b);
		a = m;
	}
	return TB_PI / (2.0 * a);
}

static double tbLabNorm(const double v[3])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// Rotate a world vector into the body frame of body i (q^-1 v q).
static void tbLabToBody(const tbLabRun* run, int body, const double v[3], double out[3])
{
	versors q = tbBody_GetRotation(run->scene.bodyIds[body]);
	double x = -(double)q.x, y = -(double)q.y, z = -(double)q.z, w = (double)q.w;
	// v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z) of the conjugate.
	double t[3] = {2.0 * (y * v[2] - z * v[1]), 2.0 * (z * v[0] - x * v[2]),
	               2.0 * (x * v[1] - y * v[0])};
	out[0] = v[0] + w * t[0] + (y * t[2] - z * t[1]);
	out[1] = v[1] + w * t[1] + (z * t[0] - x * t[2]);
	out[2] = v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

static long long tbLabStepsFor(const tbLabRun* run, double seconds)
{
	return (long long)ceil(seconds / (double)run->dt - 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Pendulum: a ball of radius r on a ball joint, its centre L below the pivot, released at rest at
// amplitude a. A physical pendulum: I_pivot = m (L^2 + 2/5 r^2), and the exact period is
// T = 4 sqrt(I / (m g L)) K(sin(a / 2)) (docs/lab.md).
enum
{
	pendLength,
	pendAmplitude,
	pendRadius
};
#define TB_PIVOT_HEIGHT(L) ((L) + 1.0)

static double pendulumClosed(const double* p)
{
	double L = p[pendLength], r = p[pendRadius];
	double inertia = L * L + 0.4 * r * r; // per unit mass
	return 4.0 * sqrt(inertia / (TB_LAB_G * L)) *
	       tbLabEllipticK(sin(0.5 * p[pendAmplitude] * TB_DEG));
}

static double pendulumSeconds(const double* p)
{
	return 6.0 * pendulumClosed(p);
}

static double pendulumSize(const double* p)
{
	return p[pendLength];
}

static const char* pendulumValidate(const double* p)
{
	return p[pendRadius] >= 0.5 * p[pendLength] ? "radius must be under half the length" : NULL;
}

static void pendulumScene(const double* p, tbLabText* t)
{
	double L = p[pendLength], a = p[pendAmplitude] * TB_DEG, H = TB_PIVOT_HEIGHT(L);
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"pivot\", \"type\": \"static\", \"position\": [0, %.9g, 0], "
	            "\"shape\": {\"type\": \"sphere\", \"radius\": 0.02}},\n"
	            "  {\"name\": \"bob\", \"position\": [%.9g, %.9g, 0], "
	            "\"shape\": {\"type\": \"sphere\", \"radius\": %.9g}}\n ],\n"
	            " \"joints\": [{\"name\": \"rod\", \"type\": \"ball\", \"body_a\": \"pivot\", "
	            "\"body_b\": \"bob\", \"anchor\": [0, %.9g, 0]}]",
	            H, L * sin(a), H - L * cos(a), p[pendRadius], H);
}

// The period from the zero crossings of the bob's horizontal offset (linear interpolation
// within the step): T = 2 (t_last - t_first) / (crossings - 1).
static bool pendulumMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, pendulumSeconds(p));
	double prev = p[pendLength] * sin(p[pendAmplitude] * TB_DEG);
	double first = 0.0, last = 0.0, firstSwing = 0.0, lastSwing = 0.0;
	double closed = pendulumClosed(p), H = TB_PIVOT_HEIGHT(p[pendLength]);
	int crossings = 0;
	while (run->step < steps && tbLabStep(run)) {
		double x[3];
		tbLabPosition(run, 1, x);
		// The swing's amplitude over the first and the last period (energy kept or lost).
		double angle = fabs(atan2(x[0], H - x[1])) / TB_DEG,
		       now = (double)run->step * (double)run->dt;
		firstSwing = now <= closed ? fmax(firstSwing, angle) : firstSwing;
		lastSwing =
		    now >= (double)steps * (double)run->dt - closed ? fmax(lastSwing, angle) : lastSwing;
		if ((prev < 0.0) != (x[0] < 0.0)) {
			double t =
			    (double)(run->step - 1) * (double)run->dt + (double)run->dt * prev / (prev - x[0]);
			first = crossings == 0 ? t : first;
			last = t;
			++crossings;
		}
		prev = x[0];
	}
	if (crossings < 3) {
		snprintf(out->note, sizeof out->note, "only %d zero crossings", crossings);
		return false;
	}
	out->figure = 2.0 * (last - first) / (double)(crossings - 1);
	snprintf(out->note, sizeof out->note,
	         "%d zero crossings; amplitude %.4g deg over the first period, %.4g over the last",
	         crossings, firstSwing, lastSwing);
	return true;
}

// The same pendulum equation theta'' = -(g L / (L^2 + 2/5 r^2)) sin theta integrated with RK4 at
// 1e-4 s in double: the closed form's trajectory (continued from the last call: calls come in
// increasing time).
static bool pendulumReference(const double* p, double t, int body, double out[3])
{
	static double s_key[3], s_time, s_theta, s_omega;
	double L = p[pendLength], H = TB_PIVOT_HEIGHT(L);
	if (body == 0) {
		out[0] = 0.0, out[1] = H, out[2] = 0.0;
		return true;
	}
	double k = TB_LAB_G * L / (L * L + 0.4 * p[pendRadius] * p[pendRadius]);
	if (s_key[0] != L || s_key[1] != p[pendAmplitude] || s_key[2] != p[pendRadius] || t < s_time) {
		s_key[0] = L, s_key[1] = p[pendAmplitude], s_key[2] = p[pendRadius];
		s_time = 0.0, s_theta = p[pendAmplitude] * TB_DEG, s_omega = 0.0;
	}
	for (int guard = 0; guard < 100000000 && s_time < t; ++guard) {
		double h = fmin(1e-4, t - s_time);
		double k1t = s_omega, k1w = -k * sin(s_theta);
		double k2t = s_omega + 0.5 * h * k1w, k2w = -k * sin(s_theta + 0.5 * h * k1t);
		double k3t = s_omega + 0.5 * h * k2w, k3w = -k * sin(s_theta + 0.5 * h * k2t);
		double k4t = s_omega + h * k3w, k4w = -k * sin(s_theta + h * k3t);
		s_theta += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
		s_omega += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
		s_time += h;
	}
	out[0] = L * sin(s_theta), out[1] = H - L * cos(s_theta), out[2] = 0.0;
	return true;
}

// ---------------------------------------------------------------------------------------------
// Conical pendulum: a ball on a string (a rigid distance joint to its centre, so no torque turns
// it) of length L at angle theta from the vertical, moving on a horizontal circle. Newton's law
// along the radius: T = 2 pi sqrt(L cos theta / g).
enum
{
	conLength,
	conAngle,
	conRadius
};

static double conicalClosed(const double* p)
{
	return 2.0 * TB_PI * sqrt(p[conLength] * cos(p[conAngle] * TB_DEG) / TB_LAB_G);
}

static double conicalSeconds(const double* p)
{
	return 5.0 * conicalClosed(p);
}

static double conicalSize(const double* p)
{
	return p[conLength];
}

static const char* conicalValidate(const double* p)
{
	return p[conRadius] >= 0.5 * p[conLength] ? "radius must be under half the length" : NULL;
}

static void conicalScene(const double* p, tbLabText* t)
{
	double L = p[conLength], a = p[conAngle] * TB_DEG, H = TB_PIVOT_HEIGHT(L);
	double omega = 2.0 * TB_PI / conicalClosed(p);
	// At +x the circle's tangent is -z for a turn about +y.
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"pivot\", \"type\": \"static\", \"position\": [0, %.9g, 0], "
	            "\"shape\": {\"type\": \"sphere\", \"radius\": 0.02}},\n"
	            "  {\"name\": \"bob\", \"position\": [%.9g, %.9g, 0], \"linear_velocity\": [0, 0, "
	            "%.9g], \"shape\": {\"type\": \"sphere\", \"radius\": %.9g}}\n ],\n"
	            " \"joints\": [{\"name\": \"string\", \"type\": \"distance\", \"body_a\": "
	            "\"pivot\", \"body_b\": \"bob\", \"anchor_a\": [0, %.9g, 0], \"anchor_b\": [%.9g, "
	            "%.9g, 0]}]",
	            H, L * sin(a), H - L * cos(a), -omega * L * sin(a), p[conRadius], H, L * sin(a),
	            H - L * cos(a));
}

// The period from the azimuth the bob turns through over the run: T = 2 pi t / angle.
static bool conicalMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, conicalSeconds(p));
	double azimuth = 0.0, prev = 0.0, worstAngle = 0.0;
	while (run->step < steps && tbLabStep(run)) {
		double x[3];
		tbLabPosition(run, 1, x);
		double a = atan2(-x[2], x[0]), d = a - prev;
		d -= 2.0 * TB_PI * floor((d + TB_PI) / (2.0 * TB_PI));
		azimuth += d;
		prev = a;
		double y = TB_PIVOT_HEIGHT(p[conLength]) - x[1];
		double angle = atan2(sqrt(x[0] * x[0] + x[2] * x[2]), y) / TB_DEG;
		worstAngle = fmax(worstAngle, fabs(angle - p[conAngle]));
	}
	if (!(fabs(azimuth) > 2.0 * TB_PI)) {
		snprintf(out->note, sizeof out->note, "turned only %.3g rad", azimuth);
		return false;
	}
	out->figure = 2.0 * TB_PI * (double)run->step * (double)run->dt / fabs(azimuth);
	snprintf(out->note, sizeof out->note, "%.2f turns; the string's angle strayed %.3f deg at most",
	         fabs(azimuth) / (2.0 * TB_PI), worstAngle);
	return true;
}

static bool conicalReference(const double* p, double t, int body, double out[3])
{
	double L = p[conLength], a = p[conAngle] * TB_DEG, H = TB_PIVOT_HEIGHT(L);
	double phase = 2.0 * TB_PI * t / conicalClosed(p);
	out[0] = body == 0 ? 0.0 : L * sin(a) * cos(phase);
	out[1] = body == 0 ? H : H - L * cos(a);
	out[2] = body == 0 ? 0.0 : -L * sin(a) * sin(phase);
	return true;
}

// ---------------------------------------------------------------------------------------------
// Rolling down an incline: a solid sphere (I = 2/5 m r^2) or cylinder (1/2 m r^2) released at
// rest rolls without slipping while tan(angle) <= mu (1 + m r^2 / I): a = g sin / (1 + I / (m
// r^2)), 5/7 g sin and 2/3 g sin. Beyond that it slides and rolls: a = g (sin - mu cos).
enum
{
	rollAngle,
	rollRadius,
	rollMu
};
#define TB_ROLL_SECONDS 2.0

static double rollClosed(const double* p, double inertiaRatio)
{
	double a = p[rollAngle] * TB_DEG;
	if (tan(a) <= p[rollMu] * (1.0 + 1.0 / inertiaRatio)) {
		return TB_LAB_G * sin(a) / (1.0 + inertiaRatio);
	}
	return TB_LAB_G * (sin(a) - p[rollMu] * cos(a));
}

static double sphereClosed(const double* p)
{
	return rollClosed(p, 0.4);
}

static double cylinderClosed(const double* p)
{
	return rollClosed(p, 0.5);
}

static double rollSeconds(const double* p)
{
	(void)p;
	return TB_ROLL_SECONDS;
}

static double rollSize(const double* p)
{
	return fmax(p[rollRadius], 0.5 * sphereClosed(p) * TB_ROLL_SECONDS * TB_ROLL_SECONDS);
}

static void rollScene(const double* p, tbLabText* t, bool cylinder)
{
	double a = p[rollAngle] * TB_DEG, r = p[rollRadius], c = 0.5 + r;
	// The slab turned about z by -angle: its top face, through the origin's normal at 0.5 m,
	// descends towards +x.
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"slope\", \"type\": \"static\", \"rotation\": {\"euler_xyz_deg\": "
	            "[0, 0, %.9g]}, \"friction\": %.9g, \"shape\": {\"type\": \"box\", "
	            "\"half_extents\": [200, 0.5, 20]}},\n",
	            -p[rollAngle], p[rollMu]);
	if (cylinder) {
		tbLabPrintf(t,
		            "  {\"name\": \"cylinder\", \"position\": [%.9g, %.9g, 0], \"rotation\": "
		            "{\"euler_xyz_deg\": [90, 0, 0]}, \"friction\": %.9g, \"shape\": {\"type\": "
		            "\"cylinder\", \"radius\": %.9g, \"half_height\": %.9g}}\n ]",
		            c * sin(a), c * cos(a), p[rollMu], r, r);
	} else {
		tbLabPrintf(t,
		            "  {\"name\": \"ball\", \"position\": [%.9g, %.9g, 0], \"friction\": %.9g, "
		            "\"shape\": {\"type\": \"sphere\", \"radius\": %.9g}}\n ]",
		            c * sin(a), c * cos(a), p[rollMu], r);
	}
}

static void sphereScene(const double* p, tbLabText* t)
{
	rollScene(p, t, false);
}

static void cylinderScene(const double* p, tbLabText* t)
{
	rollScene(p, t, true);
}

// The acceleration from the distance travelled down the slope: s = 1/2 a t^2 at the end.
static bool rollMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	double x0[3], x[3];
	tbLabPosition(run, 1, x0);
	long long steps = tbLabStepsFor(run, TB_ROLL_SECONDS);
	while (run->step < steps && tbLabStep(run)) {
	}
	double a = p[rollAngle] * TB_DEG;
	tbLabPosition(run, 1, x);
	double along = (x[0] - x0[0]) * cos(a) - (x[1] - x0[1]) * sin(a);
	double t = (double)run->step * (double)run->dt;
	double v[3], w[3];
	tbLabVelocity(run, 1, v);
	tbLabAngularVelocity(run, 1, w);
	out->figure = 2.0 * along / (t * t);
	snprintf(out->note, sizeof out->note, "%.4g m down the slope in %.4g s; slip v - w r %.3g m/s",
	         along, t, tbLabNorm(v) - tbLabNorm(w) * p[rollRadius]);
	return run->step == steps;
}

static bool rollReference(const double* p, double t, int body, double out[3], double accel)
{
	double a = p[rollAngle] * TB_DEG, c = 0.5 + p[rollRadius];
	double s = body == 0 ? 0.0 : 0.5 * accel * t * t;
	out[0] = body == 0 ? 0.0 : c * sin(a) + s * cos(a);
	out[1] = body == 0 ? 0.0 : c * cos(a) - s * sin(a);
	out[2] = 0.0;
	return true;
}

static bool sphereReference(const double* p, double t, int body, double out[3])
{
	return rollReference(p, t, body, out, sphereClosed(p));
}

static bool cylinderReference(const double* p, double t, int body, double out[3])
{
	return rollReference(p, t, body, out, cylinderClosed(p));
}

// ---------------------------------------------------------------------------------------------
// Sliding to rest: a box thrown at v0 along flat ground decelerates at mu g (Coulomb) and stops
// after d = v0^2 / (2 mu g).
enum
{
	slideSpeed,
	slideMu,
	slideHalf
};

static double slideClosed(const double* p)
{
	return p[slideSpeed] * p[slideSpeed] / (2.0 * p[slideMu] * TB_LAB_G);
}

static double slideSeconds(const double* p)
{
	return p[slideSpeed] / (p[slideMu] * TB_LAB_G) + 1.0;
}

static double slideSize(const double* p)
{
	return fmax(slideClosed(p), p[slideHalf]);
}

static void slideScene(const double* p, tbLabText* t)
{
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0], "
	            "\"friction\": %.9g, \"shape\": {\"type\": \"box\", \"half_extents\": [%.9g, "
	            "0.5, 20]}},\n"
	            "  {\"name\": \"box\", \"position\": [0, %.9g, 0], \"linear_velocity\": [%.9g, 0, "
	            "0], \"friction\": %.9g, \"shape\": {\"type\": \"box\", \"half_extents\": [%.9g, "
	            "%.9g, %.9g]}}\n ]",
	            p[slideMu], 2.0 * slideClosed(p) + 20.0, p[slideHalf], p[slideSpeed], p[slideMu],
	            p[slideHalf], p[slideHalf], p[slideHalf]);
}

// The distance from the start to where the box is once it has stopped (speed under 1 mm/s).
static bool slideMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, slideSeconds(p));
	double v[3] = {p[slideSpeed], 0.0, 0.0}, x[3];
	long long stopped = -1;
	while (run->step < steps && tbLabStep(run)) {
		tbLabVelocity(run, 1, v);
		if (stopped < 0 && tbLabNorm(v) < 1e-3) {
			stopped = run->step;
		}
	}
	tbLabPosition(run, 1, x);
	out->figure = x[0];
	if (stopped < 0) {
		snprintf(out->note, sizeof out->note, "still moving at %.3g m/s after %.3g s", tbLabNorm(v),
		         (double)run->step * (double)run->dt);
		return false;
	}
	snprintf(out->note, sizeof out->note, "stopped after %.4g s (closed form %.4g s)",
	         (double)stopped * (double)run->dt, p[slideSpeed] / (p[slideMu] * TB_LAB_G));
	return true;
}

static bool slideReference(const double* p, double t, int body, double out[3])
{
	double stop = p[slideSpeed] / (p[slideMu] * TB_LAB_G), s = fmin(t, stop);
	out[0] = body == 0 ? 0.0 : p[slideSpeed] * s - 0.5 * p[slideMu] * TB_LAB_G * s * s;
	out[1] = body == 0 ? -0.5 : p[slideHalf];
	out[2] = 0.0;
	return true;
}

// ---------------------------------------------------------------------------------------------
// Bouncing: a ball dropped from h (its lowest point) with restitution e leaves each impact at e
// times its arrival speed (Newton's law of impact), so each apex is e^2 times the one before:
// after n bounces h_n = e^(2n) h.
enum
{
	bounceHeight,
	bounceE,
	bounceCount,
	bounceRadius
};

static double bounceClosed(const double* p)
{
	return pow(p[bounceE], 2.0 * round(p[bounceCount])) * p[bounceHeight];
}

static double bounceSeconds(const double* p)
{
	// Fall, then two flights per bounce: 2 sqrt(2 h_k / g).
	double t = sqrt(2.0 * p[bounceHeight] / TB_LAB_G), h = p[bounceHeight];
	for (int k = 0; k < (int)round(p[bounceCount]); ++k) {
		h *= p[bounceE] * p[bounceE];
		t += 2.0 * sqrt(2.0 * h / TB_LAB_G);
	}
	return t + 0.5;
}

static double bounceSize(const double* p)
{
	return p[bounceHeight];
}

static void bounceScene(const double* p, tbLabText* t)
{
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0], "
	            "\"restitution\": %.9g, \"friction\": 0, \"shape\": {\"type\": \"box\", "
	            "\"half_extents\": [5, 0.5, 5]}},\n"
	            "  {\"name\": \"ball\", \"position\": [0, %.9g, 0], \"restitution\": %.9g, "
	            "\"friction\": 0, \"shape\": {\"type\": \"sphere\", \"radius\": %.9g}}\n ]",
	            p[bounceE], p[bounceHeight] + p[bounceRadius], p[bounceE], p[bounceRadius]);
}

// The apex is the highest sampled height of the ball's lowest point between two impacts (the
// step after the top: the higher of it and the sample before), as tests/test_textbook.c.
static bool bounceMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, bounceSeconds(p)) + 400;
	int want = (int)round(p[bounceCount]), found = 0;
	double best = -1.0, apex = 0.0, first = 0.0;
	bool rising = false;
	while (found < want && run->step < steps && tbLabStep(run)) {
		double x[3], v[3];
		tbLabPosition(run, 1, x);
		tbLabVelocity(run, 1, v);
		double y = x[1] - p[bounceRadius];
		if (v[1] > 0.0) {
			rising = true;
			best = -1.0;
		} else if (rising) {
			apex = fmax(best, y);
			first = found == 0 ? apex : first;
			++found;
			rising = false;
		}
		best = y;
	}
	if (found < want) {
		snprintf(out->note, sizeof out->note, "only %d bounces", found);
		return false;
	}
	out->figure = apex;
	snprintf(out->note, sizeof out->note, "first apex %.5g m (e^2 h = %.5g m)", first,
	         p[bounceE] * p[bounceE] * p[bounceHeight]);
	return true;
}

// A point ball: free fall, then flights of 2 v_k / g with v_k = e^k sqrt(2 g h).
static bool bounceReference(const double* p, double t, int body, double out[3])
{
	out[0] = out[2] = 0.0;
	if (body == 0) {
		out[1] = -0.5;
		return true;
	}
	double g = TB_LAB_G, v = sqrt(2.0 * g * p[bounceHeight]), fall = v / g;
	if (t <= fall) {
		out[1] = p[bounceRadius] + p[bounceHeight] - 0.5 * g * t * t;
		return true;
	}
	t -= fall;
	for (int k = 0; k < 1000; ++k) {
		v *= p[bounceE];
		double flight = 2.0 * v / g;
		if (t <= flight || flight < 1e-9) {
			out[1] = p[bounceRadius] + fmax(0.0, v * t - 0.5 * g * t * t);
			return true;
		}
		t -= flight;
	}
	out[1] = p[bounceRadius];
	return true;
}

// ---------------------------------------------------------------------------------------------
// Oblique elastic collision of equal balls (no gravity, no friction, e = 1): B leaves along the
// line of centres, A perpendicular to it, because momentum and energy are kept (v0 = va + vb and
// v0^2 = va^2 + vb^2 give va . vb = 0): 90 degrees between the outgoing velocities.
enum
{
	oblSpeed,
	oblSin,
	oblRadius
};
#define TB_OBLIQUE_APPROACH 0.33

static double obliqueClosed(const double* p)
{
	(void)p;
	return 90.0;
}

static double obliqueSeconds(const double* p)
{
	(void)p;
	return 2.0 * TB_OBLIQUE_APPROACH;
}

static double obliqueSize(const double* p)
{
	return 2.0 * p[oblRadius];
}

// A starts so that it reaches contact after TB_OBLIQUE_APPROACH s; B at rest, offset by the
// impact parameter b = 2 r sin(theta).
static void obliqueStart(const double* p, double a[3], double b[3])
{
	double r = p[oblRadius], impact = 2.0 * r * p[oblSin];
	double along = sqrt(4.0 * r * r - impact * impact);
	a[0] = -along - p[oblSpeed] * TB_OBLIQUE_APPROACH, a[1] = 0.0, a[2] = 0.0;
	b[0] = 0.0, b[1] = impact, b[2] = 0.0;
}

static void obliqueScene(const double* p, tbLabText* t)
{
	double a[3], b[3];
	obliqueStart(p, a, b);
	tbLabPrintf(t,
	            ",\n \"gravity\": [0, 0, 0],\n \"bodies\": [\n"
	            "  {\"name\": \"A\", \"position\": [%.9g, 0, 0], \"linear_velocity\": [%.9g, 0, "
	            "0], \"restitution\": 1, \"friction\": 0, \"shape\": {\"type\": \"sphere\", "
	            "\"radius\": %.9g}},\n"
	            "  {\"name\": \"B\", \"position\": [0, %.9g, 0], \"restitution\": 1, "
	            "\"friction\": 0, \"shape\": {\"type\": \"sphere\", \"radius\": %.9g}}\n ]",
	            a[0], p[oblSpeed], p[oblRadius], b[1], p[oblRadius]);
}

static bool obliqueMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, obliqueSeconds(p));
	while (run->step < steps && tbLabStep(run)) {
	}
	double va[3], vb[3];
	tbLabVelocity(run, 0, va);
	tbLabVelocity(run, 1, vb);
	double na = tbLabNorm(va), nb = tbLabNorm(vb);
	if (!(na > 0.0 && nb > 0.0)) {
		snprintf(out->note, sizeof out->note, "a ball is at rest: no collision?");
		return false;
	}
	double c = (va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2]) / (na * nb);
	out->figure = acos(fmax(-1.0, fmin(1.0, c))) / TB_DEG;
	double v0 = p[oblSpeed], e0 = v0 * v0;
	snprintf(out->note, sizeof out->note,
	         "speeds A %.4g B %.4g m/s (closed form %.4g, %.4g); energy kept %.5f", na, nb,
	         v0 * p[oblSin], v0 * sqrt(1.0 - p[oblSin] * p[oblSin]), (na * na + nb * nb) / e0);
	return true;
}

static bool obliqueReference(const double* p, double t, int body, double out[3])
{
	double a[3], b[3];
	obliqueStart(p, a, b);
	double v0 = p[oblSpeed], s = p[oblSin], c = sqrt(1.0 - s * s);
	double after = fmax(0.0, t - TB_OBLIQUE_APPROACH);
	// The line of centres at impact n = (c, s); B along n at v0 c, A along (s, -c) at v0 s.
	if (body == 0) {
		out[0] = a[0] + v0 * fmin(t, TB_OBLIQUE_APPROACH) + v0 * s * s * after;
		out[1] = -v0 * s * c * after;
	} else {
		out[0] = b[0] + v0 * c * c * after;
		out[1] = b[1] + v0 * c * s * after;
	}
	out[2] = 0.0;
	return true;
}

// ---------------------------------------------------------------------------------------------
// Newton's cradle: N equal balls in a touching row (no gravity, e = 1, no friction); the first
// arrives at v0. With momentum and energy kept and the balls hitting one after another, the last
// leaves at v0 and the others stop: last speed / v0 = 1.
enum
{
	cradleBalls,
	cradleSpeed,
	cradleRadius
};

static double cradleClosed(const double* p)
{
	(void)p;
	return 1.0;
}

static double cradleSeconds(const double* p)
{
	(void)p;
	return 1.0;
}

static double cradleSize(const double* p)
{
	return 2.0 * p[cradleRadius] * round(p[cradleBalls]);
}

static void cradleScene(const double* p, tbLabText* t)
{
	int n = (int)round(p[cradleBalls]);
	double r = p[cradleRadius];
	tbLabPrintf(t, ",\n \"gravity\": [0, 0, 0],\n \"bodies\": [\n");
	for (int i = 0; i < n; ++i) {
		// The first ball is 0.1 s of flight away from the second; the others touch.
		double x = i == 0 ? -2.0 * r - 0.1 * p[cradleSpeed] : 2.0 * r * (double)(i - 1);
		tbLabPrintf(t,
		            "  {\"name\": \"ball%d\", \"position\": [%.9g, 0, 0], \"linear_velocity\": "
		            "[%.9g, 0, 0], \"restitution\": 1, \"friction\": 0, \"shape\": {\"type\": "
		            "\"sphere\", \"radius\": %.9g}}%s\n",
		            i, x, i == 0 ? p[cradleSpeed] : 0.0, r, i + 1 < n ? "," : "");
	}
	tbLabPrintf(t, " ]");
}

static bool cradleMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, cradleSeconds(p));
	while (run->step < steps && tbLabStep(run)) {
	}
	int n = (int)round(p[cradleBalls]);
	double v[3], first[3];
	tbLabVelocity(run, n - 1, v);
	tbLabVelocity(run, 0, first);
	double sum = 0.0;
	for (int i = 0; i < n; ++i) {
		double vi[3];
		tbLabVelocity(run, i, vi);
		sum += vi[0];
	}
	// The fastest of the others: at rest when the impulse passed from pair to pair.
	double others = 0.0;
	for (int i = 0; i + 1 < n; ++i) {
		double vi[3];
		tbLabVelocity(run, i, vi);
		others = fmax(others, sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]));
	}
	out->figure = v[0] / p[cradleSpeed];
	snprintf(out->note, sizeof out->note,
	         "first ball %.4g m/s after, the others at most %.4g m/s; momentum kept %.5f", first[0],
	         others, sum / p[cradleSpeed]);
	return true;
}

// ---------------------------------------------------------------------------------------------
// Gyroscope: a disc (radius a, axle along its local y) spun at ws, its centre r out along the
// horizontal axle from a ball joint. Steady precession of a fast top: Omega = m g r / (I ws),
// I = 1/2 m a^2 (Goldstein, ch. 5), so Omega = 2 g r / (a^2 ws).
enum
{
	gyroSpin,
	gyroRadius,
	gyroArm,
	gyroThickness
};
#define TB_GYRO_SECONDS 4.0

static double gyroClosed(const double* p)
{
	return 2.0 * TB_LAB_G * p[gyroArm] / (p[gyroRadius] * p[gyroRadius] * p[gyroSpin]);
}

static double gyroSeconds(const double* p)
{
	(void)p;
	return TB_GYRO_SECONDS;
}

static double gyroSize(const double* p)
{
	return p[gyroArm] + p[gyroRadius];
}

static void gyroScene(const double* p, tbLabText* t)
{
	// The axle (local y) along world +x: a quarter turn about -z.
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"pivot\", \"type\": \"static\", \"position\": [0, 2, 0], "
	            "\"shape\": {\"type\": \"sphere\", \"radius\": 0.01}},\n"
	            "  {\"name\": \"disc\", \"position\": [%.9g, 2, 0], \"rotation\": {\"axis\": [0, "
	            "0, -1], \"angle_deg\": 90}, \"angular_velocity\": [%.9g, 0, 0], \"shape\": "
	            "{\"type\": \"cylinder\", \"radius\": %.9g, \"half_height\": %.9g}}\n ],\n"
	            " \"joints\": [{\"name\": \"pivot\", \"type\": \"ball\", \"body_a\": \"pivot\", "
	            "\"body_b\": \"disc\", \"anchor\": [0, 2, 0]}]",
	            p[gyroArm], p[gyroSpin], p[gyroRadius], p[gyroThickness]);
}

// The mean precession rate: the azimuth the axle turns through over the run, per second.
static bool gyroMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, TB_GYRO_SECONDS);
	double azimuth = 0.0, prev = 0.0, dip = 0.0;
	while (run->step < steps && tbLabStep(run)) {
		double x[3];
		tbLabPosition(run, 1, x);
		double a = atan2(-x[2], x[0]), d = a - prev;
		d -= 2.0 * TB_PI * floor((d + TB_PI) / (2.0 * TB_PI));
		azimuth += d;
		prev = a;
		dip = atan2(2.0 - x[1], sqrt(x[0] * x[0] + x[2] * x[2])) / TB_DEG;
	}
	(void)p;
	out->figure = azimuth / ((double)run->step * (double)run->dt);
	snprintf(out->note, sizeof out->note, "axle dips %.3g deg at the end", dip);
	return run->step == steps;
}

// ---------------------------------------------------------------------------------------------
// Torque-free top, the intermediate axis: a free box (half extents 0.1, 0.2, 0.3 m: moments I1 <
// I2 < I3 about z, y, x) spun about its intermediate axis y with a small spin about x flips over
// and back periodically. Euler's equations solved in Jacobi elliptic functions (Landau and
// Lifshitz, Mechanics, section 37): the intermediate component changes sign every half period
// T = 4 K(k) sqrt(I1 I2 I3 / ((I3 - I2)(M^2 - 2 E I1))), k^2 = (I2 - I1)(2 E I3 - M^2) /
// ((I3 - I2)(M^2 - 2 E I1)), for M^2 > 2 E I2 (I1 and I3 swap places below it).
enum
{
	flipSpin,
	flipPerturb
};

static double flipClosed(const double* p)
{
	// Body axes x, y, z of the box: I = m/3 (b^2 + c^2, a^2 + c^2, a^2 + b^2) per m/3.
	double Ix = 0.04 + 0.09, Iy = 0.01 + 0.09, Iz = 0.01 + 0.04;
	double wx = p[flipPerturb] * p[flipSpin], wy = p[flipSpin];
	double I1 = Iz, I2 = Iy, I3 = Ix;
	double twoE = Ix * wx * wx + Iy * wy * wy, M2 = Ix * Ix * wx * wx + Iy * Iy * wy * wy;
	double a = I1, c = I3;
	if (M2 < twoE * I2) {
		a = I3, c = I1;
	}
	double k2 = (I2 - a) * (twoE * c - M2) / ((c - I2) * (M2 - twoE * a));
	return 4.0 * tbLabEllipticK(sqrt(fmin(k2, 1.0 - 1e-16))) *
	       sqrt(I1 * I2 * I3 / ((c - I2) * (M2 - twoE * a)));
}

static double flipSeconds(const double* p)
{
	return fmin(3.2 * flipClosed(p), 600.0);
}

static double flipSize(const double* p)
{
	(void)p;
	return 0.6;
}

static void flipScene(const double* p, tbLabText* t)
{
	tbLabPrintf(t,
	            ",\n \"gravity\": [0, 0, 0],\n \"bodies\": [\n"
	            "  {\"name\": \"box\", \"position\": [0, 1, 0], \"angular_velocity\": [%.9g, "
	            "%.9g, 0], \"shape\": {\"type\": \"box\", \"half_extents\": [0.1, 0.2, 0.3]}}\n ]",
	            p[flipPerturb] * p[flipSpin], p[flipSpin]);
}

// The flip period: twice the mean time between sign changes of the spin about the box's own y
// axis; also how well energy and angular momentum are kept.
static bool flipMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, flipSeconds(p));
	double prev = p[flipSpin], first = 0.0, last = 0.0;
	int changes = 0;
	tbBodyId box = run->scene.bodyIds[0];
	double e0 = (double)tbBody_GetKineticEnergy(box), e = e0;
	vec3s l0 = tbBody_GetAngularMomentum(box), l = l0;
	while (run->step < steps && tbLabStep(run)) {
		double w[3], wb[3];
		tbLabAngularVelocity(run, 0, w);
		tbLabToBody(run, 0, w, wb);
		if ((prev < 0.0) != (wb[1] < 0.0)) {
			double t =
			    (double)(run->step - 1) * (double)run->dt + (double)run->dt * prev / (prev - wb[1]);
			first = changes == 0 ? t : first;
			last = t;
			++changes;
		}
		prev = wb[1];
	}
	e = (double)tbBody_GetKineticEnergy(box);
	l = tbBody_GetAngularMomentum(box);
	double dl = (double)glms_vec3_norm(glms_vec3_sub(l, l0)) / (double)glms_vec3_norm(l0);
	if (changes < 2) {
		snprintf(out->note, sizeof out->note, "%d flips in %.3g s", changes,
		         (double)run->step * (double)run->dt);
		return false;
	}
	out->figure = 2.0 * (last - first) / (double)(changes - 1);
	snprintf(out->note, sizeof out->note,
	         "%d flips; energy kept %.5f, angular momentum moved %.2e of itself", changes, e / e0,
	         dl);
	return true;
}

// ---------------------------------------------------------------------------------------------
// Tipping or sliding on a tilting board: a block of base width w and height h on a board tilted
// slowly from level. It slides when tan(angle) exceeds mu (Coulomb), and tips when its centre
// of mass passes over the downhill edge, tan(angle) = w / h; whichever comes first.
enum
{
	tipWidth,
	tipHeight,
	tipMu,
	tipRate
};

static double tipClosed(const double* p)
{
	return fmin(atan(p[tipMu]), atan(p[tipWidth] / p[tipHeight])) / TB_DEG;
}

static double tipSeconds(const double* p)
{
	return fmin((tipClosed(p) * 1.5 + 2.0) / p[tipRate], 3600.0);
}

static double tipSize(const double* p)
{
	return fmax(p[tipWidth], p[tipHeight]);
}

static void tipScene(const double* p, tbLabText* t)
{
	double omega = p[tipRate] * TB_DEG;
	// The board's origin is the middle of its top face: it turns about the block's base.
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"board\", \"type\": \"kinematic\", \"angular_velocity\": [0, 0, "
	            "%.9g], \"friction\": %.9g, \"shapes\": [{\"type\": \"box\", \"half_extents\": "
	            "[3, 0.1, 1], \"position\": [0, -0.1, 0]}]},\n"
	            "  {\"name\": \"block\", \"position\": [0, %.9g, 0], \"friction\": %.9g, "
	            "\"shape\": {\"type\": \"box\", \"half_extents\": [%.9g, %.9g, %.9g]}}\n ]",
	            -omega, p[tipMu], 0.5 * p[tipHeight], p[tipMu], 0.5 * p[tipWidth],
	            0.5 * p[tipHeight], 0.5 * p[tipWidth]);
}

// The board's angle when the block first moves on it: its downhill edge slid 1 mm along the
// board, or the block turned 1 degree relative to it.
static bool tipMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, tipSeconds(p));
	double omega = p[tipRate] * TB_DEG;
	while (run->step < steps && tbLabStep(run)) {
		double angle = omega * (double)run->step * (double)run->dt;
		// The block's downhill bottom edge in the board's frame (the board turns by -angle about
		// z): it stays where it is when the block tips about it, and moves when the block slides.
		tbTransform xf = tbBody_GetTransform(run->scene.bodyIds[1]);
		vec3s corner = glms_vec3_add(
		    xf.p, glms_quat_rotatev(xf.q, (vec3s){{(float)(0.5 * p[tipWidth]),
		                                           (float)(-0.5 * p[tipHeight]), 0.0f}}));
		double cx = (double)corner.x * cos(angle) - (double)corner.y * sin(angle);
		double turn = 2.0 * asin(fmin(1.0, fabs((double)xf.q.z))) / TB_DEG - angle / TB_DEG;
		bool slid = fabs(cx - 0.5 * p[tipWidth]) > 1e-3, tipped = fabs(turn) > 1.0;
		if (slid || tipped) {
			out->figure = angle / TB_DEG;
			bool expectTip = p[tipWidth] / p[tipHeight] < p[tipMu];
			snprintf(out->note, sizeof out->note, "it %s (the closed form says it %s)",
			         tipped ? "tipped" : "slid", expectTip ? "tips" : "slides");
			return tipped == expectTip;
		}
	}
	snprintf(out->note, sizeof out->note, "the block never moved on the board");
	return false;
}

// ---------------------------------------------------------------------------------------------
// Stack contact forces: n boxes of mass m at rest in a column. Each box is in equilibrium, so the
// contact under box k (0 the bottom) carries the weight of the n - k boxes on it: (n - k) m g.
enum
{
	stackBoxes,
	stackIndex,
	stackMass,
	stackHalf
};
#define TB_STACK_SECONDS 2.0

static double stackClosed(const double* p)
{
	return (round(p[stackBoxes]) - round(p[stackIndex])) * p[stackMass] * TB_LAB_G;
}

static double stackSeconds(const double* p)
{
	(void)p;
	return TB_STACK_SECONDS;
}

static double stackSize(const double* p)
{
	return 2.0 * p[stackHalf] * round(p[stackBoxes]);
}

static const char* stackValidate(const double* p)
{
	return round(p[stackIndex]) >= round(p[stackBoxes]) ? "box must be below boxes" : NULL;
}

static void stackScene(const double* p, tbLabText* t)
{
	int n = (int)round(p[stackBoxes]);
	double h = p[stackHalf];
	tbLabPrintf(t, ",\n \"bodies\": [\n"
	               "  {\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0], "
	               "\"shape\": {\"type\": \"box\", \"half_extents\": [5, 0.5, 5]}}");
	for (int i = 0; i < n; ++i) {
		tbLabPrintf(t,
		            ",\n  {\"name\": \"box%d\", \"position\": [0, %.9g, 0], \"mass\": %.9g, "
		            "\"shape\": {\"type\": \"box\", \"half_extents\": [%.9g, %.9g, %.9g]}}",
		            i, h * (1.0 + 2.0 * i), p[stackMass], h, h, h);
	}
	tbLabPrintf(t, "\n ]");
}

// The normal force of the contact under box k: its points' mean forces over a step
// (tbContactData.normalForces), averaged over the last 30 steps.
static bool stackMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, TB_STACK_SECONDS);
	int k = (int)round(p[stackIndex]);
	tbBodyId below = run->scene.bodyIds[k], above = run->scene.bodyIds[k + 1];
	tbShapeId sa, sb;
	tbBody_GetShapes(below, &sa, 1);
	tbBody_GetShapes(above, &sb, 1);
	double sum = 0.0;
	int samples = 0, pairs = 0;
	tbContactData data[8];
	while (run->step < steps && tbLabStep(run)) {
		if (run->step + 30 <= steps) {
			continue;
		}
		int n = tbBody_GetContactData(above, data, 8);
		pairs = 0;
		for (int i = 0; i < n; ++i) {
			bool match =
			    (TB_ID_EQUALS(data[i].shapeIdA, sa) && TB_ID_EQUALS(data[i].shapeIdB, sb)) ||
			    (TB_ID_EQUALS(data[i].shapeIdA, sb) && TB_ID_EQUALS(data[i].shapeIdB, sa));
			for (int q = 0; match && q < data[i].manifold.pointCount; ++q) {
				sum += (double)data[i].normalForces[q];
			}
			pairs += match ? 1 : 0;
		}
		++samples;
	}
	if (samples == 0 || pairs != 1) {
		snprintf(out->note, sizeof out->note, "box %d touches what is under it %d times", k, pairs);
		return false;
	}
	out->figure = sum / samples;
	double y[3];
	tbLabPosition(run, (int)round(p[stackBoxes]), y);
	snprintf(out->note, sizeof out->note, "mean of the last %d steps; top box at %.4g m", samples,
	         y[1]);
	return true;
}

// ---------------------------------------------------------------------------------------------
// Hanging chain: N capsule links of total length l on ball joints, hung between two points D
// apart. A uniform flexible chain hangs as a catenary y = a cosh(x / a), with 2 a sinh(D / 2a) =
// l; its sag below the supports is a (cosh(D / 2a) - 1). The links start on that curve.
enum
{
	chainLinks,
	chainSpan,
	chainLength,
	chainRadius
};
#define TB_CHAIN_SECONDS 6.0

// Solve 2 a sinh(D / 2a) = l for a by bisection on log a (the left side falls as a grows).
static double chainParameter(const double* p)
{
	double D = p[chainSpan], l = p[chainLength], lo = log(D) - 12.0, hi = log(D) + 12.0;
	for (int i = 0; i < 200; ++i) {
		double mid = 0.5 * (lo + hi), a = exp(mid);
		double u = D / (2.0 * a);
		double len = u > 700.0 ? HUGE_VAL : 2.0 * a * sinh(u);
		if (len > l) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return exp(0.5 * (lo + hi));
}

static double chainClosed(const double* p)
{
	double a = chainParameter(p);
	return a * (cosh(p[chainSpan] / (2.0 * a)) - 1.0);
}

static double chainSeconds(const double* p)
{
	(void)p;
	return TB_CHAIN_SECONDS;
}

static double chainSize(const double* p)
{
	return p[chainLength];
}

static const char* chainValidate(const double* p)
{
	if (p[chainLength] <= p[chainSpan] * 1.001) {
		return "length must be over the span (a chain shorter than it cannot hang)";
	}
	if ((int)round(p[chainLinks]) % 2 != 0) {
		return "links must be even (a joint at the bottom)";
	}
	if (p[chainRadius] * 4.0 >= p[chainLength] / round(p[chainLinks])) {
		return "radius must be under a quarter of a link's length";
	}
	return NULL;
}

// The point at arc length s from the middle on the catenary through the bottom (0, H - sag).
static void chainPoint(const double* p, double a, double s, double out[2])
{
	double x = a * asinh(s / a), H = chainClosed(p) + 1.0;
	out[0] = x;
	out[1] = H - chainClosed(p) + a * (cosh(x / a) - 1.0);
}

static void chainScene(const double* p, tbLabText* t)
{
	int n = (int)round(p[chainLinks]);
	double a = chainParameter(p), l = p[chainLength], H = chainClosed(p) + 1.0, D = p[chainSpan];
	tbLabPrintf(t,
	            ",\n \"bodies\": [\n"
	            "  {\"name\": \"left\", \"type\": \"static\", \"position\": [%.9g, %.9g, 0], "
	            "\"shape\": {\"type\": \"sphere\", \"radius\": 0.02}},\n"
	            "  {\"name\": \"right\", \"type\": \"static\", \"position\": [%.9g, %.9g, 0], "
	            "\"shape\": {\"type\": \"sphere\", \"radius\": 0.02}}",
	            -0.5 * D, H, 0.5 * D, H);
	for (int i = 0; i < n; ++i) {
		double p0[2], p1[2];
		chainPoint(p, a, -0.5 * l + l * i / n, p0);
		chainPoint(p, a, -0.5 * l + l * (i + 1) / n, p1);
		double dx = p1[0] - p0[0], dy = p1[1] - p0[1], len = sqrt(dx * dx + dy * dy);
		// Local +y along the chord from p0 to p1: a turn about z by atan2(dx, dy) clockwise.
		double angle = -atan2(dx, dy) / TB_DEG;
		tbLabPrintf(t,
		            ",\n  {\"name\": \"link%d\", \"position\": [%.9g, %.9g, 0], \"rotation\": "
		            "{\"axis\": [0, 0, 1], \"angle_deg\": %.9g}, \"shape\": {\"type\": "
		            "\"capsule\", \"radius\": %.9g, \"half_height\": %.9g}}",
		            i, 0.5 * (p0[0] + p1[0]), 0.5 * (p0[1] + p1[1]), angle, p[chainRadius],
		            0.5 * len);
	}
	tbLabPrintf(t, "\n ],\n \"joints\": [\n");
	for (int i = 0; i <= n; ++i) {
		double q[2];
		chainPoint(p, a, -0.5 * l + l * i / n, q);
		char a0[16], b0[16];
		snprintf(a0, sizeof a0, i == 0 ? "left" : "link%d", i - 1);
		snprintf(b0, sizeof b0, i == n ? "right" : "link%d", i);
		tbLabPrintf(t,
		            "  {\"type\": \"ball\", \"body_a\": \"%s\", \"body_b\": \"%s\", \"anchor\": "
		            "[%.9g, %.9g, 0]}%s\n",
		            a0, b0,
		            i == 0   ? -0.5 * D
		            : i == n ? 0.5 * D
		                     : q[0],
		            q[1], i < n ? "," : "");
	}
	tbLabPrintf(t, " ]");
}

// The sag of the bottom joint (the upper end of link N/2 - 1) below the supports, averaged over
// the run after the first second (the links start on the continuous curve, a little off the
// discrete chain's rest).
static bool chainMeasure(tbLabRun* run, const double* p, tbLabMeasure* out)
{
	long long steps = tbLabStepsFor(run, TB_CHAIN_SECONDS);
	int n = (int)round(p[chainLinks]);
	double H = chainClosed(p) + 1.0, sum = 0.0, lo = INFINITY, hi = -INFINITY;
	int samples = 0;
	tbBodyId link = run->scene.bodyIds[2 + n / 2 - 1];
	tbShapeId shape;
	tbBody_GetShapes(link, &shape, 1);
	float hh = tbShape_GetGeometry(shape).round.halfHeight;
	while (run->step < steps && tbLabStep(run)) {
		if ((double)run->step * (double)run->dt < 1.0) {
			continue;
		}
		tbTransform xf = tbBody_GetTransform(link);
		vec3s end = glms_vec3_add(xf.p, glms_quat_rotatev(xf.q, (vec3s){{0.0f, hh, 0.0f}}));
		double sag = H - (double)end.y;
		sum += sag;
		lo = fmin(lo, sag);
		hi = fmax(hi, sag);
		++samples;
	}
	if (samples == 0) {
		snprintf(out->note, sizeof out->note, "the run stopped in its first second");
		return false;
	}
	out->figure = sum / samples;
	snprintf(out->note, sizeof out->note, "sag from %.4g to %.4g m over %d steps", lo, hi, samples);
	return true;
}

// ---------------------------------------------------------------------------------------------
// The table.

const tbLabExperiment tb_labExperiments[] = {
    {"pendulum",
     "period of a ball on a ball joint: 4 sqrt(I/(m g L)) K(sin(a/2))",
     "period, s",
     {{"length", 1.0, 0.1, 10.0, "pivot to the ball's centre, m"},
      {"amplitude", 10.0, 1.0, 170.0, "release angle from the vertical, deg"},
      {"radius", 0.05, 0.01, 0.5, "ball radius, m"},
      TB_LAB_STEP_PARAMS},
     5,
     0.005,
     pendulumScene,
     pendulumSeconds,
     pendulumMeasure,
     pendulumClosed,
     pendulumSize,
     pendulumReference,
     pendulumValidate},
    {"conical",
     "period of a conical pendulum on a string: 2 pi sqrt(L cos(theta)/g)",
     "period, s",
     {{"length", 1.0, 0.1, 10.0, "string length, pivot to the ball's centre, m"},
      {"angle", 30.0, 5.0, 80.0, "string's angle from the vertical, deg"},
      {"radius", 0.05, 0.01, 0.5, "ball radius, m"},
      TB_LAB_STEP_PARAMS},
     5,
     0.005,
     conicalScene,
     conicalSeconds,
     conicalMeasure,
     conicalClosed,
     conicalSize,
     conicalReference,
     conicalValidate},
    {"roll-sphere",
     "a ball rolling down a slope: a = 5/7 g sin(angle)",
     "acceleration, m/s^2",
     {{"angle", 20.0, 1.0, 60.0, "slope, deg"},
      {"radius", 0.2, 0.02, 2.0, "ball radius, m"},
      {"mu", 0.6, 0.0, 2.0, "friction coefficient of both surfaces"},
      TB_LAB_STEP_PARAMS},
     5,
     0.02,
     sphereScene,
     rollSeconds,
     rollMeasure,
     sphereClosed,
     rollSize,
     sphereReference,
     NULL},
    {"roll-cylinder",
     "a cylinder rolling down a slope: a = 2/3 g sin(angle)",
     "acceleration, m/s^2",
     {{"angle", 20.0, 1.0, 60.0, "slope, deg"},
      {"radius", 0.2, 0.02, 2.0, "cylinder radius (and half length), m"},
      {"mu", 0.6, 0.0, 2.0, "friction coefficient of both surfaces"},
      TB_LAB_STEP_PARAMS},
     5,
     0.02,
     cylinderScene,
     rollSeconds,
     rollMeasure,
     cylinderClosed,
     rollSize,
     cylinderReference,
     NULL},
    {"slide",
     "a box sliding to rest: d = v0^2 / (2 mu g)",
     "stopping distance, m",
     {{"speed", 3.0, 0.1, 20.0, "launch speed v0, m/s"},
      {"mu", 0.3, 0.05, 2.0, "friction coefficient of both surfaces"},
      {"half", 0.2, 0.02, 2.0, "box half extent, m"},
      TB_LAB_STEP_PARAMS},
     5,
     0.02,
     slideScene,
     slideSeconds,
     slideMeasure,
     slideClosed,
     slideSize,
     slideReference,
     NULL},
    {"bounce",
     "apex of a ball after n bounces: e^(2n) h",
     "apex after n bounces, m",
     {{"height", 1.0, 0.05, 10.0, "drop height of the ball's lowest point, m"},
      {"e", 0.8, 0.1, 1.0, "restitution"},
      {"n", 3.0, 1.0, 20.0, "bounces"},
      {"radius", 0.1, 0.01, 1.0, "ball radius, m"},
      TB_LAB_STEP_PARAMS},
     6,
     0.03,
     bounceScene,
     bounceSeconds,
     bounceMeasure,
     bounceClosed,
     bounceSize,
     bounceReference,
     NULL},
    {"oblique",
     "oblique elastic collision of equal balls: 90 degrees between them after",
     "angle between the outgoing velocities, deg",
     {{"speed", 2.0, 0.2, 10.0, "speed of the moving ball, m/s"},
      {"sin", 0.5, 0.05, 0.95, "impact parameter over 2 r (sine of the impact angle)"},
      {"radius", 0.1, 0.01, 1.0, "ball radius, m"},
      TB_LAB_STEP_PARAMS},
     5,
     0.01,
     obliqueScene,
     obliqueSeconds,
     obliqueMeasure,
     obliqueClosed,
     obliqueSize,
     obliqueReference,
     NULL},
    {"cradle",
     "Newton's cradle: the last ball leaves at v0",
     "last ball's speed / v0",
     {{"balls", 5.0, 2.0, 20.0, "balls in the row"},
      {"speed", 1.0, 0.1, 10.0, "arrival speed v0, m/s"},
      {"radius", 0.1, 0.01, 1.0, "ball radius, m"},
      TB_LAB_STEP_PARAMS},
     5,
     0.02,
     cradleScene,
     cradleSeconds,
     cradleMeasure,
     cradleClosed,
     cradleSize,
     NULL,
     NULL},
    {"gyroscope",
     "precession of a spinning disc on a ball joint: m g r / (I w)",
     "precession rate, rad/s",
     {{"spin", 100.0, 10.0, 500.0, "spin about the axle, rad/s"},
      {"radius", 0.2, 0.02, 1.0, "disc radius, m"},
      {"arm", 0.15, 0.02, 1.0, "pivot to the disc's centre along the axle, m"},
      {"thickness", 0.01, 0.002, 0.2, "disc half thickness, m"},
      TB_LAB_STEP_PARAMS},
     6,
     0.02,
     gyroScene,
     gyroSeconds,
     gyroMeasure,
     gyroClosed,
     gyroSize,
     NULL,
     NULL},
    {"flip",
     "intermediate-axis flip of a free box: Landau-Lifshitz elliptic period",
     "flip period, s",
     {{"spin", 5.0, 0.5, 50.0, "spin about the intermediate axis, rad/s"},
      {"perturb", 0.01, 0.0001, 0.3, "spin about the major axis / spin"},
      TB_LAB_STEP_PARAMS},
     4,
     0.02,
     flipScene,
     flipSeconds,
     flipMeasure,
     flipClosed,
     flipSize,
     NULL,
     NULL},
    {"tilt",
     "a block on a tilting board slides at atan(mu) or tips at atan(w/h)",
     "angle at which it moves, deg",
     {{"width", 0.2, 0.02, 2.0, "block base width w, m"},
      {"height", 0.4, 0.02, 2.0, "block height h, m"},
      {"mu", 0.3, 0.05, 2.0, "friction coefficient of both surfaces"},
      {"tilt_rate", 0.5, 0.05, 10.0, "board's tilting rate, deg/s"},
      TB_LAB_STEP_PARAMS},
     6,
     0.03,
     tipScene,
     tipSeconds,
     tipMeasure,
     tipClosed,
     tipSize,
     NULL,
     NULL},
    {"stack",
     "contact force under box k of a stack: (n - k) m g",
     "normal force, N",
     {{"boxes", 5.0, 1.0, 20.0, "boxes n"},
      {"box", 0.0, 0.0, 19.0, "the contact under box k (0 the bottom)"},
      {"mass", 1.0, 0.01, 100.0, "mass of each box, kg"},
      {"half", 0.1, 0.02, 1.0, "box half extent, m"},
      TB_LAB_STEP_PARAMS},
     6,
     0.01,
     stackScene,
     stackSeconds,
     stackMeasure,
     stackClosed,
     stackSize,
     NULL,
     stackValidate},
    {"chain",
     "sag of a hanging chain: the catenary a (cosh(D/2a) - 1)",
     "sag, m",
     {{"links", 16.0, 4.0, 40.0, "links (even)"},
      {"span", 2.0, 0.2, 10.0, "distance between the supports D, m"},
      {"length", 3.0, 0.3, 20.0, "chain length l, m"},
      {"radius", 0.02, 0.002, 0.2, "link radius, m"},
      TB_LAB_STEP_PARAMS},
     6,
     0.02,
     chainScene,
     chainSeconds,
     chainMeasure,
     chainClosed,
     chainSize,
     NULL,
     chainValidate},
};

const int tb_labExperimentCount = (int)(sizeof tb_labExperiments / sizeof tb_labExperiments[0]);
