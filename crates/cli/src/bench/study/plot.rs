//! The study's figures (SVG, drawn with `plotters`): for each backend and semiring a
//! performance profile (the share of matrices on which a selector's choice, or a format
//! alone, is within a factor `x` of the fastest variant) and the time of each format on each
//! matrix relative to the fastest.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;

use super::table::{Case, Measured, cases, selectors};
use crate::error::{CliError, Res};

/// The font text is measured with (`DejaVu` Sans, Bitstream Vera licence: `assets/`); the SVG
/// names the family `sans-serif`, so a viewer draws it with its own.
static FONT: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // A font that fails to load leaves text unmeasured; plotting then reports the error.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

fn err<E: std::fmt::Display>(what: &Path) -> impl Fn(E) -> CliError + '_ {
    move |e| CliError(format!("{}: {e}", what.display()))
}

const COLORS: [RGBColor; 8] = [
    RGBColor(0, 0, 0),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// Writes both figures of every (backend, semiring) group with at least 3 matrices into `dir`.
pub(crate) fn draw_all(dir: &Path, rows: &[Measured]) -> Res<()> {
    register_font();
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    for ((backend, semiring), cs) in cases(rows) {
        if cs.len() < 3 {
            continue;
        }
        let stem = format!("{backend}-{semiring}");
        profile(
            &dir.join(format!("profile-{stem}.svg")),
            &backend,
            &semiring,
            &cs,
        )?;
        per_matrix(
            &dir.join(format!("times-{stem}.svg")),
            &backend,
            &semiring,
            &cs,
        )?;
    }
    Ok(())
}

/// The performance profile: x from 1 to 8 (log scale), y the share of matrices.
fn profile(path: &Path, backend: &str, semiring: &str, cs: &[Case]) -> Res<()> {
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{backend} {semiring}: share of {} matrices within x of the fastest",
                cs.len()
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((1f64..8f64).log_scale(), 0f64..1.02f64)
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .x_desc("x = chosen time / fastest time")
        .y_desc("share of matrices")
        .draw()
        .map_err(err(path))?;
    for (k, sel) in selectors().iter().enumerate() {
        let ratios: Vec<f64> = cs
            .iter()
            .map(|c| {
                let best = c.best().map_or(f64::NAN, |b| b.1);
                let pick = (sel.choose)(&c.features, backend);
                c.times.get(&pick).map_or(f64::INFINITY, |t| t / best)
            })
            .collect();
        let pts: Vec<(f64, f64)> = (0..=120)
            .map(|i| {
                let x = 8f64.powf(i as f64 / 120.0);
                let share = ratios.iter().filter(|&&r| r <= x * (1.0 + 1e-9)).count() as f64
                    / ratios.len() as f64;
                (x, share)
            })
            .collect();
        let color = COLORS[k % COLORS.len()];
        let width = if k == 0 { 3 } else { 1 };
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(width)))
            .map_err(err(path))?
            .label(sel.name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(width))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(())
}

/// Each format's time on each matrix over the fastest variant's (log scale); CSR is its
/// fastest kernel; a ring marks the automatic choice.
fn per_matrix(path: &Path, backend: &str, semiring: &str, cs: &[Case]) -> Res<()> {
    let mut order: Vec<&Case> = cs.iter().collect();
    order.sort_by(|a, b| (&a.structure, &a.matrix).cmp(&(&b.structure, &b.matrix)));
    let families = ["csr", "ell", "dia", "coo", "hyb", "dense"];
    let family_time = |c: &Case, fam: &str| -> Option<f64> {
        c.times
            .iter()
            .filter(|(v, _)| v.as_str() == fam || v.starts_with(&format!("{fam}/")))
            .map(|(_, &t)| t)
            .min_by(f64::total_cmp)
    };
    let root = SVGBackend::new(path, (1100, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(err(path))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{backend} {semiring}: time of each format over the fastest variant"),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(170)
        .y_label_area_size(50)
        .build_cartesian_2d(
            -0.5f64..order.len() as f64 - 0.5,
            (0.8f64..100f64).log_scale(),
        )
        .map_err(err(path))?;
    chart
        .configure_mesh()
        .x_labels(0)
        .y_desc("time / fastest (capped at 100)")
        .draw()
        .map_err(err(path))?;
    // Matrix names under the axis, reading downwards from each tick.
    let style = ("sans-serif", 11)
        .into_font()
        .transform(FontTransform::Rotate90)
        .color(&BLACK);
    for (i, c) in order.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, 0.8));
        root.draw(&Text::new(
            c.matrix.clone(),
            (px + 5, py + 6),
            style.clone(),
        ))
        .map_err(err(path))?;
    }
    for (k, fam) in families.iter().enumerate() {
        let color = COLORS[(k + 1) % COLORS.len()];
        let pts: Vec<(f64, f64)> = order
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let best = c.best()?.1;
                family_time(c, fam).map(|t| (i as f64, (t / best).min(99.0)))
            })
            .collect();
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
            .map_err(err(path))?
            .label(*fam)
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
    }
    let auto = &selectors()[0];
    let picks: Vec<(f64, f64)> = order
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let best = c.best()?.1;
            let t = c.times.get(&(auto.choose)(&c.features, backend))?;
            Some((i as f64, (t / best).min(99.0)))
        })
        .collect();
    chart
        .draw_series(
            picks
                .iter()
                .map(|&p| Circle::new(p, 8, BLACK.stroke_width(2))),
        )
        .map_err(err(path))?
        .label("automatic choice")
        .legend(|(x, y)| Circle::new((x + 10, y), 6, BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err(path))?;
    root.present().map_err(err(path))?;
    Ok(())
}
