//! Options named on command lines and in files: an enum lists its values and their names once
//! ([`Named`]), and every front end (the CLI, a future Python binding) parses and prints them
//! from that list instead of re-spelling the enum.

/// An enum whose values have names: every value, and the name of each.
///
/// ```
/// use semigraph_formats::{Format, Named};
///
/// assert_eq!(Format::named("ell"), Some(Format::Ell));
/// assert_eq!(Format::named("ellpack"), None);
/// assert_eq!(Format::names().count(), Format::ALL.len());
/// ```
pub trait Named: Sized + Copy + 'static {
    /// Every value, in the order lists show them.
    const VALUES: &'static [Self];
    /// The value's name (lower case, words joined by `-`).
    fn name(self) -> &'static str;
    /// The value named `s`, if any.
    fn named(s: &str) -> Option<Self> {
        Self::VALUES.iter().copied().find(|v| v.name() == s)
    }
    /// Every value's name.
    fn names() -> impl Iterator<Item = &'static str> {
        Self::VALUES.iter().map(|v| v.name())
    }
}

/// Implements [`Named`] (and [`Display`](std::fmt::Display)) for a fieldless enum from one
/// list of `Variant => "name"` pairs.
#[macro_export]
macro_rules! named_enum {
    ($t:ty { $($v:ident => $name:literal),* $(,)? }) => {
        impl $crate::Named for $t {
            const VALUES: &'static [Self] = &[$(<$t>::$v),*];
            fn name(self) -> &'static str {
                match self {
                    $(<$t>::$v => $name,)*
                }
            }
        }
        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::Named::name(*self))
            }
        }
    };
}
