// Rolling keeps its energy: a ball thrown along the ground settles to pure rolling at 5/7 of its
// speed and keeps it; a ball released on a slope accelerates at 5/7 g sin(angle). Both against
// the analytic answers of a uniform sphere (I = 2/5 m r^2), sleeping off.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;

// A ball of radius r thrown along +x at v0 on flat ground: sliding friction spins it up until
// v = w r, which happens at v = 5/7 v0 (angular momentum about the contact point is conserved:
// m v0 r = m v r + 2/5 m r^2 w). From then on nothing should slow it.
static void thrownBall(float r, float v0, float friction)
{
	tbWorldId world = makeWorld(false);
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = v3(0.0f, -0.5f, 0.0f);
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbGeometry slab = tbMakeBox(200.0f, 0.5f, 20.0f);
	tbCreateShape(ground, &sd, &slab);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = v3(-150.0f, r, 0.0f);
	bd.linearVelocity = v3(v0, 0.0f, 0.0f);
	tbBodyId ball = tbCreateBody(world, &bd);
	tbGeometry sphere = tbMakeSphere(r);
	tbCreateShape(ball, &sd, &sphere);

	const float want = 5.0f / 7.0f * v0;
	float worstSpeed = 0.0f, worstSink = 0.0f, worstSlip = 0.0f;
	for (int s = 0; s < 600; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		float t = (float)(s + 1) * kDt;
		vec3s v = tbBody_GetLinearVelocity(ball);
		vec3s w = tbBody_GetAngularVelocity(ball);
		float sink = r - tbBody_GetPosition(ball).y;
		worstSink = fmaxf(worstSink, sink);
		if (t >= 1.5f) {
			worstSpeed = fmaxf(worstSpeed, fabsf(v.x - want) / want);
			// Rolling: the contact point is at rest, v = -w_z r.
			worstSlip = fmaxf(worstSlip, fabsf(v.x + w.z * r) / want);
		}
	}
	vec3s v = tbBody_GetLinearVelocity(ball);
	printf("SCENE thrown ball r %.2f m at %.1f m/s, mu %.2f: speed at 10 s %.4f m/s (5/7 v0 = "
	       "%.4f), worst deviation 1.5-10 s %.3f %%, slip %.2e, deepest sink %.2e m\n",
	       (double)r, (double)v0, (double)friction, (double)v.x, (double)want,
	       100.0 * (double)worstSpeed, (double)worstSlip, (double)worstSink);
	cr_expect_lt(worstSpeed, 0.02f, "r %g: speed off 5/7 v0 by %g", (double)r, (double)worstSpeed);
	cr_expect_lt(worstSink, 0.005f, "r %g: sank %g m", (double)r, (double)worstSink);
	cr_expect_lt(worstSlip, 0.01f);
	tbDestroyWorld(world);
}

Test(rolling, thrown_ball_keeps_five_sevenths)
{
	thrownBall(0.5f, 3.0f, 0.6f);
	thrownBall(0.1f, 3.0f, 0.6f);
	thrownBall(1.5f, 5.0f, 0.3f);
	thrownBall(0.25f, 1.0f, 1.0f);
}

// A ball released from rest on a slope of `degrees` (friction mu high enough to roll: tan <= 7/2
// mu) rolls without slipping: a = 5/7 g sin(angle), so its speed is 5/7 g sin(angle) t.
static void slopeBall(float r, float degrees, float friction, float seconds)
{
	float angle = degrees * 3.14159265f / 180.0f;
	tbWorldId world = makeWorld(false);
	tbBodyDef gd = tbDefaultBodyDef();
	// A slab turned about z by -angle: its top face descends towards +x.
	gd.rotation = glms_quatv(-angle, v3(0.0f, 0.0f, 1.0f));
	tbBodyId ground = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbGeometry slab = tbMakeBox(200.0f, 0.5f, 20.0f);
	tbCreateShape(ground, &sd, &slab);
	vec3s normal = v3(sinf(angle), cosf(angle), 0.0f);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = glms_vec3_scale(normal, 0.5f + r);
	tbBodyId ball = tbCreateBody(world, &bd);
	tbGeometry sphere = tbMakeSphere(r);
	tbCreateShape(ball, &sd, &sphere);
	vec3s p0 = tbBody_GetPosition(ball);

	float g = -tbWorld_GetGravity(world).y;
	float worst = 0.0f, worstOff = 0.0f;
	int steps = (int)lroundf(seconds / kDt);
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		float t = (float)(s + 1) * kDt;
		float want = 5.0f / 7.0f * g * sinf(angle) * t;
		float speed = glms_vec3_norm(tbBody_GetLinearVelocity(ball));
		if (t >= 0.25f) {
			worst = fmaxf(worst, fabsf(speed - want) / want);
		}
		// Off the surface (into it or above it), along the slope's normal.
		float off = glms_vec3_dot(glms_vec3_sub(tbBody_GetPosition(ball), p0), normal);
		worstOff = fmaxf(worstOff, fabsf(off));
	}
	float want = 5.0f / 7.0f * g * sinf(angle) * seconds;
	float speed = glms_vec3_norm(tbBody_GetLinearVelocity(ball));
	printf("SCENE slope %.0f deg, ball r %.2f m, mu %.2f: speed at %.1f s %.4f m/s (5/7 g sin t "
	       "= %.4f), worst deviation %.3f %%, off the surface %.2e m\n",
	       (double)degrees, (double)r, (double)friction, (double)seconds, (double)speed,
	       (double)want, 100.0 * (double)worst, (double)worstOff);
	cr_expect_lt(worst, 0.02f, "slope %g deg: speed off by %g", (double)degrees, (double)worst);
	cr_expect_lt(worstOff, 0.005f);
	tbDestroyWorld(world);
}

Test(rolling, ball_down_a_slope_accelerates_at_five_sevenths_g_sin)
{
	slopeBall(0.5f, 20.0f, 0.6f, 2.0f);
	slopeBall(0.2f, 10.0f, 0.6f, 3.0f);
	slopeBall(1.0f, 30.0f, 0.5f, 2.0f);
}
