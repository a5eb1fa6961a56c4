// Shape constructors, validation, bounds and support functions (Casalino 2021 eq. 8-9, the course
// slides, the AtlasPhys notes).
#include "geometry_internal.h"
#include "mesh_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const vec3s tb_unitScale = {{1.0f, 1.0f, 1.0f}};

tbGeometry tbMakeSphere(float radius)
{
	tbGeometry s = {.type = tb_sphereShape, .radius = radius, .scale = tb_unitScale};
	return s;
}

tbGeometry tbMakeBox(float hx, float hy, float hz)
{
	tbGeometry s = {.type = tb_boxShape, .halfExtents = {{hx, hy, hz}}, .scale = tb_unitScale};
	return s;
}

static tbGeometry tbMakeRound(tbShapeType type, float radius, float halfHeight)
{
	tbGeometry s = {.type = type, .scale = tb_unitScale};
	s.round.radius = radius;
	s.round.halfHeight = halfHeight;
	return s;
}

tbGeometry tbMakeCapsule(float radius, float halfHeight)
{
	return tbMakeRound(tb_capsuleShape, radius, halfHeight);
}

tbGeometry tbMakeCylinder(float radius, float halfHeight)
{
	return tbMakeRound(tb_cylinderShape, radius, halfHeight);
}

tbGeometry tbMakeCone(float radius, float halfHeight)
{
	return tbMakeRound(tb_coneShape, radius, halfHeight);
}

tbGeometry tbMakeHullShape(const tbHull* hull)
{
	tbGeometry s = {.type = tb_hullShape, .hull = hull, .scale = tb_unitScale};
	return s;
}

tbGeometry tbMakeTriangle(vec3s a, vec3s b, vec3s c)
{
	tbGeometry s = {.type = tb_triangleShape, .scale = tb_unitScale};
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
	case tb_meshShape:
		return "mesh";
	case tb_heightfieldShape:
		return "heightfield";
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

// A length of the supported range (docs/ranges.md). Squares, cubes and the narrow phase's
// fourth and fifth powers of such lengths, and of the distances between shapes placed within
// TB_MAX_COORDINATE, stay inside float's normal range.
static bool tbLengthInRange(float x)
{
	return x >= TB_MIN_LENGTH && x <= TB_MAX_LENGTH;
}

static bool tbFailLength(char* message, int size, const char* what, float value)
{
	if (message != NULL && size > 0) {
		snprintf(message, (size_t)size, "%s: %g m (scale included) is outside [%g, %g] m", what,
		         (double)value, (double)TB_MIN_LENGTH, (double)TB_MAX_LENGTH);
	}
	return false;
}

// Every length of the scaled shape along each axis in range: a scale squashing one axis of a
// shape of largest raw size `size` must leave it at least TB_MIN_LENGTH thick.
static bool tbCheckScaledSize(const tbGeometry* shape, float size, const char* what, char* message,
                              int messageSize)
{
	vec3s s = shape->scale;
	// The unscaled size too: supports work on the unscaled shape, and a raw half height of 6e37
	// squashed by a denormal scale to 1e-5 m wrecked unified EPA (fuzz).
	if (!tbLengthInRange(size)) {
		return tbFailLength(message, messageSize, what, size);
	}
	float smallest = fminf(s.x, fminf(s.y, s.z));
	float largest = fmaxf(s.x, fmaxf(s.y, s.z));
	if (!(size * smallest >= TB_MIN_LENGTH)) {
		return tbFailLength(message, messageSize, what, size * smallest);
	}
	if (!(size * largest <= TB_MAX_LENGTH)) {
		return tbFailLength(message, messageSize, what, size * largest);
	}
	return true;
}

// Largest coordinate magnitude of a scaled point.
static float tbScaledMaxAbs(vec3s v, vec3s s)
{
	return fmaxf(fabsf(v.x * s.x), fmaxf(fabsf(v.y * s.y), fabsf(v.z * s.z)));
}

// scanHull: check every hull vertex (where shapes enter a world or a query file) or only the
// hull's radius and centroid (every query: tbBuildHull already refused NaN and Inf points).
static bool tbGeometry_Check(const tbGeometry* shape, char* message, int size, bool scanHull)
{
	if (shape == NULL) {
		return tbFail(message, size, "shape is null");
	}
	if (tbGeometry_IsLevel(shape)) {
		// Valid shapes of a static body, but not convex: the queries that take convex shapes
		// (tbGeometry_IsUsable) refuse them.
		return scanHull && tbLevelCheck(shape, message, size);
	}
	if (!tbPositiveFinite(shape->scale.x) || !tbPositiveFinite(shape->scale.y) ||
	    !tbPositiveFinite(shape->scale.z)) {
		return tbFail(message, size, "scale: every component must be positive and finite");
	}
	vec3s sc = shape->scale;
	// Scale components are ratios of lengths within the range: [1e-6, 1e6] too, so the scaled
	// support direction S d never underflows.
	if (!tbLengthInRange(sc.x) || !tbLengthInRange(sc.y) || !tbLengthInRange(sc.z)) {
		if (message != NULL && size > 0) {
			snprintf(message, (size_t)size, "scale: (%g, %g, %g) has a component outside [%g, %g]",
			         (double)sc.x, (double)sc.y, (double)sc.z, (double)TB_MIN_LENGTH,
			         (double)TB_MAX_LENGTH);
		}
		return false;
	}
	switch (shape->type) {
	case tb_sphereShape:
		if (!tbPositiveFinite(shape->radius)) {
			return tbFail(message, size, "sphere radius: must be positive and finite");
		}
		return tbCheckScaledSize(shape, shape->radius, "sphere radius", message, size);
	case tb_boxShape: {
		vec3s e = shape->halfExtents;
		if (!tbPositiveFinite(e.x) || !tbPositiveFinite(e.y) || !tbPositiveFinite(e.z)) {
			return tbFail(message, size, "box half extents: must be positive and finite");
		}
		vec3s scaled = glms_vec3_mul(e, sc);
		for (int i = 0; i < 3; ++i) {
			if (!tbLengthInRange(scaled.raw[i])) {
				return tbFailLength(message, size, "box half extent", scaled.raw[i]);
			}
			if (!tbLengthInRange(e.raw[i])) {
				return tbFailLength(message, size, "box half extent (unscaled)", e.raw[i]);
			}
		}
		return true;
	}
	case tb_capsuleShape:
	case tb_cylinderShape:
	case tb_coneShape: {
		float r = shape->round.radius, hh = shape->round.halfHeight;
		if (!tbPositiveFinite(r)) {
			return tbFail(message, size, "radius: must be positive and finite");
		}
		if (!isfinite(hh) || hh < 0.0f || (shape->type != tb_capsuleShape && hh == 0.0f)) {
			return tbFail(message, size, "half height: must be positive and finite");
		}
		if (!tbLengthInRange(r * sc.x) || !tbLengthInRange(r * sc.z)) {
			return tbFailLength(message, size, "radius", r * fminf(sc.x, sc.z));
		}
		if (!tbLengthInRange(r) || hh > TB_MAX_LENGTH) {
			return tbFailLength(message, size, "radius or half height (unscaled)", fmaxf(r, hh));
		}
		// A capsule's axis may be as short as zero (a sphere); its height is r + hh.
		float height = shape->type == tb_capsuleShape ? r + hh : hh;
		if (!tbLengthInRange(height * sc.y)) {
			return tbFailLength(message, size, "half height", height * sc.y);
		}
		return true;
	}
	case tb_hullShape: {
		const tbHull* hull = shape->hull;
		if (hull == NULL || hull->vertexCount <= 0 || hull->vertices == NULL) {
			return tbFail(message, size, "hull: missing or empty (build it with tbBuildHull)");
		}
		if (!isfinite(hull->radius) || !tbIsFiniteVec3(hull->centroid)) {
			return tbFail(message, size, "hull: NaN or Inf bounding radius or centroid");
		}
		// Without a scan the hull's extent is at most twice its radius about the origin.
		float extent = 2.0f * hull->radius;
		float reach = hull->radius;
		if (scanHull) {
			vec3s lo = hull->vertices[0], hi = hull->vertices[0];
			reach = 0.0f;
			for (int i = 0; i < hull->vertexCount; ++i) {
				vec3s v = hull->vertices[i];
				if (!tbIsFiniteVec3(v)) {
					return tbFail(message, size, "hull vertex: NaN or Inf coordinate");
				}
				lo = glms_vec3_minv(lo, v);
				hi = glms_vec3_maxv(hi, v);
				reach = fmaxf(reach, tbScaledMaxAbs(v, sc));
			}
			vec3s d = glms_vec3_sub(hi, lo);
			extent = fmaxf(d.x, fmaxf(d.y, d.z));
		} else {
			reach *= fmaxf(sc.x, fmaxf(sc.y, sc.z));
		}
		if (!(reach <= TB_MAX_LENGTH)) {
			return tbFailLength(message, size, "hull vertex distance from the origin", reach);
		}
		// A one-point hull has no size; any other must keep a usable size along every axis.
		if (hull->kind == tb_hullPoint) {
			return true;
		}
		return tbCheckScaledSize(shape, extent, "hull extent", message, size);
	}
	case tb_triangleShape: {
		float extent = 0.0f, reach = 0.0f;
		for (int i = 0; i < 3; ++i) {
			vec3s v = shape->vertices[i];
			if (!tbIsFiniteVec3(v)) {
				return tbFail(message, size, "triangle vertex: NaN or Inf coordinate");
			}
			reach = fmaxf(reach, tbScaledMaxAbs(v, sc));
			extent = fmaxf(extent, glms_vec3_norm(glms_vec3_sub(v, shape->vertices[(i + 1) % 3])));
		}
		if (!(reach <= TB_MAX_LENGTH)) {
			return tbFailLength(message, size, "triangle vertex distance from the origin", reach);
		}
		// A triangle collapsed to a point is a point (a valid shape, like a one-point hull); a
		// segment (zero area) still collides; any other keeps a usable size.
		if (extent == 0.0f) {
			return true;
		}
		return tbCheckScaledSize(shape, extent, "triangle longest edge", message, size);
	}
	default:
		return tbFail(message, size, "unknown shape type");
	}
}

bool tbGeometry_Validate(const tbGeometry* shape, char* message, int size)
{
	return tbGeometry_Check(shape, message, size, true);
}

bool tbGeometry_IsUsable(const tbGeometry* shape)
{
	// A hull edited by hand after building can still not crash a query: its loops are capped
	// and a NaN answer is refused at the end.
	return tbGeometry_Check(shape, NULL, 0, false);
}

static bool tbIsUniformScale(vec3s s)
{
	return s.x == s.y && s.y == s.z;
}

float tbGeometry_CoreRadius(const tbGeometry* shape)
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

vec3s tbGeometry_CoreSupport(const tbGeometry* shape, vec3s d, int* index)
{
	return tbGeometry_SupportEx(shape, d, index, tbGeometry_CoreRadius(shape) <= 0.0f);
}

vec3s tbGeometry_Support(const tbGeometry* shape, vec3s d, int* index)
{
	return tbGeometry_SupportEx(shape, d, index, true);
}

float tbGeometry_SupportValue(const tbGeometry* shape, vec3s d)
{
	return tbGeometry_SupportValueInline(shape, d);
}

float tbGeometry_BoundingRadius(const tbGeometry* shape)
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
	case tb_meshShape:
	case tb_heightfieldShape:
		return tbLevelRadius(shape);
	default:
		r = 0.0f;
		break;
	}
	vec3s s = shape->scale;
	return r * fmaxf(s.x, fmaxf(s.y, s.z));
}

float tbGeometry_Size(const tbGeometry* shape)
{
	// The bounding radius about the origin, but at most twice the reach from the centroid: no
	// point of the shape is farther than that from any point inside it, so the cap leaves a shape
	// around its origin as it was and bounds one whose origin lies far outside it.
	vec3s s = shape->scale;
	float scale = fmaxf(s.x, fmaxf(s.y, s.z));
	if (shape->type == tb_hullShape && shape->hull != NULL) {
		return tbHullSize(shape->hull) * scale;
	}
	if (shape->type == tb_triangleShape) {
		// Squared, one root for both: the narrow phase sizes every triangle it clips.
		const vec3s* v = shape->vertices;
		vec3s c = glms_vec3_scale(glms_vec3_add(glms_vec3_add(v[0], v[1]), v[2]), 1.0f / 3.0f);
		float far2 = 0.0f, reach2 = 0.0f;
		for (int k = 0; k < 3; ++k) {
			vec3s d = glms_vec3_sub(v[k], c);
			float f = glms_vec3_dot(v[k], v[k]), r = glms_vec3_dot(d, d);
			far2 = f > far2 ? f : far2;
			reach2 = r > reach2 ? r : reach2;
		}
		float size2 = 4.0f * reach2 < far2 ? 4.0f * reach2 : far2;
		return sqrtf(size2) * scale;
	}
	return tbGeometry_BoundingRadius(shape);
}

// The farthest point of a disc of radius r about the y axis at height h from p: on its rim, on
// the side away from p's own distance rho from the axis.
static float tbDiscReach(vec3s p, float r, float h)
{
	float rho = sqrtf(p.x * p.x + p.z * p.z);
	return tbSafeNorm((vec3s){{rho + r, p.y - h, 0.0f}});
}

float tbGeometry_ReachFrom(const tbGeometry* shape, vec3s point)
{
	vec3s s = shape->scale;
	bool unit = s.x == 1.0f && s.y == 1.0f && s.z == 1.0f;
	float reach = -1.0f;
	switch (shape->type) {
	case tb_sphereShape:
		if (tbIsUniformScale(s)) {
			reach = tbSafeNorm(point) + shape->radius * s.x;
		}
		break;
	case tb_boxShape:
		for (int i = 0; i < 8; ++i) {
			vec3s h = shape->halfExtents;
			vec3s c = {{(i & 1) ? h.x * s.x : -h.x * s.x, (i & 2) ? h.y * s.y : -h.y * s.y,
			            (i & 4) ? h.z * s.z : -h.z * s.z}};
			reach = fmaxf(reach, tbSafeNorm(glms_vec3_sub(c, point)));
		}
		break;
	case tb_hullShape:
		if (shape->hull != NULL && shape->hull->vertexCount > 0) {
			for (int i = 0; i < shape->hull->vertexCount; ++i) {
				vec3s v = glms_vec3_mul(shape->hull->vertices[i], s);
				reach = fmaxf(reach, tbSafeNorm(glms_vec3_sub(v, point)));
			}
		}
		break;
	case tb_triangleShape:
		for (int i = 0; i < 3; ++i) {
			vec3s v = glms_vec3_mul(shape->vertices[i], s);
			reach = fmaxf(reach, tbSafeNorm(glms_vec3_sub(v, point)));
		}
		break;
	case tb_capsuleShape:
		if (unit) {
			float hh = shape->round.halfHeight;
			vec3s top = {{0.0f, hh, 0.0f}}, bottom = {{0.0f, -hh, 0.0f}};
			reach = fmaxf(tbSafeNorm(glms_vec3_sub(top, point)),
			              tbSafeNorm(glms_vec3_sub(bottom, point))) +
			        shape->round.radius;
		}
		break;
	case tb_cylinderShape:
		if (unit) {
			float r = shape->round.radius, hh = shape->round.halfHeight;
			reach = fmaxf(tbDiscReach(point, r, hh), tbDiscReach(point, r, -hh));
		}
		break;
	case tb_coneShape:
		if (unit) {
			float r = shape->round.radius, hh = shape->round.halfHeight;
			vec3s apex = {{0.0f, hh, 0.0f}};
			reach = fmaxf(tbSafeNorm(glms_vec3_sub(apex, point)), tbDiscReach(point, r, -hh));
		}
		break;
	default:
		break;
	}
	// The shapes above without an exact answer: a ball about the local origin bounds them.
	return reach >= 0.0f ? reach : tbSafeNorm(point) + tbGeometry_BoundingRadius(shape);
}

vec3s tbGeometry_InteriorPoint(const tbGeometry* shape)
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

#if defined(__SSE2__)
// Lane k of each coordinate into vector k, then the lanes in order folded into the box's corner
// `start` one at a time (lo = w < lo ? w : lo, as tbGeometry_ComputeAABB's loop; max for the
// upper corner), all three coordinates at once.
static inline vec3s tbFoldLanes(__m128 x, __m128 y, __m128 z, vec3s start, bool upper)
{
	__m128 pad = _mm_setzero_ps();
	_MM_TRANSPOSE4_PS(x, y, z, pad);
	__m128 lanes[4] = {x, y, z, pad};
	__m128 corner = _mm_setr_ps(start.x, start.y, start.z, 0.0f);
	for (int k = 0; k < 4; ++k) {
		corner = upper ? _mm_max_ps(lanes[k], corner) : _mm_min_ps(lanes[k], corner);
	}
	float out[4];
	_mm_storeu_ps(out, corner);
	return (vec3s){{out[0], out[1], out[2]}};
}

// The box of a hull's vertices turned and scaled by the columns c0, c1, c2
// (tbGeometry_ComputeAABB), four vertices at a time from its lanes.
static void tbHullBoxLanes(const tbHull* h, vec3s c0, vec3s c1, vec3s c2, vec3s* lo, vec3s* hi)
{
	int padded = (h->vertexCount + 3) & ~3;
	const float* xs = h->lanes;
	const float* ys = xs + padded;
	const float* zs = ys + padded;
	__m128 lx = _mm_set1_ps(FLT_MAX), ly = lx, lz = lx;
	__m128 hx = _mm_set1_ps(-FLT_MAX), hy = hx, hz = hx;
	for (int i = 0; i < padded; i += 4) {
		__m128 x = _mm_loadu_ps(xs + i), y = _mm_loadu_ps(ys + i), z = _mm_loadu_ps(zs + i);
		__m128 wx = _mm_add_ps(
		    _mm_add_ps(_mm_mul_ps(_mm_set1_ps(c0.x), x), _mm_mul_ps(_mm_set1_ps(c1.x), y)),
		    _mm_mul_ps(_mm_set1_ps(c2.x), z));
		__m128 wy = _mm_add_ps(
		    _mm_add_ps(_mm_mul_ps(_mm_set1_ps(c0.y), x), _mm_mul_ps(_mm_set1_ps(c1.y), y)),
		    _mm_mul_ps(_mm_set1_ps(c2.y), z));
		__m128 wz = _mm_add_ps(
		    _mm_add_ps(_mm_mul_ps(_mm_set1_ps(c0.z), x), _mm_mul_ps(_mm_set1_ps(c1.z), y)),
		    _mm_mul_ps(_mm_set1_ps(c2.z), z));
		lx = _mm_min_ps(wx, lx);
		ly = _mm_min_ps(wy, ly);
		lz = _mm_min_ps(wz, lz);
		hx = _mm_max_ps(wx, hx);
		hy = _mm_max_ps(wy, hy);
		hz = _mm_max_ps(wz, hz);
	}
	*lo = tbFoldLanes(lx, ly, lz, *lo, false);
	*hi = tbFoldLanes(hx, hy, hz, *hi, true);
}
#endif

// A box's world box: along world axis i it reaches sum_j |R_ij| h_j either way (R = R(q), h the
// scaled half extents; Ericson, "Real-Time Collision Detection", 4.2.6). Row i of R is R^T e_i,
// the axis turned into the box's frame, which tbInvRotateInline makes as
// v + 2w (u x v) + 2 u x (u x v) with u = -(x, y, z): written out below for the three unit
// axes, the same products and sums less the ones that multiply a zero of e_i, so that it gives
// the bits the support along each axis gives (tbGeometry_SupportValueInline).
static tbAABB tbBoxComputeAABB(const tbGeometry* shape, tbTransform xf)
{
	float ux = -xf.q.x, uy = -xf.q.y, uz = -xf.q.z, w = xf.q.w;
	vec3s d[3];
	// e_x: t = 2 u x e_x = (0, 2 uz, -2 uy).
	float t1 = 2.0f * uz, t2 = 2.0f * -uy;
	d[0] = (vec3s){{1.0f + (uy * t2 - uz * t1), t1 * w - ux * t2, t2 * w + ux * t1}};
	// e_y: t = (-2 uz, 0, 2 ux).
	float t0 = 2.0f * -uz;
	t2 = 2.0f * ux;
	d[1] = (vec3s){{t0 * w + uy * t2, 1.0f + (uz * t0 - ux * t2), t2 * w - uy * t0}};
	// e_z: t = (2 uy, -2 ux, 0).
	t0 = 2.0f * uy;
	t1 = 2.0f * -ux;
	d[2] = (vec3s){{t0 * w - uz * t1, t1 * w + uz * t0, 1.0f + (ux * t1 - uy * t0)}};
	vec3s h = shape->halfExtents, sc = shape->scale;
	float hx = h.x * sc.x, hy = h.y * sc.y, hz = h.z * sc.z;
	tbAABB box;
	for (int axis = 0; axis < 3; ++axis) {
		float reach = fabsf(d[axis].x) * hx + fabsf(d[axis].y) * hy + fabsf(d[axis].z) * hz;
		box.upper.raw[axis] = xf.p.raw[axis] + reach;
		box.lower.raw[axis] = xf.p.raw[axis] + -reach;
	}
	return box;
}

tbAABB tbGeometry_ComputeAABB(const tbGeometry* shape, tbTransform xf)
{
	if (tbGeometry_IsLevel(shape)) {
		return tbLevelComputeAABB(shape, xf);
	}
	tbAABB box;
	if (shape->type == tb_hullShape && shape->hull != NULL && shape->hull->vertexCount > 0) {
		// One pass over the vertices placed in the world (R S v + p), the same box as the six
		// supports along the axes take in six passes.
		mat3s R = glms_quat_mat3(xf.q);
		vec3s sc = shape->scale;
		vec3s c0 = glms_vec3_scale(R.col[0], sc.x), c1 = glms_vec3_scale(R.col[1], sc.y),
		      c2 = glms_vec3_scale(R.col[2], sc.z);
		const tbHull* h = shape->hull;
		vec3s lo = {{FLT_MAX, FLT_MAX, FLT_MAX}}, hi = {{-FLT_MAX, -FLT_MAX, -FLT_MAX}};
#if defined(__SSE2__)
		if (h->lanes != NULL) {
			// Four vertices at a time from the hull's lanes (their padding repeats vertex 0):
			// the same products and sums, and min(w, lo) is w < lo ? w : lo, as below.
			tbHullBoxLanes(h, c0, c1, c2, &lo, &hi);
			box.lower = glms_vec3_add(xf.p, lo);
			box.upper = glms_vec3_add(xf.p, hi);
			return box;
		}
#endif
		for (int i = 0; i < h->vertexCount; ++i) {
			vec3s v = h->vertices[i];
			vec3s w = {{c0.x * v.x + c1.x * v.y + c2.x * v.z, c0.y * v.x + c1.y * v.y + c2.y * v.z,
			            c0.z * v.x + c1.z * v.y + c2.z * v.z}};
			lo.x = w.x < lo.x ? w.x : lo.x;
			lo.y = w.y < lo.y ? w.y : lo.y;
			lo.z = w.z < lo.z ? w.z : lo.z;
			hi.x = w.x > hi.x ? w.x : hi.x;
			hi.y = w.y > hi.y ? w.y : hi.y;
			hi.z = w.z > hi.z ? w.z : hi.z;
		}
		box.lower = glms_vec3_add(xf.p, lo);
		box.upper = glms_vec3_add(xf.p, hi);
		return box;
	}
	vec3s sc = shape->scale;
	if (sc.x == 1.0f && sc.y == 1.0f && sc.z == 1.0f &&
	    (shape->type == tb_sphereShape || shape->type == tb_capsuleShape)) {
		// Unscaled balls and capsules in closed form: a sphere reaches r along every axis; a
		// capsule's core, the segment from -h to h along its turned y axis u, reaches h |u_i|
		// along axis i, and its ball r beyond that.
		float r = shape->type == tb_sphereShape ? shape->radius : shape->round.radius;
		vec3s reach = {{r, r, r}};
		if (shape->type == tb_capsuleShape) {
			vec3s u = tbRotateInline(xf.q, (vec3s){{0.0f, shape->round.halfHeight, 0.0f}});
			reach = (vec3s){{fabsf(u.x) + r, fabsf(u.y) + r, fabsf(u.z) + r}};
		}
		box.lower = glms_vec3_sub(xf.p, reach);
		box.upper = glms_vec3_add(xf.p, reach);
		return box;
	}
	if (shape->type == tb_boxShape) {
		return tbBoxComputeAABB(shape, xf);
	}
	for (int axis = 0; axis < 3; ++axis) {
		vec3s d = glms_vec3_zero();
		d.raw[axis] = 1.0f;
		vec3s local = tbInvRotateInline(xf.q, d);
		// The reach along the axis and against it; a box is symmetric about its centre, so its
		// reach against the axis is the same one.
		float hi = tbGeometry_SupportValueInline(shape, local);
		float lo = shape->type == tb_boxShape
		               ? -hi
		               : -tbGeometry_SupportValueInline(shape, glms_vec3_negate(local));
		box.upper.raw[axis] = xf.p.raw[axis] + hi;
		box.lower.raw[axis] = xf.p.raw[axis] + lo;
	}
	return box;
}

tbGeometry tbGeometry_Scaled(const tbGeometry* s, float k)
{
	tbGeometry c = *s;
	switch (s->type) {
	case tb_sphereShape:
		c.radius *= k;
		break;
	case tb_boxShape:
		c.halfExtents = glms_vec3_scale(s->halfExtents, k);
		break;
	case tb_capsuleShape:
	case tb_cylinderShape:
	case tb_coneShape:
		c.round.radius *= k;
		c.round.halfHeight *= k;
		break;
	case tb_triangleShape:
		for (int i = 0; i < 3; ++i) {
			c.vertices[i] = glms_vec3_scale(s->vertices[i], k);
		}
		break;
	default:
		c.scale = glms_vec3_scale(s->scale, k);
		break;
	}
	return c;
}
