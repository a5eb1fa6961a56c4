// Time of impact of two moving convex shapes by conservative advancement on GJK distances
// (Mirtich, "Impulse-based dynamic simulation of rigid body systems", 1996, ch. 3; Catto,
// "Continuous Collision", GDC 2013), and shape casts on the same loop (docs/continuous.md).
#pragma once

#include "tumble/base.h"
#include "tumble/geometry.h"
#include "tumble/raycast.h"
#include "tumble/transform.h"

/// The motion of a shape over a time interval mapped to [0, 1]: its rotation centre (a body's
/// centre of mass) moves on the straight line c0 -> c1 while the shape turns about it at a constant
/// rate about a fixed axis, from q0 to q1 the short way round.
typedef struct tbSweep
{
	vec3s localCenter; ///< the rotation centre in the shape's frame, m
	vec3s c0, c1;      ///< the centre's world position at t = 0 and t = 1, m
	versors q0, q1;    ///< the shape's rotation at t = 0 and t = 1 (unit)
} tbSweep;

/// A sweep from pose `start` to pose `end` of a shape turning about `localCenter` (shape frame).
TB_API tbSweep tbMakeSweep(tbTransform start, tbTransform end, vec3s localCenter);

/// The shape's pose at t in [0, 1] of the sweep.
TB_API tbTransform tbSweep_GetTransform(const tbSweep* sweep, float t);

/// How a time-of-impact query ended.
typedef enum tbToiState
{
	tb_toiHit,        ///< the shapes come within the target separation at `fraction`
	tb_toiSeparated,  ///< they stay farther apart than the target up to maxFraction
	tb_toiOverlapped, ///< they overlap at t = 0: no time of impact (fraction 0)
	tb_toiFailed,     ///< the iteration cap or bad input: `fraction` is still a safe time to go to
} tbToiState;

/// The two shapes, their sweeps and what counts as an impact. Start from tbDefaultToiInput().
typedef struct tbToiInput
{
	const tbGeometry* shapeA;
	tbSweep sweepA;
	const tbGeometry* shapeB;
	tbSweep sweepB;
	float maxFraction;      ///< look for impacts in [0, maxFraction] (1)
	float targetSeparation; ///< an impact is the first time they are this far apart, m (>= 0)
	/// The impact is found when the distance is within this of the target, m; 0 or less asks for
	/// the default, 1e-4 of the smaller shape's bounding radius (about its rotation centre). Never
	/// less than 2e-6 of the two radii's sum: GJK's accuracy in float.
	float tolerance;
	int maxIterations; ///< cap of the advancement loop (32)
} tbToiInput;

/// Inputs with maxFraction 1, target 0, the default tolerance and 32 iterations; shapes null.
TB_API tbToiInput tbDefaultToiInput(void);

/// Where and when two swept shapes first come within the target separation.
typedef struct tbToiOutput
{
	tbToiState state;
	float fraction; ///< the time of impact in [0, maxFraction] (maxFraction when separated)
	vec3s point;    ///< on A's surface at the impact, world, m
	vec3s normal;   ///< unit, from A towards B at the impact, world
	float distance; ///< their distance at `fraction`, m
	int iterations; ///< advancement steps taken
} tbToiOutput;

/// The first time in [0, maxFraction] at which the shapes' distance falls to the target (within the
/// tolerance), by conservative advancement: the distance d and normal n of GJK at t bound the time
/// the two can need to close d - target by the fastest approach any of their points can have along
/// n, so the step never passes the impact (docs/continuous.md). NaN, Inf or invalid shapes give
/// tb_toiFailed with fraction 0.
TB_API tbToiOutput tbTimeOfImpact(const tbToiInput* input);

/// Cast shape B from pose xfB along `translation` at shape A placed at xfA (no rotation), over the
/// fraction [0, maxFraction]: the first time they touch, within 1e-4 of the smaller shape's size.
/// The output's point is on A's surface and its normal is A's outward normal there. No hit when
/// they overlap at the start, on bad input, or when B never comes within the tolerance of A. The
/// tolerance is tbToiInput's default.
TB_API tbCastOutput tbShapeCast(const tbGeometry* shapeA, tbTransform xfA, const tbGeometry* shapeB,
                                tbTransform xfB, vec3s translation, float maxFraction);
