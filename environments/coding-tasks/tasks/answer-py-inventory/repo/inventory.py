"""Reading the stock list."""

import csv
from decimal import Decimal


def load_stock(path):
    """The rows of a stock CSV file, with `quantity` as an int and `unit_price` as a Decimal."""
    with open(path, newline="") as file:
        return [
            {**row, "quantity": int(row["quantity"]), "unit_price": Decimal(row["unit_price"])}
            for row in csv.DictReader(file)
        ]
