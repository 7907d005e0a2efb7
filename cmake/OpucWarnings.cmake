# Compiler flags every opuc target gets: warnings, -Werror in CI, sanitizers.
add_library(opuc_build_flags INTERFACE)
# It is exported with the static libraries that link it privately, but its
# compile options stay in this build: an installed opuc imposes no warnings.
# -Wconversion and -Wsign-conversion: a narrowing or a sign change is written
# down where it happens (ids index vectors through IdVector, opuc/ir/id_vector.h).
target_compile_options(opuc_build_flags INTERFACE
  "$<BUILD_INTERFACE:-Wall;-Wextra;-Wshadow;-Wnon-virtual-dtor;-Wconversion;-Wsign-conversion>")
# 32-bit ARM: GCC notes on every std::initializer_list<int64_t> that its ABI
# changed in GCC 7.1; moot when one compiler builds everything.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
  target_compile_options(opuc_build_flags INTERFACE $<BUILD_INTERFACE:-Wno-psabi>)
endif()
if(OPUC_WERROR)
  target_compile_options(opuc_build_flags INTERFACE $<BUILD_INTERFACE:-Werror>)
endif()
if(OPUC_SANITIZE)
  set(_opuc_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_compile_options(opuc_build_flags INTERFACE "$<BUILD_INTERFACE:${_opuc_san}>")
  target_link_options(opuc_build_flags INTERFACE ${_opuc_san})
endif()
if(OPUC_FUZZ)
  # libFuzzer (tests/fuzz/): every target instrumented for coverage and the
  # sanitizers; the harnesses add -fsanitize=fuzzer (libFuzzer's main).
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "OPUC_FUZZ needs clang (CXX=clang++): libFuzzer is clang's")
  endif()
  set(_opuc_fuzz -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                 -fno-omit-frame-pointer)
  target_compile_options(opuc_build_flags INTERFACE "$<BUILD_INTERFACE:${_opuc_fuzz}>")
  target_link_options(opuc_build_flags INTERFACE -fsanitize=address,undefined)
endif()
