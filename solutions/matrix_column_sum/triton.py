# expect: accepted
# Technique: tiled column sums with row strips. Program (j, k) owns the column tile j*BLOCK_C.. and walks
# rows k*BLOCK_R, (k + STRIPS)*BLOCK_R, ... in a grid-stride loop, so each tile row is a contiguous,
# coalesced load; it accumulates a [BLOCK_R, BLOCK_C] tile, reduces it with tl.sum(axis=0) and adds the
# BLOCK_C column sums into the zeroed col_sums with one masked vector tl.atomic_add.
import torch
import triton
import triton.language as tl


# rows only bounds the loop: unspecialised. cols, the row stride, stays specialised.
@triton.jit(do_not_specialize=["rows"])
def column_sum_kernel(matrix_ptr, col_sums_ptr, rows, cols,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    c = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    col_mask = c < cols
    acc = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for start in range(tl.program_id(1) * BLOCK_R, rows, tl.num_programs(1) * BLOCK_R):
        r = start + tl.arange(0, BLOCK_R)
        mask = (r[:, None] < rows) & col_mask[None, :]
        acc += tl.load(matrix_ptr + r[:, None] * cols + c[None, :], mask=mask, other=0.0)
    tl.atomic_add(col_sums_ptr + c, tl.sum(acc, axis=0), mask=col_mask)


def solve(matrix: torch.Tensor, col_sums: torch.Tensor, rows: int, cols: int):
    BLOCK_C = min(1024, max(16, triton.next_power_of_2(cols)))  # few tile shapes, few kernels
    BLOCK_R = max(1, 4096 // BLOCK_C)  # short matrices mask the rest
    col_tiles = triton.cdiv(cols, BLOCK_C)
    target = 4 * torch.cuda.get_device_properties(matrix.device).multi_processor_count
    strips = max(1, min(triton.cdiv(rows, BLOCK_R), triton.cdiv(target, col_tiles)))
    col_sums.zero_()
    column_sum_kernel[(col_tiles, strips)](matrix, col_sums, rows, cols, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
