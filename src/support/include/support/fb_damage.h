//===- support/fb_damage.h - Where a FlatBuffer fails verification -*- C++ -*-===//
//
// The FlatBuffers verifier answers only yes or no for a whole buffer. When it
// says no, a reader asks again piece by piece to name the damaged part:
// the root table, then each vector of tables field by field and element by
// element, descending into the element that fails ("subgraphs[0].tensors[12]").
// Nothing is read before a verifier has proved it lies inside the buffer,
// and every question goes to one verifier, whose budget of tables is the
// whole search's: a file whose parts each verify while the whole is too big
// (a vector of many offsets to one huge shared table) cannot make the search
// cost more than one verification. Its depth limit is four times the usual,
// since a question that fails leaves the depth it reached counted.
//
//   DamageFinder find(data, size);
//   const Model* model = find.Root<Model>();       // nullptr: the root is outside
//   std::optional<std::string> at = find.Tables<SubGraph>(model, Model::VT_SUBGRAPHS,
//                                                         "subgraphs", InsideSubgraph);
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_FB_DAMAGE_H
#define OPUC_SUPPORT_FB_DAMAGE_H

#include <flatbuffers/flatbuffers.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace opuc {

class DamageFinder {
 public:
  DamageFinder(const uint8_t* data, size_t size)
      : data_(data), size_(size), verifier_(data, size, SearchOptions()) {}

  /// The root table when its offset and vtable lie inside the buffer.
  template <typename T>
  const T* Root() const {
    flatbuffers::Verifier& verifier = verifier_;
    if (size_ < 2 * sizeof(flatbuffers::uoffset_t) || verifier.VerifyOffset(0) == 0) return nullptr;
    const T* root = flatbuffers::GetRoot<T>(data_);
    return Starts(root) ? root : nullptr;
  }

  /// The table's own vtable lies inside the buffer (its fields may not).
  template <typename T>
  bool Starts(const T* table) const {
    flatbuffers::Verifier& verifier = verifier_;
    return AsTable(table)->VerifyTableStart(verifier);
  }

  /// The table and everything it refers to verify.
  template <typename T>
  bool Verifies(const T* table) const {
    flatbuffers::Verifier& verifier = verifier_;
    return table->Verify(verifier);
  }

  /// `name` when the `Element` table at `field` of `parent` fails; nullopt
  /// when it verifies or is absent.
  template <typename Element, typename Parent>
  std::optional<std::string> OneTable(const Parent* parent, flatbuffers::voffset_t field,
                                      std::string_view name) const {
    const flatbuffers::Table* table = AsTable(parent);
    flatbuffers::Verifier& verifier = verifier_;
    if (!table->VerifyOffset(verifier, field)) return std::string(name);
    const auto* element = table->template GetPointer<const Element*>(field);
    if (element == nullptr || Verifies(element)) return std::nullopt;
    return std::string(name);
  }

  /// Where the vector of `Element` tables at `field` of `parent` fails:
  /// nullopt when it verifies, `name` when the vector itself lies outside,
  /// "name[i]" for its first bad element, followed by ".<what inside(element)
  /// names>" when `inside` narrows it further (it returns nullopt otherwise).
  template <typename Element, typename Parent, typename Inside>
  std::optional<std::string> Tables(const Parent* parent, flatbuffers::voffset_t field,
                                    std::string_view name, Inside inside) const {
    const flatbuffers::Table* table = AsTable(parent);
    flatbuffers::Verifier& verifier = verifier_;
    if (!table->VerifyOffset(verifier, field)) return std::string(name);
    using Vector = flatbuffers::Vector<flatbuffers::Offset<Element>>;
    const auto* vector = table->template GetPointer<const Vector*>(field);
    if (vector == nullptr) return std::nullopt;
    if (!verifier.VerifyVector(vector)) return std::string(name);
    for (flatbuffers::uoffset_t i = 0; i < vector->size(); ++i) {
      const Element* element = vector->Get(i);
      if (Verifies(element)) continue;
      std::string at = std::string(name) + "[" + std::to_string(i) + "]";
      if (Starts(element))
        if (std::optional<std::string> deeper = inside(element)) at += "." + *deeper;
      return at;
    }
    return std::nullopt;
  }

  /// As above, with nothing to narrow inside an element.
  template <typename Element, typename Parent>
  std::optional<std::string> Tables(const Parent* parent, flatbuffers::voffset_t field,
                                    std::string_view name) const {
    return Tables<Element>(parent, field, name,
                           [](const Element*) { return std::optional<std::string>(); });
  }

 private:
  static flatbuffers::Verifier::Options SearchOptions() {
    flatbuffers::Verifier::Options options;
    options.max_depth *= 4;
    return options;
  }

  /// Generated tables derive privately from flatbuffers::Table, with no
  /// members of their own: the same address is the same table.
  template <typename T>
  static const flatbuffers::Table* AsTable(const T* table) {
    return reinterpret_cast<const flatbuffers::Table*>(table);
  }

  const uint8_t* data_;
  size_t size_;
  mutable flatbuffers::Verifier verifier_;
};

/// The message for a buffer that failed verification, with the part `where`
/// names when DamageFinder found it.
inline std::string VerificationFailure(const std::optional<std::string>& where,
                                       std::string_view root) {
  const std::string part =
      where ? "in " + *where : "in the " + std::string(root) + " table or one of its fields";
  return "FlatBuffers verification failed " + part +
         ": the file is truncated or corrupt (an offset, table, vector or string there lies "
         "outside the file)";
}

}  // namespace opuc

#endif  // OPUC_SUPPORT_FB_DAMAGE_H
