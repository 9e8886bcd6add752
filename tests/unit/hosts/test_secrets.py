"""No secret value from the environment ever reaches an emitted file, link or command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.hosts import HOSTS, render_host_files
from mcpgen.hosts.base import Where
from mcpgen.hosts.install import install
from mcpgen.hosts.launch import MachineFacts
from mcpgen.hosts.render import make_target, render_snippets
from mcpgen.manifest.model import Manifest
from tests.support.hosts import POSIX_ROOT, SECRET_VALUE, WINDOWS_ROOT


def test_no_secret_value_in_any_emitted_text(
    manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEATHER_TOKEN", SECRET_VALUE)
    monkeypatch.setenv("WEATHER_REGION", SECRET_VALUE + "-region")
    texts = [
        f.content
        for f in render_host_files(
            manifest, tmp_path, MachineFacts("linux"), launcher="uv", bearer_env="WEATHER_TOKEN"
        )
    ]
    for os_name, root in (("linux", POSIX_ROOT), ("windows", WINDOWS_ROOT)):
        for snippet in render_snippets(
            manifest,
            root,
            HOSTS,
            launcher="venv",
            facts=MachineFacts(os_name),
            bearer_env="WEATHER_TOKEN",
        ):
            texts.append(snippet.text)
            texts += snippet.warnings
            texts += [e.text for e in snippet.extras]
    assert texts
    assert not [t for t in texts if SECRET_VALUE in t]


def test_no_secret_value_in_installed_files(
    manifest: Manifest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEATHER_TOKEN", SECRET_VALUE)
    where = Where(
        os="linux",
        env={"WEATHER_TOKEN": SECRET_VALUE},
        home=tmp_path / "home",
        project=tmp_path / "project",
    )
    for host in HOSTS:
        for transport in host.transports:
            target = make_target(
                manifest,
                POSIX_ROOT,
                transport,
                launcher="venv",
                facts=MachineFacts("linux"),
                bearer_env="WEATHER_TOKEN",
            )
            path = tmp_path / "configs" / f"{host.key}.{transport}.{host.fmt}"
            install(host, target, where, config_path=path, yes=True, which=lambda _: None)
    written = [p.read_text(encoding="utf-8") for p in (tmp_path / "configs").iterdir()]
    assert len(written) == sum(len(h.transports) for h in HOSTS)
    assert not [t for t in written if SECRET_VALUE in t]
