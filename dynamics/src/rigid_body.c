// Rigid bodies: Baraff's state vector, its derived quantities, forces and impulses.
#include "tumble/body.h"

#include <float.h>

#include "dynamics_math.h"

mat3s tbSkew(vec3s a)
{
	// The course slides, "Angular Velocity": a* = [0 -az ay; az 0 -ax; -ay ax 0] (column-major
	// here).
	mat3s m;
	m.col[0] = tbV3(0.0f, a.z, -a.y);
	m.col[1] = tbV3(-a.z, 0.0f, a.x);
	m.col[2] = tbV3(a.y, -a.x, 0.0f);
	return m;
}

tbRigidBody tbMakeBody(tbBodyType type, tbMassData mass, vec3s x, mat3s R)
{
	tbRigidBody body = {0};
	body.type = type;
	body.state.x = x;
	body.state.R = R;
	body.gravityScale = 1.0f;
	body.Ibody = glms_mat3_zero();
	body.IbodyInv = glms_mat3_zero();
	if (type == tb_dynamicBody) {
		// The callers (the world) refuse mass data outside the supported range with a message;
		// the check is scale-free, unlike det(I) > 0, which underflows for a 1e-5 m body.
		TB_ASSERT(tbMassData_IsValid(&mass, NULL, 0));
		body.mass = mass.mass;
		body.invMass = 1.0f / mass.mass;
		body.Ibody = mass.inertia;
		// The cofactor inverse, unless det(I) leaves float's normal range (a 1e-5 m body): then
		// invert I / s and divide by s (s its largest entry). Normal bodies keep the exact same
		// arithmetic (and the determinism hash).
		float det = tbMat3Det(mass.inertia);
		if (isfinite(det) && det >= 1e3f * FLT_MIN) {
			body.IbodyInv = tbMat3Inverse(mass.inertia);
		} else {
			float scale = 0.0f;
			for (int c = 0; c < 3; ++c) {
				for (int r = 0; r < 3; ++r) {
					scale = fmaxf(scale, fabsf(mass.inertia.col[c].raw[r]));
				}
			}
			if (scale > 0.0f) {
				mat3s unit = glms_mat3_scale(mass.inertia, 1.0f / scale);
				body.IbodyInv = glms_mat3_scale(tbMat3Inverse(unit), 1.0f / scale);
			}
		}
	}
	tbRigidBody_UpdateDerived(&body);
	return body;
}

void tbRigidBody_UpdateDerived(tbRigidBody* body)
{
	// Baraff I, "ComputeAuxiliaryVariables": v = P / M, I^-1 = R Ibody^-1 R^T, w = I^-1 L.
	body->Iinv = tbMat3Rotate(body->state.R, body->IbodyInv);
	if (body->type == tb_dynamicBody) {
		body->v = glms_vec3_scale(body->state.P, body->invMass);
		body->w = tbMat3MulV(body->Iinv, body->state.L);
	} else if (body->type == tb_staticBody) {
		body->v = tbV3(0.0f, 0.0f, 0.0f);
		body->w = tbV3(0.0f, 0.0f, 0.0f);
	}
}

void tbRigidBody_SetVelocity(tbRigidBody* body, vec3s v, vec3s w)
{
	if (body->type == tb_staticBody) {
		return;
	}
	body->v = v;
	body->w = w;
	if (body->type == tb_dynamicBody) {
		// P = M v and L = I w with I = R Ibody R^T.
		body->state.P = glms_vec3_scale(v, body->mass);
		body->state.L = tbMat3MulV(tbMat3Rotate(body->state.R, body->Ibody), w);
		tbRigidBody_UpdateDerived(body);
	}
}

vec3s tbRigidBody_GetPointVelocity(const tbRigidBody* body, vec3s worldPoint)
{
	return glms_vec3_add(body->v,
	                     glms_vec3_cross(body->w, glms_vec3_sub(worldPoint, body->state.x)));
}

void tbRigidBody_ApplyForce(tbRigidBody* body, vec3s force, vec3s worldPoint)
{
	body->force = glms_vec3_add(body->force, force);
	body->torque = glms_vec3_add(body->torque,
	                             glms_vec3_cross(glms_vec3_sub(worldPoint, body->state.x), force));
}

void tbRigidBody_ApplyForceToCenter(tbRigidBody* body, vec3s force)
{
	body->force = glms_vec3_add(body->force, force);
}

void tbRigidBody_ApplyTorque(tbRigidBody* body, vec3s torque)
{
	body->torque = glms_vec3_add(body->torque, torque);
}

void tbRigidBody_ClearForces(tbRigidBody* body)
{
	body->force = tbV3(0.0f, 0.0f, 0.0f);
	body->torque = tbV3(0.0f, 0.0f, 0.0f);
}

void tbRigidBody_ApplyImpulse(tbRigidBody* body, vec3s impulse, vec3s worldPoint)
{
	if (body->type != tb_dynamicBody) {
		return;
	}
	// Baraff II, eq. 8-12 and 8-13: dP = J, dL = (p - x) x J; v and w follow linearly.
	vec3s dL = glms_vec3_cross(glms_vec3_sub(worldPoint, body->state.x), impulse);
	body->state.P = glms_vec3_add(body->state.P, impulse);
	body->state.L = glms_vec3_add(body->state.L, dL);
	body->v = tbMulAdd(body->v, body->invMass, impulse);
	body->w = glms_vec3_add(body->w, tbMat3MulV(body->Iinv, dL));
}

float tbRigidBody_GetKineticEnergy(const tbRigidBody* body)
{
	if (body->type != tb_dynamicBody) {
		return 0.0f;
	}
	return 0.5f * (glms_vec3_dot(body->state.P, body->v) + glms_vec3_dot(body->state.L, body->w));
}
