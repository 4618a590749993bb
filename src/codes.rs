//! Stable codes: the `reason` of each error kind and the repair kinds of schema-aligned
//! parsing. Each list is defined once here or with its enum (through [`codes!`](crate::codes!)), and the
//! TypeScript unions of the package are generated from them: `pkg-template/src/codes.ts` is
//! checked against [`typescript`] by a test (`UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`
//! rewrites it).

/// Declares a fieldless enum whose variants each have a stable snake_case code: the enum,
/// `as_str`, and `ALL` (every variant, in declaration order).
#[macro_export]
macro_rules! codes {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $code:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The stable code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)+
                }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

/// `StructuredParseError.reason`: why no reading of a reply fits its schema.
pub const PARSE_FAILURE_REASONS: [&str; 9] = [
    "no_json",
    "type_mismatch",
    "not_in_enum",
    "missing_required",
    "extra_key",
    "ambiguous",
    "too_deep",
    "partial",
    "fix_not_allowed",
];

/// `InvalidCassetteError.reason`.
pub const CASSETTE_REASONS: [&str; 5] = [
    "invalid_cassette",
    "unsupported_version",
    "invalid_pattern",
    "missing",
    "credential",
];

/// Each generated union: its TypeScript name, its doc comment and its codes.
pub fn lists() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    let codes = |all: &[&'static str]| all.to_vec();
    vec![
        (
            "StrictSchemaErrorReason",
            "Stable codes of `StrictSchemaError.reason`.",
            crate::error::StrictReason::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "StructuredParseErrorReason",
            "Stable codes of `StructuredParseError.reason`.",
            codes(&PARSE_FAILURE_REASONS),
        ),
        (
            "ParseFixKind",
            "Repair kinds a `ParseFix.kind` can have (what `allowFixes` may name).",
            codes(&crate::sap::FIX_KINDS),
        ),
        (
            "SchemaProvider",
            "A model provider whose schema rules `toStrictJsonSchema(schema, { provider })` follows.",
            crate::schema::provider::Provider::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "SchemaChangeKind",
            "How a provider conversion changed a keyword (`SchemaChange.kind`).",
            crate::schema::provider::ChangeKind::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "RequestLimit",
            "A limit a whole request must respect (`RequestLimitBreach.limit`).",
            crate::schema::provider::RequestLimit::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "RepairRefusalReason",
            "Why a repairing wrapper left a text as it came (`RepairRefusal.reason`).",
            crate::sap::repair::RefusalReason::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "CutInside",
            "What a cut-off text ended inside of (`RepairRefusal.inside`).",
            crate::sap::repair::CutInside::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "InvalidScriptedModelStepReason",
            "Stable codes of `InvalidScriptedModelStepError.reason`.",
            crate::doubles::model::StepReason::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "InvalidScriptedSandboxStepReason",
            "Stable codes of `InvalidScriptedSandboxStepError.reason`.",
            crate::doubles::sandbox::StepReason::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "InvalidCassetteReason",
            "Stable codes of `InvalidCassetteError.reason`.",
            codes(&CASSETTE_REASONS),
        ),
    ]
}

/// The text of `pkg-template/src/codes.ts`.
pub fn typescript() -> String {
    let mut out = String::from(
        "// Generated from the engine's code lists (src/codes.rs) by\n\
         // `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.\n",
    );
    for (name, doc, codes) in lists() {
        out.push_str(&format!("\n/** {doc} */\nexport type {name} =\n"));
        for code in &codes {
            out.push_str(&format!("  | '{code}'\n"));
        }
        out.pop();
        out.push_str(";\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-template/src/codes.ts");

    #[test]
    fn codes_ts_is_generated_from_the_lists() {
        let want = typescript();
        if std::env::var_os("UNDERSTUDY_WRITE_CODES").is_some() {
            std::fs::write(PATH, &want).unwrap();
        }
        let have = std::fs::read_to_string(PATH).unwrap_or_default();
        assert!(
            have == want,
            "pkg-template/src/codes.ts is stale: run UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes"
        );
    }

    #[test]
    fn lists_have_no_duplicates() {
        for (name, _, codes) in lists() {
            let mut sorted = codes.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), codes.len(), "{name} repeats a code");
        }
    }

    /// Every reason string the engine raises appears in its list (and every listed one is
    /// raised somewhere), read from the sources, as for `FIX_KINDS`.
    #[test]
    fn string_reasons_are_listed() {
        let read = |p: &str| {
            std::fs::read_to_string(format!("{}/src/{p}", env!("CARGO_MANIFEST_DIR"))).unwrap()
        };
        let sap = read("sap/mod.rs") + &read("sap/align.rs") + &read("wasm/sap.rs");
        for reason in PARSE_FAILURE_REASONS {
            assert!(
                sap.contains(&format!("\"{reason}\"")),
                "{reason} is listed but never raised"
            );
        }
        let cassette = read("doubles/cassette.rs") + &read("wasm/cassette.rs");
        for reason in CASSETTE_REASONS {
            assert!(
                cassette.contains(&format!("\"{reason}\"")),
                "{reason} is listed but never raised"
            );
        }
        for source in [&sap] {
            for (i, _) in source.match_indices("reason: \"") {
                let code: String = source[i + 9..].chars().take_while(|c| *c != '"').collect();
                assert!(
                    PARSE_FAILURE_REASONS.contains(&code.as_str())
                        || CASSETTE_REASONS.contains(&code.as_str()),
                    "reason {code} is not listed"
                );
            }
        }
        for (i, _) in cassette.match_indices("reason: \"") {
            let code: String = cassette[i + 9..]
                .chars()
                .take_while(|c| *c != '"')
                .collect();
            assert!(
                CASSETTE_REASONS.contains(&code.as_str()),
                "cassette reason {code} is not listed"
            );
        }
    }
}
