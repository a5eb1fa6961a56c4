// Experiments of a first mechanics course against their closed forms (or a second, independent
// integration) at the default 60 Hz and 4 substeps: a gyroscope on a ball joint, an elastic ball
// bouncing, oblique elastic collisions of equal balls.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;
static const double kPi = 3.14159265358979323846;

static tbBodyId makeStaticPoint(tbWorldId world, vec3s p)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = p;
	return tbCreateBody(world, &bd);
}

// ---------------------------------------------------------------------------------------------
// Gyroscope: a disc (cylinder of radius a, thickness 2 hh, axis along its local y) whose centre is
// r along its axis from a ball joint, released with its axle horizontal, spinning at ws about the
// axle and not precessing. The textbook's steady precession is m g r / (Is ws); the axle dips and
// nutates. The reference is the heavy top about a fixed point (Goldstein, ch. 5), integrated here
// in double precision with RK4 at a tiny step: body-frame angular momentum about the pivot
// Lb' = Lb x wb + tau_b, wb = Ip^-1 Lb, R' = [R wb]x R.

typedef struct Mat3d
{
	double m[3][3]; // row, column
} Mat3d;

static void mat3dMulVec(const Mat3d* A, const double v[3], double out[3])
{
	for (int i = 0; i < 3; ++i) {
		out[i] = A->m[i][0] * v[0] + A->m[i][1] * v[1] + A->m[i][2] * v[2];
	}
}

static void mat3dTransMulVec(const Mat3d* A, const double v[3], double out[3])
{
	for (int i = 0; i < 3; ++i) {
		out[i] = A->m[0][i] * v[0] + A->m[1][i] * v[1] + A->m[2][i] * v[2];
	}
}

static void cross3d(const double a[3], const double b[3], double out[3])
{
	double x = a[1] * b[2] - a[2] * b[1];
	double y = a[2] * b[0] - a[0] * b[2];
	double z = a[0] * b[1] - a[1] * b[0];
	out[0] = x;
	out[1] = y;
	out[2] = z;
}

typedef struct TopState
{
	Mat3d R;
	double Lb[3];
} TopState;

typedef struct TopParams
{
	double Ip[3]; // principal moments about the pivot, body axes (x, y = axle, z)
	double mgr;   // m g r
} TopParams;

static void topDerivative(const TopParams* p, const TopState* y, TopState* d)
{
	double wb[3] = {y->Lb[0] / p->Ip[0], y->Lb[1] / p->Ip[1], y->Lb[2] / p->Ip[2]};
	double ww[3];
	mat3dMulVec(&y->R, wb, ww);
	// Gravity's torque about the pivot: (R r yhat) x (0, -m g, 0), in body axes.
	double arm[3] = {y->R.m[0][1], y->R.m[1][1], y->R.m[2][1]};
	double g[3] = {0.0, -p->mgr, 0.0}, tw[3], tb[3];
	cross3d(arm, g, tw);
	mat3dTransMulVec(&y->R, tw, tb);
	double gyro[3];
	cross3d(y->Lb, wb, gyro);
	for (int i = 0; i < 3; ++i) {
		d->Lb[i] = gyro[i] + tb[i];
	}
	// R' = [ww]x R, column by column.
	for (int c = 0; c < 3; ++c) {
		double col[3] = {y->R.m[0][c], y->R.m[1][c], y->R.m[2][c]}, out[3];
		cross3d(ww, col, out);
		for (int r = 0; r < 3; ++r) {
			d->R.m[r][c] = out[r];
		}
	}
}

static void topAxpy(TopState* out, const TopState* y, double h, const TopState* d)
{
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			out->R.m[r][c] = y->R.m[r][c] + h * d->R.m[r][c];
		}
		out->Lb[r] = y->Lb[r] + h * d->Lb[r];
	}
}

static void topStep(const TopParams* p, TopState* y, double h)
{
	TopState k1, k2, k3, k4, t;
	topDerivative(p, y, &k1);
	topAxpy(&t, y, 0.5 * h, &k1);
	topDerivative(p, &t, &k2);
	topAxpy(&t, y, 0.5 * h, &k2);
	topDerivative(p, &t, &k3);
	topAxpy(&t, y, h, &k3);
	topDerivative(p, &t, &k4);
	for (int r = 0; r < 3; ++r) {
		for (int c = 0; c < 3; ++c) {
			y->R.m[r][c] +=
			    h / 6.0 * (k1.R.m[r][c] + 2.0 * k2.R.m[r][c] + 2.0 * k3.R.m[r][c] + k4.R.m[r][c]);
		}
		y->Lb[r] += h / 6.0 * (k1.Lb[r] + 2.0 * k2.Lb[r] + 2.0 * k3.Lb[r] + k4.Lb[r]);
	}
}

// The axle's dip below the horizontal and its azimuth about +y, from its world direction.
static void axleAngles(const double a[3], double* dip, double* azimuth)
{
	*dip = asin(fmax(-1.0, fmin(1.0, -a[1])));
	*azimuth = atan2(-a[2], a[0]);
}

static double unwrap(double angle, double previous)
{
	while (angle - previous > kPi) {
		angle -= 2.0 * kPi;
	}
	while (angle - previous < -kPi) {
		angle += 2.0 * kPi;
	}
	return angle;
}

typedef struct GyroResult
{
	double precession; // mean rate, rad/s: the azimuth turned over the run
	double meanDip;    // rad
	double finalDip;   // rad
} GyroResult;

// The reference over `duration` s, sampled every `sample` s as the engine is.
static GyroResult gyroReference(const TopParams* p, double ws, double Is, double duration,
                                double sample)
{
	TopState y;
	memset(&y, 0, sizeof y);
	// Axle (body y) along world +x: body x -> world -y, body y -> world x, body z -> world z.
	y.R.m[1][0] = -1.0;
	y.R.m[0][1] = 1.0;
	y.R.m[2][2] = 1.0;
	y.Lb[1] = Is * ws; // spin about the axle; no transverse motion
	int perSample = 2000;
	double h = sample / perSample;
	int samples = (int)lround(duration / sample);
	double sumDip = 0.0, azimuth = 0.0, dip = 0.0;
	for (int s = 0; s < samples; ++s) {
		for (int k = 0; k < perSample; ++k) {
			topStep(p, &y, h);
		}
		double a[3] = {y.R.m[0][1], y.R.m[1][1], y.R.m[2][1]};
		double az;
		axleAngles(a, &dip, &az);
		azimuth = unwrap(az, azimuth);
		sumDip += dip;
	}
	GyroResult out = {azimuth / duration, sumDip / samples, dip};
	return out;
}

static vec3s rotateByQuat(versors q, vec3s v)
{
	// v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z).
	vec3s u = v3(q.x, q.y, q.z);
	vec3s t = glms_vec3_scale(glms_vec3_cross(u, v), 2.0f);
	return glms_vec3_add(glms_vec3_add(v, glms_vec3_scale(t, q.w)), glms_vec3_cross(u, t));
}

// Runs the disc on its ball joint in the engine and the reference; checks the precession against
// m g r / (Is ws) and the mean dip against the reference's.
static void gyroscope(float a, float hh, float r, float ws, float duration, float dt)
{
	tbWorldId world = makeWorld(false);
	vec3s pivot = v3(0.0f, 2.0f, 0.0f);
	tbBodyId anchor = makeStaticPoint(world, pivot);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = glms_vec3_add(pivot, v3(r, 0.0f, 0.0f));
	bd.rotation = (versors){{0.0f, 0.0f, -sqrtf(0.5f), sqrtf(0.5f)}}; // local y -> world x
	bd.angularVelocity = v3(ws, 0.0f, 0.0f);
	tbBodyId disc = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry cylinder = tbMakeCylinder(a, hh);
	tbCreateShape(disc, &sd, &cylinder);
	tbBallJointDef jd = tbDefaultBallJointDef();
	jd.bodyIdA = anchor;
	jd.bodyIdB = disc;
	jd.anchor = pivot;
	tbJointId joint = tbCreateBallJoint(world, &jd);
	cr_assert(tbJoint_IsValid(joint), "%s", tbGetLastError());
	tbBody_SetAngularVelocity(disc, v3(ws, 0.0f, 0.0f));

	double m = tbBody_GetMass(disc);
	double g = -tbWorld_GetGravity(world).y;
	double Is = 0.5 * m * (double)(a * a);
	double It = 0.25 * m * (double)(a * a) + m * (double)(4.0f * hh * hh) / 12.0;
	double r2 = (double)(r * r);
	TopParams p = {{It + m * r2, Is, It + m * r2}, m * g * (double)r};
	double textbook = m * g * (double)r / (Is * (double)ws);
	GyroResult ref = gyroReference(&p, (double)ws, Is, (double)duration, (double)dt);

	int steps = (int)lroundf(duration / dt);
	double sumDip = 0.0, azimuth = 0.0, dip = 0.0;
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, dt, kSubsteps);
		vec3s axle = rotateByQuat(tbBody_GetRotation(disc), v3(0.0f, 1.0f, 0.0f));
		double ad[3] = {axle.x, axle.y, axle.z}, az;
		axleAngles(ad, &dip, &az);
		azimuth = unwrap(az, azimuth);
		sumDip += dip;
	}
	double precession = azimuth / (double)duration, meanDip = sumDip / steps;
	double toDeg = 180.0 / kPi;
	printf("gyroscope a %.2f r %.2f ws %.0f at %.0f Hz: precession %.4f rad/s (textbook %.4f, "
	       "reference %.4f, ratio %.4f); mean dip %.3f deg (reference %.3f), final %.3f (%.3f)\n",
	       (double)a, (double)r, (double)ws, 1.0 / (double)dt, precession, textbook, ref.precession,
	       precession / textbook, meanDip * toDeg, ref.meanDip * toDeg, dip * toDeg,
	       ref.finalDip * toDeg);
	cr_expect(fabs(precession / textbook - 1.0) < 0.02, "precession %.4f vs m g r / (I w) %.4f",
	          precession, textbook);
	cr_expect(fabs(meanDip - ref.meanDip) * toDeg < 0.25, "mean dip %.3f deg vs %.3f deg",
	          meanDip * toDeg, ref.meanDip * toDeg);
	tbDestroyWorld(world);
}

// Disabled until jointed bodies get a gyroscopic term that keeps the pivot's energy (issue 29):
// without one the precession is about twice m g r / (I w); with a free-body implicit step before
// the joint solve the precession is right but the joint's projection of the changed spin takes
// energy and the axle sinks.
Test(textbook, gyroscope_precesses_at_mgr_over_Iw, .disabled = true)
{
	gyroscope(0.2f, 0.01f, 0.15f, 100.0f, 4.0f, kDt);
}

Test(textbook, gyroscope_small_fast_disc, .disabled = true)
{
	// A small disc spun near the solver's rotation cap (a quarter turn per substep).
	gyroscope(0.08f, 0.005f, 0.1f, 150.0f, 3.0f, kDt);
}

Test(textbook, gyroscope_other_rates, .disabled = true)
{
	gyroscope(0.15f, 0.02f, 0.2f, 80.0f, 3.0f, 1.0f / 120.0f);
	gyroscope(0.15f, 0.02f, 0.2f, 80.0f, 3.0f, 1.0f / 30.0f);
}

// ---------------------------------------------------------------------------------------------
// A ball with e = 1 dropped on the ground: every apex at the drop height (Newton's impact law,
// energy kept). The apex is the highest sampled centre between two bounces.

static tbBodyId makeBall(tbWorldId world, vec3s p, float radius, float restitution)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = p;
	tbBodyId ball = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.restitution = restitution;
	sd.friction = 0.0f;
	tbGeometry sphere = tbMakeSphere(radius);
	tbCreateShape(ball, &sd, &sphere);
	return ball;
}

// Drops a ball of `radius` from `height` (its lowest point above the ground) and returns the
// heights of its first `bounces` apexes in apex[].
static void bounceApexes(float radius, float height, float restitution, float dt, int bounces,
                         float* apex)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 5.0f, 0.0f);
	tbBodyId ball = makeBall(world, v3(0.0f, radius + height, 0.0f), radius, restitution);
	int found = 0;
	float best = -1.0f;
	bool rising = false;
	int steps = (int)(2.0f * (float)bounces * sqrtf(2.0f * height / 9.81f) / dt) + 400;
	for (int s = 0; s < steps && found < bounces; ++s) {
		tbWorld_Step(world, dt, kSubsteps);
		float y = tbBody_GetPosition(ball).y - radius;
		float vy = tbBody_GetLinearVelocity(ball).y;
		if (vy > 0.0f) {
			rising = true;
			best = -1.0f;
		} else if (rising) {
			// The first step after the top: the apex is the higher of this and the last sample.
			apex[found++] = best > y ? best : y;
			rising = false;
		}
		best = y;
	}
	cr_assert_eq(found, bounces, "only %d bounces", found);
	tbDestroyWorld(world);
}

Test(textbook, elastic_ball_keeps_its_apex)
{
	float rates[] = {1.0f / 60.0f, 1.0f / 120.0f, 1.0f / 30.0f};
	float heights[] = {1.0f, 0.3f, 2.0f};
	for (int r = 0; r < 3; ++r) {
		float apex[20];
		bounceApexes(0.1f, heights[r], 1.0f, rates[r], 20, apex);
		printf("e = 1 ball from %.2f m at %.0f Hz: apex %.4f after 1, %.4f after 20\n",
		       (double)heights[r], 1.0 / (double)rates[r], (double)apex[0], (double)apex[19]);
		cr_expect(fabsf(apex[0] / heights[r] - 1.0f) < 0.02f, "apex after one bounce %.4f m",
		          (double)apex[0]);
		cr_expect(fabsf(apex[19] / heights[r] - 1.0f) < 0.02f, "apex after 20 bounces %.4f m",
		          (double)apex[19]);
	}
}

Test(textbook, half_elastic_ball_returns_e_squared)
{
	// e = 0.5: each apex a quarter of the one before (h' = e^2 h).
	float apex[3];
	bounceApexes(0.1f, 1.0f, 0.5f, kDt, 3, apex);
	printf("e = 0.5 ball from 1 m: apexes %.4f %.4f %.4f\n", (double)apex[0], (double)apex[1],
	       (double)apex[2]);
	cr_expect(fabsf(apex[0] / 0.25f - 1.0f) < 0.03f, "first apex %.4f m", (double)apex[0]);
	cr_expect(fabsf(apex[1] / 0.0625f - 1.0f) < 0.05f, "second apex %.4f m", (double)apex[1]);
}
