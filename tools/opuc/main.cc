//===- tools/opuc/main.cc - The opuc command line -------------------------===//
//
// Everything lives in opuc_app.cc and one file per subcommand; docs/cli.md
// describes them.
//
//===----------------------------------------------------------------------===//
#include <iostream>

#include "opuc/opuc_app.h"
#include "support/batch_allocator.h"
#ifdef OPUC_HAVE_RTL
#include "rtl.h"
#endif

int main(int argc, char** argv) {
  opuc::PrepareAllocatorForBatchJob();  // before any thread: one heap, reused
#ifdef OPUC_HAVE_RTL
  opuc::rtl::RegisterRtlDevice();  // the "rtl" device, built where Verilator is
#endif
  return opuc::cli::RunOpuc(argc, argv, std::cout, std::cerr);
}
