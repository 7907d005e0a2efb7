//===- tools/opuc/optimized_model.h - Load and optimize a model -*- C++ -*-===//
//
// What every command after `opt` starts from: the model file loaded and run
// through the default pass pipeline at opt level 3 (so per-channel scales
// and batch norms are folded into weights before quantization).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_OPTIMIZED_MODEL_H
#define OPUC_TOOLS_OPTIMIZED_MODEL_H

#include <string>

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc::cli {

/// Errors name the file (loading) or the pass (the pipeline).
Expected<Graph> LoadOptimizedModel(const std::string& path);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_OPTIMIZED_MODEL_H
