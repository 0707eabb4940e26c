"""Pure calendar math: which day, ISO week and month a moment belongs to, and when each closes.

Every node of the tree has exactly one parent: a day belongs to its ISO week, and a week
belongs to the month that holds its Thursday (the ISO rule). A month therefore spans whole
weeks, from the Monday of its first week to the Sunday of its last, which can start a few days
before the 1st or end a few days after the last day of the calendar month.

Time is always a parameter: nothing here reads the clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from .model import CALENDAR_RANGE, FIRST_YEAR, LAST_YEAR, year_in_calendar
from .summary import Level

_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_MONTH = re.compile(r"(\d{4})-(\d{2})")


@dataclass(frozen=True, order=True)
class Period:
    """A node of the tree: its level and key, and the days it covers (inclusive)."""

    start: date
    end: date
    level: Level
    key: str

    @property
    def path(self) -> str:
        return f"{self.level}/{self.key}.md"

    def days(self) -> list[date]:
        return [self.start + timedelta(days=i) for i in range((self.end - self.start).days + 1)]


def day_key(day: date) -> str:
    return day.isoformat()


def week_key(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def month_key_of_week(monday: date) -> str:
    thursday = monday + timedelta(days=3)
    return f"{thursday.year:04d}-{thursday.month:02d}"


def local_day(moment: datetime, tz: ZoneInfo) -> date:
    """The calendar day of an aware moment in the vault's time zone."""
    return moment.astimezone(tz).date()


def day_in_calendar(moment: datetime, tz: ZoneInfo) -> date | None:
    """The moment's day in the vault's zone; None when it falls outside memtree's calendar. Never raises:
    the year is checked before converting, and an offset under a day moves it by a year at most."""
    if not year_in_calendar(moment.year):
        return None
    day = local_day(moment, tz)
    return day if year_in_calendar(day.year) else None


def calendar_day(key: str) -> date | None:
    """The day a raw/YYYY/MM/DD folder names; None when it is no date, or outside memtree's calendar."""
    match = _DAY.fullmatch(key)
    if not match or not year_in_calendar(int(match.group(1))):
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:  # 2026-02-30, 2026-13-01
        return None


def day_period(day: date) -> Period:
    return Period(day, day, "daily", day_key(day))


def week_period(day: date) -> Period:
    monday = day - timedelta(days=day.weekday())
    return Period(monday, monday + timedelta(days=6), "weekly", week_key(monday))


def month_period(key: str) -> Period:
    """Weeks whose Thursday falls in the month: from the first such Monday to the last such Sunday."""
    match = _MONTH.fullmatch(key)
    if not match:
        raise ValueError(f"not a month key: {key!r}")
    year, month = int(match.group(1)), int(match.group(2))
    first = date(year, month, 1)
    first_thursday = first + timedelta(days=(3 - first.weekday()) % 7)
    next_first = date(year + month // 12, month % 12 + 1, 1)
    last_thursday = next_first - timedelta(days=1)
    last_thursday -= timedelta(days=(last_thursday.weekday() - 3) % 7)
    return Period(first_thursday - timedelta(days=3), last_thursday + timedelta(days=3), "monthly", key)


def parent(period: Period) -> Period | None:
    if period.level == "daily":
        return week_period(period.start)
    if period.level == "weekly":
        return month_period(month_key_of_week(period.start))
    return None


def children(period: Period) -> list[Period]:
    if period.level == "weekly":
        return [day_period(d) for d in period.days()]
    if period.level == "monthly":
        return [week_period(d) for d in period.days()[::7]]
    return []


def parse_period(level: Level, key: str) -> Period:
    """The period named by a summary's file name; ValueError when the name is not a valid key or
    lies outside memtree's calendar (its week or month could not be computed)."""
    # every key starts with its year; a day at the range's edge can belong to the next or previous
    # year's ISO week and month, so those are kept. Checked first: week 9999-W52 ends in year 10000
    if key[:4].isdigit() and not FIRST_YEAR - 1 <= int(key[:4]) <= LAST_YEAR + 1:
        raise ValueError(f"{level} period {key!r} is outside {CALENDAR_RANGE}")
    return _parse_period(level, key)


def _parse_period(level: Level, key: str) -> Period:
    if level == "daily" and (m := _DAY.fullmatch(key)):
        return day_period(date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    if level == "weekly" and (m := _WEEK.fullmatch(key)):
        monday = date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
        return week_period(monday)
    if level == "monthly" and _MONTH.fullmatch(key):
        return month_period(key)  # ValueError for a month outside 1..12
    raise ValueError(f"not a {level} period: {key!r}")


def period_end(period: Period, tz: ZoneInfo) -> datetime:
    """The aware moment the period ends: local midnight after its last day (DST-safe)."""
    return datetime.combine(period.end + timedelta(days=1), time(0), tzinfo=tz)


def is_closed(period: Period, now: datetime, tz: ZoneInfo, settle: timedelta) -> bool:
    """Closed periods get summarized; open ones stay covered by their children and raw chunks."""
    # in UTC: two datetimes sharing a zone compare by wall clock, which is off by an hour at DST changes
    return now.astimezone(timezone.utc) >= (period_end(period, tz) + settle).astimezone(timezone.utc)
