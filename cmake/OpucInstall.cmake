# Installs opuc for other projects: the static libraries, the public headers
# (with the generated version.h), a CMake package -- find_package(opuc) gives
# opuc::opuc -- and a pkg-config file, opuc.pc. docs/cross-compiling.md shows
# both in use; tests/consumer/ builds against them.
#
# What gets installed follows the link graph of the umbrella target `opuc`:
# a library added to it is installed and exported with no change here. Each
# outside package it reaches must be listed in _opuc_package_of below.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Visits the link graph from `target` depth first. Appends our own targets to
# the global property OPUC_INSTALL_TARGETS in post-order (each after all it
# links) and the imported targets it reaches to OPUC_INSTALL_IMPORTED.
function(_opuc_walk target)
  get_property(seen GLOBAL PROPERTY _OPUC_WALK_SEEN)
  if(target IN_LIST seen)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY _OPUC_WALK_SEEN ${target})
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    set_property(GLOBAL APPEND PROPERTY OPUC_INSTALL_IMPORTED ${target})
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
      _opuc_walk(${dep})
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY OPUC_INSTALL_TARGETS ${target})
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

_opuc_walk(opuc)
get_property(_opuc_targets GLOBAL PROPERTY OPUC_INSTALL_TARGETS)
get_property(_opuc_imported GLOBAL PROPERTY OPUC_INSTALL_IMPORTED)

# Exported as opuc::<name without the opuc_ prefix>: opuc::opuc, opuc::ir, ...
# Static libraries go to pkg-config's Libs, users before what they use.
set(_opuc_pc_libs "")
foreach(target IN LISTS _opuc_targets)
  string(REGEX REPLACE "^opuc_" "" name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    get_target_property(output_name ${target} OUTPUT_NAME)
    if(NOT output_name)
      set(output_name ${target})
    endif()
    set(_opuc_pc_libs "-l${output_name} ${_opuc_pc_libs}")
  endif()
endforeach()

set(OPUC_FIND_DEPENDENCIES "")
set(_opuc_pc_requires "")
foreach(target IN LISTS _opuc_imported)
  _opuc_package_of(${target} package pc_module)
  string(APPEND OPUC_FIND_DEPENDENCIES "find_dependency(${package})\n")
  if(pc_module)
    list(APPEND _opuc_pc_requires ${pc_module})
  elseif(target STREQUAL "Threads::Threads")
    set(_opuc_pc_libs "${_opuc_pc_libs}-pthread")  # it ends in a blank
  endif()
endforeach()
list(REMOVE_DUPLICATES _opuc_pc_requires)
list(JOIN _opuc_pc_requires ", " _opuc_pc_requires)

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

# opuc.pc finds its prefix relative to itself, so the tree can be moved.
file(RELATIVE_PATH OPUC_PC_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" OPUC_PC_PREFIX ${OPUC_PC_PREFIX})
string(STRIP "${_opuc_pc_libs}" OPUC_PC_LIBS)
set(OPUC_PC_REQUIRES "")
if(_opuc_pc_requires)
  set(OPUC_PC_REQUIRES "Requires: ${_opuc_pc_requires}")
endif()
configure_file(cmake/opuc.pc.in ${PROJECT_BINARY_DIR}/opuc.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/opuc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
