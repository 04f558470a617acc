"""CLI command modules, one per game or tool; each adds its commands to the shared groups."""
