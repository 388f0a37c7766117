// expect: accepted
// Technique: the kernel of vectorized_float4.cu, launched on a private non-blocking stream; solve
// returns before it finishes. Correct (the judge synchronises the whole device), and its time must
// equal vectorized_float4.cu's: work hidden from the default stream is still timed.
#include <algorithm>

#define solve vectorized_float4_solve
#include "vectorized_float4.cu"
#undef solve

extern "C" void solve(const float* input, float* output, int N) {
    static cudaStream_t stream = nullptr;
    static int num_sms = 0;
    if (!stream) {
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device);
    }
    const int chunks = (N / 4 + kThreads * kUnroll - 1) / (kThreads * kUnroll);
    const int blocks = std::max(1, std::min({num_sms * kBlocksPerSm, chunks, kMaxBlocks}));
    reduce_float4_kernel<<<blocks, kThreads, 0, stream>>>(reinterpret_cast<const float4*>(input), input, output, N);
}
