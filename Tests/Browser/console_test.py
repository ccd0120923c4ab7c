#!/usr/bin/env python3
"""End-to-end tests of the web console in headless Chromium (Debian's chromium and
chromium-driver, Selenium from PyPI), against the debug-built `citysim serve` on a free
loopback port with a temporary config and SQLite database.

    python3 Tests/Browser/console_test.py                     # all tests; last line "N passed, N failed"
    python3 Tests/Browser/console_test.py reservation         # the tests whose name contains the word
    CITYSIM_SCREENSHOTS=docs/web python3 Tests/Browser/console_test.py   # also writes the README's screenshots

Exit status 0 when every test passed, 1 otherwise (2 when the server or browser cannot start).
Accessibility: axe-core (shipped offline by the PyPI package axe-core-python) runs in every page
with the WCAG 2.x A and AA rules; any violation fails the test of that page.
"""
import os
import subprocess
import sys
import time
import traceback
from datetime import datetime, timedelta, timezone

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (ADMIN, BINARY, DESKTOP, ROOT, Server, accessibility, browser, fill, find,  # noqa: E402
                     free_port, keyboard_reaches, markers, screenshot, sign_in, text_of, visible, wait,
                     wait_for_port)


# MARK: - The tests

def test_customer_orders_driver_accepts_and_the_fare_shows(server):
    """A customer orders a ride, a driver accepts in a second browser, the customer's page shows
    the taxi coming and the fare after the drop-off; the operator sees both on the live map."""
    driver_email, driver_password = server.add_driver("TX-7")
    customer, taxi, operator = browser(), browser(), browser(DESKTOP)
    try:
        # The driver starts a shift at (500, 500) and turns available.
        sign_in(taxi, server, "driver", driver_email, driver_password)
        text_of(taxi, "#status", "Off shift")
        fill(taxi, "#pos-x", 500)
        fill(taxi, "#pos-y", 500)
        find(taxi, "#start-shift").click()
        text_of(taxi, "#status", "On shift")
        find(taxi, "#available").click()
        text_of(taxi, "#queue-place", "Zone 0: you are 1st of 1 in the queue.")
        text_of(taxi, "#connection", "Live")

        # The customer registers on the page and picks the points by coordinates.
        customer.get(f"{server.url}/web/customer.html")
        fill(customer, "#register-name", "Ana")
        fill(customer, "#register-email", "ana@example.com")
        fill(customer, "#register-password", "correct horse")
        find(customer, "#register button[type=submit]").click()
        visible(customer, "#app")
        for field, value in [("#origin-x", 900), ("#origin-y", 400), ("#destination-x", 3000), ("#destination-y", 3000)]:
            fill(customer, field, value)
        find(customer, "#order h2").click()  # leaves the last field: its change event fires
        text_of(customer, "#estimate", "Nearest free taxi: about")
        text_of(customer, "#estimate", "1 taxi waiting in zone 0")
        kinds = sorted(m["kind"] for m in markers(customer, "points"))
        assert kinds == ["destination", "origin"], kinds
        find(customer, "#order-button").click()
        text_of(customer, "#ride-status", "Asking a taxi")

        # The operator sees the offered taxi and the waiting customer.
        sign_in(operator, server, "operator", *ADMIN)
        wait(operator, lambda d: any(m["kind"] == "offered" for m in markers(d, "taxis")), message="offered taxi on the map")
        wait(operator, lambda d: len(markers(d, "customers")) == 1, message="waiting customer on the map")
        text_of(operator, "#fig-requests", "1")

        # The driver gets the offer with its countdown and accepts.
        visible(taxi, "#offer-panel")
        text_of(taxi, "#offer-text", "pick up at (900, 400), drive to (3000, 3000)")
        seconds = int(find(taxi, "#offer-countdown").text)
        assert 30 <= seconds <= 60, seconds
        time.sleep(1.2)
        assert int(find(taxi, "#offer-countdown").text) < seconds, "the countdown does not count down"
        screenshot(taxi, "driver")
        find(taxi, "#accept").click()
        text_of(taxi, "#status", "Driving to the pickup point")

        # The customer sees the taxi coming, on the map too.
        text_of(customer, "#ride-status", "Your taxi is on the way")
        text_of(customer, "#ride-taxi", "Taxi TX-7, arriving in about")
        wait(customer, lambda d: [m["transform"] for m in markers(d, "taxis")] == ["translate(500 3500)"],
             message="the taxi at (500, 500) on the customer's map")
        wait(operator, lambda d: any(m["kind"] == "to_pickup" for m in markers(d, "taxis")), message="taxi to pickup")
        wait(operator, lambda d: [m["kind"] for m in markers(d, "customers")] == ["accepted"], message="customer accepted")
        screenshot(operator, "operator")

        find(taxi, "#drive-to-pickup").click()
        wait(customer, lambda d: [m["transform"] for m in markers(d, "taxis")] == ["translate(900 3600)"],
             message="the taxi moved to the pickup point (900, 400)")
        screenshot(customer, "customer")
        find(taxi, "#pickup").click()
        text_of(customer, "#ride-status", "On board")
        text_of(taxi, "#status", "Carrying a customer")
        find(taxi, "#dropoff").click()

        # After the drop-off both see the fare.
        text_of(customer, "#ride-status", "Arrived")
        fare = text_of(customer, "#ride-fare", "Fare: ")
        assert fare.endswith(" €") and float(fare.split()[1]) > 0, fare
        text_of(taxi, "#fare", "fare")
        text_of(customer, "#history", "completed")
        wait(operator, lambda d: d.find_element(By.ID, "fig-served").text == "1", message="served in the last hour")
        visible(customer, "#report-ride").click()
        text_of(customer, "#ride-message", "bad evaluation")
    finally:
        for b in (customer, taxi, operator):
            b.quit()


def test_a_reservation_refused_for_a_short_lead_shows_its_reason(server):
    email, password = server.add_customer("bea@example.com")
    page = browser()
    try:
        sign_in(page, server, "customer", email, password)
        for field, value in [("#origin-x", 900), ("#origin-y", 400), ("#destination-x", 3000), ("#destination-y", 3000)]:
            fill(page, field, value)
        find(page, "input[name=when][value=later]").click()
        soon = (datetime.now(timezone.utc) + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
        page.execute_script("document.querySelector('#meeting-time').value = arguments[0]", soon)
        find(page, "#order-button").click()
        note = text_of(page, "#meeting-field .field-error", "at least 2 h")
        assert "D11" in note and "request a taxi now instead" in note, note
        assert find(page, "#meeting-time").get_attribute("aria-invalid") == "true"
        assert find(page, "#meeting-time").get_attribute("aria-describedby") == "meeting-time-error"
        assert find(page, "#ride-panel").is_displayed() is False
    finally:
        page.quit()


def test_bad_input_shows_the_problem_next_to_the_field(server):
    page = browser()
    try:
        page.get(f"{server.url}/web/customer.html")
        fill(page, "#register-email", "cid@example.com")
        fill(page, "#register-password", "short")
        find(page, "#register button[type=submit]").click()
        note = text_of(page, "#register-password + .field-error, #register-password ~ .field-error",
                       "password must be 8 to 128 characters long")
        assert note
        # The same message the API gives.
        _, problem = server.api("POST", "/v1/accounts", {"email": "cid@example.com", "password": "short"})
        assert problem["detail"] == note and problem["field"] == "password", (problem, note)
        # Fixing it clears the note and registers.
        fill(page, "#register-password", "long enough now")
        find(page, "#register button[type=submit]").click()
        visible(page, "#app")
        # A destination outside the city: the API's problem next to the destination.
        for field, value in [("#origin-x", 900), ("#origin-y", 400), ("#destination-x", 99000), ("#destination-y", 3000)]:
            fill(page, field, value)
        find(page, "#order-button").click()
        text_of(page, "#destination-x ~ .field-error", "outside the city")
    finally:
        page.quit()


def test_a_planner_day_shows_its_warnings_and_the_primary_choice(server):
    email, password = server.add_customer("dan@example.com")
    token = server.token(email, password)
    day = "2031-05-14"
    status, body = server.api("PUT", "/v1/planner/preferences", {"home": {"x": 500, "y": 500}}, token)
    assert status == 200, body
    for title, start, end in [("Dentist", "10:00", "11:00"), ("Meeting", "10:30", "12:00")]:
        status, body = server.api("POST", "/v1/planner/appointments", {"title": title, "date": day,
                                  "place": {"x": 3000, "y": 3000}, "start": start, "end": end}, token)
        assert status == 201, body
    page = browser(DESKTOP)
    try:
        sign_in(page, server, "planner", email, password)
        page.execute_script("const d = document.querySelector('#day'); d.value = arguments[0];"
                            "d.dispatchEvent(new Event('change'))", day)
        warning = text_of(page, "#warnings", "Overlap")
        assert "Dentist" in warning and "Meeting" in warning, warning
        wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#timeline li.activity")) >= 1, message="the timeline")
        # Bad input in the appointment form: the API's field problem next to the field.
        fill(page, "#ap-title", "Lunch")
        fill(page, "#ap-x", 1000)
        fill(page, "#ap-y", 1000)
        fill(page, "#ap-start", "13:00")
        fill(page, "#ap-end", "12:00")
        find(page, "#save-appointment").click()
        text_of(page, "#ap-end ~ .field-error", "must be after start")
        screenshot(page, "planner")
        accessibility(page, "planner")
        assert "keeping" in warning and "until you choose" in warning, warning
        find(page, "#warnings button[data-primary]").click()  # "Keep “Dentist” as primary"
        text_of(page, "#warnings", "Dentist is primary: Meeting cancelled")
        text_of(page, "#appointments tr[data-appointment] + tr", "cancelled")
    finally:
        page.quit()


def test_every_page_passes_the_accessibility_check_and_works_by_keyboard(server):
    email, password = server.add_customer("eve@example.com")
    driver_email, driver_password = server.add_driver("TX-9")
    page = browser(DESKTOP)
    try:
        page.get(server.url + "/")
        accessibility(page, "index")
        screenshot(page, "index")
        for name in ["customer", "driver", "operator", "planner"]:
            page.get(f"{server.url}/web/{name}.html")
            accessibility(page, f"{name} sign-in")
            keyboard_reaches(page, "#signin button[type=submit]")
        for name, account in [("customer", (email, password)), ("driver", (driver_email, driver_password)),
                              ("operator", ADMIN)]:
            sign_in(page, server, name, *account)
            time.sleep(0.5)
            accessibility(page, name)
            find(page, "#signout").click()
            visible(page, "#signin-panel")
    finally:
        page.quit()


def test_a_lost_connection_shows_and_the_page_reconnects(server):
    driver_email, driver_password = server.add_driver("TX-5")
    page = browser()
    try:
        sign_in(page, server, "driver", driver_email, driver_password)
        text_of(page, "#connection", "Live")
        server.stop()
        text_of(page, "#connection", "Connection lost", timeout=15)
        server.start()
        text_of(page, "#connection", "Live", timeout=30)
        # The reconnected page still works: an offer reaches it.
        fill(page, "#pos-x", 500)
        fill(page, "#pos-y", 500)
        find(page, "#start-shift").click()
        text_of(page, "#status", "On shift")
        find(page, "#available").click()
        text_of(page, "#status", "Available")
        email, password = server.add_customer("fay@example.com")
        token = server.token(email, password)
        status, ride = server.api("POST", "/v1/rides", {"origin": {"x": 900, "y": 400},
                                                        "destination": {"x": 3000, "y": 3000}}, token)
        assert status == 201 and ride["status"] == "offered", ride
        visible(page, "#offer-panel")
        find(page, "#decline").click()
        text_of(page, "#status", "On shift, not taking rides")  # D5: a decline makes the driver unavailable
    finally:
        page.quit()


def test_the_viewer_plays_a_recorded_run(server):
    """`citysim run --trace` then `citysim view`: the viewer loads the trace, plays, seeks, and
    shows the clock, taxis by state and the hour's figures."""
    folder = os.path.join(server.folder, "run")
    subprocess.run([BINARY, "run", os.path.join(ROOT, "Scenarios", "smoke.yaml"), "--set", "duration_hours=2",
                    "--trace", "--out", folder], check=True, capture_output=True, timeout=300)
    port = free_port()
    viewer = subprocess.Popen([BINARY, "view", folder, "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    page = browser(DESKTOP)
    try:
        wait_for_port(port)
        page.get(f"http://127.0.0.1:{port}/")
        text_of(page, "#status", "MB per simulated hour", timeout=30)
        assert page.execute_script("return window.viewer.now") == 0
        page.execute_script("window.viewer.seek(3600)")  # 01:00: the fleet is on shift, rides under way
        text_of(page, "#clock", "01:00:00")
        text_of(page, "#hour-title", "Hour 01:00")
        assert int(find(page, "#n-shift").text) == 60, find(page, "#n-shift").text
        assert int(find(page, "#h-requests").text.replace(",", "")) > 100
        find(page, "#play").click()
        time.sleep(1.5)
        assert page.execute_script("return window.viewer.now") > 3600, "playing does not advance the clock"
        find(page, "#play").click()
        accessibility(page, "viewer")
        screenshot(page, "viewer")
    finally:
        page.quit()
        viewer.terminate()
        viewer.wait(10)


# MARK: - The runner

def main():
    words = sys.argv[1:]
    tests = [(name, f) for name, f in globals().items() if name.startswith("test_") and callable(f)
             and (not words or any(w in name for w in words))]
    if not os.path.exists(BINARY):
        print(f"error: {BINARY} is missing: run `swift build` first", file=sys.stderr)
        return 2
    passed = failed = 0
    for name, test in tests:
        server = Server()
        try:
            server.start()
        except Exception as error:
            print(f"error: cannot start the server: {error}", file=sys.stderr)
            server.remove()
            return 2
        started = time.time()
        try:
            test(server)
            passed += 1
            print(f"PASS {name} ({time.time() - started:.1f} s)", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL {name} ({time.time() - started:.1f} s)\n{traceback.format_exc()}", file=sys.stderr, flush=True)
            print(f"--- server log ---\n{server.log_text()}", file=sys.stderr)
        finally:
            server.remove()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
