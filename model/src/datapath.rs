//! datapath (placeholder until implemented).
