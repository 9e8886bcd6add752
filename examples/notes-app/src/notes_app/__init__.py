"""Shared notebooks with threaded comments."""

from notes_app._generated import __version__

__all__ = ["__version__"]
