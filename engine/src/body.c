// Bodies of the world: creation, handles, mass from the shapes, getters and setters, forces.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tumble/math_internal.h"
#include "world_internal.h"

tbBodyId tbMakeBodyId(const tbWorld* world, int index)
{
	tbBodyId id = {index + 1, (uint16_t)world->index, 0, world->generation,
	               world->bodies[index].generation};
	return id;
}

tbBodySlot* tbGetBodySlot(tbBodyId id, tbWorld** world, const char* caller)
{
	tbWorld* w = tbGetWorldFromIndex(id.world0);
	int index = id.index1 - 1;
	if (w == NULL || w->generation != id.worldGeneration || index < 0 || index >= w->bodyCount ||
	    !w->bodies[index].alive || w->bodies[index].generation != id.generation) {
		tbSetError("%s: stale or null body id (index1 %d, world %d, world generation %u, "
		           "generation %u)",
		           caller, id.index1, id.world0, (unsigned)id.worldGeneration,
		           (unsigned)id.generation);
		TB_ASSERT(false && "stale or null body id");
		return NULL;
	}
	if (world != NULL) {
		*world = w;
	}
	return w->bodies + index;
}

static versors tbQuatFromR(mat3s R)
{
	return glms_quat_normalize(glms_mat3_quat(R));
}

void tbSyncBodyTransform(tbBodySlot* b)
{
	b->xf.q = tbQuatFromR(b->rb.state.R);
	// The origin sits localCenter behind the centre of mass.
	b->xf.p = glms_vec3_sub(b->rb.state.x, glms_mat3_mulv(b->rb.state.R, b->localCenter));
}

// A shape's world pose from its body's: a shape at the body's origin, unturned (a body of one
// shape, as most are), takes the body's pose, normalised as tbMulTransforms normalises the
// product. The product with the identity would give the same numbers: its terms with the
// identity's zeros add nothing, its ones multiply exactly.
static inline tbTransform tbShapePose(tbTransform body, tbTransform local)
{
	if (local.q.w == 1.0f && local.q.x == 0.0f && local.q.y == 0.0f && local.q.z == 0.0f &&
	    local.p.x == 0.0f && local.p.y == 0.0f && local.p.z == 0.0f) {
		return (tbTransform){.p = body.p, .q = glms_quat_normalize(body.q)};
	}
	return tbMulTransforms(body, local);
}

// Recompute a shape's world pose and box; refatten and queue it for new pairs when it left its
// fat box. The fat box also reaches ahead by the distance the body will move in a step, so fast
// bodies meet their pairs (and speculative points) before they arrive. The test is on the box swept
// by one more step, not the box alone: a body that had moved on inside its fat box until less than
// a step's reach was left ahead found its next pair only after it had arrived (a fast falling ball
// sank into the ground). A new fat box reaches two steps ahead along the velocity (and the spin's
// reach) plus the margin, and only the margin behind, so a steadily moving body is refattened
// about as often as with a box grown by the margin alone. A body touching another dynamic body
// (touchingMovers) is not moving steadily: its neighbours change its velocity every step, and a
// box two steps ahead of it only pairs it with more of them (a drum of tumbling cubes). Its new
// fat box reaches one step's sweep or the margin, whichever is more, on each side: it holds the
// box swept one more step, which the test above asks, and no more than the margin where the
// body moves less than that in a step (Box3D's boxes, grown by the margin alone).
// tbUpdateBodyShapes with the tree's proxies moved at once (defer false), or the shapes whose
// fat box was made anew marked for a later serial pass (defer true; *deferred set).
static inline __attribute__((always_inline)) float
tbUpdateShapeBoxes(tbWorld* w, int bodyIndex, float dt, bool forceMove, bool defer, bool* deferred)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	bool fixed = b->rb.type == tb_staticBody;
	vec3s v = b->rb.v;
	float turn = dt * glms_vec3_norm(b->rb.w);
	float travel = dt * glms_vec3_norm(v); // the same for every shape
	float reach = travel + turn * b->maxExtent;
	float dx = dt * v.x, dy = dt * v.y, dz = dt * v.z;
	float ahead = b->touchingMovers > 0 ? 1.0f : 2.0f; // steps a new fat box reaches ahead
	for (int s = b->firstShape; s >= 0; s = w->shapes[s].nextInBody) {
		tbShapeSlot* shape = w->shapes + s;
		float margin = fixed ? 0.0f : tbShapeMargin(w, shape);
		// The step's reach along each axis: ahead (+) and behind (-), the shape's own spin both
		// ways. A point at distance r from the centre of mass turned by theta moves by the chord
		// 2 r sin(theta / 2), at most r theta and never more than 2 r: each shape of a compound
		// body grows by its own reach, not by its body's farthest point.
		float r = shape->spinReach;
		float spin = tbFMin(turn * r, 2.0f * r);
		float ax = (dx > 0.0f ? dx : 0.0f) + spin, bx = (dx < 0.0f ? dx : 0.0f) - spin;
		float ay = (dy > 0.0f ? dy : 0.0f) + spin, by = (dy < 0.0f ? dy : 0.0f) - spin;
		float az = (dz > 0.0f ? dz : 0.0f) + spin, bz = (dz < 0.0f ? dz : 0.0f) - spin;
		float shapeReach = travel + spin;
		shape->xf = tbShapePose(b->xf, shape->localPose);
		tbAABB box = tbGeometry_ComputeAABB(&shape->geometry, shape->xf);
		shape->aabb = box;
		tbAABB* fat = &shape->fatAABB;
		// Kept while it holds the box swept one more step and is not much larger than a new one
		// would be (4 margins and 4 steps' reach beyond it): a body that came to rest after a
		// fast fall would otherwise keep a fat box reaching far into the pile below, and a pair
		// with every body in it.
		float slack = 4.0f * (margin + shapeReach);
		if (!forceMove && fat->lower.x <= box.lower.x + bx && fat->lower.y <= box.lower.y + by &&
		    fat->lower.z <= box.lower.z + bz && box.upper.x + ax <= fat->upper.x &&
		    box.upper.y + ay <= fat->upper.y && box.upper.z + az <= fat->upper.z &&
		    fat->lower.x >= box.lower.x + ahead * bx - slack &&
		    fat->lower.y >= box.lower.y + ahead * by - slack &&
		    fat->lower.z >= box.lower.z + ahead * bz - slack &&
		    fat->upper.x <= box.upper.x + ahead * ax + slack &&
		    fat->upper.y <= box.upper.y + ahead * ay + slack &&
		    fat->upper.z <= box.upper.z + ahead * az + slack) {
			continue;
		}
		if (b->touchingMovers > 0) {
			// One step's sweep, or the margin where that is more: each side of the box grown by
			// the larger (the test above holds while the body keeps within it).
			fat->lower =
			    (vec3s){{box.lower.x - fmaxf(margin, -bx), box.lower.y - fmaxf(margin, -by),
			             box.lower.z - fmaxf(margin, -bz)}};
			fat->upper = (vec3s){{box.upper.x + fmaxf(margin, ax), box.upper.y + fmaxf(margin, ay),
			                      box.upper.z + fmaxf(margin, az)}};
		} else {
			fat->lower =
			    (vec3s){{box.lower.x + ahead * bx - margin, box.lower.y + ahead * by - margin,
			             box.lower.z + ahead * bz - margin}};
			fat->upper =
			    (vec3s){{box.upper.x + ahead * ax + margin, box.upper.y + ahead * ay + margin,
			             box.upper.z + ahead * az + margin}};
		}
		if (shape->proxyId >= 0 && defer) {
			shape->fatMoved = true;
			*deferred = true;
		} else if (shape->proxyId >= 0) {
			tbBroadPhase_MoveProxy(w, shape);
			tbBroadPhase_BufferMove(w, s);
		}
	}
	return reach;
}

float tbUpdateBodyShapes(tbWorld* w, int bodyIndex, float dt, bool forceMove)
{
	return tbUpdateShapeBoxes(w, bodyIndex, dt, forceMove, false, NULL);
}

bool tbUpdateBodyBoxes(tbWorld* w, int bodyIndex, float dt)
{
	bool deferred = false;
	tbUpdateShapeBoxes(w, bodyIndex, dt, false, true, &deferred);
	return deferred;
}

// One shape's mass in the body frame; *weighs false for a shape that collides but weighs nothing
// (zero density, a triangle, a flat hull). False with a message when its mass leaves float.
static bool tbShapeBodyMass(const tbGeometry* geometry, float density, tbTransform localPose,
                            tbMassData* out, bool* weighs, char* message, int size)
{
	*weighs = false;
	if (density == 0.0f) {
		return true;
	}
	tbMassError err;
	tbMassData m = tbComputeMass(geometry, density, &err);
	if (err == tb_massNoVolume || err == tb_massDegenerateHull) {
		return true;
	}
	if (err != tb_massOk) {
		// Overflow or underflow of the mass (say density 3e38): refusing it beats a body that
		// silently weighs the 1 kg default.
		snprintf(message, (size_t)size, "the shape's mass (density %g kg/m^3) is not usable: %s",
		         (double)density, tbMassErrorString(err));
		return false;
	}
	// Into the body frame: c' = p + R c, I' = R I R^T.
	mat3s R = glms_quat_mat3(localPose.q);
	m.center = glms_vec3_add(localPose.p, glms_mat3_mulv(R, m.center));
	m.inertia = glms_mat3_mul(glms_mat3_mul(R, m.inertia), glms_mat3_transpose(R));
	*out = m;
	*weighs = true;
	return true;
}

bool tbBodyMassFromShapes(const tbWorld* w, int bodyIndex, const tbGeometry* extra,
                          float extraDensity, tbTransform extraPose, tbMassData* out, bool* weighs,
                          char* message, int size)
{
	const tbBodySlot* b = w->bodies + bodyIndex;
	tbMassData total;
	memset(&total, 0, sizeof total);
	bool any = false;
	for (int s = b->firstShape; s >= 0 || extra != NULL; s = s >= 0 ? w->shapes[s].nextInBody : s) {
		const tbGeometry* geometry = extra;
		float density = extraDensity;
		tbTransform pose = extraPose;
		if (s >= 0) {
			geometry = &w->shapes[s].geometry;
			density = w->shapes[s].density;
			pose = w->shapes[s].localPose;
		} else {
			extra = NULL;
		}
		tbMassData m;
		bool solid;
		if (!tbShapeBodyMass(geometry, density, pose, &m, &solid, message, size)) {
			return false;
		}
		if (solid) {
			total = tbCombineMass(total, m);
			any = true;
		}
	}
	if (weighs != NULL) {
		*weighs = any;
	}
	if (!any && b->massSet) {
		// Shapes that weigh nothing (density 0, triangles) on a body given its mass: that mass.
		total.mass = b->rb.mass;
		total.center = b->localCenter;
		total.inertia = b->rb.Ibody;
	} else if (!any) {
		// No shape yet: a 1 kg placeholder so that the body stays valid until its first shape
		// (tbCreateShape refuses a first shape that weighs nothing; docs/ranges.md).
		total.mass = 1.0f;
		total.center = glms_vec3_zero();
		total.inertia = glms_mat3_scale(glms_mat3_identity(), 0.4f);
	}
	*out = total;
	tbMassData centred = total;
	centred.center = glms_vec3_zero();
	return tbMassData_IsValid(&centred, message, size);
}

void tbUpdateBodyMass(tbWorld* w, int bodyIndex)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	vec3s v = b->rb.v, omega = b->rb.w;
	tbRigidBody old = b->rb;
	tbMassData total;
	memset(&total, 0, sizeof total);
	float maxExtent = 0.0f;
	if (b->rb.type == tb_dynamicBody) {
		char message[160];
		bool weighs;
		if (!tbBodyMassFromShapes(w, bodyIndex, NULL, 0.0f, tbTransformIdentity(), &total, &weighs,
		                          message, (int)sizeof message)) {
			// tbCreateShape refused every shape that would get here; keep the old mass.
			total.mass = old.mass;
			total.center = b->localCenter;
			total.inertia = old.Ibody;
		} else if (weighs) {
			b->massSet = false; // the shapes' mass replaces a given one
		}
	}
	// Keep the origin where it is; the centre of mass follows the shapes.
	vec3s origin = b->xf.p;
	mat3s R = b->rb.state.R;
	b->localCenter = total.center;
	vec3s x = glms_vec3_add(origin, glms_mat3_mulv(R, b->localCenter));
	tbMassData md = total;
	md.center = glms_vec3_zero();
	b->rb = tbMakeBody(old.type, md, x, R);
	b->rb.linearDamping = old.linearDamping;
	b->rb.angularDamping = old.angularDamping;
	b->rb.gravityScale = old.gravityScale;
	b->rb.force = old.force;
	b->rb.torque = old.torque;
	tbRigidBody_SetVelocity(&b->rb, v, omega);
	for (int s = b->firstShape; s >= 0; s = w->shapes[s].nextInBody) {
		tbShapeSlot* shape = w->shapes + s;
		// Each shape's own reach about the centre of mass, from its points (a hull given in the
		// body frame has its origin at the body's, far from the centre of mass of a tall body).
		vec3s centre = tbInvTransformPoint(shape->localPose, b->localCenter);
		shape->spinReach = tbGeometry_ReachFrom(&shape->geometry, centre);
		maxExtent = shape->spinReach > maxExtent ? shape->spinReach : maxExtent;
	}
	b->maxExtent = maxExtent;
	b->minExtent = tbBodyMinExtent(w, bodyIndex);
	tbSyncBodyTransform(b);
}

tbBodyId tbCreateBody(tbWorldId worldId, const tbBodyDef* def)
{
	tbWorld* w = tbGetWorld(worldId, "tbCreateBody");
	if (w == NULL) {
		return tb_nullBodyId;
	}
	if (def == NULL) {
		tbSetError("tbCreateBody: def is null (use tbDefaultBodyDef())");
		return tb_nullBodyId;
	}
	if (!tbCoordinatesInRange(def->position)) {
		tbSetError("tbCreateBody: def->position (%g, %g, %g) is NaN, Inf or beyond +-%g m "
		           "(docs/ranges.md)",
		           (double)def->position.x, (double)def->position.y, (double)def->position.z,
		           (double)TB_MAX_COORDINATE);
		return tb_nullBodyId;
	}
	if (!tbFiniteQuat(def->rotation)) {
		tbSetError("tbCreateBody: def->rotation is NaN, Inf or zero");
		return tb_nullBodyId;
	}
	if (!tbIsFiniteVec3(def->linearVelocity) || !tbIsFiniteVec3(def->angularVelocity)) {
		tbSetError("tbCreateBody: def->linearVelocity or def->angularVelocity is NaN or Inf");
		return tb_nullBodyId;
	}
	if (!(def->linearDamping >= 0.0f) || !(def->angularDamping >= 0.0f) ||
	    !isfinite(def->linearDamping) || !isfinite(def->angularDamping) ||
	    !isfinite(def->gravityScale) || !(def->sleepThreshold >= 0.0f) ||
	    !isfinite(def->sleepThreshold)) {
		tbSetError("tbCreateBody: def->linearDamping, angularDamping and sleepThreshold must be "
		           "finite and >= 0, gravityScale finite");
		return tb_nullBodyId;
	}
	if (def->type != tb_staticBody && def->type != tb_kinematicBody &&
	    def->type != tb_dynamicBody) {
		tbSetError("tbCreateBody: def->type %d is not a body type", (int)def->type);
		return tb_nullBodyId;
	}
	int index;
	if (w->freeBody >= 0) {
		index = w->freeBody;
		w->freeBody = w->bodies[index].nextFree;
	} else {
		tbGrowArray((void**)&w->bodies, &w->bodyCapacity, w->bodyCount + 1, sizeof(tbBodySlot));
		index = w->bodyCount++;
	}
	tbBodySlot* b = w->bodies + index;
	uint32_t generation = b->generation + 1;
	memset(b, 0, sizeof *b);
	b->generation = generation;
	b->alive = true;
	b->awake = def->isAwake || def->type == tb_staticBody ? true : false;
	b->enableSleep = def->enableSleep;
	b->sleepThreshold = def->sleepThreshold;
	b->isBullet = def->isBullet;
	b->userData = def->userData;
	b->firstShape = -1;
	b->sleepNext = -1;
	b->solverIndex = -1;
	b->awakeIndex = -1;
	b->contactList = -1;
	b->jointList = -1;
	b->xf.p = def->position;
	b->xf.q = glms_quat_normalize(def->rotation);
	tbMassData unit;
	memset(&unit, 0, sizeof unit);
	unit.mass = 1.0f;
	unit.inertia = glms_mat3_scale(glms_mat3_identity(), 0.4f);
	b->rb = tbMakeBody(def->type, unit, def->position, glms_quat_mat3(b->xf.q));
	b->rb.linearDamping = def->linearDamping;
	b->rb.angularDamping = def->angularDamping;
	b->rb.gravityScale = def->gravityScale;
	tbRigidBody_SetVelocity(&b->rb, def->linearVelocity, def->angularVelocity);
	tbUpdateBodyMass(w, index);
	if (!b->awake) {
		// A body created asleep is an island of its own.
		b->sleepNext = index;
		tbRigidBody_SetVelocity(&b->rb, glms_vec3_zero(), glms_vec3_zero());
	}
	tbSetBodyAwake(w, index, b->awake);
	w->liveBodies += 1;
	return tbMakeBodyId(w, index);
}

void tbDestroyBody(tbBodyId bodyId)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbDestroyBody");
	if (b == NULL) {
		return;
	}
	int index = bodyId.index1 - 1;
	if (!b->awake) {
		// Take it out of its sleeping island: wake the island (its support is going away).
		tbWakeBody(w, index);
	}
	tbDestroyBodyJoints(w, index);
	tbBeginApiEvents(w);
	while (b->firstShape >= 0) {
		tbDestroyShapeInternal(w, b->firstShape, false);
	}
	tbEndApiEvents(w);
	tbRemoveBodyFromSets(w, index);
	b->alive = false;
	b->generation += 1;
	if (b->generation < TB_RETIRED_GENERATION) {
		b->nextFree = w->freeBody;
		w->freeBody = index;
	}
	w->liveBodies -= 1;
}

bool tbBody_IsValid(tbBodyId bodyId)
{
	tbWorld* w = tbGetWorldFromIndex(bodyId.world0);
	int index = bodyId.index1 - 1;
	return w != NULL && w->generation == bodyId.worldGeneration && index >= 0 &&
	       index < w->bodyCount && w->bodies[index].alive &&
	       w->bodies[index].generation == bodyId.generation;
}

tbBodyType tbBody_GetType(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetType");
	return b != NULL ? b->rb.type : tb_staticBody;
}

vec3s tbBody_GetPosition(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetPosition");
	return b != NULL ? b->xf.p : glms_vec3_zero();
}

versors tbBody_GetRotation(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetRotation");
	return b != NULL ? b->xf.q : glms_quat_identity();
}

tbTransform tbBody_GetTransform(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetTransform");
	return b != NULL ? b->xf : tbTransformIdentity();
}

void tbBody_SetTransform(tbBodyId bodyId, vec3s position, versors rotation)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_SetTransform");
	if (b == NULL) {
		return;
	}
	if (!tbCoordinatesInRange(position)) {
		tbSetError("tbBody_SetTransform: position (%g, %g, %g) is NaN, Inf or beyond +-%g m "
		           "(docs/ranges.md)",
		           (double)position.x, (double)position.y, (double)position.z,
		           (double)TB_MAX_COORDINATE);
		return;
	}
	if (!tbFiniteQuat(rotation)) {
		tbSetError("tbBody_SetTransform: rotation is NaN, Inf or zero");
		return;
	}
	int index = bodyId.index1 - 1;
	// Wake what touches it first (a moved neighbour wakes), then move and wake it.
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= w->contactCount;) {
		const tbContactSlot* c = w->contacts + (edge >> 1);
		int other = ((edge & 1) == 0 ? c->bodyB : c->bodyA);
		if (c->touching && !w->bodies[other].awake) {
			tbWakeBody(w, other);
		}
		edge = w->contactLinks[edge >> 1].edgeNext[edge & 1];
	}
	if (b->rb.type != tb_staticBody) {
		tbWakeBody(w, index);
	}
	b->xf.p = position;
	b->xf.q = glms_quat_normalize(rotation);
	vec3s v = b->rb.v, omega = b->rb.w;
	b->rb.state.R = glms_quat_mat3(b->xf.q);
	b->rb.state.x = glms_vec3_add(position, glms_mat3_mulv(b->rb.state.R, b->localCenter));
	tbRigidBody_UpdateDerived(&b->rb);
	tbRigidBody_SetVelocity(&b->rb, v, omega);
	tbUpdateBodyShapes(w, index, 0.0f, true);
}

vec3s tbBody_GetWorldCenterOfMass(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetWorldCenterOfMass");
	return b != NULL ? b->rb.state.x : glms_vec3_zero();
}

vec3s tbBody_GetLinearVelocity(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetLinearVelocity");
	return b != NULL ? b->rb.v : glms_vec3_zero();
}

vec3s tbBody_GetAngularVelocity(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetAngularVelocity");
	return b != NULL ? b->rb.w : glms_vec3_zero();
}

static tbBodySlot* tbBodyForEdit(tbBodyId bodyId, tbWorld** w, const char* caller, vec3s value,
                                 const char* field)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, w, caller);
	if (b == NULL) {
		return NULL;
	}
	if (!tbIsFiniteVec3(value)) {
		tbSetError("%s: %s is NaN or Inf", caller, field);
		return NULL;
	}
	return b;
}

void tbBody_SetLinearVelocity(tbBodyId bodyId, vec3s v)
{
	tbWorld* w;
	tbBodySlot* b = tbBodyForEdit(bodyId, &w, "tbBody_SetLinearVelocity", v, "velocity");
	if (b == NULL || b->rb.type == tb_staticBody) {
		return;
	}
	if (glms_vec3_norm2(v) > 0.0f) {
		tbWakeBody(w, bodyId.index1 - 1);
	}
	tbRigidBody_SetVelocity(&b->rb, v, b->rb.w);
}

void tbBody_SetAngularVelocity(tbBodyId bodyId, vec3s omega)
{
	tbWorld* w;
	tbBodySlot* b = tbBodyForEdit(bodyId, &w, "tbBody_SetAngularVelocity", omega, "velocity");
	if (b == NULL || b->rb.type == tb_staticBody) {
		return;
	}
	if (glms_vec3_norm2(omega) > 0.0f) {
		tbWakeBody(w, bodyId.index1 - 1);
	}
	tbRigidBody_SetVelocity(&b->rb, b->rb.v, omega);
}

void tbBody_SetTargetTransform(tbBodyId bodyId, vec3s position, versors rotation, float timeStep)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_SetTargetTransform");
	if (b == NULL) {
		return;
	}
	if (!(isfinite(timeStep) && timeStep > 0.0f)) {
		tbSetError("tbBody_SetTargetTransform: timeStep must be finite and > 0, got %g",
		           (double)timeStep);
		return;
	}
	if (!tbCoordinatesInRange(position) || !tbFiniteQuat(rotation)) {
		tbSetError("tbBody_SetTargetTransform: position or rotation is NaN, Inf, out of range or "
		           "a zero quaternion");
		return;
	}
	if (b->rb.type == tb_staticBody) {
		tbSetError("tbBody_SetTargetTransform: body %d is static (only kinematic and dynamic "
		           "bodies move)",
		           bodyId.index1);
		return;
	}
	// The centre of mass moves in a straight line to where it sits in the target pose.
	versors q1 = glms_quat_normalize(rotation);
	vec3s target = glms_vec3_add(position, glms_quat_rotatev(q1, b->localCenter));
	vec3s v = glms_vec3_scale(glms_vec3_sub(target, b->rb.state.x), 1.0f / timeStep);
	// The turn from the pose now to the target, dq = q1 q0^*, taken the short way round, as an
	// angular velocity: axis * angle / timeStep, angle = 2 atan2(|dq.xyz|, dq.w).
	versors dq = glms_quat_mul(q1, glms_quat_conjugate(b->xf.q));
	if (dq.w < 0.0f) {
		dq = glms_quat_init(-dq.x, -dq.y, -dq.z, -dq.w);
	}
	vec3s axis = {{dq.x, dq.y, dq.z}};
	float s = glms_vec3_norm(axis);
	vec3s omega = s > 1e-9f ? glms_vec3_scale(axis, 2.0f * atan2f(s, dq.w) / (s * timeStep))
	                        : glms_vec3_scale(axis, 2.0f / timeStep);
	if (glms_vec3_norm2(v) > 0.0f || glms_vec3_norm2(omega) > 0.0f) {
		tbWakeBody(w, bodyId.index1 - 1);
	}
	tbRigidBody_SetVelocity(&b->rb, v, omega);
}

vec3s tbBody_GetAngularMomentum(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetAngularMomentum");
	return b != NULL ? b->rb.state.L : glms_vec3_zero();
}

float tbBody_GetKineticEnergy(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetKineticEnergy");
	// The dynamics function of the same name takes the rigid body itself.
	return b != NULL ? 0.5f * (glms_vec3_dot(b->rb.state.P, b->rb.v) +
	                           glms_vec3_dot(b->rb.state.L, b->rb.w))
	                 : 0.0f;
}

int tbWorld_GetBodySnapshots(tbWorldId worldId, tbBodySnapshot* snapshots, int capacity)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetBodySnapshots");
	if (w == NULL) {
		return 0;
	}
	if (capacity < 0 || (snapshots == NULL && capacity > 0)) {
		tbSetError("tbWorld_GetBodySnapshots: capacity must be >= 0 with a non-null array, got %d",
		           capacity);
		return 0;
	}
	int count = 0;
	// One pass over the slots: at most bodyCount iterations.
	for (int i = 0; i < w->bodyCount && count < capacity; ++i) {
		const tbBodySlot* b = w->bodies + i;
		if (!b->alive) {
			continue;
		}
		tbBodySnapshot* s = snapshots + count++;
		s->bodyId = tbMakeBodyId(w, i);
		memcpy(s->position, b->xf.p.raw, sizeof(s->position));
		memcpy(s->rotation, b->xf.q.raw, sizeof(s->rotation));
		memcpy(s->linearVelocity, b->rb.v.raw, sizeof(s->linearVelocity));
		memcpy(s->angularVelocity, b->rb.w.raw, sizeof(s->angularVelocity));
		// The same sum as tbBody_GetKineticEnergy: 1/2 P.v + 1/2 L.w = 1/2 M v.v + 1/2 w.I w.
		s->kineticEnergy =
		    0.5f * (glms_vec3_dot(b->rb.state.P, b->rb.v) + glms_vec3_dot(b->rb.state.L, b->rb.w));
	}
	return count;
}

// A force or impulse on a sleeping body: wake it, or ignore the push (Box2D's rule).
static tbBodySlot* tbBodyForPush(tbBodyId bodyId, const char* caller, vec3s a, vec3s p, bool wake)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, caller);
	if (b == NULL) {
		return NULL;
	}
	if (!tbIsFiniteVec3(a) || !tbIsFiniteVec3(p)) {
		tbSetError("%s: the vector or the point is NaN or Inf", caller);
		return NULL;
	}
	if (b->rb.type != tb_dynamicBody) {
		return NULL;
	}
	if (!b->awake) {
		if (!wake) {
			return NULL;
		}
		tbWakeBody(w, bodyId.index1 - 1);
	}
	return b;
}

void tbBody_ApplyForce(tbBodyId bodyId, vec3s force, vec3s point, bool wake)
{
	tbBodySlot* b = tbBodyForPush(bodyId, "tbBody_ApplyForce", force, point, wake);
	if (b != NULL) {
		b->rb.force = glms_vec3_add(b->rb.force, force);
		b->rb.torque = glms_vec3_add(b->rb.torque,
		                             glms_vec3_cross(glms_vec3_sub(point, b->rb.state.x), force));
	}
}

void tbBody_ApplyForceToCenter(tbBodyId bodyId, vec3s force, bool wake)
{
	tbBodySlot* b =
	    tbBodyForPush(bodyId, "tbBody_ApplyForceToCenter", force, glms_vec3_zero(), wake);
	if (b != NULL) {
		b->rb.force = glms_vec3_add(b->rb.force, force);
	}
}

void tbBody_ApplyTorque(tbBodyId bodyId, vec3s torque, bool wake)
{
	tbBodySlot* b = tbBodyForPush(bodyId, "tbBody_ApplyTorque", torque, glms_vec3_zero(), wake);
	if (b != NULL) {
		b->rb.torque = glms_vec3_add(b->rb.torque, torque);
	}
}

void tbBody_ApplyLinearImpulse(tbBodyId bodyId, vec3s impulse, vec3s point, bool wake)
{
	tbBodySlot* b = tbBodyForPush(bodyId, "tbBody_ApplyLinearImpulse", impulse, point, wake);
	if (b != NULL) {
		tbRigidBody_ApplyImpulse(&b->rb, impulse, point);
	}
}

void tbBody_ApplyAngularImpulse(tbBodyId bodyId, vec3s impulse, bool wake)
{
	tbBodySlot* b =
	    tbBodyForPush(bodyId, "tbBody_ApplyAngularImpulse", impulse, glms_vec3_zero(), wake);
	if (b != NULL) {
		b->rb.state.L = glms_vec3_add(b->rb.state.L, impulse);
		tbRigidBody_UpdateDerived(&b->rb);
	}
}

static tbBodySlot* tbBodyForScalar(tbBodyId bodyId, const char* caller, float value, bool nonNeg)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, caller);
	if (b == NULL) {
		return NULL;
	}
	if (!isfinite(value) || (nonNeg && value < 0.0f)) {
		tbSetError("%s: value must be finite%s, got %g", caller, nonNeg ? " and >= 0" : "",
		           (double)value);
		return NULL;
	}
	return b;
}

void tbBody_SetLinearDamping(tbBodyId bodyId, float damping)
{
	tbBodySlot* b = tbBodyForScalar(bodyId, "tbBody_SetLinearDamping", damping, true);
	if (b != NULL) {
		b->rb.linearDamping = damping;
	}
}

float tbBody_GetLinearDamping(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetLinearDamping");
	return b != NULL ? b->rb.linearDamping : 0.0f;
}

void tbBody_SetAngularDamping(tbBodyId bodyId, float damping)
{
	tbBodySlot* b = tbBodyForScalar(bodyId, "tbBody_SetAngularDamping", damping, true);
	if (b != NULL) {
		b->rb.angularDamping = damping;
	}
}

float tbBody_GetAngularDamping(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetAngularDamping");
	return b != NULL ? b->rb.angularDamping : 0.0f;
}

void tbBody_SetGravityScale(tbBodyId bodyId, float scale)
{
	tbBodySlot* b = tbBodyForScalar(bodyId, "tbBody_SetGravityScale", scale, false);
	if (b != NULL) {
		b->rb.gravityScale = scale;
	}
}

float tbBody_GetGravityScale(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetGravityScale");
	return b != NULL ? b->rb.gravityScale : 0.0f;
}

float tbBody_GetMass(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetMass");
	return b != NULL ? b->rb.mass : 0.0f;
}

tbMassData tbBody_GetMassData(tbBodyId bodyId)
{
	tbMassData md;
	memset(&md, 0, sizeof md);
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetMassData");
	if (b == NULL || b->rb.type != tb_dynamicBody) {
		return md;
	}
	md.mass = b->rb.mass;
	md.center = b->localCenter;
	md.inertia = b->rb.Ibody;
	return md;
}

void tbBody_SetMassData(tbBodyId bodyId, tbMassData massData)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_SetMassData");
	if (b == NULL) {
		return;
	}
	if (b->rb.type != tb_dynamicBody) {
		tbSetError("tbBody_SetMassData: only a dynamic body has a mass");
		return;
	}
	if (!tbIsFiniteVec3(massData.center) || glms_vec3_norm(massData.center) > TB_MAX_LENGTH) {
		tbSetError("tbBody_SetMassData: center (%g, %g, %g) is NaN, Inf or beyond %g m",
		           (double)massData.center.x, (double)massData.center.y, (double)massData.center.z,
		           (double)TB_MAX_LENGTH);
		return;
	}
	// The inertia must be symmetric (a tensor about the centre of mass): checked to float's
	// rounding of its largest entry, then made exactly symmetric.
	mat3s I = massData.inertia;
	float largest = 0.0f;
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) {
			largest = fmaxf(largest, fabsf(I.col[c].raw[r]));
		}
	}
	for (int c = 0; c < 3; ++c) {
		for (int r = c + 1; r < 3; ++r) {
			float a = I.col[c].raw[r], t = I.col[r].raw[c];
			if (!(fabsf(a - t) <= 1e-5f * largest)) {
				tbSetError("tbBody_SetMassData: inertia is not symmetric (I[%d][%d] %g, I[%d][%d] "
				           "%g)",
				           r, c, (double)a, c, r, (double)t);
				return;
			}
			I.col[c].raw[r] = I.col[r].raw[c] = 0.5f * (a + t);
		}
	}
	tbMassData centred = massData;
	centred.center = glms_vec3_zero();
	centred.inertia = I;
	char message[160];
	if (!tbMassData_IsValid(&centred, message, (int)sizeof message)) {
		tbSetError("tbBody_SetMassData: %s (docs/ranges.md)", message);
		return;
	}
	// The origin stays; the centre of mass moves to `center`, with the velocity a point there
	// has now (v + w x d), and the body keeps its spin w.
	vec3s v = b->rb.v, omega = b->rb.w;
	vec3s x = glms_vec3_add(b->xf.p, glms_mat3_mulv(b->rb.state.R, massData.center));
	v = glms_vec3_add(v, glms_vec3_cross(omega, glms_vec3_sub(x, b->rb.state.x)));
	tbRigidBody old = b->rb;
	b->localCenter = massData.center;
	b->rb = tbMakeBody(old.type, centred, x, old.state.R);
	b->rb.linearDamping = old.linearDamping;
	b->rb.angularDamping = old.angularDamping;
	b->rb.gravityScale = old.gravityScale;
	b->rb.force = old.force;
	b->rb.torque = old.torque;
	tbRigidBody_SetVelocity(&b->rb, v, omega);
	b->massSet = true;
	float maxExtent = 0.0f;
	for (int s = b->firstShape; s >= 0; s = w->shapes[s].nextInBody) {
		const tbShapeSlot* shape = w->shapes + s;
		float r = glms_vec3_norm(glms_vec3_sub(shape->localPose.p, b->localCenter)) +
		          tbGeometry_BoundingRadius(&shape->geometry);
		maxExtent = r > maxExtent ? r : maxExtent;
	}
	b->maxExtent = maxExtent;
	tbSyncBodyTransform(b);
}

mat3s tbBody_GetWorldInertia(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetWorldInertia");
	if (b == NULL || b->rb.type != tb_dynamicBody) {
		return glms_mat3_zero();
	}
	// I = R Ibody R^T (Baraff I, eq. 2-40).
	mat3s R = b->rb.state.R;
	return glms_mat3_mul(glms_mat3_mul(R, b->rb.Ibody), glms_mat3_transpose(R));
}

void tbBody_SetUserData(tbBodyId bodyId, void* userData)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_SetUserData");
	if (b != NULL) {
		b->userData = userData;
	}
}

void* tbBody_GetUserData(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetUserData");
	return b != NULL ? b->userData : NULL;
}

bool tbBody_IsAwake(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_IsAwake");
	return b != NULL && b->awake;
}

void tbBody_SetAwake(tbBodyId bodyId, bool awake)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_SetAwake");
	if (b == NULL || b->rb.type == tb_staticBody) {
		return;
	}
	int index = bodyId.index1 - 1;
	if (awake) {
		tbWakeBody(w, index);
	} else if (b->awake) {
		// Alone: its touching neighbours keep their own state; a contact wakes it again.
		b->sleepNext = -1;
		tbPutIslandToSleep(w, index);
	}
}

void tbBody_SetSleepThreshold(tbBodyId bodyId, float speed)
{
	tbBodySlot* b = tbBodyForScalar(bodyId, "tbBody_SetSleepThreshold", speed, true);
	if (b != NULL) {
		b->sleepThreshold = speed;
	}
}

float tbBody_GetSleepThreshold(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetSleepThreshold");
	return b != NULL ? b->sleepThreshold : 0.0f;
}

void tbBody_EnableSleep(tbBodyId bodyId, bool flag)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_EnableSleep");
	if (b == NULL) {
		return;
	}
	b->enableSleep = flag;
	if (!flag) {
		tbWakeBody(w, bodyId.index1 - 1);
	}
}

int tbBody_GetShapeCount(tbBodyId bodyId)
{
	tbBodySlot* b = tbGetBodySlot(bodyId, NULL, "tbBody_GetShapeCount");
	return b != NULL ? b->shapeCount : 0;
}

int tbBody_GetShapes(tbBodyId bodyId, tbShapeId* shapeIds, int capacity)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_GetShapes");
	if (b == NULL) {
		return 0;
	}
	int n = 0;
	for (int s = b->firstShape; s >= 0 && n < capacity; s = w->shapes[s].nextInBody) {
		shapeIds[n++] = tbMakeShapeId(w, s);
	}
	return n;
}

int tbBody_GetContactCount(tbBodyId bodyId)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_GetContactCount");
	if (b == NULL) {
		return 0;
	}
	int n = 0;
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= w->contactCount;) {
		const tbContactSlot* c = w->contacts + (edge >> 1);
		n += c->touching ? 1 : 0;
		edge = w->contactLinks[edge >> 1].edgeNext[edge & 1];
	}
	return n;
}

int tbBody_GetContactData(tbBodyId bodyId, tbContactData* data, int capacity)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbBody_GetContactData");
	if (b == NULL) {
		return 0;
	}
	int n = 0;
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && n < capacity && guard++ <= w->contactCount;) {
		const tbContactSlot* c = w->contacts + (edge >> 1);
		if (c->touching) {
			data[n++] = tbMakeContactData(w, c);
		}
		edge = w->contactLinks[edge >> 1].edgeNext[edge & 1];
	}
	return n;
}
