//! The calls of the generator of well-formed trees (`generate.rs`): a call on a context that
//! can make it, every method of the call table with arguments of the kinds it takes. A child
//! module of `generate.rs`, moved out to keep that file under 800 lines; it reads the
//! generator's pools as the parent does.

use super::*;

impl Generator {
    pub(super) fn call(&mut self) -> Statement {
        let context = match self.rng.below(3) {
            0 => CallContext::Immediate,
            1 => CallContext::Deferred(self.rng.pick(&self.pools.contexts)),
            _ => CallContext::BundleRecorder(self.rng.pick(&self.pools.recorders)),
        };
        let method = loop {
            if let Some(method) = self.method(&context) {
                break method;
            }
        };
        Statement::Call(Call { context, method })
    }

    fn remap(&mut self) -> Remap {
        Remap {
            stage: self.rng.pick(Stage::ALL),
            slot: self.rng.u64(),
            inherit_stage: self.rng.pick(Stage::ALL),
            inherit_slot: self.rng.u64(),
        }
    }

    /// A vertex buffer's stride and offset (R-GPU-2): each 0 often (written or left out), else
    /// any `u32`, edges included.
    pub(super) fn stride_and_offset(&mut self) -> [u32; 2] {
        let one = |rng: &mut Rng| match rng.below(4) {
            0 | 1 => 0,
            2 => u32::MAX,
            _ => rng.u64() as u32,
        };
        [one(&mut self.rng), one(&mut self.rng)]
    }

    /// `BUF|null[:STRIDE[:OFFSET]] ..` of `set_vertex_buffers`, at least one.
    fn vertex_bindings(&mut self) -> Vec<VertexBinding> {
        let count = 1 + self.rng.below(4);
        (0..count)
            .map(|_| {
                let [stride, offset] = self.stride_and_offset();
                VertexBinding {
                    buffer: self.nullable(|p| &p.buffers),
                    stride,
                    offset,
                }
            })
            .collect()
    }

    /// A random method, or `None` where this context cannot have the one drawn.
    fn method(&mut self, context: &CallContext) -> Option<Method> {
        let stage = self.rng.pick(Stage::ALL);
        let p = &self.pools;
        let (buffers, rtvs, dsvs) = (p.buffers.clone(), p.rtvs.clone(), p.dsvs.clone());
        Some(match self.rng.below(61) {
            0 => Method::SetInputLayout(self.nullable(|p| &p.layouts)),
            1 => Method::SetPrimitiveTopology(self.rng.pick(PrimitiveTopology::ALL)),
            2 => Method::SetVertexBuffers {
                start: self.rng.u64(),
                buffers: self.vertex_bindings(),
            },
            3 => Method::SetIndexBuffer {
                buffer: self.nullable(|p| &p.buffers),
                format: self.format(),
                offset: self.rng.option(Rng::u64),
            },
            4 => Method::SetPrimitiveResetIndex(self.rng.u64()),
            5 => Method::SetShader {
                stage,
                shader: self.nullable(|p| &p.shaders),
            },
            6 => Method::SetConstantBuffers {
                stage,
                start: self.rng.u64(),
                buffers: self.nullables(|p| &p.buffers),
            },
            7 => Method::SetShaderResources {
                stage,
                start: self.rng.u64(),
                views: self.nullables(|p| &p.srvs),
            },
            // The sampler binds, and the fast calls beside them (R-FX-1, R-FX-2).
            8 => match self.rng.below(10) {
                0 => Method::SetFastResources(self.fast_entries()),
                // A batch is made by its first into_batch line, and grown by later ones.
                6 => {
                    let batch = if self.pools.batches.is_empty() || self.rng.coin() {
                        self.counter += 1;
                        let batch = name(&format!("batch{}", self.counter));
                        self.pools.batches.push(batch.clone());
                        batch
                    } else {
                        self.rng.pick(&self.pools.batches)
                    };
                    Method::SetFastResourcesIntoBatch {
                        batch,
                        entries: self.fast_entries(),
                    }
                }
                7 if !self.pools.batches.is_empty() => Method::SetFastResourcesFromBatch {
                    batch: self.rng.pick(&self.pools.batches),
                    entries: Vec::new(),
                },
                1 => Method::SetFastShaderResource {
                    stage,
                    slot: self.rng.u64(),
                    view: self.nullable(|p| &p.srvs),
                },
                2 => Method::SetPlacementShaderResource {
                    stage,
                    slot: self.rng.u64(),
                    view: self.rng.pick(&p.srvs),
                    address: self.rng.u64(),
                },
                3 => Method::SetPlacementConstantBuffer {
                    stage,
                    slot: self.rng.u64(),
                    buffer: self.rng.pick(&buffers),
                    address: self.rng.u64(),
                },
                4 => Method::SetPlacementVertexBuffer {
                    slot: self.rng.u64(),
                    buffer: {
                        let [stride, offset] = self.stride_and_offset();
                        let buffer = self.rng.pick(&buffers);
                        VertexBinding {
                            buffer,
                            stride,
                            offset,
                        }
                    },
                    address: self.rng.u64(),
                },
                5 => Method::IaSetPlacementIndexBuffer {
                    buffer: self.rng.pick(&buffers),
                    address: self.rng.u64(),
                    format: self.format(),
                },
                _ => Method::SetSamplers {
                    stage,
                    start: self.rng.u64(),
                    samplers: self.nullables(|p| &p.samplers),
                },
            },
            9 => Method::CsSetUnorderedAccessViews {
                start: self.rng.u64(),
                views: self.nullables(|p| &p.uavs),
            },
            10 => Method::OmSetRenderTargets {
                render_targets: self.nullables(|p| &p.rtvs),
                depth_stencil: self.nullable(|p| &p.dsvs),
            },
            11 => Method::OmSetRenderTargetsAndUavs {
                render_targets: self.nullables(|p| &p.rtvs),
                depth_stencil: self.nullable(|p| &p.dsvs),
                start: self.rng.u64(),
                views: self.nullables(|p| &p.uavs),
            },
            12 => Method::OmSetBlendState(self.nullable(|p| &p.blends)),
            13 => Method::OmSetDepthStencilState(self.nullable(|p| &p.depth_stencils)),
            14 => Method::RsSetState(self.nullable(|p| &p.rasterizers)),
            15 => Method::RsSetViewports(
                (0..1 + self.rng.below(3))
                    .map(|_| Viewport {
                        x: self.rng.f32(),
                        y: self.rng.f32(),
                        width: self.rng.f32(),
                        height: self.rng.f32(),
                    })
                    .collect(),
            ),
            16 => Method::RsSetScissorRects(
                (0..1 + self.rng.below(3))
                    .map(|_| Rect {
                        left: self.rng.i64(),
                        top: self.rng.i64(),
                        right: self.rng.i64(),
                        bottom: self.rng.i64(),
                    })
                    .collect(),
            ),
            17 => Method::Draw {
                vertex_count: self.rng.u64(),
                start_vertex: self.rng.u64(),
            },
            18 => Method::DrawIndexed {
                index_count: self.rng.u64(),
                start_index: self.rng.u64(),
                base_vertex: self.rng.i64(),
            },
            19 => Method::DrawInstanced {
                vertex_count: self.rng.u64(),
                instance_count: self.rng.u64(),
                start_vertex: self.rng.u64(),
                start_instance: self.rng.u64(),
            },
            20 => Method::DrawIndexedInstanced {
                index_count: self.rng.u64(),
                instance_count: self.rng.u64(),
                start_index: self.rng.u64(),
                base_vertex: self.rng.i64(),
                start_instance: self.rng.u64(),
            },
            21 => Method::DrawAuto,
            22 => Method::DrawInstancedIndirect {
                buffer: self.rng.pick(&buffers),
                offset: self.rng.u64(),
            },
            23 => Method::DrawIndexedInstancedIndirect {
                buffer: self.rng.pick(&buffers),
                offset: self.rng.u64(),
            },
            24 => Method::Dispatch {
                x: self.rng.u64(),
                y: self.rng.u64(),
                z: self.rng.u64(),
            },
            25 => Method::DispatchIndirect {
                buffer: self.rng.pick(&buffers),
                offset: self.rng.u64(),
            },
            26 => Method::ClearRenderTargetView {
                view: self.rng.pick(&rtvs),
                color: [
                    self.rng.f32(),
                    self.rng.f32(),
                    self.rng.f32(),
                    self.rng.f32(),
                ],
            },
            27 => Method::ClearDepthStencilView {
                view: self.rng.pick(&dsvs),
                depth: self.rng.f32(),
                stencil: self.rng.u64(),
            },
            28 => Method::CopyResource {
                destination: self.resource(),
                source: self.resource(),
            },
            29 => Method::UpdateSubresource {
                resource: self.resource(),
            },
            30 => Method::CopyStructureCount {
                destination: self.rng.pick(&buffers),
                offset: self.rng.u64(),
                view: self.rng.pick(&self.pools.uavs),
            },
            31 => Method::Map {
                resource: self.resource(),
                map_type: self.rng.pick(MapType::ALL),
                allow_usage_default: self.rng.coin(),
                instance: (),
                writes: (),
            },
            32 => Method::Unmap {
                resource: self.resource(),
            },
            33 => Method::SetPredication {
                predicate: self.nullable(|p| &p.predicates),
                value: self.rng.coin(),
            },
            34 => Method::Begin {
                query: self.rng.pick(&self.pools.predicates),
            },
            35 => {
                let query = self.rng.pick(&self.pools.predicates);
                match self.rng.below(5) {
                    0 => Method::End { query },
                    1 => Method::WriteQuery { query },
                    2 => Method::ResetQuery { query },
                    3 => Method::ConfigureQuery {
                        query,
                        mode: self.rng.pick(QueryMode::ALL),
                    },
                    _ => Method::SetPredicationFromQuery {
                        query: self.rng.coin().then_some(query),
                        value: self.rng.coin(),
                    },
                }
            }
            36 => Method::ClearState,
            37 => Method::DecompressResource {
                resource: self.resource(),
                options: Decompression {
                    into: self.rng.coin().then(|| self.resource()),
                    // Any non-empty set of kinds, `all` included (which prints nothing).
                    kinds: recorder::DecompressKinds::from_bits(1 + self.rng.below(31) as u8),
                    region: self.rng.coin().then(|| {
                        let sub = self.rng.below(8) as u32;
                        let (l, t) = (self.rng.below(4) as u32, self.rng.below(4) as u32);
                        let r = self.rng.below(64) as u32;
                        (sub, [l, t, r, u32::MAX - self.rng.below(2) as u32])
                    }),
                },
            },
            38 => Method::SetResourceCompression {
                resource: self.resource(),
                compression: self.rng.pick(Compression::ALL),
            },
            39 => Method::SetResourceMinLod {
                resource: self.resource(),
                min_lod: self.rng.f32(),
            },
            40 => Method::SetShaderResourceViewMinLod {
                view: self.rng.pick(&self.pools.srvs),
                min_lod: self.rng.f32(),
            },
            // The present wait, and GDS (R-FX-4) and constant RAM (R-FX-5) beside it.
            41 => match self.rng.below(6) {
                0 => Method::SetGdsRange {
                    stage,
                    offset: self.rng.u64(),
                    size: self.rng.u64(),
                },
                1 => Method::WriteGds {
                    offset: self.rng.u64(),
                    values: (0..1 + self.rng.below(4)).map(|_| self.rng.u64()).collect(),
                },
                2 => Method::ReadGds {
                    offset: self.rng.u64(),
                    count: self.rng.u64(),
                    destination: self.rng.pick(&buffers),
                    destination_offset: self.rng.u64(),
                },
                3 => Method::LoadConstantRam {
                    buffer: self.rng.pick(&buffers),
                    buffer_offset: self.rng.u64(),
                    ram_offset: self.rng.u64(),
                    bytes: self.rng.u64(),
                },
                4 => Method::StoreConstantRam {
                    buffer: self.rng.pick(&buffers),
                    buffer_offset: self.rng.u64(),
                    ram_offset: self.rng.u64(),
                    bytes: self.rng.u64(),
                },
                _ => Method::InsertWaitOnPresent {
                    swapchain: self.rng.pick(&self.pools.swapchains),
                },
            },
            42 | 43 => {
                let fence = if self.pools.fences.is_empty() || self.rng.coin() {
                    let fence = self.fresh("fence");
                    self.pools.fences.push(fence.clone());
                    fence
                } else {
                    self.rng.pick(&self.pools.fences)
                };
                let engine = self.rng.option(|r| r.pick(Engine::ALL));
                if self.rng.coin() {
                    Method::InsertFence {
                        fence,
                        engine,
                        kick_off: self.rng.coin(),
                    }
                } else {
                    Method::InsertWaitOnFence { fence, engine }
                }
            }
            44 if !self.pools.bundles.is_empty() => Method::DrawBundle {
                bundle: self.rng.pick(&self.pools.bundles),
            },
            45 => Method::RemapConstantBufferInheritance(self.remap()),
            46 => Method::RemapShaderResourceInheritance(self.remap()),
            47 => Method::RemapSamplerInheritance(self.remap()),
            48 => Method::RemapVertexBufferInheritance {
                slot: self.rng.u64(),
                inherit_slot: self.rng.u64(),
            },
            49 | 50 => match context {
                CallContext::BundleRecorder(recorder) => {
                    if !self.pools.bundles.contains(recorder) {
                        self.pools.bundles.push(recorder.clone());
                    }
                    Method::FinishBundle
                }
                // On `imm` too: it parses, and the replay refuses it.
                CallContext::Deferred(_) | CallContext::Immediate => {
                    let list = self.fresh("list");
                    self.pools.lists.push(list.clone());
                    Method::FinishCommandList {
                        list,
                        restore: self.rng.option(Rng::coin),
                    }
                }
            },
            51 if !self.pools.lists.is_empty() => Method::Execute {
                list: self.rng.pick(&self.pools.lists),
                restore: self.rng.option(Rng::coin),
            },
            52 => Method::BeginCommandListExecution,
            53 => Method::EndCommandListExecution,
            54 => Method::Present {
                swapchain: self.rng.pick(&self.pools.swapchains),
            },
            55 => Method::Resume,
            56 => Method::Barrier((0..1 + self.rng.below(4)).map(|_| self.barrier()).collect()),
            57 => Method::ResourceBarrier(self.legacy_barrier()),
            58 => Method::Write {
                resource: self.resource(),
                offset: self.rng.u64(),
                bytes: (0..1 + self.rng.below(9))
                    .map(|_| self.rng.next() as u8)
                    .collect(),
            },
            // R-FX-6 context state
            59 => match self.pools.context_states.is_empty() || self.rng.coin() {
                true => {
                    let state = self.fresh("state");
                    self.pools.context_states.push(state.clone());
                    Method::CreateDeviceContextState { state }
                }
                false => Method::SwapDeviceContextState {
                    state: self.rng.pick(&self.pools.context_states),
                },
            },
            // R-EX-7: any view parses (the engine refuses one of no back buffer).
            60 if !rtvs.is_empty() || !self.pools.srvs.is_empty() => Method::PlaceSwapChainView {
                view: match rtvs.is_empty() || (!self.pools.srvs.is_empty() && self.rng.coin()) {
                    true => self.rng.pick(&self.pools.srvs),
                    false => self.rng.pick(&rtvs),
                },
                index: self.rng.u64(),
            },
            _ => return None,
        })
    }
}
