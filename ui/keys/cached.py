"""The Keys page's cached work: key samples (generated, pasted, uploaded), each key's partition, the remap
curve (both through the cost model: inline, a worker or one line) and the null-key producer's runs."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from engine.cost import estimate_placements, estimate_remap
from engine.producer import keysample, null_keys
from ui.runtime import worker
from ui.runtime.memo import memo
from ui.runtime.offload import run


@memo("Generating keys…", copy=True)
def generated_keys(spec: keysample.SampleSpec) -> pa.Array:
    return keysample.generate(spec)


@memo("Reading keys…", copy=True)
def pasted_keys(text: str) -> pa.Array:
    return keysample.parse_pasted(text)


@memo("Reading the upload…", copy=True)
def uploaded_keys(content: bytes, name: str, column: str | None) -> pa.Array:
    return keysample.parse_upload(content, name, column or None)


def placements(keys: pa.Array, sample_id: str, partitions: int, partitioner: str) -> np.ndarray:
    """Each key's partition (``sample_id`` names the sample in the cache): inline, in a worker or refused by
    its estimate (``ui.runtime.offload.run``); a copy, the page's own."""
    return np.array(run(("placements", sample_id, partitions, partitioner), worker.placements,
                        (keys, partitions, partitioner), estimate_placements(len(keys))))


def remap_curve_of(keys: pa.Array, sample_id: str, from_partitions: int,
                   counts: tuple[int, ...]) -> list[tuple[int, float]]:
    """The share of keys moving from ``from_partitions`` to each count: through ``ui.runtime.offload.run``."""
    return list(run(("remap", sample_id, from_partitions, counts), worker.remap, (keys, from_partitions, counts),
                    estimate_remap(len(keys), len(counts))))


@memo("Simulating the producer…", copy=True)
def null_key_runs(config: null_keys.ProducerConfig) -> dict[str, null_keys.ProducerRun]:
    return null_keys.simulate_all(config)
