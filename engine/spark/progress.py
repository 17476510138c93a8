"""A load run in the background with progress: what the Load page shows while Spark works.

``BackgroundRun`` runs ``engine.spark.job.run`` in a thread; ``progress()`` reads Spark's
``statusTracker`` for the run's job group (task counts of the active stages) and never moves the bar
backwards.  Under Spark Connect there is no statusTracker; progress then shows the pipeline step only.

Example::

    >>> Progress("finding hot keys", 3, 6, tasks_done=1, tasks_total=4, active_stages=()).text()
    'finding hot keys · Spark tasks 1/4'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.spark.config import LoadConfig
from engine.spark.job import STEPS, LoadResult, run

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession


@dataclass(frozen=True)
class Progress:
    """What a background run is doing: the pipeline step and Spark's task counts for its jobs."""

    step: str
    step_index: int
    steps: int
    tasks_done: int
    tasks_total: int
    active_stages: tuple[str, ...]
    minimum: float = 0.0  # the last fraction shown: new stages must not move the bar backwards

    @property
    def fraction(self) -> float:
        stage_share = self.tasks_done / self.tasks_total if self.tasks_total else 0.0
        return max(self.minimum, min(1.0, (self.step_index + min(stage_share, 0.99)) / self.steps))

    def text(self) -> str:
        tasks = f" · Spark tasks {self.tasks_done}/{self.tasks_total}" if self.tasks_total else ""
        stages = f" · {', '.join(self.active_stages)}" if self.active_stages else ""
        return f"{self.step}{tasks}{stages}"


class BackgroundRun:
    """``compute`` (and optionally ``write``) in a thread; ``progress()`` polls Spark's statusTracker.

    Under Spark Connect there is no statusTracker; progress then shows the pipeline step only.
    """

    def __init__(self, spark: SparkSession, config: LoadConfig, output: str | None = None) -> None:
        import threading
        import uuid

        self.spark, self.config, self.output = spark, config, output
        self.group = f"kpl-load-{uuid.uuid4().hex[:8]}"
        self.step = STEPS[1]
        self._shown = 0.0
        self.result: LoadResult | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name=self.group, daemon=True)

    def start(self) -> BackgroundRun:
        self._thread.start()
        return self

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _on_stage(self, name: str) -> None:
        self.step = name

    def _work(self) -> None:
        from engine.spark.session import spark_context_or_none

        try:
            context = spark_context_or_none(self.spark)
            if context is not None:
                context.setJobGroup(self.group, "Kafka Partition Lab load", interruptOnCancel=True)
            self.result = run(self.spark, self.config, self.output, self._on_stage)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            self.error = exc

    def cancel(self) -> None:
        from engine.spark.session import spark_context_or_none

        context = spark_context_or_none(self.spark)
        if context is not None:
            context.cancelJobGroup(self.group)

    def progress(self) -> Progress:
        from engine.spark.session import spark_context_or_none

        done = total = 0
        active: list[str] = []
        context = spark_context_or_none(self.spark)
        if context is not None:
            tracker = context.statusTracker()
            for job_id in tracker.getJobIdsForGroup(self.group):
                info = tracker.getJobInfo(job_id)
                for stage_id in info.stageIds if info else ():
                    stage = tracker.getStageInfo(stage_id)
                    if stage is None:
                        continue
                    done += stage.numCompletedTasks
                    total += stage.numTasks
                    if stage.numActiveTasks:
                        active.append(f"stage {stage_id}: {stage.numCompletedTasks}/{stage.numTasks} tasks")
        index = STEPS.index(self.step) if self.step in STEPS else 1
        progress = Progress(self.step, index, len(STEPS), done, total, tuple(active[:3]), self._shown)
        self._shown = progress.fraction
        return progress
