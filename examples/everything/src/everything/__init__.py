"""The conformance suite's reference fixtures, as an mcpgen project"""

from everything._generated import __version__

__all__ = ["__version__"]
