# expect: accepted
# Technique: one program per strip of BLOCK_C columns, walking down the rows in [BLOCK_N, BLOCK_C] tiles
# (2-D offsets rows[:, None] * C + cols[None, :], masked on both edges). Three passes over its strip: the
# column means, then the sum of squared deviations from them (two passes, so values like 50 +- 1 do not
# cancel as in E[x^2] - mean^2), then the normalised, scaled and shifted output.
import torch
import triton
import triton.language as tl


# N only bounds the loops: unspecialised, one kernel serves every N. C, the row stride, stays
# specialised: a multiple of 16 lets Triton vectorise the loads.
@triton.jit(do_not_specialize=["N"])
def batch_norm_kernel(x_ptr, gamma_ptr, beta_ptr, out_ptr, N, C, eps,
                      BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    col_mask = cols < C
    rows0 = tl.arange(0, BLOCK_N)

    total = tl.zeros([BLOCK_N, BLOCK_C], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        rows = start + rows0
        mask = (rows[:, None] < N) & col_mask[None, :]
        total += tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=mask, other=0.0)
    mean = tl.sum(total, axis=0) / N

    squares = tl.zeros([BLOCK_N, BLOCK_C], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        rows = start + rows0
        mask = (rows[:, None] < N) & col_mask[None, :]
        x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=mask, other=0.0)
        d = tl.where(mask, x - mean[None, :], 0.0)  # padding lanes must not add mean^2
        squares += d * d
    inv_std = 1.0 / tl.sqrt(tl.sum(squares, axis=0) / N + eps)

    gamma = tl.load(gamma_ptr + cols, mask=col_mask, other=0.0)
    beta = tl.load(beta_ptr + cols, mask=col_mask, other=0.0)
    scale = gamma * inv_std
    for start in range(0, N, BLOCK_N):
        rows = start + rows0
        mask = (rows[:, None] < N) & col_mask[None, :]
        offsets = rows[:, None] * C + cols[None, :]
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        tl.store(out_ptr + offsets, (x - mean[None, :]) * scale[None, :] + beta[None, :], mask=mask)


def solve(input: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, output: torch.Tensor,
          N: int, C: int, eps: float):
    BLOCK_C = min(32, triton.next_power_of_2(C))  # 32 floats: a 128-byte row segment per tile row
    BLOCK_N = 2048 // BLOCK_C
    grid = (triton.cdiv(C, BLOCK_C),)
    batch_norm_kernel[grid](input, gamma, beta, output, N, C, eps, BLOCK_N=BLOCK_N, BLOCK_C=BLOCK_C)
