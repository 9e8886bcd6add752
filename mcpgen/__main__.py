"""`python -m mcpgen`."""

from mcpgen.cli import main

main()
