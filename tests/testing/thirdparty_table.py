"""The closing note's table for the third-party suite: module, identify, check, diagnosis,
time (tests/conformance/thirdparty.py's entries, in the env that has the libraries).

    PYTHONPATH=$PWD:$PWD/tests python tests/testing/thirdparty_table.py [max_examples]
"""

import sys
import time
import warnings


def row(name, factory, variant, bias, kw, examples):
    from ffnverify.testing import check_ffn, identify_ffn

    start = time.perf_counter()
    shape = {k: kw[k] for k in ("h_of", "experts", "d_multiple_of") if k in kw}
    try:
        found = identify_ffn(factory, bias=bias[-1], **shape)
        ident = (f"{found.best.variant} ({found.best.layout})" if found.best
                 else f"none; closest {found.closest.variant}" if found.closest else "none")
    except Exception as exc:  # a library that does not build: the table says so
        ident = f"error: {type(exc).__name__}"
    diagnosis = ""
    try:
        report = check_ffn(factory, variant, bias=bias, max_examples=examples, **kw)
        check = f"pass: {report.variant}, {report.layout}"
    except Exception as exc:
        text = str(exc)
        check = "rejected: " + text.splitlines()[0].split(": ", 1)[-1][:70]
        diagnosis = next((ln.strip() for ln in text.splitlines() if "diagnosis" in ln), "")
    return f"| {name} | {ident} | {check} | {diagnosis[:110]} | {time.perf_counter() - start:.1f} s |"


def main(argv):
    import importlib.util

    from conformance.thirdparty import BROKEN, ENTRIES

    examples = int(argv[0]) if argv else 20
    print("| module | identify | check | diagnosis | time |")
    print("| --- | --- | --- | --- | --- |")
    for name, factory, variant, bias, kw, pkg in ENTRIES + BROKEN:
        if importlib.util.find_spec(pkg) is None:
            print(f"| {name} | not installed | - | - | - |")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            print(row(name, factory, variant, bias, kw, examples), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
