"""The yardstick grid city as a plain-Python event loop on heapq (see grid_city.py for the model).

usage: python3 grid_heapq.py SEED      -> one JSON line of figures on stdout
"""
import heapq
import random
import sys
from grid_city import HEIGHT, HORIZON, RATE_PER_S, WARMUP, WIDTH, Fleet, Tally, busy_in_window, travel_time

ARRIVAL, PICKUP, DROPOFF = 0, 1, 2


def run(seed):
    rng = random.Random(seed)
    tally = Tally()
    fleet = Fleet(rng)
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
            taxi = fleet.dispatch(ox, oy)
            if taxi is None:
                tally.rejected += counted
                continue
            schedule(now + travel_time(fleet.x[taxi], fleet.y[taxi], ox, oy), PICKUP, taxi, (now, ox, oy, dx, dy, counted))
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
            fleet.rejoin(taxi, dx, dy)
    # Rides still under way at the horizon were busy until then.
    for _, _, kind, _, b in events:
        if kind != ARRIVAL:
            tally.busy += busy_in_window(b[0], HORIZON)
    return tally


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    run(seed).report("heapq", seed)
