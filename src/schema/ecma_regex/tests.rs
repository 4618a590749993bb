//! The matcher against ECMA-262's meanings, and its bounds.

use super::*;

/// Answers `\p{L}` (letters) and `\p{Lu}` as a host would, for the tests.
struct Letters;

impl Classes for Letters {
    fn compile(&self, source: &str) -> Result<u32, String> {
        match source {
            r"\p{L}" => Ok(1),
            r"\p{Lu}" => Ok(2),
            r"[\p{L}\d_]" => Ok(3),
            other => Err(format!("unknown class {other}")),
        }
    }
    fn contains(&self, handle: u32, c: char) -> bool {
        match handle {
            1 => c.is_alphabetic(),
            2 => c.is_uppercase(),
            3 => c.is_alphabetic() || c.is_ascii_digit() || c == '_',
            _ => false,
        }
    }
}

fn m(pattern: &str, text: &str) -> bool {
    EcmaRegex::compile(pattern, &Letters)
        .unwrap_or_else(|e| panic!("{pattern}: {e}"))
        .is_match(text, &Letters)
        .unwrap_or_else(|_| panic!("{pattern} on {text:?} went over budget"))
}

#[test]
fn the_regular_subset_matches_as_regexp_test_does() {
    assert!(m(r"^[A-Z]{2}-\d{4,8}$", "AB-123456"));
    assert!(!m(r"^[A-Z]{2}-\d{4,8}$", "AB-123"));
    assert!(m("^(cat|dog)s?$", "dogs"));
    assert!(!m("^(cat|dog)s?$", "cow"));
    assert!(m("^(?:[a-z]+\\.)+[a-z]{2,}$", "mail.example.com"));
    assert!(!m("^(?:[a-z]+\\.)+[a-z]{2,}$", "example"));
    assert!(m("colou?r", "the colour red"));
    assert!(m("^$", ""));
    assert!(!m("^$", "x"));
    assert!(m("", "anything"));
    assert!(m("a|", "zzz"), "an empty branch matches anywhere");
    assert!(m("^(a|ab)(c|bcd)(d*)$", "abcd"));
    assert!(m(r"\bcat\b", "a cat sat"));
    assert!(!m(r"\bcat\b", "concatenate"));
    assert!(m(r"\Bcat", "concatenate"));
    assert!(m("^a{0}$", ""));
    assert!(m("^(ab){2,3}$", "ababab"));
    assert!(!m("^(ab){2,3}$", "abababab"));
    assert!(m("^a+?b$", "aaab"));
    assert!(m(r"^\u{1F600}\x41\u0042$", "😀AB"));
    assert!(
        m(r"^\uD83D\uDE00$", "😀"),
        "a surrogate pair written as two escapes"
    );
    assert!(m(r"^[^\n]+$", "line"));
    assert!(!m("^.$", "\u{2028}"));
    assert!(m("^.$", "😀"));
    assert!(m(r"^\s$", "\u{a0}"));
    assert!(!m(r"^\d$", "\u{663}"));
    assert!(m(r"^[\w.-]+@[\w-]+\.\w+$", "ada.l@example.org"));
    assert!(m(r"^\cJ$", "\n"));
    assert!(m(r"^[\b]$", "\u{8}"));
}

#[test]
fn lookarounds_and_backreferences_run_with_their_ecma_meaning() {
    // Zod 4's email pattern: lookaheads at the start.
    let zod_email = r"^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$";
    assert!(m(zod_email, "ada.lovelace@example.com"));
    assert!(!m(zod_email, ".ada@example.com"));
    assert!(!m(zod_email, "ada..l@example.com"));
    assert!(m("^(?=.*\\d)(?=.*[a-z]).{8,}$", "passw0rdx"));
    assert!(!m("^(?=.*\\d)(?=.*[a-z]).{8,}$", "password"));
    assert!(m("(?<=\\$)\\d+", "costs $42"));
    assert!(!m("(?<=\\$)\\d+", "costs 42"));
    assert!(m("(?<!-)\\b\\d+$", "x 42"));
    assert!(m(r"^(\w)\1$", "aa"));
    assert!(!m(r"^(\w)\1$", "ab"));
    assert!(m(r"^(?<q>['\x22]).*\k<q>$", "'quoted'"));
    assert!(!m(r"^(?<q>['\x22]).*\k<q>$", "'mixed\""));
    assert!(m(r"^(?:(a*)*)b", "aab"), "an empty iteration ends the loop");
    assert!(!m(r"^(?=x)(a*)*$", "b"));
}

#[test]
fn property_escapes_ask_the_classes() {
    assert!(m(r"^\p{L}+$", "Ünïcödé"));
    assert!(!m(r"^\p{L}+$", "abc1"));
    assert!(m(r"^\p{Lu}", "Élan"));
    assert!(m(r"^[\p{L}\d_]+$", "日本_42"));
    assert!(EcmaRegex::compile(r"\p{L}", &NoHostClasses).is_err());
}

#[test]
fn catastrophic_patterns_finish_in_linear_time_or_over_budget() {
    let long = "a".repeat(50_000) + "!";
    // No backreference or lookaround: the Pike VM, linear, with the right answer.
    for pattern in [
        "^(a+)+$",
        "^(a|a)*$",
        "^(a|aa)+$",
        "(x+x+)+y",
        "^(\\w+\\s?)*$",
    ] {
        let re = EcmaRegex::compile(pattern, &Letters).unwrap();
        assert!(!re.backtracking, "{pattern}");
        assert_eq!(re.is_match(&long, &Letters), Ok(false), "{pattern}");
    }
    assert_eq!(
        EcmaRegex::compile("^(a+)+$", &Letters)
            .unwrap()
            .is_match(&"a".repeat(50_000), &Letters),
        Ok(true)
    );
    // With a backreference the backtracking VM stops at its budget.
    let re = EcmaRegex::compile(r"^(a+)+\1$", &Letters).unwrap();
    assert_eq!(re.is_match(&long, &Letters), Err(OverBudget));
    let re = EcmaRegex::compile(r"^(?=a)(a|aa)+$", &Letters).unwrap();
    assert_eq!(
        re.is_match(&("a".repeat(40) + "!"), &Letters),
        Err(OverBudget)
    );
}

#[test]
fn syntax_errors_under_the_u_flag_are_refused() {
    for pattern in [
        "(",
        "a)",
        "[a",
        "a**",
        "*a",
        "a{2,1}",
        r"\_",
        r"\1",
        "(?<n>a)\\k<m>",
        "a{1001}",
        "(?i)a",
        r"[\d-z]",
        "[z-a]",
        r"\c1",
        r"\x4",
        "(?=a)+",
        r"\p{",
    ] {
        assert!(EcmaRegex::compile(pattern, &Letters).is_err(), "{pattern}");
    }
    let deep = "(".repeat(100) + &")".repeat(100);
    assert!(
        EcmaRegex::compile(&deep, &Letters).is_err(),
        "nesting is bounded"
    );
    let big = "(a{1000}){1000}";
    assert!(
        EcmaRegex::compile(big, &Letters).is_err(),
        "expansion is bounded"
    );
}

#[test]
fn the_legacy_syntax_runs_where_only_it_parses() {
    let legacy = |p: &str, t: &str| {
        EcmaRegex::compile_with(p, &Letters, true)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .is_match(t, &Letters)
            .unwrap()
    };
    assert!(legacy(r"^\_\d+$", "_12"));
    assert!(legacy(r"^a{$", "a{"));
    assert!(legacy(r"^a{1,2}$", "aa"));
    assert!(legacy(r"^x]$", "x]"));
    assert!(legacy(r"^[\d-z]+$", "1-z"));
    assert!(EcmaRegex::compile(r"^\_$", &Letters).is_err());
}

#[test]
fn the_lazy_dfa_agrees_with_the_pike_vm() {
    let patterns = [
        r"^[A-Z]{2}-\d{4,8}$",
        "^(cat|dog)s?$",
        "(cat|dog)",
        "a$|^b",
        "^$",
        "x*",
        "^(?:[a-z]+\\.)+[a-z]{2,}$",
        "^(a*)*b",
        r"^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$",
        r"^\p{L}+\d?$",
        "é+$",
        "[^a]b",
        // 2^12 kernels and more: past the cache's room on long texts.
        "(a|b)*a(a|b){11}$",
    ];
    // Texts from a small alphabet, every one up to length 5, and some long ones.
    let alphabet = ['a', 'b', '.', '1', 'é', 'A', 'x', '-'];
    let mut texts = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..5 {
        frontier = frontier
            .iter()
            .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
            .collect();
        texts.extend(frontier.iter().cloned());
    }
    let mut seed = 7u64;
    for _ in 0..200 {
        let len = 10 + (seed % 300) as usize;
        let text: String = (0..len)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                alphabet[(seed >> 33) as usize % 3]
            })
            .collect();
        texts.push(text);
    }
    texts.extend(
        [
            "192.168.0.1",
            "256.1.1.1",
            "mail.example.com",
            "AB-1234",
            "dogs",
            "Ünïcode7",
        ]
        .map(String::from),
    );
    for pattern in patterns {
        // One compiled pattern for all texts, as a schema holds it: its cache grows and is reused.
        let re = EcmaRegex::compile(pattern, &Letters).unwrap();
        assert!(re.dfa.is_some(), "{pattern} runs on the DFA");
        for text in &texts {
            let dfa = re.is_match(text, &Letters).unwrap();
            assert_eq!(
                dfa,
                re.is_match_pike(text, &Letters),
                "{pattern} on {text:?}"
            );
        }
    }
    let big = EcmaRegex::compile("(a|b)*a(a|b){11}$", &Letters).unwrap();
    let long: String = (0..50_000)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (seed >> 33) & 1 == 0 {
                'a'
            } else {
                'b'
            }
        })
        .collect();
    for text in [format!("{long}."), format!("{long}a"), long] {
        assert_eq!(
            big.is_match(&text, &Letters).unwrap(),
            big.is_match_pike(&text, &Letters)
        );
    }
    assert_eq!(
        big.dfa.as_ref().unwrap().borrow().states.len(),
        MAX_DFA_STATES
    );
    // Word boundaries stay on the Pike VM.
    assert!(EcmaRegex::compile(r"\bcat\b", &Letters)
        .unwrap()
        .dfa
        .is_none());
    assert!(m(r"\bcat\b", "a cat!"));
}
