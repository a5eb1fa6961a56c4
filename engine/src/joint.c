// Joints of the world: definitions, creation and destruction, handles, getters and setters, the
// per-body joint lists, and the step's gathering of awake joints for the solver.
#include <math.h>
#include <string.h>

#include "world_internal.h"

static tbJointId tbMakeJointId(const tbWorld* w, int index)
{
	tbJointId id = {index + 1, (uint16_t)w->index, 0, w->generation, w->joints[index].generation};
	return id;
}

static tbJointSlot* tbGetJointSlot(tbJointId id, tbWorld** world, const char* caller)
{
	tbWorld* w = tbGetWorldFromIndex(id.world0);
	int index = id.index1 - 1;
	if (w == NULL || w->generation != id.worldGeneration || index < 0 || index >= w->jointCount ||
	    !w->joints[index].alive || w->joints[index].generation != id.generation) {
		tbSetError("%s: stale or null joint id (index1 %d, world %d, generation %u)", caller,
		           id.index1, id.world0, (unsigned)id.generation);
		return NULL;
	}
	if (world != NULL) {
		*world = w;
	}
	return w->joints + index;
}

// The bodies of a new joint, checked: both valid, in this world, distinct, not both static.
static bool tbJointBodies(tbWorld* w, tbBodyId idA, tbBodyId idB, const char* caller, int* a,
                          int* b)
{
	tbWorld* wa = NULL;
	tbWorld* wb = NULL;
	if (!tbBody_IsValid(idA) || !tbBody_IsValid(idB)) {
		tbSetError("%s: def->bodyIdA or def->bodyIdB is null or stale", caller);
		return false;
	}
	tbBodySlot* ba = tbGetBodySlot(idA, &wa, caller);
	tbBodySlot* bb = tbGetBodySlot(idB, &wb, caller);
	if (wa != w || wb != w) {
		tbSetError("%s: the bodies are not in this world", caller);
		return false;
	}
	*a = idA.index1 - 1;
	*b = idB.index1 - 1;
	if (*a == *b) {
		tbSetError("%s: bodyIdA and bodyIdB are the same body", caller);
		return false;
	}
	if (ba->rb.type == tb_staticBody && bb->rb.type == tb_staticBody) {
		tbSetError("%s: both bodies are static (a joint needs one that moves)", caller);
		return false;
	}
	return true;
}

static bool tbCheckFinite(vec3s v, const char* caller, const char* field)
{
	if (!tbIsFiniteVec3(v)) {
		tbSetError("%s: def->%s is NaN or Inf", caller, field);
		return false;
	}
	return true;
}

static bool tbCheckAxis(vec3s axis, const char* caller, vec3s* unit)
{
	if (!tbCheckFinite(axis, caller, "axis")) {
		return false;
	}
	float len = glms_vec3_norm(axis);
	if (!(len > 1e-6f) || !isfinite(len)) {
		tbSetError("%s: def->axis must be a nonzero direction", caller);
		return false;
	}
	*unit = glms_vec3_scale(axis, 1.0f / len);
	return true;
}

static bool tbCheckRange(bool enabled, float lower, float upper, const char* caller,
                         const char* names)
{
	if (!isfinite(lower) || !isfinite(upper)) {
		tbSetError("%s: def->%s must be finite", caller, names);
		return false;
	}
	if (enabled && lower > upper) {
		tbSetError("%s: def->%s: lower %g > upper %g", caller, names, (double)lower, (double)upper);
		return false;
	}
	return true;
}

static bool tbCheckNonNegative(float value, const char* caller, const char* field)
{
	if (!(value >= 0.0f) || !isfinite(value)) {
		tbSetError("%s: def->%s must be finite and >= 0, got %g", caller, field, (double)value);
		return false;
	}
	return true;
}

// A break threshold: >= 0, FLT_MAX or infinity for never.
static bool tbCheckThreshold(float value, const char* caller, const char* field)
{
	if (!(value >= 0.0f)) {
		tbSetError("%s: def->%s must be >= 0 (FLT_MAX: never), got %g", caller, field,
		           (double)value);
		return false;
	}
	return true;
}

static bool tbCheckThresholds(float force, float torque, const char* caller)
{
	return tbCheckThreshold(force, caller, "forceThreshold") &&
	       tbCheckThreshold(torque, caller, "torqueThreshold");
}

// The new joint's break thresholds (its slot's).
static void tbSetThresholds(tbWorld* w, tbJointId id, float force, float torque)
{
	tbJointSlot* s = w->joints + (id.index1 - 1);
	s->forceThreshold = force;
	s->torqueThreshold = torque;
	w->breakableJoints = w->breakableJoints || force < FLT_MAX || torque < FLT_MAX;
}

// Any vector perpendicular to a (unit).
static vec3s tbPerpendicular(vec3s a)
{
	vec3s other = fabsf(a.x) < 0.6f ? (vec3s){{1.0f, 0.0f, 0.0f}} : (vec3s){{0.0f, 1.0f, 0.0f}};
	return glms_vec3_normalize(glms_vec3_cross(a, other));
}

static void tbLinkJoint(tbWorld* w, int index)
{
	w->jointWakeCheck = true;
	tbJointSlot* j = w->joints + index;
	int bodies[2] = {j->bodyA, j->bodyB};
	for (int side = 0; side < 2; ++side) {
		tbBodySlot* b = w->bodies + bodies[side];
		int edge = index * 2 + side;
		j->edgePrev[side] = -1;
		j->edgeNext[side] = b->jointList;
		if (b->jointList >= 0) {
			w->joints[b->jointList >> 1].edgePrev[b->jointList & 1] = edge;
		}
		b->jointList = edge;
		b->jointCount += 1;
	}
}

static void tbUnlinkJoint(tbWorld* w, int index)
{
	tbJointSlot* j = w->joints + index;
	int bodies[2] = {j->bodyA, j->bodyB};
	for (int side = 0; side < 2; ++side) {
		tbBodySlot* b = w->bodies + bodies[side];
		int prev = j->edgePrev[side], next = j->edgeNext[side];
		if (prev >= 0) {
			w->joints[prev >> 1].edgeNext[prev & 1] = next;
		} else {
			b->jointList = next;
		}
		if (next >= 0) {
			w->joints[next >> 1].edgePrev[next & 1] = prev;
		}
		b->jointCount -= 1;
	}
}

bool tbBodiesMayCollide(const tbWorld* w, int bodyA, int bodyB)
{
	const tbBodySlot* a = w->bodies + bodyA;
	const tbBodySlot* b = w->bodies + bodyB;
	// Walk the shorter list (capped by the joint count).
	const tbBodySlot* walk = a->jointCount <= b->jointCount ? a : b;
	int other = walk == a ? bodyB : bodyA;
	int guard = 0;
	for (int edge = walk->jointList; edge >= 0 && guard++ <= w->jointCount;) {
		const tbJointSlot* j = w->joints + (edge >> 1);
		int far = (edge & 1) == 0 ? j->bodyB : j->bodyA;
		if (far == other && !j->collideConnected) {
			return false;
		}
		edge = j->edgeNext[edge & 1];
	}
	return true;
}

// A new joint: the slot, the frames in each body, the lists; the bodies wake; contacts between
// the two bodies go when they may no longer collide.
static tbJointId tbAddJoint(tbWorld* w, tbJointType type, int a, int b, vec3s anchorA,
                            vec3s anchorB, vec3s axis, bool collideConnected, void* userData,
                            tbJoint** out)
{
	int index;
	if (w->freeJoint >= 0) {
		index = w->freeJoint;
		w->freeJoint = w->joints[index].nextFree;
	} else {
		tbGrowArray((void**)&w->joints, &w->jointCapacity, w->jointCount + 1, sizeof(tbJointSlot));
		index = w->jointCount++;
	}
	tbJointSlot* s = w->joints + index;
	uint32_t generation = s->generation + 1u;
	memset(s, 0, sizeof *s);
	s->generation = generation;
	s->alive = true;
	s->bodyA = a;
	s->bodyB = b;
	s->collideConnected = collideConnected;
	s->userData = userData;
	s->solverIndex = -1;
	const tbBodySlot* ba = w->bodies + a;
	const tbBodySlot* bb = w->bodies + b;
	// Frames in each body: anchors from the body origins (xf), axes in body axes. The two
	// frames coincide in the world now: angles and translations count from here.
	s->originAnchorA = tbInvTransformPoint(ba->xf, anchorA);
	s->originAnchorB = tbInvTransformPoint(bb->xf, anchorB);
	vec3s ref = tbPerpendicular(axis);
	versors qa = ba->xf.q, qb = bb->xf.q;
	versors conjA = {{-qa.x, -qa.y, -qa.z, qa.w}}, conjB = {{-qb.x, -qb.y, -qb.z, qb.w}};
	tbJoint* j = &s->joint;
	j->type = type;
	j->localAxisA = tbRotateVector(conjA, axis);
	j->localAxisB = tbRotateVector(conjB, axis);
	j->localRefA = tbRotateVector(conjA, ref);
	j->localRefB = tbRotateVector(conjB, ref);
	j->dampingRatio = 1.0f;
	tbLinkJoint(w, index);
	w->liveJoints += 1;
	if (!collideConnected) {
		int guard = 0;
		tbBodySlot* body = w->bodies + a;
		for (int edge = body->contactList; edge >= 0 && guard++ <= w->contactCount;) {
			int ci = edge >> 1;
			const tbContactLink* l = w->contactLinks + ci;
			int next = l->edgeNext[edge & 1];
			int other = ((edge & 1) == 0 ? l->bodyB : l->bodyA);
			if (other == b) {
				tbDestroyContact(w, ci, false);
			}
			edge = next;
		}
	}
	tbWakeBody(w, a);
	tbWakeBody(w, b);
	*out = j;
	return tbMakeJointId(w, index);
}

// A ball joint's turn bounds, spring and motor, checked (tbCreateBallJoint).
static bool tbCheckBallDef(const tbBallJointDef* def, const char* caller, vec3s* twist,
                           vec3s* swing, versors* target)
{
	if (!tbCheckAxis(def->twistAxis, caller, twist) ||
	    !tbCheckFinite(def->swingAxis, caller, "swingAxis")) {
		return false;
	}
	vec3s across = glms_vec3_sub(def->swingAxis,
	                             glms_vec3_scale(*twist, glms_vec3_dot(*twist, def->swingAxis)));
	float len = glms_vec3_norm(across);
	if (!(len > 1e-3f * glms_vec3_norm(def->swingAxis)) || !(len > 1e-6f)) {
		tbSetError("%s: def->swingAxis must be a direction across def->twistAxis", caller);
		return false;
	}
	*swing = glms_vec3_scale(across, 1.0f / len);
	const float pi = 3.14159265f;
	if (def->enableCone && !(def->coneAngle1 > 0.0f && def->coneAngle1 <= pi &&
	                         def->coneAngle2 > 0.0f && def->coneAngle2 <= pi)) {
		tbSetError("%s: def->coneAngle1, coneAngle2 must be in (0, pi], got %g, %g", caller,
		           (double)def->coneAngle1, (double)def->coneAngle2);
		return false;
	}
	if (!tbCheckRange(def->enableTwistLimit, def->lowerTwist, def->upperTwist, caller,
	                  "lowerTwist, upperTwist")) {
		return false;
	}
	if (def->enableTwistLimit && (def->lowerTwist < -pi || def->upperTwist > pi)) {
		tbSetError("%s: def->lowerTwist, upperTwist must be within [-pi, pi]", caller);
		return false;
	}
	versors q = def->targetRotation;
	float qn = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
	if (!isfinite(qn) || !(qn > 1e-6f)) {
		tbSetError("%s: def->targetRotation must be a finite nonzero quaternion", caller);
		return false;
	}
	*target = (versors){{q.x / qn, q.y / qn, q.z / qn, q.w / qn}};
	if (!tbCheckFinite(def->motorVelocity, caller, "motorVelocity")) {
		return false;
	}
	return tbCheckNonNegative(def->hertz, caller, "hertz") &&
	       tbCheckNonNegative(def->dampingRatio, caller, "dampingRatio") &&
	       tbCheckNonNegative(def->maxMotorTorque, caller, "maxMotorTorque") &&
	       tbCheckNonNegative(def->maxFrictionTorque, caller, "maxFrictionTorque");
}

// The target frame in A's body axes: A's joint frame turned by q (A's body axes).
static void tbSetBallTarget(tbJoint* j, versors q)
{
	j->localTargetAxisA = tbRotateVector(q, j->localAxisA);
	j->localTargetRefA = tbRotateVector(q, j->localRefA);
}

tbJointId tbCreateBallJoint(tbWorldId worldId, const tbBallJointDef* def)
{
	const char* caller = "tbCreateBallJoint";
	tbWorld* w = tbGetWorld(worldId, caller);
	int a, b;
	vec3s twist, swing;
	versors target;
	if (w == NULL || def == NULL || !tbJointBodies(w, def->bodyIdA, def->bodyIdB, caller, &a, &b) ||
	    !tbCheckFinite(def->anchor, caller, "anchor") ||
	    !tbCheckBallDef(def, caller, &twist, &swing, &target) ||
	    !tbCheckThresholds(def->forceThreshold, def->torqueThreshold, caller)) {
		if (def == NULL) {
			tbSetError("%s: def is null (use tbDefaultBallJointDef())", caller);
		}
		return tb_nullJointId;
	}
	tbJoint* j;
	tbJointId id = tbAddJoint(w, tb_ballJoint, a, b, def->anchor, def->anchor, twist,
	                          def->collideConnected, def->userData, &j);
	// The swing reference replaces tbAddJoint's any-perpendicular one.
	const tbBodySlot* ba = w->bodies + a;
	const tbBodySlot* bb = w->bodies + b;
	versors qa = ba->xf.q, qb = bb->xf.q;
	versors conjA = {{-qa.x, -qa.y, -qa.z, qa.w}}, conjB = {{-qb.x, -qb.y, -qb.z, qb.w}};
	j->localRefA = tbRotateVector(conjA, swing);
	j->localRefB = tbRotateVector(conjB, swing);
	j->enableCone = def->enableCone;
	j->coneAngle1 = def->coneAngle1;
	j->coneAngle2 = def->coneAngle2;
	j->enableLimit = def->enableTwistLimit;
	j->lower = def->lowerTwist;
	j->upper = def->upperTwist;
	j->enableSpring = def->enableSpring;
	j->hertz = def->hertz;
	j->dampingRatio = def->dampingRatio;
	j->enableMotor = def->enableMotor;
	j->motorToTarget = def->motorToTarget;
	j->motorVelocity = def->motorVelocity;
	j->maxMotorForce = def->maxMotorTorque;
	j->maxFrictionTorque = def->maxFrictionTorque;
	tbSetBallTarget(j, target);
	tbSetThresholds(w, id, def->forceThreshold, def->torqueThreshold);
	return id;
}

tbJointId tbCreateHingeJoint(tbWorldId worldId, const tbHingeJointDef* def)
{
	const char* caller = "tbCreateHingeJoint";
	tbWorld* w = tbGetWorld(worldId, caller);
	int a, b;
	vec3s axis;
	if (w == NULL || def == NULL || !tbJointBodies(w, def->bodyIdA, def->bodyIdB, caller, &a, &b) ||
	    !tbCheckFinite(def->anchor, caller, "anchor") || !tbCheckAxis(def->axis, caller, &axis) ||
	    !tbCheckRange(def->enableLimit, def->lowerAngle, def->upperAngle, caller,
	                  "lowerAngle, upperAngle") ||
	    !isfinite(def->motorSpeed) ||
	    !tbCheckNonNegative(def->maxMotorTorque, caller, "maxMotorTorque") ||
	    !tbCheckNonNegative(def->hertz, caller, "hertz") ||
	    !tbCheckNonNegative(def->dampingRatio, caller, "dampingRatio") ||
	    !tbCheckThresholds(def->forceThreshold, def->torqueThreshold, caller)) {
		if (def == NULL) {
			tbSetError("%s: def is null (use tbDefaultHingeJointDef())", caller);
		} else if (!isfinite(def->motorSpeed)) {
			tbSetError("%s: def->motorSpeed must be finite", caller);
		}
		return tb_nullJointId;
	}
	tbJoint* j;
	tbJointId id = tbAddJoint(w, tb_hingeJoint, a, b, def->anchor, def->anchor, axis,
	                          def->collideConnected, def->userData, &j);
	j->enableLimit = def->enableLimit;
	j->lower = def->lowerAngle;
	j->upper = def->upperAngle;
	j->enableMotor = def->enableMotor;
	j->motorSpeed = def->motorSpeed;
	j->maxMotorForce = def->maxMotorTorque;
	j->enableSpring = def->enableSpring;
	j->hertz = def->hertz;
	j->dampingRatio = def->dampingRatio;
	tbSetThresholds(w, id, def->forceThreshold, def->torqueThreshold);
	return id;
}

tbJointId tbCreateSliderJoint(tbWorldId worldId, const tbSliderJointDef* def)
{
	const char* caller = "tbCreateSliderJoint";
	tbWorld* w = tbGetWorld(worldId, caller);
	int a, b;
	vec3s axis;
	if (w == NULL || def == NULL || !tbJointBodies(w, def->bodyIdA, def->bodyIdB, caller, &a, &b) ||
	    !tbCheckFinite(def->anchor, caller, "anchor") || !tbCheckAxis(def->axis, caller, &axis) ||
	    !tbCheckRange(def->enableLimit, def->lowerTranslation, def->upperTranslation, caller,
	                  "lowerTranslation, upperTranslation") ||
	    !isfinite(def->motorSpeed) ||
	    !tbCheckNonNegative(def->maxMotorForce, caller, "maxMotorForce") ||
	    !tbCheckNonNegative(def->hertz, caller, "hertz") ||
	    !tbCheckNonNegative(def->dampingRatio, caller, "dampingRatio") ||
	    !tbCheckThresholds(def->forceThreshold, def->torqueThreshold, caller)) {
		if (def == NULL) {
			tbSetError("%s: def is null (use tbDefaultSliderJointDef())", caller);
		} else if (!isfinite(def->motorSpeed)) {
			tbSetError("%s: def->motorSpeed must be finite", caller);
		}
		return tb_nullJointId;
	}
	tbJoint* j;
	tbJointId id = tbAddJoint(w, tb_sliderJoint, a, b, def->anchor, def->anchor, axis,
	                          def->collideConnected, def->userData, &j);
	j->enableLimit = def->enableLimit;
	j->lower = def->lowerTranslation;
	j->upper = def->upperTranslation;
	j->enableMotor = def->enableMotor;
	j->motorSpeed = def->motorSpeed;
	j->maxMotorForce = def->maxMotorForce;
	j->enableSpring = def->enableSpring;
	j->hertz = def->hertz;
	j->dampingRatio = def->dampingRatio;
	tbSetThresholds(w, id, def->forceThreshold, def->torqueThreshold);
	return id;
}

tbJointId tbCreateFixedJoint(tbWorldId worldId, const tbFixedJointDef* def)
{
	const char* caller = "tbCreateFixedJoint";
	tbWorld* w = tbGetWorld(worldId, caller);
	int a, b;
	if (w == NULL || def == NULL || !tbJointBodies(w, def->bodyIdA, def->bodyIdB, caller, &a, &b) ||
	    !tbCheckFinite(def->anchor, caller, "anchor") ||
	    !tbCheckThresholds(def->forceThreshold, def->torqueThreshold, caller)) {
		if (def == NULL) {
			tbSetError("%s: def is null (use tbDefaultFixedJointDef())", caller);
		}
		return tb_nullJointId;
	}
	tbJoint* j;
	tbJointId id =
	    tbAddJoint(w, tb_fixedJoint, a, b, def->anchor, def->anchor, (vec3s){{0.0f, 0.0f, 1.0f}},
	               def->collideConnected, def->userData, &j);
	tbSetThresholds(w, id, def->forceThreshold, def->torqueThreshold);
	return id;
}

tbJointId tbCreateDistanceJoint(tbWorldId worldId, const tbDistanceJointDef* def)
{
	const char* caller = "tbCreateDistanceJoint";
	tbWorld* w = tbGetWorld(worldId, caller);
	int a, b;
	if (w == NULL || def == NULL || !tbJointBodies(w, def->bodyIdA, def->bodyIdB, caller, &a, &b) ||
	    !tbCheckFinite(def->anchorA, caller, "anchorA") ||
	    !tbCheckFinite(def->anchorB, caller, "anchorB") || !isfinite(def->length) ||
	    !tbCheckNonNegative(def->minLength, caller, "minLength") ||
	    !tbCheckRange(def->enableLimit, def->minLength, def->maxLength, caller,
	                  "minLength, maxLength") ||
	    !tbCheckNonNegative(def->hertz, caller, "hertz") ||
	    !tbCheckNonNegative(def->dampingRatio, caller, "dampingRatio") ||
	    !tbCheckThresholds(def->forceThreshold, def->torqueThreshold, caller)) {
		if (def == NULL) {
			tbSetError("%s: def is null (use tbDefaultDistanceJointDef())", caller);
		} else if (!isfinite(def->length)) {
			tbSetError("%s: def->length must be finite", caller);
		}
		return tb_nullJointId;
	}
	vec3s d = glms_vec3_sub(def->anchorB, def->anchorA);
	float start = glms_vec3_norm(d);
	vec3s axis = start > 1e-6f ? glms_vec3_scale(d, 1.0f / start) : (vec3s){{0.0f, 1.0f, 0.0f}};
	tbJoint* j;
	tbJointId id = tbAddJoint(w, tb_distanceJoint, a, b, def->anchorA, def->anchorB, axis,
	                          def->collideConnected, def->userData, &j);
	j->length = def->length > 0.0f ? def->length : start;
	j->enableLimit = def->enableLimit;
	j->lower = def->minLength;
	j->upper = def->maxLength;
	j->enableSpring = def->enableSpring;
	j->hertz = def->hertz;
	j->dampingRatio = def->dampingRatio;
	tbSetThresholds(w, id, def->forceThreshold, def->torqueThreshold);
	return id;
}

tbJointId tbCreateWheelJoint(tbWorldId worldId, const tbWheelJointDef* def)
{
	const char* caller = "tbCreateWheelJoint";
	tbWorld* w = tbGetWorld(worldId, caller);
	int a, b;
	vec3s axis;
	if (w == NULL || def == NULL || !tbJointBodies(w, def->bodyIdA, def->bodyIdB, caller, &a, &b) ||
	    !tbCheckFinite(def->anchor, caller, "anchor") ||
	    !tbCheckAxis(def->suspensionAxis, caller, &axis) ||
	    !tbCheckFinite(def->spinAxis, caller, "spinAxis") ||
	    !tbCheckRange(def->enableLimit, def->lowerTranslation, def->upperTranslation, caller,
	                  "lowerTranslation, upperTranslation") ||
	    !isfinite(def->motorSpeed) || !isfinite(def->steeringAngle) ||
	    !tbCheckNonNegative(def->maxMotorTorque, caller, "maxMotorTorque") ||
	    !tbCheckNonNegative(def->hertz, caller, "hertz") ||
	    !tbCheckNonNegative(def->dampingRatio, caller, "dampingRatio") ||
	    !tbCheckThresholds(def->forceThreshold, def->torqueThreshold, caller)) {
		if (def == NULL) {
			tbSetError("%s: def is null (use tbDefaultWheelJointDef())", caller);
		} else if (!isfinite(def->motorSpeed) || !isfinite(def->steeringAngle)) {
			tbSetError("%s: def->motorSpeed and def->steeringAngle must be finite", caller);
		}
		return tb_nullJointId;
	}
	vec3s across =
	    glms_vec3_sub(def->spinAxis, glms_vec3_scale(axis, glms_vec3_dot(axis, def->spinAxis)));
	float len = glms_vec3_norm(across);
	if (!(len > 1e-3f * glms_vec3_norm(def->spinAxis)) || !(len > 1e-6f)) {
		tbSetError("%s: def->spinAxis must be a direction across def->suspensionAxis", caller);
		return tb_nullJointId;
	}
	vec3s spin = glms_vec3_scale(across, 1.0f / len);
	tbJoint* j;
	tbJointId id = tbAddJoint(w, tb_wheelJoint, a, b, def->anchor, def->anchor, axis,
	                          def->collideConnected, def->userData, &j);
	// The axle is the frame's reference (tbAddJoint's any-perpendicular one replaced).
	versors qa = w->bodies[a].xf.q, qb = w->bodies[b].xf.q;
	versors conjA = {{-qa.x, -qa.y, -qa.z, qa.w}}, conjB = {{-qb.x, -qb.y, -qb.z, qb.w}};
	j->localRefA = tbRotateVector(conjA, spin);
	j->localRefB = tbRotateVector(conjB, spin);
	j->enableSpring = def->enableSpring;
	j->hertz = def->hertz;
	j->dampingRatio = def->dampingRatio;
	j->enableLimit = def->enableLimit;
	j->lower = def->lowerTranslation;
	j->upper = def->upperTranslation;
	j->enableMotor = def->enableMotor;
	j->motorSpeed = def->motorSpeed;
	j->maxMotorForce = def->maxMotorTorque;
	j->steering = def->steeringAngle;
	tbSetThresholds(w, id, def->forceThreshold, def->torqueThreshold);
	return id;
}

void tbWheelJoint_SetSteering(tbJointId jointId, float angle)
{
	if (!isfinite(angle)) {
		tbSetError("tbWheelJoint_SetSteering: angle must be finite");
		return;
	}
	tbWorld* w;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, "tbWheelJoint_SetSteering");
	if (s == NULL) {
		return;
	}
	if (s->joint.type != tb_wheelJoint) {
		tbSetError("tbWheelJoint_SetSteering: not a wheel joint");
		return;
	}
	s->joint.steering = angle;
	tbWakeBody(w, s->bodyA);
	tbWakeBody(w, s->bodyB);
}

float tbWheelJoint_GetSteering(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbWheelJoint_GetSteering");
	return s != NULL && s->joint.type == tb_wheelJoint ? s->joint.steering : 0.0f;
}

static void tbDestroyJointInternal(tbWorld* w, int index)
{
	tbJointSlot* s = w->joints + index;
	int a = s->bodyA, b = s->bodyB;
	tbUnlinkJoint(w, index);
	s->alive = false;
	s->generation += 1;
	s->nextFree = w->freeJoint;
	w->freeJoint = index;
	w->liveJoints -= 1;
	if (w->bodies[a].alive) {
		tbWakeBody(w, a);
	}
	if (w->bodies[b].alive) {
		tbWakeBody(w, b);
	}
	// The two bodies may collide again: the broad phase finds their pair when they move.
	for (int k = 0; k < 2; ++k) {
		const tbBodySlot* body = w->bodies + (k == 0 ? a : b);
		for (int sh = body->firstShape; sh >= 0; sh = w->shapes[sh].nextInBody) {
			if (w->shapes[sh].proxyId >= 0) {
				tbBroadPhase_BufferMove(w, sh);
			}
		}
	}
}

void tbDestroyJoint(tbJointId jointId)
{
	tbWorld* w;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, "tbDestroyJoint");
	if (s != NULL) {
		tbDestroyJointInternal(w, jointId.index1 - 1);
	}
}

void tbDestroyBodyJoints(tbWorld* w, int bodyIndex)
{
	tbBodySlot* b = w->bodies + bodyIndex;
	int guard = 0;
	while (b->jointList >= 0 && guard++ <= w->jointCount) {
		tbDestroyJointInternal(w, b->jointList >> 1);
	}
}

bool tbJoint_IsValid(tbJointId jointId)
{
	tbWorld* w = tbGetWorldFromIndex(jointId.world0);
	int index = jointId.index1 - 1;
	return w != NULL && w->generation == jointId.worldGeneration && index >= 0 &&
	       index < w->jointCount && w->joints[index].alive &&
	       w->joints[index].generation == jointId.generation;
}

tbJointType tbJoint_GetType(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetType");
	return s != NULL ? s->joint.type : tb_ballJoint;
}

tbBodyId tbJoint_GetBodyA(tbJointId jointId)
{
	tbWorld* w;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, "tbJoint_GetBodyA");
	return s != NULL ? tbMakeBodyId(w, s->bodyA) : tb_nullBodyId;
}

tbBodyId tbJoint_GetBodyB(tbJointId jointId)
{
	tbWorld* w;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, "tbJoint_GetBodyB");
	return s != NULL ? tbMakeBodyId(w, s->bodyB) : tb_nullBodyId;
}

static float tbJointCoordinate(tbJointId jointId, tbJointType type, const char* caller)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, caller);
	if (s == NULL) {
		return 0.0f;
	}
	if (s->joint.type != type) {
		tbSetError("%s: the joint is not of that type", caller);
		return 0.0f;
	}
	return s->joint.angle;
}

float tbJoint_GetAngle(tbJointId jointId)
{
	return tbJointCoordinate(jointId, tb_hingeJoint, "tbJoint_GetAngle");
}

float tbJoint_GetTranslation(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetTranslation");
	if (s != NULL && s->joint.type == tb_wheelJoint) {
		return s->joint.angle;
	}
	return tbJointCoordinate(jointId, tb_sliderJoint, "tbJoint_GetTranslation");
}

float tbJoint_GetLength(tbJointId jointId)
{
	return tbJointCoordinate(jointId, tb_distanceJoint, "tbJoint_GetLength");
}

float tbJoint_GetSpeed(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetSpeed");
	return s != NULL ? s->joint.speed : 0.0f;
}

vec3s tbJoint_GetReactionForce(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetReactionForce");
	return s != NULL ? s->joint.force : glms_vec3_zero();
}

vec3s tbJoint_GetReactionTorque(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetReactionTorque");
	return s != NULL ? s->joint.torque : glms_vec3_zero();
}

// A setter's joint: valid, and of a type that has the feature; its bodies wake.
static tbJointSlot* tbJointForEdit(tbJointId jointId, const char* caller, bool motor)
{
	tbWorld* w;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, caller);
	if (s == NULL) {
		return NULL;
	}
	tbJointType t = s->joint.type;
	bool ok = t != tb_fixedJoint && (!motor || t != tb_distanceJoint);
	if (!ok) {
		tbSetError("%s: a %s joint has no %s", caller, t == tb_fixedJoint ? "fixed" : "distance",
		           motor ? "motor" : "limits or spring");
		return NULL;
	}
	tbWakeBody(w, s->bodyA);
	tbWakeBody(w, s->bodyB);
	return s;
}

float tbJoint_GetMotorForce(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetMotorForce");
	if (s == NULL) {
		return 0.0f;
	}
	// The motor impulse of the last substep over its length (the world's last step).
	tbWorld* w = tbGetWorldFromIndex(jointId.world0);
	float h = w != NULL && w->lastSubstep > 0.0f ? w->lastSubstep : 1.0f;
	return s->joint.motorImpulse / h;
}

void tbJoint_EnableLimit(tbJointId jointId, bool flag)
{
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_EnableLimit", false);
	if (s != NULL) {
		s->joint.enableLimit = flag;
		s->joint.lowerImpulse = s->joint.upperImpulse = 0.0f;
	}
}

void tbJoint_SetLimits(tbJointId jointId, float lower, float upper)
{
	if (!isfinite(lower) || !isfinite(upper) || lower > upper) {
		tbSetError("tbJoint_SetLimits: need finite lower <= upper, got %g, %g", (double)lower,
		           (double)upper);
		return;
	}
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_SetLimits", false);
	if (s != NULL) {
		s->joint.lower = lower;
		s->joint.upper = upper;
	}
}

void tbJoint_EnableMotor(tbJointId jointId, bool flag)
{
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_EnableMotor", true);
	if (s != NULL) {
		s->joint.enableMotor = flag;
		s->joint.motorImpulse = 0.0f;
		s->joint.motorImpulse3 = glms_vec3_zero();
	}
}

void tbJoint_SetMotorSpeed(tbJointId jointId, float speed)
{
	if (!isfinite(speed)) {
		tbSetError("tbJoint_SetMotorSpeed: speed must be finite");
		return;
	}
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_SetMotorSpeed", true);
	if (s != NULL && s->joint.type == tb_ballJoint) {
		tbSetError("tbJoint_SetMotorSpeed: a ball joint's motor takes a vector "
		           "(tbBallJoint_SetMotorVelocity)");
	} else if (s != NULL) {
		s->joint.motorSpeed = speed;
	}
}

void tbJoint_SetMaxMotorForce(tbJointId jointId, float force)
{
	if (!(force >= 0.0f) || !isfinite(force)) {
		tbSetError("tbJoint_SetMaxMotorForce: force must be finite and >= 0");
		return;
	}
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_SetMaxMotorForce", true);
	if (s != NULL) {
		s->joint.maxMotorForce = force;
	}
}

void tbJoint_EnableSpring(tbJointId jointId, bool flag)
{
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_EnableSpring", false);
	if (s != NULL) {
		s->joint.enableSpring = flag;
		s->joint.springImpulse = 0.0f;
		s->joint.springImpulse3 = glms_vec3_zero();
	}
}

void tbJoint_SetSpring(tbJointId jointId, float hertz, float dampingRatio)
{
	if (!(hertz >= 0.0f) || !(dampingRatio >= 0.0f) || !isfinite(hertz) ||
	    !isfinite(dampingRatio)) {
		tbSetError("tbJoint_SetSpring: hertz and dampingRatio must be finite and >= 0");
		return;
	}
	tbJointSlot* s = tbJointForEdit(jointId, "tbJoint_SetSpring", false);
	if (s != NULL) {
		s->joint.hertz = hertz;
		s->joint.dampingRatio = dampingRatio;
	}
}

void tbJoint_SetUserData(tbJointId jointId, void* userData)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_SetUserData");
	if (s != NULL) {
		s->userData = userData;
	}
}

void* tbJoint_GetUserData(tbJointId jointId)
{
	tbJointSlot* s = tbGetJointSlot(jointId, NULL, "tbJoint_GetUserData");
	return s != NULL ? s->userData : NULL;
}

void tbJoint_SetForceThreshold(tbJointId jointId, float threshold)
{
	tbWorld* w = NULL;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, "tbJoint_SetForceThreshold");
	if (s != NULL && tbCheckThreshold(threshold, "tbJoint_SetForceThreshold", "threshold")) {
		s->forceThreshold = threshold;
		w->breakableJoints = w->breakableJoints || threshold < FLT_MAX;
	}
}

void tbJoint_SetTorqueThreshold(tbJointId jointId, float threshold)
{
	tbWorld* w = NULL;
	tbJointSlot* s = tbGetJointSlot(jointId, &w, "tbJoint_SetTorqueThreshold");
	if (s != NULL && tbCheckThreshold(threshold, "tbJoint_SetTorqueThreshold", "threshold")) {
		s->torqueThreshold = threshold;
		w->breakableJoints = w->breakableJoints || threshold < FLT_MAX;
	}
}

tbJointEvents tbWorld_GetJointEvents(tbWorldId worldId)
{
	tbJointEvents e = {NULL, 0};
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetJointEvents");
	if (w != NULL) {
		e.events = w->jointEvents;
		e.count = w->jointEventCount;
	}
	return e;
}

// A ball joint for a tbBallJoint_ call (null, with an error, for any other joint).
static tbJointSlot* tbGetBallSlot(tbJointId jointId, tbWorld** world, const char* caller)
{
	tbJointSlot* s = tbGetJointSlot(jointId, world, caller);
	if (s != NULL && s->joint.type != tb_ballJoint) {
		tbSetError("%s: not a ball joint", caller);
		return NULL;
	}
	return s;
}

// The same for a call that changes it: its bodies wake.
static tbJointSlot* tbBallForEdit(tbJointId jointId, const char* caller)
{
	tbWorld* w;
	tbJointSlot* s = tbGetBallSlot(jointId, &w, caller);
	if (s == NULL) {
		return NULL;
	}
	tbWakeBody(w, s->bodyA);
	tbWakeBody(w, s->bodyB);
	return s;
}

void tbBallJoint_SetCone(tbJointId jointId, bool enable, float coneAngle1, float coneAngle2)
{
	const float pi = 3.14159265f;
	if (!(coneAngle1 > 0.0f && coneAngle1 <= pi && coneAngle2 > 0.0f && coneAngle2 <= pi)) {
		tbSetError("tbBallJoint_SetCone: the half angles must be in (0, pi], got %g, %g",
		           (double)coneAngle1, (double)coneAngle2);
		return;
	}
	tbJointSlot* s = tbBallForEdit(jointId, "tbBallJoint_SetCone");
	if (s != NULL) {
		s->joint.enableCone = enable;
		s->joint.coneAngle1 = coneAngle1;
		s->joint.coneAngle2 = coneAngle2;
		s->joint.coneImpulse = 0.0f;
	}
}

void tbBallJoint_SetMotorVelocity(tbJointId jointId, vec3s velocity)
{
	if (!tbIsFiniteVec3(velocity)) {
		tbSetError("tbBallJoint_SetMotorVelocity: velocity must be finite");
		return;
	}
	tbJointSlot* s = tbBallForEdit(jointId, "tbBallJoint_SetMotorVelocity");
	if (s != NULL) {
		s->joint.motorVelocity = velocity;
	}
}

void tbBallJoint_SetTarget(tbJointId jointId, versors q, bool motorToTarget)
{
	float qn = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
	if (!isfinite(qn) || !(qn > 1e-6f)) {
		tbSetError("tbBallJoint_SetTarget: rotation must be a finite nonzero quaternion");
		return;
	}
	tbJointSlot* s = tbBallForEdit(jointId, "tbBallJoint_SetTarget");
	if (s != NULL) {
		tbSetBallTarget(&s->joint, (versors){{q.x / qn, q.y / qn, q.z / qn, q.w / qn}});
		s->joint.motorToTarget = motorToTarget;
	}
}

void tbBallJoint_SetMaxFrictionTorque(tbJointId jointId, float torque)
{
	if (!(torque >= 0.0f) || !isfinite(torque)) {
		tbSetError("tbBallJoint_SetMaxFrictionTorque: torque must be finite and >= 0");
		return;
	}
	tbJointSlot* s = tbBallForEdit(jointId, "tbBallJoint_SetMaxFrictionTorque");
	if (s != NULL) {
		s->joint.maxFrictionTorque = torque;
	}
}

// A ball joint's swing and twist from its bodies' frames of now (world axes).
static bool tbBallAnglesNow(tbJointId jointId, float* swing, float* twist, const char* caller)
{
	*swing = *twist = 0.0f;
	tbWorld* w = NULL;
	tbJointSlot* s = tbGetBallSlot(jointId, &w, caller);
	if (s == NULL) {
		return false;
	}
	versors qa = w->bodies[s->bodyA].xf.q, qb = w->bodies[s->bodyB].xf.q;
	tbJointBallAngles(&s->joint, tbRotateVector(qa, s->joint.localAxisA),
	                  tbRotateVector(qa, s->joint.localRefA),
	                  tbRotateVector(qb, s->joint.localAxisB),
	                  tbRotateVector(qb, s->joint.localRefB), swing, twist);
	return true;
}

float tbBallJoint_GetSwingAngle(tbJointId jointId)
{
	float swing, twist;
	tbBallAnglesNow(jointId, &swing, &twist, "tbBallJoint_GetSwingAngle");
	return swing;
}

float tbBallJoint_GetTwistAngle(tbJointId jointId)
{
	float swing, twist;
	tbBallAnglesNow(jointId, &swing, &twist, "tbBallJoint_GetTwistAngle");
	return twist;
}

static vec3s tbMulAddVec(vec3s p, float s, vec3s v)
{
	return glms_vec3_add(p, glms_vec3_scale(v, s));
}

// Whether joint slot i wakes a body this step: it ties an awake mover to a sleeping dynamic body.
static inline bool tbJointWakes(const tbWorld* w, const tbJointSlot* s)
{
	if (!s->alive) {
		return false;
	}
	const tbBodySlot* a = w->bodies + s->bodyA;
	const tbBodySlot* b = w->bodies + s->bodyB;
	return (tbIsAwakeMover(a) && !b->awake && b->rb.type == tb_dynamicBody) ||
	       (tbIsAwakeMover(b) && !a->awake && a->rb.type == tb_dynamicBody);
}

// Joints per block of the parallel joint loops: the blocks are the same at any worker count, so
// are the lists made from them.
#define TB_JOINT_BLOCK 256

typedef struct tbJointLoop
{
	tbWorld* world;
	tbWorkerFlags found; // per worker: a joint of its ranges needs the serial pass
} tbJointLoop;

static void tbFindWakesRange(int start, int end, int worker, void* context)
{
	tbJointLoop* t = context;
	bool any = false;
	for (int i = start; i < end && !any; ++i) {
		any = tbJointWakes(t->world, t->world->joints + i);
	}
	t->found.worker[worker].any = t->found.worker[worker].any || any;
}

static void tbClearJointLoop(tbJointLoop* t, tbWorld* w)
{
	t->world = w;
	tbClearWorkerFlags(&t->found, w->def.workerCount);
}

void tbWakeJointedBodies(tbWorld* w)
{
	// A joint between an awake body and a sleeping one wakes the sleeper's island (the islands
	// join across joints, so this only follows a body put to sleep by hand). Only a joint made or
	// a jointed body that woke or fell asleep since the last look can make one
	// (jointWakeCheck): a scene whose jointed bodies all stay awake skips the walk. With workers
	// the joints are looked at side by side first; the wakes, rare, are made in joint order.
	if (!w->jointWakeCheck) {
		return;
	}
	w->jointWakeCheck = false;
	if (w->parallel) {
		tbJointLoop t;
		tbClearJointLoop(&t, w);
		tbParallelFor(w, tbFindWakesRange, w->jointCount, TB_JOINT_BLOCK, &t);
		if (!tbAnyWorkerFlag(&t.found, w->def.workerCount)) {
			return;
		}
	}
	for (int i = 0; i < w->jointCount; ++i) {
		const tbJointSlot* s = w->joints + i;
		if (!tbJointWakes(w, s)) {
			continue;
		}
		const tbBodySlot* a = w->bodies + s->bodyA;
		const tbBodySlot* b = w->bodies + s->bodyB;
		if (tbIsAwakeMover(a) && !b->awake && b->rb.type == tb_dynamicBody) {
			tbWakeBody(w, s->bodyB);
		} else {
			tbWakeBody(w, s->bodyA);
		}
	}
}

// Whether joint slot s goes to the solver: alive, with a body that moves and is awake.
static inline bool tbJointTaken(const tbWorld* w, const tbJointSlot* s)
{
	return s->alive &&
	       (tbIsAwakeMover(w->bodies + s->bodyA) || tbIsAwakeMover(w->bodies + s->bodyB));
}

// The solver's binding n of joint slot i: the slot's joint itself (the solver writes its
// impulses and what the step measured into it), anchors from the centres of mass (the solver's
// frame of a body); for a body outside the solve (static), the solver's "static body" sits at
// the origin with no rotation, so its frame goes in world coordinates.
static inline void tbMakeSolverJoint(tbWorld* w, int i, int n)
{
	tbJointSlot* s = w->joints + i;
	const tbBodySlot* a = w->bodies + s->bodyA;
	const tbBodySlot* b = w->bodies + s->bodyB;
	tbJointBinding* j = w->solverJoints + n;
	j->joint = &s->joint;
	j->bodyA = a->awakeIndex >= 0 ? a->solverIndex : TB_NULL_BODY;
	j->bodyB = b->awakeIndex >= 0 ? b->solverIndex : TB_NULL_BODY;
	j->anchorA = glms_vec3_sub(s->originAnchorA, a->localCenter);
	j->anchorB = glms_vec3_sub(s->originAnchorB, b->localCenter);
	j->axisA = s->joint.localAxisA;
	j->refA = s->joint.localRefA;
	j->axisB = s->joint.localAxisB;
	j->refB = s->joint.localRefB;
	if (j->bodyA == TB_NULL_BODY) {
		j->anchorA = tbTransformPoint(a->xf, s->originAnchorA);
		j->axisA = tbRotateVector(a->xf.q, j->axisA);
		j->refA = tbRotateVector(a->xf.q, j->refA);
	}
	if (j->bodyB == TB_NULL_BODY) {
		j->anchorB = tbTransformPoint(b->xf, s->originAnchorB);
		j->axisB = tbRotateVector(b->xf.q, j->axisB);
		j->refB = tbRotateVector(b->xf.q, j->refB);
	}
	w->solverJointSlots[n] = i;
	s->solverIndex = n;
}

static void tbGrowSolverJoints(tbWorld* w, int count)
{
	if (count > w->solverJointCapacity) {
		int old = w->solverJointCapacity;
		tbGrowArray((void**)&w->solverJoints, &w->solverJointCapacity, count,
		            sizeof(tbJointBinding));
		w->solverJointSlots = tbGrowAlloc(w->solverJointSlots, (size_t)old * sizeof(int),
		                                  (size_t)w->solverJointCapacity * sizeof(int));
	}
}

// Blocks [start, end) of the joint slots: how many of each go to the solver (the others get
// solverIndex -1).
static void tbCountJointsRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	for (int block = start; block < end; ++block) {
		int from = block * TB_JOINT_BLOCK;
		int to = from + TB_JOINT_BLOCK < w->jointCount ? from + TB_JOINT_BLOCK : w->jointCount;
		int count = 0;
		for (int i = from; i < to; ++i) {
			tbJointSlot* s = w->joints + i;
			s->solverIndex = -1;
			count += tbJointTaken(w, s) ? 1 : 0;
		}
		w->listBlockCounts[block] = count;
	}
}

// Blocks [start, end): each taken joint made at its block's offset (listBlockCounts, summed).
static void tbMakeJointsRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	for (int block = start; block < end; ++block) {
		int from = block * TB_JOINT_BLOCK;
		int to = from + TB_JOINT_BLOCK < w->jointCount ? from + TB_JOINT_BLOCK : w->jointCount;
		int n = w->listBlockCounts[block];
		for (int i = from; i < to; ++i) {
			if (tbJointTaken(w, w->joints + i)) {
				tbMakeSolverJoint(w, i, n++);
			}
		}
	}
}

void tbGatherJoints(tbWorld* w)
{
	int n = 0;
	if (w->parallel) {
		// Counted block by block, the offsets summed in order, then each block made at its
		// offset: the list of the serial path below.
		int blocks = (w->jointCount + TB_JOINT_BLOCK - 1) / TB_JOINT_BLOCK;
		n = tbCountBlocks(w, tbCountJointsRange, w->jointCount, TB_JOINT_BLOCK);
		tbGrowSolverJoints(w, n);
		tbParallelFor(w, tbMakeJointsRange, blocks, 1, w);
		w->solverJointCount = n;
		return;
	}
	for (int i = 0; i < w->jointCount; ++i) {
		tbJointSlot* s = w->joints + i;
		s->solverIndex = -1;
		if (!tbJointTaken(w, s)) {
			continue;
		}
		tbGrowSolverJoints(w, n + 1);
		tbMakeSolverJoint(w, i, n);
		++n;
	}
	w->solverJointCount = n;
}

// Whether the solver's joint k went over its slot's thresholds in the step.
static inline bool tbJointBroke(const tbWorld* w, int k)
{
	const tbJointSlot* s = w->joints + w->solverJointSlots[k];
	const tbJoint* j = w->solverJoints[k].joint;
	return glms_vec3_norm(j->force) > s->forceThreshold ||
	       glms_vec3_norm(j->torque) > s->torqueThreshold;
}

// The solver's joints [start, end): whether one went over its thresholds (the solver wrote its
// impulses and what the step measured into the slot's joint itself).
static void tbCheckBreaksRange(int start, int end, int worker, void* context)
{
	tbJointLoop* t = context;
	tbWorld* w = t->world;
	bool any = false;
	for (int k = start; k < end && !any; ++k) {
		any = tbJointBroke(w, k);
	}
	t->found.worker[worker].any = t->found.worker[worker].any || any;
}

void tbJointBreakEvents(tbWorld* w)
{
	w->jointEventCount = 0;
	if (!w->breakableJoints) {
		return; // every joint holds whatever its reaction
	}
	tbJointLoop t;
	tbClearJointLoop(&t, w);
	if (w->parallel) {
		tbParallelFor(w, tbCheckBreaksRange, w->solverJointCount, TB_JOINT_BLOCK, &t);
	} else {
		tbCheckBreaksRange(0, w->solverJointCount, 0, &t);
	}
	if (!tbAnyWorkerFlag(&t.found, w->def.workerCount)) {
		return;
	}
	// Breaking (docs/joints.md): the reaction of the step's last substep against the thresholds,
	// in joint order; the array grows to the most joints over at once, then stays.
	for (int k = 0; k < w->solverJointCount; ++k) {
		if (!tbJointBroke(w, k)) {
			continue;
		}
		tbGrowArray((void**)&w->jointEvents, &w->jointEventCapacity, w->jointEventCount + 1,
		            sizeof(tbJointEvent));
		tbJointEvent* e = w->jointEvents + w->jointEventCount++;
		e->jointId = tbMakeJointId(w, w->solverJointSlots[k]);
		e->force = glms_vec3_norm(w->solverJoints[k].joint->force);
		e->torque = glms_vec3_norm(w->solverJoints[k].joint->torque);
	}
}

void tbDrawJoints(const tbWorld* w, const tbDebugDraw* draw)
{
	if (draw->DrawSegment == NULL) {
		return;
	}
	for (int i = 0; i < w->jointCount; ++i) {
		const tbJointSlot* s = w->joints + i;
		if (!s->alive) {
			continue;
		}
		const tbBodySlot* a = w->bodies + s->bodyA;
		const tbBodySlot* b = w->bodies + s->bodyB;
		vec3s pa = tbTransformPoint(a->xf, s->originAnchorA);
		vec3s pb = tbTransformPoint(b->xf, s->originAnchorB);
		// Each body's origin to its anchor, and the anchors to each other (red when apart).
		draw->DrawSegment(a->xf.p, pa, 0x4ca5e5u, draw->context);
		draw->DrawSegment(b->xf.p, pb, 0x4ce5a5u, draw->context);
		draw->DrawSegment(pa, pb, 0xe54c4cu, draw->context);
		if (draw->DrawPoint != NULL) {
			draw->DrawPoint(pa, 6.0f, 0xe5e54cu, draw->context);
		}
		if (s->joint.type == tb_hingeJoint || s->joint.type == tb_sliderJoint ||
		    s->joint.type == tb_wheelJoint) {
			// The axis, 0.5 m each way from A's anchor; a slider's limits as two ticks.
			vec3s axis = tbRotateVector(a->xf.q, s->joint.localAxisA);
			draw->DrawSegment(tbMulAddVec(pa, -0.5f, axis), tbMulAddVec(pa, 0.5f, axis), 0xe5e54cu,
			                  draw->context);
			if (s->joint.type == tb_sliderJoint && s->joint.enableLimit &&
			    draw->DrawPoint != NULL) {
				draw->DrawPoint(tbMulAddVec(pa, s->joint.lower, axis), 5.0f, 0xe54ce5u,
				                draw->context);
				draw->DrawPoint(tbMulAddVec(pa, s->joint.upper, axis), 5.0f, 0xe54ce5u,
				                draw->context);
			}
		}
	}
}
