// Shape constructors, validation, bounds and support functions (Casalino 2021 eq. 8-9, the course
// slides, the AtlasPhys notes).
#include "shape_internal.h"

#include <math.h>
#include <stdio.h>

static const vec3s tb_unitScale = {{1.0f, 1.0f, 1.0f}};

tbShape tbMakeSphere(float radius)
{
	tbShape s = {.type = tb_sphereShape, .radius = radius, .scale = tb_unitScale};
	return s;
}

tbShape tbMakeBox(float hx, float hy, float hz)
{
	tbShape s = {.type = tb_boxShape, .halfExtents = {{hx, hy, hz}}, .scale = tb_unitScale};
	return s;
}

static tbShape tbMakeRound(tbShapeType type, float radius, float halfHeight)
{
	tbShape s = {.type = type, .scale = tb_unitScale};
	s.round.radius = radius;
	s.round.halfHeight = halfHeight;
	return s;
}

tbShape tbMakeCapsule(float radius, float halfHeight)
{
	return tbMakeRound(tb_capsuleShape, radius, halfHeight);
}

tbShape tbMakeCylinder(float radius, float halfHeight)
{
	return tbMakeRound(tb_cylinderShape, radius, halfHeight);
}

tbShape tbMakeCone(float radius, float halfHeight)
{
	return tbMakeRound(tb_coneShape, radius, halfHeight);
}

tbShape tbMakeHullShape(const tbHull* hull)
{
	tbShape s = {.type = tb_hullShape, .hull = hull, .scale = tb_unitScale};
	return s;
}

tbShape tbMakeTriangle(vec3s a, vec3s b, vec3s c)
{
	tbShape s = {.type = tb_triangleShape, .scale = tb_unitScale};
	s.vertices[0] = a;
	s.vertices[1] = b;
	s.vertices[2] = c;
	return s;
}

const char* tbShapeTypeName(tbShapeType type)
{
	switch (type) {
	case tb_sphereShape:
		return "sphere";
	case tb_boxShape:
		return "box";
	case tb_capsuleShape:
		return "capsule";
	case tb_cylinderShape:
		return "cylinder";
	case tb_coneShape:
		return "cone";
	case tb_hullShape:
		return "hull";
	case tb_triangleShape:
		return "triangle";
	default:
		return "unknown";
	}
}

static bool tbFail(char* message, int size, const char* text)
{
	if (message != NULL && size > 0) {
		snprintf(message, (size_t)size, "%s", text);
	}
	return false;
}

static bool tbPositiveFinite(float x)
{
	return isfinite(x) && x > 0.0f;
}

// scanHull: check every hull vertex (where shapes enter a world or a query file) or only the
// hull's radius and centroid (every query: tbBuildHull already refused NaN and Inf points).
static bool tbShape_Check(const tbShape* shape, char* message, int size, bool scanHull)
{
	if (shape == NULL) {
		return tbFail(message, size, "shape is null");
	}
	if (!tbPositiveFinite(shape->scale.x) || !tbPositiveFinite(shape->scale.y) ||
	    !tbPositiveFinite(shape->scale.z)) {
		return tbFail(message, size, "scale: every component must be positive and finite");
	}
	switch (shape->type) {
	case tb_sphereShape:
		return tbPositiveFinite(shape->radius)
		           ? true
		           : tbFail(message, size, "sphere radius: must be positive and finite");
	case tb_boxShape:
		if (!tbPositiveFinite(shape->halfExtents.x) || !tbPositiveFinite(shape->halfExtents.y) ||
		    !tbPositiveFinite(shape->halfExtents.z)) {
			return tbFail(message, size, "box half extents: must be positive and finite");
		}
		return true;
	case tb_capsuleShape:
	case tb_cylinderShape:
	case tb_coneShape:
		if (!tbPositiveFinite(shape->round.radius)) {
			return tbFail(message, size, "radius: must be positive and finite");
		}
		if (!isfinite(shape->round.halfHeight) ||
		    shape->round.halfHeight < (shape->type == tb_capsuleShape ? 0.0f : 1e-30f)) {
			return tbFail(message, size, "half height: must be positive and finite");
		}
		return true;
	case tb_hullShape:
		if (shape->hull == NULL || shape->hull->vertexCount <= 0 || shape->hull->vertices == NULL) {
			return tbFail(message, size, "hull: missing or empty (build it with tbBuildHull)");
		}
		for (int i = 0; scanHull && i < shape->hull->vertexCount; ++i) {
			vec3s v = shape->hull->vertices[i];
			if (!isfinite(v.x) || !isfinite(v.y) || !isfinite(v.z)) {
				return tbFail(message, size, "hull vertex: NaN or Inf coordinate");
			}
		}
		if (!isfinite(shape->hull->radius) || !isfinite(shape->hull->centroid.x) ||
		    !isfinite(shape->hull->centroid.y) || !isfinite(shape->hull->centroid.z)) {
			return tbFail(message, size, "hull: NaN or Inf bounding radius or centroid");
		}
		return true;
	case tb_triangleShape:
		for (int i = 0; i < 3; ++i) {
			vec3s v = shape->vertices[i];
			if (!isfinite(v.x) || !isfinite(v.y) || !isfinite(v.z)) {
				return tbFail(message, size, "triangle vertex: NaN or Inf coordinate");
			}
		}
		return true;
	default:
		return tbFail(message, size, "unknown shape type");
	}
}

bool tbShape_Validate(const tbShape* shape, char* message, int size)
{
	return tbShape_Check(shape, message, size, true);
}

bool tbShape_IsUsable(const tbShape* shape)
{
	// A hull edited by hand after building can still not crash a query: its loops are capped
	// and a NaN answer is refused at the end.
	return tbShape_Check(shape, NULL, 0, false);
}

static bool tbIsUniformScale(vec3s s)
{
	return s.x == s.y && s.y == s.z;
}

float tbShape_CoreRadius(const tbShape* shape)
{
	// Spheres and capsules are a point and a segment swept by a ball (Box2D, Jolt). The ball
	// survives only a uniform scale; a non-uniformly scaled sphere is an ellipsoid, handled whole.
	if (!tbIsUniformScale(shape->scale)) {
		return 0.0f;
	}
	if (shape->type == tb_sphereShape) {
		return shape->radius * shape->scale.x;
	}
	if (shape->type == tb_capsuleShape) {
		return shape->round.radius * shape->scale.x;
	}
	return 0.0f;
}

vec3s tbShape_CoreSupport(const tbShape* shape, vec3s d, int* index)
{
	return tbShape_SupportEx(shape, d, index, tbShape_CoreRadius(shape) <= 0.0f);
}

vec3s tbShape_Support(const tbShape* shape, vec3s d, int* index)
{
	return tbShape_SupportEx(shape, d, index, true);
}

float tbShape_BoundingRadius(const tbShape* shape)
{
	float r;
	switch (shape->type) {
	case tb_sphereShape:
		r = shape->radius;
		break;
	case tb_boxShape:
		r = tbSafeNorm(shape->halfExtents);
		break;
	case tb_capsuleShape:
		r = shape->round.radius + shape->round.halfHeight;
		break;
	case tb_cylinderShape:
	case tb_coneShape:
		r = tbSafeNorm((vec3s){{shape->round.radius, shape->round.halfHeight, 0.0f}});
		break;
	case tb_hullShape:
		r = shape->hull != NULL ? shape->hull->radius : 0.0f;
		break;
	case tb_triangleShape:
		r = fmaxf(tbSafeNorm(shape->vertices[0]),
		          fmaxf(tbSafeNorm(shape->vertices[1]), tbSafeNorm(shape->vertices[2])));
		break;
	default:
		r = 0.0f;
		break;
	}
	vec3s s = shape->scale;
	return r * fmaxf(s.x, fmaxf(s.y, s.z));
}

vec3s tbShape_InteriorPoint(const tbShape* shape)
{
	vec3s c = glms_vec3_zero();
	switch (shape->type) {
	case tb_hullShape:
		c = shape->hull != NULL ? shape->hull->centroid : c;
		break;
	case tb_triangleShape:
		c = glms_vec3_scale(glms_vec3_add(glms_vec3_add(shape->vertices[0], shape->vertices[1]),
		                                  shape->vertices[2]),
		                    1.0f / 3.0f);
		break;
	case tb_coneShape:
		// Centroid of a solid cone: a quarter of the height above the base.
		c.y = -0.5f * shape->round.halfHeight;
		break;
	default:
		break;
	}
	return glms_vec3_mul(c, shape->scale);
}

tbAABB tbShape_ComputeAABB(const tbShape* shape, tbTransform xf)
{
	tbAABB box;
	for (int axis = 0; axis < 3; ++axis) {
		vec3s d = glms_vec3_zero();
		d.raw[axis] = 1.0f;
		vec3s local = tbInvRotateVector(xf.q, d);
		float hi = glms_vec3_dot(tbShape_Support(shape, local, NULL), local);
		float lo = glms_vec3_dot(tbShape_Support(shape, glms_vec3_negate(local), NULL), local);
		box.upper.raw[axis] = xf.p.raw[axis] + hi;
		box.lower.raw[axis] = xf.p.raw[axis] + lo;
	}
	return box;
}
