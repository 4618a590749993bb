//! understudy patch: a regular-expression engine the embedder installs.
//!
//! With the `host-regex` feature, `pattern`, `patternProperties` and the patterns of
//! `additionalProperties` / `unevaluatedProperties` are compiled and matched by a
//! [`HostPatterns`] the embedder installs (understudy's wasm build: the JavaScript host's
//! `RegExp`, with ECMA-262 semantics as JSON Schema asks) instead of `fancy-regex` and `regex`,
//! which are then not linked. The types below stand in for those crates' `Regex` and
//! `RegexBuilder` (see `crate::engines`), so the generic validators are unchanged; patterns reach
//! the host as written in the schema, not translated to Rust syntax. The literal fast paths
//! (`^prefix`, `^exact$`, `^(a|b)$`, `^\S*$`) still run here, without the host.

use std::{
    fmt,
    marker::PhantomData,
    sync::{Arc, OnceLock},
};

/// The embedder's regular-expression engine.
pub trait HostPatterns: Send + Sync {
    /// Compiles `pattern` (ECMA-262 syntax, as written in the schema) into a handle, or the
    /// host's reason for refusing it.
    ///
    /// # Errors
    ///
    /// The host refuses the pattern (invalid syntax, or it cannot compile it).
    fn compile(&self, pattern: &str) -> Result<u32, String>;
    /// Whether the pattern of `handle` matches somewhere in `text` (an unanchored search).
    ///
    /// # Errors
    ///
    /// The host failed while matching (its own stack or time limits).
    fn is_match(&self, handle: u32, text: &str) -> Result<bool, String>;
    /// The handle is no longer used.
    fn release(&self, handle: u32);
}

static HOST: OnceLock<&'static dyn HostPatterns> = OnceLock::new();

/// Installs the engine every later pattern compiles with; the first installation wins.
pub fn install(host: &'static dyn HostPatterns) {
    let _ = HOST.set(host);
}

/// The host refused a pattern or failed matching one.
#[derive(Debug, Clone)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

#[derive(Debug)]
struct Handle {
    id: u32,
    pattern: Box<str>,
}

impl Drop for Handle {
    fn drop(&mut self) {
        if let Some(host) = HOST.get() {
            host.release(self.id);
        }
    }
}

/// A pattern compiled by the host; `K` keeps the two crates' stand-ins distinct types.
pub struct Regex<K> {
    handle: Arc<Handle>,
    kind: PhantomData<fn() -> K>,
}

impl<K> Clone for Regex<K> {
    fn clone(&self) -> Self {
        Self {
            handle: Arc::clone(&self.handle),
            kind: PhantomData,
        }
    }
}

impl<K> fmt::Debug for Regex<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("HostRegex").field(&self.handle.pattern).finish()
    }
}

/// The installed engine.
fn host() -> Result<&'static dyn HostPatterns, Error> {
    HOST.get()
        .copied()
        .ok_or_else(|| Error("no regular-expression engine is installed".to_owned()))
}

impl<K> Regex<K> {
    fn compile(pattern: &str) -> Result<Self, Error> {
        let id = host()?.compile(pattern).map_err(Error)?;
        Ok(Self {
            handle: Arc::new(Handle {
                id,
                pattern: pattern.into(),
            }),
            kind: PhantomData,
        })
    }

    fn search(&self, text: &str) -> Result<bool, Error> {
        host()?.is_match(self.handle.id, text).map_err(Error)
    }

    /// The pattern as written in the schema.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.handle.pattern
    }
}

/// Builds a [`Regex`]; engine limits of the Rust crates do not apply to the host.
pub struct RegexBuilder<K> {
    pattern: String,
    kind: PhantomData<fn() -> K>,
}

impl<K> RegexBuilder<K> {
    #[must_use]
    pub fn new(pattern: &str) -> Self {
        Self {
            pattern: pattern.to_owned(),
            kind: PhantomData,
        }
    }

    /// # Errors
    ///
    /// The host refuses the pattern.
    pub fn build(&self) -> Result<Regex<K>, Error> {
        Regex::compile(&self.pattern)
    }
}

/// Stand-in for the `fancy_regex` crate.
pub mod fancy_regex {
    pub use super::Error;

    /// Marker of the `fancy_regex` stand-in.
    pub struct Fancy;
    pub type Regex = super::Regex<Fancy>;
    pub type RegexBuilder = super::RegexBuilder<Fancy>;

    impl Regex {
        /// # Errors
        ///
        /// The host failed while matching.
        pub fn is_match(&self, text: &str) -> Result<bool, Error> {
            self.search(text)
        }
    }

    impl RegexBuilder {
        pub fn backtrack_limit(&mut self, _limit: usize) -> &mut Self {
            self
        }
        pub fn delegate_size_limit(&mut self, _limit: usize) -> &mut Self {
            self
        }
        pub fn delegate_dfa_size_limit(&mut self, _limit: usize) -> &mut Self {
            self
        }
    }
}

/// Stand-in for the `regex` crate.
pub mod regex {
    pub use super::Error;

    /// Marker of the `regex` stand-in.
    pub struct Standard;
    pub type Regex = super::Regex<Standard>;
    pub type RegexBuilder = super::RegexBuilder<Standard>;

    impl Regex {
        /// # Errors
        ///
        /// The host refuses the pattern.
        pub fn new(pattern: &str) -> Result<Self, Error> {
            Self::compile(pattern)
        }

        /// `regex::Regex::is_match` cannot fail; a host failure reads as no match.
        #[must_use]
        pub fn is_match(&self, text: &str) -> bool {
            self.search(text).unwrap_or(false)
        }
    }

    impl RegexBuilder {
        pub fn size_limit(&mut self, _limit: usize) -> &mut Self {
            self
        }
        pub fn dfa_size_limit(&mut self, _limit: usize) -> &mut Self {
            self
        }
    }
}
