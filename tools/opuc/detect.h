//===- tools/opuc/detect.h - `opuc detect` -----------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_DETECT_H
#define OPUC_TOOLS_DETECT_H

#include <ostream>
#include <string>

#include "opuc/command.h"

namespace opuc::cli {

struct DetectOptions {
  std::string model;  ///< A face detector model or a program compiled from one.
  std::string image;
  std::string device = "cpu";
  std::string draw;         ///< --draw: the photograph with the faces, as PNG.
  std::string float_model;  ///< --float: the float model to compare with.
  std::string preprocess;
  std::string profile;
  double min_score = 0.5;
  bool json = false;
};

/// Finds the faces in a photograph with a BlazeFace detector (a model or a
/// compiled program), prints them (beside the float model's with --float)
/// and draws them. Returns the exit code.
int RunDetect(const DetectOptions& options, std::ostream& out, std::ostream& err);

Command AddDetectCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_DETECT_H
