// Interface assertions of the leg (assertion builds): the pair top has no bus of
// its own beyond the two Q7 ports, so the checkers are those of its blocks. The
// bind statements of each block are module-wide, so including them here binds
// the checkers into every udma_engine, udma_regs and evt_sem instance of both
// cores (NumEngines engines per core).
`include "evt_sem_bind.sv"
`include "udma_engine_bind.sv"
