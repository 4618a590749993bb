//! understudy patch: the regular-expression crates the validators are built with. Each module
//! that names `fancy_regex::…` or `regex::…` imports them from here, which shadows the crates of
//! the same names: the real crates, or with `host-regex` the host's stand-ins
//! (`crate::host_regex`).

#[cfg(not(feature = "host-regex"))]
pub(crate) use ::{fancy_regex, regex};

#[cfg(feature = "host-regex")]
pub(crate) use crate::host_regex::{fancy_regex, regex};
