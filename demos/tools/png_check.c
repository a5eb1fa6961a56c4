// png_check: is a screenshot a real picture? Checks the spread of brightness, the number of
// distinct colours, for each --color that enough pixels have that colour's hue and, for each
// --near, that enough pixels are close to that colour (greys such as the ground have no hue).
// Prints what it measured; exit status 0 when every check passes.
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

typedef struct pcColor
{
	float rgb[3];
	float minFraction; // of all pixels
	float tolerance;   // hue difference, degrees
	float saturation;  // least saturation (HSV) of a matching pixel
	float distance;    // --near: largest RGB distance (0..1 per channel); 0 for a hue check
} pcColor;

// Hue in degrees and saturation (HSV). Shading scales a colour and blending with a grey backdrop
// lowers its saturation, but both keep its hue: the hue identifies a shape's colour.
static void pcHue(const float rgb[3], float* hue, float* saturation)
{
	float mx = fmaxf(rgb[0], fmaxf(rgb[1], rgb[2]));
	float mn = fminf(rgb[0], fminf(rgb[1], rgb[2]));
	float c = mx - mn;
	*saturation = mx > 0.0f ? c / mx : 0.0f;
	if (c <= 0.0f) {
		*hue = 0.0f;
	} else if (mx == rgb[0]) {
		*hue = 60.0f * fmodf((rgb[1] - rgb[2]) / c + 6.0f, 6.0f);
	} else if (mx == rgb[1]) {
		*hue = 60.0f * ((rgb[2] - rgb[0]) / c + 2.0f);
	} else {
		*hue = 60.0f * ((rgb[0] - rgb[1]) / c + 4.0f);
	}
}

int main(int argc, char** argv)
{
	if (argc < 2) {
		fprintf(stderr,
		        "usage: png_check FILE.png [--color r,g,b[,fraction[,degrees[,saturation]]]]...\n"
		        "                          [--near r,g,b[,fraction[,distance]]]...\n");
		return 2;
	}
	pcColor colors[16];
	int colorCount = 0;
	for (int i = 2; i < argc; ++i) {
		if (strcmp(argv[i], "--color") == 0 && i + 1 < argc && colorCount < 16) {
			pcColor c = {{0, 0, 0}, 0.001f, 12.0f, 0.25f, 0.0f};
			int n = sscanf(argv[++i], "%f,%f,%f,%f,%f,%f", &c.rgb[0], &c.rgb[1], &c.rgb[2],
			               &c.minFraction, &c.tolerance, &c.saturation);
			if (n < 3) {
				fprintf(stderr, "png_check: bad --color '%s'\n", argv[i]);
				return 2;
			}
			colors[colorCount++] = c;
		} else if (strcmp(argv[i], "--near") == 0 && i + 1 < argc && colorCount < 16) {
			pcColor c = {{0, 0, 0}, 0.01f, 0.0f, 0.0f, 0.05f};
			int n = sscanf(argv[++i], "%f,%f,%f,%f,%f", &c.rgb[0], &c.rgb[1], &c.rgb[2],
			               &c.minFraction, &c.distance);
			if (n < 3 || !(c.distance > 0.0f)) {
				fprintf(stderr, "png_check: bad --near '%s'\n", argv[i]);
				return 2;
			}
			colors[colorCount++] = c;
		} else {
			fprintf(stderr, "png_check: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	int width = 0, height = 0, channels = 0;
	unsigned char* pixels = stbi_load(argv[1], &width, &height, &channels, 3);
	if (pixels == NULL) {
		printf("cannot read '%s' as an image\n", argv[1]);
		return 1;
	}
	long total = (long)width * height;
	double sum = 0.0, sum2 = 0.0;
	static unsigned char seen[4096]; // 4 bits per channel
	int distinct = 0;
	long* matches = calloc((size_t)(colorCount > 0 ? colorCount : 1), sizeof(long));
	float targets[16];
	for (int c = 0; c < colorCount; ++c) {
		float saturation;
		pcHue(colors[c].rgb, &targets[c], &saturation);
	}
	for (long p = 0; p < total; ++p) {
		const unsigned char* px = pixels + 3 * p;
		double luma = 0.2126 * px[0] + 0.7152 * px[1] + 0.0722 * px[2];
		sum += luma;
		sum2 += luma * luma;
		int bin = (px[0] >> 4) << 8 | (px[1] >> 4) << 4 | (px[2] >> 4);
		if (!seen[bin]) {
			seen[bin] = 1;
			++distinct;
		}
		float rgb[3] = {px[0] / 255.0f, px[1] / 255.0f, px[2] / 255.0f}, hue, saturation;
		for (int c = 0; c < colorCount && matches != NULL; ++c) {
			if (colors[c].distance > 0.0f) {
				float dr = rgb[0] - colors[c].rgb[0], dg = rgb[1] - colors[c].rgb[1],
				      db = rgb[2] - colors[c].rgb[2];
				matches[c] += sqrtf(dr * dr + dg * dg + db * db) <= colors[c].distance ? 1 : 0;
			}
		}
		pcHue(rgb, &hue, &saturation);
		// Greys (ground, panels) and very dark pixels have no reliable hue.
		if (saturation < 0.25f || fmaxf(rgb[0], fmaxf(rgb[1], rgb[2])) < 0.15f) {
			continue;
		}
		for (int c = 0; c < colorCount && matches != NULL; ++c) {
			if (colors[c].distance > 0.0f) {
				continue;
			}
			float d = fabsf(hue - targets[c]);
			d = fminf(d, 360.0f - d);
			matches[c] += d <= colors[c].tolerance && saturation >= colors[c].saturation ? 1 : 0;
		}
	}
	double mean = sum / (double)total;
	double deviation = sqrt(fmax(0.0, sum2 / (double)total - mean * mean));
	bool ok = true;
	printf("%s: %dx%d, brightness mean %.1f, deviation %.1f, %d colour bins\n", argv[1], width,
	       height, mean, deviation, distinct);
	if (deviation < 12.0 || distinct < 24) {
		printf("FAIL: the picture is (nearly) uniform\n");
		ok = false;
	}
	for (int c = 0; c < colorCount && matches != NULL; ++c) {
		double fraction = (double)matches[c] / (double)total;
		bool enough = fraction >= (double)colors[c].minFraction;
		printf("%s: colour (%.2f %.2f %.2f): %.3f%% of the pixels (at least %.3f%%)\n",
		       enough ? "ok" : "FAIL", (double)colors[c].rgb[0], (double)colors[c].rgb[1],
		       (double)colors[c].rgb[2], 100.0 * fraction, 100.0 * (double)colors[c].minFraction);
		ok = ok && enough;
	}
	free(matches);
	stbi_image_free(pixels);
	return ok ? 0 : 1;
}
