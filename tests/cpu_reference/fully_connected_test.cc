// fully_connected: rows of Ci input elements times weights [Co,Ci], bias,
// activation; keep_num_dims changes only the shape.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

// Input rows [1,2,3] and [4,5,6]; weights [[1,0,-1],[0.5,0.5,0.5]].
//   row 0: o0 = 1 - 3 = -2, o1 = 0.5 + 1 + 1.5 = 3
//   row 1: o0 = 4 - 6 = -2, o1 = 2 + 2.5 + 3 = 7.5
// With bias [1,-1]: row 0 (-1, 2), row 1 (-1, 6.5).
const std::vector<float> kFcInput = {1, 2, 3, 4, 5, 6};
const std::vector<float> kFcWeights = {1, 0, -1, 0.5f, 0.5f, 0.5f};

TEST_CASE("fully_connected with bias and activations") {
  auto run = [](const char* activation) {
    return RunOp(OpKind::kFullyConnected,
                 {F({2, 3}, kFcInput), C({2, 3}, kFcWeights), C({2}, {1, -1})},
                 A({{"activation", Str(activation)}}));
  };
  OpRun none = run("none");
  REQUIRE(none.status.ok());
  CHECK(none.shape == Shape{2, 2});
  CHECK(none.values == std::vector<float>{-1, 2, -1, 6.5f});
  CHECK(run("relu").values == std::vector<float>{0, 2, 0, 6.5f});
  CHECK(run("relu6").values == std::vector<float>{0, 2, 0, 6});
  CHECK(run("relu_n1_to_1").values == std::vector<float>{-1, 1, -1, 1});
}

TEST_CASE("fully_connected without bias flattens any rank") {
  OpRun r =
      RunOp(OpKind::kFullyConnected, {F({1, 2, 1, 3}, kFcInput), C({2, 3}, kFcWeights), Absent()});
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{2, 2});  // 6 elements / Ci 3 = 2 rows
  CHECK(r.values == std::vector<float>{-2, 3, -2, 7.5f});
}

TEST_CASE("fully_connected keep_num_dims keeps the leading dimensions") {
  OpRun r = RunOp(OpKind::kFullyConnected, {F({1, 2, 3}, kFcInput), C({2, 3}, kFcWeights)},
                  A({{"keep_num_dims", Flag(true)}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 2, 2});
  CHECK(r.values == std::vector<float>{-2, 3, -2, 7.5f});
}

}  // namespace
}  // namespace opuc
