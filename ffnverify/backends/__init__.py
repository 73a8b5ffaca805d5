"""The numeric backends, written independently of `derivations` (they never import it, nor
sympy; import-linter and tests/meta/test_independence.py enforce it):

- `numpy_ffn`: FFN forward and hand-written backward in NumPy (float32, float64)
- `torch_ffn`: FFN modules in PyTorch, backward by autograd
- `activations`: the activations and their derivatives in NumPy
- `variants`: the backends' own statement of the variant table (tests prove it agrees)
"""
