"""The library returns values and prints nothing; the command line prints them."""

from __future__ import annotations

from pathlib import Path

import pytest

import mcpgen
from mcpgen.errors import ManifestInvalid
from tests.cli.conftest import PING_MANIFEST
from tests.support.cli_runner import run_cli


def test_generate_prints_nothing_and_returns_a_report(
    ping_project: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    report = mcpgen.generate(ping_project)
    assert capfd.readouterr() == ("", "")
    assert report.written and report.summary.added == ("ping",)
    assert "src/demo/handlers/ping.py" in {a.path for a in report.applied.changes}
    again = mcpgen.generate(ping_project, check=True)
    assert capfd.readouterr() == ("", "")
    assert again.up_to_date and not again.written and again.orphans == ()


def test_a_bad_manifest_is_raised_not_printed(
    ping_project: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (ping_project / "mcpgen.yaml").write_text("name: demo\ntools: 3\n", encoding="utf-8")
    with pytest.raises(ManifestInvalid) as raised:
        mcpgen.generate(ping_project)
    assert capfd.readouterr() == ("", "")
    assert raised.value.diagnostics and not (ping_project / "src").exists()


def test_generate_no_longer_writes_host_snippets(ping_project: Path) -> None:
    done = run_cli("generate", str(ping_project))
    assert done.returncode == 0, done.stderr
    assert "created  src/demo/handlers/ping.py" in done.stderr
    assert not (ping_project / "hosts").exists()


def test_check_loads_the_manifest_and_scans_src_once(
    ping_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mcpgen.generation.changes
    import mcpgen.manifest

    mcpgen.generate(ping_project)
    calls = {"check_manifest": 0, "find_old_packages": 0}

    def counted(module: object, name: str) -> None:
        original = getattr(module, name)

        def wrapper(*args: object, **kwargs: object) -> object:
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    counted(mcpgen.manifest, "check_manifest")
    counted(mcpgen.generation.changes, "find_old_packages")
    done = run_cli("check", str(ping_project))
    assert done.returncode == 0, done.stderr
    assert "All 1 handlers match the dispatcher." in done.stderr
    assert calls == {"check_manifest": 1, "find_old_packages": 1}


def test_manifest_warnings_come_back_in_the_report_and_are_printed(ping_project: Path) -> None:
    (ping_project / "mcpgen.yaml").write_text(PING_MANIFEST, encoding="utf-8")
    report = mcpgen.generate(ping_project)
    unknown = [w for w in report.warnings if "no description" in w.message]
    assert unknown and all(w.level == "warning" for w in report.warnings)
    done = run_cli("generate", str(ping_project))
    assert done.returncode == 0, done.stderr
    assert str(unknown[0]) in done.stderr
