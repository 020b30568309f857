"""pytest fixtures for a Python client of the Creator Commerce Platform API.

`commerce_mock` starts the sandbox once per test session as a separate process, the way a Docker
sidecar runs it (`docker run -p 4010:4010 <image>` works the same with `COMMERCE_MOCK_URL` set), and
stops it with SIGTERM at the end. `tenant` gives each test an account of its own, deleted afterwards,
so tests can run in any order (or in parallel with pytest-xdist) without seeing each other's state.
Only the standard library: urllib for HTTP, subprocess for the server.
"""
import json
import os
import re
import subprocess
import urllib.error
import urllib.request

import pytest

# The package's CLI as npm installed it beside this project; `npx creator-commerce-mock` works too.
CLI = os.environ.get("COMMERCE_MOCK_CLI", os.path.join("node_modules", ".bin", "creator-commerce-mock"))


def call(method, url, body=None, token=None):
    """One HTTP call; returns (status, headers, parsed JSON body or None). Errors are answers too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, response.headers, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, error.headers, json.loads(raw) if raw else None


class CommerceMock:
    def __init__(self, url):
        self.url = url
        self.api_url = url + "/v1"

    def admin(self, method, path, body=None):
        status, _, answer = call(method, self.url + "/__admin" + path, body)
        assert status < 300, (status, answer)
        return answer


@pytest.fixture(scope="session")
def commerce_mock():
    if "COMMERCE_MOCK_URL" in os.environ:  # a sidecar started by CI
        yield CommerceMock(os.environ["COMMERCE_MOCK_URL"].rstrip("/"))
        return
    server = subprocess.Popen(
        [CLI, "--port", "0", "--clock", "frozen", "--seed", "7"],
        stdout=subprocess.PIPE,
        text=True,
    )
    # The first line names the bound port: "creator-commerce-mock listening on http://127.0.0.1:<port> …"
    first_line = server.stdout.readline()
    match = re.search(r"listening on (http://\S+)", first_line)
    if match is None:
        server.kill()
        raise RuntimeError(f"the sandbox did not start: {first_line!r}")
    try:
        yield CommerceMock(match.group(1))
    finally:
        server.terminate()  # SIGTERM: requests in flight are answered, exit 0 within 2 s
        assert server.wait(timeout=10) == 0


@pytest.fixture
def tenant(commerce_mock):
    """An isolated account and its API key, deleted after the test."""
    created = commerce_mock.admin("POST", "/accounts", {"plan": "free"})
    yield {"account_id": created["account"]["id"], "token": created["api_key"]["token"]}
    commerce_mock.admin("DELETE", f"/accounts/{created['account']['id']}")
