//! A command's bindings rewritten. A split point as execution resolves it (R-SP-4): the one
//! place that knows which binding of a split point reads the executing context's current
//! instance, and patches it; and [`Command::with_bindings`], every binding a draw reads passed
//! through a function (the replay's reference renames instances with it).
//!
//! **In:** a split point decoded once from its list's index ([`Segment::SplitPoint`]), and the
//! current instance of the resource its dynamic binding names, which the executing context
//! looks up. **Out:** the command with that binding reading the instance, handed to the GPU
//! model as its typed form; nothing decodes it again.
//!
//! A dynamic binding waiting for execution carries [`InstanceId::RESOLVE_AT_EXECUTION`]
//! (written by the recorder's resolution, `resolve.rs`). A split point of a slot bind holds one
//! slot (the bind cut it out of its call, R-SP-1), so the binding is the command's one buffer
//! or view; a decompression split point has none to patch.
//!
//! [`Segment::SplitPoint`]: crate::Segment::SplitPoint

use crate::context::split::SplitCategory;
use crate::device::handle::RawHandle;

use super::{BoundBuffer, BoundBuffers, BoundView, Command, Decoded, InstanceId};

/// A decoded split point and the instance its dynamic binding reads (see the module essay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitPoint<'a> {
    command: Command<'a>,
    category: SplitCategory,
    /// What a binding marked `RESOLVE_AT_EXECUTION` reads, once resolved.
    instance: InstanceId,
}

impl<'a> SplitPoint<'a> {
    /// The split point `decoded` is, if it is one. Until [`with_instance`](Self::with_instance),
    /// a dynamic binding reads the creation contents.
    pub fn new(decoded: Decoded<'a>) -> Option<Self> {
        Some(Self {
            command: decoded.command,
            category: decoded.split?,
            instance: InstanceId::INITIAL,
        })
    }

    /// Its category (R-SP-2).
    pub fn category(&self) -> SplitCategory {
        self.category
    }

    /// The command as it was decoded, unpatched.
    pub fn command(&self) -> &Command<'a> {
        &self.command
    }

    /// The dynamic resource whose current instance the split point's binding reads, if it has a
    /// binding waiting for execution (R-SP-4, R-ST-8): what the executing context looks up.
    pub fn dynamic_resource(&self) -> Option<RawHandle> {
        self.patched(|_, resource| resource)
    }

    /// The split point with its waiting binding reading `instance`.
    pub fn with_instance(mut self, instance: InstanceId) -> Self {
        self.set_instance(instance);
        self
    }

    /// Makes the waiting binding read `instance`.
    pub fn set_instance(&mut self, instance: InstanceId) {
        self.instance = instance;
    }

    /// Calls `apply` with the command as execution applies it: the waiting binding reads the
    /// instance given by [`with_instance`](Self::with_instance); every other command as decoded.
    pub fn apply<R>(&self, apply: impl FnOnce(&Command<'_>) -> R) -> R {
        self.patched(|command, _| apply(command))
    }

    /// The one match over the commands whose binding can wait for execution: calls `f` with the
    /// command patched and the resource the waiting binding names (`None`: nothing waits, the
    /// command as decoded).
    fn patched<R>(&self, f: impl FnOnce(&Command<'_>, Option<RawHandle>) -> R) -> R {
        let waits = |instance| instance == InstanceId::RESOLVE_AT_EXECUTION;
        let waits_one = |buffers: &[BoundBuffer]| matches!(buffers, [b] if waits(b.instance));
        let instance = self.instance;
        let buffer = |b: &BoundBuffer| BoundBuffer { instance, ..*b };
        let view = |v: &BoundView| BoundView { instance, ..*v };
        match self.command {
            Command::SetVertexBuffers { start, buffers } if waits_one(&buffers) => f(
                &Command::SetVertexBuffers {
                    start,
                    buffers: BoundBuffers::One(buffer(&buffers[0])),
                },
                Some(buffers[0].buffer),
            ),
            Command::SetConstantBuffers {
                stage,
                start,
                buffers,
            } if waits_one(&buffers) => f(
                &Command::SetConstantBuffers {
                    stage,
                    start,
                    buffers: BoundBuffers::One(buffer(&buffers[0])),
                },
                Some(buffers[0].buffer),
            ),
            Command::SetIndexBuffer(b) if waits(b.instance) => {
                f(&Command::SetIndexBuffer(buffer(&b)), Some(b.buffer))
            }
            Command::SetShaderResources {
                stage,
                start,
                views: [v],
            } if waits(v.instance) => f(
                &Command::SetShaderResources {
                    stage,
                    start,
                    views: &[view(v)],
                },
                Some(v.resource),
            ),
            ref command => f(command, None),
        }
    }
}

impl Command<'_> {
    /// Calls `apply` with this command, every binding a draw reads passed through `buffer` and
    /// `view`: vertex, index and constant buffers, shader resources, UAVs, render targets and
    /// depth stencil, indirect arguments. Other commands go as they are. The rewritten arrays
    /// are allocated: for the replay's reference, which renames instances, not for execution
    /// (a split point's patch is [`SplitPoint`]'s, without allocating).
    pub fn with_bindings<R>(
        &self,
        buffer: impl Fn(&BoundBuffer) -> BoundBuffer,
        view: impl Fn(&BoundView) -> BoundView,
        apply: impl FnOnce(&Command<'_>) -> R,
    ) -> R {
        let buffers = |items: &[BoundBuffer]| items.iter().map(&buffer).collect::<Vec<_>>();
        let views = |items: &[BoundView]| items.iter().map(&view).collect::<Vec<_>>();
        match *self {
            Command::SetVertexBuffers { start, buffers: b } => apply(&Command::SetVertexBuffers {
                start,
                buffers: BoundBuffers::Array(&buffers(&b)),
            }),
            Command::SetConstantBuffers {
                stage,
                start,
                buffers: b,
            } => apply(&Command::SetConstantBuffers {
                stage,
                start,
                buffers: BoundBuffers::Array(&buffers(&b)),
            }),
            Command::SetIndexBuffer(b) => apply(&Command::SetIndexBuffer(buffer(&b))),
            Command::SetShaderResources {
                stage,
                start,
                views: v,
            } => apply(&Command::SetShaderResources {
                stage,
                start,
                views: &views(v),
            }),
            Command::SetComputeUnorderedAccessViews { start, views: v } => {
                apply(&Command::SetComputeUnorderedAccessViews {
                    start,
                    views: &views(v),
                })
            }
            Command::SetRenderTargets {
                targets,
                uavs,
                uav_start,
                uav_patch,
            } => {
                let targets = targets.map(|(t, d)| (views(t), view(d)));
                let uavs = uavs.map(views);
                apply(&Command::SetRenderTargets {
                    targets: targets.as_ref().map(|(t, d)| (t.as_slice(), d)),
                    uavs: uavs.as_deref(),
                    uav_start,
                    uav_patch,
                })
            }
            Command::DrawInstancedIndirect(b) => apply(&Command::DrawInstancedIndirect(buffer(&b))),
            Command::DrawIndexedInstancedIndirect(b) => {
                apply(&Command::DrawIndexedInstancedIndirect(buffer(&b)))
            }
            Command::DispatchIndirect(b) => apply(&Command::DispatchIndirect(buffer(&b))),
            ref other => apply(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        BindFlags, BufferDesc, Device, DeviceDesc, Handle, Segment, Semantics, Stage, Usage,
    };

    /// R-SP-4: the split point of a dynamic binding names its resource, and the patch makes
    /// exactly that binding read the instance given; a split point with no waiting binding
    /// names nothing and goes as decoded.
    #[test]
    fn r_sp_4_a_split_point_patches_its_one_waiting_binding() {
        let device = Device::new(DeviceDesc::default());
        let dynamic = device
            .create_buffer(&BufferDesc {
                name: "dynamic",
                size: 256,
                usage: Usage::Dynamic,
                bind: BindFlags::CONSTANT,
                ..Default::default()
            })
            .unwrap();
        let desc = crate::DeferredContextDesc {
            semantics: Semantics::Legacy,
            ..Default::default()
        };
        let mut context = device.create_deferred_context(&desc).unwrap();
        context.set_constant_buffers(Stage::Pixel, 3, &[Some(dynamic)]);
        context.draw(3, 0);
        let list = context
            .finish_command_list(crate::RestoreState::ClearState)
            .unwrap();
        let splits: Vec<_> = list
            .segments()
            .filter_map(|segment| match segment {
                Segment::SplitPoint(decoded) => SplitPoint::new(decoded),
                _ => None,
            })
            .collect();
        assert_eq!(splits.len(), 1);
        let split = splits[0];
        assert_eq!(split.dynamic_resource(), Some(dynamic.raw()));
        let current = InstanceId::new(7, 2);
        let patched = split
            .with_instance(current)
            .apply(|command| match *command {
                Command::SetConstantBuffers {
                    stage: Stage::Pixel,
                    start: 3,
                    buffers,
                } if buffers.len() == 1 => (buffers[0].buffer, buffers[0].instance),
                other => panic!("{other:?}"),
            });
        assert_eq!(patched, (dynamic.raw(), current));
        // Decoded as recorded, the binding still waits.
        assert!(matches!(
            *split.command(),
            Command::SetConstantBuffers { buffers, .. }
                if matches!(*buffers, [b] if b.instance == InstanceId::RESOLVE_AT_EXECUTION)
        ));
        // A command that is not a split point is none.
        let draw = list.commands().last().unwrap();
        assert!(SplitPoint::new(draw).is_none());
    }
}
