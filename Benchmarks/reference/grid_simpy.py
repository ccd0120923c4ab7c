"""The yardstick grid city as a SimPy model (see grid_city.py for the model).

A customer source process and one process per ride (drive to the pickup, carry the customer, rejoin a
zone queue), with the same zone-FIFO-then-closest dispatch as grid_heapq.py.

usage: python3 grid_simpy.py SEED      -> one JSON line of figures on stdout
"""
import random
import sys
import simpy

from grid_city import HEIGHT, HORIZON, RATE_PER_S, WARMUP, WIDTH, Fleet, Tally, busy_in_window, travel_time


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
