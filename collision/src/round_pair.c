// Two spheres or capsules in closed form: the closest points of their cores (a centre, or a
// segment), in place of GJK's iterations on them.
//
// A sphere is a point swept by a ball and a capsule a segment swept by one (docs/narrowphase.md,
// "Cores and radii"): the distance of two such shapes is their cores' distance less both radii,
// along the line between the cores' closest points. The closest points of two segments are
// Ericson's (Real-Time Collision Detection 5.1.9, tbClosestSegments); a point is a segment of no
// length. Cores that touch or cross (a ragdoll's limbs deep in each other) have no direction
// between them and are left to GJK and EPA, as round_triangle.c leaves a core through a triangle.

#include <math.h>

#include "narrowphase.h"
#include "sat.h"
#include "segments.h"
#include "tumble/transform.h"
#include "tumble/transform_internal.h"

// Cores closer than this fraction of the pair's size are left to GJK/EPA: the direction between
// two nearly equal points says nothing (round_triangle.c's floor).
#define TB_ROUND_PAIR_FLOOR 1e-5f

// The shape's core in A's frame: its ends (a sphere's two at its centre) and its radius; false
// when the shape is not round or its scale is not uniform (no ball survives it).
static bool tbRoundCore(const tbGeometry* s, bool inB, tbTransform bInA, vec3s ends[2],
                        float* radius)
{
	if (s->type != tb_sphereShape && s->type != tb_capsuleShape) {
		return false;
	}
	*radius = tbGeometry_CoreRadius(s); // zero unless the scale is uniform
	if (!(*radius > 0.0f) || !isfinite(*radius)) {
		return false;
	}
	float half = s->type == tb_capsuleShape ? s->round.halfHeight * s->scale.x : 0.0f;
	ends[0] = (vec3s){{0.0f, half, 0.0f}};
	ends[1] = (vec3s){{0.0f, -half, 0.0f}};
	if (inB) {
		ends[0] = tbTransformPointInline(bInA, ends[0]);
		ends[1] = tbTransformPointInline(bInA, ends[1]);
	}
	return tbIsFiniteVec3(ends[0]) && tbIsFiniteVec3(ends[1]);
}

bool tbRoundPairQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                      tbQueryResult* out)
{
	vec3s ea[2], eb[2];
	float ra, rb;
	if (!tbSat_PoseOk(bInA) || !tbRoundCore(a, false, bInA, ea, &ra) ||
	    !tbRoundCore(b, true, bInA, eb, &rb)) {
		return false;
	}
	vec3s onA, onB;
	tbClosestSegments(ea[0], glms_vec3_sub(ea[1], ea[0]), eb[0], glms_vec3_sub(eb[1], eb[0]), &onA,
	                  &onB);
	vec3s between = glms_vec3_sub(onB, onA);
	float core = glms_vec3_norm(between);
	float size = glms_vec3_norm(glms_vec3_sub(ea[1], ea[0])) +
	             glms_vec3_norm(glms_vec3_sub(eb[1], eb[0])) + ra + rb;
	if (!(core > TB_ROUND_PAIR_FLOOR * size) || !isfinite(core) || !isfinite(size)) {
		return false;
	}
	// From A's core towards B's; each witness on its own shape's surface.
	vec3s n = glms_vec3_scale(between, 1.0f / core);
	out->distance = core - ra - rb;
	out->hit = out->distance <= 0.0f;
	out->status = tb_queryConverged;
	out->gjkIterations = 0;
	out->epaIterations = 0;
	out->normal = n;
	out->pointA = glms_vec3_add(onA, glms_vec3_scale(n, ra));
	out->pointB = glms_vec3_sub(onB, glms_vec3_scale(n, rb));
	return true;
}
