# expect: wrong_answer
# Mistake: converts A and B to float16 "to halve the memory traffic". Each input keeps only 11 significant
# bits, so every product is off by up to ~1e-3 relative (the tolerance allows 1e-4), and the float16 result
# overflows to infinity once the dot product passes 65504.
import torch


def solve(A: torch.Tensor, B: torch.Tensor, result: torch.Tensor, N: int):
    result.copy_(torch.dot(A[:N].half(), B[:N].half()).unsqueeze(0))
