// expect: accepted
// step: 3
// Technique: overlap the write of one part with the read of the next. Columns are independent, so the
// matrix is cut into groups of 64 columns (16 threads read 256 contiguous bytes of a row as float4) and
// each group into chunks of rows. One launch holds two kinds of blocks: a reader adds its chunk's
// shifted sums (x - K, K = the column's row 0) into the group's per-column totals with atomics and counts
// itself in; a writer waits until every reader of its group has counted in, then normalises its chunk,
// whose second read hits L2 because the group was read moments before. Blocks take their role from a
// ticket drawn when they start, in the order: readers of groups 0 and 1, writers of 0, readers of 2,
// writers of 1, ... So while one group is written the next is read, and a writer only ever waits for
// blocks that started before it: no grid-wide barrier, no cooperative launch, and no need for the grid
// to fit on the GPU at once. Step 2 read everything before writing anything.
// The totals come in two sets, used by alternate calls: each call clears the set the next one uses, so
// no memset launch is needed between calls.
// On the H100 at N = 10000, C = 1024: 42.4 us, step 2 46.5 us in the same runs (`gpujudge submit`).
// Tried and slower there: 128-column groups (50 us); chunks of 32 rows (87 us: too few loads in flight);
// one persistent block per SM walking every group, with a counter per group (60 us: each block waits
// once per group, and nothing else on its SM hides that); reader and writer warps in one cooperative block
// per SM, the chunk kept in shared memory between them (43.6-47 us).
// Why not 95 % of the ceiling: the first groups' reads and the last group's writes do not overlap, every
// input byte crosses L2 twice, and a writer's wait for its group is a round trip behind its SM's queued
// loads. A copy of 41 MB (82 MB moved, this problem's bytes), timed like solve
// (tests/gpu/size_ceiling.cu), takes 26.1 us on the H100. Step 4 reads each byte once.
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kThreads = 256;
constexpr int kGroupColumns = 64;                   // 16 lanes x 4 columns
constexpr int kLanesPerRow = kGroupColumns / 4;     // threads that share one row of a group
constexpr int kRowSlots = kThreads / kLanesPerRow;  // rows a block reads at once
constexpr int kRowSteps = 12;                       // float4 loads in flight per thread
constexpr int kChunkRows = kRowSlots * kRowSteps;   // rows per block
constexpr int kLookahead = 1;                       // groups read before the first is written

struct Sums {
    float shifted_sum;      // sum of (x - K)
    float shifted_squares;  // sum of (x - K)^2
};

// One call's shared state: per-column totals, per group the readers counted in, and the ticket counter.
struct Totals {
    Sums* sums;
    unsigned* arrived;
    unsigned* tickets;
    int capacity;  // columns the set holds, all cleared for its next use (C may differ between calls)
};

// What a block does: the blocks of one group are `chunks` readers, then as many writers.
struct Role {
    bool writer;
    int group;
    int chunk;
};

// Tickets run in rounds of `chunks` blocks: the readers of the first kLookahead groups, then the readers
// of group g + kLookahead beside the writers of group g, then the last groups' writers. A writer's
// readers always hold smaller tickets.
__device__ Role role_of(unsigned ticket, int chunks, int groups) {
    const int round = static_cast<int>(ticket) / chunks, chunk = static_cast<int>(ticket) % chunks;
    const int ahead = min(kLookahead, groups), paired_rounds = 2 * (groups - ahead);
    if (round < ahead) return {false, round, chunk};
    if (round < ahead + paired_rounds) {
        const int k = (round - ahead) / 2;
        return (round - ahead) % 2 == 0 ? Role{false, ahead + k, chunk} : Role{true, k, chunk};
    }
    return {true, groups - ahead + (round - ahead - paired_rounds), chunk};
}

// Four neighbouring columns of one row; columns past C read as `fill`.
template <bool kVector>
__device__ float4 load4(const float* input, int C, int row, int c, float4 fill) {
    const float* p = input + static_cast<long long>(row) * C + c;
    if (kVector) return c < C ? *reinterpret_cast<const float4*>(p) : fill;
    return make_float4(c < C ? p[0] : fill.x, c + 1 < C ? p[1] : fill.y, c + 2 < C ? p[2] : fill.z,
                       c + 3 < C ? p[3] : fill.w);
}

template <bool kVector>
__device__ void store4(float* output, int C, int row, int c, float4 y) {
    float* p = output + static_cast<long long>(row) * C + c;
    if (kVector) {
        if (c < C) *reinterpret_cast<float4*>(p) = y;
        return;
    }
    const float v[4] = {y.x, y.y, y.z, y.w};
    for (int j = 0; j < 4 && c + j < C; ++j) p[j] = v[j];
}

__device__ void add_shifted(Sums& s, float x, float shift) {
    const float d = x - shift;
    s.shifted_sum += d;
    s.shifted_squares += d * d;
}

// A reader: adds its chunk's shifted sums into the group's totals and counts itself in.
template <bool kVector>
__device__ void read_chunk(const float* input, int N, int C, Role role, Totals totals) {
    __shared__ Sums s_partial[kRowSlots][kGroupColumns];
    const int lane_column = threadIdx.x % kLanesPerRow * 4, slot = threadIdx.x / kLanesPerRow;
    const int c = role.group * kGroupColumns + lane_column, first_row = role.chunk * kChunkRows + slot;
    const float4 shift = load4<kVector>(input, C, 0, c, make_float4(0, 0, 0, 0));
    float4 x[kRowSteps];
#pragma unroll
    for (int k = 0; k < kRowSteps; ++k) {
        const int row = first_row + k * kRowSlots;
        x[k] = row < N ? load4<kVector>(input, C, row, c, shift) : shift;  // shift adds 0
    }
    Sums s[4] = {};
#pragma unroll
    for (int k = 0; k < kRowSteps; ++k) {
        add_shifted(s[0], x[k].x, shift.x);
        add_shifted(s[1], x[k].y, shift.y);
        add_shifted(s[2], x[k].z, shift.z);
        add_shifted(s[3], x[k].w, shift.w);
    }
    for (int j = 0; j < 4; ++j) s_partial[slot][lane_column + j] = s[j];
    __syncthreads();
    const int column = role.group * kGroupColumns + threadIdx.x;
    if (threadIdx.x < kGroupColumns && column < C) {
        Sums chunk_sum = {};
        for (int k = 0; k < kRowSlots; ++k) {
            chunk_sum.shifted_sum += s_partial[k][threadIdx.x].shifted_sum;
            chunk_sum.shifted_squares += s_partial[k][threadIdx.x].shifted_squares;
        }
        atomicAdd(&totals.sums[column].shifted_sum, chunk_sum.shifted_sum);
        atomicAdd(&totals.sums[column].shifted_squares, chunk_sum.shifted_squares);
    }
    __threadfence();  // the sums reach every block before the count that announces them
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&totals.arrived[role.group], 1u);
}

// A writer: waits until every reader of its group has counted in, then normalises its chunk.
template <bool kVector>
__device__ void write_chunk(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                            float eps, int chunks, Role role, Totals totals) {
    __shared__ float s_mean[kGroupColumns], s_scale[kGroupColumns], s_beta[kGroupColumns];
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(totals.arrived[role.group]);
        while (arrived.load(cuda::memory_order_acquire) < static_cast<unsigned>(chunks)) {
        }
    }
    __syncthreads();
    const int column = role.group * kGroupColumns + threadIdx.x;
    if (threadIdx.x < kGroupColumns && column < C) {
        const float mean_shift = __ldcg(&totals.sums[column].shifted_sum) / N;  // mean - K
        const float squares = __ldcg(&totals.sums[column].shifted_squares) / N;
        const float variance = fmaxf(squares - mean_shift * mean_shift, 0.0f);
        s_mean[threadIdx.x] = input[column] + mean_shift;
        s_scale[threadIdx.x] = gamma[column] / sqrtf(variance + eps);
        s_beta[threadIdx.x] = beta[column];
    }
    __syncthreads();
    const int lc = threadIdx.x % kLanesPerRow * 4, slot = threadIdx.x / kLanesPerRow;
    const int c = role.group * kGroupColumns + lc, first_row = role.chunk * kChunkRows + slot;
    const float4 mean = make_float4(s_mean[lc], s_mean[lc + 1], s_mean[lc + 2], s_mean[lc + 3]);
    const float4 scale = make_float4(s_scale[lc], s_scale[lc + 1], s_scale[lc + 2], s_scale[lc + 3]);
    const float4 offset = make_float4(s_beta[lc], s_beta[lc + 1], s_beta[lc + 2], s_beta[lc + 3]);
    float4 x[kRowSteps];
#pragma unroll
    for (int k = 0; k < kRowSteps; ++k) {
        const int row = first_row + k * kRowSlots;
        x[k] = row < N ? load4<kVector>(input, C, row, c, mean) : mean;
    }
#pragma unroll
    for (int k = 0; k < kRowSteps; ++k) {
        const int row = first_row + k * kRowSlots;
        // (x - mean) * scale + beta: folding it into x * scale + (beta - mean * scale) would cancel
        // badly when the variance is near 0 and scale near gamma / sqrt(eps).
        const float4 y = make_float4((x[k].x - mean.x) * scale.x + offset.x, (x[k].y - mean.y) * scale.y + offset.y,
                                     (x[k].z - mean.z) * scale.z + offset.z, (x[k].w - mean.w) * scale.w + offset.w);
        if (row < N) store4<kVector>(output, C, row, c, y);
    }
}

template <bool kVector>
__global__ void __launch_bounds__(kThreads)
    batch_norm(const float* __restrict__ input, const float* __restrict__ gamma, const float* __restrict__ beta,
               float* __restrict__ output, int N, int C, float eps, int chunks, Totals totals, Totals next_call) {
    __shared__ unsigned s_ticket;
    if (threadIdx.x == 0) s_ticket = atomicAdd(totals.tickets, 1u);
    __syncthreads();
    const unsigned ticket = s_ticket;
    if (ticket == 0) {  // clear the set the next call will use; this call's was cleared by the previous one
        for (int i = threadIdx.x; i < next_call.capacity; i += kThreads) next_call.sums[i] = {};
        for (int i = threadIdx.x; i < (next_call.capacity + kGroupColumns - 1) / kGroupColumns; i += kThreads)
            next_call.arrived[i] = 0;
        if (threadIdx.x == 0) *next_call.tickets = 0;
    }
    const Role role = role_of(ticket, chunks, (C + kGroupColumns - 1) / kGroupColumns);
    if (role.writer)
        write_chunk<kVector>(input, gamma, beta, output, N, C, eps, chunks, role, totals);
    else
        read_chunk<kVector>(input, N, C, role, totals);
}

}  // namespace

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
    // The two sets of totals are kept between calls; they never carry an answer.
    static int capacity = 0;  // columns each set holds
    static Sums* d_sums = nullptr;
    static unsigned* d_counters = nullptr;  // per set: its groups' counts, then its ticket counter
    static int parity = 0;
    const auto groups_of = [](int columns) { return (columns + kGroupColumns - 1) / kGroupColumns; };
    if (C > capacity) {
        cudaFree(d_sums);
        cudaFree(d_counters);
        cudaMalloc(&d_sums, 2 * C * sizeof(Sums));
        cudaMalloc(&d_counters, 2 * (groups_of(C) + 1) * sizeof(unsigned));
        cudaMemset(d_sums, 0, 2 * C * sizeof(Sums));
        cudaMemset(d_counters, 0, 2 * (groups_of(C) + 1) * sizeof(unsigned));
        capacity = C;
    }
    const int set_counters = groups_of(capacity) + 1;
    Totals sets[2];
    for (int s = 0; s < 2; ++s) {
        unsigned* counters = d_counters + s * set_counters;
        sets[s] = {d_sums + s * capacity, counters, counters + set_counters - 1, capacity};
    }
    Totals totals = sets[parity], next_call = sets[parity ^ 1];
    parity ^= 1;

    int chunks = (N + kChunkRows - 1) / kChunkRows;
    const int blocks = 2 * groups_of(C) * chunks;  // a reader and a writer per chunk of every group
    const bool vector =
        C % 4 == 0 && reinterpret_cast<uintptr_t>(input) % 16 == 0 && reinterpret_cast<uintptr_t>(output) % 16 == 0;
    if (vector)
        batch_norm<true><<<blocks, kThreads>>>(input, gamma, beta, output, N, C, eps, chunks, totals, next_call);
    else
        batch_norm<false><<<blocks, kThreads>>>(input, gamma, beta, output, N, C, eps, chunks, totals, next_call);
}
