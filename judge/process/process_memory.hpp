#pragma once
// The host memory a process tree holds: what a submission's runner and everything it started take
// from the machine, for the judge's cap on it (no cgroup here: v1 read-only, and RLIMIT_AS breaks
// CUDA, whose address space is reserved, not used).
#include <cstdint>
#include <vector>

namespace gpujudge {

// `root` and every process below it (through any depth; one that exits meanwhile is passed over).
// Its children are read from /proc/<pid>/task/<tid>/children where the kernel has it
// (CONFIG_PROC_CHILDREN), else from every process's parent in /proc/<pid>/stat.
std::vector<int> process_tree(int root);

// Bytes the tree holds in memory: each process's proportional share of what it maps (Pss: a page
// shared after fork counts once among them) and the memory files (memfd) any of them holds open, each
// file once: a memfd filled with write() is mapped by no process.
std::uintmax_t process_tree_memory(int root);

}  // namespace gpujudge
