#!/usr/bin/env python3
"""Exact two-sided p-values of the comparison's count test, for both test suites.

A method with a of A events in the selection and b of B in the baseline: under "no change",
a ~ Binomial(n = a + b, p = A / (A + B)). p-value = min(1, 2 * min(P(X <= a), P(X >= a))).

Every term is an integer: C(n, j) * A^j * B^(n - j), over (A + B)^n, so the tails are exact
fractions (no floating point until the last division). Writes cli/tests/pvalues.tsv, read by
cli/src/diff.rs's tests and web/src/profile-logic/__tests__/compare.test.ts:

    python3 cli/tests/pvalues.py > cli/tests/pvalues.tsv
"""
from fractions import Fraction

CASES = [
    (0, 20, 0, 20), (1, 12, 0, 10000), (1, 20, 0, 10000), (0, 20, 5, 1000),
    (3, 20, 10, 100), (10, 20, 10, 20), (5, 30, 40, 100), (12, 40, 3, 60),
    (20, 20, 0, 20), (0, 50, 50, 50), (7, 25, 7, 25), (1, 1000, 9, 1000),
    (150, 1000, 100, 1000), (480, 1000, 520, 1000), (30, 200, 10, 5000),
    (900, 3769, 1200, 8000), (2000, 10000, 2100, 10000), (2500, 20000, 2000, 15000),
    (100, 400, 3000, 12000), (4000, 50000, 10000, 100000), (7, 40, 400, 2000),
]


def pvalue(a, A, b, B):
    n = a + b
    if n == 0:
        return 1.0
    # term_j = C(n, j) A^j B^(n-j); term_{j+1} = term_j * (n - j) * A / ((j + 1) * B), exactly.
    term = B ** n
    below = 0
    above = 0
    for j in range(n + 1):
        if j <= a:
            below += term
        if j >= a:
            above += term
        if j < n:
            term = term * (n - j) * A // ((j + 1) * B)
    whole = (A + B) ** n
    return float(min(Fraction(1), 2 * min(Fraction(below, whole), Fraction(above, whole))))


if __name__ == "__main__":
    print("a\tA\tb\tB\tp_value")
    for a, A, b, B in CASES:
        print(f"{a}\t{A}\t{b}\t{B}\t{pvalue(a, A, b, B)!r}")
