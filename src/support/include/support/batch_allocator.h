//===- support/batch_allocator.h - The C allocator set up for one big job -*- C++ -*-===//
//
// A compile holds a few hundred megabytes for a few seconds (a large
// model's Gram matrices and rounding factors) and frees and reallocates
// large buffers all along. glibc by default maps each large buffer afresh
// and returns it on free, so every one is faulted in page by page again;
// under a hypervisor a fault costs microseconds, and on the 27 MB pose
// model they were a third of `opuc compile`'s time (docs/decisions.md).
// The command line calls this first; a library user running long jobs may
// too. It changes no result.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_BATCH_ALLOCATOR_H
#define OPUC_SUPPORT_BATCH_ALLOCATOR_H

namespace opuc {

/// Where the C library is glibc on a 64-bit host (and no sanitizer replaced
/// its allocator): an arena a core (the main thread's the heap, worker
/// threads' their own: one shared arena serializes every allocation), large
/// buffers from them too, a freed buffer stays for the next, and the heap's
/// first gigabyte is marked for transparent huge pages (a fault then maps
/// 2 MB, not 4 KB).
/// Elsewhere it does nothing. Call it once, before the first thread starts.
/// Returns whether it set anything up.
bool PrepareAllocatorForBatchJob();

}  // namespace opuc

#endif  // OPUC_SUPPORT_BATCH_ALLOCATOR_H
