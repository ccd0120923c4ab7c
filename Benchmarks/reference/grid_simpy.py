"""The yardstick grid city as a SimPy model (see grid_city.py for the model).

A customer source process and one process per ride (drive to the pickup, carry the customer, rejoin a
zone queue), with the same zone-FIFO-then-closest dispatch as grid_heapq.py.

usage: python3 grid_simpy.py SEED      -> one JSON line of figures on stdout
"""
import random
import sys
from collections import deque

import simpy

from grid_city import (HEIGHT, HORIZON, RATE_PER_S, ROWS, COLUMNS, TAXIS, WARMUP, WIDTH, Tally,
                       busy_in_window, travel_time, zone_of)


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


def ride(env, fleet, tally, taxi, requested, ox, oy, dx, dy, counted):
    tally.events += 1
    yield env.timeout(travel_time(fleet.x[taxi], fleet.y[taxi], ox, oy))
    picked = env.now
    tally.events += 1
    yield env.timeout(travel_time(ox, oy, dx, dy))
    tally.events += 1
    tally.busy += busy_in_window(requested, env.now)
    if counted:
        tally.served += 1
        tally.wait_sum += picked - requested
    fleet.rejoin(taxi, dx, dy)


def customers(env, rng, fleet, tally, under_way):
    while True:
        yield env.timeout(rng.expovariate(RATE_PER_S))
        tally.events += 1
        now = env.now
        ox, oy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        dx, dy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        counted = now >= WARMUP
        tally.generated += counted
        taxi = fleet.dispatch(ox, oy)
        if taxi is None:
            tally.rejected += counted
            continue
        under_way[taxi] = now
        env.process(ride(env, fleet, tally, taxi, now, ox, oy, dx, dy, counted))


def run(seed):
    rng = random.Random(seed)
    env = simpy.Environment()
    fleet = Fleet(rng)
    tally = Tally()
    under_way = {}   # taxi -> request time of its current ride
    env.process(customers(env, rng, fleet, tally, under_way))
    env.run(until=HORIZON)
    for taxi, requested in under_way.items():   # rides under way at the horizon were busy until then
        if taxi not in fleet.available:
            tally.busy += busy_in_window(requested, HORIZON)
    return tally


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    run(seed).report("simpy", seed)
