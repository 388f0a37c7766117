// expect: accepted
// role: baseline
// Technique: cub::DeviceReduce::Sum over a Thrust transform iterator that maps 0..box_size-1 to the box's
// elements, so the library reduces the sub-box without copying it out.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/cub.cuh>

namespace {

// Reads the i-th element of the box, columns fastest.
struct BoxElement {
    const int* input;
    int M, K;
    int first_dep, first_row, first_col;
    int rows, cols;

    __host__ __device__ int operator()(int i) const {
        const int c = i % cols;
        const int r = (i / cols) % rows;
        const int d = i / cols / rows;
        return input[((first_dep + d) * M + first_row + r) * K + first_col + c];
    }
};

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
    (void)N;
    const int rows = E_ROW - S_ROW + 1;
    const int cols = E_COL - S_COL + 1;
    const int box_size = (E_DEP - S_DEP + 1) * rows * cols;
    auto elements = thrust::make_transform_iterator(thrust::counting_iterator<int>(0),
                                                    BoxElement{input, M, K, S_DEP, S_ROW, S_COL, rows, cols});

    // Temporary storage is kept between calls (it holds no answer, only scratch space).
    static void* d_temp_storage = nullptr;
    static size_t temp_capacity = 0;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, elements, output, box_size);
    if (temp_bytes > temp_capacity) {
        cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, temp_bytes);
        temp_capacity = temp_bytes;
    }
    cub::DeviceReduce::Sum(d_temp_storage, temp_bytes, elements, output, box_size);
}
