// Rigid bodies as Baraff's state vector Y = (x, R, P, L) with constants M and Ibody (course
// slides).
#pragma once

#include "tumble/base.h"
#include "tumble/mass.h"

/// Static bodies never move; kinematic bodies move at the velocity you set and are not pushed;
/// both have infinite mass. Dynamic bodies respond to forces and contacts.
typedef enum tbBodyType
{
	tb_staticBody = 0,
	tb_kinematicBody,
	tb_dynamicBody,
} tbBodyType;

/// Baraff's state vector Y(t) (course slides, "State Vector"; Baraff notes I, section 2.7).
typedef struct tbBodyState
{
	vec3s x; ///< world position of the centre of mass, metres
	mat3s R; ///< orientation: body frame -> world, columns are the body axes (orthonormal)
	vec3s P; ///< linear momentum, kg m/s
	vec3s L; ///< angular momentum about the centre of mass, world frame, kg m^2/s
} tbBodyState;

/// A rigid body. The state Y is primary for dynamic bodies; v, w and Iinv are derived from it
/// (v = P / M, I^-1 = R Ibody^-1 R^T, w = I^-1 L) and kept current by the functions below. For
/// kinematic bodies v and w are primary (set them directly) and P, L stay zero. The fields a
/// contact reads of its bodies (x, the type, 1/M, v, w, I^-1) come first, together.
typedef struct tbRigidBody
{
	tbBodyState state;
	tbBodyType type;
	float mass;    ///< M, kg (0 for static and kinematic bodies)
	float invMass; ///< 1 / M, 1/kg (0 for static and kinematic bodies)

	// Derived quantities (Baraff's "auxiliary variables"), refreshed by tbRigidBody_UpdateDerived.
	vec3s v;    ///< linear velocity of the centre of mass, m/s
	vec3s w;    ///< angular velocity, world, rad/s
	mat3s Iinv; ///< world inverse inertia R Ibody^-1 R^T, 1/(kg m^2)

	mat3s Ibody;          ///< inertia tensor about the centre of mass in body axes, kg m^2
	mat3s IbodyInv;       ///< its inverse (zero for static and kinematic bodies)
	float linearDamping;  ///< c in dP/dt = F - c P, 1/s
	float angularDamping; ///< c in dL/dt = tau - c L, 1/s
	float gravityScale;   ///< multiplies the solver's gravity (1 by default)
	vec3s force;          ///< accumulated force for the coming step, N (gravity not included)
	vec3s torque;         ///< accumulated torque about the centre of mass, world, N m
} tbRigidBody;

/// A body of the given type at position x with orientation R, at rest. For a dynamic body the
/// mass data must have mass > 0 and a positive definite inertia (from tbComputeMass); its centre
/// must be at the body origin (shift shapes so, or combine with tbCombineMass first): x is the
/// centre of mass. For static and kinematic bodies `mass` is ignored.
TB_API tbRigidBody tbMakeBody(tbBodyType type, tbMassData mass, vec3s x, mat3s R);

/// Recompute v, I^-1 and w from the state (Baraff notes I, eq. 2-40 "ComputeAuxiliaryVariables").
/// Call after editing state directly. Kinematic bodies keep their v and w.
TB_API void tbRigidBody_UpdateDerived(tbRigidBody* body);

/// Set the linear and angular velocity (world). Dynamic bodies get P = M v and L = I w.
TB_API void tbRigidBody_SetVelocity(tbRigidBody* body, vec3s v, vec3s w);

/// Velocity of a world point moving with the body: v + w x (p - x), m/s (Baraff II eq. 8-1).
TB_API vec3s tbRigidBody_GetPointVelocity(const tbRigidBody* body, vec3s worldPoint);

/// Add a force (N) acting at a world point: F += f, tau += (p - x) x f (Baraff I, eq. 2-38, 2-39).
TB_API void tbRigidBody_ApplyForce(tbRigidBody* body, vec3s force, vec3s worldPoint);

/// Add a force at the centre of mass (no torque), N.
TB_API void tbRigidBody_ApplyForceToCenter(tbRigidBody* body, vec3s force);

/// Add a torque about the centre of mass, world frame, N m.
TB_API void tbRigidBody_ApplyTorque(tbRigidBody* body, vec3s torque);

/// Zero the force and torque accumulators.
TB_API void tbRigidBody_ClearForces(tbRigidBody* body);

/// Apply an impulse (N s) at a world point: P += J, L += (p - x) x J (Baraff II, eq. 8-12, 8-13);
/// v and w follow. Ignored for static and kinematic bodies.
TB_API void tbRigidBody_ApplyImpulse(tbRigidBody* body, vec3s impulse, vec3s worldPoint);

/// Kinetic energy 1/2 P.v + 1/2 L.w, J (0 for static and kinematic bodies).
TB_API float tbRigidBody_GetKineticEnergy(const tbRigidBody* body);

/// The skew matrix a* of the course slides ("Angular Velocity"): a* b = a x b.
TB_API mat3s tbSkew(vec3s a);
