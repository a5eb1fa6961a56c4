// Convex shapes in their local frame and their support functions (Casalino 2021 eq. 8-9, the
// AtlasPhys notes).
#pragma once

#include "tumble/base.h"
#include "tumble/hull.h"
#include "tumble/transform.h"

/// Smallest length of a shape Tumble supports, metres: every radius, half extent, half height and
/// hull or triangle extent, scale included (docs/ranges.md). Below it the narrow phase's fourth
/// powers of lengths leave float's normal range.
#define TB_MIN_LENGTH 1e-6f

/// Largest length of a shape Tumble supports, metres (the same quantities as TB_MIN_LENGTH, and
/// the distance of a hull's or triangle's vertex from the shape origin).
#define TB_MAX_LENGTH 1e6f

/// Largest magnitude of a position coordinate the API and scene files accept, metres
/// (docs/ranges.md): two shapes within it are at most a few TB_MAX_LENGTH apart, whose fifth power
/// float still holds. Float resolves about 6e-8 of a coordinate (0.06 m at 1e6 m).
#define TB_MAX_COORDINATE 1e6f

struct tbMesh;
struct tbHeightfield;

/// Shape types. All but the level geometry (mesh, heightfield) are solid, convex, and have their
/// axis along local y.
typedef enum tbShapeType
{
	tb_sphereShape,   ///< centred at the origin
	tb_boxShape,      ///< half extents along x, y, z
	tb_capsuleShape,  ///< points within radius of the segment (0,-hh,0)-(0,hh,0)
	tb_cylinderShape, ///< |y| <= hh, x^2 + z^2 <= r^2
	tb_coneShape,     ///< apex at (0, hh, 0), base disc of radius r at y = -hh
	tb_hullShape,     ///< convex hull of points (built with tbBuildHull, owned by the caller)
	tb_triangleShape, ///< a triangle of zero thickness (course slides: convex vs triangle)
	/// a static triangle mesh (tumble/mesh.h): not convex, static bodies only
	tb_meshShape,
	/// a static heightfield (tumble/mesh.h): not convex, static bodies only
	tb_heightfieldShape,
	tb_shapeTypeCount
} tbShapeType;

/// A convex shape. Build one with the tbMake* functions; scale defaults to (1, 1, 1).
typedef struct tbGeometry
{
	tbShapeType type;
	union
	{
		float radius;      ///< sphere radius, metres
		vec3s halfExtents; ///< box half extents, metres
		struct
		{
			float radius;     ///< metres
			float halfHeight; ///< half the length of the axis, metres
		} round;              ///< capsule, cylinder, cone
		const tbHull* hull;   ///< hull shape; must outlive the shape
		vec3s vertices[3];    ///< triangle corners, metres
		/// mesh shape; must outlive the shape
		const struct tbMesh* mesh;
		/// heightfield shape; must outlive the shape
		const struct tbHeightfield* heightfield;
	};
	/// Non-uniform scale in the local frame (AtlasPhys notes' model matrix): the shape is S *
	/// shape, its support along d is S * support(S * d). A scaled sphere is an ellipsoid.
	vec3s scale;
} tbGeometry;

/// A ball of `radius` m about the local origin.
TB_API tbGeometry tbMakeSphere(float radius);
/// A box of half extents hx, hy, hz m, centred at the local origin.
TB_API tbGeometry tbMakeBox(float hx, float hy, float hz);
/// The points within `radius` m of the segment from (0, -halfHeight, 0) to (0, halfHeight, 0).
TB_API tbGeometry tbMakeCapsule(float radius, float halfHeight);
/// A cylinder of `radius` m about the y axis, from y = -halfHeight to y = halfHeight.
TB_API tbGeometry tbMakeCylinder(float radius, float halfHeight);
/// A cone with its apex at (0, halfHeight, 0) and its base disc of `radius` m at y = -halfHeight
/// (the local origin is mid-height, not the centroid).
TB_API tbGeometry tbMakeCone(float radius, float halfHeight);
/// The convex hull built by tbBuildHull; the shape points at `hull`, which must outlive it.
TB_API tbGeometry tbMakeHullShape(const tbHull* hull);
/// A triangle of zero thickness with corners a, b, c (local frame, m). It has no volume: a
/// dynamic body cannot take its mass from it.
TB_API tbGeometry tbMakeTriangle(vec3s a, vec3s b, vec3s c);

/// The name of a shape type ("sphere", "box", ...), or "unknown".
TB_API const char* tbShapeTypeName(tbShapeType type);

/// Check a shape for bad data: NaN/Inf, negative or zero sizes, a missing hull, and lengths (scale
/// included) outside [TB_MIN_LENGTH, TB_MAX_LENGTH]. Returns true when valid; otherwise writes a
/// message naming the field into `message` (if not null).
TB_API bool tbGeometry_Validate(const tbGeometry* shape, char* message, int messageSize);

/// Support point of the shape in its local frame: a point of the shape that maximises dot(p, d).
/// `featureIndex` (may be null) receives a vertex index for polytopes (box corner, hull vertex,
/// cone apex) and -1 where the support is a smooth point. d need not be unit; d = 0 is allowed.
TB_API vec3s tbGeometry_Support(const tbGeometry* shape, vec3s d, int* featureIndex);

/// The shape's reach along d in its local frame, max dot(p, d) over its points (its support
/// function h(d)): dot(d, tbGeometry_Support(shape, d)), in closed form for a box, to the same
/// bits.
TB_API float tbGeometry_SupportValue(const tbGeometry* shape, vec3s d);

/// Radius of the ball that sweeps the core of a sphere (a point) or a capsule (a segment), scale
/// included, metres; 0 for other shapes and for non-uniformly scaled ones (an ellipsoid is handled
/// whole). The narrow phase runs GJK on the cores and adds the balls back exactly.
TB_API float tbGeometry_CoreRadius(const tbGeometry* shape);

/// Support of the core: the support without the ball of tbGeometry_CoreRadius.
TB_API vec3s tbGeometry_CoreSupport(const tbGeometry* shape, vec3s d, int* featureIndex);

/// Radius of a sphere about the local origin that bounds the shape (scale included), metres.
TB_API float tbGeometry_BoundingRadius(const tbGeometry* shape);

/// The shape's size wherever its origin lies, metres (scale included): what the narrow phase's
/// geometric tolerances are fractions of. The bounding radius, capped for a hull or a triangle at
/// twice the reach from its centroid: the same for a shape around its origin, and the shape's own
/// size for a piece of a compound given in its body's frame or a mesh triangle far from the
/// mesh's origin, whose bounding radius is their distance from it.
TB_API float tbGeometry_Size(const tbGeometry* shape);

/// A point deep inside the shape (its centroid for symmetric shapes), local frame.
TB_API vec3s tbGeometry_InteriorPoint(const tbGeometry* shape);

/// The largest distance from `point` (local frame) to a point of the shape, scale included,
/// metres: exact for polytopes (over their vertices), spheres, capsules, cylinders and cones; for a
/// non-uniformly scaled round shape, |point| + tbGeometry_BoundingRadius, an upper bound. A body
/// turning about its centre of mass moves the shape's points by at most this per radian.
TB_API float tbGeometry_ReachFrom(const tbGeometry* shape, vec3s point);

/// The shape scaled by k > 0 about its local origin: its own sizes for the primitives and the
/// triangle, the scale for a hull (whose vertices are shared). Used by the narrow phase to bring a
/// pair to unit size and by continuous collision for a shape's inset copy.
TB_API tbGeometry tbGeometry_Scaled(const tbGeometry* shape, float k);
/// Axis-aligned bounding box.
typedef struct tbAABB
{
	vec3s lower, upper;
} tbAABB;

/// Tight world AABB of the shape under a transform (from six support calls).
TB_API tbAABB tbGeometry_ComputeAABB(const tbGeometry* shape, tbTransform xf);
