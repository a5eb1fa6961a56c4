// Screenshots: the framebuffer written as a PNG (stb_image_write).
#pragma once

#include <stdbool.h>

/// Read the back buffer (call before swapping) and write it to `path` as an RGB PNG.
bool dmWriteScreenshot(const char* path, int width, int height);

/// The path of the next F12 screenshot, "screenshots/tumble_N.png" under the working directory
/// (made if missing), N the first number not taken. False (and a message) when the folder cannot
/// be made.
bool dmNextScreenshotPath(char* path, int size);
