"""Where settings come from besides the model: the variables' prefix, the error naming a variable, the check for
unknown `MEMORY_PIPELINE_*` variables, and the settings a command saved in the home directory (`settings.env`: the
demo's partition range), which the environment overrides. `settings.Settings.from_env` reads through these."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

ENV_PREFIX = "MEMORY_PIPELINE_"
DEFAULT_HOME = Path("~/.memory_pipeline")
# Settings a command saved in the home directory (the demo: the sample's partition range), below the environment.
SAVED_SETTINGS_FILE = "settings.env"


class SettingError(ValueError):
    """A `MEMORY_PIPELINE_*` variable holds a value that cannot be used. `variable` is its full name,
    `problem` says why (never the value of the database URL, which may hold a password)."""

    def __init__(self, variable: str, problem: str):
        super().__init__(f"invalid setting {variable}: {problem}")
        self.variable = variable
        self.problem = problem


def first_error(exc: Exception) -> str:
    """One line saying why a value was refused, from pydantic's error or any other exception."""
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        return str(error["msg"])
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


def unknown_variable(env: Mapping[str, str], known: set[str]) -> None:
    """Raise SettingError for a `MEMORY_PIPELINE_*` variable that is no setting (a typo would otherwise leave the
    intended setting at its default without a word), naming the closest setting when there is one. `known`: the
    names after the prefix that are the project's."""
    for variable in sorted(env):
        if not variable.startswith(ENV_PREFIX) or variable[len(ENV_PREFIX):] in known:
            continue
        close = difflib.get_close_matches(variable[len(ENV_PREFIX):], sorted(known), n=1, cutoff=0.6)
        hint = f"; did you mean {ENV_PREFIX}{close[0]}?" if close else "; the README's configuration table lists them"
        raise SettingError(variable, "no such setting" + hint)


def saved_settings_path(environ: Mapping[str, str]) -> Path:
    """`<home>/settings.env` for the home `environ` names (MEMORY_PIPELINE_HOME, default ~/.memory_pipeline)."""
    home = (environ.get(ENV_PREFIX + "HOME") or "").strip() or str(DEFAULT_HOME)
    return Path(home).expanduser() / SAVED_SETTINGS_FILE


def saved_settings(environ: Mapping[str, str]) -> dict[str, str]:
    """`MEMORY_PIPELINE_X=value` lines of the home's settings.env ({} when there is none); the environment
    overrides them. Raises SettingError for a line that is not `MEMORY_PIPELINE_X=value`."""
    try:
        path = saved_settings_path(environ)
    except RuntimeError:  # `~user` of no such user: MEMORY_PIPELINE_HOME is then refused with its name
        return {}
    if not path.is_file():
        return {}
    saved = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip().startswith(ENV_PREFIX):
            raise SettingError(str(path), f"line {number} is not MEMORY_PIPELINE_X=value")
        saved[name.strip()] = value.strip()
    return saved


def save_settings(environ: Mapping[str, str], values: Mapping[str, str]) -> Path:
    """Write `values` ({field: value}) into the home's settings.env, keeping its other lines; returns its path."""
    path = saved_settings_path(environ)
    saved = {**saved_settings(environ), **{ENV_PREFIX + k.upper(): v for k, v in values.items()}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Written by memory-pipeline (the demo's partition range, db n8n-credential's port); the environment"
                    " overrides these. Remove a line to undo what it set.\n"
                    + "".join(f"{k}={v}\n" for k, v in sorted(saved.items())))
    return path
