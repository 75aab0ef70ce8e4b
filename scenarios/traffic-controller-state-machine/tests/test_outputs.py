"""Hidden tests for the traffic-controller-state-machine scenario.

/app/controller.py is run in a subprocess (with a timeout) on event scripts
written to temporary files; its trace is compared line by line with expected
traces (hand-checked literals, plus a long generated script checked against a
compact table-driven model kept in this file).
"""
import os
import sys
import tempfile
import trl_agent_run as agent_run

CONTROLLER = "/app/controller.py"
TIMEOUT = 30


def trace(script):
    assert os.path.isfile(CONTROLLER), f"{CONTROLLER} is missing"
    fd, path = tempfile.mkstemp(suffix=".events")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(script)
    res = agent_run.run([sys.executable, CONTROLLER, path], capture_output=True, text=True,
                         timeout=TIMEOUT, cwd=tempfile.gettempdir())
    assert res.returncode == 0, f"exit {res.returncode}: {res.stderr[-1500:]}"
    return res.stdout


def check(script, expected):
    got = trace(script).splitlines()
    want = expected.strip("\n").splitlines()
    first = next((i for i, (g, e) in enumerate(zip(got, want)) if g != e), min(len(got), len(want)))
    assert got == want, (f"first difference at trace line {first + 1}: "
                         f"got {got[first:first + 3]!r}, expected {want[first:first + 3]!r}")


def test_initial_state_and_two_plain_cycles():
    check("tick 30\n", """
0 INIT NS_GREEN
6 NS_GREEN -> NS_YELLOW (timer)
8 NS_YELLOW -> RED_TO_EW (timer)
9 RED_TO_EW -> EW_GREEN (timer)
13 EW_GREEN -> EW_YELLOW (timer)
15 EW_YELLOW -> RED_TO_NS (timer)
16 RED_TO_NS -> NS_GREEN (timer)
22 NS_GREEN -> NS_YELLOW (timer)
24 NS_YELLOW -> RED_TO_EW (timer)
25 RED_TO_EW -> EW_GREEN (timer)
29 EW_GREEN -> EW_YELLOW (timer)
30 END EW_YELLOW timer=1 ped=0
""")


def test_tick_with_count_is_the_same_as_single_ticks():
    single = "tick\n" * 17 + "ped\n" + "tick\n" * 4
    counted = "tick 10\ntick 7\nped\ntick 1\ntick 3\n"
    expected = """
0 INIT NS_GREEN
6 NS_GREEN -> NS_YELLOW (timer)
8 NS_YELLOW -> RED_TO_EW (timer)
9 RED_TO_EW -> EW_GREEN (timer)
13 EW_GREEN -> EW_YELLOW (timer)
15 EW_YELLOW -> RED_TO_NS (timer)
16 RED_TO_NS -> NS_GREEN (timer)
17 PED_REQUEST
21 END NS_GREEN timer=5 ped=1
"""
    check(single, expected)
    check(counted, expected)


def test_pedestrian_request_is_served_after_east_west_phase():
    check("ped\ntick 6\nped\ntick 10\nped\ntick 3\nped\ntick 2\nped\ntick\n", """
0 INIT NS_GREEN
0 PED_REQUEST
6 NS_GREEN -> NS_YELLOW (timer)
6 IGNORED ped
8 NS_YELLOW -> RED_TO_EW (timer)
9 RED_TO_EW -> EW_GREEN (timer)
13 EW_GREEN -> EW_YELLOW (timer)
15 EW_YELLOW -> RED_TO_NS (timer)
16 RED_TO_NS -> PED_WALK (timer)
16 IGNORED ped
19 IGNORED ped
20 PED_WALK -> PED_FLASH (timer)
21 PED_REQUEST
22 PED_FLASH -> NS_GREEN (timer)
22 END NS_GREEN timer=0 ped=1
""")


def test_request_latched_during_flash_gets_the_next_walk():
    check("tick 3\nped\ntick 18\nped\ntick 21\n", """
0 INIT NS_GREEN
3 PED_REQUEST
6 NS_GREEN -> NS_YELLOW (timer)
8 NS_YELLOW -> RED_TO_EW (timer)
9 RED_TO_EW -> EW_GREEN (timer)
13 EW_GREEN -> EW_YELLOW (timer)
15 EW_YELLOW -> RED_TO_NS (timer)
16 RED_TO_NS -> PED_WALK (timer)
20 PED_WALK -> PED_FLASH (timer)
21 PED_REQUEST
22 PED_FLASH -> NS_GREEN (timer)
28 NS_GREEN -> NS_YELLOW (timer)
30 NS_YELLOW -> RED_TO_EW (timer)
31 RED_TO_EW -> EW_GREEN (timer)
35 EW_GREEN -> EW_YELLOW (timer)
37 EW_YELLOW -> RED_TO_NS (timer)
38 RED_TO_NS -> PED_WALK (timer)
42 PED_WALK -> PED_FLASH (timer)
42 END PED_FLASH timer=0 ped=0
""")


def test_emergency_override_clears_request_and_resumes_through_red():
    check("tick 13\nped\ntick 3\nemergency_on\ntick 5\nped\nemergency_on\nemergency_off\ntick\ntick 7\n", """
0 INIT NS_GREEN
6 NS_GREEN -> NS_YELLOW (timer)
8 NS_YELLOW -> RED_TO_EW (timer)
9 RED_TO_EW -> EW_GREEN (timer)
13 EW_GREEN -> EW_YELLOW (timer)
13 PED_REQUEST
15 EW_YELLOW -> RED_TO_NS (timer)
16 RED_TO_NS -> PED_WALK (timer)
16 PED_WALK -> EMERGENCY (emergency_on)
21 IGNORED ped
21 IGNORED emergency_on
21 EMERGENCY -> RED_TO_NS (emergency_off)
22 RED_TO_NS -> NS_GREEN (timer)
28 NS_GREEN -> NS_YELLOW (timer)
29 END NS_YELLOW timer=1 ped=0
""")
    # a request pending when the emergency starts is dropped
    check("ped\ntick 2\nemergency_on\nemergency_off\ntick 17\n", """
0 INIT NS_GREEN
0 PED_REQUEST
2 NS_GREEN -> EMERGENCY (emergency_on)
2 EMERGENCY -> RED_TO_NS (emergency_off)
3 RED_TO_NS -> NS_GREEN (timer)
9 NS_GREEN -> NS_YELLOW (timer)
11 NS_YELLOW -> RED_TO_EW (timer)
12 RED_TO_EW -> EW_GREEN (timer)
16 EW_GREEN -> EW_YELLOW (timer)
18 EW_YELLOW -> RED_TO_NS (timer)
19 RED_TO_NS -> NS_GREEN (timer)
19 END NS_GREEN timer=0 ped=0
""")


def test_fault_ignores_everything_until_reset():
    check("tick 4\nemergency_on\ntick 2\nfault\ntick 3\nped\nemergency_on\nemergency_off\nfault\ntick\nreset\ntick 5\nreset\n", """
0 INIT NS_GREEN
4 NS_GREEN -> EMERGENCY (emergency_on)
6 EMERGENCY -> FAULT (fault)
9 IGNORED ped
9 IGNORED emergency_on
9 IGNORED emergency_off
9 IGNORED fault
10 FAULT -> NS_GREEN (reset)
15 IGNORED reset
15 END NS_GREEN timer=5 ped=0
""")
    check("ped\ntick 7\nfault\ntick 40\n", """
0 INIT NS_GREEN
0 PED_REQUEST
6 NS_GREEN -> NS_YELLOW (timer)
7 NS_YELLOW -> FAULT (fault)
47 END FAULT timer=0 ped=0
""")


def test_invalid_lines_are_reported_with_line_numbers():
    script = ("# comment\n\n  tick 2  \ntick 0\ntick -1\ntick x\ntick 2 3\nPED\nboom\nped now\n"
              "\t\n   # indented comment\nemergency_off\nreset\nped\nped\ntick\n")
    check(script, """
0 INIT NS_GREEN
2 INVALID line 4: tick 0
2 INVALID line 5: tick -1
2 INVALID line 6: tick x
2 INVALID line 7: tick 2 3
2 INVALID line 8: PED
2 INVALID line 9: boom
2 INVALID line 10: ped now
2 IGNORED emergency_off
2 IGNORED reset
2 PED_REQUEST
2 IGNORED ped
3 END NS_GREEN timer=3 ped=1
""")


def test_end_line_reports_timer_and_pending_request():
    check("tick 9\nped\n", """
0 INIT NS_GREEN
6 NS_GREEN -> NS_YELLOW (timer)
8 NS_YELLOW -> RED_TO_EW (timer)
9 RED_TO_EW -> EW_GREEN (timer)
9 PED_REQUEST
9 END EW_GREEN timer=0 ped=1
""")
    check("", "0 INIT NS_GREEN\n0 END NS_GREEN timer=0 ped=0\n")
    check("emergency_on\ntick 3\n", """
0 INIT NS_GREEN
0 NS_GREEN -> EMERGENCY (emergency_on)
3 END EMERGENCY timer=0 ped=0
""")


# ---------------------------------------------------------------------------
# Long generated script, checked against a table-driven model.

TIMED = {  # state: (duration, next state)
    "NS_GREEN": (6, "NS_YELLOW"), "NS_YELLOW": (2, "RED_TO_EW"), "RED_TO_EW": (1, "EW_GREEN"),
    "EW_GREEN": (4, "EW_YELLOW"), "EW_YELLOW": (2, "RED_TO_NS"), "RED_TO_NS": (1, None),
    "PED_WALK": (4, "PED_FLASH"), "PED_FLASH": (2, "NS_GREEN"),
}


def model(lines):
    t, state, timer, ped = 0, "NS_GREEN", 0, 0
    out = ["0 INIT NS_GREEN"]

    def move(new, cause):
        nonlocal state, timer
        out.append(f"{t} {state} -> {new} ({cause})")
        state, timer = new, 0

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        words = line.split()
        if words[0] == "tick" and (len(words) == 1 or (len(words) == 2 and words[1].isdigit() and int(words[1]) > 0)):
            for _ in range(1 if len(words) == 1 else int(words[1])):
                t += 1
                if state in TIMED:
                    timer += 1
                    dur, nxt = TIMED[state]
                    if timer == dur:
                        if nxt is None:
                            nxt, ped = ("PED_WALK", 0) if ped else ("NS_GREEN", 0)
                        move(nxt, "timer")
        elif line == "ped":
            if state in ("PED_WALK", "EMERGENCY", "FAULT") or ped:
                out.append(f"{t} IGNORED ped")
            else:
                ped = 1
                out.append(f"{t} PED_REQUEST")
        elif line == "emergency_on" and state not in ("EMERGENCY", "FAULT"):
            ped = 0
            move("EMERGENCY", line)
        elif line == "emergency_off" and state == "EMERGENCY":
            move("RED_TO_NS", line)
        elif line == "fault" and state != "FAULT":
            ped = 0
            move("FAULT", line)
        elif line == "reset" and state == "FAULT":
            move("NS_GREEN", line)
        elif line in ("emergency_on", "emergency_off", "fault", "reset"):
            out.append(f"{t} IGNORED {line}")
        else:
            out.append(f"{t} INVALID line {n}: {line}")
    out.append(f"{t} END {state} timer={timer if state in TIMED else 0} ped={ped}")
    return out


def generated_script():
    seed = 20240611
    events = []
    choices = (["tick"] * 8 + ["tick N"] * 6 + ["ped"] * 5 + ["emergency_on", "emergency_off"]
               + ["emergency_off", "fault", "reset", "reset", "#note", "", "bogus", "tick 0"])
    for _ in range(700):
        seed = (seed * 1103515245 + 12345) % 2**31
        ev = choices[seed % len(choices)]
        if ev == "tick N":
            ev = f"tick {1 + (seed >> 8) % 12}"
        elif ev == "fault" and (seed >> 5) % 3:
            ev = "tick"  # keep faults rarer
        events.append(ev)
    return events


def test_long_generated_script_matches_transition_table():
    events = generated_script()
    expected = model(events)
    assert sum(1 for l in expected if "(timer)" in l) > 50
    check("\n".join(events) + "\n", "\n".join(expected))
