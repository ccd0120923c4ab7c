"""The yardstick grid city as a plain-Python event loop on heapq (see grid_city.py for the model).

usage: python3 grid_heapq.py SEED      -> one JSON line of figures on stdout
"""
import heapq
import random
import sys
from collections import deque

from grid_city import (HEIGHT, HORIZON, RATE_PER_S, ROWS, COLUMNS, TAXIS, WARMUP, WIDTH, Tally,
                       busy_in_window, travel_time, zone_of)

ARRIVAL, PICKUP, DROPOFF = 0, 1, 2


def run(seed):
    rng = random.Random(seed)
    tally = Tally()
    x = [rng.uniform(0, WIDTH) for _ in range(TAXIS)]
    y = [rng.uniform(0, HEIGHT) for _ in range(TAXIS)]
    queues = [deque() for _ in range(ROWS * COLUMNS)]   # (taxi, stamp) by zone, longest waiting first
    available = set(range(TAXIS))                       # every available taxi, for the closest-taxi rule
    stamp = [0] * TAXIS                                 # bumped when a taxi joins a queue: older entries are stale
    for taxi in range(TAXIS):
        queues[zone_of(x[taxi], y[taxi])].append((taxi, 0))
    events = []
    sequence = 0

    def schedule(time, kind, a, b=None):
        nonlocal sequence
        sequence += 1
        heapq.heappush(events, (time, sequence, kind, a, b))

    schedule(rng.expovariate(RATE_PER_S), ARRIVAL, None)
    while events:
        now, _, kind, a, b = heapq.heappop(events)
        if now >= HORIZON:
            break
        tally.events += 1
        if kind == ARRIVAL:
            schedule(now + rng.expovariate(RATE_PER_S), ARRIVAL, None)
            ox, oy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
            dx, dy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
            counted = now >= WARMUP
            tally.generated += counted
            taxi = None
            queue = queues[zone_of(ox, oy)]
            while queue:                       # lazy queue: skip entries the closest-taxi rule made stale
                candidate, joined = queue.popleft()
                if candidate in available and stamp[candidate] == joined:
                    taxi = candidate
                    break
            if taxi is None and available:
                taxi = min(available, key=lambda t: abs(x[t] - ox) + abs(y[t] - oy))
            if taxi is None:
                tally.rejected += counted
                continue
            available.discard(taxi)
            schedule(now + travel_time(x[taxi], y[taxi], ox, oy), PICKUP, taxi, (now, ox, oy, dx, dy, counted))
        elif kind == PICKUP:
            requested, ox, oy, dx, dy, counted = b
            schedule(now + travel_time(ox, oy, dx, dy), DROPOFF, a, (requested, now, dx, dy, counted))
        else:
            requested, picked, dx, dy, counted = b
            taxi = a
            tally.busy += busy_in_window(requested, now)
            if counted:
                tally.served += 1
                tally.wait_sum += picked - requested
            x[taxi], y[taxi] = dx, dy
            available.add(taxi)
            stamp[taxi] += 1
            queues[zone_of(dx, dy)].append((taxi, stamp[taxi]))
    # Rides still under way at the horizon were busy until then.
    for now_, _, kind, a, b in events:
        if kind == PICKUP:
            tally.busy += busy_in_window(b[0], HORIZON)
        elif kind == DROPOFF:
            tally.busy += busy_in_window(b[0], HORIZON)
    return tally


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    run(seed).report("heapq", seed)
