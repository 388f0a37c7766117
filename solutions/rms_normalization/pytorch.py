# expect: accepted
# Technique: a few torch operations in float64 (N <= 100,000, so the copy is cheap): the mean of squares,
# rsqrt(mean + eps), then gamma * x * inv_rms + beta, copied back into the float32 output in place.
import torch


def solve(input: torch.Tensor, gamma: float, beta: float, output: torch.Tensor, N: int, eps: float):
    x = input[:N].double()
    inv_rms = torch.rsqrt(x.square().mean() + eps)
    output.copy_(x * inv_rms * gamma + beta)
