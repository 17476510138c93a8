"""Estimates of share consumers run in virtual time (``engine.share.consumers``): the Share Delivery page's
workload and the Sizing tab's measured runs (``engine.share.capacity.compare``).

Each run is a share partition's record delivery (``estimate_share_delivery``) over a bound of its events
(``event_bound``: two a delivery, each record delivered at most ``delivery_count_limit`` times, and every
consumer's empty polls over the horizon) and of its in-flight window (``window_cap``).  The inputs are checked
first, as the computation checks them.  Kept apart from ``engine.cost``'s package so that the command line's
estimates never import the share-group engine.

>>> from engine.share.consumers import Workload
>>> estimate_share_consumers(Workload(records=20, consumers=2, max_records=5)).drivers
'2,604 delivery events over 20 in-flight records'
>>> from engine.share.capacity import CapacityInputs
>>> small = CapacityInputs(target_rps=200, processing_ms=20, share_partitions=1, max_records=10)
>>> estimate_share_capacity(small).seconds < 1.0
True
"""

from __future__ import annotations

from engine.cost.computations import estimate_share_delivery
from engine.cost.model import Estimate
from engine.share.capacity import CapacityInputs, measured_workload
from engine.share.consumers import Workload, check_workload, event_bound, window_cap


def estimate_share_consumers(workload: Workload) -> Estimate:
    """``engine.share.consumers.simulate(workload)`` (the Share Delivery page's timeline runs it once)."""
    check_workload(workload)
    return estimate_share_delivery(event_bound(workload), window_cap(workload))


def estimate_share_capacity(inputs: CapacityInputs) -> Estimate:
    """``engine.share.capacity.compare(inputs)``: its measured share partition simulated twice, undisturbed and with
    a consumer crashing (the crash adds no events to the bound)."""
    inputs.check()
    once = estimate_share_consumers(measured_workload(inputs))
    return once + once
