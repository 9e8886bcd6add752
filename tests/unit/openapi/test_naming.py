"""Tool names from operationIds: snake_case, at most 64 characters, unique, stable."""

from __future__ import annotations

from mcpgen.openapi.naming import MAX_LENGTH, base_name, snake_case, unique_names


def test_github_style_ids() -> None:
    assert base_name("repos/get", "get", "/x") == "repos_get"
    assert (
        base_name("actions/list-workflow-runs-for-repo", "get", "/x")
        == "actions_list_workflow_runs_for_repo"
    )


def test_camel_case_ids() -> None:
    assert snake_case("getUserByID") == "get_user_by_id"
    assert snake_case("listHTTPServers") == "list_http_servers"


def test_without_an_operation_id_method_and_path_name_it() -> None:
    assert base_name(None, "get", "/pets/{petId}/name") == "get_pets_pet_id_name"


def test_a_leading_digit_is_prefixed() -> None:
    assert base_name("2fa/enable", "post", "/x") == "op_2fa_enable"


def test_long_ids_are_cut_and_kept_apart_by_a_digest() -> None:
    prefix = "enterprise-admin/list-self-hosted-runner-groups-for-enterprise-organization"
    first = base_name(f"{prefix}-alpha", "get", "/x")
    second = base_name(f"{prefix}-beta", "get", "/x")
    assert len(first) <= MAX_LENGTH and len(second) <= MAX_LENGTH
    assert first != second
    assert first.startswith("enterprise_admin_list_self_hosted")
    assert base_name(f"{prefix}-alpha", "get", "/x") == first  # stable


def test_clashes_keep_one_plain_name_and_the_rest_get_a_digest() -> None:
    names = unique_names([("repos-get", "repos_get"), ("repos/get", "repos_get"), ("x", "x")])
    assert names["repos-get"] == "repos_get"
    assert names["repos/get"].startswith("repos_get_") and len(set(names.values())) == 3


def test_names_that_give_the_same_model_class_count_as_a_clash() -> None:
    names = unique_names([("a", "list_v2"), ("b", "list_v_2")])
    assert names["a"] != names["b"]
    assert names["a"] == "list_v2"


def test_a_name_does_not_depend_on_the_other_operations() -> None:
    alone = unique_names([("pets/list", "pets_list")])
    crowded = unique_names([("a", "a"), ("pets/list", "pets_list"), ("z", "z")])
    assert alone["pets/list"] == crowded["pets/list"]
