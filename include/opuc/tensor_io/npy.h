//===- opuc/tensor_io/npy.h - NumPy .npy files --------------------*- C++ -*-===//
//
// Reads and writes the NumPy array format (format versions 1.0, 2.0, 3.0):
// the magic "\x93NUMPY", a version, a little-endian header length, a Python
// dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)} padded
// with spaces to a multiple of 64 bytes and ended by '\n', then the data.
//
// Supported: C order, little-endian '<f4' (f32), '<f2' (f16), '<i4' (i32),
// '<i2' (i16) and '|i1' (i8). Anything else, a bad magic or version, a
// malformed header, or data of the wrong size is InvalidArgument naming the
// file and the field. The writer produces what numpy.save does (version 1.0,
// or 2.0 when the header needs more than 65535 bytes).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TENSOR_IO_NPY_H
#define OPUC_TENSOR_IO_NPY_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Reads the .npy file at `path`; the data goes straight into the tensor.
Expected<HostTensor> ReadNpy(const std::string& path);

/// Decodes .npy bytes held in memory; `name` names them in errors.
Expected<HostTensor> DecodeNpy(const uint8_t* data, size_t size, std::string_view name);

/// Writes `tensor` to `path` as numpy.save would.
Status WriteNpy(const std::string& path, const HostTensor& tensor);

/// The magic, version, header length and padded header for `dtype` and
/// `shape`: everything in front of the data.
std::string EncodeNpyHeader(DType dtype, const Shape& shape);

/// The numpy descr of `dtype`: "<f4", "<f2", "|i1", "<i2", "<i4".
std::string_view NpyDescr(DType dtype);

}  // namespace opuc

#endif  // OPUC_TENSOR_IO_NPY_H
