#!/bin/bash
# Partial fix: repairs pagination and the warehouse merge, but misses the
# cents truncation in report.to_cents (values like 15 x 0.29 stay one cent low).
set -euo pipefail
cd /app/inventory
sed -i 's/total_pages = max(1, count \/\/ per_page + (1 if count % per_page > 1 else 0))/total_pages = max(1, (count + per_page - 1) \/\/ per_page)/' report.py
sed -i 's/^            quantity=rec\.quantity,$/            quantity=current.quantity + rec.quantity,/' loader.py
grep -q "(count + per_page - 1) // per_page" report.py
grep -q "quantity=current.quantity + rec.quantity" loader.py
