// The demo's mover scene: a character capsule driven by the keys (or by itself headless) over
// stairs, slopes, a wall, boxes and a turning platform. GL-free: it also runs headless.
#pragma once

#include "sim.h"

/// Build the mover scene (dm_builtinMover), its ground included, into the sim's empty world.
/// False when a body or shape cannot be made (tbGetLastError says why).
bool dmBuildMoverScene(dmSim* sim);

/// Before a step: move the character with the drive keys (dmSim_SetDrive), in the mover scene
/// only.
void dmMoverScene_Control(dmSim* sim);
