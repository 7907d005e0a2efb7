// Lifetimes of DRAM regions over steps, worked by hand: x is a graph input
// read by step 0; a is written by 0 and read by 1 and 3; b written by 1,
// read by 2; c written by 2 and a graph output; d written by 3, read by no
// one; e touched by no step.
#include <doctest/doctest.h>

#include "opuc/program/lifetime.h"

namespace opuc {
namespace {

TEST_CASE("codegen: region lifetimes run from the writing step to the last reader") {
  enum : TensorId { x, a, b, c, d, e, kTensors };
  const std::vector<std::vector<TensorId>> inputs = {{x}, {a}, {b}, {a}};
  const std::vector<std::vector<TensorId>> outputs = {{a}, {b}, {c}, {d}};
  const std::vector<Lifetime> life = Lifetimes(kTensors, inputs, outputs, {c});
  auto is = [&](TensorId t, int64_t first, int64_t last) {
    return life[static_cast<size_t>(t)].first == first && life[static_cast<size_t>(t)].last == last;
  };
  CHECK(is(x, 0, 0));
  CHECK(is(a, 0, 3));
  CHECK(is(b, 1, 2));
  CHECK(is(c, 2, 3));  // a graph output holds to the end
  CHECK(is(d, 3, 3));
  CHECK(is(e, 0, -1));
  // x (steps 0-0) may share bytes with b (1-2) and c (2-3), not with a (0-3).
  CHECK_FALSE(life[x].Meets(life[b]));
  CHECK_FALSE(life[x].Meets(life[c]));
  CHECK(life[x].Meets(life[a]));
  CHECK(life[b].Meets(life[c]));
  CHECK_FALSE(life[e].Meets(life[a]));  // never live
}

}  // namespace
}  // namespace opuc
