//! R-FX-6: the trace syntax of device context state objects (docs/TRACE.md):
//! `CTX create_device_context_state STATE` and `CTX swap_device_context_state STATE`, parsed,
//! printed back, and replayed alike in the three modes (plain, `--compare`, `--threads 2`).

use trace::{parse, replay, CallContext, Method, Name, Replay, ReplayOptions, Statement};

fn run(trace: &str, options: &ReplayOptions) -> Replay {
    replay(trace.as_bytes(), options)
}

fn plain() -> ReplayOptions {
    ReplayOptions::default()
}

fn compare() -> ReplayOptions {
    ReplayOptions {
        compare: true,
        ..ReplayOptions::default()
    }
}

fn threads(n: usize) -> ReplayOptions {
    ReplayOptions {
        threads: n,
        ..ReplayOptions::default()
    }
}

/// Runs `trace` in the three modes: every expectation holds, the reference finds every record
/// identical, and the threaded run prints what the plain one prints.
fn holds_in_the_three_modes(trace: &str) -> Replay {
    let single = run(trace, &plain());
    assert_eq!(single.exit_code, 0, "{}{}", single.stdout, single.stderr);
    let compared = run(trace, &compare());
    assert_eq!(
        compared.exit_code, 0,
        "{}{}",
        compared.stdout, compared.stderr
    );
    assert!(
        compared.stdout.contains("identical to the reference"),
        "{}",
        compared.stdout
    );
    for _ in 0..3 {
        assert_eq!(run(trace, &threads(2)), single);
    }
    single
}

const OBJECTS: &str = "device semantics=legacy\n\
    buffer vb usage=default bind=vertex size=1024\n\
    buffer cb_a usage=default bind=constant size=256\n\
    buffer cb_b usage=default bind=constant size=256\n\
    buffer cb_dyn usage=dynamic bind=constant size=256\n\
    shader vs0 stage=vs cb=0\n\
    shader vs1 stage=vs cb=0\n\
    shader ps0 stage=ps\n\
    input_layout layout vb=0\n";

#[test]
fn r_fx_6_context_state_trace_round_trip() {
    let text = "device semantics=legacy\n\
                context dc semantics=legacy\n\
                dc create_device_context_state st\n\
                dc swap_device_context_state st\n\
                imm create_device_context_state st.imm\n\
                imm swap_device_context_state st\n\
                release st\n";
    let trace = parse(text.as_bytes()).unwrap_or_else(|error| panic!("{error}"));
    let calls: Vec<_> = trace
        .statements()
        .filter_map(|statement| match statement {
            Statement::Call(call) => Some((call.context.clone(), call.method.clone())),
            _ => None,
        })
        .collect();
    let name = |text: &str| Name::new(text).unwrap();
    let dc = CallContext::Deferred(name("dc"));
    assert_eq!(
        calls,
        [
            (
                dc.clone(),
                Method::CreateDeviceContextState { state: name("st") }
            ),
            (dc, Method::SwapDeviceContextState { state: name("st") }),
            (
                CallContext::Immediate,
                Method::CreateDeviceContextState {
                    state: name("st.imm")
                }
            ),
            (
                CallContext::Immediate,
                Method::SwapDeviceContextState { state: name("st") }
            ),
        ]
    );
    let printed = trace.to_string();
    assert!(
        printed.contains("dc create_device_context_state st\n"),
        "{printed}"
    );
    assert!(
        printed.contains("imm swap_device_context_state st\n"),
        "{printed}"
    );
    let again = parse(printed.as_bytes()).unwrap_or_else(|error| panic!("{error}"));
    assert!(trace.statements().eq(again.statements()));
    assert_eq!(again.to_string(), printed);
}

#[test]
fn r_fx_6_context_state_trace_malformed_names_the_rule() {
    let prelude = "device semantics=legacy\ncontext dc semantics=legacy\nbuffer b usage=default bind=constant size=16\n";
    for (body, says) in [
        ("dc swap_device_context_state st\n", "st"),
        ("dc swap_device_context_state b\n", "device context state"),
        (
            "dc create_device_context_state st\ndc create_device_context_state st\n",
            "st",
        ),
        ("dc create_device_context_state b\n", "b"),
        ("dc create_device_context_state\n", "device context state"),
        (
            "dc create_device_context_state st\nrelease st\ndc swap_device_context_state st\n",
            "released",
        ),
    ] {
        let trace = format!("{prelude}{body}");
        let result = run(&trace, &plain());
        assert_eq!(result.exit_code, 2, "{trace}: {}", result.stdout);
        assert!(result.stderr.starts_with("trace:"), "{}", result.stderr);
        assert!(result.stderr.contains(says), "{trace}: {}", result.stderr);
    }
}

/// The swap activates its object (R-FX-6, D3D11.1): imm's state goes into the active object, the
/// given one's saved state comes back; the reference of `--compare` is exact, and not blind to
/// the swap (without the swap the records differ).
#[test]
fn r_fx_6_context_state_swap_activates_and_compares_exact() {
    let trace = format!(
        "{OBJECTS}\
         imm create_device_context_state st\n\
         imm set_input_layout layout\n\
         imm set_vertex_buffers 0 vb\n\
         imm vs_set_shader vs0\n\
         imm vs_set_constant_buffers 0 cb_a\n\
         imm swap_device_context_state st\n\
         imm set_input_layout layout\n\
         imm set_vertex_buffers 0 vb\n\
         imm draw 3 0\n\
         imm vs_set_shader vs1\n\
         imm vs_set_constant_buffers 0 cb_dyn\n\
         imm map cb_dyn write_discard\n\
         imm unmap cb_dyn\n\
         imm draw 3 0\n\
         imm swap_device_context_state st\n\
         imm draw 3 0\n\
         expect ok\n\
         expect draw 0 vs null\n\
         expect draw 1 vs vs1\n\
         expect draw 1 vs.cb.0 cb_dyn#1\n\
         expect draw 2 vs vs1\n"
    );
    holds_in_the_three_modes(&trace);
    let with_default = trace.replace(
        "imm create_device_context_state st\n",
        "imm create_device_context_state st\nimm create_device_context_state other\n",
    );
    // Through another object and back: st's saved state (vs1, cb_dyn) returns.
    let through = with_default.replacen(
        "imm swap_device_context_state st\nimm draw 3 0\nexpect ok",
        "imm swap_device_context_state other\nimm swap_device_context_state st\nimm draw 3 0\nexpect ok",
        1,
    );
    holds_in_the_three_modes(&through);
    // Without the first swap vs0 stays bound: the reference sees the difference.
    let without = trace.replacen(
        "imm vs_set_constant_buffers 0 cb_a\n\
         imm swap_device_context_state st\n",
        "imm vs_set_constant_buffers 0 cb_a\n",
        1,
    );
    // vs0 stays for the first draw; the swap before the last draw then activates st, whose
    // defaults come.
    let without = without.replace("expect draw 0 vs null\n", "expect draw 0 vs vs0\n");
    let without = without.replace("expect draw 2 vs vs1\n", "expect draw 2 vs null\n");
    holds_in_the_three_modes(&without);
}

/// Several objects swapped in round robin on imm, between the binds of deferred contexts' lists:
/// every mode agrees (under `--threads` the live run makes the swaps on the main thread once
/// every worker is idle).
#[test]
fn r_fx_6_context_state_objects_in_round_robin_are_exact_in_every_mode() {
    let mut trace = OBJECTS.to_string();
    trace += "context a semantics=legacy\n";
    for state in ["s0", "s1", "s2"] {
        trace += &format!("imm create_device_context_state {state}\n");
    }
    trace += "imm set_input_layout layout\nimm set_vertex_buffers 0 vb\n";
    for (round, (shader, cb)) in [("vs0", "cb_a"), ("vs1", "cb_b"), ("vs0", "cb_dyn")]
        .into_iter()
        .enumerate()
    {
        for state in ["s0", "s1", "s2"] {
            trace += &format!(
                "imm swap_device_context_state {state}\n\
                 imm draw 3 0\n\
                 a vs_set_shader {shader}\n\
                 a draw 3 0\n"
            );
            if round == 0 {
                trace += &format!(
                    "imm set_input_layout layout\n\
                     imm set_vertex_buffers 0 vb\n\
                     imm vs_set_shader {shader}\n\
                     imm vs_set_constant_buffers 0 {cb}\n"
                );
            }
        }
    }
    trace += "a finish list_a\nimm execute list_a restore=yes\nimm draw 3 0\nexpect ok\n";
    let result = holds_in_the_three_modes(&trace);
    assert!(result.stdout.contains("draws=19"), "{}", result.stdout);
}

#[test]
fn r_fx_6_context_state_refused_on_fast_context_in_trace() {
    let trace = format!(
        "{}\
         context quick semantics=fast\n\
         context dc semantics=legacy\n\
         bundle bun rt=none\n\
         dc create_device_context_state st\n\
         quick create_device_context_state st_quick\n\
         expect error quick forbidden_in_fast\n\
         # Creating reports its own result: the list is not poisoned.\n\
         quick vs_set_shader vs0\n\
         quick draw 3 0\n\
         quick finish list_quick\n\
         expect accepted quick\n\
         # A deferred context has no swap: refused, reporting itself (nothing poisoned).\n\
         quick swap_device_context_state st\n\
         expect error quick invalid_argument\n\
         dc swap_device_context_state st\n\
         expect error dc invalid_argument\n\
         quick finish list_refused\n\
         expect accepted quick\n\
         imm create_device_context_state st_imm\n\
         expect error imm forbidden_in_fast\n\
         imm swap_device_context_state st\n\
         expect error imm forbidden_in_fast\n\
         bun create_device_context_state st_bundle\n\
         expect error bun unsupported_in_bundle\n\
         bun swap_device_context_state st\n\
         expect error bun unsupported_in_bundle\n\
         # A state whose creation was refused is not there to swap.\n\
         dc swap_device_context_state st_quick\n\
         expect error dc invalid_argument\n\
         imm execute list_quick\n\
         expect draw 0 vs vs0\n",
        OBJECTS.replace("semantics=legacy", "semantics=fast")
    );
    holds_in_the_three_modes(&trace);
}

/// A small deterministic generator (xorshift): legacy traces that create and swap state objects
/// on three deferred contexts and `imm`, between binds, draws, resets, maps of a dynamic buffer,
/// minimum-LOD changes, finishes with either restore flag and executions (nested included).
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn trace(&mut self) -> String {
        let mut out = String::from(
            "device semantics=legacy\n\
             buffer vb usage=default bind=vertex size=1024\n\
             buffer cb_a usage=default bind=constant size=256\n\
             buffer cb_b usage=default bind=constant size=256\n\
             buffer cb_dyn usage=dynamic bind=constant size=256\n\
             texture tex format=r8g8b8a8_unorm width=16 height=16 mips=4 bind=shader_resource\n\
             srv view tex\n\
             shader vs0 stage=vs cb=0 srv=0\n\
             shader vs1 stage=vs cb=0 srv=0\n\
             input_layout layout vb=0\n\
             context c0 semantics=legacy\n\
             context c1 semantics=legacy\n\
             context c2 semantics=legacy\n",
        );
        let (mut states, mut lists) = (Vec::new(), Vec::new());
        for n in 0..10 + self.below(50) {
            let ctx = self.pick(&["c0", "c1", "c2", "imm", "imm"]);
            let line = match self.below(16) {
                0 => {
                    states.push(format!("s{n}"));
                    format!("create_device_context_state s{n}")
                }
                1..=3 if !states.is_empty() => {
                    let state = &states[self.below(states.len())];
                    format!("swap_device_context_state {state}")
                }
                4 => format!("vs_set_shader {}", self.pick(&["vs0", "vs1", "null"])),
                5 => format!(
                    "vs_set_constant_buffers 0 {}",
                    self.pick(&["cb_a", "cb_b", "cb_dyn", "null"])
                ),
                6 => format!("set_input_layout layout\n{ctx} set_vertex_buffers 0 vb"),
                7 | 8 => "draw 3 0".to_string(),
                9 => "clear_state".to_string(),
                10 if ctx != "imm" => {
                    lists.push(format!("l{n}"));
                    format!("finish l{n} restore={}", self.pick(&["yes", "no"]))
                }
                11 if !lists.is_empty() => {
                    let list = &lists[self.below(lists.len())];
                    format!("execute {list} restore={}", self.pick(&["yes", "no"]))
                }
                12 => format!("map cb_dyn write_discard\n{ctx} unmap cb_dyn"),
                13 => format!(
                    "set_fast_resources vs.srv.0=view vs.cb.0={}",
                    self.pick(&["cb_a", "cb_b"])
                ),
                14 => "vs_set_shader_resources 0 view".to_string(),
                _ => format!("set_resource_min_lod tex {}", self.pick(&["0", "1", "2.5"])),
            };
            out += &format!("{ctx} {line}\n");
        }
        out
    }
}

#[test]
fn r_fx_6_context_state_generated_traces_are_exact_in_the_three_modes() {
    let mut gen = Gen(0x5eed_c0de_0f00_0006);
    for _ in 0..40 {
        let trace = gen.trace();
        let single = run(&trace, &plain());
        assert_ne!(single.exit_code, 2, "{trace}{}", single.stderr);
        let compared = run(&trace, &compare());
        assert!(
            compared.stdout.contains("identical to the reference"),
            "{trace}{}",
            compared.stdout
        );
        assert_eq!(run(&trace, &threads(2)), single, "{trace}");
    }
}
