//===- tools/opuc/main.cc - The opuc command line -------------------------===//
//
// Everything lives in opuc_app.cc and one file per subcommand; docs/cli.md
// describes them.
//
//===----------------------------------------------------------------------===//
#include <iostream>

#include "opuc/opuc_app.h"

int main(int argc, char** argv) { return opuc::cli::RunOpuc(argc, argv, std::cout, std::cerr); }
