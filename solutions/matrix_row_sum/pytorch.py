# expect: accepted
# Technique: view the flat buffer as rows x cols and sum along dim=1 (torch's reduction kernel picks its
# own split for a 1 x 10^8 or a 10^8 x 1 shape), written into row_sums in place.
import torch


def solve(matrix: torch.Tensor, row_sums: torch.Tensor, rows: int, cols: int):
    row_sums.copy_(matrix.view(rows, cols).sum(dim=1))
