"""How each host refers to an environment variable, so secret values are never written.

A host that expands no syntax gets a visible placeholder and a warning instead: a syntax
the host does not implement is sent literally and fails late, which is worse.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcpgen.manifest.model import EnvVar


@dataclass(frozen=True)
class EnvSyntax:
    """One host's spelling of "the value of variable NAME" (`{name}` marks the name)."""

    template: str | None
    label: str
    # The host takes variable *names* in fields of its own (Codex `env_vars`, Goose
    # `env_keys`): no reference syntax, yet nothing needs to be written by hand.
    by_name: bool = False

    @property
    def expands(self) -> bool:
        """Whether the host fills in variables itself, by reference or by name."""
        return self.template is not None or self.by_name

    def ref(self, name: str) -> str | None:
        """The reference to `name` in this syntax; None when the host has no syntax."""
        return None if self.template is None else self.template.replace("{name}", name)


DOLLAR_BRACE = EnvSyntax("${{name}}", "${VAR}")
ENV_COLON = EnvSyntax("${env:{name}}", "${env:VAR}")
OPENCODE = EnvSyntax("{env:{name}}", "{env:VAR}")
CONTINUE_SECRETS = EnvSyntax("${{ secrets.{name} }}", "${{ secrets.VAR }}")
NONE = EnvSyntax(None, "none (literal values only)")


def placeholder(name: str) -> str:
    """What stands where a host cannot reference a variable: obviously not a real value."""
    return f"<{name}>"


def passed_vars(env: tuple[EnvVar, ...]) -> tuple[EnvVar, ...]:
    """The variables a snippet passes: required ones without a default.

    The server applies its own defaults, and an optional variable referenced but unset
    breaks some hosts (Claude Code refuses `${VAR}` when VAR is unset), so both are left
    to the README.
    """
    return tuple(v for v in env if v.required and v.default is None)


def env_values(env: tuple[EnvVar, ...], syntax: EnvSyntax) -> dict[str, str]:
    """`env` block for a host: references where it has a syntax, placeholders otherwise."""
    values: dict[str, str] = {}
    for var in passed_vars(env):
        values[var.name] = syntax.ref(var.name) or placeholder(var.name)
    return values


def bearer_value(name: str, syntax: EnvSyntax) -> str:
    """The `Authorization` value: `Bearer` and the token variable's reference or placeholder."""
    return f"Bearer {syntax.ref(name) or placeholder(name)}"
