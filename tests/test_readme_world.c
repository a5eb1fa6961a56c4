// The world example of docs/api-tour.md, compiled as a test: a ball dropped on the ground bounces
// and rests.
#include <criterion/criterion.h>
#include <stdio.h>
#include <tumble/tumble.h>

Test(readme, ball_bounces_on_the_ground)
{
	tbWorldDef worldDef = tbDefaultWorldDef(); // gravity (0, -9.81, 0), sleeping on
	tbWorldId world = tbCreateWorld(&worldDef);

	// The ground: a static body with a 20 x 1 x 20 m box whose top face is at y = 0.
	tbBodyDef groundDef = tbDefaultBodyDef();
	groundDef.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &groundDef);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbGeometry groundBox = tbMakeBox(10.0f, 0.5f, 10.0f);
	tbCreateShape(ground, &shapeDef, &groundBox);

	// A 0.25 m ball whose bottom is 1 m above the ground, restitution 0.5.
	tbBodyDef ballDef = tbDefaultBodyDef();
	ballDef.type = tb_dynamicBody;
	ballDef.position = (vec3s){{0.0f, 1.25f, 0.0f}};
	tbBodyId ball = tbCreateBody(world, &ballDef);
	shapeDef.restitution = 0.5f;
	tbGeometry sphere = tbMakeSphere(0.25f);
	tbCreateShape(ball, &shapeDef, &sphere);

	// 3 s at 60 Hz, 4 substeps; keep the highest point after the first bounce.
	float highest = 0.0f;
	bool bounced = false;
	for (int step = 0; step < 180; ++step) {
		tbWorld_Step(world, 1.0f / 60.0f, 4);
		float height = tbBody_GetPosition(ball).y - 0.25f;
		bounced = bounced || tbBody_GetLinearVelocity(ball).y > 0.0f;
		if (bounced && height > highest) {
			highest = height;
		}
	}
	vec3s p = tbBody_GetPosition(ball);
	printf("first rebound %.3f m (e^2 h = 0.250 m), at rest at y = %.4f m\n", (double)highest,
	       (double)p.y);
	// Analytic: a drop from h rebounds to e^2 h = 0.25 m; then the ball comes to rest on the
	// ground with its centre one radius up.
	cr_assert_float_eq(highest, 0.25f, 0.0125f);
	cr_assert_float_eq(p.y, 0.25f, 0.005f);
	tbDestroyWorld(world);
}
