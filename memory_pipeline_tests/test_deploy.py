"""The shipped deployment files hold together: docker-compose.yml (Docker is not available to run it here, so
its structure is checked), the Dockerfile, the workspace files and the systemd units."""

import configparser
import shlex
from pathlib import Path

import yaml

from memory_pipeline.db import dagster_storage_url
from memory_pipeline.settings import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[1]
SERVICES = {"postgres", "code", "webserver", "daemon"}
KNOWN_VARIABLES = {ENV_PREFIX + name.upper() for name in Settings.model_fields} | {
    "MEMORY_PIPELINE_DAGSTER_STORAGE_URL", "DAGSTER_HOME"}


def grpc_location(workspace: Path) -> dict:
    entries = yaml.safe_load(workspace.read_text())["load_from"]
    assert len(entries) == 1
    return entries[0]["grpc_server"]


def check_environment(env: dict) -> None:
    assert set(env) <= KNOWN_VARIABLES, set(env) - KNOWN_VARIABLES
    database, storage = env["MEMORY_PIPELINE_DATABASE_URL"], env["MEMORY_PIPELINE_DAGSTER_STORAGE_URL"]
    # The same database for Dagster, in the dialect and schema `memory-pipeline` itself would derive.
    assert storage == dagster_storage_url(database, "dagster")
    Settings.from_env({k: str(v) for k, v in env.items()})  # every value is a valid setting


def test_compose_runs_code_server_webserver_and_daemon_on_pgvector():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == SERVICES
    assert services["postgres"]["image"].startswith("pgvector/pgvector:pg")
    assert "pgdata" in compose["volumes"]
    code = " ".join(services["code"]["command"])
    assert "memory-pipeline init-db" in code and "dagster api grpc -m memory_pipeline.definitions" in code
    port = int(code.split(" -p ")[1].split()[0])
    for name in ("webserver", "daemon"):
        argv = services[name]["command"]
        assert argv[0] == {"webserver": "dagster-webserver", "daemon": "dagster-daemon"}[name]
        workspace = Path(argv[argv.index("-w") + 1])
        local = ROOT / workspace.relative_to("/opt/memory_pipeline/app")
        assert grpc_location(local) == {"host": "code", "port": port, "location_name": "memory_pipeline"}
        assert "code" in services[name]["depends_on"]
    assert services["code"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("code", "webserver", "daemon"):
        assert services[name]["stop_signal"] == "SIGINT"
        assert services[name]["image"] == "memory_pipeline:latest" and services[name]["build"] == "."
        check_environment(services[name]["environment"])
    assert services["webserver"]["ports"] == ["3000:3000"]
    # DAGSTER_HOME is where the Dockerfile puts the project's dagster.yaml.
    dockerfile = (ROOT / "Dockerfile").read_text()
    home = services["code"]["environment"]["DAGSTER_HOME"]
    assert f"DAGSTER_HOME={home}" in dockerfile and 'cp deploy/dagster.yaml "$DAGSTER_HOME/dagster.yaml"' in dockerfile
    assert "WORKDIR /opt/memory_pipeline/app" in dockerfile and "pip install --no-cache-dir -e ." in dockerfile


def test_systemd_units_start_the_three_services_with_sigint():
    units = {}
    for path in sorted((ROOT / "deploy" / "systemd").glob("*.service")):
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str
        parser.read(path)
        assert {"Unit", "Service", "Install"} <= set(parser.sections()), path.name
        assert parser["Service"]["KillSignal"] == "SIGINT"
        assert parser["Service"]["EnvironmentFile"] == "/etc/memory-pipeline/env"
        units[path.stem] = shlex.split(parser["Service"]["ExecStart"])
    assert set(units) == {"memory-pipeline-code", "memory-pipeline-webserver", "memory-pipeline-daemon"}
    code = units["memory-pipeline-code"]
    assert code[1:5] == ["api", "grpc", "-m", "memory_pipeline.definitions"]
    port = int(code[code.index("-p") + 1])
    for name in ("memory-pipeline-webserver", "memory-pipeline-daemon"):
        argv = units[name]
        workspace = Path(argv[argv.index("-w") + 1])
        local = ROOT / workspace.relative_to("/opt/memory_pipeline")
        assert grpc_location(local) == {"host": "127.0.0.1", "port": port, "location_name": "memory_pipeline"}
    env = dict(line.split("=", 1) for line in (ROOT / "deploy/systemd/memory-pipeline.env").read_text().splitlines()
               if line and not line.startswith("#"))
    check_environment(env)
    assert env["DAGSTER_HOME"] == env["MEMORY_PIPELINE_HOME"] + "/dagster"  # where init-db copies dagster.yaml
