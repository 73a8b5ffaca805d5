"""Load the known-formula gallery once, under a name no other test folder can shadow."""

import importlib.util
import sys
from pathlib import Path

_NAME = "ffnverify_counter_gallery"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).with_name("gallery.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)
