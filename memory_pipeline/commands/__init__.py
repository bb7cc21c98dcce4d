"""The bodies of the `memory-pipeline` commands, one module per group, each imported only when its command runs
(memory_pipeline/cli.py parses the arguments and dispatches): a command that only reads imports no Dagster."""
