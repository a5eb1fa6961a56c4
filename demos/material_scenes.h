// The demo's materials scene: a conveyor belt, balls rolling against different rolling
// resistances, a one-way platform and a kinematic lift. GL-free: it also runs headless.
#pragma once

#include "sim.h"

/// Build the materials scene (dm_builtinMaterials), its ground included, into the sim's empty
/// world. False when a body or shape cannot be made (tbGetLastError says why).
bool dmBuildMaterialScene(dmSim* sim);

/// Before a step: the lift's next pose (tbBody_SetTargetTransform).
void dmMaterialScene_Control(dmSim* sim);
