"""Tool schemas → pydantic models, through datamodel-code-generator."""
