// The demo's simulation: a world built from a scene (a scene file or one built in), stepped at a
// fixed rate, with mouse picking, thrown boxes and an energy history. GL-free: it also runs
// headless.
#pragma once

#include <stdio.h>
#include <tumble/scene.h>
#include <tumble/tumble.h>

/// Steps of kinetic energy and momentum kept for the live plot (5 s at 60 Hz).
#define DM_HISTORY 300
/// Built-in scenes and bundled scene files listed in the picker, at most.
#define DM_MAX_SCENES 32

/// One entry of the scene picker.
typedef struct dmSceneEntry
{
	char name[64];  ///< "falling_boxes", "pyramid", ...
	char path[512]; ///< a scene file, or "" for a built-in scene
	int builtin;    ///< which built-in scene when path is ""
} dmSceneEntry;

/// The built-in scenes first (falling boxes is entry 0), then the bundled scene files by name.
/// Returns how many were written.
int dmListScenes(dmSceneEntry* entries, int capacity);

/// Find a scene by name (built-in or bundled) or open a scene file by path.
bool dmFindSceneEntry(const char* nameOrPath, dmSceneEntry* entry, char* error, int errorSize);

typedef struct dmSim
{
	dmSceneEntry entry;
	tbWorldId worldId;
	tbBodyId* bodies;     ///< every body of the scene, then thrown boxes
	vec3s* startPosition; ///< of each body, for the headless summary's displacement
	int bodyCount, bodyCapacity;
	tbHull hull; ///< the hull of the built-in shapes scene (file scenes own theirs)
	bool ownsHull;
	tbScene scene; ///< a scene file's world and hulls (fromFile)
	bool fromFile;
	float dt; ///< fixed step, s
	int substeps;
	int steps; ///< how long a headless run lasts

	bool paused;
	int stepRequests; ///< single steps asked for while paused
	double accumulator;
	float stepMs; ///< the last step's time, smoothed
	int stepCount;
	int thrownCount;

	float energy[DM_HISTORY];   ///< kinetic energy, J, ring buffer
	float momentum[DM_HISTORY]; ///< |linear momentum|, kg m/s
	int historyHead, historyCount;

	tbBodyId picked;  ///< null when nothing is held
	vec3s pickLocal;  ///< the held point in the body frame
	vec3s pickTarget; ///< where the mouse pulls it, world
	float pickSavedDamping;
	/// Squared radii of gyration of the held body (I / m about its centre), the smallest and the
	/// mean of the three axes, m^2: they set how stiff the spring may be and how it damps a swing.
	float pickGyrationMin2, pickGyrationMean2;
} dmSim;

/// Build the scene's world. On failure writes one line into `error`.
bool dmSim_Load(dmSim* sim, const dmSceneEntry* entry, char* error, int errorSize);
void dmSim_Destroy(dmSim* sim);

/// Rebuild the scene as it started (pause state kept).
bool dmSim_Reset(dmSim* sim, char* error, int errorSize);

/// Take one fixed step now (pick spring, step, history).
void dmSim_Step(dmSim* sim);

/// Advance by a frame of `frameSeconds`: as many fixed steps as fit (at most 4, so a slow frame
/// cannot snowball), or the single steps asked for while paused. Returns the steps taken.
int dmSim_Advance(dmSim* sim, double frameSeconds);

/// Throw a box from `origin` along the unit `direction`.
void dmSim_ThrowBox(dmSim* sim, vec3s origin, vec3s direction);

/// Grab the dynamic body first hit by the ray; returns the hit distance along it, or -1.
float dmSim_Pick(dmSim* sim, vec3s origin, vec3s direction, float maxDistance);
void dmSim_Release(dmSim* sim);

/// The held point in the world (valid while a body is held).
vec3s dmSim_PickPoint(const dmSim* sim);

/// Kinetic energy (J) and linear momentum (kg m/s) of every dynamic body.
void dmSim_Energy(const dmSim* sim, float* kinetic, vec3s* momentum);

/// Run `steps` fixed steps as fast as possible and print the `tumble run` summary (a line of
/// text, then the same JSON object as `tumble run --json`).
void dmSim_RunHeadless(dmSim* sim, int steps, FILE* out);
