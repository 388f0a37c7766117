// The reference job's inputs: generated once into memory files, mapped copy-on-write per request.
#include "buffers/data_set.hpp"
#include "runner/copy_on_write_inputs.hpp"
#include "spec/problem_spec.hpp"

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>

using namespace gpujudge;

namespace {

const problem_spec& tiny_sum() {
    static const problem_spec spec = load_problem(GPUJUDGE_TEST_FIXTURES "/problems/tiny_sum");
    return spec;
}

bool same_bytes(const void* mapped, const host_array& expected) {
    return std::memcmp(mapped, expected.data(), expected.size_bytes()) == 0;
}

}  // namespace

TEST_CASE("a copy-on-write view holds the same inputs as a fresh generation, with its own changes alone",
          "[reference]") {
    const problem_spec& spec = tiny_sum();
    const test_spec& test = spec.tests.back();  // the largest
    const std::uint64_t seed = 77;
    const copy_on_write_inputs shared(spec, test, seed);
    const data_set_spec plain{seed, {}};
    const data_set_spec changed{seed, {{0, 3, 0x3f800000u}, {0, 1000, 0xc0000000u}}};
    const auto expected_plain = host_inputs(spec, test, plain);
    const auto expected_changed = host_inputs(spec, test, changed);
    REQUIRE(expected_plain.size() == 1);
    const std::string& name = expected_plain.begin()->first;
    {
        const copy_on_write_inputs::view view(shared, spec, changed);
        CHECK(same_bytes(view.pointers().at(name), expected_changed.at(name)));
        CHECK_FALSE(same_bytes(view.pointers().at(name), expected_plain.at(name)));
        // What a reference writes into its view stays there too.
        std::memset(view.pointers().at(name), 0xff, 64);
    }
    const copy_on_write_inputs::view again(shared, spec, plain);
    CHECK(same_bytes(again.pointers().at(name), expected_plain.at(name)));
}

TEST_CASE("a view's input ends where an unreadable page begins: a read one past it faults", "[reference]") {
    // A reference that summed one element past its input (i <= N) read zeros there, validated, and its
    // wrong answers failed correct submissions.
    const problem_spec& spec = tiny_sum();
    for (const test_spec& test : spec.tests) {
        const copy_on_write_inputs shared(spec, test, 5);
        const copy_on_write_inputs::view view(shared, spec, {5, {}});
        const auto* input = static_cast<const volatile float*>(view.pointers().begin()->second);
        const long long count = spec.element_count(spec.params.front(), test.scalars);
        INFO(test.name);
        const pid_t child = fork();
        if (child == 0) {
            float sum = 0;
            for (long long i = 0; i <= count; ++i) sum += input[i];
            _exit(sum == 12345.f ? 1 : 0);
        }
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == SIGSEGV);
    }
}

namespace {

// The signal that ended a child that read `input[-1]`, 0 if none; the value read otherwise.
int read_before(const volatile float* input, float& value) {
    int pipe_ends[2];
    REQUIRE(pipe(pipe_ends) == 0);
    const pid_t child = fork();
    if (child == 0) {
        const float read = input[-1];
        _exit(write(pipe_ends[1], &read, sizeof read) == sizeof read ? 0 : 1);
    }
    close(pipe_ends[1]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    const bool read = ::read(pipe_ends[0], &value, sizeof value) == sizeof value;
    close(pipe_ends[0]);
    if (WIFSIGNALED(status)) return WTERMSIG(status);
    CHECK(read);
    return 0;
}

}  // namespace

TEST_CASE("a read one before a view's input faults on a page's start, or reads large values drawn per process",
          "[reference]") {
    // A reference that summed from input[-1] read the pad's zeros and validated. Now two runs of it
    // (validate runs the reference twice, in two processes) read different values.
    const problem_spec& spec = tiny_sum();
    test_spec test = spec.tests.back();
    for (const int N : {5, 1000, 100000}) {
        test.scalars["N"] = N;
        INFO("N = " << N);
        const copy_on_write_inputs first(spec, test, 3), second(spec, test, 3);
        const copy_on_write_inputs::view first_view(first, spec, {3, {}}), second_view(second, spec, {3, {}});
        float a = 0, b = 0;
        REQUIRE(read_before(static_cast<const float*>(first_view.pointers().at("input")), a) == 0);
        REQUIRE(read_before(static_cast<const float*>(second_view.pointers().at("input")), b) == 0);
        CHECK(std::abs(a) >= 1e6f);
        CHECK(std::abs(b) >= 1e6f);
        CHECK(a != b);
    }
    test.scalars["N"] = 1024;  // 4096 bytes: the input starts a page, with no pad before it
    const copy_on_write_inputs shared(spec, test, 3);
    const copy_on_write_inputs::view view(shared, spec, {3, {}});
    float value = 0;
    CHECK(read_before(static_cast<const float*>(view.pointers().at("input")), value) == SIGSEGV);
}

TEST_CASE("an input larger than the file size limit is copied per request instead, with the same bytes",
          "[reference]") {
    // In a child process: the limit holds for the whole process, and a write past it raises SIGXFSZ.
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const rlimit small{1000, 1000};
        setrlimit(RLIMIT_FSIZE, &small);
        const problem_spec& spec = tiny_sum();
        const test_spec& test = spec.tests.back();  // 400 KB of input
        const copy_on_write_inputs shared(spec, test, 9);
        const data_set_spec changed{9, {{0, 5, 0x3f800000u}}};
        const auto expected = host_inputs(spec, test, changed);
        const copy_on_write_inputs::view view(shared, spec, changed);
        const auto& [name, values] = *expected.begin();
        _exit(same_bytes(view.pointers().at(name), values) ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
