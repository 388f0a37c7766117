# expect: accepted
# Technique: view the flat buffer as N x M, take the inclusive window with two slices and sum it exactly
# in int64, narrowed into the int32 output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int,
          S_ROW: int, E_ROW: int, S_COL: int, E_COL: int):
    window = input.view(N, M)[S_ROW:E_ROW + 1, S_COL:E_COL + 1]
    output.copy_(window.sum().unsqueeze(0))
