// IdVector and Ids: tables indexed by signed ids, and loops over ids.
#include "opuc/ir/id_vector.h"

#include <doctest/doctest.h>

#include <vector>

#include "opuc/ir/graph.h"

namespace opuc {
namespace {

TEST_CASE("IdVector: indexed by the id, sized and filled like a vector") {
  IdVector<TensorId, int> per_tensor(3, 7);
  CHECK(per_tensor.size() == 3);
  per_tensor[TensorId{2}] = 11;
  CHECK(per_tensor[0] == 7);
  CHECK(per_tensor[2] == 11);
  per_tensor.push_back(5);
  CHECK(per_tensor.size() == 4);
  CHECK(per_tensor.items() == std::vector<int>{7, 7, 11, 5});
}

TEST_CASE("IdVector<bool>: the element proxy writes through") {
  IdVector<NodeId, bool> seen(2, false);
  seen[NodeId{1}] = true;
  CHECK_FALSE(seen[0]);
  CHECK(seen[1]);
}

TEST_CASE("Ids counts 0..n-1 in the id type") {
  std::vector<NodeId> ids;
  for (NodeId n : Ids<NodeId>(4)) ids.push_back(n);
  CHECK(ids == std::vector<NodeId>{0, 1, 2, 3});
  int count = 0;
  for (NodeId n : Ids<NodeId>(0)) count += n + 1;
  CHECK(count == 0);
}

}  // namespace
}  // namespace opuc
