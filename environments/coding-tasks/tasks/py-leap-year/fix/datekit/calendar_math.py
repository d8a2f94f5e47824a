"""Gregorian calendar arithmetic."""

_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def is_leap_year(year):
    """Whether `year` has a 29 February."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year, month):
    """The number of days of `month` (1 to 12) in `year`."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1 to 12, got {month}")
    if month == 2 and is_leap_year(year):
        return 29
    return _DAYS[month - 1]
