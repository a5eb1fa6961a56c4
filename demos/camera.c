// The orbit camera (spherical coordinates about a target) and its mouse mappings.
#include "camera.h"

#include <math.h>

dmCamera dmDefaultCamera(void)
{
	dmCamera c;
	c.target = (vec3s){{0.0f, 1.0f, 0.0f}};
	c.yaw = 0.6f;
	c.pitch = 0.35f;
	c.distance = 6.0f;
	c.fovY = glm_rad(45.0f);
	return c;
}

vec3s dmCamera_Eye(const dmCamera* camera)
{
	float cp = cosf(camera->pitch);
	vec3s offset = {{camera->distance * cp * sinf(camera->yaw),
	                 camera->distance * sinf(camera->pitch),
	                 camera->distance * cp * cosf(camera->yaw)}};
	return glms_vec3_add(camera->target, offset);
}

mat4s dmCamera_View(const dmCamera* camera)
{
	return glms_lookat(dmCamera_Eye(camera), camera->target, (vec3s){{0.0f, 1.0f, 0.0f}});
}

mat4s dmCamera_Projection(const dmCamera* camera, float aspect)
{
	// Near and far follow the distance so that close-ups of small shapes keep depth precision.
	float nearZ = 0.02f * camera->distance;
	float farZ = 50.0f * camera->distance + 100.0f;
	return glms_perspective(camera->fovY, aspect > 0.0f ? aspect : 1.0f, nearZ, farZ);
}

void dmCamera_Orbit(dmCamera* camera, float dx, float dy)
{
	camera->yaw -= 0.006f * dx;
	camera->pitch += 0.006f * dy;
	// Stop short of the poles, where lookat's up vector degenerates.
	const float limit = 1.55f;
	camera->pitch = camera->pitch > limit ? limit : camera->pitch < -limit ? -limit : camera->pitch;
}

void dmCamera_Zoom(dmCamera* camera, float steps)
{
	camera->distance *= powf(0.9f, steps);
	camera->distance = camera->distance < 0.05f    ? 0.05f
	                   : camera->distance > 500.0f ? 500.0f
	                                               : camera->distance;
}

void dmCamera_Axes(const dmCamera* camera, vec3s* right, vec3s* up, vec3s* forward)
{
	vec3s f = glms_vec3_normalize(glms_vec3_sub(camera->target, dmCamera_Eye(camera)));
	vec3s r = glms_vec3_normalize(glms_vec3_cross(f, (vec3s){{0.0f, 1.0f, 0.0f}}));
	*right = r;
	*up = glms_vec3_cross(r, f);
	*forward = f;
}

void dmCamera_Frame(dmCamera* camera, vec3s lo, vec3s hi, float aspect, float margin)
{
	camera->target = glms_vec3_scale(glms_vec3_add(lo, hi), 0.5f);
	camera->distance = 1.0f; // any: the axes depend on yaw and pitch alone
	vec3s right, up, forward;
	dmCamera_Axes(camera, &right, &up, &forward);
	float tanY = tanf(0.5f * camera->fovY) / (1.0f + margin);
	float tanX = tanY * (aspect > 0.0f ? aspect : 1.0f);
	// A corner at offset o from the target, seen from target - D forward, is at depth
	// D + o.forward and must satisfy |o.right| <= tanX depth and |o.up| <= tanY depth.
	float distance = 0.0f;
	for (int k = 0; k < 8; ++k) {
		vec3s corner = {{(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z}};
		vec3s o = glms_vec3_sub(corner, camera->target);
		float depth = glms_vec3_dot(o, forward);
		distance = fmaxf(distance, fabsf(glms_vec3_dot(o, right)) / tanX - depth);
		distance = fmaxf(distance, fabsf(glms_vec3_dot(o, up)) / tanY - depth);
	}
	camera->distance = fminf(fmaxf(distance, 0.5f), 500.0f);
}

vec3s dmCamera_DragOffset(const dmCamera* camera, float dx, float dy, float height)
{
	vec3s right, up, forward;
	dmCamera_Axes(camera, &right, &up, &forward);
	// Metres per pixel at the target's depth.
	float scale =
	    2.0f * camera->distance * tanf(0.5f * camera->fovY) / (height > 1.0f ? height : 1.0f);
	return glms_vec3_add(glms_vec3_scale(right, dx * scale), glms_vec3_scale(up, -dy * scale));
}
