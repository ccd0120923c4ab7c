"""The browser tests' harness: `citysim serve` on a free loopback port with a temporary config and
database, headless Chromium through Selenium, waits, axe-core, keyboard reach and screenshots."""

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("CITYSIM_BINARY", os.path.join(ROOT, ".build", "debug", "citysim"))
ADMIN = ("admin@example.com", "admin-password")
SCREENSHOTS = os.environ.get("CITYSIM_SCREENSHOTS")
PHONE = (412, 915)
DESKTOP = (1280, 1000)


# MARK: - The server

class Server:
    """`citysim serve` on a free loopback port, with its own temporary folder."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="citysim-browser-")
        with open(os.path.join(ROOT, "Scenarios", "smoke.yaml")) as f:
            scenario = f.read()
        with open(os.path.join(self.folder, "city.yaml"), "w") as f:
            f.write(scenario)
        self.port = free_port()
        self.config = os.path.join(self.folder, "service.yaml")
        with open(self.config, "w") as f:
            f.write(f"""scenario: city.yaml
database: {os.path.join(self.folder, 'service.sqlite')}
host: 127.0.0.1
port: {self.port}
admin: {{ email: {ADMIN[0]}, password: {ADMIN[1]} }}
token_lifetime_s: 86400
bcrypt_cost: 4
""")
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.log = open(os.path.join(self.folder, "serve.log"), "ab")

    def start(self):
        self.process = subprocess.Popen([BINARY, "serve", "--config", self.config], stdout=self.log,
                                        stderr=subprocess.STDOUT, cwd=self.folder)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"citysim serve exited with {self.process.returncode}: {self.log_text()}")
            try:
                urllib.request.urlopen(self.url + "/health", timeout=1)
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("citysim serve did not answer /health within 60 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log_text(self):
        with open(os.path.join(self.folder, "serve.log"), errors="replace") as f:
            return f.read()[-2000:]

    def remove(self):
        self.stop()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def api(self, method, path, body=None, token=None):
        """Calls the API; returns (status, JSON body or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, (json.loads(text) if text else None)

    def token(self, email, password):
        status, body = self.api("POST", "/v1/auth/login", {"email": email, "password": password})
        assert status == 200, body
        return body["token"]

    def add_driver(self, code, password="driver-password"):
        admin = self.token(*ADMIN)
        email = f"{code.lower()}@taxi.example"
        status, body = self.api("POST", "/v1/admin/drivers", {"email": email, "password": password, "name": f"Driver {code}",
                                                              "licence": f"L-{code}", "taxi_code": code}, admin)
        assert status == 201, body
        return email, password

    def add_customer(self, email, password="customer-password"):
        status, body = self.api("POST", "/v1/accounts", {"email": email, "password": password, "name": email.split("@")[0]})
        assert status == 201, body
        return email, password


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# MARK: - The browser

def browser(size=PHONE):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={size[0]},{size[1]}", "--force-device-scale-factor=1", "--lang=en-GB"]:
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_window_size(*size)
    return driver


def wait(driver, condition, timeout=10, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message)


def find(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector)


def visible(driver, selector):
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).is_displayed()
                and d.find_element(By.CSS_SELECTOR, selector), message=f"{selector} not shown")


def text_of(driver, selector, contains, timeout=10):
    """Waits until the element's text contains `contains`; returns the text."""
    try:
        return wait(driver, lambda d: contains in d.find_element(By.CSS_SELECTOR, selector).text
                    and d.find_element(By.CSS_SELECTOR, selector).text, timeout)
    except TimeoutException:
        raise AssertionError(f"{selector}: expected {contains!r}, shows {find(driver, selector).text!r}")


def fill(driver, selector, value):
    element = find(driver, selector)
    element.clear()
    element.send_keys(str(value))


def sign_in(driver, server, page, email, password):
    driver.get(f"{server.url}/web/{page}.html")
    fill(driver, "#signin-email", email)
    fill(driver, "#signin-password", password)
    find(driver, "#signin button[type=submit]").click()
    visible(driver, "#app")


def markers(driver, layer):
    """The map markers of a layer as dicts: kind, id and translate(x y) in SVG units."""
    return driver.execute_script("""
        return [...document.querySelectorAll(`.layer-${arguments[0]} .marker`)].map(m => ({
            kind: m.dataset.kind, id: m.dataset.id, transform: m.getAttribute('transform') }));""", layer)


AXE = None


def accessibility(driver, page):
    """Runs axe-core (WCAG 2.x A/AA) in the page; raises with the violations found."""
    global AXE
    if AXE is None:
        import axe_core_python
        with open(os.path.join(os.path.dirname(axe_core_python.__file__), "axe.min.js")) as f:
            AXE = f.read()
    driver.execute_script(AXE)
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
           .then(r => done(r.violations.map(v => ({ id: v.id, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) }))))
           .catch(e => done([{ id: 'axe-error', help: String(e), nodes: [] }]));""")
    assert result == [], f"{page}: accessibility violations: {json.dumps(result, indent=1)}"


def keyboard_reaches(driver, selector, presses=40):
    """Tab from the top until `selector` has focus; fails when it never does (keyboard use)."""
    from selenium.webdriver.common.keys import Keys
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    target = find(driver, selector)
    for _ in range(presses):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        if driver.switch_to.active_element == target:
            outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
            assert outline != "none", f"{selector} has focus but no visible focus outline"
            return
    raise AssertionError(f"{selector} not reachable with the Tab key in {presses} presses")


def screenshot(driver, name):
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        width = driver.get_window_size()["width"]
        driver.set_window_size(width, min(max(height, 600), 2200))
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def wait_for_port(port, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port}")
