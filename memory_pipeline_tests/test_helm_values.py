"""deploy/helm/values.yaml (values for the official Dagster Helm chart) against what is installed here, with
nothing fetched: the instance file the chart writes from these values (its ConfigMap `<fullname>-instance`) is
rendered by `chart_instance`, which follows the chart's templates for the keys this file sets, and is then
(1) loaded as a dagster.yaml by the installed dagster, (2) its run launcher processed by the installed dagster-k8s
and compared with deploy/run-launchers/k8s.yaml, and (3) its run queue, pools, run monitoring and run retries read
by a DagsterInstance and compared with what the same instance reads from deploy/dagster.yaml: one source of truth,
so the two files cannot drift. No Helm and no cluster run here; docs/operations.md says what else was checked."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import dagster as dg
import pytest
import yaml
# Private, in the tests only (as in test_run_launchers.py): how Dagster validates an instance's dagster.yaml.
from dagster._core.instance.config import dagster_instance_config
from dagster_postgres.utils import pg_url_from_config

from memory_pipeline.db import dagster_storage_url
from memory_pipeline.services import LOCATION_NAME
from memory_pipeline.settings import ENV_PREFIX, Settings
from memory_pipeline_tests.test_run_launchers import DEPLOY, launcher_config, validate

ROOT = DEPLOY.parent
VALUES = DEPLOY / "helm" / "values.yaml"
RELEASE = "memory-pipeline"  # `helm install memory-pipeline ... --namespace memory-pipeline`, as the file says
NAMESPACE = "memory-pipeline"

# The chart's own defaults (its values.yaml) for the keys of the rendered sections that this file leaves to it.
CHART_DEFAULTS = {
    "k8sRunLauncher": {"imagePullPolicy": "Always", "loadInclusterConfig": True},
    "queuedRunCoordinator": {"dequeueUseThreads": True, "dequeueNumWorkers": 4},
    "runMonitoring": {"startTimeoutSeconds": 300, "pollIntervalSeconds": 120, "maxResumeRunAttempts": 0,
                      "freeSlotsAfterRunEndSeconds": 0},
    "runRetries": {"maxRetries": 0},
}
# The keys the chart knows in each section (its values schema); any other key is a typo the chart would refuse.
CHART_KEYS = {
    "k8sRunLauncher": {"image", "imagePullPolicy", "jobNamespace", "loadInclusterConfig", "kubeconfigFile",
                       "envConfigMaps", "envSecrets", "envVars", "volumeMounts", "volumes", "labels", "resources",
                       "failPodOnRunFailure", "schedulerName", "securityContext", "runK8sConfig"},
    "runK8sConfig": {"containerConfig", "podSpecConfig", "podTemplateSpecMetadata", "jobSpecConfig", "jobMetadata"},
    "queuedRunCoordinator": {"maxConcurrentRuns", "tagConcurrencyLimits", "dequeueIntervalSeconds",
                             "dequeueUseThreads", "dequeueNumWorkers", "blockOpConcurrencyLimitedRuns"},
    "runMonitoring": {"enabled", "startTimeoutSeconds", "cancelTimeoutSeconds", "maxRuntimeSeconds",
                      "maxResumeRunAttempts", "pollIntervalSeconds", "freeSlotsAfterRunEndSeconds"},
    "runRetries": {"enabled", "maxRetries", "retryOnAssetOrOpFailure"},
    "concurrency": {"enabled", "pools", "runs"},
    "pools": {"defaultLimit", "granularity", "opGranularityRunBuffer"},
    "runs": {"maxConcurrentRuns", "tagConcurrencyLimits"},
}
# What the chart writes beyond deploy/dagster.yaml: the monitor waits 5 minutes (not Dagster's 3) for a run's pod
# to start, as a pod may wait for a node and an image pull.
CHART_ONLY = {"run_coordinator": set(),
              "run_monitoring": {"start_timeout_seconds", "poll_interval_seconds", "max_resume_run_attempts"}}


def load_values() -> dict:
    return yaml.safe_load(VALUES.read_text())


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def section(name: str, given: dict | None) -> dict:
    """The chart's defaults for a section overlaid by the file's keys (a null drops a default, as in Helm);
    an unknown key raises."""
    given = dict(given or {})
    unknown = set(given) - CHART_KEYS[name]
    if unknown:
        raise KeyError(f"{name}: not a key of the chart: {sorted(unknown)}")
    merged = {**CHART_DEFAULTS.get(name, {}), **given}
    return {key: value for key, value in merged.items() if value is not None}


def fullname(values: dict) -> str:
    override = values.get("global", {}).get("fullnameOverride") or values.get("fullnameOverride")
    return override or (RELEASE if "dagster" in RELEASE else f"{RELEASE}-dagster")


def names(sources: list[dict]) -> list[str]:
    return [source["name"] for source in sources]


def chart_instance(values: dict) -> dict:
    """The dagster.yaml the chart's instance ConfigMap holds for these values (templates configmap-instance.yaml
    and helpers/instance/: _postgresql, _run-launcher, _run-coordinator, _concurrency), for the sections that
    this file sets; the chart also writes a scheduler, compute logs and sensor threads from its own defaults."""
    glob = values.get("global", {})
    pg = values["postgresql"]
    storage = {"postgres_db": {
        "username": pg["postgresqlUsername"], "password": {"env": "DAGSTER_PG_PASSWORD"},
        "hostname": pg["postgresqlHost"], "db_name": pg["postgresqlDatabase"], "port": pg["service"]["port"],
        "params": pg.get("postgresqlParams", {}),
        **({"scheme": pg["postgresqlScheme"]} if pg.get("postgresqlScheme") else {})}}
    instance = {
        f"{kind}_storage": {"module": f"dagster_postgres.{module}", "class": cls, "config": storage}
        for kind, module, cls in (("run", "run_storage", "PostgresRunStorage"),
                                  ("event_log", "event_log", "PostgresEventLogStorage"),
                                  ("schedule", "schedule_storage", "PostgresScheduleStorage"))}

    assert values["runLauncher"]["type"] == "K8sRunLauncher"
    k8s = section("k8sRunLauncher", values["runLauncher"]["config"]["k8sRunLauncher"])
    launcher = {
        "load_incluster_config": k8s["loadInclusterConfig"],
        "job_namespace": k8s.get("jobNamespace") or NAMESPACE,
        "image_pull_policy": k8s["imagePullPolicy"],
        "service_account_name": glob.get("serviceAccountName") or values.get("serviceAccount", {}).get("name")
        or fullname(values),
        "dagster_home": glob.get("dagsterHome", "/opt/dagster/dagster_home"),
        "instance_config_map": f"{fullname(values)}-instance",
        "postgres_password_secret": glob.get("postgresqlSecretName", "dagster-postgresql-secret"),
    }
    for key in ("envConfigMaps", "envSecrets"):
        if k8s.get(key):
            launcher[snake(key)] = names(k8s[key])
    for key in ("kubeconfigFile", "envVars", "volumeMounts", "volumes", "labels", "resources", "schedulerName",
                "securityContext"):
        if k8s.get(key):
            launcher[snake(key)] = k8s[key]
    if k8s.get("failPodOnRunFailure"):
        launcher["fail_pod_on_run_failure"] = True
    run_k8s = section("runK8sConfig", k8s.get("runK8sConfig"))
    if run_k8s:
        launcher["run_k8s_config"] = {snake(key): value for key, value in run_k8s.items() if value}
    instance["run_launcher"] = {"module": "dagster_k8s", "class": "K8sRunLauncher", "config": launcher}

    daemon = values["dagsterDaemon"]
    if daemon.get("enabled", True) and daemon["runCoordinator"]["enabled"]:
        assert daemon["runCoordinator"]["type"] == "QueuedRunCoordinator"
        queue = section("queuedRunCoordinator", daemon["runCoordinator"]["config"]["queuedRunCoordinator"])
        config = {snake(key): value for key, value in queue.items() if value not in ([], {})}
        instance["run_coordinator"] = {"module": "dagster.core.run_coordinator", "class": "QueuedRunCoordinator",
                                       **({"config": config} if config else {})}
    monitoring = section("runMonitoring", daemon.get("runMonitoring"))
    if monitoring.get("enabled"):
        instance["run_monitoring"] = {snake(key): value for key, value in monitoring.items()}
    retries = section("runRetries", daemon.get("runRetries"))
    if retries.get("enabled"):
        instance["run_retries"] = {snake(key): value for key, value in retries.items()
                                   if key != "maxRetries" or value}

    concurrency = section("concurrency", values.get("concurrency"))
    if concurrency.get("enabled"):
        pools, runs = section("pools", concurrency.get("pools")), section("runs", concurrency.get("runs"))
        queue = instance.get("run_coordinator", {}).get("config", {})
        # The chart refuses run limits in both places (_concurrency.tpl), as Dagster does.
        assert not ({"max_concurrent_runs", "tag_concurrency_limits"} & set(queue) and runs), "run limits twice"
        rendered = {name: {snake(key): value for key, value in part.items() if value not in ([], {})}
                    for name, part in (("pools", pools), ("runs", runs))}
        instance["concurrency"] = {name: part for name, part in rendered.items() if part}
    instance["telemetry"] = {"enabled": values["telemetry"]["enabled"]}
    return instance


def read_instance(config: dict, tmp_path: Path) -> dict:
    """What a DagsterInstance makes of this instance config: its run queue and pools, run monitoring, run
    retries and telemetry. Storage is swapped for SQLite in tmp_path and the run launcher left out (a
    K8sRunLauncher needs a cluster): the settings compared do not depend on either."""
    home = tmp_path / f"home{len(list(tmp_path.iterdir()))}"
    home.mkdir()
    local = {key: value for key, value in config.items()
             if key not in ("storage", "run_storage", "event_log_storage", "schedule_storage", "run_launcher")}
    (home / "dagster.yaml").write_text(yaml.safe_dump({**local, "storage": {"sqlite": {"base_dir": str(home)}}}))
    with dg.DagsterInstance.from_config(str(home)) as instance:
        return {
            "run_coordinator": type(instance.run_coordinator).__name__,
            "concurrency": instance.get_concurrency_config(),
            "run_monitoring": (instance.run_monitoring_enabled, instance.run_monitoring_max_runtime_seconds,
                               instance.run_monitoring_settings.get("free_slots_after_run_end_seconds")),
            "run_retries": (instance.run_retries_enabled, instance.run_retries_max_retries,
                            instance.run_retries_retry_on_asset_or_op_failure),
            "telemetry": instance.telemetry_enabled,
        }


def drift(values: dict, tmp_path: Path) -> dict:
    """Where the chart's instance for these values and deploy/dagster.yaml differ, as Dagster reads them."""
    chart = read_instance(chart_instance(values), tmp_path)
    project = read_instance(yaml.safe_load((DEPLOY / "dagster.yaml").read_text()), tmp_path)
    return {key: (chart[key], project[key]) for key in chart if chart[key] != project[key]}


def test_helm_values_run_launcher_is_k8s_yaml_for_the_installed_dagster_k8s():
    launcher = chart_instance(load_values())["run_launcher"]
    result = validate(launcher)
    assert result.success, [e.message for e in result.errors]
    k8s = launcher_config("k8s.yaml")
    assert (launcher["module"], launcher["class"]) == (k8s["module"], k8s["class"])
    # Everything k8s.yaml sets, the chart sets alike; the ConfigMap is the chart's own, named after the release.
    for key, value in k8s["config"].items():
        if key != "instance_config_map":
            assert launcher["config"][key] == value, key
    assert launcher["config"]["instance_config_map"] == f"{RELEASE}-dagster-instance"
    assert set(launcher["config"]) - set(k8s["config"]) == {"image_pull_policy", "postgres_password_secret"}


def test_helm_values_instance_is_a_valid_dagster_yaml(tmp_path):
    instance = chart_instance(load_values())
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(instance))
    config, _ = dagster_instance_config(str(tmp_path))
    assert config["run_launcher"]["class"] == "K8sRunLauncher"
    assert config["telemetry"] == {"enabled": False}
    for key, extra in CHART_ONLY.items():
        project = yaml.safe_load((DEPLOY / "dagster.yaml").read_text()).get(key) or {}
        written = instance[key].get("config", {}) if key == "run_coordinator" else instance[key]
        assert set(written) - set(project) <= extra, key


def test_helm_values_queue_pools_monitoring_and_retries_are_deploy_dagster_yamls(tmp_path):
    assert drift(load_values(), tmp_path) == {}


def set_value(values: dict, path: tuple, value) -> dict:
    node = values
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return values


@pytest.mark.parametrize("path, value", [
    (("concurrency", "runs", "maxConcurrentRuns"), 5),
    (("concurrency", "runs", "tagConcurrencyLimits"), []),
    (("concurrency", "pools", "defaultLimit"), 2),
    (("dagsterDaemon", "runMonitoring", "maxRuntimeSeconds"), 7200),
    (("dagsterDaemon", "runRetries", "retryOnAssetOrOpFailure"), True),
    (("telemetry", "enabled"), True),
])
def test_a_helm_value_drifting_from_deploy_dagster_yaml_is_caught(path, value, tmp_path):
    assert drift(set_value(load_values(), path, value), tmp_path), path


def test_run_limits_belong_in_concurrency_runs(tmp_path):
    """The run limits sit in `concurrency.runs`, not in the run coordinator: the chart refuses them in both
    places, and with `concurrency.pools` set Dagster refuses them in the run coordinator."""
    queue = ("dagsterDaemon", "runCoordinator", "config", "queuedRunCoordinator", "maxConcurrentRuns")
    with pytest.raises(AssertionError, match="run limits twice"):
        chart_instance(set_value(load_values(), queue, 4))
    values = set_value(set_value(load_values(), queue, 4), ("concurrency", "runs"), None)
    with pytest.raises(dg.DagsterInvalidConfigError, match="max_concurrent_runs"):
        drift(values, tmp_path)


def test_a_misspelled_helm_value_is_refused():
    values = load_values()
    k8s = values["runLauncher"]["config"]["k8sRunLauncher"]
    k8s["runK8sconfig"] = k8s.pop("runK8sConfig")
    with pytest.raises(KeyError, match="runK8sconfig"):
        chart_instance(values)


def test_helm_values_code_location_storage_and_secrets():
    values = load_values()
    (deployment,) = values["dagster-user-deployments"]["deployments"]
    module = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["dagster"]["module_name"]
    # `dagster api grpc -h 0.0.0.0 -p 4000 -m memory_pipeline.definitions`, the compose file's code server.
    assert deployment["dagsterApiGrpcArgs"] == ["-m", module] and "codeServerArgs" not in deployment
    compose = " ".join(yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["code"]["command"])
    assert deployment["port"] == int(compose.split(" -p ")[1].split()[0]) == 4000
    # The webserver and the daemon reach it by its Service under the location name the project's code uses.
    workspace = values["dagsterWebserver"]["workspace"]
    assert workspace["enabled"] and workspace["servers"] == [
        {"host": deployment["name"], "port": deployment["port"], "name": LOCATION_NAME}]
    # The code server and every run read their settings from the Secret that k8s.yaml names.
    secrets = launcher_config("k8s.yaml")["config"]["env_secrets"]
    assert names(deployment["envSecrets"]) == secrets
    assert names(values["runLauncher"]["config"]["k8sRunLauncher"]["envSecrets"]) == secrets
    assert deployment["includeConfigInLaunchedRuns"]["enabled"] is True
    env = deployment["env"]
    assert "MEMORY_PIPELINE_SHARDS" in env
    assert set(env) <= {ENV_PREFIX + name.upper() for name in Settings.model_fields}, set(env)
    Settings.from_env({**env, "OPENAI_API_KEY": "from-the-secret"})  # every value is a valid setting
    # External PostgreSQL (pgvector), Dagster's tables in schema `dagster` through psycopg2: the URL the chart's
    # storage config makes is the one `memory-pipeline` derives for Dagster from the database URL.
    pg = values["postgresql"]
    assert pg["enabled"] is False and values["generatePostgresqlPasswordSecret"] is False
    storage = chart_instance(values)["run_storage"]["config"]["postgres_db"]
    url = pg_url_from_config({"postgres_db": {**storage, "password": "secret"}})
    database = f"postgresql://{pg['postgresqlUsername']}:secret@{pg['postgresqlHost']}:5432/{pg['postgresqlDatabase']}"
    assert url == dagster_storage_url(database, "dagster")
