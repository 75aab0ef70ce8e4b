"""What the sidecar's environment tells a policy, read once when the server starts."""
from __future__ import annotations

import os
from dataclasses import dataclass

MAX_REQUEST_BYTES = 8 * 1024 * 1024
MAX_ERROR_BODY_BYTES = 1024 * 1024
MAX_COMPLETION_BYTES = 32 * 1024 * 1024
UPSTREAM_CONNECT_TIMEOUT_S = 10.0
UPSTREAM_TOTAL_TIMEOUT_S = 600.0       # a whole non-streamed call
UPSTREAM_IDLE_TIMEOUT_S = 300.0        # between two reads of a streamed call
BUDGET_TIMEOUT_S = 5.0
CALL_TIMEOUT_S = 120.0                 # default for ctx.call
MAX_SESSIONS = 512


@dataclass(frozen=True)
class Settings:
    port: int
    host: str
    upstream_url: str
    episode_token: str
    policy_dir: str
    default_model: str

    @staticmethod
    def from_environment(environ: "os._Environ[str] | dict[str, str] | None" = None) -> "Settings":
        env = os.environ if environ is None else environ
        port_text = env.get("POLICY_PORT", "8800")
        try:
            port = int(port_text)
        except ValueError:
            raise SystemExit(f"trajrl_policy: POLICY_PORT must be a port number (got {port_text!r})")
        if not 0 < port < 65536:
            raise SystemExit(f"trajrl_policy: POLICY_PORT must be between 1 and 65535 (got {port})")
        upstream = env.get("UPSTREAM_URL", "").strip().rstrip("/")
        if not upstream.startswith(("http://", "https://")):
            raise SystemExit(f"trajrl_policy: UPSTREAM_URL must be the gateway's http(s) base URL ending in /v1 (got {upstream!r})")
        return Settings(
            port=port,
            host=env.get("POLICY_HOST", "0.0.0.0"),
            upstream_url=upstream,
            episode_token=env.get("EPISODE_TOKEN", ""),
            policy_dir=env.get("POLICY_DIR", "/policy"),
            default_model=env.get("DEFAULT_MODEL", "") or "qwen3.8-27b",
        )
