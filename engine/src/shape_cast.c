// World shape casts: a convex shape moved along a translation against every shape of both trees,
// each pair by conservative advancement (tbShapeCast, collision/src/toi.c).
#include <string.h>

#include "tumble/toi.h"
#include "world_internal.h"

typedef struct tbShapeCastContext
{
	tbWorld* world;
	const tbGeometry* shape;
	tbTransform start;
	vec3s translation;
	tbQueryFilter filter;
	tbCastResultFcn* fcn;
	void* context;
	float fraction; // the caller's last clip
	bool stop;
} tbShapeCastContext;

static bool tbShapeCastCallback(int proxyId, int shapeIndex, void* context)
{
	(void)proxyId;
	tbShapeCastContext* sc = context;
	const tbShapeSlot* s = sc->world->shapes + shapeIndex;
	// The query filter's rule (world_query.c): each side's category in the other's mask.
	if ((sc->filter.categoryBits & s->filter.maskBits) == 0 ||
	    (s->filter.categoryBits & sc->filter.maskBits) == 0) {
		return true;
	}
	tbCastOutput out =
	    tbShapeCast(&s->geometry, s->xf, sc->shape, sc->start, sc->translation, sc->fraction);
	if (!out.hit) {
		return true;
	}
	float value = sc->fcn(tbMakeShapeId(sc->world, shapeIndex), out.point, out.normal, out.fraction,
	                      sc->context);
	if (value == 0.0f) {
		sc->stop = true;
		return false;
	}
	if (value > 0.0f && value < sc->fraction) {
		sc->fraction = value;
	}
	return true;
}

void tbWorld_CastShape(tbWorldId worldId, const tbGeometry* shape, tbTransform start,
                       vec3s translation, tbQueryFilter filter, tbCastResultFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_CastShape");
	if (w == NULL || fcn == NULL) {
		return;
	}
	char message[160];
	if (shape == NULL || !tbGeometry_Validate(shape, message, (int)sizeof message)) {
		tbSetError("tbWorld_CastShape: shape: %s", shape == NULL ? "null" : message);
		return;
	}
	if (!tbIsFiniteVec3(start.p) || !tbFiniteQuat(start.q) || !tbIsFiniteVec3(translation)) {
		tbSetError("tbWorld_CastShape: start or translation is NaN, Inf or has a zero rotation");
		return;
	}
	start.q = glms_quat_normalize(start.q);
	tbShapeCastContext sc = {w, shape, start, translation, filter, fcn, context, 1.0f, false};
	// The box of the whole cast: a pure translation stays within the union of its end boxes.
	tbAABB a0 = tbGeometry_ComputeAABB(shape, start);
	tbTransform end = {glms_vec3_add(start.p, translation), start.q};
	tbAABB a1 = tbGeometry_ComputeAABB(shape, end);
	tbAABB box = {glms_vec3_minv(a0.lower, a1.lower), glms_vec3_maxv(a0.upper, a1.upper)};
	for (int t = 0; t < 2 && !sc.stop; ++t) {
		tbDynamicTree_Query(&w->trees[t], box, tbShapeCastCallback, &sc);
	}
}

tbRayResult tbWorld_CastShapeClosest(tbWorldId worldId, const tbGeometry* shape, tbTransform start,
                                     vec3s translation, tbQueryFilter filter)
{
	tbRayResult r;
	memset(&r, 0, sizeof r);
	tbWorld_CastShape(worldId, shape, start, translation, filter, tbClosestHitCallback, &r);
	return r;
}
