// Generated from the Rust definitions in model/src (svpkg::render).
// Do not edit: run `make gen` after changing the Rust constants.

package sb2sb_pkg;

  // Only constants the RTL uses are exported (Verilator -Wall checks UNUSEDPARAM);
  // register layouts are exported as packed structs and field typedefs.

  // ---- CAYMAN address codec ----
  // LOCAL `[46:0]`: byte offset inside the target die (both views).
  localparam logic [5:0] ADDR_LOCAL_LSB = 6'h0;
  // Width of LOCAL.
  localparam logic [5:0] ADDR_LOCAL_W = 6'h2F;
  // DIE `[47]`: die of the target inside its package (both views).
  localparam logic [5:0] ADDR_DIE_BIT = 6'h2F;
  // CAYMAN_ID `[53:48]` (chip-id view): target chip in the 64-die mesh.
  localparam logic [5:0] ADDR_CAYMAN_ID_LSB = 6'h30;
  // Width of CAYMAN_ID.
  localparam logic [5:0] ADDR_CAYMAN_ID_W = 6'h6;
  // CAYMAN_ID_VALID / ID_VALID `[54]`: the routing id is valid (same bit in both views).
  localparam logic [5:0] ADDR_ID_VALID_BIT = 6'h36;
  // EXIT_SENG `[50]` (neighbor view; position inferred, PUBLIC-FACTS §3).
  localparam logic [5:0] ADDR_EXIT_SENG_BIT = 6'h32;
  // EXIT_DIE `[51]` (neighbor view): cross the die boundary.
  localparam logic [5:0] ADDR_EXIT_DIE_BIT = 6'h33;
  // NEIGHBOR_ROUTE `[52]` (neighbor view): engage neighbor routing.
  localparam logic [5:0] ADDR_NEIGHBOR_ROUTE_BIT = 6'h34;
  // PEB `[53]` (neighbor view; position inferred).
  localparam logic [5:0] ADDR_PEB_BIT = 6'h35;
  // Reserved `[49:48]` in the neighbor view.
  localparam logic [5:0] ADDR_RSVD_NBR_LSB = 6'h30;
  // Width of the neighbor-view reserved field.
  localparam logic [5:0] ADDR_RSVD_NBR_W = 6'h2;
  // Reserved `[56:55]` in both views.
  localparam logic [5:0] ADDR_RSVD_MID_LSB = 6'h37;
  // Width of the `[56:55]` reserved field.
  localparam logic [5:0] ADDR_RSVD_MID_W = 6'h2;
  // Reserved `[63:57]` in both views.
  localparam logic [5:0] ADDR_RSVD_HI_LSB = 6'h39;
  // Width of the `[63:57]` reserved field.
  localparam logic [5:0] ADDR_RSVD_HI_W = 6'h7;
  // Host memory (PCIe A0) aperture bit inside LOCAL (PUBLIC-FACTS §3).
  localparam logic [5:0] ADDR_HOST_BIT = 6'h2E;
  // Width of a route code.
  localparam logic [5:0] ROUTE_W = 6'h3;
  // Route: the target is this core's own die.
  localparam logic [2:0] ROUTE_SAME_DIE = 3'h0;
  // Route: the other die of this package (io_d2d).
  localparam logic [2:0] ROUTE_OTHER_DIE = 3'h1;
  // Route: another chip, addressed by CAYMAN_ID.
  localparam logic [2:0] ROUTE_OTHER_CHIP = 3'h2;
  // Route: a neighbor device aperture (PCIe B0_n).
  localparam logic [2:0] ROUTE_NEIGHBOR_DEVICE = 3'h3;
  // Route: host memory (PCIe A0).
  localparam logic [2:0] ROUTE_HOST = 3'h4;
  // Width of the decoder op code.
  localparam logic [5:0] ADDR_OP_W = 6'h2;
  // Decoder op: decode `addr_i`.
  localparam logic [1:0] ADDR_OP_DECODE = 2'h0;
  // Decoder op: fold_chip_id(local_i, die_i, chip_id_i).
  localparam logic [1:0] ADDR_OP_FOLD_CHIP = 2'h1;
  // Decoder op: fold_neighbor(local_i, die_i, exit_seng_i).
  localparam logic [1:0] ADDR_OP_FOLD_NEIGHBOR = 2'h2;

  // ---- One core clock: the engines' data width ----
  // AXI data width of a UDMA engine and of the core's interconnect, SBUF, descriptor RAM and io_d2d link, in bits (model/src/clock.rs).
  localparam logic [15:0] ENGINE_DATA_BITS = 16'h100;

  // ---- EVT_SEM window ----
  // EVT_SEM: AXI4-Lite address width (byte offset inside the window).
  localparam logic [7:0] EVT_SEM_ADDR_W = 8'hD;
  // EVT_SEM: number of semaphores (signed 32-bit).
  localparam logic [15:0] EVT_SEM_NUM_SEM = 16'h100;
  // EVT_SEM: number of events (one bit each).
  localparam logic [15:0] EVT_SEM_NUM_EVT = 16'h100;
  // EVT_SEM: hardware increment ports (one per DMA engine).
  localparam logic [7:0] EVT_SEM_NUM_INC = 8'h10;
  // EVT_SEM: wait ports.
  localparam logic [7:0] EVT_SEM_NUM_WAIT = 8'h4;
  // EVT_SEM: lowest offset bit of the window selector (`offset[12:10]`).
  localparam logic [7:0] EVT_SEM_WIN_LSB = 8'hA;
  // EVT_SEM: lowest offset bit of the register index (`offset[9:2]`).
  localparam logic [7:0] EVT_SEM_IDX_LSB = 8'h2;
  // EVT_SEM: window code of `EVENT[i]` (0x0000).
  localparam logic [2:0] EVT_SEM_WIN_EVENT = 3'h0;
  // EVT_SEM: window code of `SEM_READ[i]` (0x1000), read-only.
  localparam logic [2:0] EVT_SEM_WIN_SEM_READ = 3'h4;
  // EVT_SEM: window code of `SEM_SET[i]` (0x1400).
  localparam logic [2:0] EVT_SEM_WIN_SEM_SET = 3'h5;
  // EVT_SEM: window code of `SEM_INCR[i]` (0x1800).
  localparam logic [2:0] EVT_SEM_WIN_SEM_INCR = 3'h6;
  // EVT_SEM: window code of `SEM_DECR[i]` (0x1C00).
  localparam logic [2:0] EVT_SEM_WIN_SEM_DECR = 3'h7;
  // EVT_SEM: ERR_STATUS offset (sticky error bits, write-1-to-clear).
  localparam logic [12:0] EVT_SEM_ERR_STATUS = 13'h400;
  // EVT_SEM: FIRST_ERR offset (write with VALID set re-arms the capture).
  localparam logic [12:0] EVT_SEM_FIRST_ERR = 13'h404;
  // EVT_SEM: FIRST_ERR_DATA offset (read-only).
  localparam logic [12:0] EVT_SEM_FIRST_ERR_DATA = 13'h408;
  // EVT_SEM: ERR bit: write to a read-only register (SEM_READ, FIRST_ERR_DATA).
  localparam logic [2:0] EVT_SEM_ERR_WR_RO = 3'h0;
  // EVT_SEM: ERR bit: access to an unmapped offset.
  localparam logic [2:0] EVT_SEM_ERR_UNMAPPED = 3'h1;
  // EVT_SEM: ERR bit: write with wstrb != 4'hF.
  localparam logic [2:0] EVT_SEM_ERR_PARTIAL_STRB = 3'h2;
  // EVT_SEM: ERR bit: a semaphore update left the signed 32-bit range (saturated).
  localparam logic [2:0] EVT_SEM_ERR_OVERFLOW = 3'h3;
  // EVT_SEM: ERR bit: a wait port was valid with an unsupported wait_mode.
  localparam logic [2:0] EVT_SEM_ERR_BAD_WAIT_MODE = 3'h4;
  // EVT_SEM: number of ERR_STATUS bits.
  localparam logic [7:0] EVT_SEM_NUM_ERR = 8'h5;
  // EVT_SEM: wait_mode NONE (satisfied at once). Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_NONE = 8'h0;
  // EVT_SEM: wait_mode WAIT_FOR_SEM_EQ_IMM. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_SEM_EQ = 8'h1;
  // EVT_SEM: wait_mode WAIT_FOR_SEM_LT_IMM. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_SEM_LT = 8'h2;
  // EVT_SEM: wait_mode WAIT_FOR_SEM_LE_IMM. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_SEM_LE = 8'h3;
  // EVT_SEM: wait_mode WAIT_FOR_SEM_GT_IMM. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_SEM_GT = 8'h4;
  // EVT_SEM: wait_mode WAIT_FOR_SEM_GE_IMM. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_SEM_GE = 8'h5;
  // EVT_SEM: wait_mode WAIT_FOR_EVT_SET. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_EVT_SET = 8'h6;
  // EVT_SEM: wait_mode WAIT_FOR_EVT_SET_THEN_CLEAR. Seed 002 §3.
  localparam logic [7:0] EVT_SEM_WAIT_EVT_SET_CLR = 8'h7;
  // EVT_SEM: wait_mode wait >= immediate then decrement by it (project-defined code; seed 001 §5.2 add_semaphore_wait_ge_and_dec).
  localparam logic [7:0] EVT_SEM_WAIT_SEM_GE_DEC = 8'h8;
  // EVT_SEM: full write strobe (the only one accepted).
  localparam logic [3:0] EVT_SEM_FULL_STRB = 4'hF;

  // ---- UDMA engine ----
  // Width of the AXI4-Lite CSR address (engine space 0x00000..0x3FFFF).
  localparam logic [31:0] UDMA_CSR_ADDR_WIDTH = 32'h12;
  // Address bit that selects the S2M side (0x20000).
  localparam logic [31:0] UDMA_SIDE_BIT = 32'h11;
  // "gen" unit base (public); not implemented here, accesses answer SLVERR.
  localparam logic [31:0] UDMA_GEN_BASE = 32'h38000;
  // Number of queues per side (public: 16).
  localparam logic [31:0] UDMA_NUM_QUEUES = 32'h10;
  // M2S (TX) unit base (public: driver v4 layout).
  localparam logic [31:0] UDMA_M2S_BASE = 32'h0;
  // S2M (RX) unit base (public: driver v4 layout).
  localparam logic [31:0] UDMA_S2M_BASE = 32'h20000;
  // Queue array base inside a side (public).
  localparam logic [31:0] UDMA_Q_ARRAY_BASE = 32'h1000;
  // Queue register bundle stride (public: BundleSizeInBytes 4096).
  localparam logic [31:0] UDMA_Q_STRIDE = 32'h1000;
  // Engine state, read-only: `[1:0]` 0 idle, 1 normal, 2 abort (public values).
  localparam logic [31:0] UDMA_ENG_STATE = 32'h200;
  // Change state, write-only: bit0 NORMAL, bit1 DIS, bit2 ABORT (Alpine HAL).
  localparam logic [31:0] UDMA_ENG_CHANGE_STATE = 32'h204;
  // Error log mask: a set bit keeps that cause off `err_irq_o` (public offset).
  localparam logic [31:0] UDMA_ENG_ERR_LOG_MASK = 32'h20C;
  // M2S cfg_len (public offset); stored, no effect in this model.
  localparam logic [31:0] UDMA_M2S_CFG_LEN = 32'h254;
  // Project-defined: sticky error status, same bit layout as err_log_mask, write 1 to clear.
  localparam logic [31:0] UDMA_ENG_ERR_STATUS = 32'h300;
  // Project-defined: interrupt status, bit q set when a queue-q descriptor with INT_EN completes; W1C.
  localparam logic [31:0] UDMA_ENG_INT_STATUS = 32'h304;
  // Project-defined: S2M no-descriptor timeout in cycles (0 = never); M2S: stored, unused.
  localparam logic [31:0] UDMA_ENG_NO_DESC_TOUT = 32'h308;
  // Project-defined: debug read of the side's FSM: `[3:0]` state, `[11:8]` queue, `[16]` packet open.
  localparam logic [31:0] UDMA_ENG_DBG_STATE = 32'h30C;
  // Engine state: idle (reset value).
  localparam logic [31:0] UDMA_STATE_IDLE = 32'h0;
  // Engine state: normal operation.
  localparam logic [31:0] UDMA_STATE_NORMAL = 32'h1;
  // Engine state: abort.
  localparam logic [31:0] UDMA_STATE_ABORT = 32'h2;
  // M2S data read AXI response error (Alpine HAL bit 8).
  localparam logic [31:0] UDMA_M2S_ERR_DATA_AXI_RESPONSE = 32'h8;
  // M2S descriptor prefetch AXI response error (Alpine HAL bit 11).
  localparam logic [31:0] UDMA_M2S_ERR_PREF_AXI_RESPONSE = 32'hB;
  // M2S descriptor ring-id mismatch on prefetch (public: bit 17).
  localparam logic [31:0] UDMA_M2S_ERR_PREF_RING_ID = 32'h11;
  // M2S descriptor FIRST bit inconsistent with the packet state: a descriptor that starts a packet without FIRST, or FIRST inside an open packet (project-defined bit).
  localparam logic [31:0] UDMA_M2S_ERR_DESC_FIRST = 32'hD;
  // S2M completion write AXI response error (project-defined bit).
  localparam logic [31:0] UDMA_S2M_ERR_COMP_AXI_RESPONSE = 32'h5;
  // S2M data write AXI response error (project-defined bit).
  localparam logic [31:0] UDMA_S2M_ERR_DATA_AXI_RESPONSE = 32'h8;
  // S2M descriptor prefetch AXI response error (project-defined bit).
  localparam logic [31:0] UDMA_S2M_ERR_PREF_AXI_RESPONSE = 32'hA;
  // S2M descriptor ring-id mismatch on prefetch (public: bit 11).
  localparam logic [31:0] UDMA_S2M_ERR_PREF_RING_ID = 32'hB;
  // S2M packet waited longer than NO_DESC_TOUT cycles for a descriptor (project-defined bit).
  localparam logic [31:0] UDMA_S2M_ERR_NO_DESC = 32'hC;
  // Doorbell would move the tail past the free space (project-defined bit, both sides).
  localparam logic [31:0] UDMA_ERR_DB_OVERFLOW = 32'h18;
  // Bad CSR access answered with SLVERR (project-defined bit, side = address bit 17).
  localparam logic [31:0] UDMA_ERR_CSR = 32'h19;
  // M2S desc_pref_cfg (public offset); stored, no effect.
  localparam logic [31:0] UDMA_Q_DESC_PREF_CFG = 32'h0;
  // Queue cfg: EN_PREF bit16, EN_SCHEDULING (M2S) / EN_STREAM (S2M) bit17.
  localparam logic [31:0] UDMA_Q_CFG = 32'h20;
  // Queue status, read-only: Q_USED `[23:0]`, STOPPED 27, PREFETCH 28, SCHEDULER/RX 29, Q_FULL 31.
  localparam logic [31:0] UDMA_Q_STATUS = 32'h24;
  // Descriptor ring base low, bits `[31:6]` (rings 256-byte aligned by the driver).
  localparam logic [31:0] UDMA_Q_RBP_LOW = 32'h28;
  // Descriptor ring base high `[63:32]`.
  localparam logic [31:0] UDMA_Q_RBP_HIGH = 32'h2C;
  // Ring length in descriptors, 24 bits.
  localparam logic [31:0] UDMA_Q_RL = 32'h30;
  // Head pointer, read-only: offset `[23:0]`, ring id `[31:30]`.
  localparam logic [31:0] UDMA_Q_RHP = 32'h34;
  // Tail-pointer increment (the doorbell), write-only, value `[23:0]`.
  localparam logic [31:0] UDMA_Q_RTP_INC = 32'h38;
  // Tail pointer, read-only: offset `[23:0]`, ring id `[31:30]`.
  localparam logic [31:0] UDMA_Q_RTP = 32'h3C;
  // Current pointer, read-only: offset of the descriptor being (or next to be) fetched.
  localparam logic [31:0] UDMA_Q_RCP = 32'h40;
  // Completion ring base low, bits `[31:6]`.
  localparam logic [31:0] UDMA_Q_CRBP_LOW = 32'h44;
  // Completion ring base high `[63:32]`.
  localparam logic [31:0] UDMA_Q_CRBP_HIGH = 32'h48;
  // Completion ring head (next slot hardware writes), read-only: offset `[23:0]`, ring id `[31:30]`.
  localparam logic [31:0] UDMA_Q_CRHP = 32'h4C;
  // S2M comp_cfg: bit0 EN_COMP_RING_UPDATE (Alpine HAL).
  localparam logic [31:0] UDMA_S2M_Q_COMP_CFG = 32'h54;
  // M2S q_sw_ctrl (public): bit8 RST_Q.
  localparam logic [31:0] UDMA_M2S_Q_SW_CTRL = 32'hB0;
  // S2M q_sw_ctrl (public): bit8 RST_Q.
  localparam logic [31:0] UDMA_S2M_Q_SW_CTRL = 32'h64;
  // Project-defined: queue sticky error causes (bit layout of err_log_mask), cleared by RST_Q.
  localparam logic [31:0] UDMA_Q_ERR = 32'hC0;
  // Project-defined: bytes moved (M2S: accepted by the stream; S2M: written to memory), mod 2^32.
  localparam logic [31:0] UDMA_Q_BYTES = 32'hC4;
  // Project-defined: S2M bytes accepted from the stream and dropped (no usable descriptor).
  localparam logic [31:0] UDMA_Q_DROP_BYTES = 32'hC8;
  // Project-defined: descriptors completed, mod 2^32.
  localparam logic [31:0] UDMA_Q_DESC_DONE = 32'hCC;
  // Ring base low: lowest stored bit (public: `[31:6]`).
  localparam logic [31:0] UDMA_Q_RBP_LOW_SHIFT = 32'h6;
  // Descriptor size in bytes (public: 16).
  localparam logic [31:0] UDMA_DESC_BYTES = 32'h10;
  // Maximum bytes per descriptor (public: 65536).
  localparam logic [31:0] UDMA_DESC_MAX_LEN = 32'h10000;
  // AXI OKAY.
  localparam logic [31:0] AXI_RESP_OKAY = 32'h0;
  // AXI SLVERR.
  localparam logic [31:0] AXI_RESP_SLVERR = 32'h2;

  // ---- SB2SB core top: broadcast doorbell ----
  // Bytes per queue group (queue q at q × 0x10).
  localparam logic [31:0] BCAST_Q_STRIDE = 32'h10;
  // M2S mask register in a queue group (RW, one bit per engine).
  localparam logic [31:0] BCAST_MASK = 32'h0;
  // M2S tail-increment trigger in a queue group (WO, wdata `[23:0]` descriptors).
  localparam logic [31:0] BCAST_TAIL_INC = 32'h4;
  // Offset of the S2M registers from the M2S ones in a queue group.
  localparam logic [31:0] BCAST_SIDE_STRIDE = 32'h8;

  // ---- SB2SB core address map (model/src/system/map.rs) ----
  // Size of the SBUF aperture at core offset 0: every core offset below it is SBUF.
  localparam logic [31:0] CORE_SBUF_WINDOW_BYTES = 32'h10000000;
  // EVT_SEM window base inside a core.
  localparam logic [31:0] CORE_EVT_SEM_BASE = 32'h10000000;
  // EVT_SEM window size (PUBLIC-FACTS §2).
  localparam logic [31:0] CORE_EVT_SEM_BYTES = 32'h2000;
  // Offset of the EVT_SEM SEM_INCR window inside a core (seed 001 §5.1): the target of every semaphore descriptor, and of the interconnect's increment ports.
  localparam logic [31:0] CORE_EVT_INCR_BASE = 32'h10001800;
  // Bytes of the SEM_INCR window (one 32-bit word per semaphore).
  localparam logic [31:0] CORE_EVT_INCR_BYTES = 32'h400;
  // UDMA engine CSR base inside a core (engine e at + e << UDMA_CSR_ADDR_WIDTH).
  localparam logic [31:0] CORE_UDMA_BASE = 32'h11000000;
  // Broadcast doorbell block inside a core (seed 001 §4.4; registers BCAST_*).
  localparam logic [31:0] CORE_BCAST_BASE = 32'h11400000;
  // Bytes of the broadcast doorbell block: 16 queue groups of 16 bytes.
  localparam logic [31:0] CORE_BCAST_BYTES = 32'h100;
  // Descriptor RAM base inside a core.
  localparam logic [31:0] CORE_DESC_BASE = 32'h12000000;
  // Descriptor RAM size.
  localparam logic [31:0] CORE_DESC_BYTES = 32'h4000000;

  // ---- evt_sem register layouts (model/src/regs) ----
  // VALUE [0:0] (reset 0x0)
  typedef struct packed {
    logic [30:0] rsvd1;
    logic value;
  } evt_sem_event_t;
  // WR_RO [0:0], UNMAPPED [1:1], PARTIAL_STRB [2:2], OVERFLOW [3:3], BAD_WAIT_MODE [4:4] (reset 0x0)
  typedef struct packed {
    logic [26:0] rsvd5;
    logic bad_wait_mode;
    logic overflow;
    logic partial_strb;
    logic unmapped;
    logic wr_ro;
  } evt_sem_err_t;
  typedef logic [2:0] evt_sem_first_err_kind_t;
  typedef logic [15:0] evt_sem_first_err_info_t;
  // VALID [31:31], KIND [30:28], WRITE [27:27], INFO [15:0] (reset 0x0)
  typedef struct packed {
    logic valid;
    evt_sem_first_err_kind_t kind;
    logic write;
    logic [10:0] rsvd16;
    evt_sem_first_err_info_t info;
  } evt_sem_first_err_t;
  typedef logic [31:0] evt_sem_sem_value_t;
  // VALUE [31:0] (reset 0x0)
  typedef struct packed {
    evt_sem_sem_value_t value;
  } evt_sem_sem_t;

  // ---- udma register layouts (model/src/regs) ----
  typedef logic [31:0] udma_word_value_t;
  // VALUE [31:0] (reset 0x0)
  typedef struct packed {
    udma_word_value_t value;
  } udma_word_t;
  typedef logic [1:0] udma_eng_state_state_t;
  // STATE [1:0] (reset 0x0)
  typedef struct packed {
    logic [29:0] rsvd2;
    udma_eng_state_state_t state_f;
  } udma_eng_state_t;
  // NORMAL [0:0], DIS [1:1], ABORT [2:2] (reset 0x0)
  typedef struct packed {
    logic [28:0] rsvd3;
    logic abort_f;
    logic dis;
    logic normal;
  } udma_change_state_t;
  typedef logic [15:0] udma_int_status_queues_t;
  // QUEUES [15:0] (reset 0x0)
  typedef struct packed {
    logic [15:0] rsvd16;
    udma_int_status_queues_t queues;
  } udma_int_status_t;
  typedef logic [3:0] udma_dbg_state_queue_t;
  typedef logic [3:0] udma_dbg_state_state_t;
  // STATE [3:0], QUEUE [11:8], PKT [16:16] (reset 0x0)
  typedef struct packed {
    logic [14:0] rsvd17;
    logic pkt;
    logic [3:0] rsvd12;
    udma_dbg_state_queue_t queue_f;
    logic [3:0] rsvd4;
    udma_dbg_state_state_t state_f;
  } udma_dbg_state_t;
  // EN_PREF [16:16], EN_SCHED [17:17] (reset 0x0)
  typedef struct packed {
    logic [13:0] rsvd18;
    logic en_sched;
    logic en_pref;
    logic [15:0] rsvd0;
  } udma_q_cfg_t;
  typedef logic [23:0] udma_q_status_q_used_t;
  // Q_USED [23:0], STOPPED [27:27], PREFETCH [28:28], SCHED [29:29], Q_FULL [31:31] (reset 0x0)
  typedef struct packed {
    logic q_full;
    logic rsvd30;
    logic sched;
    logic prefetch;
    logic stopped;
    logic [2:0] rsvd24;
    udma_q_status_q_used_t q_used;
  } udma_q_status_t;
  typedef logic [25:0] udma_q_base_low_addr_t;
  // ADDR [31:6] (reset 0x0)
  typedef struct packed {
    udma_q_base_low_addr_t addr;
    logic [5:0] rsvd0;
  } udma_q_base_low_t;
  typedef logic [23:0] udma_q_rl_len_t;
  // LEN [23:0] (reset 0x0)
  typedef struct packed {
    logic [7:0] rsvd24;
    udma_q_rl_len_t len;
  } udma_q_rl_t;
  typedef logic [1:0] udma_q_ptr_ring_id_t;
  typedef logic [23:0] udma_q_ptr_offset_t;
  // OFFSET [23:0], RING_ID [31:30] (reset 0x40000000)
  typedef struct packed {
    udma_q_ptr_ring_id_t ring_id;
    logic [5:0] rsvd24;
    udma_q_ptr_offset_t offset;
  } udma_q_ptr_t;
  localparam logic [31:0] UDMA_Q_PTR_RESET = 32'h40000000;
  typedef logic [23:0] udma_q_rtp_inc_inc_t;
  // INC [23:0] (reset 0x0)
  typedef struct packed {
    logic [7:0] rsvd24;
    udma_q_rtp_inc_inc_t inc;
  } udma_q_rtp_inc_t;
  // EN_COMP_RING_UPDATE [0:0] (reset 0x0)
  typedef struct packed {
    logic [30:0] rsvd1;
    logic en_comp_ring_update;
  } udma_q_comp_cfg_t;
  // RST_Q [8:8] (reset 0x0)
  typedef struct packed {
    logic [22:0] rsvd9;
    logic rst_q;
    logic [7:0] rsvd0;
  } udma_q_sw_ctrl_t;
  typedef logic [1:0] udma_desc_len_ctrl_ring_id_t;
  typedef logic [15:0] udma_desc_len_ctrl_len_t;
  // LEN [15:0], RING_ID [25:24], FIRST [26:26], LAST [27:27], INT_EN [28:28], DMB [30:30], CONCAT [31:31] (reset 0x0)
  typedef struct packed {
    logic concat;
    logic dmb;
    logic rsvd29;
    logic int_en;
    logic last_f;
    logic first_f;
    udma_desc_len_ctrl_ring_id_t ring_id;
    logic [7:0] rsvd16;
    udma_desc_len_ctrl_len_t len;
  } udma_desc_len_ctrl_t;
  typedef logic [1:0] udma_cdesc_w0_ring_id_t;
  // RING_ID [25:24], FIRST [26:26], LAST [27:27], BUF1_USED [30:30], ERROR [31:31] (reset 0x0)
  typedef struct packed {
    logic error;
    logic buf1_used;
    logic [1:0] rsvd28;
    logic last_f;
    logic first_f;
    udma_cdesc_w0_ring_id_t ring_id;
    logic [23:0] rsvd0;
  } udma_cdesc_w0_t;
  typedef logic [16:0] udma_cdesc_w1_len_t;
  // LEN [16:0] (reset 0x0)
  typedef struct packed {
    logic [14:0] rsvd17;
    udma_cdesc_w1_len_t len;
  } udma_cdesc_w1_t;
  typedef logic [23:0] udma_cdesc_w2_desc_offset_t;
  // DESC_OFFSET [23:0] (reset 0x0)
  typedef struct packed {
    logic [7:0] rsvd24;
    udma_cdesc_w2_desc_offset_t desc_offset;
  } udma_cdesc_w2_t;

  // ---- UDMA queue-register address (udma::regs::q_addr) ----
  // Engine-space address of per-queue register `off` of queue `q` on the
  // S2M (`s2m`) or M2S side.
  function automatic logic [31:0] udma_q_addr(input logic s2m, input logic [3:0] q,
                                              input logic [31:0] off);
    return (s2m ? UDMA_S2M_BASE : UDMA_M2S_BASE) + UDMA_Q_ARRAY_BASE + 32'(q) * UDMA_Q_STRIDE + off;
  endfunction

  // ---- SoC fabric: link latency by class (system::cycle::LINK_LATENCY_RULE) ----
  localparam logic [1:0] LINK_CLASS_ON_DIE = 2'h0;
  localparam logic [1:0] LINK_CLASS_D2D = 2'h1;
  localparam logic [1:0] LINK_CLASS_C2C = 2'h2;
  // Latency in cycles of a fabric link of class `cls` when the io_d2d link's is `d2d`.
  function automatic int unsigned link_latency_at(input logic [1:0] cls,
                                                  input int unsigned d2d);
    int unsigned r;
    unique case (cls)
      LINK_CLASS_ON_DIE: r = d2d * 1 / 4;
      LINK_CLASS_D2D: r = d2d * 1 / 1;
      LINK_CLASS_C2C: r = d2d * 4 / 1;
      default: r = 0;
    endcase
    return r;
  endfunction

  // ---- register decode (model/src/regs, from the descriptions) ----
  // Register access kind returned by the generated decode functions (regs::render_sv_decode).
  typedef enum logic [2:0] {
    RegAccRw,
    RegAccRo,
    RegAccWo,
    RegAccW1c,
    RegAccBad
  } reg_access_e;
  // Access kind at byte offset `off` of "EVT_SEM window (0x2000 bytes; offsets 0x040C–0x0FFF unmapped: SLVERR)" (generated from evt_sem::regs::DESC).
  function automatic reg_access_e evt_sem_access(logic [31:0] off);
    reg_access_e acc;
    acc = RegAccBad;
    if (off < 32'd1024 && (off % 32'd4) == '0) begin
      acc = RegAccRw;
    end else if (off >= 32'h1000 && off < 32'h1000 + 32'd1024 && ((off - 32'h1000) % 32'd4) == '0) begin
      acc = RegAccRo;
    end else if (off >= 32'h1400 && off < 32'h1400 + 32'd1024 && ((off - 32'h1400) % 32'd4) == '0) begin
      acc = RegAccRw;
    end else if (off >= 32'h1800 && off < 32'h1800 + 32'd1024 && ((off - 32'h1800) % 32'd4) == '0) begin
      acc = RegAccRw;
    end else if (off >= 32'h1C00 && off < 32'h1C00 + 32'd1024 && ((off - 32'h1C00) % 32'd4) == '0) begin
      acc = RegAccRw;
    end else begin
      unique case (off)
        32'(EVT_SEM_ERR_STATUS): acc = RegAccW1c;
        32'(EVT_SEM_FIRST_ERR): acc = RegAccRw;
        32'(EVT_SEM_FIRST_ERR_DATA): acc = RegAccRo;
        default: acc = RegAccBad;
      endcase
    end
    return acc;
  endfunction
  // Access kind at byte offset `off` of "Engine registers (M2S side at 0x00000, S2M side at 0x20000)" (generated from udma::regs::DESC).
  function automatic reg_access_e udma_eng_access(logic m2s, logic [31:0] off);
    reg_access_e acc;
    unique case (off)
      UDMA_ENG_STATE, UDMA_ENG_DBG_STATE: acc = RegAccRo;
      UDMA_ENG_CHANGE_STATE: acc = RegAccWo;
      UDMA_ENG_ERR_LOG_MASK, UDMA_ENG_NO_DESC_TOUT: acc = RegAccRw;
      UDMA_M2S_CFG_LEN: acc = m2s ? RegAccRw : RegAccBad;
      UDMA_ENG_ERR_STATUS, UDMA_ENG_INT_STATUS: acc = RegAccW1c;
      default: acc = RegAccBad;
    endcase
    return acc;
  endfunction
  // Access kind at byte offset `off` of "Queue registers (per side: queue q at side + 0x1000 + q·0x1000)" (generated from udma::regs::DESC).
  function automatic reg_access_e udma_queue_access(logic m2s, logic [31:0] off);
    reg_access_e acc;
    unique case (off)
      UDMA_Q_DESC_PREF_CFG: acc = m2s ? RegAccRw : RegAccBad;
      UDMA_Q_CFG, UDMA_Q_RBP_LOW, UDMA_Q_RBP_HIGH, UDMA_Q_RL, UDMA_Q_CRBP_LOW, UDMA_Q_CRBP_HIGH: acc = RegAccRw;
      UDMA_Q_STATUS, UDMA_Q_RHP, UDMA_Q_RTP, UDMA_Q_RCP, UDMA_Q_CRHP, UDMA_Q_ERR, UDMA_Q_BYTES, UDMA_Q_DROP_BYTES, UDMA_Q_DESC_DONE: acc = RegAccRo;
      UDMA_Q_RTP_INC: acc = RegAccWo;
      UDMA_S2M_Q_COMP_CFG: acc = m2s ? RegAccBad : RegAccRw;
      UDMA_M2S_Q_SW_CTRL: acc = m2s ? RegAccWo : RegAccBad;
      UDMA_S2M_Q_SW_CTRL: acc = m2s ? RegAccBad : RegAccWo;
      default: acc = RegAccBad;
    endcase
    return acc;
  endfunction

endpackage : sb2sb_pkg
