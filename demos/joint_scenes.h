// The demo's joint scenes: a plank bridge, a hanging chain, ragdolls on a staircase, a motorised
// door and a pendulum, a car driven from the keyboard. GL-free: they also run headless.
#pragma once

#include "sim.h"

/// Build built-in scene `which` (dm_builtinBridge to dm_builtinCar), its ground included, into
/// the sim's empty world. False when a body or a joint cannot be made (tbGetLastError says why).
bool dmBuildJointScene(dmSim* sim, int which);

/// Before a step: the door's motor (reversed every few seconds) and the car's wheel motors.
void dmJointScenes_Control(dmSim* sim);

/// After a step: the joints' anchor distance and the scene's figures (car speed, door angles).
void dmJointScenes_Observe(dmSim* sim);
