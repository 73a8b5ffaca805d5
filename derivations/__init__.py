"""Symbolic source of truth for FFN blocks: exact SymPy derivations of parameter counts
(params), FLOPs (flops), activation memory (memory), width rules (widths) and gradients
(gradients), for every row of the variant table (variants); and the rest of the model:
attention blocks (attention), whole-model parameters by part (transformer), whole-model
FLOPs and KV-cache memory (model_costs). Imports sympy and nothing
numeric. Import the submodules directly: `from derivations.params import params`."""
