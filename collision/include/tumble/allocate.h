// Allocation hooks and the byte counter shared by every module that allocates (the tree, the
// world).
#pragma once

#include <stddef.h>

#include "tumble/base.h"

/// Allocate `size` bytes aligned to 16; return null on failure.
typedef void* tbAllocFcn(size_t size, int alignment);

/// Free a block from tbAllocFcn; `size` is the size it was allocated with.
typedef void tbFreeFcn(void* memory, size_t size);

/// Replace the allocator (null for either restores both defaults: aligned_alloc and free). Set it
/// before creating any world; blocks must be freed by the allocator that made them.
TB_API void tbSetAllocator(tbAllocFcn* allocFcn, tbFreeFcn* freeFcn);

/// Bytes currently allocated through the hooks (world tables, trees, scratch). Returns to its
/// previous value once everything created since is destroyed.
TB_API long long tbGetByteCount(void);

/// Number of allocations made through the hooks so far (never decreases): a step that allocates
/// after warm-up shows up as a change here.
TB_API long long tbGetAllocationCount(void);

/// Internal: allocate through the hooks (counts bytes); never returns null (asserts instead).
TB_API void* tbAlloc(size_t size);

/// Internal: tbAlloc that returns null on failure without asserting, for the callers that refuse
/// the request cleanly (tbCreateWorld's initial capacities).
TB_API void* tbTryAlloc(size_t size);

/// Internal: free a block from tbAlloc of the given size. Null is ignored.
TB_API void tbFree(void* memory, size_t size);

/// Internal: grow a block from tbAlloc from oldSize to newSize bytes, keeping its contents.
TB_API void* tbGrowAlloc(void* memory, size_t oldSize, size_t newSize);
