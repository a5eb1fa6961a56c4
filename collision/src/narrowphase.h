// Internal narrow-phase types: the Minkowski difference A - B, GJK simplices, the EPA polytope.
#pragma once

#include "geometry_internal.h"
#include "tumble/manifold.h"
#include "tumble/query.h"

/// A point of A - B and where it came from. Points are in A's local frame.
typedef struct tbSupportVertex
{
	vec3s w;    ///< point of the (possibly inflated) Minkowski difference
	vec3s a, b; ///< the shapes' own support points (never inflated): witness sources
	int ia, ib; ///< feature (vertex) indices, -1 for smooth points
} tbSupportVertex;

/// The Minkowski difference of two shapes with B placed in A's frame.
typedef struct tbMinkowski
{
	const tbGeometry* shapeA;
	const tbGeometry* shapeB;
	tbTransform bInA;
	mat3s rotB; ///< R(bInA.q): the support runs once per iteration, the quaternion only here
	bool roundA, roundB; ///< sphere or capsule with a uniform scale: a core plus a ball
	bool cores;          ///< support the cores only (spheres and capsules without their ball)
	float margin;        ///< inflate A - B by a ball of this radius (0: none), metres
	float scale;         ///< pair scale L = radA + radB + |pB|: every tolerance is relative to it
	float tolerance;     ///< convergence tolerance relative to L (tbQueryDef::tolerance)
	/// The pair's cache GJK starts from and leaves its simplex in (tb_satSimplex); null: GJK
	/// starts afresh and keeps nothing. Set only for the query's own GJK run.
	tbSatCache* warm;
} tbMinkowski;

tbSupportVertex tbMinkowskiSupport(const tbMinkowski* mk, vec3s d);

/// The point of A - B made of vertex ia of A and vertex ib of B (the ids tbMinkowskiSupport
/// reports), as that support would give it. False when either id names no vertex of its shape.
bool tbMinkowskiVertex(const tbMinkowski* mk, int ia, int ib, tbSupportVertex* out);

/// A sphere or capsule (uniform scale) against a triangle, either one A, in closed form
/// (round_triangle.c): the closest points of the core and the triangle, less the radius, as a
/// query result. False when the pair is not such a pair, its numbers are not finite, the triangle
/// has no area, or the core touches or crosses the triangle (GJK/EPA then answer, with the depth).
bool tbRoundTriangleQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                          tbQueryResult* out);

/// Two spheres or capsules (uniform scale) in closed form (round_pair.c): the closest points of
/// their cores, less both radii, as a query result. False when the pair is not such a pair, its
/// numbers are not finite, or the cores touch or cross (GJK/EPA then answer, with the depth).
bool tbRoundPairQuery(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                      tbQueryResult* out);

/// tbQueryShapesLocal (tbQueryShapesChecked when `checked`) with the pair's cache (may be null):
/// GJK starts from the simplex it holds (tb_satSimplex) and leaves its last one there; a cache
/// holding anything else is replaced.
tbQueryResult tbQueryShapesWarm(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                const tbQueryDef* def, bool checked, tbSatCache* cache);

/// tbQueryShapesLocal for shapes the caller has checked already (a world's shapes, validated when
/// they were made; a level's triangles, checked when it was built): the pose is still checked, the
/// shapes are not checked again on every call.
tbQueryResult tbQueryShapesChecked(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                   const tbQueryDef* def);

/// Fill mk for shapes a and b with B at bInA (cores off, no margin, scale L of
/// docs/query-format.md).
void tbMinkowski_Init(tbMinkowski* mk, const tbGeometry* a, const tbGeometry* b, tbTransform bInA);

/// tbMinkowski_Init with the pair scale L already known (the queries compute it once).
void tbMinkowski_InitScaled(tbMinkowski* mk, const tbGeometry* a, const tbGeometry* b,
                            tbTransform bInA, float scale);

/// GJK simplex: 0..4 vertices and the barycentric weights of the closest point.
typedef struct tbSimplex
{
	tbSupportVertex v[4];
	float lambda[4];
	int count;
} tbSimplex;

/// Replace the simplex by the smallest sub-simplex holding the point closest to the origin; return
/// that point. A tetrahedron that holds the origin stays whole and returns (0, 0, 0).
vec3s tbSimplex_Solve(tbSimplex* simplex, float volumeTolerance);

/// Witness points of the simplex's closest point.
void tbSimplex_Witness(const tbSimplex* simplex, vec3s* pointA, vec3s* pointB);

/// Closest point of triangle abc to the origin, with barycentric weights (Ericson 5.1.5).
vec3s tbClosestOnTriangle(vec3s a, vec3s b, vec3s c, float lambda[3]);

typedef enum tbGjkOutcome
{
	tb_gjkSeparated, ///< converged with the origin outside (distance = |v|)
	tb_gjkOverlap,   ///< a tetrahedron holds the origin, or |v| fell below the precision floor
	tb_gjkEarlyHit,  ///< boolean mode: |v| <= hitDistance
	tb_gjkEarlyMiss, ///< boolean mode: a support plane proves distance > hitDistance
} tbGjkOutcome;

typedef struct tbGjkOutput
{
	tbGjkOutcome outcome;
	tbQueryStatus status;
	vec3s v;          ///< closest point of A - B to the origin (A's frame)
	float distance;   ///< |v|: an upper bound on the distance
	float lowerBound; ///< best support-plane bound: the distance is at least this
	int iterations;
	tbSimplex simplex;
	/// The support along -v when the loop stopped on its convergence test (the witness choice
	/// needs exactly that pair); lastValid is false otherwise.
	tbSupportVertex last;
	bool lastValid;
} tbGjkOutput;

/// GJK on mk. `hitDistance` < 0 runs a full distance query; >= 0 is the boolean mode that stops as
/// soon as the distance is known to be <= or > hitDistance.
void tbGjk(const tbMinkowski* mk, float hitDistance, int maxIterations, const tbQueryDef* def,
           tbGjkOutput* out);

/// The result of an expanding-polytope run in A's frame, before the margin is taken off.
typedef struct tbPolytopeResult
{
	bool inside;    ///< the origin is inside the (inflated) difference
	float distance; ///< depth when inside, distance when outside (both >= 0 up to noise)
	vec3s normal;   ///< from A towards B
	vec3s pointA, pointB;
	tbQueryStatus status;
	int iterations;
	bool failed; ///< no answer at all (unified EPA's start had no volume): the fields are defaults
} tbPolytopeResult;

/// EPA seeded by a GJK simplex that holds the origin (Casalino 2021 sec. 3; the EPA article).
void tbEpa(const tbMinkowski* mk, const tbSimplex* simplex, int maxIterations,
           const tbQueryDef* def, tbPolytopeResult* out);

/// Unified EPA from a small tetrahedron around an interior point (Linneweber 2021).
void tbUnifiedEpa(const tbMinkowski* mk, int maxIterations, const tbQueryDef* def,
                  tbPolytopeResult* out);

/// Bodies of revolution about one axis through the origin of A - B (seen from the shapes, cores
/// as mk uses them): the depth by EPA in 2D on the meridian section. False (out untouched) when the
/// pair is not coaxial to the tolerance, has a margin, or the origin is not clearly inside.
bool tbRevolvedPenetration(const tbMinkowski* mk, const tbQueryDef* def, tbPolytopeResult* out);

// Default convergence tolerance of GJK (support plane to simplex) and EPA (closest face to the
// support along its normal), relative to the pair scale (docs/narrowphase.md, Tolerances). Float
// support points carry ~1e-7 L of noise: ten times that is as tight as float allows.
#define TB_DEFAULT_TOLERANCE 1e-6f
// A plateau of equally deep directions (a ring, a cap) is accepted at this gap, relative to L,
// once EPA has run this many iterations (tbPolytope_Solve).
#define TB_EPA_GAP_MAX 5e-5f
#define TB_EPA_RELAX_AFTER 16

// The expanding polytope shared by EPA and unified EPA.
#define TB_POLY_MAX_VERTICES 192
#define TB_POLY_MAX_FACES 512

typedef struct tbPolyFace
{
	int v[3];       ///< vertex ids, counter-clockwise seen from outside
	int adj[3];     ///< neighbour across edge e = (v[e], v[e+1])
	int adjEdge[3]; ///< that edge's index in the neighbour
	vec3s n;        ///< outward unit normal (raw cross product when degenerate)
	float dist;     ///< signed distance of the plane from the origin
	bool alive;
	bool valid; ///< false for slivers whose normal cannot be trusted
} tbPolyFace;

typedef struct tbPolytope
{
	tbSupportVertex vertices[TB_POLY_MAX_VERTICES];
	tbPolyFace faces[TB_POLY_MAX_FACES];
	/// faces[k].dist when face k is alive and valid, FLT_MAX otherwise: the closest-face scan
	/// reads one packed float per face instead of three fields of a face.
	float closestKey[TB_POLY_MAX_FACES];
	int vertexCount;
	int faceCount;
	int freeFaces[TB_POLY_MAX_FACES];
	int freeCount;
	float areaTolerance; ///< |cross|: below it a face is a sliver
} tbPolytope;

/// The alive, trusted face nearest the origin (smallest signed plane distance), or -1.
int tbPolytope_ClosestFace(const tbPolytope* poly, float* distance);

/// Start a polytope as the tetrahedron of four vertices; false if it is flat.
bool tbPolytope_InitTetrahedron(tbPolytope* poly, const tbSupportVertex v[4]);

/// Add vertex w seen from face `start` (which must see it): remove every face that sees it and
/// close the hole with a fan to w. Returns false (polytope unchanged) when full or inconsistent.
bool tbPolytope_Expand(tbPolytope* poly, int start, const tbSupportVertex* w, float visibleTol);

/// Witness points for normal n from the closest face's barycentric pair (fa, fb) and the
/// support pair along n (sa, sb); tol is the plane tolerance, metres.
void tbChooseWitness(const tbMinkowski* mk, vec3s n, vec3s fa, vec3s fb, vec3s sa, vec3s sb,
                     float tol, vec3s* pointA, vec3s* pointB);

/// Send the polytope to the trace callback.
void tbPolytope_Trace(const tbPolytope* poly, const tbQueryDef* def, tbTraceStage stage,
                      int iteration, vec3s direction, vec3s support, float distance);

/// False when w is already a vertex (by position: an inflated difference repeats feature pairs).
bool tbPolytope_IsNewVertex(const tbPolytope* poly, const tbSupportVertex* w);

/// Expand the polytope towards the boundary of A - B nearest the origin, whether the origin is
/// inside (EPA) or outside (GJK-like), until the support plane is within tolerance or a cap.
void tbPolytope_Solve(const tbMinkowski* mk, tbPolytope* poly, int maxIterations,
                      const tbQueryDef* def, tbTraceStage stage, tbPolytopeResult* out);

/// Face f, or a coplanar neighbour at the same distance whose triangle holds *p (for witnesses);
/// failing both, the face through which the ray along *p leaves the polytope, with *p moved to
/// where it does.
int tbPolytope_FaceHolding(const tbPolytope* poly, int f, vec3s* p, float planeTol);

/// Barycentric witness points of face f at its point p.
void tbPolytope_Witness(const tbPolytope* poly, int f, vec3s p, vec3s* pointA, vec3s* pointB);
