# expect: wrong_answer
# Mistake: loads A and B without a mask. The last program reads up to BLOCK - 1 elements past the end of
# both inputs; the judge surrounds every buffer with guard bytes (0xCD: -4.3e8 as a float), so each of those
# lanes adds a product of about 1.9e17 and the result is far off unless N is a multiple of BLOCK (example 1,
# N = 4, already fails). On memory the judge does not guard the reads may fault, or add whatever lies there.
import torch
import triton
import triton.language as tl


@triton.jit
def dot_no_mask_kernel(a_ptr, b_ptr, result_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offsets)  # missing: mask=offsets < N, other=0.0
    b = tl.load(b_ptr + offsets)
    tl.atomic_add(result_ptr, tl.sum(a * b, axis=0))


def solve(A: torch.Tensor, B: torch.Tensor, result: torch.Tensor, N: int):
    BLOCK = 1024
    result.zero_()
    dot_no_mask_kernel[(triton.cdiv(N, BLOCK),)](A, B, result, N, BLOCK=BLOCK)
