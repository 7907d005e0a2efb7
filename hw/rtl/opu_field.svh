// `OPU_FIELD(word, GEMM_ACC_ADDR): the field's bits of an instruction word,
// exactly as wide as isa.def makes it.
`ifndef OPU_FIELD_SVH
`define OPU_FIELD_SVH
`define OPU_FIELD(w, NAME) w[opuc_isa_pkg::NAME``_LSB +: opuc_isa_pkg::NAME``_WIDTH]
`endif
