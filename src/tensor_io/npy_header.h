//===- src/tensor_io/npy_header.h - The dict of a .npy header -----*- C++ -*-===//
#ifndef OPUC_SRC_TENSOR_IO_NPY_HEADER_H
#define OPUC_SRC_TENSOR_IO_NPY_HEADER_H

#include <string>
#include <string_view>

#include "opuc/ir/dtype.h"
#include "opuc/ir/shape.h"
#include "opuc/status.h"

namespace opuc {

struct NpyHeader {
  DType dtype = DType::kF32;
  Shape shape;
};

/// Parses the header text (the Python dict literal, its padding and the
/// final '\n'). Keys may come in any order and strings may use either
/// quote; each of 'descr', 'fortran_order' and 'shape' must appear once, and
/// no other key may. Errors name `name` and the field.
Expected<NpyHeader> ParseNpyHeader(std::string_view text, std::string_view name);

/// A shape as Python prints a tuple: "()", "(6,)", "(2, 3)".
std::string NpyShapeText(const Shape& shape);

}  // namespace opuc

#endif  // OPUC_SRC_TENSOR_IO_NPY_HEADER_H
