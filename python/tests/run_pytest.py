"""Run the Python test suite with pytest; exit 77 (meson's "skipped") with a message when NumPy or
pytest is missing. usage: run_pytest.py TESTS_DIR [pytest args]"""

import sys

missing = []
for module in ("numpy", "pytest"):
    try:
        __import__(module)
    except ImportError:
        missing.append(module)
if missing:
    print(
        f"SKIP: the Python tests need {' and '.join(missing)} for {sys.executable} "
        "(Debian: apt-get install python3-numpy python3-pytest; scripts/setup.sh installs them)"
    )
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
