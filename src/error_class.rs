//! [`error_classes!`](crate::error_classes!): the facade's error classes, declared once. Every
//! engine error names its class as a [`Class`](crate::error::Class) (`Raise::kind`); the
//! classes this list gives a base are generated into `pkg-template/src/engine/engine-errors.ts`.

/// Declares the facade's error classes: the enum `Class` (its `name` is the class name) and,
/// for the generator, each class's doc comment, base class and fields type. An entry
/// `Name: Base` (optionally `Base("FieldsType")`, a type of `engine-types.ts`) is generated;
/// an entry `Name` alone is written by hand in the facade (a class whose constructor is the
/// reference's, or that carries a host value). `as "Other"` gives a class whose errors'
/// `name` is not the class's (the reference's `AbortError`s).
#[macro_export]
macro_rules! error_classes {
    (@error_name $name:ident) => { stringify!($name) };
    (@error_name $name:ident $error_name:literal) => { $error_name };
    ($($(#[doc = $doc:literal])* $name:ident $(: $base:ident $(($fields:literal))?)? $(as $error_name:literal)?;)+) => {
        /// The facade's error class of an engine error (`Raise::kind`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Class {
            $($(#[doc = $doc])* $name,)+
        }

        impl Class {
            /// The class's name, which is the kind an error crosses with.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Class::$name => stringify!($name),)+
                }
            }

            /// The `name` of the class's errors: the class's, unless declared `as` another.
            pub const fn error_name(self) -> &'static str {
                match self {
                    $(Class::$name => $crate::error_classes!(@error_name $name $($error_name)?),)+
                }
            }

            /// Every class: name, doc lines, base (generated classes only), own fields type.
            #[cfg(test)]
            pub const DECLARED: &'static [$crate::error_class::Declared] = &[$(
                $crate::error_class::Declared {
                    name: stringify!($name),
                    docs: &[$($doc),*],
                    base: &[$(stringify!($base))?],
                    fields: &[$($($fields)?)?],
                },
            )+];
        }
    };
}

/// One class as [`error_classes!`] declares it (for the generator).
#[cfg(test)]
pub struct Declared {
    pub name: &'static str,
    pub docs: &'static [&'static str],
    /// Empty for a class written by hand in the facade.
    pub base: &'static [&'static str],
    /// The type of its own fields, when it has some.
    pub fields: &'static [&'static str],
}

#[cfg(test)]
impl Declared {
    fn find(name: &str) -> Option<&'static Declared> {
        crate::error::Class::DECLARED
            .iter()
            .find(|c| c.name == name)
    }

    /// Whether its constructor takes `(message, fields)`: it or a generated base has fields.
    fn takes_fields(&self) -> bool {
        !self.fields.is_empty()
            || self
                .base
                .first()
                .and_then(|b| Declared::find(b))
                .is_some_and(|b| b.takes_fields())
    }
}

/// The text of `pkg-template/src/engine/engine-errors.ts`: the generated classes, in declaration order
/// (a base before the classes that extend it), and the table the facade's `fromEngine` builds
/// them by.
#[cfg(test)]
pub fn engine_errors_typescript() -> String {
    use std::fmt::Write;
    let generated: Vec<&Declared> = crate::error::Class::DECLARED
        .iter()
        .filter(|c| !c.base.is_empty())
        .collect();
    let mut fields: Vec<&str> = generated.iter().flat_map(|c| c.fields).copied().collect();
    fields.sort_unstable();
    let mut out = format!(
        "// Generated from the engine's error classes (src/error.rs) by\n\
         // `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.\n\
         import {{ UserError, adopt }} from './error-base.js';\n\
         import type {{ {} }} from './engine-types.js';\n",
        fields.join(", ")
    );
    for class in &generated {
        let (name, base) = (class.name, class.base[0]);
        out.push('\n');
        if let Some(f) = class.fields.first() {
            let _ = writeln!(out, "export interface {name} extends Readonly<{f}> {{}}");
        }
        out.push_str("/**\n");
        for line in class.docs {
            let _ = writeln!(out, " *{}", line.trim_end());
        }
        out.push_str(" */\n");
        match class.fields.first() {
            None => {
                let _ = writeln!(out, "export class {name} extends {base} {{}}");
            }
            Some(f) => {
                let init = if Declared::find(base).is_some_and(|b| b.takes_fields()) {
                    "super(message, fields);".to_owned()
                } else {
                    "super(message);\n    adopt(this, new.target.name, fields);".to_owned()
                };
                let _ = write!(
                    out,
                    "export class {name} extends {base} {{\n  \
                     constructor(message: string, fields: {f}) {{\n    {init}\n  }}\n}}\n"
                );
            }
        }
    }
    out.push_str(
        "\n/** @internal The classes above by kind, and whether each is built from `(message, fields)`. */\n\
         export const GENERATED_CLASSES: Record<string, readonly [new (message: string, fields?: any) => Error, boolean]> = {\n",
    );
    for class in &generated {
        let _ = writeln!(out, "  {0}: [{0}, {1}],", class.name, class.takes_fields());
    }
    out.push_str("};\n");
    out
}
