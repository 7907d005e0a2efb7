//===- opuc/ir/id_vector.h - Vectors indexed by node and tensor ids -*- C++ -*-===//
//
// NodeId and TensorId are signed (kNoTensor is -1), std::vector is indexed by
// size_t: every table "per tensor" or "per node" used to convert at each
// access. IdVector<Id, T> is that table, indexed by the id itself (checked
// non-negative and in range by assert), and Ids<Id>(n) counts ids 0..n-1, so a
// loop over nodes reads `for (NodeId n : Ids<NodeId>(graph.nodes.size()))`.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_ID_VECTOR_H
#define OPUC_IR_ID_VECTOR_H

#include <cassert>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace opuc {

template <typename Id, typename T>
class IdVector {
  static_assert(std::is_integral_v<Id> && std::is_signed_v<Id>, "ids are signed integers");

 public:
  using reference = typename std::vector<T>::reference;
  using const_reference = typename std::vector<T>::const_reference;

  IdVector() = default;
  explicit IdVector(size_t count, const T& value = T()) : items_(count, value) {}
  /// Takes a table already indexed by id (Graph::Producers(), ...).
  explicit IdVector(std::vector<T> items) : items_(std::move(items)) {}

  reference operator[](Id id) { return items_[Index(id)]; }
  const_reference operator[](Id id) const { return items_[Index(id)]; }

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void assign(size_t count, const T& value) { items_.assign(count, value); }
  void resize(size_t count) { items_.resize(count); }
  void resize(size_t count, const T& value) { items_.resize(count, value); }
  void push_back(T value) { items_.push_back(std::move(value)); }

  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

  /// The plain vector, for code that takes one.
  const std::vector<T>& items() const& { return items_; }
  std::vector<T> items() && { return std::move(items_); }

 private:
  size_t Index(Id id) const {
    assert(id >= 0 && static_cast<size_t>(id) < items_.size() && "id out of range");
    return static_cast<size_t>(id);
  }

  std::vector<T> items_;
};

/// The ids 0, 1, ..., count - 1 of type Id, for range-for loops.
template <typename Id>
class Ids {
 public:
  class Iterator {
   public:
    explicit Iterator(Id id) : id_(id) {}
    Id operator*() const { return id_; }
    Iterator& operator++() {
      ++id_;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return id_ != other.id_; }

   private:
    Id id_;
  };

  explicit Ids(size_t count) : end_(static_cast<Id>(count)) {
    assert(static_cast<size_t>(end_) == count && "more ids than the id type holds");
  }
  Iterator begin() const { return Iterator(0); }
  Iterator end() const { return Iterator(end_); }

 private:
  Id end_;
};

}  // namespace opuc

#endif  // OPUC_IR_ID_VECTOR_H
