// Convex hulls of point sets: 3D quickhull with coplanar triangles merged into polygons, plus the
// point, segment and flat-polygon hulls of degenerate sets.
#include "tumble/hull.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// All geometry below runs in double on the float input: the difference of two floats is exact in
// double, so the cross products that decide visibility are all but exact and the tolerances only
// have to absorb the geometry (near-coplanar, near-collinear or duplicate input), not round-off.

// Plane tolerance relative to the bounding-box diagonal: a point this close to a face lies on it.
#define TB_HULL_RELATIVE_TOLERANCE 1e-6
// Floor of the tolerance relative to the largest coordinate: inputs that differ by a few float
// roundings coincide, however small the set is compared with its distance from the origin.
#define TB_HULL_COORDINATE_TOLERANCE (4.0 * (double)FLT_EPSILON)
// A fan triangle must be thicker than this fraction of the tolerance and may fold over a
// neighbour by no more: thick enough that its normal is not round-off, and far below the
// tolerance so that the triangulated hull stays convex to much better than it.
#define TB_HULL_FAN_FRACTION 0.01
// Faces added to the patch of one eye before it is dropped as hopeless.
#define TB_HULL_MAX_REPAIRS 64
// Faces searched for one point left near the hull.
#define TB_HULL_MAX_SWEEP_FACES 4096
// A point is kept in an outside set when it is this fraction of the tolerance above the face:
// far above the round-off of a plane distance, far below anything that matters.
#define TB_HULL_KEEP_FRACTION 1e-6
// A merged face must stay within this multiple of the tolerance of all its triangles' vertices,
// else the merge is discarded for the plain triangulation.
#define TB_HULL_CHECK_FACTOR 3.0

#define TB_HULL_PI 3.14159265358979323846

typedef struct tbDVec
{
	double x, y, z;
} tbDVec;

// What a stage of the builder reports; tb_stageInvalid means "this path failed, take another".
typedef enum tbStage
{
	tb_stageOk = 0,
	tb_stageNoMemory,
	tb_stageInvalid,
} tbStage;

static tbDVec tbDFrom(vec3s v)
{
	return (tbDVec){(double)v.x, (double)v.y, (double)v.z};
}

static tbDVec tbDSub(tbDVec a, tbDVec b)
{
	return (tbDVec){a.x - b.x, a.y - b.y, a.z - b.z};
}

static tbDVec tbDScale(tbDVec a, double s)
{
	return (tbDVec){a.x * s, a.y * s, a.z * s};
}

static double tbDDot(tbDVec a, tbDVec b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static tbDVec tbDCross(tbDVec a, tbDVec b)
{
	return (tbDVec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static double tbDLength(tbDVec a)
{
	return sqrt(tbDDot(a, a));
}

// Grows a block to hold `needed` elements. Returns the (maybe moved) block, or NULL with the old
// block and capacity left as they were.
static void* tbGrowBlock(void* data, int* capacity, int needed, size_t elementSize)
{
	if (needed <= *capacity) {
		return data;
	}
	int newCapacity = *capacity > 0 ? *capacity : 64;
	while (newCapacity < needed) {
		newCapacity *= 2;
	}
	void* grown = realloc(data, (size_t)newCapacity * elementSize);
	if (grown != NULL) {
		*capacity = newCapacity;
	}
	return grown;
}

typedef struct tbIntArray
{
	int* data;
	int count;
	int capacity;
} tbIntArray;

static bool tbReserveInts(tbIntArray* array, int needed)
{
	int* data = tbGrowBlock(array->data, &array->capacity, needed, sizeof(int));
	if (data == NULL) {
		return false;
	}
	array->data = data;
	return true;
}

static bool tbPushInt(tbIntArray* array, int value)
{
	if (!tbReserveInts(array, array->count + 1)) {
		return false;
	}
	array->data[array->count++] = value;
	return true;
}

static void tbFreeInts(tbIntArray* array)
{
	free(array->data);
	array->data = NULL;
	array->count = 0;
	array->capacity = 0;
}

// Faces as vertex loops, the common currency of the merged, triangulated and flat hulls.
typedef struct tbFaceSet
{
	tbIntArray first; // face f runs over indices[first[f] .. first[f + 1]); one sentinel at the end
	tbIntArray indices; // input point ids, counter-clockwise seen from outside
	tbIntArray group;   // per face: its group of quickhull triangles (merged faces only)
} tbFaceSet;

static void tbFreeFaceSet(tbFaceSet* set)
{
	tbFreeInts(&set->first);
	tbFreeInts(&set->indices);
	tbFreeInts(&set->group);
}

static void tbClearFaceSet(tbFaceSet* set)
{
	set->first.count = 0;
	set->indices.count = 0;
	set->group.count = 0;
}

// ---------------------------------------------------------------------------------------------
// Output

typedef struct tbHalfEdge
{
	int lo, hi;   // output vertex ids, lo < hi: the key of the undirected edge
	int from;     // the half-edge runs from -> the other one
	int face;     // face that runs along it
	int position; // its place in tbHull.faceIndices: edges come out in face order
} tbHalfEdge;

static int tbCompareHalfEdges(const void* a, const void* b)
{
	const tbHalfEdge* p = a;
	const tbHalfEdge* q = b;
	if (p->lo != q->lo) {
		return p->lo < q->lo ? -1 : 1;
	}
	if (p->hi != q->hi) {
		return p->hi < q->hi ? -1 : 1;
	}
	return (p->position > q->position) - (p->position < q->position);
}

typedef struct tbEdgeRecord
{
	tbHullEdge edge;
	int position; // of its first half-edge in tbHull.faceIndices
} tbEdgeRecord;

static int tbCompareEdgeRecords(const void* a, const void* b)
{
	const tbEdgeRecord* p = a;
	const tbEdgeRecord* q = b;
	return (p->position > q->position) - (p->position < q->position);
}

static void tbFinishHull(tbHull* hull)
{
	// Summed in double so that 65536 vertices do not lose the centroid's low bits.
	tbDVec sum = {0.0, 0.0, 0.0};
	double radius = 0.0;
	for (int i = 0; i < hull->vertexCount; ++i) {
		tbDVec v = tbDFrom(hull->vertices[i]);
		sum.x += v.x;
		sum.y += v.y;
		sum.z += v.z;
		radius = fmax(radius, tbDLength(v));
	}
	double inverse = hull->vertexCount > 0 ? 1.0 / (double)hull->vertexCount : 0.0;
	hull->centroid =
	    (vec3s){{(float)(sum.x * inverse), (float)(sum.y * inverse), (float)(sum.z * inverse)}};
	hull->radius = (float)radius;
	tbDVec centroid = {sum.x * inverse, sum.y * inverse, sum.z * inverse};
	double extent = 0.0;
	for (int i = 0; i < hull->vertexCount; ++i) {
		tbDVec v = tbDFrom(hull->vertices[i]);
		tbDVec d = {v.x - centroid.x, v.y - centroid.y, v.z - centroid.z};
		extent = fmax(extent, tbDLength(d));
	}
	hull->extent = (float)extent;
}

// Newell's normal of a loop: exact for a planar polygon, the best-fit direction of a near-planar
// one, and independent of which corner is the first.
static tbDVec tbLoopNormal(const tbDVec* points, const int* loop, int count)
{
	tbDVec normal = {0.0, 0.0, 0.0};
	tbDVec origin = points[loop[0]];
	for (int i = 0; i < count; ++i) {
		tbDVec a = tbDSub(points[loop[i]], origin);
		tbDVec b = tbDSub(points[loop[(i + 1) % count]], origin);
		normal.x += (a.y - b.y) * (a.z + b.z);
		normal.y += (a.z - b.z) * (a.x + b.x);
		normal.z += (a.x - b.x) * (a.y + b.y);
	}
	return normal;
}

// Turns face loops into a tbHull: vertex ids compacted in order of first use, planes, and the
// unique edges. Fails (tb_stageInvalid) unless the loops close into a polytope: every edge in
// exactly two faces, once each way, and V - E + F = 2.
static tbStage tbBuildPolytope(const vec3s* points, const tbDVec* dpoints, int pointCount,
                               const tbFaceSet* set, tbHullKind kind, tbHull* hull)
{
	memset(hull, 0, sizeof(*hull));
	int faceCount = set->first.count - 1;
	int indexCount = set->indices.count;
	if (faceCount < 2 || indexCount % 2 != 0) {
		return tb_stageInvalid;
	}

	tbStage stage = tb_stageOk;
	int* map = malloc((size_t)pointCount * sizeof(int));
	tbHalfEdge* halves = malloc((size_t)indexCount * sizeof(tbHalfEdge));
	tbEdgeRecord* edges = malloc((size_t)(indexCount / 2) * sizeof(tbEdgeRecord));
	if (map == NULL || halves == NULL || edges == NULL) {
		stage = tb_stageNoMemory;
		goto done;
	}
	for (int i = 0; i < pointCount; ++i) {
		map[i] = -1;
	}
	int vertexCount = 0;
	for (int i = 0; i < indexCount; ++i) {
		int id = set->indices.data[i];
		if (map[id] < 0) {
			map[id] = vertexCount++;
		}
	}

	hull->kind = kind;
	hull->vertices = malloc((size_t)vertexCount * sizeof(vec3s));
	hull->faces = malloc((size_t)faceCount * sizeof(tbHullFace));
	hull->faceIndices = malloc((size_t)indexCount * sizeof(int));
	hull->edges = malloc((size_t)(indexCount / 2) * sizeof(tbHullEdge));
	if (hull->vertices == NULL || hull->faces == NULL || hull->faceIndices == NULL ||
	    hull->edges == NULL) {
		stage = tb_stageNoMemory;
		goto done;
	}
	hull->vertexCount = vertexCount;
	hull->faceCount = faceCount;
	hull->faceIndexCount = indexCount;
	for (int i = 0; i < indexCount; ++i) {
		int id = set->indices.data[i];
		hull->vertices[map[id]] = points[id];
		hull->faceIndices[i] = map[id];
	}

	for (int f = 0; f < faceCount; ++f) {
		int first = set->first.data[f];
		int count = set->first.data[f + 1] - first;
		const int* loop = set->indices.data + first;
		if (count < 3) {
			stage = tb_stageInvalid;
			goto done;
		}
		tbDVec normal = tbLoopNormal(dpoints, loop, count);
		double length = tbDLength(normal);
		if (!(length > 0.0) || !isfinite(length)) {
			stage = tb_stageInvalid;
			goto done;
		}
		normal = tbDScale(normal, 1.0 / length);
		// The plane touches the face's outermost corner, so every corner lies on or behind it.
		double offset = -DBL_MAX;
		for (int i = 0; i < count; ++i) {
			offset = fmax(offset, tbDDot(normal, dpoints[loop[i]]));
		}
		hull->faces[f] = (tbHullFace){
		    .normal = {{(float)normal.x, (float)normal.y, (float)normal.z}},
		    .offset = (float)offset,
		    .firstIndex = first,
		    .indexCount = count,
		};
		for (int i = 0; i < count; ++i) {
			int from = hull->faceIndices[first + i];
			int to = hull->faceIndices[first + (i + 1) % count];
			halves[first + i] = (tbHalfEdge){
			    .lo = from < to ? from : to,
			    .hi = from < to ? to : from,
			    .from = from,
			    .face = f,
			    .position = first + i,
			};
		}
	}

	// Sorting by key puts an edge's two half-edges side by side; anything else is not a polytope.
	qsort(halves, (size_t)indexCount, sizeof(tbHalfEdge), tbCompareHalfEdges);
	int edgeCount = indexCount / 2;
	for (int e = 0; e < edgeCount; ++e) {
		const tbHalfEdge* first = halves + 2 * e;
		const tbHalfEdge* second = first + 1;
		bool sameKey = first->lo == second->lo && first->hi == second->hi;
		bool thirdToo = e + 1 < edgeCount && first[2].lo == first->lo && first[2].hi == first->hi;
		if (!sameKey || thirdToo || first->from == second->from || first->lo == first->hi) {
			stage = tb_stageInvalid;
			goto done;
		}
		// The half-edge met first in the face order names the edge: it runs v0 -> v1 along face0.
		edges[e] = (tbEdgeRecord){
		    .edge = {.v0 = first->from,
		             .v1 = first->from == first->lo ? first->hi : first->lo,
		             .face0 = first->face,
		             .face1 = second->face},
		    .position = first->position,
		};
	}
	qsort(edges, (size_t)edgeCount, sizeof(tbEdgeRecord), tbCompareEdgeRecords);
	for (int e = 0; e < edgeCount; ++e) {
		hull->edges[e] = edges[e].edge;
	}
	hull->edgeCount = edgeCount;
	if (vertexCount - edgeCount + faceCount != 2) {
		stage = tb_stageInvalid;
		goto done;
	}
	tbFinishHull(hull);

done:
	free(map);
	free(halves);
	free(edges);
	if (stage != tb_stageOk) {
		tbDestroyHull(hull);
	}
	return stage;
}

// ---------------------------------------------------------------------------------------------
// Quickhull (Barber, Dobkin, Huhdanpaa 1996) on a triangle mesh with outside sets. Only a point
// more than the tolerance above its face becomes an eye, so near-coplanar input adds no vertices;
// a point is kept in an outside set while it is above any face at all and dropped only when it is
// below every new face (inside). Each fan is checked before it replaces the patch it covers.

typedef struct tbQhFace
{
	int v[3];         // input point ids, counter-clockwise seen from outside
	int adj[3];       // face across the edge v[i] -> v[i + 1]
	tbDVec normal;    // outward unit normal
	double offset;    // dot(normal, x) on the plane
	double area;      // twice the area: the largest triangles seed the merging
	double farthest;  // largest distance in the outside set: an eye only beyond the tolerance
	int conflictHead; // first point of the outside set, chained through tbQuickhull.nextConflict
	int visibleStamp; // equals the round's stamp while the face is seen from the eye
	int nextFree;     // free-list link while dead
	bool alive;
} tbQhFace;

// A half-edge on the rim of a patch of faces (the horizon, or a merged face's boundary).
typedef struct tbRim
{
	int from, to;    // runs from -> to along the patch
	int outside;     // the face across it, outside the patch
	int outsideEdge; // the twin edge's index in that face
} tbRim;

typedef struct tbQuickhull
{
	const tbDVec* points;
	int pointCount;
	double tolerance;
	double fanTolerance;  // thinnest fan triangle, largest fold
	double keepTolerance; // smallest height that keeps a point in an outside set
	tbQhFace* faces;
	int faceSlots;
	int faceCapacity;
	int freeHead;
	int* nextConflict; // per point
	int* rimOfVertex;  // per point: the rim starting there while rims are chained, else -1
	int* gathered;     // outside points of the faces being replaced
	int* gatheredFace; // the face each gathered point came from (leftover sweep)
	int* vertexStamp;  // per point: the last fan check that looked at it as a corner
	int checkStamp;
	int stamp;           // marks the faces of one search (tbQhFace.visibleStamp)
	tbQhFace* fanPlanes; // planes of the fan being checked
	int fanCapacity;
	tbRim* rims;
	int rimCount;
	int rimCapacity;
	tbIntArray visible;
	tbIntArray pending; // faces that may have an outside set, a stack
	tbIntArray order;   // rims in loop order
	tbIntArray newFaces;
} tbQuickhull;

static double tbFaceDistance(const tbQhFace* face, tbDVec p)
{
	return tbDDot(face->normal, p) - face->offset;
}

static int tbAllocFace(tbQuickhull* qh, int a, int b, int c)
{
	int id;
	if (qh->freeHead >= 0) {
		id = qh->freeHead;
		qh->freeHead = qh->faces[id].nextFree;
	} else {
		tbQhFace* faces =
		    tbGrowBlock(qh->faces, &qh->faceCapacity, qh->faceSlots + 1, sizeof(tbQhFace));
		if (faces == NULL) {
			return -1;
		}
		qh->faces = faces;
		id = qh->faceSlots++;
	}
	tbQhFace* face = qh->faces + id;
	tbDVec pa = qh->points[a];
	tbDVec pb = qh->points[b];
	tbDVec pc = qh->points[c];
	tbDVec normal = tbDCross(tbDSub(pb, pa), tbDSub(pc, pa));
	double length = tbDLength(normal);
	// A fan triangle has its apex more than the fan tolerance off its base line (tbCheckFan),
	// so the length is never zero; the guard only keeps a NaN out.
	if (length > 0.0) {
		normal = tbDScale(normal, 1.0 / length);
	}
	*face = (tbQhFace){
	    .v = {a, b, c},
	    .adj = {-1, -1, -1},
	    .normal = normal,
	    .offset = (tbDDot(normal, pa) + tbDDot(normal, pb) + tbDDot(normal, pc)) / 3.0,
	    .area = length,
	    .farthest = 0.0,
	    .conflictHead = -1,
	    .visibleStamp = 0,
	    .nextFree = -1,
	    .alive = true,
	};
	return id;
}

static void tbFreeFace(tbQuickhull* qh, int id)
{
	qh->faces[id].alive = false;
	qh->faces[id].conflictHead = -1;
	qh->faces[id].nextFree = qh->freeHead;
	qh->freeHead = id;
}

// Puts a point in the outside set of the candidate face it is farthest above, or drops it when it
// is below all of them (Barber et al.: a point outside the new hull is above one of the new faces).
// A point less than the tolerance above stays although it never becomes an eye: near a sharp edge
// of a flat hull, a hair above one plane can be far outside the hull, which a later face shows.
static void tbAssignPoint(tbQuickhull* qh, int point, const int* candidates, int count)
{
	int best = -1;
	double bestDistance = qh->keepTolerance;
	for (int i = 0; i < count; ++i) {
		double distance = tbFaceDistance(qh->faces + candidates[i], qh->points[point]);
		if (distance > bestDistance) {
			bestDistance = distance;
			best = candidates[i];
		}
	}
	if (best >= 0) {
		tbQhFace* face = qh->faces + best;
		qh->nextConflict[point] = face->conflictHead;
		face->conflictHead = point;
		face->farthest = fmax(face->farthest, bestDistance);
	}
}

static bool tbHasEye(const tbQuickhull* qh, int faceId)
{
	const tbQhFace* face = qh->faces + faceId;
	return face->alive && face->conflictHead >= 0 && face->farthest > qh->tolerance;
}

static bool tbPushRim(tbQuickhull* qh, tbRim rim)
{
	tbRim* rims = tbGrowBlock(qh->rims, &qh->rimCapacity, qh->rimCount + 1, sizeof(tbRim));
	if (rims == NULL) {
		return false;
	}
	qh->rims = rims;
	qh->rims[qh->rimCount++] = rim;
	return true;
}

// Orders the rims into one closed loop (qh->order). Invalid when they are not exactly one simple
// loop: a vertex twice (pinched patch) or several loops (a patch with a hole).
static tbStage tbChainRims(tbQuickhull* qh)
{
	tbStage stage = tb_stageOk;
	int marked = 0;
	for (; marked < qh->rimCount; ++marked) {
		int from = qh->rims[marked].from;
		if (qh->rimOfVertex[from] >= 0) {
			stage = tb_stageInvalid;
			break;
		}
		qh->rimOfVertex[from] = marked;
	}
	qh->order.count = 0;
	if (stage == tb_stageOk && !tbReserveInts(&qh->order, qh->rimCount)) {
		stage = tb_stageNoMemory;
	}
	if (stage == tb_stageOk) {
		int current = 0;
		for (int k = 0; k < qh->rimCount; ++k) {
			if (k > 0 && current == 0) {
				stage = tb_stageInvalid; // closed early: more than one loop
				break;
			}
			qh->order.data[qh->order.count++] = current;
			current = qh->rimOfVertex[qh->rims[current].to];
			if (current < 0) {
				stage = tb_stageInvalid;
				break;
			}
		}
		if (stage == tb_stageOk && current != 0) {
			stage = tb_stageInvalid;
		}
	}
	for (int r = 0; r < marked; ++r) {
		qh->rimOfVertex[qh->rims[r].from] = -1;
	}
	return stage;
}

static tbStage tbBuildSimplex(tbQuickhull* qh, const int simplex[4])
{
	const tbDVec* p = qh->points;
	int a = simplex[0], b = simplex[1], c = simplex[2], d = simplex[3];
	// Wind the base away from the apex so that all four normals point out.
	if (tbDDot(tbDCross(tbDSub(p[b], p[a]), tbDSub(p[c], p[a])), tbDSub(p[d], p[a])) > 0.0) {
		int swap = b;
		b = c;
		c = swap;
	}
	const int tri[4][3] = {{a, b, c}, {b, a, d}, {c, b, d}, {a, c, d}};
	int ids[4];
	for (int i = 0; i < 4; ++i) {
		ids[i] = tbAllocFace(qh, tri[i][0], tri[i][1], tri[i][2]);
		if (ids[i] < 0) {
			return tb_stageNoMemory;
		}
	}
	// Each edge's twin is the same two corners the other way round in another face.
	for (int i = 0; i < 4; ++i) {
		for (int e = 0; e < 3; ++e) {
			int from = tri[i][e], to = tri[i][(e + 1) % 3];
			for (int j = 0; j < 4; ++j) {
				for (int k = 0; k < 3; ++k) {
					if (j != i && tri[j][k] == to && tri[j][(k + 1) % 3] == from) {
						qh->faces[ids[i]].adj[e] = ids[j];
					}
				}
			}
		}
	}
	for (int i = 0; i < qh->pointCount; ++i) {
		if (i != a && i != b && i != c && i != d) {
			tbAssignPoint(qh, i, ids, 4);
		}
	}
	for (int i = 0; i < 4; ++i) {
		if (tbHasEye(qh, ids[i]) && !tbPushInt(&qh->pending, ids[i])) {
			return tb_stageNoMemory;
		}
	}
	return tb_stageOk;
}

// Marks a face as replaced by the fan (once) and lists it.
static bool tbMarkVisible(tbQuickhull* qh, int faceId, int stamp)
{
	if (qh->faces[faceId].visibleStamp == stamp) {
		return true;
	}
	qh->faces[faceId].visibleStamp = stamp;
	return tbPushInt(&qh->visible, faceId);
}

// Marks every face round a vertex, starting from one that has it: the vertex leaves the hull.
static bool tbMarkStar(tbQuickhull* qh, int vertex, int seedFace, int stamp)
{
	int faceId = seedFace;
	// A vertex has fewer faces than the hull; the cap only bounds a corrupt walk.
	for (int guard = 0; guard < qh->faceSlots; ++guard) {
		if (!tbMarkVisible(qh, faceId, stamp)) {
			return false;
		}
		const tbQhFace* face = qh->faces + faceId;
		int corner = face->v[0] == vertex ? 0 : (face->v[1] == vertex ? 1 : 2);
		// The side that ends at the vertex leads to the next face round it.
		faceId = face->adj[(corner + 2) % 3];
		if (faceId == seedFace) {
			break;
		}
	}
	return true;
}

// The horizon of the marked patch: its edges whose other face stays, chained into one loop.
static tbStage tbFindHorizon(tbQuickhull* qh, int stamp)
{
	qh->rimCount = 0;
	for (int i = 0; i < qh->visible.count; ++i) {
		const tbQhFace* face = qh->faces + qh->visible.data[i];
		for (int e = 0; e < 3; ++e) {
			int outside = face->adj[e];
			if (qh->faces[outside].visibleStamp == stamp) {
				continue;
			}
			tbRim rim = {face->v[e], face->v[(e + 1) % 3], outside, -1};
			for (int k = 0; k < 3; ++k) {
				if (qh->faces[outside].v[k] == rim.to &&
				    qh->faces[outside].v[(k + 1) % 3] == rim.from) {
					rim.outsideEdge = k;
				}
			}
			if (rim.outsideEdge < 0) {
				return tb_stageInvalid;
			}
			if (!tbPushRim(qh, rim)) {
				return tb_stageNoMemory;
			}
		}
	}
	if (qh->rimCount < 3) {
		return tb_stageInvalid; // the eye would swallow the whole hull
	}
	return tbChainRims(qh);
}

// What the fan on the current horizon needs before it may replace the patch.
typedef enum tbRepair
{
	tb_repairNone = 0,
	tb_repairFace,   // also replace this outside face
	tb_repairVertex, // also replace every face round this vertex
	tb_repairGiveUp, // drop the eye
} tbRepair;

// Checks the fan from the eye to the horizon before anything changes. In exact arithmetic the
// fan over the faces that see the eye is convex; in floating point an eye nearly in a face's
// plane, or nearly on an edge's line, can make a fan that folds over its neighbours by far more
// than the round-off. Each fan triangle must be thicker than the fan tolerance, bend down
// from (and not fold onto) the face it meets on the horizon and its neighbour in the fan, and
// keep the corners it removes inside (within the tolerance).
static tbRepair tbCheckFan(tbQuickhull* qh, int eye, int* what, int* seed)
{
	const tbDVec* p = qh->points;
	tbDVec eyePoint = p[eye];
	int fanCount = qh->rimCount;
	double slack = qh->fanTolerance;
	tbQhFace* planes = qh->fanPlanes;
	int check = ++qh->checkStamp;
	for (int k = 0; k < fanCount; ++k) {
		const tbRim* rim = qh->rims + qh->order.data[k];
		tbDVec a = p[rim->from], b = p[rim->to];
		tbDVec normal = tbDCross(tbDSub(b, a), tbDSub(eyePoint, a));
		double length = tbDLength(normal);
		// The apex's distance to the base line; nearly on it, the corner nearer the eye lies on
		// the new edge from the other corner to the eye and must go.
		if (!(length > slack * tbDLength(tbDSub(b, a)))) {
			bool fromNearer = tbDLength(tbDSub(eyePoint, a)) < tbDLength(tbDSub(eyePoint, b));
			*what = fromNearer ? rim->from : rim->to;
			*seed = rim->outside;
			return tb_repairVertex;
		}
		planes[k].normal = tbDScale(normal, 1.0 / length);
		planes[k].offset = (tbDDot(planes[k].normal, a) + tbDDot(planes[k].normal, b) +
		                    tbDDot(planes[k].normal, eyePoint)) /
		                   3.0;
	}
	for (int k = 0; k < fanCount; ++k) {
		const tbRim* rim = qh->rims + qh->order.data[k];
		const tbQhFace* outside = qh->faces + rim->outside;
		int opposite = outside->v[(rim->outsideEdge + 2) % 3];
		// Folded: both in one plane but lying on each other, so no distance shows it; the
		// normals do.
		double eyeHeight = tbFaceDistance(outside, eyePoint);
		bool folded = tbDDot(planes[k].normal, outside->normal) < 0.0 && eyeHeight > -slack;
		if (folded || eyeHeight > slack || tbFaceDistance(planes + k, p[opposite]) > slack) {
			*what = rim->outside;
			return tb_repairFace;
		}
		int next = (k + 1) % fanCount;
		const tbRim* nextRim = qh->rims + qh->order.data[next];
		double fromHeight = tbFaceDistance(planes + next, p[rim->from]);
		folded = tbDDot(planes[k].normal, planes[next].normal) < 0.0 && fromHeight > -slack;
		if (folded || fromHeight > slack || tbFaceDistance(planes + k, p[nextRim->to]) > slack) {
			*what = rim->to;
			*seed = rim->outside;
			return tb_repairVertex;
		}
	}
	// Corners that leave the hull: on a replaced face and not on the horizon.
	for (int k = 0; k < fanCount; ++k) {
		qh->vertexStamp[qh->rims[k].from] = check;
	}
	for (int i = 0; i < qh->visible.count; ++i) {
		const tbQhFace* face = qh->faces + qh->visible.data[i];
		for (int c = 0; c < 3; ++c) {
			int corner = face->v[c];
			if (qh->vertexStamp[corner] == check) {
				continue;
			}
			qh->vertexStamp[corner] = check;
			for (int k = 0; k < fanCount; ++k) {
				if (tbFaceDistance(planes + k, p[corner]) > qh->tolerance) {
					return tb_repairGiveUp;
				}
			}
		}
	}
	return tb_repairNone;
}

// Adds the eye to the hull: replaces the faces it sees by a fan from the horizon. Invalid (and
// nothing changed) when no sound fan is found.
static tbStage tbAddPoint(tbQuickhull* qh, int eye, int startFace, int stamp)
{
	tbDVec eyePoint = qh->points[eye];

	// The faces the eye is above, grown from one it sees: a connected patch. Every face enters
	// the list once, so the scan ends.
	qh->visible.count = 0;
	if (!tbMarkVisible(qh, startFace, stamp)) {
		return tb_stageNoMemory;
	}
	for (int i = 0; i < qh->visible.count; ++i) {
		int faceId = qh->visible.data[i];
		for (int e = 0; e < 3; ++e) {
			int other = qh->faces[faceId].adj[e];
			if (qh->faces[other].visibleStamp != stamp &&
			    tbFaceDistance(qh->faces + other, eyePoint) > 0.0 &&
			    !tbMarkVisible(qh, other, stamp)) {
				return tb_stageNoMemory;
			}
		}
	}

	// Grow the patch until its fan is sound; every repair adds a face, and the cap keeps a
	// hopeless eye from eating the hull.
	tbStage stage = tb_stageInvalid;
	for (int repair = 0; repair < TB_HULL_MAX_REPAIRS; ++repair) {
		stage = tbFindHorizon(qh, stamp);
		if (stage != tb_stageOk) {
			return stage;
		}
		tbQhFace* planes =
		    tbGrowBlock(qh->fanPlanes, &qh->fanCapacity, qh->rimCount, sizeof(tbQhFace));
		if (planes == NULL) {
			return tb_stageNoMemory;
		}
		qh->fanPlanes = planes;
		int what = -1, seed = -1;
		tbRepair need = tbCheckFan(qh, eye, &what, &seed);
		bool grown = true;
		if (need == tb_repairNone) {
			break;
		} else if (need == tb_repairFace) {
			grown = tbMarkVisible(qh, what, stamp);
		} else if (need == tb_repairVertex) {
			grown = tbMarkStar(qh, what, seed, stamp);
		} else {
			return tb_stageInvalid;
		}
		if (!grown) {
			return tb_stageNoMemory;
		}
		stage = tb_stageInvalid;
	}
	if (stage != tb_stageOk) {
		return stage;
	}

	// The outside points of the doomed faces wait for the new faces. Each point is in one set
	// only, so the walk is capped by the point count.
	int gatheredCount = 0;
	for (int i = 0; i < qh->visible.count; ++i) {
		int faceId = qh->visible.data[i];
		int point = qh->faces[faceId].conflictHead;
		while (point >= 0 && gatheredCount < qh->pointCount) {
			qh->gathered[gatheredCount++] = point;
			point = qh->nextConflict[point];
		}
		tbFreeFace(qh, faceId);
	}

	int fanCount = qh->rimCount;
	qh->newFaces.count = 0;
	if (!tbReserveInts(&qh->newFaces, fanCount)) {
		return tb_stageNoMemory;
	}
	for (int k = 0; k < fanCount; ++k) {
		const tbRim* rim = qh->rims + qh->order.data[k];
		int id = tbAllocFace(qh, rim->from, rim->to, eye);
		if (id < 0) {
			return tb_stageNoMemory;
		}
		qh->newFaces.data[qh->newFaces.count++] = id;
	}
	// Face k = (from_k, to_k, eye): its side to -> eye is the next face's side eye -> from.
	for (int k = 0; k < fanCount; ++k) {
		const tbRim* rim = qh->rims + qh->order.data[k];
		tbQhFace* face = qh->faces + qh->newFaces.data[k];
		face->adj[0] = rim->outside;
		face->adj[1] = qh->newFaces.data[(k + 1) % fanCount];
		face->adj[2] = qh->newFaces.data[(k + fanCount - 1) % fanCount];
		qh->faces[rim->outside].adj[rim->outsideEdge] = qh->newFaces.data[k];
	}
	for (int i = 0; i < gatheredCount; ++i) {
		if (qh->gathered[i] != eye) {
			tbAssignPoint(qh, qh->gathered[i], qh->newFaces.data, fanCount);
		}
	}
	for (int k = 0; k < fanCount; ++k) {
		int id = qh->newFaces.data[k];
		if (tbHasEye(qh, id) && !tbPushInt(&qh->pending, id)) {
			return tb_stageNoMemory;
		}
	}
	return tb_stageOk;
}

// Points left less than the tolerance above their face can still be far above another face: on a
// flat hull the faces meet at sharp edges, and a point a hair above one plane can be well outside
// the hull. The faces a point is above form a connected patch (the hull is convex), so a search
// of that patch from the point's face finds the face it is highest above; the point moves there
// and, beyond the tolerance, becomes an eye. Points stay in their sets for the next sweep: a later
// eye can tilt a face under them.
static tbStage tbSweepLeftovers(tbQuickhull* qh, bool* pushed)
{
	*pushed = false;
	int gatheredCount = 0;
	for (int f = 0; f < qh->faceSlots; ++f) {
		tbQhFace* face = qh->faces + f;
		if (!face->alive) {
			continue;
		}
		int point = face->conflictHead;
		while (point >= 0 && gatheredCount < qh->pointCount) {
			qh->gathered[gatheredCount] = point;
			qh->gatheredFace[gatheredCount] = f;
			gatheredCount += 1;
			point = qh->nextConflict[point];
		}
		face->conflictHead = -1;
		face->farthest = 0.0;
	}
	for (int i = 0; i < gatheredCount; ++i) {
		tbDVec p = qh->points[qh->gathered[i]];
		int best = qh->gatheredFace[i];
		double height = tbFaceDistance(qh->faces + best, p);
		int stamp = ++qh->stamp;
		qh->visible.count = 0;
		qh->faces[best].visibleStamp = stamp;
		if (!tbPushInt(&qh->visible, best)) {
			return tb_stageNoMemory;
		}
		// Each face enters once; the cap bounds the cost of a point that sees half a flat hull.
		for (int k = 0; k < qh->visible.count && k < TB_HULL_MAX_SWEEP_FACES; ++k) {
			const tbQhFace* face = qh->faces + qh->visible.data[k];
			for (int e = 0; e < 3; ++e) {
				int other = face->adj[e];
				if (qh->faces[other].visibleStamp == stamp) {
					continue;
				}
				qh->faces[other].visibleStamp = stamp;
				double distance = tbFaceDistance(qh->faces + other, p);
				if (distance > height) {
					height = distance;
					best = other;
				}
				if (distance > qh->keepTolerance && !tbPushInt(&qh->visible, other)) {
					return tb_stageNoMemory;
				}
			}
		}
		tbAssignPoint(qh, qh->gathered[i], &best, 1);
		if (height > qh->tolerance) {
			if (!tbPushInt(&qh->pending, best)) {
				return tb_stageNoMemory;
			}
			*pushed = true;
		}
	}
	return tb_stageOk;
}

static tbStage tbRunQuickhull(tbQuickhull* qh, const int simplex[4])
{
	tbStage stage = tbBuildSimplex(qh, simplex);
	int consumed = 0;
	// Every round takes one point out of the outside sets for good, and a stale stack entry only
	// shrinks the stack, so the inner loop ends after at most pointCount rounds; a sweep that
	// pushes a face leads to at least one round, so at most pointCount sweeps push.
	for (int sweep = 0; stage == tb_stageOk && sweep <= qh->pointCount; ++sweep) {
		while (stage == tb_stageOk && qh->pending.count > 0 && consumed < qh->pointCount) {
			int faceId = qh->pending.data[--qh->pending.count];
			if (!tbHasEye(qh, faceId)) {
				continue;
			}
			// The eye is the farthest outside point: it is surely a vertex of the final hull.
			tbQhFace* face = qh->faces + faceId;
			int eye = -1, eyePrevious = -1, previous = -1;
			double farthest = -DBL_MAX;
			for (int point = face->conflictHead, guard = 0; point >= 0 && guard < qh->pointCount;
			     point = qh->nextConflict[point], ++guard) {
				double distance = tbFaceDistance(face, qh->points[point]);
				if (distance > farthest) {
					farthest = distance;
					eye = point;
					eyePrevious = previous;
				}
				previous = point;
			}
			if (eyePrevious >= 0) {
				qh->nextConflict[eyePrevious] = qh->nextConflict[eye];
			} else {
				face->conflictHead = qh->nextConflict[eye];
			}
			++consumed;
			stage = tbAddPoint(qh, eye, faceId, ++qh->stamp);
			if (stage == tb_stageInvalid) {
				// No sound fan (a horizon that is not one loop, or repairs that would not end):
				// only near-degenerate patches do this. The eye is dropped, the face keeps its
				// other points.
				stage = tb_stageOk;
				face = qh->faces + faceId;
				face->farthest = 0.0;
				for (int point = face->conflictHead, guard = 0;
				     point >= 0 && guard < qh->pointCount;
				     point = qh->nextConflict[point], ++guard) {
					face->farthest = fmax(face->farthest, tbFaceDistance(face, qh->points[point]));
				}
				if (tbHasEye(qh, faceId) && !tbPushInt(&qh->pending, faceId)) {
					stage = tb_stageNoMemory;
				}
			}
		}
		bool pushed = false;
		if (stage == tb_stageOk) {
			stage = tbSweepLeftovers(qh, &pushed);
		}
		if (!pushed) {
			break;
		}
	}
	return stage;
}

static tbStage tbCollectTriangles(const tbQuickhull* qh, tbFaceSet* set)
{
	tbClearFaceSet(set);
	for (int f = 0; f < qh->faceSlots; ++f) {
		const tbQhFace* face = qh->faces + f;
		if (!face->alive) {
			continue;
		}
		if (!tbPushInt(&set->first, set->indices.count) || !tbPushInt(&set->group, -1)) {
			return tb_stageNoMemory;
		}
		for (int k = 0; k < 3; ++k) {
			if (!tbPushInt(&set->indices, face->v[k])) {
				return tb_stageNoMemory;
			}
		}
	}
	return tbPushInt(&set->first, set->indices.count) ? tb_stageOk : tb_stageNoMemory;
}

// ---------------------------------------------------------------------------------------------
// Convex hulls in a plane

typedef struct tbPlanePoint
{
	double u, w; // coordinates in the plane
	int id;
} tbPlanePoint;

static int tbComparePlanePoints(const void* a, const void* b)
{
	const tbPlanePoint* p = a;
	const tbPlanePoint* q = b;
	if (p->u != q->u) {
		return p->u < q->u ? -1 : 1;
	}
	if (p->w != q->w) {
		return p->w < q->w ? -1 : 1;
	}
	return (p->id > q->id) - (p->id < q->id);
}

// True when o -> a -> b turns left by more than the tolerance: a lies more than `tolerance` off
// the line o -> b, on its outer side. Duplicates and near-collinear points fail, so they drop.
static bool tbTurnsLeft(tbPlanePoint o, tbPlanePoint a, tbPlanePoint b, double tolerance)
{
	double cross = (a.u - o.u) * (b.w - o.w) - (a.w - o.w) * (b.u - o.u);
	return cross > tolerance * hypot(b.u - o.u, b.w - o.w);
}

// Andrew's monotone chain on points sorted by tbComparePlanePoints. Writes the counter-clockwise
// hull to `chain` (room for 2 * count + 1) and returns its size.
static int tbMonotoneChain(const tbPlanePoint* sorted, int count, double tolerance,
                           tbPlanePoint* chain)
{
	int k = 0;
	for (int i = 0; i < count; ++i) {
		while (k >= 2 && !tbTurnsLeft(chain[k - 2], chain[k - 1], sorted[i], tolerance)) {
			k -= 1;
		}
		chain[k++] = sorted[i];
	}
	for (int i = count - 2, lower = k + 1; i >= 0; --i) {
		while (k >= lower && !tbTurnsLeft(chain[k - 2], chain[k - 1], sorted[i], tolerance)) {
			k -= 1;
		}
		chain[k++] = sorted[i];
	}
	return k > 1 ? k - 1 : k; // the chain ends where it started
}

// An orthonormal pair (u, w) in the plane of the unit normal with u x w = normal, so that
// counter-clockwise in (u, w) is counter-clockwise about the normal.
static void tbPlaneBasis(tbDVec normal, tbDVec* u, tbDVec* w)
{
	tbDVec axis = fabs(normal.x) < 0.5 ? (tbDVec){1.0, 0.0, 0.0} : (tbDVec){0.0, 1.0, 0.0};
	tbDVec side = tbDCross(axis, normal);
	*u = tbDScale(side, 1.0 / tbDLength(side));
	*w = tbDCross(normal, *u);
}

// Convexity of a loop in the plane of `normal`, to within the tolerance and globally: its 2D hull
// must visit the corners in loop order, and every corner off the hull (in a pocket) must lie
// within the tolerance of the hull edge across the pocket. A group of triangles grown on a finely
// curved surface can have a jagged boundary that passes every test of three corners at a time.
static tbStage tbCheckLoopConvex(const tbDVec* points, const int* loop, int count, tbDVec normal,
                                 double tolerance)
{
	if (count <= 3) {
		return tb_stageOk;
	}
	tbStage stage = tb_stageOk;
	tbPlanePoint* local = malloc((size_t)count * sizeof(tbPlanePoint));
	tbPlanePoint* sorted = malloc((size_t)count * sizeof(tbPlanePoint));
	tbPlanePoint* chain = malloc((size_t)(2 * count + 1) * sizeof(tbPlanePoint));
	int* rank = malloc((size_t)count * sizeof(int));     // per loop position: place on the hull
	int* nextHull = malloc((size_t)count * sizeof(int)); // per loop position: next hull corner
	if (local == NULL || sorted == NULL || chain == NULL || rank == NULL || nextHull == NULL) {
		stage = tb_stageNoMemory;
		goto done;
	}
	tbDVec u, w;
	tbPlaneBasis(normal, &u, &w);
	for (int i = 0; i < count; ++i) {
		tbDVec d = tbDSub(points[loop[i]], points[loop[0]]);
		local[i] = (tbPlanePoint){tbDDot(d, u), tbDDot(d, w), i};
		sorted[i] = local[i];
		rank[i] = -1;
	}
	qsort(sorted, (size_t)count, sizeof(tbPlanePoint), tbComparePlanePoints);
	int hullCount = tbMonotoneChain(sorted, count, tolerance, chain);
	if (hullCount < 3) {
		stage = tb_stageInvalid;
		goto done;
	}
	for (int j = 0; j < hullCount; ++j) {
		rank[chain[j].id] = j;
	}
	// From the first hull corner round the loop, the hull corners must come in hull order.
	int start = chain[0].id;
	int expected = 0;
	int next = start;
	for (int step = count - 1; step >= 0; --step) {
		int position = (start + step) % count;
		nextHull[position] = next;
		if (rank[position] >= 0) {
			next = position;
		}
	}
	int previous = start;
	for (int step = 1; step <= count && stage == tb_stageOk; ++step) {
		int position = (start + step) % count;
		if (rank[position] >= 0) {
			expected += 1;
			if (rank[position] != expected % hullCount) {
				stage = tb_stageInvalid;
			}
			previous = position;
			continue;
		}
		tbPlanePoint a = local[previous], b = local[nextHull[position]], c = local[position];
		double cross = (b.u - a.u) * (c.w - a.w) - (b.w - a.w) * (c.u - a.u);
		if (cross > tolerance * hypot(b.u - a.u, b.w - a.w)) {
			stage = tb_stageInvalid; // deeper than the tolerance inside the hull
		}
	}

done:
	free(local);
	free(sorted);
	free(chain);
	free(rank);
	free(nextHull);
	return stage;
}

// ---------------------------------------------------------------------------------------------
// Merging coplanar triangles into convex polygons

typedef struct tbSeed
{
	double area;
	int face;
} tbSeed;

static int tbCompareSeeds(const void* a, const void* b)
{
	const tbSeed* p = a;
	const tbSeed* q = b;
	if (p->area != q->area) {
		return p->area > q->area ? -1 : 1;
	}
	return (p->face > q->face) - (p->face < q->face);
}

// A triangle joins a group when its corners are within the tolerance of the seed's plane. Against
// the seed, not the neighbour: a finely tessellated sphere must not merge into one face by a chain
// of small angles.
static bool tbJoinsSeed(const tbQuickhull* qh, const tbQhFace* seed, const tbQhFace* face)
{
	if (tbDDot(seed->normal, face->normal) <= 0.0) {
		return false;
	}
	for (int k = 0; k < 3; ++k) {
		if (fabs(tbFaceDistance(seed, qh->points[face->v[k]])) > qh->tolerance) {
			return false;
		}
	}
	return true;
}

// Drops corners that only two faces share (they lie on the edge between them) and corners of one
// face only; a face left with fewer than three corners was a sliver between two others and goes.
static tbStage tbRemoveFlatCorners(const tbQuickhull* qh, tbFaceSet* set)
{
	int* incidence = malloc((size_t)qh->pointCount * sizeof(int));
	if (incidence == NULL) {
		return tb_stageNoMemory;
	}
	// Each pass but the last removes a corner, so pointCount passes are enough.
	for (int pass = 0; pass < qh->pointCount; ++pass) {
		memset(incidence, 0, (size_t)qh->pointCount * sizeof(int));
		for (int i = 0; i < set->indices.count; ++i) {
			incidence[set->indices.data[i]] += 1;
		}
		bool removed = false;
		int faceCount = set->first.count - 1;
		int write = 0, writeFace = 0;
		for (int f = 0; f < faceCount; ++f) {
			int begin = set->first.data[f], end = set->first.data[f + 1];
			int faceBegin = write;
			for (int i = begin; i < end; ++i) {
				int v = set->indices.data[i];
				if (incidence[v] >= 3) {
					set->indices.data[write++] = v;
				} else {
					removed = true;
				}
			}
			if (write - faceBegin >= 3) {
				set->first.data[writeFace] = faceBegin;
				set->group.data[writeFace] = set->group.data[f];
				writeFace += 1;
			} else {
				write = faceBegin;
			}
		}
		set->first.data[writeFace] = write;
		set->first.count = writeFace + 1;
		set->group.count = writeFace;
		set->indices.count = write;
		if (!removed) {
			break;
		}
	}
	free(incidence);
	return tb_stageOk;
}

// Checks the merged faces against the triangles they came from: every triangle corner within the
// check tolerance of the face plane, and the loop convex (left turns within the tolerance, total
// turn one full circle). Invalid sends the caller back to the plain triangulation.
static tbStage tbCheckMergedFaces(const tbQuickhull* qh, const tbFaceSet* set,
                                  const tbIntArray* members, const tbIntArray* memberFirst)
{
	double checkTolerance = TB_HULL_CHECK_FACTOR * qh->tolerance;
	int faceCount = set->first.count - 1;
	for (int f = 0; f < faceCount; ++f) {
		const int* loop = set->indices.data + set->first.data[f];
		int count = set->first.data[f + 1] - set->first.data[f];
		tbDVec normal = tbLoopNormal(qh->points, loop, count);
		double length = tbDLength(normal);
		if (!(length > 0.0) || !isfinite(length)) {
			return tb_stageInvalid;
		}
		normal = tbDScale(normal, 1.0 / length);
		double offset = -DBL_MAX;
		for (int i = 0; i < count; ++i) {
			offset = fmax(offset, tbDDot(normal, qh->points[loop[i]]));
		}
		int group = set->group.data[f];
		for (int m = memberFirst->data[group]; m < memberFirst->data[group + 1]; ++m) {
			const tbQhFace* face = qh->faces + members->data[m];
			for (int k = 0; k < 3; ++k) {
				double distance = tbDDot(normal, qh->points[face->v[k]]) - offset;
				if (fabs(distance) > checkTolerance) {
					return tb_stageInvalid;
				}
			}
		}
		double turning = 0.0;
		for (int i = 0; i < count; ++i) {
			tbDVec a = qh->points[loop[i]];
			tbDVec b = qh->points[loop[(i + 1) % count]];
			tbDVec c = qh->points[loop[(i + 2) % count]];
			tbDVec ab = tbDSub(b, a);
			tbDVec bc = tbDSub(c, b);
			// Twice the signed area of a, b, c: negative beyond the tolerance only when c is off
			// the line a -> b and b off the line a -> c, so that a short side's direction, which
			// the tolerance leaves loose, cannot fail the face alone.
			tbDVec ac = tbDSub(c, a);
			double side = tbDDot(tbDCross(ab, ac), normal);
			if (side < -checkTolerance * fmax(tbDLength(ab), tbDLength(ac))) {
				return tb_stageInvalid;
			}
			turning += atan2(tbDDot(tbDCross(ab, bc), normal), tbDDot(ab, bc));
		}
		if (fabs(turning - 2.0 * TB_HULL_PI) > 0.5) {
			return tb_stageInvalid;
		}
	}
	return tb_stageOk;
}

// Grows groups of coplanar triangles from the largest ones, traces each group's boundary into a
// polygon, then removes corners left on edges and checks the result.
static tbStage tbMergeFaces(tbQuickhull* qh, tbFaceSet* set)
{
	tbClearFaceSet(set);
	tbStage stage = tb_stageOk;
	tbIntArray members = {NULL, 0, 0};
	tbIntArray memberFirst = {NULL, 0, 0};
	int* groupOf = malloc((size_t)qh->faceSlots * sizeof(int));
	tbSeed* seeds = malloc((size_t)qh->faceSlots * sizeof(tbSeed));
	if (groupOf == NULL || seeds == NULL) {
		stage = tb_stageNoMemory;
		goto done;
	}
	int seedCount = 0;
	for (int f = 0; f < qh->faceSlots; ++f) {
		groupOf[f] = -1;
		if (qh->faces[f].alive) {
			seeds[seedCount++] = (tbSeed){qh->faces[f].area, f};
		}
	}
	// The largest triangle has the most accurate plane.
	qsort(seeds, (size_t)seedCount, sizeof(tbSeed), tbCompareSeeds);

	int groupCount = 0;
	for (int s = 0; s < seedCount && stage == tb_stageOk; ++s) {
		int seed = seeds[s].face;
		if (groupOf[seed] >= 0) {
			continue;
		}
		int start = members.count;
		groupOf[seed] = groupCount;
		if (!tbPushInt(&members, seed)) {
			stage = tb_stageNoMemory;
			break;
		}
		// Breadth first over neighbours; each face joins once, so the scan ends.
		for (int i = start; i < members.count; ++i) {
			for (int e = 0; e < 3; ++e) {
				int other = qh->faces[members.data[i]].adj[e];
				if (groupOf[other] < 0 && tbJoinsSeed(qh, qh->faces + seed, qh->faces + other)) {
					groupOf[other] = groupCount;
					if (!tbPushInt(&members, other)) {
						stage = tb_stageNoMemory;
						goto done;
					}
				}
			}
		}
		qh->rimCount = 0;
		for (int i = start; i < members.count; ++i) {
			const tbQhFace* face = qh->faces + members.data[i];
			for (int e = 0; e < 3; ++e) {
				if (groupOf[face->adj[e]] != groupCount) {
					tbRim rim = {face->v[e], face->v[(e + 1) % 3], face->adj[e], -1};
					if (!tbPushRim(qh, rim)) {
						stage = tb_stageNoMemory;
						goto done;
					}
				}
			}
		}
		stage = tbChainRims(qh);
		int loopStart = set->indices.count;
		if (stage == tb_stageOk) {
			for (int k = 0; k < qh->order.count; ++k) {
				if (!tbPushInt(&set->indices, qh->rims[qh->order.data[k]].from)) {
					stage = tb_stageNoMemory;
					goto done;
				}
			}
			const int* loop = set->indices.data + loopStart;
			int loopCount = set->indices.count - loopStart;
			tbDVec normal = tbLoopNormal(qh->points, loop, loopCount);
			double length = tbDLength(normal);
			stage = length > 0.0 ? tbCheckLoopConvex(qh->points, loop, loopCount,
			                                         tbDScale(normal, 1.0 / length), qh->tolerance)
			                     : tb_stageInvalid;
			if (stage == tb_stageOk) {
				if (!tbPushInt(&memberFirst, start) || !tbPushInt(&set->group, groupCount) ||
				    !tbPushInt(&set->first, loopStart)) {
					stage = tb_stageNoMemory;
					break;
				}
				groupCount += 1;
			} else {
				set->indices.count = loopStart;
			}
		}
		if (stage == tb_stageInvalid) {
			// The group's boundary is not one simple convex loop: keep its triangles apart.
			stage = tb_stageOk;
			for (int i = start; i < members.count; ++i) {
				const tbQhFace* face = qh->faces + members.data[i];
				groupOf[members.data[i]] = groupCount;
				if (!tbPushInt(&memberFirst, i) || !tbPushInt(&set->group, groupCount) ||
				    !tbPushInt(&set->first, set->indices.count) ||
				    !tbPushInt(&set->indices, face->v[0]) ||
				    !tbPushInt(&set->indices, face->v[1]) ||
				    !tbPushInt(&set->indices, face->v[2])) {
					stage = tb_stageNoMemory;
					goto done;
				}
				groupCount += 1;
			}
		}
	}
	if (stage == tb_stageOk &&
	    (!tbPushInt(&memberFirst, members.count) || !tbPushInt(&set->first, set->indices.count))) {
		stage = tb_stageNoMemory;
	}
	if (stage == tb_stageOk) {
		stage = tbRemoveFlatCorners(qh, set);
	}
	if (stage == tb_stageOk) {
		stage = tbCheckMergedFaces(qh, set, &members, &memberFirst);
	}

done:
	free(groupOf);
	free(seeds);
	tbFreeInts(&members);
	tbFreeInts(&memberFirst);
	return stage;
}

static tbStage tbBuildSolid(const vec3s* points, const tbDVec* dpoints, int count, double tolerance,
                            const int simplex[4], tbHull* hull)
{
	tbQuickhull qh = {
	    .points = dpoints,
	    .pointCount = count,
	    .tolerance = tolerance,
	    .fanTolerance = TB_HULL_FAN_FRACTION * tolerance,
	    .keepTolerance = TB_HULL_KEEP_FRACTION * tolerance,
	    .freeHead = -1,
	};
	tbFaceSet set = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
	tbStage stage = tb_stageOk;
	qh.nextConflict = malloc((size_t)count * sizeof(int));
	qh.rimOfVertex = malloc((size_t)count * sizeof(int));
	qh.gathered = malloc((size_t)count * sizeof(int));
	qh.gatheredFace = malloc((size_t)count * sizeof(int));
	qh.vertexStamp = calloc((size_t)count, sizeof(int));
	if (qh.nextConflict == NULL || qh.rimOfVertex == NULL || qh.gathered == NULL ||
	    qh.gatheredFace == NULL || qh.vertexStamp == NULL) {
		stage = tb_stageNoMemory;
	} else {
		for (int i = 0; i < count; ++i) {
			qh.nextConflict[i] = -1;
			qh.rimOfVertex[i] = -1;
		}
		stage = tbRunQuickhull(&qh, simplex);
	}
	if (stage == tb_stageOk) {
		stage = tbMergeFaces(&qh, &set);
		if (stage == tb_stageOk) {
			stage = tbBuildPolytope(points, dpoints, count, &set, tb_hullSolid, hull);
		}
		if (stage == tb_stageInvalid) {
			// Merging left something unsound; the triangulation is always a closed polytope.
			stage = tbCollectTriangles(&qh, &set);
			if (stage == tb_stageOk) {
				stage = tbBuildPolytope(points, dpoints, count, &set, tb_hullSolid, hull);
			}
		}
	}
	free(qh.nextConflict);
	free(qh.rimOfVertex);
	free(qh.gathered);
	free(qh.gatheredFace);
	free(qh.vertexStamp);
	free(qh.fanPlanes);
	free(qh.faces);
	free(qh.rims);
	tbFreeInts(&qh.visible);
	tbFreeInts(&qh.pending);
	tbFreeInts(&qh.order);
	tbFreeInts(&qh.newFaces);
	tbFreeFaceSet(&set);
	return stage;
}

// ---------------------------------------------------------------------------------------------
// Degenerate sets

static tbStage tbBuildPoint(vec3s point, tbHull* hull)
{
	memset(hull, 0, sizeof(*hull));
	hull->vertices = malloc(sizeof(vec3s));
	if (hull->vertices == NULL) {
		return tb_stageNoMemory;
	}
	hull->kind = tb_hullPoint;
	hull->vertices[0] = point;
	hull->vertexCount = 1;
	tbFinishHull(hull);
	return tb_stageOk;
}

// The two extremes along the line a -> b.
static tbStage tbBuildSegment(const vec3s* points, const tbDVec* dpoints, int count, int a, int b,
                              tbHull* hull)
{
	memset(hull, 0, sizeof(*hull));
	tbDVec direction = tbDSub(dpoints[b], dpoints[a]);
	int lo = a, hi = a;
	double loProjection = 0.0, hiProjection = 0.0;
	for (int i = 0; i < count; ++i) {
		double projection = tbDDot(direction, tbDSub(dpoints[i], dpoints[a]));
		if (projection < loProjection) {
			loProjection = projection;
			lo = i;
		}
		if (projection > hiProjection) {
			hiProjection = projection;
			hi = i;
		}
	}
	hull->vertices = malloc(2 * sizeof(vec3s));
	hull->edges = malloc(sizeof(tbHullEdge));
	if (hull->vertices == NULL || hull->edges == NULL) {
		tbDestroyHull(hull);
		return tb_stageNoMemory;
	}
	hull->kind = tb_hullSegment;
	hull->vertices[0] = points[lo];
	hull->vertices[1] = points[hi];
	hull->vertexCount = 2;
	hull->edges[0] = (tbHullEdge){.v0 = 0, .v1 = 1, .face0 = -1, .face1 = -1};
	hull->edgeCount = 1;
	tbFinishHull(hull);
	return tb_stageOk;
}

// The 2D hull (Andrew's monotone chain) in the plane of a, b, c, as a front and a back face.
// Invalid when fewer than three corners survive the tolerance.
static tbStage tbBuildPolygon(const vec3s* points, const tbDVec* dpoints, int count,
                              double tolerance, int a, int b, int c, tbHull* hull)
{
	tbDVec origin = dpoints[a];
	tbDVec u = tbDSub(dpoints[b], origin);
	tbDVec normal = tbDCross(u, tbDSub(dpoints[c], origin));
	u = tbDScale(u, 1.0 / tbDLength(u));
	normal = tbDScale(normal, 1.0 / tbDLength(normal));
	// u x w = normal, so counter-clockwise in (u, w) is counter-clockwise about the normal.
	tbDVec w = tbDCross(normal, u);

	tbStage stage = tb_stageOk;
	tbFaceSet set = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
	tbPlanePoint* sorted = malloc((size_t)count * sizeof(tbPlanePoint));
	tbPlanePoint* chain = malloc((size_t)(2 * count + 1) * sizeof(tbPlanePoint));
	if (sorted == NULL || chain == NULL) {
		stage = tb_stageNoMemory;
		goto done;
	}
	for (int i = 0; i < count; ++i) {
		tbDVec d = tbDSub(dpoints[i], origin);
		sorted[i] = (tbPlanePoint){tbDDot(d, u), tbDDot(d, w), i};
	}
	qsort(sorted, (size_t)count, sizeof(tbPlanePoint), tbComparePlanePoints);
	int k = tbMonotoneChain(sorted, count, tolerance, chain);
	if (k < 3) {
		stage = tb_stageInvalid;
		goto done;
	}
	// Front face first so that the vertices come out counter-clockwise about it, then the back
	// face with the same corners the other way round.
	if (!tbPushInt(&set.first, 0) || !tbPushInt(&set.first, k) || !tbPushInt(&set.first, 2 * k)) {
		stage = tb_stageNoMemory;
		goto done;
	}
	for (int i = 0; i < k && stage == tb_stageOk; ++i) {
		if (!tbPushInt(&set.indices, chain[i].id)) {
			stage = tb_stageNoMemory;
		}
	}
	for (int i = k - 1; i >= 0 && stage == tb_stageOk; --i) {
		if (!tbPushInt(&set.indices, chain[i].id)) {
			stage = tb_stageNoMemory;
		}
	}
	if (stage == tb_stageOk) {
		stage = tbBuildPolytope(points, dpoints, count, &set, tb_hullPolygon, hull);
	}

done:
	free(sorted);
	free(chain);
	tbFreeFaceSet(&set);
	return stage;
}

// ---------------------------------------------------------------------------------------------
// Public API

// `count` vectors, `stride` bytes apart from `first`, by coordinate, four at a time
// (tbHull.lanes, faceLanes): all x, then all y, then all z, each run padded to a multiple of 4
// with a copy of vector 0. Null for none.
static float* tbMakeLanes(const vec3s* first, size_t stride, int count, bool* failed)
{
	if (count <= 0) {
		return NULL;
	}
	int padded = (count + 3) & ~3;
	float* lanes = malloc((size_t)padded * 3u * sizeof(float));
	if (lanes == NULL) {
		*failed = true;
		return NULL;
	}
	for (int i = 0; i < padded; ++i) {
		const vec3s* v = (const vec3s*)((const char*)first + (size_t)(i < count ? i : 0) * stride);
		lanes[i] = v->x;
		lanes[padded + i] = v->y;
		lanes[2 * padded + i] = v->z;
	}
	return lanes;
}

// The vertices and face normals by coordinate: the support and best-face searches take four at
// a time.
static bool tbMakeHullLanes(tbHull* hull)
{
	bool failed = false;
	hull->lanes = tbMakeLanes(hull->vertices, sizeof(vec3s), hull->vertexCount, &failed);
	hull->faceLanes = hull->faceCount > 0 ? tbMakeLanes(&hull->faces[0].normal, sizeof(tbHullFace),
	                                                    hull->faceCount, &failed)
	                                      : NULL;
	return !failed;
}

tbHullError tbBuildHull(const vec3s* points, int count, tbHull* hull, int* badIndex)
{
	TB_ASSERT(hull != NULL);
	TB_ASSERT(points != NULL || count <= 0);
	memset(hull, 0, sizeof(*hull));
	if (badIndex != NULL) {
		*badIndex = -1;
	}
	if (count <= 0 || points == NULL) {
		return tb_hullEmpty;
	}
	if (count > TB_MAX_HULL_POINTS) {
		return tb_hullTooManyPoints;
	}
	for (int i = 0; i < count; ++i) {
		if (!isfinite(points[i].x) || !isfinite(points[i].y) || !isfinite(points[i].z)) {
			if (badIndex != NULL) {
				*badIndex = i;
			}
			return tb_hullNonFinite;
		}
	}

	tbDVec* dpoints = malloc((size_t)count * sizeof(tbDVec));
	if (dpoints == NULL) {
		return tb_hullOutOfMemory;
	}
	tbDVec lower = tbDFrom(points[0]), upper = lower;
	double largest = 0.0;
	// extremes[2 * axis] and extremes[2 * axis + 1]: the points of least and greatest coordinate.
	int extremes[6] = {0, 0, 0, 0, 0, 0};
	for (int i = 0; i < count; ++i) {
		tbDVec p = tbDFrom(points[i]);
		dpoints[i] = p;
		if (p.x < lower.x) {
			lower.x = p.x;
			extremes[0] = i;
		}
		if (p.x > upper.x) {
			upper.x = p.x;
			extremes[1] = i;
		}
		if (p.y < lower.y) {
			lower.y = p.y;
			extremes[2] = i;
		}
		if (p.y > upper.y) {
			upper.y = p.y;
			extremes[3] = i;
		}
		if (p.z < lower.z) {
			lower.z = p.z;
			extremes[4] = i;
		}
		if (p.z > upper.z) {
			upper.z = p.z;
			extremes[5] = i;
		}
		largest = fmax(largest, fmax(fabs(p.x), fmax(fabs(p.y), fabs(p.z))));
	}
	double diagonal = tbDLength(tbDSub(upper, lower));
	double tolerance =
	    fmax(TB_HULL_RELATIVE_TOLERANCE * diagonal, TB_HULL_COORDINATE_TOLERANCE * largest);

	// The initial simplex: the farthest pair of axis extremes, the point farthest from their line,
	// the point farthest from their plane. Each one that fails the tolerance gives the dimension.
	int a = 0, b = 0;
	double farthest = -1.0;
	for (int i = 0; i < 6; ++i) {
		for (int j = i + 1; j < 6; ++j) {
			double distance = tbDLength(tbDSub(dpoints[extremes[i]], dpoints[extremes[j]]));
			if (distance > farthest) {
				farthest = distance;
				a = extremes[i];
				b = extremes[j];
			}
		}
	}
	tbStage stage;
	if (farthest <= tolerance) {
		stage = tbBuildPoint(points[0], hull);
		goto done;
	}

	tbDVec direction = tbDScale(tbDSub(dpoints[b], dpoints[a]), 1.0 / farthest);
	int c = a;
	farthest = -1.0;
	for (int i = 0; i < count; ++i) {
		double distance = tbDLength(tbDCross(direction, tbDSub(dpoints[i], dpoints[a])));
		if (distance > farthest) {
			farthest = distance;
			c = i;
		}
	}
	if (farthest <= tolerance) {
		stage = tbBuildSegment(points, dpoints, count, a, b, hull);
		goto done;
	}

	tbDVec normal = tbDCross(tbDSub(dpoints[b], dpoints[a]), tbDSub(dpoints[c], dpoints[a]));
	normal = tbDScale(normal, 1.0 / tbDLength(normal));
	int d = a;
	farthest = -1.0;
	for (int i = 0; i < count; ++i) {
		double distance = fabs(tbDDot(normal, tbDSub(dpoints[i], dpoints[a])));
		if (distance > farthest) {
			farthest = distance;
			d = i;
		}
	}
	if (farthest <= tolerance) {
		stage = tbBuildPolygon(points, dpoints, count, tolerance, a, b, c, hull);
		if (stage == tb_stageInvalid) {
			stage = tbBuildSegment(points, dpoints, count, a, b, hull);
		}
		goto done;
	}

	const int simplex[4] = {a, b, c, d};
	stage = tbBuildSolid(points, dpoints, count, tolerance, simplex, hull);
	// The triangulation always closes; anything else is a bug in this file.
	TB_ASSERT(stage != tb_stageInvalid);

done:
	free(dpoints);
	if (stage != tb_stageOk || !tbMakeHullLanes(hull)) {
		tbDestroyHull(hull);
		return tb_hullOutOfMemory;
	}
	return tb_hullOk;
}

const char* tbHullErrorString(tbHullError error)
{
	switch (error) {
	case tb_hullOk:
		return "no error";
	case tb_hullEmpty:
		return "no points were given";
	case tb_hullNonFinite:
		return "a point coordinate is NaN or Inf";
	case tb_hullOutOfMemory:
		return "out of memory while building the hull";
	case tb_hullTooManyPoints:
		return "more than TB_MAX_HULL_POINTS (65536) points were given";
	}
	return "unknown hull error";
}

void tbDestroyHull(tbHull* hull)
{
	if (hull == NULL) {
		return;
	}
	free(hull->lanes);
	free(hull->faceLanes);
	free(hull->vertices);
	free(hull->faces);
	free(hull->faceIndices);
	free(hull->edges);
	memset(hull, 0, sizeof(*hull));
}
