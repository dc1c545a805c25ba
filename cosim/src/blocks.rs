//! Block dispatch for `sb2sb cosim --block NAME` (the lead fills this in).
