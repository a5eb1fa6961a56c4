// The window: a GLFW window with a GL 3.3 core context, and the input of one frame.
#pragma once

#include "gl.h"

#include <stdbool.h>

#define DM_MAX_KEY_EVENTS 32

typedef struct dmKeyEvent
{
	int key;  ///< GLFW_KEY_*
	int mods; ///< GLFW_MOD_* bits
} dmKeyEvent;

typedef struct dmApp
{
	GLFWwindow* window;
	int fbWidth, fbHeight; ///< framebuffer, pixels
	float pixelRatio;      ///< framebuffer pixels per window coordinate
	float mouseX, mouseY;  ///< cursor, framebuffer pixels from the top left
	float dragX, dragY;    ///< cursor motion this frame, pixels
	bool buttons[3];       ///< left, right, middle held
	float scroll;          ///< wheel steps this frame
	dmKeyEvent keys[DM_MAX_KEY_EVENTS];
	int keyCount; ///< key presses (and repeats) this frame
} dmApp;

/// Open the window with `samples` MSAA samples (0 for none). On failure (no display, no GL 3.3)
/// writes one line into `error`.
bool dmApp_Open(dmApp* app, const char* title, int width, int height, bool vsync, int samples,
                char* error, int errorSize);
void dmApp_Close(dmApp* app);

/// Poll events; false when the window should close.
bool dmApp_BeginFrame(dmApp* app);

/// Show the frame.
void dmApp_EndFrame(dmApp* app);

/// True while a key is held.
bool dmApp_KeyDown(const dmApp* app, int key);
