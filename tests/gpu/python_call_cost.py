# Where a Python solve's host time goes on the GPU machine (issue 18): per-call host time of each
# piece of the Triton and PyTorch reductions at N = 100M, and the device time of the same call.
#   python3 tests/gpu/python_call_cost.py
import importlib.util
import statistics
import sys
import time

import torch


def load(path):
    spec = importlib.util.spec_from_file_location("solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_scratch = bytearray(64 << 20)


def cool_down():
    """What the judge does between two timed calls, roughly: the runner waits on a pipe (the core
    idles or runs another process) and other data passes through the CPU's caches."""
    _scratch[::64] = bytes(len(_scratch) // 64)
    time.sleep(0.002)


def host_us(call, repeats=300, cold=False):
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        if cold:
            cool_down()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def device_us(call, repeats=100):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start.record()
        call()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e3)
    return statistics.median(times)


N = 100_000_000
x = torch.rand(N, device="cuda")
out = torch.empty(1, device="cuda")
triton_solution = load("solutions/reduction/triton.py")
torch_solution = load("solutions/reduction/pytorch.py")
for s in (triton_solution, torch_solution):
    for _ in range(5):
        s.solve(x, out, N)
kernel = triton_solution.block_sum_kernel
pieces = {
    "empty python call": lambda: None,
    "output.zero_()": lambda: out.zero_(),
    "triton launch alone": lambda: kernel[(N // 4096 + 1,)](x, out, N, BLOCK=4096),
    "triton solve": lambda: triton_solution.solve(x, out, N),
    "pytorch solve": lambda: torch_solution.solve(x, out, N),
}
for name, call in pieces.items():
    print(f"{name:24s} host {host_us(call):8.1f} us, after a pause {host_us(call, cold=True):8.1f} us   "
          f"device(events, unblocked) {device_us(call):8.1f} us")
print("python", sys.version.split()[0], "torch", torch.__version__)
