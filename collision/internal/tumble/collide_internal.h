// The narrow phase as the world calls it, on shapes it checked when they were made. Internal: not
// installed.
#pragma once

#include "tumble/manifold.h"

/// tbCollideShapesCached for shapes a world made (tbGeometry_Validate passed when they were
/// created, and the world alone can change them). Two boxes go straight to the separating-axis
/// test: the checks tbCollideShapesCached repeats on every call, because a caller may change a
/// tbGeometry at any time, are wasted on shapes the world validated once. The
/// pose is still checked (finite position, unit quaternion: a NaN pose takes the GJK/EPA path,
/// which refuses it). Every other pair takes tbCollideShapesCached's path, without the shapes'
/// checks.
tbManifold tbCollideWorldShapes(const tbGeometry* a, const tbGeometry* b, tbTransform bInA,
                                float speculativeDistance, float* distance, tbSatCache* cache);
