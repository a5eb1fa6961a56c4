// Tests drive tbSolverStep on a few bodies: scratch from malloc, body pointers from an array.
#pragma once

#include <stdlib.h>

#include "tumble/contact_solver.h"
#include "tumble/dynamics.h"

// One solver step of `bodyCount` bodies held in an array (at most 16).
static inline void stepSolver(const tbSolverDef* def, tbRigidBody* bodies, int bodyCount,
                              tbContactConstraint* contacts, int contactCount, float dt)
{
	tbRigidBody* pointers[16];
	for (int i = 0; i < bodyCount && i < 16; ++i) {
		pointers[i] = bodies + i;
	}
	size_t bytes = tbSolverScratchBytes(bodyCount, contactCount, 0);
	void* scratch = aligned_alloc(64, (bytes + 63u) & ~(size_t)63u);
	tbSolverStep(def, pointers, bodyCount, contacts, contactCount, NULL, 0, dt, scratch, NULL);
	free(scratch);
}
