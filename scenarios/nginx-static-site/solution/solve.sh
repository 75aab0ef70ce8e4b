#!/bin/bash
set -euo pipefail
mkdir -p /app/nginx
cat > /app/nginx/nginx.conf <<'NGINX'
# Northwind Outfitters: static site + API proxy on 127.0.0.1:8080
worker_processes 1;
pid /tmp/nginx-run/nginx.pid;
error_log /tmp/nginx-run/error.log warn;

events {
    worker_connections 256;
}

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;

    access_log /tmp/nginx-run/access.log;
    client_body_temp_path /tmp/nginx-run/client_body;
    proxy_temp_path /tmp/nginx-run/proxy;
    fastcgi_temp_path /tmp/nginx-run/fastcgi;
    uwsgi_temp_path /tmp/nginx-run/uwsgi;
    scgi_temp_path /tmp/nginx-run/scgi;

    sendfile on;
    server_tokens off;

    gzip on;
    gzip_min_length 1024;
    gzip_vary on;
    gzip_proxied any;
    # text/html is always compressed once gzip is on
    gzip_types text/css text/plain application/javascript application/json image/svg+xml;

    # HTML pages must be revalidated; decided on the response's content type, so it
    # also covers "/", directory indexes and extension-less page URLs.
    map $sent_http_content_type $page_cache_control {
        default "";
        ~^text/html "no-cache";
    }

    # www -> canonical host
    server {
        listen 127.0.0.1:8080;
        server_name www.shop.example.test;
        add_header X-Content-Type-Options nosniff always;
        return 301 http://shop.example.test$request_uri;
    }

    server {
        listen 127.0.0.1:8080 default_server;
        server_name shop.example.test;
        root /app/site/public;
        index index.html;

        # add_header is not inherited by locations that have their own add_header,
        # so every such location repeats this line.
        add_header X-Content-Type-Options nosniff always;

        error_page 404 /404.html;
        location = /404.html {
            root /app/site/errors;
            internal;
            add_header X-Content-Type-Options nosniff always;
        }

        location ^~ /.well-known/ {
            try_files $uri =404;
        }

        # any path component starting with a dot (checked before the other regex locations)
        location ~ (^|/)\. {
            return 403;
        }

        location = /admin {
            allow 10.20.0.0/16;
            deny all;
            try_files $uri $uri.html $uri/ =404;
        }

        location ^~ /admin/ {
            allow 10.20.0.0/16;
            deny all;
            try_files $uri $uri.html $uri/ =404;
        }

        location ^~ /old-blog/ {
            rewrite ^/old-blog/(.*)$ /blog/$1 permanent;
        }

        location /api/ {
            proxy_pass http://127.0.0.1:9090/;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Connection "";
        }

        location ~* ^/assets/.+\.(css|js|svg|png|jpg|webp|woff2)$ {
            try_files $uri =404;
            add_header Cache-Control "public, max-age=31536000, immutable";
            add_header X-Content-Type-Options nosniff always;
        }

        location / {
            try_files $uri $uri.html $uri/ =404;
            add_header Cache-Control $page_cache_control;
            add_header X-Content-Type-Options nosniff always;
        }
    }
}
NGINX
