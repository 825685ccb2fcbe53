//! The one table from semiring names to types: a built-in semiring chosen at run time by the
//! name a user writes (`min-plus:f32`), over [`for_each_builtin!`](crate::for_each_builtin).
//! Every command, bench and tool that takes a semiring by name goes through
//! [`with_builtin!`](crate::with_builtin), so they all accept the same names.

use crate::Semiring;

/// The name users write for the semiring whose [`Semiring::full_name`] is `full_name`:
/// `min_plus_f32` becomes `min-plus:f32` (the operation's words joined by `-`, a `:`, the
/// value type).
///
/// ```
/// assert_eq!(semigraph_semiring::names::spec_of("min_plus_pred_dpi32"), "min-plus-pred:dpi32");
/// ```
pub fn spec_of(full_name: &str) -> String {
    match full_name.rsplit_once('_') {
        Some((name, ty)) => format!("{}:{ty}", name.replace('_', "-")),
        None => full_name.to_string(),
    }
}

/// The names of every built-in semiring, as [`spec_of`] writes them, in the order of
/// [`for_each_builtin!`](crate::for_each_builtin).
///
/// ```
/// let names = semigraph_semiring::names::builtin_names();
/// assert!(names.contains(&"or-and:bool".to_string()));
/// assert_eq!(names.len(), 49);
/// ```
pub fn builtin_names() -> Vec<String> {
    let mut v = Vec::new();
    macro_rules! push {
        ($label:ident, $s:ty) => {
            v.push(spec_of(&<$s as Semiring>::full_name()));
        };
    }
    crate::for_each_builtin!(push);
    v
}

/// Evaluates `body` with the type alias `S` set to the built-in semiring named `name`, written
/// as [`spec_of`] does (`min-plus:f32`) or as its [`Semiring::full_name`] (`min_plus_f32`):
/// `Some(value)`, or `None` if no built-in has that name. The body is compiled once per built-in
/// with `S` a concrete type, so it may use anything the built-ins implement.
///
/// ```
/// use semigraph_semiring::{Semiring, with_builtin};
///
/// let zero = |name: &str| with_builtin!(name, S => format!("{:?}", S::zero()));
/// assert_eq!(zero("min-plus:i32").as_deref(), Some("2147483647"));
/// assert_eq!(zero("or_and_bool").as_deref(), Some("false"));
/// assert_eq!(zero("min-plus:u8"), None);
/// ```
#[macro_export]
macro_rules! with_builtin {
    ($name:expr, $S:ident => $body:expr) => {{
        let name: &str = $name;
        let mut out = None;
        $crate::for_each_builtin!($crate::__with_builtin_one, name, out, $S, $body);
        out
    }};
}

/// One built-in of [`with_builtin!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __with_builtin_one {
    ($label:ident, $s:ty, $name:ident, $out:ident, $S:ident, $body:expr) => {
        if $out.is_none() {
            let full = <$s as $crate::Semiring>::full_name();
            if $name == full || $name == $crate::names::spec_of(&full) {
                #[allow(dead_code)]
                type $S = $s;
                $out = Some($body);
            }
        }
    };
}
