// The GL 3.3 core loader: the implementation half of the header glad generates at build time.
#define GLAD_GL_IMPLEMENTATION
#include "glad_gl.h"
