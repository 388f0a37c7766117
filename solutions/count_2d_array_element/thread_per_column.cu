// expect: wrong_answer
// cause: one_block
// Mistake: one block per row and one thread per column, with the block capped at 1024 threads, the most
// a block may have. Columns 1024 and beyond are never looked at, so any match there is missed.
#include <cuda_runtime.h>

__global__ void count_row(const int* input, int* output, int M, int K) {
    const int row = blockIdx.x;
    const int col = threadIdx.x;  // should loop: for (col = threadIdx.x; col < M; col += blockDim.x)
    if (col < M && input[row * M + col] == K) atomicAdd(output, 1);
}

extern "C" void solve(const int* input, int* output, int N, int M, int K) {
    cudaMemset(output, 0, sizeof(int));
    const int threads = M < 1024 ? M : 1024;
    count_row<<<N, threads>>>(input, output, M, K);
}
