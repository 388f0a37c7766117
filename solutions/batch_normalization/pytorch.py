# expect: accepted
# Technique: view the flat buffers as an N x C matrix, take each column's mean and biased variance in one
# call (torch.var_mean with correction=0: the population variance, computed stably, not as E[x^2] - mean^2),
# then normalise, scale and shift with broadcasting, written back through a view of output.
import torch


def solve(input: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, output: torch.Tensor,
          N: int, C: int, eps: float):
    x = input.view(N, C)
    var, mean = torch.var_mean(x, dim=0, correction=0)
    output.view(N, C).copy_((x - mean) * torch.rsqrt(var + eps) * gamma + beta)
