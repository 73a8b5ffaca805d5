"""ffnverify: check numeric claims about transformer feed-forward blocks.

Subpackages and modules: backends (numpy_ffn, torch_ffn, activations, variants: the
numeric backends, independent of the derivations), claims (the claim language and audit), catalogue (real architectures), testing
(conformance kits), cli (the `ffnverify` command).
"""

__version__ = "0.1.0"
