//! Generic CSR test plan derived from a register description (filled in below).
