"""What the data team sees in the Dagster UI: every run under the nightly job, red for a missed night, figures
that plot by partition, check evaluations of a range linked to their materialization, the demo's partition range.
The browser itself is driven by scripts/ui_check.py (screenshots); these tests hold the facts it relies on."""

import json
from datetime import UTC, date, datetime, timedelta

import dagster as dg
import pytest
from dagster._core.storage.tags import REPOSITORY_LABEL_TAG

from memory_pipeline import sample
from memory_pipeline.defs.metadata import MAP_WORDS, MAX_KEY_CHARS, SHORT_NAMES, published_metadata, stage_figures
from memory_pipeline.defs.nightly import JOB_NAME, build_definitions, daily_partitions, nightly_partitions
from memory_pipeline.domain.conversations import UNATTRIBUTED_REASONS
from memory_pipeline.domain.facts import CATEGORIES, REJECTION_REASONS
from memory_pipeline.domain.reconcile import RELATIONS
from memory_pipeline.extractors.circuit import OPEN_REASON
from memory_pipeline.extractors.structured import FAILURE_REASONS
from memory_pipeline.runner import QUIET_RUN_CONFIG, execute_in_code_location
from memory_pipeline.settings import ENV_PREFIX, Settings
from memory_pipeline.settings_env import SAVED_SETTINGS_FILE
from memory_pipeline_tests.defs.test_partition_metadata import RANGE_TAGS
from memory_pipeline_tests.test_pipeline_end_to_end import MB_DAYS, pipeline  # noqa: F401 - fixture

LABEL = "__repository__@memory_pipeline"  # workspace.yaml's location, Definitions' repository
# What a data team plots over days (issue 20): each a number in every materialization of its asset.
PLOTTED = {
    "closed_sessions": ["run_conversations_closed", "run_conversations_deferred", "partition_conversations"],
    "session_summaries": ["partition_input_tokens", "partition_output_tokens", "partition_estimated_cost_usd"],
    "extracted_facts": ["partition_candidates_accepted", "partition_candidates_rejected",
                        "partition_estimated_cost_usd"],
    "active_facts": ["partition_facts_superseded", "partition_facts_expired", "partition_facts_active"],
    "archived_sessions": ["partition_rows_archived", "run_rows_purged"],
}


def materializations(result):
    return {(m.asset_key.to_user_string(), m.partition): (e, m) for e in result.get_asset_materialization_events()
            for m in [e.event_specific_data.materialization]}


def test_a_cli_run_is_a_run_of_the_job_in_its_code_location(pipeline):
    result = execute_in_code_location(pipeline.job, pipeline.instance, "2026-05-03", QUIET_RUN_CONFIG, {})
    assert result.success
    run = pipeline.instance.get_run_by_id(result.run_id)
    origin = run.remote_job_origin.repository_origin
    # The Overview timeline places a run by its repositoryOrigin; the job page lists runs by this filter
    # (dagster_graphql GraphenePipeline.resolve_runs); a run status sensor matches the location and repository.
    assert (origin.code_location_origin.location_name, origin.repository_name) == ("memory_pipeline", "__repository__")
    listed = pipeline.instance.get_runs(dg.RunsFilter(job_name=JOB_NAME, tags={REPOSITORY_LABEL_TAG: LABEL}))
    assert [r.run_id for r in listed] == [result.run_id]
    assert run.tags["dagster/partition"] == "2026-05-03"


def test_each_partition_publishes_flat_numeric_figures_and_a_summary_of_counts(pipeline):
    result = pipeline.run("2026-05-03")
    assert result.success
    said = [json.loads(r["message"]) for r in pipeline.rows("SELECT message FROM {schema}.chat_archive")]
    texts = {m["content"] for m in said if isinstance(m, dict) and isinstance(m.get("content"), str)
             and len(m["content"]) > 12}
    assert texts
    for (asset, partition), (_, materialization) in materializations(result).items():
        metadata = materialization.metadata
        for key in PLOTTED[asset]:
            assert isinstance(metadata[key], (dg.IntMetadataValue, dg.FloatMetadataValue)), (asset, key)
        assert not [k for k in metadata if len(k) > MAX_KEY_CHARS], asset  # the UI's key column overlaps longer
        # No {name: count} map: a JSON value is never plotted, and an empty one shows as `{}`.
        assert not [k for k, v in metadata.items() if isinstance(v, dg.JsonMetadataValue) and isinstance(v.value, dict)]
        summary = metadata["summary"]
        assert isinstance(summary, dg.MarkdownMetadataValue)
        assert summary.value.startswith("| figure | count |") and summary.value.count("\n") >= 4
        dumped = json.dumps({k: str(v.value) for k, v in metadata.items()})
        assert not [t for t in texts if t in dumped], asset
    closed = materializations(result)[("closed_sessions", "2026-05-03")][1].metadata
    rejected = {k: v.value for k, v in closed.items() if k.startswith("rejected.")}
    assert rejected and sum(rejected.values()) == closed["run_rows_rejected"].value


def test_every_metadata_key_an_asset_can_publish_fits_the_uis_key_column():
    """Every published name, and every entry any map can hold (the vocabularies the stages draw on), within
    MAX_KEY_CHARS; the short names are distinct and read back as the stage's names."""
    assert not [(k, v) for k, v in SHORT_NAMES.items() if len(v) > MAX_KEY_CHARS]
    assert len(set(SHORT_NAMES.values())) == len(SHORT_NAMES)
    vocabularies = {"rejected": [*REJECTION_REASONS, *UNATTRIBUTED_REASONS, "unparseable_row", "message_not_object"],
                    "skipped": ["machine_text_only", "tool_call_only"], "accepted": CATEGORIES, "active": CATEGORIES,
                    "failed": [*FAILURE_REASONS, OPEN_REASON, "backend_error"], "superseded_by": RELATIONS,
                    "repeated_by": RELATIONS, "language": ["portuguese", "indonesian", "norwegian", "simple"]}
    vocabularies["failures"] = vocabularies["failed"]
    vocabularies["summary_lang"] = vocabularies["language"]
    for asset, words in MAP_WORDS.items():
        for name, word in words.items():
            published = published_metadata(asset, {}, {name.removeprefix("partition_"): {
                entry: 1 for entry in vocabularies[word]}}) if name.startswith("partition_") else \
                published_metadata(asset, {name.removeprefix("run_"): {entry: 1 for entry in vocabularies[word]}}, {})
            too_long = [k for k in published if len(k) > MAX_KEY_CHARS]
            assert not too_long, (asset, name, too_long)
            read_back = stage_figures(published, asset)
            assert read_back[name] == {entry: 1 for entry in vocabularies[word]}, (asset, name)
    published = published_metadata("extracted_facts", {"conversations_changed_during_extraction": 2}, {})
    assert published["run_changed_during_extraction"] == 2
    assert stage_figures(published, "extracted_facts")["conversations_changed_during_extraction"] == 2


def test_check_evaluations_of_a_ranged_run_link_their_partition_materialization(pipeline):
    ranged = pipeline.job.execute_in_process(instance=pipeline.instance, raise_on_error=False,
                                             run_config=QUIET_RUN_CONFIG, tags=RANGE_TAGS(MB_DAYS[0], MB_DAYS[-1]))
    assert ranged.success
    storage_ids = {}
    for (asset, partition), _ in materializations(ranged).items():
        records = pipeline.instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[partition]), limit=1).records
        storage_ids[(asset, partition)] = records[0].storage_id
    evaluations = [e for e in ranged.get_asset_check_evaluations() if e.check_name != "freshness_check"]
    partitioned = {key for checks in build_definitions(pipeline.settings).asset_checks for key in checks.check_keys
                   if key.name != "freshness_check"}
    assert len(evaluations) == len(partitioned) * len(MB_DAYS)  # every partitioned check, once a day
    for evaluation in evaluations:
        target = evaluation.target_materialization_data
        assert target is not None and target.run_id == ranged.run_id
        assert target.storage_id == storage_ids[(evaluation.asset_key.to_user_string(), evaluation.partition)]


def freshness_evaluations(settings, instance):
    defs = build_definitions(settings)
    keys = {key for checks in defs.asset_checks for key in checks.check_keys if key.name == "freshness_check"}
    job = defs.resolve_implicit_global_asset_job_def().get_subset(asset_selection=set(), asset_check_selection=keys)
    return job.execute_in_process(instance=instance, raise_on_error=False).get_asset_check_evaluations()


def test_a_missed_night_fails_every_freshness_check_at_error_severity(make_settings):
    settings = make_settings(partitions_start=(date.today() - timedelta(days=5)).isoformat())
    evaluations = freshness_evaluations(settings, dg.DagsterInstance.ephemeral())
    assert len(evaluations) == 5
    assert all(not e.passed and e.severity == dg.AssetCheckSeverity.ERROR for e in evaluations)


def test_the_demo_saves_the_sample_range_for_later_commands(tmp_path, make_settings):
    environ = {ENV_PREFIX + "HOME": str(tmp_path)}
    days = [f"2023-05-0{d}" for d in range(1, 4)]
    chosen = sample.demo_partition_range(make_settings(), days, environ)
    assert (chosen.partitions_start, chosen.partitions_end) == (date(2023, 5, 1), date(2023, 5, 3))
    assert (tmp_path / SAVED_SETTINGS_FILE).is_file()
    later = Settings.from_env(environ)  # what `memory-pipeline ui` reads in another process
    assert (later.partitions_start, later.partitions_end) == (date(2023, 5, 1), date(2023, 5, 3))
    job = build_definitions(make_settings(partitions_start="2023-05-01", partitions_end="2023-05-03")) \
        .resolve_job_def(JOB_NAME)
    assert job.partitions_def.get_partition_keys() == days
    assert nightly_partitions(date(2023, 5, 5), date(2023, 5, 1), date(2023, 5, 3)) == ["2023-05-03"]
    # The environment wins over the saved file, and a set variable is never overwritten by the demo.
    assert Settings.from_env({**environ, ENV_PREFIX + "PARTITIONS_END": "2023-05-02"}).partitions_end == date(2023, 5, 2)
    kept = sample.demo_partition_range(make_settings(), ["2023-06-01"], {**environ, ENV_PREFIX + "PARTITIONS_START": "2023-04-01"})
    assert kept.partitions_start == date(2023, 1, 1) and kept.partitions_end == date(2023, 6, 1)


def ui_plot_partitions(partitions_def: dg.PartitionsDefinition, limit: int = 120) -> list[str]:
    """The partitions the asset's Plots view in Partitions mode draws: the GraphQL resolver
    `partitionKeyConnection(limit=120, ascending=False)` calls exactly this (dagster_graphql's asset_graph.py)."""
    from dagster._core.definitions.partitions.context import PartitionLoadingContext
    from dagster._core.definitions.temporal_context import TemporalContext

    context = PartitionLoadingContext(temporal_context=TemporalContext(effective_dt=datetime.now(UTC),
                                                                       last_event_id=None),
                                      dynamic_partitions_store=None)
    return partitions_def.get_paginated_partition_keys(context=context, limit=limit, ascending=False).results


def test_partitions_mode_plots_the_days_of_a_past_partitions_end(make_settings):
    days = [f"2023-04-{d}" for d in range(27, 31)] + [f"2023-05-0{d}" for d in range(1, 7)]
    partitions = build_definitions(make_settings(partitions_start="2023-04-27", partitions_end="2023-05-06")) \
        .resolve_job_def(JOB_NAME).partitions_def
    assert partitions.get_partition_keys() == days
    assert ui_plot_partitions(partitions) == days[::-1]
    # A code location loaded two days ago: its offset is two days short, the partition set is still the sample's.
    stale = daily_partitions(make_settings(partitions_start="2023-04-27", partitions_end="2023-05-06"),
                             today=date.today() - timedelta(days=2))
    assert stale.get_partition_keys() == days
    assert ui_plot_partitions(stale)[2:] == days[::-1]
    # No end, or an end still to come: the last 120 days up to yesterday, no offset.
    for end in (None, (date.today() + timedelta(days=3)).isoformat()):
        recent = daily_partitions(make_settings(partitions_start="2023-01-01", partitions_end=end))
        assert recent.end_offset == 0
        assert ui_plot_partitions(recent)[0] == (date.today() - timedelta(days=1)).isoformat()


def test_partitions_end_before_start_is_a_setting_error():
    from memory_pipeline.settings import SettingError

    with pytest.raises(SettingError, match="partitions_end 2023-05-01 is before"):
        Settings.from_env({ENV_PREFIX + "HOME": "/nonexistent", ENV_PREFIX + "PARTITIONS_START": "2023-05-02",
                           ENV_PREFIX + "PARTITIONS_END": "2023-05-01"})
