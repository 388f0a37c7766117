// expect: wrong_answer
// Mistake (a cheat): remembers the answer for each N and replays it. Every functional test has its
// own N, so only the timed runs — same N, other data — can catch it.
#include <map>

#define solve vectorized_float4_solve
#include "vectorized_float4.cu"
#undef solve

extern "C" void solve(const float* input, float* output, int N) {
    static std::map<int, float*> d_answers;
    auto it = d_answers.find(N);
    if (it != d_answers.end()) {
        cudaMemcpyAsync(output, it->second, sizeof(float), cudaMemcpyDeviceToDevice);
        return;
    }
    vectorized_float4_solve(input, output, N);
    float* d_saved = nullptr;
    cudaMalloc(&d_saved, sizeof(float));
    cudaMemcpyAsync(d_saved, output, sizeof(float), cudaMemcpyDeviceToDevice);
    d_answers[N] = d_saved;
}
