// An orbit camera: yaw and pitch about a target point at a distance; mouse drag turns, scroll
// zooms.
#pragma once

#include <tumble/tumble.h>

typedef struct dmCamera
{
	vec3s target;   ///< the point orbited, metres
	float yaw;      ///< about +y, radians; 0 looks along -z
	float pitch;    ///< above the horizon, radians
	float distance; ///< from the target, metres
	float fovY;     ///< vertical field of view, radians
} dmCamera;

dmCamera dmDefaultCamera(void);

/// Eye position, world.
vec3s dmCamera_Eye(const dmCamera* camera);

/// View and projection matrices for a viewport of the given aspect ratio (width / height).
mat4s dmCamera_View(const dmCamera* camera);
mat4s dmCamera_Projection(const dmCamera* camera, float aspect);

/// Turn by a mouse drag of (dx, dy) pixels.
void dmCamera_Orbit(dmCamera* camera, float dx, float dy);

/// Zoom by scroll wheel steps (positive: closer).
void dmCamera_Zoom(dmCamera* camera, float steps);

/// World-space offset of a drag of (dx, dy) pixels in the plane facing the camera through the
/// target, for a viewport `height` pixels tall.
vec3s dmCamera_DragOffset(const dmCamera* camera, float dx, float dy, float height);

/// Aim at the centre of the box [lo, hi] from the camera's yaw and pitch, at the smallest distance
/// from which all eight corners are inside a viewport of the given aspect (width / height), with
/// `margin` (0.1: 10 %) to spare.
void dmCamera_Frame(dmCamera* camera, vec3s lo, vec3s hi, float aspect, float margin);
/// The camera's right and up unit vectors, world.
void dmCamera_Axes(const dmCamera* camera, vec3s* right, vec3s* up, vec3s* forward);
