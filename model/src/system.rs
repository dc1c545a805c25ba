//! system (placeholder until implemented).
