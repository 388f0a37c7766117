# expect: accepted
# Technique: prefix sums, then a max. Kernel 1 (one program; N <= 50,000) scans the input tile by tile with
# tl.cumsum and a running carry into P, with P[0] = 0. Kernel 2 takes the window sums P[i + w] - P[i] of
# its block of start positions, their tl.max, and folds it into output with tl.atomic_max; output is
# seeded with INT32_MIN, not 0, because every window may be negative.
import torch
import triton
import triton.language as tl


@triton.jit
def prefix_sum_kernel(input_ptr, prefix_ptr, N, BLOCK: tl.constexpr):
    carry = 0
    for start in range(0, N, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        x = tl.load(input_ptr + offsets, mask=offsets < N, other=0)
        # prefix[i + 1] = input[0] + ... + input[i]
        tl.store(prefix_ptr + 1 + offsets, carry + tl.cumsum(x, axis=0), mask=offsets < N)
        carry += tl.sum(x, axis=0)


@triton.jit
def window_max_kernel(prefix_ptr, output_ptr, num_windows, window_size, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < num_windows
    hi = tl.load(prefix_ptr + i + window_size, mask=mask, other=0)
    lo = tl.load(prefix_ptr + i, mask=mask, other=0)
    sums = tl.where(mask, hi - lo, -2147483648)
    tl.atomic_max(output_ptr, tl.max(sums, axis=0))


def solve(input: torch.Tensor, output: torch.Tensor, N: int, window_size: int):
    prefix = torch.zeros(N + 1, dtype=torch.int32, device=input.device)  # prefix[0] = 0, the rest written
    prefix_sum_kernel[(1,)](input, prefix, N, BLOCK=4096)
    output.fill_(-2**31)  # the identity of max
    num_windows = N - window_size + 1
    BLOCK = 1024
    window_max_kernel[(triton.cdiv(num_windows, BLOCK),)](prefix, output, num_windows, window_size, BLOCK=BLOCK)
