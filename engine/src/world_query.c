// World queries: ray casts (all hits, closest), AABB overlap and shape overlap through the trees.
#include <string.h>

#include "world_internal.h"

static bool tbFilterAccepts(tbQueryFilter f, tbFilter s)
{
	return (f.categoryBits & s.maskBits) != 0 && (s.categoryBits & f.maskBits) != 0;
}

typedef struct tbRayContext
{
	tbWorld* world;
	tbQueryFilter filter;
	tbCastResultFcn* fcn;
	void* context;
	float fraction; // the caller's last clip, carried from one tree to the next
} tbRayContext;

static float tbRayCallback(int proxyId, int shapeIndex, vec3s origin, vec3s translation,
                           float maxFraction, void* context)
{
	(void)proxyId;
	tbRayContext* rc = context;
	const tbShapeSlot* s = rc->world->shapes + shapeIndex;
	// A sensor is no surface: rays pass through it (overlap queries do report it).
	if (s->isSensor || !tbFilterAccepts(rc->filter, s->filter)) {
		return -1.0f;
	}
	tbCastOutput out = tbRayCastShape(&s->geometry, s->xf, origin, translation, maxFraction);
	if (!out.hit) {
		return -1.0f;
	}
	float value = rc->fcn(tbMakeShapeId(rc->world, shapeIndex), out.point, out.normal, out.fraction,
	                      rc->context);
	if (value >= 0.0f && value < rc->fraction) {
		rc->fraction = value;
	}
	return value;
}

void tbWorld_CastRay(tbWorldId worldId, vec3s origin, vec3s translation, tbQueryFilter filter,
                     tbCastResultFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_CastRay");
	if (w == NULL || fcn == NULL) {
		return;
	}
	if (!tbIsFiniteVec3(origin) || !tbIsFiniteVec3(translation)) {
		tbSetError("tbWorld_CastRay: origin or translation is NaN or Inf");
		return;
	}
	tbRayContext rc = {w, filter, fcn, context, 1.0f};
	for (int t = 0; t < 2 && rc.fraction > 0.0f; ++t) {
		tbDynamicTree_RayCast(&w->trees[t], origin, translation, rc.fraction, tbRayCallback, &rc);
	}
}

float tbClosestHitCallback(tbShapeId shapeId, vec3s point, vec3s normal, float fraction,
                           void* context)
{
	tbRayResult* r = context;
	r->shapeId = shapeId;
	r->point = point;
	r->normal = normal;
	r->fraction = fraction;
	r->hit = true;
	return fraction; // clip: only closer hits are reported from now on
}

tbRayResult tbWorld_CastRayClosest(tbWorldId worldId, vec3s origin, vec3s translation,
                                   tbQueryFilter filter)
{
	tbRayResult r;
	memset(&r, 0, sizeof r);
	tbWorld_CastRay(worldId, origin, translation, filter, tbClosestHitCallback, &r);
	return r;
}

typedef struct tbOverlapContext
{
	tbWorld* world;
	tbQueryFilter filter;
	tbOverlapResultFcn* fcn;
	void* context;
	const tbGeometry* shape; // null for a box query
	tbTransform xf;
	bool stop;
} tbOverlapContext;

static bool tbOverlapCallback(int proxyId, int shapeIndex, void* context)
{
	(void)proxyId;
	tbOverlapContext* oc = context;
	const tbShapeSlot* s = oc->world->shapes + shapeIndex;
	if (!tbFilterAccepts(oc->filter, s->filter)) {
		return true;
	}
	if (oc->shape != NULL &&
	    !(tbGeometry_IsLevel(&s->geometry)
	          ? tbLevelOverlapsShape(s, oc->shape, oc->xf) // its triangles (mesh_contact.c)
	          : tbTestOverlap(oc->shape, oc->xf, &s->geometry, s->xf, NULL))) {
		return true;
	}
	oc->stop = !oc->fcn(tbMakeShapeId(oc->world, shapeIndex), oc->context);
	return !oc->stop;
}

void tbWorld_OverlapAABB(tbWorldId worldId, tbAABB aabb, tbQueryFilter filter,
                         tbOverlapResultFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_OverlapAABB");
	if (w == NULL || fcn == NULL) {
		return;
	}
	if (!tbIsFiniteVec3(aabb.lower) || !tbIsFiniteVec3(aabb.upper)) {
		tbSetError("tbWorld_OverlapAABB: aabb is NaN or Inf");
		return;
	}
	tbOverlapContext oc = {w, filter, fcn, context, NULL, tbTransformIdentity(), false};
	for (int t = 0; t < 2 && !oc.stop; ++t) {
		tbDynamicTree_Query(&w->trees[t], aabb, tbOverlapCallback, &oc);
	}
}

void tbWorld_OverlapShape(tbWorldId worldId, const tbGeometry* shape, tbTransform transform,
                          tbQueryFilter filter, tbOverlapResultFcn* fcn, void* context)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_OverlapShape");
	if (w == NULL || fcn == NULL) {
		return;
	}
	char message[160];
	if (!tbGeometry_Validate(shape, message, (int)sizeof message)) {
		tbSetError("tbWorld_OverlapShape: shape: %s", message);
		return;
	}
	if (!tbIsFiniteVec3(transform.p) || !tbFiniteQuat(transform.q)) {
		tbSetError("tbWorld_OverlapShape: transform is NaN, Inf or has a zero rotation");
		return;
	}
	transform.q = glms_quat_normalize(transform.q);
	tbOverlapContext oc = {w, filter, fcn, context, shape, transform, false};
	tbAABB box = tbGeometry_ComputeAABB(shape, transform);
	for (int t = 0; t < 2 && !oc.stop; ++t) {
		tbDynamicTree_Query(&w->trees[t], box, tbOverlapCallback, &oc);
	}
}
