//! The macro the call table (`call_table.rs`) is written in: from one entry per call it makes
//! the [`Method`](super::Method) enum, the parser's dispatch from the method's word, the printer,
//! and the traversal that takes a method from one form to another.
//!
//! **In:** the table: per call, its doc, its variant, its word and its fields, each with a kind
//! (`call_args.rs`, `call_arg_objects.rs`, `call_arg_groups.rs`) and what the table gives that
//! kind (a label, an object kind). **Out:** the items below; every per-call match they hold is
//! made here, so the compiler checks each against the enum, and no hand-written match over the
//! calls is left to forget. The kinds and traits are named as the table's file imports them.
//!
//! ## An entry
//! ```text
//! /// doc of the call
//! Variant = "word" { /// doc of the field
//!                    field: Kind(param), .. },     a variant with named fields
//! Variant = "word" (binding: Kind(param)),        a variant of one unnamed field (the binding
//!                                                 names it in the generated code only)
//! Variant = "word",                               a variant of no field
//! Variant = "word" if is_bundle_recorder { .. },  the word means this call only where the
//!                                                 guard (a `CallContext` method) says so
//! ```
//! Fields are in docs/TRACE.md's order: the order they are read and printed in. A field whose
//! kind is written in the word (`stage: StagePrefix()`, `CallArg::IN_WORD`) makes the word
//! `STAGE_word` (`vs_set_shader`).
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
//! One arm, no recursion: the table may grow past the compiler's macro recursion limit. Each
//! item repeats its code for the two shapes of fields (named, or one unnamed); the word is
//! matched by comparison in table order, a guarded word before the same word unguarded.

/// See the module essay.
macro_rules! call_table {
    (
        $(#[$enum_attr:meta])*
        pub enum Method {
            $(
                $(#[$attr:meta])*
                $variant:ident = $word:literal $(if $guard:ident)?
                $( {
                    $( $(#[$field_attr:meta])* $field:ident : $kind:ident ( $($param:tt)* ) ),*
                    $(,)?
                } )?
                $( ( $one:ident : $one_kind:ident ( $($one_param:tt)* ) ) )?
            ),* $(,)?
        }
    ) => {
        $(#[$enum_attr])*
        #[derive(Clone, Debug, PartialEq)]
        pub enum Method<F: Form = Written> {
            $(
                $(#[$attr])*
                $variant
                $( { $( $(#[$field_attr])* $field: Arg<$kind, F>, )* } )?
                $( (Arg<$one_kind, F>) )?,
            )*
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
                $(
                    let in_word = <[bool]>::contains(
                        &[
                            $( $( <$kind as CallArg>::IN_WORD, )* )?
                            $( <$one_kind as CallArg>::IN_WORD, )?
                        ],
                        &true,
                    );
                    let named = match in_word {
                        true => stage.is_some() && rest == $word,
                        false => word == $word,
                    };
                    if named $( && context.$guard() )? {
                        $( $( let $field = <$kind as CallArg>::parse(parser, ($($param)*))?; )* )?
                        $( let $one = <$one_kind as CallArg>::parse(parser, ($($one_param)*))?; )?
                        return Ok(Some(Self::$variant $( { $($field),* } )? $( ($one) )?));
                    }
                )*
                Ok(None)
            }
        }

        impl fmt::Display for Method {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $( Self::$variant $( { $($field),* } )? $( ($one) )? => {
                        $( $( <$kind as CallArg>::print_prefix(f, $field)?; )* )?
                        $( <$one_kind as CallArg>::print_prefix(f, $one)?; )?
                        f.write_str($word)?;
                        $( $( <$kind as CallArg>::print(f, $field, ($($param)*))?; )* )?
                        $( <$one_kind as CallArg>::print(f, $one, ($($one_param)*))?; )?
                        $( $( <$kind as CallArg>::print_suffix(f, $field)?; )* )?
                        $( <$one_kind as CallArg>::print_suffix(f, $one)?; )?
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
                    $( Self::$variant $( { $($field),* } )? $( ($one) )? => {
                        $( $( <$kind as CallArg>::objects::<F>($field, ($($param)*), visit); )* )?
                        $( <$one_kind as CallArg>::objects::<F>($one, ($($one_param)*), visit); )?
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
                    $( Self::$variant $( { $($field),* } )? $( ($one) )? => {
                        $( $(
                            let $field =
                                <$kind as CallArg>::convert(converter, $field, ($($param)*))?;
                        )* )?
                        $(
                            let $one = <$one_kind as CallArg>::convert(
                                converter,
                                $one,
                                ($($one_param)*),
                            )?;
                        )?
                        Method::$variant $( { $($field),* } )? $( ($one) )?
                    } )*
                })
            }
        }
    };
}

pub(crate) use call_table;
