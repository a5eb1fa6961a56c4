// The GLFW window, its GL 3.3 core context (loaded by glad) and per-frame input gathering.
#include "app.h"

#include <stdio.h>
#include <string.h>

static char s_glfwError[256];

static void dmGlfwError(int code, const char* description)
{
	snprintf(s_glfwError, sizeof s_glfwError, "GLFW error %d: %s", code, description);
}

static void dmKeyCallback(GLFWwindow* window, int key, int scancode, int action, int mods)
{
	(void)scancode;
	dmApp* app = glfwGetWindowUserPointer(window);
	if ((action == GLFW_PRESS || action == GLFW_REPEAT) && app->keyCount < DM_MAX_KEY_EVENTS) {
		app->keys[app->keyCount++] = (dmKeyEvent){key, mods};
	}
}

static void dmScrollCallback(GLFWwindow* window, double dx, double dy)
{
	(void)dx;
	dmApp* app = glfwGetWindowUserPointer(window);
	app->scroll += (float)dy;
}

bool dmApp_Open(dmApp* app, const char* title, int width, int height, bool vsync, int samples,
                char* error, int errorSize)
{
	memset(app, 0, sizeof *app);
	glfwSetErrorCallback(dmGlfwError);
	if (!glfwInit()) {
		snprintf(error, (size_t)errorSize, "no display (%s)",
		         s_glfwError[0] != '\0' ? s_glfwError : "glfwInit failed");
		return false;
	}
	glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
	glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
	glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
	glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
	glfwWindowHint(GLFW_SAMPLES, samples);
	app->window = glfwCreateWindow(width, height, title, NULL, NULL);
	if (app->window == NULL) {
		snprintf(error, (size_t)errorSize, "cannot open an OpenGL 3.3 core window (%s)",
		         s_glfwError[0] != '\0' ? s_glfwError : "glfwCreateWindow failed");
		glfwTerminate();
		return false;
	}
	glfwMakeContextCurrent(app->window);
	if (gladLoadGL(glfwGetProcAddress) == 0) {
		snprintf(error, (size_t)errorSize, "cannot load OpenGL 3.3 functions");
		glfwDestroyWindow(app->window);
		glfwTerminate();
		app->window = NULL;
		return false;
	}
	glfwSwapInterval(vsync ? 1 : 0);
	glfwSetWindowUserPointer(app->window, app);
	glfwSetKeyCallback(app->window, dmKeyCallback);
	glfwSetScrollCallback(app->window, dmScrollCallback);
	double x, y;
	glfwGetCursorPos(app->window, &x, &y);
	app->mouseX = (float)x;
	app->mouseY = (float)y;
	return true;
}

void dmApp_Close(dmApp* app)
{
	if (app->window != NULL) {
		glfwDestroyWindow(app->window);
		app->window = NULL;
	}
	glfwTerminate();
}

bool dmApp_BeginFrame(dmApp* app)
{
	app->keyCount = 0;
	app->scroll = 0.0f;
	glfwPollEvents();
	glfwGetFramebufferSize(app->window, &app->fbWidth, &app->fbHeight);
	int w, h;
	glfwGetWindowSize(app->window, &w, &h);
	// HiDPI: cursor positions come in window coordinates, drawing happens in pixels.
	app->pixelRatio = w > 0 ? (float)app->fbWidth / (float)w : 1.0f;
	double x, y;
	glfwGetCursorPos(app->window, &x, &y);
	float mx = (float)x * app->pixelRatio, my = (float)y * app->pixelRatio;
	app->dragX = mx - app->mouseX;
	app->dragY = my - app->mouseY;
	app->mouseX = mx;
	app->mouseY = my;
	for (int b = 0; b < 3; ++b) {
		app->buttons[b] = glfwGetMouseButton(app->window, b) == GLFW_PRESS;
	}
	return !glfwWindowShouldClose(app->window);
}

void dmApp_EndFrame(dmApp* app)
{
	glfwSwapBuffers(app->window);
}

bool dmApp_KeyDown(const dmApp* app, int key)
{
	return glfwGetKey(app->window, key) == GLFW_PRESS;
}
