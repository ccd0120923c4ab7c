#!/usr/bin/env python3
"""Writes Scenarios/trips/nyc-sample.csv: two days of synthetic taxi trips in the NYC TLC yellow-taxi
column layout (tpep_pickup_datetime, PULocationID, DOLocationID, ...), on the zones of the rush-hour
city (12 x 10 km, 2 km2 squares: 8 x 7 = 56 zones, IDs 1..56, row by row from the south-west).

Synthetic, not real: the test data of issue 13's trip replay. Seeded (random.Random(13)), so
`python3 Scripts/make_trips.py` rewrites the committed file byte for byte. How the trips are drawn:
- days 2024-01-15 and 2024-01-16; trips per hour ~ Poisson(BASE x PROFILE[h]) (PROFILE is rush-hour's
  rate_factor_by_hour), pickup times uniform within the hour, to the second;
- origin zone by weight (gravity towards the centre zone, plus a station zone), destination zone by
  weights by hour (07-10 towards the centre, 16-20 away from it, else like the origins); a trip may
  start and end in the same zone;
- passenger_count 1-4 (blank in ~1 % of rows, as some TLC months have), trip_distance from the zone
  centres' Manhattan distance x 1.25 in miles, fares from the 2024 TLC tariff shape;
- ~0.5 % of rows have PULocationID or DOLocationID 264/265 (TLC's "Unknown" / "Outside of NYC"),
  which a scenario drops with `outside_city: drop`.
"""
import math
import random
from pathlib import Path

BASE = 50
PROFILE = [0.4, 0.3, 0.2, 0.15, 0.15, 0.3, 0.7, 1.9, 2.0, 1.3, 1.0, 1.0,
           1.1, 1.1, 1.0, 1.0, 1.3, 1.9, 2.1, 1.5, 1.2, 1.0, 0.85, 0.55]
COLUMNS, ROWS, SIDE_KM = 8, 7, 2 ** 0.5
CENTRE, STATION = (4.0, 3.5), (3.6, 2.7)   # in zone units (column, row)
DAYS = ["2024-01-15", "2024-01-16"]
HEADER = ("VendorID,tpep_pickup_datetime,tpep_dropoff_datetime,passenger_count,trip_distance,RatecodeID,"
          "store_and_fwd_flag,PULocationID,DOLocationID,payment_type,fare_amount,extra,mta_tax,tip_amount,"
          "tolls_amount,improvement_surcharge,total_amount,congestion_surcharge,Airport_fee")


def centre(zone):
    return (zone % COLUMNS + 0.5, zone // COLUMNS + 0.5)


def weight(zone, towards, spread):
    x, y = centre(zone)
    return math.exp(-((x - towards[0]) ** 2 + (y - towards[1]) ** 2) / spread)


ZONES = range(COLUMNS * ROWS)
ORIGIN_W = [1 + 6 * weight(z, CENTRE, 4) + 4 * weight(z, STATION, 0.5) for z in ZONES]


def destination_weights(hour):
    if 7 <= hour < 10:
        return [1 + 12 * weight(z, CENTRE, 3) for z in ZONES]
    if 16 <= hour < 20:
        return [3 - 2 * weight(z, CENTRE, 6) for z in ZONES]
    return ORIGIN_W


def poisson(rng, mean):
    limit, k, p = math.exp(-mean), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


def stamp(day, seconds):
    seconds = int(seconds)
    extra_days, seconds = divmod(seconds, 86400)
    date = day if extra_days == 0 else day[:8] + "%02d" % (int(day[8:]) + extra_days)
    return "%s %02d:%02d:%02d" % (date, seconds // 3600, seconds // 60 % 60, seconds % 60)


def main():
    rng = random.Random(13)
    lines = [HEADER]
    for day in DAYS:
        trips = []
        for hour in range(24):
            for _ in range(poisson(rng, BASE * PROFILE[hour])):
                trips.append(hour * 3600 + rng.random() * 3600)
        for pickup in sorted(trips):
            hour = int(pickup // 3600)
            origin = rng.choices(ZONES, ORIGIN_W)[0]
            destination = rng.choices(ZONES, destination_weights(hour))[0]
            (ox, oy), (dx, dy) = centre(origin), centre(destination)
            km = max(0.3, (abs(ox - dx) + abs(oy - dy)) * SIDE_KM * 1.25 + rng.uniform(-0.4, 0.4))
            minutes = km / (30 if hour < 7 or hour >= 20 else 20) * 60 + rng.uniform(1, 4)
            miles = km / 1.609344
            fare = round(3.0 + 3.5 * miles + 0.7 * minutes, 2)
            tip = round(fare * rng.choice([0, 0.15, 0.2, 0.25]), 2)
            passengers = "" if rng.random() < 0.01 else str(rng.choices([1, 2, 3, 4], [70, 18, 7, 5])[0])
            pu, do = origin + 1, destination + 1
            if rng.random() < 0.005:
                if rng.random() < 0.5:
                    pu = rng.choice([264, 265])
                else:
                    do = rng.choice([264, 265])
            total = round(fare + 1.0 + 0.5 + tip + 1.0 + 2.5, 2)
            lines.append(",".join([
                str(rng.choice([1, 2])), stamp(day, pickup), stamp(day, pickup + minutes * 60), passengers,
                "%.2f" % miles, "1", "N", str(pu), str(do), str(rng.choice([1, 1, 1, 2])), "%.2f" % fare, "1.0", "0.5",
                "%.2f" % tip, "0.0", "1.0", "%.2f" % total, "2.5", "0.0"]))
    out = Path(__file__).resolve().parent.parent / "Scenarios" / "trips" / "nyc-sample.csv"
    out.write_text("\n".join(lines) + "\n")
    print(f"{out}: {len(lines) - 1} trips")


if __name__ == "__main__":
    main()
