// expect: accepted
// step: 3
// Technique: the runs kernel with more loads in flight per warp. A segment is at most 1024 ints, so each
// lane issues its (up to) eight 16-byte loads, predicated, before the first add, instead of a loop whose
// last rounds each wait on memory again; and a warp takes two segments per step (a box row of 489 ints is
// one), their loads in flight together: half the round trips. (Four segments of 512 ints measured slower.) The box reads 477 MB of the 500 MB
// array: bandwidth-bound, one memset and one kernel per call.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kVectorsPerLane = 8;
constexpr int kItems = 2;  // work items per step, all their loads in flight together
constexpr int kSegment = 32 * 4 * kVectorsPerLane;  // ints per work item: one round of loads per lane

struct Runs {
    int count;         // number of runs
    int length;        // ints per run
    int per_plane;     // runs that share one depth plane
    int first;         // index of the first element of run 0
    int segments;      // segments per run
    long long items;   // count * segments
    int plane_stride;  // M * K
    int row_stride;    // K
};

// Sum of ptr[0..n) (n <= kSegment) by the 32 lanes of a warp; ptr may sit at any 4-byte offset. Every
// 16-byte load of the body is issued before the first add: kVectorsPerLane predicated loads per lane.
__device__ int warp_range_sum(const int* ptr, int n, int lane) {
    const int misalign = static_cast<int>(reinterpret_cast<uintptr_t>(ptr) % 16) / 4;
    const int head = min(n, (4 - misalign) % 4);
    const int4* body = reinterpret_cast<const int4*>(ptr + head);
    const int num_vectors = (n - head) / 4;
    const int tail_begin = head + 4 * num_vectors;
    int4 v[kVectorsPerLane];
#pragma unroll
    for (int k = 0; k < kVectorsPerLane; ++k) {
        const int i = lane + 32 * k;
        v[k] = i < num_vectors ? __ldg(body + i) : make_int4(0, 0, 0, 0);
    }
    int sum = lane < head ? ptr[lane] : 0;
    if (lane < n - tail_begin) sum += ptr[tail_begin + lane];
#pragma unroll
    for (int k = 0; k < kVectorsPerLane; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    return sum;
}

__global__ void box_sum_kernel(const int* input, int* output, Runs runs) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    auto item_sum = [&](long long item) {
        const int run = static_cast<int>(item / runs.segments);
        const int segment = static_cast<int>(item % runs.segments);
        const long long run_start = runs.first +
                                    static_cast<long long>(run / runs.per_plane) * runs.plane_stride +
                                    static_cast<long long>(run % runs.per_plane) * runs.row_stride;
        const int offset = segment * kSegment;
        return warp_range_sum(input + run_start + offset, min(kSegment, runs.length - offset), lane);
    };
    const long long stride = static_cast<long long>(gridDim.x) * kWarps;
    int sum = 0;
    long long item = static_cast<long long>(blockIdx.x) * kWarps + warp;
    for (; item + (kItems - 1) * stride < runs.items; item += kItems * stride) {
        int sums[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) sums[i] = item_sum(item + i * stride);
#pragma unroll
        for (int i = 0; i < kItems; ++i) sum += sums[i];
    }
    for (; item < runs.items; item += stride) sum += item_sum(item);

    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ int warp_sums[kWarps];
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < kWarps ? warp_sums[lane] : 0;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(output, sum);
    }
}

int resident_blocks() {
    int device = 0, sms = 0, threads_per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    return sms * (threads_per_sm / kThreads);
}

}  // namespace

extern "C" void solve(const int* input, int* output, int N, int M, int K, int S_DEP, int E_DEP, int S_ROW,
                      int E_ROW, int S_COL, int E_COL) {
    (void)N;
    const int depth = E_DEP - S_DEP + 1, rows = E_ROW - S_ROW + 1, cols = E_COL - S_COL + 1;
    Runs runs;
    runs.plane_stride = M * K;
    runs.row_stride = K;
    runs.first = (S_DEP * M + S_ROW) * K + S_COL;
    if (cols == K && rows == M) {  // whole planes: the box is one contiguous block of memory
        runs.count = 1;
        runs.length = depth * M * K;
        runs.per_plane = 1;
    } else if (cols == K) {  // full rows: each plane contributes one contiguous slab
        runs.count = depth;
        runs.length = rows * K;
        runs.per_plane = 1;
    } else {  // one run per row of the box
        runs.count = depth * rows;
        runs.length = cols;
        runs.per_plane = rows;
    }
    runs.segments = (runs.length + kSegment - 1) / kSegment;
    runs.items = static_cast<long long>(runs.count) * runs.segments;

    const long long blocks_needed = (runs.items + kWarps - 1) / kWarps;
    const int blocks =
        static_cast<int>(blocks_needed < resident_blocks() ? blocks_needed : resident_blocks());
    cudaMemsetAsync(output, 0, sizeof(int));
    box_sum_kernel<<<blocks, kThreads>>>(input, output, runs);
}
