// OpenGL and GLFW for the demo: glad's generated loader first, then GLFW without its own GL header.
#pragma once

#include "glad_gl.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
