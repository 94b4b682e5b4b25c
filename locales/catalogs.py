"""Finding and compiling the gettext catalogs: each `<lang>/LC_MESSAGES/messages.po` to a `.mo`.

Imported by `setup.py` (by path, before the project is installed) as well as by `locales`, so it
needs nothing but Babel and the standard library.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from gettext import GNUTranslations
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "messages"
TEMPLATE = f"{DOMAIN}.pot"


def read(path: Path) -> Catalog:
    """A `.po` or `.pot` file as a Babel catalog."""
    with path.open("rb") as f:
        return read_po(f)


def po_files(root: Path) -> dict[str, Path]:
    """Every catalog under `root`: {language: its `.po` path}, the `.po` or only its `.mo` there.

    An installed wheel carries only the `.mo` files (pip does not keep the files' times, so a
    `.po` beside its `.mo` would look newer than it).
    """
    found = sorted(root.glob(f"*/LC_MESSAGES/{DOMAIN}.[mp]o"))
    return {path.parents[1].name: path.with_suffix(".po") for path in found}


def compiled(po: Path) -> bytes:
    """The `.mo` of a `.po`; fuzzy and untranslated entries are left out, as `msgfmt` does."""
    buffer = BytesIO()
    write_mo(buffer, read(po))
    return buffer.getvalue()


def compile_all(root: Path) -> list[Path]:
    """Compile every catalog under `root` to a `.mo` beside its `.po`; the `.mo` paths."""
    written = []
    for po in sorted(root.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        _write_atomically(mo, compiled(po))
        written.append(mo)
    return written


def load(po: Path) -> GNUTranslations:
    """The translations of a `.po`: its `.mo`, or the `.po` compiled now if newer than that.

    A checkout whose `.po` was edited (or pulled) after the last build gets the new strings
    without a reinstall; the fresh `.mo` is cached beside the `.po` where the directory is
    writable, and kept in memory only where it is not (a read-only copy of the source).
    """
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return GNUTranslations(f)
    data = compiled(po)
    with contextlib.suppress(OSError):
        _write_atomically(mo, data)
    return GNUTranslations(BytesIO(data))


def _write_atomically(path: Path, data: bytes) -> None:
    # Several processes (the bot, test subprocesses) may compile at once: none may read half a file.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide it from a user other than the builder
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
