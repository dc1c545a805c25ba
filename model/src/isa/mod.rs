//! 64-byte instruction words (owner: ISA work). Placeholder until implemented.
