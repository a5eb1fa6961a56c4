// Debug draw: the world described through the caller's callbacks (no GL in the library).
#include "world_internal.h"

static void tbDrawBox(const tbDebugDraw* d, tbAABB b, tbHexColor color)
{
	vec3s c[8];
	for (int i = 0; i < 8; ++i) {
		c[i].x = (i & 1) ? b.upper.x : b.lower.x;
		c[i].y = (i & 2) ? b.upper.y : b.lower.y;
		c[i].z = (i & 4) ? b.upper.z : b.lower.z;
	}
	// The 12 edges: corners differing in one bit.
	for (int i = 0; i < 8; ++i) {
		for (int bit = 1; bit < 8; bit <<= 1) {
			if ((i & bit) == 0) {
				d->DrawSegment(c[i], c[i | bit], color, d->context);
			}
		}
	}
}

void tbWorld_Draw(tbWorldId worldId, const tbDebugDraw* draw)
{
	tbWorld* w = tbGetWorld(worldId, "tbWorld_Draw");
	if (w == NULL || draw == NULL) {
		return;
	}
	for (int i = 0; i < w->shapeCount; ++i) {
		const tbShapeSlot* s = w->shapes + i;
		if (!s->alive) {
			continue;
		}
		const tbBodySlot* b = w->bodies + s->body;
		tbHexColor color = b->rb.type == tb_staticBody      ? 0x7fb27fu
		                   : b->rb.type == tb_kinematicBody ? 0x7f7fe5u
		                   : b->awake                       ? 0xe5b27fu
		                                                    : 0x999999u;
		if (draw->drawShapes && tbGeometry_IsLevel(&s->geometry)) {
			tbDrawLevelShape(s, draw, color); // its triangles as segments (mesh_contact.c)
		} else if (draw->drawShapes && draw->DrawShape != NULL) {
			draw->DrawShape(&s->geometry, s->xf, color, draw->context);
		}
		if (draw->drawAABBs && draw->DrawSegment != NULL) {
			tbDrawBox(draw, s->fatAABB, 0xe54ce5u);
		}
	}
	if (draw->drawMass && draw->DrawTransform != NULL) {
		for (int i = 0; i < w->bodyCount; ++i) {
			const tbBodySlot* b = w->bodies + i;
			if (b->alive && b->rb.type != tb_staticBody) {
				tbTransform xf = {b->rb.state.x, b->xf.q};
				draw->DrawTransform(xf, draw->context);
			}
		}
	}
	if (draw->drawJoints) {
		tbDrawJoints(w, draw);
	}
	if (!draw->drawContactPoints && !draw->drawContactNormals && !draw->drawContactImpulses) {
		return;
	}
	for (int i = 0; i < w->contactCount; ++i) {
		const tbContactSlot* c = w->contacts + i;
		if (!c->alive || !c->touching) {
			continue;
		}
		tbContactData data = tbMakeContactData(w, c);
		for (int k = 0; k < c->manifold.pointCount; ++k) {
			const tbManifoldPoint* mp = c->manifold.points + k;
			vec3s p = glms_vec3_scale(glms_vec3_add(mp->pointA, mp->pointB), 0.5f);
			if (draw->drawContactPoints && draw->DrawPoint != NULL) {
				// Speculative points (apart) grey, touching points red.
				draw->DrawPoint(p, 5.0f, mp->separation > 0.0f ? 0x999999u : 0xe53333u,
				                draw->context);
			}
			if (draw->drawContactNormals && draw->DrawSegment != NULL) {
				vec3s q = glms_vec3_add(p, glms_vec3_scale(c->manifold.normal, 0.2f));
				draw->DrawSegment(p, q, 0x3333e5u, draw->context);
			}
			if (draw->drawContactImpulses && draw->DrawSegment != NULL) {
				vec3s q = glms_vec3_add(
				    p, glms_vec3_scale(c->manifold.normal, 0.1f * data.normalImpulses[k]));
				draw->DrawSegment(p, q, 0xe5e533u, draw->context);
			}
		}
	}
}
