// expect: wrong_answer
// cause: dropped_tail
// Mistake: reads A and B as float4 over N / 4 vectors and never handles the N % 4 elements left at the end.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__global__ void dot_vec4_kernel(const float4* A4, const float4* B4, float* result, int num_vectors) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < num_vectors; i += gridDim.x * blockDim.x) {
        float4 a = A4[i];
        float4 b = B4[i];
        sum += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(result, sum);
}

}  // namespace

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    cudaMemset(result, 0, sizeof(float));
    int num_vectors = N / 4;  // the last N % 4 products are silently lost
    if (num_vectors > 0)
        dot_vec4_kernel<<<264, kThreads>>>(reinterpret_cast<const float4*>(A),
                                           reinterpret_cast<const float4*>(B), result, num_vectors);
}
