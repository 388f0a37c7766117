# expect: wrong_answer
# cause: half_precision
# Mistake: converts the input to float16 "to halve the memory traffic". Every element is rounded to 11
# significant bits (an error of up to 0.25 for values near 1000, far above the tolerance of a short sum),
# the result is rounded to float16 again, and any sum beyond 65504 becomes infinity.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    output.copy_(input[:N].half().sum().unsqueeze(0))
