"""A Python client's tests against the sandbox: the answers the spec documents, on demand."""
from conftest import call


def test_status(commerce_mock, tenant):
    status, headers, body = call("GET", commerce_mock.api_url + "/status", token=tenant["token"])
    assert status == 200
    assert headers["Request-Id"]
    assert body is not None


def test_forced_rate_limit(commerce_mock, tenant):
    scenario = commerce_mock.admin(
        "POST",
        "/scenarios",
        {"name": "rate-limited", "account_id": tenant["account_id"], "times": 1, "params": {"retry_after": 3}},
    )
    status, headers, body = call("GET", commerce_mock.api_url + "/status", token=tenant["token"])
    assert status == 429
    assert headers["Retry-After"] == "3"
    assert body["error"]["code"] == "rate_limit_exceeded"
    # `times: 1` used up: the next call goes through.
    status, _, _ = call("GET", commerce_mock.api_url + "/status", token=tenant["token"])
    assert status == 200
    assert scenario["id"]


def test_tenants_do_not_share_state(commerce_mock, tenant):
    other = commerce_mock.admin("POST", "/accounts", {"plan": "free"})
    mine = commerce_mock.admin("GET", f"/accounts/{tenant['account_id']}")
    theirs = commerce_mock.admin("GET", f"/accounts/{other['account']['id']}")
    assert mine["account"]["id"] != theirs["account"]["id"]
    commerce_mock.admin("DELETE", f"/accounts/{other['account']['id']}")
