# expect: accepted
# Technique: online softmax in two launches. Kernel 1: each program takes a masked block (other=-inf, so
# the tail's exp is 0) and stores its block maximum m_b and s_b = sum exp(x - m_b). Kernel 2: every program
# merges all the (m_b, s_b) pairs by rescaling to the global maximum, s = sum s_b * exp(m_b - m), then writes
# exp(x - m) / s for its own block. Each element is read twice and written once; no atomics.
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["N"])  # one kernel for every N: see solve
def block_max_sum_kernel(input_ptr, block_max_ptr, block_sum_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(input_ptr + offsets, mask=offsets < N, other=-float("inf"))
    m = tl.max(x, axis=0)  # finite: every block holds at least one element
    s = tl.sum(tl.exp(x - m), axis=0)
    tl.store(block_max_ptr + pid, m)
    tl.store(block_sum_ptr + pid, s)


@triton.jit(do_not_specialize=["N", "num_blocks"])
def normalize_kernel(input_ptr, output_ptr, block_max_ptr, block_sum_ptr, N, num_blocks,
                     BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    p = tl.arange(0, BLOCK_P)
    p_mask = p < num_blocks
    block_max = tl.load(block_max_ptr + p, mask=p_mask, other=-float("inf"))
    block_sum = tl.load(block_sum_ptr + p, mask=p_mask, other=0.0)
    m = tl.max(block_max, axis=0)
    # Rescale every block's sum to the global maximum (padding lanes: 0 * exp(-inf) = 0).
    s = tl.sum(block_sum * tl.exp(block_max - m), axis=0)

    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < N
    x = tl.load(input_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, tl.exp(x - m) / s, mask=mask)


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    # Sizes only mask here, so the kernels are compiled once: Triton otherwise compiles one per size
    # class (1, a multiple of 16, other) of each int argument and per constexpr value, 0.2-0.5 s each.
    BLOCK = 2048  # N <= 500,000: at most 245 blocks, merged by one tile of 256 lanes
    num_blocks = triton.cdiv(N, BLOCK)
    block_max = torch.empty(num_blocks, dtype=torch.float32, device=input.device)
    block_sum = torch.empty(num_blocks, dtype=torch.float32, device=input.device)
    block_max_sum_kernel[(num_blocks,)](input, block_max, block_sum, N, BLOCK=BLOCK)
    normalize_kernel[(num_blocks,)](input, output, block_max, block_sum, N, num_blocks,
                                    BLOCK=BLOCK, BLOCK_P=256)
