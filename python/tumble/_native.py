"""Finding libtumble.so and declaring its public C API for ctypes.

The structures below mirror the public headers (engine/include, collision/include,
dynamics/include, scene/include) field for field; python/tests/test_layout.py checks their sizes
and offsets against a C compiler's. cglm's ``versors`` is 16-byte aligned, so the structures that
hold one (``tbTransform``, ``tbBodyDef``, ``tbShapeDef``, ``tbBodyMoveEvent``) carry explicit
padding where C inserts it.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char,
    c_char_p,
    c_float,
    c_int,
    c_int32,
    c_longlong,
    c_size_t,
    c_uint8,
    c_uint16,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path

LIBRARY_ENV = "TUMBLE_LIBRARY"
"""Environment variable naming libtumble.so when it is not next to the package."""


def _candidates() -> list[str]:
    """Where libtumble is looked for, in order: next to the package, $TUMBLE_LIBRARY, where
    `meson install` put it (the package's _config.py), the build tree of a checkout (build/
    beside python/), then the system loader's search."""
    here = Path(__file__).resolve().parent
    out = [str(here / "libtumble.so")]
    env = os.environ.get(LIBRARY_ENV)
    if env:
        out.append(env)
    try:
        from ._config import INSTALLED_LIBRARY  # written by meson install

        out.append(INSTALLED_LIBRARY)
    except ImportError:  # the source tree
        pass
    root = here.parent.parent
    out.append(str(root / "build" / "libtumble.so"))
    out.append("libtumble.so.0")
    out.append("libtumble.so")
    return out


def _load() -> ctypes.CDLL:
    tried = []
    for name in _candidates():
        if os.sep in name and not os.path.exists(name):
            tried.append(f"{name} (absent)")
            continue
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            tried.append(f"{name} ({e})")
    raise ImportError(
        "tumble: libtumble.so not found; build it (meson setup build && ninja -C build) and set "
        f"{LIBRARY_ENV}=build/libtumble.so, or run `meson install`. Tried: " + "; ".join(tried)
    )


lib = _load()
"""The loaded libtumble."""

# ---------------------------------------------------------------------------------------------
# Value types


class Vec3(Structure):
    """cglm ``vec3s``: three floats."""

    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float)]


class Quat(Structure):
    """cglm ``versors``: x, y, z, w (16-byte aligned in C; see the module note)."""

    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float), ("w", c_float)]


class Mat3(Structure):
    """cglm ``mat3s``: three columns."""

    _fields_ = [("m", c_float * 9)]


class Transform(Structure):
    """``tbTransform``: position, 4 bytes of padding, unit quaternion."""

    _fields_ = [("p", Vec3), ("_pad", c_float), ("q", Quat)]


class AABB(Structure):
    """``tbAABB``."""

    _fields_ = [("lower", Vec3), ("upper", Vec3)]


class WorldId(Structure):
    """``tbWorldId``."""

    _fields_ = [("index1", c_uint16), ("reserved", c_uint16), ("generation", c_uint32)]


class _Id(Structure):
    _fields_ = [
        ("index1", c_int32),
        ("world0", c_uint16),
        ("reserved", c_uint16),
        ("worldGeneration", c_uint32),
        ("generation", c_uint32),
    ]

    def key(self) -> tuple[int, int, int, int]:
        return (self.index1, self.world0, self.worldGeneration, self.generation)


class BodyId(_Id):
    """``tbBodyId``."""


class ShapeId(_Id):
    """``tbShapeId``."""


class JointId(_Id):
    """``tbJointId``."""


class Geometry(Structure):
    """``tbGeometry``: the type, then a union (floats or a pointer at offset 8), then the scale.
    The union is held as raw floats; pointers are written at offset 8 by ``set_pointer``."""

    _fields_ = [
        ("type", c_int),
        ("_pad", c_int),
        ("f", c_float * 10),
        ("scale", Vec3),
        ("_tail", c_float),
    ]

    def set_pointer(self, address: int) -> None:
        c_void_p.from_buffer(self, 8).value = address

    def get_pointer(self) -> int | None:
        return c_void_p.from_buffer(self, 8).value


class WorldDef(Structure):
    """``tbWorldDef``."""

    _fields_ = [
        ("gravity", Vec3),
        ("iterations", c_int),
        ("relaxIterations", c_int),
        ("contactHertz", c_float),
        ("contactDampingRatio", c_float),
        ("contactPushMaxSpeed", c_float),
        ("restitutionThreshold", c_float),
        ("speculativeDistance", c_float),
        ("aabbMargin", c_float),
        ("enableSleep", c_bool),
        ("sleepThreshold", c_float),
        ("timeToSleep", c_float),
        ("enableWarmStarting", c_bool),
        ("integrator", c_int),
        ("enableContinuous", c_bool),
        ("enableContactRefresh", c_bool),
        ("initialBodyCapacity", c_int),
        ("initialShapeCapacity", c_int),
        ("hitEventThreshold", c_float),
        ("workerCount", c_int),
        ("enqueueTask", c_void_p),
        ("finishTask", c_void_p),
        ("userTaskContext", c_void_p),
        ("userData", c_void_p),
    ]


class BodyDef(Structure):
    """``tbBodyDef`` (its natural layout already puts the quaternion at offset 16)."""

    _fields_ = [
        ("type", c_int),
        ("position", Vec3),
        ("rotation", Quat),
        ("linearVelocity", Vec3),
        ("angularVelocity", Vec3),
        ("linearDamping", c_float),
        ("angularDamping", c_float),
        ("gravityScale", c_float),
        ("enableSleep", c_bool),
        ("sleepThreshold", c_float),
        ("isAwake", c_bool),
        ("isBullet", c_bool),
        ("userData", c_void_p),
        ("_tail", c_uint8 * 8),  # C rounds the size up to the quaternion's 16-byte alignment
    ]


class Filter(Structure):
    """``tbFilter``."""

    _fields_ = [("categoryBits", c_uint64), ("maskBits", c_uint64), ("groupIndex", c_int32)]


class QueryFilter(Structure):
    """``tbQueryFilter``."""

    _fields_ = [("categoryBits", c_uint64), ("maskBits", c_uint64)]


class ShapeDef(Structure):
    """``tbShapeDef``."""

    _fields_ = [
        ("localPose", Transform),
        ("density", c_float),
        ("friction", c_float),
        ("restitution", c_float),
        ("filter", Filter),
        ("isSensor", c_bool),
        ("enableHitEvents", c_bool),
        ("rollingResistance", c_float),
        ("tangentVelocity", Vec3),
        ("material", c_int32),
        ("userData", c_void_p),
        ("_tail", c_uint8 * 8),  # C rounds the size up to the transform's 16-byte alignment
    ]


MAX_MANIFOLD_POINTS = 4


class ManifoldPoint(Structure):
    """``tbManifoldPoint``."""

    _fields_ = [("pointA", Vec3), ("pointB", Vec3), ("separation", c_float), ("id", c_uint32)]


class Manifold(Structure):
    """``tbManifold``."""

    _fields_ = [
        ("normal", Vec3),
        ("points", ManifoldPoint * MAX_MANIFOLD_POINTS),
        ("pointCount", c_int),
    ]


class ContactData(Structure):
    """``tbContactData``."""

    _fields_ = [
        ("shapeIdA", ShapeId),
        ("shapeIdB", ShapeId),
        ("manifold", Manifold),
        ("normalImpulses", c_float * MAX_MANIFOLD_POINTS),
        ("frictionImpulses", Vec3 * MAX_MANIFOLD_POINTS),
        ("normalForces", c_float * MAX_MANIFOLD_POINTS),
        ("frictionForces", Vec3 * MAX_MANIFOLD_POINTS),
    ]


class ContactBeginTouchEvent(Structure):
    """``tbContactBeginTouchEvent``."""

    _fields_ = [("shapeIdA", ShapeId), ("shapeIdB", ShapeId), ("manifold", Manifold)]


class ContactEndTouchEvent(Structure):
    """``tbContactEndTouchEvent``."""

    _fields_ = [("shapeIdA", ShapeId), ("shapeIdB", ShapeId)]


class ContactHitEvent(Structure):
    """``tbContactHitEvent``."""

    _fields_ = [
        ("shapeIdA", ShapeId),
        ("shapeIdB", ShapeId),
        ("point", Vec3),
        ("normal", Vec3),
        ("approachSpeed", c_float),
    ]


class ContactEvents(Structure):
    """``tbContactEvents``."""

    _fields_ = [
        ("beginEvents", POINTER(ContactBeginTouchEvent)),
        ("endEvents", POINTER(ContactEndTouchEvent)),
        ("beginCount", c_int),
        ("endCount", c_int),
        ("hitEvents", POINTER(ContactHitEvent)),
        ("hitCount", c_int),
    ]


class SensorEvent(Structure):
    """``tbSensorBeginTouchEvent`` and ``tbSensorEndTouchEvent`` (the same layout)."""

    _fields_ = [("sensorShapeId", ShapeId), ("visitorShapeId", ShapeId)]


class SensorEvents(Structure):
    """``tbSensorEvents``."""

    _fields_ = [
        ("beginEvents", POINTER(SensorEvent)),
        ("endEvents", POINTER(SensorEvent)),
        ("beginCount", c_int),
        ("endCount", c_int),
    ]


class BodyMoveEvent(Structure):
    """``tbBodyMoveEvent``."""

    _fields_ = [
        ("transform", Transform),
        ("bodyId", BodyId),
        ("userData", c_void_p),
        ("fellAsleep", c_bool),
    ]


class BodyEvents(Structure):
    """``tbBodyEvents``."""

    _fields_ = [("moveEvents", POINTER(BodyMoveEvent)), ("moveCount", c_int)]


class RayResult(Structure):
    """``tbRayResult``."""

    _fields_ = [
        ("shapeId", ShapeId),
        ("point", Vec3),
        ("normal", Vec3),
        ("fraction", c_float),
        ("hit", c_bool),
    ]


class CastOutput(Structure):
    """``tbCastOutput``."""

    _fields_ = [
        ("point", Vec3),
        ("normal", Vec3),
        ("fraction", c_float),
        ("iterations", c_int),
        ("hit", c_bool),
    ]


class QueryDef(Structure):
    """``tbQueryDef``."""

    _fields_ = [
        ("algorithm", c_int),
        ("maxGjkIterations", c_int),
        ("maxEpaIterations", c_int),
        ("tolerance", c_float),
        ("traceFcn", c_void_p),
        ("traceContext", c_void_p),
    ]


class QueryResult(Structure):
    """``tbQueryResult``."""

    _fields_ = [
        ("distance", c_float),
        ("normal", Vec3),
        ("pointA", Vec3),
        ("pointB", Vec3),
        ("hit", c_bool),
        ("status", c_int),
        ("gjkIterations", c_int),
        ("epaIterations", c_int),
    ]


class WorldCounters(Structure):
    """``tbWorldCounters``."""

    _fields_ = [
        (n, c_int)
        for n in (
            "bodyCount",
            "shapeCount",
            "contactCount",
            "touchingCount",
            "awakeBodyCount",
            "treeHeight",
            "stepCount",
            "stoppedBodyCount",
            "jointCount",
        )
    ]


class Profile(Structure):
    """``tbProfile``."""

    _fields_ = [(n, c_float) for n in ("step", "pairs", "collide", "solve", "integrate", "sleep")] + [
        (n, c_int)
        for n in (
            "awakeBodies",
            "activeContacts",
            "solvedContacts",
            "narrowPhaseRuns",
            "cachedManifolds",
            "newPairs",
            "colors",
            "overflowConstraints",
            "simdWidth",
            "stoppedBodies",
            "fastBodies",
            "impactBodies",
            "refreshedContacts",
            "keptContacts",
            "carriedContacts",
        )
    ] + [(n, c_float) for n in ("gather", "prepare", "substeps", "store", "finish", "shapes")]


class BodySnapshot(Structure):
    """``tbBodySnapshot``: what ``tbWorld_GetBodySnapshots`` writes per body."""

    _fields_ = [
        ("bodyId", BodyId),
        ("position", c_float * 3),
        ("rotation", c_float * 4),
        ("linearVelocity", c_float * 3),
        ("angularVelocity", c_float * 3),
        ("kineticEnergy", c_float),
    ]


class MassData(Structure):
    """``tbMassData``."""

    _fields_ = [("mass", c_float), ("center", Vec3), ("inertia", Mat3)]


class Hull(Structure):
    """``tbHull`` (owned by the caller, freed with ``tbDestroyHull``)."""

    _fields_ = [
        ("kind", c_int),
        ("vertices", POINTER(Vec3)),
        ("vertexCount", c_int),
        ("faces", c_void_p),
        ("faceCount", c_int),
        ("faceIndices", POINTER(c_int)),
        ("faceIndexCount", c_int),
        ("edges", c_void_p),
        ("edgeCount", c_int),
        ("centroid", Vec3),
        ("radius", c_float),
        ("extent", c_float),
        ("lanes", POINTER(c_float)),
        ("faceLanes", POINTER(c_float)),
    ]


class Mesh(Structure):
    """``tbMesh`` (owned by the caller, freed with ``tbDestroyMesh``)."""

    _fields_ = [
        ("vertices", POINTER(Vec3)),
        ("vertexCount", c_int),
        ("indices", POINTER(c_int)),
        ("triangleCount", c_int),
        ("normals", POINTER(Vec3)),
        ("edgeFlags", POINTER(c_uint8)),
        ("folds", POINTER(c_uint8)),
        ("sizes", POINTER(c_float)),
        ("neighbours", POINTER(c_int)),
        ("nodes", c_void_p),
        ("nodeCount", c_int),
        ("order", POINTER(c_int)),
        ("depth", c_int),
        ("bounds", AABB),
        ("radius", c_float),
    ]


class Heightfield(Structure):
    """``tbHeightfield`` (owned by the caller, freed with ``tbDestroyHeightfield``)."""

    _fields_ = [
        ("heights", POINTER(c_float)),
        ("rows", c_int),
        ("columns", c_int),
        ("dx", c_float),
        ("dz", c_float),
        ("edgeFlags", POINTER(c_uint8)),
        ("bounds", AABB),
        ("radius", c_float),
    ]


# Joint definitions. The defaults come from the library (tbDefault*JointDef).
class BallJointDef(Structure):
    """``tbBallJointDef``."""

    _fields_ = [
        ("bodyIdA", BodyId),
        ("bodyIdB", BodyId),
        ("anchor", Vec3),
        ("twistAxis", Vec3),
        ("swingAxis", Vec3),
        ("enableCone", c_bool),
        ("coneAngle1", c_float),
        ("coneAngle2", c_float),
        ("enableTwistLimit", c_bool),
        ("lowerTwist", c_float),
        ("upperTwist", c_float),
        ("enableSpring", c_bool),
        ("hertz", c_float),
        ("dampingRatio", c_float),
        ("_pad", c_float * 2),  # C aligns the quaternion to 16 bytes
        ("targetRotation", Quat),
        ("enableMotor", c_bool),
        ("motorToTarget", c_bool),
        ("motorVelocity", Vec3),
        ("maxMotorTorque", c_float),
        ("maxFrictionTorque", c_float),
        ("collideConnected", c_bool),
        ("forceThreshold", c_float),
        ("torqueThreshold", c_float),
        ("userData", c_void_p),
    ]


class FixedJointDef(Structure):
    """``tbFixedJointDef``."""

    _fields_ = [
        ("bodyIdA", BodyId),
        ("bodyIdB", BodyId),
        ("anchor", Vec3),
        ("collideConnected", c_bool),
        ("forceThreshold", c_float),
        ("torqueThreshold", c_float),
        ("userData", c_void_p),
    ]


def _axis_joint_fields(limit: str, motor: str) -> list:
    return [
        ("bodyIdA", BodyId),
        ("bodyIdB", BodyId),
        ("anchor", Vec3),
        ("axis", Vec3),
        ("enableLimit", c_bool),
        ("lower" + limit, c_float),
        ("upper" + limit, c_float),
        ("enableMotor", c_bool),
        ("motorSpeed", c_float),
        (motor, c_float),
        ("enableSpring", c_bool),
        ("hertz", c_float),
        ("dampingRatio", c_float),
        ("collideConnected", c_bool),
        ("forceThreshold", c_float),
        ("torqueThreshold", c_float),
        ("userData", c_void_p),
    ]


class HingeJointDef(Structure):
    """``tbHingeJointDef``."""

    _fields_ = _axis_joint_fields("Angle", "maxMotorTorque")


class SliderJointDef(Structure):
    """``tbSliderJointDef``."""

    _fields_ = _axis_joint_fields("Translation", "maxMotorForce")


class DistanceJointDef(Structure):
    """``tbDistanceJointDef``."""

    _fields_ = [
        ("bodyIdA", BodyId),
        ("bodyIdB", BodyId),
        ("anchorA", Vec3),
        ("anchorB", Vec3),
        ("length", c_float),
        ("enableLimit", c_bool),
        ("minLength", c_float),
        ("maxLength", c_float),
        ("enableSpring", c_bool),
        ("hertz", c_float),
        ("dampingRatio", c_float),
        ("collideConnected", c_bool),
        ("forceThreshold", c_float),
        ("torqueThreshold", c_float),
        ("userData", c_void_p),
    ]


class JointEvent(Structure):
    """``tbJointEvent``."""

    _fields_ = [("jointId", JointId), ("force", c_float), ("torque", c_float)]


class JointEvents(Structure):
    """``tbJointEvents``."""

    _fields_ = [("events", POINTER(JointEvent)), ("count", c_int)]


class WheelJointDef(Structure):
    """``tbWheelJointDef``."""

    _fields_ = [
        ("bodyIdA", BodyId),
        ("bodyIdB", BodyId),
        ("anchor", Vec3),
        ("suspensionAxis", Vec3),
        ("spinAxis", Vec3),
        ("enableSpring", c_bool),
        ("hertz", c_float),
        ("dampingRatio", c_float),
        ("enableLimit", c_bool),
        ("lowerTranslation", c_float),
        ("upperTranslation", c_float),
        ("enableMotor", c_bool),
        ("motorSpeed", c_float),
        ("maxMotorTorque", c_float),
        ("steeringAngle", c_float),
        ("collideConnected", c_bool),
        ("forceThreshold", c_float),
        ("torqueThreshold", c_float),
        ("userData", c_void_p),
    ]


# Scene files. Only the fields the package reads are named; the rest are kept as bytes of the
# sizes the header gives (test_layout.py checks them).
SCENE_MESSAGE_SIZE = 512
SCENE_NAME_SIZE = 64
SCENE_PATH_SIZE = 96


class SceneError(Structure):
    """``tbSceneError``."""

    _fields_ = [
        ("message", c_char * SCENE_MESSAGE_SIZE),
        ("line", c_int),
        ("keyPath", c_char * SCENE_PATH_SIZE),
    ]


class SceneBody(Structure):
    """``tbSceneBody``: its name and type (the rest of its 400 bytes unnamed)."""

    _fields_ = [("name", c_char * SCENE_NAME_SIZE), ("type", c_int), ("_rest", c_uint8 * 332)]


class SceneJoint(Structure):
    """``tbSceneJoint``: its name, type and bodies (the rest of its 332 bytes unnamed)."""

    _fields_ = [
        ("name", c_char * SCENE_NAME_SIZE),
        ("type", c_int),
        ("bodyA", c_int),
        ("bodyB", c_int),
        ("_rest", c_uint8 * 256),
    ]


class SceneDef(Structure):
    """``tbSceneDef``."""

    _fields_ = [
        ("fileName", c_char * 256),
        ("description", c_char * 256),
        ("gravity", Vec3),
        ("dt", c_float),
        ("substeps", c_int),
        ("steps", c_int),
        ("sleep", c_bool),
        ("continuous", c_bool),
        ("restitutionThreshold", c_float),
        ("bodies", POINTER(SceneBody)),
        ("bodyCount", c_int),
        ("hulls", c_void_p),
        ("hullCount", c_int),
        ("shapes", c_void_p),
        ("shapeCount", c_int),
        ("meshes", c_void_p),
        ("meshCount", c_int),
        ("heightfields", c_void_p),
        ("heightfieldCount", c_int),
        ("joints", POINTER(SceneJoint)),
        ("jointCount", c_int),
        ("workerCount", c_int),
    ]


class Scene(Structure):
    """``tbScene``."""

    _fields_ = [
        ("def_", SceneDef),
        ("worldId", WorldId),
        ("bodyIds", POINTER(BodyId)),
        ("jointIds", POINTER(JointId)),
    ]


class Version(Structure):
    """``tbVersion``."""

    _fields_ = [("major", c_int), ("minor", c_int), ("patch", c_int)]


# Callbacks
CastResultFcn = CFUNCTYPE(c_float, ShapeId, Vec3, Vec3, c_float, c_void_p)
OverlapResultFcn = CFUNCTYPE(c_bool, ShapeId, c_void_p)
AssertFcn = CFUNCTYPE(c_int, c_char_p, c_char_p, c_int)

# ---------------------------------------------------------------------------------------------
# Function prototypes: name -> (restype, argtypes)

_P = POINTER
_PROTOTYPES: dict[str, tuple[object, list]] = {
    # base.h, allocate.h
    "tbSetAssertFcn": (None, [AssertFcn]),
    "tbVersionString": (c_char_p, []),
    "tbGetVersion": (Version, []),
    "tbGetByteCount": (c_longlong, []),
    "tbGetAllocationCount": (c_longlong, []),
    # world.h: errors and the world
    "tbGetLastError": (c_char_p, []),
    "tbClearLastError": (None, []),
    "tbDefaultWorldDef": (WorldDef, []),
    "tbDefaultBodyDef": (BodyDef, []),
    "tbDefaultShapeDef": (ShapeDef, []),
    "tbDefaultQueryFilter": (QueryFilter, []),
    "tbCreateWorld": (WorldId, [_P(WorldDef)]),
    "tbDestroyWorld": (None, [WorldId]),
    "tbWorld_IsValid": (c_bool, [WorldId]),
    "tbWorld_Step": (c_bool, [WorldId, c_float, c_int]),
    "tbWorld_GetContactEvents": (ContactEvents, [WorldId]),
    "tbWorld_GetSensorEvents": (SensorEvents, [WorldId]),
    "tbWorld_GetBodyEvents": (BodyEvents, [WorldId]),
    "tbWorld_GetContactData": (c_int, [WorldId, _P(ContactData), c_int]),
    "tbWorld_SetGravity": (None, [WorldId, Vec3]),
    "tbWorld_GetGravity": (Vec3, [WorldId]),
    "tbWorld_EnableSleeping": (None, [WorldId, c_bool]),
    "tbWorld_GetCounters": (WorldCounters, [WorldId]),
    "tbWorld_GetProfile": (Profile, [WorldId]),
    "tbWorld_GetStateHash": (c_uint64, [WorldId]),
    "tbWorld_GetBodySnapshots": (c_int, [WorldId, c_void_p, c_int]),
    # save.h
    "tbWorld_Save": (c_size_t, [WorldId, c_void_p, c_size_t]),
    "tbWorld_Restore": (c_bool, [WorldId, c_char_p, c_size_t]),
    "tbCreateWorldFromSave": (WorldId, [c_char_p, c_size_t, c_void_p]),
    "tbWorld_CastRayClosest": (RayResult, [WorldId, Vec3, Vec3, QueryFilter]),
    "tbWorld_CastRay": (None, [WorldId, Vec3, Vec3, QueryFilter, CastResultFcn, c_void_p]),
    "tbWorld_CastShape": (
        None,
        [WorldId, _P(Geometry), Transform, Vec3, QueryFilter, CastResultFcn, c_void_p],
    ),
    "tbWorld_CastShapeClosest": (RayResult, [WorldId, _P(Geometry), Transform, Vec3, QueryFilter]),
    "tbWorld_OverlapAABB": (None, [WorldId, AABB, QueryFilter, OverlapResultFcn, c_void_p]),
    "tbWorld_OverlapShape": (
        None,
        [WorldId, _P(Geometry), Transform, QueryFilter, OverlapResultFcn, c_void_p],
    ),
    # bodies
    "tbCreateBody": (BodyId, [WorldId, _P(BodyDef)]),
    "tbDestroyBody": (None, [BodyId]),
    "tbBody_IsValid": (c_bool, [BodyId]),
    "tbBody_GetType": (c_int, [BodyId]),
    "tbBody_GetPosition": (Vec3, [BodyId]),
    "tbBody_GetRotation": (Quat, [BodyId]),
    "tbBody_GetTransform": (Transform, [BodyId]),
    "tbBody_SetTransform": (None, [BodyId, Vec3, Quat]),
    "tbBody_GetWorldCenterOfMass": (Vec3, [BodyId]),
    "tbBody_GetLinearVelocity": (Vec3, [BodyId]),
    "tbBody_SetLinearVelocity": (None, [BodyId, Vec3]),
    "tbBody_GetAngularVelocity": (Vec3, [BodyId]),
    "tbBody_SetAngularVelocity": (None, [BodyId, Vec3]),
    "tbBody_GetAngularMomentum": (Vec3, [BodyId]),
    "tbBody_GetKineticEnergy": (c_float, [BodyId]),
    "tbBody_ApplyForce": (None, [BodyId, Vec3, Vec3, c_bool]),
    "tbBody_ApplyForceToCenter": (None, [BodyId, Vec3, c_bool]),
    "tbBody_ApplyTorque": (None, [BodyId, Vec3, c_bool]),
    "tbBody_ApplyLinearImpulse": (None, [BodyId, Vec3, Vec3, c_bool]),
    "tbBody_ApplyAngularImpulse": (None, [BodyId, Vec3, c_bool]),
    "tbBody_SetLinearDamping": (None, [BodyId, c_float]),
    "tbBody_GetLinearDamping": (c_float, [BodyId]),
    "tbBody_SetAngularDamping": (None, [BodyId, c_float]),
    "tbBody_GetAngularDamping": (c_float, [BodyId]),
    "tbBody_SetGravityScale": (None, [BodyId, c_float]),
    "tbBody_GetGravityScale": (c_float, [BodyId]),
    "tbBody_GetMass": (c_float, [BodyId]),
    "tbBody_IsAwake": (c_bool, [BodyId]),
    "tbBody_SetAwake": (None, [BodyId, c_bool]),
    "tbBody_SetBullet": (None, [BodyId, c_bool]),
    "tbBody_IsBullet": (c_bool, [BodyId]),
    "tbBody_EnableSleep": (None, [BodyId, c_bool]),
    "tbBody_SetSleepThreshold": (None, [BodyId, c_float]),
    "tbBody_GetSleepThreshold": (c_float, [BodyId]),
    "tbBody_GetShapeCount": (c_int, [BodyId]),
    "tbBody_GetShapes": (c_int, [BodyId, _P(ShapeId), c_int]),
    "tbBody_GetContactData": (c_int, [BodyId, _P(ContactData), c_int]),
    # shapes on bodies
    "tbCreateShape": (ShapeId, [BodyId, _P(ShapeDef), _P(Geometry)]),
    "tbDestroyShape": (None, [ShapeId]),
    "tbShape_IsValid": (c_bool, [ShapeId]),
    "tbShape_GetBody": (BodyId, [ShapeId]),
    "tbShape_GetGeometry": (Geometry, [ShapeId]),
    "tbShape_GetWorldTransform": (Transform, [ShapeId]),
    "tbShape_GetAABB": (AABB, [ShapeId]),
    "tbShape_SetFriction": (None, [ShapeId, c_float]),
    "tbShape_GetFriction": (c_float, [ShapeId]),
    "tbShape_SetRestitution": (None, [ShapeId, c_float]),
    "tbShape_GetRestitution": (c_float, [ShapeId]),
    "tbShape_SetFilter": (None, [ShapeId, Filter]),
    "tbShape_GetFilter": (Filter, [ShapeId]),
    "tbShape_IsSensor": (c_bool, [ShapeId]),
    "tbShape_EnableHitEvents": (None, [ShapeId, c_bool]),
    "tbShape_AreHitEventsEnabled": (c_bool, [ShapeId]),
    "tbShape_RayCast": (CastOutput, [ShapeId, Vec3, Vec3]),
    # joint.h
    "tbDefaultBallJointDef": (BallJointDef, []),
    "tbDefaultHingeJointDef": (HingeJointDef, []),
    "tbDefaultSliderJointDef": (SliderJointDef, []),
    "tbDefaultFixedJointDef": (FixedJointDef, []),
    "tbDefaultDistanceJointDef": (DistanceJointDef, []),
    "tbDefaultWheelJointDef": (WheelJointDef, []),
    "tbCreateBallJoint": (JointId, [WorldId, _P(BallJointDef)]),
    "tbCreateHingeJoint": (JointId, [WorldId, _P(HingeJointDef)]),
    "tbCreateSliderJoint": (JointId, [WorldId, _P(SliderJointDef)]),
    "tbCreateFixedJoint": (JointId, [WorldId, _P(FixedJointDef)]),
    "tbCreateDistanceJoint": (JointId, [WorldId, _P(DistanceJointDef)]),
    "tbCreateWheelJoint": (JointId, [WorldId, _P(WheelJointDef)]),
    "tbWheelJoint_SetSteering": (None, [JointId, c_float]),
    "tbWheelJoint_GetSteering": (c_float, [JointId]),
    "tbDestroyJoint": (None, [JointId]),
    "tbJoint_IsValid": (c_bool, [JointId]),
    "tbJoint_GetType": (c_int, [JointId]),
    "tbJoint_GetBodyA": (BodyId, [JointId]),
    "tbJoint_GetBodyB": (BodyId, [JointId]),
    "tbJoint_GetAngle": (c_float, [JointId]),
    "tbJoint_GetTranslation": (c_float, [JointId]),
    "tbJoint_GetLength": (c_float, [JointId]),
    "tbJoint_GetSpeed": (c_float, [JointId]),
    "tbJoint_GetReactionForce": (Vec3, [JointId]),
    "tbJoint_GetReactionTorque": (Vec3, [JointId]),
    "tbJoint_GetMotorForce": (c_float, [JointId]),
    "tbJoint_EnableLimit": (None, [JointId, c_bool]),
    "tbJoint_SetLimits": (None, [JointId, c_float, c_float]),
    "tbJoint_EnableMotor": (None, [JointId, c_bool]),
    "tbJoint_SetMotorSpeed": (None, [JointId, c_float]),
    "tbJoint_SetMaxMotorForce": (None, [JointId, c_float]),
    "tbJoint_EnableSpring": (None, [JointId, c_bool]),
    "tbJoint_SetSpring": (None, [JointId, c_float, c_float]),
    "tbJoint_SetForceThreshold": (None, [JointId, c_float]),
    "tbJoint_SetTorqueThreshold": (None, [JointId, c_float]),
    "tbWorld_GetJointEvents": (JointEvents, [WorldId]),
    "tbBallJoint_SetCone": (None, [JointId, c_bool, c_float, c_float]),
    "tbBallJoint_SetMotorVelocity": (None, [JointId, Vec3]),
    "tbBallJoint_SetTarget": (None, [JointId, Quat, c_bool]),
    "tbBallJoint_SetMaxFrictionTorque": (None, [JointId, c_float]),
    "tbBallJoint_GetSwingAngle": (c_float, [JointId]),
    "tbBallJoint_GetTwistAngle": (c_float, [JointId]),
    # shape.h, hull.h, mesh.h, mass.h
    "tbGeometry_Validate": (c_bool, [_P(Geometry), c_char_p, c_int]),
    "tbGeometry_ComputeAABB": (AABB, [_P(Geometry), Transform]),
    "tbGeometry_BoundingRadius": (c_float, [_P(Geometry)]),
    "tbGeometry_Support": (Vec3, [_P(Geometry), Vec3, _P(c_int)]),
    "tbShapeTypeName": (c_char_p, [c_int]),
    "tbBuildHull": (c_int, [_P(Vec3), c_int, _P(Hull), _P(c_int)]),
    "tbHullErrorString": (c_char_p, [c_int]),
    "tbDestroyHull": (None, [_P(Hull)]),
    "tbBuildMesh": (c_bool, [_P(Vec3), c_int, _P(c_int), c_int, _P(Mesh), c_char_p, c_int]),
    "tbDestroyMesh": (None, [_P(Mesh)]),
    "tbBuildHeightfield": (
        c_bool,
        [_P(c_float), c_int, c_int, c_float, c_float, _P(Heightfield), c_char_p, c_int],
    ),
    "tbDestroyHeightfield": (None, [_P(Heightfield)]),
    "tbComputeMass": (MassData, [_P(Geometry), c_float, _P(c_int)]),
    "tbMassErrorString": (c_char_p, [c_int]),
    # transform.h
    "tbQuatFromEulerXYZ": (Quat, [c_float, c_float, c_float]),
    # query.h, raycast.h, manifold.h
    "tbDefaultQueryDef": (QueryDef, []),
    "tbTestOverlap": (c_bool, [_P(Geometry), Transform, _P(Geometry), Transform, _P(c_int)]),
    "tbShapeDistance": (
        QueryResult,
        [_P(Geometry), Transform, _P(Geometry), Transform, _P(QueryDef)],
    ),
    "tbQueryShapes": (QueryResult, [_P(Geometry), Transform, _P(Geometry), Transform, _P(QueryDef)]),
    "tbQueryStatusName": (c_char_p, [c_int]),
    "tbRayCastShape": (CastOutput, [_P(Geometry), Transform, Vec3, Vec3, c_float]),
    "tbCollideShapes": (Manifold, [_P(Geometry), Transform, _P(Geometry), Transform, c_float]),
    # scene.h
    "tbLoadScene": (c_bool, [c_char_p, _P(Scene), _P(SceneError)]),
    "tbDestroyScene": (None, [_P(Scene)]),
    "tbFindScene": (c_bool, [c_char_p, c_char_p, c_size_t]),
}

for _name, (_res, _args) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

# The library's assert hook aborts by default. From Python a stale handle must become an exception,
# not a dead interpreter: the hook notes the condition and returns 0 (go on); the library has
# already written its message (tbGetLastError), which the wrappers raise.
last_assert: list[str] = []


@AssertFcn
def _assert_hook(condition: bytes, file_name: bytes, line: int) -> int:
    last_assert.append(f"{condition.decode(errors='replace')} ({file_name.decode(errors='replace')}:{line})")
    return 0


lib.tbSetAssertFcn(_assert_hook)
