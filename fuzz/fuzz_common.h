// Helpers shared by the libFuzzer targets: a byte reader and the checks every target makes.
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tumble/tumble.h>

/// A finding: print what broke and abort, so libFuzzer saves the input as a crash. With
/// FUZZ_REPORT_ONLY set (triage of a saved input) it prints and goes on, to reach later checks.
#define FUZZ_CHECK(condition, ...)                                                                 \
	do {                                                                                           \
		if (!(condition)) {                                                                        \
			fprintf(stderr, "fuzz check failed: %s: ", #condition);                                \
			fprintf(stderr, __VA_ARGS__);                                                          \
			fprintf(stderr, "\n");                                                                 \
			if (getenv("FUZZ_REPORT_ONLY") == NULL) {                                              \
				abort();                                                                           \
			}                                                                                      \
		}                                                                                          \
	} while (0)

/// Reads fixed-size values from the input; past the end it yields zeros.
typedef struct FuzzReader
{
	const uint8_t* data;
	size_t size, pos;
} FuzzReader;

static inline uint8_t fuzzByte(FuzzReader* r)
{
	return r->pos < r->size ? r->data[r->pos++] : 0;
}

/// A float: either raw bits (every NaN, Inf, denormal and extreme value) or, more often, a value
/// of a useful scale: sign * mantissa * 10^(e), e in [-12, 12].
static inline float fuzzFloat(FuzzReader* r)
{
	uint8_t mode = fuzzByte(r);
	if (mode < 32) {
		uint32_t bits = 0;
		for (int i = 0; i < 4; ++i) {
			bits = bits << 8 | fuzzByte(r);
		}
		float f;
		memcpy(&f, &bits, sizeof f);
		return f;
	}
	float mantissa = (float)(fuzzByte(r) | fuzzByte(r) << 8) / 65535.0f;
	int exponent = (int)(mode % 25) - 12;
	float value = mantissa * powf(10.0f, (float)(exponent / 4));
	if (mode >= 128) {
		value = (float)(mode & 7) * 0.25f + mantissa; // 0..2.75: the common case
	}
	return (fuzzByte(r) & 1) ? -value : value;
}

static inline vec3s fuzzVec3(FuzzReader* r)
{
	vec3s v;
	v.x = fuzzFloat(r);
	v.y = fuzzFloat(r);
	v.z = fuzzFloat(r);
	return v;
}

static inline bool fuzzFinite3(vec3s v)
{
	return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static inline bool fuzzUnit3(vec3s v)
{
	return fuzzFinite3(v) && fabsf(v.x * v.x + v.y * v.y + v.z * v.z - 1.0f) < 1e-3f;
}

/// A pose: a position and either a unit quaternion (usually) or raw components.
static inline tbTransform fuzzPose(FuzzReader* r)
{
	tbTransform xf;
	xf.p = fuzzVec3(r);
	versors q = {{fuzzFloat(r), fuzzFloat(r), fuzzFloat(r), fuzzFloat(r)}};
	if (fuzzByte(r) < 224) {
		float n = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
		if (isfinite(n) && n > 1e-6f) {
			q = (versors){{q.x / n, q.y / n, q.z / n, q.w / n}};
		} else {
			q = glms_quat_identity();
		}
	}
	xf.q = q;
	return xf;
}

/// A shape of any type; hulls are built into *hull (destroy with tbDestroyHull; zero when unused).
static inline tbGeometry fuzzShape(FuzzReader* r, tbHull* hull)
{
	tbGeometry s;
	int type = fuzzByte(r) % tb_shapeTypeCount;
	switch (type) {
	case tb_sphereShape:
		s = tbMakeSphere(fuzzFloat(r));
		break;
	case tb_boxShape:
		s = tbMakeBox(fuzzFloat(r), fuzzFloat(r), fuzzFloat(r));
		break;
	case tb_capsuleShape:
		s = tbMakeCapsule(fuzzFloat(r), fuzzFloat(r));
		break;
	case tb_cylinderShape:
		s = tbMakeCylinder(fuzzFloat(r), fuzzFloat(r));
		break;
	case tb_coneShape:
		s = tbMakeCone(fuzzFloat(r), fuzzFloat(r));
		break;
	case tb_triangleShape:
		s = tbMakeTriangle(fuzzVec3(r), fuzzVec3(r), fuzzVec3(r));
		break;
	default: {
		vec3s points[24];
		int count = 1 + fuzzByte(r) % 24;
		for (int i = 0; i < count; ++i) {
			points[i] = fuzzVec3(r);
		}
		int bad = -1;
		if (tbBuildHull(points, count, hull, &bad) != tb_hullOk) {
			memset(hull, 0, sizeof *hull);
			s = tbMakeSphere(1.0f);
		} else {
			s = tbMakeHullShape(hull);
		}
		break;
	}
	}
	if (fuzzByte(r) >= 192) {
		s.scale = fuzzVec3(r);
	}
	return s;
}

/// With FUZZ_VERBOSE set, describe a shape and pose on stderr (to read a finding).
static inline void fuzzDescribe(const char* name, const tbGeometry* s, tbTransform xf)
{
	if (getenv("FUZZ_VERBOSE") == NULL) {
		return;
	}
	fprintf(stderr, "%s: %s scale %g %g %g pos %g %g %g quat %g %g %g %g", name,
	        tbShapeTypeName(s->type), (double)s->scale.x, (double)s->scale.y, (double)s->scale.z,
	        (double)xf.p.x, (double)xf.p.y, (double)xf.p.z, (double)xf.q.x, (double)xf.q.y,
	        (double)xf.q.z, (double)xf.q.w);
	if (s->type == tb_hullShape && s->hull != NULL) {
		fprintf(stderr, " hull kind %d, %d vertices:", (int)s->hull->kind, s->hull->vertexCount);
		for (int i = 0; i < s->hull->vertexCount; ++i) {
			vec3s v = s->hull->vertices[i];
			fprintf(stderr, " (%g %g %g)", (double)v.x, (double)v.y, (double)v.z);
		}
	} else if (s->type == tb_triangleShape) {
		for (int i = 0; i < 3; ++i) {
			vec3s v = s->vertices[i];
			fprintf(stderr, " (%g %g %g)", (double)v.x, (double)v.y, (double)v.z);
		}
	} else {
		fprintf(stderr, " params %g %g %g", (double)s->halfExtents.x, (double)s->halfExtents.y,
		        (double)s->halfExtents.z);
	}
	fprintf(stderr, "\n");
}
