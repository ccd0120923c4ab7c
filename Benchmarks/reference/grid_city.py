"""The yardstick grid city: parameters and the measurement window, shared by both Python models.

Same model as `grid-city.yaml` (citysim): a 10 x 10 km city in 2 km square zones (5 x 5), 2,000 taxis on
shift all day starting at uniform random places, Poisson requests at 20,000/h with origin and destination
uniform in the city, travel at 30 km/h on L1 (Manhattan) distance, drivers who accept at once. Dispatch
(zone FIFO, D3/D6): the longest-waiting available taxi of the origin zone, else the closest available taxi
anywhere (smallest L1 distance), else the customer is turned away (patience zero, D7). After a drop-off
the taxi joins the tail of the queue of the zone it is in (D2). 1 h warm-up, then 8 h measured.

What is measured (the citysim summary's definitions):
- mean wait: request -> pickup, over requests made after the warm-up whose ride completed by the horizon;
- rejected share: rejected / requests made after the warm-up;
- utilisation: time taxis spend driving to a pickup or carrying a customer, inside [warm-up, horizon],
  over taxi time on shift inside the same window.
"""
import json
import sys
from collections import deque

WIDTH = 10_000.0          # m
HEIGHT = 10_000.0         # m
ZONE_SIDE = 2_000.0       # m
COLUMNS = int(WIDTH // ZONE_SIDE)
ROWS = int(HEIGHT // ZONE_SIDE)
TAXIS = 2_000
RATE_PER_S = 20_000 / 3600.0
SPEED = 30 / 3.6          # m/s
WARMUP = 3600.0
HORIZON = 9 * 3600.0


def zone_of(x, y):
    column = min(int(x / ZONE_SIDE), COLUMNS - 1)
    row = min(int(y / ZONE_SIDE), ROWS - 1)
    return row * COLUMNS + column


def travel_time(ax, ay, bx, by):
    return (abs(ax - bx) + abs(ay - by)) / SPEED


def busy_in_window(start, end):
    """Seconds of [start, end) that fall inside the measurement window."""
    return max(0.0, min(end, HORIZON) - max(start, WARMUP))


class Tally:
    """Counts of one run, reported as the JSON object the comparison script reads."""

    def __init__(self):
        self.generated = 0
        self.served = 0
        self.rejected = 0
        self.wait_sum = 0.0
        self.busy = 0.0
        self.events = 0

    def report(self, model, seed):
        shift_time = TAXIS * (HORIZON - WARMUP)
        json.dump({
            "model": model, "seed": seed, "events": self.events,
            "requests": self.generated, "served": self.served, "rejected": self.rejected,
            "mean_wait_s": self.wait_sum / self.served if self.served else 0.0,
            "rejected_share": self.rejected / self.generated if self.generated else 0.0,
            "utilization": self.busy / shift_time,
        }, sys.stdout)
        sys.stdout.write("\n")


class Fleet:
    """Where the taxis are and which are available: zone queues (longest waiting first) and a set."""

    def __init__(self, rng):
        self.x = [rng.uniform(0, WIDTH) for _ in range(TAXIS)]
        self.y = [rng.uniform(0, HEIGHT) for _ in range(TAXIS)]
        self.queues = [deque() for _ in range(ROWS * COLUMNS)]
        self.available = set(range(TAXIS))
        self.stamp = [0] * TAXIS
        for taxi in range(TAXIS):
            self.queues[zone_of(self.x[taxi], self.y[taxi])].append((taxi, 0))

    def dispatch(self, ox, oy):
        queue = self.queues[zone_of(ox, oy)]
        while queue:
            taxi, joined = queue.popleft()
            if taxi in self.available and self.stamp[taxi] == joined:
                self.available.discard(taxi)
                return taxi
        if not self.available:
            return None
        x, y = self.x, self.y
        taxi = min(self.available, key=lambda t: abs(x[t] - ox) + abs(y[t] - oy))
        self.available.discard(taxi)
        return taxi

    def rejoin(self, taxi, x, y):
        self.x[taxi], self.y[taxi] = x, y
        self.available.add(taxi)
        self.stamp[taxi] += 1
        self.queues[zone_of(x, y)].append((taxi, self.stamp[taxi]))
