"""Worlds, bodies, shapes on bodies, joints, the step, events, contact data, world queries and
bulk reads of every body's state (tbWorld_*, tbBody_*, tbShape_*, tbJoint_*)."""

from __future__ import annotations

import ctypes
import re
import warnings
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from . import _native as N
from ._native import lib
from .errors import TumbleError, checked
from .geometry import IDENTITY, CastOutput, Geometry, Manifold, Quaternion, Vector, quat, to_array, transform, vec3


class BodyType(IntEnum):
    """``tbBodyType``."""

    STATIC = 0
    KINEMATIC = 1
    DYNAMIC = 2


class JointType(IntEnum):
    """``tbJointType``."""

    BALL = 0
    HINGE = 1
    SLIDER = 2
    FIXED = 3
    DISTANCE = 4
    WHEEL = 5


def _camel(name: str) -> str:
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _fill(struct: ctypes.Structure, options: dict[str, Any], what: str) -> None:
    """Set the fields of a definition struct from snake_case keyword arguments."""
    fields = {f[0]: f[1] for f in struct._fields_}
    for key, value in options.items():
        field = _camel(key)
        if field not in fields or field.startswith("_") or field == "userData":
            known = ", ".join(sorted(_snake(f) for f in fields if not f.startswith("_") and f != "userData"))
            raise TypeError(f"{what}: unknown option {key!r}; known: {known}")
        ftype = fields[field]
        if ftype is N.Vec3:
            value = vec3(value)
        elif ftype is N.Quat:
            value = quat(value)
        elif ftype is N.Filter:
            value = N.Filter(*value)
        elif isinstance(value, IntEnum):
            value = int(value)
        setattr(struct, field, value)


def _to_dict(s: ctypes.Structure) -> dict[str, Any]:
    return {_snake(name): getattr(s, name) for name, _ in s._fields_}


SNAPSHOT_DTYPE = np.dtype(
    [
        ("body_id", np.uint32, 4),  # index1, world0 | reserved << 16, world generation, generation
        ("position", np.float32, 3),
        ("rotation", np.float32, 4),
        ("linear_velocity", np.float32, 3),
        ("angular_velocity", np.float32, 3),
        ("kinetic_energy", np.float32),
    ]
)
"""NumPy's view of ``tbBodySnapshot`` (76 bytes, no padding)."""
assert SNAPSHOT_DTYPE.itemsize == ctypes.sizeof(N.BodySnapshot)


@dataclass
class BodyStates:
    """Every live body's state after the last step, from one ``tbWorld_GetBodySnapshots`` call:
    rows in body slot order (creation order until a body is destroyed). float32, as the engine
    holds them."""

    positions: np.ndarray  #: (n, 3) body origins, m
    rotations: np.ndarray  #: (n, 4) unit quaternions x, y, z, w
    linear_velocities: np.ndarray  #: (n, 3) of the centres of mass, m/s
    angular_velocities: np.ndarray  #: (n, 3) world, rad/s
    kinetic_energies: np.ndarray  #: (n,) J
    records: np.ndarray  #: the raw structured array (SNAPSHOT_DTYPE)
    world: "World"

    def __len__(self) -> int:
        return len(self.records)

    @property
    def bodies(self) -> list["Body"]:
        """The Body of each row."""
        return [self.world._body(N.BodyId(int(r[0]), int(r[1]) & 0xFFFF, int(r[1]) >> 16, int(r[2]), int(r[3]))) for r in self.records["body_id"]]

    def index(self, body: "Body") -> int:
        """The row of ``body`` (ValueError when it is not in the table)."""
        k = body._id
        ids = self.records["body_id"]
        hit = np.nonzero((ids[:, 0] == k.index1) & (ids[:, 3] == k.generation))[0]
        if len(hit) == 0:
            raise ValueError(f"{body!r} is not in these states")
        return int(hit[0])


@dataclass
class RayHit:
    """``tbRayResult`` of a hit: the shape, the point and outward normal (world) and the fraction
    of the translation."""

    shape: "Shape"
    point: np.ndarray
    normal: np.ndarray
    fraction: float


@dataclass
class ContactBeginTouch:
    """``tbContactBeginTouchEvent``."""

    shape_a: "Shape"
    shape_b: "Shape"
    manifold: Manifold


@dataclass
class ContactEndTouch:
    """``tbContactEndTouchEvent`` (the shapes may have been destroyed since)."""

    shape_a: "Shape"
    shape_b: "Shape"


@dataclass
class ContactHit:
    """``tbContactHitEvent``."""

    shape_a: "Shape"
    shape_b: "Shape"
    point: np.ndarray
    normal: np.ndarray
    approach_speed: float


@dataclass
class ContactEvents:
    """``tbContactEvents`` of the last step, copied into Python objects."""

    begin: list[ContactBeginTouch]
    end: list[ContactEndTouch]
    hits: list[ContactHit]


@dataclass
class SensorEvents:
    """``tbSensorEvents`` of the last step: (sensor, visitor) shape pairs."""

    begin: list[tuple["Shape", "Shape"]]
    end: list[tuple["Shape", "Shape"]]


@dataclass
class JointEvent:
    """``tbJointEvent``: a joint whose reaction passed its force or torque threshold."""

    joint: "Joint"
    force: float
    torque: float


@dataclass
class BodyMove:
    """``tbBodyMoveEvent``."""

    body: "Body"
    position: np.ndarray
    rotation: np.ndarray
    fell_asleep: bool


@dataclass
class ContactData:
    """``tbContactData``: a touching pair, its manifold and the last step's impulses."""

    shape_a: "Shape"
    shape_b: "Shape"
    manifold: Manifold
    normal_impulses: np.ndarray  # (n,) N s, over the whole last step
    friction_impulses: np.ndarray  # (n, 3) N s, over the whole last step
    normal_forces: np.ndarray  # (n,) N, mean over the last step
    friction_forces: np.ndarray  # (n, 3) N, mean over the last step


def _filter(category_bits: int | None = None, mask_bits: int | None = None) -> N.QueryFilter:
    f = lib.tbDefaultQueryFilter()
    if category_bits is not None:
        f.categoryBits = category_bits
    if mask_bits is not None:
        f.maskBits = mask_bits
    return f


class World:
    """A Tumble world (``tbCreateWorld``). Keyword options are the fields of ``tbWorldDef`` in
    snake_case (``iterations``, ``contact_hertz``, ``enable_sleep``, ``restitution_threshold``,
    ...), starting from ``tbDefaultWorldDef``. Use as a context manager, or call ``destroy``."""

    def __init__(self, gravity: Vector = (0.0, -9.81, 0.0), **options: Any):
        d = lib.tbDefaultWorldDef()
        _fill(d, dict(gravity=gravity, **options), "World")
        wid = lib.tbCreateWorld(ctypes.byref(d))
        if wid.index1 == 0:
            raise TumbleError(lib.tbGetLastError().decode())
        self._init(wid, owner=None)

    def _init(self, wid: N.WorldId, owner: object | None) -> None:
        self._id = wid
        self._owner = owner  # a Scene that destroys the world, or None: the World does
        self._bodies: dict[tuple, Body] = {}
        self._shapes: dict[tuple, Shape] = {}
        self._joints: dict[tuple, Joint] = {}
        self._keep: list[object] = []  # hulls, meshes, heightfields the world's shapes point into

    @classmethod
    def _wrap(cls, wid: N.WorldId, owner: object) -> "World":
        w = cls.__new__(cls)
        w._init(wid, owner)
        return w

    # -- lifetime
    def destroy(self) -> None:
        """``tbDestroyWorld``: destroy the world and everything in it (handles become stale)."""
        if self._owner is None and lib.tbWorld_IsValid(self._id):
            lib.tbDestroyWorld(self._id)
        self._keep.clear()

    def is_valid(self) -> bool:
        """``tbWorld_IsValid``."""
        return bool(lib.tbWorld_IsValid(self._id))

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc: object) -> None:
        self.destroy()

    def __del__(self) -> None:
        try:
            if self._owner is None and lib.tbWorld_IsValid(self._id):
                lib.tbDestroyWorld(self._id)
        except Exception:  # interpreter shutdown
            pass

    # -- handles to Python objects (one Python object per handle)
    def _body(self, bid: N.BodyId) -> "Body":
        k = bid.key()
        b = self._bodies.get(k)
        if b is None:
            b = self._bodies[k] = Body(self, bid)
        return b

    def _shape(self, sid: N.ShapeId) -> "Shape":
        k = sid.key()
        s = self._shapes.get(k)
        if s is None:
            s = self._shapes[k] = Shape(self, sid)
        return s

    def _joint(self, jid: N.JointId) -> "Joint":
        k = jid.key()
        j = self._joints.get(k)
        if j is None:
            j = self._joints[k] = Joint(self, jid)
        return j

    # -- the step
    def step(self, time_step: float = 1.0 / 60.0, substeps: int = 4) -> None:
        """``tbWorld_Step``: advance by ``time_step`` s with ``substeps`` solver substeps. Raises
        TumbleError for a bad time step; warns (RuntimeWarning) when the step's NaN guard stopped
        bodies."""
        lib.tbClearLastError()
        if not lib.tbWorld_Step(self._id, float(time_step), int(substeps)):
            raise TumbleError(lib.tbGetLastError().decode())
        msg = lib.tbGetLastError()
        if msg:
            warnings.warn(msg.decode(), RuntimeWarning, stacklevel=2)

    def record(self, steps: int, time_step: float = 1.0 / 60.0, substeps: int = 4) -> dict[str, np.ndarray]:
        """Step ``steps`` times and return the trajectory of every body (Python helper over
        ``step`` and ``get_body_snapshots``): ``time`` (steps + 1,), ``positions`` (steps + 1, n,
        3), ``rotations`` (.., n, 4), ``linear_velocities``, ``angular_velocities``,
        ``kinetic_energies`` (.., n); row 0 is the state before the first step. The body set must
        not change while recording."""
        first = self.get_body_snapshots().records
        out = np.empty((steps + 1,) + first.shape, dtype=SNAPSHOT_DTYPE)
        out[0] = first
        cap = len(first)
        for i in range(1, steps + 1):
            self.step(time_step, substeps)
            n = lib.tbWorld_GetBodySnapshots(self._id, out[i].ctypes.data, cap)
            if n != cap:
                raise TumbleError(f"World.record: the body count changed from {cap} to {n}")
        return {
            "time": np.arange(steps + 1) * float(time_step),
            "positions": out["position"],
            "rotations": out["rotation"],
            "linear_velocities": out["linear_velocity"],
            "angular_velocities": out["angular_velocity"],
            "kinetic_energies": out["kinetic_energy"],
        }

    # -- bulk state
    def get_body_snapshots(self) -> BodyStates:
        """``tbWorld_GetBodySnapshots``: every live body's pose, velocities and kinetic energy as
        NumPy arrays, in one call."""
        n = lib.tbWorld_GetCounters(self._id).bodyCount
        rec = np.empty(n, dtype=SNAPSHOT_DTYPE)
        got = checked(lib.tbWorld_GetBodySnapshots, self._id, rec.ctypes.data, n)
        rec = rec[:got]
        return BodyStates(
            rec["position"], rec["rotation"], rec["linear_velocity"], rec["angular_velocity"], rec["kinetic_energy"], rec, self
        )

    @property
    def bodies(self) -> list["Body"]:
        """Every live body, in slot order (the rows of ``get_body_snapshots``)."""
        return self.get_body_snapshots().bodies

    def kinetic_energy(self) -> float:
        """Sum of the bodies' kinetic energies, J (Python helper: one snapshot)."""
        return float(np.sum(self.get_body_snapshots().kinetic_energies, dtype=np.float64))

    def potential_energy(self, reference: Vector = (0.0, 0.0, 0.0)) -> float:
        """Gravitational potential energy of the dynamic bodies, -sum m g.(c - reference), J,
        with c each centre of mass and g the world's gravity scaled per body (Python helper)."""
        g = self.gravity
        r = np.asarray(reference, dtype=float)
        total = 0.0
        for b in self.bodies:
            if b.type == BodyType.DYNAMIC:
                total -= b.mass * b.gravity_scale * float(np.dot(g, b.world_center_of_mass - r))
        return total

    # -- settings and counters
    @property
    def gravity(self) -> np.ndarray:
        """``tbWorld_GetGravity`` / ``tbWorld_SetGravity``, m/s^2."""
        return to_array(checked(lib.tbWorld_GetGravity, self._id))

    @gravity.setter
    def gravity(self, g: Vector) -> None:
        checked(lib.tbWorld_SetGravity, self._id, vec3(g))

    def enable_sleeping(self, flag: bool) -> None:
        """``tbWorld_EnableSleeping``."""
        checked(lib.tbWorld_EnableSleeping, self._id, bool(flag))

    def get_counters(self) -> dict[str, int]:
        """``tbWorld_GetCounters`` as a dict (body_count, shape_count, touching_count, ...)."""
        return _to_dict(checked(lib.tbWorld_GetCounters, self._id))

    def get_profile(self) -> dict[str, float]:
        """``tbWorld_GetProfile`` as a dict (step, collide, solve in ms, and counts)."""
        return _to_dict(checked(lib.tbWorld_GetProfile, self._id))

    def get_state_hash(self) -> int:
        """``tbWorld_GetStateHash``: FNV-1a of every body's position and rotation bits."""
        return int(checked(lib.tbWorld_GetStateHash, self._id))

    # -- saves (docs/save.md)
    def save(self) -> bytes:
        """``tbWorld_Save``: the whole world as bytes; ``restore`` or ``World.from_save`` read it.
        Hull, mesh and heightfield shapes are saved by reference: restore in this process, while
        the world that holds them lives."""
        size = int(checked(lib.tbWorld_Save, self._id, None, 0))
        buf = ctypes.create_string_buffer(size)
        written = int(checked(lib.tbWorld_Save, self._id, buf, size))
        return buf.raw[:written]

    def restore(self, data: bytes) -> None:
        """``tbWorld_Restore``: put this world back into a save's state. Its Body, Shape and Joint
        objects that were valid at the save are valid again. Raises TumbleError for a bad save."""
        data = bytes(data)
        if not checked(lib.tbWorld_Restore, self._id, data, len(data)):
            raise TumbleError(lib.tbGetLastError().decode() or "tbWorld_Restore failed")

    @classmethod
    def from_save(cls, data: bytes) -> "World":
        """``tbCreateWorldFromSave``: a new world (one worker) in a save's state."""
        data = bytes(data)
        wid = lib.tbCreateWorldFromSave(data, len(data), None)
        if wid.index1 == 0:
            raise TumbleError(lib.tbGetLastError().decode())
        return cls._wrap(wid, owner=None)

    # -- creation
    def create_body(
        self,
        type: BodyType | str = BodyType.DYNAMIC,
        position: Vector = (0.0, 0.0, 0.0),
        rotation: Quaternion = IDENTITY,
        **options: Any,
    ) -> "Body":
        """``tbCreateBody``. ``type`` is a BodyType or "static", "kinematic", "dynamic" (dynamic by
        default, unlike tbDefaultBodyDef). Other options are the fields of ``tbBodyDef`` in
        snake_case: linear_velocity, angular_velocity, linear_damping, angular_damping,
        gravity_scale, enable_sleep, is_awake, is_bullet."""
        d = lib.tbDefaultBodyDef()
        t = BodyType[type.upper()] if isinstance(type, str) else BodyType(type)
        _fill(d, dict(type=t, position=position, rotation=rotation, **options), "create_body")
        bid = checked(lib.tbCreateBody, self._id, ctypes.byref(d))
        return self._body(bid)

    def _create_joint(self, fn: Any, d: ctypes.Structure) -> "Joint":
        jid = checked(fn, self._id, ctypes.byref(d))
        if jid.index1 == 0:
            raise TumbleError(lib.tbGetLastError().decode() or "joint refused")
        return self._joint(jid)

    def create_ball_joint(self, body_a: "Body", body_b: "Body", anchor: Vector, **options: Any) -> "Joint":
        """``tbCreateBallJoint``: the bodies share ``anchor`` (world) and turn freely about it.
        Options: twist_axis, swing_axis, enable_cone, cone_angle1, cone_angle2,
        enable_twist_limit, lower_twist, upper_twist, enable_spring, hertz, damping_ratio,
        target_rotation, enable_motor, motor_to_target, motor_velocity, max_motor_torque,
        max_friction_torque, collide_connected, force_threshold, torque_threshold."""
        d = lib.tbDefaultBallJointDef()
        d.bodyIdA, d.bodyIdB = body_a._id, body_b._id
        _fill(d, dict(anchor=anchor, **options), "create_ball_joint")
        return self._create_joint(lib.tbCreateBallJoint, d)

    def create_hinge_joint(self, body_a: "Body", body_b: "Body", anchor: Vector, axis: Vector, **options: Any) -> "Joint":
        """``tbCreateHingeJoint``: rotation about ``axis`` through ``anchor`` only. Options:
        enable_limit, lower_angle, upper_angle, enable_motor, motor_speed, max_motor_torque,
        enable_spring, hertz, damping_ratio, collide_connected."""
        d = lib.tbDefaultHingeJointDef()
        d.bodyIdA, d.bodyIdB = body_a._id, body_b._id
        _fill(d, dict(anchor=anchor, axis=axis, **options), "create_hinge_joint")
        return self._create_joint(lib.tbCreateHingeJoint, d)

    def create_slider_joint(self, body_a: "Body", body_b: "Body", anchor: Vector, axis: Vector, **options: Any) -> "Joint":
        """``tbCreateSliderJoint``: translation along ``axis`` only. Options: enable_limit,
        lower_translation, upper_translation, enable_motor, motor_speed, max_motor_force,
        enable_spring, hertz, damping_ratio, collide_connected."""
        d = lib.tbDefaultSliderJointDef()
        d.bodyIdA, d.bodyIdB = body_a._id, body_b._id
        _fill(d, dict(anchor=anchor, axis=axis, **options), "create_slider_joint")
        return self._create_joint(lib.tbCreateSliderJoint, d)

    def create_fixed_joint(self, body_a: "Body", body_b: "Body", anchor: Vector, **options: Any) -> "Joint":
        """``tbCreateFixedJoint``: the bodies keep their relative pose. Options: collide_connected."""
        d = lib.tbDefaultFixedJointDef()
        d.bodyIdA, d.bodyIdB = body_a._id, body_b._id
        _fill(d, dict(anchor=anchor, **options), "create_fixed_joint")
        return self._create_joint(lib.tbCreateFixedJoint, d)

    def create_distance_joint(
        self, body_a: "Body", body_b: "Body", anchor_a: Vector, anchor_b: Vector, **options: Any
    ) -> "Joint":
        """``tbCreateDistanceJoint``: the anchors (world, at creation) keep a distance. Options:
        length, enable_limit, min_length, max_length, enable_spring, hertz, damping_ratio,
        collide_connected."""
        d = lib.tbDefaultDistanceJointDef()
        d.bodyIdA, d.bodyIdB = body_a._id, body_b._id
        _fill(d, dict(anchor_a=anchor_a, anchor_b=anchor_b, **options), "create_distance_joint")
        return self._create_joint(lib.tbCreateDistanceJoint, d)

    def create_wheel_joint(
        self, body_a: "Body", body_b: "Body", anchor: Vector, suspension_axis: Vector = (0, 1, 0),
        spin_axis: Vector = (0, 0, 1), **options: Any
    ) -> "Joint":
        """``tbCreateWheelJoint``: ``body_b`` (the wheel) spins about ``spin_axis`` and rides on a
        spring along ``suspension_axis`` of ``body_a`` (the chassis). Options: enable_spring,
        hertz, damping_ratio, enable_limit, lower_translation, upper_translation, enable_motor,
        motor_speed, max_motor_torque, steering_angle, collide_connected, force_threshold,
        torque_threshold."""
        d = lib.tbDefaultWheelJointDef()
        d.bodyIdA, d.bodyIdB = body_a._id, body_b._id
        _fill(d, dict(anchor=anchor, suspension_axis=suspension_axis, spin_axis=spin_axis, **options), "create_wheel_joint")
        return self._create_joint(lib.tbCreateWheelJoint, d)

    def get_joint_events(self) -> list[JointEvent]:
        """``tbWorld_GetJointEvents``: the joints over their thresholds in the last step."""
        e = checked(lib.tbWorld_GetJointEvents, self._id)
        return [JointEvent(self._joint(e.events[i].jointId), float(e.events[i].force), float(e.events[i].torque)) for i in range(e.count)]

    # -- events and contacts
    def get_contact_events(self) -> ContactEvents:
        """``tbWorld_GetContactEvents`` of the last step."""
        e = checked(lib.tbWorld_GetContactEvents, self._id)
        begin = [
            ContactBeginTouch(self._shape(x.shapeIdA), self._shape(x.shapeIdB), Manifold._from(x.manifold))
            for x in (e.beginEvents[i] for i in range(e.beginCount))
        ]
        end = [ContactEndTouch(self._shape(x.shapeIdA), self._shape(x.shapeIdB)) for x in (e.endEvents[i] for i in range(e.endCount))]
        hits = [
            ContactHit(self._shape(x.shapeIdA), self._shape(x.shapeIdB), to_array(x.point), to_array(x.normal), float(x.approachSpeed))
            for x in (e.hitEvents[i] for i in range(e.hitCount))
        ]
        return ContactEvents(begin, end, hits)

    def get_sensor_events(self) -> SensorEvents:
        """``tbWorld_GetSensorEvents`` of the last step."""
        e = checked(lib.tbWorld_GetSensorEvents, self._id)
        pair = lambda x: (self._shape(x.sensorShapeId), self._shape(x.visitorShapeId))  # noqa: E731
        return SensorEvents([pair(e.beginEvents[i]) for i in range(e.beginCount)], [pair(e.endEvents[i]) for i in range(e.endCount)])

    def get_body_events(self) -> list[BodyMove]:
        """``tbWorld_GetBodyEvents``: the bodies the last step moved."""
        e = checked(lib.tbWorld_GetBodyEvents, self._id)
        out = []
        for i in range(e.moveCount):
            m = e.moveEvents[i]
            out.append(BodyMove(self._body(m.bodyId), to_array(m.transform.p), to_array(m.transform.q), bool(m.fellAsleep)))
        return out

    def _contact_data(self, fn: Any, handle: Any, count: int) -> list[ContactData]:
        buf = (N.ContactData * max(count, 1))()
        n = checked(fn, handle, buf, count)
        out = []
        for i in range(n):
            c = buf[i]
            m = Manifold._from(c.manifold)
            k = int(c.manifold.pointCount)
            out.append(
                ContactData(
                    self._shape(c.shapeIdA),
                    self._shape(c.shapeIdB),
                    m,
                    np.array(c.normalImpulses[:k], dtype=float),
                    np.array([to_array(c.frictionImpulses[j]) for j in range(k)]).reshape(k, 3),
                    np.array(c.normalForces[:k], dtype=float),
                    np.array([to_array(c.frictionForces[j]) for j in range(k)]).reshape(k, 3),
                )
            )
        return out

    def get_contact_data(self) -> list[ContactData]:
        """``tbWorld_GetContactData``: every touching pair."""
        return self._contact_data(lib.tbWorld_GetContactData, self._id, self.get_counters()["touching_count"])

    # -- queries
    def cast_ray_closest(
        self, origin: Vector, translation: Vector, category_bits: int | None = None, mask_bits: int | None = None
    ) -> RayHit | None:
        """``tbWorld_CastRayClosest``: the closest shape the segment origin -> origin +
        translation hits, or None."""
        r = checked(lib.tbWorld_CastRayClosest, self._id, vec3(origin), vec3(translation), _filter(category_bits, mask_bits))
        if not r.hit:
            return None
        return RayHit(self._shape(r.shapeId), to_array(r.point), to_array(r.normal), float(r.fraction))

    def _collect_hits(self) -> tuple[list[RayHit], Any]:
        hits: list[RayHit] = []

        def fcn(sid: N.ShapeId, p: N.Vec3, n: N.Vec3, fraction: float, ctx: int) -> float:
            hits.append(RayHit(self._shape(N.ShapeId(sid.index1, sid.world0, sid.reserved, sid.worldGeneration, sid.generation)), to_array(p), to_array(n), float(fraction)))
            return 1.0

        return hits, N.CastResultFcn(fcn)

    def cast_ray(self, origin: Vector, translation: Vector, category_bits: int | None = None, mask_bits: int | None = None) -> list[RayHit]:
        """``tbWorld_CastRay``: every shape the segment hits, sorted by fraction."""
        hits, cb = self._collect_hits()
        checked(lib.tbWorld_CastRay, self._id, vec3(origin), vec3(translation), _filter(category_bits, mask_bits), cb, None)
        return sorted(hits, key=lambda h: h.fraction)

    def cast_shape(
        self, shape: Geometry, position: Vector, rotation: Quaternion, translation: Vector, category_bits: int | None = None, mask_bits: int | None = None
    ) -> list[RayHit]:
        """``tbWorld_CastShape``: every shape hit by ``shape`` moved along ``translation``,
        sorted by fraction."""
        hits, cb = self._collect_hits()
        checked(
            lib.tbWorld_CastShape, self._id, ctypes.byref(shape._c), transform(position, rotation), vec3(translation), _filter(category_bits, mask_bits), cb, None
        )
        return sorted(hits, key=lambda h: h.fraction)

    def cast_shape_closest(
        self, shape: Geometry, position: Vector, rotation: Quaternion, translation: Vector, category_bits: int | None = None, mask_bits: int | None = None
    ) -> RayHit | None:
        """``tbWorld_CastShapeClosest``: the first shape hit, or None."""
        r = checked(lib.tbWorld_CastShapeClosest, self._id, ctypes.byref(shape._c), transform(position, rotation), vec3(translation), _filter(category_bits, mask_bits))
        if not r.hit:
            return None
        return RayHit(self._shape(r.shapeId), to_array(r.point), to_array(r.normal), float(r.fraction))

    def _collect_shapes(self) -> tuple[list["Shape"], Any]:
        found: list[Shape] = []

        def fcn(sid: N.ShapeId, ctx: int) -> bool:
            found.append(self._shape(N.ShapeId(sid.index1, sid.world0, sid.reserved, sid.worldGeneration, sid.generation)))
            return True

        return found, N.OverlapResultFcn(fcn)

    def overlap_aabb(self, lower: Vector, upper: Vector, category_bits: int | None = None, mask_bits: int | None = None) -> list["Shape"]:
        """``tbWorld_OverlapAABB``: every shape whose fattened broad-phase box overlaps the box."""
        found, cb = self._collect_shapes()
        checked(lib.tbWorld_OverlapAABB, self._id, N.AABB(vec3(lower), vec3(upper)), _filter(category_bits, mask_bits), cb, None)
        return found

    def overlap_shape(
        self, shape: Geometry, position: Vector, rotation: Quaternion = IDENTITY, category_bits: int | None = None, mask_bits: int | None = None
    ) -> list["Shape"]:
        """``tbWorld_OverlapShape``: every shape overlapping ``shape`` at the pose (GJK)."""
        found, cb = self._collect_shapes()
        checked(lib.tbWorld_OverlapShape, self._id, ctypes.byref(shape._c), transform(position, rotation), _filter(category_bits, mask_bits), cb, None)
        return found

    def __repr__(self) -> str:
        if not self.is_valid():
            return "<tumble.World destroyed>"
        c = self.get_counters()
        return f"<tumble.World bodies={c['body_count']} shapes={c['shape_count']} joints={c['joint_count']}>"


class Body:
    """A body handle (``tbBodyId``). Made by ``World.create_body``; a call on a destroyed body
    raises TumbleError with the engine's "stale or null body id" message."""

    def __init__(self, world: World, bid: N.BodyId):
        self.world = world
        self._id = bid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Body) and self._id.key() == other._id.key()

    def __hash__(self) -> int:
        return hash(self._id.key())

    def __repr__(self) -> str:
        return f"<tumble.Body {self._id.index1}>"

    def destroy(self) -> None:
        """``tbDestroyBody``: destroy the body, its shapes and joints."""
        checked(lib.tbDestroyBody, self._id)

    def is_valid(self) -> bool:
        """``tbBody_IsValid``."""
        return bool(lib.tbBody_IsValid(self._id))

    def create_shape(
        self,
        geometry: Geometry,
        density: float | None = None,
        friction: float | None = None,
        restitution: float | None = None,
        local_position: Vector = (0.0, 0.0, 0.0),
        local_rotation: Quaternion = IDENTITY,
        **options: Any,
    ) -> "Shape":
        """``tbCreateShape``: attach ``geometry`` (copied). Options are the fields of
        ``tbShapeDef`` in snake_case (is_sensor, enable_hit_events, filter=(category, mask));
        unset ones keep tbDefaultShapeDef's values (density 1000, friction 0.6, restitution 0)."""
        d = lib.tbDefaultShapeDef()
        given = {k: v for k, v in dict(density=density, friction=friction, restitution=restitution).items() if v is not None}
        _fill(d, dict(given, **options), "create_shape")
        d.localPose = transform(local_position, local_rotation)
        sid = checked(lib.tbCreateShape, self._id, ctypes.byref(d), ctypes.byref(geometry._c))
        if geometry._owner is not None:
            self.world._keep.append(geometry._owner)
        return self.world._shape(sid)

    @property
    def type(self) -> BodyType:
        """``tbBody_GetType``."""
        return BodyType(checked(lib.tbBody_GetType, self._id))

    @property
    def position(self) -> np.ndarray:
        """``tbBody_GetPosition``: the body origin, m (set it with ``set_transform``)."""
        return to_array(checked(lib.tbBody_GetPosition, self._id))

    @property
    def rotation(self) -> np.ndarray:
        """``tbBody_GetRotation``: unit quaternion x, y, z, w."""
        return to_array(checked(lib.tbBody_GetRotation, self._id))

    def get_transform(self) -> tuple[np.ndarray, np.ndarray]:
        """``tbBody_GetTransform``: (position, rotation)."""
        t = checked(lib.tbBody_GetTransform, self._id)
        return to_array(t.p), to_array(t.q)

    def set_transform(self, position: Vector, rotation: Quaternion = IDENTITY) -> None:
        """``tbBody_SetTransform``: teleport the body (NaN or a zero quaternion is refused)."""
        checked(lib.tbBody_SetTransform, self._id, vec3(position), quat(rotation))

    @property
    def world_center_of_mass(self) -> np.ndarray:
        """``tbBody_GetWorldCenterOfMass``, m."""
        return to_array(checked(lib.tbBody_GetWorldCenterOfMass, self._id))

    @property
    def linear_velocity(self) -> np.ndarray:
        """``tbBody_GetLinearVelocity`` / ``tbBody_SetLinearVelocity``, m/s."""
        return to_array(checked(lib.tbBody_GetLinearVelocity, self._id))

    @linear_velocity.setter
    def linear_velocity(self, v: Vector) -> None:
        checked(lib.tbBody_SetLinearVelocity, self._id, vec3(v))

    @property
    def angular_velocity(self) -> np.ndarray:
        """``tbBody_GetAngularVelocity`` / ``tbBody_SetAngularVelocity``, world, rad/s."""
        return to_array(checked(lib.tbBody_GetAngularVelocity, self._id))

    @angular_velocity.setter
    def angular_velocity(self, w: Vector) -> None:
        checked(lib.tbBody_SetAngularVelocity, self._id, vec3(w))

    @property
    def angular_momentum(self) -> np.ndarray:
        """``tbBody_GetAngularMomentum``: L about the centre of mass, world, kg m^2/s."""
        return to_array(checked(lib.tbBody_GetAngularMomentum, self._id))

    @property
    def kinetic_energy(self) -> float:
        """``tbBody_GetKineticEnergy``, J."""
        return float(checked(lib.tbBody_GetKineticEnergy, self._id))

    @property
    def mass(self) -> float:
        """``tbBody_GetMass``, kg (0 for static and kinematic bodies)."""
        return float(checked(lib.tbBody_GetMass, self._id))

    def apply_force(self, force: Vector, point: Vector, wake: bool = True) -> None:
        """``tbBody_ApplyForce``: force (N) at a world point, for the next step."""
        checked(lib.tbBody_ApplyForce, self._id, vec3(force), vec3(point), bool(wake))

    def apply_force_to_center(self, force: Vector, wake: bool = True) -> None:
        """``tbBody_ApplyForceToCenter``, N."""
        checked(lib.tbBody_ApplyForceToCenter, self._id, vec3(force), bool(wake))

    def apply_torque(self, torque: Vector, wake: bool = True) -> None:
        """``tbBody_ApplyTorque``, world, N m."""
        checked(lib.tbBody_ApplyTorque, self._id, vec3(torque), bool(wake))

    def apply_linear_impulse(self, impulse: Vector, point: Vector, wake: bool = True) -> None:
        """``tbBody_ApplyLinearImpulse``: impulse (N s) at a world point, at once."""
        checked(lib.tbBody_ApplyLinearImpulse, self._id, vec3(impulse), vec3(point), bool(wake))

    def apply_angular_impulse(self, impulse: Vector, wake: bool = True) -> None:
        """``tbBody_ApplyAngularImpulse``, world, N m s."""
        checked(lib.tbBody_ApplyAngularImpulse, self._id, vec3(impulse), bool(wake))

    def _float_property(name: str, doc: str) -> property:  # type: ignore[misc]
        get = getattr(lib, "tbBody_Get" + name)
        set_ = getattr(lib, "tbBody_Set" + name)

        def fget(self: "Body") -> float:
            return float(checked(get, self._id))

        def fset(self: "Body", value: float) -> None:
            checked(set_, self._id, float(value))

        return property(fget, fset, doc=f"``tbBody_Get{name}`` / ``tbBody_Set{name}``: {doc}")

    linear_damping = _float_property("LinearDamping", "c of dP/dt = F - c P, 1/s")
    angular_damping = _float_property("AngularDamping", "c of dL/dt = tau - c L, 1/s")
    gravity_scale = _float_property("GravityScale", "the body feels scale times the gravity")
    del _float_property

    @property
    def awake(self) -> bool:
        """``tbBody_IsAwake`` / ``tbBody_SetAwake``."""
        return bool(checked(lib.tbBody_IsAwake, self._id))

    @awake.setter
    def awake(self, flag: bool) -> None:
        checked(lib.tbBody_SetAwake, self._id, bool(flag))

    @property
    def bullet(self) -> bool:
        """``tbBody_IsBullet`` / ``tbBody_SetBullet``."""
        return bool(checked(lib.tbBody_IsBullet, self._id))

    @bullet.setter
    def bullet(self, flag: bool) -> None:
        checked(lib.tbBody_SetBullet, self._id, bool(flag))

    def enable_sleep(self, flag: bool) -> None:
        """``tbBody_EnableSleep``."""
        checked(lib.tbBody_EnableSleep, self._id, bool(flag))

    @property
    def sleep_threshold(self) -> float:
        """``tbBody_GetSleepThreshold``: resting below this speed, m/s."""
        return float(checked(lib.tbBody_GetSleepThreshold, self._id))

    @sleep_threshold.setter
    def sleep_threshold(self, speed: float) -> None:
        checked(lib.tbBody_SetSleepThreshold, self._id, float(speed))

    @property
    def shapes(self) -> list["Shape"]:
        """``tbBody_GetShapes``."""
        n = checked(lib.tbBody_GetShapeCount, self._id)
        buf = (N.ShapeId * max(n, 1))()
        n = checked(lib.tbBody_GetShapes, self._id, buf, n)
        return [self.world._shape(buf[i]) for i in range(n)]

    def get_contact_data(self) -> list[ContactData]:
        """``tbBody_GetContactData``: the body's touching pairs."""
        return self.world._contact_data(lib.tbBody_GetContactData, self._id, 64)


class Shape:
    """A shape handle (``tbShapeId``), made by ``Body.create_shape``."""

    def __init__(self, world: World, sid: N.ShapeId):
        self.world = world
        self._id = sid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and self._id.key() == other._id.key()

    def __hash__(self) -> int:
        return hash(self._id.key())

    def __repr__(self) -> str:
        return f"<tumble.Shape {self._id.index1}>"

    def destroy(self) -> None:
        """``tbDestroyShape``."""
        checked(lib.tbDestroyShape, self._id)

    def is_valid(self) -> bool:
        """``tbShape_IsValid``."""
        return bool(lib.tbShape_IsValid(self._id))

    @property
    def body(self) -> Body:
        """``tbShape_GetBody``."""
        return self.world._body(checked(lib.tbShape_GetBody, self._id))

    @property
    def geometry(self) -> Geometry:
        """``tbShape_GetGeometry``: a copy of the shape's geometry."""
        g = checked(lib.tbShape_GetGeometry, self._id)
        return Geometry._wrap(g)

    def get_world_transform(self) -> tuple[np.ndarray, np.ndarray]:
        """``tbShape_GetWorldTransform``: (position, rotation)."""
        t = checked(lib.tbShape_GetWorldTransform, self._id)
        return to_array(t.p), to_array(t.q)

    def get_aabb(self) -> tuple[np.ndarray, np.ndarray]:
        """``tbShape_GetAABB``: (lower, upper), world, m."""
        b = checked(lib.tbShape_GetAABB, self._id)
        return to_array(b.lower), to_array(b.upper)

    @property
    def friction(self) -> float:
        """``tbShape_GetFriction`` / ``tbShape_SetFriction``."""
        return float(checked(lib.tbShape_GetFriction, self._id))

    @friction.setter
    def friction(self, value: float) -> None:
        checked(lib.tbShape_SetFriction, self._id, float(value))

    @property
    def restitution(self) -> float:
        """``tbShape_GetRestitution`` / ``tbShape_SetRestitution``."""
        return float(checked(lib.tbShape_GetRestitution, self._id))

    @restitution.setter
    def restitution(self, value: float) -> None:
        checked(lib.tbShape_SetRestitution, self._id, float(value))

    @property
    def filter(self) -> tuple[int, int, int]:
        """``tbShape_GetFilter`` / ``tbShape_SetFilter``: (category_bits, mask_bits, group_index);
        the group index may be left out when setting (0)."""
        f = checked(lib.tbShape_GetFilter, self._id)
        return int(f.categoryBits), int(f.maskBits), int(f.groupIndex)

    @filter.setter
    def filter(self, value: tuple[int, ...]) -> None:
        checked(lib.tbShape_SetFilter, self._id, N.Filter(*value))

    def is_sensor(self) -> bool:
        """``tbShape_IsSensor``."""
        return bool(checked(lib.tbShape_IsSensor, self._id))

    def enable_hit_events(self, flag: bool) -> None:
        """``tbShape_EnableHitEvents``."""
        checked(lib.tbShape_EnableHitEvents, self._id, bool(flag))

    def are_hit_events_enabled(self) -> bool:
        """``tbShape_AreHitEventsEnabled``."""
        return bool(checked(lib.tbShape_AreHitEventsEnabled, self._id))

    def ray_cast(self, origin: Vector, translation: Vector) -> CastOutput:
        """``tbShape_RayCast``: a ray against this shape alone."""
        r = checked(lib.tbShape_RayCast, self._id, vec3(origin), vec3(translation))
        return CastOutput(bool(r.hit), to_array(r.point), to_array(r.normal), float(r.fraction), int(r.iterations))


class Joint:
    """A joint handle (``tbJointId``), made by ``World.create_*_joint``."""

    def __init__(self, world: World, jid: N.JointId):
        self.world = world
        self._id = jid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Joint) and self._id.key() == other._id.key()

    def __hash__(self) -> int:
        return hash(self._id.key())

    def __repr__(self) -> str:
        return f"<tumble.Joint {self._id.index1}>"

    def destroy(self) -> None:
        """``tbDestroyJoint``."""
        checked(lib.tbDestroyJoint, self._id)

    def is_valid(self) -> bool:
        """``tbJoint_IsValid``."""
        return bool(lib.tbJoint_IsValid(self._id))

    @property
    def type(self) -> JointType:
        """``tbJoint_GetType``."""
        return JointType(checked(lib.tbJoint_GetType, self._id))

    @property
    def body_a(self) -> Body:
        """``tbJoint_GetBodyA``."""
        return self.world._body(checked(lib.tbJoint_GetBodyA, self._id))

    @property
    def body_b(self) -> Body:
        """``tbJoint_GetBodyB``."""
        return self.world._body(checked(lib.tbJoint_GetBodyB, self._id))

    @property
    def angle(self) -> float:
        """``tbJoint_GetAngle``: hinge angle from the creation pose, rad."""
        return float(checked(lib.tbJoint_GetAngle, self._id))

    @property
    def translation(self) -> float:
        """``tbJoint_GetTranslation``: slider translation from the creation pose, m."""
        return float(checked(lib.tbJoint_GetTranslation, self._id))

    @property
    def length(self) -> float:
        """``tbJoint_GetLength``: distance joint's anchor distance, m."""
        return float(checked(lib.tbJoint_GetLength, self._id))

    @property
    def speed(self) -> float:
        """``tbJoint_GetSpeed``: rad/s (hinge) or m/s (slider, distance)."""
        return float(checked(lib.tbJoint_GetSpeed, self._id))

    @property
    def reaction_force(self) -> np.ndarray:
        """``tbJoint_GetReactionForce``: on body B in the last substep, N."""
        return to_array(checked(lib.tbJoint_GetReactionForce, self._id))

    @property
    def reaction_torque(self) -> np.ndarray:
        """``tbJoint_GetReactionTorque``: on body B about the anchor, N m."""
        return to_array(checked(lib.tbJoint_GetReactionTorque, self._id))

    @property
    def motor_force(self) -> float:
        """``tbJoint_GetMotorForce``: N m (hinge) or N (slider)."""
        return float(checked(lib.tbJoint_GetMotorForce, self._id))

    def enable_limit(self, flag: bool) -> None:
        """``tbJoint_EnableLimit``."""
        checked(lib.tbJoint_EnableLimit, self._id, bool(flag))

    def set_limits(self, lower: float, upper: float) -> None:
        """``tbJoint_SetLimits``: rad (hinge), m (slider, distance)."""
        checked(lib.tbJoint_SetLimits, self._id, float(lower), float(upper))

    def enable_motor(self, flag: bool) -> None:
        """``tbJoint_EnableMotor``."""
        checked(lib.tbJoint_EnableMotor, self._id, bool(flag))

    def set_motor_speed(self, speed: float) -> None:
        """``tbJoint_SetMotorSpeed``: rad/s or m/s."""
        checked(lib.tbJoint_SetMotorSpeed, self._id, float(speed))

    def set_max_motor_force(self, force: float) -> None:
        """``tbJoint_SetMaxMotorForce``: N m or N."""
        checked(lib.tbJoint_SetMaxMotorForce, self._id, float(force))

    def enable_spring(self, flag: bool) -> None:
        """``tbJoint_EnableSpring``."""
        checked(lib.tbJoint_EnableSpring, self._id, bool(flag))

    def set_spring(self, hertz: float, damping_ratio: float) -> None:
        """``tbJoint_SetSpring``."""
        checked(lib.tbJoint_SetSpring, self._id, float(hertz), float(damping_ratio))

    def set_force_threshold(self, threshold: float) -> None:
        """``tbJoint_SetForceThreshold``: N (a joint event above it)."""
        checked(lib.tbJoint_SetForceThreshold, self._id, float(threshold))

    def set_torque_threshold(self, threshold: float) -> None:
        """``tbJoint_SetTorqueThreshold``: N m."""
        checked(lib.tbJoint_SetTorqueThreshold, self._id, float(threshold))

    def set_cone(self, enable: bool, cone_angle1: float, cone_angle2: float) -> None:
        """``tbBallJoint_SetCone``: rad, in (0, pi]."""
        checked(lib.tbBallJoint_SetCone, self._id, bool(enable), float(cone_angle1), float(cone_angle2))

    def set_motor_velocity(self, velocity: Vector) -> None:
        """``tbBallJoint_SetMotorVelocity``: rad/s, A's body axes."""
        checked(lib.tbBallJoint_SetMotorVelocity, self._id, vec3(velocity))

    def set_target(self, rotation: Any, motor_to_target: bool) -> None:
        """``tbBallJoint_SetTarget``: the target frame (a quaternion x, y, z, w in A's axes)."""
        checked(lib.tbBallJoint_SetTarget, self._id, quat(rotation), bool(motor_to_target))

    def set_max_friction_torque(self, torque: float) -> None:
        """``tbBallJoint_SetMaxFrictionTorque``: N m."""
        checked(lib.tbBallJoint_SetMaxFrictionTorque, self._id, float(torque))

    @property
    def swing_angle(self) -> float:
        """``tbBallJoint_GetSwingAngle``: rad."""
        return float(checked(lib.tbBallJoint_GetSwingAngle, self._id))

    @property
    def twist_angle(self) -> float:
        """``tbBallJoint_GetTwistAngle``: rad."""
        return float(checked(lib.tbBallJoint_GetTwistAngle, self._id))

    @property
    def steering(self) -> float:
        """``tbWheelJoint_GetSteering``: rad; set it to steer (``tbWheelJoint_SetSteering``)."""
        return float(checked(lib.tbWheelJoint_GetSteering, self._id))

    @steering.setter
    def steering(self, angle: float) -> None:
        checked(lib.tbWheelJoint_SetSteering, self._id, float(angle))

