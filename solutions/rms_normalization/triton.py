# expect: accepted
# Technique: two launches, no atomics. Kernel 1: each program stores the sum of squares of its masked block
# into a scratch array. Kernel 2: every program re-reduces that small array itself (at most 49 partials),
# forms 1 / sqrt(mean + eps) and normalises its own block; scalars gamma, beta and eps arrive as plain
# kernel arguments.
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["N"])  # one kernel for every N: see solve
def sum_of_squares_kernel(input_ptr, partials_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(input_ptr + offsets, mask=offsets < N, other=0.0)
    tl.store(partials_ptr + pid, tl.sum(x * x, axis=0))


@triton.jit(do_not_specialize=["N", "num_blocks"])
def rms_norm_kernel(input_ptr, output_ptr, partials_ptr, gamma, beta, eps, N, num_blocks,
                    BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    p = tl.arange(0, BLOCK_P)
    partials = tl.load(partials_ptr + p, mask=p < num_blocks, other=0.0)
    inv_rms = 1.0 / tl.sqrt(tl.sum(partials, axis=0) / N + eps)

    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < N
    x = tl.load(input_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, gamma * x * inv_rms + beta, mask=mask)


def solve(input: torch.Tensor, gamma: float, beta: float, output: torch.Tensor, N: int, eps: float):
    # Sizes only mask here, so the kernels are compiled once: Triton otherwise compiles one per size
    # class (1, a multiple of 16, other) of each int argument and per constexpr value, 0.2-0.5 s each.
    BLOCK = 2048  # N <= 100,000: at most 49 partials, merged by one tile of 64 lanes
    num_blocks = triton.cdiv(N, BLOCK)
    partials = torch.empty(num_blocks, dtype=torch.float32, device=input.device)
    sum_of_squares_kernel[(num_blocks,)](input, partials, N, BLOCK=BLOCK)
    rms_norm_kernel[(num_blocks,)](input, output, partials, gamma, beta, eps, N, num_blocks,
                                   BLOCK=BLOCK, BLOCK_P=64)
