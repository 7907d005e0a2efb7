//===- src/opu/json_value.cc - A small JSON reader ------------------------===//
#include "json_value.h"

#include <cmath>
#include <cstdlib>

#include "support/format.h"

namespace opuc::json {
namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expected<Value> Document() {
    Value value;
    OPUC_RETURN_IF_ERROR(ParseValue(value, 0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the JSON value");
    return value;
  }

 private:
  Status Error(std::string_view what) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return InvalidArgument(Cat("JSON line ", line, " column ", column, ": ", what));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Status ParseValue(Value& out, int depth) {
    if (depth > kMaxDepth) return Error("nested deeper than 64 levels");
    SkipSpace();
    if (pos_ >= text_.size()) return Error("expected a value, found the end of the text");
    const char c = text_[pos_];
    if (c == '{') return ParseObject(out, depth);
    if (c == '[') return ParseArray(out, depth);
    if (c == '"') {
      out.type = Value::Type::kString;
      return ParseString(out.text);
    }
    const bool is_true = Consume("true");
    if (is_true || Consume("false")) {
      out.type = Value::Type::kBool;
      out.boolean = is_true;
      return OkStatus();
    }
    if (Consume("null")) return OkStatus();
    return ParseNumber(out);
  }

  Status ParseObject(Value& out, int depth) {
    out.type = Value::Type::kObject;
    ++pos_;
    SkipSpace();
    if (Consume("}")) return OkStatus();
    for (;;) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Error("expected a member name");
      std::string key;
      OPUC_RETURN_IF_ERROR(ParseString(key));
      if (out.Find(key)) return Error(Cat("member '", key, "' appears twice"));
      SkipSpace();
      if (!Consume(":")) return Error("expected ':' after a member name");
      Value value;
      OPUC_RETURN_IF_ERROR(ParseValue(value, depth + 1));
      out.members.emplace_back(std::move(key), std::move(value));
      SkipSpace();
      if (Consume("}")) return OkStatus();
      if (!Consume(",")) return Error("expected ',' or '}' in an object");
    }
  }

  Status ParseArray(Value& out, int depth) {
    out.type = Value::Type::kArray;
    ++pos_;
    SkipSpace();
    if (Consume("]")) return OkStatus();
    for (;;) {
      Value value;
      OPUC_RETURN_IF_ERROR(ParseValue(value, depth + 1));
      out.items.push_back(std::move(value));
      SkipSpace();
      if (Consume("]")) return OkStatus();
      if (!Consume(",")) return Error("expected ',' or ']' in an array");
    }
  }

  static void AppendUtf8(std::string& s, unsigned code) {
    if (code < 0x80) {
      s += static_cast<char>(code);
    } else if (code < 0x800) {
      s += static_cast<char>(0xC0 | (code >> 6));
      s += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      s += static_cast<char>(0xE0 | (code >> 12));
      s += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  Status ParseString(std::string& out) {
    ++pos_;  // the opening quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return OkStatus();
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      const char e = text_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) return Error("short \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            code <<= 4;
            if (h >= '0' && h <= '9') code |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f') code |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') code |= static_cast<unsigned>(h - 'A' + 10);
            else return Error("bad hex digit in a \\u escape");
          }
          AppendUtf8(out, code);
          break;
        }
        default: return Error(Cat("unknown escape '\\", e, "'"));
      }
    }
    return Error("unterminated string");
  }

  Status ParseNumber(Value& out) {
    const size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    auto digits = [this] {
      const size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (!digits()) return Error("expected a value");
    if (pos_ < text_.size() && text_[pos_] == '.' && (++pos_, !digits()))
      return Error("expected digits after '.'");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) return Error("expected digits in an exponent");
    }
    const std::string number(text_.substr(start, pos_ - start));
    out.type = Value::Type::kNumber;
    out.number = std::strtod(number.c_str(), nullptr);
    if (!std::isfinite(out.number)) return Error(Cat("number ", number, " is out of range"));
    return OkStatus();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

const Value* Value::Find(std::string_view key) const {
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

const char* TypeName(Value::Type type) {
  switch (type) {
    case Value::Type::kNull: return "null";
    case Value::Type::kBool: return "bool";
    case Value::Type::kNumber: return "number";
    case Value::Type::kString: return "string";
    case Value::Type::kArray: return "array";
    case Value::Type::kObject: return "object";
  }
  return "<bad type>";
}

Expected<Value> Parse(std::string_view text) { return Parser(text).Document(); }

}  // namespace opuc::json
