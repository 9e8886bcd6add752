"""`mcpgen bundle` against a hostile or careless project: symlinks out, loops, hard links,
secrets, odd names, special files, stale or hand-edited generated code, output paths that
lead elsewhere. Real files and links on disk, the real command in its own process: a refusal
is one line, exit 1, and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.weather_project import REPO, fresh_weather, weather

__all__ = ["fresh_weather", "weather"]  # fixtures

PACKAGE = Path("src") / "weather"


def bundle(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", "bundle", str(project), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=REPO,
        env={**os.environ, "NO_COLOR": "1", "MCPGEN_NO_RUN_CACHE": "1"},
    )


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one line of a refusal, checked for `words`."""
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0]
    assert "nothing was written" in lines[0]
    return lines[0]


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def written(project: Path) -> list[Path]:
    return list((project / "dist").glob("*")) if (project / "dist").exists() else []


def test_a_symlink_to_etc_passwd_is_refused(weather: Path) -> None:
    (weather / PACKAGE / "passwd").symlink_to("/etc/passwd")
    refused(bundle(weather), "src/weather/passwd", "/etc/passwd", "outside the project")
    assert written(weather) == []


def test_a_symlinked_readme_outside_the_project_is_refused(weather: Path, tmp_path: Path) -> None:
    secret = tmp_path / "private.md"
    secret.write_text("private notes")
    (weather / "README.md").unlink()
    (weather / "README.md").symlink_to(secret)
    refused(bundle(weather), "README.md", "outside the project")
    assert written(weather) == []


def test_a_folder_symlinked_above_the_project_is_refused(weather: Path, tmp_path: Path) -> None:
    above = tmp_path / "above"
    above.mkdir()
    (above / "key.txt").write_text("secret")
    (weather / PACKAGE / "data").symlink_to(Path("..") / ".." / ".." / "above")
    refused(bundle(weather), "src/weather/data", "outside the project")


def test_a_handler_folder_symlinked_to_the_root_is_refused(weather: Path) -> None:
    handlers = weather / PACKAGE / "handlers"
    (weather / "handlers.kept").mkdir()
    for path in handlers.iterdir():
        path.rename(weather / "handlers.kept" / path.name)
    handlers.rmdir()
    handlers.symlink_to("/")
    refused(bundle(weather), "src/weather/handlers", "outside the project")


def test_the_project_folder_itself_may_be_a_symlink(weather: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(weather)
    done = bundle(link, "-o", str(tmp_path / "w.mcpb"))
    assert done.returncode == 0, done.stderr
    assert "src/weather/__main__.py" in members(tmp_path / "w.mcpb")


@pytest.mark.parametrize("kind", ["to an ancestor", "two links to each other"])
def test_symlink_loops_are_refused(weather: Path, kind: str) -> None:
    if kind == "to an ancestor":
        (weather / PACKAGE / "loop").symlink_to("..")
        refused(bundle(weather), "src/weather/loop", "a loop")
    else:
        (weather / PACKAGE / "a").symlink_to("b")
        (weather / PACKAGE / "b").symlink_to("a")
        refused(bundle(weather), "symlink loop")
    assert written(weather) == []


def test_a_symlink_inside_the_project_is_packed_as_its_file(weather: Path) -> None:
    (weather / "data").mkdir()
    (weather / "data" / "cities.txt").write_text("Paris\n")
    (weather / PACKAGE / "cities.txt").symlink_to(Path("..") / ".." / "data" / "cities.txt")
    done = bundle(weather)
    assert done.returncode == 0, done.stderr
    (path,) = written(weather)
    assert members(path)["src/weather/cities.txt"] == b"Paris\n"


def test_env_files_are_never_packed(weather: Path) -> None:
    secrets = [
        PACKAGE / ".env",
        PACKAGE / ".env.local",
        PACKAGE / "prod.env",
        PACKAGE / ".envrc",
        Path("src") / ".env" / "pyvenv.cfg",  # a virtualenv named .env
    ]
    for path in secrets:
        (weather / path).parent.mkdir(parents=True, exist_ok=True)
        (weather / path).write_text("API_KEY=hunter2\n")
    done = bundle(weather)
    assert done.returncode == 0, done.stderr
    (path,) = written(weather)
    packed = members(path)
    assert not [name for name in packed if ".env" in name]
    assert not [data for data in packed.values() if b"hunter2" in data]
    assert "Left out (secrets, never packed): src/.env, src/weather/.env," in done.stdout


def test_a_symlink_to_an_env_file_is_refused(weather: Path) -> None:
    (weather / ".env").write_text("API_KEY=hunter2\n")
    (weather / PACKAGE / "settings.txt").symlink_to(Path("..") / ".." / ".env")
    refused(bundle(weather), "src/weather/settings.txt", "a secrets file")


def test_a_hard_link_to_a_file_outside_is_refused(weather: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not the project's")
    os.link(outside, weather / PACKAGE / "notes.txt")
    refused(bundle(weather), "src/weather/notes.txt", "2 hard links")


@pytest.mark.parametrize(
    "name", ["new\nline.py", "bell\a.py", b"latin1-\xe9.py".decode("utf-8", "surrogateescape")]
)
def test_file_names_a_bundle_cannot_hold_are_refused_on_one_line(weather: Path, name: str) -> None:
    (weather / PACKAGE / name).write_text("x = 1\n")
    refused(bundle(weather), "rename it")


def test_a_fifo_is_refused_not_waited_on(weather: Path) -> None:
    os.mkfifo(weather / PACKAGE / "pipe")
    refused(bundle(weather), "src/weather/pipe", "not a regular file")


def test_a_hand_edited_generated_file_is_refused(weather: Path) -> None:
    tools = weather / PACKAGE / "_generated" / "tools.py"
    tools.write_text(tools.read_text() + "\nEXTRA = 1\n")
    refused(bundle(weather), "src/weather/_generated/tools.py", "edited by hand")
    assert written(weather) == []


def test_stale_generated_code_is_refused(weather: Path) -> None:
    manifest = weather / "mcpgen.yaml"
    manifest.write_text(manifest.read_text().replace("Daily forecast", "The daily forecast"))
    refused(bundle(weather), "out of date", "src/weather/_generated/tools.py", "mcpgen generate")
    assert written(weather) == []


def test_an_interrupted_run_is_refused(weather: Path) -> None:
    (weather / ".mcpgen" / "journal.json").write_text("{}")
    refused(bundle(weather), ".mcpgen/journal.json", "interrupted")


def test_dist_symlinked_outside_is_refused(weather: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (weather / "dist").symlink_to(outside)
    refused(bundle(weather), "a symlink", "--output")
    assert list(outside.iterdir()) == []


def test_output_never_replaces_a_file_that_is_not_a_bundle(weather: Path) -> None:
    pyproject = weather / "pyproject.toml"
    before = pyproject.read_bytes()
    refused(bundle(weather, "-o", str(pyproject)), "is not a bundle")
    assert pyproject.read_bytes() == before
    done = bundle(weather, "-o", str(weather / "w.mcpb"))
    assert done.returncode == 0, done.stderr
    again = bundle(weather, "-o", str(weather / "w.mcpb"))  # an earlier bundle is replaced
    assert again.returncode == 0, again.stderr


def test_output_inside_src_is_refused(weather: Path) -> None:
    refused(bundle(weather, "-o", str(weather / PACKAGE / "w.mcpb")), "inside src/")


# Run in a small process of its own: a child's peak RSS (ru_maxrss) starts at its parent's
# size when it was forked, and a pytest worker may already hold hundreds of MiB.
_PEAK_RSS = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def _bundle_peak_rss(project: Path) -> tuple[int, int]:
    """Run `mcpgen bundle` and return its exit status and its own peak RSS, in KiB."""
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_RSS, sys.executable, "-m", "mcpgen", "bundle", str(project)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "MCPGEN_NO_RUN_CACHE": "1"},
    )
    status, peak_kib = done.stdout.split()
    return int(status), int(peak_kib)


def test_a_large_file_is_streamed_not_held_in_memory(weather: Path) -> None:
    big = weather / PACKAGE / "big.bin"
    size = 512 * 1024 * 1024
    with big.open("wb") as stream:  # sparse: no disk needed for its zeros
        stream.truncate(size)
    status, peak_kib = _bundle_peak_rss(weather)
    assert status == 0
    assert peak_kib < size // 1024 // 2, f"peak RSS {peak_kib} KiB for a {size >> 20} MiB file"
    (path,) = written(weather)
    with zipfile.ZipFile(path) as archive:
        assert archive.getinfo("src/weather/big.bin").file_size == size


def test_a_deeply_nested_folder_is_packed(weather: Path) -> None:
    deep = weather / PACKAGE
    for _ in range(1200):  # deeper than Python's recursion limit
        deep = deep / "d"
        deep.mkdir()
    (deep / "leaf.txt").write_text("leaf\n")
    try:
        done = bundle(weather)
        assert done.returncode == 0, done.stderr
        (path,) = written(weather)
        assert members(path)["src/weather/" + "d/" * 1200 + "leaf.txt"] == b"leaf\n"
    finally:
        _remove_deep_chain(weather / PACKAGE / "d")


def _remove_deep_chain(top: Path) -> None:
    """Remove the nested folders from the bottom up: shutil.rmtree recurses once per level,
    so pytest's later clean-up of its temp folders would stop at this one with RecursionError."""
    os.chdir(top.parent)  # relative steps: the full path is longer than PATH_MAX
    try:
        os.chdir("d")
        depth = 1
        while os.path.isdir("d"):
            os.chdir("d")
            depth += 1
        for name in os.listdir("."):
            os.unlink(name)
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("d")
    finally:
        os.chdir(REPO)


def test_an_output_folder_that_is_a_file_is_one_line(weather: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    refused(bundle(weather, "-o", str(blocker / "w.mcpb")), "Not a directory")
    (weather / "dist").write_text("")  # the default folder, taken by a file
    refused(bundle(weather), "Not a directory")


def test_git_folders_are_not_packed_nor_linked_to(weather: Path) -> None:
    (weather / ".git").mkdir()
    (weather / ".git" / "config").write_text("url = https://user:token@example.com/r.git\n")
    (weather / PACKAGE / "vendor" / ".git").mkdir(parents=True)
    (weather / PACKAGE / "vendor" / ".git" / "config").write_text("token\n")
    (weather / PACKAGE / ".ENV").write_text("API_KEY=hunter2\n")
    done = bundle(weather)
    assert done.returncode == 0, done.stderr
    (path,) = written(weather)
    assert not [name for name in members(path) if ".git" in name or ".ENV" in name]
    (weather / PACKAGE / "repo").symlink_to(Path("..") / ".." / ".git")
    refused(bundle(weather), "src/weather/repo", ".git")


@pytest.mark.parametrize("target", ["self", "missing"])
def test_a_self_loop_or_a_broken_symlink_is_refused(weather: Path, target: str) -> None:
    (weather / PACKAGE / "link").symlink_to("link" if target == "self" else "nowhere")
    problem = "symlink loop" if target == "self" else "broken symlink"
    refused(bundle(weather), "src/weather/link", problem)
