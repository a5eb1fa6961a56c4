// The character mover (docs/mover.md) against closed forms: the plane solver's projection on one
// and two planes, the contact planes' separation and a cast's fraction by geometry, the walk's
// speed up a 30 degree slope (the input speed, its rise 2 sin 30), no height up a 50 degree one
// and a slide down it at g sin 50, stairs within the step height and not beyond, a walk at 45
// degrees along a wall at 2 cos 45, no tunnelling through a 5 cm wall at 20 m/s, a ride on a
// turning platform that follows the platform's point, and a dynamic box pushed only with strength.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <tumble/tumble.h>

#define G 9.81f
#define PI 3.14159265f
static const float kDt = 1.0f / 60.0f;

static tbWorldId makeWorld(void)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = (vec3s){{0.0f, -G, 0.0f}};
	def.enableSleep = false;
	return tbCreateWorld(&def);
}

static tbBodyId addBox(tbWorldId world, tbBodyType type, vec3s position, versors rotation,
                       vec3s half, float density)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	def.rotation = rotation;
	tbBodyId body = tbCreateBody(world, &def);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = density;
	tbGeometry g = tbMakeBox(half.x, half.y, half.z);
	tbCreateShape(body, &sd, &g);
	return body;
}

// A static floor whose top face is y = 0.
static void addFloor(tbWorldId world)
{
	addBox(world, tb_staticBody, (vec3s){{0, -0.5f, 0}}, glms_quat_identity(),
	       (vec3s){{50, 0.5f, 50}}, 1000.0f);
}

// A static slope rising towards +x at `angle`, its surface through `foot`: a box turned about z.
// Returns the surface's unit normal.
static vec3s addSlope(tbWorldId world, vec3s foot, float angle, float halfLength)
{
	versors q = glms_quatv(angle, (vec3s){{0, 0, 1}});
	vec3s n = glms_quat_rotatev(q, (vec3s){{0, 1, 0}});
	vec3s along = glms_quat_rotatev(q, (vec3s){{1, 0, 0}});
	// The box's centre half its thickness under the surface, its middle halfLength up the slope.
	vec3s c = glms_vec3_add(foot, glms_vec3_scale(along, halfLength - 1.0f));
	c = glms_vec3_sub(c, glms_vec3_scale(n, 0.5f));
	addBox(world, tb_staticBody, c, q, (vec3s){{halfLength, 0.5f, 5}}, 1000.0f);
	return n;
}

static tbCharacter makeCharacter(vec3s position)
{
	tbCharacterDef def = tbDefaultCharacterDef();
	def.position = position;
	tbCharacter c = tbMakeCharacter(&def);
	cr_assert(c.valid, "%s", tbGetLastError());
	return c;
}

// The centre height of a character standing on y = top.
static float standingY(const tbCharacter* c, float top)
{
	return top + c->def.radius + c->def.halfHeight + c->def.skinWidth;
}

// ---------------------------------------------------------------------------------------------
// The plane solver and the queries

Test(mover, solver_projects_on_planes)
{
	// One plane y >= 0 (offset 0): a target down and sideways keeps only its side part.
	tbMoverConstraint one = {{{0, 1, 0}}, 0.0f, 0.0f};
	vec3s d = tbSolveMoverPlanes((vec3s){{1, -2, 0.5f}}, &one, 1);
	cr_assert_float_eq(d.x, 1.0f, 1e-6f);
	cr_assert_float_eq(d.y, 0.0f, 1e-6f);
	cr_assert_float_eq(d.z, 0.5f, 1e-6f);
	cr_assert_float_eq(one.push, 2.0f, 1e-6f);
	// A plane already 0.1 m into: the target zero is pushed out by 0.1 along the normal.
	tbMoverConstraint out = {{{0, 0, 1}}, 0.1f, 0.0f};
	d = tbSolveMoverPlanes(glms_vec3_zero(), &out, 1);
	cr_assert_float_eq(d.z, 0.1f, 1e-6f);
	// A wedge: the floor and a wall at 60 degrees (normal (-sin 60, cos 60, 0)). A target along
	// +x into the wedge's edge (along z) moves only along z, its z part kept.
	// The floor and a wall (normal -x): a target along +x into their corner keeps only its z.
	tbMoverConstraint corner[2] = {{{{0, 1, 0}}, 0.0f, 0.0f}, {{{-1, 0, 0}}, 0.0f, 0.0f}};
	d = tbSolveMoverPlanes((vec3s){{1, -0.5f, 0.3f}}, corner, 2);
	cr_assert(fabsf(d.x) < 1e-6f && fabsf(d.y) < 1e-6f, "d = %g %g", (double)d.x, (double)d.y);
	cr_assert_float_eq(d.z, 0.3f, 1e-6f);
	// The floor and a slope at 60 degrees (normal (-sin 60, cos 60, 0)): the target (1, 0) goes
	// to its projection on the slope's line, (cos 60) (cos 60, sin 60) = (0.25, 0.433).
	float s = sinf(PI / 3.0f), c = cosf(PI / 3.0f);
	tbMoverConstraint wedge[2] = {{{{0, 1, 0}}, 0.0f, 0.0f}, {{{-s, c, 0}}, 0.0f, 0.0f}};
	d = tbSolveMoverPlanes((vec3s){{1, 0, 0.3f}}, wedge, 2);
	cr_assert_float_eq(d.x, c * c, 1e-5f);
	cr_assert_float_eq(d.y, c * s, 1e-5f);
	cr_assert_float_eq(d.z, 0.3f, 1e-6f);
	// A target away from both planes is left as it is, with no push.
	d = tbSolveMoverPlanes((vec3s){{-1, 1, 0}}, wedge, 2);
	cr_assert_float_eq(d.x, -1.0f, 1e-6f);
	cr_assert(wedge[0].push == 0.0f && wedge[1].push == 0.0f);
}

Test(mover, collide_and_cast_by_geometry)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	tbGeometry capsule = tbMakeCapsule(0.3f, 0.6f);
	tbTransform xf = {{{0, 1.0f, 0}}, glms_quat_identity()};
	tbMoverPlane planes[8];
	// Its bottom is 1 - 0.9 = 0.1 above the floor: one plane, normal up, separation 0.1.
	int n = tbWorld_CollideMover(world, &capsule, xf, 0.2f, tbDefaultQueryFilter(), planes, 8);
	cr_assert_eq(n, 1);
	cr_assert_float_eq(planes[0].separation, 0.1f, 1e-5f);
	cr_assert_float_eq(planes[0].normal.y, 1.0f, 1e-5f);
	cr_assert_float_eq(planes[0].point.y, 0.0f, 1e-5f);
	// Beyond the margin: nothing.
	cr_assert_eq(
	    tbWorld_CollideMover(world, &capsule, xf, 0.05f, tbDefaultQueryFilter(), planes, 8), 0);
	// Sunk 0.05 into the floor: separation -0.05.
	xf.p.y = 0.85f;
	n = tbWorld_CollideMover(world, &capsule, xf, 0.0f, tbDefaultQueryFilter(), planes, 8);
	cr_assert_eq(n, 1);
	cr_assert_float_eq(planes[0].separation, -0.05f, 1e-4f);
	// Cast 2 m down from 1.9 (bottom at 1.0): it touches after 1.0 m, fraction 0.5.
	xf.p.y = 1.9f;
	tbRayResult r =
	    tbWorld_CastMover(world, &capsule, xf, (vec3s){{0, -2, 0}}, tbDefaultQueryFilter());
	cr_assert(r.hit);
	cr_assert_float_eq(r.fraction, 0.5f, 1e-3f);
	cr_assert_float_eq(r.normal.y, 1.0f, 1e-4f);
	// Bad input.
	cr_assert_eq(
	    tbWorld_CollideMover(world, &capsule, xf, -1.0f, tbDefaultQueryFilter(), planes, 8), 0);
	cr_assert(strstr(tbGetLastError(), "margin") != NULL);
	tbDestroyWorld(world);
}

Test(mover, mesh_floor_planes)
{
	// A square of two triangles at y = 0.
	vec3s v[4] = {{{-5, 0, -5}}, {{5, 0, -5}}, {{5, 0, 5}}, {{-5, 0, 5}}};
	int idx[6] = {0, 2, 1, 0, 3, 2};
	tbMesh mesh;
	cr_assert(tbBuildMesh(v, 4, idx, 2, &mesh, NULL, 0));
	tbWorldId world = makeWorld();
	tbBodyDef bd = tbDefaultBodyDef();
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry g = tbMakeMeshShape(&mesh);
	tbCreateShape(body, &sd, &g);
	// A character dropped from 0.5 m lands on it and walks on at its speed.
	tbCharacter c = makeCharacter((vec3s){{0, 1.4f, 0}});
	for (int i = 0; i < 60; ++i) {
		tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
	}
	cr_assert(c.grounded);
	cr_assert_float_eq(c.position.y, standingY(&c, 0.0f), 2e-3f);
	for (int i = 0; i < 30; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{1.5f, 0, 0}}, kDt);
	}
	cr_assert_float_eq(c.moveVelocity.x, 1.5f, 1e-3f);
	cr_assert_float_eq(c.position.y, standingY(&c, 0.0f), 2e-3f);
	tbDestroyWorld(world);
	tbDestroyMesh(&mesh);
}

// ---------------------------------------------------------------------------------------------
// Slopes

Test(mover, walks_up_30_degrees_at_its_speed)
{
	tbWorldId world = makeWorld();
	float angle = PI / 6.0f;
	vec3s n = addSlope(world, glms_vec3_zero(), angle, 20.0f);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	// On the slope: the bottom sphere's centre r + skin out along the normal.
	c.position = glms_vec3_add(glms_vec3_scale(n, c.def.radius + c.def.skinWidth),
	                           (vec3s){{0, c.def.halfHeight, 0}});
	for (int i = 0; i < 10; ++i) {
		tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
	}
	cr_assert(c.grounded, "stands on a 30 degree slope");
	cr_assert(glms_vec3_norm(c.moveVelocity) < 1e-3f, "and does not slide");
	float y0 = c.position.y;
	float speed = 2.0f;
	float lowest = INFINITY, highest = 0.0f;
	for (int i = 0; i < 60; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{speed, 0, 0}}, kDt);
		float v = glms_vec3_norm(c.moveVelocity);
		lowest = fminf(lowest, v);
		highest = fmaxf(highest, v);
		cr_assert_float_eq(c.moveVelocity.y, speed * sinf(angle), 0.02f * speed);
	}
	// Along the slope at the input speed, no more.
	cr_assert(highest <= 1.01f * speed && lowest >= 0.98f * speed, "speed %g to %g", (double)lowest,
	          (double)highest);
	cr_assert_float_eq(c.position.y - y0, speed * sinf(angle), 0.02f);
	// And down again at the same speed.
	for (int i = 0; i < 30; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{-speed, 0, 0}}, kDt);
		cr_assert(c.grounded);
		cr_assert_float_eq(glms_vec3_norm(c.moveVelocity), speed, 0.02f * speed);
	}
	tbDestroyWorld(world);
}

Test(mover, no_height_up_50_degrees)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	addSlope(world, (vec3s){{1.0f, 0, 0}}, 50.0f * PI / 180.0f, 5.0f);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	c.position = (vec3s){{-1.0f, standingY(&c, 0.0f), 0}};
	float y0 = c.position.y, highest = y0;
	for (int i = 0; i < 120; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{2.0f, 0, 0}}, kDt);
		highest = fmaxf(highest, c.position.y);
	}
	// It reached the slope (its sphere's centre within r of the foot) and gained no height.
	cr_assert(c.position.x > 1.0f - c.def.radius - 0.1f, "x = %g", (double)c.position.x);
	cr_assert(highest - y0 < 0.01f, "rose %g m", (double)(highest - y0));
	tbDestroyWorld(world);
}

Test(mover, slides_down_50_degrees_at_g_sin)
{
	tbWorldId world = makeWorld();
	float angle = 50.0f * PI / 180.0f;
	vec3s n = addSlope(world, (vec3s){{0, 0, 0}}, angle, 30.0f);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	// High on the slope, walking up into it all along: it still slides down.
	vec3s foot = {{20.0f * cosf(angle), 20.0f * sinf(angle), 0}};
	c.position = glms_vec3_add(
	    foot, glms_vec3_add(glms_vec3_scale(n, 0.3f + 0.01f), (vec3s){{0, c.def.halfHeight, 0}}));
	int steps = 45;
	for (int i = 0; i < steps; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{2.0f, 0, 0}}, kDt);
		cr_assert(!c.grounded);
	}
	// A frictionless block's speed g sin(a) t, down the slope, no faster.
	float expected = G * sinf(angle) * (float)steps * kDt;
	float speed = glms_vec3_norm(c.moveVelocity);
	cr_assert(speed <= 1.01f * expected && speed >= 0.97f * expected, "speed %g, g sin a t %g",
	          (double)speed, (double)expected);
	cr_assert(c.moveVelocity.y < 0.0f && c.moveVelocity.x < 0.0f);
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Stairs, walls, thin walls

// Five steps of `rise` m, 0.6 m deep, from x = 1; the character walks +x at 2 m/s for 5 s from
// x = 0. Returns its final position.
static vec3s climbStairs(float rise, float stepHeight)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	for (int i = 0; i < 5; ++i) {
		float x0 = 1.0f + 0.6f * (float)i, x1 = 30.0f;
		float top = rise * (float)(i + 1);
		addBox(world, tb_staticBody, (vec3s){{0.5f * (x0 + x1), 0.5f * top, 0}},
		       glms_quat_identity(), (vec3s){{0.5f * (x1 - x0), 0.5f * top, 3}}, 1000.0f);
	}
	tbCharacterDef def = tbDefaultCharacterDef();
	def.stepHeight = stepHeight;
	tbCharacter c = tbMakeCharacter(&def);
	c.position = (vec3s){{0, standingY(&c, 0.0f), 0}};
	for (int i = 0; i < 300; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{2.0f, 0, 0}}, kDt);
	}
	tbDestroyWorld(world);
	return c.position;
}

Test(mover, climbs_stairs_within_step_height)
{
	tbCharacterDef def = tbDefaultCharacterDef();
	float top = def.radius + def.halfHeight + def.skinWidth;
	// 0.3 m steps with a 0.35 m step height: on the top step (1.5 m), past its front.
	vec3s p = climbStairs(0.3f, 0.35f);
	cr_assert_float_eq(p.y, 1.5f + top, 0.01f, "y = %g", (double)p.y);
	cr_assert(p.x > 3.4f, "x = %g", (double)p.x);
	// 0.45 m steps: it stays on the floor before the first.
	p = climbStairs(0.45f, 0.35f);
	cr_assert_float_eq(p.y, top, 0.01f, "y = %g", (double)p.y);
	cr_assert(p.x < 1.0f, "x = %g", (double)p.x);
}

Test(mover, slides_along_a_wall_at_45_degrees)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	// A wall whose face is x = 1.5.
	addBox(world, tb_staticBody, (vec3s){{2.0f, 2.0f, 0}}, glms_quat_identity(),
	       (vec3s){{0.5f, 2.0f, 30}}, 1000.0f);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	c.position = (vec3s){{1.0f, standingY(&c, 0.0f), -10.0f}};
	float speed = 2.0f, s = sqrtf(0.5f);
	for (int i = 0; i < 120; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{speed * s, 0, speed * s}}, kDt);
		cr_assert(c.position.x + c.def.radius <= 1.5f + 1e-4f);
		if (i >= 30) {
			// Against the wall: its speed along it is v cos 45, none into it.
			cr_assert_float_eq(c.moveVelocity.z, speed * s, 0.02f * speed * s);
			cr_assert(fabsf(c.moveVelocity.x) < 0.01f);
		}
	}
	cr_assert_float_eq(c.position.x, 1.5f - c.def.radius - c.def.skinWidth, 2e-3f);
	tbDestroyWorld(world);
}

Test(mover, never_through_a_thin_wall_at_20_m_s)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	// A 5 cm wall, its near face at x = 4.975, and a 5 cm floor plate in the air at y = 10.
	addBox(world, tb_staticBody, (vec3s){{5.0f, 2.0f, 0}}, glms_quat_identity(),
	       (vec3s){{0.025f, 2.0f, 5}}, 1000.0f);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	c.position = (vec3s){{0, standingY(&c, 0.0f), 0}};
	for (int i = 0; i < 60; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{20.0f, 0, 0}}, kDt);
		cr_assert(c.position.x + c.def.radius <= 4.975f + 1e-4f, "x = %g", (double)c.position.x);
	}
	cr_assert(c.position.x + c.def.radius > 4.9f, "it reached the wall");
	// Falling at 20 m/s onto a 5 cm plate: it lands on it.
	addBox(world, tb_staticBody, (vec3s){{0, 10.0f, 20}}, glms_quat_identity(),
	       (vec3s){{2, 0.025f, 2}}, 1000.0f);
	c = makeCharacter((vec3s){{0, 14.0f, 20}});
	c.velocity = (vec3s){{0, -20.0f, 0}};
	for (int i = 0; i < 60; ++i) {
		tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
		cr_assert(c.position.y - c.def.halfHeight - c.def.radius >= 10.025f - 1e-4f);
	}
	cr_assert(c.grounded);
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Platforms and pushing

Test(mover, rides_a_turning_platform)
{
	tbWorldId world = makeWorld();
	float w = 1.0f;
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_kinematicBody;
	bd.position = (vec3s){{0, -0.25f, 0}};
	bd.angularVelocity = (vec3s){{0, w, 0}};
	tbBodyId platform = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry g = tbMakeBox(4.0f, 0.25f, 4.0f);
	tbCreateShape(platform, &sd, &g);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	c.position = (vec3s){{2.0f, standingY(&c, 0.0f), 0}};
	tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
	cr_assert(c.grounded);
	vec3s local = tbInvTransformPoint(tbBody_GetTransform(platform), c.position);
	float worst = 0.0f;
	for (int i = 0; i < 180; ++i) {
		tbWorld_Step(world, kDt, 4);
		tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
		vec3s expected = tbTransformPoint(tbBody_GetTransform(platform), local);
		worst = fmaxf(worst, glms_vec3_distance(expected, c.position));
	}
	// Three seconds: the platform turned 3 rad; the character is on its point.
	vec3s p = c.position;
	cr_assert_float_eq(atan2f(-p.z, p.x), 3.0f * w, 0.02f, "angle %g", (double)atan2f(-p.z, p.x));
	cr_assert(worst < 2e-3f, "%g m from the platform's point", (double)worst);
	cr_assert_float_eq(sqrtf(p.x * p.x + p.z * p.z), 2.0f, 2e-3f);
	tbDestroyWorld(world);
}

// A 0.4 m box of 6.4 kg 1 m ahead; the character walks into it at 2 m/s for 2 s. Returns how far
// the box moved; *fastest: its largest speed.
static float pushBox(float strength, float* fastest)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	tbBodyId box = addBox(world, tb_dynamicBody, (vec3s){{1.2f, 0.2f, 0}}, glms_quat_identity(),
	                      (vec3s){{0.2f, 0.2f, 0.2f}}, 100.0f);
	tbCharacterDef def = tbDefaultCharacterDef();
	def.pushStrength = strength;
	tbCharacter c = tbMakeCharacter(&def);
	c.position = (vec3s){{0, standingY(&c, 0.0f), 0}};
	for (int i = 0; i < 30; ++i) {
		tbWorld_Step(world, kDt, 4); // the box settles
	}
	vec3s start = tbBody_GetPosition(box);
	*fastest = 0.0f;
	for (int i = 0; i < 120; ++i) {
		tbCharacter_Move(world, &c, (vec3s){{2.0f, 0, 0}}, kDt);
		tbWorld_Step(world, kDt, 4);
		*fastest = fmaxf(*fastest, glms_vec3_norm(tbBody_GetLinearVelocity(box)));
	}
	float moved = glms_vec3_distance(tbBody_GetPosition(box), start);
	tbDestroyWorld(world);
	return moved;
}

Test(mover, pushes_a_box_with_strength)
{
	float fastest;
	// 200 N against friction 0.6 * 6.4 kg * g (38 N): the box goes ahead at about the walk.
	float moved = pushBox(200.0f, &fastest);
	cr_assert(moved > 1.5f, "moved %g m", (double)moved);
	cr_assert(fastest < 2.2f, "at most %g m/s", (double)fastest);
	// Strength 0: a wall.
	moved = pushBox(0.0f, &fastest);
	cr_assert(moved < 1e-3f, "moved %g m", (double)moved);
}

Test(mover, jumps_and_lands)
{
	tbWorldId world = makeWorld();
	addFloor(world);
	tbCharacter c = makeCharacter(glms_vec3_zero());
	float y0 = standingY(&c, 0.0f);
	c.position = (vec3s){{0, y0, 0}};
	tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
	cr_assert(c.grounded);
	// A 5 m/s jump rises v^2 / 2g (semi-implicit Euler: a little less).
	c.velocity.y = 5.0f;
	float highest = y0;
	for (int i = 0; i < 120; ++i) {
		tbCharacter_Move(world, &c, glms_vec3_zero(), kDt);
		highest = fmaxf(highest, c.position.y);
	}
	cr_assert_float_eq(highest - y0, 25.0f / (2.0f * G), 0.05f);
	cr_assert(c.grounded);
	cr_assert_float_eq(c.position.y, y0, 2e-3f);
	tbDestroyWorld(world);
}

Test(mover, bad_input)
{
	tbCharacterDef def = tbDefaultCharacterDef();
	def.radius = -1.0f;
	tbCharacter c = tbMakeCharacter(&def);
	cr_assert(!c.valid);
	cr_assert(strstr(tbGetLastError(), "radius") != NULL);
	def = tbDefaultCharacterDef();
	def.maxSlopeAngle = NAN;
	cr_assert(!tbMakeCharacter(&def).valid);
	tbWorldId world = makeWorld();
	c = makeCharacter(glms_vec3_zero());
	cr_assert(!tbCharacter_Move(world, &c, (vec3s){{NAN, 0, 0}}, kDt));
	cr_assert(!tbCharacter_Move(world, &c, glms_vec3_zero(), 0.0f));
	cr_assert(!tbCharacter_Move(world, NULL, glms_vec3_zero(), kDt));
	cr_assert(tbCharacter_Move(world, &c, glms_vec3_zero(), kDt));
	tbDestroyWorld(world);
}
