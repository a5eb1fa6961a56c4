// Scene files (JSON, docs/scene-format.md): read, check every key, expand generators, build a
// world.
#pragma once

#include "tumble/joint.h"
#include "tumble/types.h"

#include <stddef.h>

/// Size of a scene error message, a body name and a key path, in bytes (terminator included).
#define TB_SCENE_MESSAGE_SIZE 512
#define TB_SCENE_NAME_SIZE 64
#define TB_SCENE_PATH_SIZE 96

/// Solver substeps when a scene does not set them (the world's recommended 4).
#define TB_SCENE_DEFAULT_SUBSTEPS 4

/// Why a scene could not be read or built. `message` is the whole line to show the user:
/// "scene.json:14: bodies[3].shape.half_extents: expected 3 numbers > 0".
typedef struct tbSceneError
{
	char message[TB_SCENE_MESSAGE_SIZE];
	int line;                         ///< 1-based line of the offending key; 0 when unreadable
	char keyPath[TB_SCENE_PATH_SIZE]; ///< "bodies[3].shape.half_extents"; "" for the whole file
} tbSceneError;

/// One shape of a compound body (docs/scene-format.md, "Compound bodies"): its frame in the body
/// frame and its own material.
typedef struct tbSceneShape
{
	tbGeometry shape;      ///< a hull shape points into tbSceneDef.hulls[hullIndex]
	int hullIndex;         ///< -1 unless the shape is a hull
	tbTransform localPose; ///< the shape's frame in the body frame ("position", "rotation")
	float density;         ///< kg/m^3 (the body's, else the defaults', unless the entry sets it)
	float friction;        ///< Coulomb coefficient
	float restitution;     ///< 0..1
	bool isSensor;         ///< "sensor": overlap events only, no collision response
	int line;              ///< line of its definition
} tbSceneShape;

/// One body of a scene, explicit or made by a generator, in the order of the file. Its position is
/// the body origin: the one shape's centre, or the frame a compound body's shapes are given in
/// (not the centre of mass, which follows from the shapes).
typedef struct tbSceneBody
{
	char name[TB_SCENE_NAME_SIZE]; ///< from the file, or "<generator><index>_<k>", or "body<index>"
	tbBodyType type;
	vec3s position;                   ///< of the body origin (the shape's centre), m
	versors rotation;                 ///< unit quaternion
	vec3s linearVelocity;             ///< m/s, world
	vec3s angularVelocity;            ///< rad/s, world
	tbGeometry shape;                 ///< a hull shape points into tbSceneDef.hulls[hullIndex]
	int hullIndex;                    ///< -1 unless the shape is a hull
	float density;                    ///< kg/m^3
	float mass;                       ///< kg when the file gives it (it overrides density), else 0
	float friction;                   ///< Coulomb coefficient
	float restitution;                ///< 0..1
	float rollingResistance;          ///< every shape's (tbShapeDef.rollingResistance)
	vec3s tangentVelocity;            ///< every shape's surface velocity, body frame, m/s
	int groupIndex;                   ///< every shape's tbFilter.groupIndex
	bool isSensor;                    ///< the one `shape` is a sensor ("sensor": true)
	int firstShape;                   ///< compound ("shapes"): its first in tbSceneDef.shapes
	int shapeCount;                   ///< compound: how many (0: the one `shape`)
	bool bullet;                      ///< continuous collision against dynamic bodies too
	bool hasInertia;                  ///< "inertia" given: replaces the shapes' inertia
	mat3s inertia;                    ///< about the centre of mass, body axes, kg m^2
	bool hasCenterOfMass;             ///< "center_of_mass" given: replaces the shapes' centre
	vec3s centerOfMass;               ///< body frame, from the body origin, m
	int line;                         ///< line of its definition, for errors found when building
	char keyPath[TB_SCENE_PATH_SIZE]; ///< "bodies[3]" or "generators[1]"
} tbSceneBody;

/// One joint of a scene (docs/scene-format.md, Joints): anchors and axes in world coordinates at
/// the scene's start, bodies by index into tbSceneDef.bodies.
typedef struct tbSceneJoint
{
	char name[TB_SCENE_NAME_SIZE]; ///< from the file, or "joint<index>"
	tbJointType type;
	int bodyA, bodyB;       ///< indices into tbSceneDef.bodies
	vec3s anchor;           ///< ball, hinge, slider, fixed: world, m
	vec3s anchorA, anchorB; ///< distance: a point on each body, world, m
	vec3s axis;             ///< hinge, slider, wheel (suspension): unit, world
	bool enableLimit;       ///< hinge, slider: "limits"; distance: "min_length"/"max_length"
	float lower, upper;     ///< rad, m, or min and max length, m
	bool enableMotor;       ///< "motor"
	float motorSpeed;       ///< rad/s or m/s
	float maxMotorForce;    ///< "max_torque" N m (hinge) or "max_force" N (slider)
	bool enableSpring;      ///< "spring"
	float hertz, dampingRatio;
	float length; ///< distance: rest length, m (0: the start distance)
	bool collideConnected;
	/// ball: "twist_axis" (twistAxis) and "swing_axis" (swingAxis); wheel: "spin_axis"
	/// (swingAxis); the suspension is `axis`. ball twist range: enableLimit, lower, upper.
	vec3s twistAxis, swingAxis;
	bool enableCone;                  ///< ball: "cone"
	float coneAngle1, coneAngle2;     ///< rad
	vec3s motorVelocity;              ///< ball: "motor" {"velocity", "max_torque"}, rad/s
	float maxFrictionTorque;          ///< ball: "friction", N m
	float steering;                   ///< wheel: "steering", rad
	float forceThreshold;             ///< "force_threshold", N (FLT_MAX: none)
	float torqueThreshold;            ///< "torque_threshold", N m (FLT_MAX: none)
	int line;                         ///< of its definition
	char keyPath[TB_SCENE_PATH_SIZE]; ///< "joints[2]"
} tbSceneJoint;

/// A parsed scene: the world settings and every body, generators expanded. Free it with
/// tbFreeSceneDef.
typedef struct tbSceneDef
{
	char fileName[256];    ///< as given to the reader, for messages and the run summary
	char description[256]; ///< the optional "description" key, else ""
	vec3s gravity;         ///< m/s^2
	float dt;              ///< fixed step, s
	int substeps;          ///< solver substeps per step
	int steps;             ///< how many steps `tumble run` takes: "steps", else seconds / dt
	bool sleep;            ///< islands may fall asleep
	bool continuous;       ///< continuous collision of fast bodies ("continuous", true)
	/// Approach speed below which contacts do not bounce, m/s ("restitution_threshold"; the
	/// world's default, tbDefaultWorldDef, when not given; 0 bounces every impact)
	float restitutionThreshold;
	tbSceneBody* bodies;
	int bodyCount;
	tbHull* hulls; ///< owned: the hull shapes of the bodies point here
	int hullCount;
	tbSceneShape* shapes; ///< owned: the shapes of compound bodies
	int shapeCount;
	tbMesh** meshes; ///< owned: the mesh shapes of the bodies point here
	int meshCount;
	tbHeightfield** heightfields; ///< owned: the heightfield shapes of the bodies point here
	int heightfieldCount;
	tbSceneJoint* joints; ///< owned
	int jointCount;
	/// Not read from the file: the world's tbWorldDef.workerCount, set by the caller before
	/// tbBuildScene (0: one worker).
	int workerCount;
} tbSceneDef;

/// A scene built into a world. bodyIds[i] is the body of def.bodies[i].
typedef struct tbScene
{
	tbSceneDef def;
	tbWorldId worldId;
	tbBodyId* bodyIds;
	tbJointId* jointIds; ///< jointIds[i] is the joint of def.joints[i]
} tbScene;

/// Parse scene text. `fileName` is used in messages only. On error *def is empty, *error says
/// where and what (every unknown key, wrong type, out-of-range value and bad shape is an error:
/// nothing is ignored), and false is returned.
TB_API bool tbParseScene(const char* text, size_t length, const char* fileName, tbSceneDef* def,
                         tbSceneError* error);

/// Read and parse a scene file.
TB_API bool tbReadSceneFile(const char* path, tbSceneDef* def, tbSceneError* error);

/// Release what a parsed scene owns and zero it. Safe on a zeroed def.
TB_API void tbFreeSceneDef(tbSceneDef* def);

/// Create a world holding the scene's bodies. Takes ownership of *def (zeroed on return, also on
/// failure). On failure nothing is left behind and *error names the body.
TB_API bool tbBuildScene(tbSceneDef* def, tbScene* scene, tbSceneError* error);

/// tbReadSceneFile then tbBuildScene.
TB_API bool tbLoadScene(const char* path, tbScene* scene, tbSceneError* error);

/// Destroy the world and free the scene. Safe on a zeroed scene.
TB_API void tbDestroyScene(tbScene* scene);

/// The directories searched for bundled scenes, in order (the working directory's scenes/, as in
/// a checkout, then the installed data directory, <prefix>/share/tumble/scenes). Returns how many
/// were written (at most `capacity`).
TB_API int tbGetBundledSceneDirs(const char** dirs, int capacity);

/// Resolve a scene argument: an existing file as is; otherwise a bundled scene by name
/// ("pyramid" or "pyramid.json"). Returns false when nothing matches.
TB_API bool tbFindScene(const char* nameOrPath, char* path, size_t pathSize);
