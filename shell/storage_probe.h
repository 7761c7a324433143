// storage_probe.h — the probe's measurements that need no GPU: sequential read throughput of a dataset
// directory, write + fsync throughput of a checkpoint directory, and the host's inventory. POSIX only.
#pragma once
#include <string>

#include "documents/probe_suggestions.h"

namespace gpucost::cli {

// Reads the regular files under `dir` (recursively, directory order) sequentially in 8 MiB chunks until
// max_bytes or the end of the data. Asks the kernel first to drop the files' cached pages
// (posix_fadvise DONTNEED; clean pages only), so a second run does not measure the page cache.
// Returns false with *error set when nothing could be read.
bool MeasureDatasetRead(const std::string& dir, double max_bytes, ProbeStorage* out, std::string* error);

// Writes one temporary file of `bytes` (8 MiB chunks of incompressible data) into `dir`, fsyncs it and
// the directory; the time runs from creating the file to the end of the fsyncs. The file is always removed.
bool MeasureCheckpointWrite(const std::string& dir, double bytes, ProbeStorage* out, std::string* error);

// Host name, CPU model, logical CPUs, RAM (GB = 1e9 bytes), OS (uname).
ProbeHost ReadHostInventory();

}  // namespace gpucost::cli
