// Joints between bodies: ball, hinge, slider, fixed and distance, with limits, motors and springs.
#pragma once

#include "tumble/types.h"

/// A joint handle (same layout and rules as tbBodyId: all zero is null, stale ids are detected).
typedef struct tbJointId
{
	int32_t index1;
	uint16_t world0;
	uint16_t reserved;
	uint32_t worldGeneration;
	uint32_t generation;
} tbJointId;

/// The null joint id.
static const tbJointId tb_nullJointId = {0, 0, 0, 0, 0};

/// A ball (spherical) joint: the two bodies share the point `anchor` (world, at creation) and
/// turn freely about it. A pendulum, a chain link, a ragdoll's shoulder. For a ragdoll, its turns
/// can be bounded (docs/joints.md, ball joint limits): B's twist axis within an elliptical cone
/// about A's, and B's twist about its axis within a range; a spring and a motor pull B's frame
/// to a target frame or drive its relative spin, and friction resists any relative turn.
typedef struct tbBallJointDef
{
	tbBodyId bodyIdA, bodyIdB; ///< one may be static; not the same body, not both static
	vec3s anchor;              ///< world point where the bodies are joined, m
	/// World direction at creation of the twist axis (both bodies' frames take it): the cone's
	/// axis on A, the axis B twists about ((0, 0, 1)).
	vec3s twistAxis;
	/// World direction at creation across twistAxis (made perpendicular to it here): the
	/// reference of the twist angle and of the cone's first half angle ((1, 0, 0)).
	vec3s swingAxis;
	bool enableCone; ///< keep B's twist axis within the cone (false)
	/// rad, in (0, pi]: how far B's twist axis may tilt towards +-swingAxis (pi/4)
	float coneAngle1;
	/// rad, in (0, pi]: how far towards +-(twistAxis x swingAxis) (pi/4); between the two the
	/// cone is an ellipse in the tilt's angle
	float coneAngle2;
	bool enableTwistLimit; ///< keep the twist within [lowerTwist, upperTwist] (false)
	float lowerTwist;      ///< rad, in [-pi, upperTwist]
	float upperTwist;      ///< rad, in [lowerTwist, pi]
	/// A spring pulling B's frame to the target frame (false); stiffness per axis
	/// k = (2 pi hertz)^2 / (IA^-1 + IB^-1) about the bodies' centres (docs/joints.md)
	bool enableSpring;
	float hertz;        ///< spring frequency, Hz, >= 0
	float dampingRatio; ///< spring damping ratio, >= 0 (1)
	/// The target frame: A's frame turned by this rotation, given in A's body axes (identity: the
	/// creation pose). The spring's rest pose and the motor's target when motorToTarget.
	versors targetRotation;
	bool enableMotor;        ///< drive B's turn relative to A with at most maxMotorTorque (false)
	bool motorToTarget;      ///< the motor holds the target frame; else it drives motorVelocity
	vec3s motorVelocity;     ///< wB - wA, rad/s, in A's body axes
	float maxMotorTorque;    ///< N m, >= 0
	float maxFrictionTorque; ///< joint friction: at most this torque against any turn, N m (0)
	bool collideConnected;   ///< let the two bodies' shapes collide (false)
	float forceThreshold;    ///< N: a reaction force above it makes a joint event (FLT_MAX: never)
	float torqueThreshold;   ///< N m: a reaction torque above it makes a joint event (FLT_MAX)
	void* userData;
} tbBallJointDef;

/// A hinge (revolute) joint: the bodies share `anchor` and turn relative to each other about
/// `axis` only. The angle is B's turn about the axis (right hand) from the creation pose.
typedef struct tbHingeJointDef
{
	tbBodyId bodyIdA, bodyIdB;
	vec3s anchor;          ///< world, m
	vec3s axis;            ///< world direction of the hinge (normalised here)
	bool enableLimit;      ///< keep the angle within [lowerAngle, upperAngle] (false)
	float lowerAngle;      ///< rad, <= 0 <= upperAngle is not required, lower <= upper is
	float upperAngle;      ///< rad
	bool enableMotor;      ///< drive the angular speed to motorSpeed (false)
	float motorSpeed;      ///< rad/s
	float maxMotorTorque;  ///< N m, >= 0
	bool enableSpring;     ///< a torsion spring towards the creation angle (false)
	float hertz;           ///< spring frequency, Hz, >= 0
	float dampingRatio;    ///< spring damping ratio, >= 0
	bool collideConnected; ///< (false)
	float forceThreshold;  ///< N: a reaction force above it makes a joint event (FLT_MAX: never)
	float torqueThreshold; ///< N m: a reaction torque above it makes a joint event (FLT_MAX)
	void* userData;
} tbHingeJointDef;

/// A slider (prismatic) joint: B moves relative to A along `axis` only, without turning. The
/// translation is B's anchor along the axis from the creation pose.
typedef struct tbSliderJointDef
{
	tbBodyId bodyIdA, bodyIdB;
	vec3s anchor;           ///< world, m
	vec3s axis;             ///< world direction of the rail (normalised here)
	bool enableLimit;       ///< keep the translation within [lowerTranslation, upperTranslation]
	float lowerTranslation; ///< m
	float upperTranslation; ///< m
	bool enableMotor;       ///< drive the speed along the axis to motorSpeed
	float motorSpeed;       ///< m/s
	float maxMotorForce;    ///< N, >= 0
	bool enableSpring;      ///< a spring towards the creation position
	float hertz;            ///< Hz
	float dampingRatio;     ///<
	bool collideConnected;  ///< (false)
	float forceThreshold;   ///< N: a reaction force above it makes a joint event (FLT_MAX: never)
	float torqueThreshold;  ///< N m: a reaction torque above it makes a joint event (FLT_MAX)
	void* userData;
} tbSliderJointDef;

/// A fixed (weld) joint: the bodies keep the relative pose they have at creation.
typedef struct tbFixedJointDef
{
	tbBodyId bodyIdA, bodyIdB;
	vec3s anchor;          ///< world, m: the point the weld holds exactly
	bool collideConnected; ///< (false)
	float forceThreshold;  ///< N: a reaction force above it makes a joint event (FLT_MAX: never)
	float torqueThreshold; ///< N m: a reaction torque above it makes a joint event (FLT_MAX)
	void* userData;
} tbFixedJointDef;

/// A distance joint: the points anchorA (on A) and anchorB (on B) keep a distance: exactly
/// `length`, or within [minLength, maxLength] (enableLimit), or pulled to `length` by a spring.
typedef struct tbDistanceJointDef
{
	tbBodyId bodyIdA, bodyIdB;
	vec3s anchorA, anchorB; ///< world points on each body at creation, m
	float length;           ///< rest length, m; 0 or less: the anchors' distance at creation
	bool enableLimit;       ///< a range instead of a rigid length (a rope: 0 to its length)
	float minLength;        ///< m, >= 0
	float maxLength;        ///< m, >= minLength
	bool enableSpring;      ///< a spring towards `length` instead of a rigid length
	float hertz;            ///< Hz
	float dampingRatio;     ///<
	bool collideConnected;  ///< (false)
	float forceThreshold;   ///< N: a reaction force above it makes a joint event (FLT_MAX: never)
	float torqueThreshold;  ///< N m: a reaction torque above it makes a joint event (FLT_MAX)
	void* userData;
} tbDistanceJointDef;

/// A wheel joint: body B (the wheel) spins about `spinAxis` and rides along `suspensionAxis` of
/// body A (the chassis) on a spring, within limits; a motor drives the spin and the spin axis
/// turns about the suspension axis by the steering angle (docs/joints.md, wheel joint).
typedef struct tbWheelJointDef
{
	tbBodyId bodyIdA; ///< the chassis
	tbBodyId bodyIdB; ///< the wheel
	vec3s anchor;     ///< world, m: the wheel's centre at creation
	/// World direction at creation of the wheel's travel on A ((0, 1, 0)); the translation counts
	/// along it from the creation pose
	vec3s suspensionAxis;
	/// World direction at creation of the axle (made perpendicular to the suspension axis),
	/// ((0, 0, 1))
	vec3s spinAxis;
	/// The suspension spring towards translation 0 (true). Its stiffness is
	/// k = m_s (2 pi hertz)^2 with m_s the mass of A felt at the anchor along the axis,
	/// 1 / (1/mA + (a x u) . IA^-1 (a x u)) (B's when A is static; docs/joints.md)
	bool enableSpring;
	float hertz;            ///< Hz, >= 0 (4)
	float dampingRatio;     ///< >= 0 (0.7): damping c = 2 dampingRatio m_s (2 pi hertz)
	bool enableLimit;       ///< keep the translation within [lower, upper] (false)
	float lowerTranslation; ///< m
	float upperTranslation; ///< m
	bool enableMotor;       ///< drive the spin (wB - wA along the axle) to motorSpeed (false)
	float motorSpeed;       ///< rad/s, right hand about the steered spin axis
	float maxMotorTorque;   ///< N m, >= 0
	float steeringAngle;    ///< rad: the spin axis turned about the suspension axis (0)
	bool collideConnected;  ///< (false)
	float forceThreshold;   ///< N: a reaction force above it makes a joint event (FLT_MAX: never)
	float torqueThreshold;  ///< N m: a reaction torque above it makes a joint event (FLT_MAX)
	void* userData;
} tbWheelJointDef;

/// Defaults: null bodies, anchors at the origin, axis +z (hinge) or +x (slider), everything
/// optional off, a rigid distance of the start length.
TB_API tbBallJointDef tbDefaultBallJointDef(void);
/// See tbDefaultBallJointDef.
TB_API tbHingeJointDef tbDefaultHingeJointDef(void);
/// See tbDefaultBallJointDef.
TB_API tbSliderJointDef tbDefaultSliderJointDef(void);
/// See tbDefaultBallJointDef.
TB_API tbFixedJointDef tbDefaultFixedJointDef(void);
/// See tbDefaultBallJointDef.
TB_API tbDistanceJointDef tbDefaultDistanceJointDef(void);
/// See tbDefaultBallJointDef; the wheel's spring is on (4 Hz, damping ratio 0.7).
TB_API tbWheelJointDef tbDefaultWheelJointDef(void);

/// Create a joint; both bodies wake. A bad definition (stale or equal bodies, both static, NaN,
/// a zero axis, lower > upper, negative force, frequency or length) returns the null id and says
/// why in tbGetLastError().
TB_API tbJointId tbCreateBallJoint(tbWorldId worldId, const tbBallJointDef* def);
/// See tbCreateBallJoint.
TB_API tbJointId tbCreateHingeJoint(tbWorldId worldId, const tbHingeJointDef* def);
/// See tbCreateBallJoint.
TB_API tbJointId tbCreateSliderJoint(tbWorldId worldId, const tbSliderJointDef* def);
/// See tbCreateBallJoint.
TB_API tbJointId tbCreateFixedJoint(tbWorldId worldId, const tbFixedJointDef* def);
/// See tbCreateBallJoint.
TB_API tbJointId tbCreateDistanceJoint(tbWorldId worldId, const tbDistanceJointDef* def);
/// See tbCreateBallJoint.
TB_API tbJointId tbCreateWheelJoint(tbWorldId worldId, const tbWheelJointDef* def);

/// Destroy a joint (destroying a body destroys its joints too); its bodies wake.
TB_API void tbDestroyJoint(tbJointId jointId);
/// True while the joint exists.
TB_API bool tbJoint_IsValid(tbJointId jointId);
/// The joint's type.
TB_API tbJointType tbJoint_GetType(tbJointId jointId);
/// The joint's first body.
TB_API tbBodyId tbJoint_GetBodyA(tbJointId jointId);
/// The joint's second body.
TB_API tbBodyId tbJoint_GetBodyB(tbJointId jointId);

/// Hinge: B's angle about the axis from the creation pose, rad, after the last step.
TB_API float tbJoint_GetAngle(tbJointId jointId);
/// Slider and wheel: B's translation along the (suspension) axis from the creation pose, m, after
/// the last step.
TB_API float tbJoint_GetTranslation(tbJointId jointId);
/// Distance: the anchors' distance after the last step, m.
TB_API float tbJoint_GetLength(tbJointId jointId);
/// The speed of the joint's coordinate (rad/s for a hinge, m/s for a slider or a distance).
TB_API float tbJoint_GetSpeed(tbJointId jointId);
/// The force the joint applied to body B in the last substep, N (the reaction on A is minus it).
TB_API vec3s tbJoint_GetReactionForce(tbJointId jointId);
/// The torque the joint applied to body B about the anchor in the last substep, N m.
TB_API vec3s tbJoint_GetReactionTorque(tbJointId jointId);
/// The motor's torque (hinge, N m) or force (slider, N) in the last substep.
TB_API float tbJoint_GetMotorForce(tbJointId jointId);

/// Hinge, slider, distance: turn the limits on or off.
TB_API void tbJoint_EnableLimit(tbJointId jointId, bool flag);
/// Hinge (rad), slider (m), distance (min and max length, m): lower <= upper.
TB_API void tbJoint_SetLimits(tbJointId jointId, float lower, float upper);
/// Hinge and slider: turn the motor on or off (the bodies wake).
TB_API void tbJoint_EnableMotor(tbJointId jointId, bool flag);
/// Hinge (rad/s) and slider (m/s): the motor's target speed (the bodies wake).
TB_API void tbJoint_SetMotorSpeed(tbJointId jointId, float speed);
/// Hinge (N m) and slider (N): the motor's largest torque or force, >= 0.
TB_API void tbJoint_SetMaxMotorForce(tbJointId jointId, float force);
/// Hinge, slider, distance: turn the spring on or off.
TB_API void tbJoint_EnableSpring(tbJointId jointId, bool flag);
/// Hinge, slider, distance: the spring's frequency (Hz) and damping ratio, both >= 0.
TB_API void tbJoint_SetSpring(tbJointId jointId, float hertz, float dampingRatio);
/// The joint's user data.
TB_API void tbJoint_SetUserData(tbJointId jointId, void* userData);
/// See tbJoint_SetUserData.
TB_API void* tbJoint_GetUserData(tbJointId jointId);

/// Ball: the cone on or off and its half angles, rad, in (0, pi] (the twist range is
/// tbJoint_EnableLimit and tbJoint_SetLimits; the spring tbJoint_EnableSpring and
/// tbJoint_SetSpring; the motor tbJoint_EnableMotor and tbJoint_SetMaxMotorForce, N m).
TB_API void tbBallJoint_SetCone(tbJointId jointId, bool enable, float coneAngle1, float coneAngle2);
/// Ball: the motor's target wB - wA, rad/s, in A's body axes (the motor drives it unless
/// motorToTarget).
TB_API void tbBallJoint_SetMotorVelocity(tbJointId jointId, vec3s velocity);
/// Ball: the target frame (A's frame turned by `rotation`, in A's body axes), and whether the
/// motor holds it (else it drives the motor velocity).
TB_API void tbBallJoint_SetTarget(tbJointId jointId, versors rotation, bool motorToTarget);
/// Ball: the joint friction's largest torque, N m, >= 0.
TB_API void tbBallJoint_SetMaxFrictionTorque(tbJointId jointId, float torque);
/// Wheel: the steering angle, rad (the spin axis turned about the suspension axis; the bodies
/// wake).
TB_API void tbWheelJoint_SetSteering(tbJointId jointId, float angle);
/// Wheel: see tbWheelJoint_SetSteering.
TB_API float tbWheelJoint_GetSteering(tbJointId jointId);

/// Ball: the angle between the two twist axes, rad, from the bodies' frames as they are now
/// (after the last step, or as tbBody_SetTransform left them).
TB_API float tbBallJoint_GetSwingAngle(tbJointId jointId);
/// Ball: B's twist about its axis against A's reference, rad, from the bodies' frames now.
TB_API float tbBallJoint_GetTwistAngle(tbJointId jointId);

/// Breaking: a joint whose reaction force (N) or torque (N m) exceeds its threshold after a step
/// makes a joint event (tbWorld_GetJointEvents); >= 0, FLT_MAX (the default) never.
TB_API void tbJoint_SetForceThreshold(tbJointId jointId, float threshold);
/// See tbJoint_SetForceThreshold.
TB_API void tbJoint_SetTorqueThreshold(tbJointId jointId, float threshold);

/// A joint whose reaction exceeded its force or torque threshold in the last step. The joint
/// stays: destroy it to break it (the event repeats every step while the load stays above).
typedef struct tbJointEvent
{
	tbJointId jointId;
	float force;  ///< |reaction force| of the step's last substep, N (tbJoint_GetReactionForce)
	float torque; ///< |reaction torque|, N m (tbJoint_GetReactionTorque)
} tbJointEvent;

/// The joint events of the last step, valid until the next step.
typedef struct tbJointEvents
{
	const tbJointEvent* events;
	int count;
} tbJointEvents;

/// The joint events of the last step (docs/joints.md, breakable joints): only awake joints are
/// checked, in joint order.
TB_API tbJointEvents tbWorld_GetJointEvents(tbWorldId worldId);
