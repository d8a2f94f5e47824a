"""Splitting lists into batches."""


def chunked(items, size):
    """Split `items` into lists of `size` items, in order; the last one may be shorter.

    >>> chunked([1, 2, 3, 4], 2)
    [[1, 2], [3, 4]]
    """
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    return [items[start : start + size] for start in range(0, len(items) - size + 1, size)]
