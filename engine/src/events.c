// Events read after the step: contact begin and end touch, body moves. (Hit events: hit_event.c;
// sensor events: sensor.c.)
#include <string.h>

#include "world_internal.h"

static void tbSwapEndEvents(tbWorld* w)
{
	tbContactEndTouchEvent* events = w->endEvents;
	int count = w->endCount, capacity = w->endCapacity;
	w->endEvents = w->pendingEndEvents;
	w->endCount = w->pendingEndCount;
	w->endCapacity = w->pendingEndCapacity;
	w->pendingEndEvents = events;
	w->pendingEndCount = count;
	w->pendingEndCapacity = capacity;
}

void tbBeginApiEvents(tbWorld* w)
{
	// The contact code appends to w->endEvents: point it at the pending array meanwhile, so the
	// array tbWorld_GetContactEvents handed out is neither written nor moved.
	tbSwapEndEvents(w);
}

void tbEndApiEvents(tbWorld* w)
{
	tbSwapEndEvents(w);
}

void tbStartStepEvents(tbWorld* w)
{
	w->beginCount = 0;
	w->endCount = 0;
	if (w->pendingEndCount > 0) {
		tbGrowArray((void**)&w->endEvents, &w->endCapacity, w->pendingEndCount,
		            sizeof(tbContactEndTouchEvent));
		memcpy(w->endEvents, w->pendingEndEvents,
		       (size_t)w->pendingEndCount * sizeof(tbContactEndTouchEvent));
		w->endCount = w->pendingEndCount;
		w->pendingEndCount = 0;
	}
}

// The move events of the solved bodies [start, end), each into its own place.
static inline void tbMoveEventsRange(int start, int end, int worker, void* context)
{
	(void)worker;
	tbWorld* w = context;
	for (int k = start; k < end; ++k) {
		int i = w->solverBodySlots[k];
		const tbBodySlot* b = w->bodies + i;
		tbBodyMoveEvent* e = w->moveEvents + k;
		e->transform = b->xf;
		e->bodyId = tbMakeBodyId(w, i);
		e->userData = b->userData;
		e->fellAsleep = !b->awake;
	}
}

void tbPushMoveEvents(tbWorld* w)
{
	// The bodies of this step's solve (in the awake set at its start; some may have just fallen
	// asleep, which the event says).
	tbGrowArray((void**)&w->moveEvents, &w->moveEventCapacity, w->solverBodyCount,
	            sizeof(tbBodyMoveEvent));
	if (w->parallel) {
		tbParallelFor(w, tbMoveEventsRange, w->solverBodyCount, 512, w);
	} else {
		tbMoveEventsRange(0, w->solverBodyCount, 0, w);
	}
	w->moveEventCount = w->solverBodyCount;
}

tbContactEvents tbWorld_GetContactEvents(tbWorldId worldId)
{
	tbContactEvents e;
	memset(&e, 0, sizeof e);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetContactEvents");
	if (w == NULL) {
		return e;
	}
	e.beginEvents = w->beginEvents;
	e.beginCount = w->beginCount;
	e.endEvents = w->endEvents;
	e.endCount = w->endCount;
	e.hitEvents = w->hitEvents;
	e.hitCount = w->hitCount;
	return e;
}

tbBodyEvents tbWorld_GetBodyEvents(tbWorldId worldId)
{
	tbBodyEvents e;
	memset(&e, 0, sizeof e);
	tbWorld* w = tbGetWorld(worldId, "tbWorld_GetBodyEvents");
	if (w == NULL) {
		return e;
	}
	e.moveEvents = w->moveEvents;
	e.moveCount = w->moveEventCount;
	return e;
}
