# The layering of opuc's libraries (docs/architecture.md draws it). A library
# may link only libraries of lower layers; one that links its own layer or
# above fails to configure, so the picture in the docs stays true.
#
# Build pieces (opuc_build_flags, opuc_flatbuffers, the generated schema
# headers) are not layers: anyone may use them.
set(OPUC_LAYERS
  "opuc_status opuc_support opuc_numerics"           # 0: errors, formatting, fixed-point primitives
  "opuc_ir opuc_isa"                                 # 1: the graph and its op registry; the ISA
  "opuc_tensor_io opuc_file_io opuc_fusion opuc_opu" # 2: tensors, files read in place, FuseOps, HwConfig
  "opuc_opug opuc_cpu_reference opuc_partition opuc_image opuc_fsim" # 3: .opug; executors (reference, fsim); partitioning; images
  "opuc_frontend opuc_program opuc_cpu"              # 4: importers; the .opup program; the CPU executor
  "opuc_pass opuc_quant opuc_codegen opuc_runtime"   # 5: passes, quantizer, codegen (the step plan); running programs
  "opuc_compiler"                                    # 6: the whole compile flow, writing programs
)
# The compiler's libraries: the runtime (firmware links it alone) may neither
# link one of them, directly or through another library, nor include one of
# their headers (the patterns, under include/), directly or through a header.
set(OPUC_COMPILER_ONLY opuc_frontend opuc_pass opuc_fusion opuc_quant opuc_partition opuc_codegen
                       opuc_compiler)
set(OPUC_COMPILER_HEADERS "opuc/frontend/" "opuc/pass/" "opuc/fusion/" "opuc/quant/"
                          "opuc/partition/" "opuc/codegen/" "opuc/compiler/")
set(_opuc_build_pieces opuc_build_flags opuc_flatbuffers opuc_schema_opug opuc_schema_tflite
                        opuc_schema_opup)

function(_opuc_layer_of target out)
  set(layer 0)
  foreach(members IN LISTS OPUC_LAYERS)
    string(REPLACE " " ";" members "${members}")
    if(target IN_LIST members)
      set(${out} ${layer} PARENT_SCOPE)
      return()
    endif()
    math(EXPR layer "${layer} + 1")
  endforeach()
  set(${out} -1 PARENT_SCOPE)
endfunction()

# The opuc_* libraries `lib` links directly (PUBLIC, PRIVATE or INTERFACE).
function(_opuc_links_of lib out)
  get_target_property(type ${lib} TYPE)
  set(deps)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(deps ${lib} LINK_LIBRARIES)
  endif()
  get_target_property(interface_deps ${lib} INTERFACE_LINK_LIBRARIES)
  set(links)
  foreach(dep IN LISTS deps interface_deps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
    if(dep MATCHES "^opuc_")
      list(APPEND links ${dep})
    endif()
  endforeach()
  set(${out} ${links} PARENT_SCOPE)
endfunction()

# Checks every library under src/ against OPUC_LAYERS: each is in a layer,
# and links (PUBLIC, PRIVATE or INTERFACE) only libraries of lower layers.
function(opuc_check_layers)
  get_property(dirs DIRECTORY ${PROJECT_SOURCE_DIR}/src PROPERTY SUBDIRECTORIES)
  set(libraries)
  foreach(dir IN LISTS dirs)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
      get_property(more DIRECTORY ${sub} PROPERTY BUILDSYSTEM_TARGETS)
      list(APPEND targets ${more})
    endforeach()
    list(APPEND libraries ${targets})
  endforeach()
  foreach(lib IN LISTS libraries)
    _opuc_layer_of(${lib} layer)
    if(layer EQUAL -1)
      message(FATAL_ERROR "${lib} is in no layer: add it to OPUC_LAYERS in "
                          "cmake/OpucLayers.cmake and to docs/architecture.md")
    endif()
    _opuc_links_of(${lib} deps)
    foreach(dep IN LISTS deps)
      if(dep IN_LIST _opuc_build_pieces)
        continue()
      endif()
      _opuc_layer_of(${dep} dep_layer)
      if(NOT dep_layer LESS layer)
        message(FATAL_ERROR "${lib} (layer ${layer}) links ${dep} (layer ${dep_layer}): a "
                            "library may use only lower layers (docs/architecture.md)")
      endif()
    endforeach()
  endforeach()
endfunction()

# The libraries `target` links, directly or not (PUBLIC, PRIVATE, INTERFACE).
function(_opuc_link_closure target out)
  set(closure)
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue lib)
    _opuc_links_of(${lib} deps)
    foreach(dep IN LISTS deps)
      if(TARGET ${dep} AND NOT dep IN_LIST closure)
        list(APPEND closure ${dep})
        list(APPEND queue ${dep})
      endif()
    endforeach()
  endwhile()
  set(${out} ${closure} PARENT_SCOPE)
endfunction()

# Fails when `runtime` links a library of OPUC_COMPILER_ONLY, or when a
# source of a library it links (or of itself) includes a header of
# OPUC_COMPILER_HEADERS, following opuc's public headers from include/.
function(opuc_check_runtime runtime)
  _opuc_link_closure(${runtime} closure)
  foreach(lib IN LISTS closure)
    if(lib IN_LIST OPUC_COMPILER_ONLY)
      message(FATAL_ERROR "${runtime} links ${lib}, a library of the compiler: the runtime "
                          "links none of them (docs/architecture.md)")
    endif()
  endforeach()
  set(files)
  foreach(lib IN LISTS runtime closure)
    get_target_property(dir ${lib} SOURCE_DIR)
    get_target_property(sources ${lib} SOURCES)
    foreach(source IN LISTS sources)
      if(NOT source MATCHES "^\\$<" AND source MATCHES "\\.(cc|h)$")
        get_filename_component(source ${source} ABSOLUTE BASE_DIR ${dir})
        get_filename_component(source_dir ${source} DIRECTORY)
        file(GLOB private_headers ${source_dir}/*.h)  # what its sources include by name
        list(APPEND files ${source} ${private_headers})
      endif()
    endforeach()
  endforeach()
  set(seen)
  while(files)
    list(POP_FRONT files file)
    if(file IN_LIST seen OR NOT EXISTS ${file})
      continue()
    endif()
    list(APPEND seen ${file})
    file(STRINGS ${file} includes REGEX "^#include \"opuc/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
      foreach(pattern IN LISTS OPUC_COMPILER_HEADERS)
        string(FIND "${header}" "${pattern}" at)
        if(at EQUAL 0)
          file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${file})
          message(FATAL_ERROR "${where} includes ${header}, a header of the compiler, and "
                              "${runtime} compiles it: the runtime includes none of them "
                              "(docs/architecture.md)")
        endif()
      endforeach()
      list(APPEND files ${PROJECT_SOURCE_DIR}/include/${header})
    endforeach()
  endwhile()
endfunction()
