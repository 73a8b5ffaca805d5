"""The claims engine (docs/architecture.md §4–5): a whitelist parser for the claim language (parser),
the claim functions (functions), deciding a claim (evaluate: build the SymPy values and
domain conditions, certify signs by interval arithmetic, prove, refute; show renders
values), the time and size budget (budget), claim files (files), and reports (report); `ffnverify audit` is ffnverify/cli/audit.py.

Claim text is untrusted input: it is tokenised and parsed by `parser` alone and never
reaches `eval`, `exec`, `sympify` or `parse_expr`.
"""
