"""JSON Schema regular expressions read as ECMA-262: the one implementation is the runtime's,
which every generated server ships, so a manifest is judged exactly as its server judges calls."""

from mcpgen.runtime.validation.ecma_regex import (
    InvalidPattern,
    compile_pattern,
    extra_keys,
    is_regex,
    search,
    with_ecma_regex,
)

__all__ = [
    "InvalidPattern",
    "compile_pattern",
    "extra_keys",
    "is_regex",
    "search",
    "with_ecma_regex",
]
