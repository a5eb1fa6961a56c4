// Screen-space text and panels (stb_easy_font) drawn over the 3D views.
#pragma once

#include <tumble/tumble.h>

bool dmHud_Init(void);
void dmHud_Shutdown(void);

/// Start a frame of HUD drawing for a framebuffer of the given size; `scale` enlarges the
/// 7-pixel font (2 is readable on most screens).
void dmHud_Begin(int width, int height, float scale);

/// Text at (x, y) pixels from the top left (one unscaled line is 12 pixels tall before `scale`).
/// '\n' starts a new line.
void dmHud_Text(float x, float y, const char* text, vec4s color);

/// Size of a text block in pixels, scale included.
void dmHud_Measure(const char* text, float* width, float* height);

/// Break the lines of `text` in place, at spaces, so that none is wider than `maxWidth` pixels
/// (scale included); a word wider than that stays whole on its own line.
void dmHud_Wrap(char* text, float maxWidth);
/// A filled rectangle, pixels from the top left.
void dmHud_Rect(float x, float y, float width, float height, vec4s color);

/// Text on a dark translucent panel that fits it.
void dmHud_Panel(float x, float y, const char* text, vec4s color);

/// Draw everything queued this frame.
void dmHud_End(void);
