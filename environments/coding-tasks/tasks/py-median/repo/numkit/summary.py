"""Summary statistics of lists of numbers."""


def mean(values):
    """The arithmetic mean of a non-empty list of numbers."""
    if not values:
        raise ValueError("mean of an empty list")
    return sum(values) / len(values)


def median(values):
    """The middle value of a non-empty list of numbers, in any order."""
    if not values:
        raise ValueError("median of an empty list")
    ordered = sorted(values)
    return ordered[len(ordered) // 2]
