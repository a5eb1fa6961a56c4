// The contact solver debugger: records one step of the chosen contact (solver_record.c) and draws
// the pass shown: the normal impulse of each point as bars with the substep's warm start, the
// soft bias and speed error per point, the friction impulse against the Coulomb disc mu N, and the
// residual over every pass of the step (docs/demo.md, docs/solver.md).
#include "solver_debugger.h"

#include "camera.h"
#include "hud.h"
#include "solver_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dmSolverDebugger
{
	dmSolverRecord record;
	tbContactData* contacts;
	int contactCount, contactCapacity;
	int chosen;    // the contact recorded, among contacts (-1: none)
	tbBodyId body; // a clicked body: Tab goes through its contacts only (null: all of them)
	int pass;      // the row shown
	bool help, wasDown, recorded;
};

// The points' colours, in the bars and on the scene.
static const vec4s s_pointColors[4] = {{{0.35f, 0.65f, 1.0f, 1.0f}},
                                       {{0.45f, 0.9f, 0.45f, 1.0f}},
                                       {{0.95f, 0.75f, 0.25f, 1.0f}},
                                       {{0.9f, 0.45f, 0.9f, 1.0f}}};
static const vec4s s_white = {{0.95f, 0.95f, 0.95f, 1.0f}};
static const vec4s s_dim = {{0.6f, 0.6f, 0.65f, 0.7f}};
static const vec4s s_bias = {{1.0f, 0.6f, 0.2f, 1.0f}};
static const vec4s s_error = {{0.95f, 0.25f, 0.2f, 1.0f}};
static const vec4s s_push = {{1.0f, 0.6f, 0.2f, 1.0f}};
static const vec4s s_relax = {{0.35f, 0.85f, 0.45f, 1.0f}};
static const vec4s s_disc = {{0.35f, 0.85f, 0.45f, 1.0f}};
static const vec4s s_clamped = {{0.95f, 0.25f, 0.2f, 1.0f}};
static const vec4s s_friction = {{0.35f, 0.85f, 0.95f, 1.0f}};

static const char* s_help = "left/right or P/N: pass   S: next substep   home/end: first/last\n"
                            "Tab: next contact (shift: previous)   click a body: its contacts\n"
                            "Enter: step the scene, record the next step   H: help   -: back\n"
                            "right drag: orbit   wheel: zoom";

dmSolverDebugger* dmSolverDebugger_Create(void)
{
	dmSolverDebugger* d = calloc(1, sizeof *d);
	if (d != NULL) {
		d->chosen = -1;
	}
	return d;
}

void dmSolverDebugger_Destroy(dmSolverDebugger* d)
{
	if (d == NULL) {
		return;
	}
	dmSolverRecord_Free(&d->record);
	free(d->contacts);
	free(d);
}

// The world's touching pairs now; false when memory ran out.
static bool dmRefreshContacts(dmSolverDebugger* d, const dmSim* sim)
{
	int n = tbWorld_GetContactCount(sim->worldId);
	if (n > d->contactCapacity) {
		tbContactData* grown = realloc(d->contacts, sizeof *grown * (size_t)n);
		if (grown == NULL) {
			d->contactCount = 0;
			return false;
		}
		d->contacts = grown;
		d->contactCapacity = n;
	}
	d->contactCount = n > 0 ? tbWorld_GetContactData(sim->worldId, d->contacts, n) : 0;
	return true;
}

static bool dmTouchesBody(const tbContactData* c, tbBodyId body)
{
	return TB_IS_NULL(body) || TB_ID_EQUALS(tbShape_GetBody(c->shapeIdA), body) ||
	       TB_ID_EQUALS(tbShape_GetBody(c->shapeIdB), body);
}

// Record the chosen contact's step and show its first biased pass.
static void dmRecord(dmSolverDebugger* d, dmSim* sim)
{
	d->recorded = false;
	d->pass = 0;
	if (d->chosen < 0 || d->chosen >= d->contactCount) {
		return;
	}
	const tbContactData* c = d->contacts + d->chosen;
	d->recorded = dmSolverRecord_Capture(&d->record, sim->worldId, c->shapeIdA, c->shapeIdB,
	                                     sim->dt, sim->substeps);
	d->pass = d->record.count > 1 ? 1 : 0;
}

// Aim the camera at the recorded contact, a quarter of the way across the window: the panel
// covers the right half.
static void dmAimAt(const dmSolverDebugger* d, dmWorldView* view)
{
	if (d->chosen < 0 || d->chosen >= d->contactCount) {
		return;
	}
	const tbManifold* m = &d->contacts[d->chosen].manifold;
	vec3s p = glms_vec3_zero();
	for (int i = 0; i < m->pointCount; ++i) {
		p = glms_vec3_add(p, glms_vec3_scale(m->points[i].pointA, 1.0f / (float)m->pointCount));
	}
	vec3s right, up, forward;
	view->camera.distance = fminf(view->camera.distance, 6.0f);
	dmCamera_Axes(&view->camera, &right, &up, &forward);
	float halfWidth = view->camera.distance * tanf(0.5f * view->camera.fovY) * 16.0f / 9.0f;
	view->camera.target = glms_vec3_add(p, glms_vec3_scale(right, 0.5f * halfWidth));
	view->focus = p;
}

void dmSolverDebugger_Open(dmSolverDebugger* d, dmSim* sim, dmWorldView* view, int pass)
{
	sim->paused = true;
	sim->stepRequests = 0;
	dmRefreshContacts(d, sim);
	// A scene that has not landed yet: step it until something touches (4 s at most).
	for (int i = 0; i < 240 && d->contactCount == 0; ++i) {
		dmSim_Step(sim);
		dmRefreshContacts(d, sim);
	}
	d->body = (tbBodyId){0};
	d->chosen = dmMostLoadedContact(d->contacts, d->contactCount);
	dmRecord(d, sim);
	if (pass >= 0) {
		d->pass = pass < d->record.count ? pass : d->record.count - 1;
		d->pass = d->pass > 0 ? d->pass : 0;
	}
	// From a little above, and above the contact's plane (a slope hides what is on it from below).
	view->camera.pitch = 0.3f;
	if (d->chosen >= 0 && d->chosen < d->contactCount) {
		vec3s n = d->contacts[d->chosen].manifold.normal;
		n = n.y < 0.0f ? glms_vec3_negate(n) : n;
		view->camera.target = glms_vec3_zero();
		for (int k = 0;
		     k < 12 && glms_vec3_dot(glms_vec3_normalize(dmCamera_Eye(&view->camera)), n) < 0.4f;
		     ++k) {
			view->camera.pitch += 0.1f;
		}
	}
	dmAimAt(d, view);
}

// Next (or previous) contact touching the clicked body, or any contact.
static void dmCycleContact(dmSolverDebugger* d, dmSim* sim, int direction)
{
	int n = d->contactCount;
	for (int k = 1; k <= n; ++k) {
		int i = ((d->chosen < 0 ? 0 : d->chosen) + direction * k + n * k) % n;
		if (dmTouchesBody(d->contacts + i, d->body)) {
			d->chosen = i;
			dmRecord(d, sim);
			return;
		}
	}
}

void dmSolverDebugger_Update(dmSolverDebugger* d, dmSim* sim, dmWorldView* view, dmApp* app)
{
	for (int i = 0; i < app->keyCount; ++i) {
		int count = d->record.count; // a key before may have recorded another contact
		bool shift = (app->keys[i].mods & GLFW_MOD_SHIFT) != 0;
		switch (app->keys[i].key) {
		case GLFW_KEY_RIGHT:
		case GLFW_KEY_N:
		case GLFW_KEY_PERIOD:
			d->pass = d->pass + 1 < count ? d->pass + 1 : d->pass;
			break;
		case GLFW_KEY_LEFT:
		case GLFW_KEY_P:
		case GLFW_KEY_COMMA:
			d->pass = d->pass > 0 ? d->pass - 1 : 0;
			break;
		case GLFW_KEY_S: {
			int next = dmSolverRecord_NextSubstep(&d->record, d->pass);
			d->pass = next >= 0 ? next : 0;
			break;
		}
		case GLFW_KEY_HOME:
			d->pass = 0;
			break;
		case GLFW_KEY_END:
			d->pass = count > 0 ? count - 1 : 0;
			break;
		case GLFW_KEY_TAB:
			dmCycleContact(d, sim, shift ? -1 : 1);
			dmAimAt(d, view);
			break;
		case GLFW_KEY_ENTER: {
			// The scene takes the step for real; the same pair is recorded again when it touches.
			tbShapeId a = d->record.shapeA, b = d->record.shapeB;
			dmSim_Step(sim);
			dmRefreshContacts(d, sim);
			d->chosen = -1;
			for (int k = 0; k < d->contactCount; ++k) {
				if (TB_ID_EQUALS(d->contacts[k].shapeIdA, a) &&
				    TB_ID_EQUALS(d->contacts[k].shapeIdB, b)) {
					d->chosen = k;
				}
			}
			if (d->chosen < 0) {
				d->chosen = dmMostLoadedContact(d->contacts, d->contactCount);
			}
			dmRecord(d, sim);
			break;
		}
		case GLFW_KEY_H:
			d->help = !d->help;
			break;
		default:
			break;
		}
	}
	// A click (the press, not the hold) on a body keeps to its contacts: its most loaded first.
	// The panel's half of the window is not the scene.
	if (app->buttons[0] && !d->wasDown && app->mouseX < 0.5f * (float)app->fbWidth) {
		vec3s origin, direction;
		dmWorldView_MouseRay(view, app, &origin, &direction);
		tbRayResult hit = tbWorld_CastRayClosest(
		    sim->worldId, origin, glms_vec3_scale(direction, 1000.0f), tbDefaultQueryFilter());
		tbBodyId body = hit.hit ? tbShape_GetBody(hit.shapeId) : (tbBodyId){0};
		if (!TB_IS_NULL(body) && tbBody_GetType(body) == tb_staticBody) {
			body = (tbBodyId){0}; // the ground touches everything: all contacts
		}
		d->body = body;
		int best = -1;
		float most = -1.0f;
		for (int k = 0; k < d->contactCount; ++k) {
			float sum = 0.0f;
			for (int p = 0; p < d->contacts[k].manifold.pointCount; ++p) {
				sum += d->contacts[k].normalImpulses[p];
			}
			if (dmTouchesBody(d->contacts + k, body) && sum > most) {
				most = sum;
				best = k;
			}
		}
		if (best >= 0 && best != d->chosen) {
			d->chosen = best;
			dmRecord(d, sim);
		}
	}
	d->wasDown = app->buttons[0];
	if (app->buttons[1] && (app->dragX != 0.0f || app->dragY != 0.0f)) {
		dmCamera_Orbit(&view->camera, app->dragX, app->dragY);
		view->camera.pitch = fmaxf(view->camera.pitch, 0.03f);
	}
	dmCamera_Zoom(&view->camera, app->scroll);
}

// A line of small squares in HUD pixels.
static void dmLine(float x0, float y0, float x1, float y1, float thickness, vec4s color)
{
	float dx = x1 - x0, dy = y1 - y0;
	int steps = (int)(fmaxf(fabsf(dx), fabsf(dy)) / 1.5f) + 1;
	steps = steps > 4000 ? 4000 : steps;
	for (int i = 0; i <= steps; ++i) {
		float t = (float)i / (float)steps;
		dmHud_Rect(x0 + t * dx - 0.5f * thickness, y0 + t * dy - 0.5f * thickness, thickness,
		           thickness, color);
	}
}

static void dmCircle(float cx, float cy, float r, float thickness, vec4s color)
{
	const int n = 72;
	for (int i = 0; i < n; ++i) {
		float a0 = 6.2831853f * (float)i / (float)n, a1 = 6.2831853f * (float)(i + 1) / (float)n;
		dmLine(cx + r * cosf(a0), cy + r * sinf(a0), cx + r * cosf(a1), cy + r * sinf(a1),
		       thickness, color);
	}
}

// A world point on the screen (pixels from the top left); false behind the eye.
static bool dmProject(const dmWorldView* v, vec3s p, int width, int height, float* x, float* y)
{
	float aspect = (float)width / (float)(height > 0 ? height : 1);
	mat4s m = glms_mat4_mul(dmCamera_Projection(&v->camera, aspect), dmCamera_View(&v->camera));
	vec4s c = glms_mat4_mulv(m, (vec4s){{p.x, p.y, p.z, 1.0f}});
	if (c.w <= 1e-6f) {
		return false;
	}
	*x = (0.5f + 0.5f * c.x / c.w) * (float)width;
	*y = (0.5f - 0.5f * c.y / c.w) * (float)height;
	return true;
}

static void dmPassLabel(const tbContactTrace* row, int substeps, char* out, int size)
{
	if (row->pass == tb_traceRestitution) {
		snprintf(out, (size_t)size, "restitution (once, after the substeps)");
	} else if (row->pass == tb_traceWarmStart) {
		snprintf(out, (size_t)size, "substep %d of %d: warm start", row->substep + 1, substeps);
	} else {
		snprintf(out, (size_t)size, "substep %d of %d: %s iteration %d", row->substep + 1, substeps,
		         dmSolverPassName(row->pass), row->iteration + 1);
	}
}

void dmSolverDebugger_Describe(const dmSolverDebugger* d, char* out, int size)
{
	if (!d->recorded || d->record.count == 0) {
		snprintf(out, (size_t)size, "no contact recorded");
		return;
	}
	char pass[96];
	dmPassLabel(d->record.rows + d->pass, d->record.substeps, pass, sizeof pass);
	snprintf(out, (size_t)size, "contact %d of %d, pass %d of %d: %s", d->chosen + 1,
	         d->contactCount, d->pass + 1, d->record.count, pass);
}

// The panel's charts, left to right and top to bottom in [x, x + w].
static float dmDrawNormalBars(const dmSolverDebugger* d, const tbContactTrace* row,
                              const tbContactTrace* warm, float x, float y, float w, float h,
                              float lineHeight)
{
	const dmSolverRecord* r = &d->record;
	float most = 1e-9f;
	for (int k = 0; k < r->count; ++k) {
		for (int i = 0; i < r->rows[k].pointCount; ++i) {
			most = fmaxf(most, r->rows[k].normalImpulse[i]);
		}
	}
	dmHud_Text(x, y, "normal impulse per point, N s (white: the substep's warm start)", s_white);
	y += lineHeight + 4.0f;
	int n = row->pointCount > 0 ? row->pointCount : 1;
	float slot = w / (float)n, barWidth = 0.45f * slot;
	dmHud_Rect(x, y + h, w, 1.0f, s_dim);
	for (int i = 0; i < row->pointCount; ++i) {
		float bx = x + slot * (float)i + 0.5f * (slot - barWidth);
		float bh = h * fmaxf(row->normalImpulse[i], 0.0f) / most;
		dmHud_Rect(bx, y + h - bh, barWidth, bh, s_pointColors[i]);
		if (warm != NULL) {
			float wy = y + h - h * fmaxf(warm->normalImpulse[i], 0.0f) / most;
			dmHud_Rect(bx - 4.0f, wy - 1.5f, barWidth + 8.0f, 3.0f, s_white);
		}
		char label[48];
		snprintf(label, sizeof label, "%d: %.4g", i + 1, (double)row->normalImpulse[i]);
		dmHud_Text(bx, y + h + 4.0f, label, s_pointColors[i]);
	}
	return y + h + lineHeight + 10.0f;
}

static float dmDrawBiasBars(const dmSolverDebugger* d, const tbContactTrace* row, float x, float y,
                            float w, float h, float lineHeight)
{
	const dmSolverRecord* r = &d->record;
	float most = 1e-9f;
	for (int k = 0; k < r->count; ++k) {
		for (int i = 0; i < r->rows[k].pointCount; ++i) {
			most = fmaxf(most, fmaxf(fabsf(r->rows[k].bias[i]), fabsf(r->rows[k].speedError[i])));
		}
	}
	dmHud_Text(x, y, "per point, m/s: orange soft bias, red speed error (J v + bias)", s_white);
	y += lineHeight + 4.0f;
	float zero = y + 0.5f * h;
	dmHud_Rect(x, zero, w, 1.0f, s_dim);
	int n = row->pointCount > 0 ? row->pointCount : 1;
	float slot = w / (float)n, barWidth = 0.2f * slot;
	for (int i = 0; i < row->pointCount; ++i) {
		float bx = x + slot * (float)i + 0.3f * slot;
		float b = 0.5f * h * row->bias[i] / most, e = 0.5f * h * row->speedError[i] / most;
		// Up is positive: a negative bias (pushing apart) hangs below the line.
		dmHud_Rect(bx, b > 0.0f ? zero - b : zero, barWidth, fabsf(b), s_bias);
		dmHud_Rect(bx + barWidth + 2.0f, e > 0.0f ? zero - e : zero, barWidth, fabsf(e), s_error);
		char label[64];
		snprintf(label, sizeof label, "b %.3g\ne %.3g", (double)row->bias[i],
		         (double)row->speedError[i]);
		dmHud_Text(bx - 0.2f * slot, y + h + 2.0f, label, s_pointColors[i]);
	}
	return y + h + 2.0f * lineHeight + 10.0f;
}

static float dmDrawFriction(const dmSolverDebugger* d, const tbContactTrace* row,
                            const tbContactTrace* warm, float x, float y, float w, float side,
                            float lineHeight)
{
	const dmSolverRecord* r = &d->record;
	float most = 1e-9f;
	for (int k = 0; k < r->count; ++k) {
		const tbContactTrace* t = r->rows + k;
		most = fmaxf(most, r->friction * dmSolverRow_TotalNormal(t));
		most = fmaxf(most, hypotf(t->tangentImpulse[0], t->tangentImpulse[1]));
	}
	dmHud_Text(x, y, "friction impulse, N s, against the disc mu N", s_white);
	y += lineHeight + 4.0f;
	float cx = x + 0.5f * side, cy = y + 0.5f * side, scale = 0.45f * side / most;
	dmHud_Rect(x, cy, side, 1.0f, s_dim);
	dmHud_Rect(cx, y, 1.0f, side, s_dim);
	float limit = r->friction * dmSolverRow_TotalNormal(row);
	vec4s discColor = row->clamped ? s_clamped : s_disc;
	dmCircle(cx, cy, limit * scale, row->clamped ? 3.0f : 2.0f, discColor);
	if (warm != NULL) {
		dmHud_Rect(cx + scale * warm->tangentImpulse[0] - 4.0f,
		           cy - scale * warm->tangentImpulse[1] - 4.0f, 8.0f, 8.0f, s_white);
	}
	float fx = cx + scale * row->tangentImpulse[0], fy = cy - scale * row->tangentImpulse[1];
	vec4s arrow = row->clamped ? s_clamped : s_friction;
	dmLine(cx, cy, fx, fy, 3.0f, arrow);
	dmHud_Rect(fx - 4.0f, fy - 4.0f, 8.0f, 8.0f, arrow);
	char text[320];
	float length = hypotf(row->tangentImpulse[0], row->tangentImpulse[1]);
	snprintf(text, sizeof text,
	         "mu %.3g   N %.4g   mu N %.4g\n|f| %.4g: %s\nslip %.3g, %.3g m/s\n"
	         "twist %.3g N m s\nwhite: the warm start\nfriction moves in the relax passes",
	         (double)r->friction, (double)dmSolverRow_TotalNormal(row), (double)limit,
	         (double)length, row->clamped ? "CLAMPED to the disc" : "inside the disc",
	         (double)row->tangentError[0], (double)row->tangentError[1], (double)row->twistImpulse);
	dmHud_Text(x + side + 16.0f, y, text, row->clamped ? s_clamped : s_white);
	(void)w;
	return y + side + 10.0f;
}

static void dmDrawResidual(const dmSolverDebugger* d, float x, float y, float w, float h,
                           float lineHeight)
{
	const dmSolverRecord* r = &d->record;
	float most = 0.0f, least = INFINITY;
	for (int k = 0; k < r->count; ++k) {
		float e = dmSolverRow_Residual(r->rows + k);
		most = fmaxf(most, e);
		least = e > 0.0f ? fminf(least, e) : least;
	}
	char title[160];
	snprintf(title, sizeof title, "residual, m/s, log (%.2g to %.2g): orange push, green relax",
	         (double)(isfinite(least) ? least : 0.0f), (double)most);
	dmHud_Text(x, y, title, s_white);
	y += lineHeight + 4.0f;
	dmHud_Rect(x, y + h, w, 1.0f, s_dim);
	if (r->count < 2 || most <= 0.0f) {
		return;
	}
	float hi = log10f(most), lo = fminf(log10f(least), hi - 1.0f);
	lo = fmaxf(lo, hi - 8.0f);
	float step = w / (float)(r->count - 1);
	float px = 0.0f, py = 0.0f;
	bool previous = false;
	for (int k = 0; k < r->count; ++k) {
		const tbContactTrace* t = r->rows + k;
		float xx = x + step * (float)k;
		if (t->pass == tb_traceWarmStart || t->pass == tb_traceRestitution) {
			dmHud_Rect(xx, y, 1.0f, h, s_dim); // a substep starts (or the step ends)
			previous = false;
			continue;
		}
		float e = dmSolverRow_Residual(t);
		float yy = e > 0.0f ? y + h * (hi - log10f(e)) / (hi - lo) : y + h;
		yy = fminf(yy, y + h);
		vec4s color = t->pass == tb_tracePush ? s_push : s_relax;
		if (previous) {
			dmLine(px, py, xx, yy, 2.0f, color);
		}
		dmHud_Rect(xx - 3.0f, yy - 3.0f, 6.0f, 6.0f, color);
		px = xx, py = yy, previous = true;
	}
	float cx = x + step * (float)d->pass;
	dmHud_Rect(cx - 1.0f, y - 4.0f, 3.0f, h + 8.0f, s_white);
}

void dmSolverDebugger_Draw(dmSolverDebugger* d, const dmSim* sim, dmWorldView* view, int width,
                           int height, float frameMs, const char* title)
{
	dmWorldView_Draw(view, sim, width, height, frameMs, title, "");
	float scale = height >= 900 ? 2.0f : height >= 600 ? 1.5f : 1.0f;
	float lineHeight = 12.0f * scale;
	dmHud_Begin(width, height, scale);
	const tbContactData* c =
	    d->chosen >= 0 && d->chosen < d->contactCount ? d->contacts + d->chosen : NULL;
	// The recorded contact's points on the scene, numbered as the bars.
	if (c != NULL) {
		for (int i = 0; i < c->manifold.pointCount && i < 4; ++i) {
			vec3s p = glms_vec3_scale(
			    glms_vec3_add(c->manifold.points[i].pointA, c->manifold.points[i].pointB), 0.5f);
			float sx, sy;
			if (dmProject(view, p, width, height, &sx, &sy)) {
				dmHud_Rect(sx - 6.0f, sy - 6.0f, 12.0f, 12.0f, (vec4s){{0.0f, 0.0f, 0.0f, 1.0f}});
				dmHud_Rect(sx - 4.0f, sy - 4.0f, 8.0f, 8.0f, s_pointColors[i]);
				char label[8];
				snprintf(label, sizeof label, "%d", i + 1);
				dmHud_Text(sx + 8.0f, sy - 8.0f, label, s_pointColors[i]);
			}
		}
	}
	float x0 = floorf(0.5f * (float)width), x1 = (float)width - 16.0f, w = x1 - x0;
	dmHud_Rect(x0 - 12.0f, 8.0f, w + 20.0f, (float)height - 16.0f,
	           (vec4s){{0.05f, 0.06f, 0.08f, 0.82f}});
	float y = 16.0f;
	char text[512];
	const dmSolverRecord* r = &d->record;
	if (c == NULL || !d->recorded || r->count == 0) {
		snprintf(text, sizeof text,
		         "contact solver debugger\n\n%s\n\nTab: next contact   Enter: step the scene   "
		         "-: back",
		         c == NULL ? "no contact in the scene" : "the contact was not solved in the step");
		dmHud_Text(x0, y, text, s_white);
		dmHud_End();
		return;
	}
	const tbContactTrace* row = r->rows + d->pass;
	int warmIndex = dmSolverRecord_WarmStartOf(r, d->pass);
	const tbContactTrace* warm = warmIndex >= 0 ? r->rows + warmIndex : NULL;
	char pass[96], line[160];
	dmPassLabel(row, r->substeps, pass, sizeof pass);
	dmSolverDebugger_Describe(d, line, sizeof line);
	tbBodyId a = tbShape_GetBody(c->shapeIdA), b = tbShape_GetBody(c->shapeIdB);
	snprintf(text, sizeof text,
	         "contact solver debugger: step %d frozen at its start\n"
	         "contact %d of %d%s: body %d - body %d, %d points\n"
	         "pass %d of %d: %s\n"
	         "normal work %.3g J   friction work %.3g J",
	         sim->stepCount, d->chosen + 1, d->contactCount,
	         TB_IS_NULL(d->body) ? "" : " (clicked body)", (int)a.index1 - 1, (int)b.index1 - 1,
	         row->pointCount, d->pass + 1, r->count, pass, (double)row->normalWork,
	         (double)row->frictionWork);
	dmHud_Text(x0, y, text, s_white);
	float tw, th;
	dmHud_Measure(text, &tw, &th);
	y += th + 12.0f;
	float chart = 0.12f * (float)height;
	y = dmDrawNormalBars(d, row, warm, x0, y, w, chart, lineHeight);
	y = dmDrawBiasBars(d, row, x0, y, w, 0.8f * chart, lineHeight);
	y = dmDrawFriction(d, row, warm, x0, y, w, 1.5f * chart, lineHeight);
	dmDrawResidual(d, x0, y, w, fmaxf((float)height - y - 2.0f * lineHeight - 40.0f, 20.0f),
	               lineHeight);
	if (d->help) {
		dmHud_Measure(s_help, &tw, &th);
		dmHud_Panel(0.5f * ((float)width - tw), 0.5f * ((float)height - th), s_help,
		            (vec4s){{1.0f, 0.95f, 0.8f, 1.0f}});
	} else {
		const char* keys = "left/right: pass   S: substep   Tab: contact   H: keys   -: back";
		dmHud_Text(x0, (float)height - lineHeight - 14.0f, keys, s_dim);
	}
	dmHud_End();
}
