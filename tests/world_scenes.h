// Helpers shared by the whole-world scene suites: scene scale, ground, boxes, reports.
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <tumble/tumble.h>

// The sanitizer build runs at -O0 and is ~20x slower: heavy scenes shrink there (the optimised
// build keeps the full scenes). TUMBLE_TEST_FULL=1 forces the full scenes anyway.
static inline bool sceneIsLight(void)
{
	const char* env = getenv("TUMBLE_TEST_FULL");
	if (env != NULL && env[0] == '1') {
		return false;
	}
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
	return true;
#else
	return false;
#endif
}

static inline vec3s v3(float x, float y, float z)
{
	return (vec3s){{x, y, z}};
}

static inline versors quatIdentity(void)
{
	return (versors){{0.0f, 0.0f, 0.0f, 1.0f}};
}

/// A world with sleeping as asked (scenes run with sleeping off unless stated).
static inline tbWorldId makeWorld(bool sleep)
{
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = sleep;
	return tbCreateWorld(&def);
}

/// A static ground box whose top face is y = 0.
static inline tbBodyId makeGround(tbWorldId world, float halfSize, float friction)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = v3(0.0f, -0.5f, 0.0f);
	tbBodyId ground = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbGeometry box = tbMakeBox(halfSize, 0.5f, halfSize);
	tbCreateShape(ground, &sd, &box);
	return ground;
}

/// A dynamic box body.
static inline tbBodyId makeBox(tbWorldId world, vec3s p, versors q, vec3s half, float density,
                               float friction)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = p;
	bd.rotation = q;
	tbBodyId body = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = density;
	sd.friction = friction;
	tbGeometry box = tbMakeBox(half.x, half.y, half.z);
	tbCreateShape(body, &sd, &box);
	return body;
}

// A static body at p with no shape: a joint's fixed end.
static inline tbBodyId makeStatic(tbWorldId world, vec3s p)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = p;
	return tbCreateBody(world, &bd);
}

// A dynamic body at (p, q) with one shape of the given density.
static inline tbBodyId makeDynamic(tbWorldId world, vec3s p, versors q, const tbGeometry* shape,
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

static inline float dist3(vec3s a, vec3s b)
{
	return glms_vec3_norm(glms_vec3_sub(a, b));
}

static inline bool finite3(vec3s v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

/// Deepest penetration over every touching manifold point, m (positive = overlap).
static inline float worldMaxPenetration(tbWorldId world, tbContactData* buffer, int capacity)
{
	int n = tbWorld_GetContactData(world, buffer, capacity);
	float worst = 0.0f;
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < buffer[i].manifold.pointCount; ++k) {
			float pen = -buffer[i].manifold.points[k].separation;
			worst = pen > worst ? pen : worst;
		}
	}
	return worst;
}

// `layers` layers of 5 x 5 cubes (half size 0.4 m, 1000 kg/m^3, friction 0.5), each turned its
// own way, in a block 1 m above the ground: a small rain whose contacts begin, end and wake.
static inline void makeTumblingCubes(tbWorldId world, int layers)
{
	int n = 0;
	for (int y = 0; y < layers; ++y) {
		for (int z = 0; z < 5; ++z) {
			for (int x = 0; x < 5; ++x) {
				float a = 0.37f * (float)n, b = 0.11f * (float)n;
				versors q = glms_quat_normalize((versors){{sinf(a), cosf(b), sinf(b), 1.0f}});
				makeBox(world, v3(1.3f * (float)x - 3.0f, 1.0f + 1.4f * (float)y, 1.3f * (float)z),
				        q, v3(0.4f, 0.4f, 0.4f), 1000.0f, 0.5f);
				++n;
			}
		}
	}
}

// Rolling resistance side by side: 12 x 12 balls (radius 0.25 m, rolling resistance 0.2) launched
// across the ground at 1-4 m/s, every ball on the ground a rolling row of one colour (more than
// the solver's smallest range), and a heap of 30 more balls and 8 capsules with the same
// resistance dropped on each other, whose rows spread over further colours.
static inline void makeRollingBalls(tbWorldId world)
{
	tbShapeDef sd = tbDefaultShapeDef();
	sd.rollingResistance = 0.2f;
	sd.friction = 0.6f;
	tbGeometry ball = tbMakeSphere(0.25f);
	tbGeometry capsule = tbMakeCapsule(0.2f, 0.3f);
	for (int i = 0; i < 144; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = v3(-9.0f + 0.8f * (float)(i % 12), 0.25f, -9.0f + 0.8f * (float)(i / 12));
		bd.linearVelocity = v3(1.0f + 0.25f * (float)(i % 13), 0.0f, 0.5f * (float)(i % 3));
		tbCreateShape(tbCreateBody(world, &bd), &sd, &ball);
	}
	for (int i = 0; i < 38; ++i) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = v3(8.0f + 0.45f * (float)(i % 3), 0.3f + 0.55f * (float)(i / 3),
		                 0.45f * (float)((i / 3) % 2));
		tbCreateShape(tbCreateBody(world, &bd), &sd, i < 30 ? &ball : &capsule);
	}
}

// Joints whose colours run side by side: six chains of five boxes on ball joints (each chain a
// group solved directly), each hung from a static anchor, and a net of 9 x 9 boxes joined to
// their neighbours by ball joints (too many for one group: each joint on its own), its top row
// hung from a kinematic bar that swings the net.
static inline void makeJointScenes(tbWorldId world)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = v3(0.0f, 12.0f, 0.0f);
	tbBodyId anchor = tbCreateBody(world, &bd);
	for (int c = 0; c < 6; ++c) {
		tbBodyId prev = anchor;
		for (int i = 0; i < 5; ++i) {
			vec3s p = v3(-8.0f + 0.6f * (float)(i + 1), 12.0f, 2.0f * (float)c);
			tbBodyId link = makeBox(world, p, quatIdentity(), v3(0.25f, 0.1f, 0.1f), 500.0f, 0.5f);
			tbBallJointDef jd = tbDefaultBallJointDef();
			jd.bodyIdA = prev;
			jd.bodyIdB = link;
			jd.anchor = v3(p.x - 0.3f, 12.0f, p.z);
			tbCreateBallJoint(world, &jd);
			prev = link;
		}
	}
	bd = tbDefaultBodyDef();
	bd.type = tb_kinematicBody;
	bd.position = v3(6.0f, 12.0f, 0.0f);
	bd.angularVelocity = v3(0.0f, 0.0f, 0.5f);
	tbBodyId bar = tbCreateBody(world, &bd);
	tbBodyId net[9][9];
	for (int i = 0; i < 9; ++i) {
		for (int k = 0; k < 9; ++k) {
			vec3s p = v3(6.0f + 0.5f * (float)k, 11.5f - 0.5f * (float)i, 0.0f);
			net[i][k] = makeBox(world, p, quatIdentity(), v3(0.15f, 0.15f, 0.15f), 200.0f, 0.5f);
			tbBallJointDef jd = tbDefaultBallJointDef();
			jd.bodyIdA = i == 0 ? bar : net[i - 1][k];
			jd.bodyIdB = net[i][k];
			jd.anchor = v3(p.x, p.y + 0.25f, 0.0f);
			tbCreateBallJoint(world, &jd);
			if (k > 0) {
				jd.bodyIdA = net[i][k - 1];
				jd.anchor = v3(p.x - 0.25f, p.y, 0.0f);
				tbCreateBallJoint(world, &jd);
			}
		}
	}
}

// The turntable: a kinematic slab of 8 m half size turning at `spin` rad/s about +y, its top at
// y = 0.5, carrying 8 x 8 boxes of half size 0.3 m set 1.6 m apart (none touching another): 64
// contacts with the one kinematic body, most of them in one colour, so that the records of that
// colour share it. The boxes are listed in `boxes` (64 of them).
static inline tbBodyId makeTurntable(tbWorldId world, float spin, tbBodyId* boxes)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_kinematicBody;
	bd.angularVelocity = v3(0.0f, spin, 0.0f);
	tbBodyId table = tbCreateBody(world, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.6f;
	tbGeometry slab = tbMakeBox(8.0f, 0.5f, 8.0f);
	tbCreateShape(table, &sd, &slab);
	for (int i = 0; i < 64; ++i) {
		vec3s p = v3(1.6f * (float)(i % 8) - 5.6f, 0.8f, 1.6f * (float)(i / 8) - 5.6f);
		boxes[i] = makeBox(world, p, quatIdentity(), v3(0.3f, 0.3f, 0.3f), 500.0f, 0.6f);
	}
	return table;
}
