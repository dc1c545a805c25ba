//! EVT_SEM semaphore window (owner: EVT_SEM work). Placeholder.
pub mod regs;
