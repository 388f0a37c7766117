# expect: accepted
# Technique: a deterministic two-stage reduction without atomics. Stage 1 runs a fixed grid of persistent
# programs; each walks the array in a grid-stride loop of masked BLOCK-wide tiles, accumulating A * B in a
# BLOCK-wide vector of float32 partial sums, and stores one tl.sum of it into a scratch array. Stage 2, a
# single program, sums the partials and stores the result: no zeroing needed, the same answer every run.
import torch
import triton
import triton.language as tl


@triton.jit
def partial_dot_kernel(a_ptr, b_ptr, partials_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    num_programs = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)  # one running sum per lane: short chains, little rounding
    for start in range(pid * BLOCK, N, num_programs * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < N
        a = tl.load(a_ptr + offsets, mask=mask, other=0.0)
        b = tl.load(b_ptr + offsets, mask=mask, other=0.0)
        acc += a * b
    tl.store(partials_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def sum_partials_kernel(partials_ptr, result_ptr, num_partials, BLOCK_P: tl.constexpr):
    offsets = tl.arange(0, BLOCK_P)
    p = tl.load(partials_ptr + offsets, mask=offsets < num_partials, other=0.0)
    tl.store(result_ptr, tl.sum(p, axis=0))


def solve(A: torch.Tensor, B: torch.Tensor, result: torch.Tensor, N: int):
    BLOCK = 2048
    max_programs = 4 * torch.cuda.get_device_properties(A.device).multi_processor_count
    num_programs = max(1, min(triton.cdiv(N, BLOCK), max_programs))
    partials = torch.empty(num_programs, dtype=torch.float32, device=A.device)  # scratch, fully written
    partial_dot_kernel[(num_programs,)](A, B, partials, N, BLOCK=BLOCK)
    sum_partials_kernel[(1,)](partials, result, num_programs, BLOCK_P=triton.next_power_of_2(num_programs))
