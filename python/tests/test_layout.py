"""The ctypes mirrors of the public structs have the C compiler's sizes and field offsets (a
header change that forgets python/tumble/_native.py fails here). Needs a C compiler and the
headers (TUMBLE_INCLUDE_DIRS, or the checkout's include folders and build/); skipped without."""

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tumble import _native as N

ROOT = Path(__file__).resolve().parents[2]

# ctypes class -> C type name
STRUCTS = {
    N.Vec3: "vec3s", N.Quat: "versors", N.Mat3: "mat3s", N.Transform: "tbTransform", N.AABB: "tbAABB",
    N.WorldId: "tbWorldId", N.BodyId: "tbBodyId", N.ShapeId: "tbShapeId", N.JointId: "tbJointId",
    N.Geometry: "tbGeometry", N.WorldDef: "tbWorldDef", N.BodyDef: "tbBodyDef", N.Filter: "tbFilter", N.QueryFilter: "tbQueryFilter",
    N.ShapeDef: "tbShapeDef", N.ManifoldPoint: "tbManifoldPoint", N.Manifold: "tbManifold",
    N.ContactData: "tbContactData", N.ContactBeginTouchEvent: "tbContactBeginTouchEvent",
    N.ContactEndTouchEvent: "tbContactEndTouchEvent", N.ContactHitEvent: "tbContactHitEvent",
    N.ContactEvents: "tbContactEvents", N.SensorEvent: "tbSensorBeginTouchEvent",
    N.SensorEvents: "tbSensorEvents", N.BodyMoveEvent: "tbBodyMoveEvent", N.BodyEvents: "tbBodyEvents",
    N.RayResult: "tbRayResult", N.CastOutput: "tbCastOutput", N.QueryDef: "tbQueryDef",
    N.QueryResult: "tbQueryResult", N.WorldCounters: "tbWorldCounters", N.Profile: "tbProfile",
    N.BodySnapshot: "tbBodySnapshot", N.MassData: "tbMassData", N.Hull: "tbHull", N.Mesh: "tbMesh",
    N.Heightfield: "tbHeightfield", N.BallJointDef: "tbBallJointDef", N.FixedJointDef: "tbFixedJointDef",
    N.HingeJointDef: "tbHingeJointDef", N.SliderJointDef: "tbSliderJointDef",
    N.DistanceJointDef: "tbDistanceJointDef", N.JointEvent: "tbJointEvent", N.WheelJointDef: "tbWheelJointDef",
    N.JointEvents: "tbJointEvents", N.SceneError: "tbSceneError", N.SceneBody: "tbSceneBody",
    N.SceneJoint: "tbSceneJoint", N.SceneDef: "tbSceneDef", N.Scene: "tbScene", N.Version: "tbVersion",
}
RENAMED = {"def_": "def", "f": "radius", "m": "raw"}  # Python field -> C member


def include_dirs():
    env = os.environ.get("TUMBLE_INCLUDE_DIRS")
    if env:
        return env.split(os.pathsep)
    return [str(ROOT / d / "include") for d in ("collision", "dynamics", "engine", "scene")] + [str(ROOT / "build" / "collision" / "include")]


def test_struct_layouts_match_the_headers(tmp_path):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to check the struct layouts")
    dirs = include_dirs()
    if not any((Path(d) / "tumble" / "version.h").exists() for d in dirs):
        pytest.skip("tumble/version.h not found (set TUMBLE_INCLUDE_DIRS to the build's include folders)")
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <tumble/tumble.h>", "int main(void) {"]
    expected = []
    for cls, cname in STRUCTS.items():
        lines.append(f'printf("%zu\\n", sizeof({cname}));')
        expected.append((f"sizeof {cname}", ctypes.sizeof(cls)))
        for name, _ in cls._fields_:
            if name.startswith("_"):
                continue
            member = RENAMED.get(name, name)
            lines.append(f'printf("%zu\\n", offsetof({cname}, {member}));')
            expected.append((f"{cname}.{member}", getattr(cls, name).offset))
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "layout"
    built = subprocess.run([cc, "-std=c11", *[f"-I{d}" for d in dirs], str(src), "-o", str(exe)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    mismatches = [f"{what}: C {c}, ctypes {py}" for (what, py), c in zip(expected, map(int, got)) if py != c]
    assert len(got) == len(expected)
    assert not mismatches, "\n".join(mismatches)
