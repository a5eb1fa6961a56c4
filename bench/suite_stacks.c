// Suite scenes of many loose bodies: pyramids of boxes, a world of a million static slabs, a pile
// of large convex hulls, a junkyard of rocks stirred by a kinematic pusher, and a turning drum (the
// scenes of Box3D's benchmark app, built here through Tumble's public API).
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_SUITE_PI 3.14159265358979f

// The state of every scene in this file: its dynamic bodies, the hulls its shapes point at, and
// the kinematic body some of them drive.
typedef struct tbStackState
{
	tbSuiteBodies bodies;
	tbHull hulls[40];
	int hullCount;
	tbBodyId mover; ///< junkyard pusher, washer drum
	float angle;    ///< junkyard: the pusher's angle on its circle, rad
	float scale;
	int dropped; ///< large_world: spheres dropped so far
	int dropCount, gridCount;
	unsigned char* inside; ///< washer: each cube inside the drum at the last look
	int throughWall;       ///< washer: cubes seen to leave the drum through its wall
} tbStackState;

static tbStackState* tbStackNew(float scale)
{
	tbStackState* s = calloc(1, sizeof *s);
	if (s != NULL) {
		s->scale = scale;
	}
	return s;
}

static void tbStackDestroy(void* state)
{
	tbStackState* s = state;
	tbSuiteBodies_Free(&s->bodies);
	free(s->inside);
	for (int i = 0; i < s->hullCount; ++i) {
		tbDestroyHull(s->hulls + i);
	}
	free(s);
}

// A hull of `count` points kept in the state; null when it cannot be built.
static const tbHull* tbStackHull(tbStackState* s, const vec3s* points, int count)
{
	if (s->hullCount >= (int)(sizeof s->hulls / sizeof s->hulls[0])) {
		return NULL;
	}
	tbHull* hull = s->hulls + s->hullCount;
	if (tbBuildHull(points, count, hull, NULL) != tb_hullOk || hull->kind != tb_hullSolid) {
		tbDestroyHull(hull);
		return NULL;
	}
	s->hullCount += 1;
	return hull;
}

// A dynamic body at p with one shape; added to the state's list.
static bool tbStackAddBody(tbStackState* s, tbWorldId worldId, vec3s p, const tbGeometry* g,
                           const tbShapeDef* sd, bool enableSleep)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tb_dynamicBody;
	bd.position = p;
	bd.enableSleep = enableSleep;
	tbBodyId id = tbCreateBody(worldId, &bd);
	if (TB_IS_NULL(id) || TB_IS_NULL(tbCreateShape(id, sd, g))) {
		return false;
	}
	return tbSuiteBodies_Add(&s->bodies, id);
}

// A 2D pyramid of `base` cubes of half size e in the plane z, its bottom row centred on x = cx and
// resting on y = 0: row i holds base - i cubes, centred over the row below.
static bool tbStackPyramid(tbStackState* s, tbWorldId worldId, int base, float e, float cx, float z,
                           float density, bool enableSleep)
{
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = density;
	tbGeometry box = tbMakeBox(e, e, e);
	for (int i = 0; i < base; ++i) {
		int n = base - i;
		for (int k = 0; k < n; ++k) {
			vec3s p = tbSuiteVec(cx + e * (float)(2 * k - (n - 1)), e * (float)(2 * i + 1), z);
			if (!tbStackAddBody(s, worldId, p, &box, &sd, enableSleep)) {
				return false;
			}
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// large_pyramid: one 2D pyramid with a base of 100 unit cubes (5050 boxes, 100 kg/m^3) on a
// 800 m square ground box, sleep off. The cubes are box shapes, Box3D's are box hulls.

static void tbLargePyramidConfigure(tbWorldDef* def, float scale)
{
	int base = tbSuiteScaled(100, scale, 2);
	def->enableSleep = false;
	def->initialBodyCapacity = base * (base + 1) / 2 + 1;
	def->initialShapeCapacity = def->initialBodyCapacity;
}

static void* tbLargePyramidCreate(tbWorldId worldId, float scale)
{
	tbStackState* s = tbStackNew(scale);
	if (s == NULL) {
		return NULL;
	}
	tbSuiteStaticBox(worldId, tbSuiteVec(0.0f, -1.0f, 0.0f), tbSuiteVec(400.0f, 1.0f, 400.0f));
	if (!tbStackPyramid(s, worldId, tbSuiteScaled(100, scale, 2), 0.5f, 0.0f, 0.0f, 100.0f,
	                    false)) {
		tbStackDestroy(s);
		return NULL;
	}
	return s;
}

// The pyramids stand: every box within 5 cm of where it started.
static void tbPyramidCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	(void)worldId;
	tbStackState* s = state;
	tbSuiteAddFigure(checks, "nonfinite_bodies", tbSuiteBodies_CountNonFinite(&s->bodies), 0.0);
	tbSuiteAddFigure(checks, "max_box_drift_m", tbSuiteBodies_MaxDrift(&s->bodies), 0.05);
	tbSuiteAddFigure(checks, "below_ground", tbSuiteBodies_CountBelow(&s->bodies, 0.0f), 0.0);
}

const tbSuiteScene tb_suiteLargePyramid = {
    "large_pyramid",
    "one pyramid of base 100 (5050 cubes), sleep off",
    200,
    tbLargePyramidConfigure,
    tbLargePyramidCreate,
    NULL,
    tbPyramidCheck,
    tbStackDestroy,
};

// ---------------------------------------------------------------------------------------------
// many_pyramids: 14 x 14 pyramids of base 10 (55 unit cubes each, 100 kg/m^3), 1 m apart along x
// and spread evenly along z over a 154 m square ground box; the cubes never sleep.

static void tbManyPyramidsConfigure(tbWorldDef* def, float scale)
{
	int rows = tbSuiteScaled(14, scale, 1);
	def->initialBodyCapacity = rows * rows * 55 + 1;
	def->initialShapeCapacity = def->initialBodyCapacity;
}

static void* tbManyPyramidsCreate(tbWorldId worldId, float scale)
{
	tbStackState* s = tbStackNew(scale);
	if (s == NULL) {
		return NULL;
	}
	const int base = 10;
	const float e = 0.5f;
	int rows = tbSuiteScaled(14, scale, 1), columns = rows;
	// The ground is as wide as the columns of pyramids with a cube's gap between each.
	float groundExtent = e * (float)columns * (float)(base + 1);
	tbSuiteStaticBox(worldId, tbSuiteVec(0.0f, -1.0f, 0.0f),
	                 tbSuiteVec(groundExtent, 1.0f, groundExtent));
	float pitchX = 2.0f * e * (float)(base + 1);
	float zFirst = -groundExtent + 2.0f * e;
	float pitchZ = rows > 1 ? 2.0f * (groundExtent - 2.0f * e) / (float)(rows - 1) : 0.0f;
	for (int r = 0; r < rows; ++r) {
		for (int c = 0; c < columns; ++c) {
			float cx = pitchX * ((float)c - 0.5f * (float)(columns - 1));
			if (!tbStackPyramid(s, worldId, base, e, cx, zFirst + pitchZ * (float)r, 100.0f,
			                    false)) {
				tbStackDestroy(s);
				return NULL;
			}
		}
	}
	return s;
}

const tbSuiteScene tb_suiteManyPyramids = {
    "many_pyramids",
    "196 pyramids of base 10 (10780 cubes), sleep off",
    100,
    tbManyPyramidsConfigure,
    tbManyPyramidsCreate,
    NULL,
    tbPyramidCheck,
    tbStackDestroy,
};

// ---------------------------------------------------------------------------------------------
// large_world: a floor of 1000 x 1000 static bodies, each one 10 m square slab 0.5 m thick, and
// 100 balls of radius 0.5 m dropped from 1.5 m one every 5 steps over the inner 80 % of the floor.
// Box3D marks the slabs invokeContactCreation to fill its move buffer; Tumble has no such flag
// (its static shapes are not looked at until something moves near them).

#define TB_LARGE_WORLD_CELL 10.0f

static void tbLargeWorldConfigure(tbWorldDef* def, float scale)
{
	int grid = tbSuiteScaled(1000, scale, 2);
	// The initial capacities are capped: the world grows past them.
	long bodies = (long)grid * grid + 128;
	int cap = bodies < TB_MAX_INITIAL_CAPACITY ? (int)bodies : TB_MAX_INITIAL_CAPACITY;
	def->initialBodyCapacity = cap;
	def->initialShapeCapacity = cap;
}

static void* tbLargeWorldCreate(tbWorldId worldId, float scale)
{
	tbStackState* s = tbStackNew(scale);
	if (s == NULL) {
		return NULL;
	}
	s->gridCount = tbSuiteScaled(1000, scale, 2);
	s->dropCount = tbSuiteScaled(100, scale, 1);
	float half = 0.5f * TB_LARGE_WORLD_CELL * (float)s->gridCount;
	tbBodyDef bd = tbDefaultBodyDef();
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry slab = tbMakeBox(0.5f * TB_LARGE_WORLD_CELL, 0.25f, 0.5f * TB_LARGE_WORLD_CELL);
	for (int i = 0; i < s->gridCount; ++i) {
		for (int j = 0; j < s->gridCount; ++j) {
			bd.position = tbSuiteVec(-half + ((float)i + 0.5f) * TB_LARGE_WORLD_CELL, 0.0f,
			                         -half + ((float)j + 0.5f) * TB_LARGE_WORLD_CELL);
			tbBodyId id = tbCreateBody(worldId, &bd);
			if (TB_IS_NULL(id) || TB_IS_NULL(tbCreateShape(id, &sd, &slab))) {
				tbStackDestroy(s);
				return NULL;
			}
		}
	}
	return s;
}

static void tbLargeWorldStep(void* state, tbWorldId worldId, int stepIndex)
{
	tbStackState* s = state;
	if (stepIndex == 0 || stepIndex % 5 != 0 || s->dropped >= s->dropCount) {
		return;
	}
	// The balls land on a square lattice of side ceil(sqrt(count)) over the inner 80 %.
	int side = 1;
	while (side * side < s->dropCount && side < 100000) {
		side += 1;
	}
	float half = 0.5f * TB_LARGE_WORLD_CELL * (float)s->gridCount;
	float usable = 1.6f * half;
	float pitch = usable / (float)side;
	int i = s->dropped % side, j = s->dropped / side;
	vec3s p = tbSuiteVec(-0.8f * half + ((float)i + 0.5f) * pitch, 1.5f,
	                     -0.8f * half + ((float)j + 0.5f) * pitch);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry ball = tbMakeSphere(0.5f);
	tbStackAddBody(s, worldId, p, &ball, &sd, true);
	s->dropped += 1;
}

// The balls rest on the slabs (centre 0.75 m up): none below the slabs' top.
static void tbLargeWorldCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	(void)worldId;
	tbStackState* s = state;
	tbSuiteAddFigure(checks, "nonfinite_bodies", tbSuiteBodies_CountNonFinite(&s->bodies), 0.0);
	tbSuiteAddFigure(checks, "below_ground", tbSuiteBodies_CountBelow(&s->bodies, 0.25f), 0.0);
}

const tbSuiteScene tb_suiteLargeWorld = {
    "large_world",
    "1000 x 1000 static slabs, 100 balls dropped one every 5 steps",
    500,
    tbLargeWorldConfigure,
    tbLargeWorldCreate,
    tbLargeWorldStep,
    tbLargeWorldCheck,
    tbStackDestroy,
};

// ---------------------------------------------------------------------------------------------
// convex_pile: 80 layers of 8 x 8 copies of one hull of 32 random points on a sphere of radius
// 2 m, 4 m apart, falling into a pile on a 500 m square ground box (PEEL's scene). The points come
// from PEEL's BasicRandom linear congruential generator (multiplier 2147001325, increment
// 715136305, seed 42) so the hull is the reference scene's.

// The generator's next value in [-0.5, 0.5].
static float tbPileRandom(uint32_t* state)
{
	*state = *state * 2147001325u + 715136305u;
	return (float)(*state & 0xffffu) / 65535.0f - 0.5f;
}

static void tbConvexPileConfigure(tbWorldDef* def, float scale)
{
	int layers = tbSuiteScaled(80, scale, 1);
	def->initialBodyCapacity = 64 * layers + 1;
	def->initialShapeCapacity = def->initialBodyCapacity;
}

static void* tbConvexPileCreate(tbWorldId worldId, float scale)
{
	tbStackState* s = tbStackNew(scale);
	if (s == NULL) {
		return NULL;
	}
	tbSuiteStaticBox(worldId, tbSuiteVec(0.0f, -1.0f, 0.0f), tbSuiteVec(250.0f, 1.0f, 250.0f));
	const float radius = 2.0f;
	vec3s points[32];
	uint32_t state = 42u;
	for (int i = 0; i < 32; ++i) {
		// A uniform direction: a point of the cube [-0.5, 0.5]^3 kept when inside the ball of
		// radius 0.5, then pushed out to the sphere.
		vec3s d = tbSuiteVec(1.0f, 1.0f, 1.0f);
		for (int tries = 0; tries < 1000; ++tries) {
			d = tbSuiteVec(tbPileRandom(&state), tbPileRandom(&state), tbPileRandom(&state));
			if (glms_vec3_dot(d, d) <= 0.25f) {
				break;
			}
		}
		points[i] = glms_vec3_scale(glms_vec3_normalize(d), radius);
	}
	const tbHull* hull = tbStackHull(s, points, 32);
	if (hull == NULL) {
		tbStackDestroy(s);
		return NULL;
	}
	tbGeometry g = tbMakeHullShape(hull);
	tbShapeDef sd = tbDefaultShapeDef();
	int layers = tbSuiteScaled(80, scale, 1);
	float pitch = 2.0f * radius;
	for (int layer = 0; layer < layers; ++layer) {
		for (int zi = 0; zi < 8; ++zi) {
			for (int xi = 0; xi < 8; ++xi) {
				vec3s p =
				    tbSuiteVec(((float)xi - 4.0f) * pitch, radius + 2.0f * radius * (float)layer,
				               ((float)zi - 4.0f) * pitch);
				if (!tbStackAddBody(s, worldId, p, &g, &sd, true)) {
					tbStackDestroy(s);
					return NULL;
				}
			}
		}
	}
	return s;
}

// Nothing passes through the ground: every hull's origin stays above its top.
static void tbGroundCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	(void)worldId;
	tbStackState* s = state;
	tbSuiteAddFigure(checks, "nonfinite_bodies", tbSuiteBodies_CountNonFinite(&s->bodies), 0.0);
	tbSuiteAddFigure(checks, "below_ground", tbSuiteBodies_CountBelow(&s->bodies, 0.0f), 0.0);
}

const tbSuiteScene tb_suiteConvexPile = {
    "convex_pile",
    "5120 hulls of 32 points falling into a pile",
    500,
    tbConvexPileConfigure,
    tbConvexPileCreate,
    NULL,
    tbGroundCheck,
    tbStackDestroy,
};

// ---------------------------------------------------------------------------------------------
// junkyard: 24 layers of 21 x 21 rocks (hulls of 10 points of a Fibonacci lattice on a sphere of
// radius 1.5 m, 4 m apart) dropped from 25 m into a 100 m pen (walls 2 m thick, 16 m high) on a
// 240 m square ground; a kinematic cylinder (16-sided prism, radius 4 m, 24 m high) drives round a
// circle of radius 35 m at 6 degrees a second. Box3D sets the pusher's velocity towards its target
// pose each step (b3Body_SetTargetTransform); here the same velocity is set with
// tbBody_SetLinearVelocity.

#define TB_JUNKYARD_RADIUS 35.0f

static void tbJunkyardConfigure(tbWorldDef* def, float scale)
{
	int layers = tbSuiteScaled(24, scale, 1);
	def->initialBodyCapacity = 441 * layers + 2;
	def->initialShapeCapacity = def->initialBodyCapacity + 8;
}

// `count` points of the Fibonacci lattice on a sphere of `radius` (golden-angle spiral, even in z).
static void tbFibonacciSphere(vec3s* points, int count, float radius)
{
	const float golden = 0.5f * (1.0f + sqrtf(5.0f));
	const float turn = 2.0f * TB_SUITE_PI / golden;
	for (int i = 0; i < count; ++i) {
		float z = 1.0f - (2.0f * (float)i + 1.0f) / (float)count;
		float rho = sqrtf(fmaxf(0.0f, 1.0f - z * z));
		float phi = turn * (float)i;
		points[i] = tbSuiteVec(radius * rho * cosf(phi), radius * rho * sinf(phi), radius * z);
	}
}

// `sides` points on each of two circles of radius r in planes y = y0 and y = y1: a prism.
static int tbPrismPoints(vec3s* points, int sides, float r, float y0, float y1)
{
	for (int i = 0; i < sides; ++i) {
		float a = 2.0f * TB_SUITE_PI * (float)i / (float)sides;
		points[2 * i] = tbSuiteVec(r * cosf(a), y0, r * sinf(a));
		points[2 * i + 1] = tbSuiteVec(r * cosf(a), y1, r * sinf(a));
	}
	return 2 * sides;
}

static void* tbJunkyardCreate(tbWorldId worldId, float scale)
{
	tbStackState* s = tbStackNew(scale);
	if (s == NULL) {
		return NULL;
	}
	// The ground and the pen's four walls: one static body, the walls offset by local poses.
	tbBodyDef gd = tbDefaultBodyDef();
	gd.position = tbSuiteVec(0.0f, -1.0f, 0.0f);
	tbBodyId ground = tbCreateBody(worldId, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry floorBox = tbMakeBox(120.0f, 1.0f, 120.0f);
	tbCreateShape(ground, &sd, &floorBox);
	const float wall[4][6] = {
	    {-50.0f, 8.0f, 0.0f, 1.0f, 8.0f, 50.0f},
	    {50.0f, 8.0f, 0.0f, 1.0f, 8.0f, 50.0f},
	    {0.0f, 8.0f, -50.0f, 50.0f, 8.0f, 1.0f},
	    {0.0f, 8.0f, 50.0f, 50.0f, 8.0f, 1.0f},
	};
	for (int i = 0; i < 4; ++i) {
		tbShapeDef wd = tbDefaultShapeDef();
		wd.localPose = tbTransformIdentity();
		wd.localPose.p = tbSuiteVec(wall[i][0], wall[i][1], wall[i][2]);
		tbGeometry box = tbMakeBox(wall[i][3], wall[i][4], wall[i][5]);
		tbCreateShape(ground, &wd, &box);
	}

	vec3s points[32];
	tbFibonacciSphere(points, 10, 1.5f);
	const tbHull* rock = tbStackHull(s, points, 10);
	int n = tbPrismPoints(points, 16, 4.0f, 0.0f, 24.0f);
	const tbHull* drum = tbStackHull(s, points, n);
	if (rock == NULL || drum == NULL) {
		tbStackDestroy(s);
		return NULL;
	}
	tbGeometry rockShape = tbMakeHullShape(rock);
	int layers = tbSuiteScaled(24, scale, 1);
	for (int y = 0; y < layers; ++y) {
		for (int x = 0; x <= 20; ++x) {
			for (int z = 0; z <= 20; ++z) {
				vec3s p = tbSuiteVec(-40.0f + 4.0f * (float)x, 25.0f + 4.0f * (float)y,
				                     -40.0f + 4.0f * (float)z);
				if (!tbStackAddBody(s, worldId, p, &rockShape, &sd, true)) {
					tbStackDestroy(s);
					return NULL;
				}
			}
		}
	}
	tbBodyDef kd = tbDefaultBodyDef();
	kd.type = tb_kinematicBody;
	kd.position = tbSuiteVec(TB_JUNKYARD_RADIUS, 0.0f, 0.0f);
	s->mover = tbCreateBody(worldId, &kd);
	tbGeometry pusher = tbMakeHullShape(drum);
	tbCreateShape(s->mover, &sd, &pusher);
	return s;
}

static void tbJunkyardStep(void* state, tbWorldId worldId, int stepIndex)
{
	(void)worldId;
	(void)stepIndex;
	tbStackState* s = state;
	// The pusher's angle decreases by 6 degrees a second; its velocity takes it from where it is
	// to the next point of the circle in one step.
	s->angle -= 6.0f * TB_SUITE_PI / 180.0f * TB_SUITE_DT;
	vec3s target =
	    tbSuiteVec(TB_JUNKYARD_RADIUS * cosf(s->angle), 0.0f, TB_JUNKYARD_RADIUS * sinf(s->angle));
	vec3s v =
	    glms_vec3_scale(glms_vec3_sub(target, tbBody_GetPosition(s->mover)), 1.0f / TB_SUITE_DT);
	tbBody_SetLinearVelocity(s->mover, v);
}

const tbSuiteScene tb_suiteJunkyard = {
    "junkyard",
    "10584 rocks in a pen stirred by a kinematic pusher",
    500,
    tbJunkyardConfigure,
    tbJunkyardCreate,
    tbJunkyardStep,
    tbGroundCheck,
    tbStackDestroy,
};

// ---------------------------------------------------------------------------------------------
// washer: a kinematic drum turning at 25 degrees a second about z (and drifting at 1 and -2 mm/s,
// as the reference scene does), centred 21 m up; its wall is 36 hull panels between radii 16 and
// 18 m, 20 m long along z and open at both ends, and 4 paddles reach in from 16 to 14 m. Inside,
// 20 x 20 x 20 cubes of half size 0.2 m start on a lattice 0.8 m apart. Ground: a 120 m box.

#define TB_WASHER_INNER 16.0f
#define TB_WASHER_OUTER 18.0f
#define TB_WASHER_HALF_LENGTH 10.0f

static void tbWasherConfigure(tbWorldDef* def, float scale)
{
	int n = tbSuiteScaled(20, scale, 1);
	def->initialBodyCapacity = n * n * n + 2;
	def->initialShapeCapacity = def->initialBodyCapacity + 48;
}

// The 8 corners of the ring sector between radii r0 and r1 and angles a0, a1 about z, over the
// drum's length.
static void tbSectorPoints(vec3s* points, float r0, float r1, float a0, float a1)
{
	const float radii[2] = {r0, r1}, angles[2] = {a0, a1}, zs[2] = {-10.0f, 10.0f};
	int k = 0;
	for (int zi = 0; zi < 2; ++zi) {
		for (int ai = 0; ai < 2; ++ai) {
			for (int ri = 0; ri < 2; ++ri) {
				points[k++] =
				    tbSuiteVec(radii[ri] * cosf(angles[ai]), radii[ri] * sinf(angles[ai]), zs[zi]);
			}
		}
	}
}

static void* tbWasherCreate(tbWorldId worldId, float scale)
{
	tbStackState* s = tbStackNew(scale);
	if (s == NULL) {
		return NULL;
	}
	tbSuiteStaticBox(worldId, tbSuiteVec(0.0f, -1.0f, 0.0f), tbSuiteVec(60.0f, 1.0f, 60.0f));
	tbBodyDef kd = tbDefaultBodyDef();
	kd.type = tb_kinematicBody;
	kd.position = tbSuiteVec(0.0f, 21.0f, 0.0f);
	kd.angularVelocity = tbSuiteVec(0.0f, 0.0f, 25.0f * TB_SUITE_PI / 180.0f);
	kd.linearVelocity = tbSuiteVec(0.001f, -0.002f, 0.0f);
	s->mover = tbCreateBody(worldId, &kd);
	tbShapeDef sd = tbDefaultShapeDef();
	const float step = 2.0f * TB_SUITE_PI / 36.0f;
	// Each panel reaches a tenth of its angle into its neighbours, so the wall has no seams.
	const float overlap = 0.1f * step;
	vec3s points[8];
	for (int i = 0; i < 36; ++i) {
		float a0 = step * (float)i, a1 = step * (float)(i + 1);
		tbSectorPoints(points, TB_WASHER_INNER, TB_WASHER_OUTER, a0 - overlap, a1 + overlap);
		const tbHull* panel = tbStackHull(s, points, 8);
		if (i % 9 == 0) {
			tbSectorPoints(points, 14.0f, TB_WASHER_INNER, a0, a1);
		}
		const tbHull* paddle = i % 9 == 0 ? tbStackHull(s, points, 8) : NULL;
		if (panel == NULL || (i % 9 == 0 && paddle == NULL)) {
			tbStackDestroy(s);
			return NULL;
		}
		tbGeometry g = tbMakeHullShape(panel);
		tbCreateShape(s->mover, &sd, &g);
		if (paddle != NULL) {
			g = tbMakeHullShape(paddle);
			tbCreateShape(s->mover, &sd, &g);
		}
	}
	int n = tbSuiteScaled(20, scale, 1);
	const float a = 0.2f;
	tbGeometry cube = tbMakeBox(a, a, a);
	float start = -2.0f * a * 20.0f;
	for (int i = 0; i < n; ++i) {
		for (int j = 0; j < n; ++j) {
			for (int k = 0; k < n; ++k) {
				vec3s p =
				    tbSuiteVec(start + 4.0f * a * (float)i, 21.0f + start + 4.0f * a * (float)j,
				               start + 4.0f * a * (float)k);
				if (!tbStackAddBody(s, worldId, p, &cube, &sd, true)) {
					tbStackDestroy(s);
					return NULL;
				}
			}
		}
	}
	return s;
}

// Whether a point (the drum's frame) is inside the drum: within its inner radius plus half a
// cube's diagonal (a cube pressed into the wall) and between its open ends.
static bool tbInsideDrum(vec3s p)
{
	const float reach = TB_WASHER_INNER + 0.35f;
	return p.x * p.x + p.y * p.y <= reach * reach && fabsf(p.z) <= TB_WASHER_HALF_LENGTH;
}

// Every 4 steps: a cube inside the drum at the last look and now beyond its inner radius, still
// half a metre or more from either open end, has gone through the wall (a cube that leaves by an
// end is beyond the end first). Each cube counts once.
static void tbWasherStep(void* state, tbWorldId worldId, int stepIndex)
{
	(void)worldId;
	tbStackState* s = state;
	if (stepIndex % 4 != 0) {
		return;
	}
	if (s->inside == NULL) {
		s->inside = calloc((size_t)s->bodies.count + 1, 1);
		if (s->inside == NULL) {
			return;
		}
		for (int i = 0; i < s->bodies.count; ++i) {
			s->inside[i] = 1;
		}
	}
	tbTransform drum = tbBody_GetTransform(s->mover);
	for (int i = 0; i < s->bodies.count; ++i) {
		vec3s p = tbInvTransformPoint(drum, tbBody_GetPosition(s->bodies.ids[i]));
		bool inside = tbInsideDrum(p);
		if (s->inside[i] == 1 && !inside && fabsf(p.z) <= TB_WASHER_HALF_LENGTH - 0.5f) {
			s->throughWall += 1;
			s->inside[i] = 2; // counted
		} else if (s->inside[i] != 2) {
			s->inside[i] = inside ? 1 : 0;
		}
	}
}

// No cube went through the drum's wall. The drum is open at both ends, as in the reference
// scene, so the cubes outside it at the end (through an end, or through the wall) are counted
// apart and not held against the run.
static void tbWasherCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	tbStackState* s = state;
	tbWasherStep(state, worldId, 0);
	tbTransform drum = tbBody_GetTransform(s->mover);
	int outside = 0;
	for (int i = 0; i < s->bodies.count; ++i) {
		outside +=
		    tbInsideDrum(tbInvTransformPoint(drum, tbBody_GetPosition(s->bodies.ids[i]))) ? 0 : 1;
	}
	tbSuiteAddFigure(checks, "nonfinite_bodies", tbSuiteBodies_CountNonFinite(&s->bodies), 0.0);
	tbSuiteAddFigure(checks, "through_drum_wall", s->throughWall, 0.0);
	tbSuiteAddFigure(checks, "outside_drum", outside, (double)s->bodies.count);
	tbSuiteAddFigure(checks, "below_ground", tbSuiteBodies_CountBelow(&s->bodies, 0.0f), 0.0);
}

const tbSuiteScene tb_suiteWasher = {
    "washer",       "8000 cubes in a kinematic drum of 40 hulls turning about z",
    1000,           tbWasherConfigure,
    tbWasherCreate, tbWasherStep,
    tbWasherCheck,  tbStackDestroy,
};
