//===- src/opug/opug_attrs.h - Node attributes in .opug -----*- C++ -*-===//
//
// An attribute is a name and a union of six small tables, one per AttrType;
// these convert between that union and AttrValue in both directions.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_OPUG_OPUG_ATTRS_H
#define OPUC_SRC_OPUG_OPUG_ATTRS_H

#include <string_view>

#include "opuc/ir/attributes.h"
#include "opuc/status.h"
#include "opug_generated.h"

namespace opuc {

/// Sets `value` from a verified Attr; an error for a missing or unknown union
/// type, worded to follow the attribute's name ("has no value type").
Status ReadAttrValue(const opug::Attr& attr, AttrValue* value);

/// The name of a union member as the JSON form spells it ("IntsAttr").
std::string_view AttrValueTypeName(AttrType type);

/// Builds the Attr table for `name` = `value`.
flatbuffers::Offset<opug::Attr> WriteAttr(flatbuffers::FlatBufferBuilder& fbb,
                                          std::string_view name, const AttrValue& value);

}  // namespace opuc

#endif  // OPUC_SRC_OPUG_OPUG_ATTRS_H
