#!/bin/bash
# Plausible partial configuration: pages, redirects, 404 page, gzip, forbidden paths and
# the API proxy work, but it uses `expires max` plus an add_header for the assets (two
# Cache-Control headers), sets the security header once at server level without
# `always` (so assets, 403/404 and proxied responses lose it), and proxies without
# stripping the /api prefix.
set -euo pipefail
mkdir -p /app/nginx
cat > /app/nginx/nginx.conf <<'NGINX'
worker_processes 1;
pid /tmp/nginx-run/nginx.pid;
error_log /tmp/nginx-run/error.log;
events { worker_connections 128; }
http {
    include /etc/nginx/mime.types;
    access_log /tmp/nginx-run/access.log;
    client_body_temp_path /tmp/nginx-run/body;
    proxy_temp_path /tmp/nginx-run/proxy;
    fastcgi_temp_path /tmp/nginx-run/fastcgi;
    uwsgi_temp_path /tmp/nginx-run/uwsgi;
    scgi_temp_path /tmp/nginx-run/scgi;
    server_tokens off;
    gzip on;
    gzip_min_length 1024;
    gzip_vary on;
    gzip_types text/css text/plain application/javascript application/json image/svg+xml;

    server {
        listen 127.0.0.1:8080;
        server_name www.shop.example.test;
        return 301 http://shop.example.test$request_uri;
    }
    server {
        listen 127.0.0.1:8080 default_server;
        server_name shop.example.test;
        root /app/site/public;
        index index.html;
        add_header X-Content-Type-Options nosniff;
        error_page 404 /404.html;
        location = /404.html { root /app/site/errors; internal; }
        location ^~ /.well-known/ { }
        location ~ /\. { return 403; }
        location ^~ /admin { deny all; }
        location ^~ /old-blog/ { rewrite ^/old-blog/(.*)$ /blog/$1 permanent; }
        location /api/ {
            proxy_pass http://127.0.0.1:9090;
            proxy_set_header Host $host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }
        location ~* \.(css|js|svg|png|jpg|webp|woff2)$ {
            expires max;
            add_header Cache-Control "public, max-age=31536000, immutable";
        }
        location ~* \.html$ {
            add_header Cache-Control "no-cache";
        }
        location / {
            try_files $uri $uri.html $uri/ =404;
        }
    }
}
NGINX
