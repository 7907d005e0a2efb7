//===- tools/opuc/partition.h - `opuc partition` ----------------*- C++ -*-===//
#ifndef OPUC_TOOLS_PARTITION_H
#define OPUC_TOOLS_PARTITION_H

#include <ostream>
#include <string>

#include "opuc/command.h"

namespace opuc::cli {

struct PartitionOptions {
  std::string model;
  std::string hw = "opu1024";  ///< A preset name or a JSON file.
  int opt_level = 2;           ///< For the default pipeline run first.
  bool json = false;
  std::string dot;  ///< Write the graph, coloured by group, here.
};

/// Loads the model, runs the default pass pipeline, partitions it for the
/// hardware and prints the groups in execution order (text or JSON).
int RunPartition(const PartitionOptions& options, std::ostream& out, std::ostream& err);

/// `opuc partition`: its options and how it runs (opuc_app.cc lists the commands).
Command AddPartitionCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_PARTITION_H
