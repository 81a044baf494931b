"""Statistics per variant: games played and won, streaks, the fastest win."""

from .data import (
    DAILY_MEMORY,
    DEAL_MEMORY,
    DEAL_STATES,
    HISTORY_SIZE,
    RESULTS,
    STATS_CODES,
    DailyRecord,
    DailyStats,
    DealEntry,
    Settlement,
    StatsData,
    VariantCounts,
    VariantStats,
)
from .record import Stats

__all__ = [
    "DAILY_MEMORY", "DEAL_MEMORY", "DEAL_STATES", "HISTORY_SIZE", "RESULTS", "STATS_CODES",
    "DailyRecord", "DailyStats", "DealEntry", "Settlement", "Stats", "StatsData", "VariantCounts",
    "VariantStats",
]
