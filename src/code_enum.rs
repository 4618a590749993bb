//! [`code_enum!`](crate::code_enum!): enums of stable codes. Each enum lives with the rules that raise
//! its codes; `codes.rs` gathers them for the TypeScript unions.

/// Declares a fieldless enum whose variants each have a stable snake_case code: the enum,
/// `as_str`, `from_code`, and `ALL` (every variant, in declaration order).
#[macro_export]
macro_rules! code_enum {
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

            /// The variant whose code is `code`.
            #[allow(dead_code)]
            pub fn from_code(code: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.as_str() == code)
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, code: &&str) -> bool {
                self.as_str() == *code
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}
