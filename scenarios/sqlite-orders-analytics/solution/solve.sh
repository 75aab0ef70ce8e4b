#!/bin/bash
set -euo pipefail
mkdir -p /app/queries

cat > /app/queries/q1.sql <<'SQL'
-- NOT EXISTS instead of NOT IN: guest orders have a NULL customer_id.
SELECT c.id AS customer_id, c.name AS name
FROM customers AS c
WHERE NOT EXISTS (SELECT 1 FROM orders AS o WHERE o.customer_id = c.id)
ORDER BY c.name ASC, c.id ASC;
SQL

cat > /app/queries/q2.sql <<'SQL'
WITH lines AS (
    SELECT p.category,
           oi.quantity * oi.unit_price_cents - COALESCE(oi.discount_cents, 0) AS net
    FROM order_items AS oi
    JOIN orders AS o ON o.id = oi.order_id
    JOIN products AS p ON p.id = oi.product_id
    WHERE o.status = 'completed'
      AND o.ordered_at >= '2024-01-01 00:00:00'
      AND o.ordered_at < '2024-04-01 00:00:00'
)
SELECT cats.category AS category, COALESCE(SUM(lines.net), 0) AS revenue_cents
FROM (SELECT DISTINCT category FROM products) AS cats
LEFT JOIN lines ON lines.category = cats.category
GROUP BY cats.category
ORDER BY revenue_cents DESC, cats.category ASC;
SQL

cat > /app/queries/q3.sql <<'SQL'
WITH completed AS (
    SELECT o.id, o.customer_id
    FROM orders AS o
    WHERE o.status = 'completed' AND o.customer_id IS NOT NULL
),
spend AS (
    SELECT completed.customer_id,
           COALESCE(SUM(oi.quantity * oi.unit_price_cents - COALESCE(oi.discount_cents, 0)), 0) AS spend_cents
    FROM completed
    LEFT JOIN order_items AS oi ON oi.order_id = completed.id
    GROUP BY completed.customer_id
),
ranked AS (
    SELECT c.city, c.id AS customer_id, c.name, spend.spend_cents,
           ROW_NUMBER() OVER (PARTITION BY c.city ORDER BY spend.spend_cents DESC, c.id ASC) AS rn
    FROM spend
    JOIN customers AS c ON c.id = spend.customer_id
    WHERE c.city IS NOT NULL
)
SELECT city, customer_id, name, spend_cents
FROM ranked
WHERE rn = 1
ORDER BY city ASC;
SQL

cat > /app/queries/q4.sql <<'SQL'
WITH RECURSIVE months(m) AS (
    SELECT 1
    UNION ALL
    SELECT m + 1 FROM months WHERE m < 12
),
calendar AS (
    SELECT printf('2024-%02d', m) AS month FROM months
),
picked AS (
    SELECT o.id, o.customer_id, substr(o.ordered_at, 1, 7) AS month
    FROM orders AS o
    WHERE o.status <> 'cancelled'
      AND o.ordered_at >= '2024-01-01 00:00:00'
      AND o.ordered_at < '2025-01-01 00:00:00'
),
order_net AS (
    SELECT order_id, SUM(quantity * unit_price_cents - COALESCE(discount_cents, 0)) AS net
    FROM order_items
    GROUP BY order_id
)
SELECT calendar.month AS month,
       COUNT(picked.id) AS orders,
       COUNT(DISTINCT picked.customer_id) AS customers,
       COALESCE(SUM(order_net.net), 0) AS revenue_cents
FROM calendar
LEFT JOIN picked ON picked.month = calendar.month
LEFT JOIN order_net ON order_net.order_id = picked.id
GROUP BY calendar.month
ORDER BY calendar.month ASC;
SQL

cat > /app/queries/q5.sql <<'SQL'
WITH sold AS (
    SELECT oi.product_id, SUM(oi.quantity) AS units
    FROM order_items AS oi
    JOIN orders AS o ON o.id = oi.order_id
    WHERE o.status = 'completed'
    GROUP BY oi.product_id
),
ranked AS (
    SELECT DENSE_RANK() OVER (ORDER BY sold.units DESC) AS rnk,
           p.id AS product_id, p.name AS name, sold.units AS units
    FROM sold
    JOIN products AS p ON p.id = sold.product_id
)
SELECT rnk AS rank, product_id, name, units
FROM ranked
WHERE rnk <= 3
ORDER BY rnk ASC, name ASC, product_id ASC;
SQL
