"""Execute the course notebook top to bottom: with Debian's jupyter-nbconvert when it and a Python
kernel are installed, else by running its code cells in order in this interpreter. Its PNGs go
to OUT_DIR. Exit 77 (skipped) when NumPy or Matplotlib is missing.
usage: run_notebook.py NOTEBOOK OUT_DIR"""

import json
import os
import shutil
import subprocess
import sys

notebook, out_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
for module in ("numpy", "matplotlib"):
    try:
        __import__(module)
    except ImportError:
        print(f"SKIP: the notebook needs {module} for {sys.executable} (apt-get install python3-{module})")
        sys.exit(77)
os.makedirs(out_dir, exist_ok=True)
os.environ["TUMBLE_NOTEBOOK_OUT"] = out_dir
# The package of this checkout for the kernel too (the meson test sets PYTHONPATH already).
os.environ.setdefault("PYTHONPATH", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # a debugger warning of the kernel
nbconvert = shutil.which("jupyter-nbconvert")
try:
    import ipykernel  # noqa: F401

    have_kernel = True
except ImportError:
    have_kernel = False
if nbconvert and have_kernel:
    print(f"executing {notebook} with {nbconvert}")
    done = subprocess.run(
        [nbconvert, "--to", "notebook", "--execute", "--output-dir", out_dir, "--ExecutePreprocessor.timeout=60", notebook]
    )
    # One TAP line for the whole notebook (the test command counts it: scripts/test.sh).
    print(f"{'ok' if done.returncode == 0 else 'not ok'} 1 - {os.path.basename(notebook)} ran with nbconvert")
    sys.exit(done.returncode)

print(f"jupyter-nbconvert or ipykernel missing: running the code cells of {notebook} with {sys.executable}")
os.chdir(os.path.dirname(notebook))
scope: dict = {"__name__": "__main__"}
with open(notebook) as f:
    cells = json.load(f)["cells"]
for i, cell in enumerate(cells):
    if cell["cell_type"] == "code":
        exec(compile("".join(cell["source"]), f"{os.path.basename(notebook)} cell {i}", "exec"), scope)
print(f"ok 1 - {os.path.basename(notebook)}: {sum(c['cell_type'] == 'code' for c in cells)} code cells ran")
