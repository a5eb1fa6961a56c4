// A convex shape against one triangle of level geometry, with internal-edge correction, and ray
// casts of placed level geometry (docs/meshes.md).
//
// Internal edges: a shape sliding over a flat floor made of triangles meets the seams between
// them. Against one triangle alone, a shape just past its edge is closest to that edge, and the
// query's normal then leans out of the floor: the solver pushes the shape up and back (the "ghost
// collisions" of Box2D v3's chain shapes, which it answers with ghost vertices; Bullet's
// btAdjustInternalEdgeContacts; Jolt's active edges after Pierre Terdiman, "Contact generation for
// meshes", 2008). Each mesh edge is flagged active only when convex and sharper than
// TB_ACTIVE_EDGE_COS with its neighbour (mesh.c). A contact whose normal is not the triangle's face
// normal and whose triangle-side point lies inside the face, on an inactive edge, or on a vertex
// whose two edges in this triangle are inactive, is made again with the face normal: the convex
// shape's feature facing the triangle is clipped against it, so every point's separation is its
// height over the triangle along the face normal, and points not over the triangle are left to
// the neighbour they are over (except over a shallow convex fold: see the end of
// tbCollideLevelTriangle).
#include <float.h>
#include <math.h>
#include <string.h>

#include "manifold_internal.h"
#include "mesh_internal.h"
#include "tumble/transform.h"

// A normal within about 0.5 degrees of the face normal is the face normal (float noise of the
// clipped face contacts is far below; anything farther came from an edge or a vertex).
#define TB_LEVEL_FACE_COS 0.99996f
// A triangle-side contact point within this fraction of the triangle's longest edge of an edge
// lies on it (GJK's points on an edge are on it to rounding; EPA's to its tolerance).
#define TB_LEVEL_EDGE_TOL 1e-3f

tbManifold tbCollideLevelTriangle(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                  int triangle, float speculativeDistance, float* distance)
{
	bool levelIsA = tbGeometry_IsLevel(a);
	const tbGeometry* level = levelIsA ? a : b;
	tbManifold empty;
	memset(&empty, 0, sizeof empty);
	empty.normal = (vec3s){{0.0f, 1.0f, 0.0f}};
	vec3s v[3];
	uint32_t flags = 0u;
	if (!tbGeometry_IsLevel(level) || tbGeometry_IsLevel(levelIsA ? b : a) ||
	    !tbGeometry_GetTriangle(level, triangle, v, &flags)) {
		if (distance != NULL) {
			*distance = -FLT_MAX;
		}
		return empty;
	}
	tbGeometry tri = tbMakeTriangle(v[0], v[1], v[2]);
	const tbGeometry* sa = levelIsA ? &tri : a;
	const tbGeometry* sb = levelIsA ? b : &tri;
	tbManifold m = tbCollideShapesCached(sa, sb, bInA, speculativeDistance, distance, NULL);
	if (m.pointCount == 0) {
		return m;
	}
	// The triangle in A's frame and the normal from it towards the convex shape.
	vec3s t[3];
	for (int k = 0; k < 3; ++k) {
		t[k] = levelIsA ? v[k] : tbTransformPointInline(bInA, v[k]);
	}
	vec3s face = tbTriangleNormal(t[0], t[1], t[2]);
	vec3s toConvex = levelIsA ? m.normal : glms_vec3_negate(m.normal);
	// A heightfield is solid below its surface: its triangles face up. A mesh triangle faces the
	// side the convex shape's centre is on (the query's normal is no guide: at an edge it may lie
	// in the plane, or lean either way).
	vec3s centre = levelIsA ? tbTransformPointInline(bInA, tbGeometry_InteriorPoint(b))
	                        : tbGeometry_InteriorPoint(a);
	bool back =
	    level->type == tb_meshShape && glms_vec3_dot(glms_vec3_sub(centre, t[0]), face) < 0.0f;
	vec3s front = back ? glms_vec3_negate(face) : face;
	if (glms_vec3_dot(toConvex, front) >= TB_LEVEL_FACE_COS) {
		return m; // already the face normal
	}
	// Which feature of the triangle the deepest point is on.
	int deepest = 0;
	for (int i = 1; i < m.pointCount; ++i) {
		if (m.points[i].separation < m.points[deepest].separation) {
			deepest = i;
		}
	}
	vec3s p = levelIsA ? m.points[deepest].pointA : m.points[deepest].pointB;
	float longest = 0.0f;
	for (int e = 0; e < 3; ++e) {
		longest = fmaxf(longest, glms_vec3_norm(glms_vec3_sub(t[(e + 1) % 3], t[e])));
	}
	float tol = TB_LEVEL_EDGE_TOL * longest;
	uint32_t near = 0u;
	for (int e = 0; e < 3; ++e) {
		// Outward side plane of edge e (counter-clockwise about `face`).
		vec3s side = glms_vec3_cross(glms_vec3_sub(t[(e + 1) % 3], t[e]), face);
		float len = glms_vec3_norm(side);
		if (len > 0.0f && glms_vec3_dot(glms_vec3_sub(p, t[e]), side) / len > -tol) {
			near |= TB_EDGE_ACTIVE(e);
		}
	}
	// On an edge: that edge's flag; on a vertex: active when either of its edges is (Jolt's rule);
	// inside the face: never.
	if ((near & flags) != 0u) {
		return m;
	}
	tbFeature ref;
	memset(&ref, 0, sizeof ref);
	for (int k = 0; k < 3; ++k) {
		ref.v[k] = back ? t[2 - k] : t[k]; // counter-clockwise about `front`
	}
	ref.count = 3;
	ref.normal = front;
	ref.radius = 0.0f;
	ref.id = back ? 1u : 0u;
	ref.isFace = true;
	tbManifold out;
	if (tbClipFaceManifold(sa, sb, bInA, &ref, !levelIsA, speculativeDistance, &out) > 0) {
		return out;
	}
	// Nothing of the shape's facing feature lies over this triangle. Over a flat seam the
	// neighbour holds it (and the edge's normal is the ghost to drop). Across a shallow convex
	// fold (an inactive edge of a rolling terrain) there is a strip of width 2 r sin(fold / 2)
	// over the edge where the shape's lowest point along each face's normal lies over the other
	// face, and both triangles would let a ball rolling along the ridge fall. There the query's
	// normal lies between the two faces' normals: it is the edge's true normal, kept.
	for (int e = 0; e < 3; ++e) {
		if ((near & TB_EDGE_ACTIVE(e)) == 0u) {
			continue;
		}
		int other = tbLevelNeighbour(level, triangle, e);
		vec3s w[3];
		if (other < 0 || !tbGeometry_GetTriangle(level, other, w, NULL)) {
			continue;
		}
		for (int k = 0; k < 3 && !levelIsA; ++k) {
			w[k] = tbTransformPointInline(bInA, w[k]);
		}
		vec3s otherNormal = tbTriangleNormal(w[0], w[1], w[2]);
		otherNormal = back ? glms_vec3_negate(otherNormal) : otherNormal;
		// Convex: the neighbour's far corner below this face. The normals between the two faces'
		// are those closer to each than the faces are to each other.
		vec3s far = w[0];
		for (int k = 1; k < 3; ++k) {
			float dk = glms_vec3_dot(glms_vec3_sub(w[k], t[0]), front);
			far = dk < glms_vec3_dot(glms_vec3_sub(far, t[0]), front) ? w[k] : far;
		}
		float between = glms_vec3_dot(front, otherNormal) - 1e-5f;
		if (glms_vec3_dot(glms_vec3_sub(far, t[0]), front) < 0.0f &&
		    glms_vec3_dot(toConvex, front) >= between &&
		    glms_vec3_dot(toConvex, otherNormal) >= between) {
			return m;
		}
	}
	empty.normal = levelIsA ? front : glms_vec3_negate(front);
	return empty;
}

tbCastOutput tbRayCastLevel(const tbGeometry* shape, tbTransform xf, vec3s origin,
                            vec3s translation, float maxFraction)
{
	tbCastOutput out;
	memset(&out, 0, sizeof out);
	float q2 = glms_quat_dot(xf.q, xf.q);
	if (!tbLevelCheck(shape, NULL, 0) || !isfinite(xf.p.x + xf.p.y + xf.p.z) ||
	    !(fabsf(q2 - 1.0f) < 1e-3f)) {
		return out;
	}
	if (fabsf(q2 - 1.0f) > 1e-6f) {
		xf.q = glms_quat_normalize(xf.q);
	}
	vec3s o = tbInvTransformPointInline(xf, origin);
	vec3s d = tbInvRotateInline(xf.q, translation);
	out = tbRayCastLevelLocal(shape, o, d, maxFraction);
	if (out.hit) {
		out.point = glms_vec3_add(origin, glms_vec3_scale(translation, out.fraction));
		out.normal = tbRotateInline(xf.q, out.normal);
	}
	return out;
}
