//! The table's entries for the draws and dispatches (R-REC-3), and for the calls of recorded
//! work: a nested list, a bundle, a bundle's remap of an inherited slot. `vocabulary/mod.rs` says
//! what an entry holds and how the areas' entries come together.

/// Adds these entries to the table it is handed and hands the table on to the next macro of the
/// list (`vocabulary/mod.rs`).
macro_rules! draw_commands {
    ([$next:ident $(, $rest:ident)*] $($table:tt)*) => {
        $next! { [$($rest),*] $($table)* commands {

    /// `draw(vertex_count, start_vertex)` ([`DirectArgs::draw`]).
    Draw = 17 (args: DirectArgs)
    decode(at) {
        let [vertex_count, start_vertex]: [u32; 2] = at.read();
        Command::Draw(DirectArgs::draw(vertex_count, start_vertex))
    }

    /// `draw_indexed(index_count, start_index, base_vertex)`.
    DrawIndexed = 18 (args: DirectArgs)
    decode(at) { Command::DrawIndexed(at.read()) }

    /// `draw_instanced(vertex_count, instance_count, start_vertex, start_instance)`.
    DrawInstanced = 19 (args: DirectArgs)
    decode(at) { Command::DrawInstanced(at.read()) }

    /// `draw_indexed_instanced(index_count, instance_count, start_index, base_vertex,
    /// start_instance)`.
    DrawIndexedInstanced = 20 (args: DirectArgs)
    decode(at) { Command::DrawIndexedInstanced(at.read()) }

    /// `draw_auto`: a draw whose vertex count the stream output wrote.
    DrawAuto = 21
    decode(_at) { Command::DrawAuto }

    /// `draw_instanced_indirect`: the arguments are read from a buffer: the buffer, its
    /// instance and byte offset.
    DrawInstancedIndirect = 22 (args: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, args.buffer) }
    decode(at) { Command::DrawInstancedIndirect(at.read::<IndirectPayload>().args) }

    /// `draw_indexed_instanced_indirect`: the arguments are read from a buffer: the buffer, its
    /// instance and byte offset.
    DrawIndexedInstancedIndirect = 23 (args: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, args.buffer) }
    decode(at) { Command::DrawIndexedInstancedIndirect(at.read::<IndirectPayload>().args) }

    /// `dispatch(x, y, z)`.
    Dispatch = 24 (args: DirectArgs)
    decode(at) { Command::Dispatch(at.read()) }

    /// `dispatch_indirect`: the group counts are read from a buffer: the buffer, its instance
    /// and byte offset.
    DispatchIndirect = 25 (args: BoundBuffer)
    objects(one) { one(ObjectKind::Buffer, args.buffer) }
    decode(at) { Command::DispatchIndirect(at.read::<IndirectPayload>().args) }

    /// `execute_command_list`: a nested list by reference (R-REC-9), the address of its header;
    /// the operand is the restore flag.
    ExecuteCommandList = 53 {
        /// The nested list.
        list: NestedList<'a>,
        /// The restore flag of `execute_command_list`: a legacy context keeps its own state
        /// across the nested list (`true`) or has the ClearState defaults after it (`false`);
        /// fast refuses `true`.
        restore: bool,
    }
    decode(at) {
        // The encoder wrote the address of the nested list's header, which the outer list's
        // reference keeps alive (`NestedList::from_address`'s requirement).
        Command::ExecuteCommandList {
            list: NestedList::from_address(at.read::<usize>()),
            restore: at.operand() != 0,
        }
    }

    /// In a bundle: later draws read a slot from another inherited slot (R-B-9); the operand is
    /// the `RemapKind`.
    RemapInheritance = 54 (remap: Remap)
    decode(at) {
        let p: RemapPayload = at.read();
        Command::RemapInheritance(Remap {
            kind: RemapKind::from_u8(at.operand()),
            stage: Stage::from_u8(p.stage).unwrap_or(Stage::Vertex),
            slot: p.slot,
            inherit_stage: Stage::from_u8(p.inherit_stage).unwrap_or(Stage::Vertex),
            inherit_slot: p.inherit_slot,
        })
    }

    /// A call of a draw bundle, recorded in a list (R-B-10), by handle: `Device::bundle_body`
    /// has its commands, its declaration and its footprint.
    DrawBundle = 55 {
        /// The bundle called; `Device::bundle_body` has its commands.
        bundle: RawHandle,
    }
    objects(one) { one(ObjectKind::Bundle, bundle) }
    decode(at) { Command::DrawBundle { bundle: at.read::<DrawBundlePayload>() } }

        } }
    };
}

pub(super) use draw_commands;
