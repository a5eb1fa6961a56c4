// Contact constraints, TB_SIMD_WIDTH manifolds at a time: prepare, warm start, solve, relax,
// restitution, store (Catto's soft step; Box2D v3 and Box3D solve their contacts the same way).
#include <float.h>
#include <math.h>
#include <string.h>

#include "dynamics_math.h"
#include "solver_internal.h"

float tbMixFriction(float a, float b)
{
	return sqrtf(a * b);
}

float tbMixRestitution(float a, float b)
{
	return a > b ? a : b;
}

tbContactConstraint tbMakeContactConstraint(int bodyA, int bodyB, const tbManifold* manifold,
                                            tbContactImpulses* impulses, float friction,
                                            float restitution)
{
	tbContactConstraint c;
	memset(&c, 0, sizeof c);
	c.bodyA = bodyA;
	c.bodyB = bodyB;
	c.friction = friction;
	c.restitution = restitution;
	c.manifold = *manifold;
	TB_ASSERT(manifold->pointCount >= 0 && manifold->pointCount <= TB_MAX_MANIFOLD_POINTS);
	c.impulses = impulses;
	return c;
}

void tbContactConstraint_WarmStart(tbContactConstraint* contact, const tbContactImpulses* previous)
{
	// A copy of the previous impulses: they may be the ones rewritten here.
	tbContactImpulses last;
	if (previous != NULL) {
		last = *previous;
	} else {
		memset(&last, 0, sizeof last);
	}
	tbContactImpulses* out = contact->impulses;
	memset(out, 0, sizeof *out);
	out->pointCount = contact->manifold.pointCount;
	// Feature ids say which features of A and B made the point: the same id is the same
	// physical contact, so its impulse from the last step is a good first guess (Catto 2005).
	for (int i = 0; i < out->pointCount; ++i) {
		out->points[i].id = contact->manifold.points[i].id;
		for (int j = 0; j < last.pointCount && j < TB_MAX_MANIFOLD_POINTS; ++j) {
			if (last.points[j].id == out->points[i].id) {
				out->points[i].normalImpulse = last.points[j].normalImpulse;
				break;
			}
		}
	}
	if (last.pointCount == 0) {
		return;
	}
	// The friction rows sit at the manifold's centre, not at its points: they carry over whole.
	out->frictionImpulse = last.frictionImpulse;
	out->twistImpulse = last.twistImpulse;
}

// ---------------------------------------------------------------------------------------------
// Lanes: the prepare and store steps fill and read one manifold of a wide record at a time.

static inline void tbSetLane(tbFloatW* w, int lane, float value)
{
	((float*)w)[lane] = value;
}

static inline float tbGetLane(const tbFloatW* w, int lane)
{
	return ((const float*)w)[lane];
}

static inline void tbSetLaneV(tbVec3W* w, int lane, vec3s value)
{
	tbSetLane(&w->x, lane, value.x);
	tbSetLane(&w->y, lane, value.y);
	tbSetLane(&w->z, lane, value.z);
}

static inline vec3s tbGetLaneV(const tbVec3W* w, int lane)
{
	return tbV3(tbGetLane(&w->x, lane), tbGetLane(&w->y, lane), tbGetLane(&w->z, lane));
}

// A unit tangent basis (t1, t2) with t1 x t2 = n, chosen from n alone so that it is stable from
// step to step (Duff et al. 2017, "Building an orthonormal basis, revisited").
static void tbTangentBasis(vec3s n, vec3s* t1, vec3s* t2)
{
	float sign = copysignf(1.0f, n.z);
	float a = -1.0f / (sign + n.z);
	float b = n.x * n.y * a;
	*t1 = tbV3(1.0f + sign * n.x * n.x * a, sign * b, -sign * n.x);
	*t2 = tbV3(b, sign + n.y * n.y * a, -n.y);
}

// Catto, GDC 2011 "Soft constraints": a spring of angular frequency omega and damping ratio zeta
// solved implicitly over h gives the bias rate and the mass and impulse scales used below.
static void tbMakeSoft(float hertz, float zeta, float h, float* biasRate, float* massScale,
                       float* impulseScale)
{
	if (hertz <= 0.0f) {
		*biasRate = 0.0f;
		*massScale = 1.0f;
		*impulseScale = 0.0f;
		return;
	}
	float omega = 2.0f * 3.14159265f * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	*biasRate = omega / a1;
	*massScale = a2 * a3;
	*impulseScale = a3;
}

// The inverse mass of a row through one body: J M^-1 J^T = m + (r x d) . I^-1 (r x d), and the
// spin I^-1 (r x d) a unit impulse gives (Baraff II eq. 8-18).
static float tbRowMass(bool moves, float invMass, const mat3s* invI, vec3s rxd, vec3s* invIrxd)
{
	if (!moves) {
		*invIrxd = tbV3(0.0f, 0.0f, 0.0f);
		return 0.0f;
	}
	*invIrxd = tbMat3MulV(*invI, rxd);
	return invMass + glms_vec3_dot(rxd, *invIrxd);
}

void tbContactSoftness(const tbSolverDef* def, float h, tbSoftness soft[2])
{
	// Stiffer against what cannot move (as Box2D v3): only one body gives way. The frequency is
	// capped at a quarter of the substep rate, beyond which the implicit spring no longer
	// resolves it. [0]: two moving bodies, [1]: one.
	for (int k = 0; k < 2; ++k) {
		float hertz = def->contactHertz * (k == 0 ? 1.0f : 2.0f);
		float maxHertz = 0.25f / h;
		hertz = hertz < maxHertz ? hertz : maxHertz;
		tbMakeSoft(hertz, def->contactDampingRatio, h, &soft[k].biasRate, &soft[k].massScale,
		           &soft[k].impulseScale);
		soft[k].pushMaxSpeed = def->contactPushMaxSpeed;
	}
}

// The lane's rows for manifold m with the centres of mass at xA, xB: normal and tangents, each
// point's anchors, Jacobians and normal mass, the friction rows at the manifold's centre and the
// twist row. Separations are the manifold's; impulses are left alone.
static void tbSetLaneRows(tbContactConstraintW* c, int lane, const tbManifold* m, vec3s xA,
                          vec3s xB, bool movesA, bool movesB, float mA, float mB, const mat3s* iA,
                          const mat3s* iB)
{
	c->pointCount = m->pointCount > c->pointCount ? m->pointCount : c->pointCount;
	vec3s n = m->normal, t1, t2;
	tbTangentBasis(n, &t1, &t2);
	tbSetLaneV(&c->normal, lane, n);
	tbSetLaneV(&c->tangent1, lane, t1);
	tbSetLaneV(&c->tangent2, lane, t2);

	// The midpoints, kept for the twist arm below rather than made again.
	vec3s p[TB_MAX_MANIFOLD_POINTS];
	vec3s centre = tbV3(0.0f, 0.0f, 0.0f);
	for (int i = 0; i < m->pointCount; ++i) {
		const tbManifoldPoint* mp = m->points + i;
		tbContactPointW* cp = c->points + i;
		// Both anchors at the midpoint: equal and opposite impulses at one point exert no net
		// torque, so the solver conserves angular momentum exactly as the single impulse does.
		p[i] = glms_vec3_scale(glms_vec3_add(mp->pointA, mp->pointB), 0.5f);
		centre = glms_vec3_add(centre, p[i]);
		vec3s rAxn = glms_vec3_cross(glms_vec3_sub(p[i], xA), n);
		vec3s rBxn = glms_vec3_cross(glms_vec3_sub(p[i], xB), n);
		vec3s iArAxn, iBrBxn;
		float k =
		    tbRowMass(movesA, mA, iA, rAxn, &iArAxn) + tbRowMass(movesB, mB, iB, rBxn, &iBrBxn);
		tbSetLaneV(&cp->rAxn, lane, rAxn);
		tbSetLaneV(&cp->rBxn, lane, rBxn);
		tbSetLaneV(&cp->invIArAxn, lane, iArAxn);
		tbSetLaneV(&cp->invIBrBxn, lane, iBrBxn);
		tbSetLane(&cp->separation, lane, mp->separation);
		tbSetLane(&cp->normalMass, lane, k > 0.0f ? 1.0f / k : 0.0f);
	}
	if (m->pointCount == 0) {
		return;
	}
	centre = glms_vec3_scale(centre, 1.0f / (float)m->pointCount);
	float arm = 0.0f;
	for (int i = 0; i < m->pointCount; ++i) {
		vec3s d = glms_vec3_sub(p[i], centre);
		d = tbMulAdd(d, -glms_vec3_dot(d, n), n);
		arm += glms_vec3_norm(d);
	}
	tbSetLane(&c->twistArm, lane, arm / (float)m->pointCount);

	vec3s rA = glms_vec3_sub(centre, xA), rB = glms_vec3_sub(centre, xB);
	vec3s rAxt1 = glms_vec3_cross(rA, t1), rBxt1 = glms_vec3_cross(rB, t1);
	vec3s rAxt2 = glms_vec3_cross(rA, t2), rBxt2 = glms_vec3_cross(rB, t2);
	vec3s v1, v2, v3, v4;
	float k1 = tbRowMass(movesA, mA, iA, rAxt1, &v1) + tbRowMass(movesB, mB, iB, rBxt1, &v2);
	float k2 = tbRowMass(movesA, mA, iA, rAxt2, &v3) + tbRowMass(movesB, mB, iB, rBxt2, &v4);
	tbSetLaneV(&c->rAxt1, lane, rAxt1);
	tbSetLaneV(&c->rBxt1, lane, rBxt1);
	tbSetLaneV(&c->invIArAxt1, lane, v1);
	tbSetLaneV(&c->invIBrBxt1, lane, v2);
	tbSetLaneV(&c->rAxt2, lane, rAxt2);
	tbSetLaneV(&c->rBxt2, lane, rBxt2);
	tbSetLaneV(&c->invIArAxt2, lane, v3);
	tbSetLaneV(&c->invIBrBxt2, lane, v4);
	tbSetLane(&c->tangentMass1, lane, k1 > 0.0f ? 1.0f / k1 : 0.0f);
	tbSetLane(&c->tangentMass2, lane, k2 > 0.0f ? 1.0f / k2 : 0.0f);
	// The twist row turns the bodies about n only: J M^-1 J^T = n . IA^-1 n + n . IB^-1 n.
	vec3s iAn, iBn;
	float kt = tbRowMass(movesA, 0.0f, iA, n, &iAn) + tbRowMass(movesB, 0.0f, iB, n, &iBn);
	tbSetLaneV(&c->invIAn, lane, iAn);
	tbSetLaneV(&c->invIBn, lane, iBn);
	tbSetLane(&c->twistMass, lane, kt > 0.0f ? 1.0f / kt : 0.0f);
}

// What one lane's rows are made from (tbSetRowsW): the manifold, NULL for a lane left as it is,
// and the two bodies: centres of mass, inverse masses and inertias (read only for a body that
// moves).
typedef struct tbLaneRowsInput
{
	const tbManifold* manifold;
	vec3s xA, xB;
	const mat3s *iA, *iB;
	float mA, mB;
	bool movesA, movesB;
} tbLaneRowsInput;

// The lanes' inputs side by side, a wide float to a row: tbSetRowsW loads each at once.
typedef struct tbRowsGather
{
	_Alignas(32) float n[3][TB_SIMD_WIDTH];
	float t1[3][TB_SIMD_WIDTH], t2[3][TB_SIMD_WIDTH];
	float xA[3][TB_SIMD_WIDTH], xB[3][TB_SIMD_WIDTH];
	float iA[9][TB_SIMD_WIDTH], iB[9][TB_SIMD_WIDTH];
	float mA[TB_SIMD_WIDTH], mB[TB_SIMD_WIDTH];
	float movesA[TB_SIMD_WIDTH], movesB[TB_SIMD_WIDTH];
	float count[TB_SIMD_WIDTH], keep[TB_SIMD_WIDTH];
	float p[TB_MAX_MANIFOLD_POINTS][3][TB_SIMD_WIDTH]; // the points' midpoints
	float separation[TB_MAX_MANIFOLD_POINTS][TB_SIMD_WIDTH];
} tbRowsGather;

static inline tbVec3W tbLoadVec3W(float v[3][TB_SIMD_WIDTH])
{
	tbVec3W out = {tbLoadW(v[0]), tbLoadW(v[1]), tbLoadW(v[2])};
	return out;
}

// a x b, as glms_vec3_cross computes it.
static inline tbVec3W tbCrossW(tbVec3W a, tbVec3W b)
{
	tbVec3W out = {tbSubW(tbMulW(a.y, b.z), tbMulW(a.z, b.y)),
	               tbSubW(tbMulW(a.z, b.x), tbMulW(a.x, b.z)),
	               tbSubW(tbMulW(a.x, b.y), tbMulW(a.y, b.x))};
	return out;
}

// The lanes a store leaves alone (`keep`: those without a manifold), and whether there are none
// (`all`: the store writes every lane, no select). A store to kept lanes writes back what is there.
typedef struct tbLaneMask
{
	tbFloatW keep;
	bool all;
} tbLaneMask;

static inline void tbPutW(tbFloatW* at, tbLaneMask m, tbFloatW value)
{
	*at = m.all ? value : tbSelectW(m.keep, value, *at);
}

static inline void tbPutVec3W(tbVec3W* at, tbLaneMask m, tbVec3W value)
{
	tbPutW(&at->x, m, value.x);
	tbPutW(&at->y, m, value.y);
	tbPutW(&at->z, m, value.z);
}

// a where mask holds, else +0, in each component.
static inline tbVec3W tbKeepVec3W(tbFloatW mask, tbVec3W a)
{
	tbVec3W out = {tbKeepW(mask, a.x), tbKeepW(mask, a.y), tbKeepW(mask, a.z)};
	return out;
}

static inline tbVec3W tbAddVec3W(tbVec3W a, tbVec3W b)
{
	tbVec3W out = {tbAddW(a.x, b.x), tbAddW(a.y, b.y), tbAddW(a.z, b.z)};
	return out;
}

// I^-1 v with the matrix's columns in rows 0-2, 3-5, 6-8 (column-major, as cglm): (c0 v.x + c1
// v.y) + c2 v.z, as tbMat3MulV.
static inline tbVec3W tbMat3MulW(float m[9][TB_SIMD_WIDTH], tbVec3W v)
{
	tbVec3W out;
	out.x = tbAddW(tbAddW(tbMulW(tbLoadW(m[0]), v.x), tbMulW(tbLoadW(m[3]), v.y)),
	               tbMulW(tbLoadW(m[6]), v.z));
	out.y = tbAddW(tbAddW(tbMulW(tbLoadW(m[1]), v.x), tbMulW(tbLoadW(m[4]), v.y)),
	               tbMulW(tbLoadW(m[7]), v.z));
	out.z = tbAddW(tbAddW(tbMulW(tbLoadW(m[2]), v.x), tbMulW(tbLoadW(m[5]), v.y)),
	               tbMulW(tbLoadW(m[8]), v.z));
	return out;
}

// tbRowMass for every lane: zero (and no spin) where `moves` does not hold.
static inline tbFloatW tbRowMassW(tbFloatW moves, tbFloatW invMass, float invI[9][TB_SIMD_WIDTH],
                                  tbVec3W rxd, tbVec3W* invIrxd)
{
	tbVec3W spin = tbMat3MulW(invI, rxd);
	*invIrxd = tbKeepVec3W(moves, spin);
	return tbKeepW(moves, tbAddW(invMass, tbDotW(rxd, spin)));
}

// 1 / k where k > 0, else 0 (a row without mass).
static inline tbFloatW tbInverseMassW(tbFloatW k)
{
	return tbKeepW(tbGreaterW(k, tbZeroW()), tbDivW(tbSplatW(1.0f), k));
}

// tbSetLaneRows for all lanes of a record at once: the lanes without a manifold are left as they
// are. Each lane gets the bits tbSetLaneRows gives it: every operation is exactly rounded and
// comes in the same order, and what a lane lacks (points past its own, a body that does not move)
// is +0, as in the cleared record. A sum that starts at +0 never becomes -0, so adding those +0
// changes no bit either.
static void tbSetRowsW(tbContactConstraintW* c, const tbLaneRowsInput in[TB_SIMD_WIDTH])
{
	tbRowsGather g;
	int rows = c->pointCount, lanes = 0;
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		const tbLaneRowsInput* l = in + lane;
		const tbManifold* m = l->manifold;
		int count = m != NULL ? m->pointCount : 0;
		rows = count > rows ? count : rows;
		lanes += m != NULL;
		g.count[lane] = (float)count;
		g.keep[lane] = m != NULL ? 0.0f : 1.0f;
		vec3s n = m != NULL ? m->normal : tbV3(0.0f, 0.0f, 0.0f), t1, t2;
		tbTangentBasis(n, &t1, &t2);
		vec3s xA = m != NULL ? l->xA : n, xB = m != NULL ? l->xB : n;
		bool movesA = m != NULL && l->movesA, movesB = m != NULL && l->movesB;
		for (int k = 0; k < 3; ++k) {
			g.n[k][lane] = n.raw[k];
			g.t1[k][lane] = t1.raw[k];
			g.t2[k][lane] = t2.raw[k];
			g.xA[k][lane] = xA.raw[k];
			g.xB[k][lane] = xB.raw[k];
		}
		for (int k = 0; k < 9; ++k) {
			g.iA[k][lane] = movesA ? l->iA->col[k / 3].raw[k % 3] : 0.0f;
			g.iB[k][lane] = movesB ? l->iB->col[k / 3].raw[k % 3] : 0.0f;
		}
		g.mA[lane] = movesA ? l->mA : 0.0f;
		g.mB[lane] = movesB ? l->mB : 0.0f;
		g.movesA[lane] = movesA ? 1.0f : 0.0f;
		g.movesB[lane] = movesB ? 1.0f : 0.0f;
		for (int i = 0; i < TB_MAX_MANIFOLD_POINTS; ++i) {
			// Both anchors at the midpoint (tbSetLaneRows).
			vec3s p = tbV3(0.0f, 0.0f, 0.0f);
			float separation = 0.0f;
			if (i < count) {
				const tbManifoldPoint* mp = m->points + i;
				p = glms_vec3_scale(glms_vec3_add(mp->pointA, mp->pointB), 0.5f);
				separation = mp->separation;
			}
			for (int k = 0; k < 3; ++k) {
				g.p[i][k][lane] = p.raw[k];
			}
			g.separation[i][lane] = separation;
		}
	}
	if (lanes == 0) {
		return;
	}
	c->pointCount = rows;
	tbFloatW zero = tbZeroW();
	tbLaneMask write = {tbGreaterW(tbLoadW(g.keep), zero), lanes == TB_SIMD_WIDTH};
	tbFloatW movesA = tbGreaterW(tbLoadW(g.movesA), zero);
	tbFloatW movesB = tbGreaterW(tbLoadW(g.movesB), zero);
	tbFloatW mA = tbLoadW(g.mA), mB = tbLoadW(g.mB), count = tbLoadW(g.count);
	tbVec3W n = tbLoadVec3W(g.n), t1 = tbLoadVec3W(g.t1), t2 = tbLoadVec3W(g.t2);
	tbVec3W xA = tbLoadVec3W(g.xA), xB = tbLoadVec3W(g.xB);
	tbPutVec3W(&c->normal, write, n);
	tbPutVec3W(&c->tangent1, write, t1);
	tbPutVec3W(&c->tangent2, write, t2);

	tbVec3W centre = {zero, zero, zero};
	for (int i = 0; i < rows; ++i) {
		tbContactPointW* cp = c->points + i;
		tbFloatW on = tbGreaterW(count, tbSplatW((float)i + 0.5f)); // the lane has point i
		tbVec3W p = tbLoadVec3W(g.p[i]);
		centre = tbAddVec3W(centre, tbKeepVec3W(on, p));
		tbVec3W rAxn = tbKeepVec3W(on, tbCrossW(tbVecSubW(p, xA), n));
		tbVec3W rBxn = tbKeepVec3W(on, tbCrossW(tbVecSubW(p, xB), n));
		tbVec3W iArAxn, iBrBxn;
		tbFloatW k = tbAddW(tbRowMassW(tbAndMaskW(on, movesA), mA, g.iA, rAxn, &iArAxn),
		                    tbRowMassW(tbAndMaskW(on, movesB), mB, g.iB, rBxn, &iBrBxn));
		tbPutVec3W(&cp->rAxn, write, rAxn);
		tbPutVec3W(&cp->rBxn, write, rBxn);
		tbPutVec3W(&cp->invIArAxn, write, iArAxn);
		tbPutVec3W(&cp->invIBrBxn, write, iBrBxn);
		tbPutW(&cp->separation, write, tbLoadW(g.separation[i]));
		tbPutW(&cp->normalMass, write, tbInverseMassW(k));
	}
	// The friction and twist rows of a lane without points stay as they were.
	tbFloatW none = tbLessW(count, tbSplatW(0.5f));
	tbLaneMask rowsWrite = {tbSelectW(none, write.keep, none), write.all && !tbAnyW(none)};
	tbFloatW invCount = tbDivW(tbSplatW(1.0f), count);
	centre.x = tbMulW(centre.x, invCount);
	centre.y = tbMulW(centre.y, invCount);
	centre.z = tbMulW(centre.z, invCount);
	tbFloatW arm = zero;
	for (int i = 0; i < rows; ++i) {
		tbFloatW on = tbGreaterW(count, tbSplatW((float)i + 0.5f));
		tbVec3W d = tbVecSubW(tbLoadVec3W(g.p[i]), centre);
		d = tbVecMulSubW(d, tbDotW(d, n), n);
		arm = tbAddW(arm, tbKeepW(on, tbSqrtW(tbDotW(d, d))));
	}
	tbPutW(&c->twistArm, rowsWrite, tbDivW(arm, count));

	tbVec3W rA = tbVecSubW(centre, xA), rB = tbVecSubW(centre, xB);
	tbVec3W rAxt1 = tbCrossW(rA, t1), rBxt1 = tbCrossW(rB, t1);
	tbVec3W rAxt2 = tbCrossW(rA, t2), rBxt2 = tbCrossW(rB, t2);
	tbVec3W v1, v2, v3, v4;
	tbFloatW k1 =
	    tbAddW(tbRowMassW(movesA, mA, g.iA, rAxt1, &v1), tbRowMassW(movesB, mB, g.iB, rBxt1, &v2));
	tbFloatW k2 =
	    tbAddW(tbRowMassW(movesA, mA, g.iA, rAxt2, &v3), tbRowMassW(movesB, mB, g.iB, rBxt2, &v4));
	tbPutVec3W(&c->rAxt1, rowsWrite, rAxt1);
	tbPutVec3W(&c->rBxt1, rowsWrite, rBxt1);
	tbPutVec3W(&c->invIArAxt1, rowsWrite, v1);
	tbPutVec3W(&c->invIBrBxt1, rowsWrite, v2);
	tbPutVec3W(&c->rAxt2, rowsWrite, rAxt2);
	tbPutVec3W(&c->rBxt2, rowsWrite, rBxt2);
	tbPutVec3W(&c->invIArAxt2, rowsWrite, v3);
	tbPutVec3W(&c->invIBrBxt2, rowsWrite, v4);
	tbPutW(&c->tangentMass1, rowsWrite, tbInverseMassW(k1));
	tbPutW(&c->tangentMass2, rowsWrite, tbInverseMassW(k2));
	// The twist row turns the bodies about n only: J M^-1 J^T = n . IA^-1 n + n . IB^-1 n.
	tbVec3W iAn, iBn;
	tbFloatW kt =
	    tbAddW(tbRowMassW(movesA, zero, g.iA, n, &iAn), tbRowMassW(movesB, zero, g.iB, n, &iBn));
	tbPutVec3W(&c->invIAn, rowsWrite, iAn);
	tbPutVec3W(&c->invIBn, rowsWrite, iBn);
	tbPutW(&c->twistMass, rowsWrite, tbInverseMassW(kt));
}

void tbPrepareContactLane(tbContactConstraintW* c, int lane, const tbContactConstraint* contact,
                          int contactIndex, tbRigidBody* const* bodies, int staticBody,
                          int sinkBody, const tbSoftness soft[2])
{
	const tbRigidBody* a = contact->bodyA != TB_NULL_BODY ? bodies[contact->bodyA] : NULL;
	const tbRigidBody* b = contact->bodyB != TB_NULL_BODY ? bodies[contact->bodyB] : NULL;
	c->bodyA[lane] = a != NULL ? contact->bodyA : staticBody;
	c->bodyB[lane] = b != NULL ? contact->bodyB : staticBody;
	c->contact[lane] = contactIndex;
	bool movesA = a != NULL && a->type == tb_dynamicBody;
	bool movesB = b != NULL && b->type == tb_dynamicBody;
	c->writeA[lane] = a != NULL && !movesA ? sinkBody : c->bodyA[lane];
	c->writeB[lane] = b != NULL && !movesB ? sinkBody : c->bodyB[lane];
	tbSetLane(&c->invMassA, lane, movesA ? a->invMass : 0.0f);
	tbSetLane(&c->invMassB, lane, movesB ? b->invMass : 0.0f);
	tbSetLane(&c->friction, lane, contact->friction);
	tbSetLane(&c->restitution, lane, contact->restitution);
	const tbSoftness* s = soft + (movesA && movesB ? 0 : 1);
	tbSetLane(&c->biasRate, lane, s->biasRate);
	tbSetLane(&c->massScale, lane, s->massScale);
	tbSetLane(&c->impulseScale, lane, s->impulseScale);
	tbSetLane(&c->maxPush, lane, -s->pushMaxSpeed);
}

// A lane's manifold and bodies for tbSetRowsW, as the step began.
static tbLaneRowsInput tbLaneBodies(const tbContactConstraint* contact, tbRigidBody* const* bodies)
{
	const tbRigidBody* a = contact->bodyA != TB_NULL_BODY ? bodies[contact->bodyA] : NULL;
	const tbRigidBody* b = contact->bodyB != TB_NULL_BODY ? bodies[contact->bodyB] : NULL;
	tbLaneRowsInput in;
	in.manifold = &contact->manifold;
	in.movesA = a != NULL && a->type == tb_dynamicBody;
	in.movesB = b != NULL && b->type == tb_dynamicBody;
	in.mA = in.movesA ? a->invMass : 0.0f;
	in.mB = in.movesB ? b->invMass : 0.0f;
	static const mat3s still; // zero: no spin from a body that does not move
	in.iA = in.movesA ? &a->Iinv : &still;
	in.iB = in.movesB ? &b->Iinv : &still;
	// A manifold made at poses moved on from the step's start (madeA, madeB: the caller's aim at
	// the moment of impact) is anchored at the centres of mass of those poses.
	in.xA = a != NULL ? glms_vec3_add(a->state.x, contact->madeA.dp) : tbV3(0.0f, 0.0f, 0.0f);
	in.xB = b != NULL ? glms_vec3_add(b->state.x, contact->madeB.dp) : tbV3(0.0f, 0.0f, 0.0f);
	return in;
}

void tbPrepareContactRowsW(tbContactConstraintW* c, const tbContactConstraint* contacts,
                           tbRigidBody* const* bodies, const tbSolverDef* def)
{
	tbLaneRowsInput in[TB_SIMD_WIDTH];
	int lanes = 0, last = 0;
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		in[lane].manifold = NULL;
		if (c->contact[lane] >= 0) {
			in[lane] = tbLaneBodies(contacts + c->contact[lane], bodies);
			lanes += 1;
			last = lane;
		}
	}
	if (lanes == 1) {
		// One lane (an overflow record, and every record of the scalar build): the wide rows
		// would cost as much for it as for all. So the scalar build fills its rows with
		// tbSetLaneRows and the SIMD builds with tbSetRowsW, and the determinism test's stored
		// hash, which all three builds must reach, checks the two against each other.
		const tbLaneRowsInput* l = in + last;
		tbSetLaneRows(c, last, l->manifold, l->xA, l->xB, l->movesA, l->movesB, l->mA, l->mB, l->iA,
		              l->iB);
	} else {
		tbSetRowsW(c, in);
	}
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		if (c->contact[lane] < 0) {
			continue;
		}
		const tbContactConstraint* contact = contacts + c->contact[lane];
		const tbManifold* m = &contact->manifold;
		// Points the manifold does not have keep the zeros of the cleared record: no mass, no
		// impulse, so every pass leaves them at zero.
		const tbSolverDelta* dA = &contact->madeA;
		const tbSolverDelta* dB = &contact->madeB;
		vec3s n = tbGetLaneV(&c->normal, lane);
		float dpn = glms_vec3_dot(n, glms_vec3_sub(dB->dp, dA->dp));
		for (int i = 0; i < m->pointCount; ++i) {
			tbContactPointW* cp = c->points + i;
			// A manifold made at the deltas madeA, madeB: the passes measure s0 + J . (deltas
			// since the step's start), so s0 is its separation less what those deltas moved
			// (as tbRefreshContactLane sets it; zero deltas leave it as it is).
			float moved = dpn + glms_vec3_dot(dB->dtheta, tbGetLaneV(&cp->rBxn, lane)) -
			              glms_vec3_dot(dA->dtheta, tbGetLaneV(&cp->rAxn, lane));
			tbSetLane(&cp->separation, lane, m->points[i].separation - moved);
			tbSetLane(&cp->normalImpulse, lane,
			          def->enableWarmStarting ? contact->impulses->points[i].normalImpulse : 0.0f);
			tbSetLane(&cp->maxNormalImpulse, lane, 0.0f);
			tbSetLane(&c->cold[i].relativeVelocity, lane, 0.0f);
		}
		if (contact->surfaceMoves) {
			// Zero (the cleared record's) unless the surfaces move along themselves.
			vec3s t1 = tbGetLaneV(&c->tangent1, lane), t2 = tbGetLaneV(&c->tangent2, lane);
			tbSetLane(&c->tangentSpeed1, lane, glms_vec3_dot(contact->tangentVelocity, t1));
			tbSetLane(&c->tangentSpeed2, lane, glms_vec3_dot(contact->tangentVelocity, t2));
		}
		if (m->pointCount > 0 && def->enableWarmStarting) {
			// Last step's friction on this step's tangents (the normal may have turned a
			// little; the basis follows it).
			vec3s t1 = tbGetLaneV(&c->tangent1, lane), t2 = tbGetLaneV(&c->tangent2, lane);
			tbSetLane(&c->tangentImpulse1, lane,
			          glms_vec3_dot(contact->impulses->frictionImpulse, t1));
			tbSetLane(&c->tangentImpulse2, lane,
			          glms_vec3_dot(contact->impulses->frictionImpulse, t2));
			tbSetLane(&c->twistImpulse, lane, contact->impulses->twistImpulse);
		}
	}
}

// How far a body has moved since the step began: the solver's deltas.
static tbSolverDelta tbMovedBy(const tbSolverBody* s)
{
	tbSolverDelta moved;
	moved.dp = tbV3(s->dp[0], s->dp[1], s->dp[2]);
	moved.dtheta = tbV3(s->dtheta[0], s->dtheta[1], s->dtheta[2]);
	return moved;
}

// Where a body will have moved by the substep's end if it keeps its velocity.
static tbSolverDelta tbMovedAfter(const tbSolverBody* s, float h)
{
	tbSolverDelta moved;
	moved.dp = tbV3(s->dp[0] + h * s->v[0], s->dp[1] + h * s->v[1], s->dp[2] + h * s->v[2]);
	moved.dtheta =
	    tbV3(s->dtheta[0] + h * s->w[0], s->dtheta[1] + h * s->w[1], s->dtheta[2] + h * s->w[2]);
	return moved;
}

// How far an anchored point's separation has changed for the deltas given: n . (dpB - dpA) +
// dthetaB . rB x n - dthetaA . rA x n (a body that does not move contributes nothing).
static float tbAnchoredMotion(vec3s n, tbSolverDelta movedA, tbSolverDelta movedB, vec3s rAxn,
                              vec3s rBxn, const tbRigidBody* a, const tbRigidBody* b)
{
	float s = 0.0f;
	if (a != NULL) {
		s -= glms_vec3_dot(n, movedA.dp) + glms_vec3_dot(movedA.dtheta, rAxn);
	}
	if (b != NULL) {
		s += glms_vec3_dot(n, movedB.dp) + glms_vec3_dot(movedB.dtheta, rBxn);
	}
	return s;
}

// The rows follow a point's separation to first order, s(t) = s + t (vB - vA) . n + (the
// spins' terms), with n held. A point sliding at u over a face that turns at w meets the face
// sooner: d^2 s / dt^2 = 2 u . (w x n) + (the centripetal terms), which over a substep h closes it
// by up to h^2 (u . (w x n)) more than the rows see, a gap no row pushes against. `ahead` is the
// shapes' separation at the substep's end at the velocities now along the normal turned with
// either body (tbContactRefreshFcn); where it is below the rows' linear forecast by `drift`, the
// points' separations are lowered by it, so that the passes close the real gap, and the lane's
// rows made rigid for the rest of the step: the soft push-out (contactHertz) would let the drift
// in at each substep and take it out only over many (a light plate that a bullet spins sweeps
// its face over the ball and sinks it by centimetres). Its push-out cap gains the drift's speed.
static void tbAnticipateTurn(tbContactConstraintW* c, int lane, const tbContactConstraint* contact,
                             const tbManifold* m, const tbSolverBody* sA, const tbSolverBody* sB,
                             float ahead, float h, float pushMaxSpeed)
{
	if (!(ahead < FLT_MAX) || m->pointCount == 0) {
		return;
	}
	vec3s n = m->normal, zero = tbV3(0.0f, 0.0f, 0.0f);
	vec3s vA = sA != NULL ? tbV3(sA->v[0], sA->v[1], sA->v[2]) : zero;
	vec3s wA = sA != NULL ? tbV3(sA->w[0], sA->w[1], sA->w[2]) : zero;
	vec3s vB = sB != NULL ? tbV3(sB->v[0], sB->v[1], sB->v[2]) : zero;
	vec3s wB = sB != NULL ? tbV3(sB->w[0], sB->w[1], sB->w[2]) : zero;
	float vn = glms_vec3_dot(n, glms_vec3_sub(vB, vA));
	float linear = FLT_MAX;
	for (int i = 0; i < m->pointCount; ++i) {
		const tbContactPointW* cp = c->points + i;
		float rate = vn + glms_vec3_dot(wB, tbGetLaneV(&cp->rBxn, lane)) -
		             glms_vec3_dot(wA, tbGetLaneV(&cp->rAxn, lane));
		linear = fminf(linear, m->points[i].separation + h * rate);
	}
	// At most the contact's margin: what the pair's speculative distance allowed for in a step.
	float drift = fminf(linear - ahead, contact->margin);
	if (!(drift > 0.0f)) {
		tbSetLane(&c->maxPush, lane, -pushMaxSpeed); // the cap of an earlier drift goes
		return;
	}
	for (int i = 0; i < m->pointCount; ++i) {
		tbContactPointW* cp = c->points + i;
		tbSetLane(&cp->separation, lane, tbGetLane(&cp->separation, lane) - drift);
	}
	float invH = 1.0f / h;
	tbSetLane(&c->biasRate, lane, invH);
	tbSetLane(&c->massScale, lane, 1.0f);
	tbSetLane(&c->impulseScale, lane, 0.0f);
	tbSetLane(&c->maxPush, lane, -(pushMaxSpeed + drift * invH));
}

tbRefreshResult tbRefreshContactLane(tbContactConstraintW* c, int lane,
                                     tbContactConstraint* contact, tbRigidBody* const* bodies,
                                     const tbSolverBody* states, const tbSolverDef* def, float h,
                                     bool ahead, int worker, float* along)
{
	const tbRigidBody* a = contact->bodyA != TB_NULL_BODY ? bodies[contact->bodyA] : NULL;
	const tbRigidBody* b = contact->bodyB != TB_NULL_BODY ? bodies[contact->bodyB] : NULL;
	const tbSolverBody* sA = states + c->bodyA[lane];
	const tbSolverBody* sB = states + c->bodyB[lane];
	tbSolverDelta movedA = {0}, movedB = {0};
	if (a != NULL) {
		movedA = tbMovedBy(sA);
	}
	if (b != NULL) {
		movedB = tbMovedBy(sB);
	}
	// What the passes would measure now, s = s0 + n . (dpB - dpA) + dthetaB . rB x n - dthetaA .
	// rA x n for each point (as tbSolveContactsW), and at the substep's end if the bodies keep
	// their velocities: the smallest of each.
	tbSolverAnchors anchors;
	anchors.normal = tbGetLaneV(&c->normal, lane);
	anchors.pointCount = contact->manifold.pointCount;
	anchors.gap = anchors.gapNext = anchors.along = anchors.ahead = FLT_MAX;
	anchors.lookAhead = ahead;
	anchors.nextA = tbMovedAfter(sA, h);
	anchors.nextB = tbMovedAfter(sB, h);
	anchors.held = &contact->manifold;
	anchors.heldA = contact->madeA;
	anchors.heldB = contact->madeB;
	for (int i = 0; i < anchors.pointCount; ++i) {
		const tbContactPointW* cp = c->points + i;
		vec3s rAxn = tbGetLaneV(&cp->rAxn, lane), rBxn = tbGetLaneV(&cp->rBxn, lane);
		float s0 = tbGetLane(&cp->separation, lane);
		float now = s0 + tbAnchoredMotion(anchors.normal, movedA, movedB, rAxn, rBxn, a, b);
		float next =
		    s0 + tbAnchoredMotion(anchors.normal, anchors.nextA, anchors.nextB, rAxn, rBxn, a, b);
		anchors.gap = now < anchors.gap ? now : anchors.gap;
		anchors.gapNext = next < anchors.gapNext ? next : anchors.gapNext;
	}
	tbManifold m;
	tbRefreshResult result =
	    def->refreshContact(c->contact[lane], a != NULL ? &movedA : NULL,
	                        b != NULL ? &movedB : NULL, &anchors, &m, worker, def->refreshContext);
	if (result == tb_refreshKept) {
		*along = anchors.along;
		return result;
	}
	if (result != tb_refreshMade || m.pointCount < 0 || m.pointCount > TB_MAX_MANIFOLD_POINTS) {
		return tb_refreshFailed;
	}
	// What the lane holds now, to carry over: each point's impulse by feature id (the same
	// physical contact), the friction as a world vector.
	float impulse[TB_MAX_MANIFOLD_POINTS], pushed[TB_MAX_MANIFOLD_POINTS],
	    approach[TB_MAX_MANIFOLD_POINTS], summed[TB_MAX_MANIFOLD_POINTS];
	uint32_t id[TB_MAX_MANIFOLD_POINTS];
	int oldCount = contact->manifold.pointCount;
	for (int i = 0; i < oldCount; ++i) {
		id[i] = contact->manifold.points[i].id;
		impulse[i] = tbGetLane(&c->points[i].normalImpulse, lane);
		pushed[i] = tbGetLane(&c->points[i].maxNormalImpulse, lane);
		approach[i] = tbGetLane(&c->cold[i].relativeVelocity, lane);
		summed[i] = tbGetLane(&c->cold[i].stepImpulse, lane);
	}
	vec3s friction = glms_vec3_add(
	    glms_vec3_scale(tbGetLaneV(&c->tangent1, lane), tbGetLane(&c->tangentImpulse1, lane)),
	    glms_vec3_scale(tbGetLaneV(&c->tangent2, lane), tbGetLane(&c->tangentImpulse2, lane)));

	bool movesA = a != NULL && a->type == tb_dynamicBody;
	bool movesB = b != NULL && b->type == tb_dynamicBody;
	float mA = tbGetLane(&c->invMassA, lane), mB = tbGetLane(&c->invMassB, lane);
	// The inertia stays the step's start's, as for every other row (w = I0^-1 L in the soft
	// step); only the anchors, normal and separations are new.
	static const mat3s still; // zero: no spin from a body that does not move
	const mat3s* iA = movesA ? &a->Iinv : &still;
	const mat3s* iB = movesB ? &b->Iinv : &still;
	vec3s xA = a != NULL ? glms_vec3_add(a->state.x, movedA.dp) : tbV3(0.0f, 0.0f, 0.0f);
	vec3s xB = b != NULL ? glms_vec3_add(b->state.x, movedB.dp) : tbV3(0.0f, 0.0f, 0.0f);
	tbSetLaneRows(c, lane, &m, xA, xB, movesA, movesB, mA, mB, iA, iB);
	// The passes measure a separation as s0 + n . (dpB - dpA) + dthetaB . rB x n - dthetaA .
	// rA x n with the deltas since the step began; s0 is set so that this is the new manifold's
	// separation at the deltas of now.
	vec3s n = m.normal;
	float dpn =
	    glms_vec3_dot(n, tbV3(sB->dp[0] - sA->dp[0], sB->dp[1] - sA->dp[1], sB->dp[2] - sA->dp[2]));
	vec3s dthA = tbV3(sA->dtheta[0], sA->dtheta[1], sA->dtheta[2]);
	vec3s dthB = tbV3(sB->dtheta[0], sB->dtheta[1], sB->dtheta[2]);
	// Rows past the old manifold's points are zero already (cleared, or zeroed by the last
	// refresh); only those the new manifold gives up are zeroed here.
	int rows = m.pointCount > oldCount ? m.pointCount : oldCount;
	for (int i = 0; i < rows; ++i) {
		tbContactPointW* cp = c->points + i;
		if (i >= m.pointCount) {
			// A point the new manifold lacks: no mass, no impulse.
			tbSetLane(&cp->normalMass, lane, 0.0f);
			tbSetLane(&cp->normalImpulse, lane, 0.0f);
			tbSetLane(&cp->maxNormalImpulse, lane, 0.0f);
			tbSetLane(&c->cold[i].relativeVelocity, lane, 0.0f);
			tbSetLane(&c->cold[i].stepImpulse, lane, 0.0f);
			tbSetLane(&cp->separation, lane, 0.0f);
			tbSetLaneV(&cp->rAxn, lane, tbV3(0.0f, 0.0f, 0.0f));
			tbSetLaneV(&cp->rBxn, lane, tbV3(0.0f, 0.0f, 0.0f));
			tbSetLaneV(&cp->invIArAxn, lane, tbV3(0.0f, 0.0f, 0.0f));
			tbSetLaneV(&cp->invIBrBxn, lane, tbV3(0.0f, 0.0f, 0.0f));
			continue;
		}
		float moved = dpn + glms_vec3_dot(dthB, tbGetLaneV(&cp->rBxn, lane)) -
		              glms_vec3_dot(dthA, tbGetLaneV(&cp->rAxn, lane));
		tbSetLane(&cp->separation, lane, m.points[i].separation - moved);
		float carried = 0.0f, carriedMax = 0.0f, carriedSpeed = 0.0f, carriedSum = 0.0f;
		for (int j = 0; j < oldCount; ++j) {
			if (id[j] == m.points[i].id) {
				carried = impulse[j];
				carriedMax = pushed[j];
				carriedSpeed = approach[j];
				carriedSum = summed[j];
				break;
			}
		}
		tbSetLane(&cp->normalImpulse, lane, carried);
		tbSetLane(&c->cold[i].stepImpulse, lane, carriedSum);
		tbSetLane(&cp->maxNormalImpulse, lane, carriedMax);
		tbSetLane(&c->cold[i].relativeVelocity, lane, carriedSpeed);
	}
	if (m.pointCount == 0) {
		tbSetLane(&c->tangentMass1, lane, 0.0f);
		tbSetLane(&c->tangentMass2, lane, 0.0f);
		tbSetLane(&c->twistMass, lane, 0.0f);
		friction = tbV3(0.0f, 0.0f, 0.0f);
		tbSetLane(&c->twistImpulse, lane, 0.0f);
	}
	vec3s t1 = tbGetLaneV(&c->tangent1, lane), t2 = tbGetLaneV(&c->tangent2, lane);
	tbSetLane(&c->tangentImpulse1, lane, glms_vec3_dot(friction, t1));
	tbSetLane(&c->tangentImpulse2, lane, glms_vec3_dot(friction, t2));
	tbSetLane(&c->tangentSpeed1, lane, glms_vec3_dot(contact->tangentVelocity, t1));
	tbSetLane(&c->tangentSpeed2, lane, glms_vec3_dot(contact->tangentVelocity, t2));
	contact->manifold = m;
	contact->madeA = movedA;
	contact->madeB = movedB;
	contact->remade += 1;
	tbAnticipateTurn(c, lane, contact, &m, a != NULL ? sA : NULL, b != NULL ? sB : NULL,
	                 anchors.ahead, h, def->contactPushMaxSpeed);
	return tb_refreshMade;
}

void tbStoreContactImpulsesW(const tbContactConstraintW* c, tbContactConstraint* contacts)
{
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		if (c->contact[lane] < 0) {
			continue;
		}
		tbContactConstraint* contact = contacts + c->contact[lane];
		tbContactImpulses* out = contact->impulses;
		out->pointCount = contact->manifold.pointCount;
		for (int i = 0; i < out->pointCount; ++i) {
			out->points[i].id = contact->manifold.points[i].id;
			out->points[i].normalImpulse = tbGetLane(&c->points[i].normalImpulse, lane);
			out->points[i].stepNormalImpulse = tbGetLane(&c->cold[i].stepImpulse, lane);
		}
		out->stepFrictionImpulse = tbGetLaneV(&c->stepFriction, lane);
		vec3s t1 = tbGetLaneV(&c->tangent1, lane), t2 = tbGetLaneV(&c->tangent2, lane);
		out->frictionImpulse =
		    glms_vec3_add(glms_vec3_scale(t1, tbGetLane(&c->tangentImpulse1, lane)),
		                  glms_vec3_scale(t2, tbGetLane(&c->tangentImpulse2, lane)));
		out->twistImpulse = tbGetLane(&c->twistImpulse, lane);
	}
}

vec3s tbContactImpulses_PointFriction(const tbContactImpulses* impulses, int i)
{
	int n = impulses->pointCount;
	if (i < 0 || i >= n) {
		return tbV3(0.0f, 0.0f, 0.0f);
	}
	float stepTotal = 0.0f;
	for (int k = 0; k < n; ++k) {
		stepTotal += impulses->points[k].stepNormalImpulse;
	}
	float share =
	    stepTotal > 0.0f ? impulses->points[i].stepNormalImpulse / stepTotal : 1.0f / (float)n;
	return glms_vec3_scale(impulses->stepFrictionImpulse, share);
}

// ---------------------------------------------------------------------------------------------
// Gather and scatter: the states of the lanes' bodies into wide vectors and back.

typedef struct tbBodyW
{
	tbVec3W v, w, dp, dtheta;
} tbBodyW;

#if TB_SIMD_WIDTH == 4
// Four 16-byte rows (x, y, z, pad) transposed into x, y and z of four lanes.
static inline tbVec3W tbGatherRow(const tbSolverBody* s, const int* index, size_t offset)
{
	__m128 r0 = _mm_load_ps((const float*)((const char*)(s + index[0]) + offset));
	__m128 r1 = _mm_load_ps((const float*)((const char*)(s + index[1]) + offset));
	__m128 r2 = _mm_load_ps((const float*)((const char*)(s + index[2]) + offset));
	__m128 r3 = _mm_load_ps((const float*)((const char*)(s + index[3]) + offset));
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	tbVec3W out = {r0, r1, r2};
	return out;
}

static inline void tbScatterRow(tbSolverBody* s, const int* index, size_t offset, tbVec3W a)
{
	__m128 r0 = a.x, r1 = a.y, r2 = a.z, r3 = _mm_setzero_ps();
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_store_ps((float*)((char*)(s + index[0]) + offset), r0);
	_mm_store_ps((float*)((char*)(s + index[1]) + offset), r1);
	_mm_store_ps((float*)((char*)(s + index[2]) + offset), r2);
	_mm_store_ps((float*)((char*)(s + index[3]) + offset), r3);
}
#else
// Any width: lane by lane through an aligned buffer (the scalar build reads one body).
static inline tbVec3W tbGatherRow(const tbSolverBody* s, const int* index, size_t offset)
{
	_Alignas(32) float x[TB_SIMD_WIDTH], y[TB_SIMD_WIDTH], z[TB_SIMD_WIDTH];
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		const float* row = (const float*)((const char*)(s + index[lane]) + offset);
		x[lane] = row[0];
		y[lane] = row[1];
		z[lane] = row[2];
	}
	tbVec3W out = {tbLoadW(x), tbLoadW(y), tbLoadW(z)};
	return out;
}

static inline void tbScatterRow(tbSolverBody* s, const int* index, size_t offset, tbVec3W a)
{
	_Alignas(32) float x[TB_SIMD_WIDTH], y[TB_SIMD_WIDTH], z[TB_SIMD_WIDTH];
	tbStoreW(x, a.x);
	tbStoreW(y, a.y);
	tbStoreW(z, a.z);
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		float* row = (float*)((char*)(s + index[lane]) + offset);
		row[0] = x[lane];
		row[1] = y[lane];
		row[2] = z[lane];
	}
}
#endif

static inline tbBodyW tbGatherBodies(const tbSolverBody* s, const int* index, bool deltas)
{
	tbBodyW b;
	b.v = tbGatherRow(s, index, offsetof(tbSolverBody, v));
	b.w = tbGatherRow(s, index, offsetof(tbSolverBody, w));
	if (deltas) {
		b.dp = tbGatherRow(s, index, offsetof(tbSolverBody, dp));
		b.dtheta = tbGatherRow(s, index, offsetof(tbSolverBody, dtheta));
	} else {
		b.dp = b.dtheta = (tbVec3W){tbZeroW(), tbZeroW(), tbZeroW()};
	}
	return b;
}

// Only the velocities change in a constraint pass.
static inline void tbScatterBodies(tbSolverBody* s, const int* index, const tbBodyW* b)
{
	tbScatterRow(s, index, offsetof(tbSolverBody, v), b->v);
	tbScatterRow(s, index, offsetof(tbSolverBody, w), b->w);
}

// An impulse `lambda` along the linear direction d with spins sA, sB per unit impulse: -lambda
// on A, +lambda on B (Baraff II eq. 8-12, 8-13: P += J, L += r x J, in velocity form).
static inline void tbApplyW(tbBodyW* a, tbBodyW* b, tbFloatW mA, tbFloatW mB, tbVec3W d, tbVec3W sA,
                            tbVec3W sB, tbFloatW lambda)
{
	tbFloatW la = tbMulW(mA, lambda), lb = tbMulW(mB, lambda);
	a->v = tbVecMulSubW(a->v, la, d);
	a->w = tbVecMulSubW(a->w, lambda, sA);
	b->v = tbVecMulAddW(b->v, lb, d);
	b->w = tbVecMulAddW(b->w, lambda, sB);
}

// The relative velocity along a row: d . (vB - vA) + rB x d . wB - rA x d . wA.
static inline tbFloatW tbRowSpeedW(const tbBodyW* a, const tbBodyW* b, tbVec3W d, tbVec3W rAxd,
                                   tbVec3W rBxd)
{
	tbFloatW lin = tbDotW(d, tbVecSubW(b->v, a->v));
	return tbSubW(tbAddW(lin, tbDotW(rBxd, b->w)), tbDotW(rAxd, a->w));
}

// The moving sides' speed along a row: B's part where B is dynamic less A's where A is (an
// impulse does work only on the bodies whose energy the ledger holds; static and kinematic
// bodies are not in it).
static inline tbFloatW tbMovingSpeedW(const tbBodyW* a, const tbBodyW* b, tbVec3W d, tbVec3W rAxd,
                                      tbVec3W rBxd, tbFloatW movesA, tbFloatW movesB)
{
	tbFloatW sb = tbAddW(tbDotW(d, b->v), tbDotW(rBxd, b->w));
	tbFloatW sa = tbAddW(tbDotW(d, a->v), tbDotW(rAxd, a->w));
	return tbSubW(tbKeepW(movesB, sb), tbKeepW(movesA, sa));
}

// tbApplyW; with `seen`, also the impulse's work, split between two causes: its first `first`
// (added to *firstWork) and the rest (*secondWork), as if applied one after the other. The
// velocities change linearly in lambda through a constant mass matrix, so an impulse's kinetic
// work is exactly lambda (u_before + u_after) / 2, u the moving sides' speed along the row, and
// the speed between the two parts is u_before + first k, k = sum over the moving sides of
// m^-1 + (r x d) . I^-1 (r x d) (Baraff II eq. 8-18). To the kinetic work comes the gravity part of
// the sampled energy (docs/energy.md, "Gravity's half substep"): +-h lambda (g'_B - g'_A) . d / 2,
// minus before the substep's deltas are integrated and plus after, the other half being
// gravity's (seen->gravityWork). The impulse is applied whole, as the plain pass applies it (the
// same bits); the plain passes pass a null `seen`.
static inline __attribute__((always_inline)) void
tbApplySplitSeenW(tbBodyW* a, tbBodyW* b, const tbContactConstraintW* c, tbVec3W d, tbVec3W rAxd,
                  tbVec3W rBxd, tbVec3W sA, tbVec3W sB, tbFloatW lambda, tbFloatW first,
                  tbRowsSeen* seen, tbFloatW* firstWork, tbFloatW* secondWork)
{
	if (seen == NULL) {
		tbApplyW(a, b, c->invMassA, c->invMassB, d, sA, sB, lambda);
		return;
	}
	tbFloatW zero = tbZeroW(), half = tbSplatW(0.5f);
	tbFloatW movesA = tbGreaterW(c->invMassA, zero), movesB = tbGreaterW(c->invMassB, zero);
	tbFloatW before = tbMovingSpeedW(a, b, d, rAxd, rBxd, movesA, movesB);
	tbApplyW(a, b, c->invMassA, c->invMassB, d, sA, sB, lambda);
	tbFloatW after = tbMovingSpeedW(a, b, d, rAxd, rBxd, movesA, movesB);
	tbFloatW k = tbAddW(tbKeepW(movesA, tbAddW(c->invMassA, tbDotW(rAxd, sA))),
	                    tbKeepW(movesB, tbAddW(c->invMassB, tbDotW(rBxd, sB))));
	tbFloatW between = tbMulAddW(before, first, k);
	tbFloatW second = tbSubW(lambda, first);
	// h (g'_A - g'_B) . d / 2 per unit impulse (gravityHA, gravityHB hold h g' / 2).
	tbFloatW lift = tbDotW(d, tbVecSubW(seen->gravityHA, seen->gravityHB));
	tbFloatW sign = tbSplatW(seen->afterDeltas ? -1.0f : 1.0f);
	tbFloatW w1 = tbMulW(tbMulW(half, first), tbAddW(before, between));
	tbFloatW w2 = tbMulW(tbMulW(half, second), tbAddW(between, after));
	*firstWork = tbAddW(*firstWork, tbMulAddW(w1, tbMulW(sign, first), lift));
	*secondWork = tbAddW(*secondWork, tbMulAddW(w2, tbMulW(sign, second), lift));
	seen->gravityWork = tbMulAddW(seen->gravityWork, lambda, lift);
}

// tbApplySplitSeenW with the whole impulse to one cause.
static inline __attribute__((always_inline)) void
tbApplySeenW(tbBodyW* a, tbBodyW* b, const tbContactConstraintW* c, tbVec3W d, tbVec3W rAxd,
             tbVec3W rBxd, tbVec3W sA, tbVec3W sB, tbFloatW lambda, tbRowsSeen* seen,
             tbFloatW* work)
{
	tbApplySplitSeenW(a, b, c, d, rAxd, rBxd, sA, sB, lambda, lambda, seen, work, work);
}

// The twist row's impulse dT about n (angular only: no potential part), and its work with `seen`.
static inline __attribute__((always_inline)) void tbApplyTwistSeenW(tbBodyW* a, tbBodyW* b,
                                                                    const tbContactConstraintW* c,
                                                                    tbFloatW dT, tbRowsSeen* seen,
                                                                    tbFloatW* work)
{
	tbFloatW before = tbZeroW();
	tbVec3W none = {tbZeroW(), tbZeroW(), tbZeroW()};
	tbFloatW movesA = before, movesB = before;
	if (seen != NULL) {
		movesA = tbGreaterW(c->invMassA, before);
		movesB = tbGreaterW(c->invMassB, before);
		before = tbMovingSpeedW(a, b, none, c->normal, c->normal, movesA, movesB);
	}
	a->w = tbVecMulSubW(a->w, dT, c->invIAn);
	b->w = tbVecMulAddW(b->w, dT, c->invIBn);
	if (seen != NULL) {
		tbFloatW after = tbMovingSpeedW(a, b, none, c->normal, c->normal, movesA, movesB);
		*work = tbAddW(*work, tbMulW(tbSplatW(0.5f), tbMulW(dT, tbAddW(before, after))));
	}
}

static inline __attribute__((always_inline)) void
tbWarmStartBody(tbContactConstraintW* c, tbSolverBody* states, tbRowsSeen* seen)
{
	tbBodyW a = tbGatherBodies(states, c->bodyA, false);
	tbBodyW b = tbGatherBodies(states, c->bodyB, false);
	tbFloatW normalWork = tbZeroW(), frictionWork = tbZeroW();
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPointW* cp = c->points + i;
		tbApplySeenW(&a, &b, c, c->normal, cp->rAxn, cp->rBxn, cp->invIArAxn, cp->invIBrBxn,
		             cp->normalImpulse, seen, &normalWork);
	}
	tbApplySeenW(&a, &b, c, c->tangent1, c->rAxt1, c->rBxt1, c->invIArAxt1, c->invIBrBxt1,
	             c->tangentImpulse1, seen, &frictionWork);
	tbApplySeenW(&a, &b, c, c->tangent2, c->rAxt2, c->rBxt2, c->invIArAxt2, c->invIBrBxt2,
	             c->tangentImpulse2, seen, &frictionWork);
	tbApplyTwistSeenW(&a, &b, c, c->twistImpulse, seen, &frictionWork);
	tbScatterBodies(states, c->writeA, &a);
	tbScatterBodies(states, c->writeB, &b);
	if (seen != NULL) {
		seen->normalWork = normalWork;
		seen->frictionWork = frictionWork;
	}
}

void tbWarmStartContactsW(tbContactConstraintW* c, tbSolverBody* states)
{
	tbWarmStartBody(c, states, NULL);
}

void tbWarmStartContactsSeenW(tbContactConstraintW* c, tbSolverBody* states, tbRowsSeen* seen)
{
	tbWarmStartBody(c, states, seen);
}

static inline __attribute__((always_inline)) void tbSolveContactsBody(tbContactConstraintW* c,
                                                                      tbSolverBody* states,
                                                                      float invH, bool useBias,
                                                                      tbRowsSeen* seen)
{
	tbBodyW a = tbGatherBodies(states, c->bodyA, true);
	tbBodyW b = tbGatherBodies(states, c->bodyB, true);
	tbFloatW zero = tbZeroW(), one = tbSplatW(1.0f);
	tbFloatW invHW = tbSplatW(invH), maxPush = c->maxPush;
	// How far the bodies have moved apart along n since the manifold was made.
	tbFloatW dpn = tbDotW(c->normal, tbVecSubW(b.dp, a.dp));
	tbFloatW totalNormal = zero;
	tbFloatW normalWork = zero, biasWork = zero, frictionWork = zero;

	// Non-penetration, point by point (Catto 2005: the accumulated impulse is clamped at >= 0).
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPointW* cp = c->points + i;
		// The separation now, to first order in the deltas: s = s0 + J . (dp, dtheta).
		tbFloatW s = tbAddW(tbAddW(cp->separation, dpn),
		                    tbSubW(tbDotW(b.dtheta, cp->rBxn), tbDotW(a.dtheta, cp->rAxn)));
		tbFloatW apart = tbGreaterW(s, zero);
		// Speculative (apart): close exactly the gap in this substep, no more. Overlapping: a
		// soft spring-damper push with a capped speed in the biased pass (Catto 2011), nothing in
		// the relax pass, which removes the push-out speed so that it leaves no energy behind.
		tbFloatW bias = tbMulW(s, invHW);
		tbFloatW massScale = one, impulseScale = zero;
		if (useBias) {
			tbFloatW soft = tbMaxW(tbMulW(c->biasRate, s), maxPush);
			bias = tbSelectW(apart, soft, bias);
			massScale = tbSelectW(apart, c->massScale, one);
			impulseScale = tbSelectW(apart, c->impulseScale, zero);
		} else {
			bias = tbSelectW(apart, zero, bias);
		}
		tbFloatW vn = tbRowSpeedW(&a, &b, c->normal, cp->rAxn, cp->rBxn);
		if (seen != NULL) {
			// The row's velocity error: what its update drives to zero (a row that is apart and
			// not pushing has none).
			tbFloatW error = tbAddW(vn, bias);
			tbFloatW idle =
			    tbAndMaskW(tbGreaterW(error, zero), tbLessW(cp->normalImpulse, tbSplatW(1e-30f)));
			seen->speedError[i] = tbSelectW(idle, error, zero);
			seen->bias[i] = bias;
		}
		tbFloatW mass = tbMulW(tbSubW(zero, cp->normalMass), massScale);
		tbFloatW impulse =
		    tbSubW(tbMulW(mass, tbAddW(vn, bias)), tbMulW(impulseScale, cp->normalImpulse));
		tbFloatW newImpulse = tbMaxW(tbAddW(cp->normalImpulse, impulse), zero);
		impulse = tbSubW(newImpulse, cp->normalImpulse);
		// Observed, the impulse in two parts (docs/energy.md, "Position correction"). Biased
		// pass: first a rigid contact's update, -m (J v) (with the speculative gap's bias where
		// apart), clamped as the row clamps: the impact, which stops the approach; then the rest,
		// by which the soft row differs from it (its bias, mass and impulse scales): the
		// position correction. Relax pass: first what takes back this substep's position
		// correction impulse (up to it, of the opposite sign), then the impact's rest.
		tbFloatW first = impulse;
		tbFloatW* firstWork = &normalWork;
		tbFloatW* secondWork = &biasWork;
		if (seen != NULL && useBias) {
			tbFloatW speculative = tbSelectW(apart, zero, bias);
			tbFloatW rigid = tbMulW(tbSubW(zero, cp->normalMass), tbAddW(vn, speculative));
			first = tbSubW(tbMaxW(tbAddW(cp->normalImpulse, rigid), zero), cp->normalImpulse);
			seen->biasImpulse[i] = tbAddW(seen->biasImpulse[i], tbSubW(impulse, first));
		} else if (seen != NULL) {
			tbFloatW back = tbSubW(zero, seen->biasImpulse[i]);
			first = tbMinW(tbMaxW(impulse, tbMinW(back, zero)), tbMaxW(back, zero));
			seen->biasImpulse[i] = tbAddW(seen->biasImpulse[i], first);
			firstWork = &biasWork;
			secondWork = &normalWork;
		}
		cp->normalImpulse = newImpulse;
		cp->maxNormalImpulse = tbMaxW(cp->maxNormalImpulse, impulse);
		tbApplySplitSeenW(&a, &b, c, c->normal, cp->rAxn, cp->rBxn, cp->invIArAxn, cp->invIBrBxn,
		                  impulse, first, seen, firstWork, secondWork);
		totalNormal = tbAddW(totalNormal, newImpulse);
	}

	if (!useBias) {
		// Coulomb friction in the relax pass only (Box3D's choice): the biased pass's push-out
		// is removed by the relax pass anyway. The 2D friction impulse at the centre is clamped
		// to the disc of radius mu N (isotropic, unlike a box per tangent).
		tbFloatW vt1 = tbRowSpeedW(&a, &b, c->tangent1, c->rAxt1, c->rBxt1);
		tbFloatW vt2 = tbRowSpeedW(&a, &b, c->tangent2, c->rAxt2, c->rBxt2);
		tbFloatW old1 = c->tangentImpulse1, old2 = c->tangentImpulse2;
		// Friction drives the slip to the target speed (zero but on a conveyor belt).
		tbFloatW new1 = tbMulSubW(old1, c->tangentMass1, tbSubW(vt1, c->tangentSpeed1));
		tbFloatW new2 = tbMulSubW(old2, c->tangentMass2, tbSubW(vt2, c->tangentSpeed2));
		tbFloatW maxFriction = tbMulW(c->friction, totalNormal);
		tbFloatW length2 = tbAddW(tbMulW(new1, new1), tbMulW(new2, new2));
		tbFloatW sliding = tbGreaterW(length2, tbMulW(maxFriction, maxFriction));
		// Lanes that do not slide never use the quotient (0/0 there is discarded).
		tbFloatW scale = tbSelectW(sliding, one, tbDivW(maxFriction, tbSqrtW(length2)));
		new1 = tbMulW(new1, scale);
		new2 = tbMulW(new2, scale);
		c->tangentImpulse1 = new1;
		c->tangentImpulse2 = new2;
		tbApplySeenW(&a, &b, c, c->tangent1, c->rAxt1, c->rBxt1, c->invIArAxt1, c->invIBrBxt1,
		             tbSubW(new1, old1), seen, &frictionWork);
		tbApplySeenW(&a, &b, c, c->tangent2, c->rAxt2, c->rBxt2, c->invIArAxt2, c->invIBrBxt2,
		             tbSubW(new2, old2), seen, &frictionWork);

		// Twist: friction torque about n, limited by mu N times the points' mean lever arm.
		tbFloatW vt = tbDotW(c->normal, tbVecSubW(b.w, a.w));
		tbFloatW maxTwist = tbMulW(maxFriction, c->twistArm);
		tbFloatW oldT = c->twistImpulse;
		tbFloatW newT = tbMulSubW(oldT, c->twistMass, vt);
		newT = tbMaxW(tbMinW(newT, maxTwist), tbSubW(zero, maxTwist));
		c->twistImpulse = newT;
		tbFloatW dT = tbSubW(newT, oldT);
		tbApplyTwistSeenW(&a, &b, c, dT, seen, &frictionWork);
		if (seen != NULL) {
			seen->tangentError1 = tbSubW(vt1, c->tangentSpeed1);
			seen->tangentError2 = tbSubW(vt2, c->tangentSpeed2);
			seen->twistError = vt;
			seen->clamped = sliding;
		}
	}
	tbScatterBodies(states, c->writeA, &a);
	tbScatterBodies(states, c->writeB, &b);
	if (seen != NULL) {
		seen->normalWork = normalWork;
		seen->biasWork = biasWork;
		seen->frictionWork = frictionWork;
	}
}

void tbSolveContactsW(tbContactConstraintW* c, tbSolverBody* states, float invH, bool useBias)
{
	tbSolveContactsBody(c, states, invH, useBias, NULL);
}

void tbSolveContactsSeenW(tbContactConstraintW* c, tbSolverBody* states, float invH, bool useBias,
                          tbRowsSeen* seen)
{
	tbSolveContactsBody(c, states, invH, useBias, seen);
}

void tbSetImpactSpeedW(tbContactConstraintW* c, const tbSolverBody* states,
                       const tbSolverBodyMotion* motions, int bodyCount, float h)
{
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		if (c->contact[lane] < 0) {
			continue;
		}
		int ia = c->bodyA[lane], ib = c->bodyB[lane];
		const tbSolverBody* sa = states + ia;
		const tbSolverBody* sb = states + ib;
		vec3s zero3 = {{0.0f, 0.0f, 0.0f}};
		vec3s aA = ia < bodyCount ? motions[ia].linearAcceleration : zero3;
		vec3s aB = ib < bodyCount ? motions[ib].linearAcceleration : zero3;
		vec3s alA = ia < bodyCount ? motions[ia].angularAcceleration : zero3;
		vec3s alB = ib < bodyCount ? motions[ib].angularAcceleration : zero3;
		vec3s n = tbGetLaneV(&c->normal, lane);
		vec3s vA = {{sa->v[0], sa->v[1], sa->v[2]}}, wA = {{sa->w[0], sa->w[1], sa->w[2]}};
		vec3s vB = {{sb->v[0], sb->v[1], sb->v[2]}}, wB = {{sb->w[0], sb->w[1], sb->w[2]}};
		float linearAccel = glms_vec3_dot(n, glms_vec3_sub(aB, aA));
		float linearSpeed = glms_vec3_dot(n, glms_vec3_sub(vB, vA));
		for (int i = 0; i < c->pointCount; ++i) {
			tbContactPointW* cp = c->points + i;
			vec3s rAxn = tbGetLaneV(&cp->rAxn, lane), rBxn = tbGetLaneV(&cp->rBxn, lane);
			// J . (aA, alphaA, aB, alphaB) and J . (vA, wA, vB, wB), as tbRowSpeedW.
			float a = linearAccel + glms_vec3_dot(rBxn, alB) - glms_vec3_dot(rAxn, alA);
			float v = linearSpeed + glms_vec3_dot(rBxn, wB) - glms_vec3_dot(rAxn, wA);
			// The substeps' semi-implicit Euler samples the parabola whose speed at the step's
			// start is u0 = v + a h / 2; the gap s0 closes on it at u^2 = u0^2 - 2 a s0
			// (docs/solver.md, "Restitution"). A pair that would not reach (u^2 < 0) or that
			// separates with nothing pulling it back meets at no speed.
			float u0 = v + 0.5f * h * a;
			float s0 = fmaxf(tbGetLane(&cp->separation, lane), 0.0f);
			float u2 = u0 * u0 - 2.0f * a * s0;
			float u = u2 > 0.0f ? -sqrtf(u2) : 0.0f;
			if (u0 > 0.0f && a >= 0.0f) {
				u = 0.0f;
			}
			tbSetLane(&c->cold[i].approachAccel, lane, a);
			tbSetLane(&c->cold[i].relativeVelocity, lane, u);
		}
	}
}

static inline __attribute__((always_inline)) void tbRestitutionBody(tbContactConstraintW* c,
                                                                    tbSolverBody* states,
                                                                    float threshold, float h,
                                                                    tbRowsSeen* seen)
{
	tbFloatW normalWork = tbZeroW();
	tbFloatW zero = tbZeroW();
	tbFloatW bounces = tbGreaterW(c->restitution, zero);
	if (!tbAnyW(bounces)) {
		return;
	}
	tbBodyW a = tbGatherBodies(states, c->bodyA, true);
	tbBodyW b = tbGatherBodies(states, c->bodyB, true);
	tbFloatW fast = tbSplatW(-threshold);
	tbFloatW dpn = tbDotW(c->normal, tbVecSubW(b.dp, a.dp));
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPointW* cp = c->points + i;
		// Only a real impact bounces: fast enough, and the point actually pushed this step. This
		// keeps resting contacts from jittering and speculative points from bouncing early.
		tbFloatW impact = tbAndMaskW(tbLessW(c->cold[i].relativeVelocity, fast),
		                             tbGreaterW(cp->maxNormalImpulse, zero));
		impact = tbAndMaskW(impact, bounces);
		if (!tbAnyW(impact)) {
			continue;
		}
		tbFloatW vn = tbRowSpeedW(&a, &b, c->normal, cp->rAxn, cp->rBxn);
		// Newton's impact law (Baraff II eq. 8-5) on the sampled parabola (docs/solver.md,
		// "Restitution"): the pair leaves the surface at -e u, u the speed at impact; where the
		// step ended with the pair still a gap s apart (the relax pass held it back for the next
		// substep), it is put on the outgoing parabola there, u'^2 = e^2 u^2 + 2 a s, so that it
		// keeps the same height. The velocity that samples that parabola is a h / 2 less.
		tbFloatW gap = tbAddW(tbAddW(cp->separation, dpn),
		                      tbSubW(tbDotW(b.dtheta, cp->rBxn), tbDotW(a.dtheta, cp->rAxn)));
		gap = tbMaxW(gap, zero);
		tbFloatW out = tbMulW(c->restitution, c->cold[i].relativeVelocity);
		tbFloatW out2 =
		    tbAddW(tbMulW(out, out), tbMulW(tbSplatW(2.0f), tbMulW(c->cold[i].approachAccel, gap)));
		tbFloatW target = tbSubW(tbSqrtW(tbMaxW(out2, zero)),
		                         tbMulW(tbSplatW(0.5f * h), c->cold[i].approachAccel));
		tbFloatW impulse = tbMulW(tbSubW(zero, cp->normalMass), tbSubW(vn, target));
		tbFloatW newImpulse = tbMaxW(tbAddW(cp->normalImpulse, impulse), zero);
		impulse = tbSelectW(impact, zero, tbSubW(newImpulse, cp->normalImpulse));
		cp->normalImpulse = tbAddW(cp->normalImpulse, impulse);
		cp->maxNormalImpulse = tbMaxW(cp->maxNormalImpulse, impulse);
		c->cold[i].stepImpulse = tbAddW(c->cold[i].stepImpulse, impulse);
		tbApplySeenW(&a, &b, c, c->normal, cp->rAxn, cp->rBxn, cp->invIArAxn, cp->invIBrBxn,
		             impulse, seen, &normalWork);
	}
	tbScatterBodies(states, c->writeA, &a);
	tbScatterBodies(states, c->writeB, &b);
	if (seen != NULL) {
		seen->normalWork = normalWork;
	}
}

void tbApplyRestitutionW(tbContactConstraintW* c, tbSolverBody* states, float threshold, float h)
{
	tbRestitutionBody(c, states, threshold, h, NULL);
}

void tbApplyRestitutionSeenW(tbContactConstraintW* c, tbSolverBody* states, float threshold,
                             float h, tbRowsSeen* seen)
{
	tbRestitutionBody(c, states, threshold, h, seen);
}

// ---------------------------------------------------------------------------------------------
// The collision phase (docs/solver.md, "Collisions before the solve"; Guendelman, Bridson and
// Fedkiw 2003, "Nonconvex rigid bodies with stacking"): once per step, before the substeps,
// pairwise collision impulses with restitution at the points that meet within the step faster
// than the threshold, swept Gauss-Seidel over the records by the caller (solver.c).

// Lanes where the mask is clear (all bits) or set (zero).
static inline tbFloatW tbNotW(tbFloatW mask)
{
	tbFloatW zero = tbZeroW();
	return tbSelectW(mask, tbGreaterW(tbSplatW(1.0f), zero), zero);
}

// Inner passes over a record's struck points per visit: a manifold's points share the impulse
// (a box landing flat on four corners gets four equal impulses and no spin), as the soft passes'
// accumulated, clamped impulses do. The same count for every record, so that a lane's bits do
// not depend on the other lanes of its record (the scalar, SSE2 and AVX2 builds agree).
#define TB_COLLISION_PASSES 8

// The deltas change too in the collision phase: a struck body's dp and dtheta.
static inline void tbScatterDeltas(tbSolverBody* s, const int* index, const tbBodyW* b)
{
	tbScatterRow(s, index, offsetof(tbSolverBody, dp), b->dp);
	tbScatterRow(s, index, offsetof(tbSolverBody, dtheta), b->dtheta);
}

static inline __attribute__((always_inline)) bool tbCollideBody(tbContactConstraintW* c,
                                                                tbSolverBody* states, float window,
                                                                float h, float threshold,
                                                                tbRowsSeen* seen)
{
	tbFloatW zero = tbZeroW();
	tbFloatW bounces = tbGreaterW(c->restitution, zero);
	if (!tbAnyW(bounces)) {
		return false;
	}
	tbBodyW a = tbGatherBodies(states, c->bodyA, true);
	tbBodyW b = tbGatherBodies(states, c->bodyB, true);
	tbFloatW halfH = tbSplatW(0.5f * h), two = tbSplatW(2.0f), reach = tbSplatW(window);
	tbFloatW fast = tbSplatW(threshold), tiny = tbSplatW(FLT_MIN);
	tbFloatW dpn = tbDotW(c->normal, tbVecSubW(b.dp, a.dp));
	tbFloatW strike[TB_MAX_MANIFOLD_POINTS], target[TB_MAX_MANIFOLD_POINTS];
	tbFloatW when[TB_MAX_MANIFOLD_POINTS], speed[TB_MAX_MANIFOLD_POINTS];
	tbFloatW any = zero;
	for (int i = 0; i < c->pointCount; ++i) {
		const tbContactPointW* cp = c->points + i;
		// As tbSetImpactSpeedW, with the velocities and deltas of now: the substeps'
		// semi-implicit Euler samples the parabola s(t) = s0 + u0 t + a t^2 / 2 with
		// u0 = v + a h / 2 (v the velocity before the first substep's kick), which meets the
		// surface at the speed u = -sqrt(u0^2 - 2 a s0). The gap s0 follows the deltas that
		// earlier strikes of this phase gave (s = s0 + J . (dp, dtheta), as the soft passes).
		tbFloatW acc = c->cold[i].approachAccel;
		tbFloatW vn = tbRowSpeedW(&a, &b, c->normal, cp->rAxn, cp->rBxn);
		tbFloatW u0 = tbAddW(vn, tbMulW(halfH, acc));
		tbFloatW gap = tbAddW(tbAddW(cp->separation, dpn),
		                      tbSubW(tbDotW(b.dtheta, cp->rBxn), tbDotW(a.dtheta, cp->rAxn)));
		tbFloatW s = tbMaxW(gap, zero);
		tbFloatW u2 = tbSubW(tbMulW(u0, u0), tbMulW(two, tbMulW(acc, s)));
		tbFloatW root = tbSqrtW(tbMaxW(u2, zero));
		// It meets within the window W = dt + h (the soft step's speculative rows stop a pair
		// up to one substep past the step's end) at t = 2 s0 / (sqrt(u^2) - u0) when it closes
		// now (u0 <= 0), or, pulled back, at t = (sqrt(u^2) + u0) / -a.
		tbFloatW apart = tbGreaterW(u0, zero);
		tbFloatW lhs = tbSelectW(apart, tbMulW(two, s), tbAddW(root, u0));
		tbFloatW den = tbSelectW(apart, tbSubW(root, u0), tbSubW(zero, acc));
		// Not below the threshold (tbSolverDef.restitutionThreshold: below it nothing bounces)
		// and faster than one step of the acceleration, |a| dt: a pair resting under gravity
		// meets at |a| h / 2, and one that a step's fall brings to its surface is left to the
		// soft passes (and the end-of-step restitution) even at a threshold of zero.
		tbFloatW slow = tbMulW(tbMaxW(acc, tbSubW(zero, acc)), tbSplatW(window - h));
		tbFloatW hit = tbAndMaskW(tbNotW(tbLessW(tbMulW(reach, den), lhs)),
		                          tbAndMaskW(tbNotW(tbLessW(root, fast)), tbGreaterW(root, slow)));
		hit = tbAndMaskW(tbAndMaskW(hit, bounces), tbGreaterW(cp->normalMass, zero));
		strike[i] = hit;
		any = tbSelectW(hit, any, hit);
		// (A struck lane's denominator is positive; the others' quotient is not used.)
		tbFloatW t = tbKeepW(hit, tbDivW(lhs, tbMaxW(den, tiny)));
		when[i] = t;
		speed[i] = root;
		// Newton's impact law (Baraff II eq. 8-5) at that moment: the pair leaves the surface at
		// e |u| on the outgoing parabola, whose speed at the step's start (run back from t) is
		// e |u| - a t; the velocity that samples it is a h / 2 less.
		target[i] = tbSubW(tbMulW(c->restitution, root), tbMulW(acc, tbAddW(t, halfH)));
	}
	if (!tbAnyW(any)) {
		return false;
	}
	// The collision impulse j = -(1 + e) v / K of Baraff II eq. 8-18 where the pair meets at
	// its speed of now (no gap, no acceleration); in general the impulse that takes the row to its
	// target, -m (v - v_out), summed per point and clamped at >= 0 over the passes. It acts at
	// the moment of impact t, not at the step's start: until then the bodies kept their old
	// velocities, so each is moved back by t times its change of velocity (dp -= t dv,
	// dtheta -= t dw), and the substeps then sample the outgoing trajectory at its own times
	// (the bounce keeps its period, a cradle's first ball stops on the second's surface).
	tbFloatW normalWork = zero;
	tbFloatW total[TB_MAX_MANIFOLD_POINTS];
	for (int i = 0; i < c->pointCount; ++i) {
		total[i] = zero;
	}
	tbRowsSeen moved;
	memset(&moved, 0, sizeof moved);
	moved.afterDeltas = false;
	for (int pass = 0; pass < TB_COLLISION_PASSES; ++pass) {
		for (int i = 0; i < c->pointCount; ++i) {
			tbContactPointW* cp = c->points + i;
			tbFloatW vn = tbRowSpeedW(&a, &b, c->normal, cp->rAxn, cp->rBxn);
			tbFloatW impulse = tbMulW(tbSubW(zero, cp->normalMass), tbSubW(vn, target[i]));
			tbFloatW next = tbMaxW(tbAddW(total[i], impulse), zero);
			impulse = tbKeepW(strike[i], tbSubW(next, total[i]));
			total[i] = tbAddW(total[i], impulse);
			tbRowsSeen* rowSeen = NULL;
			if (seen != NULL) {
				// The potential the shift changes: the body moves by -t dv, as a pass before
				// the deltas moves it by h dv (tbApplySeenW with gravity times -t).
				tbFloatW back = tbSubW(zero, when[i]);
				moved.gravityHA.x = tbMulW(back, seen->gravityHA.x);
				moved.gravityHA.y = tbMulW(back, seen->gravityHA.y);
				moved.gravityHA.z = tbMulW(back, seen->gravityHA.z);
				moved.gravityHB.x = tbMulW(back, seen->gravityHB.x);
				moved.gravityHB.y = tbMulW(back, seen->gravityHB.y);
				moved.gravityHB.z = tbMulW(back, seen->gravityHB.z);
				rowSeen = &moved;
			}
			tbApplySeenW(&a, &b, c, c->normal, cp->rAxn, cp->rBxn, cp->invIArAxn, cp->invIBrBxn,
			             impulse, rowSeen, &normalWork);
			// The same impulse on the deltas, times -t.
			tbFloatW shift = tbMulW(tbSubW(zero, when[i]), impulse);
			tbFloatW la = tbMulW(c->invMassA, shift), lb = tbMulW(c->invMassB, shift);
			a.dp = tbVecMulSubW(a.dp, la, c->normal);
			a.dtheta = tbVecMulSubW(a.dtheta, shift, cp->invIArAxn);
			b.dp = tbVecMulAddW(b.dp, lb, c->normal);
			b.dtheta = tbVecMulAddW(b.dtheta, shift, cp->invIBrBxn);
		}
	}
	// The step's impulse (tbContactData) includes the collision's; the accumulated impulse, the
	// next step's warm start, does not (the soft passes never held it).
	for (int i = 0; i < c->pointCount; ++i) {
		c->cold[i].stepImpulse = tbAddW(c->cold[i].stepImpulse, total[i]);
	}
	tbScatterBodies(states, c->writeA, &a);
	tbScatterBodies(states, c->writeB, &b);
	tbScatterDeltas(states, c->writeA, &a);
	tbScatterDeltas(states, c->writeB, &b);
	if (seen != NULL) {
		// The impact's own work, at the moment of impact: each point's impulse P times the mean
		// of its normal speeds before and after, P (-|u| + e |u|) / 2 (zero for e = 1, the loss
		// (1 - e^2) of the approach energy otherwise). The rest of the phase's work is the
		// shift to the moment of impact along gravity's parabola: gravity's (docs/energy.md).
		tbFloatW impact = zero, half = tbSplatW(0.5f);
		tbFloatW kept = tbSubW(c->restitution, tbSplatW(1.0f));
		for (int i = 0; i < c->pointCount; ++i) {
			impact = tbMulAddW(impact, tbMulW(half, tbMulW(total[i], speed[i])), kept);
		}
		seen->normalWork = impact;
		seen->gravityWork = tbSubW(normalWork, impact);
	}
	return true;
}

bool tbCollideContactsW(tbContactConstraintW* c, tbSolverBody* states, float window, float h,
                        float threshold)
{
	return tbCollideBody(c, states, window, h, threshold, NULL);
}

bool tbCollideContactsSeenW(tbContactConstraintW* c, tbSolverBody* states, float window, float h,
                            float threshold, tbRowsSeen* seen)
{
	return tbCollideBody(c, states, window, h, threshold, seen);
}

void tbEndCollisionsW(tbContactConstraintW* c)
{
	// A struck point (its step impulse is the phase's alone so far) has had its restitution:
	// impact speed zero, so that tbApplyRestitutionW leaves it alone.
	tbFloatW zero = tbZeroW();
	for (int i = 0; i < c->pointCount; ++i) {
		tbContactPointColdW* cold = c->cold + i;
		cold->relativeVelocity =
		    tbSelectW(tbGreaterW(cold->stepImpulse, zero), cold->relativeVelocity, zero);
	}
}

void tbAddStepImpulsesW(tbContactConstraintW* c)
{
	// A substep applies its accumulated impulse once (warm start plus the passes' changes), so
	// the step's impulse is the sum of the substeps' (docs/solver.md, "Measuring").
	for (int i = 0; i < c->pointCount; ++i) {
		c->cold[i].stepImpulse = tbAddW(c->cold[i].stepImpulse, c->points[i].normalImpulse);
	}
	c->stepFriction = tbVecMulAddW(c->stepFriction, c->tangentImpulse1, c->tangent1);
	c->stepFriction = tbVecMulAddW(c->stepFriction, c->tangentImpulse2, c->tangent2);
}
