# What Triton's first compile in a process costs beyond the kernel's own (issue 18): two trivial
# kernels compiled one after the other against an empty cache, the first profiled.
#   python3 tests/gpu/triton_first_compile.py
import cProfile
import os
import pstats
import tempfile
import time

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="first-compile-")
start = time.perf_counter()
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

print(f"import torch, triton: {time.perf_counter() - start:.2f} s")


@triton.jit
def first(x_ptr, N, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < N) * 2, mask=offsets < N)


@triton.jit
def second(x_ptr, N, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < N) + 1, mask=offsets < N)


def timed(label, call):
    start = time.perf_counter()
    call()
    torch.cuda.synchronize()
    print(f"{label}: {time.perf_counter() - start:.3f} s")


timed("CUDA start (torch.empty on the GPU)", lambda: torch.empty(1, device="cuda"))
x = torch.ones(1000, device="cuda")
timed("driver target", lambda: triton.runtime.driver.active.get_current_target())
profiler = cProfile.Profile()
profiler.enable()
timed("first kernel: compile only (warmup)", lambda: first.warmup(x, 1000, BLOCK=128, grid=(8,)))
profiler.disable()
timed("first kernel: first launch", lambda: first[(8,)](x, 1000, BLOCK=128))
timed("second kernel: compile and launch", lambda: second[(8,)](x, 1000, BLOCK=128))
timed("first kernel, other BLOCK: compile and launch", lambda: first[(4,)](x, 1000, BLOCK=256))
stats = pstats.Stats(profiler)
rows = sorted(((ct, nc, f"{os.path.basename(f)}:{line}:{fn}") for (f, line, fn), (cc, nc, tt, ct, _) in
               stats.stats.items() if ct > 0.03), reverse=True)
for ct, nc, where in rows[:40]:
    print(f"  {ct:7.3f} s {nc:5d}  {where}")
