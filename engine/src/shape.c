// Shapes attached to bodies: creation with validation, the broad-phase proxy, getters, setters.
#include <math.h>
#include <string.h>

#include "world_internal.h"

tbShapeId tbMakeShapeId(const tbWorld* world, int index)
{
	tbShapeId id = {index + 1, (uint16_t)world->index, 0, world->generation,
	                world->shapes[index].generation};
	return id;
}

static tbShapeSlot* tbGetShapeSlot(tbShapeId id, tbWorld** world, const char* caller)
{
	tbWorld* w = tbGetWorldFromIndex(id.world0);
	int index = id.index1 - 1;
	if (w == NULL || w->generation != id.worldGeneration || index < 0 || index >= w->shapeCount ||
	    !w->shapes[index].alive || w->shapes[index].generation != id.generation) {
		tbSetError("%s: stale or null shape id (index1 %d, world %d, world generation %u, "
		           "generation %u)",
		           caller, id.index1, id.world0, (unsigned)id.worldGeneration,
		           (unsigned)id.generation);
		TB_ASSERT(false && "stale or null shape id");
		return NULL;
	}
	if (world != NULL) {
		*world = w;
	}
	return w->shapes + index;
}

bool tbShouldShapesCollide(tbFilter a, tbFilter b)
{
	// A shared group decides alone (Box2D's groupIndex): positive always, negative never.
	if (a.groupIndex == b.groupIndex && a.groupIndex != 0) {
		return a.groupIndex > 0;
	}
	return (a.categoryBits & b.maskBits) != 0 && (b.categoryBits & a.maskBits) != 0;
}

bool tbShouldShapesContact(tbWorld* w, int shapeA, int shapeB)
{
	const tbShapeSlot* a = w->shapes + shapeA;
	const tbShapeSlot* b = w->shapes + shapeB;
	if (!tbShouldShapesCollide(a->filter, b->filter)) {
		return false;
	}
	if (w->customFilter == NULL) {
		return true;
	}
	// The lower index first: the callback sees a pair the same way whoever found it.
	int lo = shapeA < shapeB ? shapeA : shapeB, hi = shapeA < shapeB ? shapeB : shapeA;
	return w->customFilter(tbMakeShapeId(w, lo), tbMakeShapeId(w, hi), w->customFilterContext);
}

// The material fields of a shape definition, checked: false with an error naming the field.
static bool tbCheckSurface(const char* caller, float rollingResistance, vec3s tangentVelocity)
{
	if (!(isfinite(rollingResistance) && rollingResistance >= 0.0f)) {
		tbSetError("%s: rollingResistance must be finite and >= 0, got %g", caller,
		           (double)rollingResistance);
		return false;
	}
	if (!tbIsFiniteVec3(tangentVelocity)) {
		tbSetError("%s: tangentVelocity is NaN or Inf", caller);
		return false;
	}
	return true;
}

tbShapeId tbCreateShape(tbBodyId bodyId, const tbShapeDef* def, const tbGeometry* geometry)
{
	tbWorld* w;
	tbBodySlot* b = tbGetBodySlot(bodyId, &w, "tbCreateShape");
	if (b == NULL) {
		return tb_nullShapeId;
	}
	if (def == NULL || geometry == NULL) {
		tbSetError("tbCreateShape: def or geometry is null");
		return tb_nullShapeId;
	}
	char message[160];
	if (!tbGeometry_Validate(geometry, message, (int)sizeof message)) {
		tbSetError("tbCreateShape: geometry (%s): %s", tbShapeTypeName(geometry->type), message);
		return tb_nullShapeId;
	}
	if (!(isfinite(def->density) && def->density >= 0.0f)) {
		tbSetError("tbCreateShape: def->density must be finite and >= 0, got %g",
		           (double)def->density);
		return tb_nullShapeId;
	}
	if (!(isfinite(def->friction) && def->friction >= 0.0f)) {
		tbSetError("tbCreateShape: def->friction must be finite and >= 0, got %g",
		           (double)def->friction);
		return tb_nullShapeId;
	}
	if (!(def->restitution >= 0.0f && def->restitution <= 1.0f)) {
		tbSetError("tbCreateShape: def->restitution must be in [0, 1], got %g",
		           (double)def->restitution);
		return tb_nullShapeId;
	}
	if (!tbCheckSurface("tbCreateShape: def", def->rollingResistance, def->tangentVelocity)) {
		return tb_nullShapeId;
	}
	if (!tbIsFiniteVec3(def->localPose.p) || !tbFiniteQuat(def->localPose.q)) {
		tbSetError("tbCreateShape: def->localPose is NaN, Inf or has a zero rotation");
		return tb_nullShapeId;
	}
	vec3s offset = def->localPose.p;
	if (fmaxf(fabsf(offset.x), fmaxf(fabsf(offset.y), fabsf(offset.z))) > TB_MAX_LENGTH) {
		tbSetError("tbCreateShape: def->localPose.p is beyond +-%g m of the body (docs/ranges.md)",
		           (double)TB_MAX_LENGTH);
		return tb_nullShapeId;
	}
	int bodyIndex = bodyId.index1 - 1;
	if (tbGeometry_IsLevel(geometry) && b->rb.type != tb_staticBody) {
		// Level geometry has no volume and no convex support: it never moves (docs/meshes.md).
		tbSetError("tbCreateShape: a %s shape goes on static bodies only; body %d (user data %p) "
		           "is %s",
		           tbShapeTypeName(geometry->type), bodyId.index1, b->userData,
		           b->rb.type == tb_dynamicBody ? "dynamic" : "kinematic");
		return tb_nullShapeId;
	}
	if (tbGeometry_IsLevel(geometry) && def->isSensor) {
		// A sensor's overlaps are exact convex tests (sensor.c); a sensor that could never fire
		// would be a silent bug in the caller's level.
		tbSetError(
		    "tbCreateShape: a %s shape cannot be a sensor (use a box or hull sensor over it)",
		    tbShapeTypeName(geometry->type));
		return tb_nullShapeId;
	}
	if (b->rb.type == tb_dynamicBody) {
		tbMassData mass;
		tbTransform pose = tbMakeTransform(def->localPose.p, def->localPose.q);
		bool weighs;
		if (!tbBodyMassFromShapes(w, bodyIndex, geometry, def->density, pose, &mass, &weighs,
		                          message, (int)sizeof message)) {
			tbSetError("tbCreateShape: %s (dynamic body; docs/ranges.md)", message);
			return tb_nullShapeId;
		}
		if (!weighs && !b->massSet) {
			// A dynamic body whose shapes weigh nothing would move as an arbitrary 1 kg.
			tbSetError("tbCreateShape: the dynamic body would have no mass: this %s weighs "
			           "nothing (density %g) and no other shape of the body does; give it a "
			           "density > 0 or set the body's mass first (tbBody_SetMassData)",
			           tbShapeTypeName(geometry->type), (double)def->density);
			return tb_nullShapeId;
		}
	}
	int index;
	if (w->freeShape >= 0) {
		index = w->freeShape;
		w->freeShape = w->shapes[index].nextFree;
	} else {
		tbGrowArray((void**)&w->shapes, &w->shapeCapacity, w->shapeCount + 1, sizeof(tbShapeSlot));
		index = w->shapeCount++;
		b = w->bodies + bodyIndex;
	}
	tbShapeSlot* s = w->shapes + index;
	uint32_t generation = s->generation + 1;
	memset(s, 0, sizeof *s);
	s->generation = generation;
	s->alive = true;
	s->geometry = *geometry;
	s->radius = tbGeometry_BoundingRadius(geometry);
	s->middleReach = s->radius;
	if (!tbGeometry_IsLevel(geometry)) {
		// The speculative margin follows this point (contact.c, tbPairMargin): a piece of a tall
		// compound has its origin far from its points.
		tbAABB own = tbGeometry_ComputeAABB(geometry, tbTransformIdentity());
		s->localMiddle = glms_vec3_scale(glms_vec3_add(own.lower, own.upper), 0.5f);
		s->middleReach = tbGeometry_ReachFrom(geometry, s->localMiddle);
	}
	s->localPose = tbMakeTransform(def->localPose.p, def->localPose.q);
	s->bodyMiddle = tbTransformPointInline(s->localPose, s->localMiddle);
	s->density = def->density;
	s->friction = def->friction;
	s->restitution = def->restitution;
	s->rollingResistance = def->rollingResistance;
	s->tangentVelocity = def->tangentVelocity;
	s->moving = glms_vec3_norm2(def->tangentVelocity) > 0.0f;
	s->material = def->material;
	s->filter = def->filter;
	s->isSensor = def->isSensor;
	s->enableHitEvents = def->enableHitEvents;
	w->hitShapeCount += s->enableHitEvents ? 1 : 0;
	w->rollingShapeCount += s->rollingResistance > 0.0f ? 1 : 0;
	w->bouncyShapeCount += s->restitution > 0.0f ? 1 : 0;
	s->surface = s->moving || s->rollingResistance > 0.0f;
	s->userData = def->userData;
	s->body = bodyIndex;
	s->proxyId = -1;
	s->levelSat = -1;
	s->nextInBody = b->firstShape;
	b->firstShape = index;
	b->shapeCount += 1;
	w->liveShapes += 1;

	tbUpdateBodyMass(w, bodyIndex);
	s->xf = tbMulTransforms(b->xf, s->localPose);
	s->aabb = tbGeometry_ComputeAABB(&s->geometry, s->xf);
	// Static proxies live in their own tree: they never move, so the moving tree stays small and
	// static-static pairs are never even looked for.
	s->tree = b->rb.type == tb_staticBody ? 0 : 1;
	float margin = s->tree == 0 ? 0.0f : tbShapeMargin(w, s);
	vec3s g = {{margin, margin, margin}};
	s->fatAABB.lower = glms_vec3_sub(s->aabb.lower, g);
	s->fatAABB.upper = glms_vec3_add(s->aabb.upper, g);
	s->proxyId = tbDynamicTree_CreateProxy(&w->trees[s->tree], s->fatAABB, index);
	tbBroadPhase_BufferMove(w, index);
	if (s->isSensor) {
		tbSensor_Add(w, index);
	}
	// Other shapes of the body moved with the new centre of mass: refresh them.
	tbUpdateBodyShapes(w, bodyIndex, 0.0f, false);
	return tbMakeShapeId(w, index);
}

void tbDestroyShapeInternal(tbWorld* w, int shapeIndex, bool updateMass)
{
	tbShapeSlot* s = w->shapes + shapeIndex;
	tbDestroyShapeContacts(w, shapeIndex);
	tbBroadPhase_RemoveFromMoveBuffer(w, shapeIndex);
	tbDynamicTree_DestroyProxy(&w->trees[s->tree], s->proxyId);
	s->proxyId = -1;
	tbBodySlot* b = w->bodies + s->body;
	// Unlink from the body's list.
	int* link = &b->firstShape;
	int guard = 0;
	while (*link >= 0 && *link != shapeIndex && guard++ < w->shapeCount) {
		link = &w->shapes[*link].nextInBody;
	}
	if (*link == shapeIndex) {
		*link = s->nextInBody;
	}
	b->shapeCount -= 1;
	s->alive = false;
	tbReleaseLevelSat(w, shapeIndex);
	s->generation += 1;
	if (s->generation < TB_RETIRED_GENERATION) {
		s->nextFree = w->freeShape;
		w->freeShape = shapeIndex;
	}
	w->liveShapes -= 1;
	w->hitShapeCount -= s->enableHitEvents ? 1 : 0;
	w->rollingShapeCount -= s->rollingResistance > 0.0f ? 1 : 0;
	w->bouncyShapeCount -= s->restitution > 0.0f ? 1 : 0;
	if (updateMass) {
		tbUpdateBodyMass(w, s->body);
	}
}

void tbDestroyShape(tbShapeId shapeId)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbDestroyShape");
	if (s != NULL) {
		tbBeginApiEvents(w);
		tbDestroyShapeInternal(w, shapeId.index1 - 1, true);
		tbEndApiEvents(w);
	}
}

bool tbShape_IsValid(tbShapeId shapeId)
{
	tbWorld* w = tbGetWorldFromIndex(shapeId.world0);
	int index = shapeId.index1 - 1;
	return w != NULL && w->generation == shapeId.worldGeneration && index >= 0 &&
	       index < w->shapeCount && w->shapes[index].alive &&
	       w->shapes[index].generation == shapeId.generation;
}

tbBodyId tbShape_GetBody(tbShapeId shapeId)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbShape_GetBody");
	return s != NULL ? tbMakeBodyId(w, s->body) : tb_nullBodyId;
}

tbGeometry tbShape_GetGeometry(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetGeometry");
	if (s == NULL) {
		tbGeometry none;
		memset(&none, 0, sizeof none);
		return none;
	}
	return s->geometry;
}

tbTransform tbShape_GetWorldTransform(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetWorldTransform");
	return s != NULL ? s->xf : tbTransformIdentity();
}

tbAABB tbShape_GetAABB(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetAABB");
	tbAABB none;
	memset(&none, 0, sizeof none);
	return s != NULL ? s->aabb : none;
}

// The shape's contacts take its new friction or restitution from the next step on.
static void tbRemixShapeContacts(tbShapeId shapeId)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbShape_Set");
	int shapeIndex = shapeId.index1 - 1;
	tbBodySlot* b = w->bodies + s->body;
	int guard = 0;
	for (int edge = b->contactList; edge >= 0 && guard++ <= w->contactCount;) {
		tbContactSlot* c = w->contacts + (edge >> 1);
		if (c->shapeA == shapeIndex || c->shapeB == shapeIndex) {
			tbMixMaterial(w, w->shapes + c->shapeA, w->shapes + c->shapeB, &c->friction,
			              &c->restitution);
		}
		edge = w->contactLinks[edge >> 1].edgeNext[edge & 1];
	}
}

void tbShape_SetFriction(tbShapeId shapeId, float friction)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_SetFriction");
	if (s == NULL) {
		return;
	}
	if (!(isfinite(friction) && friction >= 0.0f)) {
		tbSetError("tbShape_SetFriction: friction must be finite and >= 0, got %g",
		           (double)friction);
		return;
	}
	s->friction = friction;
	tbRemixShapeContacts(shapeId);
}

float tbShape_GetFriction(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetFriction");
	return s != NULL ? s->friction : 0.0f;
}

void tbShape_SetRestitution(tbShapeId shapeId, float restitution)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbShape_SetRestitution");
	if (s == NULL) {
		return;
	}
	if (!(restitution >= 0.0f && restitution <= 1.0f)) {
		tbSetError("tbShape_SetRestitution: restitution must be in [0, 1], got %g",
		           (double)restitution);
		return;
	}
	w->bouncyShapeCount += (restitution > 0.0f ? 1 : 0) - (s->restitution > 0.0f ? 1 : 0);
	s->restitution = restitution;
	tbRemixShapeContacts(shapeId);
}

float tbShape_GetRestitution(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetRestitution");
	return s != NULL ? s->restitution : 0.0f;
}

void tbShape_SetFilter(tbShapeId shapeId, tbFilter filter)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbShape_SetFilter");
	if (s == NULL) {
		return;
	}
	s->filter = filter;
	// Pairs are filtered when found: drop the shape's pairs and look again.
	tbBeginApiEvents(w);
	tbDestroyShapeContacts(w, shapeId.index1 - 1);
	tbEndApiEvents(w);
	tbBroadPhase_BufferMove(w, shapeId.index1 - 1);
}

tbFilter tbShape_GetFilter(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetFilter");
	tbFilter none = {0, 0, 0};
	return s != NULL ? s->filter : none;
}

bool tbShape_IsSensor(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_IsSensor");
	return s != NULL && s->isSensor;
}

void tbShape_EnableHitEvents(tbShapeId shapeId, bool flag)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbShape_EnableHitEvents");
	if (s != NULL && s->enableHitEvents != flag) {
		s->enableHitEvents = flag;
		w->hitShapeCount += flag ? 1 : -1;
	}
}

bool tbShape_AreHitEventsEnabled(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_AreHitEventsEnabled");
	return s != NULL && s->enableHitEvents;
}

void tbShape_SetUserData(tbShapeId shapeId, void* userData)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_SetUserData");
	if (s != NULL) {
		s->userData = userData;
	}
}

void* tbShape_GetUserData(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetUserData");
	return s != NULL ? s->userData : NULL;
}

tbCastOutput tbShape_RayCast(tbShapeId shapeId, vec3s origin, vec3s translation)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_RayCast");
	if (s == NULL) {
		tbCastOutput none;
		memset(&none, 0, sizeof none);
		return none;
	}
	return tbRayCastShape(&s->geometry, s->xf, origin, translation, 1.0f);
}

void tbShape_SetRollingResistance(tbShapeId shapeId, float rollingResistance)
{
	tbWorld* w;
	tbShapeSlot* s = tbGetShapeSlot(shapeId, &w, "tbShape_SetRollingResistance");
	if (s == NULL ||
	    !tbCheckSurface("tbShape_SetRollingResistance", rollingResistance, glms_vec3_zero())) {
		return;
	}
	w->rollingShapeCount +=
	    (rollingResistance > 0.0f ? 1 : 0) - (s->rollingResistance > 0.0f ? 1 : 0);
	s->rollingResistance = rollingResistance;
	s->surface = s->moving || s->rollingResistance > 0.0f;
}

float tbShape_GetRollingResistance(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetRollingResistance");
	return s != NULL ? s->rollingResistance : 0.0f;
}

void tbShape_SetTangentVelocity(tbShapeId shapeId, vec3s tangentVelocity)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_SetTangentVelocity");
	if (s == NULL || !tbCheckSurface("tbShape_SetTangentVelocity", 0.0f, tangentVelocity)) {
		return;
	}
	s->tangentVelocity = tangentVelocity;
	s->moving = glms_vec3_norm2(tangentVelocity) > 0.0f;
	s->surface = s->moving || s->rollingResistance > 0.0f;
}

vec3s tbShape_GetTangentVelocity(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetTangentVelocity");
	return s != NULL ? s->tangentVelocity : glms_vec3_zero();
}

int32_t tbShape_GetMaterial(tbShapeId shapeId)
{
	tbShapeSlot* s = tbGetShapeSlot(shapeId, NULL, "tbShape_GetMaterial");
	return s != NULL ? s->material : 0;
}
