#!/usr/bin/env python3
"""Frame rate of the simulation viewer in headless Chromium on a recorded run (a measurement,
not a test: it prints figures and asserts nothing).

    citysim run Scenarios/city-scale.yaml --trace --out /tmp/city-scale
    python3 Tests/Browser/viewer_benchmark.py /tmp/city-scale [--speed 900] [--seconds 10] [--at 8]

Plays the run from hour --at at --speed× for --seconds of wall time and reports the frames per
second the page drew (requestAnimationFrame callbacks), the mean time of a frame's drawing, the
taxis and customers drawn, and the trace's size per simulated hour, as JSON on standard output.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as ui  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("--speed", type=float, default=900)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--at", type=float, default=8, help="hour to start playing from")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1000)
    args = parser.parse_args()
    port = ui.free_port()
    server = subprocess.Popen([ui.BINARY, "view", args.run, "--port", str(port)], stdout=subprocess.DEVNULL)
    page = ui.browser((args.width, args.height))
    try:
        ui.wait_for_port(port)
        started = time.time()
        page.get(f"http://127.0.0.1:{port}/viewer.html")
        ui.text_of(page, "#status", "MB per simulated hour", timeout=300)
        load_s = time.time() - started
        page.execute_script("window.viewer.seek(arguments[0]); window.viewer.setSpeed(arguments[1]);"
                            "window.viewerStats.frames = 0; window.viewerStats.drawMs = 0; window.viewer.play();",
                            args.at * 3600, args.speed)
        t0 = time.time()
        sim0 = page.execute_script("return window.viewer.now")
        time.sleep(args.seconds)
        stats = page.execute_script("return { frames: window.viewerStats.frames, drawMs: window.viewerStats.drawMs,"
                                    " now: window.viewer.now }")
        wall = time.time() - t0
        meta = json.load(open(os.path.join(args.run, "trace.json")))
        size = os.path.getsize(os.path.join(args.run, "trace.bin"))
        result = {
            "scenario": meta["scenario"], "taxis": meta["taxis"], "records": meta["records"],
            "trace_mb": round(size / 1e6, 1), "trace_mb_per_simulated_hour": round(size / 1e6 / (meta["horizon_s"] / 3600), 2),
            "load_s": round(load_s, 1), "speed": args.speed, "wall_s": round(wall, 1),
            "simulated_s_played": round(stats["now"] - sim0),
            "frames_per_second": round(stats["frames"] / wall, 1),
            "draw_ms_per_frame": round(stats["drawMs"] / max(1, stats["frames"]), 2),
            "on_shift_at_end": int(ui.find(page, "#n-shift").text.replace(",", "")),
            "waiting_at_end": int(ui.find(page, "#n-waiting").text.replace(",", "")),
            "viewport": [args.width, args.height], "browser": page.capabilities.get("browserVersion"),
        }
        print(json.dumps(result, indent=2))
    finally:
        page.quit()
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
