// The C example of docs/api-tour.md, compiled as a test: a ball sunk into a box, queried and
// checked.
#include <criterion/criterion.h>
#include <stdio.h>
#include <tumble/tumble.h>

Test(readme, sphere_into_box)
{
	// A 2 x 1 x 2 m box at the origin and a ball of radius 0.5 m whose centre is 0.4 m above the
	// box's top face (y = 0.5): the ball sinks 0.1 m into the box.
	tbGeometry box = tbMakeBox(1.0f, 0.5f, 1.0f);
	tbGeometry ball = tbMakeSphere(0.5f);
	versors noRotation = {{0.0f, 0.0f, 0.0f, 1.0f}};
	tbTransform boxPose = tbMakeTransform((vec3s){{0.0f, 0.0f, 0.0f}}, noRotation);
	tbTransform ballPose = tbMakeTransform((vec3s){{0.2f, 0.9f, -0.3f}}, noRotation);

	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult r = tbQueryShapes(&box, boxPose, &ball, ballPose, &def);

	printf("hit %d, signed distance %.4f m, normal (%.3f %.3f %.3f), status %s\n", r.hit,
	       (double)r.distance, (double)r.normal.x, (double)r.normal.y, (double)r.normal.z,
	       tbQueryStatusName(r.status));
	// Analytic: depth = radius - (centre height - face height) = 0.5 - 0.4 = 0.1, normal +y.
	cr_assert(r.hit);
	cr_assert_float_eq(r.distance, -0.1f, 1e-5f);
	cr_assert_float_eq(r.normal.y, 1.0f, 1e-5f);
}
