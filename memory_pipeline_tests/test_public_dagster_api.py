"""Only Dagster's public API, but for the names listed here with the reason there is no public way (Dagster
1.13.27): a Dagster upgrade may move a private name, so each one is known, explained, and still importable. A new
private import anywhere in the package fails this test until it is listed with its reason, or replaced."""

import ast
import importlib
from pathlib import Path

import memory_pipeline

PACKAGE = Path(memory_pipeline.__file__).parent
# (module, name) -> why no public name serves.
PRIVATE_NAMES = {
    ("dagster._core.definitions.asset_checks.asset_check_evaluation", "AssetCheckEvaluationTargetMaterializationData"):
        "defs/assets.py: a ranged run's checks yield one AssetCheckEvaluation per partition (AssetCheckResult takes "
        "no partition); linking each to its partition's materialization needs this class, which dagster does not "
        "export",
    ("dagster._core.definitions.job_base", "InMemoryJob"):
        "runner.py: the CLI's in-process run recorded with the code location's origin; execute_in_process and "
        "execute_job record none, so the run would be missing from the job's page and from run status sensors",
    ("dagster._core.execution.api", "execute_run"):
        "runner.py: executes the run created with that origin (same reason)",
    ("dagster._core.remote_origin", "InProcessCodeLocationOrigin"): "runner.py: builds that origin (same reason)",
    ("dagster._core.remote_origin", "RemoteJobOrigin"): "runner.py: builds that origin (same reason)",
    ("dagster._core.remote_origin", "RemoteRepositoryOrigin"): "runner.py: builds that origin (same reason)",
    ("dagster._core.types.loadable_target_origin", "LoadableTargetOrigin"): "runner.py: builds that origin (same reason)",
}


def is_private(module: str) -> bool:
    parts = module.split(".")
    return parts[0].startswith("dagster") and any(p.startswith("_") for p in parts[1:])


def private_names() -> dict[tuple[str, str], list[str]]:
    """(module, name) of every private Dagster import in the package -> the files importing it; `import
    dagster._x` and `dg._x` attribute use count too (name "*")."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and is_private(node.module):
                for alias in node.names:
                    found.setdefault((node.module, alias.name), []).append(where)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if is_private(alias.name):
                        found.setdefault((alias.name, "*"), []).append(where)
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and isinstance(node.value, ast.Name) and node.value.id in ("dg", "dagster"):
                found.setdefault((f"dagster.{node.attr}", "*"), []).append(where)
    return found


def test_public_dagster_api():
    found = private_names()
    unlisted = {key: files for key, files in found.items() if key not in PRIVATE_NAMES}
    assert not unlisted, f"private Dagster names without a reason in PRIVATE_NAMES: {unlisted}"
    stale = set(PRIVATE_NAMES) - set(found)
    assert not stale, f"listed but no longer used (remove them): {stale}"
    for (module, name), reason in PRIVATE_NAMES.items():
        assert reason.strip()
        assert hasattr(importlib.import_module(module), name), f"{module}.{name} moved in this Dagster"
    print("\n".join(f"{m}.{n}: {r}" for (m, n), r in sorted(PRIVATE_NAMES.items())))


def test_a_new_private_import_is_found(tmp_path, monkeypatch):
    (tmp_path / "new.py").write_text("from dagster._core.storage.tags import PARTITION_NAME_TAG\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["PACKAGE"]), "PACKAGE", tmp_path)
    assert private_names() == {("dagster._core.storage.tags", "PARTITION_NAME_TAG"): ["new.py"]}
