//! The picture, an SVG written by hand: one row per scenario and semantics (legacy above fast),
//! on the left a bar of the split points recorded per frame stacked by category (a legend
//! names the categories' colours), on the right a bar of the execute time; both panels with
//! their axis values and grid lines, every bar with its number at its end and a tooltip. The
//! split points' axis is logarithmic (`log10(1 + n)`): scenarios differ by orders of
//! magnitude, and a linear axis would leave the small ones invisible; a bar's categories share
//! its length in proportion to their counts.

use std::fmt::Write as _;

use recorder::{Semantics, SplitCategory};

use super::drive::Measurement;

/// One colour per category, in [`SplitCategory::ALL`]'s order (Tableau 10).
const COLOURS: [&str; SplitCategory::COUNT] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];
const WIDTH: f64 = 1200.0;
const LABELS: f64 = 230.0;
const SPLIT_X: f64 = 250.0;
const SPLIT_W: f64 = 540.0;
const TIME_X: f64 = 850.0;
const TIME_W: f64 = 290.0;
const ROW: f64 = 20.0;
const BAR: f64 = 14.0;
const GAP: f64 = 10.0;

/// `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A linear axis from 0 to a round number at or above `max`, in about five steps: its ticks
/// and labels, and where a value lies on it (0 to 1).
struct Axis {
    ticks: Vec<(f64, String)>,
    scale: Scale,
}

#[derive(Clone, Copy)]
enum Scale {
    /// Linear up to this end.
    Linear(f64),
    /// `log10(1 + v)`, up to this end.
    Log(f64),
}

impl Axis {
    fn linear(max: f64) -> Self {
        if max <= 0.0 {
            return Self {
                ticks: vec![(0.0, "0".into()), (1.0, "1".into())],
                scale: Scale::Linear(1.0),
            };
        }
        let raw = max / 5.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .find(|&s| s >= raw)
            .unwrap_or(10.0 * magnitude);
        let end = (max / step).ceil() * step;
        let decimals = match step >= 1.0 {
            true => 0,
            false => (-step.log10().floor()) as usize,
        };
        let ticks = (0..)
            .map(|k| k as f64 * step)
            .take_while(|v| *v <= end + step / 2.0)
            .map(|v| (v, format!("{v:.decimals$}")))
            .collect();
        Self {
            ticks,
            scale: Scale::Linear(end),
        }
    }

    /// 0, 1, 10, 100, ... up to the first of 1, 2 or 5 times a power of ten at or above `max`
    /// (its end, a tick too): counts that span orders of magnitude (a frame's 2 split points
    /// beside another's 10,000) all stay visible.
    fn log(max: f64) -> Self {
        let max = max.max(1.0);
        let magnitude = 10f64.powf(max.log10().floor());
        let end = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .find(|&e| e >= max)
            .unwrap_or(10.0 * magnitude);
        let mut ticks = vec![(0.0, "0".to_string())];
        let mut v = 1.0;
        // A power of ten too close to the end (10,000 beside 20,000) would overwrite its label.
        while v < end && (1.0 + end).log10() - (1.0 + v).log10() > 0.5 {
            ticks.push((v, format!("{v:.0}")));
            v *= 10.0;
        }
        ticks.push((end, format!("{end:.0}")));
        Self {
            ticks,
            scale: Scale::Log(end),
        }
    }

    /// Where `value` lies, from 0 (the axis's start) to 1 (its end).
    fn at(&self, value: f64) -> f64 {
        match self.scale {
            Scale::Linear(end) => value / end,
            Scale::Log(end) => (1.0 + value).log10() / (1.0 + end).log10(),
        }
    }

    /// The grid lines and axis values of a panel at `x` of width `w`, from `top` to `bottom`,
    /// and its unit under it.
    fn draw(&self, out: &mut String, x: f64, w: f64, top: f64, bottom: f64, unit: &str) {
        for (value, label) in &self.ticks {
            let at = x + w * self.at(*value);
            let _ = writeln!(
                out,
                r##"<line x1="{at:.1}" y1="{top:.1}" x2="{at:.1}" y2="{bottom:.1}" stroke="#dddddd"/>"##
            );
            for y in [top - 4.0, bottom + 14.0] {
                let _ = writeln!(
                    out,
                    r#"<text x="{at:.1}" y="{y:.1}" text-anchor="middle" class="tick">{label}</text>"#
                );
            }
        }
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="tick">{}</text>"#,
            x + w / 2.0,
            bottom + 30.0,
            escape(unit)
        );
    }
}

/// The picture of `measurements` (in report order); `subtitle` says how they were made.
pub fn svg(measurements: &[Measurement], subtitle: &str) -> String {
    let legend_rows = SplitCategory::COUNT.div_ceil(5);
    let legend_top = 64.0;
    let header = legend_top + legend_rows as f64 * 20.0 + 36.0;
    let top = header + 18.0;
    // Rows: a scenario's semantics together, a gap between scenarios.
    let mut rows = Vec::with_capacity(measurements.len());
    let mut y = top + 4.0;
    for (k, m) in measurements.iter().enumerate() {
        if k > 0 && measurements[k - 1].scenario != m.scenario {
            y += GAP;
        }
        rows.push(y);
        y += ROW;
    }
    let bottom = y + 2.0;
    let height = bottom + 48.0;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" viewBox="0 0 {WIDTH} {height:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        out,
        "<style>.title{{font-size:18px;font-weight:bold}} .sub{{font-size:12px;fill:#444}} \
         .tick{{font-size:11px;fill:#555}} .label{{font-size:12px}} .sem{{font-size:11px;fill:#555}} \
         .value{{font-size:11px}} .head{{font-size:13px;font-weight:bold}}</style>"
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="20" y="28" class="title">Split points and execute time per frame, by scenario and semantics</text>"#
    );
    let _ = writeln!(
        out,
        r#"<text x="20" y="48" class="sub">{}</text>"#,
        escape(subtitle)
    );
    for (k, category) in SplitCategory::ALL.into_iter().enumerate() {
        let x = 20.0 + (k % 5) as f64 * 230.0;
        let y = legend_top + (k / 5) as f64 * 20.0;
        let _ = writeln!(
            out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="14" height="14" fill="{}"/><text x="{:.1}" y="{:.1}" class="label">{}</text>"#,
            COLOURS[k],
            x + 20.0,
            y + 12.0,
            category.name()
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{SPLIT_X}" y="{:.1}" class="head">split points recorded per frame, by category</text>"#,
        header - 8.0
    );
    let _ = writeln!(
        out,
        r#"<text x="{TIME_X}" y="{:.1}" class="head">execute time per frame (median)</text>"#,
        header - 8.0
    );

    let max_split = measurements
        .iter()
        .map(|m| m.counts.recorded.total() as f64)
        .fold(0.0, f64::max);
    let max_time = measurements
        .iter()
        .map(|m| m.execute.as_secs_f64() * 1e3)
        .fold(0.0, f64::max);
    let split_axis = Axis::log(max_split);
    split_axis.draw(
        &mut out,
        SPLIT_X,
        SPLIT_W,
        top,
        bottom,
        "split points (log scale: a bar's categories share its length in proportion)",
    );
    let time_axis = Axis::linear(max_time);
    time_axis.draw(&mut out, TIME_X, TIME_W, top, bottom, "milliseconds");

    for (k, (m, &y)) in measurements.iter().zip(&rows).enumerate() {
        let first = k == 0 || measurements[k - 1].scenario != m.scenario;
        row(&mut out, m, y, first, &split_axis, &time_axis);
    }
    for x in [SPLIT_X, TIME_X] {
        let _ = writeln!(
            out,
            r##"<line x1="{x}" y1="{top:.1}" x2="{x}" y2="{bottom:.1}" stroke="#333333"/>"##
        );
    }
    out.push_str("</svg>\n");
    out
}

/// One measurement's row at height `y`: the scenario's name on its `first` row, the semantics,
/// the stacked split points by category and the execute time.
fn row(
    out: &mut String,
    m: &Measurement,
    y: f64,
    first: bool,
    split_axis: &Axis,
    time_axis: &Axis,
) {
    if first {
        let _ = writeln!(
            out,
            r#"<text x="20" y="{:.1}" class="label">{}</text>"#,
            y + BAR - 2.0,
            escape(m.scenario)
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{LABELS}" y="{:.1}" text-anchor="end" class="sem">{}</text>"#,
        y + BAR - 3.0,
        m.semantics.name()
    );
    // The stacked split points.
    let total = m.counts.recorded.total();
    let length = SPLIT_W * split_axis.at(total as f64);
    let mut x = SPLIT_X;
    for (k, category) in SplitCategory::ALL.into_iter().enumerate() {
        let n = m.counts.recorded[category];
        if n == 0 {
            continue;
        }
        let w = length * n as f64 / total as f64;
        let _ = writeln!(
            out,
            r#"<rect x="{x:.2}" y="{y:.1}" width="{w:.2}" height="{BAR}" fill="{}"><title>{} {}: {n} {}</title></rect>"#,
            COLOURS[k],
            escape(m.scenario),
            m.semantics.name(),
            category.name()
        );
        x += w;
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" class="value">{}</text>"#,
        x + 4.0,
        y + BAR - 3.0,
        total
    );
    // The execute time.
    let time = m.execute.as_secs_f64() * 1e3;
    let w = TIME_W * time_axis.at(time);
    let fill = match m.semantics {
        Semantics::Legacy => "#5b6770",
        Semantics::Fast => "#a9b4bc",
    };
    let _ = writeln!(
        out,
        r#"<rect x="{TIME_X}" y="{y:.1}" width="{w:.2}" height="{BAR}" fill="{fill}"><title>{} {}: execute {time:.3} ms</title></rect>"#,
        escape(m.scenario),
        m.semantics.name()
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" class="value">{time:.3}</text>"#,
        TIME_X + w + 4.0,
        y + BAR - 3.0
    );
}
