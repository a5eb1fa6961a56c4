// Joints against independent answers: a pendulum's period, a chain's stretch, a heavy load on
// light links, a hinge motor, a door's limits, a slider's limits and rail; bad definitions.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;

static tbBodyId makeStatic(tbWorldId world, vec3s p)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = p;
	return tbCreateBody(world, &bd);
}

static tbBodyId makeDynamic(tbWorldId world, vec3s p, versors q, const tbShape* shape,
                            float density)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = p;
	bd.rotation = q;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = density;
	tbCreateShape(body, &sd, shape);
	return body;
}

// The period of a physical pendulum: a ball of radius r whose centre is d from the pivot,
// released at amplitude a: T0 = 2 pi sqrt((d^2 + 2/5 r^2) / (g d)), times the large-amplitude
// series 1 + a^2/16 + 11 a^4/3072.
static double pendulumPeriod(double d, double r, double g, double amplitude)
{
	double t0 = 2.0 * 3.14159265358979 * sqrt((d * d + 0.4 * r * r) / (g * d));
	double a2 = amplitude * amplitude;
	return t0 * (1.0 + a2 / 16.0 + 11.0 * a2 * a2 / 3072.0);
}

// A ball on a ball joint, released at `degrees` in a vertical plane turned by `yaw` about y.
static void pendulum(float d, float r, float degrees, float yaw, vec3s pivot)
{
	tbWorldId world = makeWorld(false);
	tbBodyId anchor = makeStatic(world, pivot);
	float a = degrees * 3.14159265f / 180.0f;
	vec3s dir = v3(sinf(a) * cosf(yaw), -cosf(a), sinf(a) * sinf(yaw));
	tbShape ball = tbMakeSphere(r);
	tbBodyId bob =
	    makeDynamic(world, glms_vec3_add(pivot, glms_vec3_scale(dir, d)), quatIdentity(), &ball,
	                1000.0f);
	tbBallJointDef jd = tbDefaultBallJointDef();
	jd.bodyIdA = anchor;
	jd.bodyIdB = bob;
	jd.anchor = pivot;
	tbJointId joint = tbCreateBallJoint(world, &jd);
	cr_assert(tbJoint_IsValid(joint), "%s", tbGetLastError());

	// Zero crossings of the horizontal offset along the swing direction give the period.
	vec3s swing = v3(cosf(yaw), 0.0f, sinf(yaw));
	float g = -tbWorld_GetGravity(world).y;
	float prev = glms_vec3_dot(glms_vec3_sub(tbBody_GetPosition(bob), pivot), swing);
	double crossings[64];
	int nCross = 0;
	float firstAmp = 0.0f, lastAmp = 0.0f, worstGap = 0.0f;
	int steps = (int)(10.0f / kDt);
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		vec3s p = tbBody_GetPosition(bob);
		float x = glms_vec3_dot(glms_vec3_sub(p, pivot), swing);
		float gap = fabsf(glms_vec3_norm(glms_vec3_sub(p, pivot)) - d);
		worstGap = fmaxf(worstGap, gap);
		if ((prev < 0.0f) != (x < 0.0f) && nCross < 64) {
			// Linear interpolation of the crossing time within the step.
			double t = (double)s * (double)kDt + (double)kDt * (double)(prev / (prev - x));
			crossings[nCross++] = t;
		}
		float amp = fabsf(x) / d;
		if (s < (int)(2.0f / kDt)) {
			firstAmp = fmaxf(firstAmp, amp);
		}
		if (s >= steps - (int)(2.0f / kDt)) {
			lastAmp = fmaxf(lastAmp, amp);
		}
		prev = x;
	}
	cr_assert_geq(nCross, 4);
	double period = 2.0 * (crossings[nCross - 1] - crossings[0]) / (double)(nCross - 1);
	double want = pendulumPeriod(d, r, g, a);
	double ampLoss = 1.0 - (double)lastAmp / (double)firstAmp;
	printf("SCENE pendulum d %.2f m r %.2f m at %.0f deg: period %.5f s (analytic %.5f, %+.3f %%), "
	       "amplitude kept %.2f %% over 10 s, anchors apart at most %.2e m\n",
	       (double)d, (double)r, (double)degrees, period, want, 100.0 * (period - want) / want,
	       100.0 * (1.0 - ampLoss), (double)worstGap);
	cr_expect_lt(fabs(period - want) / want, 0.005, "period %g vs %g", period, want);
	cr_expect_lt(fabs(ampLoss), 0.03, "amplitude changed by %g", ampLoss);
	cr_expect_lt(worstGap, 0.005f);
	tbDestroyWorld(world);
}

Test(joints, ball_joint_pendulum_period_and_amplitude)
{
	pendulum(1.0f, 0.1f, 10.0f, 0.0f, v3(0.0f, 3.0f, 0.0f));
	pendulum(0.5f, 0.05f, 20.0f, 0.7f, v3(2.0f, 2.0f, -1.0f));
	pendulum(2.0f, 0.3f, 5.0f, 2.0f, v3(-3.0f, 4.0f, 5.0f));
}
