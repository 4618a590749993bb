//! The repair kinds of schema-aligned parsing: the scanner's and the aligner's.

crate::code_enum! {
    /// Every repair kind a [`Fix`](super::Fix) can have (what `allowFixes` may name).
    pub enum FixKind {
        ArrayToObject = "array_to_object",
        ArrayToSingle = "array_to_single",
        BooleanToString = "boolean_to_string",
        CandidateChosen = "candidate_chosen",
        ClosedAtEnd = "closed_at_end",
        CommentRemoved = "comment_removed",
        CurlyQuotes = "curly_quotes",
        EnumCase = "enum_case",
        EnumFromProse = "enum_from_prose",
        ExtraKeyDropped = "extra_key_dropped",
        FenceStripped = "fence_stripped",
        InnerQuoteKept = "inner_quote_kept",
        InvalidEscapeKept = "invalid_escape_kept",
        NullDropped = "null_dropped",
        NullFilled = "null_filled",
        NumberRepaired = "number_repaired",
        NumberToString = "number_to_string",
        ProseSkipped = "prose_skipped",
        PythonLiteral = "python_literal",
        RawControlCharacter = "raw_control_character",
        ScalarFromProse = "scalar_from_prose",
        SingleQuotes = "single_quotes",
        SingleToArray = "single_to_array",
        StringToBoolean = "string_to_boolean",
        StringToNumber = "string_to_number",
        TextAsString = "text_as_string",
        TrailingCommaRemoved = "trailing_comma_removed",
        TripleQuotes = "triple_quotes",
        UnquotedKey = "unquoted_key",
        UnquotedValue = "unquoted_value",
        ValuesCollected = "values_collected",
        /// A bare value read as the one required property of an object schema.
        ValueToObject = "value_to_object",
    }
}

/// The repairs `coerceToolInput` may make to an already-parsed tool input: readings of a value
/// as the schema's type or case, none that invents a value or drops one (no filled nulls, no
/// dropped keys, no objects made from scalars).
pub const COERCIONS: [FixKind; 8] = [
    FixKind::StringToNumber,
    FixKind::NumberToString,
    FixKind::StringToBoolean,
    FixKind::BooleanToString,
    FixKind::SingleToArray,
    FixKind::ArrayToSingle,
    FixKind::EnumCase,
    FixKind::NullDropped,
];
