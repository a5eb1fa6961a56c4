// Integrators of Baraff's state vector and re-orthonormalization of R.
#pragma once

#include "tumble/base.h"
#include "tumble/body.h"

/// How Y = (x, R, P, L) advances over a step h, with Y' = (v, w* R, F, tau) (course slides).
typedef enum tbIntegrator
{
	/// Baraff's explicit Euler, Y += h Y'(Y): x and R move with the velocities at the start of the
	/// step. Kept because the course teaches it; it gains energy in free tumbling.
	tb_explicitEuler = 0,
	/// Symplectic Euler: P, L first, then x += h v(P_new) and R <- exp(h w*) R with
	/// w = R Ibody^-1 R^T L_new (an exact rotation by angle h |w| about w).
	tb_semiImplicitEuler,
	/// Classical fourth-order Runge-Kutta on the whole of Y, forces held over the step.
	tb_rk4,
	tb_integratorCount
} tbIntegrator;

/// How R is pulled back onto the rotations after a step.
typedef enum tbOrthonormalizer
{
	tb_orthoNone = 0,    ///< leave R as the integrator made it (for measurement)
	tb_orthoGramSchmidt, ///< Gram-Schmidt on the columns, the slides' method (default)
	tb_orthoPolar,       ///< the orthogonal polar factor (closest rotation), Bjorck-Bowie iteration
	tb_orthoQuaternion,  ///< R -> unit quaternion -> R
	tb_orthonormalizerCount
} tbOrthonormalizer;

/// The integrator used when none is chosen. RK4: see integrator.c for the measurements.
#define TB_DEFAULT_INTEGRATOR tb_rk4

/// Name of an integrator ("explicit Euler", ...).
TB_API const char* tbIntegratorName(tbIntegrator integrator);

/// Name of an orthonormalizer ("Gram-Schmidt", ...).
TB_API const char* tbOrthonormalizerName(tbOrthonormalizer method);

/// Gram-Schmidt on the columns of m (course slides, "Gram-Schmidt Process", corrected: see source).
TB_API mat3s tbGramSchmidt(mat3s m);

/// Orthonormalize m with the given method (tb_orthoNone returns m).
TB_API mat3s tbOrthonormalize(mat3s m, tbOrthonormalizer method);

/// Largest absolute entry of R^T R - I: how far R is from orthonormal.
TB_API float tbOrthonormalityError(mat3s R);

/// Advance one free body by h seconds under its accumulated force and torque, gravity *
/// gravityScale and damping, held constant over the step, then re-orthonormalize R and refresh v,
/// w, I^-1. The accumulators are not cleared. Static bodies do not move; kinematic bodies move with
/// their v, w.
TB_API void tbRigidBody_Integrate(tbRigidBody* body, vec3s gravity, float h,
                                  tbIntegrator integrator, tbOrthonormalizer ortho);
