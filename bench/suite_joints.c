// Suite scenes of joints: a hanging grid of balls joined to their neighbours, and a rain of
// ragdolls dropped in groups onto triangle-mesh floors with a torus arch on each (the scenes of
// Box3D's benchmark app, built through Tumble's public API).
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_SUITE_PI 3.14159265358979f

// ---------------------------------------------------------------------------------------------
// joint_grid: 100 x 100 balls of radius 0.4 m, 1 m apart in the plane z = 0; the top row is
// static, every other ball hangs from the one above and the one to its left by ball joints at the
// midpoints. The balls never collide with each other (one filter category), sleep is off.

typedef struct tbGridState
{
	tbSuiteAnchor* anchors;
	int anchorCount;
	tbSuiteBodies bodies;
} tbGridState;

static void tbJointGridConfigure(tbWorldDef* def, float scale)
{
	int n = tbSuiteScaled(100, scale, 2);
	def->enableSleep = false;
	def->initialBodyCapacity = n * n;
	def->initialShapeCapacity = n * n;
}

static void tbJointGridDestroy(void* state)
{
	tbGridState* s = state;
	free(s->anchors);
	tbSuiteBodies_Free(&s->bodies);
	free(s);
}

static void* tbJointGridCreate(tbWorldId worldId, float scale)
{
	int n = tbSuiteScaled(100, scale, 2);
	tbGridState* s = calloc(1, sizeof *s);
	tbBodyId* ids = calloc((size_t)n * (size_t)n, sizeof *ids);
	if (s == NULL || ids == NULL) {
		free(ids);
		free(s);
		return NULL;
	}
	s->anchors = calloc((size_t)(2 * n * n), sizeof *s->anchors);
	if (s->anchors == NULL) {
		free(ids);
		tbJointGridDestroy(s);
		return NULL;
	}
	tbShapeDef sd = tbDefaultShapeDef();
	sd.filter.categoryBits = 2;
	sd.filter.maskBits = ~(uint64_t)2;
	tbGeometry ball = tbMakeSphere(0.4f);
	bool ok = true;
	// Column k, row i (down from the static top row i = 0).
	for (int k = 0; k < n && ok; ++k) {
		for (int i = 0; i < n && ok; ++i) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.type = i == 0 ? tb_staticBody : tb_dynamicBody;
			bd.enableSleep = false;
			bd.position = tbSuiteVec((float)k, -(float)i, 0.0f);
			tbBodyId id = tbCreateBody(worldId, &bd);
			ok = !TB_IS_NULL(id) && !TB_IS_NULL(tbCreateShape(id, &sd, &ball));
			ids[k * n + i] = id;
			if (ok && i > 0) {
				ok = tbSuiteBodies_Add(&s->bodies, id);
			}
			tbBallJointDef jd = tbDefaultBallJointDef();
			if (ok && i > 0) {
				jd.bodyIdA = ids[k * n + i - 1];
				jd.bodyIdB = id;
				jd.anchor = tbSuiteVec((float)k, 0.5f - (float)i, 0.0f);
				ok = !TB_IS_NULL(tbCreateBallJoint(worldId, &jd));
				s->anchors[s->anchorCount++] = tbSuiteMakeAnchor(jd.bodyIdA, id, jd.anchor);
			}
			// Two static balls of the top row are not joined (a joint needs a dynamic body).
			if (ok && k > 0 && i > 0) {
				jd.bodyIdA = ids[(k - 1) * n + i];
				jd.bodyIdB = id;
				jd.anchor = tbSuiteVec((float)k - 0.5f, -(float)i, 0.0f);
				ok = !TB_IS_NULL(tbCreateBallJoint(worldId, &jd));
				s->anchors[s->anchorCount++] = tbSuiteMakeAnchor(jd.bodyIdA, id, jd.anchor);
			}
		}
	}
	free(ids);
	if (!ok) {
		tbJointGridDestroy(s);
		return NULL;
	}
	return s;
}

static double tbMaxGap(const tbSuiteAnchor* anchors, int count)
{
	double worst = 0.0;
	for (int i = 0; i < count; ++i) {
		double g = tbSuiteAnchorGap(anchors + i);
		worst = (g > worst || isnan(g)) ? g : worst;
	}
	return worst;
}

// The grid is a stress test of joint stiffness under a large mass ratio along its chains: its gap
// is reported with a loose bound (a quarter of the ball spacing), the 1 cm bound is the ragdolls'.
static void tbJointGridCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	(void)worldId;
	tbGridState* s = state;
	tbSuiteAddFigure(checks, "nonfinite_bodies", tbSuiteBodies_CountNonFinite(&s->bodies), 0.0);
	tbSuiteAddFigure(checks, "max_joint_gap_m", tbMaxGap(s->anchors, s->anchorCount), 0.25);
}

const tbSuiteScene tb_suiteJointGrid = {
    "joint_grid",
    "100 x 100 balls hanging by ball joints, no contacts",
    100,
    tbJointGridConfigure,
    tbJointGridCreate,
    NULL,
    tbJointGridCheck,
    tbJointGridDestroy,
};

// ---------------------------------------------------------------------------------------------
// rain: 10 x 10 cells of 15 m, each a static body with two meshes: a flat floor of 8 x 8 squares
// and a torus (major radius 3.75 m, tube radius 1 m, 16 x 16 quads) standing upright in the plane
// z = 0 through the cell's centre, half under the floor. Groups of three ragdolls, 0.75 m apart,
// are dropped from 20 m over the cells' centres a column of cells at a time, twice every 64 steps
// (steps whose number has bits 0-3 and 5 clear, the reference app's schedule); once every column
// has a group, each drop replaces the oldest column's groups (destroyed and made again).
//
// The ragdoll is the reference's human, erincatto/box3d shared/human.c, with its numbers
// (tb_bones): 14 bodies (pelvis, spine_01 to spine_03, neck, head, thighs, calves, upper and lower
// arms) at the human's reference frames from the drop point, each with one capsule that the
// human gives as a segment in the body frame and a radius (here tbMakeCapsule along the shape's
// y, turned and placed onto that segment by its local pose), at the default density of both
// engines (water's) and with rolling resistance 0.2. Knees and elbows are hinges (the reference's
// revolute joints), the rest ball joints (its spherical joints), each between the human's two
// joint frames, one on the parent and one on the child: a hinge turns about the frames' z axis
// within its stops; a ball joint keeps the child's z axis within a round cone about the parent's
// and its twist about it within a range. Every joint has the rain scene's spring (1 Hz, damping
// ratio 0.7) towards the pose where its two frames coincide, and joint friction of 5 N m times the
// bone's share (the neck's 0.8, the head's 0.4, 1 elsewhere): the hinge's motor of speed 0, the
// ball joint's friction torque for the reference's motor of zero velocity.
//
// Tumble's joints take one world frame at creation and count their angles from the creation
// pose, so each child is made where its joint frame meets its parent's, the joint made there and
// the child then put at its reference frame (tbRagdollCreate): both bodies hold the reference's
// joint frames, and where those do not meet in the reference pose (the hips' anchors, a few of
// the spine's and the head's, and the turned frames of the shoulders) the joints start out of
// place by as much as the reference's do, and pull together as its do.
//
// Filtering is the human's: spine_01 and the thighs of one cell's ragdolls share the filter group
// minus the cell's index and never collide with each other. The human also keeps its two thighs
// apart with a filter joint, which Tumble does not have; the thighs already share the group in
// every cell but the first, whose index, and so whose group, is 0: there each ragdoll gives its
// thighs a negative group of their own instead, which keeps the same pairs apart.

#define TB_RAIN_CELL 15.0f
#define TB_RAIN_GRID 10
#define TB_RAIN_GROUP 3
#define TB_RAGDOLL_BONES 14
#define TB_RAGDOLL_JOINTS 13
#define TB_RAGDOLL_FRICTION 5.0f ///< the rain scene's joint friction torque, N m
#define TB_RAGDOLL_HERTZ 1.0f    ///< the rain scene's joint spring, Hz
#define TB_RAGDOLL_DAMPING 0.7f  ///< and its damping ratio

/// Which filter group a bone's capsule takes (tbRagdollCreate).
typedef enum tbBoneGroup
{
	tb_boneNoGroup,   ///< none: collides with everything
	tb_boneCellGroup, ///< the cell's group
	tb_boneThighGroup ///< the cell's group, or the ragdoll's own where the cell has none
} tbBoneGroup;

/// A bone's capsule and its filter group.
typedef struct tbBoneShape
{
	float ends[6]; ///< the capsule's segment, its two ends in the body frame, m
	float radius;  ///< m
	tbBoneGroup group;
} tbBoneShape;

/// A bone's joint to its parent.
typedef struct tbBoneJoint
{
	int parent;         ///< -1 for the pelvis (no joint)
	bool hinge;         ///< a hinge (the reference's revolute joint), else a ball joint
	float cone;         ///< ball: the cone's half angle, degrees
	float lower, upper; ///< ball: the twist range, hinge: the stops, degrees
	float friction;     ///< the bone's share of TB_RAGDOLL_FRICTION
} tbBoneJoint;

/// A bone: poses are an origin, m, and a rotation (x, y, z, w).
typedef struct tbBoneSpec
{
	float frame[7]; ///< the body's reference frame, from the drop point
	tbBoneShape shape;
	tbBoneJoint joint;
	float frameA[7]; ///< the joint frame on the parent, in the parent's frame
	float frameB[7]; ///< the joint frame on this bone, in its frame
} tbBoneSpec;

// The human's bones in its order; a parent comes before its children.
static const tbBoneSpec tb_bones[TB_RAGDOLL_BONES] = {
    // pelvis
    {{0.0f, 0.932087f, -0.051708f, 0.739169f, 0.0f, 0.0f, 0.673520f},
     {{0.07f, 0.0f, -0.08f, -0.07f, 0.0f, -0.08f}, 0.13f, tb_boneNoGroup},
     {-1, false, 0.0f, 0.0f, 0.0f, 0.0f},
     {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f},
     {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f}},
    // spine_01
    {{0.0f, 1.113505f, -0.03481f, 0.739973f, 0.0f, 0.0f, 0.672637f},
     {{0.06f, 0.0f, -0.052264f, -0.06f, 0.0f, -0.052264f}, 0.12f, tb_boneCellGroup},
     {0, false, 25.0f, -15.0f, 15.0f, 1.0f},
     {0.0f, 0.0f, -0.182204f, -0.999999f, 0.0f, 0.0f, 0.001194f},
     {0.0f, 0.0f, -0.007736f, -1.0f, 0.0f, 0.0f, 0.0f}},
    // spine_02
    {{0.0f, 1.194336f, -0.027087f, 0.703611f, 0.0f, 0.0f, 0.710586f},
     {{0.08f, -0.015133f, -0.091801f, -0.08f, -0.015133f, -0.091801f}, 0.10f, tb_boneNoGroup},
     {1, false, 25.0f, -15.0f, 15.0f, 1.0f},
     {0.0f, 0.0f, -0.088935f, -0.998619f, 0.0f, 0.0f, -0.052540f},
     {0.0f, 0.0f, -0.008199f, -1.0f, 0.0f, 0.0f, 0.0f}},
    // spine_03
    {{0.0f, 1.31043f, -0.028232f, 0.669856f, 0.000001f, -0.000001f, 0.742491f},
     {{0.11f, -0.039753f, -0.13f, -0.11f, -0.039753f, -0.13f}, 0.145f, tb_boneNoGroup},
     {2, false, 15.0f, -10.0f, 10.0f, 1.0f},
     {0.0f, 0.0f, -0.124298f, -0.998921f, 0.000001f, -0.000001f, -0.046434f},
     {0.0f, 0.0f, 0.0f, -1.0f, 0.0f, -0.000001f, 0.0f}},
    // neck
    {{0.0f, 1.575582f, -0.055837f, 0.879922f, 0.0f, 0.0f, 0.475118f},
     {{-0.000001f, 0.0f, -0.02f, 0.0f, -0.005f, -0.08f}, 0.07f, tb_boneNoGroup},
     {3, false, 45.0f, -15.0f, 15.0f, 0.8f},
     {0.000001f, -0.000259f, -0.266585f, -0.942192f, -0.000001f, 0.0f, 0.335074f},
     {0.0f, 0.0f, 0.0f, -1.0f, 0.0f, -0.000001f, 0.0f}},
    // head
    {{0.0f, 1.653348f, -0.003241f, 0.750288f, 0.0f, 0.0f, 0.661111f},
     {{-0.000001f, 0.016892f, -0.05869f, 0.0f, -0.003629f, -0.115072f}, 0.0975f, tb_boneNoGroup},
     {4, false, 15.0f, -15.0f, 15.0f, 0.4f},
     {0.0f, 0.001321f, -0.093873f, -0.974301f, 0.0f, 0.0f, -0.225251f},
     {0.0f, 0.001268f, -0.005104f, -1.0f, 0.0f, 0.0f, 0.0f}},
    // thigh_l
    {{0.090416f, 0.986104f, -0.035090f, -0.703287f, -0.070715f, 0.053866f, 0.705327f},
     {{0.023719f, 0.006008f, -0.039068f, -0.064492f, -0.004664f, -0.424718f},
      0.09f,
      tb_boneThighGroup},
     {0, false, 10.0f, -60.0f, 40.0f, 1.0f},
     {0.05f, 0.011537f, -0.055325f, -0.714896f, -0.022305f, -0.698361f, -0.026790f},
     {0.0f, 0.0f, 0.0f, -0.002064f, 0.758987f, 0.017046f, 0.650880f}},
    // calf_l
    {{0.101198f, 0.527027f, -0.037374f, -0.653328f, -0.066860f, 0.058582f, 0.751838f},
     {{0.001778f, 0.0f, 0.009841f, -0.078577f, 0.014707f, -0.41816f}, 0.075f, tb_boneNoGroup},
     {6, true, 0.0f, -5.0f, 45.0f, 1.0f},
     {-0.069989f, 0.000253f, -0.453844f, -0.000677f, 0.760087f, 0.105674f, 0.641171f},
     {0.0f, 0.0f, 0.0f, -0.044589f, 0.765540f, 0.053368f, 0.639619f}},
    // thigh_r
    {{-0.090416f, 0.986104f, -0.03509f, -0.703287f, 0.070715f, -0.053865f, 0.705326f},
     {{-0.023719f, 0.006008f, -0.039068f, 0.064492f, -0.004664f, -0.424718f},
      0.09f,
      tb_boneThighGroup},
     {0, false, 10.0f, -30.0f, 60.0f, 1.0f},
     {-0.05f, 0.011537f, -0.055326f, -0.039089f, -0.714094f, 0.043177f, 0.697623f},
     {0.0f, 0.0f, 0.0f, 0.758805f, -0.019886f, -0.651012f, -0.001759f}},
    // calf_r
    {{-0.101198f, 0.527027f, -0.037373f, -0.653327f, 0.06686f, -0.058582f, 0.751839f},
     {{-0.001820f, 0.0f, 0.010071f, 0.077883f, 0.014825f, -0.418047f}, 0.075f, tb_boneNoGroup},
     {8, true, 0.0f, -45.0f, 5.0f, 1.0f},
     {0.069988f, 0.000253f, -0.453844f, 0.760086f, -0.000675f, -0.641171f, -0.105676f},
     {0.0f, 0.0f, 0.0f, 0.765540f, -0.044589f, -0.639619f, -0.053368f}},
    // upper_arm_l
    {{0.20378f, 1.484275f, -0.115897f, 0.143082f, 0.695980f, -0.690130f, 0.13733f},
     {{0.0f, 0.0f, 0.0f, -0.091118f, 0.037775f, 0.229719f}, 0.075f, tb_boneNoGroup},
     {3, false, 60.0f, -5.0f, 5.0f, 1.0f},
     {0.203780f, -0.069369f, -0.181921f, -0.278486f, 0.445600f, -0.097014f, 0.845266f},
     {0.0f, 0.0f, 0.0f, -0.201396f, -0.001586f, 0.901850f, 0.382234f}},
    // lower_arm_l
    {{0.305614f, 1.242908f, -0.117599f, 0.165048f, 0.563437f, -0.802002f, 0.109959f},
     {{0.0f, 0.0f, 0.0f, -0.142406f, 0.039392f, 0.261092f}, 0.05f, tb_boneNoGroup},
     {10, true, 0.0f, -5.0f, 60.0f, 1.0f},
     {-0.095482f, 0.039584f, 0.240723f, 0.512487f, -0.180629f, 0.839474f, 0.003742f},
     {0.0f, 0.0f, 0.0f, 0.503803f, -0.029831f, 0.858168f, 0.094017f}},
    // upper_arm_r
    {{-0.20378f, 1.484276f, -0.115899f, 0.143083f, -0.695978f, 0.690132f, 0.137329f},
     {{0.0f, 0.0f, 0.0f, 0.091118f, 0.037775f, 0.229718f}, 0.075f, tb_boneNoGroup},
     {3, false, 60.0f, -5.0f, 5.0f, 1.0f},
     {-0.203779f, -0.069371f, -0.181922f, -0.253621f, -0.414842f, 0.106962f, 0.867261f},
     {0.0f, 0.0f, 0.0f, -0.201397f, 0.001587f, -0.901850f, 0.382233f}},
    // lower_arm_r
    {{-0.305614f, 1.242907f, -0.117599f, 0.165048f, -0.563437f, 0.802002f, 0.109959f},
     {{0.0f, 0.0f, 0.0f, 0.142406f, 0.039392f, 0.261092f}, 0.05f, tb_boneNoGroup},
     {12, true, 0.0f, -60.0f, 5.0f, 1.0f},
     {0.095484f, 0.039585f, 0.240723f, -0.180627f, 0.512487f, -0.003744f, -0.839474f},
     {0.0f, 0.0f, 0.0f, -0.029831f, 0.503803f, -0.094017f, -0.858169f}},
};

typedef struct tbRagdoll
{
	tbBodyId bones[TB_RAGDOLL_BONES];
	tbSuiteAnchor anchors[TB_RAGDOLL_JOINTS]; ///< the joint frames' origins on the two bodies
	tbJointId joints[TB_RAGDOLL_JOINTS];      ///< the joint of bone b to its parent at b - 1
	bool alive;
} tbRagdoll;

typedef struct tbRainState
{
	tbMesh floor, torus;
	tbRagdoll dolls[TB_RAIN_GRID * TB_RAIN_GRID][TB_RAIN_GROUP];
	int grid;        ///< cells per side (scaled)
	int filled;      ///< columns that have had a group
	int nextColumn;  ///< the column replaced next once all are filled
	int spawned;     ///< ragdolls made in all
	bool failed;     ///< a ragdoll could not be made
	double pastStop; ///< the largest angle a knee or elbow was seen past its stops, rad
} tbRainState;

#define TB_RAGDOLL_DEG (TB_SUITE_PI / 180.0f)

// A pose of the table: origin and rotation (x, y, z, w; normalised by tbMakeTransform).
static tbTransform tbRagdollPose(const float f[7])
{
	return tbMakeTransform(tbSuiteVec(f[0], f[1], f[2]), (versors){{f[3], f[4], f[5], f[6]}});
}

// The bone's capsule: the segment between its two ends becomes Tumble's capsule about its local
// y axis, centred on the segment's midpoint and turned from y onto it by *pose.
static tbGeometry tbRagdollCapsule(const tbBoneSpec* spec, tbTransform* pose)
{
	vec3s p1 = tbSuiteVec(spec->shape.ends[0], spec->shape.ends[1], spec->shape.ends[2]);
	vec3s p2 = tbSuiteVec(spec->shape.ends[3], spec->shape.ends[4], spec->shape.ends[5]);
	vec3s d = glms_vec3_sub(p2, p1);
	float length = glms_vec3_norm(d);
	d = glms_vec3_scale(d, 1.0f / length);
	// The shortest turn from y to d: (y x d, 1 + y . d) normalised; half a turn about x when d
	// is -y.
	versors q = {{d.z, 0.0f, -d.x, 1.0f + d.y}};
	if (1.0f + d.y < 1e-6f) {
		q = (versors){{1.0f, 0.0f, 0.0f, 0.0f}};
	}
	*pose = tbMakeTransform(glms_vec3_scale(glms_vec3_add(p1, p2), 0.5f), q);
	return tbMakeCapsule(spec->shape.radius, 0.5f * length);
}

static void tbRagdollDestroy(tbRagdoll* doll)
{
	for (int b = 0; b < TB_RAGDOLL_BONES; ++b) {
		if (tbBody_IsValid(doll->bones[b])) {
			tbDestroyBody(doll->bones[b]); // its joints go with it
		}
	}
	memset(doll, 0, sizeof *doll);
}

// The human dropped at `drop` (its bodies' reference frames are from there). The capsules of
// spine_01 and the thighs take the cell's filter group `group` (negative; 0 for none); where it
// is 0 the thighs take `thighGroup`, a negative group of this ragdoll alone, for the human's
// filter joint between them. Each joint is made with its child where the child's joint frame
// meets the parent's, so that the joint's frames on both bodies are the reference's and its
// angles count from where those frames coincide; the child is then put at its reference frame.
static bool tbRagdollCreate(tbRagdoll* doll, tbWorldId worldId, vec3s drop, int group,
                            int thighGroup)
{
	memset(doll, 0, sizeof *doll);
	doll->alive = true;
	for (int b = 0; b < TB_RAGDOLL_BONES; ++b) {
		const tbBoneSpec* spec = tb_bones + b;
		tbTransform reference = tbRagdollPose(spec->frame);
		reference.p = glms_vec3_add(drop, reference.p);
		tbTransform made = reference, frameA = tbTransformIdentity();
		tbTransform localA = tbRagdollPose(spec->frameA), localB = tbRagdollPose(spec->frameB);
		if (spec->joint.parent >= 0) {
			// The child's pose with its frame on the parent's: frameA * localB^-1.
			frameA = tbMulTransforms(tbBody_GetTransform(doll->bones[spec->joint.parent]), localA);
			made = tbMulTransforms(frameA, tbInvMulTransforms(localB, tbTransformIdentity()));
		}
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = made.p;
		bd.rotation = made.q;
		doll->bones[b] = tbCreateBody(worldId, &bd);
		tbShapeDef sd = tbDefaultShapeDef();
		sd.rollingResistance = 0.2f;
		if (spec->shape.group == tb_boneCellGroup ||
		    (spec->shape.group == tb_boneThighGroup && group != 0)) {
			sd.filter.groupIndex = group;
		} else if (spec->shape.group == tb_boneThighGroup) {
			sd.filter.groupIndex = thighGroup;
		}
		tbGeometry capsule = tbRagdollCapsule(spec, &sd.localPose);
		if (TB_IS_NULL(doll->bones[b]) ||
		    TB_IS_NULL(tbCreateShape(doll->bones[b], &sd, &capsule))) {
			return false;
		}
		if (spec->joint.parent < 0) {
			continue;
		}
		tbBodyId parent = doll->bones[spec->joint.parent];
		// The frames' z axis is the hinge's axis, the ball joint's twist axis and the centre of
		// its cone; x is where the twist counts from.
		vec3s z = tbRotateVector(frameA.q, tbSuiteVec(0.0f, 0.0f, 1.0f));
		float torque = spec->joint.friction * TB_RAGDOLL_FRICTION;
		tbJointId joint;
		if (!spec->joint.hinge) {
			tbBallJointDef jd = tbDefaultBallJointDef();
			jd.bodyIdA = parent;
			jd.bodyIdB = doll->bones[b];
			jd.anchor = frameA.p;
			jd.twistAxis = z;
			jd.swingAxis = tbRotateVector(frameA.q, tbSuiteVec(1.0f, 0.0f, 0.0f));
			jd.enableCone = true;
			jd.coneAngle1 = spec->joint.cone * TB_RAGDOLL_DEG;
			jd.coneAngle2 = spec->joint.cone * TB_RAGDOLL_DEG;
			jd.enableTwistLimit = true;
			jd.lowerTwist = spec->joint.lower * TB_RAGDOLL_DEG;
			jd.upperTwist = spec->joint.upper * TB_RAGDOLL_DEG;
			jd.enableSpring = true;
			jd.hertz = TB_RAGDOLL_HERTZ;
			jd.dampingRatio = TB_RAGDOLL_DAMPING;
			jd.maxFrictionTorque = torque;
			joint = tbCreateBallJoint(worldId, &jd);
		} else {
			tbHingeJointDef jd = tbDefaultHingeJointDef();
			jd.bodyIdA = parent;
			jd.bodyIdB = doll->bones[b];
			jd.anchor = frameA.p;
			jd.axis = z;
			jd.enableLimit = true;
			jd.lowerAngle = spec->joint.lower * TB_RAGDOLL_DEG;
			jd.upperAngle = spec->joint.upper * TB_RAGDOLL_DEG;
			jd.enableSpring = true;
			jd.hertz = TB_RAGDOLL_HERTZ;
			jd.dampingRatio = TB_RAGDOLL_DAMPING;
			jd.enableMotor = true;
			jd.motorSpeed = 0.0f;
			jd.maxMotorTorque = torque;
			joint = tbCreateHingeJoint(worldId, &jd);
		}
		doll->joints[b - 1] = joint;
		if (TB_IS_NULL(joint)) {
			return false;
		}
		tbBody_SetTransform(doll->bones[b], reference.p, reference.q);
		doll->anchors[b - 1] = (tbSuiteAnchor){parent, doll->bones[b], localA.p, localB.p};
	}
	return true;
}

// The group of cell (row, column): made again if it exists.
static void tbRainDropGroup(tbRainState* s, tbWorldId worldId, int row, int column)
{
	float span = TB_RAIN_CELL * (float)s->grid;
	vec3s drop = tbSuiteVec(-0.5f * span + TB_RAIN_CELL * ((float)column + 0.5f), 20.0f,
	                        -0.5f * span + TB_RAIN_CELL * ((float)row + 0.5f));
	for (int k = 0; k < TB_RAIN_GROUP; ++k) {
		tbRagdoll* doll = &s->dolls[row * TB_RAIN_GRID + column][k];
		if (doll->alive) {
			tbRagdollDestroy(doll);
		}
		// The cells' groups are 0 to -(grid^2 - 1); the thighs' own groups come after them.
		if (!tbRagdollCreate(doll, worldId, drop, -(row * s->grid + column),
		                     -(s->grid * s->grid + k + 1))) {
			s->failed = true;
		}
		s->spawned += 1;
		drop.x += 0.75f;
	}
}

// A flat square floor of n x n cells of size `cell`, centred on the origin, facing +y.
static bool tbRainFloorMesh(tbMesh* mesh, int n, float cell)
{
	int nv = (n + 1) * (n + 1), nt = 2 * n * n;
	vec3s* v = malloc((size_t)nv * sizeof *v);
	int* idx = malloc((size_t)nt * 3 * sizeof *idx);
	bool ok = v != NULL && idx != NULL;
	for (int i = 0; ok && i <= n; ++i) {
		for (int j = 0; j <= n; ++j) {
			v[i * (n + 1) + j] = tbSuiteVec(cell * ((float)i - 0.5f * (float)n), 0.0f,
			                                cell * ((float)j - 0.5f * (float)n));
		}
	}
	for (int i = 0, t = 0; ok && i < n; ++i) {
		for (int j = 0; j < n; ++j) {
			int a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
			// (a, b, d) and (d, c, a): counter-clockwise seen from +y.
			int tri[6] = {a, b, d, d, c, a};
			memcpy(idx + 6 * t++, tri, sizeof tri);
		}
	}
	char message[256] = "out of memory";
	ok = ok && tbBuildMesh(v, nv, idx, nt, mesh, message, (int)sizeof message);
	if (!ok) {
		fprintf(stderr, "rain floor mesh: %s\n", message);
	}
	free(v);
	free(idx);
	return ok;
}

// A torus about the z axis (in the plane z = 0) of major radius R and tube radius r, m x n quads,
// its triangles facing out of the tube.
static bool tbRainTorusMesh(tbMesh* mesh, int m, int n, float R, float r)
{
	int nv = m * n, nt = 2 * m * n;
	vec3s* v = malloc((size_t)nv * sizeof *v);
	int* idx = malloc((size_t)nt * 3 * sizeof *idx);
	bool ok = v != NULL && idx != NULL;
	for (int i = 0; ok && i < m; ++i) {
		float u = 2.0f * TB_SUITE_PI * (float)i / (float)m; // round the ring
		for (int j = 0; j < n; ++j) {
			float w = 2.0f * TB_SUITE_PI * (float)j / (float)n; // round the tube
			float rho = R + r * cosf(w);
			v[i * n + j] = tbSuiteVec(rho * cosf(u), rho * sinf(u), r * sinf(w));
		}
	}
	for (int i = 0, t = 0; ok && i < m; ++i) {
		for (int j = 0; j < n; ++j) {
			int a = i * n + j, b = i * n + (j + 1) % n;
			int c = ((i + 1) % m) * n + j, d = ((i + 1) % m) * n + (j + 1) % n;
			int tri[6] = {a, c, d, d, b, a};
			memcpy(idx + 6 * t++, tri, sizeof tri);
		}
	}
	if (ok) {
		// Face the triangles out of the tube: the first one's normal against the tube's outward
		// direction at its first corner (the tube centre of ring angle 0 is (R, 0, 0)).
		vec3s e1 = glms_vec3_sub(v[idx[1]], v[idx[0]]), e2 = glms_vec3_sub(v[idx[2]], v[idx[0]]);
		vec3s out = glms_vec3_sub(v[idx[0]], tbSuiteVec(R, 0.0f, 0.0f));
		if (glms_vec3_dot(glms_vec3_cross(e1, e2), out) < 0.0f) {
			for (int t = 0; t < nt; ++t) {
				int swap = idx[3 * t + 1];
				idx[3 * t + 1] = idx[3 * t + 2];
				idx[3 * t + 2] = swap;
			}
		}
	}
	char message[256] = "out of memory";
	ok = ok && tbBuildMesh(v, nv, idx, nt, mesh, message, (int)sizeof message);
	if (!ok) {
		fprintf(stderr, "rain torus mesh: %s\n", message);
	}
	free(v);
	free(idx);
	return ok;
}

static void tbRainConfigure(tbWorldDef* def, float scale)
{
	int grid = tbSuiteScaled(TB_RAIN_GRID, scale, 1);
	def->initialBodyCapacity = grid * grid * (1 + TB_RAIN_GROUP * TB_RAGDOLL_BONES);
	def->initialShapeCapacity = def->initialBodyCapacity + grid * grid;
}

static void tbRainDestroy(void* state)
{
	tbRainState* s = state;
	tbDestroyMesh(&s->floor);
	tbDestroyMesh(&s->torus);
	free(s);
}

static void* tbRainCreate(tbWorldId worldId, float scale)
{
	tbRainState* s = calloc(1, sizeof *s);
	if (s == NULL) {
		return NULL;
	}
	s->grid = tbSuiteScaled(TB_RAIN_GRID, scale, 1);
	if (!tbRainFloorMesh(&s->floor, 8, TB_RAIN_CELL / 8.0f) ||
	    !tbRainTorusMesh(&s->torus, 16, 16, 0.25f * TB_RAIN_CELL, 1.0f)) {
		tbRainDestroy(s);
		return NULL;
	}
	float span = TB_RAIN_CELL * (float)s->grid;
	tbGeometry floorShape = tbMakeMeshShape(&s->floor), torusShape = tbMakeMeshShape(&s->torus);
	tbShapeDef sd = tbDefaultShapeDef();
	for (int i = 0; i < s->grid; ++i) {
		for (int j = 0; j < s->grid; ++j) {
			tbBodyDef bd = tbDefaultBodyDef();
			bd.position = tbSuiteVec(-0.5f * span + TB_RAIN_CELL * ((float)i + 0.5f), 0.0f,
			                         -0.5f * span + TB_RAIN_CELL * ((float)j + 0.5f));
			tbBodyId id = tbCreateBody(worldId, &bd);
			tbCreateShape(id, &sd, &floorShape);
			tbCreateShape(id, &sd, &torusShape);
		}
	}
	return s;
}

// The largest angle a living ragdoll's knee or elbow is past its stops now, rad.
static double tbRainPastStops(const tbRainState* s)
{
	double worst = 0.0;
	for (int c = 0; c < TB_RAIN_GRID * TB_RAIN_GRID; ++c) {
		for (int k = 0; k < TB_RAIN_GROUP; ++k) {
			const tbRagdoll* doll = &s->dolls[c][k];
			for (int b = 1; doll->alive && b < TB_RAGDOLL_BONES; ++b) {
				if (!tb_bones[b].joint.hinge) {
					continue;
				}
				// The angle counts from the pose where the frames coincide, as the stops do.
				float lower = tb_bones[b].joint.lower * TB_RAGDOLL_DEG;
				float upper = tb_bones[b].joint.upper * TB_RAGDOLL_DEG;
				float angle = tbJoint_GetAngle(doll->joints[b - 1]);
				double past = (double)fmaxf(angle - upper, lower - angle);
				worst = past > worst || isnan(past) ? past : worst;
			}
		}
	}
	return worst;
}

static void tbRainStep(void* state, tbWorldId worldId, int stepIndex)
{
	tbRainState* s = state;
	if ((stepIndex & 3) == 0) {
		// Every 4 steps, as the washer looks at its cubes: the joints' stops at the landings.
		double past = tbRainPastStops(s);
		s->pastStop = past > s->pastStop || isnan(past) ? past : s->pastStop;
	}
	if ((stepIndex & 47) != 0) {
		return;
	}
	int column = s->filled < s->grid ? s->filled : s->nextColumn;
	for (int row = 0; row < s->grid; ++row) {
		tbRainDropGroup(s, worldId, row, column);
	}
	if (s->filled < s->grid) {
		s->filled += 1;
	} else {
		s->nextColumn = (s->nextColumn + 1) % s->grid;
	}
}

// Ragdoll joints hold (every anchor pair within 1 cm) and no bone is under the floor (its origin
// more than its largest radius below y = 0 over the floors; the tori's inside is not looked at).
// The floors end at the grid's edge: a ragdoll that rolls off the outer cells falls past it
// without going through anything, and is counted apart (off_the_floors), not held against the
// run. The largest angle a knee or elbow was seen past its stops (max_past_stop_rad, every 4
// steps) is reported with no bound: the stops are soft, and the issue sets no bar for them.
static void tbRainCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	(void)worldId;
	tbRainState* s = state;
	double gap = 0.0, perArm = 0.0;
	int below = 0, off = 0, nonfinite = 0, alive = 0;
	float edge = 0.5f * TB_RAIN_CELL * (float)s->grid;
	for (int c = 0; c < TB_RAIN_GRID * TB_RAIN_GRID; ++c) {
		for (int k = 0; k < TB_RAIN_GROUP; ++k) {
			tbRagdoll* doll = &s->dolls[c][k];
			if (!doll->alive) {
				continue;
			}
			alive += 1;
			for (int j = 0; j < TB_RAGDOLL_JOINTS; ++j) {
				double g = tbSuiteAnchorGap(doll->anchors + j);
				gap = (g > gap || isnan(g)) ? g : gap;
				double q = tbSuiteAnchorGapPerArm(doll->anchors + j);
				perArm = (q > perArm || isnan(q)) ? q : perArm;
			}
			for (int b = 0; b < TB_RAGDOLL_BONES; ++b) {
				tbTransform xf = tbBody_GetTransform(doll->bones[b]);
				bool finite =
				    isfinite(xf.p.x) && isfinite(xf.p.y) && isfinite(xf.p.z) && isfinite(xf.q.w);
				nonfinite += finite ? 0 : 1;
				bool over = fabsf(xf.p.x) <= edge && fabsf(xf.p.z) <= edge;
				below += xf.p.y >= -0.15f || !over ? 0 : 1;
				off += xf.p.y >= -0.15f || over ? 0 : 1;
			}
		}
	}
	tbSuiteAddFigure(checks, "nonfinite_bodies", nonfinite, 0.0);
	tbSuiteAddFigure(checks, "ragdoll_failures", s->failed ? 1.0 : 0.0, 0.0);
	tbSuiteAddFigure(checks, "ragdolls", alive, 1e9);
	tbSuiteAddFigure(checks, "max_joint_gap_m", gap, 0.01);
	// Informational: the largest gap over its joint's arms |rA| + |rB| (each anchor's distance
	// from its body's centre of mass), the measure the ragdolls' projection on demand keeps
	// (docs/joints.md); no bar of its own.
	tbSuiteAddFigure(checks, "max_joint_gap_per_arm", perArm, 1e9);
	// Informational: knees and elbows past their stops at the 20 m/s landings (soft stops; no bar).
	tbSuiteAddFigure(checks, "max_past_stop_rad", s->pastStop, 1e9);
	tbSuiteAddFigure(checks, "below_ground", below, 0.0);
	tbSuiteAddFigure(checks, "off_the_floors", off, (double)(alive * TB_RAGDOLL_BONES));
}

const tbSuiteScene tb_suiteRain = {
    "rain",       "ragdolls dropped in groups of 3 onto 100 mesh floors with torus arches",
    400,          tbRainConfigure,
    tbRainCreate, tbRainStep,
    tbRainCheck,  tbRainDestroy,
};
