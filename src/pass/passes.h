//===- src/pass/passes.h - Factories of the registered passes ---*- C++ -*-===//
#ifndef OPUC_SRC_PASS_PASSES_H
#define OPUC_SRC_PASS_PASSES_H

#include <memory>

#include "opuc/pass/pass.h"

namespace opuc {

#define OPUC_PASS(Name) std::unique_ptr<Pass> Create##Name##Pass();
#include "passes.def"

}  // namespace opuc

#endif  // OPUC_SRC_PASS_PASSES_H
