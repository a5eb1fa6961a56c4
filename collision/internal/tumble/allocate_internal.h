// Allocation through the hooks of tumble/allocate.h, for the modules that allocate (the tree, the
// hull builder, the world). Internal: not installed, not exported from libtumble.
#pragma once

#include "tumble/allocate.h"

/// Allocate through the hooks (counts bytes); never returns null (asserts instead).
void* tbAlloc(size_t size);

/// tbAlloc that returns null on failure without asserting, for the callers that refuse the
/// request cleanly (tbCreateWorld's initial capacities).
void* tbTryAlloc(size_t size);

/// Free a block from tbAlloc of the given size. Null is ignored.
void tbFree(void* memory, size_t size);

/// Grow a block from tbAlloc from oldSize to newSize bytes, keeping its contents.
void* tbGrowAlloc(void* memory, size_t oldSize, size_t newSize);

/// tbTryAlloc of zero bytes: without hooks from calloc, whose fresh pages stay untouched (and
/// so not resident) until they are written.
void* tbTryAllocZeroed(size_t size);

/// tbGrowAlloc whose new bytes (oldSize to newSize) are zero. Without hooks a large block comes
/// from calloc, whose fresh pages the system hands over already zero and untouched, so capacity
/// that is never used never becomes resident (a memset over it would make it so).
void* tbGrowAllocZeroed(void* memory, size_t oldSize, size_t newSize);
