# Installs opuc for other projects: the static libraries, the public headers
# (with the generated version.h), a CMake package -- find_package(opuc) gives
# opuc::opuc, find_package(opuc COMPONENTS runtime) opuc::runtime and only
# the packages the runtime needs -- and two pkg-config modules, opuc.pc and
# opuc-runtime.pc. docs/cross-compiling.md shows them in use; tests/consumer/
# builds against them.
#
# What gets installed follows the link graph of the umbrella target `opuc`:
# a library added to it is installed and exported with no change here. Each
# outside package it reaches must be listed in _opuc_package_of below.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Visits the link graph from `target` depth first. Appends our own targets to
# the global property <set>_TARGETS in post-order (each after all it links)
# and the imported targets it reaches to <set>_IMPORTED.
function(_opuc_walk set target)
  get_property(seen GLOBAL PROPERTY ${set}_SEEN)
  if(target IN_LIST seen)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY ${set}_SEEN ${target})
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    set_property(GLOBAL APPEND PROPERTY ${set}_IMPORTED ${target})
    return()
  endif()
  # A static library's private dependencies appear here as $<LINK_ONLY:...>;
  # $<BUILD_INTERFACE:...> entries stay behind and are not followed.
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  foreach(dep IN LISTS deps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
    if(TARGET "${dep}")
      get_target_property(aliased ${dep} ALIASED_TARGET)
      if(aliased)
        set(dep ${aliased})
      endif()
      _opuc_walk(${set} ${dep})
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY ${set}_TARGETS ${target})
endfunction()

# The CMake package and the pkg-config module of an imported target's package.
function(_opuc_package_of target cmake_var pc_var)
  if(target MATCHES "^flatbuffers::")
    set(${cmake_var} "FlatBuffers 2.0" PARENT_SCOPE)
    set(${pc_var} "flatbuffers" PARENT_SCOPE)
  elseif(target MATCHES "^Eigen3::")
    set(${cmake_var} "Eigen3 3.4 NO_MODULE" PARENT_SCOPE)
    set(${pc_var} "eigen3" PARENT_SCOPE)
  elseif(target STREQUAL "Threads::Threads")
    set(${cmake_var} "Threads" PARENT_SCOPE)  # no pkg-config module: -pthread in Libs
    set(${pc_var} "" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "opuc::opuc links ${target}: say in cmake/OpucInstall.cmake which "
                        "package installed consumers find it in")
  endif()
endfunction()

# What `root` brings along: the pkg-config Libs (in <prefix>_PC_LIBS, users
# before what they use) and Requires (<prefix>_PC_REQUIRES), and the
# find_dependency() lines of its outside packages (<prefix>_FIND_DEPENDENCIES).
function(_opuc_link_set root prefix)
  _opuc_walk(${prefix} ${root})
  get_property(targets GLOBAL PROPERTY ${prefix}_TARGETS)
  get_property(imported GLOBAL PROPERTY ${prefix}_IMPORTED)
  set(libs "")
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      get_target_property(output_name ${target} OUTPUT_NAME)
      if(NOT output_name)
        set(output_name ${target})
      endif()
      set(libs "-l${output_name} ${libs}")
    endif()
  endforeach()
  set(find_dependencies "")
  set(requires "")
  foreach(target IN LISTS imported)
    _opuc_package_of(${target} package pc_module)
    string(APPEND find_dependencies "find_dependency(${package})\n")
    if(pc_module)
      list(APPEND requires ${pc_module})
    elseif(target STREQUAL "Threads::Threads")
      set(libs "${libs}-pthread")  # it ends in a blank
    endif()
  endforeach()
  list(REMOVE_DUPLICATES requires)
  list(JOIN requires ", " requires)
  string(STRIP "${libs}" libs)
  if(requires)
    set(requires "Requires: ${requires}")
  endif()
  set(${prefix}_TARGETS ${targets} PARENT_SCOPE)
  set(${prefix}_PC_LIBS "${libs}" PARENT_SCOPE)
  set(${prefix}_PC_REQUIRES "${requires}" PARENT_SCOPE)
  set(${prefix}_FIND_DEPENDENCIES "${find_dependencies}" PARENT_SCOPE)
endfunction()

_opuc_link_set(opuc OPUC)
_opuc_link_set(opuc_runtime OPUC_RUNTIME)
set(_opuc_targets ${OPUC_TARGETS})

# Exported as opuc::<name without the opuc_ prefix>: opuc::opuc, opuc::ir,
# opuc::runtime, ...
foreach(target IN LISTS _opuc_targets)
  string(REGEX REPLACE "^opuc_" "" name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
endforeach()

set(_opuc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/opuc)
install(TARGETS ${_opuc_targets} EXPORT opucTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# opuc/image/ belongs to the tools-only opuc_image library, which is not installed.
install(DIRECTORY include/opuc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "image" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/include/opuc/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opuc)

install(EXPORT opucTargets NAMESPACE opuc:: DESTINATION ${_opuc_cmake_dir})
configure_package_config_file(cmake/opucConfig.cmake.in
  ${PROJECT_BINARY_DIR}/opucConfig.cmake INSTALL_DESTINATION ${_opuc_cmake_dir})
# 0.x: a new minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/opucConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/opucConfig.cmake ${PROJECT_BINARY_DIR}/opucConfigVersion.cmake
  DESTINATION ${_opuc_cmake_dir})

# The .pc files find their prefix relative to themselves, so the tree can be moved.
file(RELATIVE_PATH OPUC_PC_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" OPUC_PC_PREFIX ${OPUC_PC_PREFIX})
# opuc_pc_module(<module> <description> <prefix>): <module>.pc from _opuc_link_set's <prefix>.
function(opuc_pc_module module description prefix)
  set(OPUC_PC_NAME ${module})
  set(OPUC_PC_DESCRIPTION "${description}")
  set(OPUC_PC_LIBS "${${prefix}_PC_LIBS}")
  set(OPUC_PC_REQUIRES "${${prefix}_PC_REQUIRES}")
  configure_file(cmake/opuc.pc.in ${PROJECT_BINARY_DIR}/${module}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${module}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
opuc_pc_module(opuc "Ahead-of-time compiler library for the OPU FPGA accelerator (static, C++17)"
               OPUC)
opuc_pc_module(opuc-runtime
               "Runs .opup programs on the OPU's devices, without the compiler (static, C++17)"
               OPUC_RUNTIME)
