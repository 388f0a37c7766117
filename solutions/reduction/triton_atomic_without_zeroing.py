# expect: wrong_answer
# cause: nan
# Mistake: adds every block's sum into output with tl.atomic_add but never zeroes output first. The output
# arrives holding garbage (the judge fills float outputs with NaN), and the atomics add on top of it: the
# result is NaN. Call output.zero_() before the launch.
import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_kernel(input_ptr, output_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < N
    x = tl.load(input_ptr + offsets, mask=mask, other=0.0)
    tl.atomic_add(output_ptr, tl.sum(x, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    BLOCK = 4096
    # missing: output.zero_()
    grid = (triton.cdiv(N, BLOCK),)
    block_sum_kernel[grid](input, output, N, BLOCK=BLOCK)
