// expect: wrong_answer
// Mistake: reads E_DEP, E_ROW and E_COL as exclusive ends (like a Python slice), so the last plane, row and
// column of the box are never added. Every value is at least 1, so the sum always comes out short.
#include <cuda_runtime.h>

__global__ void box_sum_kernel(const int* input, int* output, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                               int E_ROW, int S_COL, int E_COL) {
    const int c = S_COL + blockIdx.x * blockDim.x + threadIdx.x;
    const int r = S_ROW + blockIdx.y * blockDim.y + threadIdx.y;
    const int d = S_DEP + blockIdx.z;
    int value = 0;
    if (c < E_COL && r < E_ROW && d < E_DEP)  // should be <=: the bounds are inclusive
        value = input[(d * M + r) * K + c];
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x == 0) atomicAdd(output, value);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
    (void)N;
    const dim3 threads(32, 8);
    const dim3 blocks((E_COL - S_COL + 32) / 32, (E_ROW - S_ROW + 8) / 8, E_DEP - S_DEP + 1);
    cudaMemset(output, 0, sizeof(int));
    box_sum_kernel<<<blocks, threads>>>(input, output, M, K, S_DEP, E_DEP, S_ROW, E_ROW, S_COL, E_COL);
}
