# expect: accepted
# Technique: torch.dot, the BLAS dot product (float32 products summed in parallel partial sums, well inside
# the tolerance), with no N-element temporary such as (A * B).sum() would allocate; copied into result in place.
import torch


def solve(A: torch.Tensor, B: torch.Tensor, result: torch.Tensor, N: int):
    result.copy_(torch.dot(A[:N], B[:N]).unsqueeze(0))
