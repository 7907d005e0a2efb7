// The doctest main shared by every opuc test suite.
//
// ctest runs each test case in a process of its own, selected by its name
// (tests/CMakeLists.txt). A filter that selects nothing passes in doctest,
// so a name ctest cannot pass whole (a ';' splits it in two) would make a
// test that never runs and never fails: here selecting nothing fails.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

namespace {

unsigned selected = 0;
bool ran = false;

/// Counts the test cases the run selected; reports nothing.
struct SelectionCount : doctest::IReporter {
  explicit SelectionCount(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    ran = true;
    selected = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

DOCTEST_REGISTER_LISTENER("selection_count", 1, SelectionCount);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit() || result != 0) return result;
  if (ran && selected == 0) {
    std::fprintf(stderr, "no test case matches the filter: check the name (no ';' in it)\n");
    return 1;
  }
  return result;
}
