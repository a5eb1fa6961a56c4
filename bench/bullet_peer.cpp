// Bullet as a benchmark peer: our shapes as btConvexShapes and calls to btGjkEpaSolver2.
// This file is built only when Bullet is found; it implements the TB_HAVE_BULLET part of the
// header.
#ifndef TB_HAVE_BULLET
#define TB_HAVE_BULLET 1
#endif
#include "bench_peer.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <LinearMath/btScalar.h>

#include <cmath>
#include <new>

// Bullet's solver ignores margins in Distance and SignedDistance: it works on the "core" shapes
// (localGetSupportVertexWithoutMargin). Boxes, cylinders, cones, hulls and triangles get margin 0,
// so their core is the shape. A sphere's and a capsule's margin is their radius and cannot be
// removed: the core is a point or a segment, and the answer is corrected exactly by the margins
// (the shape is core + ball, so sd = sd_core - margins with the same normal).
struct tbBulletCase
{
	btConvexShape* shapes[2];
	btTransform poses[2];
	btScalar margins[2];
	btVector3 guess;
};

static btConvexShape* tbBulletMakeShape(const tbPeerShape* s)
{
	const btScalar r = btScalar(s->params[0]);
	const btScalar hh = btScalar(s->params[1]);
	btConvexShape* shape = nullptr;
	switch (s->type) {
	case tb_peerSphere:
		shape = new btSphereShape(r);
		break;
	case tb_peerBox:
		shape = new btBoxShape(btVector3(r, hh, btScalar(s->params[2])));
		break;
	case tb_peerCapsule:
		shape = new btCapsuleShape(r, 2 * hh); // axis y; height is the segment length
		break;
	case tb_peerCylinder:
		shape = new btCylinderShape(btVector3(r, hh, r)); // axis y
		break;
	case tb_peerCone:
		shape = new btConeShape(r, 2 * hh); // axis y, centred: apex at +hh like ours
		break;
	case tb_peerHull: {
		btConvexHullShape* hull = new btConvexHullShape();
		for (int i = 0; i < s->pointCount; ++i) {
			const double* p = s->points + 3 * i;
			hull->addPoint(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), false);
		}
		hull->recalcLocalAabb();
		shape = hull;
		break;
	}
	case tb_peerTriangle: {
		const double* p = s->points;
		shape = new btTriangleShape(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])),
		                            btVector3(btScalar(p[3]), btScalar(p[4]), btScalar(p[5])),
		                            btVector3(btScalar(p[6]), btScalar(p[7]), btScalar(p[8])));
		break;
	}
	}
	if (shape != nullptr && s->type != tb_peerSphere && s->type != tb_peerCapsule) {
		shape->setMargin(0);
	}
	return shape;
}

// Bullet is a float library: poses go in as float world transforms, as a user would pass them.
static btTransform tbBulletPose(const tbPeerShape* s)
{
	const double* q = s->quaternion;
	const btQuaternion rotation{btScalar(q[1]), btScalar(q[2]), btScalar(q[3]), btScalar(q[0])};
	const double* p = s->position;
	return btTransform(rotation, btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])));
}

extern "C" tbBulletCase* tbBulletCreateCase(const tbPeerShape* a, const tbPeerShape* b)
{
	tbBulletCase* c = new (std::nothrow) tbBulletCase();
	if (c == nullptr) {
		return nullptr;
	}
	const tbPeerShape* s[2] = {a, b};
	for (int i = 0; i < 2; ++i) {
		c->shapes[i] = tbBulletMakeShape(s[i]);
		c->poses[i] = tbBulletPose(s[i]);
		bool round = s[i]->type == tb_peerSphere || s[i]->type == tb_peerCapsule;
		c->margins[i] = round ? c->shapes[i]->getMargin() : btScalar(0);
	}
	// Bullet's own callers guess with the centre offset.
	c->guess = c->poses[1].getOrigin() - c->poses[0].getOrigin();
	if (c->guess.length2() == 0) {
		c->guess = btVector3(1, 0, 0);
	}
	return c;
}

extern "C" void tbBulletDestroyCase(tbBulletCase* c)
{
	if (c != nullptr) {
		delete c->shapes[0];
		delete c->shapes[1];
		delete c;
	}
}

// Bullet reports the normal in A's local frame pointing from B to A (w0 - w1, and -EPA normal);
// turn it into a world normal from A to B and add the margins back.
static void tbBulletAnswer(const tbBulletCase* c, bool ok, const btGjkEpaSolver2::sResults& results,
                           tbPeerAnswer* answer)
{
	if (!ok) {
		answer->hit = results.status == btGjkEpaSolver2::sResults::Penetrating ? 1 : -1;
		answer->hasDistance = 0;
		return;
	}
	btVector3 n = c->poses[0].getBasis() * -results.normal;
	double sd = double(results.distance) - double(c->margins[0]) - double(c->margins[1]);
	answer->hit = sd <= 0.0 ? 1 : 0;
	answer->hasDistance = 1;
	answer->sd = sd;
	answer->normal[0] = double(n.x());
	answer->normal[1] = double(n.y());
	answer->normal[2] = double(n.z());
	const btVector3& wA = results.witnesses[0];
	const btVector3& wB = results.witnesses[1];
	for (int i = 0; i < 3; ++i) {
		answer->pointA[i] = double(wA[i]) + double(c->margins[0]) * answer->normal[i];
		answer->pointB[i] = double(wB[i]) - double(c->margins[1]) * answer->normal[i];
	}
}

extern "C" void tbBulletDistance(const tbBulletCase* c, tbPeerAnswer* answer)
{
	btGjkEpaSolver2::sResults results;
	bool ok = btGjkEpaSolver2::Distance(c->shapes[0], c->poses[0], c->shapes[1], c->poses[1],
	                                    c->guess, results);
	tbBulletAnswer(c, ok, results, answer);
}

extern "C" void tbBulletSignedDistance(const tbBulletCase* c, tbPeerAnswer* answer)
{
	btGjkEpaSolver2::sResults results;
	bool ok = btGjkEpaSolver2::SignedDistance(c->shapes[0], c->poses[0], c->shapes[1], c->poses[1],
	                                          c->guess, results);
	tbBulletAnswer(c, ok, results, answer);
}

extern "C" int tbBulletVersion(void)
{
	return BT_BULLET_VERSION;
}
