// Screenshots: glReadPixels of the back buffer, flipped to top-down rows, saved by stb_image_write.
#define _POSIX_C_SOURCE 200809L // mkdir, stat

#include "screenshot.h"

#include "gl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <sys/stat.h>

#include <stb_image_write.h>

bool dmNextScreenshotPath(char* path, int size)
{
	// In the working directory, never in the source tree by accident: `screenshots/` is ignored by
	// the repository's .gitignore.
	if (mkdir("screenshots", 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "tumble-demo: cannot make the folder screenshots/\n");
		return false;
	}
	struct stat info;
	for (int n = 1; n <= 100000; ++n) {
		snprintf(path, (size_t)size, "screenshots/tumble_%d.png", n);
		if (stat(path, &info) != 0) {
			return true;
		}
	}
	fprintf(stderr, "tumble-demo: screenshots/ is full\n");
	return false;
}

bool dmWriteScreenshot(const char* path, int width, int height)
{
	if (width <= 0 || height <= 0) {
		return false;
	}
	size_t row = 3 * (size_t)width;
	unsigned char* pixels = malloc(row * (size_t)height);
	unsigned char* flipped = malloc(row * (size_t)height);
	if (pixels == NULL || flipped == NULL) {
		free(pixels);
		free(flipped);
		return false;
	}
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadBuffer(GL_BACK);
	glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels);
	// GL's rows run bottom-up, PNG's top-down.
	for (int y = 0; y < height; ++y) {
		memcpy(flipped + row * (size_t)y, pixels + row * (size_t)(height - 1 - y), row);
	}
	int ok = stbi_write_png(path, width, height, 3, flipped, (int)row);
	free(pixels);
	free(flipped);
	if (!ok) {
		fprintf(stderr, "tumble-demo: cannot write '%s'\n", path);
	}
	return ok != 0;
}
