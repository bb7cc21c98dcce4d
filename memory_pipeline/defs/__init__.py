"""The Dagster layer, in Dagster's `dg` layout (the defs module of `[tool.dg]` in pyproject.toml, loaded by
`memory_pipeline.definitions` with `dg.load_from_defs_folder`; `dg check defs`, `dg list defs`): `nightly` (the
definitions: job, schedule, sensors, resource), `assets` (the five assets and their checks, wrapping
`memory_pipeline.stages`), `erasure_job`, `resources`, `metadata`, `catalog`, `run_health`."""
