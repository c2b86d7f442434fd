"""Settings for the whole test run."""

import os

# The tests call kernel functions that the ahead-of-time modules do not export
# (septet.fast._mode): they run numba's JIT kernels, whatever `septet kernels build` left;
# tests/fast/test_fast_aot.py runs the built modules in processes of their own.
os.environ.setdefault("SEPTET_KERNELS", "jit")
