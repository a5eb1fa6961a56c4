// Sensor shapes: at the end of each step every sensor finds the shapes that overlap it (the broad
// phase's trees for candidates, then GJK's exact overlap test), and compares them with the last
// step's to make begin and end events (docs/events.md). A sensor never makes a contact: the broad
// phase skips its pairs. The idea is Box2D v3.1's sensor events (overlaps computed at the end of
// the step, visitors sorted by id and compared); the code is this engine's own.
#include <stdlib.h>
#include <string.h>

#include "save_internal.h"

typedef struct tbSensorRecord
{
	int shape;           // the sensor's shape slot
	uint32_t generation; // the slot's generation when it was made: a destroyed sensor is seen
	tbShapeId* visitors; // overlapping at the end of the last step, sorted (tbCompareIds)
	int visitorCount, visitorCapacity;
} tbSensorRecord;

typedef struct tbSensorState
{
	tbSensorRecord* records;
	int recordCount, recordCapacity;
	tbShapeId* found; // this step's visitors of one sensor (scratch, swapped into its record)
	int foundCount, foundCapacity;
	tbSensorBeginTouchEvent* beginEvents;
	int beginCount, beginCapacity;
	tbSensorEndTouchEvent* endEvents;
	int endCount, endCapacity;
} tbSensorState;

void tbSensor_Add(tbWorld* w, int shapeIndex)
{
	if (w->sensors == NULL) {
		w->sensors = tbAlloc(sizeof(tbSensorState));
		memset(w->sensors, 0, sizeof(tbSensorState));
	}
	tbSensorState* st = w->sensors;
	tbGrowArray((void**)&st->records, &st->recordCapacity, st->recordCount + 1,
	            sizeof(tbSensorRecord));
	tbSensorRecord* r = st->records + st->recordCount++;
	memset(r, 0, sizeof *r);
	r->shape = shapeIndex;
	r->generation = w->shapes[shapeIndex].generation;
}

static void tbFreeRecord(tbSensorRecord* r)
{
	tbFree(r->visitors, (size_t)r->visitorCapacity * sizeof(tbShapeId));
	r->visitors = NULL;
	r->visitorCapacity = 0;
	r->visitorCount = 0;
}

void tbSensor_DestroyAll(tbWorld* w)
{
	tbSensorState* st = w->sensors;
	if (st == NULL) {
		return;
	}
	for (int i = 0; i < st->recordCount; ++i) {
		tbFreeRecord(st->records + i);
	}
	tbFree(st->records, (size_t)st->recordCapacity * sizeof(tbSensorRecord));
	tbFree(st->found, (size_t)st->foundCapacity * sizeof(tbShapeId));
	tbFree(st->beginEvents, (size_t)st->beginCapacity * sizeof(tbSensorBeginTouchEvent));
	tbFree(st->endEvents, (size_t)st->endCapacity * sizeof(tbSensorEndTouchEvent));
	tbFree(st, sizeof(tbSensorState));
	w->sensors = NULL;
}

// Ids in slot order, then generation: a destroyed visitor whose slot was reused between steps is
// a different id (an end for the old one, a begin for the new one).
static int tbCompareIds(const void* pa, const void* pb)
{
	const tbShapeId* a = pa;
	const tbShapeId* b = pb;
	if (a->index1 != b->index1) {
		return a->index1 < b->index1 ? -1 : 1;
	}
	return a->generation < b->generation ? -1 : a->generation > b->generation ? 1 : 0;
}

typedef struct tbSensorQuery
{
	tbWorld* world;
	tbSensorState* state;
	int sensor;
} tbSensorQuery;

static bool tbSensorCallback(int proxyId, int other, void* context)
{
	(void)proxyId;
	tbSensorQuery* q = context;
	tbWorld* w = q->world;
	const tbShapeSlot* s = w->shapes + q->sensor;
	const tbShapeSlot* v = w->shapes + other;
	// Not itself, not its own body's shapes, not other sensors; the filter as for contacts.
	if (other == q->sensor || v->body == s->body || v->isSensor ||
	    !tbShouldShapesCollide(s->filter, v->filter)) {
		return true;
	}
	// Two static shapes never change: a static sensor watches what moves.
	if (w->bodies[s->body].rb.type == tb_staticBody &&
	    w->bodies[v->body].rb.type == tb_staticBody) {
		return true;
	}
	if (!tbAABB_Overlaps(s->aabb, v->aabb) ||
	    !tbTestOverlap(&s->geometry, s->xf, &v->geometry, v->xf, NULL)) {
		return true;
	}
	tbSensorState* st = q->state;
	tbGrowArray((void**)&st->found, &st->foundCapacity, st->foundCount + 1, sizeof(tbShapeId));
	st->found[st->foundCount++] = tbMakeShapeId(w, other);
	return true;
}

static void tbPushBegin(tbSensorState* st, tbShapeId sensor, tbShapeId visitor)
{
	tbGrowArray((void**)&st->beginEvents, &st->beginCapacity, st->beginCount + 1,
	            sizeof(tbSensorBeginTouchEvent));
	tbSensorBeginTouchEvent* e = st->beginEvents + st->beginCount++;
	e->sensorShapeId = sensor;
	e->visitorShapeId = visitor;
}

static void tbPushEnd(tbSensorState* st, tbShapeId sensor, tbShapeId visitor)
{
	tbGrowArray((void**)&st->endEvents, &st->endCapacity, st->endCount + 1,
	            sizeof(tbSensorEndTouchEvent));
	tbSensorEndTouchEvent* e = st->endEvents + st->endCount++;
	e->sensorShapeId = sensor;
	e->visitorShapeId = visitor;
}

void tbSensor_Update(tbWorld* w)
{
	tbSensorState* st = w->sensors;
	if (st == NULL) {
		return;
	}
	// Last step's events are dropped only now: between steps the arrays handed out stay put.
	st->beginCount = 0;
	st->endCount = 0;
	// Each visit either advances or removes one record (the last takes its place), so it ends.
	for (int i = 0; i < st->recordCount;) {
		tbSensorRecord* r = st->records + i;
		tbShapeId sensorId = {r->shape + 1, (uint16_t)w->index, 0, w->generation, r->generation};
		const tbShapeSlot* s = w->shapes + r->shape;
		if (!s->alive || s->generation != r->generation) {
			// The sensor was destroyed since the last step: everything it held leaves it.
			for (int k = 0; k < r->visitorCount; ++k) {
				tbPushEnd(st, sensorId, r->visitors[k]);
			}
			tbFreeRecord(r);
			st->records[i] = st->records[--st->recordCount];
			continue;
		}
		st->foundCount = 0;
		tbSensorQuery q = {w, st, r->shape};
		tbDynamicTree_Query(&w->trees[0], s->aabb, tbSensorCallback, &q);
		tbDynamicTree_Query(&w->trees[1], s->aabb, tbSensorCallback, &q);
		if (st->foundCount > 1) {
			qsort(st->found, (size_t)st->foundCount, sizeof(tbShapeId), tbCompareIds);
		}
		// Merge the two sorted lists: only in the new one, a begin; only in the old one, an end
		// (a visitor destroyed since the last step is never found again, so it ends here).
		int a = 0, b = 0;
		while (a < r->visitorCount || b < st->foundCount) {
			int order = a == r->visitorCount  ? 1
			            : b == st->foundCount ? -1
			                                  : tbCompareIds(r->visitors + a, st->found + b);
			if (order < 0) {
				tbPushEnd(st, sensorId, r->visitors[a++]);
			} else if (order > 0) {
				tbPushBegin(st, sensorId, st->found[b++]);
			} else {
				++a;
				++b;
			}
		}
		// The new list becomes the record's; the record's old array is the next scratch.
		tbShapeId* old = r->visitors;
		int oldCapacity = r->visitorCapacity;
		r->visitors = st->found;
		r->visitorCapacity = st->foundCapacity;
		r->visitorCount = st->foundCount;
		st->found = old;
		st->foundCapacity = oldCapacity;
		st->foundCount = 0;
		++i;
	}
}

tbSensorEvents tbWorld_GetSensorEvents(tbWorldId worldId)
{
	tbSensorEvents e;
	memset(&e, 0, sizeof e);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetSensorEvents");
	if (w == NULL || w->sensors == NULL) {
		return e;
	}
	e.beginEvents = w->sensors->beginEvents;
	e.beginCount = w->sensors->beginCount;
	e.endEvents = w->sensors->endEvents;
	e.endCount = w->sensors->endCount;
	return e;
}

// Save tags of the sensor sections (save.c's format, docs/save.md).
#define TB_SAVE_SENSOR_RECORDS 0x52534e53u  // "SNSR"
#define TB_SAVE_SENSOR_VISITORS 0x54495356u // "VSIT"
#define TB_SAVE_SENSOR_BEGINS 0x42534e53u   // "SNSB"
#define TB_SAVE_SENSOR_ENDS 0x45534e53u     // "SNSE"

// A record as saved: its visitors follow as their own section.
typedef struct tbSavedSensorRecord
{
	int shape;
	uint32_t generation;
} tbSavedSensorRecord;

void tbSensor_Save(const tbWorld* w, tbSaveWriter* out)
{
	const tbSensorState* st = w->sensors;
	int recordCount = st != NULL ? st->recordCount : 0;
	uint32_t present = st != NULL ? 1u : 0u;
	tbSaveWrite(out, &present, sizeof present);
	if (st == NULL) {
		return;
	}
	tbSaveWriteSection(out, TB_SAVE_SENSOR_RECORDS, NULL, recordCount, 0);
	for (int i = 0; i < recordCount; ++i) {
		const tbSensorRecord* r = st->records + i;
		tbSavedSensorRecord saved;
		memset(&saved, 0, sizeof saved);
		saved.shape = r->shape;
		saved.generation = r->generation;
		tbSaveWrite(out, &saved, sizeof saved);
		tbSaveWriteSection(out, TB_SAVE_SENSOR_VISITORS, r->visitors, r->visitorCount,
		                   sizeof(tbShapeId));
	}
	tbSaveWriteSection(out, TB_SAVE_SENSOR_BEGINS, st->beginEvents, st->beginCount,
	                   sizeof(tbSensorBeginTouchEvent));
	tbSaveWriteSection(out, TB_SAVE_SENSOR_ENDS, st->endEvents, st->endCount,
	                   sizeof(tbSensorEndTouchEvent));
}

bool tbSensor_Load(tbWorld* w, tbSaveReader* in)
{
	uint32_t present = 0;
	if (!tbSaveRead(in, &present, sizeof present)) {
		return false;
	}
	if (present > 1u) {
		tbSetError("%s: the save's sensor flag is %u (corrupt)", in->caller, (unsigned)present);
		in->failed = true;
		return false;
	}
	if (present == 0u) {
		return true;
	}
	w->sensors = tbTryAlloc(sizeof(tbSensorState));
	if (w->sensors == NULL) {
		tbSetError("%s: out of memory for the sensors", in->caller);
		in->failed = true;
		return false;
	}
	tbSensorState* st = w->sensors;
	memset(st, 0, sizeof *st);
	// The records' header: its count, no elements of its own (each record follows).
	void* none = NULL;
	int recordCount = 0, unused = 0;
	if (!tbSaveReadSection(in, TB_SAVE_SENSOR_RECORDS, 0, 0, &none, &recordCount, &unused)) {
		return false;
	}
	// Each record takes at least its own bytes: a count past the bytes left is refused.
	if ((size_t)recordCount > (in->size - in->offset) / sizeof(tbSavedSensorRecord)) {
		tbSetError("%s: the save's %d sensor records overrun its end (truncated or corrupt)",
		           in->caller, recordCount);
		in->failed = true;
		return false;
	}
	if (recordCount > 0) {
		st->records = tbTryAlloc((size_t)recordCount * sizeof(tbSensorRecord));
		if (st->records == NULL) {
			tbSetError("%s: out of memory for %d sensor records", in->caller, recordCount);
			in->failed = true;
			return false;
		}
		memset(st->records, 0, (size_t)recordCount * sizeof(tbSensorRecord));
		st->recordCapacity = recordCount;
	}
	for (int i = 0; i < recordCount; ++i) {
		tbSavedSensorRecord saved;
		if (!tbSaveRead(in, &saved, sizeof saved)) {
			return false;
		}
		tbSensorRecord* r = st->records + i;
		st->recordCount = i + 1;
		r->shape = saved.shape;
		r->generation = saved.generation;
		if (!tbSaveReadSection(in, TB_SAVE_SENSOR_VISITORS, sizeof(tbShapeId), 0,
		                       (void**)&r->visitors, &r->visitorCount, &r->visitorCapacity)) {
			return false;
		}
	}
	return tbSaveReadSection(in, TB_SAVE_SENSOR_BEGINS, sizeof(tbSensorBeginTouchEvent), 0,
	                         (void**)&st->beginEvents, &st->beginCount, &st->beginCapacity) &&
	       tbSaveReadSection(in, TB_SAVE_SENSOR_ENDS, sizeof(tbSensorEndTouchEvent), 0,
	                         (void**)&st->endEvents, &st->endCount, &st->endCapacity);
}

// A saved shape id names this world.
static void tbRebindShapeId(const tbWorld* w, tbShapeId* id)
{
	id->world0 = (uint16_t)w->index;
	id->worldGeneration = w->generation;
}

bool tbSensor_Rebind(tbWorld* w)
{
	tbSensorState* st = w->sensors;
	if (st == NULL) {
		return true;
	}
	for (int i = 0; i < st->recordCount; ++i) {
		tbSensorRecord* r = st->records + i;
		if (r->shape < 0 || r->shape >= w->shapeCount) {
			return false;
		}
		for (int k = 0; k < r->visitorCount; ++k) {
			tbRebindShapeId(w, r->visitors + k);
		}
	}
	for (int i = 0; i < st->beginCount; ++i) {
		tbRebindShapeId(w, &st->beginEvents[i].sensorShapeId);
		tbRebindShapeId(w, &st->beginEvents[i].visitorShapeId);
	}
	for (int i = 0; i < st->endCount; ++i) {
		tbRebindShapeId(w, &st->endEvents[i].sensorShapeId);
		tbRebindShapeId(w, &st->endEvents[i].visitorShapeId);
	}
	return true;
}
