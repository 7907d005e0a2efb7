//===- src/opug/opug_attrs.cc - Node attributes in .opug --------------===//
#include "opug_attrs.h"

#include <type_traits>

#include "support/fb_vector.h"
#include "support/format.h"

namespace opuc {
namespace {

namespace fb = ::opuc::opug;

// The union lists its members in AttrType order, one past NONE.
static_assert(static_cast<int>(fb::AttrValue::IntAttr) == 1 + static_cast<int>(AttrType::kInt));
static_assert(static_cast<int>(fb::AttrValue::FloatsAttr) ==
              1 + static_cast<int>(AttrType::kFloats));

}  // namespace

Status ReadAttrValue(const fb::Attr& attr, AttrValue* value) {
  // Assigning into `value` rather than returning Expected<AttrValue> keeps
  // GCC 12 from a false -Wmaybe-uninitialized on the nested variant under
  // sanitizers.
  switch (attr.value_type()) {
    case fb::AttrValue::IntAttr: *value = attr.value_as_IntAttr()->value(); return OkStatus();
    case fb::AttrValue::FloatAttr: *value = attr.value_as_FloatAttr()->value(); return OkStatus();
    case fb::AttrValue::BoolAttr: *value = attr.value_as_BoolAttr()->value(); return OkStatus();
    case fb::AttrValue::StringAttr: {
      const flatbuffers::String* s = attr.value_as_StringAttr()->value();
      *value = s ? s->str() : std::string();
      return OkStatus();
    }
    case fb::AttrValue::IntsAttr:
      *value = CopyScalars(attr.value_as_IntsAttr()->values());
      return OkStatus();
    case fb::AttrValue::FloatsAttr:
      *value = CopyScalars(attr.value_as_FloatsAttr()->values());
      return OkStatus();
    case fb::AttrValue::NONE: return InvalidArgument("has no value type");
  }
  return InvalidArgument(Cat("has value type ", static_cast<int>(attr.value_type()),
                             ", which is unknown (expected 1..",
                             static_cast<int>(fb::AttrValue::MAX), ")"));
}

std::string_view AttrValueTypeName(AttrType type) {
  return fb::EnumNameAttrValue(static_cast<fb::AttrValue>(static_cast<int>(type) + 1));
}

flatbuffers::Offset<fb::Attr> WriteAttr(flatbuffers::FlatBufferBuilder& fbb, std::string_view name,
                                        const AttrValue& value) {
  const auto name_offset = fbb.CreateString(name.data(), name.size());
  flatbuffers::Offset<void> table;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          table = fb::CreateIntAttr(fbb, v).Union();
        } else if constexpr (std::is_same_v<T, double>) {
          table = fb::CreateFloatAttr(fbb, v).Union();
        } else if constexpr (std::is_same_v<T, bool>) {
          table = fb::CreateBoolAttr(fbb, v).Union();
        } else if constexpr (std::is_same_v<T, std::string>) {
          table = fb::CreateStringAttr(fbb, fbb.CreateString(v)).Union();
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          table = fb::CreateIntsAttr(fbb, fbb.CreateVector(v)).Union();
        } else {
          static_assert(std::is_same_v<T, std::vector<double>>);
          table = fb::CreateFloatsAttr(fbb, fbb.CreateVector(v)).Union();
        }
      },
      value);
  const auto type = static_cast<fb::AttrValue>(static_cast<int>(TypeOf(value)) + 1);
  return fb::CreateAttr(fbb, name_offset, type, table);
}

}  // namespace opuc
