"""Names of the files the converters write."""


def converted_name(filename, old=".txt", new=".csv"):
    """`filename` with its `old` extension swapped for `new`; a name without `old` gets `new` added.

    >>> converted_name("notes.txt")
    'notes.csv'
    """
    if old and filename.endswith(old):
        filename = filename[: -len(old)]
    return filename + new
