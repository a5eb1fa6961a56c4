// Bullet as a world-benchmark peer: btDiscreteDynamicsWorld with the dbvt broad phase and the
// default sequential-impulse solver (10 iterations), deactivation off as for every engine here.
#include "world_peer.h"

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <vector>

namespace {

struct tbBulletWorld
{
	btDefaultCollisionConfiguration configuration;
	btCollisionDispatcher dispatcher{&configuration};
	btDbvtBroadphase broadphase;
	btSequentialImpulseConstraintSolver solver;
	btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
	std::vector<btBoxShape*> shapes;
	std::vector<btRigidBody*> bodies;
	std::vector<btDefaultMotionState*> motionStates;
};

void* tbBulletCreate(const tbPeerScene* scene)
{
	tbBulletWorld* w = new tbBulletWorld;
	w->world.setGravity(btVector3(btScalar(scene->gravity[0]), btScalar(scene->gravity[1]),
	                              btScalar(scene->gravity[2])));
	// Bullet multiplies the two bodies' coefficients: sqrt(mu) each gives mu for every pair.
	const btScalar friction = btScalar(std::sqrt(scene->friction));
	for (int i = 0; i < scene->boxCount; ++i) {
		const tbPeerBox& b = scene->boxes[i];
		btVector3 half(btScalar(b.half[0]), btScalar(b.half[1]), btScalar(b.half[2]));
		btBoxShape* shape = nullptr;
		// One shape per size, shared by bodies as Bullet intends.
		for (btBoxShape* s : w->shapes) {
			if (s->getHalfExtentsWithMargin() == half) {
				shape = s;
			}
		}
		if (shape == nullptr) {
			shape = new btBoxShape(half);
			w->shapes.push_back(shape);
		}
		btTransform pose(
		    btQuaternion(btScalar(b.quaternion[1]), btScalar(b.quaternion[2]),
		                 btScalar(b.quaternion[3]), btScalar(b.quaternion[0])),
		    btVector3(btScalar(b.position[0]), btScalar(b.position[1]), btScalar(b.position[2])));
		btScalar mass = 0;
		btVector3 inertia(0, 0, 0);
		if (b.dynamic) {
			mass = btScalar(b.density * 8.0 * b.half[0] * b.half[1] * b.half[2]);
			shape->calculateLocalInertia(mass, inertia);
		}
		btDefaultMotionState* motion = new btDefaultMotionState(pose);
		btRigidBody::btRigidBodyConstructionInfo info(mass, motion, shape, inertia);
		info.m_friction = friction;
		info.m_restitution = 0;
		btRigidBody* body = new btRigidBody(info);
		if (b.dynamic) {
			body->setActivationState(DISABLE_DEACTIVATION);
		}
		w->world.addRigidBody(body);
		w->bodies.push_back(body);
		w->motionStates.push_back(motion);
	}
	return w;
}

void tbBulletStep(void* world, double dt)
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>(world);
	w->world.stepSimulation(btScalar(dt), 1, btScalar(dt));
}

double tbBulletMaxPenetration(void* world)
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>(world);
	double deepest = 0.0;
	int n = w->dispatcher.getNumManifolds();
	for (int i = 0; i < n; ++i) {
		const btPersistentManifold* m = w->dispatcher.getManifoldByIndexInternal(i);
		for (int k = 0; k < m->getNumContacts(); ++k) {
			double overlap = -double(m->getContactPoint(k).getDistance());
			deepest = overlap > deepest ? overlap : deepest;
		}
	}
	return deepest;
}

void tbBulletGetState(void* world, int index, tbPeerState* s)
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>(world);
	const btRigidBody* body = w->bodies[size_t(index)];
	const btTransform& pose = body->getWorldTransform();
	btQuaternion q = pose.getRotation();
	const btVector3& v = body->getLinearVelocity();
	const btVector3& a = body->getAngularVelocity();
	for (int k = 0; k < 3; ++k) {
		s->position[k] = double(pose.getOrigin()[k]);
		s->velocity[k] = double(v[k]);
		s->angularVelocity[k] = double(a[k]);
	}
	s->quaternion[0] = double(q.w());
	s->quaternion[1] = double(q.x());
	s->quaternion[2] = double(q.y());
	s->quaternion[3] = double(q.z());
}

void tbBulletDestroy(void* world)
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>(world);
	for (btRigidBody* body : w->bodies) {
		w->world.removeRigidBody(body);
		delete body;
	}
	for (btDefaultMotionState* m : w->motionStates) {
		delete m;
	}
	for (btBoxShape* s : w->shapes) {
		delete s;
	}
	delete w;
}

} // namespace

extern "C" const tbPeerEngine tb_bulletEngine = {"bullet",         tbBulletCreate,
                                                 tbBulletStep,     tbBulletMaxPenetration,
                                                 tbBulletGetState, tbBulletDestroy};
