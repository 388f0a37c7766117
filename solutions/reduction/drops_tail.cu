// expect: wrong_answer
// Mistake: float4 loads over N / 4 vectors, forgetting the N % 4 elements left at the end.
#include <cuda_runtime.h>

__global__ void reduce_vec4(const float4* input, float* output, int num_vectors) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < num_vectors; i += gridDim.x * blockDim.x) {
        float4 v = input[i];
        sum += (v.x + v.y) + (v.z + v.w);
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(output, sum);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    int num_vectors = N / 4;  // the tail N % 4 is silently dropped
    if (num_vectors > 0)
        reduce_vec4<<<264, 256>>>(reinterpret_cast<const float4*>(input), output, num_vectors);
}
