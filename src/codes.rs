//! Every list of stable codes: the `reason` of each error kind and the repair kinds of
//! schema-aligned parsing, enums made with [`code_enum!`](crate::code_enum!) next to the rules that
//! use them, and the TypeScript unions of the package generated from them:
//! `pkg-template/src/engine/codes.ts` is checked against [`typescript`] by a test
//! (`UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes` rewrites it).

/// Each generated union: its TypeScript name, its doc comment and its codes.
pub fn lists() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
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
            crate::sap::ParseReason::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "ParseFixKind",
            "Repair kinds a `ParseFix.kind` can have (what `allowFixes` may name).",
            crate::sap::FixKind::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
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
            "SchemaProviderMode",
            "A provider in one request mode (`'openai:strict'`, `'anthropic:standard'`, …): which schema rules apply.",
            crate::schema::book::Mode::ALL
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
            "ToolCheckStatus",
            "What a provider does with one schema of a tool (`ToolCheckResult.status`).",
            crate::schema::tools::ToolStatus::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "ToolCheckLoss",
            "What a conversion loses at the provider (`ToolCheckResult.loss`).",
            crate::schema::tools::ToolLoss::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
        (
            "ToolCheckPolicy",
            "Which rows fail a tool check: refusals only, also conversions that lose validation (the default), or also those that lose annotations.",
            crate::schema::tools::ToolPolicy::ALL
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
            crate::doubles::cassette::CassetteReason::ALL
                .iter()
                .map(|r| r.as_str())
                .collect(),
        ),
    ]
}

/// The text of `pkg-template/src/engine/codes.ts`.
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
    out.push_str("\n/** A provider as an option names it: alone (each tool's `strict`, else the provider's default mode, decides) or with its mode. */\nexport type SchemaProviderName = SchemaProvider | SchemaProviderMode;\n");
    out.push_str(
        "\n/** What `standardCall` (engine/standard-call.ts) found in a `~standard.validate` result; the engine's `schema::standard::Outcome`. */\n\
         export const StandardOutcome = {\n",
    );
    for (outcome, name) in crate::schema::standard::Outcome::ALL {
        out.push_str(&format!("  {name}: {},\n", outcome as u32));
    }
    out.push_str("} as const;\n");
    out.push_str("\n/** The repairs `coerceToolInput` may make (the engine's `sap::fixes::COERCIONS`). */\nexport const COERCION_FIXES = [\n");
    for kind in crate::sap::fixes::COERCIONS {
        out.push_str(&format!("  '{}',\n", kind.as_str()));
    }
    out.push_str("] as const;\n");
    out
}

/// The text of `pkg-template/src/engine/engine-types.ts`: the data the engine hands the facade (a
/// parse's fixes, a conversion's changes, a validation's issues, …) and the fields of each
/// error class, from the engine's own types (`ts-rs`, test-only), doc comments included.
#[cfg(test)]
pub fn engine_types_typescript() -> String {
    use ts_rs::TS;
    fn declare<T: TS>(out: &mut String) {
        out.push('\n');
        if let Some(docs) = T::docs() {
            out.push_str(&docs);
        }
        out.push_str("export ");
        out.push_str(T::decl(&ts_rs::Config::default()).trim());
        out.push('\n');
    }
    let mut out = String::from(
        "// Generated from the engine's types (ts-rs) by\n\
         // `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.\n\
         import type {\n  InvalidCassetteReason,\n  InvalidScriptedModelStepReason,\n  InvalidScriptedSandboxStepReason,\n  ParseFixKind,\n  RequestLimit,\n  SchemaChangeKind,\n  SchemaProvider,\n  SchemaProviderMode,\n  SchemaProviderName,\n  StrictSchemaErrorReason,\n  StructuredParseErrorReason,\n  ToolCheckLoss,\n  ToolCheckStatus,\n} from './codes.js';\n\
         import type {\n  PendingRealtimeExpectation,\n  PendingRealtimeFailure,\n  RealtimeTransportMethod,\n  RealtimeTransportStatus,\n  RecordedRealtimeTransportCall,\n} from './realtime-types.js';\n",
    );
    // What the engine answers.
    declare::<crate::sap::Fix>(&mut out);
    declare::<crate::sap::repair::FixGroup>(&mut out);
    declare::<crate::schema::provider::Change>(&mut out);
    declare::<crate::schema::provider::Breach>(&mut out);
    declare::<crate::schema::tools::ToolResult>(&mut out);
    declare::<crate::schema::tools::AsSent>(&mut out);
    declare::<crate::schema::tools::OutputResult>(&mut out);
    declare::<crate::schema::tools::Skipped>(&mut out);
    declare::<crate::schema::tools::ProviderLimits>(&mut out);
    declare::<crate::schema::tools::Report>(&mut out);
    declare::<crate::schema::validate::Issue>(&mut out);
    // The fields of its errors, by class.
    declare::<crate::error::StrictError>(&mut out);
    declare::<crate::error::InvalidSchemaError>(&mut out);
    declare::<crate::sap::Refusal>(&mut out);
    declare::<crate::sap::ParseFailure>(&mut out);
    declare::<crate::schema::provider::ProviderOutputError>(&mut out);
    declare::<crate::doubles::cassette::CassetteError>(&mut out);
    declare::<crate::doubles::cassette::MissingFields>(&mut out);
    declare::<crate::doubles::cassette::MismatchFields>(&mut out);
    declare::<crate::doubles::model::ModelError>(&mut out);
    declare::<crate::doubles::sandbox::SandboxError>(&mut out);
    declare::<crate::doubles::realtime::RealtimeError>(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/pkg-template/src/engine/codes.ts"
    );
    const TYPES_PATH: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/pkg-template/src/engine/engine-types.ts"
    );

    /// Fails when the generated file at `path` differs from `want`; rewrites it first under
    /// `UNDERSTUDY_WRITE_CODES`.
    fn check_generated(path: &str, want: &str) {
        if std::env::var_os("UNDERSTUDY_WRITE_CODES").is_some() {
            std::fs::write(path, want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "{path} is stale: run UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes"
        );
    }

    const ERRORS_PATH: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/pkg-template/src/engine/engine-errors.ts"
    );

    #[test]
    fn engine_types_ts_is_generated_from_the_engine_types() {
        check_generated(TYPES_PATH, &engine_types_typescript());
    }

    #[test]
    fn engine_errors_ts_is_generated_from_the_error_classes() {
        check_generated(ERRORS_PATH, &crate::error_class::engine_errors_typescript());
    }

    #[test]
    fn every_error_class_is_declared_once_with_its_base_first() {
        let declared = crate::error::Class::DECLARED;
        for (i, class) in declared.iter().enumerate() {
            assert!(
                !declared[..i].iter().any(|c| c.name == class.name),
                "{} is declared twice",
                class.name
            );
            if let Some(base) = class.base.first().filter(|b| **b != "UserError") {
                assert!(
                    declared[..i]
                        .iter()
                        .any(|c| c.name == *base && !c.base.is_empty()),
                    "{}: its base {base} must be a generated class declared before it",
                    class.name
                );
            }
        }
    }

    #[test]
    fn codes_ts_is_generated_from_the_lists() {
        check_generated(PATH, &typescript());
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
}
