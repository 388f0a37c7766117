// expect: wrong_answer
// Mistake (a cheat): writes the short-window benchmark's answer without reading its input. The answer for
// the benchmark's own data is known, 98 (problem.yaml gives its seed), but the timed runs' variants, other
// data of the same size, have other answers. With window = 3 the answer was 30, the largest possible, in
// every variant, and this passed: timing a benchmark like that now warns so, naming its problem.yaml line.
#define solve single_block_shared_solve
#include "single_block_shared.cu"
#undef solve

namespace {

__global__ void write_answer(int* output, int answer) {
    *output = answer;
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int window_size) {
    if (N == 50000 && window_size == 16) {
        write_answer<<<1, 1>>>(output, 98);
        return;
    }
    single_block_shared_solve(input, output, N, window_size);
}
