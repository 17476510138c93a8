"""``TimingWheel``: one level of the hierarchical wheel; overflow wheels are created on demand."""


from __future__ import annotations

from engine.server.timer.timer_task_list import TimerTaskList

# --------------------------------------------------------------------------- one wheel level


class TimingWheel:
    """One level of Kafka's ``TimingWheel``: ``wheel_size`` buckets of ``tick_ms`` each.

    ``current_time_ms`` is always a multiple of ``tick_ms`` (rounded down).  A task whose expiration
    is below ``current_time_ms + tick_ms`` is "already expired"; one below ``current_time_ms +
    interval_ms`` goes into bucket ``(expiration // tick_ms) % wheel_size``; anything later goes to
    the overflow wheel (tick = this interval), created on demand with this wheel's current time.
    """

    __slots__ = ("level", "tick_ms", "wheel_size", "interval_ms", "current_time_ms", "buckets", "overflow_wheel")

    def __init__(self, level: int, tick_ms: int, wheel_size: int, start_ms: int) -> None:
        self.level = level
        self.tick_ms = tick_ms
        self.wheel_size = wheel_size
        self.interval_ms = tick_ms * wheel_size
        self.current_time_ms = start_ms - (start_ms % tick_ms)
        self.buckets = [TimerTaskList(level, i) for i in range(wheel_size)]
        self.overflow_wheel: TimingWheel | None = None

    def add_overflow_wheel(self) -> TimingWheel:
        if self.overflow_wheel is None:
            self.overflow_wheel = TimingWheel(self.level + 1, self.interval_ms, self.wheel_size, self.current_time_ms)
        return self.overflow_wheel

    def advance_clock(self, time_ms: int) -> None:
        """Move this wheel (and the overflow wheels above it) to ``time_ms`` rounded down to a tick."""
        wheel: TimingWheel | None = self
        while wheel is not None and time_ms >= wheel.current_time_ms + wheel.tick_ms:
            wheel.current_time_ms = time_ms - (time_ms % wheel.tick_ms)
            time_ms = wheel.current_time_ms
            wheel = wheel.overflow_wheel
