"""Tumble, a small 3D rigid-body physics engine, from Python.

A thin layer over libtumble's public C API through ctypes; names map one to one to the C API
(docs/python.md has the table)::

    import tumble
    with tumble.World() as world:
        ground = world.create_body("static", position=(0, -0.5, 0))
        ground.create_shape(tumble.Box(10, 0.5, 10))
        ball = world.create_body(position=(0, 2, 0))
        ball.create_shape(tumble.Sphere(0.25), restitution=0.5)
        for _ in range(60):
            world.step(1 / 60, 4)
        print(world.get_body_snapshots().positions)

The library is looked for next to this package, then at $TUMBLE_LIBRARY, then in the build/
folder of a checkout, then by the system loader. Errors the engine refuses raise TumbleError
with the engine's message (tbGetLastError).
"""

from __future__ import annotations

from ._native import lib as _lib
from .errors import TumbleError, clear_last_error, last_error
from .geometry import (
    IDENTITY,
    Box,
    Capsule,
    CastOutput,
    Cone,
    ConvexHull,
    Cylinder,
    Geometry,
    Heightfield,
    Manifold,
    MassData,
    QueryAlgorithm,
    QueryResult,
    QueryStatus,
    ShapeType,
    Sphere,
    Triangle,
    TriangleMesh,
    collide_shapes,
    quat_from_axis_angle,
    quat_from_euler_xyz,
    query_shapes,
    ray_cast_shape,
    rotate,
    shape_distance,
    test_overlap,
)
from .scene import Scene, find_scene, load_scene
from .world import (
    Body,
    BodyMove,
    BodyStates,
    BodyType,
    ContactBeginTouch,
    ContactData,
    ContactEndTouch,
    ContactEvents,
    JointEvent,
    ContactHit,
    Joint,
    JointType,
    RayHit,
    SensorEvents,
    Shape,
    World,
)


def version() -> str:
    """``tbVersionString``: the version of the loaded libtumble, e.g. "0.1.0"."""
    return _lib.tbVersionString().decode()


__version__ = version()

__all__ = [
    "IDENTITY",
    "Body",
    "BodyMove",
    "BodyStates",
    "BodyType",
    "Box",
    "Capsule",
    "CastOutput",
    "Cone",
    "ContactBeginTouch",
    "ContactData",
    "ContactEndTouch",
    "ContactEvents",
    "JointEvent",
    "ContactHit",
    "ConvexHull",
    "Cylinder",
    "Geometry",
    "Heightfield",
    "Joint",
    "JointType",
    "Manifold",
    "MassData",
    "QueryAlgorithm",
    "QueryResult",
    "QueryStatus",
    "RayHit",
    "Scene",
    "SensorEvents",
    "Shape",
    "ShapeType",
    "Sphere",
    "Triangle",
    "TriangleMesh",
    "TumbleError",
    "World",
    "clear_last_error",
    "collide_shapes",
    "find_scene",
    "last_error",
    "load_scene",
    "quat_from_axis_angle",
    "quat_from_euler_xyz",
    "query_shapes",
    "ray_cast_shape",
    "rotate",
    "shape_distance",
    "test_overlap",
    "version",
]
