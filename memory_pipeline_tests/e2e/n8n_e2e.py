"""End-to-end check against a real n8n: install, import the templates, publish, chat, consolidate, recall.

Not part of the test suite (pytest collects only test_*.py) nor of CI: the n8n install takes ~10-15 min and
2.3 GB. Run it from the repository's venv:

    .venv/bin/python -m memory_pipeline_tests.e2e.n8n_e2e --scratch /work/scratch/n8n [--keep]
    .venv/bin/python -m memory_pipeline_tests.e2e.n8n_e2e --scratch /work/scratch/n8n1 --n8n-version 1.123.50

One scratch folder holds one n8n version: the run uses the version installed there (its
node_modules/n8n/package.json) and activates the workflows the way that major version does.

What it does, each step printed with PASS or FAIL (exit status 1 on any FAIL):
 1. installs n8n from npm in `--scratch` unless it is there (n8n@2.8.4, the newest 2.x that runs on Node 20;
    1.123.50 is the newest 1.x that does, later 1.x need isolated-vm 6 and Node 22; an npm
    `overrides` of xlsx to 0.18.5 because n8n fetches it from outside the registry; npm_config_nodedir=/usr so
    sqlite3 builds from the local headers);
 2. starts the scripted OpenAI-compatible server (memory_pipeline/testing/openai_server.py) on 127.0.0.1: it
    answers the pipeline's prompts from the transcript and the agent's with a short reply (or, for a message
    written "tool NAME: TEXT", a call of the agent's tool NAME with TEXT), and records every request;
 3. makes the embedded database listen on 127.0.0.1 with a password (MEMORY_PIPELINE_EMBEDDED_PORT), runs
    `memory-pipeline db n8n-credential`, and fills in n8n/credentials.example.json from its fields (Postgres),
    the scripted server (OpenAI) and a header secret (Header Auth), as docs/n8n.md tells a user to;
 4. runs docs/n8n.md's command-line path: `n8n import:credentials`, `n8n import:workflow` of the three
    templates as shipped, `n8n list:workflow` (each template's own id), `n8n publish:workflow --id=ID`
    (`update:workflow --active=true` on 1.x, which has no publish command); plus a copy of the first template on
    a database without memory_pipeline and one without credentials; starts n8n on 127.0.0.1 with its own data
    directory (N8N_RUNNERS_BROKER_PORT moved off N8N_PORT);
 5. chats with three session keys (two through the public chats, one through the header-auth webhook), waits
    for the conversations to close (MEMORY_PIPELINE_IDLE_GAP_MINUTES=1), runs `memory-pipeline materialize
    --today`, chats again, and checks that each key's facts reach the model's system prompt, that no key sees
    another's, that "Search my memory" returns only the key's own facts and "Search my conversations" only its
    own earlier conversation, that the webhook refuses a request without the secret, and that the workflows on
    the empty database and without credentials stop with the message saying what to set up.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import psycopg

from memory_pipeline.extractors.prompts import SHAPE_PREFIX
from memory_pipeline.testing.openai_server import Reply, ScriptedOpenAIServer, transcript_responder
from memory_pipeline.services import free_port

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "n8n"
CREDENTIALS_EXAMPLE = TEMPLATES / "credentials.example.json"
N8N_VERSION_ON_NODE_20 = "2.8.4"  # later 2.x releases need Node 22-24
N8N_1X_ON_NODE_20 = "1.123.50"  # from 1.123.66 on, 1.x needs isolated-vm 6, which builds only on Node >= 22
HEADER = ("X-Backend-Secret", uuid.uuid4().hex)
IDLE_GAP_MINUTES = 1


class Report:
    """PASS/FAIL lines, printed as they come."""

    def __init__(self) -> None:
        self.failed = 0

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        self.failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {what}" + (f"  ({detail})" if detail and not ok else ""), flush=True)
        return ok

    def note(self, text: str) -> None:
        print(f"      {text}", flush=True)



# -- 1. install ---------------------------------------------------------------------------------------------
def install_n8n(scratch: Path, version: str) -> Path:
    """`scratch/node_modules/.bin/n8n`, installed from npm if missing (nice -n 10: the machine is shared)."""
    binary = scratch / "node_modules" / ".bin" / "n8n"
    if binary.exists():
        return binary
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "package.json").write_text(json.dumps({
        "name": "n8n-e2e", "private": True, "dependencies": {"n8n": version},
        "overrides": {"xlsx": "0.18.5"},  # n8n depends on a tarball from cdn.sheetjs.com, outside the registry
    }, indent=2))
    print(f"Installing n8n@{version} in {scratch} (~10-15 min, 2.3 GB) ...", flush=True)
    env = dict(os.environ, npm_config_nodedir="/usr")  # sqlite3 builds against the local Node headers
    subprocess.run(["nice", "-n", "10", "npm", "install", "--no-audit", "--no-fund"], cwd=scratch, env=env,
                   check=True)
    return binary


def installed_version(scratch: Path) -> str:
    """The n8n version installed in `scratch` (its package.json), e.g. "1.123.50"."""
    return json.loads((scratch / "node_modules" / "n8n" / "package.json").read_text())["version"]


def activate_command(version: str, workflow_id: str) -> list[str]:
    """The n8n CLI arguments that make an imported workflow live at the next start: `publish:workflow` from
    n8n 2.0; 1.x has no publish (its editor's *Active* toggle) and sets the flag with `update:workflow`."""
    if int(version.split(".")[0]) >= 2:
        return ["publish:workflow", f"--id={workflow_id}"]
    return ["update:workflow", f"--id={workflow_id}", "--active=true"]


# -- 2. the scripted model ----------------------------------------------------------------------------------
def tool_call(tool: dict[str, Any], text: str) -> dict[str, Any]:
    """A call of `tool` (an OpenAI `tools` entry) with `text` as every argument its schema declares: `input` for
    the PGVector Store tool, `topic` for the Postgres tool's `$fromAI('topic', ...)`."""
    properties = (tool["function"].get("parameters") or {}).get("properties") or {"input": {}}
    return {"id": "call_1", "type": "function",
            "function": {"name": tool["function"]["name"], "arguments": json.dumps({p: text for p in properties})}}


def agent_reply(body: dict[str, Any]) -> Reply:
    """The agent's model: "OK." to a message; for one written "tool NAME: TEXT" with tools offered and no tool
    answer yet, a call of the tool named NAME (n8n names a tool after its node, spaces as underscores) with TEXT
    as its arguments."""
    messages = body.get("messages") or []
    last_user = next((m for m in reversed(messages) if m.get("role") == "user"), {})
    text = last_user.get("content") if isinstance(last_user.get("content"), str) else ""
    tools = {t["function"]["name"].replace("_", " ").lower(): t for t in body.get("tools") or []}
    answered = bool(this_turns_tool_answers(body))  # earlier turns' tool answers come back from the chat memory
    name, _, argument = text.partition(":")
    tool = tools.get(name[len("tool "):].lower()) if name.startswith("tool ") else None
    if tool and not answered:
        message = {"role": "assistant", "content": None, "tool_calls": [tool_call(tool, argument.strip())]}
        finish = "tool_calls"
    else:
        message, finish = {"role": "assistant", "content": "OK."}, "stop"
    return Reply(body=json.dumps({
        "id": "chatcmpl-e2e", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}}))


def responder(body: dict[str, Any]) -> Reply:
    system = next((m.get("content") or "" for m in body.get("messages") or [] if m.get("role") == "system"), "")
    if isinstance(system, str) and SHAPE_PREFIX in system:
        return transcript_responder(body)  # the pipeline's summary and extraction prompts
    return agent_reply(body)


def agent_requests(server: ScriptedOpenAIServer, said: str) -> list[dict[str, Any]]:
    """The chat requests of the agent's turn whose user message is `said`."""
    out = []
    for body in server.chat_requests():
        users = [m.get("content") for m in body.get("messages") or [] if m.get("role") == "user"]
        if users and users[-1] == said:
            out.append(body)
    return out


def this_turns_tool_answers(body: dict[str, Any]) -> list[str]:
    """The tool answers after the request's last user message: this turn's, not those of earlier turns that the
    Postgres Chat Memory puts back into the request (Agent v3 stores tool calls and answers)."""
    messages = body.get("messages") or []
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return [str(m.get("content")) for m in messages[last_user + 1:] if m.get("role") == "tool"]


def tool_messages(server: ScriptedOpenAIServer, said: str) -> list[str]:
    """The tool answers the model was sent in the agent's turn whose user message is `said`."""
    return [t for b in agent_requests(server, said) for t in this_turns_tool_answers(b)]


def system_prompt(body: dict[str, Any]) -> str:
    return next((m.get("content") or "" for m in body.get("messages") or [] if m.get("role") == "system"), "")


# -- 3. the pipeline's side ---------------------------------------------------------------------------------
def pipeline(env: dict[str, str], *args: str) -> str:
    """Run `memory-pipeline ARGS` with `env`; returns its stdout, raises with its stderr on failure."""
    done = subprocess.run([str(REPO / ".venv" / "bin" / "memory-pipeline"), *args], env=env, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"memory-pipeline {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


# -- 4. n8n ---------------------------------------------------------------------------------------------------
def n8n_cli(binary: Path, env: dict[str, str], *args: str) -> str:
    """Run `n8n ARGS` (at n8n's default log level, as a user does); returns what it printed, raises with it on
    failure."""
    done = subprocess.run(["nice", "-n", "10", str(binary), *args], env=dict(env, N8N_LOG_LEVEL="info"),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"n8n {' '.join(args)}: exit {done.returncode}: {done.stdout[-2000:]}")
    return done.stdout


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "(nothing)"


def with_credentials(workflow: dict[str, Any], workflow_id: str, credentials: dict[str, dict[str, str]]
                     ) -> dict[str, Any]:
    """The template with another id and, on each node using a credential of a type in `credentials`, that one."""
    workflow = json.loads(json.dumps(workflow))
    workflow["id"] = workflow_id
    for node in workflow["nodes"]:
        for kind in node.get("credentials", {}):
            if kind in credentials:
                node["credentials"][kind] = credentials[kind]
    return workflow


def without_credentials(workflow: dict[str, Any], workflow_id: str) -> dict[str, Any]:
    """The template with an id and no credential on any node, as after an import without the credentials."""
    workflow = json.loads(json.dumps(workflow))
    workflow["id"] = workflow_id
    for node in workflow["nodes"]:
        node.pop("credentials", None)
    return workflow


def renewed_ids(workflow: dict[str, Any]) -> dict[str, Any]:
    """A copy with new node and webhook ids (a second import of one template, as n8n would need)."""
    workflow = json.loads(json.dumps(workflow))
    for node in workflow["nodes"]:
        node["id"] = str(uuid.uuid4())
        if "webhookId" in node:
            node["webhookId"] = str(uuid.uuid4())
    return workflow


def webhook_id(workflow: dict[str, Any]) -> str:
    return next(n["webhookId"] for n in workflow["nodes"] if n["type"].endswith("chatTrigger"))


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None, timeout: float = 120
         ) -> tuple[int, str]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def wait_until(what: str, probe, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if probe():
                return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(2)
    raise TimeoutError(f"{what}: not ready after {timeout:.0f} s")


def last_failure(n8n_data: Path, workflow_id: str) -> tuple[str, str]:
    """(the node it stopped at, its error message) of the workflow's last failed execution, read from n8n's
    sqlite database in its data directory (execution data is stored in the `flatted` format: a JSON list whose
    first item is the root and whose strings of digits point at other items)."""
    with sqlite3.connect(n8n_data / ".n8n" / "database.sqlite") as db:
        row = db.execute("SELECT d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id "
                         "WHERE e.status = 'error' AND e.workflowId = ? ORDER BY e.id DESC LIMIT 1",
                         (workflow_id,)).fetchone()
    if row is None:
        return "", ""
    items = json.loads(row[0])

    def at(value: Any) -> Any:
        return items[int(value)] if isinstance(value, str) and value.isdigit() else value

    result = at(at(items[0])["resultData"])
    error = at(result.get("error")) or {}
    return str(at(result.get("lastNodeExecuted")) or ""), str(at(error.get("message")) or "")


# -- the run ------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/mp-n8n-e2e"),
                        help="folder for the n8n install and this run's state (outside the repository)")
    parser.add_argument("--n8n-version", default=N8N_VERSION_ON_NODE_20,
                        help=f"installed if --scratch has no n8n (default {N8N_VERSION_ON_NODE_20}; "
                             f"{N8N_1X_ON_NODE_20} for n8n 1.x)")
    parser.add_argument("--keep", action="store_true", help="leave n8n, the model server and the database running")
    args = parser.parse_args(argv)
    scratch = args.scratch.resolve()
    report = Report()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()
    print(f"n8n end-to-end: node {node}, n8n@{args.n8n_version}, scratch {scratch}; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    began = time.monotonic()
    binary = install_n8n(scratch, args.n8n_version)
    version = installed_version(scratch)
    if version != args.n8n_version:
        print(f"      {scratch} holds n8n@{version} (not {args.n8n_version}): running against {version}", flush=True)

    state = scratch / "run"  # this run's database and n8n data, fresh each time
    if state.exists():
        subprocess.run([str(REPO / ".venv" / "bin" / "memory-pipeline"), "db", "stop"],
                       env=dict(os.environ, MEMORY_PIPELINE_HOME=str(state / "mp")), capture_output=True)
        shutil.rmtree(state)
    state.mkdir(parents=True)
    n8n_port, db_port = free_port(), free_port()
    server = ScriptedOpenAIServer(responder, embedding_dimensions=1536)
    server.__enter__()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_PIPELINE_")}
    env.update(MEMORY_PIPELINE_HOME=str(state / "mp"), MEMORY_PIPELINE_EMBEDDED_PORT=str(db_port),
               MEMORY_PIPELINE_IDLE_GAP_MINUTES=str(IDLE_GAP_MINUTES), MEMORY_PIPELINE_EXTRACTOR="openai",
               MEMORY_PIPELINE_EMBEDDINGS="openai", OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="e2e",
               MEMORY_PIPELINE_LLM_MAX_RETRIES="0")
    n8n_env = dict(os.environ, N8N_USER_FOLDER=str(state / "n8n"), N8N_PORT=str(n8n_port),
                   N8N_LISTEN_ADDRESS="127.0.0.1", N8N_HOST="127.0.0.1",
                   N8N_RUNNERS_BROKER_PORT=str(free_port()),  # both default to 5679 otherwise
                   N8N_ENCRYPTION_KEY=uuid.uuid4().hex, N8N_DIAGNOSTICS_ENABLED="false",
                   N8N_PERSONALIZATION_ENABLED="false", N8N_VERSION_NOTIFICATIONS_ENABLED="false",
                   N8N_SECURE_COOKIE="false", DB_SQLITE_POOL_SIZE="2", N8N_LOG_LEVEL="warn")
    n8n_process = None
    try:
        # 3. the database, reachable by n8n
        fields = json.loads(pipeline(env, "db", "n8n-credential", "--json"))
        report.check(fields["host"] == "127.0.0.1" and fields["port"] == db_port and fields["user"] == "n8n",
                     f"db n8n-credential: n8n connects as {fields['user']}@{fields['host']}:{fields['port']}")
        socket_url = pipeline(env, "db", "url").strip()
        with psycopg.connect(socket_url, autocommit=True) as conn:  # a database without memory_pipeline
            conn.execute("CREATE DATABASE e2e_empty")
        with psycopg.connect(socket_url.replace("/postgres?", "/e2e_empty?"), autocommit=True) as conn:
            conn.execute("GRANT CREATE ON SCHEMA public TO n8n")
        # The shipped credentials file filled in as docs/n8n.md says, plus one on the database without memory
        postgres_data = {"host": fields["host"], "port": fields["port"], "database": fields["database"],
                         "user": fields["user"], "password": fields["password"], "ssl": fields["ssl"]}
        filled = {"postgres": postgres_data, "openAiApi": {"apiKey": "e2e", "url": server.base_url},
                  "httpHeaderAuth": {"name": HEADER[0], "value": HEADER[1]}}
        shipped = json.loads(CREDENTIALS_EXAMPLE.read_text())
        wrong_db = {"postgres": {"id": "mpPostgresEmpty1", "name": "database without memory"}}
        (state / "credentials.json").write_text(json.dumps(
            [{**c, "data": {**c["data"], **filled[c["type"]]}} for c in shipped]
            + [{**wrong_db["postgres"], "type": "postgres", "data": {**postgres_data, "database": "e2e_empty"}}]))

        # 4. import, publish, start: the templates as shipped (their own workflow and credential ids)
        templates = {p.stem: json.loads(p.read_text()) for p in sorted(TEMPLATES.glob("agent_*.json"))}
        out = n8n_cli(binary, n8n_env, "import:credentials", f"--input={state / 'credentials.json'}")
        report.note("n8n import:credentials: " + last_line(out))
        for name, workflow in templates.items():
            out = n8n_cli(binary, n8n_env, "import:workflow", f"--input={TEMPLATES / (name + '.json')}")
            report.note(f"n8n import:workflow {name}.json: " + last_line(out))
        listed = n8n_cli(binary, n8n_env, "list:workflow")
        listed = "\n".join(line for line in listed.splitlines() if "|" in line)
        report.note("n8n list:workflow: " + " / ".join(listed.splitlines()))
        report.check(all(f"{w['id']}|{w['name']}" in listed.splitlines() for w in templates.values()),
                     "import:workflow keeps each template's own workflow id (list:workflow shows it)", listed)
        # Two more, not from the shipped files: a copy on the database without memory_pipeline, and a copy whose
        # nodes have no credentials (a template imported without its credentials file)
        workflows = dict(templates)
        workflows["empty_database"] = with_credentials(renewed_ids(templates["agent_with_facts_block"]),
                                                       "mpEmptyDatabase1", wrong_db)
        workflows["empty_database"]["name"] += " (database without memory_pipeline)"
        workflows["no_credentials"] = without_credentials(renewed_ids(templates["agent_with_facts_block"]),
                                                          "mpNoCredential01")
        workflows["no_credentials"]["name"] += " (no credentials)"
        for name in ("empty_database", "no_credentials"):
            path = state / f"{name}.json"
            path.write_text(json.dumps(workflows[name]))
            n8n_cli(binary, n8n_env, "import:workflow", f"--input={path}")
        for name, workflow in workflows.items():
            out = n8n_cli(binary, n8n_env, *activate_command(version, workflow["id"]))
            if name in templates:
                report.note(f"n8n {' '.join(activate_command(version, workflow['id']))}: " + last_line(out))
        report.check(True, f"imported and published {len(workflows)} workflows with the n8n CLI "
                           f"({activate_command(version, 'ID')[0]})")
        log = open(state / "n8n.log", "w")
        n8n_process = subprocess.Popen(["nice", "-n", "10", str(binary), "start"], env=n8n_env, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{n8n_port}"
        wait_until("n8n", lambda: urllib.request.urlopen(base + "/healthz/readiness", timeout=5).status == 200, 300)
        chat_url = {name: f"{base}/webhook/{webhook_id(workflows[name])}/chat" for name in (
            "agent_with_facts_block", "agent_with_memory_search", "empty_database", "no_credentials")}
        hook_url = f"{base}/webhook/memory-agent"
        wait_until("published chat", lambda: urllib.request.urlopen(
            chat_url["agent_with_facts_block"], timeout=5).status == 200, 120)
        report.check(True, f"n8n {version} up on 127.0.0.1:{n8n_port}; the public chat page answers")

        def chat(name: str, key: str, text: str) -> tuple[int, str]:
            return post(chat_url[name], {"action": "sendMessage", "sessionId": key, "chatInput": text})

        def backend(user_id: str | None, text: str, secret: str | None = HEADER[1]) -> tuple[int, str]:
            body = {"message": text} if user_id is None else {"user_id": user_id, "message": text}
            return post(hook_url, body, {HEADER[0]: secret} if secret else {})

        # 5a. first conversations, three keys
        said = {
            "e2e-ana": ("agent_with_facts_block", ["I live in Berlin.", "I prefer tea over coffee."]),
            "e2e-bob": ("agent_with_memory_search", ["I work at Acme.", "My email is bob@example.com."]),
            "app:carla": ("webhook", ["I am vegan.", "I live in Lisbon."]),
        }
        for key, (name, lines) in said.items():
            for line in lines:
                status, body = (backend("carla", line) if name == "webhook" else chat(name, key, line))
                report.check(status == 200 and "OK." in body, f"{key} says {line!r} through {name}",
                             f"{status} {body[:300]}")
        first = [b for b in server.chat_requests() if SHAPE_PREFIX not in str(system_prompt(b))]
        report.check(bool(first) and all("(nothing yet)" in system_prompt(b) for b in first),
                     "before consolidation every system prompt says (nothing yet)")
        status, _ = backend("carla", "hello", secret="wrong")
        report.check(status in (401, 403), f"the webhook refuses a wrong header secret (HTTP {status})")
        status, body = backend(None, "hello")
        report.check(status != 200 or "no user_id" in body, f"the webhook refuses a request without user_id "
                     f"(HTTP {status})", body[:300])
        status, body = chat("empty_database", "e2e-dan", "hello")
        report.note(f"chat on the database without memory_pipeline answers HTTP {status}: {body[:200]}")
        node, message = last_failure(state / "n8n", workflows["empty_database"]["id"])
        report.check(status != 200 and node == "Memory not set up" and "memory-pipeline init-db" in message,
                     f"on a database without memory_pipeline the chat fails (HTTP {status}) and its execution "
                     "says what to set up", f"{node}: {message}")
        report.note(f"execution stopped at {node}: {message}")

        status, body = chat("no_credentials", "e2e-eve", "hello")
        report.note(f"chat on the workflow without credentials answers HTTP {status}: {body[:200]}")
        node, message = last_failure(state / "n8n", workflows["no_credentials"]["id"])
        report.check(status != 200 and node == "Database not reached" and "n8n import:credentials" in message,
                     f"without credentials the chat fails (HTTP {status}) at Database not reached, naming the "
                     "Postgres credential, not inside the agent", f"{node}: {message}")
        report.note(f"execution stopped at {node}: {message}")

        # 5b. consolidate today's closed conversations
        with psycopg.connect(socket_url) as conn:
            rows = dict(conn.execute("SELECT session_id, count(*) FROM n8n_chat_histories GROUP BY 1").fetchall())
        report.check(set(rows) == set(said), f"n8n wrote its chat memory rows: {rows}")
        time.sleep(IDLE_GAP_MINUTES * 60 + 10)  # every conversation closed
        out = pipeline(env, "materialize", "--today")
        report.note(out.strip().replace("\n", "\n      "))
        today = out.split(" ", 1)[0]  # the day consolidated, in the partitions' timezone
        report.check("3 conversation(s) closed and consolidated" in out, "materialize --today consolidated the three")
        facts = {}
        for key in said:
            facts[key] = pipeline(env, "recall", "--user", key).strip()
            report.note(f"{key}: {facts[key]!r}")
        with psycopg.connect(socket_url) as conn:
            left = conn.execute("SELECT count(*) FROM n8n_chat_histories").fetchone()[0]
        report.check(left == 0, f"the consolidated rows left n8n's table for the archive ({left} left)")
        report.check("Berlin" in facts["e2e-ana"] and "tea" in facts["e2e-ana"] and "Acme" in facts["e2e-bob"]
                     and "vegan" in facts["app:carla"], "each key has its facts")

        # 5c. chat again: the facts reach the model, each key only its own
        expected = {"e2e-ana": ["Berlin", "tea over coffee"], "e2e-bob": ["Acme", "bob@example.com"],
                    "app:carla": ["vegan", "Lisbon"]}
        for key, (name, _) in said.items():
            question = f"{key}: what do you know about me?"
            status, body = backend("carla", question) if name == "webhook" else chat(name, key, question)
            prompts = [system_prompt(b) for b in agent_requests(server, question)]
            mine = all(all(word in p for word in expected[key]) for p in prompts) and bool(prompts)
            theirs = [w for other, words in expected.items() if other != key for w in words
                      if any(w in p for p in prompts)]
            report.check(status == 200 and mine, f"{key}: its facts are in the model's system prompt",
                         f"{status} {prompts[:1]}")
            report.check(not theirs, f"{key}: no other key's facts in its prompt", str(theirs))
        question = "tool Search my memory: where do I work"
        status, body = chat("agent_with_memory_search", "e2e-bob", question)
        tool_answers = tool_messages(server, question)
        report.check(status == 200 and any("Acme" in t for t in tool_answers),
                     "the search tool (PGVector Store on memory_documents, base64 embeddings) finds Bob's fact",
                     f"{status} {body[:200]} {tool_answers}")
        report.check(not any(w in t for t in tool_answers for w in ("Berlin", "tea", "vegan", "Lisbon")),
                     "the search tool returns no other key's facts", str(tool_answers))

        # 5d. "Search my conversations" (Postgres tool): the words match every key's conversation ("live": Ana's
        # and Carla's, "work": Bob's); each key gets only its own, with its date and summary
        own = {"e2e-bob": ("agent_with_memory_search", "where I live and work", ["Acme"]),
               "app:carla": ("webhook", "where I live or work", ["vegan", "Lisbon"])}  # one question per turn
        for key, (name, topic, words) in own.items():
            question = f"tool Search my conversations: {topic}"
            status, body = backend("carla", question) if name == "webhook" else chat(name, key, question)
            tool_answers = tool_messages(server, question)
            offered = [t["function"] for b in agent_requests(server, question) for t in b.get("tools") or []
                       if t["function"]["name"].replace("_", " ").lower() == "search my conversations"]
            report.check(bool(offered) and all(set(f["parameters"]["properties"]) == {"topic"} for f in offered),
                         f"{key}: the model fills only the topic of Search my conversations, never whose",
                         str(offered[:1]))
            report.check(status == 200 and any(all(w in t for w in words) and today in t for t in tool_answers),
                         f"{key}: Search my conversations ({name}) returns its earlier conversation, dated today",
                         f"{status} {body[:200]} {tool_answers}")
            if tool_answers:
                report.note(f"{key}: tool answer: {tool_answers[0][:400]}")
            theirs = [w for other, words_ in expected.items() if other != key for w in words_
                      if any(w in t for t in tool_answers)]
            report.check(not theirs, f"{key}: Search my conversations returns no other key's conversation",
                         str(theirs))
    except Exception as exc:  # noqa: BLE001 - a step that could not run is a failure with its reason
        report.check(False, "the run could not go on", f"{type(exc).__name__}: {exc}")
    finally:
        if n8n_process is not None and not args.keep:
            os.killpg(n8n_process.pid, signal.SIGTERM)
            try:
                n8n_process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(n8n_process.pid, signal.SIGKILL)
        if not args.keep:
            server.__exit__(None, None, None)
            pipeline(env, "db", "stop")
    print(f"\n{'ALL PASSED' if report.failed == 0 else f'{report.failed} FAILED'} in {time.monotonic() - began:.0f} s; "
          f"n8n log: {state / 'n8n.log'}", flush=True)
    if args.keep and n8n_process is not None:
        print(f"n8n left running (pid {n8n_process.pid}) on http://127.0.0.1:{n8n_port}; Ctrl-C ends the model "
              "server", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
