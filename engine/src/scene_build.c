// A parsed scene into a world: one body and one shape per scene body.
#include "scene_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Building the world

void tbDestroyScene(tbScene* scene)
{
	if (scene == NULL) {
		return;
	}
	if (!TB_IS_NULL(scene->worldId) && tbWorld_IsValid(scene->worldId)) {
		tbDestroyWorld(scene->worldId);
	}
	free(scene->bodyIds);
	free(scene->jointIds);
	tbFreeSceneDef(&scene->def);
	memset(scene, 0, sizeof *scene);
}

bool tbBuildScene(tbSceneDef* def, tbScene* scene, tbSceneError* error)
{
	memset(scene, 0, sizeof *scene);
	if (error != NULL) {
		memset(error, 0, sizeof *error);
	}
	scene->def = *def;
	memset(def, 0, sizeof *def);
	const tbSceneDef* d = &scene->def;
	const char* fileName = d->fileName;

	scene->bodyIds = calloc((size_t)(d->bodyCount > 0 ? d->bodyCount : 1), sizeof(tbBodyId));
	if (scene->bodyIds == NULL) {
		tbSceneSetError(error, fileName, 0, "", "out of memory");
		tbDestroyScene(scene);
		return false;
	}
	tbWorldDef worldDef = tbDefaultWorldDef();
	worldDef.gravity = d->gravity;
	worldDef.enableSleep = d->sleep;
	worldDef.enableContinuous = d->continuous;
	worldDef.initialBodyCapacity = d->bodyCount;
	worldDef.initialShapeCapacity = d->bodyCount;
	scene->worldId = tbCreateWorld(&worldDef);
	if (TB_IS_NULL(scene->worldId)) {
		tbSceneSetError(error, fileName, 0, "", "cannot create the world: %s", tbGetLastError());
		tbDestroyScene(scene);
		return false;
	}
	for (int i = 0; i < d->bodyCount; ++i) {
		const tbSceneBody* b = d->bodies + i;
		tbBodyDef bodyDef = tbDefaultBodyDef();
		bodyDef.type = b->type;
		bodyDef.position = b->position;
		bodyDef.rotation = b->rotation;
		bodyDef.linearVelocity = b->linearVelocity;
		bodyDef.angularVelocity = b->angularVelocity;
		bodyDef.isBullet = b->bullet;
		tbClearLastError();
		tbBodyId bodyId = tbCreateBody(scene->worldId, &bodyDef);
		tbShapeDef shapeDef = tbDefaultShapeDef();
		shapeDef.density = b->density;
		shapeDef.friction = b->friction;
		shapeDef.restitution = b->restitution;
		if (b->type == tb_dynamicBody && b->mass > 0.0f) {
			// scene.md: a given mass overrides density; the world takes density, so scale it.
			tbMassData unit = tbComputeMass(&b->shape, 1.0f, NULL);
			shapeDef.density = b->mass / unit.mass;
		}
		if (TB_IS_NULL(bodyId) || TB_IS_NULL(tbCreateShape(bodyId, &shapeDef, &b->shape))) {
			tbSceneSetError(error, fileName, b->line, b->keyPath, "body '%s': %s", b->name,
			                tbGetLastError());
			tbDestroyScene(scene);
			return false;
		}
		scene->bodyIds[i] = bodyId;
	}
	if (!tbBuildSceneJoints(d, scene, error)) {
		tbDestroyScene(scene);
		return false;
	}
	return true;
}

bool tbLoadScene(const char* path, tbScene* scene, tbSceneError* error)
{
	tbSceneDef def;
	memset(scene, 0, sizeof *scene);
	if (!tbReadSceneFile(path, &def, error)) {
		return false;
	}
	return tbBuildScene(&def, scene, error);
}
