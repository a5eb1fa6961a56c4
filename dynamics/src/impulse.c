// Baraff's collision impulse (Rigid Body Simulation II, section 8, eq. 8-18).
#include "tumble/impulse.h"

#include <stddef.h>

#include "dynamics_math.h"

// The contribution of one body to the denominator: 1/M + n . (I^-1 (r x n)) x r.
static float tbBodyInvMass(const tbRigidBody* body, vec3s r, vec3s n)
{
	if (body == NULL || body->type != tb_dynamicBody) {
		return 0.0f;
	}
	vec3s rn = glms_vec3_cross(r, n);
	return body->invMass + glms_vec3_dot(n, glms_vec3_cross(tbMat3MulV(body->Iinv, rn), r));
}

float tbInvEffectiveMass(const tbRigidBody* a, const tbRigidBody* b, vec3s ra, vec3s rb, vec3s n)
{
	return tbBodyInvMass(a, ra, n) + tbBodyInvMass(b, rb, n);
}

static vec3s tbPointVelocity(const tbRigidBody* body, vec3s p)
{
	if (body == NULL) {
		return tbV3(0.0f, 0.0f, 0.0f);
	}
	return tbRigidBody_GetPointVelocity(body, p);
}

static vec3s tbAnchor(const tbRigidBody* body, vec3s p)
{
	return body == NULL ? p : glms_vec3_sub(p, body->state.x);
}

float tbCollisionImpulse(const tbRigidBody* a, const tbRigidBody* b, vec3s p, vec3s n,
                         float restitution)
{
	// Baraff II eq. 8-3 with our normal from A to B: vrel = n . (pB' - pA') < 0 when approaching.
	float vrel = glms_vec3_dot(n, glms_vec3_sub(tbPointVelocity(b, p), tbPointVelocity(a, p)));
	if (vrel >= 0.0f) {
		return 0.0f;
	}
	float k = tbInvEffectiveMass(a, b, tbAnchor(a, p), tbAnchor(b, p), n);
	if (!(k > 0.0f)) {
		return 0.0f;
	}
	// Eq. 8-18: j = -(1 + e) vrel / (1/Ma + 1/Mb + n.(Ia^-1 (ra x n)) x ra + n.(Ib^-1 (rb x n)) x
	// rb).
	return -(1.0f + restitution) * vrel / k;
}

float tbResolveCollision(tbRigidBody* a, tbRigidBody* b, vec3s p, vec3s n, float restitution)
{
	float j = tbCollisionImpulse(a, b, p, n, restitution);
	if (j > 0.0f) {
		if (b != NULL) {
			tbRigidBody_ApplyImpulse(b, glms_vec3_scale(n, j), p);
		}
		if (a != NULL) {
			tbRigidBody_ApplyImpulse(a, glms_vec3_scale(n, -j), p);
		}
	}
	return j;
}
