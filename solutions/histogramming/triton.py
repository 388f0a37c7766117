# expect: accepted
# Technique: privatisation without shared memory code. Persistent programs walk the input in a grid-stride
# loop; tl.histogram (with mask=, so padding lanes count nowhere) bins each tile into a private
# BINS-wide vector in registers, and each program merges it with one masked vector tl.atomic_add into the
# zeroed histogram: a few hundred atomics per bin instead of one per element, even when every value
# falls into the same bin.
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["N", "num_bins"])  # see solve
def histogram_kernel(input_ptr, hist_ptr, N, num_bins, BLOCK: tl.constexpr, BINS: tl.constexpr):
    pid = tl.program_id(0)
    local = tl.zeros([BINS], dtype=tl.int32)
    for start in range(pid * BLOCK, N, tl.num_programs(0) * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < N
        x = tl.load(input_ptr + offsets, mask=mask, other=0)
        local += tl.histogram(x, BINS, mask=mask).to(tl.int32)
    bins = tl.arange(0, BINS)
    tl.atomic_add(hist_ptr + bins, local, mask=bins < num_bins)


def solve(input: torch.Tensor, histogram: torch.Tensor, N: int, num_bins: int):
    BLOCK = 2048
    # A power of two, as tl.arange needs, and at least 32: with the sizes unspecialised, Triton then
    # compiles 6 kernels for the tests instead of 12 (0.2-0.5 s each at a first submit).
    BINS = max(32, triton.next_power_of_2(num_bins))
    max_programs = 2 * torch.cuda.get_device_properties(input.device).multi_processor_count
    num_programs = max(1, min(triton.cdiv(N, BLOCK), max_programs))
    histogram.zero_()
    histogram_kernel[(num_programs,)](input, histogram, N, num_bins, BLOCK=BLOCK, BINS=BINS)
