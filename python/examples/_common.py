"""Shared by the examples: import tumble from this checkout when it is not installed, Matplotlib
without a display, and where the PNGs go (the first argument, else the working directory)."""

import os
import sys

import matplotlib

matplotlib.use("Agg")

try:
    import tumble  # noqa: F401
except ImportError:  # run from a checkout: python/ is the package's folder
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def out_path(name: str, out_dir: str | None = None) -> str:
    """Where to write the figure ``name``."""
    d = out_dir or (sys.argv[1] if len(sys.argv) > 1 else ".")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, name)
