//! The generator of the command vocabulary: `command_table!`, the macro that turns the table in
//! `vocabulary/` (one entry per command) into the four things every reader of commands needs
//! from it (the module essay in `mod.rs` says why a table).
//!
//! **In:** the table, `[]` (the areas' list, spent), then each area's `commands { .. }`: for each
//! command its doc, its opcode byte, its [`Command`](super::Command) variant's fields, the block
//! that walks the objects it names and the block that decodes it from its payload; then
//! `other_opcodes { .. }`, the opcodes that are no command of their own (compact encodings of
//! another command, the list's own records), each with its opcode byte and decode block.
//! **Out:**
//! - [`Opcode`](super::Opcode): one variant per entry, its discriminant the entry's byte, and
//!   `Opcode::ALL`, `Opcode::COUNT`; a compile-time check that the bytes are `0..COUNT` (the compiler already
//!   refuses two entries with one byte), which `Opcode::from_u8` relies on;
//! - [`Command`](super::Command): one variant per command entry, with the entry's doc and fields;
//! - `Command::decode_at`: one `match` over the opcode, each arm the entry's decode block,
//!   `#[inline(always)]` into `decode` (`decode.rs`), so execution's hot path is one match with
//!   no call in it, building `decode`'s result in place;
//! - [`Command::for_each_object`](super::Command::for_each_object): one `match` over the
//!   command, each arm binding the entry's fields by name and running its objects block.
//!
//! The macro holds no knowledge of any one command: what is per command is in the entry, as
//! ordinary Rust blocks. It names the bindings the blocks use (`decode(at)`, `objects(one)`,
//! the fields) after the entry's own words, since `macro_rules!` hygiene hides its own names.

/// Generates the vocabulary from its table: see the module essay, and `vocabulary/mod.rs` for
/// the grammar in use.
macro_rules! command_table {
    (
        []
        $( commands {$(
            $(#[doc = $doc:literal])*
            $name:ident = $code:literal
            $( ( $tuple_field:ident : $tuple_ty:ty ) )?
            $( { $( $(#[doc = $field_doc:literal])* $field:ident : $field_ty:ty ),* $(,)? } )?
            $( objects($one:ident) $objects:block )?
            decode($at:ident) $decode:block
        )*} )*
        other_opcodes {$(
            $(#[doc = $other_doc:literal])*
            $other:ident = $other_code:literal decode($other_at:ident) $other_decode:block
        )*}
    ) => {
        /// Which command an encoded header starts: the first byte of every command (and of the
        /// list's own records), one per entry of the table (`vocabulary/`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Opcode {
            $( $( $(#[doc = $doc])* $name = $code, )* )*
            $( $(#[doc = $other_doc])* $other = $other_code, )*
        }

        impl Opcode {
            /// Every opcode, in the table's order.
            pub(crate) const ALL: &[Opcode] = &[$( $( Opcode::$name, )* )* $( Opcode::$other, )*];
            /// How many opcodes there are: their bytes are exactly `0..COUNT`.
            pub(crate) const COUNT: usize = Opcode::ALL.len();
        }

        // Dense: each of the `COUNT` distinct bytes (the compiler refuses a repeated one) is
        // below `COUNT`, so they are `0..COUNT`, and `Opcode::from_u8` may transmute below it.
        const _: () = {
            let mut i = 0;
            while i < Opcode::COUNT {
                assert!((Opcode::ALL[i] as usize) < Opcode::COUNT, "the opcode bytes leave a gap");
                i += 1;
            }
        };

        /// A decoded command, borrowing its payload from the chunk: one variant per command of
        /// the table (`vocabulary/`).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Command<'a> {
            $( $(
                $(#[doc = $doc])*
                $name
                $( ( $tuple_ty ) )?
                $( { $( $(#[doc = $field_doc])* $field: $field_ty, )* } )?,
            )* )*
        }

        impl<'a> Command<'a> {
            /// The command of `opcode` whose payload `at` reads (the arm of its entry), as
            /// `decode` returns it: with its split category, its offset in the chunk and the
            /// offset of the next command. It builds the whole result so that the match's
            /// variant is written in place: `decode` returns it as it is, copying nothing.
            ///
            /// # Safety
            /// `at` must read a command of `opcode` that the encoder wrote, alive and unchanged
            /// for `'a` (as `decode` requires of its caller).
            #[inline(always)]
            pub(super) unsafe fn decode_at(
                opcode: Opcode,
                at: $crate::command::EncodedPayload<'a>,
                split: Option<$crate::SplitCategory>,
                offset: usize,
                next: usize,
            ) -> ($crate::command::Decoded<'a>, usize) {
                // SAFETY: the caller hands a payload of a command of `opcode`, written by the
                // encoder and alive for 'a. Each arm is its entry's decode block, which reads
                // (through `EncodedPayload`'s methods, whose own arguments hold given that) the
                // layout the recording call that writes `opcode` writes: the entry names the
                // payload type it reads, which is the type that call hands `write_command` with
                // this opcode (`payload.rs` holds the layouts both name).
                let command = unsafe {
                    match opcode {
                        $( $( Opcode::$name => {
                            let $at = at;
                            $decode
                        } )* )*
                        $( Opcode::$other => {
                            let $other_at = at;
                            $other_decode
                        } )*
                    }
                };
                (
                    $crate::command::Decoded {
                        command,
                        split,
                        offset: offset as u32,
                        site: None,
                    },
                    next,
                )
            }

            /// Calls `f` for every object this command names as an argument of its call, null
            /// ones left out: legacy recording took one reference on each (counted per distinct
            /// object by the recorder, `refs.rs`), the validation of a fast list checks them
            /// (R-OBJ-4, R-V-1). Views are named, their resources are not (the view holds
            /// those); a nested list is not an object (the list holds it). Each arm is its
            /// entry's objects block, given the entry's fields by name; an entry without one
            /// names nothing.
            #[inline]
            #[allow(unused_variables)] // an objects block reads the fields it needs, not all
            pub fn for_each_object(
                &self,
                mut f: impl FnMut(
                    $crate::device::handle::ObjectKind,
                    $crate::device::handle::RawHandle,
                ),
            ) {
                match *self {
                    $( $( Command::$name
                        $( ( $tuple_field ) )?
                        $( { $( $field, )* } )? => {
                        $(
                            let mut $one = |kind, handle: $crate::device::handle::RawHandle| {
                                if !handle.is_null() {
                                    f(kind, handle)
                                }
                            };
                            $objects
                        )?
                    } )* )*
                }
            }
        }
    };
}

pub(super) use command_table;
