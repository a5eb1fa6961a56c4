"""Scene files (docs/scene-format.md): tbFindScene, tbLoadScene, tbDestroyScene."""

from __future__ import annotations

import ctypes
import os

from . import _native as N
from ._native import lib
from .errors import TumbleError
from .world import Body, Joint, World


def find_scene(name_or_path: str) -> str:
    """``tbFindScene``: an existing file as is, else a bundled scene by name ("pyramid")."""
    buf = ctypes.create_string_buffer(4096)
    if not lib.tbFindScene(os.fsencode(name_or_path), buf, len(buf)):
        raise TumbleError(f"tbFindScene: no scene file or bundled scene named {name_or_path!r}")
    return buf.value.decode()


class Scene:
    """A scene file built into a world (``tbLoadScene``). ``world`` is an ordinary World (owned by
    the scene: ``close`` destroys it); ``bodies`` and ``joints`` are in file order, by name in
    ``body`` and ``joint``. Use as a context manager, or call ``close``."""

    def __init__(self, name_or_path: str):
        path = find_scene(name_or_path)
        self._c = N.Scene()
        err = N.SceneError()
        if not lib.tbLoadScene(os.fsencode(path), ctypes.byref(self._c), ctypes.byref(err)):
            raise TumbleError(err.message.decode(errors="replace"))
        d = self._c.def_
        self.path = path
        self.description: str = d.description.decode(errors="replace")
        self.time_step: float = float(d.dt)
        self.substeps: int = int(d.substeps)
        self.steps: int = int(d.steps)
        self.world = World._wrap(self._c.worldId, owner=self)
        self.body_names: list[str] = [d.bodies[i].name.decode() for i in range(d.bodyCount)]
        self.bodies: list[Body] = [self.world._body(self._c.bodyIds[i]) for i in range(d.bodyCount)]
        self.joint_names: list[str] = [d.joints[i].name.decode() for i in range(d.jointCount)]
        self.joints: list[Joint] = [self.world._joint(self._c.jointIds[i]) for i in range(d.jointCount)]

    def body(self, name: str) -> Body:
        """The body named ``name`` in the file (or the generated name, "body3")."""
        try:
            return self.bodies[self.body_names.index(name)]
        except ValueError:
            raise KeyError(f"no body named {name!r} in {self.path}") from None

    def joint(self, name: str) -> Joint:
        """The joint named ``name`` in the file."""
        try:
            return self.joints[self.joint_names.index(name)]
        except ValueError:
            raise KeyError(f"no joint named {name!r} in {self.path}") from None

    def run(self, steps: int | None = None) -> None:
        """Step the world ``steps`` times (the file's "steps" by default) at the file's time step
        and substeps, as ``tumble run`` does."""
        n = self.steps if steps is None else int(steps)
        for _ in range(n):
            self.world.step(self.time_step, self.substeps)

    def record(self, steps: int | None = None) -> dict:
        """``World.record`` at the file's time step and substeps."""
        n = self.steps if steps is None else int(steps)
        return self.world.record(n, self.time_step, self.substeps)

    def close(self) -> None:
        """``tbDestroyScene``: destroy the world and free the scene."""
        lib.tbDestroyScene(ctypes.byref(self._c))

    def __enter__(self) -> "Scene":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            lib.tbDestroyScene(ctypes.byref(self._c))
        except Exception:
            pass


def load_scene(name_or_path: str) -> Scene:
    """``tbLoadScene``: read, check and build a scene file (or a bundled scene by name)."""
    return Scene(name_or_path)
