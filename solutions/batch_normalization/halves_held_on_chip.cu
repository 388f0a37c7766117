// expect: accepted
// step: 4
// Technique: hold every input byte on chip, read the left half of the columns before the right half, and
// keep the memory queue short. Each block of 512 threads takes a chunk of 640 rows of two groups of 64
// columns, group j (team 0, its first 256 threads) and group j + G/2 (team 1). A thread keeps its 40 float4s,
// 16 in registers and 24 in shared memory (cp.async): all 41 MB stay on chip and are read from memory once
// (step 3 read them twice). Team 1 starts loading when team 0 has issued its last load, so every SM reads
// its left group before its right one. A team adds its shifted sums into its group's totals, counts itself
// in, waits for the group's other blocks and writes its part from where it holds it: the left half is
// written while the right half is still being read.
// Loads go out in batches of 8 float4s per thread, two batches in flight. Why: an SM's memory requests
// queue in order, and a team's count-in and wait are round trips that queue behind everything its SM has
// asked for. With team 1's loads issued all at once, team 0 waited 6 µs for its group (traced with
// %globaltimer on the H100); in batches, 2-3 µs.
// On the H100 at N = 10000, C = 1024: 31.1 µs in `gpujudge submit`, 31.6 µs in `bench` (84-86 % of the
// ceiling), step 3 42.5 µs; a copy of the same 41 MB, timed like solve (tests/gpu/size_ceiling.cu),
// 26.1 µs. In a probe timed the same way this kernel took 30.5-31.4 µs; slower there: every load issued
// at once and every write after every read (33.5 µs); four teams (32.9-37.2 µs: each quarter is read by
// fewer threads per SM); team 1's loads through the TMA unit, row by row (42.7 µs) or as 2D boxes of a
// tensor map (30.6 µs, no gain); a persistent ring of column groups in shared memory (64-130 µs: a round
// trip per group, each behind the SM's queued loads). Thread block clusters, each group's blocks one cluster
// adding its totals through distributed shared memory with no count-in in global memory (on an H200,
// `bench` beside this kernel's 26.4 µs): clusters of 8 or 4 blocks fit only 120 of the 132 SMs at once
// (cudaOccupancyMaxActiveClusters), so 128 blocks ran in two waves (39.8 and 45.6 µs); clusters of 2 fit
// all, but split each row into 32-byte pieces (39.1 µs).
// No faster (0.1 µs at best, 0.4 µs slower at worst): L2 cache hints, evict-first on the bulk loads,
// evict-last or streaming on the stores. Slower: rows spread over the blocks so that all SMs read and write
// one band of rows at a time, as a copy does (31.6 µs).
// Why not 95 % of the ceiling (28.1 µs): no output of a column can be written before all of it is read,
// and each group's count-in costs round trips behind a full memory queue. This kernel's reads end at
// ~16 µs; its 41 MB of writes take most of the rest. Even with no wait at all (a probe whose answers are
// wrong) this order of reads and writes took 29.5 µs.
// Every block of a group must be resident at once: 16 blocks at N = 10000, one per SM.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cmath>
#include <cstdint>

namespace {

constexpr int kThreads = 512;
constexpr int kTeamThreads = kThreads / 2;      // team 0: left half of the columns, team 1: right half
constexpr int kGroupColumns = 64;               // 16 lanes x 4 columns
constexpr int kLanes = kGroupColumns / 4;       // threads that share one row of a group
constexpr int kSlots = kTeamThreads / kLanes;   // rows a team covers at once
constexpr int kRegSteps = 16, kSmemSteps = 24;  // float4s a thread holds in registers, in shared memory
constexpr int kSteps = kRegSteps + kSmemSteps;
constexpr int kChunkRows = kSlots * kSteps;        // rows per block
constexpr int kBatch = 8;                          // float4 loads per batch; two batches in flight
constexpr int kTeamBarrier = 1, kHalfBarrier = 3;  // named barriers: per team (1, 2), team 1 waits on 3
static_assert(kRegSteps % kBatch == 0 && kSmemSteps % kBatch == 0, "whole batches");
static_assert(kSmemSteps / kBatch >= 2, "team 0 signals team 1 when it issues its last shared-memory batch");
constexpr size_t kSmemBytes = size_t{kSmemSteps} * kThreads * sizeof(float4);

struct Sums {
    float shifted_sum;      // sum of (x - K)
    float shifted_squares;  // sum of (x - K)^2
};

// One call's shared state: per-column totals, per group the blocks counted in, and the ticket counter.
struct Totals {
    Sums* sums;
    unsigned* arrived;
    unsigned* tickets;
    int capacity;  // columns the set holds, all cleared for its next use (C may differ between calls)
};

__device__ void team_sync(int team) {
    asm volatile("bar.sync %0, %1;" ::"r"(kTeamBarrier + team), "r"(kTeamThreads) : "memory");
}

// Four neighbouring columns of one row; columns past C read as `fill`. Each input byte is read once, so the
// load marks its line evict-first (__ldcs), which leaves L2 to the writes (0.5 µs of 31 on the H100).
template <bool kVector>
__device__ float4 load4(const float* input, int C, int row, int c, float4 fill) {
    const float* p = input + static_cast<long long>(row) * C + c;
    if (kVector) return c < C ? __ldcs(reinterpret_cast<const float4*>(p)) : fill;
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

// The same four columns into shared memory, without passing through registers.
template <bool kVector>
__device__ void copy4_async(float4* dst, const float* input, int C, int row, int c) {
    const float* src = input + static_cast<long long>(row) * C + c;
    if (kVector) {
        if (c < C) __pipeline_memcpy_async(dst, src, 16);
        return;
    }
    float* d = reinterpret_cast<float*>(dst);
    for (int j = 0; j < 4 && c + j < C; ++j) __pipeline_memcpy_async(d + j, src + j, 4);
}

__device__ void add_shifted(Sums& s, float x, float shift) {
    const float d = x - shift;
    s.shifted_sum += d;
    s.shifted_squares += d * d;
}

// What one thread holds and where: its rows are first + k * kSlots, the first kRegSteps in registers.
struct Tile {
    int group, c, first;
    bool live;  // the team's group exists (the right half has one group fewer when G is odd)
};

template <bool kVector>
__global__ void __launch_bounds__(kThreads, 1)
    batch_norm(const float* __restrict__ input, const float* __restrict__ gamma, const float* __restrict__ beta,
               float* __restrict__ output, int N, int C, float eps, int chunks, Totals totals, Totals next_call) {
    extern __shared__ float4 s_x[];  // [kSmemSteps][kThreads]
    __shared__ unsigned s_ticket;
    __shared__ Sums s_partial[2][kSlots][kGroupColumns];
    __shared__ float s_mean[2][kGroupColumns], s_scale[2][kGroupColumns], s_beta[2][kGroupColumns];
    if (threadIdx.x == 0) s_ticket = atomicAdd(totals.tickets, 1u);
    __syncthreads();
    const unsigned ticket = s_ticket;
    const int groups = (C + kGroupColumns - 1) / kGroupColumns, half = (groups + 1) / 2;
    if (ticket == 0) {  // clear the set the next call will use; this call's was cleared by the previous one
        for (int i = threadIdx.x; i < next_call.capacity; i += kThreads) next_call.sums[i] = {};
        for (int i = threadIdx.x; i < (next_call.capacity + kGroupColumns - 1) / kGroupColumns; i += kThreads)
            next_call.arrived[i] = 0;
        if (threadIdx.x == 0) *next_call.tickets = 0;
    }
    const int team = threadIdx.x / kTeamThreads, t = threadIdx.x % kTeamThreads;
    const int lc = t % kLanes * 4, slot = t / kLanes;
    Tile tile;
    tile.group = static_cast<int>(ticket) / chunks + team * half;
    tile.live = tile.group < groups;
    tile.c = tile.group * kGroupColumns + lc;
    tile.first = static_cast<int>(ticket) % chunks * kChunkRows + slot;
    const int c = tile.c;
    auto row_of = [&](int k) { return tile.first + k * kSlots; };
    auto smem_of = [&](int k) -> float4& { return s_x[(k - kRegSteps) * kThreads + threadIdx.x]; };

    // The right half's loads wait until the left half's last batch is on its way.
    if (team == 1) asm volatile("bar.sync %0, %1;" ::"r"(kHalfBarrier), "r"(kThreads) : "memory");
    const float4 zero = make_float4(0, 0, 0, 0);
    const float4 shift = tile.live ? load4<kVector>(input, C, 0, c, zero) : zero;
    Sums s[4] = {};
    auto add4 = [&](float4 v) {  // columns past C are never read back
        if (c < C) add_shifted(s[0], v.x, shift.x);
        if (c + 1 < C) add_shifted(s[1], v.y, shift.y);
        if (c + 2 < C) add_shifted(s[2], v.z, shift.z);
        if (c + 3 < C) add_shifted(s[3], v.w, shift.w);
    };
    float4 x[kRegSteps];
    // Registers: each batch's loads go out before the previous batch is added (the empty asm keeps the
    // compiler from hoisting every load to the top).
#pragma unroll
    for (int b = 0; b < kRegSteps / kBatch; ++b) {
#pragma unroll
        for (int k = b * kBatch; k < (b + 1) * kBatch; ++k)
            x[k] = tile.live && row_of(k) < N ? load4<kVector>(input, C, row_of(k), c, shift) : shift;  // adds 0
        asm volatile("" ::: "memory");
        if (b > 0) {
#pragma unroll
            for (int k = (b - 1) * kBatch; k < b * kBatch; ++k) add4(x[k]);
        }
        asm volatile("" ::: "memory");
    }
    // Shared memory: batch b + 1 goes out before batch b is waited for.
    auto issue = [&](int b) {
        for (int k = kRegSteps + b * kBatch; k < kRegSteps + (b + 1) * kBatch; ++k)
            if (tile.live && row_of(k) < N) copy4_async<kVector>(&smem_of(k), input, C, row_of(k), c);
        __pipeline_commit();
    };
    constexpr int kSmemBatches = kSmemSteps / kBatch;
    issue(0);
#pragma unroll
    for (int k = kRegSteps - kBatch; k < kRegSteps; ++k) add4(x[k]);
#pragma unroll 1
    for (int b = 0; b < kSmemBatches; ++b) {
        if (b + 1 < kSmemBatches) {
            issue(b + 1);
            if (team == 0 && b + 2 == kSmemBatches)
                asm volatile("bar.arrive %0, %1;" ::"r"(kHalfBarrier), "r"(kThreads) : "memory");
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        for (int k = kRegSteps + b * kBatch; k < kRegSteps + (b + 1) * kBatch; ++k)
            if (tile.live && row_of(k) < N) add4(smem_of(k));
    }

    // The team's sums into its group's totals; then count in and wait for the group's other blocks.
    for (int j = 0; j < 4; ++j) s_partial[team][slot][lc + j] = s[j];
    team_sync(team);
    const int column = tile.group * kGroupColumns + t;
    const bool owns_column = t < kGroupColumns && tile.live && column < C;
    if (owns_column) {
        Sums total = {};
        for (int k = 0; k < kSlots; ++k) {
            total.shifted_sum += s_partial[team][k][t].shifted_sum;
            total.shifted_squares += s_partial[team][k][t].shifted_squares;
        }
        atomicAdd(&totals.sums[column].shifted_sum, total.shifted_sum);
        atomicAdd(&totals.sums[column].shifted_squares, total.shifted_squares);
    }
    team_sync(team);
    if (t == 0 && tile.live) {
        __threadfence();  // the sums reach every block before the count that announces them
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(totals.arrived[tile.group]);
        arrived.fetch_add(1u, cuda::memory_order_relaxed);
        while (arrived.load(cuda::memory_order_acquire) < static_cast<unsigned>(chunks)) __nanosleep(64);
    }
    team_sync(team);
    if (owns_column) {
        const float mean_shift = __ldcg(&totals.sums[column].shifted_sum) / N;  // mean - K
        const float squares = __ldcg(&totals.sums[column].shifted_squares) / N;
        const float variance = fmaxf(squares - mean_shift * mean_shift, 0.0f);
        s_mean[team][t] = input[column] + mean_shift;
        s_scale[team][t] = gamma[column] / sqrtf(variance + eps);
        s_beta[team][t] = beta[column];
    }
    team_sync(team);
    if (!tile.live) return;
    const float4 mean = make_float4(s_mean[team][lc], s_mean[team][lc + 1], s_mean[team][lc + 2], s_mean[team][lc + 3]);
    const float4 scale =
        make_float4(s_scale[team][lc], s_scale[team][lc + 1], s_scale[team][lc + 2], s_scale[team][lc + 3]);
    const float4 offset =
        make_float4(s_beta[team][lc], s_beta[team][lc + 1], s_beta[team][lc + 2], s_beta[team][lc + 3]);
    // (x - mean) * scale + beta: folding it into x * scale + (beta - mean * scale) would cancel badly when
    // the variance is near 0 and scale near gamma / sqrt(eps).
    auto normalise = [&](float4 v) {
        return make_float4((v.x - mean.x) * scale.x + offset.x, (v.y - mean.y) * scale.y + offset.y,
                           (v.z - mean.z) * scale.z + offset.z, (v.w - mean.w) * scale.w + offset.w);
    };
#pragma unroll
    for (int k = 0; k < kRegSteps; ++k)
        if (row_of(k) < N) store4<kVector>(output, C, row_of(k), c, normalise(x[k]));
#pragma unroll 4
    for (int k = kRegSteps; k < kSteps; ++k)
        if (row_of(k) < N) store4<kVector>(output, C, row_of(k), c, normalise(smem_of(k)));
}

}  // namespace

extern "C" void solve(const float* input, const float* gamma, const float* beta, float* output, int N, int C,
                      float eps) {
    // The two sets of totals are kept between calls; they never carry an answer.
    static int capacity = 0;  // columns each set holds
    static Sums* d_sums = nullptr;
    static unsigned* d_counters = nullptr;  // per set: its groups' counts, then its ticket counter
    static int parity = 0;
    static bool configured = false;
    const auto groups_of = [](int columns) { return (columns + kGroupColumns - 1) / kGroupColumns; };
    if (!configured) {
        cudaFuncSetAttribute(batch_norm<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
        cudaFuncSetAttribute(batch_norm<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
        configured = true;
    }
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

    const int chunks = (N + kChunkRows - 1) / kChunkRows;
    const int blocks = chunks * ((groups_of(C) + 1) / 2);  // a block per chunk of rows and pair of groups
    const bool vector =
        C % 4 == 0 && reinterpret_cast<uintptr_t>(input) % 16 == 0 && reinterpret_cast<uintptr_t>(output) % 16 == 0;
    if (vector)
        batch_norm<true>
            <<<blocks, kThreads, kSmemBytes>>>(input, gamma, beta, output, N, C, eps, chunks, totals, next_call);
    else
        batch_norm<false>
            <<<blocks, kThreads, kSmemBytes>>>(input, gamma, beta, output, N, C, eps, chunks, totals, next_call);
}
