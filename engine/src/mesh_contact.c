// Contacts of convex shapes with meshes and heightfields: one child contact per (convex shape,
// triangle) pair whose boxes overlap, each a normal contact with its own manifold and warm start,
// so the solver, islands and sleeping see nothing new (docs/meshes.md).
#include <float.h>
#include <math.h>

#include "world_internal.h"

// The world box `box` seen from a frame placed at xf: the box of the rotated box, from its centre
// and the absolute rotation matrix times its half extents (Arvo, "Transforming axis-aligned
// bounding boxes", Graphics Gems, 1990). It runs for every child contact every step.
static tbAABB tbBoxInFrame(tbAABB box, tbTransform xf)
{
	vec3s centre = glms_vec3_scale(glms_vec3_add(box.lower, box.upper), 0.5f);
	vec3s half = glms_vec3_scale(glms_vec3_sub(box.upper, box.lower), 0.5f);
	vec3s c = glms_vec3_sub(centre, xf.p);
	if (xf.q.x == 0.0f && xf.q.y == 0.0f && xf.q.z == 0.0f) {
		tbAABB out = {glms_vec3_sub(c, half), glms_vec3_add(c, half)}; // identity rotation
		return out;
	}
	mat3s r = glms_quat_mat3(xf.q); // columns: the frame's axes in the world
	vec3s lc, le;
	for (int i = 0; i < 3; ++i) {
		vec3s axis = r.col[i];
		lc.raw[i] = glms_vec3_dot(axis, c);
		le.raw[i] = fabsf(axis.x) * half.x + fabsf(axis.y) * half.y + fabsf(axis.z) * half.z;
	}
	tbAABB out = {glms_vec3_sub(lc, le), glms_vec3_add(lc, le)};
	return out;
}

typedef struct tbLevelPairs
{
	tbWorld* world;
	int level, convex;
} tbLevelPairs;

static bool tbAddChild(int triangle, void* context)
{
	tbLevelPairs* p = context;
	if (tbPairFind(p->world, p->level, p->convex, triangle) < 0) {
		tbCreateContact(p->world, p->level, p->convex, triangle);
		p->world->profile.newPairs += 1;
	}
	return true;
}

void tbCreateLevelContacts(tbWorld* w, int shapeA, int shapeB)
{
	bool aIsLevel = tbGeometry_IsLevel(&w->shapes[shapeA].geometry);
	int level = aIsLevel ? shapeA : shapeB, convex = aIsLevel ? shapeB : shapeA;
	const tbShapeSlot* ls = w->shapes + level;
	const tbShapeSlot* cs = w->shapes + convex;
	if (tbGeometry_IsLevel(&cs->geometry)) {
		return; // two meshes: both static, nothing to solve
	}
	// The moving shape's fat box in the mesh's frame: every triangle it may touch before the box
	// is enlarged again (then this runs again for the new box).
	tbAABB local = tbBoxInFrame(cs->fatAABB, ls->xf);
	tbLevelPairs pairs = {w, level, convex};
	tbGeometry_QueryTriangles(&ls->geometry, local, tbAddChild, &pairs);
}

bool tbLevelContactOverlaps(const tbWorld* w, const tbContactSlot* c)
{
	const tbShapeSlot* sa = w->shapes + c->shapeA;
	const tbShapeSlot* sb = w->shapes + c->shapeB;
	bool aIsLevel = tbGeometry_IsLevel(&sa->geometry);
	const tbShapeSlot* ls = aIsLevel ? sa : sb;
	const tbShapeSlot* cs = aIsLevel ? sb : sa;
	vec3s v[3];
	if (!tbGeometry_GetTriangle(&ls->geometry, c->child, v, NULL)) {
		return false;
	}
	tbAABB local = tbBoxInFrame(cs->fatAABB, ls->xf);
	tbAABB t = {glms_vec3_minv(v[0], glms_vec3_minv(v[1], v[2])),
	            glms_vec3_maxv(v[0], glms_vec3_maxv(v[1], v[2]))};
	return tbAABB_Overlaps(local, t);
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
