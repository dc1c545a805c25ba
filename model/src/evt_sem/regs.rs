crate::sv_consts! {}
