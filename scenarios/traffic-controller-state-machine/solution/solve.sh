#!/bin/bash
# Reference controller.
set -euo pipefail
cat > /app/controller.py <<'PYEOF'
#!/usr/bin/env python3
"""Intersection controller: replays an event script and prints the state trace."""
import sys

DURATION = {
    "NS_GREEN": 6, "NS_YELLOW": 2, "RED_TO_EW": 1, "EW_GREEN": 4,
    "EW_YELLOW": 2, "RED_TO_NS": 1, "PED_WALK": 4, "PED_FLASH": 2,
}
NEXT = {
    "NS_GREEN": "NS_YELLOW", "NS_YELLOW": "RED_TO_EW", "RED_TO_EW": "EW_GREEN",
    "EW_GREEN": "EW_YELLOW", "EW_YELLOW": "RED_TO_NS", "PED_WALK": "PED_FLASH",
    "PED_FLASH": "NS_GREEN",
}


class Controller:
    def __init__(self, out):
        self.out = out
        self.ticks = 0
        self.state = "NS_GREEN"
        self.timer = 0
        self.ped = False
        self.emit("INIT NS_GREEN")

    def emit(self, text):
        self.out.append(f"{self.ticks} {text}")

    def go(self, new, cause):
        self.emit(f"{self.state} -> {new} ({cause})")
        self.state = new
        self.timer = 0

    def tick(self):
        self.ticks += 1
        if self.state not in DURATION:
            return
        self.timer += 1
        if self.timer < DURATION[self.state]:
            return
        if self.state == "RED_TO_NS":
            if self.ped:
                self.ped = False
                self.go("PED_WALK", "timer")
            else:
                self.go("NS_GREEN", "timer")
        else:
            self.go(NEXT[self.state], "timer")

    def event(self, name):
        s = self.state
        if name == "ped":
            if s in ("PED_WALK", "EMERGENCY", "FAULT") or self.ped:
                self.emit("IGNORED ped")
            else:
                self.ped = True
                self.emit("PED_REQUEST")
        elif name == "emergency_on":
            if s in ("EMERGENCY", "FAULT"):
                self.emit("IGNORED emergency_on")
            else:
                self.ped = False
                self.go("EMERGENCY", "emergency_on")
        elif name == "emergency_off":
            if s == "EMERGENCY":
                self.go("RED_TO_NS", "emergency_off")
            else:
                self.emit("IGNORED emergency_off")
        elif name == "fault":
            if s == "FAULT":
                self.emit("IGNORED fault")
            else:
                self.ped = False
                self.go("FAULT", "fault")
        elif name == "reset":
            if s == "FAULT":
                self.go("NS_GREEN", "reset")
            else:
                self.emit("IGNORED reset")


def main(argv):
    with open(argv[1], encoding="utf-8") as fh:
        raw_lines = fh.read().split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()
    out = []
    c = Controller(out)
    for lineno, raw in enumerate(raw_lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0] == "tick" and len(parts) == 1:
            c.tick()
        elif parts[0] == "tick" and len(parts) == 2 and parts[1].isdigit() and parts[1].isascii() and int(parts[1]) >= 1:
            for _ in range(int(parts[1])):
                c.tick()
        elif len(parts) == 1 and parts[0] in ("ped", "emergency_on", "emergency_off", "fault", "reset"):
            c.event(parts[0])
        else:
            c.emit(f"INVALID line {lineno}: {line}")
    timer = c.timer if c.state in DURATION else 0
    c.emit(f"END {c.state} timer={timer} ped={int(c.ped)}")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PYEOF
