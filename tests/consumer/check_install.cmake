# cmake -DBUILD_DIR=<opuc build> -DLIBDIR=<CMAKE_INSTALL_LIBDIR> -DWORK_DIR=<scratch>
#       -DGENERATOR=<CMake generator> -DCXX=<C++ compiler>
#       [-DTOOLCHAIN=<toolchain file> -DEMULATOR=<emulator command>]
#       -P check_install.cmake
#
# Installs the opuc build into WORK_DIR/prefix, then builds and runs the
# consumer project of this folder against it twice: with find_package(opuc),
# and with the flags `pkg-config --cflags --libs opuc` gives. The first run
# compiles a program, which the runtime-only consumer (runtime/) then runs,
# built the same two ways: find_package(opuc COMPONENTS runtime) and
# `pkg-config opuc-runtime`. A cross build passes its toolchain file and runs
# the programs under its emulator.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

# run(<command...>): runs it and stops with an error when it fails.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

message(STATUS "installing ${BUILD_DIR} into ${prefix}")
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

message(STATUS "find_package(opuc)")
if(TOOLCHAIN)
  set(compiler -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN})
else()
  set(compiler -DCMAKE_CXX_COMPILER=${CXX})
endif()
run(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR} -B ${WORK_DIR}/cmake -G ${GENERATOR}
    ${compiler} -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake)
set(program ${WORK_DIR}/consumer.opup)
run(${EMULATOR} ${WORK_DIR}/cmake/consumer ${program})

message(STATUS "find_package(opuc COMPONENTS runtime)")
run(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/runtime -B ${WORK_DIR}/runtime-cmake
    -G ${GENERATOR} ${compiler} -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/runtime-cmake)
run(${EMULATOR} ${WORK_DIR}/runtime-cmake/runtime_consumer ${program})

find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
# pkg_config_flags(<module> <out>): `pkg-config --cflags --libs <module>`, as a list.
function(pkg_config_flags module out)
  message(STATUS "pkg-config ${module}")
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs ${module} OUTPUT_VARIABLE flags
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config does not find ${module} in ${prefix}/${LIBDIR}/pkgconfig")
  endif()
  message(STATUS "  ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()
pkg_config_flags(opuc flags)
run(${CXX} -std=c++17 ${CMAKE_CURRENT_LIST_DIR}/main.cc ${flags} -o ${WORK_DIR}/consumer-pc)
run(${EMULATOR} ${WORK_DIR}/consumer-pc)
pkg_config_flags(opuc-runtime flags)
run(${CXX} -std=c++17 ${CMAKE_CURRENT_LIST_DIR}/runtime/main.cc ${flags}
    -o ${WORK_DIR}/runtime-consumer-pc)
run(${EMULATOR} ${WORK_DIR}/runtime-consumer-pc ${program})
