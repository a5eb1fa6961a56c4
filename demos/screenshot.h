// Screenshots: the framebuffer written as a PNG (stb_image_write).
#pragma once

#include <stdbool.h>

/// Read the back buffer (call before swapping) and write it to `path` as an RGB PNG.
bool dmWriteScreenshot(const char* path, int width, int height);
