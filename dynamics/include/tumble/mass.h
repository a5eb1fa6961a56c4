// Mass, centre of mass and inertia tensor of a shape of uniform density.
#pragma once

#include "tumble/base.h"
#include "tumble/geometry.h"

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
TB_API tbMassData tbComputeMass(const tbGeometry* shape, float density, tbMassError* error);

/// A short English description of an error, naming the field, e.g. "density must be > 0 and
/// finite".
TB_API const char* tbMassErrorString(tbMassError error);

/// Mass properties of two solids expressed in the same frame, combined into one (parallel axis
/// theorem). Either may have zero mass.
TB_API tbMassData tbCombineMass(tbMassData a, tbMassData b);

/// Lightest dynamic body (and solid shape of a dynamic body) Tumble supports, kg (docs/ranges.md).
/// With lengths down to TB_MIN_LENGTH its inertia stays a normal float and its inverse finite.
#define TB_MIN_MASS 1e-21f

/// Heaviest dynamic body Tumble supports, kg (docs/ranges.md): momenta m v and m g stay far from
/// float's limit.
#define TB_MAX_MASS 1e25f

/// Smallest ratio of a dynamic body's smallest to largest principal moment of inertia (a rod of
/// aspect about 1000:1). Rotating the body-frame inertia to the world rounds every entry by about
/// 1e-7 of the largest moment; below this ratio that noise would swamp the smallest moment.
#define TB_MIN_INERTIA_RATIO 1e-6f

/// Check that mass data can drive a dynamic body: a finite mass in [TB_MIN_MASS, TB_MAX_MASS] and
/// a finite, symmetric inertia whose principal moments are positive with smallest / largest >=
/// TB_MIN_INERTIA_RATIO. The test is scale-free (eigenvalues of the tensor divided by its largest
/// entry, in double), so a tiny body's inertia is not refused for a determinant that underflows.
/// Returns true when usable; otherwise writes a message into `message` (if not null).
TB_API bool tbMassData_IsValid(const tbMassData* mass, char* message, int messageSize);
