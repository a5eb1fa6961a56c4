// The world view: a running scene drawn with instanced meshes under the orbit camera, its keys and
// mouse (pause, step, reset, throw, pick and drag), the HUD and the live energy plot.
#pragma once

#include "app.h"
#include "camera.h"
#include "sim.h"

#define DM_MESH_CACHE 48

typedef struct dmMeshKey
{
	tbGeometry shape; ///< scale (1, 1, 1): the scale goes into the model matrix
	int mesh;
} dmMeshKey;

typedef struct dmWorldView
{
	dmCamera camera;
	int unitMeshes[4]; ///< box, sphere, cylinder, cone of unit size, scaled per instance
	dmMeshKey cache[DM_MESH_CACHE]; ///< capsules, hulls, triangles: one mesh per geometry
	int cacheCount;
	bool showContacts, showAABBs, help;
	bool showJoints; ///< the world's joint debug draw (anchors, links, hinge axes), on by default
	bool orbiting, picking;
	bool wasDown[3];    ///< mouse buttons held last frame
	float pickDistance; ///< along the mouse ray, m
	bool hasGround;     ///< a large static box is drawn as the grid ground
	float groundY;
	vec3s focus; ///< what the shadow map covers
	float focusRadius;
} dmWorldView;

/// Needs the renderer. False when a mesh cannot be made.
bool dmWorldView_Init(dmWorldView* view);
void dmWorldView_Shutdown(dmWorldView* view);

/// A new scene: forget its meshes and, when `fitCamera`, frame it.
void dmWorldView_SetScene(dmWorldView* view, const dmSim* sim, bool fitCamera);

/// The frame's keys and mouse (the scene switch keys are the caller's). Returns false when the
/// scene had to be rebuilt and failed.
bool dmWorldView_Update(dmWorldView* view, dmSim* sim, dmApp* app);

/// The mouse ray: from the eye through the cursor (framebuffer pixels from the top left).
void dmWorldView_MouseRay(const dmWorldView* view, const dmApp* app, vec3s* origin,
                          vec3s* direction);

/// Draw the scene, the HUD (`title` on its first line) and the plot; `sceneHelp` lists the scene
/// keys in the help overlay.
void dmWorldView_Draw(dmWorldView* view, const dmSim* sim, int width, int height, float frameMs,
                      const char* title, const char* sceneHelp);
