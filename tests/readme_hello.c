// hello.c: a ball dropped on the ground, from the installed Tumble.
#include <stdio.h>
#include <tumble/tumble.h>

int main(void)
{
	tbWorldDef worldDef = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld(&worldDef);

	tbBodyDef groundDef = tbDefaultBodyDef(); // static by default
	groundDef.position = (vec3s){{0.0f, -0.5f, 0.0f}};
	tbBodyId ground = tbCreateBody(world, &groundDef);
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbGeometry groundBox = tbMakeBox(10.0f, 0.5f, 10.0f); // top face at y = 0
	tbCreateShape(ground, &shapeDef, &groundBox);

	tbBodyDef ballDef = tbDefaultBodyDef();
	ballDef.type = tb_dynamicBody;
	ballDef.position = (vec3s){{0.0f, 2.0f, 0.0f}};
	tbBodyId ball = tbCreateBody(world, &ballDef);
	tbGeometry sphere = tbMakeSphere(0.25f);
	tbCreateShape(ball, &shapeDef, &sphere);

	for (int step = 0; step < 120; ++step) { // 2 s at 60 Hz, 4 substeps
		tbWorld_Step(world, 1.0f / 60.0f, 4);
	}
	printf("Tumble %s: the ball rests at y = %.3f m\n", tbVersionString(),
	       (double)tbBody_GetPosition(ball).y);
	tbDestroyWorld(world);
	return 0;
}
