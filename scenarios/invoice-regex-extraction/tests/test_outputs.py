"""Hidden tests for the invoice-regex-extraction scenario.

The extractor is run in a subprocess (with a timeout) on the shipped sample and
on hidden invoice files written here. Every expected row was worked out by hand
from the written rules.
"""
import csv
import io
import os
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

TOOL = "/app/extract_invoices.py"
SHIPPED_DIR = "/app/invoices"
SHIPPED_CSV = "/app/invoices.csv"
HEADER = ["file", "invoice_id", "issue_date", "due_date", "currency", "total"]
TIMEOUT = 60

SHIPPED_ROWS = [
    ["acme-hosting-2024-03.txt", "INV-2024-00312", "2024-03-05", "2024-04-04", "GBP", "546.00"],
    ["blueriver-email.txt", "INV-2024-00087", "2024-03-11", "2024-04-10", "EUR", "3384.50"],
    ["globex-statement.txt", "INV-2024-01187", "2024-02-28", "2024-03-29", "USD", "10068.40"],
    ["hooli-reminder.txt", "INV-2024-00005", "2024-01-15", "2024-02-14", "USD", "980.00"],
    ["initech-rechnung.txt", "INV-2024-00045", "2024-03-01", "2024-03-15", "EUR", "1190.00"],
    ["pied-piper.txt", "INV-2024-00200", "2024-02-29", "2024-03-30", "USD", "750.00"],
    ["stark-industries.txt", "INV-2023-09921", "2023-12-28", "2024-01-27", "USD", "1234567.89"],
    ["umbrella-labs.txt", "INV-2024-00007", "2024-02-07", "", "CHF", "12450.00"],
    ["vandelay-import.txt", "INV-2024-03310", "2024-01-09", "2024-01-16", "GBP", "3610.00"],
]

# name -> (text, expected row without the file name, or None when not an invoice)
HIDDEN = {
    "h01-leap-terms.txt": (
        "Oceanic Freight S.A.\n\n"
        "Invoice No.: INV.2024.3\n"
        "Invoice Date: 31-Jan-2024\n"
        "Payment Terms: NET 45\n\n"
        "Total: \u20ac\u00a02\u00a0500,00\n",
        ["INV-2024-00003", "2024-01-31", "2024-03-16", "EUR", "2500.00"],
    ),
    "h02-email-quoted.txt": (
        "From: invoices@brightside.example\n"
        "Date: Wed, 6 Mar 2024 11:00:00 +0000\n"
        "Subject: Invoice INV-2024-0888\n"
        "Invoice No: INV-1999-1\n\n"
        "Please see below.\n\n"
        "> > Invoice No: INV-2024-0888\n"
        "> > Date: 4th March 2024\n"
        "> > Total hours: 40\n"
        "> > Subtotal: 400.00\n"
        "> > Total VAT 20%: 80.00\n"
        "> > Total      \u00a3480.00\n",
        ["INV-2024-00888", "2024-03-04", "", "GBP", "480.00"],
    ),
    "h03-quote-not-invoice.txt": (
        "Estimate / Quote\nQuote No: Q-2024-11\nDate: 2024-03-01\nTotal: $5,000.00\n",
        None,
    ),
    "h04-bom-crlf.txt": (
        "\ufeffMassive Dynamic\r\n"
        "INVOICE NUMBER: inv-2024-51\r\n"
        "Issue date: March 5th 2024\r\n"
        "Pay by: 4 April 2024\r\n"
        "Total Amount: USD 12,000\r\n",
        ["INV-2024-00051", "2024-03-05", "2024-04-04", "USD", "12000.00"],
    ),
    "h05-first-usable-line.txt": (
        "Tyrell Corp\n"
        "Invoice No: pending\n"
        "Invoice No.: INV/2024/991\n"
        "Date: TBD\n"
        "Date: 2024-02-29\n"
        "Due: on receipt\n"
        "Terms: Net 10\n"
        "Grand total .......... 1 099,9 CHF\n",
        ["INV-2024-00991", "2024-02-29", "2024-03-10", "CHF", "1099.90"],
    ),
    "h06-paid-in-full.txt": (
        "Soylent Foods\n"
        "Invoice ID: INV 2023 12345\n"
        "Invoice Date: Dec 31, 2023\n"
        "Payment Due: 01/02/2024\n"
        "Invoice Total: 1,250.00 EUR\n"
        "Payments received: 1,250.00 EUR\n"
        "Balance due: 0.00 EUR\n",
        ["INV-2023-12345", "2023-12-31", "2024-02-01", "EUR", "0.00"],
    ),
    "h07-currency-line.txt": (
        "Cyberdyne Systems\n"
        "Currency: gbp\n"
        "Inv No  INV_2024_0420\n"
        "Date  10.12.2023\n"
        "Terms:  net 30\n"
        "Total     1'000.5\n",
        ["INV-2024-00420", "2023-12-10", "2024-01-09", "GBP", "1000.50"],
    ),
    "h08-single-digit-dates.txt": (
        "Wonka Industries\n"
        "INVOICE # INV-2024-0077\n"
        "Date: 2/3/2024\n"
        "Due Date: 1.4.2024\n"
        "TOTAL: \u20ac99\n",
        ["INV-2024-00077", "2024-03-02", "2024-04-01", "EUR", "99.00"],
    ),
    "h09-no-total.txt": (
        "Gringotts\n"
        "Invoice: INV-2022-6\n"
        "Amount due: see attached statement\n",
        ["INV-2022-00006", "", "", "", ""],
    ),
    "h10-amount-due-wins.txt": (
        "Initrode\n"
        "Invoice Number: INV-2024-3\n"
        "Invoice Date: September 9, 2024\n"
        "Total: 2.450,00 \u20ac\n"
        "Deposit paid: 450,00 \u20ac\n"
        "Total Due: 2.000,00 \u20ac\n",
        ["INV-2024-00003", "2024-09-09", "", "EUR", "2000.00"],
    ),
}


def run(in_dir, out_csv):
    assert os.path.isfile(TOOL), f"{TOOL} is missing"
    return agent_run.run([sys.executable, TOOL, in_dir, out_csv], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd="/tmp")


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as fh:
        text = fh.read()
    if text.startswith("\ufeff"):
        text = text[1:]
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture(scope="module")
def hidden_rows():
    d = tempfile.mkdtemp(prefix="invoices-")
    for name, (text, _) in HIDDEN.items():
        with open(os.path.join(d, name), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    with open(os.path.join(d, "notes.md"), "w") as fh:
        fh.write("Invoice No: INV-2024-99999\nTotal: 1.00\n")
    out = os.path.join(tempfile.mkdtemp(prefix="invoices-out-"), "out.csv")
    proc = run(d, out)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = read_csv(out)
    assert rows and rows[0] == HEADER, f"bad header: {rows[:1]}"
    return {r[0]: r[1:] for r in rows[1:]}, [r[0] for r in rows[1:]]


def expect(hidden_rows, *names):
    by_file, _ = hidden_rows
    for name in names:
        want = HIDDEN[name][1]
        assert name in by_file, f"no row for {name}"
        assert by_file[name] == want, f"{name}: got {by_file[name]}, expected {want}"


def test_shipped_csv_matches_expected_rows():
    assert os.path.isfile(SHIPPED_CSV), f"{SHIPPED_CSV} was not produced"
    rows = read_csv(SHIPPED_CSV)
    assert rows[0] == HEADER
    assert rows[1:] == SHIPPED_ROWS


def test_tool_reproduces_shipped_csv():
    out = os.path.join(tempfile.mkdtemp(prefix="invoices-shipped-"), "out.csv")
    proc = run(SHIPPED_DIR, out)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert read_csv(out) == [HEADER] + SHIPPED_ROWS


def test_only_invoices_get_rows_sorted_by_file_name(hidden_rows):
    _, order = hidden_rows
    expected = sorted(n for n, (_, row) in HIDDEN.items() if row is not None)
    assert order == expected


def test_invoice_ids_are_normalised_from_all_variants(hidden_rows):
    by_file, _ = hidden_rows
    for name, (_, row) in HIDDEN.items():
        if row is not None and name in by_file:
            assert by_file[name][0] == row[0], name
    assert all(name in by_file for name, (_, row) in HIDDEN.items() if row is not None)


def test_email_headers_and_quote_markers_are_handled(hidden_rows):
    expect(hidden_rows, "h02-email-quoted.txt")


def test_dates_in_every_format_are_day_first_iso(hidden_rows):
    by_file, _ = hidden_rows
    for name in ("h01-leap-terms.txt", "h04-bom-crlf.txt", "h06-paid-in-full.txt", "h07-currency-line.txt",
                 "h08-single-digit-dates.txt", "h10-amount-due-wins.txt"):
        want = HIDDEN[name][1]
        assert by_file.get(name, [None] * 5)[1] == want[1], f"{name}: issue date"
    for name in ("h04-bom-crlf.txt", "h06-paid-in-full.txt", "h08-single-digit-dates.txt"):
        want = HIDDEN[name][1]
        assert by_file.get(name, [None] * 5)[2] == want[2], f"{name}: due date"


def test_due_date_from_net_terms_and_first_usable_line(hidden_rows):
    expect(hidden_rows, "h01-leap-terms.txt", "h05-first-usable-line.txt", "h07-currency-line.txt")


def test_amounts_with_grouping_and_decimal_variants(hidden_rows):
    by_file, _ = hidden_rows
    for name in ("h01-leap-terms.txt", "h04-bom-crlf.txt", "h05-first-usable-line.txt", "h07-currency-line.txt",
                 "h08-single-digit-dates.txt"):
        want = HIDDEN[name][1]
        got = by_file.get(name, [None] * 5)
        assert (got[3], got[4]) == (want[3], want[4]), f"{name}: got {got[3:]}, expected {want[3:]}"


def test_total_label_priority_and_missing_values(hidden_rows):
    expect(hidden_rows, "h06-paid-in-full.txt", "h09-no-total.txt", "h10-amount-due-wins.txt")
