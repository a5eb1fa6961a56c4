// Sensor events and contact hit events (docs/events.md) against analytic times and speeds: a ball
// falling through a sensor box begins and ends at the free-fall times of entering and leaving it,
// and is never pushed; a destroyed visitor or sensor ends its overlaps; a dropped ball's hit comes
// with the approach speed sqrt(2 g h) within one step of gravity, and none below the threshold.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <tumble/tumble.h>

#define G 9.81

static tbWorldId makeWorld(void)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = (vec3s){{0.0f, (float)-G, 0.0f}};
	def.enableSleep = false;
	return tbCreateWorld(&def);
}

static tbBodyId makeBody(tbWorldId world, tbBodyType type, vec3s position)
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	return tbCreateBody(world, &def);
}

static tbShapeId addShape(tbBodyId body, tbGeometry g, bool sensor, bool hits)
{
	tbShapeDef def = tbDefaultShapeDef();
	def.isSensor = sensor;
	def.enableHitEvents = hits;
	return tbCreateShape(body, &def, &g);
}

// ---------------------------------------------------------------------------------------------
// Sensors

Test(sensor, ball_falls_through_a_sensor_box_at_the_free_fall_times)
{
	// A static sensor box spanning y in [1.5, 2.5] (and a second sensor overlapping it: sensors do
	// not see each other); a ball of radius 0.25 dropped from rest at y = 5. It touches the box
	// when its centre reaches 2.75 and leaves it when the centre passes 1.25: after free falls
	// of 2.25 m and 3.75 m, t = sqrt(2 d / g).
	tbWorldId world = makeWorld();
	tbBodyId box = makeBody(world, tb_staticBody, (vec3s){{0, 2, 0}});
	tbShapeId sensor = addShape(box, tbMakeBox(1.0f, 0.5f, 1.0f), true, false);
	tbBodyId other = makeBody(world, tb_staticBody, (vec3s){{0.5f, 2, 0}});
	addShape(other, tbMakeBox(1.0f, 0.5f, 1.0f), true, false);
	tbBodyId ball = makeBody(world, tb_dynamicBody, (vec3s){{0, 5, 0}});
	tbShapeId ballShape = addShape(ball, tbMakeSphere(0.25f), false, true);
	const float dt = 1.0f / 60.0f;
	const double tEnter = sqrt(2.0 * 2.25 / G), tLeave = sqrt(2.0 * 3.75 / G);
	double begin[2] = {-1.0, -1.0}, end[2] = {-1.0, -1.0};
	int beginCount[2] = {0, 0}, endCount[2] = {0, 0};
	for (int step = 1; step <= 60; ++step) {
		cr_assert(tbWorld_Step(world, dt, 4));
		double t = step * (double)dt;
		tbSensorEvents e = tbWorld_GetSensorEvents(world);
		for (int i = 0; i < e.beginCount; ++i) {
			int which = TB_ID_EQUALS(e.beginEvents[i].sensorShapeId, sensor) ? 0 : 1;
			cr_assert(TB_ID_EQUALS(e.beginEvents[i].visitorShapeId, ballShape),
			          "a sensor saw something but the ball");
			begin[which] = t;
			beginCount[which] += 1;
		}
		for (int i = 0; i < e.endCount; ++i) {
			int which = TB_ID_EQUALS(e.endEvents[i].sensorShapeId, sensor) ? 0 : 1;
			cr_assert(TB_ID_EQUALS(e.endEvents[i].visitorShapeId, ballShape));
			end[which] = t;
			endCount[which] += 1;
		}
		// Never a contact: the ball falls freely, v = -g t to float rounding, no contact event,
		// no hit.
		vec3s v = tbBody_GetLinearVelocity(ball);
		cr_assert(fabs((double)v.y + G * t) < 1e-4 * G * t, "step %d: v %g, free fall %g", step,
		          (double)v.y, -G * t);
		tbContactEvents ce = tbWorld_GetContactEvents(world);
		cr_assert_eq(ce.beginCount + ce.hitCount, 0, "step %d: the sensor made a contact", step);
		tbContactData data[4];
		cr_assert_eq(tbBody_GetContactData(ball, data, 4), 0);
	}
	cr_log_info("sensor: begin at %.4f s (analytic %.4f), end at %.4f s (analytic %.4f), dt %.4f",
	            begin[0], tEnter, end[0], tLeave, (double)dt);
	for (int k = 0; k < 2; ++k) {
		cr_assert_eq(beginCount[k], 1, "sensor %d: %d begin events", k, beginCount[k]);
		cr_assert_eq(endCount[k], 1, "sensor %d: %d end events", k, endCount[k]);
		// Overlaps are found at the end of a step: the event's step ends within one step after
		// the analytic time.
		cr_assert(begin[k] >= tEnter - 1e-3 && begin[k] <= tEnter + (double)dt + 1e-3,
		          "sensor %d: begin at %.4f s, analytic %.4f s", k, begin[k], tEnter);
		cr_assert(end[k] >= tLeave - 1e-3 && end[k] <= tLeave + (double)dt + 1e-3,
		          "sensor %d: end at %.4f s, analytic %.4f s", k, end[k], tLeave);
	}
	tbDestroyWorld(world);
}

Test(sensor, destroyed_visitor_and_sensor_end_their_overlaps)
{
	tbWorldId world = makeWorld();
	tbWorld_SetGravity(world, glms_vec3_zero());
	tbBodyId box = makeBody(world, tb_staticBody, (vec3s){{0, 0, 0}});
	tbShapeId sensor = addShape(box, tbMakeBox(1.0f, 1.0f, 1.0f), true, false);
	// Two balls inside it, and a compound body whose own sensor shape holds its own solid shape
	// (a sensor never sees its own body) while it sits inside the box.
	tbBodyId a = makeBody(world, tb_dynamicBody, (vec3s){{0.3f, 0, 0}});
	tbShapeId aShape = addShape(a, tbMakeSphere(0.2f), false, false);
	tbBodyId b = makeBody(world, tb_dynamicBody, (vec3s){{-0.3f, 0, 0}});
	tbShapeId bShape = addShape(b, tbMakeSphere(0.2f), false, false);
	tbBodyId c = makeBody(world, tb_dynamicBody, (vec3s){{0, 0.5f, 0}});
	tbShapeId cSolid = addShape(c, tbMakeSphere(0.1f), false, false);
	tbShapeId cSensor = addShape(c, tbMakeSphere(0.15f), true, false);
	cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
	tbSensorEvents e = tbWorld_GetSensorEvents(world);
	cr_assert_eq(e.beginCount, 3, "%d begins", e.beginCount);
	for (int i = 0; i < e.beginCount; ++i) {
		cr_assert(TB_ID_EQUALS(e.beginEvents[i].sensorShapeId, sensor),
		          "the compound's sensor saw its own shape or another sensor");
		cr_assert_not(TB_ID_EQUALS(e.beginEvents[i].visitorShapeId, cSensor));
	}
	(void)cSolid;
	// The events stay readable while bodies are destroyed between steps.
	tbSensorBeginTouchEvent first = e.beginEvents[0];
	tbDestroyBody(a);
	cr_assert(TB_ID_EQUALS(e.beginEvents[0].sensorShapeId, first.sensorShapeId));
	cr_assert_eq(tbWorld_GetSensorEvents(world).beginCount, 3);
	cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
	e = tbWorld_GetSensorEvents(world);
	cr_assert_eq(e.beginCount, 0);
	cr_assert_eq(e.endCount, 1, "%d ends after destroying a visitor", e.endCount);
	cr_assert(TB_ID_EQUALS(e.endEvents[0].visitorShapeId, aShape));
	cr_assert(TB_ID_EQUALS(e.endEvents[0].sensorShapeId, sensor));
	cr_assert_not(tbShape_IsValid(e.endEvents[0].visitorShapeId), "the id is stale");
	// Destroying the sensor ends what it held: ball b and the compound's solid shape.
	tbDestroyBody(box);
	cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
	e = tbWorld_GetSensorEvents(world);
	cr_assert_eq(e.endCount, 2, "%d ends after destroying the sensor", e.endCount);
	bool sawB = false;
	for (int i = 0; i < e.endCount; ++i) {
		cr_assert(TB_ID_EQUALS(e.endEvents[i].sensorShapeId, sensor));
		sawB = sawB || TB_ID_EQUALS(e.endEvents[i].visitorShapeId, bShape);
	}
	cr_assert(sawB);
	cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
	e = tbWorld_GetSensorEvents(world);
	cr_assert_eq(e.beginCount + e.endCount, 0);
	tbDestroyWorld(world);
}

Test(sensor, moving_sensor_sees_static_and_rays_pass_through)
{
	// A sensor ball on a dynamic body falls onto a static box: it begins to overlap it and, being
	// a sensor, falls on through (and a ray finds the box, not the sensor).
	tbWorldId world = makeWorld();
	tbBodyId ground = makeBody(world, tb_staticBody, (vec3s){{0, -0.5f, 0}});
	tbShapeId groundShape = addShape(ground, tbMakeBox(5.0f, 0.5f, 5.0f), false, false);
	tbBodyId probe = makeBody(world, tb_dynamicBody, (vec3s){{0, 1, 0}});
	tbShapeId probeShape = addShape(probe, tbMakeSphere(0.25f), true, false);
	tbRayResult ray = tbWorld_CastRayClosest(world, (vec3s){{0, 3, 0}}, (vec3s){{0, -5, 0}},
	                                         tbDefaultQueryFilter());
	cr_assert(ray.hit && TB_ID_EQUALS(ray.shapeId, groundShape), "the ray stopped at the sensor");
	int begins = 0;
	for (int step = 1; step <= 60; ++step) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
		tbSensorEvents e = tbWorld_GetSensorEvents(world);
		for (int i = 0; i < e.beginCount; ++i) {
			cr_assert(TB_ID_EQUALS(e.beginEvents[i].sensorShapeId, probeShape));
			cr_assert(TB_ID_EQUALS(e.beginEvents[i].visitorShapeId, groundShape));
			begins += 1;
		}
	}
	cr_assert_eq(begins, 1);
	cr_assert(tbBody_GetPosition(probe).y < -2.0f, "the sensor was held up");
	cr_assert(tbShape_IsSensor(probeShape) && !tbShape_IsSensor(groundShape));
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Hit events

// Drop a ball of radius 0.25 with its bottom `h` above the ground; returns the hit events seen
// (at most 8), and the ball's downward speed and height of its bottom at the start of the step
// of the first one.
static int dropBall(double h, float dt, int substeps, bool hits, tbContactHitEvent* out,
                    double* speedBefore, double* gapBefore, tbShapeId* ballShape)
{
	tbWorldId world = makeWorld();
	tbBodyId ground = makeBody(world, tb_staticBody, (vec3s){{0, -0.5f, 0}});
	addShape(ground, tbMakeBox(5.0f, 0.5f, 5.0f), false, false);
	tbBodyId ball = makeBody(world, tb_dynamicBody, (vec3s){{0, (float)(h + 0.25), 0}});
	*ballShape = addShape(ball, tbMakeSphere(0.25f), false, hits);
	int count = 0;
	int steps = (int)ceil((sqrt(2.0 * h / G) + 1.0) / (double)dt);
	for (int step = 0; step < steps; ++step) {
		double before = -(double)tbBody_GetLinearVelocity(ball).y;
		double gap = (double)tbBody_GetPosition(ball).y - 0.25;
		cr_assert(tbWorld_Step(world, dt, substeps));
		tbContactEvents e = tbWorld_GetContactEvents(world);
		for (int i = 0; i < e.hitCount && count < 8; ++i) {
			if (count == 0) {
				*speedBefore = before;
				*gapBefore = gap;
			}
			out[count++] = e.hitEvents[i];
		}
	}
	tbDestroyWorld(world);
	return count;
}

Test(hit_events, dropped_ball_hits_with_the_free_fall_speed)
{
	const double heights[] = {0.1, 0.5, 1.0, 2.0, 5.0};
	const float dts[] = {1.0f / 60.0f, 1.0f / 240.0f};
	const int substeps = 4;
	for (int k = 0; k < 2; ++k) {
		float dt = dts[k];
		for (size_t i = 0; i < sizeof heights / sizeof heights[0]; ++i) {
			double h = heights[i];
			tbContactHitEvent hit[8];
			double before = 0.0, gap = 0.0;
			tbShapeId ballShape;
			int n = dropBall(h, dt, substeps, true, hit, &before, &gap, &ballShape);
			double exact = sqrt(2.0 * G * h);
			double approach = n > 0 ? (double)hit[0].approachSpeed : 0.0;
			cr_log_info("hit: dt %.5f h %.2f m: approach %.4f m/s, sqrt(2gh) %.4f (%+.2f %%)",
			            (double)dt, h, approach, exact, 100.0 * (approach - exact) / exact);
			cr_assert_eq(n, 1, "dt %g h %g: %d hit events (restitution 0: one impact)", (double)dt,
			             h, n);
			bool ballIsB = TB_ID_EQUALS(hit[0].shapeIdB, ballShape);
			cr_assert(ballIsB || TB_ID_EQUALS(hit[0].shapeIdA, ballShape));
			// The normal points from A to B: up when the ball is B.
			cr_assert(fabsf(hit[0].normal.y - (ballIsB ? 1.0f : -1.0f)) < 1e-4f);
			cr_assert(fabsf(hit[0].point.x) < 1e-3f && fabsf(hit[0].point.y) < 0.05f,
			          "point (%g, %g)", (double)hit[0].point.x, (double)hit[0].point.y);
			// Second measurement: the ball's speed v0 and gap s at the start of the step of the
			// impact, carried over the gap in free fall, v^2 = v0^2 + 2 g s (no gap left: v0; the
			// broad phase may find the pair only once the ball is in, 2.5 mm at 60 Hz from 1 m).
			double carried = gap > 0.0 ? sqrt(before * before + 2.0 * G * gap) : before;
			cr_assert(fabs(approach - carried) < 1e-4 * carried,
			          "approach %g, carried %g (v0 %g, gap %g)", approach, carried, before, gap);
			// Against sqrt(2 g h): the integrator's discrete free fall (semi-implicit Euler in
			// substeps of hs) has fallen g t hs / 2 farther than the continuous one at speed g t,
			// so v^2 = 2 g h - g^2 t hs at the touch, t <= sqrt(2h/g) + dt: within 1.4 % for 10 cm
			// at 60 Hz, 0.05 % for 5 m at 240 Hz.
			double hs = (double)dt / substeps;
			double t = sqrt(2.0 * h / G) + (double)dt;
			double lowest = sqrt(2.0 * G * h - G * G * t * hs);
			cr_assert(approach <= exact * (1.0 + 1e-4) && approach >= lowest * (1.0 - 1e-4),
			          "dt %g h %g: approach %g, sqrt(2gh) %g, discrete lowest %g", (double)dt, h,
			          approach, exact, lowest);
			if (k == 1 || h >= 1.0) {
				cr_assert(fabs(approach - exact) < 0.01 * exact, "not within 1 %%");
			}
		}
	}
}

Test(hit_events, no_hit_below_the_threshold_or_when_off)
{
	tbContactHitEvent hit[8];
	double before, gap;
	tbShapeId ballShape;
	// 2 cm: sqrt(2 g h) = 0.63 m/s, under the 1 m/s threshold.
	cr_assert_eq(dropBall(0.02, 1.0f / 60.0f, 4, true, hit, &before, &gap, &ballShape), 0);
	// 8 cm: 1.25 m/s, over it (the threshold is what decides, not the flag alone).
	cr_assert_eq(dropBall(0.08, 1.0f / 240.0f, 4, true, hit, &before, &gap, &ballShape), 1);
	// The flag set after creation counts as the def's.
	tbWorldId world = makeWorld();
	tbBodyId ground = makeBody(world, tb_staticBody, (vec3s){{0, -0.5f, 0}});
	addShape(ground, tbMakeBox(5.0f, 0.5f, 5.0f), false, false);
	tbBodyId ball = makeBody(world, tb_dynamicBody, (vec3s){{0, 1.25f, 0}});
	tbShapeId shape = addShape(ball, tbMakeSphere(0.25f), false, false);
	cr_assert_not(tbShape_AreHitEventsEnabled(shape));
	tbShape_EnableHitEvents(shape, true);
	tbShape_EnableHitEvents(shape, true); // twice is once
	cr_assert(tbShape_AreHitEventsEnabled(shape));
	int hitCount = 0;
	for (int step = 0; step < 60; ++step) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
		hitCount += tbWorld_GetContactEvents(world).hitCount;
	}
	cr_assert_eq(hitCount, 1, "%d hits after turning them on", hitCount);
	// Off again (the world's count of such shapes back at zero): a second drop is silent.
	tbShape_EnableHitEvents(shape, false);
	tbBody_SetTransform(ball, (vec3s){{0, 1.25f, 0}}, glms_quat_identity());
	tbBody_SetLinearVelocity(ball, glms_vec3_zero());
	for (int step = 0; step < 60; ++step) {
		cr_assert(tbWorld_Step(world, 1.0f / 60.0f, 4));
		cr_assert_eq(tbWorld_GetContactEvents(world).hitCount, 0);
	}
	tbDestroyWorld(world);
	// From 2 m without the flag: nothing.
	cr_assert_eq(dropBall(2.0, 1.0f / 60.0f, 4, false, hit, &before, &gap, &ballShape), 0);
}

Test(hit_events, bad_threshold_is_refused)
{
	tbWorldDef def = tbDefaultWorldDef();
	cr_assert_eq(def.hitEventThreshold, 1.0f);
	def.hitEventThreshold = -1.0f;
	cr_assert(TB_IS_NULL(tbCreateWorld(&def)));
	cr_assert(strstr(tbGetLastError(), "hitEventThreshold") != NULL, "%s", tbGetLastError());
}

Test(hit_events, bouncing_ball_hits_once_per_bounce)
{
	// Restitution 0.5 from 1 m: the impacts come at sqrt(2 g h) e^n = 4.43, 2.21, 1.11 m/s, and
	// the fourth (0.55 m/s) is under the threshold. Each is a new strike (the contact ends in
	// the air between them).
	tbWorldId world = makeWorld();
	tbBodyId ground = makeBody(world, tb_staticBody, (vec3s){{0, -0.5f, 0}});
	addShape(ground, tbMakeBox(5.0f, 0.5f, 5.0f), false, false);
	tbBodyId ball = makeBody(world, tb_dynamicBody, (vec3s){{0, 1.25f, 0}});
	tbShapeDef def = tbDefaultShapeDef();
	def.restitution = 0.5f;
	def.enableHitEvents = true;
	tbGeometry sphere = tbMakeSphere(0.25f);
	tbCreateShape(ball, &def, &sphere);
	float speeds[8];
	int n = 0;
	for (int step = 0; step < 720; ++step) { // 3 s: the fourth impact is at 1.35 s
		cr_assert(tbWorld_Step(world, 1.0f / 240.0f, 4));
		tbContactEvents e = tbWorld_GetContactEvents(world);
		for (int i = 0; i < e.hitCount && n < 8; ++i) {
			speeds[n++] = e.hitEvents[i].approachSpeed;
		}
	}
	tbDestroyWorld(world);
	double exact = sqrt(2.0 * G * 1.0);
	for (int i = 0; i < n; ++i) {
		cr_log_info("bounce %d: approach %.4f m/s, sqrt(2gh) e^n %.4f", i, (double)speeds[i],
		            exact * pow(0.5, i));
	}
	cr_assert_eq(n, 3, "%d hits", n);
	for (int i = 0; i < n; ++i) {
		double expected = exact * pow(0.5, i);
		cr_assert(fabs((double)speeds[i] - expected) < 0.03 * expected,
		          "bounce %d: %g, expected %g", i, (double)speeds[i], expected);
	}
}
