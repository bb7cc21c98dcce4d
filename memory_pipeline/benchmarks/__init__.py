"""Benchmarks: each prints its figures (`memory-pipeline benchmark ...`). `stages`: each stage on MemoryBank-based
chat memory; `scale`: one generated night against the SQL floor; `targets`: the scale targets table; `llm`: the
two LLM stages against a scripted server; `recall`: the recall functions and the token budget; `backfill`: a
backfill through the webserver against `materialize`."""
