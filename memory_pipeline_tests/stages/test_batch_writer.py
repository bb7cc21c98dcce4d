"""The LLM stages' `BatchWriter`: write batches run one at a time, in order, off the stage's thread; a paid batch
is written before `write` returns; a batch's error reaches the stage (at the next write or on leaving); leaving
after the stage's own error waits for the batch in flight."""

import threading

import pytest
from memory_pipeline.stages.llm_calls import BatchWriter



def test_batches_run_in_order_one_at_a_time_off_the_callers_thread():
    done, running, threads = [], [], set()
    lock = threading.Lock()

    def batch(i):
        def run():
            with lock:
                running.append(i)
                assert len(running) == 1  # never two batches at once
            threads.add(threading.get_ident())
            done.append(i)
            with lock:
                running.remove(i)
        return run

    with BatchWriter() as writer:
        for i in range(20):
            writer.write(batch(i), paid=False)
    assert done == list(range(20))
    assert threading.get_ident() not in threads


def test_a_paid_batch_is_written_before_write_returns():
    release = threading.Event()
    done = []

    def slow_free():
        release.wait(5)
        done.append("free")

    with BatchWriter() as writer:
        writer.write(slow_free, paid=False)
        assert done == []  # a free batch is in flight when write returns
        release.set()
        writer.write(lambda: done.append("paid"), paid=True)
        assert done == ["free", "paid"]


def test_a_failed_batch_raises_at_the_next_write_and_the_next_batch_does_not_run():
    ran = []

    def failing():
        raise RuntimeError("write failed")

    with pytest.raises(RuntimeError, match="write failed"):
        with BatchWriter() as writer:
            writer.write(failing, paid=False)
            writer.write(lambda: ran.append(1), paid=False)
    assert ran == []


def test_a_failed_last_batch_raises_on_leaving():
    def failing():
        raise RuntimeError("last write failed")

    with pytest.raises(RuntimeError, match="last write failed"):
        with BatchWriter() as writer:
            writer.write(failing, paid=False)


def test_leaving_on_the_stages_error_waits_for_the_batch_in_flight():
    release = threading.Event()
    done = []

    def slow():
        release.wait(5)
        done.append("written")

    with pytest.raises(ValueError, match="stage failed"):
        with BatchWriter() as writer:
            writer.write(slow, paid=False)
            threading.Timer(0.05, release.set).start()
            raise ValueError("stage failed")
    assert done == ["written"]  # the connection is free again once the stage's error leaves
