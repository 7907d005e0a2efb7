// Shapes derived from the HwConfig package (opuc_cfg_pkg, generated per
// preset) and the decode of the ISA package (opuc_isa_pkg, generated from
// include/opuc/opu/isa.def): what every other module of hw/rtl shares.
package opu_pkg;
  import opuc_isa_pkg::*;
  import opuc_cfg_pkg::*;
  // Whoever imports opu_pkg sees the generated names too.
  export opuc_isa_pkg::*;
  export opuc_cfg_pkg::*;

  localparam int unsigned ACC_BITS = 48;     // numerics.md §1b: an i16 input's sum
  localparam int unsigned BEAT_BYTES = L;    // one DRAM read: a feature-map unit
  localparam int unsigned BEAT_BITS = 8 * BEAT_BYTES;
  localparam int unsigned FM_BEATS = 1;
  localparam int unsigned WGT_BEATS = CO;    // a weight unit is CO x L bytes
  localparam int unsigned PARAM_BEATS = CO * 8 / L;
  localparam int unsigned WGT_BITS = WGT_BEATS * BEAT_BITS;
  localparam int unsigned PARAM_BITS = PARAM_BEATS * BEAT_BITS;
  localparam int unsigned ENTRY_BITS = CO * ACC_BITS;
  localparam int unsigned FM_AW = $clog2(FM_ROWS);
  localparam int unsigned WGT_AW = WGT_ROWS > 1 ? $clog2(WGT_ROWS) : 1;
  localparam int unsigned PARAM_AW = PARAM_ROWS > 1 ? $clog2(PARAM_ROWS) : 1;
  localparam int unsigned ACC_AW = $clog2(ACC_ENTRIES);
  localparam int unsigned WGT_BW = WGT_BEATS > 1 ? $clog2(WGT_BEATS) : 1;
  localparam int unsigned PARAM_BW = PARAM_BEATS > 1 ? $clog2(PARAM_BEATS) : 1;
  localparam int unsigned NUM_ENGINES = 3;

  typedef logic [WORD_BITS-1:0] word_t;
  typedef logic [31:0] index_t;  // an instruction's place in the program

  // The engine an opcode belongs to; `legal` is 0 for an opcode no
  // instruction has.
  function automatic logic [1:0] engine_of(input logic [3:0] opcode, output logic legal);
    legal = 1'b1;
    unique case (opcode)
      OP_LOAD: return 2'(ENGINE_OF_LOAD);
      OP_GEMM: return 2'(ENGINE_OF_GEMM);
      OP_OUTPUT: return 2'(ENGINE_OF_OUTPUT);
      OP_CLAMP: return 2'(ENGINE_OF_CLAMP);
      OP_PRELU: return 2'(ENGINE_OF_PRELU);
      OP_TABLE: return 2'(ENGINE_OF_TABLE);
      OP_RESADD: return 2'(ENGINE_OF_RESADD);
      OP_POOL: return 2'(ENGINE_OF_POOL);
      OP_AVERAGE: return 2'(ENGINE_OF_AVERAGE);
      OP_STORE: return 2'(ENGINE_OF_STORE);
      default: begin
        legal = 1'b0;
        return 2'd0;
      end
    endcase
  endfunction
endpackage
