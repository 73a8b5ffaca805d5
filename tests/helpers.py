"""The helpers the test files share, each defined once (issue 25 §5): running the command
line in this process, and a claim's verdict. A test folder imports them by name (tests/ is
on sys.path: tests/conftest.py)."""

from ffnverify import cli


def run_cli(capsys, *argv, strip=False) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `ffnverify argv...` run in this process: a command's
    return value, or the code of the SystemExit argparse's errors raise. Every argument is
    passed as str (paths too); `strip` takes the whitespace around stdout off."""
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out.strip() if strip else out, err


def verdict(text, *assume) -> str:
    """The verdict ('true', 'false', 'unknown', 'error') of one claim under `assume`."""
    from ffnverify.claims.evaluate import evaluate_claim  # the engine, only where asked

    return evaluate_claim(text, assume)["verdict"]
