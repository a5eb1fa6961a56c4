// The byte writer and reader of world saves (save.c), shared with the modules that save their own
// private state (sensor.c).
#pragma once

#include "tumble/save.h"
#include "world_internal.h"

// Appends bytes; with a null `data` (or past `capacity`) it only counts them.
typedef struct tbSaveWriter
{
	unsigned char* data;
	size_t size, capacity;
} tbSaveWriter;

// Reads bytes with bounds checks; the first failure sets an error (tbSetError) and `failed`.
typedef struct tbSaveReader
{
	const unsigned char* data;
	size_t size, offset;
	const char* caller;
	bool failed;
} tbSaveReader;

void tbSaveWrite(tbSaveWriter* out, const void* bytes, size_t size);
// A section: tag, element size, count, then count elements.
void tbSaveWriteSection(tbSaveWriter* out, uint32_t tag, const void* items, int count,
                        size_t elemSize);

bool tbSaveRead(tbSaveReader* in, void* bytes, size_t size);
// A section written by tbSaveWriteSection: checks its tag and element size, and that its count
// fits the bytes left, then allocates max(count, minCapacity) elements (zeroed past count; null
// when that is 0) with tbTryAlloc. Frees nothing on failure (*items stays null).
bool tbSaveReadSection(tbSaveReader* in, uint32_t tag, size_t elemSize, int minCapacity,
                       void** items, int* count, int* capacity);

// sensor.c: the sensors' records and visitors, and the last step's sensor events.
void tbSensor_Save(const tbWorld* world, tbSaveWriter* out);
// Reads them into `world->sensors` (null before); on failure leaves what it made there for
// tbSensor_DestroyAll.
bool tbSensor_Load(tbWorld* world, tbSaveReader* in);
// Every shape id the sensor state holds gets the world's index and generation; false when a
// record names a shape slot outside [0, shapeCount).
bool tbSensor_Rebind(tbWorld* world);
