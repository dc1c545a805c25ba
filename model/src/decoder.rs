//! Golden cycle model of `rtl/cayman_addr_decode.sv` (owner: address work). Placeholder.
use crate::ports::BlockDesc;
pub const BLOCK: BlockDesc = BlockDesc { name: "decoder", top: "cayman_addr_decode", rtl_files: &[], inputs: &[], outputs: &[] };
