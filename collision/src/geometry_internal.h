// Internal shape helpers shared by the narrow phase: core (ball-less) supports of rounded shapes.
#pragma once

#include "tumble/geometry.h"
#include "tumble/math_internal.h"
#include "tumble/transform_internal.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// tbGeometry_Validate without the scan of a hull's vertices (tbBuildHull checked them): the check
/// every query makes.
bool tbGeometry_IsUsable(const tbGeometry* shape);

// A hull's size unscaled (tbGeometry_Size): its bounding radius about its origin, capped at twice
// its reach from its centroid (the radius alone in a hull made by hand, whose extent is 0).
static inline float tbHullSize(const tbHull* hull)
{
	return hull->extent > 0.0f ? fminf(hull->radius, 2.0f * hull->extent) : hull->radius;
}

// |v| without overflow or underflow of the squares: shapes reach float's whole range.
static inline float tbSafeNorm(vec3s v)
{
	float n2 = v.x * v.x + v.y * v.y + v.z * v.z;
	if (n2 > 1e-30f && n2 < 1e30f) {
		return sqrtf(n2);
	}
	float m = fmaxf(fabsf(v.x), fmaxf(fabsf(v.y), fabsf(v.z)));
	if (m == 0.0f || !isfinite(m)) {
		return m;
	}
	vec3s u = glms_vec3_scale(v, 1.0f / m);
	return m * sqrtf(u.x * u.x + u.y * u.y + u.z * u.z);
}

// The support functions, inline: they run several times in every GJK and EPA iteration, where a
// call that returns a vec3s through memory costs more than the support itself.

#if defined(__SSE2__)
// The index of the first of the largest dot products with d among `count` vectors kept by
// coordinate, four at a time (all x, then all y, then all z, each run padded to a multiple of 4
// with a copy of vector 0: tbHull.lanes and faceLanes), starting from `floor`: the same sums in
// the same order and the same first index among equals as a search one vector at a time.
static inline int tbLanesArgMax(const float* lanes, int count, vec3s d, float floor)
{
	int padded = (count + 3) & ~3;
	const float* xs = lanes;
	const float* ys = xs + padded;
	const float* zs = ys + padded;
	__m128 dx = _mm_set1_ps(d.x), dy = _mm_set1_ps(d.y), dz = _mm_set1_ps(d.z);
	__m128 bestDot = _mm_set1_ps(floor);
	__m128i bestIndex = _mm_setzero_si128();
	__m128i index = _mm_setr_epi32(0, 1, 2, 3);
	const __m128i four = _mm_set1_epi32(4);
	for (int i = 0; i < padded; i += 4) {
		__m128 dot = _mm_add_ps(
		    _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(xs + i), dx), _mm_mul_ps(_mm_loadu_ps(ys + i), dy)),
		    _mm_mul_ps(_mm_loadu_ps(zs + i), dz));
		__m128 greater = _mm_cmpgt_ps(dot, bestDot);
		bestDot = _mm_or_ps(_mm_and_ps(greater, dot), _mm_andnot_ps(greater, bestDot));
		__m128i take = _mm_castps_si128(greater);
		bestIndex = _mm_or_si128(_mm_and_si128(take, index), _mm_andnot_si128(take, bestIndex));
		index = _mm_add_epi32(index, four);
	}
	float dots[4];
	int indices[4];
	_mm_storeu_ps(dots, bestDot);
	_mm_storeu_si128((__m128i*)indices, bestIndex);
	int best = indices[0];
	float top = dots[0];
	for (int k = 1; k < 4; ++k) {
		if (dots[k] > top || (dots[k] == top && indices[k] < best)) {
			top = dots[k];
			best = indices[k];
		}
	}
	return best < count ? best : 0;
}
#endif

// The index of the first of the largest dot products with d among `count` vectors `stride`
// bytes apart from `first`, starting from `floor`: one vector at a time (tbLanesArgMax's answer).
static inline int tbStridedArgMax(const vec3s* first, size_t stride, int count, vec3s d,
                                  float floor)
{
	int best = 0;
	float bestDot = floor;
	for (int i = 0; i < count; ++i) {
		const vec3s* v = (const vec3s*)((const char*)first + (size_t)i * stride);
		float dot = v->x * d.x + v->y * d.y + v->z * d.z;
		if (dot > bestDot) {
			bestDot = dot;
			best = i;
		}
	}
	return best;
}

// The hull vertex farthest along d: the first of the largest dot products, in vertex order (a
// linear search, four vertices at a time from the hull's lanes where it has them).
static inline int tbHullSupportIndex(const tbHull* hull, vec3s d)
{
#if defined(__SSE2__)
	if (hull->lanes != NULL) {
		return tbLanesArgMax(hull->lanes, hull->vertexCount, d, -INFINITY);
	}
#endif
	return tbStridedArgMax(hull->vertices, sizeof(vec3s), hull->vertexCount, d, -INFINITY);
}

static inline float tbSign(float x)
{
	return x < 0.0f ? -1.0f : 1.0f;
}

/// Support of the shape as if its scale were one; `withRadius` false drops the ball of spheres
/// and capsules.
static inline vec3s tbGeometry_UnscaledSupport(const tbGeometry* shape, vec3s d, int* index,
                                               bool withRadius)
{
	int feature = -1;
	vec3s p;
	switch (shape->type) {
	case tb_sphereShape: {
		if (!withRadius) {
			p = glms_vec3_zero();
			feature = 0;
			break;
		}
		float len = glms_vec3_norm(d);
		p = len > 0.0f ? glms_vec3_scale(d, shape->radius / len)
		               : (vec3s){{0.0f, shape->radius, 0.0f}};
		break;
	}
	case tb_boxShape: {
		vec3s h = shape->halfExtents;
		p = (vec3s){{tbSign(d.x) * h.x, tbSign(d.y) * h.y, tbSign(d.z) * h.z}};
		feature = (d.x < 0.0f ? 1 : 0) | (d.y < 0.0f ? 2 : 0) | (d.z < 0.0f ? 4 : 0);
		break;
	}
	case tb_capsuleShape: {
		float hh = shape->round.halfHeight;
		p = (vec3s){{0.0f, d.y < 0.0f ? -hh : hh, 0.0f}};
		feature = d.y < 0.0f ? 1 : 0;
		if (withRadius) {
			float len = glms_vec3_norm(d);
			if (len > 0.0f) {
				p = glms_vec3_add(p, glms_vec3_scale(d, shape->round.radius / len));
			}
			feature = -1;
		}
		break;
	}
	case tb_cylinderShape: {
		// The course slides: the rim point of the cap facing d.
		float r = shape->round.radius, hh = shape->round.halfHeight;
		float radial = sqrtf(d.x * d.x + d.z * d.z);
		float s = radial > 0.0f ? r / radial : 0.0f;
		p = (vec3s){{d.x * s, d.y < 0.0f ? -hh : hh, d.z * s}};
		break;
	}
	case tb_coneShape: {
		// The course slides: the apex or a point of the base rim, whichever reaches further along
		// d.
		float r = shape->round.radius, hh = shape->round.halfHeight;
		float radial = sqrtf(d.x * d.x + d.z * d.z);
		float s = radial > 0.0f ? r / radial : 0.0f;
		vec3s rim = {{d.x * s, -hh, d.z * s}};
		float apexDot = d.y * hh;
		float rimDot = radial * r - d.y * hh;
		if (apexDot >= rimDot) {
			p = (vec3s){{0.0f, hh, 0.0f}};
			feature = 0;
		} else {
			p = rim;
		}
		break;
	}
	case tb_hullShape: {
		const tbHull* hull = shape->hull;
		int best = tbHullSupportIndex(hull, d);
		p = hull->vertices[best];
		feature = best;
		break;
	}
	case tb_triangleShape: {
		// The course slides: convex vs triangle. Three dot products, no hull needed.
		const vec3s* v = shape->vertices;
		float d0 = glms_vec3_dot(v[0], d), d1 = glms_vec3_dot(v[1], d), d2 = glms_vec3_dot(v[2], d);
		feature = d0 >= d1 ? (d0 >= d2 ? 0 : 2) : (d1 >= d2 ? 1 : 2);
		p = v[feature];
		break;
	}
	default:
		p = glms_vec3_zero();
		break;
	}
	if (index != NULL) {
		*index = feature;
	}
	return p;
}

static inline vec3s tbGeometry_SupportEx(const tbGeometry* shape, vec3s d, int* index,
                                         bool withBall)
{
	if (shape->scale.x == 1.0f && shape->scale.y == 1.0f && shape->scale.z == 1.0f) {
		return tbGeometry_UnscaledSupport(shape, d, index, withBall);
	}
	// The AtlasPhys notes: support of S*shape along d is S * support(S * d) (S diagonal,
	// symmetric). For a uniform S this keeps a ball a ball; otherwise the ball becomes the
	// ellipsoid it should.
	vec3s s = shape->scale;
	vec3s sd = {{d.x * s.x, d.y * s.y, d.z * s.z}};
	vec3s p = tbGeometry_UnscaledSupport(shape, sd, index, withBall);
	return (vec3s){{p.x * s.x, p.y * s.y, p.z * s.z}};
}

/// tbGeometry_SupportValue: max d . p over the shape. A box's support point has the scaled half
/// extents with d's signs for components (scales are positive), so d . p is sum |d_i| h_i s_i:
/// the same products and sums, without the point.
static inline float tbGeometry_SupportValueInline(const tbGeometry* shape, vec3s d)
{
	if (shape->type == tb_boxShape) {
		vec3s h = shape->halfExtents, sc = shape->scale;
		return fabsf(d.x) * (h.x * sc.x) + fabsf(d.y) * (h.y * sc.y) + fabsf(d.z) * (h.z * sc.z);
	}
	return glms_vec3_dot(d, tbGeometry_SupportEx(shape, d, NULL, true));
}
