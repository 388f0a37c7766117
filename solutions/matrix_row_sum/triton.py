# expect: accepted
# Technique: split-K row sums. Each program owns BLOCK_R rows and one of SPLIT column ranges, walks its range
# in [BLOCK_R, BLOCK_C] tiles into a 2-D accumulator and reduces it with tl.sum(axis=1). When one range
# covers the rows (SPLIT == 1) it stores the sums; when the rows are long and few (down to 1 x 10^8) the
# columns are split over many programs, which add into the zeroed row_sums with a masked vector atomic_add.
import torch
import triton
import triton.language as tl


# rows only bounds and masks: unspecialised. cols, the row stride, and cols_per_split (a multiple of
# BLOCK_C) stay specialised: Triton vectorises the loads when it knows they are multiples of 16.
@triton.jit(do_not_specialize=["rows"])
def row_sum_kernel(matrix_ptr, row_sums_ptr, rows, cols, cols_per_split,
                   BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr, USE_ATOMICS: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    row_mask = r < rows
    col_begin = tl.program_id(1) * cols_per_split
    col_end = tl.minimum(col_begin + cols_per_split, cols)
    acc = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for start in range(col_begin, col_end, BLOCK_C):
        c = start + tl.arange(0, BLOCK_C)
        mask = row_mask[:, None] & (c[None, :] < col_end)
        acc += tl.load(matrix_ptr + r[:, None] * cols + c[None, :], mask=mask, other=0.0)
    sums = tl.sum(acc, axis=1)
    if USE_ATOMICS:
        tl.atomic_add(row_sums_ptr + r, sums, mask=row_mask)
    else:
        tl.store(row_sums_ptr + r, sums, mask=row_mask)


def solve(matrix: torch.Tensor, row_sums: torch.Tensor, rows: int, cols: int):
    BLOCK_C = min(1024, max(16, triton.next_power_of_2(cols)))  # few tile shapes, few kernels
    BLOCK_R = max(1, 4096 // BLOCK_C)  # few rows: the rest is masked
    row_blocks = triton.cdiv(rows, BLOCK_R)
    # Enough programs to fill the GPU: split each row only when there are too few row blocks.
    target = 4 * torch.cuda.get_device_properties(matrix.device).multi_processor_count
    split = max(1, min(triton.cdiv(cols, BLOCK_C), target // row_blocks))
    cols_per_split = triton.cdiv(triton.cdiv(cols, split), BLOCK_C) * BLOCK_C
    split = triton.cdiv(cols, cols_per_split)
    if split > 1:
        row_sums.zero_()
    row_sum_kernel[(row_blocks, split)](matrix, row_sums, rows, cols, cols_per_split,
                                        BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, USE_ATOMICS=split > 1)
