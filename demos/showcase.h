// The placeholder scene until the world API lands (issue 6): one of each shape on the ground.
#pragma once

#include "app.h"

typedef struct dmShowcase dmShowcase;

dmShowcase* dmShowcase_Create(void);
void dmShowcase_Destroy(dmShowcase* showcase);
void dmShowcase_Update(dmShowcase* showcase, dmApp* app, float dt);
void dmShowcase_Draw(dmShowcase* showcase, int width, int height, float frameMs);
