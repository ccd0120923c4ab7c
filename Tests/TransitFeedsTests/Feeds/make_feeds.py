#!/usr/bin/env python3
"""Writes the small GTFS fixture feeds of TransitFeedsTests (deterministic; run from anywhere).

base/          agency (Europe/Rome), calendar_dates.txt only, a trip with untimed stops (no shape
               distances: straight-line interpolation), a trip with shape_dist_traveled, frequencies
               (exact_times 1 and 0)
base.zip       base/ deflated, inside a folder "base/"
stored.zip     base/ stored (no compression), at the root
corrupt.zip    base.zip with one byte of stops.txt's compressed data flipped
first-untimed/ the first stop of a trip has no time        -> stop_times.txt:2 arrival_time
no-calendar/   neither calendar.txt nor calendar_dates.txt -> calendar.txt
bad-zone/      agency_timezone Mars/Olympus                 -> agency.txt:2 agency_timezone
"""
import os, shutil, zipfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
M_LAT, M_LON = 110_574.0, 111_320.0 * 0.7071067811865476   # metres per degree at 45° N


def lat(y): return f"{45 + y / M_LAT:.7f}"
def lon(x): return f"{7 + x / M_LON:.7f}"


BASE = {
    "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Test Transit,https://example.com,Europe/Rome\n",
    # Four stops on one east-west street: 0, 1000, 3000 and 4000 m from the first.
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n" + "".join(
        f"S{i},Stop {i},{lat(0)},{lon(x)}\n" for i, x in enumerate([0, 1000, 3000, 4000], start=1)),
    "routes.txt": "route_id,route_short_name,route_long_name,route_type\nR,1,Main Street,3\nF,F,Shuttle,3\n",
    "calendar_dates.txt": "service_id,date,exception_type\nWEEKDAY,20250314,1\nWEEKDAY,20250317,1\n",
    "trips.txt": "route_id,service_id,trip_id,trip_headsign\nR,WEEKDAY,LINE,Stop 4\nR,WEEKDAY,SHAPED,Stop 4\n"
                 "F,WEEKDAY,EXACT,Stop 4\nF,WEEKDAY,HEADWAY,Stop 1\n",
    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
                      # LINE: only the ends are timed; the middle stops lie 1/4 and 3/4 of the way.
                      "LINE,08:00:00,08:00:00,S1,1,\nLINE,,,S2,2,\nLINE,,,S3,3,\nLINE,08:40:00,08:40:00,S4,4,\n"
                      # SHAPED: the shape says the road to S2 is long (3000 of 4000 m) although S2 is close.
                      "SHAPED,09:00:00,09:00:00,S1,1,0\nSHAPED,,,S2,2,3000\nSHAPED,09:40:00,09:40:00,S4,3,4000\n"
                      # Frequency templates: times relative to the first departure.
                      "EXACT,00:00:00,00:00:00,S1,1,\nEXACT,00:10:00,00:10:00,S4,2,\n"
                      "HEADWAY,00:00:00,00:00:00,S4,1,\nHEADWAY,00:12:00,00:12:00,S1,2,\n",
    "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\n"
                       "EXACT,07:00:00,08:00:00,900,1\nHEADWAY,18:00:00,19:00:00,1200,0\n",
}


def write(folder, files):
    path = os.path.join(HERE, folder)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    for name, text in files.items():
        with open(os.path.join(path, name), "w") as f:
            f.write(text)


def archive(name, files, method, prefix=""):
    with zipfile.ZipFile(os.path.join(HERE, name), "w", compression=method) as z:
        for file, text in sorted(files.items()):
            info = zipfile.ZipInfo(prefix + file, date_time=(2025, 3, 14, 0, 0, 0))
            info.compress_type = method
            z.writestr(info, text)


write("base", BASE)
archive("base.zip", BASE, zipfile.ZIP_DEFLATED, prefix="base/")
archive("stored.zip", BASE, zipfile.ZIP_STORED)
data = bytearray(open(os.path.join(HERE, "base.zip"), "rb").read())
with zipfile.ZipFile(os.path.join(HERE, "base.zip")) as z:
    stops = z.getinfo("base/stops.txt")
start = stops.header_offset + 30 + len(stops.filename.encode())  # no extra field in these headers
data[start + stops.compress_size // 2] ^= 0xFF
open(os.path.join(HERE, "corrupt.zip"), "wb").write(bytes(data))
untimed = dict(BASE)
untimed["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nLINE,,,S1,1\nLINE,08:40:00,08:40:00,S4,2\n"
untimed["trips.txt"] = "route_id,service_id,trip_id,trip_headsign\nR,WEEKDAY,LINE,Stop 4\n"
del untimed["frequencies.txt"]
write("first-untimed", untimed)
write("no-calendar", {k: v for k, v in untimed.items() if k != "calendar_dates.txt"})
write("bad-zone", dict(untimed, **{"agency.txt": BASE["agency.txt"].replace("Europe/Rome", "Mars/Olympus")}))
