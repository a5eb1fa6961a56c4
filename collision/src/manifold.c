// Contact manifolds: normal from the query, supporting features, reference/incident face clipping
// (Sutherland-Hodgman), reduction to four points with stable feature ids (docs/narrowphase.md,
// Manifolds).
#include <float.h>
#include <math.h>
#include <string.h>

#include "geometry_internal.h"
#include "manifold_internal.h"
#include "narrowphase.h"
#include "sat.h"
#include "tumble/collide_internal.h"
#include "tumble/query.h"

// A flat feature counts as facing the normal within 5 degrees (Gino's cone of 5-15 degrees, Game
// Physics Pearls ch. 4): tight enough that a rocking cylinder's cap stays a cap only while nearly
// flat, loose enough that EPA's normal noise never hides a resting face.
#define TB_FACE_COS 0.9962f
#define TB_FACE_SIN 0.0872f
// Hysteresis: B's face becomes the reference only when it is clearly better aligned than A's, so
// the reference (and with it every feature id) does not flip-flop on ties (Box2D-Lite's bias).
#define TB_REFERENCE_BIAS 0.005f
// Vertices within this fraction of the smaller shape's bounding radius outside a side plane count
// as inside (9 mm for unit cubes): equal boxes stacked corner on corner keep their vertex ids
// instead of alternating with clipped copies. docs/narrowphase.md, Tolerances suggests 1e-3 L; the
// stack of 20 wanders by millimetres, so 1e-2 L is used (the point lies on the incident face either
// way).
#define TB_PLANE_TOL 1e-2f
// A cylinder cap or a cone base is a regular polygon of this many rim points.
#define TB_DISC_POINTS 8
#define TB_MAX_CLIP_POINTS (2 * TB_MAX_FEATURE_POINTS + 8)

typedef struct tbClipPoint
{
	vec3s p;
	uint32_t code; // 16-bit code of the features that made the point
} tbClipPoint;

static vec3s tbV(float x, float y, float z)
{
	return (vec3s){{x, y, z}};
}

static vec3s tbMulComp(vec3s a, vec3s b)
{
	return tbV(a.x * b.x, a.y * b.y, a.z * b.z);
}

static vec3s tbNormalizeOr(vec3s v, vec3s fallback)
{
	float len = glms_vec3_norm(v);
	return len > 0.0f ? glms_vec3_scale(v, 1.0f / len) : fallback;
}

// a + s b
static vec3s tbMulAddVec(vec3s a, float s, vec3s b)
{
	return tbV(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}

static bool tbIsUnit(vec3s s)
{
	return s.x == 1.0f && s.y == 1.0f && s.z == 1.0f;
}

// The supporting point alone (the query's feature for smooth shapes at a slant).
static void tbPointFeature(const tbGeometry* s, vec3s d, tbFeature* f)
{
	float radius = tbGeometry_CoreRadius(s);
	f->v[0] = radius > 0.0f ? tbGeometry_CoreSupport(s, d, NULL) : tbGeometry_Support(s, d, NULL);
	f->count = 1;
	f->radius = radius;
	f->normal = d;
	f->id = 0x7f;
	f->isFace = false;
}

// Reverse a polygon when its winding disagrees with its normal (Newell's normal), so that every
// side plane below points outwards whatever order a generator produced.
static void tbOrientPolygon(tbFeature* f)
{
	if (f->count < 3) {
		return;
	}
	vec3s nw = glms_vec3_zero();
	for (int i = 0; i < f->count; ++i) {
		vec3s a = f->v[i], b = f->v[(i + 1) % f->count];
		nw.x += (a.y - b.y) * (a.z + b.z);
		nw.y += (a.z - b.z) * (a.x + b.x);
		nw.z += (a.x - b.x) * (a.y + b.y);
	}
	if (glms_vec3_dot(nw, f->normal) < 0.0f) {
		for (int i = 0, j = f->count - 1; i < j; ++i, --j) {
			vec3s t = f->v[i];
			f->v[i] = f->v[j];
			f->v[j] = t;
		}
	}
}

static void tbBoxFeature(vec3s h, vec3s d, tbFeature* f)
{
	// The face whose normal is most aligned with d.
	vec3s ad = tbV(fabsf(d.x), fabsf(d.y), fabsf(d.z));
	int a = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2);
	float sign = d.raw[a] < 0.0f ? -1.0f : 1.0f;
	int b = (a + 1) % 3, c = (a + 2) % 3;
	static const float corner[4][2] = {{1.0f, 1.0f}, {-1.0f, 1.0f}, {-1.0f, -1.0f}, {1.0f, -1.0f}};
	for (int i = 0; i < 4; ++i) {
		vec3s v = glms_vec3_zero();
		v.raw[a] = sign * h.raw[a];
		v.raw[b] = corner[i][0] * h.raw[b];
		v.raw[c] = corner[i][1] * h.raw[c];
		f->v[i] = v;
	}
	f->count = 4;
	f->normal = glms_vec3_zero();
	f->normal.raw[a] = sign;
	f->radius = 0.0f;
	f->id = (uint32_t)(2 * a + (sign < 0.0f ? 1 : 0));
	f->isFace = true;
	tbOrientPolygon(f); // the corner order above is counter-clockwise for the + faces only
}

int tbHullBestFace(const tbHull* hull, vec3s d)
{
#if defined(__SSE2__)
	if (hull->faceLanes != NULL) {
		return tbLanesArgMax(hull->faceLanes, hull->faceCount, d, -FLT_MAX);
	}
#endif
	return hull->faceCount > 0 ? tbStridedArgMax(&hull->faces[0].normal, sizeof(tbHullFace),
	                                             hull->faceCount, d, -FLT_MAX)
	                           : 0;
}

static void tbHullFeature(const tbGeometry* s, vec3s d, tbFeature* f)
{
	const tbHull* hull = s->hull;
	if (hull->kind != tb_hullSolid && hull->kind != tb_hullPolygon) {
		tbPointFeature(s, d, f);
		return;
	}
	// Faces live in the unscaled frame: the face of S*hull best along d is the face of hull best
	// along S d, and its normal maps by S^-1 (S diagonal).
	vec3s sd = tbMulComp(d, s->scale);
	int best = tbHullBestFace(hull, sd);
	const tbHullFace* face = hull->faces + best;
	int count = face->indexCount < TB_MAX_FEATURE_POINTS ? face->indexCount : TB_MAX_FEATURE_POINTS;
	for (int i = 0; i < count; ++i) {
		f->v[i] = tbMulComp(hull->vertices[hull->faceIndices[face->firstIndex + i]], s->scale);
	}
	f->count = count;
	vec3s inv = tbV(1.0f / s->scale.x, 1.0f / s->scale.y, 1.0f / s->scale.z);
	f->normal = tbNormalizeOr(tbMulComp(face->normal, inv), face->normal);
	f->radius = 0.0f;
	f->id = (uint32_t)best;
	f->isFace = count >= 3;
	tbOrientPolygon(f);
}

static void tbTriangleFeature(const tbGeometry* s, vec3s d, tbFeature* f)
{
	for (int i = 0; i < 3; ++i) {
		f->v[i] = tbMulComp(s->vertices[i], s->scale);
	}
	vec3s n = glms_vec3_cross(glms_vec3_sub(f->v[1], f->v[0]), glms_vec3_sub(f->v[2], f->v[0]));
	float len = glms_vec3_norm(n);
	if (!(len > 0.0f)) {
		tbPointFeature(s, d, f);
		return;
	}
	n = glms_vec3_scale(n, 1.0f / len);
	// Two-sided: the side facing d; the winding follows in tbOrientPolygon.
	bool back = glms_vec3_dot(n, d) < 0.0f;
	f->normal = back ? glms_vec3_negate(n) : n;
	f->count = 3;
	f->radius = 0.0f;
	f->id = back ? 1u : 0u;
	f->isFace = true;
	tbOrientPolygon(f);
}

// A regular polygon of rim points at height y (cylinder cap, cone base), in the unscaled frame.
static void tbDisc(float r, float y, tbFeature* f)
{
	for (int i = 0; i < TB_DISC_POINTS; ++i) {
		float angle = 2.0f * 3.14159265f * (float)i / (float)TB_DISC_POINTS;
		tbCosSin cs = tbComputeCosSin(angle);
		f->v[i] = tbV(r * cs.cosine, y, r * cs.sine);
	}
	f->count = TB_DISC_POINTS;
	f->normal = tbV(0.0f, y < 0.0f ? -1.0f : 1.0f, 0.0f);
	f->isFace = true;
}

// Map a feature built in the unscaled frame of a scaled shape into its scaled frame.
static void tbScaleFeature(vec3s scale, tbFeature* f)
{
	if (tbIsUnit(scale)) {
		return;
	}
	for (int i = 0; i < f->count; ++i) {
		f->v[i] = tbMulComp(f->v[i], scale);
	}
	vec3s inv = tbV(1.0f / scale.x, 1.0f / scale.y, 1.0f / scale.z);
	f->normal = tbNormalizeOr(tbMulComp(f->normal, inv), f->normal);
}

static void tbRoundFeature(const tbGeometry* s, vec3s d, tbFeature* f)
{
	float r = s->round.radius, hh = s->round.halfHeight;
	vec3s sd = tbNormalizeOr(tbMulComp(d, s->scale), tbV(0.0f, 1.0f, 0.0f));
	float radial = sqrtf(sd.x * sd.x + sd.z * sd.z);
	float cx = radial > 0.0f ? sd.x / radial : 1.0f, cz = radial > 0.0f ? sd.z / radial : 0.0f;
	f->radius = 0.0f;
	f->isFace = false;
	if (s->type == tb_cylinderShape) {
		if (fabsf(sd.y) >= TB_FACE_COS) {
			tbDisc(r, sd.y < 0.0f ? -hh : hh, f);
			f->id = sd.y < 0.0f ? 1u : 0u;
		} else if (fabsf(sd.y) <= TB_FACE_SIN) {
			// Lying on its side: the line of the side facing d, rim to rim.
			f->v[0] = tbV(r * cx, -hh, r * cz);
			f->v[1] = tbV(r * cx, hh, r * cz);
			f->count = 2;
			f->normal = tbV(cx, 0.0f, cz);
			f->id = 2u;
		} else {
			tbPointFeature(s, d, f);
			return;
		}
	} else {
		// Cone: base disc, or the slant line from apex to rim, or a point.
		float slant = sqrtf(4.0f * hh * hh + r * r);
		vec3s sideNormal = tbV(cx * 2.0f * hh / slant, r / slant, cz * 2.0f * hh / slant);
		if (-sd.y >= TB_FACE_COS) {
			tbDisc(r, -hh, f);
			f->id = 1u;
		} else if (glms_vec3_dot(sd, sideNormal) >= TB_FACE_COS) {
			f->v[0] = tbV(0.0f, hh, 0.0f);
			f->v[1] = tbV(r * cx, -hh, r * cz);
			f->count = 2;
			f->normal = sideNormal;
			f->id = 2u;
		} else {
			tbPointFeature(s, d, f);
			return;
		}
	}
	tbScaleFeature(s->scale, f);
	tbOrientPolygon(f);
}

void tbGetFeature(const tbGeometry* s, vec3s d, tbFeature* f)
{
	switch (s->type) {
	case tb_boxShape:
		tbBoxFeature(tbMulComp(s->halfExtents, s->scale), d, f);
		return;
	case tb_hullShape:
		tbHullFeature(s, d, f);
		return;
	case tb_triangleShape:
		tbTriangleFeature(s, d, f);
		return;
	case tb_cylinderShape:
	case tb_coneShape:
		tbRoundFeature(s, d, f);
		return;
	case tb_capsuleShape: {
		float radius = tbGeometry_CoreRadius(s);
		if (radius > 0.0f && fabsf(d.y) <= TB_FACE_SIN) {
			// The core segment lies flat along the face: both ends touch.
			float hh = s->round.halfHeight * s->scale.y;
			f->v[0] = tbV(0.0f, -hh, 0.0f);
			f->v[1] = tbV(0.0f, hh, 0.0f);
			f->count = 2;
			f->radius = radius;
			f->normal = d;
			f->id = 2u;
			f->isFace = false;
			return;
		}
		tbPointFeature(s, d, f);
		return;
	}
	default:
		tbPointFeature(s, d, f);
		return;
	}
}

void tbFeatureInA(const tbGeometry* b, tbTransform bInA, vec3s dInA, tbFeature* f)
{
	tbGetFeature(b, tbInvRotateVector(bInA.q, dInA), f);
	for (int i = 0; i < f->count; ++i) {
		f->v[i] = tbTransformPoint(bInA, f->v[i]);
	}
	f->normal = tbRotateVector(bInA.q, f->normal);
}

static uint32_t tbMixCode(uint32_t a, uint32_t b, int plane)
{
	// A point made by clipping: which two points bounded the clipped edge and which side plane cut
	// it. Deterministic in the topology, so the same touching features give the same code.
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
	uint32_t h = (lo * 2654435761u) ^ (hi * 40503u) ^ ((uint32_t)plane * 97u);
	return 0x8000u | (h & 0x7fffu);
}

// One side plane against a closed polygon (count >= 3), Sutherland-Hodgman, given each point's
// height over the plane: walking the edges from point i to point i + 1 (the last back to the
// first), from point `start` round, a crossing edge gives its crossing point and an inside end
// point itself. Returns the number of points written to out.
static int tbClipPolygon(const tbClipPoint* in, const float* dist, int count, int start, int plane,
                         tbClipPoint* out)
{
	int outCount = 0;
	const tbClipPoint* p = in + start;
	float dp = dist[start];
	for (int n = 1; n <= count; ++n) {
		int j = start + n < count ? start + n : start + n - count;
		const tbClipPoint* q = in + j;
		float dq = dist[j];
		if ((dp <= 0.0f) != (dq <= 0.0f) && outCount < TB_MAX_CLIP_POINTS) {
			// The crossing at the parameter t where the height, linear along the edge, is zero.
			float t = dp / (dp - dq);
			out[outCount].p = glms_vec3_add(p->p, glms_vec3_scale(glms_vec3_sub(q->p, p->p), t));
			out[outCount].code = tbMixCode(p->code, q->code, plane);
			++outCount;
		}
		if (dq <= 0.0f && outCount < TB_MAX_CLIP_POINTS) {
			out[outCount++] = *q;
		}
		p = q;
		dp = dq;
	}
	return outCount;
}

// The same for a segment (count 2, an open chain of one edge) or a single point (count 1).
static int tbClipSegment(const tbClipPoint* in, int count, vec3s m, float offset, int plane,
                         tbClipPoint* out)
{
	float dp = glms_vec3_dot(m, in[0].p) - offset;
	int outCount = 0;
	if (dp <= 0.0f) {
		out[outCount++] = in[0];
	}
	if (count == 1) {
		return outCount;
	}
	float dq = glms_vec3_dot(m, in[1].p) - offset;
	if ((dp <= 0.0f) != (dq <= 0.0f)) {
		float t = dp / (dp - dq);
		out[outCount].p =
		    glms_vec3_add(in[0].p, glms_vec3_scale(glms_vec3_sub(in[1].p, in[0].p), t));
		out[outCount].code = tbMixCode(in[0].code, in[1].code, plane);
		++outCount;
	}
	if (dq <= 0.0f) {
		out[outCount++] = in[1];
	}
	return outCount;
}

// Clip the incident points against the reference polygon's side planes (Sutherland-Hodgman;
// segments and single points as degenerate polygons), ping-ponging between the two buffers.
// Returns the number of points kept; *kept points at them (in one of the buffers).
static int tbClip(const tbFeature* ref, const tbFeature* inc, float planeTol,
                  tbClipPoint buffers[2][TB_MAX_CLIP_POINTS], const tbClipPoint** kept)
{
	tbClipPoint* in = buffers[0];
	tbClipPoint* res = buffers[1];
	int count = inc->count;
	for (int i = 0; i < count; ++i) {
		in[i].p = inc->v[i];
		in[i].code = (uint32_t)(i + 1);
	}
	// Where the walk round the polygon starts. A plane that cuts nothing off (most of them: a box
	// resting within its neighbour's face) gives back the same points starting from the second;
	// only the start moves then, so the points keep the order the walk gives them (it decides
	// ties in tbReduce and the order of the manifold's points).
	int start = 0;
	for (int k = 0; k < ref->count && count > 0; ++k) {
		vec3s a = ref->v[k], b = ref->v[k + 1 == ref->count ? 0 : k + 1];
		// Outward side plane of edge ab: (b - a) x n for a polygon counter-clockwise about n.
		vec3s m =
		    tbNormalizeOr(glms_vec3_cross(glms_vec3_sub(b, a), ref->normal), glms_vec3_zero());
		float offset = glms_vec3_dot(m, a) + planeTol;
		if (count >= 3) {
			// Each point's height over the side plane once (it ends two edges).
			float dist[TB_MAX_CLIP_POINTS];
			bool allInside = true;
			for (int i = 0; i < count; ++i) {
				dist[i] = glms_vec3_dot(m, in[i].p) - offset;
				allInside = allInside && dist[i] <= 0.0f;
			}
			if (allInside) {
				start = start + 1 < count ? start + 1 : 0;
				continue;
			}
			count = tbClipPolygon(in, dist, count, start, k, res);
			start = 0;
		} else {
			count = tbClipSegment(in, count, m, offset, k, res);
		}
		tbClipPoint* t = in;
		in = res;
		res = t;
	}
	if (start != 0) {
		// In walk order.
		for (int i = 0; i < count; ++i) {
			res[i] = in[start + i < count ? start + i : start + i - count];
		}
		in = res;
	}
	*kept = in;
	return count;
}

// Keep the four points that best hold the contact (Jolt's PruneContactPoints, Bullet's area rule):
// the deepest, the farthest from it, then the farthest on either side of their line.
static int tbReduce(const vec3s* p, const float* sep, int count, vec3s n, int keep[4])
{
	int i0 = 0;
	for (int i = 1; i < count; ++i) {
		if (sep[i] < sep[i0] - 1e-6f) {
			i0 = i;
		}
	}
	int i1 = -1;
	float best = -1.0f;
	for (int i = 0; i < count; ++i) {
		float d2 = glms_vec3_norm2(glms_vec3_sub(p[i], p[i0]));
		if (i != i0 && d2 > best) {
			best = d2;
			i1 = i;
		}
	}
	int kept = 0;
	keep[kept++] = i0;
	if (i1 < 0) {
		return kept;
	}
	keep[kept++] = i1;
	int i2 = -1, i3 = -1;
	float maxArea = 0.0f, minArea = 0.0f;
	vec3s e = glms_vec3_sub(p[i1], p[i0]);
	for (int i = 0; i < count; ++i) {
		if (i == i0 || i == i1) {
			continue;
		}
		float area = glms_vec3_dot(glms_vec3_cross(e, glms_vec3_sub(p[i], p[i0])), n);
		if (area > maxArea) {
			maxArea = area;
			i2 = i;
		}
		if (area < minArea) {
			minArea = area;
			i3 = i;
		}
	}
	if (i2 >= 0) {
		keep[kept++] = i2;
	}
	if (i3 >= 0) {
		keep[kept++] = i3;
	}
	return kept;
}

static tbManifold tbSinglePoint(const tbQueryResult* r)
{
	tbManifold m;
	memset(&m, 0, sizeof m);
	m.normal = r->normal;
	m.pointCount = 1;
	m.points[0].pointA = r->pointA;
	m.points[0].pointB = r->pointB;
	m.points[0].separation = r->distance;
	m.points[0].id = TB_QUERY_POINT_ID;
	return m;
}

// The facing feature of A (onA) or B along d (A's frame), in A's frame: the source's where it has
// it, else made in `storage`.
static const tbFeature* tbFeatureFrom(const tbFeatureSource* source, const tbGeometry* a,
                                      const tbGeometry* b, bool onA, tbTransform bInA, vec3s d,
                                      tbFeature* storage)
{
	const tbFeature* f = source != NULL ? source->fetch(source->context, onA, bInA, d) : NULL;
	if (f != NULL) {
		return f;
	}
	if (onA) {
		tbGetFeature(a, d, storage);
	} else {
		tbFeatureInA(b, bInA, d, storage);
	}
	return storage;
}

// tbGeometry_Size of A (onA) or B: the source's where it knows it (a shape's size is positive;
// a source that leaves the field at zero knows none).
static float tbSizeFrom(const tbFeatureSource* source, const tbGeometry* s, bool onA)
{
	float known = source == NULL ? 0.0f : (onA ? source->sizeA : source->sizeB);
	return known > 0.0f ? known : tbGeometry_Size(s);
}

int tbClipFaceManifold(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                       const tbFeature* ref, bool flip, float speculativeDistance, tbManifold* m)
{
	return tbClipFaceManifoldFrom(a, b, bInA, ref, flip, speculativeDistance, NULL, m);
}

int tbClipFaceManifoldFrom(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                           const tbFeature* ref, bool flip, float speculativeDistance,
                           const tbFeatureSource* source, tbManifold* m)
{
	tbFeature made;
	// The incident feature: of the other shape, along the reference face's normal reversed (for a
	// polytope the face most anti-parallel to the reference: Box2D-Lite, qu3e).
	const tbFeature* inc =
	    tbFeatureFrom(source, a, b, flip, bInA, glms_vec3_negate(ref->normal), &made);
	float sizeA = tbSizeFrom(source, a, true), sizeB = tbSizeFrom(source, b, false);
	memset(m, 0, sizeof *m);
	return tbClipFeatures(ref, inc, flip, sizeA < sizeB ? sizeA : sizeB, speculativeDistance, m);
}

int tbClipFeatures(const tbFeature* ref, const tbFeature* inc, bool flip, float size,
                   float speculativeDistance, tbManifold* m)
{
	float planeTol = TB_PLANE_TOL * size;
	tbClipPoint buffers[2][TB_MAX_CLIP_POINTS];
	const tbClipPoint* clipped;
	int count = tbClip(ref, inc, planeTol, buffers, &clipped);

	// The clipped points within the speculative distance over the reference face: which ones,
	// their heights over it and their separations (the incident feature's radius less).
	vec3s nRef = ref->normal;
	float offset = glms_vec3_dot(nRef, ref->v[0]);
	int index[TB_MAX_CLIP_POINTS];
	float height[TB_MAX_CLIP_POINTS], sep[TB_MAX_CLIP_POINTS];
	int kept = 0;
	for (int i = 0; i < count; ++i) {
		float h = glms_vec3_dot(nRef, clipped[i].p) - offset;
		float s = h - inc->radius;
		if (s > speculativeDistance) {
			continue;
		}
		index[kept] = i;
		height[kept] = h;
		sep[kept] = s;
		++kept;
	}
	// The caller hands a zeroed manifold (its unused points stay zero).
	m->pointCount = 0;
	if (kept == 0) {
		return 0;
	}
	int keep[TB_MAX_MANIFOLD_POINTS];
	int outCount = kept;
	if (kept > TB_MAX_MANIFOLD_POINTS) {
		// Rare (a hull face, or a box face rotated over another): the points projected onto the
		// reference face to choose from.
		vec3s onRef[TB_MAX_CLIP_POINTS];
		for (int i = 0; i < kept; ++i) {
			onRef[i] = glms_vec3_sub(clipped[index[i]].p, glms_vec3_scale(nRef, height[i]));
		}
		outCount = tbReduce(onRef, sep, kept, nRef, keep);
	} else {
		for (int i = 0; i < kept; ++i) {
			keep[i] = i;
		}
	}

	// The normal of the reference face, turned to point from A to B.
	m->normal = flip ? glms_vec3_negate(nRef) : nRef;
	uint32_t faceBits = ((ref->id & 0x7fu) << 23) | ((inc->id & 0x7fu) << 16);
	for (int k = 0; k < outCount; ++k) {
		int i = keep[k];
		const tbClipPoint* c = clipped + index[i];
		// The point on the reference face below it, and on the incident feature's surface.
		vec3s onRef = glms_vec3_sub(c->p, glms_vec3_scale(nRef, height[i]));
		vec3s onInc = glms_vec3_sub(c->p, glms_vec3_scale(nRef, inc->radius));
		tbManifoldPoint* mp = m->points + k;
		mp->pointA = flip ? onInc : onRef;
		mp->pointB = flip ? onRef : onInc;
		mp->separation = sep[i];
		mp->id = (flip ? 0x80000000u : 0u) | faceBits | (c->code & 0xffffu);
	}
	m->pointCount = outCount;
	return outCount;
}

// Two segment features lying side by side across the normal (a capsule's core, a cylinder's side
// line, a cone's slant line: two capsules in a pile, a cone lying along a log): the query's one
// point sits at one end of what is a line contact, and a body held at one point of a line rolls
// about it and sinks at the other end (a cone on a static capsule). The contact is the
// stretch of B's segment over A's, two points at its ends: each end's point on A's line and the
// nearest point of B's segment, separated along the query's normal less the features' radii.
// Returns false when the segments are not parallel and side by side (the single point is the
// contact then).
static bool tbSegmentPairManifold(const tbFeature* fa, const tbFeature* fb, vec3s n,
                                  float speculativeDistance, tbManifold* m)
{
	if (fa->count != 2 || fb->count != 2) {
		return false;
	}
	vec3s ea = glms_vec3_sub(fa->v[1], fa->v[0]), eb = glms_vec3_sub(fb->v[1], fb->v[0]);
	float la = glms_vec3_norm(ea), lb = glms_vec3_norm(eb);
	if (!(la > 0.0f && lb > 0.0f)) {
		return false;
	}
	vec3s ua = glms_vec3_scale(ea, 1.0f / la), ub = glms_vec3_scale(eb, 1.0f / lb);
	if (fabsf(glms_vec3_dot(ua, n)) > TB_FACE_SIN || fabsf(glms_vec3_dot(ub, n)) > TB_FACE_SIN ||
	    fabsf(glms_vec3_dot(ua, ub)) < TB_FACE_COS) {
		return false;
	}
	// B's ends along A's segment, the overlap of the two clipped to A's.
	float t0 = glms_vec3_dot(glms_vec3_sub(fb->v[0], fa->v[0]), ua);
	float t1 = glms_vec3_dot(glms_vec3_sub(fb->v[1], fa->v[0]), ua);
	float lo = fmaxf(fminf(t0, t1), 0.0f), hi = fminf(fmaxf(t0, t1), la);
	// A stretch shorter than a hundredth of the shorter segment is a point contact.
	if (!(hi - lo > 0.01f * fminf(la, lb))) {
		return false;
	}
	tbManifold out;
	memset(&out, 0, sizeof out);
	out.normal = n;
	float ends[2] = {lo, hi};
	for (int k = 0; k < 2; ++k) {
		vec3s pa = tbMulAddVec(fa->v[0], ends[k], ua);
		float sb = fminf(fmaxf(glms_vec3_dot(glms_vec3_sub(pa, fb->v[0]), ub), 0.0f), lb);
		vec3s pb = tbMulAddVec(fb->v[0], sb, ub);
		float separation = glms_vec3_dot(glms_vec3_sub(pb, pa), n) - fa->radius - fb->radius;
		if (!(separation <= speculativeDistance)) {
			continue;
		}
		tbManifoldPoint* mp = out.points + out.pointCount++;
		mp->pointA = tbMulAddVec(pa, fa->radius, n);
		mp->pointB = tbMulAddVec(pb, -fb->radius, n);
		mp->separation = separation;
		// Which features (A's and B's segment ids) and which end of the stretch.
		mp->id = 0x4000u | ((fa->id & 0x7fu) << 23) | ((fb->id & 0x7fu) << 16) | (uint32_t)k;
	}
	if (out.pointCount == 0) {
		return false;
	}
	*m = out;
	return true;
}

// The clipped points lie over the reference face; the deepest point of the pair may not. A cone
// lying along the side edge of a ramp's slope, its base rim hanging over the edge, is deepest
// there, while its slant line clipped to the face gives shallower points; the solver pushes only
// that much and the cone stays in (hard case c32 in tests/test_hard_cases.c). When the query's
// depth is deeper than every clipped point by more than the side planes' tolerance, its point joins
// the manifold (in place of the shallowest when it is full), with its separation along the
// manifold's normal: the manifold then always holds the pair's penetration depth.
static void tbKeepDeepest(const tbQueryResult* r, float sizeA, float sizeB, tbManifold* m)
{
	float tol = TB_PLANE_TOL * fminf(sizeA, sizeB);
	int shallowest = 0;
	float deepest = FLT_MAX;
	for (int i = 0; i < m->pointCount; ++i) {
		deepest = fminf(deepest, m->points[i].separation);
		if (m->points[i].separation > m->points[shallowest].separation) {
			shallowest = i;
		}
	}
	float along = glms_vec3_dot(glms_vec3_sub(r->pointB, r->pointA), m->normal);
	if (!(deepest > r->distance + tol) || !(along < deepest)) {
		return;
	}
	int at = m->pointCount < TB_MAX_MANIFOLD_POINTS ? m->pointCount++ : shallowest;
	tbManifoldPoint* mp = m->points + at;
	mp->pointA = r->pointA;
	mp->pointB = r->pointB;
	mp->separation = along;
	mp->id = TB_QUERY_POINT_ID;
}

tbQueryResult tbContactQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                             float speculativeDistance, bool checked, tbSatCache* cache)
{
	tbQueryResult r;
	if (tbSat_TriangleQuery(a, b, bInA, speculativeDistance, cache, &r) ||
	    tbRoundTriangleQuery(a, b, bInA, &r) || tbRoundPairQuery(a, b, bInA, &r)) {
		return r;
	}
	tbQueryDef def = tbDefaultQueryDef();
	return tbQueryShapesWarm(a, b, bInA, &def, checked, cache);
}

// tbCollideShapesByQuery; `checked`: the caller checked the shapes (tbQueryShapesChecked);
// `cache` (may be null): GJK's start and its last simplex (tbQueryShapesWarm).
static tbManifold tbCollideByQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                   float speculativeDistance, float* distance, bool checked,
                                   tbSatCache* cache, const tbFeatureSource* source)
{
	tbManifold m;
	memset(&m, 0, sizeof m);
	m.normal = tbV(0.0f, 1.0f, 0.0f);
	tbQueryResult r = tbContactQuery(a, b, bInA, speculativeDistance, checked, cache);
	bool valid = r.status != tb_queryInvalidInput && !isnan(r.distance);
	if (distance != NULL) {
		// A failed query proves nothing: report the pair as overlapping so no cache trusts it.
		*distance = valid ? r.distance : -FLT_MAX;
	}
	if (!valid || !(r.distance <= speculativeDistance)) {
		return m;
	}
	vec3s n = r.normal;

	tbFeature madeA, madeB;
	const tbFeature* fa = tbFeatureFrom(source, a, b, true, bInA, n, &madeA);
	const tbFeature* fb = tbFeatureFrom(source, a, b, false, bInA, glms_vec3_negate(n), &madeB);
	float alignA = fa->isFace ? glms_vec3_dot(fa->normal, n) : -1.0f;
	float alignB = fb->isFace ? -glms_vec3_dot(fb->normal, n) : -1.0f;
	if (alignA < TB_FACE_COS && alignB < TB_FACE_COS) {
		// Two segments side by side: their common stretch. Otherwise edge against edge, or
		// curved against curved: the query's one point is the contact.
		if (tbSegmentPairManifold(fa, fb, n, speculativeDistance, &m)) {
			return m;
		}
		return tbSinglePoint(&r);
	}

	// The reference stays valid through the incident feature's fetch, which is of the other
	// shape (tbFeatureSource).
	bool flip = alignB > alignA + TB_REFERENCE_BIAS;
	if (tbClipFaceManifoldFrom(a, b, bInA, flip ? fb : fa, flip, speculativeDistance, source, &m) ==
	    0) {
		// The faces face each other but no incident point lies over the reference face (an edge
		// grazing a face's rim): the query's point still holds.
		return tbSinglePoint(&r);
	}
	tbKeepDeepest(&r, tbSizeFrom(source, a, true), tbSizeFrom(source, b, false), &m);
	return m;
}

tbManifold tbCollideShapesByQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                  float speculativeDistance, float* distance)
{
	return tbCollideByQuery(a, b, bInA, speculativeDistance, distance, false, NULL, NULL);
}

// The separating-axis test's manifold, or the query path's when the test cannot answer.
static tbManifold tbCollideBySat(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 float speculativeDistance, float* distance, tbSatCache* cache,
                                 bool checked)
{
	tbManifold m;
	if (tbSat_Collide(a, b, bInA, speculativeDistance, distance, cache, &m)) {
		// Shapes the world checked always give a unit normal; shapes outside the supported
		// range handed here directly (fuzz: a box of 1e18 m) go to the query path, which
		// refuses them cleanly.
		float n2 = glms_vec3_dot(m.normal, m.normal);
		if (fabsf(n2 - 1.0f) < 1e-3f) {
			return m;
		}
	}
	return tbCollideByQuery(a, b, bInA, speculativeDistance, distance, checked, NULL, NULL);
}

// tbCollideShapesCached; `checked` as tbCollideByQuery, the query path's features from `source`
// (may be null).
static tbManifold tbCollideCachedWith(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                      float speculativeDistance, float* distance, tbSatCache* cache,
                                      bool checked, const tbFeatureSource* source)
{
	if (tbSat_Applies(a, b, bInA)) {
		return tbCollideBySat(a, b, bInA, speculativeDistance, distance, cache, checked);
	}
	return tbCollideByQuery(a, b, bInA, speculativeDistance, distance, checked, cache, source);
}

tbManifold tbCollideShapesCached(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                 float speculativeDistance, float* distance, tbSatCache* cache)
{
	return tbCollideCachedWith(a, b, bInA, speculativeDistance, distance, cache, false, NULL);
}

tbManifold tbCollideCheckedShapes(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                  float speculativeDistance, float* distance, tbSatCache* cache)
{
	return tbCollideCheckedShapesFrom(a, b, bInA, speculativeDistance, distance, cache, NULL);
}

tbManifold tbCollideCheckedShapesFrom(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                      float speculativeDistance, float* distance, tbSatCache* cache,
                                      const tbFeatureSource* source)
{
	return tbCollideCachedWith(a, b, bInA, speculativeDistance, distance, cache, true, source);
}

tbManifold tbCollideWorldShapes(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                float speculativeDistance, float* distance, tbSatCache* cache)
{
	if (a->type == tb_boxShape && b->type == tb_boxShape && tbSat_PoseOk(bInA)) {
		return tbCollideBySat(a, b, bInA, speculativeDistance, distance, cache, true);
	}
	return tbCollideCachedWith(a, b, bInA, speculativeDistance, distance, cache, true, NULL);
}

tbManifold tbCollideShapesLocal(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                float speculativeDistance, float* distance)
{
	return tbCollideShapesCached(a, b, bInA, speculativeDistance, distance, NULL);
}

// A pose tbCollideShapes accepts: finite position within the supported coordinates and a unit
// quaternion (to 1e-3, as the queries demand).
static bool tbManifoldPoseOk(tbTransform xf)
{
	float q2 = xf.q.x * xf.q.x + xf.q.y * xf.q.y + xf.q.z * xf.q.z + xf.q.w * xf.q.w;
	return fabsf(xf.p.x) <= TB_MAX_COORDINATE && fabsf(xf.p.y) <= TB_MAX_COORDINATE &&
	       fabsf(xf.p.z) <= TB_MAX_COORDINATE && fabsf(q2 - 1.0f) < 1e-3f;
}

static versors tbManifoldUnitQuat(versors q)
{
	float q2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
	if (fabsf(q2 - 1.0f) <= 1e-6f) {
		return q; // unit to float rounding: keep its bits
	}
	float inv = 1.0f / sqrtf(q2);
	return (versors){{q.x * inv, q.y * inv, q.z * inv, q.w * inv}};
}

// Finite points and separations and a unit normal: what a manifold must be to leave the library.
// A degenerate touch (a one-point hull at a sphere's centre) has no normal to give.
static bool tbManifoldIsFinite(const tbManifold* m)
{
	float n2 = glms_vec3_dot(m->normal, m->normal);
	if (!(fabsf(n2 - 1.0f) < 1e-3f)) {
		return false;
	}
	for (int i = 0; i < m->pointCount; ++i) {
		const tbManifoldPoint* p = m->points + i;
		if (!isfinite(p->pointA.x + p->pointA.y + p->pointA.z + p->pointB.x + p->pointB.y +
		              p->pointB.z + p->separation)) {
			return false;
		}
	}
	return true;
}

tbManifold tbCollideShapes(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                           tbTransform xfB, float speculativeDistance)
{
	// Public entry: bad poses, shapes or distance give an empty manifold, never NaN points.
	tbManifold empty;
	memset(&empty, 0, sizeof empty);
	empty.normal = tbV(0.0f, 1.0f, 0.0f);
	// The full check (ranges included: docs/ranges.md) at this public entry; the engine's own
	// calls come through tbCollideShapesCached on shapes the world has checked already.
	if (!tbManifoldPoseOk(xfA) || !tbManifoldPoseOk(xfB) || !tbGeometry_Validate(a, NULL, 0) ||
	    !tbGeometry_Validate(b, NULL, 0) || !isfinite(speculativeDistance)) {
		return empty;
	}
	// Accepted to 1e-3, made unit: a non-unit rotation would scale the world normal.
	xfA.q = tbManifoldUnitQuat(xfA.q);
	xfB.q = tbManifoldUnitQuat(xfB.q);
	// Everything in A's frame (Box2D, Jolt): small coordinates, exact relative pose; the world
	// placement is done once at the end.
	tbManifold m =
	    tbCollideShapesLocal(a, b, tbInvMulTransforms(xfA, xfB), speculativeDistance, NULL);
	m.normal = tbRotateVector(xfA.q, m.normal);
	for (int i = 0; i < m.pointCount; ++i) {
		m.points[i].pointA = tbTransformPoint(xfA, m.points[i].pointA);
		m.points[i].pointB = tbTransformPoint(xfA, m.points[i].pointB);
	}
	// Never a normal that is not unit (fuzz: a box of 1e18 m against a hull, before the range
	// check above, gave one).
	float n2 = glms_vec3_dot(m.normal, m.normal);
	return tbManifoldIsFinite(&m) && fabsf(n2 - 1.0f) <= 1e-3f ? m : empty;
}
