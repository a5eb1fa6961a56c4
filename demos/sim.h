// The demo's simulation: a world built from a scene (a scene file or one built in), stepped at a
// fixed rate, with mouse picking, thrown boxes and an energy history. GL-free: it also runs
// headless.
#pragma once

#include <stdio.h>
#include <tumble/scene.h>
#include <tumble/tumble.h>

/// Steps of kinetic energy and momentum kept for the live plot (5 s at 60 Hz).
#define DM_HISTORY 300
/// Built-in scenes and bundled scene files listed in the picker, at most.
#define DM_MAX_SCENES 32

/// The built-in scenes (a dmSceneEntry's `builtin`).
typedef enum dmBuiltinScene
{
	dm_builtinFallingBoxes,
	dm_builtinShapes,
	dm_builtinBridge,    ///< a plank bridge on hinges between two posts, boxes dropped on it
	dm_builtinChain,     ///< 24 capsule links on ball joints, released horizontally
	dm_builtinRagdoll,   ///< ragdolls (ball and hinge joints) dropped onto a staircase
	dm_builtinDoor,      ///< a door on a motorised hinge with limits, and a pendulum
	dm_builtinCar,       ///< a car: box chassis, four wheels on motorised hinges, ramps
	dm_builtinMaterials, ///< a conveyor, rolling resistance, a one-way platform, a kinematic lift
	dm_builtinMover,     ///< a character capsule on stairs and slopes, boxes, a turning platform
	dm_builtinCount
} dmBuiltinScene;

/// A joint of the scene with its anchor in each body's frame, to measure how far the anchors
/// drift apart (ball and hinge joints hold them together).
typedef struct dmJointRecord
{
	tbJointId id;
	vec3s localA, localB;
} dmJointRecord;

/// The per-step control and the figures of the joint scenes (demos/joint_scenes.c).
typedef struct dmSceneControl
{
	tbJointId door;                ///< the door's motorised hinge (null in other scenes)
	float doorSpeed;               ///< rad/s; its sign flips every doorPeriod
	float doorPeriod;              ///< s
	float doorTimer;               ///< s since the last flip
	float doorLowest, doorHighest; ///< the angles reached, rad

	tbBodyId chassis;            ///< the car's body (null in other scenes)
	tbJointId wheels[4];         ///< left front, left rear, right front, right rear hinges
	float wheelSpeed;            ///< rad/s at full throttle
	float throttle;              ///< -1 (back) to 1 (forward), from the keys
	float steer;                 ///< -1 (right) to 1 (left): the wheels' speed differs side to side
	bool autopilot;              ///< headless: drive forward, then turn left
	float carSpeed, carTopSpeed; ///< m/s along the ground
	vec3s carStart;

	int firstPlank, plankCount; ///< the bridge's planks among the bodies
	float postY;                ///< the height the bridge hangs from, m
	int chainEnd;               ///< the chain's last link among the bodies (-1: none)
	vec3s chainTop;
	tbShapeId oneWay; ///< the materials scene's one-way platform (demos/material_scenes.c)
	tbBodyId lift;    ///< its kinematic lift (null in other scenes)
	float liftTime;   ///< s along the lift's path
} dmSceneControl;

/// One entry of the scene picker.
typedef struct dmSceneEntry
{
	char name[64];  ///< "falling_boxes", "pyramid", ...
	char path[512]; ///< a scene file, or "" for a built-in scene
	int builtin;    ///< which built-in scene when path is ""
} dmSceneEntry;

/// Falling boxes first (entry 0), the built-in joint scenes next, then the bundled scene files by
/// name, then the shapes scene.
/// Returns how many were written.
int dmListScenes(dmSceneEntry* entries, int capacity);

/// Find a scene by name (built-in or bundled) or open a scene file by path.
bool dmFindSceneEntry(const char* nameOrPath, dmSceneEntry* entry, char* error, int errorSize);

typedef struct dmSim
{
	dmSceneEntry entry;
	tbWorldId worldId;
	tbBodyId* bodies;     ///< every body of the scene, then thrown boxes
	vec3s* startPosition; ///< of each body, for the headless summary's displacement
	int bodyCount, bodyCapacity;
	tbHull hull; ///< the hull of the built-in shapes scene (file scenes own theirs)
	bool ownsHull;
	dmJointRecord* joints; ///< the scene's ball and hinge joints
	int jointCount, jointCapacity;
	float jointGap; ///< the largest distance between a joint's two anchors after the last step, m
	float maxJointGap; ///< the largest since the scene started, m
	dmSceneControl control;
	tbScene scene; ///< a scene file's world and hulls (fromFile)
	bool fromFile;
	float dt; ///< fixed step, s
	int substeps;
	int steps; ///< how long a headless run lasts

	bool paused;
	int stepRequests; ///< single steps asked for while paused
	double accumulator;
	float stepMs; ///< the last step's time, smoothed
	int stepCount;
	int thrownCount;

	float energy[DM_HISTORY];   ///< kinetic energy, J, ring buffer
	float momentum[DM_HISTORY]; ///< |linear momentum|, kg m/s
	int historyHead, historyCount;

	tbBodyId picked;  ///< null when nothing is held
	vec3s pickLocal;  ///< the held point in the body frame
	vec3s pickTarget; ///< where the mouse pulls it, world
	float pickSavedDamping;
	/// Squared radii of gyration of the held body (I / m about its centre), the smallest and the
	/// mean of the three axes, m^2: they set how stiff the spring may be and how it damps a swing.
	float pickGyrationMin2, pickGyrationMean2;
} dmSim;

/// Build the scene's world. On failure writes one line into `error`.
bool dmSim_Load(dmSim* sim, const dmSceneEntry* entry, char* error, int errorSize);
// Worker threads for the worlds loaded from now on (tbWorldDef.workerCount; 1 to 64).
void dmSim_SetWorkerCount(int workerCount);
int dmSim_GetWorkerCount(void);
void dmSim_Destroy(dmSim* sim);

/// Rebuild the scene as it started (pause state kept).
bool dmSim_Reset(dmSim* sim, char* error, int errorSize);

/// Take one fixed step now (pick spring, step, history).
void dmSim_Step(dmSim* sim);

/// Advance by a frame of `frameSeconds`: as many fixed steps as fit (at most 4, so a slow frame
/// cannot snowball), or the single steps asked for while paused. Returns the steps taken.
int dmSim_Advance(dmSim* sim, double frameSeconds);

/// Add a body to the scene's list (drawn, framed, summarised). False when out of memory or null.
bool dmSim_AddBody(dmSim* sim, tbBodyId id);

/// Create a body with one shape and add it to the scene's list (dmSim_AddBody): the built-in
/// scenes' common step. Null when the world refuses either (tbGetLastError says why); the
/// shape's id in *shapeId when it is not null.
tbBodyId dmSim_CreateBody(dmSim* sim, const tbBodyDef* bodyDef, const tbShapeDef* shapeDef,
                          const tbGeometry* shape, tbShapeId* shapeId);

/// Add a ball or hinge joint joined at `anchor` (world, at creation) to the list whose anchors'
/// distance is measured. False when the joint is null or out of memory.
bool dmSim_AddJoint(dmSim* sim, tbJointId id, vec3s anchor);

/// The car's keys: throttle -1 to 1 (forward), steer -1 (right) to 1 (left). No effect elsewhere.
void dmSim_SetDrive(dmSim* sim, float throttle, float steer);

/// One line on the running scene (joint scenes: their figures and keys), or "" when nothing.
void dmSim_DescribeScene(const dmSim* sim, char* out, int size);

/// Throw a box from `origin` along the unit `direction`.
void dmSim_ThrowBox(dmSim* sim, vec3s origin, vec3s direction);

/// Grab the dynamic body first hit by the ray; returns the hit distance along it, or -1.
float dmSim_Pick(dmSim* sim, vec3s origin, vec3s direction, float maxDistance);
void dmSim_Release(dmSim* sim);

/// The held point in the world (valid while a body is held).
vec3s dmSim_PickPoint(const dmSim* sim);

/// Kinetic energy (J) and linear momentum (kg m/s) of every dynamic body.
void dmSim_Energy(const dmSim* sim, float* kinetic, vec3s* momentum);

/// Run `steps` fixed steps as fast as possible and print the `tumble run` summary (a line of
/// text, then the same JSON object as `tumble run --json`).
void dmSim_RunHeadless(dmSim* sim, int steps, FILE* out);
