"""What the package reads at run time ships in its wheel: every data file matches a declared package-data glob."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_data_file_is_declared_package_data() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    globs = setuptools["package-data"]["compaction_tree.data"]
    assert "compaction_tree.data" in setuptools["packages"]
    files = [p.name for p in (ROOT / "compaction_tree" / "data").iterdir() if p.is_file() and p.suffix != ".py"]
    assert files, "compaction_tree/data holds the generic words and the fact model"
    for name in files:
        assert any(fnmatch.fnmatch(name, g) for g in globs), f"{name} would be left out of the wheel"
