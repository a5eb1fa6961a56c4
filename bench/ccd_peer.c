// libccd as a benchmark peer: support functions for our shapes and calls to its GJK, EPA and MPR.
// This file is built only when libccd is found; it implements the TB_HAVE_CCD part of the header.
#ifndef TB_HAVE_CCD
#define TB_HAVE_CCD 1
#endif
#include "bench_peer.h"

#include <ccd/ccd.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

// libccd is built in double here (CCD_DOUBLE in ccd/config.h); its support callbacks get a world
// direction and return a world point, so each object carries its pose.
typedef struct tbCcdObject
{
	tbPeerShape shape;
	double q[4];      // w x y z
	double center[3]; // world point inside the shape, for MPR
} tbCcdObject;

struct tbCcdCase
{
	tbCcdObject a, b;
	ccd_t ccd;
};

// v' = q v q* for a unit quaternion (w x y z), t = 2 (q.xyz x v) form.
static void tbCcdRotate(const double q[4], const double v[3], double out[3])
{
	double tx = 2.0 * (q[2] * v[2] - q[3] * v[1]);
	double ty = 2.0 * (q[3] * v[0] - q[1] * v[2]);
	double tz = 2.0 * (q[1] * v[1] - q[2] * v[0]);
	out[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
	out[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
	out[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}

static void tbCcdInvRotate(const double q[4], const double v[3], double out[3])
{
	double c[4] = {q[0], -q[1], -q[2], -q[3]};
	tbCcdRotate(c, v, out);
}

static double tbSign(double x)
{
	return x >= 0.0 ? 1.0 : -1.0;
}

// Local support of the shapes of docs/query-format.md (axis y, cone apex at +hh).
static void tbLocalSupport(const tbPeerShape* s, const double d[3], double out[3])
{
	const double* p = s->params;
	double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	double radial = sqrt(d[0] * d[0] + d[2] * d[2]);
	switch (s->type) {
	case tb_peerSphere:
		if (len > 0.0) {
			out[0] = p[0] * d[0] / len, out[1] = p[0] * d[1] / len, out[2] = p[0] * d[2] / len;
		} else {
			out[0] = p[0], out[1] = 0.0, out[2] = 0.0;
		}
		return;
	case tb_peerBox:
		out[0] = tbSign(d[0]) * p[0], out[1] = tbSign(d[1]) * p[1], out[2] = tbSign(d[2]) * p[2];
		return;
	case tb_peerCapsule:
		if (len > 0.0) {
			out[0] = p[0] * d[0] / len, out[1] = p[0] * d[1] / len, out[2] = p[0] * d[2] / len;
		} else {
			out[0] = 0.0, out[1] = 0.0, out[2] = 0.0;
		}
		out[1] += tbSign(d[1]) * p[1];
		return;
	case tb_peerCylinder:
		if (radial > 0.0) {
			out[0] = p[0] * d[0] / radial, out[2] = p[0] * d[2] / radial;
		} else {
			out[0] = 0.0, out[2] = 0.0;
		}
		out[1] = tbSign(d[1]) * p[1];
		return;
	case tb_peerCone: {
		double rim[3] = {0.0, -p[1], 0.0};
		if (radial > 0.0) {
			rim[0] = p[0] * d[0] / radial, rim[2] = p[0] * d[2] / radial;
		}
		double rimDot = rim[0] * d[0] + rim[1] * d[1] + rim[2] * d[2];
		if (p[1] * d[1] >= rimDot) {
			out[0] = 0.0, out[1] = p[1], out[2] = 0.0;
		} else {
			memcpy(out, rim, sizeof rim);
		}
		return;
	}
	case tb_peerHull:
	case tb_peerTriangle: {
		int best = 0;
		double bestDot = -(double)INFINITY;
		for (int i = 0; i < s->pointCount; ++i) {
			const double* v = s->points + 3 * i;
			double dot = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
			if (dot > bestDot) {
				bestDot = dot, best = i;
			}
		}
		memcpy(out, s->points + 3 * best, 3 * sizeof(double));
		return;
	}
	}
	out[0] = out[1] = out[2] = 0.0;
}

static void tbCcdSupport(const void* object, const ccd_vec3_t* direction, ccd_vec3_t* point)
{
	const tbCcdObject* o = object;
	double d[3] = {direction->v[0], direction->v[1], direction->v[2]};
	double local[3], dl[3], w[3];
	tbCcdInvRotate(o->q, d, dl);
	tbLocalSupport(&o->shape, dl, local);
	tbCcdRotate(o->q, local, w);
	for (int i = 0; i < 3; ++i) {
		point->v[i] = w[i] + o->shape.position[i];
	}
}

static void tbCcdCenter(const void* object, ccd_vec3_t* center)
{
	const tbCcdObject* o = object;
	for (int i = 0; i < 3; ++i) {
		center->v[i] = o->center[i];
	}
}

static void tbCcdInitObject(tbCcdObject* o, const tbPeerShape* s)
{
	o->shape = *s;
	memcpy(o->q, s->quaternion, sizeof o->q);
	// The centre of the point set for hulls and triangles: the local origin may lie outside them.
	double local[3] = {0.0, 0.0, 0.0};
	if (s->type == tb_peerHull || s->type == tb_peerTriangle) {
		for (int i = 0; i < s->pointCount; ++i) {
			for (int k = 0; k < 3; ++k) {
				local[k] += s->points[3 * i + k] / s->pointCount;
			}
		}
	}
	tbCcdRotate(o->q, local, o->center);
	for (int k = 0; k < 3; ++k) {
		o->center[k] += s->position[k];
	}
}

tbCcdCase* tbCcdCreateCase(const tbPeerShape* a, const tbPeerShape* b)
{
	tbCcdCase* c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	tbCcdInitObject(&c->a, a);
	tbCcdInitObject(&c->b, b);
	CCD_INIT(&c->ccd);
	c->ccd.support1 = tbCcdSupport;
	c->ccd.support2 = tbCcdSupport;
	c->ccd.center1 = tbCcdCenter;
	c->ccd.center2 = tbCcdCenter;
	// libccd's default cap is unlimited; a cap keeps a degenerate case from hanging the benchmark.
	// Its tolerances stay at their defaults (absolute 1e-4 for EPA and MPR): that is the peer as
	// shipped.
	c->ccd.max_iterations = 1000;
	return c;
}

void tbCcdDestroyCase(tbCcdCase* ccdCase)
{
	free(ccdCase);
}

void tbCcdGjkIntersect(const tbCcdCase* c, tbPeerAnswer* answer)
{
	answer->hit = ccdGJKIntersect(&c->a, &c->b, &c->ccd) ? 1 : 0;
	answer->hasDistance = 0;
}

// libccd: "if obj2 is translated by depth in direction dir, the objects touch", so dir is the
// normal from A to B and sd = -depth.
static void tbCcdPenetrationAnswer(int status, double depth, const ccd_vec3_t* dir,
                                   tbPeerAnswer* answer)
{
	if (status == 0) {
		answer->hit = 1;
		answer->hasDistance = 1;
		answer->sd = -depth;
		for (int i = 0; i < 3; ++i) {
			answer->normal[i] = dir->v[i];
		}
	} else {
		answer->hit = status == -1 ? 0 : -1;
		answer->hasDistance = 0;
	}
}

void tbCcdGjkPenetration(const tbCcdCase* c, tbPeerAnswer* answer)
{
	ccd_real_t depth = 0;
	ccd_vec3_t dir, pos;
	int status = ccdGJKPenetration(&c->a, &c->b, &c->ccd, &depth, &dir, &pos);
	tbCcdPenetrationAnswer(status, depth, &dir, answer);
}

void tbCcdMprPenetration(const tbCcdCase* c, tbPeerAnswer* answer)
{
	ccd_real_t depth = 0;
	ccd_vec3_t dir, pos;
	int status = ccdMPRPenetration(&c->a, &c->b, &c->ccd, &depth, &dir, &pos);
	tbCcdPenetrationAnswer(status, depth, &dir, answer);
}
