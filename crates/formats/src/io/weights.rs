//! Weights read from text, accumulated exactly in the narrowest type that holds them all.

use super::lines::{append_all, exact_in_f64, parse_f64, parse_int, room_extend, room_kind, show};
use crate::error::ReadErrorKind;

/// Accumulates weights exactly: signed integers (`i64`) while every weight is one, unsigned
/// (`u64`) from the first integer above `i64::MAX` if none is negative, reals (`f64`) from the
/// first weight that is not an integer. An integer no type holds exactly (beyond `u64`, below
/// `i64::MIN`, above `i64::MAX` beside a negative one, or beyond `2^53` beside reals) is an
/// error, never a rounded or wrapped number.
#[derive(Default)]
pub(crate) struct WeightAcc {
    ints: Vec<i64>,
    uints: Option<Vec<u64>>,
    reals: Option<Vec<f64>>,
    /// A negative integer was seen (no unsigned weights then).
    negative: bool,
    /// The first integer that an `f64` does not hold exactly, with its line: an error if the
    /// weights turn out to be reals.
    inexact_real: Option<(u64, i128)>,
    /// The first infinite weight and its line.
    pub(crate) first_nonfinite: Option<(u64, f64)>,
    /// The line of the first weight.
    first_line: Option<u64>,
}

impl WeightAcc {
    /// Adds a weight token from line `line`; `Err` with the reason if it is not a number, is
    /// NaN, or is an integer that no weight type holds exactly.
    pub(crate) fn push(&mut self, tok: &[u8], line: u64) -> Result<(), ReadErrorKind> {
        self.first_line.get_or_insert(line);
        if let Some(v) = parse_int(tok) {
            return self.push_int(tok, v, line);
        }
        let v = parse_f64(tok).ok_or_else(|| ReadErrorKind::BadWeight {
            value: show(tok),
            reason: "not a number".into(),
        })?;
        if v.is_nan() {
            return Err(ReadErrorKind::BadWeight {
                value: show(tok),
                reason: "NaN is not a weight".into(),
            });
        }
        if !v.is_finite() && self.first_nonfinite.is_none() {
            self.first_nonfinite = Some((line, v));
        }
        self.push_real(v)
    }

    /// [`push`](Self::push) of a token already parsed as the integer `v`.
    pub(crate) fn push_integer(
        &mut self,
        tok: &[u8],
        v: i64,
        line: u64,
    ) -> Result<(), ReadErrorKind> {
        self.first_line.get_or_insert(line);
        self.push_int(tok, i128::from(v), line)
    }

    fn push_int(&mut self, tok: &[u8], v: i128, line: u64) -> Result<(), ReadErrorKind> {
        let refuse = |why: &str| ReadErrorKind::BadWeight {
            value: show(tok),
            reason: format!("an integer that {why}; refused rather than rounded"),
        };
        if !exact_in_f64(v) && self.inexact_real.is_none() {
            self.inexact_real = Some((line, v));
        }
        if self.reals.is_some() {
            if !exact_in_f64(v) {
                return Err(refuse(
                    "a real (f64) weight cannot hold exactly, and this file's weights are reals",
                ));
            }
            return self.push_real(v as f64);
        }
        self.negative |= v < 0;
        if let Some(u) = &mut self.uints {
            let x = u64::try_from(v).map_err(|_| {
                refuse("no weight type holds beside the file's integers above i64::MAX (u64)")
            })?;
            room_kind(u)?;
            u.push(x);
            return Ok(());
        }
        if let Ok(x) = i64::try_from(v) {
            room_kind(&mut self.ints)?;
            self.ints.push(x);
            return Ok(());
        }
        if v < 0 || v > u64::MAX as i128 {
            return Err(refuse("fits neither i64 nor u64"));
        }
        if self.negative {
            return Err(refuse(
                "only u64 holds, and the file also has negative weights",
            ));
        }
        let mut u: Vec<u64> = Vec::new();
        u.try_reserve_exact(self.ints.len() + 1)
            .map_err(|_| ReadErrorKind::TooLarge {
                what: format!("{} unsigned weights", self.ints.len() + 1),
                needed: (self.ints.len() as u64 + 1) * 8,
                available: crate::memory::usable().unwrap_or(0),
            })?;
        u.extend(self.ints.drain(..).map(|x| x as u64));
        u.push(v as u64);
        self.ints = Vec::new();
        self.uints = Some(u);
        Ok(())
    }

    /// Appends the weights of `later` (those of the lines after these), as if each had been
    /// pushed here; `Err` with a line and the reason where that would have failed.
    pub(crate) fn append(&mut self, later: WeightAcc) -> Result<(), (u64, ReadErrorKind)> {
        let line = later.first_line.unwrap_or(0);
        self.first_line = self.first_line.or(later.first_line);
        self.first_nonfinite = self.first_nonfinite.or(later.first_nonfinite);
        if let Some(r) = later.reals {
            // `later` checked its own integers when it turned to reals.
            let at = self.inexact_real.map_or(line, |(l, _)| l);
            self.promote().map_err(|k| (at, k))?;
            let reals = self.reals.as_mut().expect("promoted");
            room_extend(reals, &r, "weights").map_err(|k| (line, k))?;
            return Ok(());
        }
        if let Some(u) = later.uints {
            // Rare (integers above i64::MAX): pushed one by one.
            for x in u {
                self.push_int(x.to_string().as_bytes(), x as i128, line)
                    .map_err(|k| (line, k))?;
            }
            return Ok(());
        }
        if let Some(reals) = &mut self.reals {
            if let Some((l, x)) = later.inexact_real {
                return Err((
                    l,
                    ReadErrorKind::BadWeight {
                        value: x.to_string(),
                        reason: "an integer that a real (f64) weight cannot hold exactly, and \
                                 this file's weights are reals; refused rather than rounded"
                            .into(),
                    },
                ));
            }
            let more: Vec<f64> = later.ints.iter().map(|&x| x as f64).collect();
            return room_extend(reals, &more, "weights").map_err(|k| (line, k));
        }
        if let Some(u) = &mut self.uints {
            if later.negative {
                return Err((
                    line,
                    ReadErrorKind::BadWeight {
                        value: "a negative integer".into(),
                        reason: "no weight type holds it beside the file's integers above \
                                 i64::MAX (u64); refused rather than wrapped"
                            .into(),
                    },
                ));
            }
            let more: Vec<u64> = later.ints.iter().map(|&x| x as u64).collect();
            return room_extend(u, &more, "weights").map_err(|k| (line, k));
        }
        self.negative |= later.negative;
        self.inexact_real = self.inexact_real.or(later.inexact_real);
        room_extend(&mut self.ints, &later.ints, "weights").map_err(|k| (line, k))
    }

    /// [`append`](Self::append) of each of `later` in order; where these and all of them
    /// hold integers (`i64`) only, the weights are copied on every core ([`append_all`]).
    pub(crate) fn append_all(&mut self, later: Vec<WeightAcc>) -> Result<(), (u64, ReadErrorKind)> {
        let ints_only = |w: &WeightAcc| w.reals.is_none() && w.uints.is_none();
        if !(ints_only(self) && later.iter().all(ints_only)) {
            return later.into_iter().try_for_each(|w| self.append(w));
        }
        let line = later.iter().find_map(|w| w.first_line).unwrap_or(0);
        let parts: Vec<&[i64]> = later.iter().map(|w| &w.ints[..]).collect();
        append_all(&mut self.ints, &parts, "weights").map_err(|k| (line, k))?;
        // What `append` records of integer weights.
        for w in later {
            self.first_line = self.first_line.or(w.first_line);
            self.first_nonfinite = self.first_nonfinite.or(w.first_nonfinite);
            self.negative |= w.negative;
            self.inexact_real = self.inexact_real.or(w.inexact_real);
        }
        Ok(())
    }

    fn push_real(&mut self, v: f64) -> Result<(), ReadErrorKind> {
        self.promote()?;
        let reals = self.reals.as_mut().expect("set above");
        room_kind(reals)?;
        reals.push(v);
        Ok(())
    }

    /// Turns the weights into reals (from the first real weight on); an error if an integer
    /// so far is not exactly an `f64`.
    fn promote(&mut self) -> Result<(), ReadErrorKind> {
        if self.reals.is_none() {
            if let Some((line, x)) = self.inexact_real {
                return Err(ReadErrorKind::BadWeight {
                    value: x.to_string(),
                    reason: format!(
                        "(line {line}) an integer that a real (f64) weight cannot hold exactly, \
                         and this file's weights are reals; refused rather than rounded"
                    ),
                });
            }
            let ints = std::mem::take(&mut self.ints);
            let uints = self.uints.take().unwrap_or_default();
            let mut r: Vec<f64> = Vec::new();
            let len = ints.len() + uints.len() + 1;
            r.try_reserve_exact(len)
                .map_err(|_| ReadErrorKind::TooLarge {
                    what: format!("{len} real weights"),
                    needed: len as u64 * 8,
                    available: crate::memory::usable().unwrap_or(0),
                })?;
            r.extend(ints.iter().map(|&x| x as f64));
            r.extend(uints.iter().map(|&x| x as f64));
            self.reals = Some(r);
        }
        Ok(())
    }

    pub(crate) fn finish(self, any: bool) -> crate::edgelist::Weights {
        use crate::edgelist::Weights;
        match (any, self.reals, self.uints) {
            (false, _, _) => Weights::None,
            (true, Some(r), _) => Weights::Real(r),
            (true, None, Some(u)) => Weights::UInt(u),
            (true, None, None) => Weights::Int(self.ints),
        }
    }
}
