// Unified EPA's start tetrahedron (white box): when it has no volume the run reports a failure
// without touching the polytope's faces (issue: at pair sizes below ~1e-10 m or above ~5e17 m
// its volume under- or overflowed float and the loop read faces that were never made).
#include "narrowphase.h"

#include <criterion/criterion.h>
#include <math.h>

// A margin of 0 makes the start a point: four equal vertices, no volume.
Test(uepa_start, flat_start_fails_cleanly)
{
	tbGeometry a = tbMakeBox(1.0f, 1.0f, 1.0f), b = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbTransform bInA = tbMakeTransform((vec3s){{0.5f, 0.0f, 0.0f}}, glms_quat_identity());
	tbMinkowski mk;
	tbMinkowski_Init(&mk, &a, &b, bInA);
	mk.margin = 0.0f;
	tbQueryDef def = tbDefaultQueryDef();
	tbPolytopeResult out;
	tbUnifiedEpa(&mk, 128, &def, &out);
	cr_expect(out.failed, "a start without volume must be reported");
	cr_expect_eq(out.status, tb_queryDegenerate, "status %s", tbQueryStatusName(out.status));
	cr_expect_eq(out.iterations, 0);
	cr_expect(isfinite(out.distance) && isfinite(out.normal.x) && isfinite(out.pointA.x) &&
	          isfinite(out.pointB.x));
}

// With the query's margin the same pair starts and converges: depth 1.5 along x.
Test(uepa_start, margin_start_converges)
{
	tbGeometry a = tbMakeBox(1.0f, 1.0f, 1.0f), b = tbMakeBox(1.0f, 1.0f, 1.0f);
	tbTransform bInA = tbMakeTransform((vec3s){{0.5f, 0.0f, 0.0f}}, glms_quat_identity());
	tbMinkowski mk;
	tbMinkowski_Init(&mk, &a, &b, bInA);
	mk.margin = 3e-5f * mk.scale;
	tbQueryDef def = tbDefaultQueryDef();
	tbPolytopeResult out;
	tbUnifiedEpa(&mk, 128, &def, &out);
	cr_expect(!out.failed);
	cr_expect(out.inside);
	cr_expect_float_eq(out.distance - mk.margin, 1.5f, 1e-5f, "depth %g",
	                   (double)(out.distance - mk.margin));
}
