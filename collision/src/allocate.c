// Allocation hooks with a byte counter (Box2D v3's b2SetAllocator / b2GetByteCount).
#include "tumble/allocate_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static tbAllocFcn* s_allocFcn = NULL;
static tbFreeFcn* s_freeFcn = NULL;
// Plain counters: Tumble steps one world per thread and the counters are for tests and tools.
static long long s_byteCount = 0;
static long long s_allocCount = 0;

void tbSetAllocator(tbAllocFcn* allocFcn, tbFreeFcn* freeFcn)
{
	if (allocFcn == NULL || freeFcn == NULL) {
		allocFcn = NULL;
		freeFcn = NULL;
	}
	s_allocFcn = allocFcn;
	s_freeFcn = freeFcn;
}

long long tbGetByteCount(void)
{
	return s_byteCount;
}

long long tbGetAllocationCount(void)
{
	return s_allocCount;
}

void* tbAlloc(size_t size)
{
	void* p = tbTryAlloc(size);
	TB_ASSERT(size == 0 || p != NULL);
	return p;
}

void* tbTryAlloc(size_t size)
{
	if (size == 0) {
		return NULL;
	}
	void* p;
	if (s_allocFcn != NULL) {
		p = s_allocFcn(size, 16);
	} else {
		// aligned_alloc wants a size that is a multiple of the alignment.
		size_t rounded = (size + 15u) & ~(size_t)15u;
		p = aligned_alloc(16, rounded);
	}
	if (p != NULL) {
		s_byteCount += (long long)size;
		s_allocCount += 1;
	}
	return p;
}

void tbFree(void* memory, size_t size)
{
	if (memory == NULL) {
		return;
	}
	s_byteCount -= (long long)size;
	if (s_freeFcn != NULL) {
		s_freeFcn(memory, size);
	} else {
		free(memory);
	}
}

void* tbGrowAlloc(void* memory, size_t oldSize, size_t newSize)
{
	if (s_allocFcn == NULL && memory != NULL && newSize > 0) {
		// The C library's own blocks: realloc may grow one in place or move a large one's pages
		// (mremap) instead of copying them into a new block while the old one is still held, so
		// a large array's growth does not need its old and new sizes resident at once. realloc
		// promises only malloc's alignment: a block it returns off the 16 bytes tbTryAlloc asks
		// of aligned_alloc is copied into an aligned one.
		size_t rounded = (newSize + 15u) & ~(size_t)15u;
		void* p = realloc(memory, rounded);
		TB_ASSERT(p != NULL);
		if (p == NULL) {
			tbFree(memory, oldSize);
			return NULL;
		}
		s_byteCount += (long long)newSize - (long long)oldSize;
		s_allocCount += 1;
		if (((uintptr_t)p & 15u) == 0) {
			return p;
		}
		// Counted below as the old block, which it now holds.
		s_byteCount -= (long long)newSize - (long long)oldSize;
		memory = p;
	}
	void* p = tbAlloc(newSize);
	if (p != NULL && memory != NULL) {
		memcpy(p, memory, oldSize < newSize ? oldSize : newSize);
	}
	tbFree(memory, oldSize);
	return p;
}

// Below this a block is grown as tbGrowAlloc does and its tail cleared: the C library serves it
// from its heap, where calloc would clear it anyway.
#define TB_CALLOC_BYTES ((size_t)1 << 20)

void* tbTryAllocZeroed(size_t size)
{
	if (size == 0) {
		return NULL;
	}
	if (s_allocFcn == NULL) {
		size_t rounded = (size + 15u) & ~(size_t)15u;
		void* p = calloc(1, rounded);
		if (p != NULL && ((uintptr_t)p & 15u) == 0) {
			s_byteCount += (long long)size;
			s_allocCount += 1;
			return p;
		}
		free(p);
	}
	void* p = tbTryAlloc(size);
	if (p != NULL) {
		memset(p, 0, size);
	}
	return p;
}

void* tbGrowAllocZeroed(void* memory, size_t oldSize, size_t newSize)
{
	if (s_allocFcn == NULL && newSize >= TB_CALLOC_BYTES && newSize > oldSize) {
		void* p = tbTryAllocZeroed(newSize);
		if (p != NULL) {
			if (memory != NULL) {
				memcpy(p, memory, oldSize);
			}
			tbFree(memory, oldSize);
			return p;
		}
	}
	void* p = tbGrowAlloc(memory, oldSize, newSize);
	if (p != NULL && newSize > oldSize) {
		memset((char*)p + oldSize, 0, newSize - oldSize);
	}
	return p;
}
