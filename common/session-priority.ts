// Linux schedules each session (setsid) as one group when autogroup is on (/proc/sys/kernel/sched_autogroup_enabled),
// and all Docker containers together as one group (their cgroup parent): a session with many busy processes weighs
// the same as every container at once. `trl test`'s runner is a session of its own, and its test files, their
// workers and sim fleets are most of the suite's CPU: at its default weight the agents and verifiers the tests wait
// on got a small share of a busy machine (Hermes did not make its first request within a 45 s deadline).
// Raising the session's nice value lets the containers' work come first; the tests then wait less.
import { writeFile } from 'node:fs/promises';

/** Sets the scheduling nice value (−20 to 19) of the session group `pid` belongs to; false where Linux has no
 * autogroups (another OS, autogroup off, or no permission), which leaves the scheduling as it was. */
export async function setSessionNice(pid: number, nice: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/autogroup`, String(nice));
    return true;
  } catch {
    return false;
  }
}
