"""The exception the package raises, carrying the engine's own message (tbGetLastError)."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from . import _native
from ._native import lib

T = TypeVar("T")


class TumbleError(ValueError):
    """Tumble refused an input or a handle. ``str(error)`` is the engine's message, e.g.
    ``tbWorld_Step: timeStep must be finite and > 0, got -0.016``."""


def last_error() -> str:
    """``tbGetLastError``: the engine's last error message, or ``""``."""
    msg = lib.tbGetLastError()
    return msg.decode("utf-8", errors="replace") if msg else ""


def clear_last_error() -> None:
    """``tbClearLastError``: forget the last error."""
    lib.tbClearLastError()


def checked(fn: Callable[..., T], *args: Any) -> T:
    """Call a library function and raise TumbleError with the engine's message if it set one."""
    lib.tbClearLastError()
    _native.last_assert.clear()
    result = fn(*args)
    msg = lib.tbGetLastError()
    if msg:
        raise TumbleError(msg.decode("utf-8", errors="replace"))
    if _native.last_assert:
        raise TumbleError("Tumble assertion failed: " + _native.last_assert[-1])
    return result
