# expect: wrong_answer
# Mistake: tl.load without a mask. The last program reads up to BLOCK - 1 floats past the end of input and
# adds them in; the judge surrounds every buffer with guard bytes (0xCD: -4.3e8 as a float), so unless N is
# a multiple of BLOCK the sum is off by about -4.3e8 per element read past the end (example 1, N = 8,
# already fails). On memory the judge does not guard the reads may fault, or add whatever lies there.
import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_no_mask_kernel(input_ptr, output_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(input_ptr + offsets)  # missing: mask=offsets < N, other=0.0
    tl.atomic_add(output_ptr, tl.sum(x, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    BLOCK = 1024
    output.zero_()
    grid = (triton.cdiv(N, BLOCK),)
    block_sum_no_mask_kernel[grid](input, output, N, BLOCK=BLOCK)
