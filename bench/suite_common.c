// The scene suite's registry and the helpers its scene files share (bodies that remember where they
// started, joint anchors measured from body poses).
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const tbSuiteScene* const tb_suiteScenes[] = {
    &tb_suiteLargePyramid, &tb_suiteManyPyramids, &tb_suiteLargeWorld, &tb_suiteConvexPile,
    &tb_suiteJunkyard,     &tb_suiteWasher,       &tb_suiteJointGrid,  &tb_suiteRain,
    &tb_suiteTrees25,      &tb_suiteTrees50,      &tb_suiteTrees100,
};
const int tb_suiteSceneCount = (int)(sizeof tb_suiteScenes / sizeof tb_suiteScenes[0]);

// ---------------------------------------------------------------------------------------------
// Helpers of the scene files

void tbSuiteAddFigure(tbSuiteChecks* checks, const char* name, double value, double bound)
{
	if (checks->figureCount >= TB_SUITE_MAX_FIGURES) {
		fprintf(stderr, "tumble-suite: no room for the check '%s' (TB_SUITE_MAX_FIGURES %d)\n",
		        name, TB_SUITE_MAX_FIGURES);
		return;
	}
	checks->figures[checks->figureCount++] = (tbSuiteFigure){name, value, bound, true};
}

int tbSuiteScaled(int count, float scale, int minimum)
{
	int n = (int)lroundf((float)count * scale);
	return n < minimum ? minimum : n;
}

vec3s tbSuiteVec(float x, float y, float z)
{
	return (vec3s){{x, y, z}};
}

tbBodyId tbSuiteStaticBox(tbWorldId worldId, vec3s position, vec3s h)
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = position;
	tbBodyId id = tbCreateBody(worldId, &bd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry box = tbMakeBox(h.x, h.y, h.z);
	tbCreateShape(id, &sd, &box);
	return id;
}

bool tbSuiteBodies_Add(tbSuiteBodies* list, tbBodyId id)
{
	if (list->count == list->capacity) {
		int capacity = list->capacity > 0 ? 2 * list->capacity : 256;
		tbBodyId* ids = realloc(list->ids, (size_t)capacity * sizeof *ids);
		if (ids == NULL) {
			return false;
		}
		list->ids = ids;
		vec3s* start = realloc(list->start, (size_t)capacity * sizeof *start);
		if (start == NULL) {
			return false;
		}
		list->start = start;
		list->capacity = capacity;
	}
	list->ids[list->count] = id;
	list->start[list->count] = tbBody_GetPosition(id);
	list->count += 1;
	return true;
}

void tbSuiteBodies_Free(tbSuiteBodies* list)
{
	free(list->ids);
	free(list->start);
	memset(list, 0, sizeof *list);
}

double tbSuiteBodies_MaxDrift(const tbSuiteBodies* list)
{
	double worst = 0.0;
	for (int i = 0; i < list->count; ++i) {
		if (!tbBody_IsValid(list->ids[i])) {
			continue;
		}
		vec3s d = glms_vec3_sub(tbBody_GetPosition(list->ids[i]), list->start[i]);
		double drift = sqrt((double)glms_vec3_dot(d, d));
		// A NaN drift is the worst of all.
		worst = (drift > worst || isnan(drift)) ? drift : worst;
	}
	return worst;
}

int tbSuiteBodies_CountBelow(const tbSuiteBodies* list, float y)
{
	int n = 0;
	for (int i = 0; i < list->count; ++i) {
		if (tbBody_IsValid(list->ids[i]) && !(tbBody_GetPosition(list->ids[i]).y >= y)) {
			n += 1;
		}
	}
	return n;
}

int tbSuiteBodies_CountNonFinite(const tbSuiteBodies* list)
{
	int n = 0;
	for (int i = 0; i < list->count; ++i) {
		if (!tbBody_IsValid(list->ids[i])) {
			continue;
		}
		tbTransform xf = tbBody_GetTransform(list->ids[i]);
		bool finite = isfinite(xf.p.x) && isfinite(xf.p.y) && isfinite(xf.p.z) &&
		              isfinite(xf.q.x) && isfinite(xf.q.y) && isfinite(xf.q.z) && isfinite(xf.q.w);
		n += finite ? 0 : 1;
	}
	return n;
}

tbSuiteAnchor tbSuiteMakeAnchor(tbBodyId a, tbBodyId b, vec3s anchor)
{
	tbSuiteAnchor s = {a, b, tbInvTransformPoint(tbBody_GetTransform(a), anchor),
	                   tbInvTransformPoint(tbBody_GetTransform(b), anchor)};
	return s;
}

double tbSuiteAnchorGap(const tbSuiteAnchor* anchor)
{
	if (!tbBody_IsValid(anchor->bodyA) || !tbBody_IsValid(anchor->bodyB)) {
		return 0.0;
	}
	vec3s pa = tbTransformPoint(tbBody_GetTransform(anchor->bodyA), anchor->localA);
	vec3s pb = tbTransformPoint(tbBody_GetTransform(anchor->bodyB), anchor->localB);
	vec3s d = glms_vec3_sub(pa, pb);
	return sqrt((double)glms_vec3_dot(d, d));
}

double tbSuiteAnchorGapPerArm(const tbSuiteAnchor* anchor)
{
	if (!tbBody_IsValid(anchor->bodyA) || !tbBody_IsValid(anchor->bodyB)) {
		return 0.0;
	}
	vec3s pa = tbTransformPoint(tbBody_GetTransform(anchor->bodyA), anchor->localA);
	vec3s pb = tbTransformPoint(tbBody_GetTransform(anchor->bodyB), anchor->localB);
	double arms = glms_vec3_distance(pa, tbBody_GetWorldCenterOfMass(anchor->bodyA)) +
	              glms_vec3_distance(pb, tbBody_GetWorldCenterOfMass(anchor->bodyB));
	return arms > 0.0 ? tbSuiteAnchorGap(anchor) / arms : 0.0;
}
