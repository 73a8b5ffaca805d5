"""Build-time helpers of the docs site (run by MkDocs through `hooks.py`).

`formulas` renders closed forms from the derivations as MathML, `pages` writes the
generated pages, `plots` draws the matplotlib figures, `verdicts` annotates claim fences
with the audit's verdicts. Nothing here is shipped in the ffnverify wheel.
"""
