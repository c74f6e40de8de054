//! `jfrscope diff`: which methods changed between two sets of events, and how sure that is.
//!
//! ```text
//! events of side A, of side B ─ per stack: count ─ per method (total: counted once per stack
//!   that holds it; self: the stack's top frame) ─ counts a, b; shares a/A, b/B; delta;
//!   p-value; score = delta × (1 − p) ─ rows by score
//! ```
//!
//! The statistics are web/src/profile-logic/compare.ts's, formula for formula: under "no change"
//! the a of a + b events under a method in side A are Binomial(a + b, A / (A + B)); the two-sided
//! p-value is twice the smaller tail, at most 1, each tail an exact regularized incomplete beta
//! function: P(X ≤ k) = I_{1-p}(n − k, k + 1), P(X ≥ k) = I_p(k, n − k + 1). Both test suites
//! check it against the exact values of `cli/tests/pvalues.tsv` (`cli/tests/pvalues.py`).

use std::collections::HashMap;

/// Fewer events than this on either side: no table, a note saying so (as the web page does).
pub const MIN_EVENTS: f64 = 20.0;

/// ln Γ(x) for x > 0: Stirling's series after shifting x up to 15 (error below 1e-14).
pub fn ln_gamma(mut x: f64) -> f64 {
    let mut shift = 0.0;
    while x < 15.0 {
        shift += x.ln();
        x += 1.0;
    }
    let x2 = x * x;
    let series = (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - 1.0 / (1680.0 * x2)) / x2) / x2) / x;
    (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + series - shift
}

/// The continued fraction of I_x(a, b) (modified Lentz), good for x < (a + 1) / (a + b + 2).
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let front = (a * x.ln() + b * (-x).ln_1p() - (ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b))).exp() / a;
    // f = 1 + d1 / (1 + d2 / (1 + …)), I = front / f.
    let (mut f, mut c, mut d) = (1.0f64, 1.0f64, 0.0f64);
    for j in 1..1_000_000u32 {
        let m = f64::from(j >> 1);
        let dj = if j & 1 == 1 {
            -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))
        } else {
            (m * (b - m) * x) / ((a + 2.0 * m - 1.0) * (a + 2.0 * m))
        };
        d = 1.0 + dj * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + dj / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let step = c * d;
        f *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front / f
}

/// I_x(a, b) and 1 − I_x(a, b), the smaller computed directly (a far tail keeps its precision).
pub fn beta_incomplete(x: f64, a: f64, b: f64) -> (f64, f64) {
    if x <= 0.0 {
        return (0.0, 1.0);
    }
    if x >= 1.0 {
        return (1.0, 0.0);
    }
    if x < (a + 1.0) / (a + b + 2.0) {
        let v = beta_fraction(x, a, b);
        (v, 1.0 - v)
    } else {
        let w = beta_fraction(1.0 - x, b, a);
        (1.0 - w, w)
    }
}

/// Two-sided p-value of k successes in n trials of probability p: twice the smaller tail, at most 1.
pub fn binomial_test(k: f64, n: f64, p: f64) -> f64 {
    if n <= 0.0 {
        return 1.0;
    }
    if p <= 0.0 {
        return if k == 0.0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let below = if k >= n { 1.0 } else { beta_incomplete(1.0 - p, n - k, k + 1.0).0 };
    let above = if k <= 0.0 { 1.0 } else { beta_incomplete(p, k, n - k + 1.0).0 };
    (2.0 * below.min(above)).min(1.0)
}

/// The p-value of `na` of `total_a` events in A against `nb` of `total_b` in B; NaN when a side is empty.
pub fn count_test(na: f64, total_a: f64, nb: f64, total_b: f64) -> f64 {
    if total_a <= 0.0 || total_b <= 0.0 {
        return f64::NAN;
    }
    let a = na.round();
    binomial_test(a, a + nb.round(), total_a / (total_a + total_b))
}

/// One method's row.
#[derive(Debug, Clone)]
pub struct Row {
    /// The method, as the recording names it (`Class.method`).
    pub name: String,
    pub a: f64,
    pub b: f64,
    pub a_share: f64,
    pub b_share: f64,
    pub delta: f64,
    pub p: f64,
    pub score: f64,
}

/// The call-stack side of the recording a comparison needs: each stack row's frame name and caller.
pub struct StackTable<'a> {
    /// Per stack row: the method's name.
    pub name: Vec<&'a str>,
    /// Per stack row: the caller's row, -1 at the root.
    pub prefix: &'a [i32],
}

/// Per-stack counts of one side; `none` counts events without a usable stack (they weigh in the
/// side's total only).
#[derive(Default)]
pub struct Side {
    pub per_stack: HashMap<i32, f64>,
    pub none: f64,
}

impl Side {
    pub fn total(&self) -> f64 {
        self.per_stack.values().sum::<f64>() + self.none
    }
}

/// Per method: (total, self) counts of one side. Recursion counts a method once per stack.
fn per_method<'a>(st: &StackTable<'a>, side: &Side) -> HashMap<&'a str, (f64, f64)> {
    let mut out: HashMap<&str, (f64, f64)> = HashMap::new();
    let mut seen: Vec<&str> = Vec::new();
    for (&s, &w) in &side.per_stack {
        if s < 0 || s as usize >= st.name.len() || w <= 0.0 {
            continue;
        }
        out.entry(st.name[s as usize]).or_default().1 += w;
        seen.clear();
        let mut q = s;
        // A stack is a chain of callers; bound the walk by the table's size so a bad chain cannot loop.
        let mut steps = 0;
        while q >= 0 && (q as usize) < st.name.len() && steps <= st.name.len() {
            let n = st.name[q as usize];
            if !seen.contains(&n) {
                seen.push(n);
                out.entry(n).or_default().0 += w;
            }
            q = st.prefix[q as usize];
            steps += 1;
        }
    }
    out
}

/// Every method's row, by score (largest rise first), ties by name. `self_time`: the method itself
/// instead of the method and what it calls.
pub fn compare(st: &StackTable, a: &Side, b: &Side, self_time: bool) -> Vec<Row> {
    let (ta, tb) = (a.total(), b.total());
    let ma = per_method(st, a);
    let mb = per_method(st, b);
    let mut names: Vec<&str> = ma.keys().chain(mb.keys()).copied().collect();
    names.sort_unstable();
    names.dedup();
    let pick = |m: &HashMap<&str, (f64, f64)>, n: &str| m.get(n).map_or(0.0, |&(t, s)| if self_time { s } else { t });
    let mut rows: Vec<Row> = names
        .into_iter()
        .map(|n| {
            let (ca, cb) = (pick(&ma, n), pick(&mb, n));
            let a_share = if ta > 0.0 { ca / ta } else { 0.0 };
            let b_share = if tb > 0.0 { cb / tb } else { 0.0 };
            let delta = a_share - b_share;
            let p = count_test(ca, ta, cb, tb);
            let score = if p.is_nan() { 0.0 } else { delta * (1.0 - p) };
            Row { name: n.to_string(), a: ca, b: cb, a_share, b_share, delta, p, score }
        })
        .filter(|r| r.a > 0.0 || r.b > 0.0)
        .collect();
    rows.sort_by(|x, y| y.score.total_cmp(&x.score).then_with(|| x.name.cmp(&y.name)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel_close(got: f64, want: f64, rel: f64) {
        if want == 0.0 {
            assert_eq!(got, 0.0);
        } else {
            assert!(((got - want) / want).abs() < rel, "got {got}, want {want}");
        }
    }

    #[test]
    fn ln_gamma_matches_known_values() {
        assert!(ln_gamma(1.0).abs() < 1e-12);
        assert!(ln_gamma(2.0).abs() < 1e-12);
        rel_close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-12);
        rel_close(ln_gamma(10.0), 362880f64.ln(), 1e-13);
        rel_close(ln_gamma(100.0), 359.134_205_369_575_4, 1e-14);
    }

    #[test]
    fn incomplete_beta_matches_closed_forms() {
        for x in [0.01, 0.2, 0.5, 0.77, 0.999] {
            rel_close(beta_incomplete(x, 1.0, 1.0).0, x, 1e-13);
            rel_close(beta_incomplete(x, 3.0, 1.0).0, x * x * x, 1e-12);
            rel_close(beta_incomplete(x, 1.0, 4.0).0, 1.0 - (1.0 - x).powi(4), 1e-12);
        }
        rel_close(beta_incomplete(0.4, 2.0, 3.0).0, 0.5248, 1e-13);
    }

    /// The same table the web's tests read: p-values computed exactly with integers.
    #[test]
    fn count_test_equals_the_exact_table() {
        let table = include_str!("../tests/pvalues.tsv");
        let mut n = 0;
        for line in table.lines().skip(1) {
            let v: Vec<f64> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            rel_close(count_test(v[0], v[1], v[2], v[3]), v[4], 1e-9);
            n += 1;
        }
        assert!(n > 15);
        assert!(count_test(0.0, 0.0, 5.0, 10.0).is_nan());
    }

    #[test]
    fn methods_count_once_per_stack_and_rank_by_score() {
        // Stacks: 0 run, 1 run;parse, 2 run;parse;parse, 3 run;read.
        let prefix = [-1, 0, 1, 0];
        let st = StackTable { name: vec!["run", "parse", "parse", "read"], prefix: &prefix };
        let a = Side { per_stack: HashMap::from([(2, 30.0), (3, 10.0)]), none: 0.0 };
        let b = Side { per_stack: HashMap::from([(1, 10.0), (3, 30.0)]), none: 2.0 };
        let rows = compare(&st, &a, &b, false);
        let parse = rows.iter().find(|r| r.name == "parse").unwrap();
        assert_eq!((parse.a, parse.b), (30.0, 10.0));
        rel_close(parse.delta, 0.75 - 10.0 / 42.0, 1e-12);
        rel_close(parse.p, count_test(30.0, 40.0, 10.0, 42.0), 1e-15);
        assert_eq!(rows[0].name, "parse");
        assert_eq!(rows.last().unwrap().name, "read");
        let selfs = compare(&st, &a, &b, true);
        assert_eq!(selfs.iter().find(|r| r.name == "run").map(|r| r.a), None, "run is never on top");
    }
}
