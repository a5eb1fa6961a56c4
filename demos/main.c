// tumble-demo: the window, the command line and the frame loop; the GJK/EPA debugger
// (--debugger) and, until the world API lands, a placeholder scene of every shape type.
#include "app.h"
#include "debugger.h"
#include "hud.h"
#include "renderer.h"
#include "screenshot.h"
#include "showcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dmOptions
{
	bool debugger;
	dmDebuggerOptions debug;
	const char* screenshot; // write this PNG after `frames` frames, then exit
	int frames;
	int width, height;
	int samples; // MSAA; software GL (Xvfb) runs about twice as fast without
} dmOptions;

static void dmUsage(FILE* out)
{
	fprintf(out,
	        "usage: tumble-demo [options]\n"
	        "\n"
	        "  --debugger               the GJK/EPA debugger (two shapes, A - B, every iteration)\n"
	        "  --shapes A,B             debugger shape types: box sphere capsule cylinder cone\n"
	        "                           hull triangle (default box,box)\n"
	        "  --algo gjk-epa|uepa      debugger algorithm (default gjk-epa)\n"
	        "  --debugger-step K|last   show recorded step K (0 is the first; default last)\n"
	        "  --screenshot FILE.png    render --frames frames, write the picture, exit\n"
	        "  --frames N               frames before the screenshot (default 3)\n"
	        "  --size WxH               window size in pixels (default 1280x720)\n"
	        "  --samples N              multisampling, 0 to 16 (default 4)\n"
	        "  -h, --help               this text\n"
	        "\n"
	        "Without --debugger a placeholder scene shows every shape type; the scenes of the\n"
	        "world API arrive later.\n");
}

static int dmParseOptions(int argc, char** argv, dmOptions* o)
{
	memset(o, 0, sizeof *o);
	o->debug = dmDefaultDebuggerOptions();
	o->frames = 3;
	o->width = 1280;
	o->height = 720;
	o->samples = 4;
	for (int i = 1; i < argc; ++i) {
		const char* arg = argv[i];
		const char* value = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			dmUsage(stdout);
			return -1;
		} else if (strcmp(arg, "--debugger") == 0) {
			o->debugger = true;
		} else if (value == NULL) {
			fprintf(stderr, "tumble-demo: '%s' needs a value or is unknown (see --help)\n", arg);
			return 2;
		} else if (strcmp(arg, "--shapes") == 0) {
			char a[32] = {0}, b[32] = {0};
			const char* comma = strchr(value, ',');
			size_t la = comma != NULL ? (size_t)(comma - value) : 0;
			if (comma == NULL || la >= sizeof a || strlen(comma + 1) >= sizeof b) {
				fprintf(stderr, "tumble-demo: --shapes: expected A,B, got '%s'\n", value);
				return 2;
			}
			memcpy(a, value, la);
			strcpy(b, comma + 1);
			if (!dmParseShapeType(a, &o->debug.typeA) || !dmParseShapeType(b, &o->debug.typeB)) {
				fprintf(stderr, "tumble-demo: --shapes: unknown type in '%s'\n", value);
				return 2;
			}
			++i;
		} else if (strcmp(arg, "--algo") == 0) {
			if (strcmp(value, "gjk-epa") == 0) {
				o->debug.algorithm = tb_algorithmGjkEpa;
			} else if (strcmp(value, "uepa") == 0) {
				o->debug.algorithm = tb_algorithmUnifiedEpa;
			} else {
				fprintf(stderr, "tumble-demo: --algo: expected gjk-epa or uepa, got '%s'\n", value);
				return 2;
			}
			++i;
		} else if (strcmp(arg, "--debugger-step") == 0) {
			char* end = NULL;
			long k = strtol(value, &end, 10);
			if (strcmp(value, "last") == 0) {
				o->debug.step = -1;
			} else if (end != value && *end == '\0' && k >= 0 && k < 100000) {
				o->debug.step = (int)k;
			} else {
				fprintf(stderr, "tumble-demo: --debugger-step: expected K >= 0 or last, got '%s'\n",
				        value);
				return 2;
			}
			++i;
		} else if (strcmp(arg, "--screenshot") == 0) {
			o->screenshot = value;
			++i;
		} else if (strcmp(arg, "--frames") == 0) {
			char* end = NULL;
			long n = strtol(value, &end, 10);
			if (end == value || *end != '\0' || n < 1 || n > 1000000) {
				fprintf(stderr, "tumble-demo: --frames: expected N >= 1, got '%s'\n", value);
				return 2;
			}
			o->frames = (int)n;
			++i;
		} else if (strcmp(arg, "--samples") == 0) {
			char* end = NULL;
			long n = strtol(value, &end, 10);
			if (end == value || *end != '\0' || n < 0 || n > 16) {
				fprintf(stderr, "tumble-demo: --samples: expected 0 to 16, got '%s'\n", value);
				return 2;
			}
			o->samples = (int)n;
			++i;
		} else if (strcmp(arg, "--size") == 0) {
			if (sscanf(value, "%dx%d", &o->width, &o->height) != 2 || o->width < 64 ||
			    o->height < 64 || o->width > 8192 || o->height > 8192) {
				fprintf(stderr, "tumble-demo: --size: expected WxH (64 to 8192), got '%s'\n",
				        value);
				return 2;
			}
			++i;
		} else {
			fprintf(stderr, "tumble-demo: unknown option '%s' (see --help)\n", arg);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char** argv)
{
	dmOptions o;
	int status = dmParseOptions(argc, argv, &o);
	if (status != 0) {
		return status < 0 ? 0 : status;
	}
	dmApp app;
	char error[512];
	// Screenshots measure the frame time: no vsync to wait for.
	if (!dmApp_Open(&app, o.debugger ? "Tumble: GJK/EPA debugger" : "Tumble", o.width, o.height,
	                o.screenshot == NULL, o.samples, error, sizeof error)) {
		fprintf(stderr, "tumble-demo: %s\n", error);
		return 1;
	}
	if (!dmRenderer_Init() || !dmHud_Init()) {
		fprintf(stderr, "tumble-demo: cannot set up the renderer\n");
		dmApp_Close(&app);
		return 1;
	}
	dmDebugger* debugger = o.debugger ? dmDebugger_Create(&o.debug) : NULL;
	dmShowcase* showcase = o.debugger ? NULL : dmShowcase_Create();
	if (debugger == NULL && showcase == NULL) {
		fprintf(stderr, "tumble-demo: out of memory\n");
		dmHud_Shutdown();
		dmRenderer_Shutdown();
		dmApp_Close(&app);
		return 1;
	}

	int exitCode = 0;
	int frame = 0;
	double previous = glfwGetTime();
	double measuredStart = 0.0;
	float frameMs = 0.0f;
	while (dmApp_BeginFrame(&app)) {
		double now = glfwGetTime();
		// Screenshots are of a fixed moment: a constant step keeps them reproducible.
		float dt = o.screenshot != NULL ? 1.0f / 60.0f : (float)(now - previous);
		frameMs = 0.9f * frameMs + 0.1f * (float)(1000.0 * (now - previous));
		previous = now;
		if (frame == 1) {
			measuredStart = now; // frame 0 pays for shader compilation
		}
		dmRenderer_Clear(app.fbWidth, app.fbHeight);
		if (debugger != NULL) {
			dmDebugger_Update(debugger, &app, dt);
			dmDebugger_Draw(debugger, app.fbWidth, app.fbHeight);
		} else {
			dmShowcase_Update(showcase, &app, dt);
			dmShowcase_Draw(showcase, app.fbWidth, app.fbHeight, frameMs);
		}
		if (o.screenshot != NULL && frame + 1 >= o.frames) {
			glFinish();
			double elapsed = glfwGetTime() - measuredStart;
			if (frame >= 1) {
				printf("tumble-demo: %d frames at %dx%d, mean frame time %.2f ms\n", frame,
				       app.fbWidth, app.fbHeight, 1000.0 * elapsed / (double)frame);
			}
			if (debugger != NULL) {
				char line[256];
				dmDebugger_Describe(debugger, line, sizeof line);
				printf("tumble-demo: debugger %s\n", line);
			}
			exitCode = dmWriteScreenshot(o.screenshot, app.fbWidth, app.fbHeight) ? 0 : 1;
			if (exitCode == 0) {
				printf("tumble-demo: wrote %s\n", o.screenshot);
			}
			break;
		}
		dmApp_EndFrame(&app);
		++frame;
	}
	dmDebugger_Destroy(debugger);
	dmShowcase_Destroy(showcase);
	dmHud_Shutdown();
	dmRenderer_Shutdown();
	dmApp_Close(&app);
	return exitCode;
}
