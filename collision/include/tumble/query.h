// Narrow-phase queries between two convex shapes: overlap test, distance, penetration.
// GJK (Casalino 2021 sec. 2), EPA (Casalino 2021 sec. 3; the EPA article) and unified EPA
// (Linneweber 2021).
#pragma once

#include "tumble/base.h"
#include "tumble/geometry.h"
#include "tumble/transform.h"

/// How a query ended.
typedef enum tbQueryStatus
{
	tb_queryConverged = 0, ///< the tolerance was met
	tb_queryIterationCap,  ///< an iteration cap was hit; the best answer so far is returned
	tb_queryDegenerate,    ///< a degenerate simplex/polytope stopped the loop; best answer returned
	tb_queryFallback,      ///< the primary algorithm failed and a fallback produced the answer
	tb_queryInvalidInput,  ///< NaN/Inf or an invalid shape: nothing computed, hit = false
} tbQueryStatus;

/// Which algorithm answers the full query.
typedef enum tbQueryAlgorithm
{
	tb_algorithmGjkEpa = 0, ///< GJK distance, then EPA only when the shapes overlap
	tb_algorithmUnifiedEpa, ///< one expanding polytope for both cases (Linneweber 2021)
} tbQueryAlgorithm;

/// What one iteration of a query did (for the GJK/EPA debugger).
typedef enum tbTraceStage
{
	tb_traceGjk,
	tb_traceEpa,
	tb_traceUnifiedEpa
} tbTraceStage;

/// One recorded iteration. Points are in A's local frame (Minkowski difference A - B).
typedef struct tbTraceStep
{
	tbTraceStage stage;
	int iteration;
	vec3s direction;  ///< search direction of this iteration
	vec3s support;    ///< support point of A - B along direction
	int simplexCount; ///< GJK: 1..4 simplex points in `simplex`
	vec3s simplex[4];
	int triangleCount;     ///< EPA/UEPA: polytope triangles in `triangles` (3 indices each)
	const int* triangles;  ///< valid only during the callback
	const vec3s* vertices; ///< polytope vertices, valid only during the callback
	int vertexCount;
	float distance; ///< current distance (GJK) or closest face distance (EPA)
	/// GJK only: the simplex the loop ended with, after `iteration` iterations (the count the
	/// result reports); it takes no support of its own. Iterations are numbered 1, 2, ... with no
	/// gaps. Spheres and capsules are traced as their cores (a point, a segment): see
	/// tbGeometry_CoreRadius.
	bool last;
} tbTraceStep;

/// Called once per iteration when a trace is set; must not call back into the query.
typedef void tbTraceFcn(const tbTraceStep* step, void* context);

/// Options of a query. Start from tbDefaultQueryDef().
typedef struct tbQueryDef
{
	tbQueryAlgorithm algorithm;
	int maxGjkIterations; ///< cap of the GJK loop
	int maxEpaIterations; ///< cap of the EPA / UEPA loop
	/// Convergence tolerance relative to the pair scale L (the two bounding radii plus the centre
	/// distance): GJK stops when its support plane is this close, EPA when the closest face is.
	/// The default, 1e-6, is as tight as float allows. Contacts for a game rarely need more than
	/// 1e-4 (Bullet's float accuracy), which needs fewer iterations (docs/figures.md has the
	/// speed-up). Valid: 1e-7 to 1e-2.
	float tolerance;
	tbTraceFcn* traceFcn; ///< optional per-iteration recorder
	void* traceContext;
} tbQueryDef;

/// The default options: GJK then EPA, 64 iterations each, tolerance 1e-6 of the pair scale.
TB_API tbQueryDef tbDefaultQueryDef(void);

/// The one result of every query.
typedef struct tbQueryResult
{
	/// Signed distance, metres: the distance when apart, minus the penetration depth when
	/// overlapping.
	float distance;
	vec3s normal; ///< unit, from A towards B
	vec3s pointA; ///< witness point on A; pointB - pointA = distance * normal
	vec3s pointB; ///< witness point on B
	bool hit;     ///< true when touching or overlapping
	tbQueryStatus status;
	int gjkIterations;
	int epaIterations;
} tbQueryResult;

/// GJK boolean test (Casalino 2021 Algorithm 2, the "simple query"). True when the shapes overlap.
TB_API bool tbTestOverlap(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                          tbTransform xfB, tbQueryStatus* status);

/// GJK distance and closest points (Casalino 2021 sec. 2.2). When the shapes overlap the distance
/// is reported as 0 with hit = true and no normal (use tbQueryShapes for the depth).
TB_API tbQueryResult tbShapeDistance(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                     tbTransform xfB, const tbQueryDef* def);

/// The complex query: GJK, then EPA (or unified EPA, per def) only when needed. Results in world.
TB_API tbQueryResult tbQueryShapes(const tbGeometry* a, tbTransform xfA, const tbGeometry* b,
                                   tbTransform xfB, const tbQueryDef* def);

/// The same query with B given in A's local frame; results are in A's local frame. This is what the
/// others call after forming the relative pose; use it directly when poses are held in double.
TB_API tbQueryResult tbQueryShapesLocal(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                        const tbQueryDef* def);

/// Boolean test with B in A's frame.
TB_API bool tbTestOverlapLocal(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                               tbQueryStatus* status);

/// Name of a status ("converged", "iteration cap", ...).
TB_API const char* tbQueryStatusName(tbQueryStatus status);
