//! SIMD datapath: copy kernels (owner: system work) and fused receive-reduce
//! kernels in [`reduce`] (owner: collective work). Placeholder.
pub mod reduce;
