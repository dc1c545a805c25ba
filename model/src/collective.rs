//! collective (placeholder until implemented).
