# Where a Python runner's load goes (issue 18, the kept-kernel submit): the steps of
# judge/runner_program/python_bootstrap.py one after the other, in a fresh interpreter that reads the
# judge's prepared bytecode, as the runner does. Run once per line of output:
#   python3 -X pycache_prefix=$GPUJUDGE_CACHE_DIR/python-prepared/<key>/bytecode \
#       tests/gpu/python_load_phases.py $GPUJUDGE_CACHE_DIR/python-prepared/<key>
import json
import os
import sys
import time

prepared = sys.argv[1]
sys.dont_write_bytecode = True
phases = []
last = time.perf_counter()


def step(name):
    global last
    now = time.perf_counter()
    phases.append(f"{name} {now - last:.3f}")
    last = now


import torch  # noqa: E402

step("import torch")
import triton  # noqa: E402
from triton.compiler.compiler import make_backend  # noqa: E402
from triton.runtime import cache  # noqa: E402

step("import triton")
with open(os.path.join(prepared, "triton_key.json")) as file:
    key = json.load(file)["key"]
step("prepared key")
target = triton.runtime.driver.active.get_current_target()
step("target (CUDA start)")
backend = make_backend(target)
step("backend")
from triton.backends.nvidia.compiler import get_ptxas_version  # noqa: E402

get_ptxas_version()
step("ptxas version")
cache.triton_key = lambda: key
backend.hash()
step("backend hash")
torch.empty(1, device="cuda")
step("torch.empty on the GPU")
print("load phases (s): " + ", ".join(phases))
