//! The built-in credential formats: regular expressions in the syntax both JavaScript's
//! `RegExp` and the `regex` crate read (no lookaround), run by the pattern host.
//!
//! Each is anchored the way real keys are, as well-kept scanners (gitleaks, secretlint) define
//! them: a word boundary before the prefix (`task-list-item` holds no `sk-` key), the format's
//! own alphabet and length (`Bearer` takes one word of at least 20 token characters, so "the
//! bearer of this letter" is prose). Formats known only by the name beside them (Datadog,
//! Azure, an AWS secret key) are read with that name. A name alone (`password`, `api_key`)
//! is [`super::names`]' rule, read in JSON values and in texts (`super::text`).

/// A built-in credential format: redacted wherever it occurs in a string, and refused at save
/// time if it is still there. `keep`: the texts of groups 1 and 2 stay around the marker
/// (`https://user:[REDACTED]@host`, `AWS_SECRET_ACCESS_KEY = [REDACTED]`).
pub struct Rule {
    pub name: &'static str,
    pub pattern: &'static str,
    pub keep: bool,
}

/// The built-in rules, in the order they run.
pub const CREDENTIAL_RULES: &[Rule] = &[
    Rule {
        name: "private-key",
        pattern: r"-----BEGIN[ A-Z0-9]*PRIVATE KEY-----[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY-----",
        keep: false,
    },
    Rule {
        // Project, service-account and admin keys (`sk-proj-…`), OpenRouter's (`sk-or-v1-…`),
        // Anthropic's (`sk-ant-api03-…`) and the legacy 48-character form.
        name: "openai-or-anthropic-key",
        pattern: r"\bsk-(?:(?:proj|svcacct|admin|None|or-v1|ant-(?:api|admin|sid)\d\d)-[A-Za-z0-9_\-]{20,}|[A-Za-z0-9]{32,}\b)",
        keep: false,
    },
    Rule {
        name: "bearer",
        pattern: r"\b(?:Bearer|bearer|BEARER)[ \t]+[A-Za-z0-9._~+/\-]{20,}=*",
        keep: false,
    },
    Rule {
        name: "github-token",
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
        keep: false,
    },
    Rule {
        name: "gitlab-token",
        pattern: r"\bgl(?:pat|ptt|dt|rt|oas|cbt|soat|ffct|imt|agent)-[A-Za-z0-9_\-]{20,}",
        keep: false,
    },
    Rule {
        name: "aws-access-key",
        pattern: r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
        keep: false,
    },
    Rule {
        // After a name that says so: `aws_secret_access_key = …`, `"SecretAccessKey": "…"`.
        name: "aws-secret-key",
        pattern: r#"(?i)((?:aws[A-Za-z0-9_ .\-]{0,20}?secret|secret_?access)[A-Za-z0-9_ .\-]{0,20}?["']?\s*[:=]\s*["']?)[A-Za-z0-9/+]{40}()"#,
        keep: true,
    },
    Rule {
        name: "google-api-key",
        pattern: r"\bAIza[0-9A-Za-z_\-]{35}",
        keep: false,
    },
    Rule {
        name: "slack-token",
        pattern: r"\bxox[abposre]-[A-Za-z0-9\-]{10,}",
        keep: false,
    },
    Rule {
        name: "slack-webhook",
        pattern: r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]+",
        keep: false,
    },
    Rule {
        name: "stripe-key",
        pattern: r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}",
        keep: false,
    },
    Rule {
        name: "twilio-key",
        pattern: r"\bSK[0-9a-fA-F]{32}\b",
        keep: false,
    },
    Rule {
        name: "sendgrid-key",
        pattern: r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
        keep: false,
    },
    Rule {
        name: "npm-token",
        pattern: r"\bnpm_[A-Za-z0-9]{36}\b",
        keep: false,
    },
    Rule {
        name: "heroku-key",
        pattern: r"\bHRKU-[A-Za-z0-9_\-]{30,}",
        keep: false,
    },
    Rule {
        // 32 (API) or 40 (application) hex digits after a Datadog name.
        name: "datadog-key",
        pattern: r#"(?i)((?:datadog|\bdd)[A-Za-z0-9_ .\-]{0,20}?(?:key|token)["']?\s*[:=]\s*["']?)(?:[a-f0-9]{40}|[a-f0-9]{32})\b()"#,
        keep: true,
    },
    Rule {
        // An Azure key (32 hex digits, or the 84-character form) after an Azure name.
        name: "azure-key",
        pattern: r#"(?i)(azure[A-Za-z0-9_ .\-]{0,30}?(?:key|secret|token)["']?\s*[:=]\s*["']?)[A-Za-z0-9+/_~.\-]{32,}={0,2}()"#,
        keep: true,
    },
    Rule {
        name: "azure-client-secret",
        pattern: r"\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}\b",
        keep: false,
    },
    Rule {
        name: "jwt",
        pattern: r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        keep: false,
    },
    Rule {
        name: "url-password",
        pattern: r#"([A-Za-z][A-Za-z0-9+.\-]*://[^\s/@:"'<>]+:)[^\s/@"'<>]+(@)"#,
        keep: true,
    },
];

/// Patterns that earlier versions stored in a cassette as the caller's and that are rules now
/// (read back as rules, not as the caller's patterns).
pub const LEGACY_STORED_PATTERNS: [&str; 2] = [
    r"sk-[A-Za-z0-9_\-]{8,}",
    r"(?i)bearer\s+[A-Za-z0-9._~+/=\-]+",
];

/// Key names that earlier versions stored in every cassette although they were built in;
/// reading one back does not make it the caller's.
pub const LEGACY_STORED_KEYS: [&str; 20] = [
    "authorization",
    "proxy-authorization",
    "api-key",
    "apikey",
    "x-api-key",
    "openai-api-key",
    "client-secret",
    "secret",
    "password",
    "passwd",
    "access-token",
    "refresh-token",
    "id-token",
    "session-token",
    "auth-token",
    "api-token",
    "cookie",
    "set-cookie",
    "private-key",
    "x-goog-api-key",
];

/// The `redact: 'pii'` preset: email addresses, phone numbers (an international `+` form, or
/// ten digits grouped 3-3-4) and payment card numbers (13 to 19 digits, optionally grouped by
/// spaces or dashes). Stored in the cassette like any pattern, so replay redacts the live
/// request the same way before matching.
pub const PII_PATTERNS: [&str; 4] = [
    r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}",
    r"\+\d{1,3}(?:[ .\-]?\(?\d{1,4}\)?){2,5}\d",
    r"\(?\b\d{3}\)?[ .\-]\d{3}[ .\-]\d{4}\b",
    r"\b(?:\d[ \-]?){12,18}\d\b",
];
