"""The n8n workflow templates in n8n/: valid workflow JSON of current node types, and the SQL they run works."""

import json
import re
from pathlib import Path

import pytest

from memory_pipeline.embeddings import index_new_facts
from memory_pipeline.n8n_access import CredentialFields
from memory_pipeline.settings import Settings
from memory_pipeline_tests import n8n_statements as node
from memory_pipeline_tests.openai_server import ScriptedOpenAIServer, hashed_embedding
from memory_pipeline_tests.test_recall import DIMS, Facts, embedder_for

TEMPLATES = sorted((Path(__file__).parents[1] / "n8n").glob("agent_*.json"))
CREDENTIALS_FILE = Path(__file__).parents[1] / "n8n" / "credentials.example.json"
DOCS = Path(__file__).parents[1] / "docs" / "n8n.md"
# The credential type each node type asks for (n8n's node descriptions)
CREDENTIAL_OF_TYPE = {
    "n8n-nodes-base.postgres": "postgres",
    "n8n-nodes-base.postgresTool": "postgres",
    "@n8n/n8n-nodes-langchain.memoryPostgresChat": "postgres",
    "@n8n/n8n-nodes-langchain.vectorStorePGVector": "postgres",
    "@n8n/n8n-nodes-langchain.lmChatOpenAi": "openAiApi",
    "@n8n/n8n-nodes-langchain.embeddingsOpenAi": "openAiApi",
    "n8n-nodes-base.webhook": "httpHeaderAuth",
}
# Node types and the typeVersions current n8n declares for them (from each node's `version` list in the
# n8n-io/n8n sources, 2026): a template must use one of them.
KNOWN_VERSIONS = {
    "@n8n/n8n-nodes-langchain.chatTrigger": {1, 1.1, 1.2, 1.3, 1.4, 1.5},
    "@n8n/n8n-nodes-langchain.agent": {1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 2.3, 3, 3.1},
    "@n8n/n8n-nodes-langchain.lmChatOpenAi": {1, 1.1, 1.2, 1.3},
    "@n8n/n8n-nodes-langchain.memoryPostgresChat": {1, 1.1, 1.2, 1.3},
    "@n8n/n8n-nodes-langchain.vectorStorePGVector": {1, 1.1, 1.2, 1.3},
    "@n8n/n8n-nodes-langchain.embeddingsOpenAi": {1, 1.1, 1.2},
    "n8n-nodes-base.postgres": {2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6},
    "n8n-nodes-base.postgresTool": {2.6},
    "n8n-nodes-base.stickyNote": {1},
    "n8n-nodes-base.stopAndError": {1},
    "n8n-nodes-base.if": {2, 2.1, 2.2, 2.3},
    "n8n-nodes-base.webhook": {1, 1.1, 2, 2.1},
}
# The typeVersions both n8n releases the end-to-end check ran on declare (read from each node's version list in
# the installed packages: n8n 1.123.50, the newest 1.x on Node 20, and 2.8.4). 1.x has no AI Agent 2.3 or 3.1:
# a template on either fails to import there, so the templates use Agent 3, the highest version both know.
ON_1X_AND_2X = {
    "@n8n/n8n-nodes-langchain.chatTrigger": {1, 1.1, 1.2, 1.3, 1.4},
    "@n8n/n8n-nodes-langchain.agent": {1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 3},
    "@n8n/n8n-nodes-langchain.lmChatOpenAi": {1, 1.1, 1.2, 1.3},
    "@n8n/n8n-nodes-langchain.memoryPostgresChat": {1, 1.1, 1.2, 1.3},
    "@n8n/n8n-nodes-langchain.vectorStorePGVector": {1, 1.1, 1.2, 1.3},
    "@n8n/n8n-nodes-langchain.embeddingsOpenAi": {1, 1.1, 1.2},
    "n8n-nodes-base.postgres": {1, 2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6},
    "n8n-nodes-base.postgresTool": {2.6},  # the Postgres node as an agent's tool (n8n generates it per version)
    "n8n-nodes-base.stickyNote": {1},
    "n8n-nodes-base.stopAndError": {1},
    "n8n-nodes-base.if": {1, 2, 2.1, 2.2, 2.3},
    "n8n-nodes-base.webhook": {1, 1.1, 2, 2.1},
}
CONNECTION_TYPES = {"main", "ai_languageModel", "ai_memory", "ai_tool", "ai_embedding"}
SESSION = "{{ $('When chat message received').item.json.sessionId }}"
APP_KEY = "{{ 'app:' + $('Webhook').item.json.body.user_id }}"
KEY_OF = {"agent_with_facts_block.json": SESSION, "agent_with_memory_search.json": SESSION,
          "agent_with_authenticated_key.json": APP_KEY}


def load(path):
    return json.loads(path.read_text())


def by_type(workflow, type_):
    return [n for n in workflow["nodes"] if n["type"] == type_]


def test_there_are_three_templates():
    assert [p.name for p in TEMPLATES] == ["agent_with_authenticated_key.json", "agent_with_facts_block.json",
                                           "agent_with_memory_search.json"]


def test_every_template_has_its_own_fixed_workflow_id_named_in_the_docs():
    # `n8n import:workflow` keeps a given id (and prints none), so `n8n publish:workflow --id=ID` can be written
    # down: 16 letters and digits, as n8n makes its own.
    ids = [load(p)["id"] for p in TEMPLATES]
    assert all(re.fullmatch(r"[A-Za-z0-9]{16}", i) for i in ids) and len(set(ids)) == len(ids)
    docs = DOCS.read_text()
    assert all(f"publish:workflow --id={i}" in docs for i in ids)


def test_every_node_that_needs_a_credential_names_one_from_the_credentials_file():
    # `n8n import:credentials --input=FILE` with the file filled in: the nodes find their credentials by id.
    shipped = json.loads(CREDENTIALS_FILE.read_text())
    by_id = {c["id"]: c for c in shipped}
    assert len(by_id) == len(shipped) and all(set(c) == {"id", "name", "type", "data"} for c in shipped)
    used = set()
    for path in TEMPLATES:
        for n in load(path)["nodes"]:
            kind = CREDENTIAL_OF_TYPE.get(n["type"])
            assert set(n.get("credentials", {})) == ({kind} if kind else set()), (path.name, n["name"])
            if kind:
                ref = n["credentials"][kind]
                assert by_id[ref["id"]]["type"] == kind and by_id[ref["id"]]["name"] == ref["name"], n["name"]
                used.add(ref["id"])
    assert used == set(by_id)


def test_the_credentials_file_holds_no_secret_only_what_to_fill_in():
    shipped = {c["type"]: c["data"] for c in json.loads(CREDENTIALS_FILE.read_text())}
    assert shipped["postgres"]["password"].startswith("REPLACE")
    assert shipped["openAiApi"]["apiKey"].startswith("REPLACE")
    assert shipped["httpHeaderAuth"]["value"].startswith("REPLACE")
    # keyed as n8n's Postgres credential and `memory-pipeline db n8n-credential --json` key them
    assert set(shipped["postgres"]) == set(CredentialFields.__dataclass_fields__)


def test_node_and_webhook_ids_are_unique_across_all_templates():
    # n8n keeps node ids as given on import and renews webhook ids only for Form Triggers: two published
    # workflows with one webhook id conflict (HTTP 409), so every template carries its own.
    node_ids = [n["id"] for p in TEMPLATES for n in load(p)["nodes"]]
    webhook_ids = [n["webhookId"] for p in TEMPLATES for n in load(p)["nodes"] if "webhookId" in n]
    assert len(node_ids) == len(set(node_ids)) and len(webhook_ids) == len(set(webhook_ids)) == len(TEMPLATES)


@pytest.mark.parametrize("path", TEMPLATES[1:], ids=lambda p: p.name)
def test_the_public_chat_is_published_on_purpose(path):
    # A Chat Trigger answers its production URL only when public (n8n answers 404 otherwise).
    trigger = by_type(load(path), "@n8n/n8n-nodes-langchain.chatTrigger")[0]["parameters"]
    assert trigger["public"] is True and trigger["authentication"] == "none"
    assert trigger["options"].get("loadPreviousSession") is None  # no reading a session's history back


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_a_failed_recall_stops_the_run_saying_what_to_set_up(path):
    workflow = load(path)
    recall = next(n for n in workflow["nodes"] if n["name"] == "Recall facts")
    assert recall["onError"] == "continueErrorOutput"
    # With "Always Output Data" a failed query also sent an empty item down the regular output, which reached
    # "Database not reached" before "Memory not set up" ran (n8n 2.8.4): the query returns one row when it runs.
    assert "alwaysOutputData" not in recall
    error_branch = workflow["connections"]["Recall facts"]["main"][1]
    stop = next(n for n in workflow["nodes"] if n["name"] == error_branch[0]["node"])
    assert stop["type"] == "n8n-nodes-base.stopAndError"
    assert "memory-pipeline init-db" in stop["parameters"]["errorMessage"]
    assert "$json.message" in stop["parameters"]["errorMessage"]  # the database's own error, quoted


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_a_recall_that_never_reached_the_database_stops_the_run_naming_the_credential(path):
    # n8n 2.8.4: a missing credential (or one that cannot connect) makes the node throw before its query, and
    # with "continue (using error output)" n8n then passes the node's input on its *regular* output: the agent
    # ran without facts and failed in its Postgres Chat Memory (HTTP 500). Only a recall that ran has `facts`.
    workflow = load(path)
    assert workflow["connections"]["Recall facts"]["main"][0] == [
        {"node": "Database reached?", "type": "main", "index": 0}]
    check = next(n for n in workflow["nodes"] if n["name"] == "Database reached?")
    (condition,) = check["parameters"]["conditions"]["conditions"]
    assert condition["leftValue"] == "={{ $json.facts }}" and condition["operator"]["operation"] == "exists"
    yes, no = workflow["connections"]["Database reached?"]["main"]
    assert yes[0]["node"] == "AI Agent"
    stop = next(n for n in workflow["nodes"] if n["name"] == no[0]["node"])
    assert stop["type"] == "n8n-nodes-base.stopAndError"
    assert "Postgres credential" in stop["parameters"]["errorMessage"]
    assert "n8n import:credentials" in stop["parameters"]["errorMessage"]


def test_the_authenticated_template_keys_memory_by_the_id_its_caller_proved():
    workflow = load(TEMPLATES[0])
    hook = by_type(workflow, "n8n-nodes-base.webhook")[0]["parameters"]
    assert hook["authentication"] == "headerAuth" and hook["httpMethod"] == "POST"
    assert not by_type(workflow, "@n8n/n8n-nodes-langchain.chatTrigger")
    check = by_type(workflow, "n8n-nodes-base.if")[0]
    assert check["parameters"]["conditions"]["conditions"][0]["leftValue"] == "={{ $json.body.user_id }}"
    assert workflow["connections"]["Webhook"]["main"][0][0]["node"] == check["name"]
    assert [b[0]["node"] for b in workflow["connections"][check["name"]]["main"]] == ["Recall facts", "No user id"]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_template_nodes_exist_on_n8n_1x_and_2x(path):
    # "on n8n 2.x and on n8n 1.x" (issue 18): one file for both, so every node at a version both declare.
    unknown = [(n["name"], n["type"], n["typeVersion"]) for n in load(path)["nodes"]
               if n["typeVersion"] not in ON_1X_AND_2X.get(n["type"], set())]
    assert unknown == []


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_template_is_an_importable_workflow(path):
    workflow = load(path)
    assert isinstance(workflow["name"], str) and workflow["settings"]["executionOrder"] == "v1"
    names = [n["name"] for n in workflow["nodes"]]
    assert len(names) == len(set(names)) and len({n["id"] for n in workflow["nodes"]}) == len(names)
    for n in workflow["nodes"]:
        assert {"id", "name", "type", "typeVersion", "position", "parameters"} <= set(n), n["name"]
        assert n["typeVersion"] in KNOWN_VERSIONS[n["type"]], (n["type"], n["typeVersion"])
        assert len(n["position"]) == 2 and all(isinstance(x, (int, float)) for x in n["position"])
    # Connections are keyed by source node name; every target exists and the type matches the output slot.
    targets = set()
    for source, outputs in workflow["connections"].items():
        assert source in names
        for kind, branches in outputs.items():
            assert kind in CONNECTION_TYPES
            for branch in branches:
                for link in branch:
                    assert link["node"] in names and link["type"] == kind and link["index"] == 0
                    targets.add((source, kind, link["node"]))
    assert {("Recall facts", "main", "Database reached?"), ("Database reached?", "main", "AI Agent"),
            ("OpenAI Chat Model", "ai_languageModel", "AI Agent"),
            ("Postgres Chat Memory", "ai_memory", "AI Agent")} <= targets
    connected = {s for s, _, _ in targets} | {t for _, _, t in targets}
    assert connected == {n for n in names if n != "About this template"}

    agent = by_type(workflow, "@n8n/n8n-nodes-langchain.agent")[0]["parameters"]
    assert "{{ $json.facts" in agent["options"]["systemMessage"]
    memory = by_type(workflow, "@n8n/n8n-nodes-langchain.memoryPostgresChat")[0]["parameters"]
    assert memory["tableName"] == Settings().source_table and memory["sessionKey"] == "=" + KEY_OF[path.name]
    assert memory["contextWindowLength"] == 5


def test_search_template_wires_the_vector_store_as_a_tool():
    workflow = load(TEMPLATES[2])
    connections = workflow["connections"]
    assert connections["Search my memory"] == {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool", "index": 0}]]}
    assert connections["Embeddings OpenAI"]["ai_embedding"][0][0]["node"] == "Search my memory"
    store = by_type(workflow, "@n8n/n8n-nodes-langchain.vectorStorePGVector")[0]["parameters"]
    assert store["mode"] == "retrieve-as-tool" and store["tableName"] == "memory_pipeline.memory_documents"
    assert store["options"]["metadata"]["metadataValues"] == [{"name": "user_key", "value": "=" + SESSION}]
    embeddings = by_type(workflow, "@n8n/n8n-nodes-langchain.embeddingsOpenAi")[0]["parameters"]
    assert embeddings["model"] == Settings().embedding_model
    assert embeddings["options"]["dimensions"] == Settings().embedding_dimensions


@pytest.fixture
def memory(make_settings):
    facts = Facts(make_settings(embedding_dimensions=DIMS))
    facts.add("tg:42", "User likes green tea.", days_ago=2)
    facts.add("tg:42", "User lives in Lisbon.", days_ago=1)
    facts.add("tg:7", "User likes coffee.")
    with ScriptedOpenAIServer(embedding_dimensions=DIMS) as server, facts.pool.connection() as conn:
        index_new_facts(facts.store, conn, embedder_for(server))
    return facts


def in_test_schema(text, settings):
    # The templates name the default schema; the test database gives each test its own.
    return text.replace("memory_pipeline.", settings.schema_name + ".")


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_the_templates_sql_runs_on_the_database(memory, path):
    workflow = load(path)
    postgres = by_type(workflow, "n8n-nodes-base.postgres")[0]["parameters"]
    assert postgres["operation"] == "executeQuery" and "$1" in postgres["query"]
    # One parameter, the session key, passed as an array so a key with a comma stays one value.
    assert postgres["options"]["queryReplacement"] == "={{ [ " + KEY_OF[path.name][3:-3] + " ] }}"
    with memory.pool.connection() as conn:
        rows = node.send(conn, in_test_schema(postgres["query"], memory.settings), ["tg:42"])
        assert [r["facts"] for r in rows] == [
            "\n".join(f"- [{d}] {f}" for d, f in [
                (memory.rows("SELECT to_char(valid_from, 'YYYY-MM-DD') AS d FROM {schema}.agent_facts "
                             "WHERE fact = %s", (f,))[0]["d"], f)
                for f in ["User likes green tea.", "User lives in Lisbon."]])]
        assert node.send(conn, in_test_schema(postgres["query"], memory.settings), ["nobody"]) == [{"facts": ""}]

        for store in by_type(workflow, "@n8n/n8n-nodes-langchain.vectorStorePGVector"):
            table = in_test_schema(store["parameters"]["tableName"], memory.settings)
            key = store["parameters"]["options"]["metadata"]["metadataValues"][0]["name"]
            node.send(conn, node.CREATE_EXTENSION)
            node.send(conn, node.create_table(table))
            rows = node.send(conn, node.similarity_search(table).replace("'user_key'", f"'{key}'"),
                             node.search_params(hashed_embedding("tea", DIMS), store["parameters"]["topK"], "tg:42"))
            assert [r["text"] for r in rows][0] == "User likes green tea." and len(rows) == 2


WITH_CONVERSATION_SEARCH = [p for p in TEMPLATES if p.name != "agent_with_facts_block.json"]


@pytest.mark.parametrize("path", WITH_CONVERSATION_SEARCH, ids=lambda p: p.name)
def test_the_conversation_search_tool_is_bound_to_the_session_key_and_runs(memory, path):
    workflow = load(path)
    (tool,) = by_type(workflow, "n8n-nodes-base.postgresTool")
    assert tool["name"] == "Search my conversations"
    assert workflow["connections"][tool["name"]] == {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool",
                                                                   "index": 0}]]}
    params = tool["parameters"]
    assert params["operation"] == "executeQuery" and "search_conversations_text($1, $2, 3)" in params["query"]
    # $1 is the key the workflow holds, never the model's; the model fills only $2, the topic.
    key, topic = params["options"]["queryReplacement"][len("={{ [ "):-len(" ] }}")].split(", $fromAI(")
    assert key == KEY_OF[path.name][3:-3] and "$fromAI" not in key and topic.startswith("'topic'")
    memory.execute("INSERT INTO {schema}.conversations (conversation_id, partition_date, session_key, user_key, "
                   "is_legacy, message_ids, turn_count, transcript, transcript_hash, closed_as_of, idle_gap_minutes) "
                   "VALUES ('c1', '2026-05-01', 'tg:42', 'tg:42', false, '{{}}', 2, '[]', 'h', now(), 30)")
    memory.execute("INSERT INTO {schema}.session_summaries (conversation_id, partition_date, user_key, summary, "
                   "transcript_hash, extractor, model, prompt_version) VALUES ('c1', '2026-05-01', 'tg:42', "
                   "'The user reported the invoice charged twice; a refund was agreed.', 'h', 'o', 'o', 'v')")
    with memory.pool.connection() as conn:  # as node-postgres sends it: text parameters, no declared types
        rows = node.send(conn, in_test_schema(params["query"], memory.settings), ["tg:42", "the invoice"])
        assert [(r["date"], r["summary"][:27]) for r in rows] == [("2026-05-01", "The user reported the invoi")]
        assert node.send(conn, in_test_schema(params["query"], memory.settings), ["tg:7", "the invoice"]) == []
