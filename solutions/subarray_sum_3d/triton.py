# expect: accepted
# Technique: flatten the box's (depth, row) pairs into one "line" index l, decoded with // and %:
# d = S_DEP + l // height, r = S_ROW + l % height. Each program takes a [BLOCK_L, BLOCK_C] tile of lines by
# columns, element (d, r, c) sits at (d * M + r) * K + c (row-major), masked on both edges, and adds the
# tile's tl.sum into the zeroed output with one atomic_add.
import torch
import triton
import triton.language as tl


# The box's other offsets and sizes only offset lines and mask: unspecialised, one kernel serves them
# all (Triton would compile one per size class of each: 1, a multiple of 16, other). M, K (the
# strides) and S_COL stay specialised: when K and S_COL are multiples of 16, Triton vectorises the loads.
@triton.jit(do_not_specialize=["S_DEP", "S_ROW", "num_lines", "height", "width"])
def box_sum_kernel(input_ptr, output_ptr, M, K, S_DEP, S_ROW, S_COL, num_lines, height, width,
                   BLOCK_L: tl.constexpr, BLOCK_C: tl.constexpr):
    line = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    d = S_DEP + line // height
    r = S_ROW + line % height
    c = S_COL + tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (line[:, None] < num_lines) & (c[None, :] < S_COL + width)
    offsets = (d[:, None] * M + r[:, None]) * K + c[None, :]
    x = tl.load(input_ptr + offsets, mask=mask, other=0)
    tl.atomic_add(output_ptr, tl.sum(tl.sum(x, axis=1), axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int, K: int,
          S_DEP: int, E_DEP: int, S_ROW: int, E_ROW: int, S_COL: int, E_COL: int):
    depth = E_DEP - S_DEP + 1
    height = E_ROW - S_ROW + 1
    width = E_COL - S_COL + 1
    num_lines = depth * height
    BLOCK_C = min(512, max(16, triton.next_power_of_2(width)))  # few tile shapes, few kernels
    BLOCK_L = max(1, 4096 // BLOCK_C)  # few lines: the rest is masked
    output.zero_()
    grid = (triton.cdiv(num_lines, BLOCK_L), triton.cdiv(width, BLOCK_C))
    box_sum_kernel[grid](input, output, M, K, S_DEP, S_ROW, S_COL, num_lines, height, width,
                         BLOCK_L=BLOCK_L, BLOCK_C=BLOCK_C)
