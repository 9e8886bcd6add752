"""What every stage shares: names, the generated-file header, paths, git, templates."""
