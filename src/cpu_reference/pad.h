//===- src/cpu_reference/pad.h - The copy half of PAD -----------*- C++ -*-===//
//
// EvalPad moves its input into the output's format (MovedInput), then
// PadMoved fills the output with `value` and copies the moved input into
// it row by row. The CPU executor's pad moves the input faster and shares
// the rest.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_PAD_H
#define OPUC_SRC_CPU_REFERENCE_PAD_H

#include "kernel.h"

namespace opuc::reference {

/// Allocates the output, fills it with the node's `value` (checked for the
/// output's dtype) and copies `input`, already in the output's dtype and
/// format, to its place.
Status PadMoved(KernelContext& ctx, const HostTensor& input);

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_PAD_H
