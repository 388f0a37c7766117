# expect: accepted
# Technique: launch over the range only, not the whole array: program i covers S + i*BLOCK.., the mask
# is offsets <= E (inclusive end), and each block's tl.sum goes into the zeroed output with one int32
# tl.atomic_add (integer atomics are exact, so the order does not matter).
import torch
import triton
import triton.language as tl


@triton.jit
def range_sum_kernel(input_ptr, output_ptr, S, E, BLOCK: tl.constexpr):
    offsets = S + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(input_ptr + offsets, mask=offsets <= E, other=0)
    tl.atomic_add(output_ptr, tl.sum(x, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int, S: int, E: int):
    BLOCK = 4096
    output.zero_()
    grid = (triton.cdiv(E - S + 1, BLOCK),)
    range_sum_kernel[grid](input, output, S, E, BLOCK=BLOCK)
