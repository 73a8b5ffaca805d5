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


def test_the_target_options_are_defined_once_in_the_shared_helper():
    """--variant, --layout and --device are added by cli/target.py alone: check and bench
    read the same words (bench adds one clause on its built-in targets); identify's --layout
    keeps its own default and help (without one it judges every built-in layout)."""
    for name in ("check", "bench", "identify"):
        source = (CLI / f"{name}.py").read_text(encoding="utf-8")
        for option in ('"--variant"', '"--layout"', '"--device"'):
            assert option not in source, f"{name}.py defines {option} itself"

    def actions(name):
        parser = argparse.ArgumentParser()
        importlib.import_module(f"ffnverify.cli.{name}").add_arguments(parser)
        return {a.dest: a for a in parser._actions}

    check, bench, identify = actions("check"), actions("bench"), actions("identify")
    assert check["variant"].required and bench["variant"].required
    assert check["variant"].help == bench["variant"].help
    assert check["device"].help == bench["device"].help
    assert check["device"].default == bench["device"].default == "cpu"
    assert check["layout"].default == bench["layout"].default == "auto"
    assert bench["layout"].help.startswith(check["layout"].help)
    assert identify["layout"].default is None
    assert "every built-in layout" in identify["layout"].help
