// The host memory a process tree holds (judge/process/process_memory.hpp), what the judge holds a
// submission's runner to: a child's pages count, and a memory file held by two processes counts once.
#include "process/process_memory.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace gpujudge;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Writes `bytes` into a new memory file with write(), never mapping it.
void fill_memory_file(std::size_t bytes) {
    const int fd = memfd_create("held", 0);
    if (fd < 0) _exit(2);
    const std::vector<char> block(kMiB, 'm');
    for (std::size_t done = 0; done < bytes; done += kMiB)
        if (write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) _exit(3);
}

}  // namespace

TEST_CASE("a process tree's memory: its children's pages, and a memory file its processes share, once", "[process]") {
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t parent = fork();
    if (parent == 0) {
        fill_memory_file(64 * kMiB);  // the child inherits its descriptor
        const pid_t child = fork();
        if (child == 0) {
            static std::vector<char> held(32 * kMiB);
            std::memset(held.data(), 1, held.size());
            if (write(ready[1], "c", 1) != 1) _exit(4);
            pause();
            _exit(0);
        }
        if (write(ready[1], "p", 1) != 1) _exit(4);
        waitpid(child, nullptr, 0);
        _exit(0);
    }
    close(ready[1]);
    char got[2];
    REQUIRE(read(ready[0], got, 1) == 1);
    REQUIRE(read(ready[0], got + 1, 1) == 1);
    close(ready[0]);

    const auto tree = process_tree(parent);
    const auto held = process_tree_memory(parent);
    for (const int pid : tree)
        if (pid != parent) kill(pid, SIGKILL);
    kill(parent, SIGKILL);
    waitpid(parent, nullptr, 0);

    REQUIRE(tree.size() == 2);
    CHECK(tree.front() == parent);
    CHECK(held >= 96 * kMiB);  // the file and the child's vector
    CHECK(held < 128 * kMiB);  // the file once, not once per process holding it
}

TEST_CASE("a process that is gone holds nothing, and its tree is itself alone", "[process]") {
    const pid_t gone = fork();
    if (gone == 0) _exit(0);
    waitpid(gone, nullptr, 0);
    CHECK(process_tree(gone) == std::vector<int>{gone});
    CHECK(process_tree_memory(gone) == 0);
}
