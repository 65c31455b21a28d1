"""A one-shot data-munging script, in plain NumPy: generate a table of weather readings, clean
it (missing values, sentinels, outliers), group by station and aggregate, then report."""
import numpy as np

rng = np.random.default_rng(11)
n = 50_000
names = np.array(["Oslo", "Lima", "Perth", "Quito", "Cairo", "Tromso", "Hanoi", "Reno"])
station = rng.integers(0, len(names), n)
temp = rng.normal(12.0, 9.0, n) + station * 1.5
humidity = rng.uniform(20.0, 100.0, n)
temp[rng.random(n) < 0.02] = np.nan          # missing readings
humidity[rng.random(n) < 0.01] = -999.0      # the logger's sentinel

# clean
missing = np.isnan(temp)
temp = np.where(missing, np.nanmedian(temp), temp)
bad = humidity < 0
humidity[bad] = humidity[~bad].mean()
temp = np.clip(temp, -25.0, 45.0)
print(f"rows {n}, missing temperatures {int(missing.sum())}, sentinels {int(bad.sum())}")

# group and aggregate
count = np.bincount(station, minlength=len(names))
mean_t = np.bincount(station, weights=temp, minlength=len(names)) / count
mean_sq = np.bincount(station, weights=temp ** 2, minlength=len(names)) / count
std_t = np.sqrt(mean_sq - mean_t ** 2)
humid = np.bincount(station, weights=humidity, minlength=len(names)) / count
hot = np.bincount(station[temp > 30.0], minlength=len(names))
print(f"{'station':<8} {'rows':>6} {'mean':>8} {'std':>7} {'humid':>7} {'hot':>5}")
for i in np.argsort(-mean_t):
    print(f"{names[i]:<8} {count[i]:>6} {mean_t[i]:8.3f} {std_t[i]:7.3f} {humid[i]:7.2f} "
          f"{hot[i]:>5}")

# whole-table summaries
print("percentiles 5/50/95:", np.round(np.percentile(temp, [5, 50, 95]), 4).tolist())
print("temperature-humidity correlation:", round(float(np.corrcoef(temp, humidity)[0, 1]), 6))
levels = np.digitize(temp, [0.0, 10.0, 20.0, 30.0])
values, freq = np.unique(levels, return_counts=True)
print("readings per band:", dict(zip(values.tolist(), freq.tolist())))
