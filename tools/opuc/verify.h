//===- tools/opuc/verify.h - `opuc verify` -----------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_VERIFY_H
#define OPUC_TOOLS_VERIFY_H

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "opuc/command.h"

namespace opuc::cli {

struct VerifyOptions {
  std::string program;
  std::vector<std::string> devices = {"ref", "fsim"};
  std::vector<std::string> inputs;  ///< "NAME=FILE.npy", one per --input.
  uint64_t seed = 0;
  bool json = false;
};

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err);

Command AddVerifyCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_VERIFY_H
