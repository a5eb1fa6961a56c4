// Contacts of convex shapes with meshes and heightfields: one pair per convex shape and level
// shape, whose narrow phase collides the triangles near the convex shape and groups their points by
// normal into a few manifolds (tbCollideLevel), each an ordinary contact for the solver, islands
// and sleeping (docs/meshes.md).
#include <float.h>
#include <math.h>

#include "world_internal.h"

void tbCreateLevelContacts(tbWorld* w, int shapeA, int shapeB)
{
	if (tbGeometry_IsLevel(&w->shapes[shapeA].geometry) &&
	    tbGeometry_IsLevel(&w->shapes[shapeB].geometry)) {
		return; // two meshes: both static, nothing to solve
	}
	// The pair's first manifold; the narrow phase adds the others when the triangles under the
	// shape face more than one way.
	if (tbPairFind(w, shapeA, shapeB, 0) < 0) {
		tbCreateContact(w, shapeA, shapeB, 0);
		w->profile.newPairs += 1;
	}
}

void tbDrawLevelShape(const tbShapeSlot* s, const tbDebugDraw* draw, tbHexColor color)
{
	if (draw->DrawSegment == NULL) {
		return;
	}
	int count = tbGeometry_GetTriangleCount(&s->geometry);
	for (int t = 0; t < count; ++t) {
		vec3s v[3];
		tbGeometry_GetTriangle(&s->geometry, t, v, NULL);
		for (int k = 0; k < 3; ++k) {
			v[k] = tbTransformPointInline(s->xf, v[k]);
		}
		for (int k = 0; k < 3; ++k) {
			draw->DrawSegment(v[k], v[(k + 1) % 3], color, draw->context);
		}
	}
}

typedef struct tbLevelOverlap
{
	const tbGeometry* level;
	const tbGeometry* shape;
	tbTransform shapeInLevel;
	bool hit;
} tbLevelOverlap;

static bool tbOverlapTriangle(int triangle, void* context)
{
	tbLevelOverlap* o = context;
	vec3s v[3];
	tbGeometry_GetTriangle(o->level, triangle, v, NULL);
	tbGeometry tri = tbMakeTriangle(v[0], v[1], v[2]);
	o->hit = tbTestOverlap(&tri, tbTransformIdentity(), o->shape, o->shapeInLevel, NULL);
	return !o->hit;
}

bool tbLevelOverlapsShape(const tbShapeSlot* s, const tbGeometry* shape, tbTransform xf)
{
	tbLevelOverlap o = {&s->geometry, shape, tbInvMulTransforms(s->xf, xf), false};
	tbAABB local = tbGeometry_ComputeAABB(shape, o.shapeInLevel);
	tbGeometry_QueryTriangles(&s->geometry, local, tbOverlapTriangle, &o);
	return o.hit;
}
