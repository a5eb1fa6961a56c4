// Contacts of convex shapes with meshes and heightfields: one pair per convex shape and level
// shape, whose narrow phase collides the triangles near the convex shape and groups their points by
// normal into a few manifolds (tbCollideLevel), each an ordinary contact for the solver, islands
// and sleeping (docs/meshes.md).
#include <float.h>
#include <math.h>
#include <string.h>

#include "world_internal.h"

// Whether the triangle test answers for the shape (tbSat_TriangleQuery: a box or a solid hull), so
// that a cache of its axes is worth keeping.
static bool tbTakesTriangleSat(const tbGeometry* g)
{
	return g->type == tb_boxShape ||
	       (g->type == tb_hullShape && g->hull != NULL && g->hull->kind == tb_hullSolid);
}

// A new pair of a polytope and a level starts the polytope's separating-axis cache afresh for that
// level: its own entry, made the first time it meets a level, or taken over from a level whose
// pair has gone (a shape between two meshes keeps the first one's).
static void tbClaimLevelSat(tbWorld* w, int convex, int level)
{
	tbShapeSlot* s = w->shapes + convex;
	if (!tbTakesTriangleSat(&s->geometry)) {
		return;
	}
	int at = s->levelSat;
	if (at >= 0) {
		tbLevelSatSlot* slot = w->levelSats + at;
		if (slot->level != level && tbPairFind(w, convex, slot->level, 0) >= 0) {
			return;
		}
	} else if (w->freeLevelSat >= 0) {
		at = w->freeLevelSat;
		w->freeLevelSat = w->levelSats[at].nextFree;
	} else {
		tbGrowArray((void**)&w->levelSats, &w->levelSatCapacity, w->levelSatCount + 1,
		            sizeof(tbLevelSatSlot));
		at = w->levelSatCount++;
	}
	tbLevelSatSlot* slot = w->levelSats + at;
	memset(slot, 0, sizeof *slot);
	slot->level = level;
	slot->nextFree = -1;
	s->levelSat = at;
}

void tbReleaseLevelSat(tbWorld* w, int shape)
{
	int at = w->shapes[shape].levelSat;
	if (at < 0) {
		return;
	}
	w->levelSats[at].level = -1;
	w->levelSats[at].nextFree = w->freeLevelSat;
	w->freeLevelSat = at;
	w->shapes[shape].levelSat = -1;
}

tbLevelSatCache* tbLevelSatOf(const tbWorld* w, int convex, int level)
{
	int at = w->shapes[convex].levelSat;
	return at >= 0 && w->levelSats[at].level == level ? &w->levelSats[at].cache : NULL;
}

void tbCreateLevelContacts(tbWorld* w, int shapeA, int shapeB)
{
	bool levelIsA = tbGeometry_IsLevel(&w->shapes[shapeA].geometry);
	if (levelIsA && tbGeometry_IsLevel(&w->shapes[shapeB].geometry)) {
		return; // two meshes: both static, nothing to solve
	}
	// The pair's first manifold; the narrow phase adds the others when the triangles under the
	// shape face more than one way.
	if (tbPairFind(w, shapeA, shapeB, 0) < 0) {
		tbCreateContact(w, shapeA, shapeB, 0);
		w->profile.newPairs += 1;
		tbClaimLevelSat(w, levelIsA ? shapeB : shapeA, levelIsA ? shapeA : shapeB);
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
