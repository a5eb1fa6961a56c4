// The integrators' rotation step, shared with the solver (private to dynamics/).
#pragma once

#include "tumble/integrator.h"

// R advanced over h with L held, by the chosen integrator on dR/dt = (R Ibody^-1 R^T L)* R
// (Baraff's torque-free motion); in pieces of at most half a radian. Not re-orthonormalized.
mat3s tbIntegrateRotation(const tbRigidBody* body, mat3s R, vec3s L, float h,
                          tbIntegrator integrator);
