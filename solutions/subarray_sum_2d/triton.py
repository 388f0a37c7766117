# expect: accepted
# Technique: a 2-D grid of 2-D tiles laid over the window only: tile (i, j) covers rows S_ROW + i*BLOCK_R..
# and columns S_COL + j*BLOCK_C.., element (r, c) sits at r * M + c (row-major), the mask keeps
# r <= E_ROW and c <= E_COL, and the tile's full tl.sum goes into the zeroed output with one atomic_add.
# The tile's shape follows the window's: wide for a row, tall for a column.
import torch
import triton
import triton.language as tl


# The window's other bounds only offset rows and mask: unspecialised, one kernel serves them all
# (Triton would compile one per size class of each: 1, a multiple of 16, other). M, the row stride,
# and S_COL stay specialised: when both are multiples of 16, Triton vectorises the loads.
@triton.jit(do_not_specialize=["S_ROW", "E_ROW", "E_COL"])
def window_sum_kernel(input_ptr, output_ptr, M, S_ROW, E_ROW, S_COL, E_COL,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = S_ROW + tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = S_COL + tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (r[:, None] <= E_ROW) & (c[None, :] <= E_COL)
    x = tl.load(input_ptr + r[:, None] * M + c[None, :], mask=mask, other=0)
    tl.atomic_add(output_ptr, tl.sum(tl.sum(x, axis=1), axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int,
          S_ROW: int, E_ROW: int, S_COL: int, E_COL: int):
    height = E_ROW - S_ROW + 1
    width = E_COL - S_COL + 1
    BLOCK_C = min(1024, max(16, triton.next_power_of_2(width)))  # few tile shapes, few kernels
    BLOCK_R = max(1, 4096 // BLOCK_C)  # short windows: the rest is masked
    output.zero_()
    grid = (triton.cdiv(height, BLOCK_R), triton.cdiv(width, BLOCK_C))
    window_sum_kernel[grid](input, output, M, S_ROW, E_ROW, S_COL, E_COL, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
