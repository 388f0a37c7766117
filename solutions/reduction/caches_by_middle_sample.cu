// expect: wrong_answer
// Mistake (a cheat): keys a cache on N and eight values read from the middle of the input (none
// within 2048 of either end) and replays the stored answer. Timed runs use variants of the data
// that differ at a few secret positions, which a sample almost never sees, so it replays an
// answer that belongs to another variant.
#include <array>
#include <map>

#define solve vectorized_float4_solve
#include "vectorized_float4.cu"
#undef solve

extern "C" void solve(const float* input, float* output, int N) {
    static std::map<std::array<float, 9>, float*> d_answers;  // device copies of earlier results
    std::array<float, 9> key{};
    key[8] = static_cast<float>(N);
    for (int k = 0; k < 8 && N > 8192; ++k)
        cudaMemcpy(&key[k], input + 2048 + k * ((N - 4096) / 8), sizeof(float), cudaMemcpyDeviceToHost);
    auto it = d_answers.find(key);
    if (it != d_answers.end()) {
        cudaMemcpyAsync(output, it->second, sizeof(float), cudaMemcpyDeviceToDevice);
        return;
    }
    vectorized_float4_solve(input, output, N);
    float* d_saved = nullptr;
    cudaMalloc(&d_saved, sizeof(float));
    cudaMemcpyAsync(d_saved, output, sizeof(float), cudaMemcpyDeviceToDevice);
    d_answers[key] = d_saved;
}
