// The HUD: stb_easy_font turns text into quads; they and the panels are drawn in pixel space.
#include "hud.h"

#include "gl.h"
#include "renderer.h"

#include <stdlib.h>
#include <string.h>

// stb_easy_font is a header of static functions; this file is its one user.
#include <stb_easy_font.h>

typedef struct dmHudVertex
{
	float x, y;
	float r, g, b, a;
} dmHudVertex;

typedef struct dmHud
{
	GLuint program, vao, buffer;
	dmHudVertex* vertices; // triangles
	int count, capacity;
	int width, height;
	float scale;
} dmHud;

static dmHud s_hud;

static const char* s_hudVertex = "#version 330 core\n"
                                 "layout(location = 0) in vec2 aPosition;\n"
                                 "layout(location = 1) in vec4 aColor;\n"
                                 "uniform vec2 uSize;\n"
                                 "out vec4 vColor;\n"
                                 "void main() {\n"
                                 "  vColor = aColor;\n"
                                 "  vec2 ndc = aPosition / uSize * 2.0 - 1.0;\n"
                                 "  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);\n"
                                 "}\n";

static const char* s_hudFragment = "#version 330 core\n"
                                   "in vec4 vColor;\n"
                                   "out vec4 fragColor;\n"
                                   "void main() { fragColor = vColor; }\n";

bool dmHud_Init(void)
{
	memset(&s_hud, 0, sizeof s_hud);
	s_hud.program = dmLinkProgram(s_hudVertex, s_hudFragment);
	if (s_hud.program == 0) {
		return false;
	}
	glGenVertexArrays(1, &s_hud.vao);
	glGenBuffers(1, &s_hud.buffer);
	glBindVertexArray(s_hud.vao);
	glBindBuffer(GL_ARRAY_BUFFER, s_hud.buffer);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(dmHudVertex), (void*)0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(dmHudVertex),
	                      (void*)(2 * sizeof(float)));
	glBindVertexArray(0);
	s_hud.scale = 1.0f;
	return true;
}

void dmHud_Shutdown(void)
{
	glDeleteProgram(s_hud.program);
	glDeleteVertexArrays(1, &s_hud.vao);
	glDeleteBuffers(1, &s_hud.buffer);
	free(s_hud.vertices);
	memset(&s_hud, 0, sizeof s_hud);
}

void dmHud_Begin(int width, int height, float scale)
{
	s_hud.count = 0;
	s_hud.width = width;
	s_hud.height = height;
	s_hud.scale = scale > 0.0f ? scale : 1.0f;
}

static bool dmHudReserve(int more)
{
	if (s_hud.count + more <= s_hud.capacity) {
		return true;
	}
	int grown = s_hud.capacity < 1024 ? 1024 : s_hud.capacity;
	while (grown < s_hud.count + more) {
		grown *= 2;
	}
	dmHudVertex* larger = realloc(s_hud.vertices, sizeof *larger * (size_t)grown);
	if (larger == NULL) {
		return false;
	}
	s_hud.vertices = larger;
	s_hud.capacity = grown;
	return true;
}

// Two triangles of a quad given by its corners in order.
static void dmHudQuad(const float (*corner)[2], vec4s color)
{
	if (!dmHudReserve(6)) {
		return;
	}
	static const int order[6] = {0, 1, 2, 0, 2, 3};
	for (int k = 0; k < 6; ++k) {
		s_hud.vertices[s_hud.count++] = (dmHudVertex){
		    corner[order[k]][0], corner[order[k]][1], color.r, color.g, color.b, color.a};
	}
}

void dmHud_Rect(float x, float y, float width, float height, vec4s color)
{
	const float corner[4][2] = {{x, y}, {x + width, y}, {x + width, y + height}, {x, y + height}};
	dmHudQuad(corner, color);
}

void dmHud_Text(float x, float y, const char* text, vec4s color)
{
	// stb_easy_font writes 4 vertices of 16 bytes per quad (x, y, z, rgba8): ~270 bytes a
	// character at most.
	size_t length = strlen(text);
	int bytes = (int)(length * 300 + 64);
	char* buffer = malloc((size_t)bytes);
	char* copy = malloc(length + 1);
	if (buffer == NULL || copy == NULL) {
		free(buffer);
		free(copy);
		return;
	}
	memcpy(copy, text, length + 1);
	int quads = stb_easy_font_print(0.0f, 0.0f, copy, NULL, buffer, bytes);
	float s = s_hud.scale;
	for (int q = 0; q < quads; ++q) {
		float corner[4][2];
		for (int k = 0; k < 4; ++k) {
			float p[2];
			memcpy(p, buffer + (4 * q + k) * 16, sizeof p);
			corner[k][0] = x + s * p[0];
			corner[k][1] = y + s * p[1];
		}
		dmHudQuad((const float(*)[2])corner, color);
	}
	free(buffer);
	free(copy);
}

void dmHud_Measure(const char* text, float* width, float* height)
{
	size_t length = strlen(text);
	char* copy = malloc(length + 1);
	if (copy == NULL) {
		*width = *height = 0.0f;
		return;
	}
	memcpy(copy, text, length + 1);
	*width = s_hud.scale * (float)stb_easy_font_width(copy);
	*height = s_hud.scale * (float)stb_easy_font_height(copy);
	free(copy);
}

void dmHud_Wrap(char* text, float maxWidth)
{
	// Greedy: each line keeps words while the line fits; the space before the first word that
	// does not fit becomes a line break. stb_easy_font_width measures up to a '\n'.
	char* lineStart = text;
	char* lastSpace = NULL;
	for (char* p = text;; ++p) {
		if (*p == '\n' || *p == '\0') {
			char saved = *p;
			*p = '\0';
			bool tooWide = s_hud.scale * (float)stb_easy_font_width(lineStart) > maxWidth;
			*p = saved;
			if (tooWide && lastSpace != NULL) {
				*lastSpace = '\n';
				lineStart = lastSpace + 1;
				lastSpace = NULL;
				p = lineStart - 1; // measure the rest of the line again
				continue;
			}
			if (*p == '\0') {
				return;
			}
			lineStart = p + 1;
			lastSpace = NULL;
		} else if (*p == ' ') {
			// A candidate break only while the line up to it still fits.
			*p = '\0';
			bool fits = s_hud.scale * (float)stb_easy_font_width(lineStart) <= maxWidth;
			*p = ' ';
			if (fits || lastSpace == NULL) {
				lastSpace = p;
			}
		}
	}
}

void dmHud_Panel(float x, float y, const char* text, vec4s color)
{
	float w, h;
	dmHud_Measure(text, &w, &h);
	dmHud_Rect(x - 8.0f, y - 6.0f, w + 16.0f, h + 10.0f, (vec4s){{0.05f, 0.06f, 0.08f, 0.72f}});
	dmHud_Text(x, y, text, color);
}

void dmHud_End(void)
{
	if (s_hud.count == 0) {
		return;
	}
	glViewport(0, 0, s_hud.width, s_hud.height);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_CULL_FACE);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glUseProgram(s_hud.program);
	glUniform2f(glGetUniformLocation(s_hud.program, "uSize"), (float)s_hud.width,
	            (float)s_hud.height);
	glBindVertexArray(s_hud.vao);
	glBindBuffer(GL_ARRAY_BUFFER, s_hud.buffer);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(dmHudVertex) * (size_t)s_hud.count),
	             s_hud.vertices, GL_STREAM_DRAW);
	glDrawArrays(GL_TRIANGLES, 0, s_hud.count);
	glBindVertexArray(0);
	glDisable(GL_BLEND);
	glEnable(GL_DEPTH_TEST);
}
