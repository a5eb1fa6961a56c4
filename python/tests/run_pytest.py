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


class TapLines:
    """After pytest's own report, a TAP line for each test that ran, `ok N - node id` or
    `not ok N - node id` (the test command counts them: scripts/test.sh); a skipped test gets a
    comment line, counted neither way."""

    def __init__(self):
        self.outcomes = {}  # node id -> "passed", "failed" or "skipped", in the order they ran

    def pytest_runtest_logreport(self, report):
        before = self.outcomes.get(report.nodeid, "passed")
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif report.skipped and before != "failed":
            self.outcomes[report.nodeid] = "skipped"
        else:
            self.outcomes.setdefault(report.nodeid, "passed")

    def print(self):
        number = 0
        for node, outcome in self.outcomes.items():
            if outcome == "skipped":
                print(f"# skipped: {node}")
                continue
            number += 1
            print(f"{'ok' if outcome == 'passed' else 'not ok'} {number} - {node}")


tap = TapLines()
status = pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]], plugins=[tap])
tap.print()
sys.exit(status)
