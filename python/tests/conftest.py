"""Make `import tumble` find the package of this checkout when run without PYTHONPATH."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
