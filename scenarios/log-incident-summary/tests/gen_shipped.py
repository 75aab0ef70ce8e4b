"""Parameters of the shipped and hidden data sets (used by the tests and, once, to write environment/logs)."""
import datetime as dt

import loggen

UTC = dt.timezone.utc

SHIPPED = dict(
    seed=1403,
    start=dt.datetime(2024, 3, 14, 20, 0, tzinfo=UTC),
    hours=10,
    n_requests=900,
    n_app=160,
    endpoints=[
        ("GET", "/", 0.01),
        ("GET", "/api/orders/{id}", 0.12),
        ("POST", "/api/orders", 0.08),
        ("GET", "/api/products", 0.02),
        ("GET", "/api/products/{id}/reviews", 0.05),
        ("DELETE", "/api/carts/{id}/items/{id}", 0.10),
        ("GET", "/api/2fa/status", 0.03),
        ("GET", "/static/app.js", 0.0),
        ("POST", "/api/payments/{id}/capture", 0.25),
        ("GET", "/healthz", 0.0),
    ],
)
SHIPPED_LAYOUT = {
    "web": [("", 60), (".1", 60), (".2.gz", 60), (".3.gz", 0)],
    "api": [("", 60), (".1", 60), (".2.gz", 60)],
    "worker": [("", -240), (".1.gz", -240)],
    "billing": [("", 0), (".1.gz", 120)],
}

HIDDEN = dict(
    seed=77031,
    start=dt.datetime(2024, 10, 26, 21, 30, tzinfo=UTC),
    hours=7,
    n_requests=700,
    n_app=130,
    endpoints=[
        ("GET", "/api/v2/search", 0.07),
        ("GET", "/api/users/{id}", 0.04),
        ("PUT", "/api/users/{id}/address", 0.15),
        ("GET", "/api/users/{id}/orders/{id}", 0.09),
        ("POST", "/api/checkout", 0.2),
        ("GET", "/img/{id}/thumb.jpg", 0.0),
        ("GET", "/api/v1/404-report", 0.3),
        ("HEAD", "/healthz", 0.0),
    ],
)
HIDDEN_LAYOUT = {
    "web": [("", -420), (".1.gz", -420)],
    "api": [("", 330), (".1", 330)],
    "worker": [("", 540), (".1.gz", 540), (".2.gz", 0)],
    "billing": [("", -180), (".1", 0)],
}


def dataset(params):
    return loggen.generate(params["seed"], params["start"], params["hours"], params["n_requests"],
                           params["n_app"], params["endpoints"])
