//! The macro the call table (`call_table.rs`) is written in: from one entry per call it makes
//! the [`Method`](super::Method) enum, the parser's dispatch from the method's word, the printer,
//! and the traversal that takes a method from one form to another.
//!
//! **In:** the table: per call, its doc, its variant, its word and its fields, each with a kind
//! (`call_args.rs`, `call_arg_groups.rs`) and what the table gives that kind (a label, an object
//! kind). **Out:** the items below; every per-call match they hold is made here, so the compiler
//! checks each against the enum, and no hand-written match over the calls is left to forget.
//!
//! ## An entry
//! ```text
//! /// doc of the call
//! Variant = "word" { /// doc of the field
//!                    field: Kind(param), .. },     a variant with named fields
//! Variant = "word" (Kind(param)),                 a variant of one unnamed field
//! Variant = "word",                               a variant of no field
//! Variant = STAGE "word" { stage: StagePrefix(), .. },   the word is `STAGE_word`
//! Variant = "word" if is_bundle_recorder { .. },  the word means this call only where the
//!                                                 guard (a `CallContext` method) says so
//! ```
//! Fields are in docs/TRACE.md's order: the order they are read and printed in.
//!
//! ## What it makes
//! * `enum Method<F: Form = Written>`: each field's type is `Arg<Kind, F>`, what the kind is in
//!   the form (`call_args.rs`).
//! * `Method::parse_arguments(word, context, parser)`: the call the word names, each field read
//!   by its kind, or `None` for a word that names no call. What a call does to the symbol table
//!   besides is the parser's (`call.rs`).
//! * `Display for Method`: each field's prefix (the stage of a `STAGE_` word), the word, each
//!   field after one space, then each field's suffix (a flag after the options).
//! * `Method::convert(converter)`: the same call in another form, each field converted by its
//!   kind through the [`Convert`](super::call_args::Convert) it is given.
//! * `Method::for_each_object(visit)`: the objects the call names for it to use, each field's
//!   as its kind lists them.
//!
//! The macro first rewrites each entry into one shape (`@munch`, one entry a step), then makes
//! the items from the list (`@make`).

/// See the module essay.
macro_rules! call_table {
    (
        $(#[$enum_attr:meta])*
        pub enum Method { $($entries:tt)* }
    ) => {
        call_table!(@munch [$(#[$enum_attr])*] [] $($entries)*);
    };

    // A staged word: `Variant = STAGE "word" { fields },`.
    (@munch $head:tt [$($done:tt)*]
        $(#[$attr:meta])* $variant:ident = STAGE $word:literal {
            $( $(#[$field_attr:meta])* $field:ident : $kind:ident ( $($param:tt)* ) ),* $(,)?
        },
        $($rest:tt)*
    ) => {
        call_table!(@munch $head [$($done)* {
            [$(#[$attr])*] $variant [(Some(_), $word, _)] [] $word
            [{ $( $(#[$field_attr])* $field: Arg<$kind, F>, )* }]
            [{ $($field),* }]
            [$( $field : $kind ( $($param)* ) ; )*]
        }] $($rest)*);
    };

    // Named fields: `Variant = "word" [if guard] { fields },`.
    (@munch $head:tt [$($done:tt)*]
        $(#[$attr:meta])* $variant:ident = $word:literal $(if $guard:ident)? {
            $( $(#[$field_attr:meta])* $field:ident : $kind:ident ( $($param:tt)* ) ),* $(,)?
        },
        $($rest:tt)*
    ) => {
        call_table!(@munch $head [$($done)* {
            [$(#[$attr])*] $variant [(_, _, $word)] [$($guard)?] $word
            [{ $( $(#[$field_attr])* $field: Arg<$kind, F>, )* }]
            [{ $($field),* }]
            [$( $field : $kind ( $($param)* ) ; )*]
        }] $($rest)*);
    };

    // One unnamed field: `Variant = "word" (Kind(param)),`.
    (@munch $head:tt [$($done:tt)*]
        $(#[$attr:meta])* $variant:ident = $word:literal ( $kind:ident ( $($param:tt)* ) ),
        $($rest:tt)*
    ) => {
        call_table!(@munch $head [$($done)* {
            [$(#[$attr])*] $variant [(_, _, $word)] [] $word
            [(Arg<$kind, F>)]
            [(value)]
            [value : $kind ( $($param)* ) ;]
        }] $($rest)*);
    };

    // No field: `Variant = "word" [if guard],`.
    (@munch $head:tt [$($done:tt)*]
        $(#[$attr:meta])* $variant:ident = $word:literal $(if $guard:ident)?,
        $($rest:tt)*
    ) => {
        call_table!(@munch $head [$($done)* {
            [$(#[$attr])*] $variant [(_, _, $word)] [$($guard)?] $word [] [] []
        }] $($rest)*);
    };

    (@munch $head:tt [$($done:tt)*]) => {
        call_table!(@make $head $($done)*);
    };

    (@make [$(#[$enum_attr:meta])*] $({
        [$(#[$attr:meta])*] $variant:ident [$pattern:pat] [$($guard:ident)?] $word:literal
        [$($decl:tt)*] [$($bind:tt)*]
        [$( $field:ident : $kind:ident ( $($param:tt)* ) ; )*]
    })*) => {
        $(#[$enum_attr])*
        #[derive(Clone, Debug, PartialEq)]
        pub enum Method<F: Form = Written> {
            $( $(#[$attr])* $variant $($decl)*, )*
        }

        impl Method {
            /// The call `word` names on `context`, its arguments read by `parser`; `None` for
            /// a word that names no call there.
            pub(crate) fn parse_arguments(
                word: &str,
                context: &CallContext,
                parser: &mut CallParser<'_, '_>,
            ) -> Result<Option<Self>> {
                let (stage, rest) = split_stage(word);
                parser.stage = stage;
                Ok(Some(match (stage, rest, word) {
                    $( $pattern $(if context.$guard())? => {
                        $( let $field = <$kind as CallArg>::parse(parser, ($($param)*))?; )*
                        Self::$variant $($bind)*
                    } )*
                    _ => return Ok(None),
                }))
            }
        }

        impl fmt::Display for Method {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $( Self::$variant $($bind)* => {
                        $( <$kind as CallArg>::print_prefix(f, $field)?; )*
                        f.write_str($word)?;
                        $( <$kind as CallArg>::print(f, $field, ($($param)*))?; )*
                        $( <$kind as CallArg>::print_suffix(f, $field)?; )*
                        Ok(())
                    } )*
                }
            }
        }

        impl<F: Form> Method<F> {
            /// Every object the call names for it to use, in the order written, `null`s left
            /// out: not a fence (a value) nor what the call itself makes (`finish LIST`).
            pub(crate) fn for_each_object(&self, visit: &mut dyn FnMut(&F::Object)) {
                match self {
                    $( Self::$variant $($bind)* => {
                        $( <$kind as CallArg>::objects::<F>($field, ($($param)*), visit); )*
                    } )*
                }
            }

            /// The same call in the form `G`, each argument converted by `converter` as its
            /// kind says; the first argument that cannot be is the error.
            pub(crate) fn convert<G: Form, C: Convert<F, G> + ?Sized>(
                &self,
                converter: &mut C,
            ) -> std::result::Result<Method<G>, C::Error> {
                Ok(match self {
                    $( Self::$variant $($bind)* => {
                        $( let $field =
                            <$kind as CallArg>::convert(converter, $field, ($($param)*))?; )*
                        Method::$variant $($bind)*
                    } )*
                })
            }
        }
    };
}

pub(crate) use call_table;
