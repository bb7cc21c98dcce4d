"""A user's shard: a pure function of the user key and the count, spread evenly, parsed from a run's tag."""

import hashlib
from collections import Counter

import pytest

from memory_pipeline.domain.shards import MAX_SHARDS, Shard, shard_of, shards_of_night


def test_a_users_shard_is_the_first_32_bits_of_md5_modulo_the_count():
    key = "memorybank:emily"
    first_32_bits = int(hashlib.md5(key.encode()).hexdigest()[:8], 16)
    assert [shard_of(key, n) for n in (1, 2, 3, 64)] == [first_32_bits % n for n in (1, 2, 3, 64)]
    assert shard_of("ü-ключ", 7) == int(hashlib.md5("ü-ключ".encode()).hexdigest()[:8], 16) % 7  # UTF-8 bytes


def test_every_user_belongs_to_exactly_one_shard_of_a_night():
    keys = [f"whatsapp:+4917{n:07d}" for n in range(4000)]  # sequential phone numbers
    for count in (1, 2, 4, 5):
        owners = Counter(sum(s.owns(k) for s in shards_of_night(count)) for k in keys)
        assert owners == {1: len(keys)}
    spread = Counter(shard_of(k, 4) for k in keys)
    assert sorted(spread) == [0, 1, 2, 3] and min(spread.values()) > 0.2 * len(keys)


def test_a_run_tag_names_its_shard_and_a_run_without_one_is_the_whole_night():
    assert Shard.parse("2/4") == Shard(2, 4) and str(Shard(2, 4)) == "2/4"
    assert Shard.parse(None) == Shard(0, 1) and Shard().whole_night and Shard().owns("anyone")
    for bad in ("4/4", "-1/2", "1/0", "a/b", "1", f"0/{MAX_SHARDS + 1}", ""):
        with pytest.raises(ValueError):
            Shard.parse(bad)
    with pytest.raises(ValueError):
        shard_of("x", 0)
