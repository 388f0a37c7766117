# expect: wrong_answer
# cause: nan
# Mistake: adds every block's partial dot product into result with tl.atomic_add but never zeroes result
# first. The output arrives holding garbage (the judge fills float outputs with NaN), and NaN plus anything
# is NaN. Call result.zero_() before the launch.
import torch
import triton
import triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, result_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < N
    a = tl.load(a_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(b_ptr + offsets, mask=mask, other=0.0)
    tl.atomic_add(result_ptr, tl.sum(a * b, axis=0))


def solve(A: torch.Tensor, B: torch.Tensor, result: torch.Tensor, N: int):
    BLOCK = 4096
    # missing: result.zero_()
    dot_kernel[(triton.cdiv(N, BLOCK),)](A, B, result, N, BLOCK=BLOCK)
