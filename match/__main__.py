from .runner import cli

raise SystemExit(cli())
