// The placeholder scene: every shape type resting on the ground, turning slowly, under the orbit
// camera; it exercises the renderer until the world API (issue 6) gives the demo real scenes.
#include "showcase.h"

#include "camera.h"
#include "hud.h"
#include "renderer.h"
#include "shape_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DM_SHOWCASE_SHAPES 6

struct dmShowcase
{
	tbShape shapes[DM_SHOWCASE_SHAPES];
	tbHull hull;
	int meshes[DM_SHOWCASE_SHAPES];
	float lift[DM_SHOWCASE_SHAPES]; // height of the shape's centre when resting upright
	float time;
	dmCamera camera;
	bool help;
};

static const vec4s s_palette[DM_SHOWCASE_SHAPES] = {
    {{0.30f, 0.55f, 0.92f, 1.0f}}, {{0.96f, 0.56f, 0.20f, 1.0f}}, {{0.40f, 0.78f, 0.42f, 1.0f}},
    {{0.85f, 0.33f, 0.38f, 1.0f}}, {{0.70f, 0.52f, 0.90f, 1.0f}}, {{0.95f, 0.82f, 0.30f, 1.0f}},
};

dmShowcase* dmShowcase_Create(void)
{
	dmShowcase* s = calloc(1, sizeof *s);
	if (s == NULL) {
		return NULL;
	}
	// A hexagonal prism, built by the hull builder like any user hull.
	vec3s points[12];
	for (int i = 0; i < 6; ++i) {
		float phi = (float)i * GLM_PIf / 3.0f;
		points[i] = (vec3s){{0.5f * cosf(phi), 0.35f, 0.5f * sinf(phi)}};
		points[i + 6] = (vec3s){{0.5f * cosf(phi), -0.35f, 0.5f * sinf(phi)}};
	}
	if (tbBuildHull(points, 12, &s->hull, NULL) != tb_hullOk) {
		free(s);
		return NULL;
	}
	s->shapes[0] = tbMakeBox(0.45f, 0.45f, 0.45f);
	s->shapes[1] = tbMakeSphere(0.5f);
	s->shapes[2] = tbMakeCapsule(0.3f, 0.4f);
	s->shapes[3] = tbMakeCylinder(0.45f, 0.45f);
	s->shapes[4] = tbMakeCone(0.5f, 0.5f);
	s->shapes[5] = tbMakeHullShape(&s->hull);
	dmMeshData data = {0};
	for (int i = 0; i < DM_SHOWCASE_SHAPES; ++i) {
		dmBuildShapeMesh(&s->shapes[i], 48, &data);
		s->meshes[i] = dmRenderer_CreateMesh(&data);
		// Resting upright: the lowest support point touches y = 0.
		s->lift[i] = -tbShape_Support(&s->shapes[i], (vec3s){{0.0f, -1.0f, 0.0f}}, NULL).y;
	}
	dmMeshData_Free(&data);
	s->camera = dmDefaultCamera();
	s->camera.target = (vec3s){{0.0f, 0.5f, 0.0f}};
	s->camera.distance = 7.5f;
	s->help = true;
	return s;
}

void dmShowcase_Destroy(dmShowcase* s)
{
	if (s != NULL) {
		tbDestroyHull(&s->hull);
		free(s);
	}
}

void dmShowcase_Update(dmShowcase* s, dmApp* app, float dt)
{
	s->time += dt;
	if (app->buttons[0]) {
		dmCamera_Orbit(&s->camera, app->dragX, app->dragY);
	}
	dmCamera_Zoom(&s->camera, app->scroll);
	for (int i = 0; i < app->keyCount; ++i) {
		if (app->keys[i].key == GLFW_KEY_H) {
			s->help = !s->help;
		} else if (app->keys[i].key == GLFW_KEY_ESCAPE) {
			glfwSetWindowShouldClose(app->window, GLFW_TRUE);
		}
	}
}

void dmShowcase_Draw(dmShowcase* s, int width, int height, float frameMs)
{
	dmView view = {0};
	view.width = width, view.height = height;
	view.view = dmCamera_View(&s->camera);
	view.projection =
	    dmCamera_Projection(&s->camera, (float)width / (float)(height > 0 ? height : 1));
	view.eye = dmCamera_Eye(&s->camera);
	view.focus = s->camera.target;
	view.focusRadius = 5.0f;
	view.sky = true;
	view.ground = true;
	dmRenderer_Begin(&view);
	for (int i = 0; i < DM_SHOWCASE_SHAPES; ++i) {
		// Two rows of three, each shape turning about y at its own pace.
		float x = 1.6f * (float)(i % 3 - 1), z = i < 3 ? -0.9f : 0.9f;
		versors q = glms_quatv(0.4f * s->time * (1.0f + 0.2f * (float)i), (vec3s){{0, 1, 0}});
		tbTransform xf = tbMakeTransform((vec3s){{x, s->lift[i], z}}, q);
		dmRenderer_Mesh(s->meshes[i], dmModelMatrix(xf), s_palette[i]);
	}
	dmRenderer_End();

	dmHud_Begin(width, height, height >= 900 ? 2.0f : 1.5f);
	char text[512];
	snprintf(text, sizeof text,
	         "Tumble %s: shapes only; scenes arrive with the world API\n"
	         "frame %.2f ms\n%s",
	         tbVersionString(), (double)frameMs,
	         s->help ? "drag: orbit, wheel: zoom, H: help, Esc: quit\n"
	                   "tumble-demo --debugger   the GJK/EPA debugger"
	                 : "");
	dmHud_Panel(16.0f, 14.0f, text, (vec4s){{0.95f, 0.95f, 0.95f, 1.0f}});
	dmHud_End();
}
