//! Fused receive-reduce kernels (placeholder until implemented).
