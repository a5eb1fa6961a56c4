// Joints as the solver sees them: ball, hinge, slider, fixed and distance constraints, solved in
// the soft step beside the contacts. Internal to the engine's step: not installed.
#pragma once

#include "tumble/base.h"
#include "tumble/joint_type.h"

/// One joint between two solver bodies (indices into the solver's body array, or TB_NULL_BODY
/// for the static world). Frames are relative to each body's centre of mass, in body axes. The
/// accumulated impulses carry over from step to step (warm starting); after a step they say
/// what the joint did. Made and kept by the engine (tbCreateHingeJoint and its siblings).
typedef struct tbJoint
{
	tbJointType type;
	int bodyA, bodyB;
	vec3s localAnchorA, localAnchorB; ///< m, from each centre of mass
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

	// Accumulated impulses (warm start in, this step's out).
	vec3s linearImpulse;  ///< point rows (ball, hinge, fixed; slider: the two perpendicular rows)
	vec3s angularImpulse; ///< angular rows (hinge: the two perpendicular rows; slider, fixed: 3)
	float axialImpulse;   ///< distance row (rigid or spring)
	float lowerImpulse, upperImpulse, motorImpulse, springImpulse;

	// Read after a step.
	float angle;  ///< hinge: rad; slider: translation along the axis, m; distance: length, m
	float speed;  ///< rad/s or m/s along the same coordinate
	vec3s force;  ///< reaction force on B, N (impulses of the last substep / its length)
	vec3s torque; ///< reaction torque on B about its anchor, N m
} tbJoint;

/// Joint softness: how stiffly the rigid rows pull their error back (Catto, "Soft constraints",
/// GDC 2011), as for the contacts.
typedef struct tbJointSoftness
{
	float hertz;        ///< Hz, capped at a quarter of the substep rate (60)
	float dampingRatio; ///< (2)
} tbJointSoftness;
