// Rolling resistance: a torque across the contact normal that resists the bodies' relative rolling,
// up to c N r (tbContactConstraint.rollingResistance), solved before the contacts in each relax
// pass, colour by colour: a row writes only its contact's dynamic bodies, which no other contact
// of its colour has, so a colour's rows may be solved side by side and give the same bits in any
// order.
#include <math.h>

#include "dynamics_math.h"
#include "solver_internal.h"

// The rolling body's lever: the distance from the nearer moving body's centre of mass to the
// manifold's centre (a ball's radius for a ball on the ground).
static float tbRollingLever(const tbContactConstraint* c, tbRigidBody* const* bodies)
{
	const tbManifold* m = &c->manifold;
	vec3s centre = tbV3(0.0f, 0.0f, 0.0f);
	for (int i = 0; i < m->pointCount; ++i) {
		centre = glms_vec3_add(centre, glms_vec3_add(m->points[i].pointA, m->points[i].pointB));
	}
	centre = glms_vec3_scale(centre, 0.5f / (float)m->pointCount);
	float lever = INFINITY;
	const int ends[2] = {c->bodyA, c->bodyB};
	for (int k = 0; k < 2; ++k) {
		if (ends[k] != TB_NULL_BODY && bodies[ends[k]]->type == tb_dynamicBody) {
			lever = fminf(lever, glms_vec3_norm(glms_vec3_sub(centre, bodies[ends[k]]->state.x)));
		}
	}
	return isfinite(lever) ? lever : 0.0f;
}

int tbListRollingContacts(const tbContactConstraint* contacts, const int* order,
                          const int* colorBase, int colorCount, int* list, tbRollingRow* rows,
                          int* starts)
{
	int count = 0;
	for (int k = 0; k < colorCount; ++k) {
		starts[k] = count;
		for (int at = colorBase[k]; at < colorBase[k + 1]; ++at) {
			int i = order[at];
			if (contacts[i].rollingResistance > 0.0f && contacts[i].manifold.pointCount > 0) {
				rows[count].remade = -1;
				list[count++] = i;
			}
		}
	}
	starts[colorCount] = count;
	return count;
}

// The rows of contact c: its tangents, each body's turn per unit impulse about them and the
// rows' 2 x 2 mass K_ij = ti . (IA^-1 + IB^-1) tj (none of which the velocities change), and the
// torque's lever.
static void tbMakeRollingRow(const tbContactConstraint* c, tbRigidBody* const* bodies,
                             tbRollingRow* row)
{
	static const mat3s still; // zero: a body that does not move takes no impulse
	const tbRigidBody* a = c->bodyA != TB_NULL_BODY ? bodies[c->bodyA] : NULL;
	const tbRigidBody* b = c->bodyB != TB_NULL_BODY ? bodies[c->bodyB] : NULL;
	const mat3s* iA = a != NULL && a->type == tb_dynamicBody ? &a->Iinv : &still;
	const mat3s* iB = b != NULL && b->type == tb_dynamicBody ? &b->Iinv : &still;
	row->remade = c->remade;
	row->bodyA = a != NULL && a->type == tb_dynamicBody ? c->bodyA : -1;
	row->bodyB = b != NULL && b->type == tb_dynamicBody ? c->bodyB : -1;
	row->record = c->record;
	row->coefficient = c->rollingResistance;
	row->lever = tbRollingLever(c, bodies);
	vec3s n = c->manifold.normal;
	vec3s t1 = fabsf(n.x) < 0.57735f ? glms_vec3_normalize(glms_vec3_cross(n, tbV3(1, 0, 0)))
	                                 : glms_vec3_normalize(glms_vec3_cross(n, tbV3(0, 1, 0)));
	vec3s t2 = glms_vec3_cross(n, t1);
	row->t1 = t1;
	row->t2 = t2;
	row->a1 = glms_mat3_mulv(*iA, t1);
	row->a2 = glms_mat3_mulv(*iA, t2);
	row->b1 = glms_mat3_mulv(*iB, t1);
	row->b2 = glms_mat3_mulv(*iB, t2);
	row->k11 = glms_vec3_dot(t1, glms_vec3_add(row->a1, row->b1));
	row->k12 = glms_vec3_dot(t1, glms_vec3_add(row->a2, row->b2));
	row->k22 = glms_vec3_dot(t2, glms_vec3_add(row->a2, row->b2));
}

void tbSolveRolling(const tbContactConstraint* contacts, const int* list, tbRollingRow* rows,
                    int count, const tbContactConstraintW* groups, tbRigidBody* const* bodies,
                    tbSolverBody* states)
{
	for (int r = 0; r < count; ++r) {
		const tbContactConstraint* c = contacts + list[r];
		int pointCount = c->manifold.pointCount;
		if (pointCount == 0) {
			continue; // made again in the substep and found apart
		}
		tbRollingRow* row = rows + r;
		if (row->remade != c->remade) {
			tbMakeRollingRow(c, bodies, row);
		}
		// Two angular rows across the normal, J = (0, -t, 0, t) for t = t1, t2, solved together
		// so that the impulse opposes the relative rolling whatever its direction, then held to
		// the disc |lambda| <= c N r.
		float k11 = row->k11, k12 = row->k12, k22 = row->k22;
		float det = k11 * k22 - k12 * k12;
		if (!(det > 0.0f)) {
			continue;
		}
		// The substep's normal impulse of the manifold: its lane's points, as solved just before.
		const tbContactConstraintW* g = groups + row->record / TB_SIMD_WIDTH;
		int lane = row->record % TB_SIMD_WIDTH;
		float normal = 0.0f;
		for (int i = 0; i < pointCount; ++i) {
			const float* impulse = (const float*)&g->points[i].normalImpulse;
			normal += impulse[lane];
		}
		float maxImpulse = row->coefficient * normal * row->lever;
		tbSolverBody* sA = row->bodyA >= 0 ? states + row->bodyA : NULL;
		tbSolverBody* sB = row->bodyB >= 0 ? states + row->bodyB : NULL;
		vec3s wA = sA != NULL ? tbV3(sA->w[0], sA->w[1], sA->w[2]) : tbV3(0.0f, 0.0f, 0.0f);
		vec3s wB = sB != NULL ? tbV3(sB->w[0], sB->w[1], sB->w[2]) : tbV3(0.0f, 0.0f, 0.0f);
		vec3s rel = glms_vec3_sub(wB, wA);
		float e1 = glms_vec3_dot(row->t1, rel), e2 = glms_vec3_dot(row->t2, rel);
		// lambda = -K^-1 e, added to this substep's impulse so far and clamped as a whole.
		float l1 = row->impulse[0] - (k22 * e1 - k12 * e2) / det;
		float l2 = row->impulse[1] - (k11 * e2 - k12 * e1) / det;
		float length = sqrtf(l1 * l1 + l2 * l2);
		if (length > maxImpulse) {
			float scale = length > 0.0f ? maxImpulse / length : 0.0f;
			l1 *= scale;
			l2 *= scale;
		}
		float d1 = l1 - row->impulse[0], d2 = l2 - row->impulse[1];
		row->impulse[0] = l1;
		row->impulse[1] = l2;
		if (sA != NULL) {
			vec3s dw = glms_vec3_add(glms_vec3_scale(row->a1, d1), glms_vec3_scale(row->a2, d2));
			for (int k = 0; k < 3; ++k) {
				sA->w[k] -= dw.raw[k];
			}
		}
		if (sB != NULL) {
			vec3s dw = glms_vec3_add(glms_vec3_scale(row->b1, d1), glms_vec3_scale(row->b2, d2));
			for (int k = 0; k < 3; ++k) {
				sB->w[k] += dw.raw[k];
			}
		}
	}
}

void tbClearRolling(tbRollingRow* rows, int count)
{
	for (int r = 0; r < count; ++r) {
		rows[r].impulse[0] = 0.0f;
		rows[r].impulse[1] = 0.0f;
	}
}
