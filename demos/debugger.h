// The GJK/EPA debugger for students: two shapes in world space on the left, their Minkowski
// difference and the algorithm's state at one recorded iteration on the right.
#pragma once

#include "app.h"

#include <tumble/tumble.h>

typedef struct dmDebuggerOptions
{
	tbShapeType typeA, typeB;
	tbQueryAlgorithm algorithm;
	int step; ///< recorded step to show first; -1 for the last
} dmDebuggerOptions;

dmDebuggerOptions dmDefaultDebuggerOptions(void);

typedef struct dmDebugger dmDebugger;

/// Needs the renderer and HUD initialised. Null when out of memory.
dmDebugger* dmDebugger_Create(const dmDebuggerOptions* options);
void dmDebugger_Destroy(dmDebugger* debugger);

/// Keys and mouse of this frame; dt in seconds.
void dmDebugger_Update(dmDebugger* debugger, dmApp* app, float dt);

/// Both views and the text panels into a framebuffer of the given size.
void dmDebugger_Draw(dmDebugger* debugger, int width, int height);

/// One line about the shown step, e.g. "step 5 of 9: EPA iteration 2".
void dmDebugger_Describe(const dmDebugger* debugger, char* out, int size);

/// Parse a shape type name ("box", "sphere", ...); false when unknown.
bool dmParseShapeType(const char* name, tbShapeType* type);
