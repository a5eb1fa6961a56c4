// The character mover: a capsule that the game moves through queries, not the solver: its world
// queries (contact planes, casts), the plane solver and tbCharacter_Move (docs/mover.md).
#pragma once

#include "tumble/types.h"

// ---------------------------------------------------------------------------------------------
// Queries for a mover shape. Both skip sensors and see mesh and heightfield triangles.

/// A contact plane of a mover shape at a pose: the obstacle's surface near the mover, seen from
/// the mover (tbWorld_CollideMover).
typedef struct tbMoverPlane
{
	tbShapeId shapeId; ///< the obstacle
	vec3s normal;      ///< unit, world, from the obstacle towards the mover
	vec3s point;       ///< the obstacle's point closest to the mover, world, m
	/// Signed distance from the obstacle to the mover along `normal`, m: negative (minus the
	/// penetration depth) when they overlap.
	float separation;
} tbMoverPlane;

/// The contact planes of the convex `shape` placed at `transform`: one for each shape (and each
/// mesh or heightfield triangle) closer to it than `margin` m (>= 0), by GJK and EPA
/// (tbQueryShapes). Writes up to `capacity` planes, closest first when there are more, and returns
/// how many were written. Bad input (NaN, an invalid or level shape, margin < 0) gives 0 and an
/// error.
TB_API int tbWorld_CollideMover(tbWorldId worldId, const tbGeometry* shape, tbTransform transform,
                                float margin, tbQueryFilter filter, tbMoverPlane* planes,
                                int capacity);

/// The first obstacle hit by the convex `shape` moved from `start` along `translation` (no
/// rotation): the fraction at which it touches, the point on the obstacle and the obstacle's
/// outward normal there (tbShapeCast on every shape and every mesh or heightfield triangle in the
/// swept box). Obstacles it overlaps at the start are not reported: tbWorld_CollideMover sees
/// those. No hit (hit = false, fraction 1) when nothing is in the way.
TB_API tbRayResult tbWorld_CastMover(tbWorldId worldId, const tbGeometry* shape, tbTransform start,
                                     vec3s translation, tbQueryFilter filter);

// ---------------------------------------------------------------------------------------------
// The plane solver

/// One constraint of the plane solver: the displacement d must satisfy normal . d >= offset.
/// A contact plane of separation s and a kept gap g gives offset = g - s.
typedef struct tbMoverConstraint
{
	vec3s normal; ///< unit, world
	float offset; ///< m
	/// Output: the constraint's multiplier, m >= 0: how far along `normal` it moved the
	/// displacement (0 when it did not act).
	float push;
} tbMoverConstraint;

/// The most sweeps over the constraints tbSolveMoverPlanes makes.
#define TB_MOVER_SOLVER_ITERATIONS 32

/// The displacement closest to `target` that satisfies every constraint (normal . d >= offset):
/// the projection of `target` on the intersection of the half-spaces, by Gauss-Seidel on the
/// multipliers (Hildreth's method): d = target + sum push_i normal_i with push_i >= 0. Stops when
/// a sweep changes the pushes by less than 1e-6 m, or after TB_MOVER_SOLVER_ITERATIONS sweeps.
/// Fills each constraint's `push`.
TB_API vec3s tbSolveMoverPlanes(vec3s target, tbMoverConstraint* constraints, int count);

// ---------------------------------------------------------------------------------------------
// The character

/// A character's settings. Start from tbDefaultCharacterDef().
typedef struct tbCharacterDef
{
	vec3s position; ///< the capsule's centre, world, m (the origin)
	float radius;   ///< m (0.3)
	float
	    halfHeight; ///< half the capsule's segment, m (0.6): it stands 2 (halfHeight + radius) tall
	/// The steepest ground it stands and walks on, radians from level (45 degrees, 0.785). Steeper
	/// surfaces are walls to its walking and slopes it slides down under gravity.
	float maxSlopeAngle;
	float stepHeight; ///< the highest step it walks up, m (0.35); also how far it snaps down
	float skinWidth;  ///< the gap it keeps to every surface, m (0.01)
	/// The largest force with which it pushes a dynamic body it walks into, N (500; 0: it pushes
	/// nothing and the body stops it like a wall).
	float pushStrength;
	float gravityScale;   ///< it falls with gravityScale times the world's gravity (1)
	tbQueryFilter filter; ///< which shapes it collides with (all but sensors)
	void* userData;
} tbCharacterDef;

/// The default character: a capsule 1.8 m tall and 0.6 m wide at the origin.
TB_API tbCharacterDef tbDefaultCharacterDef(void);

/// The most contact planes a character looks at in one place.
#define TB_CHARACTER_MAX_PLANES 32

/// A character: a plain struct the game owns and hands to tbCharacter_Move; it is not in the
/// world (nothing collides with it, rays do not see it). Up is +y.
typedef struct tbCharacter
{
	tbCharacterDef def; ///< its settings (the game may change them between moves)
	vec3s position;     ///< the capsule's centre, world, m
	/// Its own velocity, m/s, on top of the walk: gravity's, a jump's (set velocity.y > 0 on the
	/// ground to jump), a platform's once it leaves it. Zero while it stands on walkable ground;
	/// surfaces it touches take away the part into them.
	vec3s velocity;
	vec3s moveVelocity; ///< what the last move did: its displacement over the time step, m/s
	bool grounded;      ///< standing on walkable ground after the last move
	vec3s groundNormal; ///< that ground's normal (+y when not grounded)
	vec3s groundPoint;  ///< the ground's point under it, world, m
	tbShapeId groundShapeId;
	tbBodyId groundBodyId;
	tbTransform groundTransform; ///< the ground body's pose at the end of the last move
	bool valid;                  ///< made from a valid def
} tbCharacter;

/// A character from `def`. A bad def (radius, half height, slope angle, step height, skin width
/// or push strength out of range, or NaN) gives a character with valid = false and an error.
TB_API tbCharacter tbMakeCharacter(const tbCharacterDef* def);

/// The character's capsule (centred on its position, upright).
TB_API tbGeometry tbCharacter_GetCapsule(const tbCharacter* character);

/// Move the character for `timeStep` seconds: it walks with the horizontal part (x, z) of
/// `walkVelocity` (m/s; y is ignored) along the ground, at that speed along the ground whatever
/// its slope, rides the ground body, falls and slides with its own velocity, slides along what it
/// meets, steps up steps of up to stepHeight, snaps down onto ground up to stepHeight below and
/// pushes dynamic bodies in its way (docs/mover.md). Call it once per frame, before or after
/// tbWorld_Step. Returns false (and changes nothing) for bad input.
TB_API bool tbCharacter_Move(tbWorldId worldId, tbCharacter* character, vec3s walkVelocity,
                             float timeStep);
