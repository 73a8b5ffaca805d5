"""The command line's layout: every command is one module of ffnverify/cli/ with
add_arguments and run, named for its command; check, bench and identify take TARGET
through the one shared helper."""

import argparse
import importlib
from pathlib import Path

import pytest

from ffnverify import cli

CLI = Path(cli.__file__).parent


@pytest.mark.parametrize("name, module, _help", cli.SUBCOMMANDS)
def test_each_command_is_its_own_module_of_the_cli_package(name, module, _help):
    assert module == f"ffnverify.cli.{name.replace('-', '_')}"
    mod = importlib.import_module(module)
    assert callable(mod.add_arguments) and callable(mod.run) and mod.__doc__


def test_every_module_of_the_cli_package_is_a_command_or_a_shared_helper():
    commands = {m.rsplit(".", 1)[1] for _, m, _ in cli.SUBCOMMANDS}
    helpers = {"__init__", "target", "options"}
    assert {p.stem for p in CLI.glob("*.py")} == commands | helpers


@pytest.mark.parametrize("name", ["check", "bench", "identify"])
def test_target_commands_share_one_target_argument(name, monkeypatch):
    from ffnverify.cli import target

    calls = []
    real = target.add_target
    monkeypatch.setattr(target, "add_target", lambda p, **kw: calls.append(p) or real(p, **kw))
    mod = importlib.reload(importlib.import_module(f"ffnverify.cli.{name}"))
    try:
        parser = argparse.ArgumentParser()
        mod.add_arguments(parser)
        assert calls == [parser]
        assert parser.parse_args(["pkg.mod:factory", "--variant", "relu"]
                                 if name != "identify" else ["pkg.mod:factory"]).target \
            == "pkg.mod:factory"
    finally:
        monkeypatch.undo()
        importlib.reload(mod)


def test_a_bad_target_reads_the_same_in_each_command(capsys):
    for name in ("check", "identify"):
        argv = [name, "no_such_module_xyz:factory"] + (["--variant", "relu"]
                                                        if name == "check" else [])
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert f"ffnverify {name}: error: cannot import no_such_module_xyz:factory: " \
               "ModuleNotFoundError" in err, err
