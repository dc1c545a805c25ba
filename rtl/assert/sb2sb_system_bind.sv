// Interface assertions of the system top (assertion builds): the checkers of
// its blocks, bound module-wide as for the pair (every udma_engine, udma_regs,
// evt_sem, sb2sb_xbar and io_d2d_link instance of every core and of the
// fabric). The in-lane slave checks of each core's sb2sb_xbar see the bursts
// the fabric's grants hand over (VALID held until READY across a grant), the
// io_d2d_link near-side checks the lanes the fabric's routes join.
`include "sb2sb_pair_bind.sv"
