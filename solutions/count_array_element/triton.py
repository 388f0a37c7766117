# expect: accepted
# Technique: persistent programs. A fixed grid of a few programs per SM walks the array in a grid-stride
# loop, keeping a BLOCK-wide int32 vector of counts; the match test is combined with the mask (a padding
# lane's `other` value must never count, whatever K is), and each program adds its tl.sum into the zeroed
# output with one tl.atomic_add: a few hundred atomics instead of one per block.
import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(input_ptr, output_ptr, N, K, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    counts = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(pid * BLOCK, N, tl.num_programs(0) * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < N
        x = tl.load(input_ptr + offsets, mask=mask, other=0)
        counts += ((x == K) & mask).to(tl.int32)
    tl.atomic_add(output_ptr, tl.sum(counts, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int, K: int):
    BLOCK = 2048
    max_programs = 4 * torch.cuda.get_device_properties(input.device).multi_processor_count
    num_programs = max(1, min(triton.cdiv(N, BLOCK), max_programs))
    output.zero_()
    count_kernel[(num_programs,)](input, output, N, K, BLOCK=BLOCK)
