# expect: accepted
# Technique: one Triton program per block of BLOCK elements: a masked load (other=0.0 so the tail adds
# nothing), a tree sum of the block with tl.sum, and one tl.atomic_add per block into output, which is
# zeroed first because it arrives holding garbage.
import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_kernel(input_ptr, output_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)  # N <= 1e8: int32 offsets cannot overflow
    mask = offsets < N
    x = tl.load(input_ptr + offsets, mask=mask, other=0.0)
    tl.atomic_add(output_ptr, tl.sum(x, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    BLOCK = 4096
    output.zero_()  # the atomics add into output: it must start at 0
    grid = (triton.cdiv(N, BLOCK),)
    block_sum_kernel[grid](input, output, N, BLOCK=BLOCK)
