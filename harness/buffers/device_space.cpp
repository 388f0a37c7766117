#include "buffers/memory_space.hpp"
#include "device/blocking_kernel.hpp"
#include "device/cuda_check.hpp"
#include "device/cuda_resources.hpp"
#include "device/device_kernels.hpp"
#include "device/l2_flush.hpp"
#include "device/output_sample.hpp"
#include "timing/thread_cpu.hpp"

#include <cuda_profiler_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>

namespace gpujudge {

namespace {

// Events on the legacy default stream bracket what solve launches there; the host clock, read
// after a whole-device synchronise, also sees what it left running on private streams.
class device_timer final : public call_timer {
public:
    void before_call() override {
        watch_.seed = seeds_();
        if (!blocking_ && watch_.num_outputs > 0) blocker_.check(watch_);  // before the clocks start
        threads_mark_ = read_thread_cpu();  // outside the clocks: a reading takes about 9 us
        host_start_ = std::chrono::steady_clock::now();
        if (blocking_) blocker_.block(&watch_);
        GJ_CUDA_CHECK(cudaEventRecord(start_.get(), 0));
        solve_start_ = std::chrono::steady_clock::now();
    }
    void after_return() override {
        solve_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - solve_start_).count();
        GJ_CUDA_CHECK(cudaEventRecord(stop_.get(), 0));
        if (blocking_) blocker_.release();
        queue_ms_ = since_start_ms();
    }
    void after_finish() override {
        // First, inside the host clock: a sample something delays (a helper's kernel holding every SM)
        // is timed, and what it reads was there as the clock stopped. Empty calls sample as much.
        sampled_ = sample_.read(watch_, at_finish_);
        host_ms_ = since_start_ms();
        // A call that failed (finish_call reported why) leaves no time: the verdict is its error.
        event_ms_ = stop_.elapsed_since(start_).value_or(0.0f);
        // The call alone: between calls the driver's own threads work (20-60 us of CPU in about half the
        // waits for a 41 MB output on an H200), which would hide what a host function does.
        other_threads_ms_ = other_threads_used(threads_mark_, read_thread_cpu());
    }
    double event_ms() const override { return event_ms_; }
    double host_ms() const override { return host_ms_; }
    double queue_ms() const override { return queue_ms_; }
    double solve_ms() const override { return solve_ms_; }
    void set_blocking(bool on) override { blocking_ = on; }
    std::string hold_failure() const override { return blocking_ ? blocker_.failure() : std::string(); }
    double launch_ms() const override { return blocking_ ? blocker_.launch_ms() : 0; }
    double other_threads_ms() const override { return other_threads_ms_; }
    void watch(const poison_watch& outputs) override { watch_ = outputs; }
    std::optional<early_write> written_before_call() const override { return blocker_.written_early(); }
    std::optional<late_write> written_after_call() override {
        std::uint32_t later[kSampleWords];
        if (!sampled_ || !sample_.read(watch_, later)) return std::nullopt;
        return first_change(watch_, at_finish_, later);
    }

private:
    double since_start_ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start_).count();
    }

    cuda_event start_, stop_;
    blocking_kernel blocker_;
    output_sample sample_;
    std::uint32_t at_finish_[kSampleWords] = {};
    bool sampled_ = false;  // at_finish_ holds the last call's sample
    bool blocking_ = true;
    poison_watch watch_;
    std::mt19937_64 seeds_{std::random_device{}()};
    std::chrono::steady_clock::time_point host_start_, solve_start_;
    thread_cpu_reading threads_mark_;  // the other threads' CPU times before the call
    double event_ms_ = 0, host_ms_ = 0, queue_ms_ = 0, solve_ms_ = 0, other_threads_ms_ = 0;
};

// Runs `use` with `params` whose value list (cycle, literal) is a device copy, freed once it has run.
template <typename Use>
auto with_device_values(const generator_params& params, Use&& use) {
    if (params.num_values == 0) return use(params);
    device_allocation d_values(params.num_values * sizeof(double));
    GJ_CUDA_CHECK(cudaMemcpy(d_values.get(), params.values, d_values.size_bytes(), cudaMemcpyHostToDevice));
    generator_params on_device = params;
    on_device.values = static_cast<const double*>(d_values.get());
    return use(on_device);
}

void CUDART_CB do_nothing(void*) {}  // a host function, to start the driver's thread for them

class device_space final : public memory_space {
public:
    void* allocate(std::size_t bytes) override {
        void* pointer = nullptr;
        GJ_CUDA_CHECK(cudaMalloc(&pointer, bytes));
        return pointer;
    }
    void deallocate(void* pointer) noexcept override { cudaFree(pointer); }
    void upload(void* dst, const void* h_src, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemcpy(dst, h_src, bytes, cudaMemcpyHostToDevice));
    }
    void download(void* h_dst, const void* src, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemcpy(h_dst, src, bytes, cudaMemcpyDeviceToHost));
    }
    void copy(void* dst, const void* src, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    }
    void fill(void* dst, unsigned char byte, std::size_t bytes) override {
        GJ_CUDA_CHECK(cudaMemset(dst, byte, bytes));
    }
    void generate(void* dst, const generator_params& params, element_type type, std::size_t num_items) override {
        with_device_values(
            params, [&](const generator_params& on_device) { generate_on_device(on_device, type, dst, num_items); });
    }
    std::optional<std::size_t> first_ungenerated(const void* now, const generator_params& params, element_type type,
                                                 std::size_t num_items, const std::uint64_t* h_indices,
                                                 const std::uint32_t* h_bits, std::size_t num_changes) override {
        return with_device_values(params, [&](const generator_params& on_device) {
            return first_ungenerated_on_device(on_device, type, now, num_items, h_indices, h_bits, num_changes);
        });
    }
    void scatter(void* dst, const std::uint64_t* h_indices, const std::uint32_t* h_bits,
                 std::size_t num_items) override {
        scatter_on_device(dst, h_indices, h_bits, num_items);
    }
    call_status finish_call() override {
        // cudaDeviceSynchronize waits for every stream, the submission's private ones included.
        const cudaError_t sync = cudaDeviceSynchronize();
        const cudaError_t last = cudaGetLastError();
        const cudaError_t error = sync != cudaSuccess ? sync : last;
        if (error == cudaSuccess) return {};
        call_status status;
        status.ok = false;
        status.error = describe_cuda_error(error);
        // A sticky error (a faulting kernel) poisons the context: every later call fails too.
        status.context_lost = cudaDeviceSynchronize() != cudaSuccess;
        return status;
    }
    void flush_caches() override {
        if (!flush_buffer_) {
            int device = 0, l2_bytes = 0, persisting_bytes = 0;
            GJ_CUDA_CHECK(cudaGetDevice(&device));
            GJ_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
            GJ_CUDA_CHECK(cudaDeviceGetAttribute(&persisting_bytes, cudaDevAttrMaxPersistingL2CacheSize, device));
            flush_buffer_.emplace(2 * static_cast<std::size_t>(l2_bytes));  // twice the L2: nothing of before stays
            persisting_l2_ = persisting_bytes > 0;
        }
        // Lines a solve marked persisting (an access policy window in a set-aside of the L2) outlive
        // ordinary writes and reads: made normal again, with no set-aside, the flush evicts them too.
        if (persisting_l2_) {
            GJ_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
            GJ_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
        }
        GJ_CUDA_CHECK(cudaMemset(flush_buffer_->get(), ++flush_value_, flush_buffer_->size_bytes()));
        if (!write_only_flush_) read_through(flush_buffer_->get(), flush_buffer_->size_bytes());
        GJ_CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::unique_ptr<call_timer> make_timer() override { return std::make_unique<device_timer>(); }
    void before_solve_alone() override {
        GJ_CUDA_CHECK(cudaLaunchHostFunc(0, do_nothing, nullptr));
        GJ_CUDA_CHECK(cudaDeviceSynchronize());
    }
    void set_profiling(bool on) override {
        if (on)
            GJ_CUDA_CHECK(cudaProfilerStart());
        else
            cudaProfilerStop();
    }

private:
    std::optional<device_allocation> flush_buffer_;
    unsigned char flush_value_ = 0;
    bool persisting_l2_ = false;  // the device has a set-aside for persisting lines
    // GPUJUDGE_L2_FLUSH=write keeps nvbench's write-only flush, to compare with its figures.
    const bool write_only_flush_ = [] {
        const char* mode = std::getenv("GPUJUDGE_L2_FLUSH");
        return mode && std::strcmp(mode, "write") == 0;
    }();
};

}  // namespace

std::unique_ptr<memory_space> make_device_space() {
    return std::make_unique<device_space>();
}

}  // namespace gpujudge
