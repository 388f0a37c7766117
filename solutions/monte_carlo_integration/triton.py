# expect: accepted
# Technique: a two-stage reduction with the scale applied once at the end. Stage 1: each program sums a
# masked block with tl.sum and stores the partial; stage 2: a single program loops over the partials in
# chunks (up to 24,415 of them at 10^8 samples), adds them into a vector accumulator and stores
# (b - a) / n * total into result: deterministic, no atomics, no zeroing.
import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_kernel(y_ptr, partials_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    y = tl.load(y_ptr + offsets, mask=offsets < n, other=0.0)
    tl.store(partials_ptr + pid, tl.sum(y, axis=0))


@triton.jit
def finish_kernel(partials_ptr, result_ptr, num_partials, scale, BLOCK_P: tl.constexpr):
    acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    for start in range(0, num_partials, BLOCK_P):
        offsets = start + tl.arange(0, BLOCK_P)
        acc += tl.load(partials_ptr + offsets, mask=offsets < num_partials, other=0.0)
    tl.store(result_ptr, tl.sum(acc, axis=0) * scale)


def solve(y_samples: torch.Tensor, result: torch.Tensor, a: float, b: float, n_samples: int):
    BLOCK = 4096
    num_partials = triton.cdiv(n_samples, BLOCK)
    partials = torch.empty(num_partials, dtype=torch.float32, device=y_samples.device)
    block_sum_kernel[(num_partials,)](y_samples, partials, n_samples, BLOCK=BLOCK)
    finish_kernel[(1,)](partials, result, num_partials, (b - a) / n_samples, BLOCK_P=1024)
