// Plain-C interface between the world benchmark and its peer engines (ODE in C, Bullet in C++).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// A box body of a benchmark scene, in double, independent of Tumble's types.
typedef struct tbPeerBox
{
	int dynamic;          ///< 0: static (the ground)
	double half[3];       ///< half extents, m
	double position[3];   ///< m
	double quaternion[4]; ///< unit, w x y z
	double density;       ///< kg/m^3
} tbPeerBox;

/// A scene: boxes, gravity and one Coulomb friction coefficient for every pair.
typedef struct tbPeerScene
{
	const tbPeerBox* boxes;
	int boxCount;
	double gravity[3];
	double friction;
} tbPeerScene;

/// The state of one body after a step.
typedef struct tbPeerState
{
	double position[3];
	double quaternion[4]; ///< w x y z
	double velocity[3];
	double angularVelocity[3];
} tbPeerState;

/// A peer engine: creation, a fixed step, the deepest contact overlap of the last step, and
/// the bodies' states in the order of the scene.
typedef struct tbPeerEngine
{
	const char* name;
	void* (*create)(const tbPeerScene* scene);
	void (*step)(void* world, double dt);
	double (*maxPenetration)(void* world);
	void (*getState)(void* world, int index, tbPeerState* state);
	void (*destroy)(void* world);
} tbPeerEngine;

#ifdef TB_HAVE_ODE
/// ODE: dWorldQuickStep with 20 iterations, a hash space, up to 4 contacts per pair.
extern const tbPeerEngine tb_odeEngine;
#endif

#ifdef TB_HAVE_BULLET
/// Bullet: btDiscreteDynamicsWorld, dbvt broad phase, the default sequential-impulse solver.
extern const tbPeerEngine tb_bulletEngine;
#endif

#ifdef __cplusplus
}
#endif
