#pragma once
// The device's own memory ceiling, measured: a large device-to-device copy, counting the bytes
// read plus the bytes written. Percentages of peak are relative to this, not to a datasheet.
namespace gpujudge {

double measure_copy_bandwidth_gbps();

}  // namespace gpujudge
