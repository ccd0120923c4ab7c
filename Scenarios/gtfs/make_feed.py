#!/usr/bin/env python3
"""Writes the synthetic GTFS feeds of the rush-hour city (12 x 10 km) into rush-hour/ and of the
service's city (smoke.yaml, 4 x 4 km) into service/.

rush-hour: four lines, both directions, a departure every 10 minutes from 06:00 to 23:00, every day
of 2025-2026. service: two lines crossing at the centre of the 4 x 4 km city, stops every 500 m from 0.5 to 3.5 km, one
timetabled trip per direction run every 10 minutes 06:00-23:00 by frequencies.txt (exact times), the
agency in Europe/Rome (the origin, 45 N 7 E, is near Turin). Positions are metres in the city plane (x east, y north of the south-west corner),
turned into latitude/longitude around the origin below with the same equirectangular
projection as TripPlanner's GeoProjection, so the planner maps the stops back exactly.

    python3 Scenarios/gtfs/make_feed.py      # deterministic: same files every run
"""
import math
import os

ORIGIN_LAT, ORIGIN_LON = 45.0, 7.0          # the city's south-west corner
M_PER_DEG_LAT = 110_574.0
M_PER_DEG_LON = 111_320.0 * math.cos(math.radians(ORIGIN_LAT))

# (route id, short name, long name, stops as (name, x_km, y_km), cruising km/h, dwell s)
LINES = [
    ("L1", "1", "West - East", [(f"Avenue {x}" if x != 6 else "Centre", x, 5.0) for x in range(0, 13)], 18, 30),
    ("L2", "2", "South - North",
     [({5: "Centre", 8: "North Cross"}.get(y, f"Main Road {y}"), 6.0, y) for y in range(0, 11)], 18, 30),
    ("L3", "3", "Park Street",
     [(f"Park Street {x}" if x != 6 else "North Cross", x, 8.0) for x in range(1, 12)], 18, 30),
    ("A", "A", "Airport Express",
     [("Station", 5.2, 3.8), ("Centre", 6.0, 5.0), ("Exhibition", 9.0, 7.0), ("Airport", 11.5, 9.0)], 40, 60),
]
FIRST, LAST, HEADWAY = 6 * 3600, 23 * 3600, 600


def hms(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def write_common(out, stops, routes):
    """stops.txt (name -> (id, x_m, y_m) projected around the origin), routes.txt and a daily calendar.txt."""
    with open(os.path.join(out, "stops.txt"), "w") as f:
        f.write("stop_id,stop_name,stop_lat,stop_lon\n")
        for name, (sid, x, y) in stops.items():
            f.write(f"{sid},{name},{ORIGIN_LAT + y / M_PER_DEG_LAT:.7f},{ORIGIN_LON + x / M_PER_DEG_LON:.7f}\n")
    with open(os.path.join(out, "routes.txt"), "w") as f:
        f.write("route_id,route_short_name,route_long_name,route_type\n")
        for rid, short, long_name, route_type in routes:
            f.write(f"{rid},{short},{long_name},{route_type}\n")
    with open(os.path.join(out, "calendar.txt"), "w") as f:
        f.write("service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n")
        f.write("DAILY,1,1,1,1,1,1,1,20250101,20261231\n")


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rush-hour")
    os.makedirs(out, exist_ok=True)
    stops = {}                                   # name -> (id, x_m, y_m)
    for _, _, _, line_stops, _, _ in LINES:
        for name, x, y in line_stops:
            if name not in stops:
                stops[name] = (f"S{len(stops) + 1:02d}", x * 1000, y * 1000)
    write_common(out, stops, [(rid, short, long_name, 2 if rid == "A" else 3) for rid, short, long_name, _, _, _ in LINES])
    with open(os.path.join(out, "trips.txt"), "w") as trips, open(os.path.join(out, "stop_times.txt"), "w") as times:
        trips.write("route_id,service_id,trip_id,trip_headsign\n")
        times.write("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n")
        for rid, _, _, line_stops, kmh, dwell in LINES:
            for direction, sequence in (("0", line_stops), ("1", list(reversed(line_stops)))):
                for start in range(FIRST, LAST + 1, HEADWAY):
                    trip_id = f"{rid}-{direction}-{hms(start).replace(':', '')[:4]}"
                    trips.write(f"{rid},DAILY,{trip_id},{sequence[-1][0]}\n")
                    t = start
                    for index, (name, x, y) in enumerate(sequence):
                        if index > 0:
                            _, px, py = sequence[index - 1]
                            t += (abs(x - px) + abs(y - py)) / kmh * 3600
                        arrival = t
                        departure = t + (dwell if 0 < index < len(sequence) - 1 else 0)
                        times.write(f"{trip_id},{hms(arrival)},{hms(departure)},{stops[name][0]},{index + 1}\n")
                        t = departure


SERVICE_LINES = [
    ("E", "E", "West - East", [(f"Via {x / 2:g}" if x != 4 else "Piazza", x / 2, 2.0) for x in range(1, 8)]),
    ("N", "N", "South - North", [(f"Corso {y / 2:g}" if y != 4 else "Piazza", 2.0, y / 2) for y in range(1, 8)]),
]


def service_feed():
    """The service city's feed: every stop inside 0-4 km x 0-4 km, 18 km/h, 20 s dwell."""
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "service")
    os.makedirs(out, exist_ok=True)
    stops = {}
    for _, _, _, line_stops in SERVICE_LINES:
        for name, x, y in line_stops:
            stops.setdefault(name, (f"P{len(stops) + 1:02d}", x * 1000, y * 1000))
    with open(os.path.join(out, "agency.txt"), "w") as f:
        f.write("agency_id,agency_name,agency_url,agency_timezone\nCT,Citysim Transit,https://example.com,Europe/Rome\n")
    write_common(out, stops, [(rid, short, long_name, 3) for rid, short, long_name, _ in SERVICE_LINES])
    with open(os.path.join(out, "trips.txt"), "w") as trips, open(os.path.join(out, "stop_times.txt"), "w") as times, \
            open(os.path.join(out, "frequencies.txt"), "w") as frequencies:
        trips.write("route_id,service_id,trip_id,trip_headsign\n")
        times.write("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n")
        frequencies.write("trip_id,start_time,end_time,headway_secs,exact_times\n")
        for rid, _, _, line_stops in SERVICE_LINES:
            for direction, sequence in (("0", line_stops), ("1", list(reversed(line_stops)))):
                trip_id = f"{rid}-{direction}"
                trips.write(f"{rid},DAILY,{trip_id},{sequence[-1][0]}\n")
                frequencies.write(f"{trip_id},{hms(FIRST)},{hms(LAST + 1)},{HEADWAY},1\n")
                t = 0
                for index, (name, x, y) in enumerate(sequence):
                    if index > 0:
                        _, px, py = sequence[index - 1]
                        t += (abs(x - px) + abs(y - py)) / 18 * 3600
                    departure = t + (20 if 0 < index < len(sequence) - 1 else 0)
                    times.write(f"{trip_id},{hms(t)},{hms(departure)},{stops[name][0]},{index + 1}\n")
                    t = departure


if __name__ == "__main__":
    main()
    service_feed()
