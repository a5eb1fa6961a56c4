// A parsed scene into a world: one body and one shape per scene body.
#include "scene_internal.h"

#include <float.h>
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

// The body's one shape, or a compound body's shapes in their frames; false with the world's error
// and *failed the compound entry the world refused (-1: the one shape).
static bool tbBuildSceneShapes(const tbSceneDef* d, const tbSceneBody* b, tbBodyId bodyId,
                               int* failed)
{
	*failed = -1;
	if (b->shapeCount == 0) {
		tbShapeDef shapeDef = tbDefaultShapeDef();
		shapeDef.density = b->density;
		shapeDef.friction = b->friction;
		shapeDef.restitution = b->restitution;
		shapeDef.rollingResistance = b->rollingResistance;
		shapeDef.tangentVelocity = b->tangentVelocity;
		shapeDef.filter.groupIndex = b->groupIndex;
		shapeDef.isSensor = b->isSensor;
		if (b->type == tb_dynamicBody && b->mass > 0.0f) {
			// scene.md: a given mass overrides density; the world takes density, so scale it.
			tbMassData unit = tbComputeMass(&b->shape, 1.0f, NULL);
			shapeDef.density = b->mass / unit.mass;
		}
		return !TB_IS_NULL(tbCreateShape(bodyId, &shapeDef, &b->shape));
	}
	// A given mass scales every shape's density by one factor: the shapes keep their mass ratios
	// (docs/scene-format.md), so the centre of mass stays where the densities put it.
	double scale = 1.0;
	if (b->type == tb_dynamicBody && b->mass > 0.0f) {
		double total = 0.0;
		for (int k = 0; k < b->shapeCount; ++k) {
			const tbSceneShape* s = d->shapes + b->firstShape + k;
			total += (double)tbComputeMass(&s->shape, s->density, NULL).mass;
		}
		scale = (double)b->mass / total;
	}
	for (int k = 0; k < b->shapeCount; ++k) {
		const tbSceneShape* s = d->shapes + b->firstShape + k;
		tbShapeDef shapeDef = tbDefaultShapeDef();
		shapeDef.localPose = s->localPose;
		// Clamped before the conversion (a larger double is undefined as a float); the reader
		// refuses such a mass, and the world refuses FLT_MAX kg/m^3 by name.
		double density = (double)s->density * scale;
		shapeDef.density = density <= (double)FLT_MAX ? (float)density : FLT_MAX;
		shapeDef.friction = s->friction;
		shapeDef.restitution = s->restitution;
		shapeDef.rollingResistance = b->rollingResistance;
		shapeDef.tangentVelocity = b->tangentVelocity;
		shapeDef.filter.groupIndex = b->groupIndex;
		shapeDef.isSensor = s->isSensor;
		if (TB_IS_NULL(tbCreateShape(bodyId, &shapeDef, &s->shape))) {
			*failed = k;
			return false;
		}
	}
	return true;
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
	worldDef.restitutionThreshold = d->restitutionThreshold;
	worldDef.initialBodyCapacity = d->bodyCount;
	worldDef.initialShapeCapacity = d->bodyCount;
	worldDef.workerCount = d->workerCount > 0 ? d->workerCount : 1;
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
		int failed = -1;
		if (TB_IS_NULL(bodyId) || !tbBuildSceneShapes(d, b, bodyId, &failed)) {
			// A refused compound entry is named by its own line and path.
			char path[TB_SCENE_PATH_SIZE];
			tbSceneFormat(path, sizeof path, "%s", b->keyPath);
			if (failed >= 0) {
				tbSceneFormat(path, sizeof path, "%s.shapes[%d]", b->keyPath, failed);
			}
			int line = failed >= 0 ? d->shapes[b->firstShape + failed].line : b->line;
			tbSceneSetError(error, fileName, line, path, "body '%s': %s", b->name,
			                tbGetLastError());
			tbDestroyScene(scene);
			return false;
		}
		if (b->hasInertia || b->hasCenterOfMass) {
			// The file's inertia or centre of mass in place of the shapes' (the mass stays).
			tbMassData md = tbBody_GetMassData(bodyId);
			md.inertia = b->hasInertia ? b->inertia : md.inertia;
			md.center = b->hasCenterOfMass ? b->centerOfMass : md.center;
			tbClearLastError();
			tbBody_SetMassData(bodyId, md);
			if (tbGetLastError()[0] != '\0') {
				tbSceneSetError(error, fileName, b->line, b->keyPath, "body '%s': %s", b->name,
				                tbGetLastError());
				tbDestroyScene(scene);
				return false;
			}
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
