// Mass, centre of mass and inertia tensor of a shape of uniform density.
#pragma once

#include "tumble/base.h"
#include "tumble/shape.h"

/// Mass properties of a solid in its shape frame.
typedef struct tbMassData
{
	float mass;    ///< kg
	vec3s center;  ///< centre of mass in the shape frame, metres
	mat3s inertia; ///< inertia tensor about the centre of mass, shape-frame axes, kg m^2
} tbMassData;

/// Why tbComputeMass could not give mass properties.
typedef enum tbMassError
{
	tb_massOk = 0,
	tb_massNullShape,      ///< the shape pointer (or its hull pointer) is null
	tb_massBadDensity,     ///< density is <= 0, NaN or Inf
	tb_massNonFinite,      ///< a NaN or Inf shape size, scale or hull vertex
	tb_massBadSize,        ///< a radius, half extent, half height or scale is <= 0
	tb_massDegenerateHull, ///< the hull is a point, a segment or a flat polygon: it has no volume
	tb_massBadHull,      ///< the hull's face data is inconsistent (index out of range, volume <= 0)
	tb_massNoVolume,     ///< the shape type has no volume (a triangle)
	tb_massUnknownShape, ///< unknown shape type
} tbMassError;

/// Mass properties of a shape of uniform `density` (kg/m^3), its non-uniform scale included:
/// the shape S * shape has mass det(S) m and second moment det(S) S C S^T (C the unscaled one).
/// Sphere, box, capsule, cylinder, cone (about its centre of mass, not its apex) and solid hull
/// (volume integration over the faces). On bad input returns all zeros and, when `error` is not
/// null, writes the reason there; on success writes tb_massOk.
TB_API tbMassData tbComputeMass(const tbShape* shape, float density, tbMassError* error);

/// A short English description of an error, naming the field, e.g. "density must be > 0 and
/// finite".
TB_API const char* tbMassErrorString(tbMassError error);

/// Mass properties of two solids expressed in the same frame, combined into one (parallel axis
/// theorem). Either may have zero mass.
TB_API tbMassData tbCombineMass(tbMassData a, tbMassData b);
