"""Loading what a user names on the command line as `package.module:attr`.

A library module (no argparse): the commands (`ffnverify.cli.target`) and the library
code that builds a user's module (`bench.measure`) share it. `h_rule` reads the kit's
--h-of rule into the function the conformance kit takes, carrying the text a reproducer
prints back.
"""

import importlib
import os
import re
import sys


def load_target(target):
    """The object named by 'package.module:attr' (ImportError/AttributeError/ValueError).
    The current directory is importable, as with `python -m`."""
    mod_name, sep, attr = target.partition(":")
    if not sep or not mod_name or not attr:
        raise ValueError(f"TARGET must look like package.module:factory, got {target!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    obj = importlib.import_module(mod_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


class TargetError(Exception):
    """A target or module option that cannot be used; the message is for the user."""


def load_factory(target, callable_required=True):
    """The factory TARGET names; TargetError (cannot import / not callable) otherwise, with
    the one wording check, bench and identify print."""
    try:
        factory = load_target(target)
    except Exception as exc:  # any import-time error of user code is "cannot import"
        raise TargetError(f"cannot import {target}: {type(exc).__name__}: {exc}") from exc
    if callable_required and not callable(factory):
        raise TargetError(f"{target} is not callable")
    return factory


_H_RULE = re.compile(r"\s*(\d+)\s*\*\s*d\s*(?:/\s*(\d+)\s*)?")


def h_rule(text):
    """h_of(d) from --h-of: 'K*d', 'K*d/M' (floor division) or an importable function;
    the function carries `cli_text` (reproducers print it back). ValueError otherwise."""
    m = _H_RULE.fullmatch(text)
    if m:
        k, div = int(m.group(1)), int(m.group(2) or 1)
        if k < 1 or div < 1:
            raise ValueError(f"--h-of {text!r}: K and M must be positive")

        def h_of(d):
            return k * d // div
    elif ":" in text:
        fn = load_target(text)
        if not callable(fn):
            raise ValueError(f"--h-of {text!r} is not callable")

        def h_of(d):
            return int(fn(d))
    else:
        raise ValueError(f"--h-of {text!r}: expected K*d, K*d/M or MODULE:FUNCTION")
    h_of.cli_text = text
    return h_of
