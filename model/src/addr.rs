//! CAYMAN SoC address codec (owner: address work). Placeholder until implemented.
crate::sv_consts! {}
