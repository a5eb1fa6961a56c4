// Continuous collision: a dynamic body whose velocity carries it far for its size in a step is
// swept from its start pose to its end pose against static shapes (bullets also against dynamic
// bodies' final poses) and moved back to its first time of impact, keeping its velocity, so that
// the next step's speculative contact stops it (Catto, "Continuous Collision", GDC 2013; Box2D v3
// does the same after its solve). docs/continuous.md.
#include <float.h>
#include <math.h>
#include <string.h>

#include "continuous.h"
#include "tumble/toi.h"

// The separation a fast body is left at, as a fraction of its half thickness (and at most a
// quarter of the speculative distance): close enough that the next step's speculative contact
// takes over, far enough that the time of impact is not at the noise of GJK.
#define TB_CCD_TARGET_FRACTION 0.1f

// How far the inset copy swept when the whole shape already touches something at the start lies
// inside the shape, as a fraction of its half thickness (and at most the speculative distance):
// the most the shape can then sink into what it touches.
#define TB_CCD_INSET_FRACTION 0.25f

// Half the thinnest extent of one shape (scale included), m.
static float tbGeometryMinExtent(const tbGeometry* g)
{
	float s = fminf(fminf(fabsf(g->scale.x), fabsf(g->scale.y)), fabsf(g->scale.z));
	switch (g->type) {
	case tb_sphereShape:
		return g->radius * s;
	case tb_boxShape:
		return fminf(fminf(g->halfExtents.x, g->halfExtents.y), g->halfExtents.z) * s;
	case tb_capsuleShape:
		return g->round.radius * s;
	case tb_cylinderShape:
	case tb_coneShape:
		return fminf(g->round.radius, g->round.halfHeight) * s;
	case tb_hullShape: {
		// The nearest face plane from the vertices' centroid: the largest ball about it inside.
		const tbHull* h = g->hull;
		if (h == NULL || h->faceCount == 0 || h->kind != tb_hullSolid) {
			return 0.0f;
		}
		float m = FLT_MAX;
		for (int i = 0; i < h->faceCount; ++i) {
			float d = h->faces[i].offset - glms_vec3_dot(h->faces[i].normal, h->centroid);
			m = fminf(m, d);
		}
		return fmaxf(m, 0.0f) * s;
	}
	default:
		return 0.0f; // a triangle has no thickness
	}
}

float tbBodyMinExtent(const tbWorld* w, int bodyIndex)
{
	const tbBodySlot* b = w->bodies + bodyIndex;
	float m = FLT_MAX;
	for (int s = b->firstShape; s >= 0; s = w->shapes[s].nextInBody) {
		m = fminf(m, tbGeometryMinExtent(&w->shapes[s].geometry));
	}
	// A body of flat shapes only: any motion is far for it; never below the smallest length.
	return m == FLT_MAX ? TB_MIN_LENGTH : fmaxf(m, TB_MIN_LENGTH);
}

void tbPushFastBody(tbWorld* w, int bodyIndex, const tbTransform* start)
{
	if (w->fastCount + 1 > w->fastCapacity) {
		int old = w->fastCapacity;
		tbGrowArray((void**)&w->fastBodies, &w->fastCapacity, w->fastCount + 1, sizeof(int));
		w->fastStarts = tbGrowAlloc(w->fastStarts, (size_t)old * sizeof(tbTransform),
		                            (size_t)w->fastCapacity * sizeof(tbTransform));
		w->fastFractions = tbGrowAlloc(w->fastFractions, (size_t)old * sizeof(float),
		                               (size_t)w->fastCapacity * sizeof(float));
	}
	w->fastBodies[w->fastCount] = bodyIndex;
	w->fastStarts[w->fastCount] = *start;
	w->fastCount += 1;
}

// The time of impact of a moving convex shape against one convex shape that does not move in the
// rest of the step (a static shape, or a dynamic body's final pose for a bullet).
static tbToiOutput tbSweepAgainstGeometry(const tbGeometry* moving, const tbSweep* sweep,
                                          const tbGeometry* target, tbTransform targetXf,
                                          float maxFraction, float separation)
{
	tbToiInput in = tbDefaultToiInput();
	in.shapeA = target;
	in.sweepA = tbMakeSweep(targetXf, targetXf, glms_vec3_zero());
	in.shapeB = moving;
	in.sweepB = *sweep;
	in.maxFraction = maxFraction;
	in.targetSeparation = separation;
	in.tolerance = 0.25f * separation;
	return tbTimeOfImpact(&in);
}

// A sweep against the triangles of a mesh or heightfield: each triangle near the swept box is a
// convex shape of its own; the earliest impact wins.
typedef struct tbLevelSweep
{
	const tbGeometry* moving;
	const tbSweep* sweep;
	const tbGeometry* level;
	tbTransform xf;
	float separation;
	tbTransform start, end; // the moving shape's poses at t = 0 and t = 1
	float bow;              // how far a point of it dips below its straight path (see below), m
	tbToiOutput best;
	int visited;   // triangles swept, capped
	tbAABB endBox; // the moving shape's box at t = 1 (tbGeometry_ComputeAABB), world
} tbLevelSweep;

// At most this many triangles per swept shape and level shape: a sweep across a huge fine mesh in
// one step stops early at a safe (earlier) time rather than taking the step's whole budget.
#define TB_CCD_MAX_TRIANGLES 256

// The unit normal of a level's triangle (its frame, counter-clockwise corners), zero for one
// without area: a mesh keeps it (tbBuildMesh makes it by tbTriangleNormal, these operations on
// these corners, and refuses a triangle without area).
static vec3s tbLevelTriangleNormal(const tbGeometry* level, int triangle, const vec3s corners[3])
{
	if (level->type == tb_meshShape) {
		return level->mesh->normals[triangle];
	}
	vec3s n = glms_vec3_cross(glms_vec3_sub(corners[1], corners[0]),
	                          glms_vec3_sub(corners[2], corners[0]));
	float length = glms_vec3_norm(n);
	return length > 0.0f ? glms_vec3_scale(n, 1.0f / length) : glms_vec3_zero();
}

static bool tbLevelSweepCallback(int triangle, void* context)
{
	tbLevelSweep* ls = context;
	if (ls->visited++ >= TB_CCD_MAX_TRIANGLES) {
		return false;
	}
	vec3s corners[3];
	if (!tbGeometry_GetTriangle(ls->level, triangle, corners, NULL)) {
		return true;
	}
	// Only a triangle the shape starts in front of, farther than the target separation from its
	// plane, can be hit: one it already rests on (or a coplanar neighbour ahead of a sliding
	// body) would stop the body at once, one it is behind is the other side's. Mesh triangles
	// face the side the shape starts on; heightfield triangles face up only.
	vec3s n = tbLevelTriangleNormal(ls->level, triangle, corners);
	if (!(glms_vec3_norm2(n) > 0.0f)) {
		return true;
	}
	n = tbRotateInline(ls->xf.q, n);
	vec3s v0 = tbTransformPointInline(ls->xf, corners[0]);
	tbTransform start = ls->start;
	if (ls->level->type == tb_meshShape && glms_vec3_dot(glms_vec3_sub(start.p, v0), n) < 0.0f) {
		n = glms_vec3_negate(n);
	}
	// The end's test below without its support query first: the shape's box at the end holds
	// every point of it, so a plane the box lies in front of by more than the target, the bow
	// and a margin for the rounding of either way (relative to the coordinates) has the shape's
	// lowest point in front of it too, and the test below would pass the triangle over.
	vec3s c = glms_vec3_scale(glms_vec3_add(ls->endBox.lower, ls->endBox.upper), 0.5f);
	vec3s e = glms_vec3_scale(glms_vec3_sub(ls->endBox.upper, ls->endBox.lower), 0.5f);
	float reach = fabsf(n.x) * e.x + fabsf(n.y) * e.y + fabsf(n.z) * e.z;
	float margin = 1e-4f * (fabsf(c.x) + fabsf(c.y) + fabsf(c.z) + fabsf(v0.x) + fabsf(v0.y) +
	                        fabsf(v0.z) + reach);
	if (glms_vec3_dot(glms_vec3_sub(c, v0), n) - reach - ls->bow > ls->separation + margin) {
		return true;
	}
	vec3s lowest = tbTransformPointInline(
	    start,
	    tbGeometry_Support(ls->moving, tbInvRotateInline(start.q, glms_vec3_negate(n)), NULL));
	if (glms_vec3_dot(glms_vec3_sub(lowest, v0), n) <= ls->separation) {
		return true;
	}
	// Still in front of the plane by more than the target at the end, less the bow: then in front
	// of it all the way, and the triangle in that plane is never reached.
	vec3s lowestEnd = tbTransformPointInline(
	    ls->end,
	    tbGeometry_Support(ls->moving, tbInvRotateInline(ls->end.q, glms_vec3_negate(n)), NULL));
	if (glms_vec3_dot(glms_vec3_sub(lowestEnd, v0), n) - ls->bow > ls->separation) {
		return true;
	}
	tbGeometry tri = tbMakeTriangle(corners[0], corners[1], corners[2]);
	tbToiOutput toi = tbSweepAgainstGeometry(ls->moving, ls->sweep, &tri, ls->xf, ls->best.fraction,
	                                         ls->separation);
	if ((toi.state == tb_toiHit || toi.state == tb_toiFailed) && toi.fraction > 0.0f &&
	    toi.fraction < ls->best.fraction) {
		ls->best = toi;
	}
	return true;
}

// The time of impact against one shape that does not move in the rest of the step, switched on
// its type: one convex shape, or the triangles of a mesh or heightfield near `box` (world).
static tbToiOutput tbSweepAgainstShape(const tbGeometry* moving, const tbSweep* sweep,
                                       const tbShapeSlot* target, tbAABB box, float maxFraction,
                                       float separation)
{
	if (!tbGeometry_IsLevel(&target->geometry)) {
		return tbSweepAgainstGeometry(moving, sweep, &target->geometry, target->xf, maxFraction,
		                              separation);
	}
	// The swept box in the level shape's frame: the box of its eight corners taken there.
	tbAABB local = {{{FLT_MAX, FLT_MAX, FLT_MAX}}, {{-FLT_MAX, -FLT_MAX, -FLT_MAX}}};
	for (int k = 0; k < 8; ++k) {
		vec3s corner = {{(k & 1) ? box.upper.x : box.lower.x, (k & 2) ? box.upper.y : box.lower.y,
		                 (k & 4) ? box.upper.z : box.lower.z}};
		vec3s p = tbInvTransformPointInline(target->xf, corner);
		local.lower = glms_vec3_minv(local.lower, p);
		local.upper = glms_vec3_maxv(local.upper, p);
	}
	tbLevelSweep ls;
	ls.moving = moving;
	ls.sweep = sweep;
	ls.level = &target->geometry;
	ls.xf = target->xf;
	ls.separation = separation;
	ls.start = tbSweep_GetTransform(sweep, 0.0f);
	ls.end = tbSweep_GetTransform(sweep, 1.0f);
	// The sweep turns at a constant rate through theta about an axis through its centre, which
	// moves in a straight line. Along any direction n a point at distance u from that centre then
	// moves as a straight line plus a sinusoid of amplitude at most u over an arc theta (at most
	// pi), which dips below its chord by at most u (1 - cos(theta / 2)), and cos(theta / 2) = |q0 .
	// q1|. So a point's height over a plane never drops below the smaller of its heights at the two
	// ends by more than that, with u the shape's bounding radius about the centre.
	float reach = tbGeometry_BoundingRadius(moving) + glms_vec3_norm(sweep->localCenter);
	// (Plus a millionth of the reach for the rounding of the dot product of unit quaternions.)
	ls.bow = reach * (1.0f - fminf(fabsf(glms_quat_dot(sweep->q0, sweep->q1)), 1.0f) + 1e-6f);
	memset(&ls.best, 0, sizeof ls.best);
	ls.best.state = tb_toiSeparated;
	ls.best.fraction = maxFraction;
	ls.visited = 0;
	ls.endBox = tbGeometry_ComputeAABB(moving, ls.end);
	tbGeometry_QueryTriangles(&target->geometry, local, tbLevelSweepCallback, &ls);
	return ls.best;
}

typedef struct tbContinuousContext
{
	tbWorld* world;
	int body;               // the fast body
	int shape;              // its shape being swept
	tbSweep sweep;          // of that shape
	float fraction;         // earliest impact so far
	float target;           // separation to stop at, m
	tbGeometry inset;       // the swept shape scaled by insetScale about its interior point
	vec3s interior;         // that point, shape frame
	float insetScale;       // k
	float insetTarget;      // separation the inset copy stops at, m
	tbTransform start, end; // the body's poses
	tbAABB box;             // the swept shape's box over the step, world
	bool prepared;          // sweep and inset made (only once a candidate is found)
	bool bullet;
} tbContinuousContext;

// The sweep of the shape being swept and its inset copy, made when the first candidate is found:
// most fast bodies (falling through the air) find none.
static void tbPrepareShapeSweep(tbContinuousContext* cc)
{
	const tbWorld* w = cc->world;
	const tbBodySlot* b = w->bodies + cc->body;
	const tbShapeSlot* shape = w->shapes + cc->shape;
	tbTransform s0 = tbMulTransforms(cc->start, shape->localPose);
	tbTransform s1 = tbMulTransforms(cc->end, shape->localPose);
	// The centre of mass in the shape's frame: the shape turns about it.
	vec3s center = tbInvTransformPointInline(shape->localPose, b->localCenter);
	cc->sweep = tbMakeSweep(s0, s1, center);
	// The inset copy for shapes touching at the start: every point moves in by at most delta, a
	// quarter of the shape's half thickness and at most the speculative distance.
	float delta = fminf(TB_CCD_INSET_FRACTION * tbGeometryMinExtent(&shape->geometry),
	                    w->def.speculativeDistance);
	cc->interior = tbGeometry_InteriorPoint(&shape->geometry);
	float far = tbGeometry_BoundingRadius(&shape->geometry) + glms_vec3_norm(cc->interior);
	cc->insetScale = far > 0.0f ? fmaxf(1.0f - delta / far, 0.5f) : 1.0f;
	cc->inset = tbGeometry_Scaled(&shape->geometry, cc->insetScale);
	cc->insetTarget = 0.1f * delta;
	cc->prepared = true;
}

// Whether the step solved a touching contact between shape `fast` and shape `other`: its
// speculative points (margin from the pair's speed and spin, made again each substep for pairs
// that turn fast: contact_refresh.c) already kept the two apart through the step. For level
// geometry any of the pair's slots: the pair's narrow phase took every triangle within that
// margin, one the shape's motion in the step could reach, so the slots hold what it may hit.
static bool tbSolvedTogether(const tbWorld* w, int body, int fast, int other)
{
	const tbBodySlot* b = w->bodies + body;
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= b->contactCount;) {
		const tbContactSlot* c = w->contacts + (edge >> 1);
		if (c->touching && ((c->shapeA == fast && c->shapeB == other) ||
		                    (c->shapeA == other && c->shapeB == fast))) {
			return true;
		}
		edge = w->contactLinks[edge >> 1].edgeNext[edge & 1];
	}
	return false;
}

// A bound on how far any point of a shape with middle m (its frame) and reach r about it moves
// from pose `from` to pose `to`: the middle's move plus the turn's, r pi sin(theta / 2) >= r
// theta (cos(theta / 2) = |q0 . q1|).
static float tbShapeMoveBound(tbTransform from, tbTransform to, vec3s m, float r)
{
	vec3s d = glms_vec3_sub(tbTransformPointInline(to, m), tbTransformPointInline(from, m));
	float c = fminf(fabsf(glms_quat_dot(from.q, to.q)), 1.0f);
	return glms_vec3_norm(d) + r * GLM_PIf * sqrtf(1.0f - c * c);
}

// Whether the sweep passes over level shape `levelIndex` by its pair's first slot: that slot
// touching (the step solved the two together: tbSolvedTogether would find it, as a pair's
// contacts are linked to both bodies while in the pair table), or the swept shape cannot reach
// the level in this step: the pair's last narrow phase (its cache) found every triangle at least
// its distance away (those beyond its margin unasked: the distance is at most that margin), and
// the shape has moved less than that, less the separation the sweep stops at, from its pose then
// to this step's start and on to its end (the sweep's own path: its middle in a line, a steady
// turn).
static bool tbLevelPassedOver(const tbWorld* w, const tbContinuousContext* cc, int levelIndex)
{
	bool levelIsA = levelIndex < cc->shape;
	int index =
	    tbPairFind(w, levelIsA ? levelIndex : cc->shape, levelIsA ? cc->shape : levelIndex, 0);
	if (index < 0) {
		return false;
	}
	if (w->contacts[index].touching) {
		return true;
	}
	const tbContactCache* cache = &w->contacts[index].cache;
	if (!cache->valid) {
		return false;
	}
	const tbShapeSlot* fast = w->shapes + cc->shape;
	const tbShapeSlot* level = w->shapes + levelIndex;
	// The shape's poses in the level's frame.
	tbTransform then = levelIsA ? tbCachePose(cache)
	                            : tbInvMulTransforms(tbCachePose(cache), tbTransformIdentity());
	tbTransform start = tbInvMulTransforms(level->xf, tbMulTransforms(cc->start, fast->localPose));
	tbTransform end = tbInvMulTransforms(level->xf, tbMulTransforms(cc->end, fast->localPose));
	float moved = tbShapeMoveBound(then, start, fast->localMiddle, fast->middleReach) +
	              tbShapeMoveBound(start, end, fast->localMiddle, fast->middleReach);
	return moved + cc->target < cache->distance;
}

static bool tbContinuousCallback(int proxyId, int shapeIndex, void* context)
{
	(void)proxyId;
	tbContinuousContext* cc = context;
	tbWorld* w = cc->world;
	const tbShapeSlot* other = w->shapes + shapeIndex;
	const tbShapeSlot* fast = w->shapes + cc->shape;
	if (other->body == cc->body || !tbShouldShapesContact(w, cc->shape, shapeIndex)) {
		return true;
	}
	const tbBodySlot* ob = w->bodies + other->body;
	if (ob->rb.type == tb_dynamicBody) {
		// Only a bullet sweeps against dynamic bodies, and not against other bullets (their
		// final poses are not final yet: Box2D's rule).
		if (!cc->bullet || ob->isBullet) {
			return true;
		}
	}
	if (!tbBodiesMayCollide(w, cc->body, other->body)) {
		return true; // jointed bodies that do not collide
	}
	// Both tests below only skip the shape; the level's, a lookup of one pair, goes before the
	// walk over the body's contacts.
	if (tbGeometry_IsLevel(&other->geometry) && tbLevelPassedOver(w, cc, shapeIndex)) {
		return true;
	}
	if (tbSolvedTogether(w, cc->body, cc->shape, shapeIndex)) {
		// Moved back to an impact the solver had already handled, the body would only move
		// away from its neighbours' poses (a spinning box moved back from the ground it rolled
		// on leaves a falling ball inside it).
		return true;
	}
	if (!cc->prepared) {
		tbPrepareShapeSweep(cc);
	}
	tbToiOutput toi =
	    tbSweepAgainstShape(&fast->geometry, &cc->sweep, other, cc->box, cc->fraction, cc->target);
	if (tbGeometry_IsLevel(&other->geometry)) {
		// Triangles the shape starts on or behind were passed over (tbLevelSweepCallback): what
		// it rests on is the speculative contacts' work, so there is no inset pass.
		if (toi.state == tb_toiHit && toi.fraction > 0.0f) {
			cc->fraction = fminf(cc->fraction, toi.fraction);
		}
		return true;
	}
	if (toi.state == tb_toiHit || toi.state == tb_toiFailed) {
		if (toi.fraction > 0.0f) {
			cc->fraction = fminf(cc->fraction, toi.fraction);
			return true;
		}
	}
	if (toi.state == tb_toiSeparated) {
		return true;
	}
	// Touching or overlapping at the start (a fast body sliding on the ground, a spinning cone
	// landing on its rim): the whole shape would give an impact at 0 and freeze. Its inset copy
	// S' = k S + (1 - k) c (scaled by k about its interior point c, every point moved in by at
	// most delta) starts apart and is swept instead: S lies within delta of S', so while S' does
	// not touch the other shape S is less than delta into it (a penetration depth of at most
	// delta). Box2D v3 sweeps a small ball about the centroid here, which lets a spinning rim
	// swing far into the ground.
	tbSweep insetSweep = cc->sweep;
	vec3s offset = glms_vec3_scale(cc->interior, 1.0f - cc->insetScale);
	insetSweep.localCenter = glms_vec3_sub(cc->sweep.localCenter, offset);
	toi =
	    tbSweepAgainstShape(&cc->inset, &insetSweep, other, cc->box, cc->fraction, cc->insetTarget);
	if ((toi.state == tb_toiHit || toi.state == tb_toiFailed) && toi.fraction > 0.0f) {
		cc->fraction = fminf(cc->fraction, toi.fraction);
	}
	return true;
}

// Sweep one fast body against the static tree (and the moving tree for a bullet): the fraction of
// the step at its earliest impact, 1 for none. Reads the world only.
static float tbSweepFraction(tbWorld* w, int bodyIndex, tbTransform start, float dt)
{
	const tbBodySlot* b = w->bodies + bodyIndex;
	tbTransform end = b->xf;
	// Only the fields the query reads are set here; the sweep and the inset copy are made by
	// tbPrepareShapeSweep when a candidate is found (most fast bodies find none).
	tbContinuousContext cc;
	cc.world = w;
	cc.body = bodyIndex;
	cc.fraction = 1.0f;
	cc.bullet = b->isBullet;
	cc.target = fminf(TB_CCD_TARGET_FRACTION * b->minExtent, 0.25f * w->def.speculativeDistance);
	cc.target = fmaxf(cc.target, 0.0f);
	cc.start = start;
	cc.end = end;
	// The box of the whole sweep without a support call: a point r from the centre of mass (r at
	// most its shape's spinReach) is at c(t) + R(t) r, within theta spinReach of the end box moved
	// back by (1 - t)(c1 - c0). The turn theta has cos(theta / 2) = |q0 . q1|, and theta <=
	// pi sin(theta / 2) (sin x >= 2 x / pi on [0, pi / 2]): a bound without a trigonometric call.
	vec3s x0 = start.p;
	if (b->localCenter.x != 0.0f || b->localCenter.y != 0.0f || b->localCenter.z != 0.0f) {
		x0 = glms_vec3_add(start.p, tbRotateInline(start.q, b->localCenter));
	}
	vec3s back = glms_vec3_sub(b->rb.state.x, x0);
	float c = fabsf(glms_quat_dot(start.q, end.q));
	float turn = c < 1.0f ? GLM_PIf * sqrtf(1.0f - c * c) : 0.0f;
	float theta = dt * glms_vec3_norm(b->rb.w);
	float slow = TB_FAST_FRACTION * b->minExtent;
	for (int s = b->firstShape; s >= 0; s = w->shapes[s].nextInBody) {
		const tbShapeSlot* shape = w->shapes + s;
		// The body's test (tbContinuousCheck) for this shape alone: its points move at most
		// |v + w x a| dt + theta r + theta^2 |a| in the step at the body's velocity, with a the
		// arm from the centre of mass to the middle of its box and r its points' reach about that
		// middle (the bound of tbPairMargin). A shape of a compound that moves less than the
		// fraction of the body's thinnest half thickness is held by its speculative contacts, as
		// a slow body is (the foot of a toppling tree).
		vec3s arm = glms_vec3_sub(tbTransformPointInline(end, shape->bodyMiddle), b->rb.state.x);
		float moved = dt * glms_vec3_norm(glms_vec3_add(b->rb.v, glms_vec3_cross(b->rb.w, arm))) +
		              theta * (shape->middleReach + theta * glms_vec3_norm(arm));
		if (moved < slow) {
			continue;
		}
		float grow = turn * shape->spinReach;
		vec3s g = {{grow, grow, grow}};
		cc.shape = s;
		cc.prepared = false;
		tbAABB box;
		box.lower = glms_vec3_sub(
		    glms_vec3_minv(shape->aabb.lower, glms_vec3_sub(shape->aabb.lower, back)), g);
		box.upper = glms_vec3_add(
		    glms_vec3_maxv(shape->aabb.upper, glms_vec3_sub(shape->aabb.upper, back)), g);
		cc.box = box;
		tbDynamicTree_Query(&w->trees[0], box, tbContinuousCallback, &cc);
		if (cc.bullet) {
			tbDynamicTree_Query(&w->trees[1], box, tbContinuousCallback, &cc);
		}
	}
	return cc.fraction;
}

// The fast body moved back to its earliest impact, a fraction of the step from `start`.
static void tbMoveToImpact(tbWorld* w, int bodyIndex, tbTransform start, float fraction, float dt)
{
	w->profile.fastBodies += 1;
	if (!(fraction < 1.0f)) {
		return;
	}
	tbBodySlot* b = w->bodies + bodyIndex;
	tbTransform end = b->xf;
	// Back to the pose at the impact: Baraff's x and R move with it, P and L stay (the velocity is
	// kept, Box2D v3's choice), so the next step's speculative contact meets it at the surface.
	w->profile.impactBodies += 1;
	tbSweep bodySweep = tbMakeSweep(start, end, b->localCenter);
	tbTransform xf = tbSweep_GetTransform(&bodySweep, fraction);
	b->rb.state.x = glms_vec3_add(
	    bodySweep.c0, glms_vec3_scale(glms_vec3_sub(bodySweep.c1, bodySweep.c0), fraction));
	b->rb.state.R = glms_quat_mat3(xf.q);
	tbRigidBody_UpdateDerived(&b->rb);
	tbSyncBodyTransform(b);
	tbUpdateBodyShapes(w, bodyIndex, dt, false);
}

typedef struct tbSweepTask
{
	tbWorld* world;
	float dt;
} tbSweepTask;

// Fast bodies [start, end) of the list: each non-bullet's sweep, its fraction to fastFractions. A
// non-bullet sweeps against the static tree alone, which no body's move changes, so the sweeps
// are independent of each other and of the moves made after them.
static void tbSweepRange(int start, int end, int worker, void* context)
{
	(void)worker;
	const tbSweepTask* t = context;
	tbWorld* w = t->world;
	for (int k = start; k < end; ++k) {
		int i = w->fastBodies[k];
		w->fastFractions[k] =
		    w->bodies[i].isBullet ? 1.0f : tbSweepFraction(w, i, w->fastStarts[k], t->dt);
	}
}

// Fast bodies per range of the sweeps: a sweep is a tree query and, near something, a few
// time-of-impact searches.
#define TB_MIN_SWEEPS 16

void tbSolveContinuous(tbWorld* w, float dt)
{
	// Non-bullets first, so that bullets sweep against the final poses of the dynamic bodies: the
	// non-bullets' sweeps (side by side with workers), then their moves in the list's order.
	tbSweepTask task = {w, dt};
	if (w->parallel && w->fastCount > TB_MIN_SWEEPS) {
		tbParallelFor(w, tbSweepRange, w->fastCount, TB_MIN_SWEEPS, &task);
	} else {
		tbSweepRange(0, w->fastCount, 0, &task);
	}
	for (int k = 0; k < w->fastCount; ++k) {
		int i = w->fastBodies[k];
		if (!w->bodies[i].isBullet) {
			tbMoveToImpact(w, i, w->fastStarts[k], w->fastFractions[k], dt);
		}
	}
	for (int k = 0; k < w->fastCount; ++k) {
		int i = w->fastBodies[k];
		if (w->bodies[i].isBullet) {
			float f = tbSweepFraction(w, i, w->fastStarts[k], dt);
			tbMoveToImpact(w, i, w->fastStarts[k], f, dt);
		}
	}
}

void tbBody_SetBullet(tbBodyId bodyId, bool flag)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_SetBullet");
	if (b != NULL) {
		b->isBullet = flag;
	}
}

bool tbBody_IsBullet(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_IsBullet");
	return b != NULL && b->isBullet;
}
