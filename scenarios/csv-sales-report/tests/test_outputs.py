"""Hidden tests for the csv-sales-report scenario.

Expected values were derived from the ground-truth order list used to produce
/app/data/sales.csv (amounts kept as integer cents), not from a CSV parser.
"""
import json
import math
import os

import pytest

REPORT = "/app/report.json"

EXPECTED_VALID_ORDERS = 178
EXPECTED_INVALID_ROWS = 12
EXPECTED_DUPLICATE_ROWS = 16
EXPECTED_TOTAL_CENTS = 3579620
EXPECTED_REGION_CENTS = {
    "North": 1200878,
    "East": 880762,
    "West": 965847,
    "South": 532133,
}
EXPECTED_MONTH_CENTS = {
    "2024-01": 265773,
    "2024-02": 672883,
    "2024-03": 518870,
    "2024-04": 883231,
    "2024-05": 821662,
    "2024-06": 417201,
}
EXPECTED_TOP_PRODUCT = "Office Chair"
REQUIRED_KEYS = {
    "valid_orders",
    "invalid_rows",
    "duplicate_rows",
    "total_revenue",
    "revenue_by_region",
    "monthly_revenue",
    "top_product",
}


def _load():
    assert os.path.isfile(REPORT), f"{REPORT} was not produced"
    with open(REPORT, encoding="utf-8") as fh:
        data = json.load(fh)
    assert isinstance(data, dict), "report must be a JSON object"
    return data


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _money_equal(value, cents):
    return _is_number(value) and abs(value * 100 - cents) < 0.5 + 1e-6


def test_report_is_json_object_with_exact_keys():
    data = _load()
    assert set(data.keys()) == REQUIRED_KEYS


def test_valid_orders_counts_each_order_id_once():
    data = _load()
    assert data.get("valid_orders") == EXPECTED_VALID_ORDERS


def test_invalid_amount_rows_are_counted():
    data = _load()
    assert data.get("invalid_rows") == EXPECTED_INVALID_ROWS


def test_duplicate_rows_are_counted():
    data = _load()
    assert data.get("duplicate_rows") == EXPECTED_DUPLICATE_ROWS


def test_total_revenue_excludes_duplicates_and_invalid_rows():
    data = _load()
    value = data.get("total_revenue")
    assert _money_equal(value, EXPECTED_TOTAL_CENTS), (
        f"total_revenue={value!r}, expected {EXPECTED_TOTAL_CENTS / 100:.2f}"
    )


def test_regions_are_normalised_to_four_title_case_names():
    data = _load()
    regions = data.get("revenue_by_region")
    assert isinstance(regions, dict)
    assert set(regions) == set(EXPECTED_REGION_CENTS)


def test_revenue_by_region_values():
    data = _load()
    regions = data.get("revenue_by_region")
    assert isinstance(regions, dict)
    for name, cents in EXPECTED_REGION_CENTS.items():
        assert _money_equal(regions.get(name), cents), (
            f"{name}: got {regions.get(name)!r}, expected {cents / 100:.2f}"
        )


def test_monthly_revenue_keys_parse_all_date_formats():
    data = _load()
    months = data.get("monthly_revenue")
    assert isinstance(months, dict)
    assert set(months) == set(EXPECTED_MONTH_CENTS)


def test_monthly_revenue_values():
    data = _load()
    months = data.get("monthly_revenue")
    assert isinstance(months, dict)
    for month, cents in EXPECTED_MONTH_CENTS.items():
        assert _money_equal(months.get(month), cents), (
            f"{month}: got {months.get(month)!r}, expected {cents / 100:.2f}"
        )


def test_top_product_is_trimmed_name_with_highest_revenue():
    data = _load()
    assert data.get("top_product") == EXPECTED_TOP_PRODUCT


def test_money_values_are_numbers_rounded_to_cents():
    data = _load()
    values = [data.get("total_revenue")]
    values += list((data.get("revenue_by_region") or {}).values())
    values += list((data.get("monthly_revenue") or {}).values())
    assert len(values) == 1 + len(EXPECTED_REGION_CENTS) + len(EXPECTED_MONTH_CENTS)
    for v in values:
        assert _is_number(v), f"{v!r} is not a JSON number"
        assert abs(v * 100 - round(v * 100)) < 1e-6, f"{v!r} is not rounded to 2 decimals"
