// Sequential-impulse contact solver with soft constraints (the Box2D v3 "soft step"). Internal to
// the engine's step: not installed, not exported from libtumble (docs/dynamics.md, Contacts).
#pragma once

#include "tumble/base.h"
#include "tumble/body.h"
#include "tumble/integrator.h"
#include "tumble/manifold.h"

/// A body index meaning "the static world": infinite mass, at rest, at the origin.
#define TB_NULL_BODY (-1)

/// Solver settings. Get the defaults from tbDefaultSolverDef() and change what you need.
typedef struct tbSolverDef
{
	vec3s gravity;              ///< m/s^2, (0, -9.81, 0) by default
	int substeps;               ///< substeps per step (4): stiffness and accuracy for their cost
	int iterations;             ///< biased (soft) velocity iterations per substep (1)
	int relaxIterations;        ///< unbiased iterations per substep, remove the push-out speed (1)
	float contactHertz;         ///< contact spring frequency, Hz (30), capped at 1/4 substep rate
	float contactDampingRatio;  ///< contact spring damping ratio (10: heavily over-damped)
	float contactPushMaxSpeed;  ///< largest speed at which overlap is pushed out, m/s (3)
	float restitutionThreshold; ///< approach speed below which contacts do not bounce, m/s (1)
	bool enableWarmStarting;    ///< start from the previous step's impulses (true)
	tbIntegrator integrator;    ///< how R follows L in the position update (TB_DEFAULT_INTEGRATOR)
	tbOrthonormalizer orthonormalizer; ///< after every substep (Gram-Schmidt)
} tbSolverDef;

/// The default solver settings.
tbSolverDef tbDefaultSolverDef(void);

/// The impulse of one contact point, kept by the caller between steps for warm starting.
typedef struct tbContactPointImpulse
{
	uint32_t id;           ///< the manifold point's feature id
	float normalImpulse;   ///< accumulated normal impulse of the last substep, N s
	vec3s frictionImpulse; ///< accumulated friction impulse of the last substep, world, N s
} tbContactPointImpulse;

/// The impulses of one manifold (the engine's contact cache entry for a shape pair).
typedef struct tbContactImpulses
{
	tbContactPointImpulse points[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
} tbContactImpulses;

/// Solver data of one contact point. Filled by the solver; read normalImpulse etc. after a step.
typedef struct tbContactPoint
{
	uint32_t id;
	vec3s localAnchorA, localAnchorB; ///< anchor relative to each centre of mass, body axes, m
	vec3s anchorA, anchorB;           ///< the same at the start of the step, world axes, m
	vec3s rA,
	    rB; ///< the local anchors in world axes at the bodies' current rotation (solver scratch)
	float baseSeparation;    ///< separation minus the anchors' offset along n at the start, m
	float normalMass;        ///< 1 / (Baraff II eq. 8-18 denominator), kg
	float tangentMass[2];    ///< the same along the two tangents, kg
	float normalImpulse;     ///< accumulated normal impulse (>= 0), N s
	float tangentImpulse[2]; ///< accumulated friction impulses along tangent1, tangent2, N s
	vec3s frictionImpulse;   ///< warm-start input: previous friction impulse, world, N s
	float maxNormalImpulse;  ///< largest normal impulse applied this step, N s (0: not touching)
	float relativeVelocity;  ///< most negative normal velocity met when pushing this step, m/s
} tbContactPoint;

/// One manifold between two bodies as the solver sees it. Make it with tbMakeContact.
typedef struct tbContact
{
	int bodyA, bodyB;         ///< indices into the body array, or TB_NULL_BODY
	float friction;           ///< Coulomb coefficient mu (combine with tbMixFriction)
	float restitution;        ///< e in [0, 1] (combine with tbMixRestitution)
	vec3s normal;             ///< unit, world, from A to B (copied from the manifold)
	vec3s tangent1, tangent2; ///< friction directions, n x t1 = t2 (set by the solver)
	vec3s xA0, xB0;           ///< centres of mass at the start of the step (set by the solver)
	float softBiasRate, softMassScale, softImpulseScale; ///< soft constraint (set by the solver)
	tbContactPoint points[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
	tbManifold manifold; ///< the input manifold
} tbContact;

/// A contact for a manifold between bodies A and B (the manifold normal points from A to B).
/// Impulses start at zero; warm start them with tbContact_WarmStart.
tbContact tbMakeContact(int bodyA, int bodyB, const tbManifold* manifold, float friction,
                        float restitution);

/// Start each point from the previous step's impulses of the point with the same feature id
/// (points without a match start at zero). `previous` may be null.
void tbContact_WarmStart(tbContact* contact, const tbContactImpulses* previous);

/// The impulses to keep for the next step's tbContact_WarmStart.
tbContactImpulses tbContact_GetImpulses(const tbContact* contact);

/// Friction mixing: sqrt(mu_a mu_b) (Box2D's rule: either zero gives zero).
float tbMixFriction(float a, float b);

/// Restitution mixing: max(e_a, e_b) (a bouncy ball bounces on anything).
float tbMixRestitution(float a, float b);

/// One time step of `dt` seconds for all bodies and contacts: for each of def->substeps substeps,
/// integrate velocities (gravity, forces, damping), warm start, solve with soft position
/// correction, integrate positions, relax; then restitution. Contacts must be warm started (or not)
/// before; read their impulses after. Clears every body's force and torque accumulators. Allocates
/// nothing.
void tbSolverStep(const tbSolverDef* def, tbRigidBody* bodies, int bodyCount, tbContact* contacts,
                  int contactCount, float dt);
