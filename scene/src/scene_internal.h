// The scene loader's private interface (shared/formats/scene.md), split by concern:
// scene_lines.c   JSON line numbers and error messages with file, line and key path;
// scene_read.c    the readers: values, shapes, rotations, bodies, defaults, the top level;
// scene_generate.c the generators (pyramid, stack, rain) with their random numbers and the rain's
//                 grid hash;
// scene_joints.c  the joints list, read and built;
// scene_compound.c a body's `shape` or compound `shapes`;
// scene_level.c   mesh and heightfield shapes (level geometry);
// scene_build.c   a parsed scene into a world;
// scene_find.c    bundled scenes and the file search.
#pragma once

#include "tumble/scene.h"

#include "tumble/world.h"

#include <cJSON.h>

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Enough for a pyramid of base 1000 or 200,000 cubes of rain (about 0.3 GB of world); beyond that
// a file is a mistake.
#define TB_SCENE_MAX_BODIES 200000
// Rain placement gives up after this many tries per body: the region is then too small.
#define TB_RAIN_TRIES_PER_BODY 200
#define TB_PI_D 3.14159265358979323846

#if defined(__GNUC__)
#define TB_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define TB_PRINTF_LIKE(f, a)
#endif

// ---------------------------------------------------------------------------------------------
// Line numbers (scene_lines.c). cJSON keeps no positions, so the text is walked again in step
// with the parsed tree (both in document order) and each item's line (its key's line for an
// object member) is recorded, sorted by item address for lookup.

typedef struct tbLineEntry
{
	const cJSON* item;
	int line;
} tbLineEntry;

typedef struct tbLineMap
{
	tbLineEntry* entries;
	int count;
	int capacity;
} tbLineMap;

typedef struct tbParseContext
{
	const char* fileName;
	tbLineMap lines;
	tbSceneError* error;
	tbSceneDef* def;
	// Defaults of the "defaults" object (scene.md): density kg/m^3, friction, restitution.
	float density;
	float friction;
	float restitution;
	int bodyCapacity; // of def->bodies
	// Bounding spheres of rain bodies placed so far (xyz + radius): new drops must not overlap.
	float* drops;
	int dropCount;
	int dropCapacity;
	// A uniform grid hash over the drops (cells of dropCell metres, at least twice the largest
	// drop radius): a new drop is tested against the 27 cells around it only, so placing n drops
	// takes expected O(n) time instead of O(n^2). Buckets chain through dropNext.
	int* dropNext;
	int* bucketHeads;
	int bucketCount; // a power of two
	float dropCell;
	float dropMaxRadius;
} tbParseContext;

/// The line of an item (its key's line for an object member), or 0.
int tbLineOf(const tbLineMap* map, const cJSON* item);
/// The key path at a byte offset of text that is valid JSON up to there.
void tbPathAtOffset(const char* text, size_t offset, char* out, size_t outSize);
/// Record the line of every item of `root`, the parse of `text`; false when out of memory.
bool tbSceneMapLines(tbLineMap* map, const char* text, size_t length, const cJSON* root);

// Errors (scene_lines.c): "file:line: key.path: message". tbSceneFail always returns false so
// that readers can `return tbSceneFail(...)`.
int tbSceneFormat(char* out, size_t size, const char* format, ...) TB_PRINTF_LIKE(3, 4);
void tbSceneSetError(tbSceneError* error, const char* fileName, int line, const char* path,
                     const char* format, ...) TB_PRINTF_LIKE(5, 6);
bool tbSceneFail(tbParseContext* ctx, const cJSON* item, const char* path, const char* format, ...)
    TB_PRINTF_LIKE(4, 5);
/// "number", "string", "object"... for messages.
const char* tbJsonKind(const cJSON* item);
/// parent.key and parent[index]: key paths for messages.
void tbJoinKey(char* out, const char* parent, const char* key);
void tbJoinIndex(char* out, const char* parent, int index);

// ---------------------------------------------------------------------------------------------
// Readers (scene_read.c).

// An allowed interval for a number, and how a message states it.
typedef struct tbRange
{
	double min, max;
	bool minOpen;
	const char* text; // "> 0"
} tbRange;

extern const tbRange tb_anyNumber;
extern const tbRange tb_coordinate; // docs/ranges.md: positions within +-TB_MAX_COORDINATE
extern const tbRange tb_positive;
extern const tbRange tb_nonNegative;
extern const tbRange tb_unitInterval;

/// Read a number in `range` into *out; otherwise an error naming `path`.
bool tbReadFloat(tbParseContext* ctx, const cJSON* item, const char* path, const tbRange* range,
                 float* out);
/// Read an array of exactly `count` numbers in `range`.
bool tbReadFloats(tbParseContext* ctx, const cJSON* item, const char* path, int count,
                  const tbRange* range, float* out);
/// Read an array of 3 numbers in `range`.
bool tbReadVec3(tbParseContext* ctx, const cJSON* item, const char* path, const tbRange* range,
                vec3s* out);
/// Read an integer in [min, max].
bool tbReadInt(tbParseContext* ctx, const cJSON* item, const char* path, int min, int max,
               int* out);
/// Read true or false.
bool tbReadBool(tbParseContext* ctx, const cJSON* item, const char* path, bool* out);
/// Read a string that fits `outSize` bytes with its terminator.
bool tbReadString(tbParseContext* ctx, const cJSON* item, const char* path, char* out,
                  size_t outSize);
/// The object's keys must all be in `allowed` and appear once; `what` names the object.
bool tbCheckKeys(tbParseContext* ctx, const cJSON* object, const char* path, const char* what,
                 const char* const* allowed, int allowedCount);
/// The member `key` of the object, or null after an error saying it is missing.
const cJSON* tbRequire(tbParseContext* ctx, const cJSON* object, const char* path, const char* key);
/// A shape object (sphere, box, capsule, cylinder, cone or hull) checked by tbGeometry_Validate;
/// *hullIndex is the scene's hull it uses, or -1.
bool tbReadShape(tbParseContext* ctx, const cJSON* object, const char* path, tbGeometry* shape,
                 int* hullIndex);
/// A rotation object: quat_wxyz, euler_xyz_deg, or axis with angle_deg.
bool tbReadRotation(tbParseContext* ctx, const cJSON* object, const char* path, versors* out);
/// A new body of the scene with the current defaults, or null after an error (too many bodies,
/// out of memory).
tbSceneBody* tbAddBody(tbParseContext* ctx, const cJSON* where, const char* path);
/// The body's `shape` or `shapes` (scene_compound.c): exactly one of the two, each shape checked
/// (and its mass, for a dynamic body).
bool tbReadBodyShapes(tbParseContext* ctx, const cJSON* object, const char* path,
                      tbSceneBody* body);
/// A dynamic body's mass properties must be in the supported range (docs/ranges.md).
bool tbCheckMass(tbParseContext* ctx, const cJSON* where, const char* path,
                 const tbSceneBody* body);

// ---------------------------------------------------------------------------------------------
// Level geometry (scene_level.c).

/// A `mesh` or `heightfield` shape object (`type` is its type): built and kept in the scene's
/// meshes or heightfields.
bool tbReadLevelShape(tbParseContext* ctx, const cJSON* object, const char* path, const char* type,
                      tbGeometry* shape);
/// A mesh or heightfield on a dynamic or kinematic body is an error naming the body.
bool tbCheckLevelBody(tbParseContext* ctx, const cJSON* where, const char* path,
                      const tbSceneBody* body);
/// Free the scene's meshes and heightfields.
void tbFreeSceneLevels(tbSceneDef* def);

// ---------------------------------------------------------------------------------------------
// Generators (scene_generate.c).

/// A generator object (pyramid, stack or rain): its bodies are added to the scene.
bool tbReadGenerator(tbParseContext* ctx, const cJSON* object, const char* path, int index);

// ---------------------------------------------------------------------------------------------
// Joints (scene_joints.c).

/// The top level's "joints" array (read after the bodies and generators it names).
bool tbReadJoints(tbParseContext* ctx, const cJSON* list);
/// Create the scene's joints in its world; false after an error naming the joint.
bool tbBuildSceneJoints(const tbSceneDef* def, tbScene* scene, tbSceneError* error);
