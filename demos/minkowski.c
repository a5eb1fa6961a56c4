// The Minkowski difference A - B as a hull of support points (Casalino 2021 eq. 11), for the
// debugger.
#include "minkowski.h"

#include "trace_record.h"

#include <math.h>
#include <stdlib.h>

// Vertices of a polytope shape (scale applied), or -1 for a curved shape.
static int dmPolytopeVertices(const tbGeometry* shape, bool cores, vec3s* out, int capacity)
{
	vec3s s = shape->scale;
	if (cores && tbGeometry_CoreRadius(shape) > 0.0f) {
		// A sphere's core is its centre, a capsule's the segment of its axis.
		if (shape->type == tb_sphereShape) {
			out[0] = glms_vec3_zero();
			return 1;
		}
		float hh = shape->round.halfHeight * s.y;
		out[0] = (vec3s){{0.0f, hh, 0.0f}};
		out[1] = (vec3s){{0.0f, -hh, 0.0f}};
		return 2;
	}
	switch (shape->type) {
	case tb_boxShape:
		for (int i = 0; i < 8; ++i) {
			vec3s h = shape->halfExtents;
			out[i] = (vec3s){{(i & 1 ? h.x : -h.x) * s.x, (i & 2 ? h.y : -h.y) * s.y,
			                  (i & 4 ? h.z : -h.z) * s.z}};
		}
		return 8;
	case tb_triangleShape:
		for (int i = 0; i < 3; ++i) {
			out[i] = glms_vec3_mul(shape->vertices[i], s);
		}
		return 3;
	case tb_hullShape:
		if (shape->hull == NULL || shape->hull->vertexCount > capacity) {
			return -1;
		}
		for (int i = 0; i < shape->hull->vertexCount; ++i) {
			out[i] = glms_vec3_mul(shape->hull->vertices[i], s);
		}
		return shape->hull->vertexCount;
	default:
		return -1;
	}
}

static vec3s dmSupport(const tbGeometry* shape, bool cores, vec3s d)
{
	return cores ? tbGeometry_CoreSupport(shape, d, NULL) : tbGeometry_Support(shape, d, NULL);
}

bool dmBuildMinkowskiHull(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, bool cores,
                          int directions, tbHull* hull)
{
	enum
	{
		maxVertices = 256
	};
	vec3s va[maxVertices], vb[maxVertices];
	int na = dmPolytopeVertices(a, cores, va, maxVertices);
	int nb = dmPolytopeVertices(b, cores, vb, maxVertices);
	bool exact = na > 0 && nb > 0;
	int capacity = exact ? na * nb : directions;
	vec3s* points = malloc(sizeof(vec3s) * (size_t)(capacity > 0 ? capacity : 1));
	if (points == NULL) {
		*hull = (tbHull){0};
		return false;
	}
	int count = 0;
	if (exact) {
		for (int i = 0; i < na; ++i) {
			for (int j = 0; j < nb; ++j) {
				points[count++] = glms_vec3_sub(va[i], tbTransformPoint(bInA, vb[j]));
			}
		}
	} else {
		// Fibonacci sphere: nearly uniform directions, so every part of a curved boundary gets
		// support points.
		const float golden = GLM_PIf * (3.0f - sqrtf(5.0f));
		for (int i = 0; i < directions; ++i) {
			float y = 1.0f - 2.0f * ((float)i + 0.5f) / (float)directions;
			float r = sqrtf(fmaxf(0.0f, 1.0f - y * y));
			float phi = golden * (float)i;
			vec3s d = {{r * cosf(phi), y, r * sinf(phi)}};
			vec3s pa = dmSupport(a, cores, d);
			vec3s pb = tbTransformPoint(
			    bInA, dmSupport(b, cores, tbInvRotateVector(bInA.q, glms_vec3_negate(d))));
			points[count++] = glms_vec3_sub(pa, pb);
		}
	}
	tbHullError error = tbBuildHull(points, count, hull, NULL);
	free(points);
	return error == tb_hullOk;
}
