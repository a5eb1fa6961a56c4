// Reading a plot back: whether a PNG has a colour within a pixel of where a value must be drawn,
// and which sample of a series is its largest or smallest (the plot tests check those).
#pragma once

#include <stdbool.h>
#include <stddef.h>

// Whether the RGB picture `png` (w x h) has exactly the colour `rgb` at (px, py) or one of its
// eight neighbours.
static inline bool pngColourNear(const unsigned char* png, int w, int h, int px, int py,
                                 const unsigned char rgb[3])
{
	for (int dy = -1; dy <= 1; ++dy) {
		for (int dx = -1; dx <= 1; ++dx) {
			int x = px + dx, y = py + dy;
			if (x < 0 || y < 0 || x >= w || y >= h) {
				continue;
			}
			const unsigned char* p = png + 3 * ((size_t)y * (size_t)w + (size_t)x);
			if (p[0] == rgb[0] && p[1] == rgb[1] && p[2] == rgb[2]) {
				return true;
			}
		}
	}
	return false;
}

// The index of the largest (max) or smallest sample of v[0 .. n).
static inline int argExtreme(const double* v, int n, bool max)
{
	int best = 0;
	for (int i = 1; i < n; ++i) {
		best = (max ? v[i] > v[best] : v[i] < v[best]) ? i : best;
	}
	return best;
}
