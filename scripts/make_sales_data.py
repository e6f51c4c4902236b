"""Write dial_notebook/domains/data/sales.csv: 200 rows of made-up sales, the same every time.

Columns: date, region, product, size, price, units. Prices depend on product and size, units
fall as price rises and vary by region and season, so there is something to find in an EDA.
Pure standard library (random.Random with a fixed seed), so the file never changes:

    python scripts/make_sales_data.py
"""

from __future__ import annotations

import csv
import datetime
import math
import random
from pathlib import Path

ROWS = 200
SEED = 20240601
TARGET = Path(__file__).resolve().parent.parent / "dial_notebook" / "domains" / "data" / "sales.csv"

PRODUCTS = {"Widget": 4.0, "Gadget": 12.5, "Gizmo": 25.0, "Doohickey": 7.5}
SIZES = {"S": 0.8, "M": 1.0, "L": 1.35}
REGIONS = {"North": 1.1, "South": 0.9, "East": 1.0, "West": 1.25}


def rows(seed: int = SEED, count: int = ROWS) -> list[dict[str, object]]:
    """The data set as a list of dicts, in date order."""
    rng = random.Random(seed)
    start = datetime.date(2024, 1, 1)
    made = []
    for _ in range(count):
        day = start + datetime.timedelta(days=rng.randrange(366))
        product = rng.choice(list(PRODUCTS))
        size = rng.choices(list(SIZES), weights=[3, 5, 2])[0]
        region = rng.choice(list(REGIONS))
        price = PRODUCTS[product] * SIZES[size] * rng.uniform(0.9, 1.1)
        season = 1 + 0.3 * math.sin(2 * math.pi * (day.timetuple().tm_yday - 80) / 366)
        expected = 60 / math.sqrt(price) * REGIONS[region] * season
        units = max(1, round(rng.gauss(expected, expected * 0.25)))
        made.append(
            {
                "date": day.isoformat(),
                "region": region,
                "product": product,
                "size": size,
                "price": f"{price:.2f}",
                "units": units,
            }
        )
    made.sort(key=lambda row: (row["date"], row["region"], row["product"]))
    return made


def main() -> None:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    with TARGET.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(
            file,
            fieldnames=["date", "region", "product", "size", "price", "units"],
            lineterminator="\n",
        )
        writer.writeheader()
        writer.writerows(rows())
    print(f"wrote {ROWS} rows to {TARGET}")


if __name__ == "__main__":
    main()
