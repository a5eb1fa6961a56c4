// Tumble from C++: the public header compiles as C++ (-Wall -Wextra -Wpedantic), links against
// libtumble with C linkage, and a world steps to the analytic answer. Vectors are written as
// vec3s{{x, y, z}} (C's compound literal (vec3s){{...}} is not C++), and members are read as
// v.x as in C: tumble/base.h asks cglm for its anonymous structs under C++.
#include <tumble/tumble.h>

#include <criterion/criterion.h>

#include <cmath>

Test(cplusplus, box_falls_and_rests_on_the_ground)
{
	tbWorldDef worldDef = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&worldDef);

	// Ground: a 20 x 1 x 20 m static box whose top face is at y = 0.
	tbBodyDef groundDef = tbDefaultBodyDef();
	groundDef.position = vec3s{{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &groundDef);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbGeometry groundBox = tbMakeBox(10.0f, 0.5f, 10.0f);
	cr_assert(tbShape_IsValid(tbCreateShape(ground, &shapeDef, &groundBox)));

	// A unit cube dropped from 1 m above the ground.
	tbBodyDef boxDef = tbDefaultBodyDef();
	boxDef.type = tb_dynamicBody;
	boxDef.position = vec3s{{0.0f, 1.5f, 0.0f}};
	tbBodyId box = tbCreateBody(world, &boxDef);
	tbGeometry cube = tbMakeBox(0.5f, 0.5f, 0.5f);
	tbCreateShape(box, &shapeDef, &cube);

	// Free fall first: after 0.25 s (15 steps of 1/60 s), y = 1.5 - g t^2 / 2 to the integrator's
	// accuracy, before the cube reaches the ground at t = sqrt(2 / 9.81) = 0.45 s.
	for (int step = 0; step < 15; ++step) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
	}
	double t = 0.25;
	cr_assert_float_eq(tbBody_GetPosition(box).y, 1.5 - 0.5 * 9.81 * t * t, 0.01);

	// Then rest: the cube's centre half its edge above the ground, no speed left.
	for (int step = 0; step < 120; ++step) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	vec3s p = tbBody_GetPosition(box);
	cr_assert_float_eq(p.y, 0.5f, 0.01f, "the cube rests at y = %g", (double)p.y);
	cr_assert_lt(std::fabs(tbBody_GetLinearVelocity(box).y), 0.01f);
	tbDestroyWorld(world);
}

Test(cplusplus, query_and_version)
{
	// A ball of radius 0.5 with its centre 0.4 m above a box's top face sinks 0.1 m into it.
	tbGeometry box = tbMakeBox(1.0f, 0.5f, 1.0f);
	tbGeometry ball = tbMakeSphere(0.5f);
	tbTransform boxPose = tbTransformIdentity();
	tbTransform ballPose = tbMakeTransform(vec3s{{0.2f, 0.9f, -0.3f}}, boxPose.q);
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult r = tbQueryShapes(&box, boxPose, &ball, ballPose, &def);
	cr_assert(r.hit);
	cr_assert_float_eq(r.distance, -0.1f, 1e-5f);
	cr_assert_float_eq(r.normal.y, 1.0f, 1e-5f);

	// The linked library is the one these headers describe.
	tbVersion v = tbGetVersion();
	cr_assert_eq(v.major, TB_VERSION_MAJOR);
	cr_assert_eq(v.minor, TB_VERSION_MINOR);
	cr_assert_eq(v.patch, TB_VERSION_PATCH);
	cr_assert_str_eq(tbVersionString(), TB_VERSION_STRING);
}
