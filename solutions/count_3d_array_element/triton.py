# expect: accepted
# Technique: flatten the 3-D array (the layout does not change which elements match) and count it with
# persistent programs in a grid-stride loop. N * M * K reaches 10^9, within a factor of two of int32's
# 2^31 limit, so the offsets are built in int64 (program_id(0).to(tl.int64)): start + step cannot wrap,
# whatever the grid. One tl.atomic_add per program into the zeroed output.
import torch
import triton
import triton.language as tl


@triton.jit
def count_3d_kernel(input_ptr, output_ptr, total, P, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    step = tl.num_programs(0).to(tl.int64) * BLOCK
    counts = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(pid * BLOCK, total, step):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < total
        x = tl.load(input_ptr + offsets, mask=mask, other=0)
        counts += ((x == P) & mask).to(tl.int32)
    tl.atomic_add(output_ptr, tl.sum(counts, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int, K: int, P: int):
    BLOCK = 4096
    total = N * M * K
    max_programs = 4 * torch.cuda.get_device_properties(input.device).multi_processor_count
    num_programs = max(1, min(triton.cdiv(total, BLOCK), max_programs))
    output.zero_()
    count_3d_kernel[(num_programs,)](input, output, total, P, BLOCK=BLOCK)
