// Whole-world dynamics scenes: cube rain with sleeping, bounce, incline (stick and
// slide), the tumbling box, and every shape type dropped together.
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <string.h>
#include <time.h>

#include "world_scenes.h"

static const float kDt = 1.0f / 60.0f;
static const int kSubsteps = 4;
static const float kPi = 3.14159265f;

static double nowSeconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// A small LCG: the same scene on every machine.
static float randomUnit(uint32_t* state)
{
	*state = *state * 1664525u + 1013904223u;
	return (float)(*state >> 8) / 16777216.0f;
}

Test(world_scenes, rain_of_1000_cubes_settles_asleep, .timeout = 900)
{
	int count = sceneIsLight() ? 150 : 1000;
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = true;
	def.initialBodyCapacity = count + 1;
	def.initialShapeCapacity = count + 1;
	tbWorldId world = tbCreateWorld(&def);
	makeGround(world, 40.0f, 0.6f);
	tbBodyId* bodies = malloc((size_t)count * sizeof(tbBodyId));
	uint32_t seed = 12345u;
	// A 10 x 10 grid of columns 2.5 m apart, layers 1.9 m apart: no cube starts overlapping, the
	// highest starts 19.5 m above the ground. (Columns 1.6 m apart heap the cubes 8 m high; that
	// heap still avalanches at 15 s.)
	for (int i = 0; i < count; ++i) {
		int layer = i / 100, cell = i % 100;
		float x = ((float)(cell % 10) - 4.5f) * 2.5f + 0.2f * (randomUnit(&seed) - 0.5f);
		float z = ((float)(cell / 10) - 4.5f) * 2.5f + 0.2f * (randomUnit(&seed) - 0.5f);
		float y = 1.0f + 1.9f * (float)layer + 0.5f * randomUnit(&seed);
		versors q = glms_quat_normalize((versors){
		    {randomUnit(&seed) - 0.5f, randomUnit(&seed) - 0.5f, randomUnit(&seed) - 0.5f, 1.0f}});
		bodies[i] = makeBox(world, v3(x, y, z), q, v3(0.5f, 0.5f, 0.5f), 1000.0f, 0.6f);
	}
	int steps = 900; // 15 s
	int allAsleepStep = -1;
	float lowest = 1e9f;
	bool finite = true;
	double t0 = nowSeconds();
	for (int s = 0; s < steps; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		if (allAsleepStep < 0 && tbWorld_GetCounters(world).awakeBodyCount == 0) {
			allAsleepStep = s;
		}
		if (s % 30 == 29) {
			for (int i = 0; i < count; ++i) {
				vec3s p = tbBody_GetPosition(bodies[i]);
				finite = finite && finite3(p);
				lowest = p.y < lowest ? p.y : lowest;
			}
		}
	}
	double ms = 1e3 * (nowSeconds() - t0) / steps;
	tbWorldCounters c = tbWorld_GetCounters(world);
	cr_log_info("rain of %d cubes: all asleep at %.2f s (awake at 15 s: %d), lowest centre %.4f m, "
	            "%.3f ms/step",
	            count, (double)((float)(allAsleepStep + 1) * kDt), c.awakeBodyCount, (double)lowest,
	            ms);
	printf("SCENE rain: cubes %d, all asleep at %.2f s, awake at 15 s %d, lowest centre %.4f m, "
	       "%.3f ms/step\n",
	       count, allAsleepStep < 0 ? -1.0 : (double)((float)(allAsleepStep + 1) * kDt),
	       c.awakeBodyCount, (double)lowest, ms);
	cr_expect(finite, "a body position went NaN or Inf");
	cr_expect_eq(c.awakeBodyCount, 0, "%d cubes still awake after 15 s", c.awakeBodyCount);
	// A unit cube resting on any face or edge has its centre at least 0.5 m up; through the
	// ground would be below 0.
	cr_expect_gt(lowest, 0.45f, "a cube sank or fell through the ground: centre at %.3f m",
	             (double)lowest);
	free(bodies);
	tbDestroyWorld(world);
}

Test(world_scenes, bounce_restitution_half_gives_quarter_height)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 10.0f, 0.6f);
	float r = 0.25f;
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = v3(0.0f, r + 1.0f, 0.0f);
	tbBodyId ball = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.restitution = 0.5f;
	tbGeometry sphere = tbMakeSphere(r);
	tbCreateShape(ball, &sd, &sphere);
	bool bounced = false;
	float peak = 0.0f;
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		float vy = tbBody_GetLinearVelocity(ball).y;
		float y = tbBody_GetPosition(ball).y - r;
		if (!bounced && vy > 0.0f) {
			bounced = true;
		}
		if (bounced) {
			peak = y > peak ? y : peak;
			if (vy < 0.0f) {
				break;
			}
		}
	}
	cr_log_info("bounce: sphere e = 0.5 from 1 m rebounds to %.4f m (target 0.25 +- 5 %%)",
	            (double)peak);
	printf("SCENE bounce: rebound %.4f m (target 0.2500)\n", (double)peak);
	cr_expect(bounced);
	cr_expect_float_eq(peak, 0.25f, 0.0125f);
	tbDestroyWorld(world);
}

// A static slab whose top face passes through the origin, tilted by `angle` about z, and a unit
// cube resting on it. Returns the cube; *downhill is the unit vector down the slope.
static tbBodyId makeIncline(tbWorldId world, float angle, float mu, vec3s* downhill)
{
	versors q = glms_quatv(angle, v3(0.0f, 0.0f, 1.0f));
	vec3s n = tbRotateVector(q, v3(0.0f, 1.0f, 0.0f));
	*downhill = tbRotateVector(q, v3(-1.0f, 0.0f, 0.0f));
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = glms_vec3_scale(n, -0.5f);
	bd.rotation = q;
	tbBodyId slab = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = mu;
	tbGeometry box = tbMakeBox(20.0f, 0.5f, 5.0f);
	tbCreateShape(slab, &sd, &box);
	return makeBox(world, glms_vec3_scale(n, 0.5f), q, v3(0.5f, 0.5f, 0.5f), 1000.0f, mu);
}

Test(world_scenes, incline_20_degrees_sticks)
{
	tbWorldId world = makeWorld(false);
	vec3s down;
	tbBodyId cube = makeIncline(world, 20.0f * kPi / 180.0f, 0.5f, &down);
	vec3s start = tbBody_GetPosition(cube);
	for (int s = 0; s < 120; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
	}
	vec3s end = tbBody_GetPosition(cube);
	float along = glms_vec3_dot(glms_vec3_sub(end, start), down);
	float moved = dist3(end, start);
	cr_log_info("incline 20 deg, mu 0.5: moved %.3f mm in 2 s (%.3f mm down the slope)",
	            1e3 * (double)moved, 1e3 * (double)along);
	printf("SCENE incline20: moved %.4f mm in 2 s (down slope %.4f mm)\n", 1e3 * (double)moved,
	       1e3 * (double)along);
	cr_expect_lt(moved, 0.001f);
	tbDestroyWorld(world);
}

Test(world_scenes, incline_30_degrees_slides_at_coulomb_rate)
{
	tbWorldId world = makeWorld(false);
	vec3s down;
	float angle = 30.0f * kPi / 180.0f, mu = 0.5f;
	tbBodyId cube = makeIncline(world, angle, mu, &down);
	float v1 = 0.0f, v2 = 0.0f;
	// Velocity along the slope at 0.5 s and 1.5 s: their difference over 1 s is the acceleration.
	for (int s = 1; s <= 90; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		if (s == 30) {
			v1 = glms_vec3_dot(tbBody_GetLinearVelocity(cube), down);
		}
		if (s == 90) {
			v2 = glms_vec3_dot(tbBody_GetLinearVelocity(cube), down);
		}
	}
	float a = (v2 - v1) / 1.0f;
	float expected = 9.81f * (sinf(angle) - mu * cosf(angle));
	cr_log_info("incline 30 deg, mu 0.5: a = %.4f m/s^2, Coulomb %.4f m/s^2 (%+.2f %%)", (double)a,
	            (double)expected, 100.0 * (double)((a - expected) / expected));
	printf("SCENE incline30: a %.4f m/s^2, expected %.4f (%+.2f %%)\n", (double)a, (double)expected,
	       100.0 * (double)((a - expected) / expected));
	cr_expect_float_eq(a, expected, 0.05f * expected);
	tbDestroyWorld(world);
}

Test(world_scenes, tumbling_box_keeps_momentum_and_flips)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = v3(0.0f, 0.0f, 0.0f);
	def.enableSleep = false;
	tbWorldId world = tbCreateWorld(&def);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	// Spun about the middle axis (y, 2 m) with a small disturbance: the Dzhanibekov flip.
	bd.angularVelocity = v3(0.01f, 5.0f, 0.01f);
	tbBodyId box = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry shape = tbMakeBox(0.5f, 1.0f, 1.5f);
	tbCreateShape(box, &sd, &shape);
	vec3s L0 = tbBody_GetAngularMomentum(box);
	float E0 = tbBody_GetKineticEnergy(box);
	float worstL = 0.0f, minAlign = 1.0f;
	vec3s Ldir = glms_vec3_normalize(L0);
	for (int s = 0; s < 1200; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		float dl = fabsf(glms_vec3_norm(tbBody_GetAngularMomentum(box)) - glms_vec3_norm(L0)) /
		           glms_vec3_norm(L0);
		worstL = dl > worstL ? dl : worstL;
		vec3s yAxis = tbRotateVector(tbBody_GetRotation(box), v3(0.0f, 1.0f, 0.0f));
		float align = glms_vec3_dot(yAxis, Ldir);
		minAlign = align < minAlign ? align : minAlign;
	}
	float dE = (tbBody_GetKineticEnergy(box) - E0) / E0;
	cr_log_info("tumbling 1x2x3 box, 20 s: |L| drift %.2e, energy drift %+.4f %%, min y.L %.3f",
	            (double)worstL, 100.0 * (double)dE, (double)minAlign);
	printf("SCENE tumbling: |L| rel drift %.2e, energy drift %+.4f %%, min y-axis.L %.3f (flip "
	       "when < 0)\n",
	       (double)worstL, 100.0 * (double)dE, (double)minAlign);
	cr_expect_lt(worstL, 1e-5f);
	cr_expect_lt(fabsf(dE), 0.005f);
	cr_expect_lt(minAlign, -0.9f, "the box never flipped");
	tbDestroyWorld(world);
}

Test(world_scenes, every_shape_type_settles_without_nan)
{
	tbWorldId world = makeWorld(false);
	makeGround(world, 20.0f, 0.6f);
	// A static triangle ramp on the ground: the triangle type collides too.
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = v3(6.0f, 0.0f, 0.0f);
	tbBodyId rampBody = tbCreateBody(world, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry tri =
	    tbMakeTriangle(v3(-2.0f, 0.0f, -2.0f), v3(2.0f, 0.5f, 0.0f), v3(-2.0f, 0.0f, 2.0f));
	cr_assert(!TB_IS_NULL(tbCreateShape(rampBody, &sd, &tri)));

	vec3s hullPoints[] = {{{0.5f, 0.0f, 0.0f}},  {{-0.5f, 0.0f, 0.0f}}, {{0.0f, 0.6f, 0.0f}},
	                      {{0.0f, -0.4f, 0.0f}}, {{0.0f, 0.0f, 0.45f}}, {{0.1f, 0.1f, -0.5f}},
	                      {{0.3f, 0.3f, 0.3f}},  {{-0.3f, -0.2f, 0.3f}}};
	tbHull hull;
	cr_assert_eq(tbBuildHull(hullPoints, 8, &hull, NULL), tb_hullOk);
	tbGeometry ellipsoid = tbMakeSphere(0.4f);
	ellipsoid.scale = v3(1.5f, 0.7f, 1.0f);
	tbGeometry shapes[] = {tbMakeSphere(0.4f),
	                       tbMakeBox(0.4f, 0.3f, 0.5f),
	                       tbMakeCapsule(0.3f, 0.4f),
	                       tbMakeCylinder(0.4f, 0.4f),
	                       tbMakeCone(0.4f, 0.5f),
	                       tbMakeHullShape(&hull),
	                       ellipsoid};
	int kinds = (int)(sizeof shapes / sizeof shapes[0]);
	int copies = 3;
	tbBodyId bodies[64];
	int n = 0;
	uint32_t seed = 99u;
	for (int c = 0; c < copies; ++c) {
		for (int k = 0; k < kinds; ++k) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = tb_dynamicBody;
			bd.position =
			    v3(-4.0f + 1.6f * (float)k, 1.5f + 2.0f * (float)c, 1.5f * (float)(c - 1));
			bd.rotation =
			    glms_quat_normalize((versors){{randomUnit(&seed) - 0.5f, randomUnit(&seed) - 0.5f,
			                                   randomUnit(&seed) - 0.5f, 1.0f}});
			bodies[n] = tbCreateBody(world, &bd);
			cr_assert(!TB_IS_NULL(tbCreateShape(bodies[n], &sd, &shapes[k])), "%s: %s",
			          tbShapeTypeName(shapes[k].type), tbGetLastError());
			++n;
		}
	}
	static tbContactData contacts[1024];
	bool finite = true;
	float worstPen = 0.0f;
	for (int s = 0; s < 600; ++s) {
		tbWorld_Step(world, kDt, kSubsteps);
		if (s > 300) {
			float pen = worldMaxPenetration(world, contacts, 1024);
			worstPen = pen > worstPen ? pen : worstPen;
		}
	}
	float lowest = 1e9f, fastest = 0.0f;
	for (int i = 0; i < n; ++i) {
		vec3s p = tbBody_GetPosition(bodies[i]);
		vec3s v = tbBody_GetLinearVelocity(bodies[i]);
		finite = finite && finite3(p) && finite3(v);
		if (fabsf(p.x) < 20.0f && fabsf(p.z) < 20.0f) {
			lowest = p.y < lowest ? p.y : lowest;
		}
		float speed = glms_vec3_norm(v);
		if (shapes[i % kinds].type == tb_sphereShape) {
			// Balls and ellipsoids keep rolling (there is no rolling resistance): they must stay
			// on the ground or on something, not in it (lowest point 0.4 m, ellipsoid 0.28 m).
			float low = shapes[i % kinds].scale.y * 0.4f;
			printf("  %s at (%.2f %.3f %.2f) rolling %.3f m/s\n",
			       shapes[i % kinds].scale.x == 1.0f ? "ball" : "ellipsoid", (double)p.x,
			       (double)p.y, (double)p.z, (double)speed);
			// One that rolled off the 20 m ground's edge has fallen, not sunk.
			bool overGround = fabsf(p.x) < 20.0f && fabsf(p.z) < 20.0f;
			cr_expect(!overGround || p.y > low - 0.02f, "a ball sank: y = %.3f", (double)p.y);
			continue;
		}
		fastest = speed > fastest ? speed : fastest;
	}
	cr_log_info("every shape type (%d bodies), 10 s: lowest origin %.3f m, fastest non-ball %.4f "
	            "m/s, max "
	            "penetration after 5 s %.4f m",
	            n, (double)lowest, (double)fastest, (double)worstPen);
	printf("SCENE allshapes: bodies %d, lowest origin %.3f m, fastest non-ball %.4f m/s, max "
	       "penetration "
	       "%.4f m\n",
	       n, (double)lowest, (double)fastest, (double)worstPen);
	cr_expect(finite);
	cr_expect_gt(lowest, 0.0f);
	cr_expect_lt(worstPen, 0.02f);
	cr_expect_lt(fastest, 0.5f);
	tbDestroyWorld(world);
	tbDestroyHull(&hull);
}
