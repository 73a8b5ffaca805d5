"""`ffnverify scan`: find the numeric statements in documents as they are written, read
the ones it can as claims of the claim language, and decide those with the claims engine.

readers (file → prose blocks with source positions) → units (sentences, list items, table
rows, display math) → detect (which units are numeric statements) → read (statement →
claim parts) → scan (coverage by existing claims, the engine under the audit's budget,
records) → report / suggest. Nothing read from a document is ever executed: claims are
strings built from tokens and decided by the whitelist parser of `ffnverify.claims`.
"""
