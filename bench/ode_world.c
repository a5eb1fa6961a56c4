// ODE as a world-benchmark peer: boxes in a hash space, dWorldQuickStep with 20 iterations, up to
// 4 contacts per pair with Coulomb friction mu (approximation 1: friction scales with the normal
// force), sleeping (auto-disable) off as for every engine of the benchmark.
#include "world_peer.h"

#include <ode/ode.h>

#include <stdlib.h>

#define TB_ODE_MAX_CONTACTS 4

typedef struct tbOdeWorld
{
	dWorldID world;
	dSpaceID space;
	dJointGroupID contacts;
	dBodyID* bodies; // NULL for static boxes
	dGeomID* geoms;
	int count;
	double friction;
	double deepest; // m, deepest contact of the current step
} tbOdeWorld;

static int s_odeInitialised = 0;

static void tbOdeNear(void* data, dGeomID a, dGeomID b)
{
	tbOdeWorld* w = data;
	dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
	if (ba == NULL && bb == NULL) {
		return;
	}
	dContact contact[TB_ODE_MAX_CONTACTS];
	int n = dCollide(a, b, TB_ODE_MAX_CONTACTS, &contact[0].geom, sizeof(dContact));
	for (int i = 0; i < n; ++i) {
		contact[i].surface.mode = dContactApprox1;
		contact[i].surface.mu = (dReal)w->friction;
		contact[i].surface.bounce = 0;
		if ((double)contact[i].geom.depth > w->deepest) {
			w->deepest = (double)contact[i].geom.depth;
		}
		dJointID joint = dJointCreateContact(w->world, w->contacts, contact + i);
		dJointAttach(joint, ba, bb);
	}
}

static void* tbOdeCreate(const tbPeerScene* scene)
{
	if (!s_odeInitialised) {
		dInitODE2(0);
		s_odeInitialised = 1;
	}
	tbOdeWorld* w = calloc(1, sizeof *w);
	w->world = dWorldCreate();
	w->space = dHashSpaceCreate(0);
	w->contacts = dJointGroupCreate(0);
	w->friction = scene->friction;
	w->count = scene->boxCount;
	w->bodies = calloc((size_t)scene->boxCount, sizeof *w->bodies);
	w->geoms = calloc((size_t)scene->boxCount, sizeof *w->geoms);
	dWorldSetGravity(w->world, (dReal)scene->gravity[0], (dReal)scene->gravity[1],
	                 (dReal)scene->gravity[2]);
	dWorldSetQuickStepNumIterations(w->world, 20);
	// The values of ODE's manual and demos for stacking: a little softness and a skin of 1 mm.
	dWorldSetCFM(w->world, (dReal)1e-5);
	dWorldSetERP(w->world, (dReal)0.2);
	dWorldSetContactSurfaceLayer(w->world, (dReal)0.001);
	dWorldSetAutoDisableFlag(w->world, 0);
	for (int i = 0; i < scene->boxCount; ++i) {
		const tbPeerBox* b = scene->boxes + i;
		dGeomID geom = dCreateBox(w->space, (dReal)(2 * b->half[0]), (dReal)(2 * b->half[1]),
		                          (dReal)(2 * b->half[2]));
		dQuaternion q = {(dReal)b->quaternion[0], (dReal)b->quaternion[1], (dReal)b->quaternion[2],
		                 (dReal)b->quaternion[3]};
		if (b->dynamic) {
			dBodyID body = dBodyCreate(w->world);
			dMass mass;
			dMassSetBox(&mass, (dReal)b->density, (dReal)(2 * b->half[0]), (dReal)(2 * b->half[1]),
			            (dReal)(2 * b->half[2]));
			dBodySetMass(body, &mass);
			dGeomSetBody(geom, body);
			dBodySetPosition(body, (dReal)b->position[0], (dReal)b->position[1],
			                 (dReal)b->position[2]);
			dBodySetQuaternion(body, q);
			w->bodies[i] = body;
		} else {
			dGeomSetPosition(geom, (dReal)b->position[0], (dReal)b->position[1],
			                 (dReal)b->position[2]);
			dGeomSetQuaternion(geom, q);
		}
		w->geoms[i] = geom;
	}
	return w;
}

static void tbOdeStep(void* world, double dt)
{
	tbOdeWorld* w = world;
	w->deepest = 0.0;
	dSpaceCollide(w->space, w, tbOdeNear);
	dWorldQuickStep(w->world, (dReal)dt);
	dJointGroupEmpty(w->contacts);
}

static double tbOdeMaxPenetration(void* world)
{
	return ((tbOdeWorld*)world)->deepest;
}

static void tbOdeGetState(void* world, int index, tbPeerState* s)
{
	tbOdeWorld* w = world;
	const dReal* p = dGeomGetPosition(w->geoms[index]);
	dQuaternion q;
	dGeomGetQuaternion(w->geoms[index], q);
	for (int k = 0; k < 3; ++k) {
		s->position[k] = (double)p[k];
		s->velocity[k] = 0.0;
		s->angularVelocity[k] = 0.0;
	}
	for (int k = 0; k < 4; ++k) {
		s->quaternion[k] = (double)q[k];
	}
	if (w->bodies[index] != NULL) {
		const dReal* v = dBodyGetLinearVel(w->bodies[index]);
		const dReal* a = dBodyGetAngularVel(w->bodies[index]);
		for (int k = 0; k < 3; ++k) {
			s->velocity[k] = (double)v[k];
			s->angularVelocity[k] = (double)a[k];
		}
	}
}

static void tbOdeDestroy(void* world)
{
	tbOdeWorld* w = world;
	dJointGroupDestroy(w->contacts);
	dSpaceDestroy(w->space); // destroys the geoms it holds
	dWorldDestroy(w->world); // and the bodies
	free(w->bodies);
	free(w->geoms);
	free(w);
}

const tbPeerEngine tb_odeEngine = {"ode",         tbOdeCreate, tbOdeStep, tbOdeMaxPenetration,
                                   tbOdeGetState, tbOdeDestroy};
