// Time of impact by conservative advancement (Mirtich 1996, ch. 3; Catto, "Continuous Collision",
// GDC 2013): at time t GJK gives the distance d and the normal n of the two shapes; no point of
// either can approach the other along n faster than
//
//     mu = n . (vA - vB) + thetaA rA + thetaB rB
//
// (vX the centre's displacement over the sweep, thetaX its total turn, rX the farthest point of
// the shape from its rotation centre), so the shapes cannot come within `target` before
// t + (d - target) / mu. Stepping there never passes the impact; near it the steps shrink, and the
// loop ends when d is within the tolerance of the target (docs/continuous.md).
#include "tumble/toi.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "geometry_internal.h"
#include "tumble/query.h"

static bool tbToiUnit(versors q)
{
	float q2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
	return isfinite(q2) && fabsf(q2 - 1.0f) < 1e-3f;
}

tbSweep tbMakeSweep(tbTransform start, tbTransform end, vec3s localCenter)
{
	tbSweep s;
	s.localCenter = localCenter;
	s.q0 = start.q;
	s.q1 = end.q;
	s.c0 = glms_vec3_add(start.p, tbRotateInline(start.q, localCenter));
	s.c1 = glms_vec3_add(end.p, tbRotateInline(end.q, localCenter));
	return s;
}

// The turn from q0 to q1 the short way round, in the world frame: q1 = Rot(axis, angle) q0.
static void tbSweepTurn(const tbSweep* s, vec3s* axis, float* angle)
{
	versors c0 = {{-s->q0.x, -s->q0.y, -s->q0.z, s->q0.w}};
	versors dq = glms_quat_mul(s->q1, c0);
	if (dq.w < 0.0f) {
		dq = (versors){{-dq.x, -dq.y, -dq.z, -dq.w}};
	}
	vec3s v = {{dq.x, dq.y, dq.z}};
	float sinHalf = glms_vec3_norm(v);
	*angle = 2.0f * atan2f(sinHalf, dq.w);
	*axis = sinHalf > 0.0f ? glms_vec3_scale(v, 1.0f / sinHalf) : (vec3s){{1.0f, 0.0f, 0.0f}};
}

tbTransform tbSweep_GetTransform(const tbSweep* s, float t)
{
	vec3s axis;
	float angle;
	tbSweepTurn(s, &axis, &angle);
	// A constant rate about a fixed axis: the rotation's speed is exactly angle for every t, which
	// is what the advancement bound uses (a normalized lerp turns up to 4 tan(angle / 4), faster).
	versors q = angle > 0.0f ? glms_quat_mul(glms_quatv(t * angle, axis), s->q0) : s->q0;
	q = glms_quat_normalize(q);
	vec3s c = glms_vec3_add(s->c0, glms_vec3_scale(glms_vec3_sub(s->c1, s->c0), t));
	tbTransform xf;
	xf.q = q;
	xf.p = glms_vec3_sub(c, tbRotateInline(q, s->localCenter));
	return xf;
}

tbToiInput tbDefaultToiInput(void)
{
	tbToiInput in;
	memset(&in, 0, sizeof in);
	versors identity = {{0.0f, 0.0f, 0.0f, 1.0f}};
	in.sweepA.q0 = in.sweepA.q1 = identity;
	in.sweepB.q0 = in.sweepB.q1 = identity;
	in.maxFraction = 1.0f;
	in.maxIterations = 32;
	return in;
}

static bool tbSweepValid(const tbSweep* s)
{
	return tbIsFiniteVec3(s->localCenter) && tbIsFiniteVec3(s->c0) && tbIsFiniteVec3(s->c1) &&
	       tbToiUnit(s->q0) && tbToiUnit(s->q1);
}

tbToiOutput tbTimeOfImpact(const tbToiInput* in)
{
	tbToiOutput out;
	memset(&out, 0, sizeof out);
	out.state = tb_toiFailed;
	out.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
	if (in == NULL || in->shapeA == NULL || in->shapeB == NULL ||
	    !tbGeometry_IsUsable(in->shapeA) || !tbGeometry_IsUsable(in->shapeB) ||
	    !tbSweepValid(&in->sweepA) || !tbSweepValid(&in->sweepB) ||
	    !(in->maxFraction >= 0.0f && in->maxFraction <= 1.0f) ||
	    !(in->targetSeparation >= 0.0f && isfinite(in->targetSeparation)) ||
	    !isfinite(in->tolerance)) {
		return out;
	}
	const tbSweep* sa = &in->sweepA;
	const tbSweep* sb = &in->sweepB;
	// The farthest point of each shape from its rotation centre bounds how fast its turn moves it.
	float rA = tbGeometry_BoundingRadius(in->shapeA) + glms_vec3_norm(sa->localCenter);
	float rB = tbGeometry_BoundingRadius(in->shapeB) + glms_vec3_norm(sb->localCenter);
	vec3s axis;
	float turnA, turnB;
	tbSweepTurn(sa, &axis, &turnA);
	tbSweepTurn(sb, &axis, &turnB);
	float spin = turnA * rA + turnB * rB;
	vec3s dv = glms_vec3_sub(glms_vec3_sub(sa->c1, sa->c0), glms_vec3_sub(sb->c1, sb->c0));
	// Tolerances relative to the smaller shape (a ball over a 100 m ground wants its own size's
	// accuracy), but no finer than GJK's distances in float allow: they converge to 1e-6 of the
	// pair's size (TB_DEFAULT_TOLERANCE), so the floor is twice that.
	float size = rA + rB;
	float tolerance = in->tolerance > 0.0f ? in->tolerance : 1e-4f * fminf(rA, rB);
	tolerance = fmaxf(tolerance, 2e-6f * size);
	float target = in->targetSeparation;
	int maxIterations = in->maxIterations > 0 ? in->maxIterations : 32;
	tbQueryDef def = tbDefaultQueryDef();
	float t = 0.0f;
	for (int it = 0; it < maxIterations; ++it) {
		out.iterations = it + 1;
		tbTransform xfA = tbSweep_GetTransform(sa, t);
		tbTransform xfB = tbSweep_GetTransform(sb, t);
		tbQueryResult q = tbShapeDistance(in->shapeA, xfA, in->shapeB, xfB, &def);
		out.fraction = t;
		if (q.status == tb_queryInvalidInput) {
			out.state = tb_toiFailed;
			return out;
		}
		if (q.hit) {
			// Overlapping: at the start there is no time of impact; later only when the target is
			// within GJK's noise of zero (the advancement itself never passes the target).
			// The point and normal stay those of the last separated iteration (GJK gives none).
			out.state = it == 0 ? tb_toiOverlapped : tb_toiHit;
			out.distance = 0.0f;
			return out;
		}
		out.normal = q.normal;
		out.point = q.pointA;
		out.distance = q.distance;
		float gap = q.distance - target;
		if (gap <= tolerance) {
			// Within the target at the start counts as an impact at 0 (Box2D's rule).
			out.state = tb_toiHit;
			return out;
		}
		float approach = glms_vec3_dot(q.normal, dv) + spin;
		// Not closing the gap before maxFraction even at the bound's speed: no impact.
		if (!(approach * (in->maxFraction - t) > gap)) {
			out.state = tb_toiSeparated;
			out.fraction = in->maxFraction;
			return out;
		}
		// Aim half a tolerance short of the target: with an exact bound (a translation along a
		// face normal) the next distance is then within the tolerance, never at 0, where GJK
		// would report an overlap without a normal.
		float next = t + (gap - 0.5f * tolerance) / approach;
		if (!(next > t)) {
			// The step is below float's resolution of t: the distance is as close as t can say.
			out.state = tb_toiHit;
			return out;
		}
		t = fminf(next, in->maxFraction);
	}
	// The cap: t is still safe (no step passes the impact), but the target was not reached.
	out.state = tb_toiFailed;
	out.fraction = t;
	return out;
}

tbCastOutput tbShapeCast(const tbGeometry* shapeA, tbTransform xfA, const tbGeometry* shapeB,
                         tbTransform xfB, vec3s translation, float maxFraction)
{
	tbCastOutput out;
	memset(&out, 0, sizeof out);
	if (!tbIsFiniteVec3(translation) || !(maxFraction > 0.0f) || !isfinite(maxFraction)) {
		return out;
	}
	// Beyond 1 the sweep is just a longer translation.
	if (maxFraction > 1.0f) {
		translation = glms_vec3_scale(translation, maxFraction);
	}
	tbToiInput in = tbDefaultToiInput();
	in.shapeA = shapeA;
	in.shapeB = shapeB;
	in.sweepA = tbMakeSweep(xfA, xfA, glms_vec3_zero());
	tbTransform end = {glms_vec3_add(xfB.p, translation), xfB.q};
	in.sweepB = tbMakeSweep(xfB, end, glms_vec3_zero());
	in.maxFraction = fminf(maxFraction, 1.0f);
	// A pure translation closes the gap at exactly n . v along a face: the loop converges in a few
	// steps; 40 covers grazing edges as the ray cast does.
	in.maxIterations = 40;
	tbToiOutput toi = tbTimeOfImpact(&in);
	if (toi.state != tb_toiHit) {
		return out;
	}
	out.hit = true;
	out.fraction = maxFraction > 1.0f ? toi.fraction * maxFraction : toi.fraction;
	out.point = toi.point;
	out.normal = toi.normal;
	out.iterations = toi.iterations;
	return out;
}
