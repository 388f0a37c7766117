#pragma once
// The NVIDIA GPUs as the driver lists them (/proc/driver/nvidia/gpus/<bus>/information), and the device
// nodes a process needs to reach one of them: a grade worker's runner is given its own GPU's node
// alone, so that nothing it starts (a Python child with CUDA_VISIBLE_DEVICES unset) can open another.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpujudge {

struct nvidia_gpu {
    std::string bus;   // "0000:00:06.0"
    std::string uuid;  // "GPU-ef43b9be-...": CUDA_VISIBLE_DEVICES takes it, however the GPUs are numbered
    int minor = -1;    // its node, /dev/nvidia<minor>
};

// The GPUs listed under `listing`, in PCI bus order (nvidia-smi's numbering, and CUDA's with
// CUDA_DEVICE_ORDER=PCI_BUS_ID); empty where there is no such folder (no NVIDIA driver).
std::vector<nvidia_gpu> nvidia_gpus(const std::filesystem::path& listing = "/proc/driver/nvidia/gpus");

// The NVIDIA device nodes under `dev` to bind: nvidiactl, nvidia-uvm, nvidia-caps (MIG) and the other
// shared ones, and of the GPUs' own nodes (nvidia0, nvidia1, ...) only /dev/nvidia<gpu_minor>, or all
// of them without one. With only its node, CUDA in the process lists that GPU alone.
std::vector<std::filesystem::path> nvidia_device_nodes(const std::filesystem::path& dev, std::optional<int> gpu_minor);

}  // namespace gpujudge
