"""`ffnverify bench`: how close an FFN module comes to the GEMM limit, and whether the
memory it keeps for the backward matches the derivation.

A kit (like ffnverify.testing): it joins the derivations (FLOPs, activation memory, the
GEMMs of a pass) with measurements of a module. Timings are measurements, never proofs;
the FLOP and memory accounting it reports beside them is exact.
"""
