//! CPU time of the calling thread: the model crate's [`sb2sb_model::cputime`]
//! (one implementation for the runner, the benches and the model's examples).

pub use sb2sb_model::cputime::*;
