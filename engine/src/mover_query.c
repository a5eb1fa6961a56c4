// World queries for a character mover: the contact planes of a convex shape at a pose (GJK and EPA
// against every shape and level triangle nearby) and its first hit along a translation.
#include <math.h>
#include <string.h>

#include "tumble/mover.h"
#include "tumble/toi.h"
#include "world_internal.h"

static bool tbMoverFilterAccepts(tbQueryFilter f, const tbShapeSlot* s)
{
	// A sensor is no surface; the query filter's rule is world_query.c's.
	return !s->isSensor && (f.categoryBits & s->filter.maskBits) != 0 &&
	       (s->filter.categoryBits & f.maskBits) != 0;
}

static bool tbMoverCheckInput(const char* caller, const tbGeometry* shape, tbTransform xf)
{
	char message[160];
	if (shape == NULL || !tbGeometry_Validate(shape, message, (int)sizeof message)) {
		tbSetError("%s: shape: %s", caller, shape == NULL ? "null" : message);
		return false;
	}
	if (tbGeometry_IsLevel(shape)) {
		tbSetError("%s: shape: a mesh or heightfield cannot move", caller);
		return false;
	}
	if (!tbIsFiniteVec3(xf.p) || !tbFiniteQuat(xf.q)) {
		tbSetError("%s: transform is NaN, Inf or has a zero rotation", caller);
		return false;
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Contact planes

typedef struct tbCollideMoverContext
{
	tbWorld* world;
	const tbGeometry* shape;
	tbTransform xf;
	float margin;
	tbQueryFilter filter;
	tbMoverPlane* planes;
	int capacity, count;
	int shapeIndex;        // the level shape whose triangles are being collided
	tbTransform levelXf;   // its world pose
	const tbGeometry* lvl; // its geometry
} tbCollideMoverContext;

// Keep the plane when it is within the margin; when the array is full it replaces the farthest.
static void tbAddMoverPlane(tbCollideMoverContext* c, int shapeIndex, const tbQueryResult* r)
{
	if (!(r->distance < c->margin) || !isfinite(r->distance) || !tbIsFiniteVec3(r->normal)) {
		return;
	}
	float length = glms_vec3_norm(r->normal);
	if (!(length > 0.5f)) {
		return; // touching exactly, where GJK has no normal: the next query will see it
	}
	tbMoverPlane p;
	p.shapeId = tbMakeShapeId(c->world, shapeIndex);
	p.normal = glms_vec3_scale(r->normal, 1.0f / length);
	p.point = r->pointA;
	p.separation = r->distance;
	if (c->count < c->capacity) {
		c->planes[c->count++] = p;
		return;
	}
	int farthest = 0;
	for (int i = 1; i < c->count; ++i) {
		if (c->planes[i].separation > c->planes[farthest].separation) {
			farthest = i;
		}
	}
	if (c->count > 0 && p.separation < c->planes[farthest].separation) {
		c->planes[farthest] = p;
	}
}

static bool tbCollideMoverTriangle(int triangle, void* context)
{
	tbCollideMoverContext* c = context;
	vec3s v[3];
	if (!tbGeometry_GetTriangle(c->lvl, triangle, v, NULL)) {
		return true;
	}
	tbGeometry tri = tbMakeTriangle(v[0], v[1], v[2]);
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult r = tbQueryShapes(&tri, c->levelXf, c->shape, c->xf, &def);
	tbAddMoverPlane(c, c->shapeIndex, &r);
	return true;
}

static bool tbCollideMoverCallback(int proxyId, int shapeIndex, void* context)
{
	(void)proxyId;
	tbCollideMoverContext* c = context;
	const tbShapeSlot* s = c->world->shapes + shapeIndex;
	if (!tbMoverFilterAccepts(c->filter, s)) {
		return true;
	}
	if (tbGeometry_IsLevel(&s->geometry)) {
		// The triangles near the shape, found in the level's own frame.
		c->shapeIndex = shapeIndex;
		c->levelXf = s->xf;
		c->lvl = &s->geometry;
		tbTransform local = tbInvMulTransforms(s->xf, c->xf);
		tbAABB box = tbGeometry_ComputeAABB(c->shape, local);
		vec3s grow = {{c->margin, c->margin, c->margin}};
		box.lower = glms_vec3_sub(box.lower, grow);
		box.upper = glms_vec3_add(box.upper, grow);
		tbGeometry_QueryTriangles(&s->geometry, box, tbCollideMoverTriangle, c);
		return true;
	}
	tbQueryDef def = tbDefaultQueryDef();
	tbQueryResult r = tbQueryShapes(&s->geometry, s->xf, c->shape, c->xf, &def);
	tbAddMoverPlane(c, shapeIndex, &r);
	return true;
}

int tbWorld_CollideMover(tbWorldId worldId, const tbGeometry* shape, tbTransform transform,
                         float margin, tbQueryFilter filter, tbMoverPlane* planes, int capacity)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_CollideMover");
	if (w == NULL || !tbMoverCheckInput("tbWorld_CollideMover", shape, transform)) {
		return 0;
	}
	if (!(margin >= 0.0f) || !isfinite(margin) || capacity < 0 ||
	    (planes == NULL && capacity > 0)) {
		tbSetError("tbWorld_CollideMover: margin must be finite and >= 0 (got %g) and planes hold "
		           "capacity (%d) planes",
		           (double)margin, capacity);
		return 0;
	}
	transform.q = glms_quat_normalize(transform.q);
	tbCollideMoverContext c;
	memset(&c, 0, sizeof c);
	c.world = w;
	c.shape = shape;
	c.xf = transform;
	c.margin = margin;
	c.filter = filter;
	c.planes = planes;
	c.capacity = capacity;
	tbAABB box = tbGeometry_ComputeAABB(shape, transform);
	vec3s grow = {{margin, margin, margin}};
	box.lower = glms_vec3_sub(box.lower, grow);
	box.upper = glms_vec3_add(box.upper, grow);
	for (int t = 0; t < 2; ++t) {
		tbDynamicTree_Query(&w->trees[t], box, tbCollideMoverCallback, &c);
	}
	return c.count;
}

// ---------------------------------------------------------------------------------------------
// Cast

typedef struct tbCastMoverContext
{
	tbWorld* world;
	const tbGeometry* shape;
	tbTransform start;
	vec3s translation;
	tbQueryFilter filter;
	tbRayResult result;
	int shapeIndex;
	tbTransform levelXf;
	const tbGeometry* lvl;
} tbCastMoverContext;

static void tbCastMoverAgainst(tbCastMoverContext* c, const tbGeometry* obstacle, tbTransform xf,
                               int shapeIndex)
{
	tbCastOutput out =
	    tbShapeCast(obstacle, xf, c->shape, c->start, c->translation, c->result.fraction);
	if (out.hit && out.fraction < c->result.fraction) {
		c->result.hit = true;
		c->result.fraction = out.fraction;
		c->result.point = out.point;
		c->result.normal = out.normal;
		c->result.shapeId = tbMakeShapeId(c->world, shapeIndex);
	}
}

static bool tbCastMoverTriangle(int triangle, void* context)
{
	tbCastMoverContext* c = context;
	vec3s v[3];
	if (tbGeometry_GetTriangle(c->lvl, triangle, v, NULL)) {
		tbGeometry tri = tbMakeTriangle(v[0], v[1], v[2]);
		tbCastMoverAgainst(c, &tri, c->levelXf, c->shapeIndex);
	}
	return true;
}

static bool tbCastMoverCallback(int proxyId, int shapeIndex, void* context)
{
	(void)proxyId;
	tbCastMoverContext* c = context;
	const tbShapeSlot* s = c->world->shapes + shapeIndex;
	if (!tbMoverFilterAccepts(c->filter, s)) {
		return true;
	}
	if (!tbGeometry_IsLevel(&s->geometry)) {
		tbCastMoverAgainst(c, &s->geometry, s->xf, shapeIndex);
		return true;
	}
	// The triangles in the swept box, in the level's frame.
	c->shapeIndex = shapeIndex;
	c->levelXf = s->xf;
	c->lvl = &s->geometry;
	tbTransform local = tbInvMulTransforms(s->xf, c->start);
	vec3s move = tbInvRotateVector(s->xf.q, c->translation);
	tbAABB a0 = tbGeometry_ComputeAABB(c->shape, local);
	tbTransform end = {glms_vec3_add(local.p, move), local.q};
	tbAABB a1 = tbGeometry_ComputeAABB(c->shape, end);
	tbAABB box = {glms_vec3_minv(a0.lower, a1.lower), glms_vec3_maxv(a0.upper, a1.upper)};
	tbGeometry_QueryTriangles(&s->geometry, box, tbCastMoverTriangle, c);
	return true;
}

tbRayResult tbWorld_CastMover(tbWorldId worldId, const tbGeometry* shape, tbTransform start,
                              vec3s translation, tbQueryFilter filter)
{
	tbCastMoverContext c;
	memset(&c, 0, sizeof c);
	c.result.fraction = 1.0f;
	tbWorld* w = tbGetWorld(worldId, "tbWorld_CastMover");
	if (w == NULL || !tbMoverCheckInput("tbWorld_CastMover", shape, start)) {
		return c.result;
	}
	if (!tbIsFiniteVec3(translation)) {
		tbSetError("tbWorld_CastMover: translation is NaN or Inf");
		return c.result;
	}
	start.q = glms_quat_normalize(start.q);
	c.world = w;
	c.shape = shape;
	c.start = start;
	c.translation = translation;
	c.filter = filter;
	// A pure translation stays within the union of its end boxes.
	tbAABB a0 = tbGeometry_ComputeAABB(shape, start);
	tbTransform end = {glms_vec3_add(start.p, translation), start.q};
	tbAABB a1 = tbGeometry_ComputeAABB(shape, end);
	tbAABB box = {glms_vec3_minv(a0.lower, a1.lower), glms_vec3_maxv(a0.upper, a1.upper)};
	for (int t = 0; t < 2; ++t) {
		tbDynamicTree_Query(&w->trees[t], box, tbCastMoverCallback, &c);
	}
	return c.result;
}
