// Joints as the solver sees them: ball, hinge, slider, fixed and distance constraints, solved in
// the soft step beside the contacts. Internal to the engine's step: not installed.
#pragma once

#include "tumble/base.h"
#include "tumble/joint_type.h"

/// One joint's kind, settings and state: its frames in its bodies' axes, its limits, motor and
/// spring, and its accumulated impulses, which carry over from step to step (warm starting) and
/// after a step say what the joint did. Made and kept by the engine (tbCreateHingeJoint and its
/// siblings), which says for each solve where its bodies and anchors are (tbJointBinding).
typedef struct tbJoint
{
	tbJointType type;
	/// The joint frame in each body: axis (hinge and slider axis) and a reference direction
	/// perpendicular to it; the third axis is axis x reference. At creation the two frames
	/// coincide in the world; the hinge angle is the turn of B's reference about the axis.
	vec3s localAxisA, localAxisB;
	vec3s localRefA, localRefB;

	bool enableLimit;    ///< hinge: angle limits (rad); slider: translation (m); distance: length
	float lower, upper;  ///< the limits
	bool enableMotor;    ///< hinge and slider
	float motorSpeed;    ///< rad/s or m/s
	float maxMotorForce; ///< N m (hinge) or N (slider)
	bool enableSpring;   ///< hinge, slider, distance: a spring towards the rest value
	float hertz;         ///< spring frequency, Hz
	float dampingRatio;  ///< spring damping ratio
	float length;        ///< distance joint: rest length, m (rigid when no spring and no limit)

	// Ball joint: enableLimit, lower, upper are the twist range (rad), about the twist axis
	// (localAxisA, localAxisB); the cone is about it too, its first half angle towards the swing
	// reference (localRefA). enableSpring pulls B's frame to the target frame, enableMotor
	// drives wB - wA to motorVelocity (or, motorToTarget, B's frame to the target frame) with
	// at most maxMotorForce (N m).
	bool enableCone;                         ///< ball: B's twist axis within the cone
	float coneAngle1, coneAngle2;            ///< ball: half angles, rad, in (0, pi]
	bool motorToTarget;                      ///< ball: the motor holds the target frame
	vec3s motorVelocity;                     ///< ball: rad/s, wB - wA, A's body axes
	float maxFrictionTorque;                 ///< ball: N m (0: none)
	vec3s localTargetAxisA, localTargetRefA; ///< ball: B's target frame, A's body axes
	/// Wheel: the steering angle, rad: the spin axis (localRefA) turned about the suspension
	/// axis (localAxisA).
	float steering;

	// Accumulated impulses (warm start in, this step's out).
	vec3s linearImpulse;  ///< point rows (ball, hinge, fixed; slider: the two perpendicular rows)
	vec3s angularImpulse; ///< angular rows (hinge: the two perpendicular rows; slider, fixed: 3)
	float axialImpulse;   ///< distance row (rigid or spring)
	float lowerImpulse, upperImpulse, motorImpulse, springImpulse;
	vec3s springImpulse3, motorImpulse3, frictionImpulse3; ///< ball: the three-row angular parts
	float coneImpulse;                                     ///< ball: the cone row

	// Read after a step.
	float angle;  ///< hinge: rad; slider: translation along the axis, m; distance: length, m;
	              ///< wheel: suspension translation, m (ball: tbJointBallAngles)
	float speed;  ///< rad/s or m/s along the same coordinate
	vec3s force;  ///< reaction force on B, N (impulses of the last substep / its length)
	vec3s torque; ///< reaction torque on B about its anchor, N m

	// The solver's own, kept from one step to the next: the elimination order its joint group
	// had (tbOrderJointGroup). The group's size, a hash of its joints' graph in their input
	// order, and this joint's place in that order and in the elimination order.
	uint64_t orderGraph;
	int orderCount, orderIn, orderOut;
} tbJoint;

/// A joint as one solve sees it (the engine's gather): the joint itself (its settings, and its
/// impulses, read for the warm start and written back in place with what the step measured), its
/// bodies' indices into the solver's body array (TB_NULL_BODY: a body outside the solve, the
/// static world) and its anchors and frames on them: from each centre of mass in body axes, or
/// in world coordinates for a body outside the solve. The joint's own bodyA, bodyB and frames are
/// not read by the solver.
typedef struct tbJointBinding
{
	tbJoint* joint;
	int bodyA, bodyB;
	vec3s anchorA, anchorB; ///< m, from each centre of mass (world for a body outside the solve)
	vec3s axisA, refA;      ///< A's frame, body axes (world for a body outside the solve)
	vec3s axisB, refB;      ///< B's frame
} tbJointBinding;

/// Joint softness: how stiffly the rigid rows pull their error back (Catto, "Soft constraints",
/// GDC 2011), as for the contacts.
typedef struct tbJointSoftness
{
	float hertz;        ///< Hz, capped at a quarter of the substep rate (60)
	float dampingRatio; ///< (2)
} tbJointSoftness;

/// A ball joint's swing (the angle between the twist axes) and twist (B's reference turned back
/// by the swing, against A's reference about A's axis), rad, from its frames in world axes: the
/// step keeps them only where a limit, motor or spring needs them, so the engine's getters ask
/// here with the bodies' frames of now.
void tbJointBallAngles(const tbJoint* joint, vec3s axisA, vec3s refA, vec3s axisB, vec3s refB,
                       float* swing, float* twist);
