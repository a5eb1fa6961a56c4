// The 3D renderer: instanced meshes with a directional light and shadows, a ground grid, a sky
// gradient, thin lines; drawing is queued per view and flushed by dmRenderer_End.
#pragma once

#include "shape_mesh.h"

#include <tumble/tumble.h>

/// A viewport and its camera. `focus` and `focusRadius` bound what the shadow map covers.
typedef struct dmView
{
	int x, y, width, height; ///< framebuffer pixels, origin bottom left
	mat4s view, projection;
	vec3s eye;
	vec3s focus;
	float focusRadius;
	bool sky;    ///< draw the sky gradient (else a flat backdrop)
	bool ground; ///< draw the ground plane with its grid at y = groundY
	float groundY;
} dmView;

bool dmRenderer_Init(void);

/// Compile and link a GLSL program (errors go to stderr); 0 on failure. Shared with the HUD.
unsigned dmLinkProgram(const char* vertexSource, const char* fragmentSource);
void dmRenderer_Shutdown(void);

/// Upload a mesh; returns its handle (>= 0) or -1.
int dmRenderer_CreateMesh(const dmMeshData* data);
/// Replace a mesh's triangles (the debugger's Minkowski difference changes with the poses).
void dmRenderer_UpdateMesh(int mesh, const dmMeshData* data);

/// Free a mesh's slot (scene meshes go when the scene changes).
void dmRenderer_DestroyMesh(int mesh);

/// Built-in meshes: a unit sphere, a unit cylinder from y = 0 to 1 (for segments) and a cone
/// from y = 0 to 1 (arrow heads).
int dmRenderer_SphereMesh(void);

/// Clear the whole framebuffer (call once per frame).
void dmRenderer_Clear(int width, int height);

/// Start a view: its viewport, camera, sky.
void dmRenderer_Begin(const dmView* view);

/// Queue an instance of a mesh; colours with alpha < 1 are drawn blended after the opaque ones.
void dmRenderer_Mesh(int mesh, mat4s model, vec4s color);
void dmRenderer_Point(vec3s p, float radius, vec4s color);
void dmRenderer_Segment(vec3s a, vec3s b, float radius, vec4s color);
void dmRenderer_Arrow(vec3s from, vec3s to, float radius, vec4s color);
/// A one-pixel line.
void dmRenderer_Line(vec3s a, vec3s b, vec4s color);

/// Draw everything queued for this view: shadow pass, opaque, ground, lines, transparent.
void dmRenderer_End(void);

/// A model matrix from a transform (the shape's local frame to world).
mat4s dmModelMatrix(tbTransform xf);
