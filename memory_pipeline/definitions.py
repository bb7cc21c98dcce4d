"""The code location (workspace.yaml, `dagster api grpc -m memory_pipeline.definitions`, `memory-pipeline ui`,
`dg dev`): every definition of the defs folder, memory_pipeline/defs/, loaded the `dg` way (`[tool.dg]` in
pyproject.toml names the folder)."""

from pathlib import Path

import dagster as dg

defs = dg.load_from_defs_folder(path_within_project=Path(__file__).resolve().parent)
