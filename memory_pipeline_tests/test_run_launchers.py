"""The run launchers of deploy/run-launchers/ are valid for the installed dagster-docker and dagster-k8s (pinned
in pyproject.toml's [test] extra, the release family of dagster-postgres): each file's `run_launcher` config is
processed by its class's own config schema, and deploy/dagster.yaml with it merged in is a valid instance file.
Neither Docker nor a Kubernetes cluster runs here: this checks the configuration, not a launch."""

import importlib
from pathlib import Path

import pytest
import yaml
# Private, in the tests only: Dagster validates a class's config with these when an instance loads it, and has no
# public validator of a ConfigurableClass's config.
from dagster._config import process_config, resolve_to_config_type
from dagster._core.instance.config import dagster_instance_config

from memory_pipeline.db import SQL_DIR

DEPLOY = SQL_DIR.parent / "deploy"
LAUNCHERS = {"docker.yaml": ("dagster_docker", "DockerRunLauncher"), "k8s.yaml": ("dagster_k8s", "K8sRunLauncher")}


def launcher_config(name: str) -> dict:
    return yaml.safe_load((DEPLOY / "run-launchers" / name).read_text())["run_launcher"]


def validate(launcher: dict):
    klass = getattr(importlib.import_module(launcher["module"]), launcher["class"])
    return process_config(resolve_to_config_type(klass.config_type()), launcher.get("config") or {})


@pytest.mark.parametrize("name", sorted(LAUNCHERS))
def test_each_run_launcher_is_valid_for_its_installed_library(name, tmp_path):
    launcher = launcher_config(name)
    assert (launcher["module"], launcher["class"]) == LAUNCHERS[name]
    result = validate(launcher)
    assert result.success, [e.message for e in result.errors]
    # Merged into the project's instance file, as the docs say to do: still a valid dagster.yaml.
    instance = yaml.safe_load((DEPLOY / "dagster.yaml").read_text())
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump({**instance, "run_launcher": launcher}))
    config, _ = dagster_instance_config(str(tmp_path))
    assert config["run_launcher"]["class"] == LAUNCHERS[name][1]


@pytest.mark.parametrize("name", sorted(LAUNCHERS))
def test_a_misspelled_run_launcher_field_is_refused(name):
    launcher = launcher_config(name)
    launcher["config"] = {**launcher["config"], "env_var": ["MEMORY_PIPELINE_DATABASE_URL"]}  # env_vars / env_secrets
    assert not validate(launcher).success


def test_a_run_whose_worker_died_is_retried_and_a_red_run_is_not(tmp_path):
    """deploy/dagster.yaml as Dagster reads it: run retries on, for runs that failed without a failed step only
    (a dead worker, which run monitoring fails), so a shard's retried run finishes its night."""
    (tmp_path / "dagster.yaml").write_text((DEPLOY / "dagster.yaml").read_text())
    config, _ = dagster_instance_config(str(tmp_path))
    assert config["run_retries"] == {"enabled": True, "max_retries": 2, "retry_on_asset_or_op_failure": False}
    assert config["run_monitoring"]["enabled"] is True
