"""Test code every generated project runs, the same in each: copied verbatim into its `tests/`."""
