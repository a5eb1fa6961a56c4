// The world view: bodies as instanced meshes (one unit mesh per primitive type, scaled per
// instance; one mesh per capsule, hull or triangle geometry), contacts and AABBs through the
// world's debug draw, mouse picking, the HUD and the kinetic energy and momentum plot.
#include "world_view.h"

#include "hud.h"
#include "renderer.h"
#include "shape_mesh.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// Body colours: distinct hues that the screenshot test can look for (demos/meson.build).
static const vec4s s_palette[6] = {
    {{0.96f, 0.56f, 0.20f, 1.0f}}, {{0.30f, 0.55f, 0.92f, 1.0f}}, {{0.40f, 0.78f, 0.42f, 1.0f}},
    {{0.85f, 0.33f, 0.38f, 1.0f}}, {{0.70f, 0.52f, 0.90f, 1.0f}}, {{0.95f, 0.82f, 0.30f, 1.0f}},
};
// Sleeping bodies are pulled towards a cold grey-blue: a settled pile reads as a calm colour.
static const vec4s s_sleepTint = {{0.42f, 0.47f, 0.58f, 1.0f}};
static const vec4s s_staticColor = {{0.62f, 0.64f, 0.60f, 1.0f}};
static const vec4s s_kinematicColor = {{0.55f, 0.55f, 0.95f, 1.0f}};

static int dmMakeMesh(tbGeometry shape)
{
	dmMeshData data = {0};
	int id = dmBuildShapeMesh(&shape, 32, &data) ? dmRenderer_CreateMesh(&data) : -1;
	dmMeshData_Free(&data);
	return id;
}

bool dmWorldView_Init(dmWorldView* v)
{
	memset(v, 0, sizeof *v);
	v->camera = dmDefaultCamera();
	v->help = false;
	v->showJoints = true;
	v->unitMeshes[0] = dmMakeMesh(tbMakeBox(1.0f, 1.0f, 1.0f));
	v->unitMeshes[1] = dmMakeMesh(tbMakeSphere(1.0f));
	v->unitMeshes[2] = dmMakeMesh(tbMakeCylinder(1.0f, 1.0f));
	v->unitMeshes[3] = dmMakeMesh(tbMakeCone(1.0f, 1.0f));
	for (int i = 0; i < 4; ++i) {
		if (v->unitMeshes[i] < 0) {
			return false;
		}
	}
	return true;
}

static void dmClearMeshes(dmWorldView* v)
{
	for (int i = 0; i < v->cacheCount; ++i) {
		dmRenderer_DestroyMesh(v->cache[i].mesh);
	}
	v->cacheCount = 0;
}

void dmWorldView_Shutdown(dmWorldView* v)
{
	dmClearMeshes(v);
	for (int i = 0; i < 4; ++i) {
		dmRenderer_DestroyMesh(v->unitMeshes[i]);
	}
}

static bool dmSameGeometry(const tbGeometry* a, const tbGeometry* b)
{
	if (a->type != b->type) {
		return false;
	}
	switch (a->type) {
	case tb_capsuleShape:
		return a->round.radius == b->round.radius && a->round.halfHeight == b->round.halfHeight;
	case tb_hullShape:
		return a->hull == b->hull;
	case tb_triangleShape:
		return memcmp(a->vertices, b->vertices, sizeof a->vertices) == 0;
	case tb_meshShape:
		return a->mesh == b->mesh;
	case tb_heightfieldShape:
		return a->heightfield == b->heightfield;
	default:
		return false;
	}
}

// The mesh of a shape and the scale that turns it into the shape (AtlasPhys notes: S * shape).
static int dmMeshFor(dmWorldView* v, const tbGeometry* shape, vec3s* scale)
{
	vec3s s = shape->scale;
	switch (shape->type) {
	case tb_boxShape:
		*scale = glms_vec3_mul(shape->halfExtents, s);
		return v->unitMeshes[0];
	case tb_sphereShape:
		*scale = glms_vec3_scale(s, shape->radius);
		return v->unitMeshes[1];
	case tb_cylinderShape:
	case tb_coneShape:
		// Both are linear images of the unit shape: radius across, half height along y.
		*scale = glms_vec3_mul(
		    s, (vec3s){{shape->round.radius, shape->round.halfHeight, shape->round.radius}});
		return v->unitMeshes[shape->type == tb_cylinderShape ? 2 : 3];
	default:
		break;
	}
	// A capsule's caps stay round only at their own size: one mesh per geometry.
	*scale = s;
	tbGeometry key = *shape;
	key.scale = (vec3s){{1.0f, 1.0f, 1.0f}};
	for (int i = 0; i < v->cacheCount; ++i) {
		if (dmSameGeometry(&v->cache[i].shape, &key)) {
			return v->cache[i].mesh;
		}
	}
	if (v->cacheCount == DM_MESH_CACHE) {
		return -1; // more distinct geometries than the renderer holds: not drawn
	}
	int mesh = dmMakeMesh(key);
	if (mesh >= 0) {
		v->cache[v->cacheCount++] = (dmMeshKey){key, mesh};
	}
	return mesh;
}

// A large static box with a flat top is the ground: drawn as the renderer's grid plane.
static bool dmIsGround(const tbGeometry* shape, tbTransform xf)
{
	return shape->type == tb_boxShape && shape->halfExtents.x * shape->scale.x >= 8.0f &&
	       shape->halfExtents.z * shape->scale.z >= 8.0f && fabsf(xf.q.x) < 1e-4f &&
	       fabsf(xf.q.y) < 1e-4f && fabsf(xf.q.z) < 1e-4f;
}

// The 12 edges of a box as lines (sensor shapes).
static void dmDrawBoxEdges(tbAABB box, vec4s color)
{
	vec3s c[8];
	for (int i = 0; i < 8; ++i) {
		c[i] = (vec3s){{(i & 1) ? box.upper.x : box.lower.x, (i & 2) ? box.upper.y : box.lower.y,
		                (i & 4) ? box.upper.z : box.lower.z}};
	}
	for (int i = 0; i < 8; ++i) {
		for (int bit = 1; bit < 8; bit <<= 1) {
			if ((i & bit) == 0) {
				dmRenderer_Line(c[i], c[i | bit], color);
			}
		}
	}
}

void dmWorldView_SetScene(dmWorldView* v, const dmSim* sim, bool fitCamera)
{
	dmClearMeshes(v);
	v->hasGround = false;
	v->picking = v->orbiting = false;
	vec3s lo = {{1e9f, 1e9f, 1e9f}}, hi = {{-1e9f, -1e9f, -1e9f}};
	for (int i = 0; i < sim->bodyCount; ++i) {
		tbShapeId shapes[8];
		int n = tbBody_GetShapes(sim->bodies[i], shapes, 8);
		for (int k = 0; k < n; ++k) {
			tbGeometry shape = tbShape_GetGeometry(shapes[k]);
			tbTransform xf = tbShape_GetWorldTransform(shapes[k]);
			if (tbBody_GetType(sim->bodies[i]) == tb_staticBody && dmIsGround(&shape, xf)) {
				float top = xf.p.y + shape.halfExtents.y * shape.scale.y;
				v->groundY = v->hasGround ? fmaxf(v->groundY, top) : top;
				v->hasGround = true;
				continue;
			}
			tbAABB box = tbShape_GetAABB(shapes[k]);
			lo = glms_vec3_minv(lo, box.lower);
			hi = glms_vec3_maxv(hi, box.upper);
		}
	}
	if (lo.x > hi.x) {
		lo = (vec3s){{-2.0f, 0.0f, -2.0f}}, hi = (vec3s){{2.0f, 2.0f, 2.0f}};
	}
	float floorY = v->hasGround ? v->groundY : lo.y;
	// Frame the spread on the ground rather than the drop height: a rain scene starts tall and
	// thin but ends as a wide pile.
	float halfWidth = 0.5f * fmaxf(hi.x - lo.x, hi.z - lo.z);
	float radius = fminf(fmaxf(fmaxf(halfWidth, 0.35f * (hi.y - floorY)), 2.0f), 30.0f);
	v->focus = (vec3s){{0.5f * (lo.x + hi.x), floorY + 0.4f * radius, 0.5f * (lo.z + hi.z)}};
	v->focusRadius = 1.6f * radius;
	if (fitCamera) {
		// Every body in view from the start (a pyramid's top, a whole row of dominoes), the
		// ground under them included; a long row is seen from its side. The window's default
		// 16:9 is assumed: a narrower window shows less at the sides.
		v->camera = dmDefaultCamera();
		v->camera.pitch = 0.42f;
		v->camera.yaw = hi.z - lo.z > 1.5f * (hi.x - lo.x) ? 0.45f + 1.5707963f : 0.45f;
		vec3s floorLo = {{lo.x, fminf(lo.y, floorY), lo.z}};
		dmCamera_Frame(&v->camera, floorLo, hi, 16.0f / 9.0f, 0.08f);
		if (!TB_IS_NULL(sim->control.chassis)) {
			// The car: from behind and to its right (it drives along +x), near enough to see the
			// wheels turn; the camera follows it from here (dmWorldView_Update).
			v->camera.target = tbBody_GetPosition(sim->control.chassis);
			v->camera.yaw = -1.0f;
			v->camera.pitch = 0.35f;
			v->camera.distance = 9.0f;
		}
	}
}

// The mouse ray: from the eye through the cursor (framebuffer pixels from the top left).
void dmWorldView_MouseRay(const dmWorldView* v, const dmApp* app, vec3s* origin, vec3s* direction)
{
	float aspect = (float)app->fbWidth / (float)(app->fbHeight > 0 ? app->fbHeight : 1);
	mat4s inverse = glms_mat4_inv(
	    glms_mat4_mul(dmCamera_Projection(&v->camera, aspect), dmCamera_View(&v->camera)));
	float x = 2.0f * app->mouseX / (float)(app->fbWidth > 0 ? app->fbWidth : 1) - 1.0f;
	float y = 1.0f - 2.0f * app->mouseY / (float)(app->fbHeight > 0 ? app->fbHeight : 1);
	vec4s farPoint = glms_mat4_mulv(inverse, (vec4s){{x, y, 1.0f, 1.0f}});
	vec3s far = glms_vec3_scale(glms_vec3(farPoint), 1.0f / farPoint.w);
	*origin = dmCamera_Eye(&v->camera);
	*direction = glms_vec3_normalize(glms_vec3_sub(far, *origin));
}

// The car scene's keys, read as held keys every frame: W/S or Up/Down drive, A/D or Left/Right
// steer; nothing held, the motors brake.
static void dmDriveCar(dmSim* sim, const dmApp* app)
{
	float forward =
	    (dmApp_KeyDown(app, GLFW_KEY_W) || dmApp_KeyDown(app, GLFW_KEY_UP)) ? 1.0f : 0.0f;
	float back =
	    (dmApp_KeyDown(app, GLFW_KEY_S) || dmApp_KeyDown(app, GLFW_KEY_DOWN)) ? 1.0f : 0.0f;
	float left =
	    (dmApp_KeyDown(app, GLFW_KEY_A) || dmApp_KeyDown(app, GLFW_KEY_LEFT)) ? 1.0f : 0.0f;
	float right =
	    (dmApp_KeyDown(app, GLFW_KEY_D) || dmApp_KeyDown(app, GLFW_KEY_RIGHT)) ? 1.0f : 0.0f;
	dmSim_SetDrive(sim, forward - back, left - right);
}

bool dmWorldView_Update(dmWorldView* v, dmSim* sim, dmApp* app)
{
	bool ok = true;
	char error[512];
	// In the car scene A steers: the AABBs' key is not A there.
	bool car = !TB_IS_NULL(sim->control.chassis);
	for (int i = 0; i < app->keyCount; ++i) {
		switch (app->keys[i].key) {
		case GLFW_KEY_SPACE:
			sim->paused = !sim->paused;
			break;
		case GLFW_KEY_PERIOD:
			// A single step pauses first: stepping a running world one more step means nothing.
			sim->paused = true;
			++sim->stepRequests;
			break;
		case GLFW_KEY_R:
			v->picking = false;
			ok = dmSim_Reset(sim, error, sizeof error);
			if (!ok) {
				fprintf(stderr, "tumble-demo: %s\n", error);
			} else {
				dmWorldView_SetScene(v, sim, false);
			}
			break;
		case GLFW_KEY_B: {
			vec3s right, up, forward;
			dmCamera_Axes(&v->camera, &right, &up, &forward);
			dmSim_ThrowBox(sim, dmCamera_Eye(&v->camera), forward);
			break;
		}
		case GLFW_KEY_C:
			v->showContacts = !v->showContacts;
			break;
		case GLFW_KEY_A:
			v->showAABBs = car ? v->showAABBs : !v->showAABBs;
			break;
		case GLFW_KEY_J:
			v->showJoints = !v->showJoints;
			break;
		case GLFW_KEY_H:
			v->help = !v->help;
			break;
		case GLFW_KEY_ESCAPE:
			glfwSetWindowShouldClose(app->window, GLFW_TRUE);
			break;
		default:
			break;
		}
	}
	if (!ok) {
		return false;
	}
	if (!TB_IS_NULL(sim->control.chassis)) {
		dmDriveCar(sim, app);
		// The camera follows the car: its target eases towards the chassis (a tenth of the way
		// each frame), the view's angle and distance stay the user's.
		vec3s p = tbBody_GetPosition(sim->control.chassis);
		v->camera.target = glms_vec3_lerp(v->camera.target, p, 0.1f);
		v->focus = glms_vec3_lerp(v->focus, p, 0.1f);
	}

	// Left button: on a dynamic body it picks, elsewhere it orbits; the right button always
	// orbits, the middle one pans.
	vec3s origin, direction;
	dmWorldView_MouseRay(v, app, &origin, &direction);
	if (app->buttons[0] && !v->picking && !v->orbiting) {
		float hit = dmSim_Pick(sim, origin, direction, 1000.0f);
		v->picking = hit >= 0.0f;
		v->orbiting = !v->picking;
		v->pickDistance = hit;
	} else if (!app->buttons[0]) {
		if (v->picking) {
			dmSim_Release(sim);
		}
		v->picking = v->orbiting = false;
	}
	if (v->picking && !TB_IS_NULL(sim->picked)) {
		sim->pickTarget = glms_vec3_add(origin, glms_vec3_scale(direction, v->pickDistance));
	}
	// A drag counts from the second frame a button is held: the cursor may have jumped between
	// the last frame and the press.
	bool held[3];
	for (int b = 0; b < 3; ++b) {
		held[b] = app->buttons[b] && v->wasDown[b];
		v->wasDown[b] = app->buttons[b];
	}
	if (((v->orbiting && held[0]) || held[1]) && (app->dragX != 0.0f || app->dragY != 0.0f)) {
		dmCamera_Orbit(&v->camera, app->dragX, app->dragY);
		// Never below the ground: the scenes are seen from above.
		v->camera.pitch = fmaxf(v->camera.pitch, 0.03f);
	}
	if (held[2]) {
		v->camera.target =
		    glms_vec3_sub(v->camera.target, dmCamera_DragOffset(&v->camera, app->dragX, app->dragY,
		                                                        (float)app->fbHeight));
	}
	// Scroll zoom; while holding a body, the wheel pulls it nearer or pushes it away instead.
	if (v->picking) {
		v->pickDistance = fmaxf(0.5f, v->pickDistance * powf(0.9f, app->scroll));
	} else {
		dmCamera_Zoom(&v->camera, app->scroll);
	}
	return true;
}

static vec4s dmHexColor(tbHexColor c)
{
	return (vec4s){{(float)((c >> 16) & 0xffu) / 255.0f, (float)((c >> 8) & 0xffu) / 255.0f,
	                (float)(c & 0xffu) / 255.0f, 1.0f}};
}

static void dmDrawSegment(vec3s a, vec3s b, tbHexColor color, void* context)
{
	(void)context;
	dmRenderer_Line(a, b, dmHexColor(color));
}

static void dmDrawPoint(vec3s p, float size, tbHexColor color, void* context)
{
	// The world's size is in pixels; a small ball reads the same at the scenes' scale.
	(void)size;
	const dmWorldView* v = context;
	dmRenderer_Point(p, 0.006f * v->camera.distance, dmHexColor(color));
}

static vec4s dmBodyColor(const dmSim* sim, int index)
{
	tbBodyId body = sim->bodies[index];
	tbBodyType type = tbBody_GetType(body);
	if (type == tb_staticBody) {
		return s_staticColor;
	}
	if (type == tb_kinematicBody) {
		return s_kinematicColor;
	}
	vec4s c = s_palette[index % 6];
	if (!tbBody_IsAwake(body)) {
		c = glms_vec4_lerp(c, s_sleepTint, 0.6f);
	}
	if (TB_ID_EQUALS(body, sim->picked)) {
		c = glms_vec4_lerp(c, (vec4s){{1.0f, 1.0f, 1.0f, 1.0f}}, 0.35f);
	}
	return c;
}

// A line plot of the history ring, scaled to its own maximum, as thin bars between samples.
static void dmPlotSeries(const float* values, int head, int count, float x, float y, float w,
                         float h, float maxValue, vec4s color)
{
	float prev = 0.0f;
	for (int i = 0; i < count; ++i) {
		float value = values[(head - count + i + DM_HISTORY) % DM_HISTORY];
		float yy = y + h - h * fminf(value / maxValue, 1.0f);
		float xx = x + w * (float)i / (float)(DM_HISTORY - 1);
		if (i == 0) {
			prev = yy;
		}
		float top = fminf(prev, yy), bottom = fmaxf(prev, yy);
		dmHud_Rect(xx, top - 1.0f, fmaxf(w / (float)DM_HISTORY, 1.5f), bottom - top + 2.0f, color);
		prev = yy;
	}
}

static void dmDrawPlot(const dmSim* sim, float x, float y, float scale)
{
	float w = 330.0f * scale / 1.5f, h = 80.0f * scale / 1.5f;
	float maxEnergy = 1e-6f, maxMomentum = 1e-6f;
	for (int i = 0; i < sim->historyCount; ++i) {
		int k = (sim->historyHead - 1 - i + DM_HISTORY) % DM_HISTORY;
		maxEnergy = fmaxf(maxEnergy, sim->energy[k]);
		maxMomentum = fmaxf(maxMomentum, sim->momentum[k]);
	}
	const vec4s energyColor = {{1.0f, 0.62f, 0.25f, 1.0f}};
	const vec4s momentumColor = {{0.35f, 0.85f, 0.95f, 1.0f}};
	int last = (sim->historyHead - 1 + DM_HISTORY) % DM_HISTORY;
	char energyLabel[160], momentumLabel[160];
	snprintf(energyLabel, sizeof energyLabel, "kinetic energy %.3g J (max %.3g)",
	         sim->historyCount > 0 ? (double)sim->energy[last] : 0.0, (double)maxEnergy);
	snprintf(momentumLabel, sizeof momentumLabel, "|momentum| %.3g kg m/s (max %.3g), %.0f s",
	         sim->historyCount > 0 ? (double)sim->momentum[last] : 0.0, (double)maxMomentum,
	         (double)((float)DM_HISTORY * sim->dt));
	float lineHeight = 12.0f * scale, w1, w2, unused;
	dmHud_Measure(energyLabel, &w1, &unused);
	dmHud_Measure(momentumLabel, &w2, &unused);
	float panelWidth = fmaxf(w, fmaxf(w1, w2));
	dmHud_Rect(x - 8.0f, y - 2.0f * lineHeight - 8.0f, panelWidth + 16.0f,
	           h + 2.0f * lineHeight + 14.0f, (vec4s){{0.05f, 0.06f, 0.08f, 0.72f}});
	dmHud_Text(x, y - 2.0f * lineHeight - 4.0f, energyLabel, energyColor);
	dmHud_Text(x, y - lineHeight - 4.0f, momentumLabel, momentumColor);
	dmHud_Rect(x, y + h, w, 1.0f, (vec4s){{0.6f, 0.6f, 0.6f, 0.6f}});
	dmPlotSeries(sim->energy, sim->historyHead, sim->historyCount, x, y, w, h, maxEnergy,
	             energyColor);
	dmPlotSeries(sim->momentum, sim->historyHead, sim->historyCount, x, y, w, h, maxMomentum,
	             momentumColor);
}

void dmWorldView_Draw(dmWorldView* v, const dmSim* sim, int width, int height, float frameMs,
                      const char* title, const char* sceneHelp)
{
	dmView view = {0};
	view.width = width, view.height = height;
	view.view = dmCamera_View(&v->camera);
	view.projection =
	    dmCamera_Projection(&v->camera, (float)width / (float)(height > 0 ? height : 1));
	view.eye = dmCamera_Eye(&v->camera);
	view.focus = v->focus;
	view.focusRadius = v->focusRadius;
	view.sky = true;
	view.ground = v->hasGround;
	view.groundY = v->groundY;
	dmRenderer_Begin(&view);
	for (int i = 0; i < sim->bodyCount; ++i) {
		tbShapeId shapes[8];
		int n = tbBody_GetShapes(sim->bodies[i], shapes, 8);
		bool isStatic = tbBody_GetType(sim->bodies[i]) == tb_staticBody;
		vec4s color = dmBodyColor(sim, i);
		for (int k = 0; k < n; ++k) {
			tbGeometry shape = tbShape_GetGeometry(shapes[k]);
			tbTransform xf = tbShape_GetWorldTransform(shapes[k]);
			if (isStatic && v->hasGround && dmIsGround(&shape, xf)) {
				continue;
			}
			if (tbShape_IsSensor(shapes[k])) {
				// A sensor is no solid: its box's 12 edges, so what passes through shows.
				dmDrawBoxEdges(tbShape_GetAABB(shapes[k]), (vec4s){{1.0f, 0.85f, 0.2f, 1.0f}});
				continue;
			}
			vec3s scale;
			int mesh = dmMeshFor(v, &shape, &scale);
			if (mesh >= 0) {
				dmRenderer_Mesh(mesh, glms_scale(dmModelMatrix(xf), scale), color);
			}
		}
	}
	if (!TB_IS_NULL(sim->picked)) {
		vec3s p = dmSim_PickPoint(sim);
		const vec4s white = {{1.0f, 1.0f, 1.0f, 1.0f}};
		dmRenderer_Line(p, sim->pickTarget, white);
		dmRenderer_Point(sim->pickTarget, 0.005f * v->camera.distance, white);
	}
	bool joints = v->showJoints && tbWorld_GetCounters(sim->worldId).jointCount > 0;
	if (v->showContacts || v->showAABBs || joints) {
		tbDebugDraw draw = tbDefaultDebugDraw();
		draw.drawShapes = false;
		draw.drawJoints = joints;
		draw.drawAABBs = v->showAABBs;
		draw.drawContactPoints = v->showContacts;
		draw.drawContactNormals = v->showContacts;
		draw.DrawSegment = dmDrawSegment;
		draw.DrawPoint = dmDrawPoint;
		draw.context = v;
		tbWorld_Draw(sim->worldId, &draw);
	}
	dmRenderer_End();

	float scale = height >= 900 ? 2.0f : height >= 600 ? 1.5f : 1.0f;
	dmHud_Begin(width, height, scale);
	tbWorldCounters counters = tbWorld_GetCounters(sim->worldId);
	// Where the last step's time went (tbWorld_GetProfile).
	tbProfile profile = tbWorld_GetProfile(sim->worldId);
	char text[1024];
	snprintf(text, sizeof text,
	         "%s%s\n"
	         "%.0f fps (%.2f ms)   step %.3f ms (%.0f Hz, %d substeps, %d %s)\n"
	         "pairs %.3f  collide %.3f  solve %.3f  integrate %.3f  sleep %.3f ms\n"
	         "bodies %d   contacts %d   awake %d   colours %d\n"
	         "H: help",
	         title, sim->paused ? "   [paused]" : "",
	         frameMs > 0.0f ? 1000.0 / (double)frameMs : 0.0, (double)frameMs, (double)sim->stepMs,
	         1.0 / (double)sim->dt, sim->substeps, dmSim_GetWorkerCount(),
	         dmSim_GetWorkerCount() == 1 ? "thread" : "threads", (double)profile.pairs,
	         (double)profile.collide, (double)profile.solve, (double)profile.integrate,
	         (double)profile.sleep, counters.bodyCount, counters.touchingCount,
	         counters.awakeBodyCount, profile.colors);
	dmHud_Panel(16.0f, 14.0f, text, (vec4s){{0.95f, 0.95f, 0.95f, 1.0f}});
	// The joint scenes' line (the car's keys and speed, the door's angle, the anchors' gap),
	// wrapped to the window, under the first panel.
	char note[512];
	dmSim_DescribeScene(sim, note, sizeof note);
	if (note[0] != '\0') {
		float w, h;
		dmHud_Measure(text, &w, &h);
		dmHud_Wrap(note, (float)width - 48.0f);
		dmHud_Panel(16.0f, 14.0f + h + 18.0f, note, (vec4s){{0.75f, 0.95f, 0.75f, 1.0f}});
	}
	if (v->help) {
		snprintf(
		    text, sizeof text,
		    "left drag: orbit, or drag a body   right drag: orbit\n"
		    "middle drag: pan   wheel: zoom (while dragging a body: its distance)\n"
		    "Space: pause   .: single step   R: reset\n"
		    "B: throw a box   C: contacts   A: AABBs   J: joints   H: help   F12: screenshot   "
		    "Esc: quit\n"
		    "car scene: W/S or Up/Down drive, A/D or Left/Right steer (A is not AABBs there)\n"
		    "%s",
		    sceneHelp);
		float w, h;
		dmHud_Measure(text, &w, &h);
		dmHud_Panel(0.5f * ((float)width - w), 0.5f * ((float)height - h), text,
		            (vec4s){{1.0f, 0.95f, 0.8f, 1.0f}});
	}
	float plotHeight = 80.0f * scale / 1.5f;
	dmDrawPlot(sim, 16.0f, (float)height - plotHeight - 16.0f, scale);
	dmHud_End();
}
