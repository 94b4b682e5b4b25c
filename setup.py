"""Compiles the gettext catalogs (locales/*/LC_MESSAGES/*.po) to .mo files at every build.

Everything else about the project is in pyproject.toml. The .mo files are build output, not kept
in git: `pip install .` and `pip install -e .` both run this before the usual build_py.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithCatalogs(build_py):
    """build_py that first compiles each catalog beside its .po (package data picks it up)."""

    def run(self) -> None:
        # locales/catalogs.py by path: importing the package would need it installed already.
        spec = importlib.util.spec_from_file_location("_catalogs", HERE / "locales" / "catalogs.py")
        assert spec is not None and spec.loader is not None
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        for mo in catalogs.compile_all(HERE / "locales"):
            print(f"compiled {mo.relative_to(HERE)}")
        super().run()


setup(cmdclass={"build_py": BuildPyWithCatalogs})
