//! lower (placeholder until implemented).
