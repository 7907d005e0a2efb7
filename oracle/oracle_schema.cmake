# cmake -DIN=schema/tflite.fbs -DOUT=<dir>/tflite_oracle.fbs -P oracle_schema.cmake
#
# The oracle's copy of opuc's TFLite schema, in its own namespace
# (opuc.oracle_tflite) so that its object-API classes (flatc
# --gen-object-api) never share a name with the importer's generated
# classes in the same test binary.
file(READ ${IN} text)
string(REPLACE "namespace opuc.tflite;" "namespace opuc.oracle_tflite;" renamed "${text}")
if(renamed STREQUAL text)
  message(FATAL_ERROR "${IN}: no 'namespace opuc.tflite;' line to rename")
endif()
file(WRITE ${OUT} "${renamed}")
