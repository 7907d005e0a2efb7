//===- src/tensor_io/npy_header.cc - The dict of a .npy header --------------===//
//
// A small recursive-descent reader for the one Python literal numpy writes:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// followed by spaces and '\n'. Old files written by Python 2 spell extents
// as "3L"; the 'L' is accepted.
//
//===----------------------------------------------------------------------===//
#include "npy_header.h"

#include <optional>

#include "opuc/tensor_io/npy.h"
#include "support/format.h"

namespace opuc {
namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  Expected<NpyHeader> Parse();

 private:
  void SkipSpaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool Eat(char c) {
    SkipSpaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status Error(std::string_view field, const std::string& what) const {
    return InvalidArgument(Cat(name_, ": header field '", field, "' ", what));
  }
  Status Syntax(const std::string& expected) const {
    return InvalidArgument(Cat(name_, ": header is not a valid dict: expected ", expected,
                               " at byte ", pos_, " of the header text"));
  }
  Expected<std::string> String();
  Expected<bool> Bool(std::string_view field);
  Expected<Shape> Tuple();
  Expected<DType> Descr(const std::string& descr) const;

  std::string_view text_;
  std::string_view name_;
  size_t pos_ = 0;
};

Expected<std::string> Parser::String() {
  SkipSpaces();
  if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
    return Syntax("a quoted string");
  const char quote = text_[pos_++];
  const size_t end = text_.find(quote, pos_);
  if (end == std::string_view::npos) return Syntax("a closing quote");
  std::string value(text_.substr(pos_, end - pos_));
  pos_ = end + 1;
  return value;
}

Expected<bool> Parser::Bool(std::string_view field) {
  SkipSpaces();
  for (auto [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
    const std::string_view w(word);
    if (text_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return value;
    }
  }
  return Error(field, "is not True or False");
}

Expected<Shape> Parser::Tuple() {
  if (!Eat('(')) return Error("shape", "is not a tuple");
  Shape shape;
  while (!Eat(')')) {
    SkipSpaces();
    int64_t extent = 0;
    size_t digits = 0;
    for (; pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; ++pos_, ++digits) {
      extent = extent * 10 + (text_[pos_] - '0');
      if (extent > kMaxExtent) return Error("shape", Cat("has an extent above ", kMaxExtent));
    }
    if (digits == 0) return Error("shape", "holds something other than non-negative integers");
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;
    shape.push_back(extent);
    if (Eat(',')) continue;
    if (!Eat(')')) return Error("shape", "is not a tuple of integers");
    break;
  }
  return shape;
}

Expected<DType> Parser::Descr(const std::string& descr) const {
  for (DType dtype : {DType::kF32, DType::kF16, DType::kI8, DType::kI16, DType::kI32, DType::kU8})
    if (descr == NpyDescr(dtype)) return dtype;
  if (!descr.empty() && descr[0] == '>')
    return Error("descr", Cat("is '", descr, "': big-endian data is not supported"));
  return Error("descr", Cat("is '", descr, "'; supported: '<f4', '<f2', '<i4', '<i2', '|i1'"));
}

Expected<NpyHeader> Parser::Parse() {
  if (!Eat('{')) return Syntax("'{'");
  std::optional<DType> dtype;
  std::optional<bool> fortran;
  std::optional<Shape> shape;
  while (!Eat('}')) {
    OPUC_ASSIGN_OR_RETURN(std::string key, String());
    if (!Eat(':')) return Syntax(Cat("':' after '", key, "'"));
    if (key == "descr" && !dtype) {
      OPUC_ASSIGN_OR_RETURN(std::string descr, String());
      OPUC_ASSIGN_OR_RETURN(dtype, Descr(descr));
    } else if (key == "fortran_order" && !fortran) {
      OPUC_ASSIGN_OR_RETURN(fortran, Bool(key));
    } else if (key == "shape" && !shape) {
      OPUC_ASSIGN_OR_RETURN(shape, Tuple());
    } else {
      return InvalidArgument(Cat(name_, ": header has an unexpected or repeated key '", key,
                                 "'; expected 'descr', 'fortran_order' and 'shape'"));
    }
    if (Eat(',')) continue;
    if (!Eat('}')) return Syntax("',' or '}'");
    break;
  }
  if (!dtype) return Error("descr", "is missing");
  if (!fortran) return Error("fortran_order", "is missing");
  if (!shape) return Error("shape", "is missing");
  if (*fortran) return Error("fortran_order", "is True; only C order is supported");
  SkipSpaces();
  if (pos_ + 1 != text_.size() || text_[pos_] != '\n')
    return Syntax("spaces and a final '\\n' after the dict");
  if (!NumElements(*shape))
    return Error("shape", Cat("is ", NpyShapeText(*shape), ": too many elements"));
  return NpyHeader{*dtype, std::move(*shape)};
}

}  // namespace

Expected<NpyHeader> ParseNpyHeader(std::string_view text, std::string_view name) {
  return Parser(text, name).Parse();
}

std::string NpyShapeText(const Shape& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += Cat(i ? ", " : "", shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace opuc
