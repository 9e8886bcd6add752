"""A knowledge graph that remembers entities, relations and observations."""

from memory._generated import __version__

__all__ = ["__version__"]
