//! What `semigraph generate` (and the benches' `--generate`, and corpus manifests) make.

use clap::{Args, Parser, ValueEnum};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenKind {
    /// A road-like grid (--rows, --cols), integer weights.
    Grid,
    /// A Graph500 Kronecker graph (--scale, --edge-factor).
    Kronecker,
    /// A uniform random graph (--scale, --edge-factor as the degree).
    Urand,
    /// A path of --n vertices.
    Path,
    /// A star of --n vertices.
    Star,
    /// A complete digraph of --n vertices.
    Complete,
    /// A stencil matrix on a grid of --dims (2-D: --points 5 or 9; 3-D: 7 or 27).
    Stencil,
    /// An --n x --n banded matrix: the diagonal and positions within --bandwidth of it with
    /// probability --density.
    Banded,
    /// A triangle mesh on --rows x --cols points (7 entries per inner row); --shuffle numbers
    /// the points at random.
    Mesh,
    /// A Chung-Lu power-law graph: --n vertices, --edge-factor arcs per vertex, degree
    /// exponent --exponent.
    ChungLu,
    /// A rectangular --rows x --cols random matrix, --edge-factor entries per row.
    Bipartite,
    /// --blocks square blocks of --block-size on the diagonal, entries with probability
    /// --density.
    BlockDiagonal,
}

/// A generator and its arguments as one line of a corpus manifest (`stencil --dims 1000x1000`).
#[derive(Parser)]
#[command(no_binary_name = true)]
pub struct GenLine {
    /// What to generate.
    #[arg(value_enum)]
    pub kind: GenKind,
    #[command(flatten)]
    pub args: GenArgs,
}

/// The size, weights and seed of a generated graph.
#[derive(Args, Clone, Debug)]
pub struct GenArgs {
    /// Grid rows.
    #[arg(long, default_value_t = 100)]
    pub rows: usize,
    /// Grid columns.
    #[arg(long, default_value_t = 100)]
    pub cols: usize,
    /// log2 of the vertex count (kronecker, urand).
    #[arg(long, default_value_t = 16)]
    pub scale: u32,
    /// Arcs per vertex (kronecker, urand).
    #[arg(long, default_value_t = 16)]
    pub edge_factor: u32,
    /// Vertices (path, star, complete).
    #[arg(long, default_value_t = 100)]
    pub n: usize,
    /// Grid sizes of a stencil, e.g. 1000x1000 or 100x100x100.
    #[arg(long, default_value = "100x100")]
    pub dims: String,
    /// Points of a stencil: 5 or 9 (2-D), 7 or 27 (3-D).
    #[arg(long, default_value_t = 5)]
    pub points: usize,
    /// Half-width of a band (banded).
    #[arg(long, default_value_t = 8)]
    pub bandwidth: usize,
    /// Probability of an entry (banded, block-diagonal).
    #[arg(long, default_value_t = 1.0)]
    pub density: f64,
    /// Degree exponent (chung-lu), above 1.
    #[arg(long, default_value_t = 2.5)]
    pub exponent: f64,
    /// Kronecker quadrant probabilities a,b,c (Graph500: 0.57,0.19,0.19).
    #[arg(long, default_value = "0.57,0.19,0.19")]
    pub abc: String,
    /// Number the points of a mesh at random.
    #[arg(long)]
    pub shuffle: bool,
    /// Diagonal blocks (block-diagonal).
    #[arg(long, default_value_t = 100)]
    pub blocks: usize,
    /// Size of each diagonal block (block-diagonal).
    #[arg(long, default_value_t = 64)]
    pub block_size: usize,
    /// Integer weights drawn from LO..=HI ("unit" for none on generated graphs).
    #[arg(long, default_value = "1..100")]
    pub weights: String,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}
