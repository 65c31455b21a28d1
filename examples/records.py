"""A small table of measurements as a structured array, with station names and dates: sorting
by a field, grouping by name, date arithmetic. (NumPy-only dtypes: tnp keeps them on its host
tier.)"""
import numpy as np

rng = np.random.default_rng(7)
n = 24
stations = np.array(["north", "south", "east", "west"])[rng.integers(0, 4, n)]
days = np.datetime64("2024-03-01") + rng.integers(0, 30, n).astype("timedelta64[D]")
table = np.zeros(n, dtype=[("station", "U8"), ("day", "datetime64[D]"), ("temp", "f8"),
                           ("rain", "f4")])
table["station"] = stations
table["day"] = days
table["temp"] = np.round(10 + 5 * rng.standard_normal(n), 2)
table["rain"] = np.round(rng.exponential(2.0, n), 1)

by_day = np.sort(table, order=["day", "station"])
print(by_day[:5])
for name in np.unique(table["station"]):
    rows = table[table["station"] == name]
    span = rows["day"].max() - rows["day"].min()
    print(f"{name:>6}: {len(rows):2d} readings over {span}, mean temp {rows['temp'].mean():.3f}, "
          f"total rain {rows['rain'].sum():.1f}")
weekday = (table["day"].astype("datetime64[D]").view("int64") - 4) % 7  # 1970-01-01 was Thursday
print("weekend readings:", np.count_nonzero(weekday >= 5))
print(np.char.upper(np.unique(stations)), table.dtype.names)
