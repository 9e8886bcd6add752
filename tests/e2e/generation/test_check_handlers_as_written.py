"""`mcpgen check` judges handlers as Python imports them: the documented imports from the
generated package, handlers re-exported from another module, files with a BOM or a coding
cookie; what it cannot verify statically is a note, never a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.commands.check import check_project
from mcpgen.generation.engine import prepare
from mcpgen.generation.handler_check import check_handlers
from tests.support.demo_project import Run

REPO = Path(__file__).resolve().parents[3]
HANDLER = "src/demo/handlers/get_forecast.py"
IMPL = "src/demo/handlers/_impl.py"
WORKS = "def get_forecast(args: GetForecastInput) -> GetForecastOutput:\n    return {}\n"
MODELS = "from demo._generated.models import GetForecastInput, GetForecastOutput\n"


def _problems(project: Run) -> list[tuple[str, bool]]:
    prepared = prepare(project.root)
    found = check_handlers(project.root, prepared.manifest, prepared.plan)
    return [(p.message, getattr(p, "certain", True)) for p in found if p.path == HANDLER]


def _write(project: Run, path: str, data: str | bytes) -> None:
    target = project.root / path
    target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def test_the_documented_context_import_is_accepted(project: Run) -> None:
    source = "from demo._generated import Context, ToolError\n" + MODELS
    _write(
        project,
        HANDLER,
        source + WORKS.replace("args: GetForecastInput", "args: GetForecastInput, ctx: Context"),
    )
    assert _problems(project) == []


def test_a_misspelled_generated_name_is_still_refused(project: Run) -> None:
    _write(project, HANDLER, "from demo._generated.models import GetForecastInputt\n" + WORKS)
    ((message, certain),) = _problems(project)
    assert certain and "imports `GetForecastInputt`" in message


@pytest.mark.parametrize(
    "handler",
    [
        "from ._impl import get_forecast\n",
        "from ._impl import forecast as get_forecast\n",
        "from demo.handlers._impl import forecast as get_forecast\n",
        "from ._impl import *\n",
        "from . import _impl\nfrom ._impl import forecast\nget_forecast = forecast\n",
    ],
)
def test_a_handler_re_exported_from_the_project_is_accepted(project: Run, handler: str) -> None:
    impl = MODELS + WORKS + WORKS.replace("get_forecast", "forecast")
    _write(project, IMPL, impl)
    _write(project, HANDLER, handler)
    assert [p for p in _problems(project) if p[1]] == []


def test_a_re_export_is_followed_to_its_definition(project: Run) -> None:
    _write(project, IMPL, "def forecast(args: dict) -> None: ...\n")
    _write(project, HANDLER, "from ._impl import forecast as get_forecast\n")
    ((message, certain),) = _problems(project)
    assert certain and message.startswith(f"{IMPL}: the argument of `get_forecast`")


def test_a_re_export_of_a_name_the_module_lacks_is_missing(project: Run) -> None:
    _write(project, IMPL, "def other(args: GetForecastInput) -> None: ...\n")
    _write(project, HANDLER, "from ._impl import forecast as get_forecast\n")
    ((message, certain),) = _problems(project)
    assert certain and "`forecast`, imported from demo.handlers._impl (line 1)" in message


@pytest.mark.parametrize(
    ("handler", "reason"),
    [
        ("from functools import partial\nget_forecast = partial(print)\n", "is assigned"),
        ("from json import loads as get_forecast\n", "imported from json"),
        ("from elsewhere import *\n", "`from elsewhere import *`"),
        (
            "try:\n    from ._fast import f as get_forecast\nexcept ImportError:\n"
            "    def get_forecast(args: GetForecastInput): ...\n",
            "more than one branch",
        ),
        ("import functools\n@functools.cache\ndef get_forecast(a, b, c): ...\n", "is decorated"),
        ("def __getattr__(name: str) -> object: ...\n", "module `__getattr__`"),
    ],
)
def test_what_static_reading_cannot_settle_is_a_note(
    project: Run, handler: str, reason: str
) -> None:
    _write(project, HANDLER, handler)
    ((message, certain),) = _problems(project)
    assert not certain and message.startswith("could not verify statically") and reason in message


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + (MODELS + WORKS).encode(),
        ("# -*- coding: latin-1 -*-\n# m\xe9t\xe9o\n" + MODELS + WORKS).encode("latin-1"),
    ],
    ids=["utf-8 BOM", "latin-1 cookie"],
)
def test_encodings_python_accepts_are_read_as_python_reads_them(project: Run, data: bytes) -> None:
    _write(project, HANDLER, data)
    assert _problems(project) == []


def test_a_file_python_cannot_decode_is_a_located_problem(project: Run) -> None:
    _write(project, HANDLER, b"# -*- coding: nope -*-\n" + WORKS.encode())
    ((message, certain),) = _problems(project)
    assert certain and "unknown encoding: nope" in message


def test_a_note_does_not_fail_check(project: Run) -> None:
    _write(project, HANDLER, "from json import loads as get_forecast\n")
    report = check_project(project.root / "mcpgen.yaml")
    assert report.failures == [] and len(report.handler_notes) == 1


def test_check_passes_on_the_everything_example(tmp_path: Path) -> None:
    """Its handlers import `Context` from the generated package, as the README says to."""
    root = tmp_path / "everything"
    shutil.copytree(REPO / "examples/everything", root)
    run = [sys.executable, "-m", "mcpgen"]
    subprocess.run([*run, "generate"], cwd=root, check=True, capture_output=True, timeout=300)
    done = subprocess.run(
        [*run, "check"], check=False, cwd=root, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "handlers match the dispatcher" in done.stderr


def test_a_fifo_or_a_huge_file_at_a_handler_path_is_a_problem_not_a_hang(project: Run) -> None:
    handler = project.root / HANDLER
    handler.unlink()
    os.mkfifo(handler)
    ((message, certain),) = _problems(project)
    assert certain and "not a regular file" in message
    handler.unlink()
    handler.write_bytes(b"#" * (17 * 2**20))
    ((message, certain),) = _problems(project)
    assert certain and "over 16 MiB" in message


def test_check_with_a_fifo_handler_answers_in_a_real_process(project: Run) -> None:
    handler = project.root / HANDLER
    handler.unlink()
    os.mkfifo(handler)
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", "check", str(project.root)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and "not a regular file" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_dangling_symlink_handler_is_named_as_such(project: Run) -> None:
    handler = project.root / HANDLER
    handler.unlink()
    handler.symlink_to(project.root / "nowhere.py")
    ((message, certain),) = _problems(project)
    assert certain and "a symlink to nothing" in message


@pytest.mark.parametrize(
    "source",
    [
        "from demo._generated.models import GetForecastInput as In\n"
        "def get_forecast(args: In) -> None: ...\n",
        "from demo._generated.models import GetForecastInput\n"
        "from demo._generated import Context as Ctx\n"
        "def get_forecast(args: GetForecastInput, ctx: Ctx) -> None: ...\n",
    ],
)
def test_annotations_imported_under_another_name_are_followed(project: Run, source: str) -> None:
    _write(project, HANDLER, source)
    assert _problems(project) == []


def test_an_annotation_through_an_assigned_alias_is_a_note(project: Run) -> None:
    _write(project, HANDLER, MODELS + "In = GetForecastInput\ndef get_forecast(args: In): ...\n")
    ((message, certain),) = _problems(project)
    assert not certain and "`In` is an alias" in message


@pytest.mark.parametrize(
    ("expression", "words"),
    [
        ("-" * 200_000 + "1", "nested too deeply"),  # the parser's own recursion: no message
        ("1" + "+1" * 300_000, "nested too deeply"),
        ("(" * 5_000 + "1" + ")" * 5_000, "line 2: syntax error: too many nested parentheses"),
    ],
)
def test_an_expression_too_deep_to_parse_is_one_problem_that_says_why(
    project: Run, expression: str, words: str
) -> None:
    _write(project, HANDLER, MODELS + f"X = {expression}\n" + WORKS)
    ((message, certain),) = _problems(project)
    assert certain and words in message, message


def test_a_re_export_circle_is_a_note_not_a_hang(project: Run) -> None:
    """A circle may still bind the name (a `def` before the import that closes it): what
    static reading cannot settle is a note, and check ends."""
    _write(project, IMPL, "from .get_forecast import get_forecast\n")
    _write(project, HANDLER, "from ._impl import get_forecast\n")
    done = subprocess.run(
        [sys.executable, "-m", "mcpgen", "check", str(project.root)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert f"note: handler of get_forecast: {HANDLER}: " in done.stderr, done.stderr
    assert "re-exported in a circle" in done.stderr, done.stderr


def test_a_handler_symlinked_out_of_the_project_is_not_read(project: Run) -> None:
    handler = project.root / HANDLER
    handler.unlink()
    handler.symlink_to("/etc/passwd")
    ((message, certain),) = _problems(project)
    assert certain and "a symlink to /etc/passwd, outside the project" in message, message
