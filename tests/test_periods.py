"""Calendar math on the edge dates: ISO week 53, week 1 across a year, 29 February, DST."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from compaction_tree.periods import (
    children,
    day_period,
    is_closed,
    local_day,
    month_key_of_week,
    month_period,
    parent,
    parse_period,
    period_end,
    week_key,
    week_period,
)

UTC = ZoneInfo("UTC")
BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.parametrize(
    ("day", "week", "month"),
    [
        (date(2020, 12, 31), "2020-W53", "2020-12"),  # a year with 53 ISO weeks
        (date(2021, 1, 3), "2020-W53", "2020-12"),  # ... whose last week reaches into January
        (date(2021, 1, 4), "2021-W01", "2021-01"),
        (date(2024, 12, 30), "2025-W01", "2025-01"),  # week 1 starts in the previous year
        (date(2026, 1, 1), "2026-W01", "2026-01"),  # Thursday 1 January: week 1 holds it
        (date(2027, 1, 1), "2026-W53", "2026-12"),  # Friday 1 January 2027 belongs to 2026-W53
        (date(2024, 2, 29), "2024-W09", "2024-02"),  # leap day
        (date(2026, 3, 29), "2026-W13", "2026-03"),  # a DST switch in Europe
        (date(2026, 4, 30), "2026-W18", "2026-04"),  # Thursday 30 April: its week is April's
        (date(2026, 5, 1), "2026-W18", "2026-04"),  # ... so Friday 1 May belongs to April
    ],
)
def test_day_week_month(day: date, week: str, month: str) -> None:
    assert week_key(day) == week
    weekly = week_period(day)
    assert weekly.key == week and weekly.start <= day <= weekly.end
    assert weekly.start.weekday() == 0 and (weekly.end - weekly.start).days == 6
    assert month_key_of_week(weekly.start) == month
    monthly = parent(weekly)
    assert monthly is not None and monthly.key == month
    assert monthly.start <= day <= monthly.end


def test_every_day_has_exactly_one_parent_chain_over_years() -> None:
    """Months tile the calendar with whole weeks: no day in two months, none in zero."""
    day = date(2019, 12, 1)
    owners: dict[date, list[str]] = {}
    months = sorted({month_key_of_week(week_period(day + timedelta(days=i)).start) for i in range(6 * 366)})
    for key in months:
        for d in month_period(key).days():
            owners.setdefault(d, []).append(key)
    for i in range(30, 5 * 366):
        current = day + timedelta(days=i)
        assert len(owners[current]) == 1, current
        assert owners[current][0] == parent(week_period(current)).key  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("month", "start", "end", "weeks"),
    [
        ("2026-03", date(2026, 3, 2), date(2026, 3, 29), 4),  # 1 March is a Sunday: that week is February's
        ("2026-04", date(2026, 3, 30), date(2026, 5, 3), 5),  # Thursday 2 April and Thursday 30 April
        ("2026-01", date(2025, 12, 29), date(2026, 2, 1), 5),  # starts in December
        ("2020-12", date(2020, 11, 30), date(2021, 1, 3), 5),  # ends in January, with week 53
        ("2024-02", date(2024, 1, 29), date(2024, 3, 3), 5),  # the leap year's February
    ],
)
def test_month_spans_whole_weeks(month: str, start: date, end: date, weeks: int) -> None:
    period = month_period(month)
    assert (period.start, period.end) == (start, end)
    assert period.start.weekday() == 0 and period.end.weekday() == 6
    assert [w.key for w in children(period)] == [week_key(start + timedelta(weeks=i)) for i in range(weeks)]
    assert all(parent(w) == period for w in children(period))


@pytest.mark.parametrize(
    ("level", "key"),
    [
        ("daily", "2026-02-30"),
        ("daily", "2026-3-1"),
        ("weekly", "2026-W54"),
        ("weekly", "2021-W53"),
        ("monthly", "2026-13"),
        ("monthly", "2026-00"),
        ("daily", "../etc"),
        ("weekly", ""),
    ],
)
def test_invalid_period_names_are_rejected(level: str, key: str) -> None:
    with pytest.raises(ValueError):
        parse_period(level, key)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["2024-02-29", "2020-W53", "2026-W01", "2026-12"])
def test_valid_period_names_round_trip(key: str) -> None:
    level = "daily" if len(key) == 10 else "weekly" if "W" in key else "monthly"
    assert parse_period(level, key).key == key  # type: ignore[arg-type]


def test_days_are_cut_in_the_vault_time_zone() -> None:
    late_evening_utc = datetime(2026, 3, 14, 23, 30, tzinfo=timezone.utc)
    assert local_day(late_evening_utc, UTC) == date(2026, 3, 14)
    assert local_day(late_evening_utc, BERLIN) == date(2026, 3, 15)
    assert local_day(late_evening_utc, NEW_YORK) == date(2026, 3, 14)


def test_period_end_is_local_midnight_across_dst() -> None:
    # Europe/Berlin springs forward on 2026-03-29: that day has 23 hours
    def hours(day: date) -> timedelta:
        start = period_end(day_period(day - timedelta(days=1)), BERLIN).astimezone(timezone.utc)
        return period_end(day_period(day), BERLIN).astimezone(timezone.utc) - start

    assert hours(date(2026, 3, 29)) == timedelta(hours=23)
    assert hours(date(2026, 10, 25)) == timedelta(hours=25)  # and falls back: 25 hours
    assert hours(date(2026, 10, 26)) == timedelta(hours=24)


def test_closing_is_judged_in_utc_whatever_zone_now_is_in() -> None:
    # 00:30 local on 26 October after the fall-back is 23:30 UTC on the 25th
    now = datetime(2026, 10, 26, 0, 30, tzinfo=BERLIN)
    assert is_closed(day_period(date(2026, 10, 25)), now, BERLIN, timedelta(0))
    assert not is_closed(day_period(date(2026, 10, 25)), now, BERLIN, timedelta(hours=1))


@pytest.mark.parametrize(
    ("now", "settle", "closed"),
    [
        (datetime(2026, 3, 15, 23, 59, 59, 900000, tzinfo=timezone.utc), timedelta(0), False),
        (datetime(2026, 3, 16, 0, 0, tzinfo=timezone.utc), timedelta(0), True),
        (datetime(2026, 3, 16, 1, 59, tzinfo=timezone.utc), timedelta(hours=2), False),
        (datetime(2026, 3, 16, 2, 0, tzinfo=timezone.utc), timedelta(hours=2), True),
    ],
)
def test_a_day_closes_at_midnight_plus_the_settle_time(now: datetime, settle: timedelta, closed: bool) -> None:
    assert is_closed(day_period(date(2026, 3, 15)), now, UTC, settle) is closed


def test_a_week_and_month_close_after_their_last_day() -> None:
    now = datetime(2026, 3, 29, 23, 0, tzinfo=timezone.utc)  # Sunday evening: the week is still open
    assert not is_closed(week_period(date(2026, 3, 25)), now, UTC, timedelta(0))
    assert is_closed(week_period(date(2026, 3, 25)), now + timedelta(hours=1), UTC, timedelta(0))
    # March 2026 ends with its last week on Sunday 29 March
    assert is_closed(month_period("2026-03"), now + timedelta(hours=1), UTC, timedelta(0))
    assert not is_closed(month_period("2026-04"), datetime(2026, 4, 30, tzinfo=timezone.utc), UTC, timedelta(0))
