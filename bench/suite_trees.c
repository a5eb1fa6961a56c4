// Suite scenes of compound bodies on a fine mesh: 50 trees, each a compound of 22 hexagonal-prism
// hulls stacked 53 m high, set turning about z so that they topple onto a wavy triangle mesh of
// 150 x 200 m whose cells are 1, 0.5 or 0.25 m (trees100, trees50, trees25; Box3D's benchmark app
// scenes, built through Tumble's public API).
#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_SUITE_PI 3.14159265358979f
#define TB_TREE_PIECES 22
#define TB_TREE_AMPLITUDE 0.4f

typedef struct tbTreeState
{
	tbMesh ground;
	tbHull pieces[TB_TREE_PIECES];
	tbSuiteBodies bodies;
} tbTreeState;

static void tbTreesDestroy(void* state)
{
	tbTreeState* s = state;
	tbDestroyMesh(&s->ground);
	for (int i = 0; i < TB_TREE_PIECES; ++i) {
		tbDestroyHull(s->pieces + i);
	}
	tbSuiteBodies_Free(&s->bodies);
	free(s);
}

// The wave y = A sin(2 pi 0.1 u) sin(2 pi 0.05 w) over a grid of xCount x zCount cells of size
// `cell`, with u and w measured from the grid's -x, -z corner; centred on the origin. Only the
// rows of cells [zFirst, zEnd) are made (the whole grid: 0, zCount), each vertex where the whole
// grid has it.
static bool tbTreesGround(tbMesh* mesh, int xCount, int zCount, int zFirst, int zEnd, float cell)
{
	int rows = zEnd - zFirst;
	long nv = (long)(xCount + 1) * (rows + 1), nt = 2L * xCount * rows;
	vec3s* v = malloc((size_t)nv * sizeof *v);
	int* idx = malloc((size_t)nt * 3 * sizeof *idx);
	bool ok = v != NULL && idx != NULL;
	for (int i = 0; ok && i <= xCount; ++i) {
		float sx = sinf(2.0f * TB_SUITE_PI * 0.1f * cell * (float)i);
		for (int r = 0; r <= rows; ++r) {
			int j = zFirst + r;
			float sz = sinf(2.0f * TB_SUITE_PI * 0.05f * cell * (float)j);
			v[(long)i * (rows + 1) + r] =
			    tbSuiteVec(cell * ((float)i - 0.5f * (float)xCount), TB_TREE_AMPLITUDE * sx * sz,
			               cell * ((float)j - 0.5f * (float)zCount));
		}
	}
	long t = 0;
	for (int i = 0; ok && i < xCount; ++i) {
		for (int r = 0; r < rows; ++r) {
			int a = i * (rows + 1) + r, b = a + 1, c = a + rows + 1, d = c + 1;
			// (a, b, d) and (d, c, a): counter-clockwise seen from +y.
			int tri[6] = {a, b, d, d, c, a};
			memcpy(idx + 6 * t++, tri, sizeof tri);
		}
	}
	char message[256] = "out of memory";
	ok = ok && tbBuildMesh(v, (int)nv, idx, (int)nt, mesh, message, (int)sizeof message);
	if (!ok) {
		fprintf(stderr, "trees ground mesh: %s\n", message);
	}
	free(v);
	free(idx);
	return ok;
}

static void* tbTreesCreate(tbWorldId worldId, float scale, int cellsPerMetre)
{
	tbTreeState* s = calloc(1, sizeof *s);
	if (s == NULL) {
		return NULL;
	}
	float cell = 1.0f / (float)cellsPerMetre;
	int count = tbSuiteScaled(50, scale, 1);
	// The trees stand 3 m apart along z from z = -70 and topple across it (they turn about z).
	// The whole scene has the whole ground; a smaller one (scale < 1, fewer trees) has the rows
	// of cells from 15 m before its first tree to 15 m past its last (the tests' small runs make
	// a few trees, not a million triangles).
	int zCount = 200 * cellsPerMetre, zFirst = 0, zEnd = zCount;
	if (count < 50) {
		zFirst = (int)floorf((100.0f - 70.0f - 15.0f) / cell);
		zEnd = (int)ceilf((100.0f - 70.0f + 3.0f * (float)(count - 1) + 15.0f) / cell);
		zEnd = zEnd < zCount ? zEnd : zCount;
	}
	if (!tbTreesGround(&s->ground, 150 * cellsPerMetre, zCount, zFirst, zEnd, cell)) {
		tbTreesDestroy(s);
		return NULL;
	}
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId ground = tbCreateBody(worldId, &gd);
	tbShapeDef sd = tbDefaultShapeDef();
	tbGeometry mesh = tbMakeMeshShape(&s->ground);
	tbCreateShape(ground, &sd, &mesh);

	// The pieces: hexagonal prisms in the tree's frame, each 1.5 m plus its diameter long, the
	// radius shrinking by 5 % a piece; piece i spans y from c_i - r_i to c_i + 1.5 + r_i.
	float c = 1.0f, r = 0.75f;
	for (int i = 0; i < TB_TREE_PIECES; ++i) {
		vec3s points[12];
		for (int k = 0; k < 6; ++k) {
			float a = 2.0f * TB_SUITE_PI * (float)k / 6.0f;
			points[2 * k] = tbSuiteVec(r * cosf(a), c - r, r * sinf(a));
			points[2 * k + 1] = tbSuiteVec(r * cosf(a), c + 1.5f + r, r * sinf(a));
		}
		if (tbBuildHull(points, 12, s->pieces + i, NULL) != tb_hullOk) {
			tbTreesDestroy(s);
			return NULL;
		}
		c += 1.5f + 2.0f * r;
		r *= 0.95f;
	}

	tbShapeDef pd = tbDefaultShapeDef();
	pd.density = 1.0f;
	pd.friction = 0.9f;
	// Box3D's scene gives its trees a rolling resistance of 0.05 too. The coefficient is the
	// same; the lever differs: Box3D's is a quarter of the hull's inner radius, Tumble's the
	// distance from the body's centre of mass to the manifold (rolling_resistance.c).
	pd.rollingResistance = 0.05f;
	float z = -70.0f, spin = -0.5f;
	for (int b = 0; b < count; ++b) {
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tb_dynamicBody;
		bd.position = tbSuiteVec(0.0f, 1.0f, z);
		// The reference scene's trees rest below 0.2 m/s, a setting of each body there and here
		// (the world's sleepThreshold is the speed at which a kinematic body wakes what it
		// touches): at the default 0.05 a 54 m trunk rocking in a trough of the wave moves its
		// far end faster than that long after it came down.
		bd.sleepThreshold = 0.2f;
		tbBodyId id = tbCreateBody(worldId, &bd);
		for (int i = 0; i < TB_TREE_PIECES && !TB_IS_NULL(id); ++i) {
			tbGeometry g = tbMakeHullShape(s->pieces + i);
			if (TB_IS_NULL(tbCreateShape(id, &pd, &g))) {
				id = tb_nullBodyId;
			}
		}
		if (TB_IS_NULL(id) || !tbSuiteBodies_Add(&s->bodies, id)) {
			tbTreesDestroy(s);
			return NULL;
		}
		// Turning about z through the body origin (the tree's foot), faster down the row, every
		// other tree the other way: v = w x (centre of mass - origin).
		float w = (0.5f + 0.5f * (float)b / (float)count) * spin;
		vec3s omega = tbSuiteVec(0.0f, 0.0f, w);
		vec3s arm = glms_vec3_sub(tbBody_GetWorldCenterOfMass(id), bd.position);
		tbBody_SetAngularVelocity(id, omega);
		tbBody_SetLinearVelocity(id, glms_vec3_cross(omega, arm));
		z += 3.0f;
		spin = -spin;
	}
	return s;
}

static void* tbTrees25Create(tbWorldId worldId, float scale)
{
	return tbTreesCreate(worldId, scale, 4);
}
static void* tbTrees50Create(tbWorldId worldId, float scale)
{
	return tbTreesCreate(worldId, scale, 2);
}
static void* tbTrees100Create(tbWorldId worldId, float scale)
{
	return tbTreesCreate(worldId, scale, 1);
}

// No tree passes through the mesh: every piece's lowest point stays above the wave's lowest
// point less 10 cm (a piece under the surface there has gone through it).
static void tbTreesCheck(void* state, tbWorldId worldId, tbSuiteChecks* checks)
{
	(void)worldId;
	tbTreeState* s = state;
	int through = 0;
	for (int i = 0; i < s->bodies.count; ++i) {
		tbShapeId shapes[TB_TREE_PIECES];
		int n = tbBody_GetShapes(s->bodies.ids[i], shapes, TB_TREE_PIECES);
		bool below = false;
		for (int k = 0; k < n; ++k) {
			below = below || !(tbShape_GetAABB(shapes[k]).lower.y >= -TB_TREE_AMPLITUDE - 0.1f);
		}
		through += below ? 1 : 0;
	}
	tbSuiteAddFigure(checks, "nonfinite_bodies", tbSuiteBodies_CountNonFinite(&s->bodies), 0.0);
	tbSuiteAddFigure(checks, "trees_through_mesh", through, 0.0);
}

const tbSuiteScene tb_suiteTrees25 = {
    "trees25",
    "50 compound trees of 22 hulls toppling onto a wave mesh of 0.25 m cells",
    500,
    NULL,
    tbTrees25Create,
    NULL,
    tbTreesCheck,
    tbTreesDestroy,
};
const tbSuiteScene tb_suiteTrees50 = {
    "trees50",
    "50 compound trees of 22 hulls toppling onto a wave mesh of 0.5 m cells",
    500,
    NULL,
    tbTrees50Create,
    NULL,
    tbTreesCheck,
    tbTreesDestroy,
};
const tbSuiteScene tb_suiteTrees100 = {
    "trees100",
    "50 compound trees of 22 hulls toppling onto a wave mesh of 1 m cells",
    500,
    NULL,
    tbTrees100Create,
    NULL,
    tbTreesCheck,
    tbTreesDestroy,
};
