# The layering of opuc's libraries (docs/architecture.md draws it). A library
# may link only libraries of lower layers; one that links its own layer or
# above fails to configure, so the picture in the docs stays true.
#
# Build pieces (opuc_build_flags, opuc_flatbuffers, the generated schema
# headers) are not layers: anyone may use them.
set(OPUC_LAYERS
  "opuc_status opuc_support opuc_numerics"           # 0: errors, formatting, fixed-point primitives
  "opuc_ir"                                          # 1: the graph and its op registry
  "opuc_tensor_io opuc_frontend opuc_fusion opuc_opu opuc_isa" # 2: tensors and files, readers, FuseOps, HwConfig, ISA
  "opuc_cpu_reference opuc_partition opuc_image opuc_fsim" # 3: executors (reference, fsim); partitioning; images
  "opuc_cpu"                                         # 4: the CPU executor (the reference's contract, Eigen kernels)
  "opuc_pass opuc_quant opuc_codegen"                # 5: passes, the quantizer (they run executors), codegen
  "opuc_program"                                     # 6: the .opup program (write, read in place)
  "opuc_runtime opuc_compiler"                       # 7: running programs on devices; the whole compile flow
)
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
    get_target_property(type ${lib} TYPE)
    set(deps)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(deps ${lib} LINK_LIBRARIES)
    endif()
    get_target_property(interface_deps ${lib} INTERFACE_LINK_LIBRARIES)
    foreach(dep IN LISTS deps interface_deps)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
      if(NOT dep MATCHES "^opuc_" OR dep IN_LIST _opuc_build_pieces)
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
