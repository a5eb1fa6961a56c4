// The scene suite's shared types: a scene builds itself in a world through the public API, may act
// before each step, and checks its own quality figures at the end.
#pragma once

#include <stdbool.h>
#include <tumble/tumble.h>

/// Fixed step of every suite scene, s (60 Hz), and its solver substeps.
#define TB_SUITE_DT (1.0f / 60.0f)
#define TB_SUITE_SUBSTEPS 4

/// A tolerance check: the figure, the bound it must stay within, and whether the scene has it.
typedef struct tbSuiteFigure
{
	const char* name; ///< JSON key, e.g. "max_box_drift_m"
	double value;
	double bound; ///< the figure passes when value <= bound
	bool used;
} tbSuiteFigure;

/// The most figures a scene reports.
#define TB_SUITE_MAX_FIGURES 10

/// What a scene found at the end of its run.
typedef struct tbSuiteChecks
{
	tbSuiteFigure figures[TB_SUITE_MAX_FIGURES];
	int figureCount;
} tbSuiteChecks;

/// Add a figure that passes when value <= bound.
void tbSuiteAddFigure(tbSuiteChecks* checks, const char* name, double value, double bound);

/// One scene of the suite. `state` is the scene's own memory, made by create and freed by destroy.
typedef struct tbSuiteScene
{
	const char* name;
	const char* summary;
	int defaultSteps; ///< the step count of the reference benchmark app
	/// Fill the world definition (capacities, sleep) before the world is made; may be null.
	void (*configure)(tbWorldDef* def, float scale);
	/// Build the scene; returns its state (null on failure, with a message on stderr).
	void* (*create)(tbWorldId worldId, float scale);
	/// Called before step `stepIndex` (0 first); may be null.
	void (*step)(void* state, tbWorldId worldId, int stepIndex);
	/// The scene's quality figures after the run (NaN is checked by the driver for every body).
	void (*check)(void* state, tbWorldId worldId, tbSuiteChecks* checks);
	void (*destroy)(void* state);
} tbSuiteScene;

/// Every scene, in the order `--list` prints them.
extern const tbSuiteScene* const tb_suiteScenes[];
/// How many there are.
extern const int tb_suiteSceneCount;

// Scene families (suite_stacks.c, suite_joints.c, suite_trees.c).
extern const tbSuiteScene tb_suiteLargePyramid, tb_suiteManyPyramids, tb_suiteLargeWorld,
    tb_suiteConvexPile, tb_suiteJunkyard, tb_suiteWasher, tb_suiteJointGrid, tb_suiteRain,
    tb_suiteTrees25, tb_suiteTrees50, tb_suiteTrees100;

// Helpers shared by the scene files (suite_main.c).

/// A count scaled by `scale`, at least `minimum`.
int tbSuiteScaled(int count, float scale, int minimum);
/// A vector.
vec3s tbSuiteVec(float x, float y, float z);
/// A static body at `position` with one box of half extents h (its top at position.y + h.y).
tbBodyId tbSuiteStaticBox(tbWorldId worldId, vec3s position, vec3s h);
/// A growable list of body ids (the scene's dynamic bodies, in creation order).
typedef struct tbSuiteBodies
{
	tbBodyId* ids;
	vec3s* start; ///< each body's position when it was added
	int count, capacity;
} tbSuiteBodies;
/// Append a body and remember where it starts; false when memory runs out.
bool tbSuiteBodies_Add(tbSuiteBodies* list, tbBodyId id);
/// Free the list.
void tbSuiteBodies_Free(tbSuiteBodies* list);
/// The largest distance of a listed body from its start, m.
double tbSuiteBodies_MaxDrift(const tbSuiteBodies* list);
/// How many listed bodies have their origin below y, m (a NaN position counts).
int tbSuiteBodies_CountBelow(const tbSuiteBodies* list, float y);
/// How many listed bodies have a position or rotation that is not finite.
int tbSuiteBodies_CountNonFinite(const tbSuiteBodies* list);

/// A joint's anchor as two body-frame points, to measure how far the joint has come apart.
typedef struct tbSuiteAnchor
{
	tbBodyId bodyA, bodyB;
	vec3s localA, localB;
} tbSuiteAnchor;
/// The anchor of a joint made at world point `anchor` between bodies a and b as they are now.
tbSuiteAnchor tbSuiteMakeAnchor(tbBodyId a, tbBodyId b, vec3s anchor);
/// The distance between the anchor's two points in the world, m (0 when a body is gone).
double tbSuiteAnchorGap(const tbSuiteAnchor* anchor);

/// The anchor's gap over its arms |rA| + |rB|, each the distance from its body's centre of mass
/// to the body's anchor point (0 where a body is gone or the arms vanish).
double tbSuiteAnchorGapPerArm(const tbSuiteAnchor* anchor);
