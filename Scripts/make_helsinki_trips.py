#!/usr/bin/env python3
"""Writes Scenarios/trips/helsinki-sample.csv: one day (2024-01-15) of synthetic taxi trips in the NYC TLC
yellow-taxi column layout, between the six Helsinki districts of Scenarios/zones/helsinki-districts.geojson
(PULocationID/DOLocationID are their GeoJSON ids: 1 Hakaniemi, 2 Kaartinkaupunki, 3 Kaisaniemi,
4 Keskusta, 5 Kluuvi, 6 Siltasaari).

Synthetic, not real: the test data of the Helsinki trip replay (Scenarios/helsinki-trips.yaml). Seeded
(random.Random(7)), so `python3 Scripts/make_helsinki_trips.py` rewrites the file byte for byte:
- trips per hour ~ Poisson(60 x PROFILE[h]) (PROFILE is helsinki.yaml's rate_factor_by_hour), pickup
  times uniform within the hour, to the second;
- origins weighted towards Kluuvi (the central station), Keskusta and Kaartinkaupunki (Esplanadi, the
  Market Square); destinations towards them 07-10 and away from them 16-19; never the same district;
- passenger_count 1-4; ~1 % of rows have DOLocationID 265 (TLC's "Outside of NYC": here, outside the
  districts), which the scenario drops with `outside_city: drop`; other columns are plausible fillers.
"""
import random
from pathlib import Path

from make_trips import HEADER, poisson  # the TLC columns and the Poisson draw of the NYC sample

BASE = 60
PROFILE = [0.5, 0.4, 0.3, 0.2, 0.15, 0.3, 0.7, 1.9, 2.1, 1.3, 1.0, 1.0,
           1.1, 1.1, 1.0, 1.1, 1.9, 2.2, 1.5, 1.2, 1.1, 1.0, 0.9, 0.7]
DISTRICTS = [1, 2, 3, 4, 5, 6]
CENTRAL = {2: 2.0, 4: 3.0, 5: 3.0}           # Kaartinkaupunki, Keskusta, Kluuvi


def weights(hour, origin):
    if origin:
        return [CENTRAL.get(d, 1.0) for d in DISTRICTS]
    if 7 <= hour < 10:
        return [2 * CENTRAL.get(d, 0.5) for d in DISTRICTS]
    if 16 <= hour < 19:
        return [2.0 if d not in CENTRAL else 0.7 for d in DISTRICTS]
    return [CENTRAL.get(d, 1.0) for d in DISTRICTS]


def main():
    rng = random.Random(7)
    rows = []
    for hour in range(24):
        for _ in range(poisson(rng, BASE * PROFILE[hour])):
            second = hour * 3600 + rng.randrange(3600)
            origin = rng.choices(DISTRICTS, weights(hour, True))[0]
            destination = origin
            while destination == origin:
                destination = rng.choices(DISTRICTS, weights(hour, False))[0]
            if rng.random() < 0.01:
                destination = 265
            minutes = 3 + rng.random() * 6
            end = second + int(minutes * 60)
            miles = round(0.3 + rng.random() * 1.2, 2)
            fare = round(3.0 + 2.5 * miles + 0.7 * minutes, 2)
            stamp = lambda s: f"2024-01-15 {s // 3600 % 24:02d}:{s // 60 % 60:02d}:{s % 60:02d}"
            rows.append((second, f"2,{stamp(second)},{stamp(min(end, 86_399))},{rng.randint(1, 4)},{miles},1,N,"
                                 f"{origin},{destination},1,{fare},0.0,0.5,0.0,0.0,1.0,{round(fare + 1.5, 2)},0.0,0.0"))
    rows.sort()
    out = Path("Scenarios/trips/helsinki-sample.csv")
    out.write_text(HEADER + "\n" + "\n".join(r for _, r in rows) + "\n")
    print(f"{out}: {len(rows)} trips")


main()
