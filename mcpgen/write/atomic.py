"""The one way mcpgen replaces a single file outside a transaction: temp file, fsync, rename.

Used for files that are not part of a generate plan (a host's config, the manifest edited by
`add tool`, the scaffold record). A generate plan goes through `transaction.commit`, which
stages with the same helpers.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from mcpgen.errors import McpgenError


def fsync_directory(directory: Path) -> None:
    """Make a rename or a new entry in `directory` durable (a no-op where unsupported)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@functools.cache
def _renameat2() -> Any:
    """libc's renameat2 (Linux, glibc 2.28+), or None."""
    try:
        return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    except OSError:
        return None


def exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one step (`renameat2(RENAME_EXCHANGE)`); False, with
    nothing changed, where the system or the file system cannot."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    number = ctypes.get_errno()
    if number in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(number, os.strerror(number), str(b))


def _new_file_mode() -> int:
    """0666 less the umask, as `open()` creates files (reading the umask means setting it)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: Path, data: bytes | str) -> None:
    """Replace `path` with `data` so that a reader sees the old or the new file, never a mix.

    The file keeps its permission bits; a `str` is written as UTF-8 exactly (no newline
    translation). Errors become one `McpgenError` naming the file.
    """
    content = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.stat() if path.exists() else None
    mode = stat.S_IMODE(old.st_mode) if old is not None else _new_file_mode()
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # allowed to root only: the file stays its owner's
                os.chown(temp_name, old.st_uid, old.st_gid)
        os.chmod(temp_name, mode)  # mkstemp makes 0600; a new file gets what open() would give
        os.replace(temp_name, path)
        fsync_directory(path.parent)
    except OSError as exc:
        Path(temp_name).unlink(missing_ok=True)
        raise McpgenError(f"could not write {path}: {exc.strerror or exc}") from None
