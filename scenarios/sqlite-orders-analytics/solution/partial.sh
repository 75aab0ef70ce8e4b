#!/bin/bash
# Plausible partial attempt: q2 and q3 are right, but q1 uses NOT IN (broken by
# NULL customer_ids), q4 forgets months without orders and q5 uses LIMIT 3
# instead of dense ranking.
set -euo pipefail
mkdir -p /app/queries

cat > /app/queries/q1.sql <<'SQL'
SELECT id AS customer_id, name
FROM customers
WHERE id NOT IN (SELECT customer_id FROM orders)
ORDER BY name, id;
SQL

cat > /app/queries/q2.sql <<'SQL'
SELECT p.category AS category,
       COALESCE(SUM(CASE WHEN o.id IS NOT NULL
                         THEN oi.quantity * oi.unit_price_cents - IFNULL(oi.discount_cents, 0) END), 0) AS revenue_cents
FROM products p
LEFT JOIN order_items oi ON oi.product_id = p.id
LEFT JOIN orders o ON o.id = oi.order_id
     AND o.status = 'completed'
     AND o.ordered_at >= '2024-01-01' AND o.ordered_at < '2024-04-01'
GROUP BY p.category
ORDER BY revenue_cents DESC, category;
SQL

cat > /app/queries/q3.sql <<'SQL'
WITH s AS (
    SELECT c.city, c.id, c.name,
           SUM(oi.quantity * oi.unit_price_cents - IFNULL(oi.discount_cents, 0)) AS spend
    FROM customers c
    JOIN orders o ON o.customer_id = c.id AND o.status = 'completed'
    JOIN order_items oi ON oi.order_id = o.id
    WHERE c.city IS NOT NULL
    GROUP BY c.id
)
SELECT city, id AS customer_id, name, spend AS spend_cents
FROM s AS a
WHERE NOT EXISTS (
    SELECT 1 FROM s AS b
    WHERE b.city = a.city AND (b.spend > a.spend OR (b.spend = a.spend AND b.id < a.id))
)
ORDER BY city;
SQL

cat > /app/queries/q4.sql <<'SQL'
SELECT substr(o.ordered_at, 1, 7) AS month,
       COUNT(DISTINCT o.id) AS orders,
       COUNT(DISTINCT o.customer_id) AS customers,
       COALESCE(SUM(oi.quantity * oi.unit_price_cents - IFNULL(oi.discount_cents, 0)), 0) AS revenue_cents
FROM orders o
LEFT JOIN order_items oi ON oi.order_id = o.id
WHERE o.status <> 'cancelled' AND o.ordered_at LIKE '2024-%'
GROUP BY month
ORDER BY month;
SQL

cat > /app/queries/q5.sql <<'SQL'
SELECT 1 + (SELECT COUNT(DISTINCT t.u) FROM (
            SELECT SUM(oi2.quantity) AS u FROM order_items oi2
            JOIN orders o2 ON o2.id = oi2.order_id AND o2.status = 'completed'
            GROUP BY oi2.product_id) t
        WHERE t.u > SUM(oi.quantity)) AS rank,
       p.id AS product_id, p.name, SUM(oi.quantity) AS units
FROM order_items oi
JOIN orders o ON o.id = oi.order_id AND o.status = 'completed'
JOIN products p ON p.id = oi.product_id
GROUP BY p.id
ORDER BY units DESC, p.name, p.id
LIMIT 3;
SQL
