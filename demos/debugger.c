// The GJK/EPA debugger: records a query's trace whenever the shapes move, and draws the shapes,
// A - B and the recorded state of one iteration (Casalino 2021's GJK cases, the course slides' and
// the EPA article's EPA, Linneweber 2021 unified EPA), with a text panel of bounds, status and the
// final answer.
#include "debugger.h"

#include "camera.h"
#include "hud.h"
#include "minkowski.h"
#include "renderer.h"
#include "shape_mesh.h"
#include "trace_record.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The shape types a student can switch through, in key order.
static const tbShapeType s_types[] = {tb_boxShape,      tb_sphereShape, tb_capsuleShape,
                                      tb_cylinderShape, tb_coneShape,   tb_hullShape,
                                      tb_triangleShape};
#define DM_TYPE_COUNT ((int)(sizeof s_types / sizeof s_types[0]))

// Colours: A blue, B orange (as in the course slides), the difference violet.
static const vec4s s_colorA = {{0.30f, 0.55f, 0.92f, 1.0f}};
static const vec4s s_colorB = {{0.96f, 0.56f, 0.20f, 1.0f}};
static const vec4s s_colorSimplex = {{0.98f, 0.86f, 0.20f, 1.0f}};
static const vec4s s_colorSupport = {{0.95f, 0.20f, 0.80f, 1.0f}};
static const vec4s s_colorDirection = {{0.25f, 0.90f, 0.45f, 1.0f}};
static const vec4s s_colorDepth = {{0.92f, 0.18f, 0.15f, 1.0f}};

struct dmDebugger
{
	tbShapeType types[2];
	tbGeometry shapes[2];
	tbTransform poses[2];
	tbHull gem; // the hull shape's points, built once
	int selected;
	tbQueryAlgorithm algorithm;
	bool dirty, typesChanged, help;

	dmTrace trace;
	int step;
	bool followLast;     // stay on the last step when the trace is re-recorded
	tbQueryResult world; // the query in world space
	float replayDistance;
	vec3s replayNormal;

	tbHull full, core; // A - B, and the difference of the cores, A's frame
	bool hasCore;
	float diffRadius; // bounds A - B and the origin, display frame
	vec3s diffCentre;

	int meshShape[2], meshFull, meshCore, meshPolytope, meshClosest, meshVisible, meshSimplex;
	dmMeshData scratch;

	dmCamera worldCamera, diffCamera;
	float worldZoom, diffZoom;
};

static const char* s_help = "left/right: step   home/end: first/last   G: algorithm\n"
                            "1, 2: type of A, B   Tab: select   R: reset   H: help\n"
                            "W A S D Q E: move (shift: rotate)\n"
                            "drag: orbit   right drag: move (shift: rotate)   wheel: zoom";

bool dmParseShapeType(const char* name, tbShapeType* type)
{
	for (int i = 0; i < DM_TYPE_COUNT; ++i) {
		if (strcmp(tbShapeTypeName(s_types[i]), name) == 0) {
			*type = s_types[i];
			return true;
		}
	}
	return false;
}

dmDebuggerOptions dmDefaultDebuggerOptions(void)
{
	dmDebuggerOptions o;
	o.typeA = tb_boxShape;
	o.typeB = tb_boxShape;
	o.algorithm = tb_algorithmGjkEpa;
	o.step = -1;
	return o;
}

static tbGeometry dmMakeShape(const dmDebugger* d, tbShapeType type)
{
	switch (type) {
	case tb_sphereShape:
		return tbMakeSphere(0.5f);
	case tb_capsuleShape:
		return tbMakeCapsule(0.3f, 0.45f);
	case tb_cylinderShape:
		return tbMakeCylinder(0.45f, 0.4f);
	case tb_coneShape:
		return tbMakeCone(0.5f, 0.55f);
	case tb_hullShape:
		return tbMakeHullShape(&d->gem);
	case tb_triangleShape:
		return tbMakeTriangle((vec3s){{-0.6f, 0.0f, -0.4f}}, (vec3s){{0.65f, 0.05f, -0.3f}},
		                      (vec3s){{-0.05f, -0.05f, 0.6f}});
	case tb_boxShape:
	default:
		return tbMakeBox(0.6f, 0.4f, 0.5f);
	}
}

static void dmResetPoses(dmDebugger* d)
{
	// Overlapping by a tenth of their size: GJK encloses the origin and EPA has work to do.
	d->poses[0] =
	    tbMakeTransform((vec3s){{-0.45f, 1.0f, 0.0f}}, tbQuatFromEulerXYZ(0.2f, 0.3f, 0.1f));
	d->poses[1] =
	    tbMakeTransform((vec3s){{0.75f, 1.3f, 0.15f}}, tbQuatFromEulerXYZ(0.5f, -0.4f, 0.3f));
	d->dirty = true;
}

dmDebugger* dmDebugger_Create(const dmDebuggerOptions* options)
{
	dmDebugger* d = calloc(1, sizeof *d);
	if (d == NULL) {
		return NULL;
	}
	// An irregular gem: a ring of six points between two apexes, so that its faces are uneven.
	vec3s gem[8];
	for (int i = 0; i < 6; ++i) {
		float phi = (float)i * GLM_PIf / 3.0f;
		float r = i % 2 == 0 ? 0.55f : 0.42f;
		gem[i] = (vec3s){{r * cosf(phi), i % 3 == 0 ? 0.08f : -0.06f, r * sinf(phi)}};
	}
	gem[6] = (vec3s){{0.05f, 0.6f, 0.02f}};
	gem[7] = (vec3s){{-0.04f, -0.5f, 0.05f}};
	if (tbBuildHull(gem, 8, &d->gem, NULL) != tb_hullOk) {
		free(d);
		return NULL;
	}
	d->types[0] = options->typeA;
	d->types[1] = options->typeB;
	d->algorithm = options->algorithm;
	d->step = options->step;
	d->followLast = options->step < 0;
	d->help = true;
	d->typesChanged = true;
	dmResetPoses(d);
	dmMeshData empty = {0};
	d->meshShape[0] = dmRenderer_CreateMesh(&empty);
	d->meshShape[1] = dmRenderer_CreateMesh(&empty);
	d->meshFull = dmRenderer_CreateMesh(&empty);
	d->meshCore = dmRenderer_CreateMesh(&empty);
	d->meshPolytope = dmRenderer_CreateMesh(&empty);
	d->meshClosest = dmRenderer_CreateMesh(&empty);
	d->meshVisible = dmRenderer_CreateMesh(&empty);
	d->meshSimplex = dmRenderer_CreateMesh(&empty);
	d->worldCamera = dmDefaultCamera();
	d->diffCamera = dmDefaultCamera();
	d->worldZoom = 1.0f;
	d->diffZoom = 1.0f;
	return d;
}

void dmDebugger_Destroy(dmDebugger* d)
{
	if (d == NULL) {
		return;
	}
	dmTrace_Free(&d->trace);
	tbDestroyHull(&d->full);
	tbDestroyHull(&d->core);
	tbDestroyHull(&d->gem);
	dmMeshData_Free(&d->scratch);
	free(d);
}

// A's rotation takes A's frame (where the trace lives) to the world's orientation: A - B in world
// is R_A (a - b) in A's frame, so the right view turns with the left one.
static vec3s dmToDisplay(const dmDebugger* d, vec3s local)
{
	return tbRotateVector(d->poses[0].q, local);
}

static void dmHullToMesh(const dmDebugger* d, const tbHull* hull, dmMeshData* mesh)
{
	dmMeshData_Clear(mesh);
	if (hull->kind < tb_hullPolygon) {
		return;
	}
	for (int f = 0; f < hull->faceCount; ++f) {
		const tbHullFace* face = hull->faces + f;
		const int* ids = hull->faceIndices + face->firstIndex;
		for (int k = 1; k + 1 < face->indexCount; ++k) {
			dmMeshData_AddFlatTriangle(mesh, dmToDisplay(d, hull->vertices[ids[0]]),
			                           dmToDisplay(d, hull->vertices[ids[k]]),
			                           dmToDisplay(d, hull->vertices[ids[k + 1]]));
		}
	}
}

static void dmRebuild(dmDebugger* d)
{
	for (int i = 0; i < 2; ++i) {
		d->shapes[i] = dmMakeShape(d, d->types[i]);
	}
	if (d->typesChanged) {
		for (int i = 0; i < 2; ++i) {
			dmBuildShapeMesh(&d->shapes[i], 48, &d->scratch);
			dmRenderer_UpdateMesh(d->meshShape[i], &d->scratch);
		}
		d->typesChanged = false;
	}
	tbTransform bInA = tbInvMulTransforms(d->poses[0], d->poses[1]);
	dmTrace_Record(&d->trace, &d->shapes[0], &d->shapes[1], bInA, d->algorithm);
	tbQueryDef def = tbDefaultQueryDef();
	def.algorithm = d->algorithm;
	d->world = tbQueryShapes(&d->shapes[0], d->poses[0], &d->shapes[1], d->poses[1], &def);
	if (!dmTrace_Replay(&d->trace, &d->replayDistance, &d->replayNormal)) {
		d->replayDistance = NAN;
	}
	if (d->followLast || d->step < 0 || d->step >= d->trace.count) {
		d->step = d->trace.count - 1;
		d->followLast = true;
	}

	tbDestroyHull(&d->full);
	tbDestroyHull(&d->core);
	dmBuildMinkowskiHull(&d->shapes[0], &d->shapes[1], bInA, false, 1500, &d->full);
	d->hasCore = d->trace.coreRadiusA > 0.0f || d->trace.coreRadiusB > 0.0f;
	if (d->hasCore) {
		dmBuildMinkowskiHull(&d->shapes[0], &d->shapes[1], bInA, true, 1500, &d->core);
	}
	dmHullToMesh(d, &d->full, &d->scratch);
	dmRenderer_UpdateMesh(d->meshFull, &d->scratch);
	dmHullToMesh(d, &d->core, &d->scratch);
	dmRenderer_UpdateMesh(d->meshCore, &d->scratch);

	// Frame the difference and the origin together.
	vec3s lo = glms_vec3_zero(), hi = glms_vec3_zero();
	for (int i = 0; i < d->full.vertexCount; ++i) {
		vec3s p = dmToDisplay(d, d->full.vertices[i]);
		lo = glms_vec3_minv(lo, p);
		hi = glms_vec3_maxv(hi, p);
	}
	d->diffCentre = glms_vec3_scale(glms_vec3_add(lo, hi), 0.5f);
	d->diffRadius = fmaxf(0.25f, 0.5f * glms_vec3_norm(glms_vec3_sub(hi, lo)));
	d->dirty = false;
}

static void dmCycleType(dmDebugger* d, int which, int delta)
{
	int index = 0;
	for (int i = 0; i < DM_TYPE_COUNT; ++i) {
		index = s_types[i] == d->types[which] ? i : index;
	}
	index = (index + delta + DM_TYPE_COUNT) % DM_TYPE_COUNT;
	d->types[which] = s_types[index];
	d->typesChanged = true;
	d->dirty = true;
}

static void dmSetStep(dmDebugger* d, int step)
{
	int last = d->trace.count - 1;
	d->step = step < 0 ? 0 : step > last ? last : step;
	d->followLast = d->step == last;
}

static void dmRotateSelected(dmDebugger* d, vec3s axis, float angle)
{
	tbTransform* xf = &d->poses[d->selected];
	versors turn = glms_quatv(angle, glms_vec3_normalize(axis));
	xf->q = glms_quat_normalize(glms_quat_mul(turn, xf->q));
	d->dirty = true;
}

void dmDebugger_Update(dmDebugger* d, dmApp* app, float dt)
{
	if (d->dirty) {
		dmRebuild(d);
	}
	for (int i = 0; i < app->keyCount; ++i) {
		int key = app->keys[i].key;
		bool shift = (app->keys[i].mods & GLFW_MOD_SHIFT) != 0;
		switch (key) {
		case GLFW_KEY_RIGHT:
		case GLFW_KEY_PERIOD:
		case GLFW_KEY_N:
			dmSetStep(d, d->step + 1);
			break;
		case GLFW_KEY_LEFT:
		case GLFW_KEY_COMMA:
		case GLFW_KEY_P:
			dmSetStep(d, d->step - 1);
			break;
		case GLFW_KEY_HOME:
			dmSetStep(d, 0);
			break;
		case GLFW_KEY_END:
			dmSetStep(d, d->trace.count - 1);
			break;
		case GLFW_KEY_1:
		case GLFW_KEY_2:
			dmCycleType(d, key - GLFW_KEY_1, shift ? -1 : 1);
			break;
		case GLFW_KEY_TAB:
			d->selected ^= 1;
			break;
		case GLFW_KEY_G:
			d->algorithm =
			    d->algorithm == tb_algorithmGjkEpa ? tb_algorithmUnifiedEpa : tb_algorithmGjkEpa;
			d->dirty = true;
			break;
		case GLFW_KEY_R:
			dmResetPoses(d);
			break;
		case GLFW_KEY_H:
			d->help = !d->help;
			break;
		case GLFW_KEY_ESCAPE:
			glfwSetWindowShouldClose(app->window, GLFW_TRUE);
			break;
		default:
			break;
		}
	}

	// Held keys move the selected shape in the ground plane as the camera sees it (W away from
	// the viewer), or rotate it with shift.
	vec3s right, up, forward;
	dmCamera_Axes(&d->worldCamera, &right, &up, &forward);
	vec3s flatForward = glms_vec3_normalize((vec3s){{forward.x, 0.0f, forward.z}});
	vec3s flatRight = glms_vec3_normalize((vec3s){{right.x, 0.0f, right.z}});
	bool shift =
	    dmApp_KeyDown(app, GLFW_KEY_LEFT_SHIFT) || dmApp_KeyDown(app, GLFW_KEY_RIGHT_SHIFT);
	static const int moveKeys[6] = {GLFW_KEY_W, GLFW_KEY_S, GLFW_KEY_D,
	                                GLFW_KEY_A, GLFW_KEY_E, GLFW_KEY_Q};
	vec3s axes[3] = {flatForward, flatRight, {{0.0f, 1.0f, 0.0f}}};
	for (int k = 0; k < 6; ++k) {
		if (!dmApp_KeyDown(app, moveKeys[k])) {
			continue;
		}
		float sign = k % 2 == 0 ? 1.0f : -1.0f;
		if (shift) {
			// Rotation axes: W/S tip about the camera's right, A/D turn about y, Q/E roll.
			vec3s axis = k / 2 == 0 ? flatRight : k / 2 == 1 ? axes[2] : flatForward;
			dmRotateSelected(d, axis, sign * 1.2f * dt);
		} else {
			tbTransform* xf = &d->poses[d->selected];
			xf->p = glms_vec3_add(xf->p, glms_vec3_scale(axes[k / 2], sign * 0.8f * dt));
			d->dirty = true;
		}
	}

	bool rightHalf = app->mouseX >= 0.5f * (float)app->fbWidth;
	if (app->buttons[0] && (app->dragX != 0.0f || app->dragY != 0.0f)) {
		// One orientation for both views, so that A - B turns with the shapes.
		dmCamera_Orbit(&d->worldCamera, app->dragX, app->dragY);
		d->diffCamera.yaw = d->worldCamera.yaw;
		d->diffCamera.pitch = d->worldCamera.pitch;
	}
	if (app->buttons[1] && (app->dragX != 0.0f || app->dragY != 0.0f)) {
		if (shift) {
			dmRotateSelected(d, up, 0.01f * app->dragX);
			dmRotateSelected(d, right, 0.01f * app->dragY);
		} else {
			tbTransform* xf = &d->poses[d->selected];
			vec3s offset =
			    dmCamera_DragOffset(&d->worldCamera, app->dragX, app->dragY, (float)app->fbHeight);
			xf->p = glms_vec3_add(xf->p, offset);
			d->dirty = true;
		}
	}
	if (app->scroll != 0.0f) {
		float* zoom = rightHalf ? &d->diffZoom : &d->worldZoom;
		*zoom *= powf(0.9f, app->scroll);
		*zoom = fminf(fmaxf(*zoom, 0.05f), 20.0f);
	}
	if (d->dirty) {
		dmRebuild(d);
	}
}

// ---------------------------------------------------------------------------------------------
// Drawing

static vec4s dmWithAlpha(vec4s c, float a)
{
	c.a = a;
	return c;
}

static vec4s dmScaled(vec4s c, float s)
{
	return (vec4s){{c.r * s, c.g * s, c.b * s, c.a}};
}

static const char* dmRegionName(int kept)
{
	switch (kept) {
	case 1:
		return "vertex region";
	case 2:
		return "edge region";
	case 3:
		return "face region";
	default:
		return "inside";
	}
}

// Support calls up to and including step `upTo` (GJK spends one to start each run).
static int dmSupportCalls(const dmTrace* trace, int upTo)
{
	int calls = 0;
	for (int i = 0; i <= upTo && i < trace->count; ++i) {
		const dmTraceStep* s = trace->steps + i;
		bool newRun = i == 0 || trace->steps[i - 1].run != s->run;
		// GJK's last record takes no support: it is the simplex the loop ended with.
		calls += (s->last ? 0 : 1) + (s->stage == tb_traceGjk && newRun ? 1 : 0);
	}
	return calls;
}

static void dmDrawWorld(dmDebugger* d, const dmView* view)
{
	dmRenderer_Begin(view);
	bool hit = d->world.hit;
	for (int i = 0; i < 2; ++i) {
		vec4s c = i == 0 ? s_colorA : s_colorB;
		// See-through when overlapping, so that the penetration vector inside stays visible.
		c = dmWithAlpha(i == d->selected ? c : dmScaled(c, 0.85f), hit ? 0.7f : 1.0f);
		dmRenderer_Mesh(d->meshShape[i], dmModelMatrix(d->poses[i]), c);
	}
	if (d->world.status == tb_queryInvalidInput) {
		dmRenderer_End();
		return;
	}
	const tbQueryResult* r = &d->world;
	float ps = 0.035f;
	dmRenderer_Point(r->pointA, ps, dmScaled(s_colorA, 0.6f));
	dmRenderer_Point(r->pointB, ps, dmScaled(s_colorB, 0.6f));
	if (hit) {
		// Translating B by depth along the normal separates the shapes: draw that push.
		dmRenderer_Arrow(r->pointB, r->pointA, 0.012f, s_colorDepth);
	} else {
		dmRenderer_Segment(r->pointA, r->pointB, 0.01f, s_colorDirection);
	}
	dmRenderer_End();
}

static void dmDrawSimplex(dmDebugger* d, const dmTraceStep* s, float ps)
{
	vec3s p[4];
	for (int i = 0; i < s->simplexCount; ++i) {
		p[i] = dmToDisplay(d, s->simplex[i]);
		dmRenderer_Point(p[i], ps, s_colorSimplex);
	}
	for (int i = 0; i < s->simplexCount; ++i) {
		for (int j = i + 1; j < s->simplexCount; ++j) {
			dmRenderer_Segment(p[i], p[j], 0.35f * ps, s_colorSimplex);
		}
	}
	dmMeshData_Clear(&d->scratch);
	if (s->simplexCount == 3) {
		dmMeshData_AddFlatTriangle(&d->scratch, p[0], p[1], p[2]);
		dmMeshData_AddFlatTriangle(&d->scratch, p[0], p[2], p[1]);
	}
	dmRenderer_UpdateMesh(d->meshSimplex, &d->scratch);
	dmRenderer_Mesh(d->meshSimplex, glms_mat4_identity(), dmWithAlpha(s_colorSimplex, 0.4f));
	// v, the closest point of the simplex to the origin, is minus the search direction.
	vec3s v = dmToDisplay(d, glms_vec3_negate(s->direction));
	vec3s w = dmToDisplay(d, s->support);
	float len = glms_vec3_norm(v);
	dmRenderer_Point(v, 0.7f * ps, (vec4s){{1.0f, 1.0f, 1.0f, 1.0f}});
	if (len > 0.0f) {
		vec3s dir = glms_vec3_scale(v, -1.0f / len);
		float arrow = fminf(len, 0.6f * d->diffRadius);
		dmRenderer_Arrow(v, glms_vec3_add(v, glms_vec3_scale(dir, arrow)), 0.3f * ps,
		                 s_colorDirection);
		// The support plane through w, normal to the direction: its distance from the origin
		// is GJK's lower bound.
		vec3s helper = fabsf(dir.y) < 0.9f ? (vec3s){{0, 1, 0}} : (vec3s){{1, 0, 0}};
		vec3s t1 = glms_vec3_normalize(glms_vec3_cross(dir, helper));
		vec3s t2 = glms_vec3_cross(dir, t1);
		float h = 0.35f * d->diffRadius;
		vec3s corner[4];
		for (int k = 0; k < 4; ++k) {
			float a = k == 0 || k == 3 ? -h : h, b = k < 2 ? -h : h;
			corner[k] =
			    glms_vec3_add(w, glms_vec3_add(glms_vec3_scale(t1, a), glms_vec3_scale(t2, b)));
		}
		for (int k = 0; k < 4; ++k) {
			dmRenderer_Line(corner[k], corner[(k + 1) % 4], dmWithAlpha(s_colorSupport, 0.8f));
		}
	}
	dmRenderer_Line(v, w, dmWithAlpha(s_colorSupport, 0.9f));
	dmRenderer_Point(w, 1.2f * ps, s_colorSupport);
}

static vec3s dmStepVertex(const dmDebugger* d, const dmTraceStep* s, int t, int k)
{
	return dmToDisplay(d, s->vertices[s->triangles[3 * t + k]]);
}

// Faces of the polytope that the support point sees, and their horizon (edges between a seen and
// an unseen face): what EPA removes and rebuilds (the course slides, the EPA article). Returns the
// horizon size.
static int dmDrawPolytope(dmDebugger* d, const dmTraceStep* s, int closest, float ps)
{
	dmMeshData_Clear(&d->scratch);
	for (int t = 0; t < s->triangleCount; ++t) {
		dmMeshData_AddFlatTriangle(&d->scratch, dmStepVertex(d, s, t, 0), dmStepVertex(d, s, t, 1),
		                           dmStepVertex(d, s, t, 2));
	}
	dmRenderer_UpdateMesh(d->meshPolytope, &d->scratch);
	dmRenderer_Mesh(d->meshPolytope, glms_mat4_identity(), (vec4s){{0.25f, 0.80f, 0.85f, 0.30f}});

	vec4s edge = {{0.70f, 0.95f, 1.0f, 0.9f}};
	for (int t = 0; t < s->triangleCount; ++t) {
		for (int k = 0; k < 3; ++k) {
			dmRenderer_Line(dmStepVertex(d, s, t, k), dmStepVertex(d, s, t, (k + 1) % 3), edge);
		}
	}
	for (int i = 0; i < s->vertexCount; ++i) {
		dmRenderer_Point(dmToDisplay(d, s->vertices[i]), 0.45f * ps, edge);
	}

	// Visible faces: the support point is in front of their plane.
	bool* seen = calloc((size_t)(s->triangleCount > 0 ? s->triangleCount : 1), sizeof(bool));
	dmMeshData_Clear(&d->scratch);
	int horizon = 0;
	if (seen != NULL) {
		for (int t = 0; t < s->triangleCount; ++t) {
			vec3s a = s->vertices[s->triangles[3 * t]], b = s->vertices[s->triangles[3 * t + 1]],
			      c = s->vertices[s->triangles[3 * t + 2]];
			vec3s n = glms_vec3_cross(glms_vec3_sub(b, a), glms_vec3_sub(c, a));
			float len = glms_vec3_norm(n);
			// Well above float noise: faces w only touches are not rebuilt.
			seen[t] = len > 0.0f &&
			          glms_vec3_dot(n, glms_vec3_sub(s->support, a)) / len > 1e-4f * d->trace.scale;
			if (seen[t] && t != closest) {
				dmMeshData_AddFlatTriangle(&d->scratch, dmStepVertex(d, s, t, 0),
				                           dmStepVertex(d, s, t, 1), dmStepVertex(d, s, t, 2));
			}
		}
		// A horizon edge belongs to one seen face whose neighbour across it is unseen; the
		// neighbour has the same edge reversed.
		for (int t = 0; t < s->triangleCount; ++t) {
			if (!seen[t]) {
				continue;
			}
			for (int k = 0; k < 3; ++k) {
				int i0 = s->triangles[3 * t + k], i1 = s->triangles[3 * t + (k + 1) % 3];
				bool border = true;
				for (int u = 0; u < s->triangleCount && border; ++u) {
					if (u == t) {
						continue;
					}
					for (int m = 0; m < 3; ++m) {
						if (s->triangles[3 * u + m] == i1 &&
						    s->triangles[3 * u + (m + 1) % 3] == i0) {
							border = !seen[u];
						}
					}
				}
				if (border) {
					dmRenderer_Segment(dmToDisplay(d, s->vertices[i0]),
					                   dmToDisplay(d, s->vertices[i1]), 0.3f * ps, s_colorDepth);
					horizon += 1;
				}
			}
		}
		free(seen);
	}
	dmRenderer_UpdateMesh(d->meshVisible, &d->scratch);
	dmRenderer_Mesh(d->meshVisible, glms_mat4_identity(), (vec4s){{0.95f, 0.30f, 0.25f, 0.45f}});

	dmMeshData_Clear(&d->scratch);
	if (closest >= 0) {
		dmMeshData_AddFlatTriangle(&d->scratch, dmStepVertex(d, s, closest, 0),
		                           dmStepVertex(d, s, closest, 1), dmStepVertex(d, s, closest, 2));
	}
	dmRenderer_UpdateMesh(d->meshClosest, &d->scratch);
	// Opaque: drawn before the see-through polytope, whose coplanar face then fails the depth
	// test instead of tinting it.
	dmRenderer_Mesh(d->meshClosest, glms_mat4_identity(), (vec4s){{1.0f, 0.48f, 0.05f, 1.0f}});
	return horizon;
}

static void dmDrawDifference(dmDebugger* d, const dmView* view, int* horizonOut)
{
	dmRenderer_Begin(view);
	float ps = 0.022f * d->diffRadius;
	// The axes through the origin, and the origin itself: GJK asks whether A - B holds it.
	float axis = 0.5f * d->diffRadius;
	dmRenderer_Line(glms_vec3_zero(), (vec3s){{axis, 0, 0}}, (vec4s){{0.9f, 0.3f, 0.3f, 1}});
	dmRenderer_Line(glms_vec3_zero(), (vec3s){{0, axis, 0}}, (vec4s){{0.3f, 0.9f, 0.3f, 1}});
	dmRenderer_Line(glms_vec3_zero(), (vec3s){{0, 0, axis}}, (vec4s){{0.3f, 0.5f, 1.0f, 1}});
	dmRenderer_Point(glms_vec3_zero(), 0.8f * ps, (vec4s){{1.0f, 1.0f, 1.0f, 1.0f}});

	// A - B; with a sphere or capsule the algorithm works on the cores' difference (the balls
	// are added back at the end), so that one is drawn stronger.
	dmRenderer_Mesh(d->meshFull, glms_mat4_identity(),
	                (vec4s){{0.62f, 0.50f, 0.90f, d->hasCore ? 0.10f : 0.22f}});
	if (d->hasCore) {
		dmRenderer_Mesh(d->meshCore, glms_mat4_identity(), (vec4s){{0.62f, 0.50f, 0.90f, 0.25f}});
		if (d->core.kind == tb_hullPoint && d->core.vertexCount > 0) {
			dmRenderer_Point(dmToDisplay(d, d->core.vertices[0]), ps,
			                 (vec4s){{0.62f, 0.5f, 0.9f, 1}});
		}
	}
	const tbHull* drawn = d->hasCore ? &d->core : &d->full;
	if (drawn->edgeCount <= 600) {
		for (int e = 0; e < drawn->edgeCount; ++e) {
			dmRenderer_Line(dmToDisplay(d, drawn->vertices[drawn->edges[e].v0]),
			                dmToDisplay(d, drawn->vertices[drawn->edges[e].v1]),
			                (vec4s){{0.75f, 0.68f, 0.95f, 0.55f}});
		}
	}

	*horizonOut = -1;
	if (d->step >= 0 && d->step < d->trace.count) {
		const dmTraceStep* s = d->trace.steps + d->step;
		if (s->stage == tb_traceGjk) {
			dmDrawSimplex(d, s, ps);
		} else {
			float fd;
			vec3s n;
			int closest = dmTraceStep_ClosestFace(s, &fd, &n);
			*horizonOut = dmDrawPolytope(d, s, closest, ps);
			vec3s w = dmToDisplay(d, s->support);
			vec3s dir = dmToDisplay(d, glms_vec3_normalize(s->direction));
			if (s->stage == tb_traceUnifiedEpa && s->distance < 0.0f) {
				// Origin outside the polytope (Linneweber 2021 step b): the closest point of the
				// polytope, and the search from it towards the origin.
				vec3s q = glms_vec3_scale(dir, s->distance);
				dmRenderer_Point(q, 0.7f * ps, (vec4s){{1, 1, 1, 1}});
				dmRenderer_Arrow(q, glms_vec3_zero(), 0.3f * ps, s_colorDirection);
				dmRenderer_Line(q, w, dmWithAlpha(s_colorSupport, 0.9f));
			} else {
				// Origin inside: the closest face's normal from the origin to its plane.
				vec3s foot = glms_vec3_scale(dir, s->distance);
				dmRenderer_Arrow(glms_vec3_zero(), foot, 0.3f * ps, s_colorDirection);
				dmRenderer_Line(foot, w, dmWithAlpha(s_colorSupport, 0.9f));
			}
			dmRenderer_Point(w, 1.2f * ps, s_colorSupport);
		}
	}
	dmRenderer_End();
}

static void dmShapeText(const tbGeometry* s, char* out, size_t size)
{
	switch (s->type) {
	case tb_sphereShape:
		snprintf(out, size, "sphere r %.2f", (double)s->radius);
		break;
	case tb_boxShape:
		snprintf(out, size, "box %.2f x %.2f x %.2f", 2.0 * (double)s->halfExtents.x,
		         2.0 * (double)s->halfExtents.y, 2.0 * (double)s->halfExtents.z);
		break;
	case tb_hullShape:
		snprintf(out, size, "hull of %d vertices", s->hull->vertexCount);
		break;
	case tb_triangleShape:
		snprintf(out, size, "triangle");
		break;
	default:
		snprintf(out, size, "%s r %.2f h %.2f", tbShapeTypeName(s->type), (double)s->round.radius,
		         2.0 * (double)s->round.halfHeight);
		break;
	}
}

// "GJK iteration 3", or "GJK end, after 3 iterations" for the simplex the loop ended with.
static void dmStepTitle(const dmTraceStep* s, char* out, size_t size)
{
	if (s->last) {
		snprintf(out, size, "%s end, after %d iteration%s", dmTraceStep_Phase(s), s->iteration,
		         s->iteration == 1 ? "" : "s");
	} else {
		snprintf(out, size, "%s iteration %d", dmTraceStep_Phase(s), s->iteration);
	}
}

static void dmStepText(const dmDebugger* d, int horizon, char* out, size_t size)
{
	const dmTrace* t = &d->trace;
	if (d->step < 0 || d->step >= t->count) {
		snprintf(out, size, "no iteration recorded (the first support already decided)");
		return;
	}
	const dmTraceStep* s = t->steps + d->step;
	float lower, upper;
	dmTraceStep_Bounds(s, &lower, &upper);
	int n = 0;
	char title[96];
	dmStepTitle(s, title, sizeof title);
	n += snprintf(out + n, size - (size_t)n, "step %d of %d: %s\n", d->step + 1, t->count, title);
	if (s->stage == tb_traceGjk) {
		static const char* const names[5] = {"", "point", "segment", "triangle", "tetrahedron"};
		const dmTraceStep* next = d->step + 1 < t->count ? s + 1 : NULL;
		n += snprintf(out + n, size - (size_t)n, "simplex: %s (%d); |v| = %.5f%s\n",
		              names[s->simplexCount], s->simplexCount, (double)s->distance,
		              s->last ? "" : ", new support w (magenta)");
		if (s->last) {
			n += snprintf(out + n, size - (size_t)n, "GJK ends with this simplex: %s\n",
			              s->simplexCount == 4  ? "it encloses the origin (overlap)"
			              : s->distance <= 0.0f ? "the origin is on it (overlap)"
			                                    : "its closest point gives the distance");
		} else if (next != NULL && next->stage == tb_traceGjk && next->run == s->run) {
			n += snprintf(out + n, size - (size_t)n,
			              "adding w: closest to the origin in the %s, keeps %d point%s\n",
			              dmRegionName(next->simplexCount), next->simplexCount,
			              next->simplexCount == 1 ? "" : "s");
		} else if (s->simplexCount == 3 && (next != NULL || t->result.hit)) {
			n += snprintf(out + n, size - (size_t)n,
			              "adding w: the tetrahedron encloses the origin: overlap\n");
		} else if (next != NULL || t->result.hit) {
			n += snprintf(out + n, size - (size_t)n,
			              "adding w: the origin is on the simplex: overlap, GJK ends\n");
		} else {
			n += snprintf(out + n, size - (size_t)n,
			              "stop: the support plane is within tolerance of v\n");
		}
		n += snprintf(out + n, size - (size_t)n, "distance bounds: %.5f <= d <= %.5f\n",
		              (double)lower, (double)upper);
		float radii = t->coreRadiusA + t->coreRadiusB;
		if (radii > 0.0f) {
			// GJK ran on the cores: the shapes' distance is the cores' less the two radii.
			n += snprintf(out + n, size - (size_t)n,
			              "(of the cores; the shapes are %.5f closer: d - %.5f)\n", (double)radii,
			              (double)radii);
		}
	} else {
		bool outside = s->stage == tb_traceUnifiedEpa && s->distance < 0.0f;
		n += snprintf(out + n, size - (size_t)n, "polytope: %d vertices, %d faces\n",
		              s->vertexCount, s->triangleCount);
		if (outside) {
			n += snprintf(out + n, size - (size_t)n,
			              "origin outside: search from the closest point to the origin\n"
			              "distance bounds: %.5f <= d <= %.5f\n",
			              (double)lower, (double)upper);
		} else {
			n += snprintf(out + n, size - (size_t)n,
			              "closest face (orange) at %.5f\n"
			              "support w along its normal at %.5f\n"
			              "depth bounds: %.5f <= depth <= %.5f (gap %.2e)\n",
			              (double)lower, (double)upper, (double)lower, (double)upper,
			              (double)(upper - lower));
		}
		if (horizon > 0) {
			n += snprintf(out + n, size - (size_t)n,
			              "faces seen from w (red) go; the horizon (%d edges) is rebuilt\n",
			              horizon);
		} else if (horizon == 0) {
			n += snprintf(out + n, size - (size_t)n,
			              "w sees no face: the gap is closed, the loop stops here\n");
		}
	}
	n +=
	    snprintf(out + n, size - (size_t)n, "support calls so far: %d", dmSupportCalls(t, d->step));
	(void)n;
}

void dmDebugger_Describe(const dmDebugger* d, char* out, int size)
{
	if (d->step < 0 || d->step >= d->trace.count) {
		snprintf(out, (size_t)size, "no step recorded");
		return;
	}
	const dmTraceStep* s = d->trace.steps + d->step;
	char title[96];
	dmStepTitle(s, title, sizeof title);
	snprintf(out, (size_t)size, "step %d of %d: %s", d->step + 1, d->trace.count, title);
}

void dmDebugger_Draw(dmDebugger* d, int width, int height)
{
	if (d->dirty) {
		dmRebuild(d);
	}
	int half = width / 2;
	float aspect = (float)half / (float)(height > 0 ? height : 1);

	// Left: the world. The camera follows the pair.
	vec3s mid = glms_vec3_scale(glms_vec3_add(d->poses[0].p, d->poses[1].p), 0.5f);
	float spread = glms_vec3_norm(glms_vec3_sub(d->poses[0].p, d->poses[1].p));
	d->worldCamera.target = mid;
	d->worldCamera.distance = (3.2f + 1.5f * spread) * d->worldZoom;
	dmView world = {0};
	world.x = 0, world.y = 0, world.width = half, world.height = height;
	world.view = dmCamera_View(&d->worldCamera);
	world.projection = dmCamera_Projection(&d->worldCamera, aspect);
	world.eye = dmCamera_Eye(&d->worldCamera);
	world.focus = mid;
	world.focusRadius = 1.5f + spread;
	world.sky = true;
	world.ground = true;
	world.groundY = 0.0f;
	dmDrawWorld(d, &world);

	// Right: A - B in world orientation about the origin.
	d->diffCamera.target = glms_vec3_scale(d->diffCentre, 0.5f);
	d->diffCamera.distance =
	    (2.6f * d->diffRadius + 0.5f * glms_vec3_norm(d->diffCentre)) * d->diffZoom;
	dmView diff = world;
	diff.x = half;
	diff.width = width - half;
	diff.view = dmCamera_View(&d->diffCamera);
	diff.projection = dmCamera_Projection(&d->diffCamera, (float)diff.width / (float)height);
	diff.eye = dmCamera_Eye(&d->diffCamera);
	diff.focus = d->diffCamera.target;
	diff.focusRadius = 2.0f * d->diffRadius + glms_vec3_norm(d->diffCentre);
	diff.sky = false;
	diff.ground = false;
	int horizon = -1;
	dmDrawDifference(d, &diff, &horizon);

	// Text.
	float scale = height >= 900 ? 2.0f : 1.5f;
	dmHud_Begin(width, height, scale);
	char a[64], b[64], text[1200];
	dmShapeText(&d->shapes[0], a, sizeof a);
	dmShapeText(&d->shapes[1], b, sizeof b);
	const tbQueryResult* r = &d->world;
	snprintf(text, sizeof text,
	         "%sA: %s\n%sB: %s\n"
	         "%s, signed distance %.5f m\n"
	         "normal A->B (%.3f %.3f %.3f), status %s\n"
	         "iterations: GJK %d, %s %d\n"
	         "replayed from the last step: %.5f m",
	         d->selected == 0 ? "> " : "  ", a, d->selected == 1 ? "> " : "  ", b,
	         r->hit ? "overlap" : "apart", (double)r->distance, (double)r->normal.x,
	         (double)r->normal.y, (double)r->normal.z, tbQueryStatusName(r->status),
	         r->gjkIterations, d->algorithm == tb_algorithmGjkEpa ? "EPA" : "unified EPA",
	         r->epaIterations, (double)d->replayDistance);
	// Spheres and capsules are a core (a point, a segment) plus a ball: say so, since every
	// distance on the right is the cores'.
	float radii[2] = {d->trace.coreRadiusA, d->trace.coreRadiusB};
	for (int i = 0; i < 2; ++i) {
		if (radii[i] > 0.0f) {
			size_t used = strlen(text);
			snprintf(text + used, sizeof text - used,
			         "\n%s is handled as its core (%s) plus a ball of radius %.3f",
			         i == 0 ? "A" : "B",
			         d->shapes[i].type == tb_sphereShape ? "the centre" : "the axis segment",
			         (double)radii[i]);
		}
	}
	// Every panel stays inside its half of the window, whatever its width.
	float panelWidth = (float)half - 32.0f;
	dmHud_Wrap(text, panelWidth);
	dmHud_Panel(16.0f, 14.0f, text, (vec4s){{0.95f, 0.95f, 0.95f, 1.0f}});

	char stepText[1024];
	dmStepText(d, horizon, stepText, sizeof stepText);
	snprintf(text, sizeof text, "A - B   [%s]\n%s",
	         d->algorithm == tb_algorithmGjkEpa ? "GJK + EPA" : "unified EPA", stepText);
	dmHud_Wrap(text, panelWidth);
	dmHud_Panel((float)half + 16.0f, 14.0f, text, (vec4s){{0.95f, 0.95f, 0.95f, 1.0f}});

	// Legend: the colours of the right view.
	const char* legend = "yellow simplex   green search direction   magenta support w\n"
	                     "cyan polytope   orange closest face   red seen faces, horizon";
	float lw, lh;
	dmHud_Measure(legend, &lw, &lh);
	dmHud_Panel((float)half + 16.0f, (float)height - lh - 14.0f, legend,
	            (vec4s){{0.85f, 0.85f, 0.85f, 1.0f}});
	if (d->help) {
		float hw, hh;
		dmHud_Measure(s_help, &hw, &hh);
		dmHud_Panel(16.0f, (float)height - hh - 14.0f, s_help, (vec4s){{0.85f, 0.9f, 1.0f, 1.0f}});
	}
	// The divider between the views.
	dmHud_Rect((float)half - 1.0f, 0.0f, 2.0f, (float)height, (vec4s){{0.0f, 0.0f, 0.0f, 1.0f}});
	dmHud_End();
}
