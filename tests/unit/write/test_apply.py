"""Plan vs disk vs state: every decision, conflicts first, --force, --check and --diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.core.header import GENERATED_HEADER
from mcpgen.errors import ExitCode, McpgenError
from mcpgen.write.apply import ApplyPlan, Move, commit, plan_actions
from mcpgen.write.diff import unified_diff
from mcpgen.write.state import STATE_PATH, sha256_hex
from tests.support.in_memory import plan_of, snapshot_tree, write_tree

STATE = '{"state": 1}\n'


def _kinds(applied: ApplyPlan) -> dict[str, str]:
    return {a.path: a.kind for a in applied.actions}


def _plan_gen(content: str = "new\n"):  # type: ignore[no-untyped-def]
    return plan_of(("gen.py", content, "generated"))


def test_fresh_tree_creates_everything(tmp_path: Path) -> None:
    plan = plan_of(
        ("gen.py", "g", "generated"),
        ("handlers/t.py", "stub", "user", "t"),
        ("hosts/x.json", "{}", "local"),
    )
    applied = plan_actions(tmp_path, plan, recorded={}, state_text=STATE)
    assert set(_kinds(applied).values()) == {"create"}
    commit(tmp_path, applied)
    assert (tmp_path / "handlers/t.py").read_text() == "stub"
    assert (tmp_path / STATE_PATH).read_text() == STATE


def test_second_run_writes_nothing(tmp_path: Path) -> None:
    plan = plan_of(("gen.py", "g", "generated"), ("h.py", "stub", "user", "t"))
    commit(tmp_path, plan_actions(tmp_path, plan, recorded={}, state_text=STATE))
    again = plan_actions(tmp_path, plan, recorded={"gen.py": sha256_hex(b"g")}, state_text=STATE)
    assert again.changes == ()
    assert again.stale() == []


def test_untouched_generated_file_is_updated(tmp_path: Path) -> None:
    write_tree(tmp_path, {"gen.py": "old\n"})
    applied = plan_actions(
        tmp_path, _plan_gen(), recorded={"gen.py": sha256_hex(b"old\n")}, state_text=STATE
    )
    assert _kinds(applied)["gen.py"] == "update"
    assert applied.stale() == ["gen.py"]


@pytest.mark.parametrize(
    ("recorded", "reason"),
    [({"gen.py": sha256_hex(b"old\n")}, "edited by hand"), ({}, "not written by mcpgen")],
)
def test_hand_edit_is_a_conflict_and_nothing_is_written(
    tmp_path: Path, recorded: dict[str, str], reason: str
) -> None:
    write_tree(tmp_path, {"gen.py": "old\n# my edit\n"})
    plan = plan_of(("gen.py", "new\n", "generated"), ("other.py", "o", "generated"))
    applied = plan_actions(tmp_path, plan, recorded=recorded, state_text=STATE)
    assert [c.path for c in applied.conflicts] == ["gen.py"]
    assert reason in applied.conflicts[0].reason
    before = snapshot_tree(tmp_path)
    with pytest.raises(McpgenError) as info:
        commit(tmp_path, applied)
    assert info.value.exit_code == ExitCode.CONFLICT
    assert "gen.py" in info.value.message and "--force" in info.value.message
    assert snapshot_tree(tmp_path) == before


def test_force_overwrites_and_keeps_orig(tmp_path: Path) -> None:
    write_tree(tmp_path, {"gen.py": "edited\n", "gen.py.orig": "an older edit\n"})
    applied = plan_actions(tmp_path, _plan_gen(), recorded={}, state_text=STATE, force=True)
    assert applied.forced == ("gen.py",)
    commit(tmp_path, applied)
    assert (tmp_path / "gen.py").read_text() == "new\n"
    assert (tmp_path / "gen.py.orig").read_text() == "an older edit\n"  # never clobbered
    assert (tmp_path / "gen.py.orig.2").read_text() == "edited\n"


def test_user_file_is_never_touched(tmp_path: Path) -> None:
    write_tree(tmp_path, {"h.py": "my code"})
    plan = plan_of(("h.py", "stub", "user", "t"))
    applied = plan_actions(tmp_path, plan, recorded={}, state_text=STATE)
    assert _kinds(applied)["h.py"] == "keep"


def test_local_file_is_rewritten_without_conflict(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts/x.json": "edited"})
    applied = plan_actions(
        tmp_path, plan_of(("hosts/x.json", "{}", "local")), recorded={}, state_text=STATE
    )
    assert _kinds(applied)["hosts/x.json"] == "update"
    assert applied.conflicts == ()
    assert applied.stale() == []  # machine-specific: never stale for --check


def test_retired_generated_file_is_deleted_only_when_untouched(tmp_path: Path) -> None:
    g = f"{GENERATED_HEADER}\ng"  # a generated module: mcpgen's header first
    write_tree(tmp_path, {"old_gen.py": g, "edited_gen.py": f"{g} + edit"})
    recorded = {"old_gen.py": sha256_hex(g.encode()), "edited_gen.py": sha256_hex(g.encode())}
    applied = plan_actions(tmp_path, plan_of(), recorded=recorded, state_text=STATE)
    assert _kinds(applied)["old_gen.py"] == "delete"
    assert [c.path for c in applied.conflicts] == ["edited_gen.py"]
    forced = plan_actions(tmp_path, plan_of(), recorded=recorded, state_text=STATE, force=True)
    commit(tmp_path, forced)
    assert not (tmp_path / "edited_gen.py").exists()
    assert (tmp_path / "edited_gen.py.orig").read_text() == f"{g} + edit"


def test_move_carries_user_file_and_skips_the_stub(tmp_path: Path) -> None:
    write_tree(tmp_path, {"handlers/old.py": "my code"})
    plan = plan_of(("handlers/new.py", "stub", "user", "new"))
    applied = plan_actions(
        tmp_path,
        plan,
        recorded={},
        state_text=STATE,
        moves=[Move("handlers/old.py", "handlers/new.py")],
    )
    assert [(a.kind, a.path) for a in applied.changes if a.owner == "user"] == [
        ("move", "handlers/new.py")
    ]
    commit(tmp_path, applied)
    assert (tmp_path / "handlers/new.py").read_text() == "my code"
    assert not (tmp_path / "handlers/old.py").exists()


def test_move_is_skipped_when_target_exists_or_source_is_gone(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "old", "b.py": "mine too"})
    plan = plan_of(("b.py", "stub", "user", "t"), ("d.py", "stub", "user", "u"))
    moves = [Move("a.py", "b.py"), Move("c.py", "d.py")]
    applied = plan_actions(tmp_path, plan, recorded={}, state_text=STATE, moves=moves)
    assert _kinds(applied) | {} == {"b.py": "keep", "d.py": "create", STATE_PATH: "create"}


def test_paths_outside_the_project_are_refused(tmp_path: Path) -> None:
    with pytest.raises(McpgenError, match="outside the project"):
        plan_actions(tmp_path, plan_of(("../x.py", "", "generated")), recorded={}, state_text="")


def test_diff_shows_updates_creates_moves_and_deletes(tmp_path: Path) -> None:
    retired = f"{GENERATED_HEADER}\nr\n"
    write_tree(tmp_path, {"gen.py": "old\n", "retired.py": retired, "a.py": "mine"})
    recorded = {"gen.py": sha256_hex(b"old\n"), "retired.py": sha256_hex(retired.encode())}
    plan = plan_of(
        ("gen.py", "new\n", "generated"),
        ("fresh.py", "f", "generated"),
        ("b.py", "stub", "user", "t"),
    )
    applied = plan_actions(
        tmp_path, plan, recorded=recorded, state_text=STATE, moves=[Move("a.py", "b.py")]
    )
    text = unified_diff(applied.actions)
    assert "--- a/gen.py\n+++ b/gen.py\n" in text and "-old\n+new\n" in text
    assert "--- /dev/null\n+++ b/fresh.py\n" in text and "+f\n" in text
    assert "--- a/retired.py\n+++ /dev/null\n" in text
    assert "rename from a.py\nrename to b.py\n" in text
    assert STATE_PATH not in text
    assert sorted(applied.stale()) == ["a.py", "b.py", "fresh.py", "gen.py", "retired.py"]
