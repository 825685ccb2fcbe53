//! Helpers the reader tests share.

use std::path::PathBuf;

use semigraph_formats::EdgeList;

/// A fresh path `name` in this process's temporary directory for the test file `tag`.
pub fn tmp(tag: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("semigraph-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// The arcs as `(source label, target label, weight)`, sorted: what a file holds whatever
/// the order it lists them in.
pub fn sorted_arcs(g: &EdgeList) -> Vec<(i64, i64, Option<String>)> {
    let mut v: Vec<_> = (0..g.len())
        .map(|k| {
            (
                g.vertex_label(g.src[k] as usize),
                g.vertex_label(g.dst[k] as usize),
                g.weights.get(k).map(|w| w.to_string()),
            )
        })
        .collect();
    v.sort();
    v
}
