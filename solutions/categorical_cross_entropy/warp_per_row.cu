// expect: accepted
// step: 1
// Technique: one warp per row. Each lane keeps a running (max, sum of exp) over its strided share of the
// row, the lanes merge with __shfl_xor_sync (every lane gets the row's log-sum-exp), and each block adds
// its rows' losses, already divided by N, into the zeroed output with one atomicAdd.
#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int kWarpsPerBlock = 8;
constexpr int kThreads = kWarpsPerBlock * 32;

// Running max and sum of exp(z - max); sum == 0 marks "nothing seen yet".
struct MaxSum {
    float max;
    float sum;
};

__device__ MaxSum merge(MaxSum a, MaxSum b) {
    if (b.sum == 0.0f) return a;
    if (a.sum == 0.0f) return b;
    const float max = fmaxf(a.max, b.max);
    return {max, a.sum * expf(a.max - max) + b.sum * expf(b.max - max)};
}

__global__ void cross_entropy_rows(const float* logits, const int* true_labels, float* loss, int N, int C) {
    __shared__ float warp_losses[kWarpsPerBlock];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int row = blockIdx.x * kWarpsPerBlock + warp;

    float row_loss = 0.0f;
    if (row < N) {  // a whole warp takes this branch together, so the shuffles below see all 32 lanes
        const float* z = logits + static_cast<long long>(row) * C;
        MaxSum running = {-INFINITY, 0.0f};
        for (int j = lane; j < C; j += 32) {  // consecutive lanes read consecutive floats: coalesced
            const float x = z[j];
            if (x > running.max) {
                running.sum = running.sum * expf(running.max - x) + 1.0f;
                running.max = x;
            } else {
                running.sum += expf(x - running.max);
            }
        }
        // Butterfly: after log2(32) steps every lane holds the merge of all 32.
        for (int mask = 16; mask > 0; mask /= 2) {
            MaxSum other = {__shfl_xor_sync(0xffffffffu, running.max, mask),
                            __shfl_xor_sync(0xffffffffu, running.sum, mask)};
            running = merge(running, other);
        }
        // -log softmax(z)[y] = log sum exp(z) - z[y] = max + log(sum) - z[y]
        row_loss = running.max + logf(running.sum) - z[true_labels[row]];
    }
    if (lane == 0) warp_losses[warp] = row_loss;
    __syncthreads();
    if (threadIdx.x == 0) {
        float block_loss = 0.0f;
        for (int w = 0; w < kWarpsPerBlock; ++w) block_loss += warp_losses[w];
        atomicAdd(loss, block_loss / N);
    }
}

}  // namespace

extern "C" void solve(const float* logits, const int* true_labels, float* loss, int N, int C) {
    cudaMemset(loss, 0, sizeof(float));  // the output arrives poisoned; the atomics need a zero to start from
    const int blocks = (N + kWarpsPerBlock - 1) / kWarpsPerBlock;
    cross_entropy_rows<<<blocks, kThreads>>>(logits, true_labels, loss, N, C);
}
