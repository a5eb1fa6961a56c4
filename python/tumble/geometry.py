"""Shapes (tbGeometry and its makers), rigid transforms, and the queries between two shapes:
GJK/EPA (tbQueryShapes, tbShapeDistance, tbTestOverlap), ray casts (tbRayCastShape), manifolds
(tbCollideShapes) and mass properties (tbComputeMass)."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Sequence

import numpy as np

from . import _native as N
from ._native import lib
from .errors import TumbleError

Vector = Sequence[float]
"""Three floats (a list, tuple or NumPy array)."""
Quaternion = Sequence[float]
"""A quaternion x, y, z, w (cglm's order)."""

IDENTITY: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
"""The identity rotation (x, y, z, w)."""


class ShapeType(IntEnum):
    """``tbShapeType``."""

    SPHERE = 0
    BOX = 1
    CAPSULE = 2
    CYLINDER = 3
    CONE = 4
    HULL = 5
    TRIANGLE = 6
    MESH = 7
    HEIGHTFIELD = 8


def vec3(v: Vector) -> N.Vec3:
    """A Python 3-vector as ``vec3s``."""
    if len(v) != 3:
        raise TumbleError(f"expected 3 numbers, got {len(v)}")
    return N.Vec3(float(v[0]), float(v[1]), float(v[2]))


def quat(q: Quaternion) -> N.Quat:
    """A quaternion (x, y, z, w) as ``versors``."""
    if len(q) != 4:
        raise TumbleError(f"expected a quaternion of 4 numbers (x, y, z, w), got {len(q)}")
    return N.Quat(float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def to_array(v: N.Vec3 | N.Quat) -> np.ndarray:
    """A ``vec3s`` or ``versors`` as a NumPy array of float64."""
    if isinstance(v, N.Quat):
        return np.array([v.x, v.y, v.z, v.w])
    return np.array([v.x, v.y, v.z])


def transform(position: Vector = (0.0, 0.0, 0.0), rotation: Quaternion = IDENTITY) -> N.Transform:
    """A ``tbTransform`` from a position and a quaternion (x, y, z, w)."""
    return N.Transform(vec3(position), 0.0, quat(rotation))


def quat_from_euler_xyz(gx: float, gy: float, gz: float) -> np.ndarray:
    """``tbQuatFromEulerXYZ``: the quaternion of R = Rx(gx) Ry(gy) Rz(gz), radians."""
    return to_array(lib.tbQuatFromEulerXYZ(gx, gy, gz))


def quat_from_axis_angle(axis: Vector, angle: float) -> np.ndarray:
    """The quaternion (x, y, z, w) turning by ``angle`` rad about ``axis`` (Python helper)."""
    a = np.asarray(axis, dtype=float)
    n = float(np.linalg.norm(a))
    if not math.isfinite(n) or n == 0.0:
        raise TumbleError(f"quat_from_axis_angle: axis must be finite and non-zero, got {list(a)}")
    s = math.sin(0.5 * angle) / n
    return np.array([a[0] * s, a[1] * s, a[2] * s, math.cos(0.5 * angle)])


def rotate(q: Quaternion, v: Vector) -> np.ndarray:
    """R(q) v for a unit quaternion (x, y, z, w) (Python helper, the same as tbRotateVector)."""
    x, y, z, w = (float(c) for c in q)
    u = np.array([x, y, z])
    vv = np.asarray(v, dtype=float)
    t = 2.0 * np.cross(u, vv)
    return vv + w * t + np.cross(u, t)


class Geometry:
    """A shape in its local frame (``tbGeometry``). Make one with Sphere, Box, Capsule, Cylinder,
    Cone, ConvexHull, Triangle, TriangleMesh or Heightfield. The constructors check the shape with
    ``tbGeometry_Validate`` and raise TumbleError with its message."""

    type: ShapeType

    def __init__(self, native: N.Geometry, owner: object | None = None, check: bool = True):
        self._c = native
        self._owner = owner  # a hull, mesh or heightfield the geometry points into
        self.type = ShapeType(native.type)
        if check:
            buf = ctypes.create_string_buffer(256)
            if not lib.tbGeometry_Validate(ctypes.byref(native), buf, len(buf)):
                raise TumbleError(buf.value.decode())

    @staticmethod
    def _native(type_: ShapeType, floats: Iterable[float] = (), scale: Vector = (1, 1, 1)) -> N.Geometry:
        g = N.Geometry()
        g.type = int(type_)
        for i, f in enumerate(floats):
            g.f[i] = float(f)
        g.scale = vec3(scale)
        return g

    @property
    def scale(self) -> np.ndarray:
        """Non-uniform scale in the local frame (``tbGeometry.scale``)."""
        return to_array(self._c.scale)

    def aabb(self, position: Vector = (0, 0, 0), rotation: Quaternion = IDENTITY) -> tuple[np.ndarray, np.ndarray]:
        """``tbGeometry_ComputeAABB``: (lower, upper) of the shape placed at the pose."""
        box = lib.tbGeometry_ComputeAABB(ctypes.byref(self._c), transform(position, rotation))
        return to_array(box.lower), to_array(box.upper)

    def support(self, direction: Vector) -> np.ndarray:
        """``tbGeometry_Support``: the point of the shape farthest along ``direction`` (local)."""
        return to_array(lib.tbGeometry_Support(ctypes.byref(self._c), vec3(direction), None))

    def bounding_radius(self) -> float:
        """``tbGeometry_BoundingRadius``, m."""
        return float(lib.tbGeometry_BoundingRadius(ctypes.byref(self._c)))

    def compute_mass(self, density: float) -> "MassData":
        """``tbComputeMass``: mass, centre and inertia of the shape at ``density`` kg/m^3."""
        err = ctypes.c_int(0)
        m = lib.tbComputeMass(ctypes.byref(self._c), float(density), ctypes.byref(err))
        if err.value != 0:
            raise TumbleError("tbComputeMass: " + lib.tbMassErrorString(err.value).decode())
        inertia = np.array(m.inertia.m[:], dtype=float).reshape(3, 3).T  # columns -> rows
        return MassData(float(m.mass), to_array(m.center), inertia)

    def __repr__(self) -> str:
        return f"<tumble.{type(self).__name__} {self._describe()}>"

    def _describe(self) -> str:
        return ""

    @staticmethod
    def _wrap(native: N.Geometry, owner: object | None = None) -> "Geometry":
        """A Python geometry for a copy the library returned (tbShape_GetGeometry)."""
        t = ShapeType(native.type)
        cls = {
            ShapeType.SPHERE: Sphere,
            ShapeType.BOX: Box,
            ShapeType.CAPSULE: Capsule,
            ShapeType.CYLINDER: Cylinder,
            ShapeType.CONE: Cone,
            ShapeType.HULL: ConvexHull,
            ShapeType.TRIANGLE: Triangle,
            ShapeType.MESH: TriangleMesh,
            ShapeType.HEIGHTFIELD: Heightfield,
        }[t]
        g = cls.__new__(cls)
        Geometry.__init__(g, native, owner, check=False)
        return g


@dataclass
class MassData:
    """``tbMassData``: mass (kg), centre of mass (m, shape frame), inertia tensor (kg m^2)."""

    mass: float
    center: np.ndarray
    inertia: np.ndarray


class Sphere(Geometry):
    """``tbMakeSphere``: a ball of ``radius`` m about the local origin."""

    def __init__(self, radius: float):
        super().__init__(self._native(ShapeType.SPHERE, [radius]))

    @property
    def radius(self) -> float:
        """m."""
        return float(self._c.f[0])

    def _describe(self) -> str:
        return f"radius={self.radius:g}"


class Box(Geometry):
    """``tbMakeBox``: half extents hx, hy, hz m, centred at the local origin."""

    def __init__(self, hx: float, hy: float, hz: float):
        super().__init__(self._native(ShapeType.BOX, [hx, hy, hz]))

    @property
    def half_extents(self) -> np.ndarray:
        """m."""
        return np.array(self._c.f[0:3], dtype=float)

    def _describe(self) -> str:
        return "half_extents=" + str(list(self.half_extents))


class _Round(Geometry):
    _kind: ShapeType

    def __init__(self, radius: float, half_height: float):
        super().__init__(self._native(self._kind, [radius, half_height]))

    @property
    def radius(self) -> float:
        """m."""
        return float(self._c.f[0])

    @property
    def half_height(self) -> float:
        """Half the length of the axis (local y), m."""
        return float(self._c.f[1])

    def _describe(self) -> str:
        return f"radius={self.radius:g} half_height={self.half_height:g}"


class Capsule(_Round):
    """``tbMakeCapsule``: points within ``radius`` of the segment (0, +-half_height, 0)."""

    _kind = ShapeType.CAPSULE


class Cylinder(_Round):
    """``tbMakeCylinder``: |y| <= half_height, x^2 + z^2 <= radius^2."""

    _kind = ShapeType.CYLINDER


class Cone(_Round):
    """``tbMakeCone``: apex at (0, half_height, 0), base disc of ``radius`` at y = -half_height
    (the local origin is mid-height, not the centroid)."""

    _kind = ShapeType.CONE


class _OwnedHull:
    """A tbHull built by tbBuildHull, freed with tbDestroyHull when nothing uses it."""

    def __init__(self, points: np.ndarray):
        pts = (N.Vec3 * len(points))(*[N.Vec3(*map(float, p)) for p in points])
        self.c = N.Hull()
        bad = ctypes.c_int(-1)
        err = lib.tbBuildHull(pts, len(points), ctypes.byref(self.c), ctypes.byref(bad))
        if err != 0:
            raise TumbleError(f"tbBuildHull: {lib.tbHullErrorString(err).decode()} (point {bad.value})")

    def __del__(self) -> None:
        try:
            lib.tbDestroyHull(ctypes.byref(self.c))
        except Exception:  # interpreter shutdown
            pass


class ConvexHull(Geometry):
    """``tbBuildHull`` + ``tbMakeHullShape``: the convex hull of ``points`` (an (n, 3) array)."""

    def __init__(self, points: Sequence[Vector] | np.ndarray):
        pts = np.asarray(points, dtype=float).reshape(-1, 3)
        hull = _OwnedHull(pts)
        g = self._native(ShapeType.HULL)
        g.set_pointer(ctypes.addressof(hull.c))
        super().__init__(g, owner=hull)

    @property
    def vertices(self) -> np.ndarray:
        """The hull's vertices (interior and duplicate points dropped), (n, 3)."""
        h = ctypes.cast(self._c.get_pointer(), ctypes.POINTER(N.Hull)).contents
        return np.array([[h.vertices[i].x, h.vertices[i].y, h.vertices[i].z] for i in range(h.vertexCount)])

    def _describe(self) -> str:
        return f"vertices={len(self.vertices)}"


class Triangle(Geometry):
    """``tbMakeTriangle``: a triangle of zero thickness with corners a, b, c (no volume: not for
    a dynamic body's mass)."""

    def __init__(self, a: Vector, b: Vector, c: Vector):
        super().__init__(self._native(ShapeType.TRIANGLE, [*a, *b, *c]))


class _OwnedMesh:
    def __init__(self, vertices: np.ndarray, indices: np.ndarray):
        v = (N.Vec3 * len(vertices))(*[N.Vec3(*map(float, p)) for p in vertices])
        idx = (ctypes.c_int * indices.size)(*[int(i) for i in indices.ravel()])
        self.c = N.Mesh()
        msg = ctypes.create_string_buffer(256)
        if not lib.tbBuildMesh(v, len(vertices), idx, indices.size // 3, ctypes.byref(self.c), msg, len(msg)):
            raise TumbleError(msg.value.decode())

    def __del__(self) -> None:
        try:
            lib.tbDestroyMesh(ctypes.byref(self.c))
        except Exception:
            pass


class TriangleMesh(Geometry):
    """``tbBuildMesh`` + ``tbMakeMeshShape``: a static triangle mesh from (n, 3) vertices and
    (m, 3) vertex indices, counter-clockwise seen from the front. Static bodies only."""

    def __init__(self, vertices: Sequence[Vector] | np.ndarray, indices: Sequence[Sequence[int]] | np.ndarray):
        mesh = _OwnedMesh(np.asarray(vertices, dtype=float).reshape(-1, 3), np.asarray(indices, dtype=np.int64).reshape(-1, 3))
        g = self._native(ShapeType.MESH)
        g.set_pointer(ctypes.addressof(mesh.c))
        super().__init__(g, owner=mesh)


class _OwnedHeightfield:
    def __init__(self, heights: np.ndarray, dx: float, dz: float):
        rows, cols = heights.shape
        h = (ctypes.c_float * heights.size)(*[float(x) for x in heights.ravel()])
        self.c = N.Heightfield()
        msg = ctypes.create_string_buffer(256)
        if not lib.tbBuildHeightfield(h, rows, cols, dx, dz, ctypes.byref(self.c), msg, len(msg)):
            raise TumbleError(msg.value.decode())

    def __del__(self) -> None:
        try:
            lib.tbDestroyHeightfield(ctypes.byref(self.c))
        except Exception:
            pass


class Heightfield(Geometry):
    """``tbBuildHeightfield`` + ``tbMakeHeightfieldShape``: the surface y = heights[r, c] over a
    grid centred on the local origin, samples ``dx`` (along x, columns) and ``dz`` (along z, rows)
    apart. Static bodies only."""

    def __init__(self, heights: np.ndarray | Sequence[Sequence[float]], dx: float, dz: float):
        h = np.asarray(heights, dtype=float)
        if h.ndim != 2:
            raise TumbleError(f"Heightfield: heights must be a 2-D array (rows, columns), got {h.ndim} dimensions")
        field = _OwnedHeightfield(h, float(dx), float(dz))
        g = self._native(ShapeType.HEIGHTFIELD)
        g.set_pointer(ctypes.addressof(field.c))
        super().__init__(g, owner=field)


# ---------------------------------------------------------------------------------------------
# Queries between two shapes


class QueryStatus(IntEnum):
    """``tbQueryStatus``."""

    CONVERGED = 0
    ITERATION_CAP = 1
    DEGENERATE = 2
    FALLBACK = 3
    INVALID_INPUT = 4


class QueryAlgorithm(IntEnum):
    """``tbQueryAlgorithm``."""

    GJK_EPA = 0
    UNIFIED_EPA = 1


@dataclass
class QueryResult:
    """``tbQueryResult``: signed distance (negative: minus the penetration depth), the unit normal
    from A to B, the witness points, and how the query ended."""

    distance: float
    normal: np.ndarray
    point_a: np.ndarray
    point_b: np.ndarray
    hit: bool
    status: QueryStatus
    gjk_iterations: int
    epa_iterations: int

    @staticmethod
    def _from(r: N.QueryResult) -> "QueryResult":
        return QueryResult(
            float(r.distance),
            to_array(r.normal),
            to_array(r.pointA),
            to_array(r.pointB),
            bool(r.hit),
            QueryStatus(r.status),
            int(r.gjkIterations),
            int(r.epaIterations),
        )


def _query_def(algorithm: QueryAlgorithm | None, tolerance: float | None, max_iterations: int | None) -> N.QueryDef:
    d = lib.tbDefaultQueryDef()
    if algorithm is not None:
        d.algorithm = int(algorithm)
    if tolerance is not None:
        d.tolerance = float(tolerance)
    if max_iterations is not None:
        d.maxGjkIterations = d.maxEpaIterations = int(max_iterations)
    return d


def query_shapes(
    a: Geometry,
    position_a: Vector,
    rotation_a: Quaternion,
    b: Geometry,
    position_b: Vector,
    rotation_b: Quaternion,
    *,
    algorithm: QueryAlgorithm | None = None,
    tolerance: float | None = None,
    max_iterations: int | None = None,
) -> QueryResult:
    """``tbQueryShapes``: GJK, then EPA (or unified EPA) when the shapes overlap. World results."""
    d = _query_def(algorithm, tolerance, max_iterations)
    r = lib.tbQueryShapes(
        ctypes.byref(a._c), transform(position_a, rotation_a), ctypes.byref(b._c), transform(position_b, rotation_b), ctypes.byref(d)
    )
    if r.status == QueryStatus.INVALID_INPUT:
        raise TumbleError("tbQueryShapes: invalid input (a NaN or Inf pose, or a non-unit quaternion)")
    return QueryResult._from(r)


def shape_distance(
    a: Geometry, position_a: Vector, rotation_a: Quaternion, b: Geometry, position_b: Vector, rotation_b: Quaternion
) -> QueryResult:
    """``tbShapeDistance``: GJK distance and closest points (distance 0, hit when overlapping)."""
    d = lib.tbDefaultQueryDef()
    r = lib.tbShapeDistance(
        ctypes.byref(a._c), transform(position_a, rotation_a), ctypes.byref(b._c), transform(position_b, rotation_b), ctypes.byref(d)
    )
    return QueryResult._from(r)


def test_overlap(a: Geometry, position_a: Vector, rotation_a: Quaternion, b: Geometry, position_b: Vector, rotation_b: Quaternion) -> bool:
    """``tbTestOverlap``: the GJK boolean test."""
    status = ctypes.c_int(0)
    return bool(
        lib.tbTestOverlap(
            ctypes.byref(a._c), transform(position_a, rotation_a), ctypes.byref(b._c), transform(position_b, rotation_b), ctypes.byref(status)
        )
    )


test_overlap.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


@dataclass
class CastOutput:
    """``tbCastOutput``: where a ray first meets a shape."""

    hit: bool
    point: np.ndarray
    normal: np.ndarray
    fraction: float
    iterations: int


def ray_cast_shape(
    shape: Geometry, position: Vector, rotation: Quaternion, origin: Vector, translation: Vector, max_fraction: float = 1.0
) -> CastOutput:
    """``tbRayCastShape``: cast origin + t translation, t in [0, max_fraction], at the shape."""
    r = lib.tbRayCastShape(ctypes.byref(shape._c), transform(position, rotation), vec3(origin), vec3(translation), float(max_fraction))
    return CastOutput(bool(r.hit), to_array(r.point), to_array(r.normal), float(r.fraction), int(r.iterations))


@dataclass
class Manifold:
    """``tbManifold``: up to four contact points sharing one normal (world, A to B)."""

    normal: np.ndarray
    points_a: np.ndarray  # (n, 3)
    points_b: np.ndarray  # (n, 3)
    separations: np.ndarray  # (n,)
    ids: list[int]

    @staticmethod
    def _from(m: N.Manifold) -> "Manifold":
        n = int(m.pointCount)
        pts = [m.points[i] for i in range(n)]
        return Manifold(
            to_array(m.normal),
            np.array([to_array(p.pointA) for p in pts]).reshape(n, 3),
            np.array([to_array(p.pointB) for p in pts]).reshape(n, 3),
            np.array([p.separation for p in pts], dtype=float),
            [int(p.id) for p in pts],
        )


def collide_shapes(
    a: Geometry,
    position_a: Vector,
    rotation_a: Quaternion,
    b: Geometry,
    position_b: Vector,
    rotation_b: Quaternion,
    speculative_distance: float = 0.02,
) -> Manifold:
    """``tbCollideShapes``: the contact manifold of two convex shapes."""
    m = lib.tbCollideShapes(
        ctypes.byref(a._c), transform(position_a, rotation_a), ctypes.byref(b._c), transform(position_b, rotation_b), float(speculative_distance)
    )
    return Manifold._from(m)
