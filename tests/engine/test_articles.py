"""The reference articles are named by their titles, and every correction says what kind it is (typo /
out of date since a named Kafka release / wrong / right)."""

from __future__ import annotations

from engine import articles
from engine.consumer.explain import CALLOUTS
from helpers import REPO

SEEDS = REPO.parent / "shared" / "seeds"


def test_every_article_id_names_a_seed_file_and_a_title_it_carries() -> None:
    for article, title in articles.ARTICLES.items():
        files = sorted(SEEDS.glob(f"{article}_*.txt"))
        assert len(files) == 1, article
        text = files[0].read_text(encoding="utf-8")
        if article != "000":  # 000 has no title line: its name is made of its three headings
            assert title.split("（")[0] in text[:400], (article, title)
        else:
            assert all(h in text for h in ("怎么确定分区数", "consumer线程数"))


def test_every_correction_has_a_verdict_and_out_of_date_names_the_release() -> None:
    tables = (articles.CONSUMER_CORRECTIONS, articles.PRODUCER_CORRECTIONS, articles.LOG_CORRECTIONS)
    for c in (c for table in tables for c in table):
        assert c.verdict in ("typo", "out of date", "wrong", "correct")
        assert bool(c.since) == (c.verdict == "out of date"), c
    for row in articles.rows(articles.PRODUCER_CORRECTIONS):
        assert row["article"].startswith("《") and "0" not in row["article"].strip("《》")[:1]


def test_the_corrections_issue_25_asks_for_are_there() -> None:
    consumer = " ".join(c.kafka for c in articles.CONSUMER_CORRECTIONS)
    producer = " ".join(c.kafka for c in articles.PRODUCER_CORRECTIONS)
    assert "[RangeAssignor, CooperativeStickyAssignor]" in consumer and "ConsumerPartitionAssignor" in consumer
    assert "45000" in consumer and "eager" in consumer and "SystemTimer" in consumer
    assert "zstd" in producer and "KAFKA-13598" in producer and "librdkafka" in producer
    defaults = {c.says.split()[0]: c.since for c in articles.PRODUCER_CORRECTIONS}
    assert defaults["enable.idempotence"] == "3.0" and defaults["linger.ms"] == "4.0"


def test_the_callouts_tell_typos_from_out_of_date_and_wrong() -> None:
    verdicts = {c.verdict for c in CALLOUTS}
    assert "typo" in verdicts and "wrong" in verdicts
    assert any(v.startswith("out of date since Kafka ") for v in verdicts)
    assert not any("min()'s" in c.why for c in CALLOUTS)
    for c in CALLOUTS:
        assert articles.article_name(c.article).startswith("《")


def test_worked_example() -> None:
    assert articles.article_name("002") == "《深入理解 Kafka》"
    assert articles.article_name("002, 004") == "《深入理解 Kafka》、《深入客户端（Explore Client）》"


def test_expected_stay_share_matches_a_uniform_hash() -> None:
    """min(N, M) / lcm(N, M), checked by counting every hash of one lcm period."""
    import math
    from fractions import Fraction

    from engine.producer.remap import expected_stay_share

    for n, m in ((12, 16), (12, 24), (7, 5), (16, 12), (3, 3)):
        period = math.lcm(n, m)
        stays = sum(h % n == h % m for h in range(period))
        assert expected_stay_share(n, m) == Fraction(stays, period)
