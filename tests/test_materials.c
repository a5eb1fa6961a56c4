// Materials and the game's callbacks (docs/materials.md) against closed forms: group indices and a
// custom filter decide which boxes pass through each other (a fall of g t^2 / 2 shows it), mixing
// callbacks give a box on a slope the acceleration g (sin a - mu cos a) of the mixed mu, a conveyor
// belt carries a box at its speed, a one-way platform lets a body up through it and holds it from
// above, and a kinematic body sent to a target pose is there after the step.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <tumble/tumble.h>

#define G 9.81f
static const float kDt = 1.0f / 60.0f;

static tbWorldId makeWorld(void)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = (vec3s){{0.0f, -G, 0.0f}};
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

static tbShapeId addShape(tbBodyId body, tbGeometry g, const tbShapeDef* def)
{
	tbShapeDef d = def != NULL ? *def : tbDefaultShapeDef();
	return tbCreateShape(body, &d, &g);
}

// A static ground box whose top face is y = 0.
static tbShapeId makeGround(tbWorldId world, const tbShapeDef* def)
{
	tbBodyId ground = makeBody(world, tb_staticBody, (vec3s){{0, -0.5f, 0}});
	return addShape(ground, tbMakeBox(50.0f, 0.5f, 50.0f), def);
}

// ---------------------------------------------------------------------------------------------
// Filters

// Two boxes, the upper dropped onto the lower (held by the ground), with the given filters: the
// upper box's height after 0.5 s.
static float dropBoxOnBox(tbFilter lower, tbFilter upper, tbCustomFilterFcn* fcn, void* context)
{
	tbWorldId world = makeWorld();
	tbWorld_SetCustomFilterCallback(world, fcn, context);
	makeGround(world, NULL);
	tbShapeDef def = tbDefaultShapeDef();
	def.filter = lower;
	addShape(makeBody(world, tb_dynamicBody, (vec3s){{0, 0.5f, 0}}), tbMakeBox(0.5f, 0.5f, 0.5f),
	         &def);
	def.filter = upper;
	tbBodyId top = makeBody(world, tb_dynamicBody, (vec3s){{0, 1.6f, 0}});
	addShape(top, tbMakeBox(0.5f, 0.5f, 0.5f), &def);
	for (int i = 0; i < 30; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	float y = tbBody_GetPosition(top).y;
	tbDestroyWorld(world);
	return y;
}

Test(filter, group_index_overrides_the_bits_both_ways)
{
	// Resting on the lower box its centre is at 1.5; passing through, it falls freely from 1.6
	// until it meets the ground (centre 0.5), which it reaches within the 0.5 s.
	tbFilter plain = {1, UINT64_MAX, 0};
	cr_expect_float_eq(dropBoxOnBox(plain, plain, NULL, NULL), 1.5f, 0.02f);
	tbFilter ragdoll = {1, UINT64_MAX, -3};
	cr_expect_float_eq(dropBoxOnBox(ragdoll, ragdoll, NULL, NULL), 0.5f, 0.02f,
	                   "a shared negative group never collides");
	// Masks that exclude each other, but a shared positive group: they collide.
	tbFilter a = {1, 1, 7}, b = {2, 2, 7};
	cr_expect_float_eq(dropBoxOnBox(a, b, NULL, NULL), 1.5f, 0.02f,
	                   "a shared positive group always collides");
	tbFilter c = {1, 1, 7}, d = {2, 3, 8};
	cr_expect_float_eq(dropBoxOnBox(c, d, NULL, NULL), 0.5f, 0.02f,
	                   "different groups leave it to the bits");
}

typedef struct FilterCount
{
	int calls;
	bool allow;
} FilterCount;

static bool countingFilter(tbShapeId a, tbShapeId b, void* context)
{
	FilterCount* f = context;
	f->calls += 1;
	cr_assert(a.index1 < b.index1, "the pair comes lower index first");
	// The ground's pairs always collide; the boxes' pair as the test says.
	bool boxes = tbBody_GetType(tbShape_GetBody(a)) == tb_dynamicBody &&
	             tbBody_GetType(tbShape_GetBody(b)) == tb_dynamicBody;
	return boxes ? f->allow : true;
}

Test(filter, custom_filter_keeps_a_pair_apart)
{
	tbFilter plain = {1, UINT64_MAX, 0};
	FilterCount no = {0, false}, yes = {0, true};
	cr_expect_float_eq(dropBoxOnBox(plain, plain, countingFilter, &no), 0.5f, 0.02f);
	cr_expect_float_eq(dropBoxOnBox(plain, plain, countingFilter, &yes), 1.5f, 0.02f);
	cr_expect_gt(no.calls, 0);
	cr_expect_gt(yes.calls, 0);
}

// ---------------------------------------------------------------------------------------------
// Mixing callbacks

static float minFriction(float a, int32_t ma, float b, int32_t mb)
{
	(void)ma;
	(void)mb;
	return fminf(a, b);
}

static float iceOnMaterial7(float a, int32_t ma, float b, int32_t mb)
{
	(void)a;
	(void)b;
	return ma == 7 || mb == 7 ? 0.0f : 1.0f;
}

// A box released on a slope of angle `angle` with the given frictions: its acceleration along the
// slope over 0.5 s (from the distance travelled, s = a t^2 / 2).
static float slideAcceleration(float angle, float muBox, float muSlope, int32_t materialSlope,
                               tbFrictionCallback* callback)
{
	tbWorldId world = makeWorld();
	tbWorld_SetFrictionCallback(world, callback);
	tbBodyDef bd = tbDefaultBodyDef();
	versors q = glms_quatv(angle, (vec3s){{0, 0, 1}});
	bd.rotation = q;
	tbBodyId slope = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = muSlope;
	sd.material = materialSlope;
	// The slope's top face passes through the origin.
	sd.localPose = tbMakeTransform((vec3s){{0, -0.5f, 0}}, glms_quat_identity());
	addShape(slope, tbMakeBox(50.0f, 0.5f, 5.0f), &sd);
	vec3s up = glms_quat_rotatev(q, (vec3s){{0, 1, 0}});
	vec3s down = glms_quat_rotatev(q, (vec3s){{-1, 0, 0}});
	bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.rotation = q;
	bd.position = glms_vec3_scale(up, 0.25f);
	tbBodyId box = tbCreateBody(world, &bd);
	sd = tbDefaultShapeDef();
	sd.friction = muBox;
	addShape(box, tbMakeBox(0.25f, 0.25f, 0.25f), &sd);
	// Settle onto the slope for a few steps, then measure from there.
	for (int i = 0; i < 3; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	vec3s x0 = tbBody_GetPosition(box);
	float v0 = glms_vec3_dot(tbBody_GetLinearVelocity(box), down);
	int steps = 30;
	for (int i = 0; i < steps; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	float t = (float)steps * kDt;
	float s = glms_vec3_dot(glms_vec3_sub(tbBody_GetPosition(box), x0), down);
	tbDestroyWorld(world);
	return 2.0f * (s - v0 * t) / (t * t);
}

Test(mixing, friction_callback_sets_the_pair_friction)
{
	// 30 degrees: with mu = 0.1 (the minimum of 0.1 and 0.9) the box slides at
	// g (sin 30 - 0.1 cos 30); the default rule sqrt(0.1 * 0.9) = 0.3 gives g (sin 30 - 0.3 cos
	// 30).
	float angle = glm_rad(30.0f);
	float expectMin = G * (sinf(angle) - 0.1f * cosf(angle));
	float expectSqrt = G * (sinf(angle) - 0.3f * cosf(angle));
	cr_expect_float_eq(slideAcceleration(angle, 0.1f, 0.9f, 0, minFriction), expectMin,
	                   0.02f * expectMin);
	cr_expect_float_eq(slideAcceleration(angle, 0.1f, 0.9f, 0, NULL), expectSqrt,
	                   0.02f * expectSqrt);
	// By material number: material 7 is ice (frictionless: g sin 30).
	cr_expect_float_eq(slideAcceleration(angle, 0.6f, 0.6f, 7, iceOnMaterial7), G * 0.5f,
	                   0.02f * G * 0.5f);
}

static float alwaysBouncy(float a, int32_t ma, float b, int32_t mb)
{
	(void)a;
	(void)ma;
	(void)b;
	(void)mb;
	return 5.0f; // out of range: held to 1
}

Test(mixing, restitution_callback_is_held_to_one)
{
	// A ball dropped from 1 m with the callback's (clamped) e = 1 comes back to 1 m; the default
	// max(0, 0) = 0 does not bounce at all.
	tbWorldId world = makeWorld();
	tbWorld_SetRestitutionCallback(world, alwaysBouncy);
	makeGround(world, NULL);
	tbBodyId ball = makeBody(world, tb_dynamicBody, (vec3s){{0, 1.25f, 0}});
	addShape(ball, tbMakeSphere(0.25f), NULL);
	float apex = 0.0f;
	bool bounced = false;
	for (int i = 0; i < 120; ++i) {
		tbWorld_Step(world, kDt, 4);
		float vy = tbBody_GetLinearVelocity(ball).y;
		bounced = bounced || vy > 0.5f;
		if (bounced) {
			apex = fmaxf(apex, tbBody_GetPosition(ball).y);
		}
	}
	tbDestroyWorld(world);
	cr_expect_float_eq(apex, 1.25f, 0.02f, "apex %g", (double)apex);
}

// ---------------------------------------------------------------------------------------------
// Surface motion

Test(surface, conveyor_carries_a_box_at_the_belt_speed)
{
	// A static belt moving at 2 m/s along x (in its own frame, turned 90 degrees about y so that
	// the belt's x is the world's -z): after a second the box rides at the belt's speed.
	tbWorldId world = makeWorld();
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = (vec3s){{0, -0.5f, 0}};
	bd.rotation = glms_quatv(glm_rad(90.0f), (vec3s){{0, 1, 0}});
	tbBodyId beltBody = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.tangentVelocity = (vec3s){{2.0f, 0, 0}};
	tbShapeId belt = addShape(beltBody, tbMakeBox(50.0f, 0.5f, 50.0f), &sd);
	tbBodyId box = makeBody(world, tb_dynamicBody, (vec3s){{0, 0.25f, 0}});
	addShape(box, tbMakeBox(0.25f, 0.25f, 0.25f), NULL);
	for (int i = 0; i < 60; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	vec3s v = tbBody_GetLinearVelocity(box);
	vec3s speed = glms_quat_rotatev(bd.rotation, (vec3s){{2.0f, 0, 0}});
	cr_expect_float_eq(v.x, speed.x, 0.01f * 2.0f);
	cr_expect_float_eq(v.z, speed.z, 0.01f * 2.0f, "v.z %g, belt %g", (double)v.z, (double)speed.z);
	cr_expect_float_eq(v.y, 0.0f, 0.01f);
	// Stopped, the belt holds the box still.
	tbShape_SetTangentVelocity(belt, glms_vec3_zero());
	for (int i = 0; i < 60; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	cr_expect_float_eq(glms_vec3_norm(tbBody_GetLinearVelocity(box)), 0.0f, 0.01f * 2.0f);
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Pre-solve: a one-way platform

typedef struct Platform
{
	tbShapeId shape;
	int calls;
} Platform;

// The platform holds what is above it only: a contact whose other body moves up, or whose lowest
// point is under the platform's top, is left out this step.
static bool oneWay(tbShapeId a, tbShapeId b, const tbManifold* m, tbContactMaterial* material,
                   void* context)
{
	(void)material;
	Platform* p = context;
	p->calls += 1;
	bool platformIsA = TB_ID_EQUALS(a, p->shape);
	if (!platformIsA && !TB_ID_EQUALS(b, p->shape)) {
		return true;
	}
	// The normal from the platform to the other shape.
	vec3s n = platformIsA ? m->normal : glms_vec3_negate(m->normal);
	return n.y > 0.7f && tbBody_GetLinearVelocity(tbShape_GetBody(platformIsA ? b : a)).y < 0.5f;
}

Test(presolve, one_way_platform_lets_a_body_up_and_holds_it_from_above)
{
	// A thin static platform with its top at y = 2; a ball launched up from y = 0.5 at
	// sqrt(2 g 3) m/s rises to 3.5 m through the platform, then falls back and lands on it:
	// centre at 2 + radius.
	tbWorldId world = makeWorld();
	makeGround(world, NULL);
	tbBodyId platformBody = makeBody(world, tb_staticBody, (vec3s){{0, 1.95f, 0}});
	Platform p = {addShape(platformBody, tbMakeBox(2.0f, 0.05f, 2.0f), NULL), 0};
	tbWorld_SetPreSolveCallback(world, oneWay, &p);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = (vec3s){{0, 0.25f, 0}};
	bd.linearVelocity = (vec3s){{0, sqrtf(2.0f * G * 3.0f), 0}};
	tbBodyId ball = tbCreateBody(world, &bd);
	addShape(ball, tbMakeSphere(0.25f), NULL);
	float highest = 0.0f;
	for (int i = 0; i < 180; ++i) {
		tbWorld_Step(world, kDt, 4);
		highest = fmaxf(highest, tbBody_GetPosition(ball).y);
	}
	cr_expect_float_eq(highest, 3.25f, 0.05f, "the ball rose to %g through the platform",
	                   (double)highest);
	cr_expect_float_eq(tbBody_GetPosition(ball).y, 2.25f, 0.01f, "rests on the platform at %g",
	                   (double)tbBody_GetPosition(ball).y);
	cr_expect_gt(p.calls, 0);
	tbDestroyWorld(world);
}

static bool slippery(tbShapeId a, tbShapeId b, const tbManifold* m, tbContactMaterial* material,
                     void* context)
{
	(void)a;
	(void)b;
	(void)m;
	(void)context;
	material->friction = 0.0f;
	return true;
}

Test(presolve, changed_material_holds_for_the_step)
{
	// The callback makes every contact frictionless: a box given 1 m/s along the ground keeps it.
	tbWorldId world = makeWorld();
	tbWorld_SetPreSolveCallback(world, slippery, NULL);
	makeGround(world, NULL);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = (vec3s){{0, 0.25f, 0}};
	bd.linearVelocity = (vec3s){{1.0f, 0, 0}};
	tbBodyId box = tbCreateBody(world, &bd);
	addShape(box, tbMakeBox(0.25f, 0.25f, 0.25f), NULL);
	for (int i = 0; i < 60; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	cr_expect_float_eq(tbBody_GetLinearVelocity(box).x, 1.0f, 1e-3f);
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Bad input

Test(materials, bad_surface_values_are_refused_with_the_field_named)
{
	tbWorldId world = makeWorld();
	tbBodyId body = makeBody(world, tb_dynamicBody, (vec3s){{0, 1, 0}});
	tbShapeDef sd = tbDefaultShapeDef();
	sd.rollingResistance = -1.0f;
	cr_expect(TB_IS_NULL(addShape(body, tbMakeSphere(0.5f), &sd)));
	cr_expect(strstr(tbGetLastError(), "rollingResistance") != NULL, "%s", tbGetLastError());
	sd = tbDefaultShapeDef();
	sd.tangentVelocity = (vec3s){{NAN, 0, 0}};
	cr_expect(TB_IS_NULL(addShape(body, tbMakeSphere(0.5f), &sd)));
	cr_expect(strstr(tbGetLastError(), "tangentVelocity") != NULL, "%s", tbGetLastError());
	tbShapeId ok = addShape(body, tbMakeSphere(0.5f), NULL);
	tbShape_SetTangentVelocity(ok, (vec3s){{0, INFINITY, 0}});
	cr_expect(strstr(tbGetLastError(), "tangentVelocity") != NULL, "%s", tbGetLastError());
	cr_expect_float_eq(glms_vec3_norm(tbShape_GetTangentVelocity(ok)), 0.0f, 1e-9f);
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Kinematic bodies moved to a target pose

Test(kinematic, target_transform_is_reached_after_the_step)
{
	// A kinematic paddle whose centre of mass is off its origin (two boxes) sent along a path of
	// poses, one per step: after each step it is at the pose it was sent to.
	tbWorldId world = makeWorld();
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_kinematicBody;
	tbBodyId paddle = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.localPose = tbMakeTransform((vec3s){{1.0f, 0, 0}}, glms_quat_identity());
	addShape(paddle, tbMakeBox(1.0f, 0.1f, 0.3f), &sd);
	float worst = 0.0f, worstAngle = 0.0f;
	for (int i = 1; i <= 60; ++i) {
		float t = (float)i * kDt;
		vec3s p = {{2.0f * sinf(t), 0.5f * t, 0}};
		versors q = glms_quatv(1.5f * t, glms_vec3_normalize((vec3s){{1, 2, 3}}));
		tbBody_SetTargetTransform(paddle, p, q, kDt);
		tbWorld_Step(world, kDt, 4);
		tbTransform xf = tbBody_GetTransform(paddle);
		worst = fmaxf(worst, glms_vec3_norm(glms_vec3_sub(xf.p, p)));
		// The angle between them from the vector part of q^* xf.q (acos of the dot product has
		// no precision near 1 in floats).
		versors dq = glms_quat_mul(glms_quat_conjugate(q), xf.q);
		float s = sqrtf(dq.x * dq.x + dq.y * dq.y + dq.z * dq.z);
		worstAngle = fmaxf(worstAngle, 2.0f * asinf(fminf(s, 1.0f)));
	}
	// Floats: the paddle is 2 m long; a thousandth of a millimetre and of a degree.
	cr_expect_lt(worst, 1e-5f * 2.0f, "position off by %g m", (double)worst);
	cr_expect_lt(worstAngle, glm_rad(1e-3f), "rotation off by %g rad", (double)worstAngle);
	bd.type = tb_staticBody;
	tbBodyId wall = tbCreateBody(world, &bd);
	tbBody_SetTargetTransform(wall, glms_vec3_zero(), glms_quat_identity(), kDt);
	cr_expect(strstr(tbGetLastError(), "static") != NULL, "%s", tbGetLastError());
	tbBody_SetTargetTransform(paddle, glms_vec3_zero(), glms_quat_identity(), 0.0f);
	cr_expect(strstr(tbGetLastError(), "timeStep") != NULL, "%s", tbGetLastError());
	tbDestroyWorld(world);
}

// ---------------------------------------------------------------------------------------------
// Rolling resistance

// A ball of radius 0.5 rolling at 3 m/s on level ground with rolling resistance c: its speed after
// `seconds`.
static float rollingSpeed(float c, float seconds, float* spinError)
{
	tbWorldId world = makeWorld();
	makeGround(world, NULL);
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = (vec3s){{0, 0.5f, 0}};
	bd.linearVelocity = (vec3s){{3.0f, 0, 0}};
	bd.angularVelocity = (vec3s){{0, 0, -3.0f / 0.5f}}; // rolling: w = -v / r about z
	tbBodyId ball = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.rollingResistance = c;
	addShape(ball, tbMakeSphere(0.5f), &sd);
	int steps = (int)lroundf(seconds / kDt);
	for (int i = 0; i < steps; ++i) {
		tbWorld_Step(world, kDt, 4);
	}
	float v = tbBody_GetLinearVelocity(ball).x;
	*spinError = fabsf(tbBody_GetAngularVelocity(ball).z * 0.5f + v);
	tbDestroyWorld(world);
	return v;
}

Test(rolling, resistance_slows_a_ball_at_five_sevenths_c_g)
{
	// The resisting torque c N r with N = m g on a rolling ball (I = 2/5 m r^2, v = -w r):
	// m a = f, I dw/dt = r f + c m g r  =>  a = -c g / (1 + 2/5) = -(5/7) c g.
	for (int k = 0; k < 2; ++k) {
		float c = k == 0 ? 0.02f : 0.08f;
		float spin = 0.0f;
		float seconds = 1.0f;
		float v = rollingSpeed(c, seconds, &spin);
		float drop = 3.0f - v;
		float expect = 5.0f / 7.0f * c * G * seconds;
		cr_expect_float_eq(drop, expect, 0.02f * expect, "c %g: speed fell by %g, law %g",
		                   (double)c, (double)drop, (double)expect);
		cr_expect_lt(spin, 1e-3f * 3.0f, "still rolling without slipping: slip %g m/s",
		             (double)spin);
	}
	// Long enough to stop, it stays stopped (the torque never turns it back).
	float spin = 0.0f;
	float v = rollingSpeed(0.2f, 3.0f, &spin);
	cr_expect_float_eq(v, 0.0f, 1e-3f, "v %g after stopping", (double)v);
}

// A box sliding on the ground: the contact's reported forces, summed over its points, are the
// weight m g along the normal and Coulomb's mu m g against the slide; each point's friction is its
// share of that in proportion to its normal force (the friction is one row at the centre).
Test(contact_data, sliding_box_reports_weight_and_coulomb_friction)
{
	const float half = 0.5f;
	const double mu = 0.4;
	tbWorldId world = makeWorld();
	tbShapeDef def = tbDefaultShapeDef();
	def.friction = (float)mu;
	makeGround(world, &def);
	tbBodyId box = makeBody(world, tb_dynamicBody, (vec3s){{0, half, 0}});
	addShape(box, tbMakeBox(half, half, half), &def);
	float m = tbBody_GetMass(box);
	for (int i = 0; i < 30; ++i) {
		tbWorld_Step(world, kDt, 4); // settle
	}
	tbBody_SetLinearVelocity(box, (vec3s){{6.0f, 0.0f, 0.0f}});
	for (int i = 0; i < 10; ++i) {
		tbWorld_Step(world, kDt, 4);
		cr_assert_gt(tbBody_GetLinearVelocity(box).x, 1.0f, "still sliding");
		tbContactData data[4];
		int n = tbBody_GetContactData(box, data, 4);
		cr_assert_eq(n, 1);
		const tbContactData* d = data;
		cr_assert_geq(d->manifold.pointCount, 3, "a face contact");
		double normal = 0.0;
		vec3s friction = glms_vec3_zero();
		for (int k = 0; k < d->manifold.pointCount; ++k) {
			normal += (double)d->normalForces[k];
			friction = glms_vec3_add(friction, d->frictionForces[k]);
			// Each point's friction in proportion to its normal force.
			if (d->normalForces[k] > 0.0f) {
				double ratio =
				    (double)glms_vec3_norm(d->frictionForces[k]) / (double)d->normalForces[k];
				cr_expect(fabs(ratio - mu) < 0.02 * mu, "point %d: friction / normal %g, mu %g", k,
				          ratio, (double)mu);
			}
		}
		double weight = (double)m * (double)G;
		cr_expect(fabs(normal - weight) < 0.02 * weight, "normal %g N, m g %g N", normal, weight);
		// Against the slide (B is the box or the ground: the sign follows the pair's order).
		double along = fabs((double)friction.x);
		cr_expect(fabs(along - mu * weight) < 0.02 * mu * weight, "friction %g N, mu m g %g N",
		          along, mu * weight);
		cr_expect(fabs((double)friction.z) < 1e-3 * weight &&
		          fabs((double)friction.y) < 1e-3 * weight);
	}
	tbDestroyWorld(world);
}
