//! The schema half of the engine: strict normalization, local validation and the rules of the
//! Standard Schema bridge.

pub mod nulls;
pub mod pointer;
pub mod quick;
pub mod standard;
pub mod strict;
pub mod validate;
