"""1,000 mixed claims for `ffnverify audit` (parameter and FLOP identities, numeric counts,
widths, inequalities, counterexamples, activation derivatives), each with its expected
verdict: timed in benchmarks/test_bench_audit.py, their verdicts checked in
tests/claims/test_audit_speed.py."""

import random

VARIANTS = ["relu", "gelu", "gelu_tanh", "silu", "glu", "bilinear", "reglu", "geglu",
            "geglu_tanh", "swiglu", "tanhglu"]


def mixed_claims(count: int, seed: int = 0) -> list[tuple[str, str]]:
    """(expr, expect) pairs; the literals vary so no two claims share a cached result."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        v = rng.choice(VARIANTS)
        m = 3 if v in VARIANTS[4:] else 2
        k = rng.randint(2, 64)
        d = rng.choice([512, 1024, 2048, 4096, 5120, 8192]) + 8 * rng.randint(0, 64)
        kind = i % 10
        if kind == 0:
            out.append((f"params({v}, d, {k}*d) == {m * k}*d**2", "true"))
        elif kind == 1:
            out.append((f"params({v}, {d}, {k * d}) == {m * k * d * d}", "true"))
        elif kind == 2:
            out.append((f"flops({v}, d, h, n, pass=train) == {6 * m}*d*h*n", "true"))
        elif kind == 3:
            out.append((f"params({v}, d, h) == {m + 1}*d*h", "false"))
        elif kind == 4:
            out.append((f"width(llama, {d}, multiple_of={2 ** rng.randint(4, 10)}) >= floor(8/3*{d})",
                        "true"))
        elif kind == 5:
            out.append((f"8/3*{d} ≈ {round(8 * d / 3, 2):.2f}", "true"))
        elif kind == 6:
            out.append((f"flops({v}, d, h, n) / flops(relu, d, h, n) <= {k}", "true"))
        elif kind == 7:
            out.append((f"subs(diff(silu(z), z), z, {k}/10) > 0", "true"))
        elif kind == 8:
            out.append((f"match_width(relu, {k}*d, {v}, d) == {2 * k}/{m}*d", "true"))
        else:
            out.append((f"macs({v}, d, h, {k}, pass=backward, input_grad=false) < "
                        f"flops({v}, d, h, {k}, pass=backward)", "true"))
    return out
