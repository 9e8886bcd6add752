"""Forecasts and weather alerts (deterministic example data, no network)."""

from weather._generated import __version__

__all__ = ["__version__"]
