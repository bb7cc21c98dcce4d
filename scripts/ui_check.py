"""Look at the Dagster UI as the data team does, in a real browser, after `memory-pipeline demo`.

Starts `memory-pipeline ui` on a free port (same MEMORY_PIPELINE_HOME as the demo), drives Debian's headless
Chromium with Playwright, saves one screenshot per page into OUT_DIR and checks what issue 20 asks for:

1. the job page `nightly_consolidation` lists the demo's runs (they carry the code location's origin);
2. the Overview timeline shows a `nightly_consolidation` row with runs;
3. an asset's Plots view in *Partitions* mode draws charts of the daily figures (one point per partition, the
   demo's 2023 days included: the partitions definition carries their past end as a negative end_offset);
4. the checks tab of an asset shows its blocking check passed, each freshness check is ERROR severity;
5. the catalog / partitions tab shows the demo's days materialized (no "0% filled").

Usage (after the demo, with the same environment):
    pip install -e ".[browser]"       # Playwright, the Python package only: `playwright install` is never needed
    apt-get install chromium          # Debian's browser; CHROMIUM overrides /usr/bin/chromium
    python scripts/ui_check.py OUT_DIR [--port 3123]

`--recent` checks the production shape instead, in a fresh MEMORY_PIPELINE_HOME: the sample moved so that its
last day is yesterday, partitions open-ended (no saved range), nine days run with `memory-pipeline materialize`
and yesterday left missing: a missed night, whose freshness checks fail red and are posted to a webhook receiver
the script starts on 127.0.0.1.

Exit status 0 when every check holds, 1 otherwise (each failure printed). Not collected by pytest: it needs a
browser and takes a minute; a test of the same facts through GraphQL lives in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from memory_pipeline.services import free_port

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
JOB = "nightly_consolidation"
LOCATION = "memory_pipeline"
PLOTTED_ASSET = "extracted_facts"
START_TIMEOUT_SECONDS = 180


def seed_recent_days() -> tuple[str, str]:
    """Load the MemoryBank sample into this home's n8n table moved so that its last day is yesterday (UTC),
    and materialize its days but yesterday with `memory-pipeline materialize`. Returns (first, last) run."""
    from datetime import date, timedelta

    from memory_pipeline import sample
    from memory_pipeline.db import get_pool
    from memory_pipeline.runner import prepare

    env = prepare()
    data = sample.load_memory_bank()
    days = sample.memory_bank_days(data)
    shift = date.today() - timedelta(days=1) - date.fromisoformat(days[-1])
    rows = [sample.SampleRow(r.session_id, r.message, r.created_at + shift) for r in sample.memory_bank_rows(data)]
    with get_pool(env.database_url).connection() as conn:
        sample.create_n8n_table(conn, env.settings)
        sample.insert_rows(conn, env.settings, rows)
    first, last = [(date.fromisoformat(d) + shift).isoformat() for d in (days[0], days[-2])]
    exe = Path(sys.executable).with_name("memory-pipeline")
    subprocess.run([str(exe), "materialize", "--date", first, "--to", last], check=True)
    return first, last  # yesterday, the sample's last day, is left missing: a missed night


def start_receiver() -> tuple[ThreadingHTTPServer, list[dict]]:
    """A Slack-style incoming webhook on 127.0.0.1 recording the JSON bodies posted to it."""
    posts: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            posts.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, posts



def start_ui(port: int, log: Path) -> subprocess.Popen:
    """`memory-pipeline ui` in its own process group (stopped with SIGTERM to the group)."""
    exe = Path(sys.executable).with_name("memory-pipeline")
    return subprocess.Popen([str(exe), "ui", "--port", str(port)], stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_for_location(base: str, deadline: float) -> None:
    """Wait until the webserver answers and the code location has loaded (a GraphQL query names the job)."""
    query = b'{"query": "{ repositoriesOrError { ... on RepositoryConnection { nodes { jobs { name } } } } }"}'
    while time.monotonic() < deadline:
        try:
            request = urllib.request.Request(f"{base}/graphql", data=query,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=5) as response:
                if JOB.encode() in response.read():
                    return
        except OSError:
            pass
        time.sleep(2)
    raise TimeoutError(f"the UI at {base} did not load the code location in {START_TIMEOUT_SECONDS} s")


class Checker:
    """Visits pages, saves screenshots, collects failed expectations."""

    def __init__(self, page, base: str, out: Path):
        self.page, self.base, self.out = page, base, out
        self.failures: list[str] = []

    def visit(self, path: str, shot: str, wait_text: str | None = None, settle_ms: int = 2500) -> str:
        self.page.goto(self.base + path, wait_until="networkidle", timeout=60_000)
        self.dismiss_community_dialog()
        if wait_text:
            try:
                self.page.get_by_text(wait_text, exact=False).first.wait_for(timeout=30_000)
            except Exception:  # noqa: BLE001 - the screenshot and the expectation below say what was shown
                pass
        self.page.wait_for_timeout(settle_ms)
        self.shot(shot)
        return self.page.inner_text("body")

    def dismiss_community_dialog(self) -> None:
        # A fresh browser profile gets Dagster's "Join the Dagster community" dialog over the page once.
        skip = self.page.get_by_role("button", name="Skip")
        try:
            skip.first.click(timeout=3000)
        except Exception:  # noqa: BLE001 - no dialog: nothing to dismiss
            pass

    def scroll_to_charts(self) -> None:
        # The charts sit below the asset's columns, inside a scrolling pane a full-page screenshot does not unroll.
        charts = self.page.locator("canvas")
        if charts.count():
            charts.first.scroll_into_view_if_needed()
            self.page.mouse.wheel(0, -120)
            self.page.wait_for_timeout(1000)

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.out / f"{name}.png"), full_page=True)
        print(f"saved {self.out / name}.png")

    def expect(self, ok: bool, what: str) -> None:
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            self.failures.append(what)


def run_checks(page, base: str, out: Path, recent: bool) -> list[str]:
    c = Checker(page, base, out)

    text = c.visit(f"/locations/{LOCATION}/jobs/{JOB}/runs", "1-job-runs", wait_text="Success")
    c.expect("No runs found" not in text and "Success" in text,
             f"job page {JOB} lists runs (the demo's, the CLI's)")

    text = c.visit("/overview/activity/timeline", "2-overview-timeline", wait_text=JOB, settle_ms=4000)
    c.expect(JOB in text, f"Overview timeline has a {JOB} row")

    text = c.visit(f"/assets/{PLOTTED_ASSET}?view=partitions", "3-asset-partitions", wait_text="Materialized")
    c.expect(recent or ("Materialized (10)" in text and "Missing (0)" in text),
             f"{PLOTTED_ASSET}: the demo's ten partitions materialized, none missing")

    # Plots: the asset's Overview tab -> Metadata -> Table|Plots toggle -> Plots, Partitions mode (the default for
    # a partitioned asset): one chart per numeric metadata key, x axis = partition key.
    c.visit(f"/assets/{PLOTTED_ASSET}?view=overview", "4a-asset-overview", wait_text="Metadata")
    page.get_by_role("button", name="Plots").first.click()
    page.get_by_role("button", name="Partitions").first.click()
    page.wait_for_timeout(5000)
    c.scroll_to_charts()
    c.shot("4b-asset-plots-partitions")
    text = page.inner_text("body")
    charts = page.locator("canvas").count()
    c.expect("Include numeric metadata entries" not in text and charts >= 5,
             f"{PLOTTED_ASSET} Plots in Partitions mode draws charts ({charts} charts)")
    for label in ("partition_candidates_accepted", "partition_candidates_rejected",
                  "partition_estimated_cost_usd"):
        c.expect(label in text, f"a chart of '{label}' by partition")
    if not recent:
        c.expect("2023-05-06" in text or "2023-04-27" in text, "the demo's days label the Partitions-mode axis")

    text = c.visit(f"/assets/{PLOTTED_ASSET}?view=checks", "5-asset-checks", wait_text="quotes_found_verbatim")
    c.expect("quotes_found_verbatim" in text and "freshness_check" in text, "checks tab lists the blocking check "
             "and the freshness check")
    if recent:  # yesterday was left missing: the freshness checks fail, red (ERROR), once evaluated
        deadline = time.monotonic() + 180
        while "Failed" not in text and time.monotonic() < deadline:
            page.wait_for_timeout(10_000)
            text = c.visit(f"/assets/{PLOTTED_ASSET}?view=checks", "5-asset-checks", wait_text="freshness_check")
        c.expect("Failed" in text, "the missed night's freshness check shows Failed")
        page.get_by_text("freshness_check").first.click()
        page.wait_for_timeout(3000)
        c.shot("5b-freshness-check")
        c.expect("Warning" not in page.inner_text("body"), "the failed freshness check is not a warning (yellow)")

    text = c.visit("/assets?view=flat", "6-catalog", wait_text="closed_sessions")
    c.expect("closed_sessions" in text, "catalog lists the assets")
    return c.failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--port", type=int, default=0, help="webserver port (default: a free one)")
    parser.add_argument("--url", help="use a UI already running at this URL instead of starting one")
    parser.add_argument("--recent", action="store_true", help="seed the sample moved to the last ten days (in an "
                        "empty MEMORY_PIPELINE_HOME) instead of looking at the demo's 2023 days")
    args = parser.parse_args(argv)
    posts: list[dict] = []
    seeded = None
    if args.recent:
        seeded = seed_recent_days()
        print("seeded and materialized %s..%s" % seeded)
        receiver, posts = start_receiver()
        os.environ["MEMORY_PIPELINE_ALERT_WEBHOOK_URL"] = f"http://127.0.0.1:{receiver.server_port}/hook"
    from playwright.sync_api import sync_playwright

    args.out_dir.mkdir(parents=True, exist_ok=True)
    ui = None
    base = args.url
    if base is None:
        port = args.port or free_port()
        base = f"http://127.0.0.1:{port}"
        ui = start_ui(port, args.out_dir / "ui.log")
    try:
        wait_for_location(base, time.monotonic() + START_TIMEOUT_SECONDS)
        if seeded:  # the next morning's catch-up run, with the daemon up: its freshness checks fail again
            time.sleep(40)  # the alert sensor's first tick only starts watching
            exe = Path(sys.executable).with_name("memory-pipeline")
            subprocess.run([str(exe), "materialize", "--date", seeded[1]], check=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            failures = run_checks(page, base, args.out_dir, recent=args.recent)
            browser.close()
        if args.recent:  # the alert sensor ticks every 30 s after the freshness checks failed
            deadline = time.monotonic() + 120
            while not any("freshness_check" in p.get("text", "") for p in posts) and time.monotonic() < deadline:
                time.sleep(5)
            (args.out_dir / "alerts.json").write_text(json.dumps(posts, indent=1))
            ok = any("freshness_check" in p.get("text", "") for p in posts)
            print(("ok   " if ok else "FAIL ") + f"the missed night was posted to the webhook ({len(posts)} posts)")
            failures += [] if ok else ["no alert posted"]
    finally:
        if ui is not None:
            os.killpg(ui.pid, signal.SIGTERM)
            ui.wait(timeout=60)
    print(f"{len(failures)} failed" if failures else "all UI checks hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
