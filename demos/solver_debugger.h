// The contact solver debugger: the scene frozen at a step's start, one contact chosen, and that
// step's solver passes for it one by one (normal impulses, warm start, bias, friction against the
// Coulomb disc, the residual over the step), the GJK/EPA debugger's sibling (docs/demo.md).
#pragma once

#include "app.h"
#include "sim.h"
#include "world_view.h"

typedef struct dmSolverDebugger dmSolverDebugger;

/// Null when out of memory.
dmSolverDebugger* dmSolverDebugger_Create(void);
void dmSolverDebugger_Destroy(dmSolverDebugger* debugger);

/// Pause the scene and record its next step for the most loaded contact (stepping the scene first
/// while it has no contact, a few seconds at most); show row `pass` (-1: the first push) and aim
/// the camera at the contact.
void dmSolverDebugger_Open(dmSolverDebugger* debugger, dmSim* sim, dmWorldView* view, int pass);

/// Keys and mouse of this frame: passes, substeps, contacts, a click on a body, the camera.
void dmSolverDebugger_Update(dmSolverDebugger* debugger, dmSim* sim, dmWorldView* view, dmApp* app);

/// The frozen scene (the world view, `title` on its HUD) with the contact's points marked, and
/// the debugger's panel on the right.
void dmSolverDebugger_Draw(dmSolverDebugger* debugger, const dmSim* sim, dmWorldView* view,
                           int width, int height, float frameMs, const char* title);

/// One line about the shown pass, e.g. "contact 3 of 10, pass 5 of 41: substep 1 push 2".
void dmSolverDebugger_Describe(const dmSolverDebugger* debugger, char* out, int size);
