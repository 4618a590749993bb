//! Which names hold credentials: JSON keys, `NAME=value` assignments, header and URL parameter
//! names, all by one rule over the name's whole words.
//!
//! A name is split into words at every character that is not a letter or a digit and at
//! camel-case boundaries (`clientSecret` → `client secret`, `APIKey` → `api key`,
//! `AZURE_OPENAI_API_KEY` → `azure openai api key`), lowercased. Its *last* word decides:
//! `password`, `secret`, `token`, `authorization`, `cookie`, … name a credential;
//! `secretary`, `password_policy`, `token_type`, `keyword`, `monkey` and `max_tokens` do not.

/// What a credential name says about its value: how sure a value under it is a secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `password`, `passwd`, `pwd`, `passphrase`: any text but a placeholder is a secret.
    Password,
    /// `authorization`, `cookie`: the whole value (an auth scheme alone is not a secret).
    Header,
    /// `token`, `secret`, `api_key`, `credentials`, …: a value that looks like a key
    /// ([`looks_like_key`]); prose, a word or a short value under such a name is kept.
    Key,
}

/// Where a name stands: a URL's query also treats `key`, `sig`, `signature` and `auth` as
/// credential names (presigned URLs, API keys in query strings), which as JSON keys name
/// ordinary data (a key-value store's `key`, a reasoning item's `signature`); and a URL
/// parameter's value is taken whatever its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    Key,
    Url,
}

/// The shortest value under a [`Kind::Key`] name taken for a key.
pub const MIN_KEY_LENGTH: usize = 8;

/// Words before `token` that make it a token of text or of a page, not a credential
/// (`next_page_token`, `eos_token`, `max_token`, `reasoning_token`).
const NOT_CREDENTIAL_TOKENS: [&str; 30] = [
    "page",
    "next",
    "prev",
    "previous",
    "continuation",
    "pagination",
    "cursor",
    "sync",
    "start",
    "end",
    "stop",
    "eos",
    "bos",
    "pad",
    "unk",
    "sep",
    "cls",
    "mask",
    "special",
    "input",
    "output",
    "max",
    "min",
    "num",
    "total",
    "reasoning",
    "cached",
    "completion",
    "prompt",
    "resume",
];

/// Words before `key` that make it a credential (`api_key`, `secret_access_key`,
/// `Ocp-Apim-Subscription-Key`); `sort_key`, `primary_key`, `idempotency_key`, `public_key`
/// are not.
const KEY_QUALIFIERS: [&str; 21] = [
    "api",
    "private",
    "secret",
    "access",
    "signing",
    "encryption",
    "master",
    "subscription",
    "app",
    "application",
    "client",
    "service",
    "admin",
    "auth",
    "ssh",
    "license",
    "account",
    "storage",
    "webhook",
    "deploy",
    "session",
];

/// The name's words, lowercased (see the module documentation). Letters other than ASCII
/// belong to the word they stand in and are kept as written.
pub fn words(name: &str) -> Vec<String> {
    let b = name.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let letter = |c: u8| c.is_ascii_alphanumeric() || !c.is_ascii();
    for (i, &c) in b.iter().enumerate() {
        if !letter(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !word.is_empty() {
            let prev = b[i - 1];
            let next_lower = b.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            // `apiKey` → api|Key; `APIKey` → API|Key; `API` stays one word.
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push(std::mem::take(&mut word));
            }
        }
        word.push(c.to_ascii_lowercase() as char);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// What kind of credential `name` names, if any.
pub fn credential_kind(name: &str, context: Context) -> Option<Kind> {
    // Cheap refusal first: every credential word holds one of these.
    let lower = name.to_ascii_lowercase();
    const HINTS: [&str; 10] = [
        "pass", "pwd", "secret", "token", "auth", "cookie", "key", "cred", "sig", "apikey",
    ];
    if !HINTS.iter().any(|h| lower.contains(h)) {
        return None;
    }
    let w = words(name);
    let last = w.last()?.as_str();
    let before = w.len().checked_sub(2).map(|i| w[i].as_str());
    let url = context == Context::Url;
    let kind = match last {
        "password" | "passwords" | "passwd" | "pwd" | "passphrase" => Some(Kind::Password),
        "authorization" | "cookie" | "cookies" => Some(Kind::Header),
        "secret" | "secrets" | "credential" | "credentials" | "apikey" | "apikeys" => {
            Some(Kind::Key)
        }
        "token" => {
            (!before.is_some_and(|b| NOT_CREDENTIAL_TOKENS.contains(&b))).then_some(Kind::Key)
        }
        "key" | "keys" => match before {
            Some(q) if KEY_QUALIFIERS.contains(&q) => Some(Kind::Key),
            // `X-Custom-Key`, `x-functions-key`: a header of its own.
            Some(_) if w[0] == "x" && w.len() >= 3 => Some(Kind::Key),
            None if url => Some(Kind::Key),
            _ => None,
        },
        "signature" | "sig" if url => Some(Kind::Key),
        "auth" if url && w.len() == 1 => Some(Kind::Key),
        _ => None,
    };
    // A URL parameter named so holds nothing else: any value but a placeholder goes.
    kind.map(|k| if url { Kind::Header } else { k })
}

/// A cookie header's name (`Cookie`, `Set-Cookie`, `cookies`): its value is `name=value`
/// pairs and attributes, each pair's value a credential.
pub fn is_cookie_header(name: &str) -> bool {
    words(name)
        .last()
        .is_some_and(|w| w == "cookie" || w == "cookies")
}

/// A `Set-Cookie` attribute (`Path=/`, `HttpOnly`, `Max-Age=3600`): not a cookie of its own.
pub fn is_cookie_attribute(name: &str) -> bool {
    [
        "path",
        "domain",
        "expires",
        "max-age",
        "samesite",
        "secure",
        "httponly",
        "partitioned",
        "priority",
    ]
    .iter()
    .any(|a| name.eq_ignore_ascii_case(a))
}

/// An auth scheme written before its credentials (`Bearer abc…`, `Basic dXNl…`).
pub fn is_auth_scheme(word: &str) -> bool {
    ["bearer", "basic", "token", "digest", "negotiate", "apikey"]
        .iter()
        .any(|s| word.eq_ignore_ascii_case(s))
}

/// A value that is evidently not a secret, whatever name it stands under: empty, the marker,
/// an auth scheme alone (`tokenType: 'Bearer'`), a literal (`true`, `null`, `none`), a
/// reference to a secret held elsewhere (`${API_KEY}`, `$TOKEN`, `%PASSWORD%`, `{{ secret }}`,
/// `<your-key>`) or a mask (`****`, `xxxxxxxx`).
pub fn evidently_not_secret(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() || v.contains(super::REDACTED) || is_auth_scheme(v) {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "true" | "false" | "null" | "none" | "nil" | "undefined" | "redacted"
    ) {
        return true;
    }
    let wrapped = |open: &str, close: &str| v.starts_with(open) && v.ends_with(close);
    if wrapped("${", "}") || wrapped("{{", "}}") || wrapped("<", ">") || wrapped("%", "%") {
        return true;
    }
    if v.starts_with('$')
        && v.len() > 1
        && v[1..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return true;
    }
    let mut chars = v.chars();
    let first = chars.next().unwrap_or(' ');
    chars.all(|c| c == first) && matches!(first, '*' | 'x' | 'X' | '•' | '.' | '-' | '#')
}

/// Whether a value looks like a key rather than a word: at least [`MIN_KEY_LENGTH`]
/// characters, no whitespace (a logprob's `token: " international"` is text), and characters
/// of more than one kind: a digit, both cases, or a symbol keys are written with
/// (`production` under `token` is a word; `s3ss10n`, `AbCdEfGh`, `tok_live_…` are keys).
pub fn looks_like_key(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() >= MIN_KEY_LENGTH
        && !value.chars().any(char::is_whitespace)
        && (b.iter().any(u8::is_ascii_digit)
            || (b.iter().any(u8::is_ascii_uppercase) && b.iter().any(u8::is_ascii_lowercase))
            || b.iter().any(|c| b"-_./+=~".contains(c)))
}

/// Whether `value` under a name of `kind` is redacted.
pub fn is_secret_value(kind: Kind, value: &str) -> bool {
    if evidently_not_secret(value) {
        return false;
    }
    match kind {
        Kind::Password | Kind::Header => true,
        Kind::Key => looks_like_key(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words() {
        for (name, expected) in [
            ("clientSecret", vec!["client", "secret"]),
            ("APIKey", vec!["api", "key"]),
            ("x-api-key", vec!["x", "api", "key"]),
            (
                "AZURE_OPENAI_API_KEY",
                vec!["azure", "openai", "api", "key"],
            ),
            ("SecretAccessKey", vec!["secret", "access", "key"]),
            ("oauth2Token", vec!["oauth2", "token"]),
            ("db.password", vec!["db", "password"]),
            ("--password", vec!["password"]),
            ("", vec![]),
        ] {
            assert_eq!(words(name), expected, "{name}");
        }
    }

    #[test]
    fn credential_names_are_whole_words() {
        let credential = [
            "password",
            "db_password",
            "PASSWORD",
            "x-api-key",
            "X-Custom-Key",
            "x-goog-api-key",
            "refresh_token",
            "clientSecret",
            "client_secret",
            "authorization",
            "Proxy-Authorization",
            "set-cookie",
            "api_key",
            "apiKey",
            "apikey",
            "DD_API_KEY",
            "DD_APP_KEY",
            "AZURE_OPENAI_API_KEY",
            "HEROKU_API_KEY",
            "SESSION_SECRET",
            "MY_SERVICE_TOKEN",
            "SecretAccessKey",
            "aws_secret_access_key",
            "Ocp-Apim-Subscription-Key",
            "private_key",
            "github_token",
            "token",
            "credentials",
            "passphrase",
        ];
        for name in credential {
            assert!(
                credential_kind(name, Context::Key).is_some(),
                "{name} is a credential name"
            );
        }
        let ordinary = [
            "secretary",
            "password_policy",
            "passwordHash",
            "tokenType",
            "token_type",
            "keyword",
            "monkey",
            "key",
            "sort_key",
            "primary_key",
            "public_key",
            "idempotency_key",
            "max_tokens",
            "input_tokens",
            "total_tokens",
            "tokenizer",
            "token_count",
            "next_page_token",
            "eos_token",
            "signature",
            "encrypted_content",
            "author",
            "passage",
            "bypass",
            "description",
        ];
        for name in ordinary {
            assert_eq!(
                credential_kind(name, Context::Key),
                None,
                "{name} is not a credential name"
            );
        }
        // URL parameters: their whole name, with the names a query uses for keys.
        for name in [
            "key",
            "sig",
            "signature",
            "X-Amz-Signature",
            "X-Amz-Security-Token",
            "access_token",
            "auth",
        ] {
            assert!(credential_kind(name, Context::Url).is_some(), "{name}");
        }
        for name in ["keyword", "monkey", "page", "author", "sort_key", "design"] {
            assert_eq!(credential_kind(name, Context::Url), None, "{name}");
        }
    }

    #[test]
    fn evident_non_secrets_are_kept() {
        for v in [
            "",
            " ",
            "Bearer",
            "basic",
            "[REDACTED]",
            "true",
            "null",
            "${API_KEY}",
            "$TOKEN",
            "%PASSWORD%",
            "{{ secret }}",
            "<your-api-key>",
            "********",
            "xxxxxxxx",
        ] {
            assert!(evidently_not_secret(v), "{v:?}");
            assert!(!is_secret_value(Kind::Password, v), "{v:?}");
        }
        assert!(is_secret_value(Kind::Password, "hunter2"));
        assert!(is_secret_value(Kind::Header, "Bearer abc"));
        assert!(is_secret_value(
            Kind::Key,
            "a8f5f167f44f4964e6c998dee827110c"
        ));
        // Under a key-like name, prose, short words and words are not keys.
        assert!(!is_secret_value(Kind::Key, "The secret is less salt"));
        assert!(!is_secret_value(Kind::Key, "Hello"));
        assert!(!is_secret_value(Kind::Key, " international"));
        assert!(!is_secret_value(Kind::Key, "production"));
        for key in [
            "s3ss10n-s3cr3t",
            "AbCdEfGhIj",
            "tok_live_abcdefgh",
            "abcdefgh/ijkl",
        ] {
            assert!(is_secret_value(Kind::Key, key), "{key}");
        }
    }
}
