// tumble-demo: the command line, the window and the frame loop that switches between the scenes
// (the world view) and the GJK/EPA debugger; without a display the scene runs headless.
#include "app.h"
#include "debugger.h"
#include "hud.h"
#include "renderer.h"
#include "screenshot.h"
#include "sim.h"
#include "solver_debugger.h"
#include "world_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dmOptions
{
	bool debugger;
	bool solverDebugger; // the contact solver debugger on the scene (after --steps steps)
	int solverPass;      // the pass it shows first (-1: the first push)
	bool headless;       // run the scene without a window even when a display exists
	bool listScenes;
	const char* scene; // a scene file or a bundled name; falling boxes by default
	int steps;         // headless steps; 0: the scene's own length
	dmDebuggerOptions debug;
	const char* screenshot; // write this PNG after `frames` frames, then exit
	int frames;
	int width, height;
	int samples; // MSAA; software GL (Xvfb) runs about twice as fast without
} dmOptions;

static void dmUsage(FILE* out)
{
	fprintf(out,
	        "usage: tumble-demo [options] [SCENE.json | bundled scene name]\n"
	        "\n"
	        "  --list                   the built-in and bundled scenes\n"
	        "  --headless               run the scene without a window and print the `tumble run`\n"
	        "                           summary (also what happens when there is no display)\n"
	        "  --steps N                headless steps (default: the scene's length)\n"
	        "  --threads N              worker threads of the step (1 to 64; shown in the HUD)\n"
	        "  --debugger               the GJK/EPA debugger (two shapes, A - B, every iteration)\n"
	        "  --shapes A,B             debugger shape types: box sphere capsule cylinder cone\n"
	        "                           hull triangle (default box,box)\n"
	        "  --algo gjk-epa|uepa      debugger algorithm (default gjk-epa)\n"
	        "  --debugger-step K|last   show recorded step K (0 is the first; default last)\n"
	        "  --solver-debugger        the contact solver debugger on the scene, after --steps\n"
	        "                           steps (its most loaded contact, pass by pass)\n"
	        "  --solver-pass K          the solver debugger's pass to show first (0: the first)\n"
	        "  --screenshot FILE.png    render --frames frames, write the picture, exit\n"
	        "  --frames N               frames before the screenshot (default 3)\n"
	        "  --size WxH               window size in pixels (default 1280x720)\n"
	        "  --samples N              multisampling, 0 to 16 (default 4)\n"
	        "  -h, --help               this text\n"
	        "\n"
	        "The falling boxes scene is the default. In the window press H for the keys: 1-9 and\n"
	        "Tab switch scenes, 0 opens (and closes) the GJK/EPA debugger, - (minus) the contact\n"
	        "solver debugger on the scene.\n");
}

static int dmParseOptions(int argc, char** argv, dmOptions* o)
{
	memset(o, 0, sizeof *o);
	o->debug = dmDefaultDebuggerOptions();
	o->frames = 3;
	o->solverPass = -1;
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
		} else if (strcmp(arg, "--solver-debugger") == 0) {
			o->solverDebugger = true;
		} else if (strcmp(arg, "--headless") == 0) {
			o->headless = true;
		} else if (strcmp(arg, "--list") == 0) {
			o->listScenes = true;
		} else if (arg[0] != '-') {
			if (o->scene != NULL) {
				fprintf(stderr, "tumble-demo: one scene at a time ('%s', then '%s')\n", o->scene,
				        arg);
				return 2;
			}
			o->scene = arg;
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
		} else if (strcmp(arg, "--solver-pass") == 0) {
			char* end = NULL;
			long k = strtol(value, &end, 10);
			if (end == value || *end != '\0' || k < 0 || k > 100000) {
				fprintf(stderr, "tumble-demo: --solver-pass: expected K >= 0, got '%s'\n", value);
				return 2;
			}
			o->solverPass = (int)k;
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
		} else if (strcmp(arg, "--threads") == 0) {
			char* end = NULL;
			long n = strtol(value, &end, 10);
			if (end == value || *end != '\0' || n < 1 || n > 64) {
				fprintf(stderr, "tumble-demo: --threads: expected N from 1 to 64, got '%s'\n",
				        value);
				return 2;
			}
			dmSim_SetWorkerCount((int)n);
			++i;
		} else if (strcmp(arg, "--steps") == 0) {
			char* end = NULL;
			long n = strtol(value, &end, 10);
			if (end == value || *end != '\0' || n < 1 || n > 100000000) {
				fprintf(stderr, "tumble-demo: --steps: expected N >= 1, got '%s'\n", value);
				return 2;
			}
			o->steps = (int)n;
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

static bool dmHasDisplay(void)
{
	const char* x11 = getenv("DISPLAY");
	const char* wayland = getenv("WAYLAND_DISPLAY");
	return (x11 != NULL && x11[0] != '\0') || (wayland != NULL && wayland[0] != '\0');
}

static int dmRunHeadless(const dmSceneEntry* entry, int steps)
{
	dmSim sim;
	char error[512];
	if (!dmSim_Load(&sim, entry, error, sizeof error)) {
		fprintf(stderr, "tumble-demo: %s\n", error);
		return 1;
	}
	dmSim_RunHeadless(&sim, steps > 0 ? steps : sim.steps, stdout);
	dmSim_Destroy(&sim);
	return 0;
}

// The scene keys for the help overlay: the first nine scenes by number.
static void dmSceneHelp(const dmSceneEntry* entries, int count, char* out, size_t size)
{
	size_t used = (size_t)snprintf(
	    out, size, "1-9: scene   Tab: next scene   0: GJK/EPA debugger   -: solver debugger\n");
	for (int i = 0; i < count && i < 9 && used < size; ++i) {
		used += (size_t)snprintf(out + used, size - used, "%d %s%s", i + 1, entries[i].name,
		                         i % 5 == 4 ? "\n" : "   ");
	}
}

int main(int argc, char** argv)
{
	dmOptions o;
	int status = dmParseOptions(argc, argv, &o);
	if (status != 0) {
		return status < 0 ? 0 : status;
	}
	static dmSceneEntry entries[DM_MAX_SCENES];
	int entryCount = dmListScenes(entries, DM_MAX_SCENES);
	if (o.listScenes) {
		for (int i = 0; i < entryCount; ++i) {
			printf("%-16s %s\n", entries[i].name,
			       entries[i].path[0] != '\0' ? entries[i].path : "(built in)");
		}
		return 0;
	}
	char error[512];
	dmSceneEntry entry = entries[0];
	if (o.scene != NULL && !dmFindSceneEntry(o.scene, &entry, error, sizeof error)) {
		fprintf(stderr, "tumble-demo: %s (see --list)\n", error);
		return 2;
	}
	int current = 0; // the entry shown; a file outside the list is shown as entry -1
	for (current = entryCount - 1; current >= 0; --current) {
		if (strcmp(entries[current].name, entry.name) == 0 &&
		    strcmp(entries[current].path, entry.path) == 0) {
			break;
		}
	}

	// No window to be had: the same scene without one, so that the command still says something
	// useful on a server.
	bool canHeadless = !o.debugger && !o.solverDebugger && o.screenshot == NULL;
	if (o.headless || (!dmHasDisplay() && canHeadless)) {
		if (!o.headless) {
			printf("tumble-demo: no display (DISPLAY and WAYLAND_DISPLAY are unset); running %s "
			       "headless\n",
			       entry.name);
		}
		return dmRunHeadless(&entry, o.steps);
	}
	dmApp app;
	// Screenshots measure the frame time: no vsync to wait for.
	if (!dmApp_Open(&app, "Tumble", o.width, o.height, o.screenshot == NULL, o.samples, error,
	                sizeof error)) {
		if (!canHeadless) {
			fprintf(stderr, "tumble-demo: %s\n", error);
			return 1;
		}
		printf("tumble-demo: %s; running %s headless\n", error, entry.name);
		return dmRunHeadless(&entry, o.steps);
	}
	dmWorldView worldView;
	if (!dmRenderer_Init() || !dmHud_Init() || !dmWorldView_Init(&worldView)) {
		fprintf(stderr, "tumble-demo: cannot set up the renderer\n");
		dmApp_Close(&app);
		return 1;
	}
	dmSim sim;
	memset(&sim, 0, sizeof sim);
	dmDebugger* debugger = NULL;
	bool inDebugger = o.debugger;
	dmSolverDebugger* solver = NULL;
	bool inSolver = false, openSolver = o.solverDebugger && !o.debugger;
	if (!dmSim_Load(&sim, &entry, error, sizeof error)) {
		fprintf(stderr, "tumble-demo: %s\n", error);
		dmWorldView_Shutdown(&worldView);
		dmHud_Shutdown();
		dmRenderer_Shutdown();
		dmApp_Close(&app);
		return 1;
	}
	// A screenshot has no keys to drive the car with: it drives itself, as when headless.
	sim.control.autopilot = o.screenshot != NULL;
	dmWorldView_SetScene(&worldView, &sim, true);
	for (int i = 0; openSolver && i < o.steps; ++i) {
		dmSim_Step(&sim);
	}
	char sceneHelp[1024];
	dmSceneHelp(entries, entryCount, sceneHelp, sizeof sceneHelp);

	int exitCode = 0;
	int frame = 0;
	double previous = glfwGetTime();
	double measuredStart = 0.0;
	int measuredSteps = 0;
	double measuredStepMs = 0.0;
	float frameMs = 0.0f;
	while (dmApp_BeginFrame(&app)) {
		double now = glfwGetTime();
		double frameSeconds = now - previous;
		frameMs = frame == 0 ? (float)(1000.0 * frameSeconds)
		                     : 0.9f * frameMs + 0.1f * (float)(1000.0 * frameSeconds);
		previous = now;
		if (frame == 1) {
			measuredStart = now; // frame 0 pays for shader compilation
		}

		// Scene keys first: 1-9 and Tab pick a scene, 0 goes to the debugger and back. The
		// debugger's own keys (1, 2, Tab among them) stay its own while it is shown.
		int next = -1;
		for (int i = 0; i < app.keyCount; ++i) {
			int key = app.keys[i].key;
			if (key == GLFW_KEY_0 && !inSolver) {
				inDebugger = !inDebugger;
			} else if (key == GLFW_KEY_MINUS && !inDebugger) {
				openSolver = !inSolver;
				inSolver = false;
			} else if (!inDebugger && !inSolver && key >= GLFW_KEY_1 && key <= GLFW_KEY_9 &&
			           key - GLFW_KEY_1 < entryCount) {
				next = key - GLFW_KEY_1;
			} else if (!inDebugger && !inSolver && key == GLFW_KEY_TAB && entryCount > 0) {
				int step = (app.keys[i].mods & GLFW_MOD_SHIFT) != 0 ? entryCount - 1 : 1;
				next = ((current >= 0 ? current : 0) + step) % entryCount;
			}
		}
		if (next >= 0) {
			dmSim_Destroy(&sim);
			if (dmSim_Load(&sim, &entries[next], error, sizeof error)) {
				current = next;
			} else {
				fprintf(stderr, "tumble-demo: %s: %s\n", entries[next].name, error);
				if (!dmSim_Load(&sim, &entry, error, sizeof error)) {
					fprintf(stderr, "tumble-demo: %s\n", error);
					exitCode = 1;
					break;
				}
			}
			entry = sim.entry;
			dmWorldView_SetScene(&worldView, &sim, true);
		}
		if (inDebugger && debugger == NULL) {
			debugger = dmDebugger_Create(&o.debug);
			if (debugger == NULL) {
				fprintf(stderr, "tumble-demo: out of memory\n");
				inDebugger = false;
			}
		}

		if (openSolver) {
			// The scene stays paused at the recorded step's start while the debugger is shown.
			solver = solver != NULL ? solver : dmSolverDebugger_Create();
			inSolver = solver != NULL;
			if (inSolver) {
				dmSolverDebugger_Open(solver, &sim, &worldView, o.solverPass);
			}
			openSolver = false;
		}

		dmRenderer_Clear(app.fbWidth, app.fbHeight);
		if (inSolver) {
			char title[640];
			snprintf(title, sizeof title, "Tumble %s   %s", tbVersionString(), sim.entry.name);
			dmSolverDebugger_Update(solver, &sim, &worldView, &app);
			dmSolverDebugger_Draw(solver, &sim, &worldView, app.fbWidth, app.fbHeight, frameMs,
			                      title);
		} else if (inDebugger) {
			// Screenshots are of a fixed moment: a constant step keeps them reproducible.
			dmDebugger_Update(debugger, &app,
			                  o.screenshot != NULL ? 1.0f / 60.0f : (float)frameSeconds);
			dmDebugger_Draw(debugger, app.fbWidth, app.fbHeight);
			dmHud_Begin(app.fbWidth, app.fbHeight, app.fbHeight >= 900 ? 2.0f : 1.5f);
			const char* back = "0: back to the scenes";
			float w, h;
			dmHud_Measure(back, &w, &h);
			// Above the debugger's colour legend in the bottom right corner.
			dmHud_Panel((float)app.fbWidth - w - 24.0f, (float)app.fbHeight - 4.0f * h - 20.0f,
			            back, (vec4s){{0.95f, 0.95f, 0.95f, 1.0f}});
			dmHud_End();
		} else {
			if (!dmWorldView_Update(&worldView, &sim, &app)) {
				exitCode = 1;
				break;
			}
			int before = sim.stepCount;
			if (o.screenshot != NULL) {
				// One fixed step per frame: the picture shows the same moment on any machine.
				dmSim_Step(&sim);
			} else {
				// Fixed 60 Hz steps, as many as the frame's time holds (at most 4 per frame).
				dmSim_Advance(&sim, frameSeconds);
			}
			if (frame >= 1) {
				measuredSteps += sim.stepCount - before;
				measuredStepMs += (double)(sim.stepCount - before) * (double)sim.stepMs;
			}
			char title[640]; // room for a scene file's path
			if (current >= 0) {
				snprintf(title, sizeof title, "Tumble %s   scene %d/%d: %s", tbVersionString(),
				         current + 1, entryCount, sim.entry.name);
			} else {
				// A scene file from the command line is not one of the listed scenes.
				snprintf(title, sizeof title, "Tumble %s   scene file: %s", tbVersionString(),
				         sim.entry.path);
			}
			dmWorldView_Draw(&worldView, &sim, app.fbWidth, app.fbHeight, frameMs, title,
			                 sceneHelp);
		}
		for (int i = 0; i < app.keyCount; ++i) {
			if (app.keys[i].key == GLFW_KEY_F12) {
				char path[64];
				if (dmNextScreenshotPath(path, (int)sizeof path) &&
				    dmWriteScreenshot(path, app.fbWidth, app.fbHeight)) {
					printf("tumble-demo: wrote %s\n", path);
				}
			}
		}
		if (o.screenshot != NULL && frame + 1 >= o.frames) {
			glFinish();
			double elapsed = glfwGetTime() - measuredStart;
			if (frame >= 1) {
				printf("tumble-demo: %d frames at %dx%d, mean frame time %.2f ms\n", frame,
				       app.fbWidth, app.fbHeight, 1000.0 * elapsed / (double)frame);
			}
			if (inSolver) {
				char line[256];
				dmSolverDebugger_Describe(solver, line, sizeof line);
				printf("tumble-demo: solver debugger %s\n", line);
			} else if (inDebugger) {
				char line[256];
				dmDebugger_Describe(debugger, line, sizeof line);
				printf("tumble-demo: debugger %s\n", line);
			} else {
				tbWorldCounters counters = tbWorld_GetCounters(sim.worldId);
				printf("tumble-demo: scene %s: %d bodies, %d awake, %d contacts after %d steps; "
				       "mean step %.3f ms\n",
				       sim.entry.name, counters.bodyCount, counters.awakeBodyCount,
				       counters.touchingCount, sim.stepCount,
				       measuredSteps > 0 ? measuredStepMs / (double)measuredSteps : 0.0);
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
	dmSolverDebugger_Destroy(solver);
	dmSim_Destroy(&sim);
	dmWorldView_Shutdown(&worldView);
	dmHud_Shutdown();
	dmRenderer_Shutdown();
	dmApp_Close(&app);
	return exitCode;
}
