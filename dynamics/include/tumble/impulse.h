// Baraff's collision impulse between two bodies (Rigid Body Simulation II, section 8).
#pragma once

#include "tumble/base.h"
#include "tumble/body.h"

/// The inverse effective mass of two bodies along a unit direction n at world anchors ra, rb
/// (relative to the centres of mass): 1/Ma + 1/Mb + n.(Ia^-1 (ra x n)) x ra + n.(Ib^-1 (rb x n)) x
/// rb, Baraff II eq. 8-18's denominator. A null body counts as static (infinite mass).
TB_API float tbInvEffectiveMass(const tbRigidBody* a, const tbRigidBody* b, vec3s ra, vec3s rb,
                                vec3s n);

/// Magnitude j of the collision impulse at world point p with unit normal n pointing from A to B
/// (Baraff II eq. 8-18): j = -(1 + e) vrel / denominator, vrel = n . (vB(p) - vA(p)) (negative when
/// approaching; Baraff's n points from B's surface to A, which gives the same vrel and j). B
/// receives +j n and A receives -j n. Returns 0 when the bodies separate (vrel >= 0) or neither can
/// move.
TB_API float tbCollisionImpulse(const tbRigidBody* a, const tbRigidBody* b, vec3s p, vec3s n,
                                float restitution);

/// Compute the collision impulse and apply it to both bodies (null bodies are static). Returns j.
TB_API float tbResolveCollision(tbRigidBody* a, tbRigidBody* b, vec3s p, vec3s n,
                                float restitution);
