// The Minkowski difference A - B of two shapes as a convex hull, for drawing what GJK and EPA see.
#pragma once

#include <tumble/tumble.h>

/// Build the hull of A - B in A's local frame, B given by `bInA`. With `cores`, spheres and
/// capsules are reduced to their point and segment (the difference the query iterates on when
/// a ball is involved). Polytopes use every pairwise vertex difference (exact); curved shapes
/// use supports along `directions` directions spread over the sphere. Returns false when the hull
/// could not be built; `hull` is then zeroed.
bool dmBuildMinkowskiHull(const tbGeometry* a, const tbGeometry* b, tbTransform bInA, bool cores,
                          int directions, tbHull* hull);
